/* boolean_mask: tf.boolean_mask(data, mask, axis): a mask of K dims over data's dims [axis, axis +
 * K) keeps the slices where it is true, in row-major order, in each block of the dims before:
 * output data.shape[:axis] + [count] + data.shape[axis + K:]. torch.masked_select is the mask of
 * data's whole shape.
 * https://www.tensorflow.org/api_docs/python/tf/boolean_mask */
#include "op.h"
#include "stage_mask.h"

typedef struct boolean_mask_plan {
  wg_plan plan; /* first, as every op's */
  wg_mask_job job;
} boolean_mask_plan;

static wg_status plan_boolean_mask(const wg_call* c, boolean_mask_plan* t, wg_error_info* err) {
  const wg_tensor* data = &c->tensors[WG_TENSOR_data];
  const wg_tensor* mask = &c->tensors[WG_TENSOR_mask];
  if (data->rank < 1) return wg_fail(err, WG_ERR_DATA_SCALAR, WG_ARG_DATA, -1, 0, 1);
  size_t axis;
  wg_status st = wg_normalize_axis(c->attrs[WG_ATTR_axis], (int64_t)data->rank, &axis, err);
  if (st != WG_OK) return st;
  if (mask->rank < 1 || mask->rank > data->rank - axis) {
    return wg_fail(err, WG_ERR_MASK_SHAPE, WG_ARG_MASK, -1, (int64_t)mask->rank, (int64_t)(data->rank - axis));
  }
  for (size_t d = 0; d < mask->rank; ++d) {
    if (mask->shape[d] != data->shape[axis + d]) {
      return wg_fail(err, WG_ERR_MASK_SHAPE, WG_ARG_MASK, (int64_t)d, (int64_t)mask->shape[d], (int64_t)data->shape[axis + d]);
    }
  }
  size_t elem = wg_elem_bytes(data);
  if (!elem) return wg_fail(err, WG_ERR_INVALID_ARGUMENT, WG_ARG_DATA, -1, -1, -1);
  size_t after = axis + mask->rank;
  wg_mask_job* j = &t->job;
  j->write = WG_MASK_SLICES;
  j->len = wg_prod(mask->shape, 0, mask->rank);
  j->stride = j->len;
  j->outer = wg_prod(data->shape, 0, axis);
  size_t inner = wg_prod(data->shape, after, data->rank);
  if (inner > SIZE_MAX / elem) return wg_fail(err, WG_ERR_SIZE_OVERFLOW, WG_ARG_OUT, -1, -1, -1);
  j->item_bytes = inner * elem;
  wg_plan* p = &t->plan;
  p->out_dtype = data->dtype;
  wg_plan_append(p, data->shape, 0, axis);
  wg_plan_append(p, &j->len, 0, 1);
  wg_plan_append(p, data->shape, after, data->rank);
  if (j->len == SIZE_MAX || j->outer == SIZE_MAX || wg_prod(p->out_shape, 0, p->out_rank) == SIZE_MAX) {
    return wg_fail(err, WG_ERR_SIZE_OVERFLOW, WG_ARG_OUT, -1, -1, -1);
  }
  return wg_plan_mask(p, j, mask, axis + 1, err);
}

WG_DEFINE_OP(boolean_mask, boolean_mask_plan, plan_boolean_mask)
