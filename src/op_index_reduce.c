/* index_reduce: torch.index_copy / index_add / index_reduce, tf.math.unsorted_segment_sum /
 * prod / max / min over an initial tensor; the mirror of tf.gather. Items are (outer, index) pairs; each
 * writes the row input[o, index[i], :] of prod(input.shape[axis+1:]) elements.
 * https://pytorch.org/docs/stable/generated/torch.Tensor.index_reduce_.html */
#include "call.h"
#include "op.h"
#include "stage_scatter.h"

typedef struct index_reduce_plan {
  wg_plan plan; /* first, as every op's */
  wg_scatter_job job;
  size_t count;     /* indices */
  size_t axis_size; /* input.shape[axis] */
} index_reduce_plan;

static int index_reduce_resolve(const wg_scatter_job* job, size_t q, size_t n, size_t* dest, size_t* src) {
  const index_reduce_plan* r = WG_CONTAINER_OF(job, const index_reduce_plan, job);
  (void)src;
  for (size_t j = 0; j < n;) { /* a run of indices of one outer row at a time */
    size_t o = (q + j) / r->count, i = (q + j) % r->count;
    size_t k = r->count - i < n - j ? r->count - i : n - j;
    if (wg_resolve_indices(job->indices, job->index_type, i, 1, k, r->axis_size, o * r->axis_size, 1,
                           job->mode, job->negative, 0, dest + j) != WG_OK) {
      return 0;
    }
    j += k;
  }
  return 1;
}

/* input rank >= 1; axis in [-rank, rank); source.shape = input.shape[:axis] + index.shape +
 * input.shape[axis+1:]. Output: input's shape. */
static wg_status plan_index_reduce(const wg_call* c, index_reduce_plan* r, wg_error_info* err) {
  const wg_tensor* input = &c->tensors[WG_TENSOR_data];
  const wg_tensor* index = &c->tensors[WG_TENSOR_indices];
  size_t elem, axis;
  wg_status st = wg_scatter_begin(c, &r->plan, &r->job, WG_SCATTER_WITH_MEAN, &elem, err);
  if (st != WG_OK) return st;
  if (input->rank < 1) return wg_fail(err, WG_ERR_DATA_SCALAR, WG_ARG_DATA, -1, (int64_t)input->rank, 1);
  st = wg_normalize_axis(c->attrs[WG_ATTR_axis], (int64_t)input->rank, &axis, err);
  if (st != WG_OK) return st;
  size_t want[3 * WG_MAX_RANK], rank = 0;
  for (size_t d = 0; d < axis; ++d) want[rank++] = input->shape[d];
  for (size_t d = 0; d < index->rank; ++d) want[rank++] = index->shape[d];
  for (size_t d = axis + 1; d < input->rank; ++d) want[rank++] = input->shape[d];
  st = wg_check_updates(&c->tensors[WG_TENSOR_updates], want, rank, err);
  if (st != WG_OK) return st;

  r->count = wg_prod(index->shape, 0, index->rank);
  r->axis_size = input->shape[axis];
  size_t outer = wg_prod(input->shape, 0, axis), inner = wg_prod(input->shape, axis + 1, input->rank);
  /* with an empty output, the stages do not run; otherwise outer * count is updates' rows */
  int empty = wg_prod(input->shape, 0, input->rank) == 0;
  r->job = (wg_scatter_job){.nitems = empty ? 0 : outer * r->count, .row_elems = inner,
                            .dest_rows = empty ? 0 : outer * r->axis_size, .src_step = inner,
                            .slab_items = r->count, /* an outer row's items: its own rows */
                            .resolve = index_reduce_resolve, .reduce = r->job.reduce,
                            .include_self = r->job.include_self};
  r->plan.check = (wg_index_check){.depth = 1, .dim_sizes = &input->shape[axis], .first_dim = axis};
  return wg_plan_scatter(&r->plan, &r->job, elem, err);
}

WG_DEFINE_OP(index_reduce, index_reduce_plan, plan_index_reduce)

wg_status wg_index_reduce(wg_pool* pool, const void* input, const size_t* input_shape,
                          size_t input_rank, int32_t axis, const void* index,
                          wg_index_type index_type, const size_t* index_shape, size_t index_rank,
                          const void* source, const size_t* source_shape, size_t source_rank,
                          const wg_scatter_desc* desc, void* out, wg_error_info* err) {
  wg_call c;
  wg_status st = wg_call_scatter(&c, WG_OP_index_reduce, input, input_shape, input_rank, index,
                                 index_type, index_shape, index_rank, source, source_shape,
                                 source_rank, desc, out);
  c.attrs[WG_ATTR_axis] = axis;
  return st == WG_OK ? wg_call_run_api(pool, &c, err) : wg_call_failed(&c, st, err);
}
