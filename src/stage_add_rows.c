#include "stage_add_rows.h"

#include <string.h>

static int run_add_rows(void* ctx, size_t start, size_t count) {
  const wg_add_rows_job* t = ctx;
  if (!t->starts) return 0; /* the op resolved no rows: a bad index, which the runner reports */
  const size_t row_bytes = t->row_elems * t->elem_bytes;
  if (t->zero) memset(t->out + start * row_bytes, 0, count * row_bytes);
  const size_t first = t->starts[start], n = t->starts[start + count] - first;
  if (!n) return 1;
  if (t->scales) {
    t->kernels.apply_scaled(t->out, t->src, t->dest, t->order + first, t->srcs, t->scales, n, t->row_elems, 0);
  } else {
    t->kernels.apply(t->out, t->src, t->dest, t->order + first, t->srcs, n, t->row_elems, 0);
  }
  return 1;
}

/* Nothing to bind: the op sets the addresses and the order once it has resolved the rows. */
static void bind_add_rows(void* ctx, const wg_call* c, size_t threads) {
  (void)c;
  (void)threads;
  wg_add_rows_job* t = ctx;
  wg_pick_reduce(t->dtype, WG_REDUCE_ADD, &t->kernels); /* float32 or float64: the plan checked */
}

const wg_stage_kind wg_stage_add_rows = {bind_add_rows, run_add_rows, WG_STAGE_IN_RUN, NULL};

void wg_plan_add_rows(wg_plan* plan, wg_add_rows_job* t) {
  size_t row_bytes = t->row_elems * t->elem_bytes;
  wg_plan_stage(plan, &wg_stage_add_rows, t, t->row_elems ? t->rows : 0, wg_tile_for(row_bytes ? row_bytes : 1));
}
