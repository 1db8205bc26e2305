/* The helpers every op's plan function uses (src/op.h). */
#include "op.h"

#include "parallel.h"

wg_status wg_fail(wg_error_info* err, wg_status status, wg_arg arg, int64_t dim, int64_t value,
                  int64_t limit) {
  if (err) {
    err->arg = arg;
    err->dim = dim;
    err->value = value;
    err->limit = limit;
    err->position = -1;
  }
  return status;
}

size_t wg_prod(const size_t* shape, size_t begin, size_t end) {
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

wg_status wg_check_batch_shape(const wg_tensor* data, const wg_tensor* indices, size_t batch_dims,
                               wg_error_info* err) {
  for (size_t d = 0; d < batch_dims; ++d) {
    if (data->shape[d] != indices->shape[d]) {
      return wg_fail(err, WG_ERR_BATCH_SHAPE, WG_ARG_INDICES, (int64_t)d,
                     (int64_t)indices->shape[d], (int64_t)data->shape[d]);
    }
  }
  return WG_OK;
}

wg_status wg_normalize_axis(int64_t axis, int64_t rank, size_t* out, wg_error_info* err) {
  if (axis < -rank || axis >= rank) return wg_fail(err, WG_ERR_AXIS, WG_ARG_AXIS, -1, axis, rank);
  *out = (size_t)(axis < 0 ? axis + rank : axis);
  return WG_OK;
}

void wg_plan_append(wg_plan* plan, const size_t* shape, size_t begin, size_t end) {
  for (size_t d = begin; d < end; ++d) plan->out_shape[plan->out_rank++] = shape[d];
}

void wg_plan_stage(wg_plan* plan, const wg_stage_kind* kind, void* job, size_t range, size_t tile) {
  plan->stages[plan->nstages++] = (wg_stage){.kind = kind, .job = job, .range = range, .tile = tile};
}

size_t wg_tile_for(size_t item_bytes) {
  size_t tile = item_bytes ? WG_TILE_BYTES / item_bytes : 1;
  return tile ? tile : 1;
}

void wg_strides(const size_t* shape, size_t n, size_t unit, size_t* strides) {
  for (size_t k = n; k-- > 0;) {
    strides[k] = unit;
    unit *= shape[k];
  }
}

size_t wg_elem_bytes(const wg_tensor* t) {
  unsigned bits = wg_dtype_bits(t->dtype);
  return bits >= 8 ? bits / 8 : 0;
}
