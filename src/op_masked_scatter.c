/* masked_scatter: torch.Tensor.masked_scatter(mask, source): data with the elements where the mask
 * (of data's shape) is true, in row-major order, taking source's first values, one each; source
 * must hold at least as many as the mask's true elements (else nothing is written).
 * https://pytorch.org/docs/stable/generated/torch.Tensor.masked_scatter_.html */
#include "op.h"
#include "stage_mask.h"

typedef struct masked_scatter_plan {
  wg_plan plan; /* first, as every op's */
  wg_mask_job job;
} masked_scatter_plan;

static wg_status plan_masked_scatter(const wg_call* c, masked_scatter_plan* t, wg_error_info* err) {
  const wg_tensor* data = &c->tensors[WG_TENSOR_data];
  const wg_tensor* mask = &c->tensors[WG_TENSOR_mask];
  const wg_tensor* source = &c->tensors[WG_TENSOR_updates];
  if (mask->rank != data->rank) return wg_fail(err, WG_ERR_MASK_SHAPE, WG_ARG_MASK, -1, (int64_t)mask->rank, (int64_t)data->rank);
  for (size_t d = 0; d < mask->rank; ++d) {
    if (mask->shape[d] != data->shape[d]) {
      return wg_fail(err, WG_ERR_MASK_SHAPE, WG_ARG_MASK, (int64_t)d, (int64_t)mask->shape[d], (int64_t)data->shape[d]);
    }
  }
  size_t elem = wg_elem_bytes(data);
  if (!elem) return wg_fail(err, WG_ERR_INVALID_ARGUMENT, WG_ARG_DATA, -1, -1, -1);
  if (source->dtype != data->dtype) return wg_fail(err, WG_ERR_UPDATES_TYPE, WG_ARG_UPDATES, -1, source->dtype, data->dtype);
  size_t len = wg_prod(data->shape, 0, data->rank), source_len = wg_prod(source->shape, 0, source->rank);
  if (len == SIZE_MAX || source_len == SIZE_MAX) return wg_fail(err, WG_ERR_SIZE_OVERFLOW, WG_ARG_DATA, -1, -1, -1);
  wg_mask_job* j = &t->job;
  j->write = WG_MASK_SOURCE;
  j->len = len;
  j->item_bytes = elem;
  j->source_len = source_len;
  wg_plan* p = &t->plan;
  p->out_dtype = data->dtype;
  p->from_data = 1;
  wg_plan_append(p, data->shape, 0, data->rank);
  return wg_plan_mask(p, j, mask, 0, err);
}

WG_DEFINE_OP(masked_scatter, masked_scatter_plan, plan_masked_scatter)
