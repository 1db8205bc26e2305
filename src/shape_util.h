/* Small shape helpers shared by the ops. */
#ifndef WG_SHAPE_UTIL_H
#define WG_SHAPE_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "wasm_gather.h"

/* Product of shape[begin..end), or SIZE_MAX if it overflows (only possible with an empty
 * tensor elsewhere, or a bogus shape). */
static inline size_t wg_prod(const size_t* shape, size_t begin, size_t end) {
  for (size_t d = begin; d < end; ++d) {
    if (shape[d] == 0) return 0;
  }
  size_t p = 1;
  for (size_t d = begin; d < end; ++d) {
    if (p > SIZE_MAX / shape[d]) return SIZE_MAX;
    p *= shape[d];
  }
  return p;
}

/* Fills *err (if any) and returns status. */
static inline wg_status wg_fail(wg_error_info* err, wg_status status, wg_arg arg, int64_t dim,
                                int64_t value, int64_t limit) {
  if (err) {
    err->arg = arg;
    err->dim = dim;
    err->value = value;
    err->limit = limit;
    err->position = -1;
  }
  return status;
}

static inline int wg_elem_size_valid(size_t s) { return s == 1 || s == 2 || s == 4 || s == 8; }

/* The checks every op makes once its shapes are valid: known element size, index type and mode,
 * an output whose byte size fits in size_t, and no NULL tensor that would be read or written. */
static inline wg_status wg_check_op_args(const size_t* out_shape, size_t out_rank, size_t elem_size,
                                         int index_type_valid, wg_oob_mode mode, const void* data,
                                         const void* indices, size_t index_count, const void* out,
                                         wg_error_info* err) {
  if (!wg_elem_size_valid(elem_size) || !index_type_valid || mode > WG_OOB_CLAMP) {
    return wg_fail(err, WG_ERR_INVALID_ARGUMENT, WG_ARG_NONE, -1, -1, -1);
  }
  size_t n = wg_prod(out_shape, 0, out_rank);
  if (n == SIZE_MAX || (n != 0 && elem_size > SIZE_MAX / n)) {
    return wg_fail(err, WG_ERR_SIZE_OVERFLOW, WG_ARG_OUT, -1, -1, -1);
  }
  if ((index_count && !indices) || (n && (!data || !out))) {
    return wg_fail(err, WG_ERR_INVALID_ARGUMENT, WG_ARG_NONE, -1, -1, -1);
  }
  return WG_OK;
}

#endif
