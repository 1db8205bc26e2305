/* gather: torch.gather(input, dim, index), ONNX GatherElements, numpy.take_along_axis.
 * Blocks are single elements in index's shape: out[..i_dim..] = input[..index[..]..]. Rank 0
 * is treated as shape [1], as in torch. https://pytorch.org/docs/stable/generated/torch.gather.html */
#include "op.h"

typedef struct gather_plan {
  wg_plan plan; /* first: the engine's job is this plan */
  size_t rank;
  size_t dim;
  const size_t* index_shape;
  size_t in_strides[WG_MAX_RANK]; /* bytes */
} gather_plan;

static void gather_map(const wg_block_job* job, size_t q, size_t n, wg_segment* seg) {
  const gather_plan* g = (const gather_plan*)job;
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
static wg_status plan_gather(const wg_op_args* a, gather_plan* g, wg_error_info* err) {
  if (a->index_rank != a->data_rank) {
    return wg_fail(err, WG_ERR_RANK_MISMATCH, WG_ARG_INDICES, -1, (int64_t)a->index_rank,
                   (int64_t)a->data_rank);
  }
  size_t rank = a->data_rank ? a->data_rank : 1, dim;
  const size_t* in_shape = a->data_rank ? a->data_shape : scalar_shape;
  const size_t* ix_shape = a->data_rank ? a->index_shape : scalar_shape;
  wg_status st = wg_normalize_axis(a->axis, (int64_t)rank, &dim, err);
  if (st != WG_OK) return st;
  for (size_t d = 0; d < rank; ++d) {
    if (d != dim && ix_shape[d] > in_shape[d]) {
      return wg_fail(err, WG_ERR_INDEX_SHAPE, WG_ARG_INDICES, (int64_t)d, (int64_t)ix_shape[d],
                     (int64_t)in_shape[d]);
    }
  }

  wg_plan* p = &g->plan;
  p->out_rank = 0;
  wg_plan_append(p, a->index_shape, 0, a->index_rank);
  size_t count = wg_prod(ix_shape, 0, rank);
  g->rank = rank;
  g->dim = dim;
  g->index_shape = ix_shape;
  for (size_t d = 0; d < rank; ++d) g->in_strides[d] = 0;
  if (count && wg_prod(in_shape, 0, rank) != 0) {
    /* index is not empty, so no input dim but `dim` is empty; if that one is, every index is
     * out of range, and strides stay 0 (computed, they could overflow into offsets that would
     * form pointers outside the input). Otherwise input is not empty and these fit. */
    size_t stride = a->elem_size;
    for (size_t d = rank; d-- > 0;) {
      g->in_strides[d] = stride;
      stride *= in_shape[d];
    }
  }
  p->job = (wg_block_job){.nblocks = count, .block_bytes = a->elem_size, .map = gather_map,
                          .depth = 1, .dim_sizes = &in_shape[dim], .first_dim = dim,
                          .scales = {g->in_strides[dim]}};
  return WG_OK;
}

WG_DEFINE_OP(gather, gather_plan, plan_gather)

wg_status wg_gather_shape(const size_t* input_shape, size_t input_rank, const size_t* index_shape,
                          size_t index_rank, int32_t dim, size_t* out_shape, size_t* out_rank,
                          wg_error_info* err) {
  const wg_op_args a = {.data_shape = input_shape, .data_rank = input_rank,
                        .index_shape = index_shape, .index_rank = index_rank, .axis = dim,
                        .elem_size = 1};
  return wg_gather_shape_args(&a, out_shape, out_rank, err);
}

wg_status wg_gather_ex(wg_pool* pool, const void* input, const size_t* input_shape,
                       size_t input_rank, int32_t dim, const void* index, wg_index_type index_type,
                       const size_t* index_shape, size_t index_rank, size_t elem_size,
                       wg_oob_mode mode, wg_negative_mode negative, void* out, wg_error_info* err) {
  const wg_op_args a = {.data_shape = input_shape, .data_rank = input_rank,
                        .index_shape = index_shape, .index_rank = index_rank, .axis = dim,
                        .batch_dims = 0, .elem_size = elem_size, .data = input,
                        .indices = index, .index_type = index_type, .mode = mode,
                        .negative_indices = (int32_t)negative, .out = out};
  return wg_gather_run_args(pool, &a, err);
}

wg_status wg_gather(wg_pool* pool, const void* input, const size_t* input_shape, size_t input_rank,
                    int32_t dim, const void* index, wg_index_type index_type,
                    const size_t* index_shape, size_t index_rank, size_t elem_size,
                    wg_oob_mode mode, void* out, wg_error_info* err) {
  return wg_gather_ex(pool, input, input_shape, input_rank, dim, index, index_type, index_shape,
                      index_rank, elem_size, mode, WG_NEGATIVE_WRAP, out, err);
}
