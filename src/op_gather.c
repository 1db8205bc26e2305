/* gather, the elements op: torch.gather(input, dim, index), ONNX GatherElements,
 * numpy.take_along_axis (the C name is the public API's: wg_gather).
 * Blocks are single elements in index's shape: out[..i_dim..] = input[..index[..]..]. Rank 0
 * is treated as shape [1], as in torch. https://pytorch.org/docs/stable/generated/torch.gather.html */
#include "call.h"
#include "op.h"
#include "stage_copy.h"

typedef struct gather_elements_plan {
  wg_plan plan; /* first, as every op's */
  wg_block_job job;
  size_t rank;
  size_t dim;
  const size_t* index_shape;
  size_t in_strides[WG_MAX_RANK]; /* bytes */
} gather_elements_plan;

static void gather_elements_map(const wg_block_job* job, size_t q, size_t n, wg_segment* seg) {
  const gather_elements_plan* g = WG_CONTAINER_OF(job, const gather_elements_plan, job);
  size_t last = g->rank - 1, row_len = g->index_shape[last];
  size_t k = q % row_len, row = q / row_len;
  /* offset of the row's first element in input, without the gathered dim */
  size_t base = 0;
  for (size_t d = last; d-- > 0;) {
    size_t i = row % g->index_shape[d];
    row /= g->index_shape[d];
    if (d != g->dim) base += i * g->in_strides[d];
  }
  seg->ramp = g->dim == last ? 0 : g->in_strides[last];
  seg->count = row_len - k < n ? row_len - k : n;
  seg->first = q;
  seg->base = base + k * seg->ramp;
}

static const size_t scalar_shape[1] = {1};

/* Equal ranks; dim in [-rank, rank); index.shape[d] <= input.shape[d] for d != dim. Output:
 * index's shape. */
static wg_status plan_gather_elements(const wg_call* c, gather_elements_plan* g, wg_error_info* err) {
  const wg_tensor* input = &c->tensors[WG_TENSOR_data];
  const wg_tensor* index = &c->tensors[WG_TENSOR_indices];
  if (index->rank != input->rank) {
    return wg_fail(err, WG_ERR_RANK_MISMATCH, WG_ARG_INDICES, -1, (int64_t)index->rank,
                   (int64_t)input->rank);
  }
  size_t rank = input->rank ? input->rank : 1, dim;
  const size_t* in_shape = input->rank ? input->shape : scalar_shape;
  const size_t* ix_shape = input->rank ? index->shape : scalar_shape;
  wg_status st = wg_normalize_axis(c->attrs[WG_ATTR_axis], (int64_t)rank, &dim, err);
  if (st != WG_OK) return st;
  for (size_t d = 0; d < rank; ++d) {
    if (d != dim && ix_shape[d] > in_shape[d]) {
      return wg_fail(err, WG_ERR_INDEX_SHAPE, WG_ARG_INDICES, (int64_t)d, (int64_t)ix_shape[d],
                     (int64_t)in_shape[d]);
    }
  }

  size_t elem = wg_elem_bytes(input);
  if (!elem) return wg_fail(err, WG_ERR_INVALID_ARGUMENT, WG_ARG_DATA, -1, -1, -1);
  wg_plan* p = &g->plan;
  p->out_dtype = input->dtype;
  wg_plan_append(p, index->shape, 0, index->rank);
  size_t count = wg_prod(ix_shape, 0, rank);
  g->rank = rank;
  g->dim = dim;
  g->index_shape = ix_shape;
  for (size_t d = 0; d < rank; ++d) g->in_strides[d] = 0;
  if (count && wg_prod(in_shape, 0, rank) != 0) {
    /* index is not empty, so no input dim but `dim` is empty; if that one is, every index is
     * out of range, and strides stay 0 (computed, they could overflow into offsets that would
     * form pointers outside the input). Otherwise input is not empty and these fit. */
    wg_strides(in_shape, rank, elem, g->in_strides);
  }
  g->job = (wg_block_job){.nblocks = count, .block_bytes = elem, .map = gather_elements_map, .depth = 1,
                          .dim_sizes = &in_shape[dim], .strides = {g->in_strides[dim]}};
  wg_plan_block_copy(p, &g->job, dim);
  return WG_OK;
}

WG_DEFINE_OP(gather, gather_elements_plan, plan_gather_elements)

wg_status wg_gather_shape(const size_t* input_shape, size_t input_rank, const size_t* index_shape,
                          size_t index_rank, int32_t dim, size_t* out_shape, size_t* out_rank,
                          wg_error_info* err) {
  wg_call c;
  wg_status st = wg_call_indexed(&c, WG_OP_gather, NULL, 1, input_shape, input_rank, NULL,
                                 WG_INDEX_I32, index_shape, index_rank, WG_OOB_ERROR,
                                 WG_NEGATIVE_WRAP, NULL);
  c.attrs[WG_ATTR_axis] = dim;
  return st == WG_OK ? wg_call_shape_out(&c, out_shape, out_rank, err) : wg_call_failed(&c, st, err);
}

wg_status wg_gather_ex(wg_pool* pool, const void* input, const size_t* input_shape,
                       size_t input_rank, int32_t dim, const void* index, wg_index_type index_type,
                       const size_t* index_shape, size_t index_rank, size_t elem_size,
                       wg_oob_mode mode, wg_negative_mode negative, void* out, wg_error_info* err) {
  wg_call c;
  wg_status st = wg_call_indexed(&c, WG_OP_gather, input, elem_size, input_shape, input_rank,
                                 index, index_type, index_shape, index_rank, mode, negative, out);
  c.attrs[WG_ATTR_axis] = dim;
  return st == WG_OK ? wg_call_run_api(pool, &c, err) : wg_call_failed(&c, st, err);
}

wg_status wg_gather(wg_pool* pool, const void* input, const size_t* input_shape, size_t input_rank,
                    int32_t dim, const void* index, wg_index_type index_type,
                    const size_t* index_shape, size_t index_rank, size_t elem_size,
                    wg_oob_mode mode, void* out, wg_error_info* err) {
  return wg_gather_ex(pool, input, input_shape, input_rank, dim, index, index_type, index_shape,
                      index_rank, elem_size, mode, WG_NEGATIVE_WRAP, out, err);
}
