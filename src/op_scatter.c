/* scatter, the elements op: torch.scatter / scatter_add / scatter_reduce, ONNX ScatterElements,
 * WebNN scatterElements; the mirror of torch.gather. Items are index's elements: index[i] writes
 * input[i with coordinate dim replaced by index[i]] from src[i] (src may be larger than index:
 * torch's rule). Rank 0 is treated as shape [1], as in torch.
 * https://pytorch.org/docs/stable/generated/torch.Tensor.scatter_reduce_.html */
#include "call.h"
#include "op.h"
#include "stage_scatter.h"

typedef struct scatter_plan {
  wg_plan plan; /* first, as every op's */
  wg_scatter_job job;
  size_t rank, dim;
  size_t dim_size; /* input.shape[dim] */
  const size_t* index_shape;
  size_t in_strides[WG_MAX_RANK];  /* elements */
  size_t src_strides[WG_MAX_RANK]; /* elements */
} scatter_plan;

/* Items along index's last dimension at a time: their destinations and sources step by one
 * (the destination along dim by the index). */
static int scatter_resolve(const wg_scatter_job* job, size_t q, size_t n, size_t* dest, size_t* src) {
  const scatter_plan* s = WG_CONTAINER_OF(job, const scatter_plan, job);
  size_t last = s->rank - 1, row_len = s->index_shape[last];
  for (size_t j = 0; j < n;) {
    size_t k = (q + j) % row_len, row = (q + j) / row_len;
    size_t len = row_len - k < n - j ? row_len - k : n - j;
    size_t base = 0, src_base = 0;
    for (size_t d = last; d-- > 0;) {
      size_t i = row % s->index_shape[d];
      row /= s->index_shape[d];
      if (d != s->dim) base += i * s->in_strides[d];
      src_base += i * s->src_strides[d];
    }
    if (wg_resolve_indices(job->indices, job->index_type, q + j, 1, len, s->dim_size, base, s->in_strides[s->dim], job->mode, job->negative, 0, dest + j) != WG_OK) {
      return 0;
    }
    if (s->dim != last) wg_offsets_add_ramp(dest + j, len, k, 1);
    if (src) {
      for (size_t t = 0; t < len; ++t) src[j + t] = src_base + k + t;
    }
    j += len;
  }
  return 1;
}

static const size_t scalar_shape[1] = {1};

/* Equal ranks (src of rank 0 with index of rank > 0: the value form); dim in [-rank, rank);
 * index.shape[d] <= src.shape[d], and <= input.shape[d] for d != dim. Output: input's shape. */
static wg_status plan_scatter(const wg_call* c, scatter_plan* s, wg_error_info* err) {
  const wg_tensor* input = &c->tensors[WG_TENSOR_data];
  const wg_tensor* index = &c->tensors[WG_TENSOR_indices];
  const wg_tensor* src = &c->tensors[WG_TENSOR_updates];
  size_t elem, dim;
  wg_status st = wg_scatter_begin(c, &s->plan, &s->job, WG_SCATTER_WITH_MEAN, &elem, err);
  if (st != WG_OK) return st;
  if (index->rank != input->rank) {
    return wg_fail(err, WG_ERR_RANK_MISMATCH, WG_ARG_INDICES, -1, (int64_t)index->rank, (int64_t)input->rank);
  }
  int value_form = src->rank == 0 && index->rank > 0;
  if (!value_form && src->rank != index->rank) {
    return wg_fail(err, WG_ERR_UPDATES_SHAPE, WG_ARG_UPDATES, -1, (int64_t)src->rank, (int64_t)index->rank);
  }
  size_t rank = input->rank ? input->rank : 1;
  const size_t* in_shape = input->rank ? input->shape : scalar_shape;
  const size_t* ix_shape = input->rank ? index->shape : scalar_shape;
  const size_t* src_shape = src->rank ? src->shape : scalar_shape;
  st = wg_normalize_axis(c->attrs[WG_ATTR_axis], (int64_t)rank, &dim, err);
  if (st != WG_OK) return st;
  for (size_t d = 0; d < rank; ++d) {
    if (!value_form && ix_shape[d] > src_shape[d]) {
      return wg_fail(err, WG_ERR_UPDATES_SHAPE, WG_ARG_UPDATES, (int64_t)d, (int64_t)src_shape[d],
                     (int64_t)ix_shape[d]);
    }
    if (d != dim && ix_shape[d] > in_shape[d]) {
      return wg_fail(err, WG_ERR_INDEX_SHAPE, WG_ARG_INDICES, (int64_t)d, (int64_t)ix_shape[d],
                     (int64_t)in_shape[d]);
    }
  }

  s->rank = rank;
  s->dim = dim;
  s->dim_size = in_shape[dim];
  s->index_shape = ix_shape;
  size_t out_count = wg_prod(in_shape, 0, rank), count = wg_prod(ix_shape, 0, rank);
  int same = 1;
  for (size_t d = 0; d < rank; ++d) same &= value_form || src_shape[d] == ix_shape[d];
  for (size_t d = 0; d < rank; ++d) s->in_strides[d] = s->src_strides[d] = 0;
  if (out_count && count) { /* neither empty: the strides fit (src is at least index) */
    wg_strides(in_shape, rank, 1, s->in_strides);
    if (!value_form) wg_strides(src_shape, rank, 1, s->src_strides);
  }
  s->job = (wg_scatter_job){.nitems = out_count ? count : 0, .row_elems = 1, .dest_rows = out_count,
                            .src_step = value_form ? 0 : 1, .src_map = !same,
                            /* index's coordinates before dim are the destination's: each of
                               their values is a slab of the items after it */
                            .slab_items = dim ? wg_prod(ix_shape, dim, rank) : 0,
                            .resolve = scatter_resolve, .reduce = s->job.reduce,
                            .include_self = s->job.include_self};
  s->plan.check = (wg_index_check){.depth = 1, .dim_sizes = &in_shape[dim], .first_dim = dim};
  return wg_plan_scatter(&s->plan, &s->job, elem, err);
}

WG_DEFINE_OP(scatter, scatter_plan, plan_scatter)

wg_status wg_scatter(wg_pool* pool, const void* input, const size_t* input_shape, size_t input_rank,
                     int32_t dim, const void* index, wg_index_type index_type,
                     const size_t* index_shape, size_t index_rank, const void* src,
                     const size_t* src_shape, size_t src_rank, const wg_scatter_desc* desc,
                     void* out, wg_error_info* err) {
  wg_call c;
  wg_status st = wg_call_scatter(&c, WG_OP_scatter, input, input_shape, input_rank, index,
                                 index_type, index_shape, index_rank, src, src_shape, src_rank,
                                 desc, out);
  c.attrs[WG_ATTR_axis] = dim;
  return st == WG_OK ? wg_call_run_api(pool, &c, err) : wg_call_failed(&c, st, err);
}
