/* scatter_nd: ONNX ScatterND-18, tf.tensor_scatter_nd_update / add / max / min, WebNN
 * scatterND; the mirror of tf.gather_nd. Items are the index tuples of K = indices.shape[-1]; each
 * writes the slice data[i0, ..., iK-1] (a row of prod(data.shape[K:]) elements).
 * https://onnx.ai/onnx/operators/onnx__ScatterND.html */
#include "call.h"
#include "op.h"
#include "stage_scatter.h"

typedef struct scatter_nd_plan {
  wg_plan plan; /* first, as every op's */
  wg_scatter_job job;
  size_t depth;                     /* K */
  const size_t* dims;               /* data.shape[:K] */
  size_t row_strides[WG_MAX_RANK];  /* rows per step of each component */
} scatter_nd_plan;

static int scatter_nd_resolve(const wg_scatter_job* job, size_t q, size_t n, size_t* dest, size_t* src) {
  const scatter_nd_plan* s = WG_CONTAINER_OF(job, const scatter_nd_plan, job);
  (void)src;
  if (s->depth == 0) { /* every item is the whole of data */
    for (size_t j = 0; j < n; ++j) dest[j] = 0;
  }
  for (size_t c = 0; c < s->depth; ++c) {
    if (wg_resolve_indices(job->indices, job->index_type, q * s->depth + c, s->depth, n, s->dims[c], 0,
                           s->row_strides[c], job->mode, job->negative, c > 0, dest) != WG_OK) {
      return 0;
    }
  }
  return 1;
}

/* data and indices rank >= 1; K <= data.rank; updates.shape = indices.shape[:-1] +
 * data.shape[K:]. Output: data's shape. */
static wg_status plan_scatter_nd(const wg_call* c, scatter_nd_plan* s, wg_error_info* err) {
  const wg_tensor* data = &c->tensors[WG_TENSOR_data];
  const wg_tensor* indices = &c->tensors[WG_TENSOR_indices];
  size_t elem;
  wg_status st = wg_scatter_begin(c, &s->plan, &s->job, WG_SCATTER_NO_MEAN, &elem, err);
  if (st != WG_OK) return st;
  if (data->rank < 1) return wg_fail(err, WG_ERR_DATA_SCALAR, WG_ARG_DATA, -1, (int64_t)data->rank, 1);
  if (indices->rank < 1) return wg_fail(err, WG_ERR_INDICES_SCALAR, WG_ARG_INDICES, -1, (int64_t)indices->rank, 1);
  size_t depth = indices->shape[indices->rank - 1];
  if (depth > data->rank) {
    return wg_fail(err, WG_ERR_INDEX_DEPTH, WG_ARG_INDICES, (int64_t)indices->rank - 1, (int64_t)depth,
                   (int64_t)data->rank);
  }
  size_t want[2 * WG_MAX_RANK], rank = 0;
  for (size_t d = 0; d + 1 < indices->rank; ++d) want[rank++] = indices->shape[d];
  for (size_t d = depth; d < data->rank; ++d) want[rank++] = data->shape[d];
  st = wg_check_updates(&c->tensors[WG_TENSOR_updates], want, rank, err);
  if (st != WG_OK) return st;

  s->depth = depth;
  s->dims = data->shape;
  size_t out_count = wg_prod(data->shape, 0, data->rank);
  if (out_count) wg_strides(data->shape, depth, 1, s->row_strides); /* data is not empty: these fit */
  s->job = (wg_scatter_job){.nitems = wg_prod(indices->shape, 0, indices->rank - 1),
                            .row_elems = wg_prod(data->shape, depth, data->rank),
                            .dest_rows = wg_prod(data->shape, 0, depth), .src_step = 0,
                            .resolve = scatter_nd_resolve, .reduce = s->job.reduce,
                            .include_self = s->job.include_self};
  s->job.src_step = s->job.row_elems;
  s->plan.check = (wg_index_check){.depth = depth, .dim_sizes = data->shape, .first_dim = 0};
  return wg_plan_scatter(&s->plan, &s->job, elem, err);
}

WG_DEFINE_OP(scatter_nd, scatter_nd_plan, plan_scatter_nd)

wg_status wg_scatter_nd(wg_pool* pool, const void* data, const size_t* data_shape, size_t data_rank,
                        const void* indices, wg_index_type index_type, const size_t* indices_shape,
                        size_t indices_rank, const void* updates, const size_t* updates_shape,
                        size_t updates_rank, const wg_scatter_desc* desc, void* out,
                        wg_error_info* err) {
  wg_call c;
  wg_status st = wg_call_scatter(&c, WG_OP_scatter_nd, data, data_shape, data_rank, indices,
                                 index_type, indices_shape, indices_rank, updates, updates_shape,
                                 updates_rank, desc, out);
  return st == WG_OK ? wg_call_run_api(pool, &c, err) : wg_call_failed(&c, st, err);
}
