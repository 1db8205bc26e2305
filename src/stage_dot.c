#include "stage_dot.h"

/* Products and sums are rounded as written: CMakeLists.txt builds with -ffp-contract=off. A
 * float32 product is exact in float64, so a float32 dot is its float64 sum rounded once. */
static double dot_f32(const float* restrict x, const float* restrict y, size_t n) {
  double s = 0;
  for (size_t e = 0; e < n; ++e) s += (double)x[e] * y[e];
  return s;
}

static double dot_f64(const double* restrict x, const double* restrict y, size_t n) {
  double s = 0;
  for (size_t e = 0; e < n; ++e) s += x[e] * y[e];
  return s;
}

static int run_dots(void* ctx, size_t start, size_t count) {
  const wg_dot_job* t = ctx;
  if (!t->a_rows) return 0; /* the op resolved no rows: a bad index, which the runner reports */
  for (size_t q = start; q < start + count; ++q) {
    size_t ra = t->a_rows[q], rb = t->b_rows[q];
    int none = ra == SIZE_MAX || rb == SIZE_MAX;
    if (t->f64) {
      ((double*)(void*)t->out)[q] = none ? 0 : dot_f64((const double*)(const void*)t->a + ra * t->dim,
                                                       (const double*)(const void*)t->b + rb * t->dim, t->dim);
    } else {
      ((float*)(void*)t->out)[q] = none ? 0 : (float)dot_f32((const float*)(const void*)t->a + ra * t->dim,
                                                             (const float*)(const void*)t->b + rb * t->dim, t->dim);
    }
  }
  return 1;
}

/* Nothing to bind: the op sets the rows and addresses once it has resolved them. */
static void bind_dots(void* ctx, const wg_call* c, size_t threads) {
  (void)ctx;
  (void)c;
  (void)threads;
}

const wg_stage_kind wg_stage_dot = {bind_dots, run_dots, WG_STAGE_IN_RUN, NULL};
