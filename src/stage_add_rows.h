/* Rows added into destination rows in the order of their destinations, a kind of stage (src/op.h):
 * destination row r is out's row r, and its items are order[starts[r] .. starts[r + 1]) (sorted by
 * destination, each destination's in item order); item q adds the row of src that begins at element
 * srcs[q], times scales[q] when there are scales (a fused multiply-add: scatter_kernels.h's
 * apply_scaled), else as it is (the add kernel). Items are destination rows, in parallel: each row
 * is written by one tile, its items in order, so the result is the same at any thread count.
 * Visiting the rows in address order, not the items', keeps a table's random rows from costing a
 * cache miss each (the bags' gradient). */
#ifndef WG_STAGE_ADD_ROWS_H
#define WG_STAGE_ADD_ROWS_H

#include "op.h"
#include "scatter_kernels.h"

typedef struct wg_add_rows_job {
  /* set by the op's plan */
  size_t rows, row_elems, elem_bytes;
  int32_t dtype;
  int zero; /* each row starts as zeros (else it is added into as it is) */
  /* set by the op before the run (its validate hook); starts NULL: nothing to run (a bad index) */
  uint8_t* out;
  const uint8_t* src;
  const size_t *starts, *order, *dest, *srcs;
  const void* scales;
  wg_reduce_kernels kernels;
} wg_add_rows_job;

extern const wg_stage_kind wg_stage_add_rows;

/* Adds the job as a stage of the plan (rows a tile by their bytes). */
void wg_plan_add_rows(wg_plan* plan, wg_add_rows_job* job);

#endif
