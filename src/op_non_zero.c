/* non_zero: the coordinates of data's non-zero elements, in row-major order, as columns [rank,
 * count] (ONNX NonZero) or rows [count, rank] (rows_first: torch.nonzero, tf.where), int32 or
 * int64. Any element type: NaN is non-zero, -0 is zero (stage_mask.h).
 * https://onnx.ai/onnx/operators/onnx__NonZero.html
 * https://pytorch.org/docs/stable/generated/torch.nonzero.html */
#include <string.h>

#include "op.h"
#include "stage_mask.h"

typedef struct non_zero_plan {
  wg_plan plan; /* first, as every op's */
  wg_mask_job job;
} non_zero_plan;

static wg_status plan_non_zero(const wg_call* c, non_zero_plan* t, wg_error_info* err) {
  const wg_tensor* data = &c->tensors[WG_TENSOR_data];
  int32_t index_type = c->attrs[WG_ATTR_index_type];
  if (index_type != WG_INDEX_I32 && index_type != WG_INDEX_I64) {
    return wg_fail(err, WG_ERR_INVALID_ARGUMENT, WG_ARG_NONE, -1, index_type, -1);
  }
  size_t len = wg_prod(data->shape, 0, data->rank);
  if (len == SIZE_MAX) return wg_fail(err, WG_ERR_SIZE_OVERFLOW, WG_ARG_DATA, -1, -1, -1);
  wg_mask_job* j = &t->job;
  j->write = WG_MASK_COORDS;
  j->len = len;
  j->rank = data->rank;
  memcpy(j->shape, data->shape, data->rank * sizeof *data->shape);
  if (!data->rank && !c->attrs[WG_ATTR_rows_first]) { /* a scalar as [1], as onnxruntime's NonZero: [1, count] */
    j->rank = 1;
    j->shape[0] = 1;
  }
  j->item_bytes = index_type == WG_INDEX_I32 ? 4 : 8;
  j->rows_first = c->attrs[WG_ATTR_rows_first] != 0;
  wg_plan* p = &t->plan;
  p->out_dtype = index_type == WG_INDEX_I32 ? WG_DTYPE_I32 : WG_DTYPE_I64;
  size_t rank = j->rank, dims[2] = {j->rows_first ? len : rank, j->rows_first ? rank : len};
  wg_plan_append(p, dims, 0, 2);
  return wg_plan_mask(p, j, data, j->rows_first ? 1 : 2, err);
}

WG_DEFINE_OP(non_zero, non_zero_plan, plan_non_zero)
