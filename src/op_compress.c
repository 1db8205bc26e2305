/* compress: ONNX Compress(data, condition, axis): a 1-D condition keeps the slices along axis where
 * it is true (a condition shorter than the axis selects from its length only), or with no axis
 * (flatten) the elements of data flattened: output [count].
 * https://onnx.ai/onnx/operators/onnx__Compress.html */
#include "op.h"
#include "stage_mask.h"

typedef struct compress_plan {
  wg_plan plan; /* first, as every op's */
  wg_mask_job job;
} compress_plan;

static wg_status plan_compress(const wg_call* c, compress_plan* t, wg_error_info* err) {
  const wg_tensor* data = &c->tensors[WG_TENSOR_data];
  const wg_tensor* mask = &c->tensors[WG_TENSOR_mask];
  int flatten = c->attrs[WG_ATTR_flatten] != 0;
  if (mask->rank != 1) return wg_fail(err, WG_ERR_MASK_SHAPE, WG_ARG_MASK, -1, (int64_t)mask->rank, 1);
  size_t elem = wg_elem_bytes(data);
  if (!elem) return wg_fail(err, WG_ERR_INVALID_ARGUMENT, WG_ARG_DATA, -1, -1, -1);
  size_t axis = 0, all = wg_prod(data->shape, 0, data->rank);
  if (all == SIZE_MAX) return wg_fail(err, WG_ERR_SIZE_OVERFLOW, WG_ARG_DATA, -1, -1, -1);
  if (!flatten) {
    if (data->rank < 1) return wg_fail(err, WG_ERR_DATA_SCALAR, WG_ARG_DATA, -1, 0, 1);
    wg_status st = wg_normalize_axis(c->attrs[WG_ATTR_axis], (int64_t)data->rank, &axis, err);
    if (st != WG_OK) return st;
  }
  size_t along = flatten ? all : data->shape[axis];
  if (mask->shape[0] > along) return wg_fail(err, WG_ERR_MASK_SHAPE, WG_ARG_MASK, -2, (int64_t)mask->shape[0], (int64_t)along);
  wg_mask_job* j = &t->job;
  j->write = WG_MASK_SLICES;
  j->len = mask->shape[0];
  j->stride = along;
  j->outer = flatten ? 1 : wg_prod(data->shape, 0, axis);
  size_t inner = flatten ? 1 : wg_prod(data->shape, axis + 1, data->rank);
  if (inner > SIZE_MAX / elem) return wg_fail(err, WG_ERR_SIZE_OVERFLOW, WG_ARG_OUT, -1, -1, -1);
  j->item_bytes = inner * elem;
  wg_plan* p = &t->plan;
  p->out_dtype = data->dtype;
  if (flatten) {
    wg_plan_append(p, &j->len, 0, 1);
  } else {
    wg_plan_append(p, data->shape, 0, axis);
    wg_plan_append(p, &j->len, 0, 1);
    wg_plan_append(p, data->shape, axis + 1, data->rank);
  }
  return wg_plan_mask(p, j, mask, flatten ? 1 : axis + 1, err);
}

WG_DEFINE_OP(compress, compress_plan, plan_compress)
