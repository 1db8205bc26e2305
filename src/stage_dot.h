/* Dot products of pairs of rows, a kind of stage (src/op.h): item q is the dot of row a_rows[q]
 * of a and row b_rows[q] of b, dim elements each, summed in column order in float64 and rounded
 * once to the output's type; a row SIZE_MAX on either side makes it 0. The bag backward's
 * gradient for its per-sample weights. */
#ifndef WG_STAGE_DOT_H
#define WG_STAGE_DOT_H

#include "op.h"

typedef struct wg_dot_job {
  /* set by the op's plan */
  size_t items, dim;
  int f64; /* float64 rows and output; else float32 */
  /* set by the op before the run (its validate hook) */
  const uint8_t *a, *b;
  const size_t *a_rows, *b_rows;
  uint8_t* out;
} wg_dot_job;

extern const wg_stage_kind wg_stage_dot;

#endif
