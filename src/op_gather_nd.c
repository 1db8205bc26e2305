/* gather_nd: tf.gather_nd(params, indices, batch_dims), ONNX GatherND, OpenVINO GatherND-8.
 * Blocks are (batch, index tuple) pairs; each copies prod(params.shape[batch_dims+K:]) elements,
 * where K = indices.shape[-1]. Batch dims are kept in the output, as TF and OpenVINO-8 do. */
#include <stddef.h>

#include "block_job.h"
#include "index_resolve.h"
#include "shape_util.h"

typedef struct gather_nd_job {
  wg_block_job job;     /* first, so the engine's pointer is the op's */
  size_t tuples;        /* index tuples per batch: prod(indices.shape[batch_dims:-1]) */
  size_t batch_bytes;   /* bytes of params per batch: prod(params.shape[batch_dims:]) * elem */
} gather_nd_job;

static void gather_nd_map(const wg_block_job* job, size_t q, size_t n, wg_segment* seg) {
  const gather_nd_job* g = (const gather_nd_job*)job;
  size_t left = g->tuples - q % g->tuples; /* tuples left in this batch */
  seg->count = left < n ? left : n;
  seg->first = q * job->depth;
  seg->base = q / g->tuples * g->batch_bytes;
  seg->ramp = 0;
}

static wg_status gather_nd_check(const size_t* params_shape, size_t params_rank,
                                 const size_t* indices_shape, size_t indices_rank,
                                 int32_t batch_dims, wg_error_info* err) {
  if ((params_rank && !params_shape) || (indices_rank && !indices_shape)) {
    return wg_fail(err, WG_ERR_INVALID_ARGUMENT, WG_ARG_NONE, -1, -1, -1);
  }
  if (params_rank < 1 || params_rank > WG_MAX_RANK) {
    return wg_fail(err, WG_ERR_RANK, WG_ARG_DATA, -1, (int64_t)params_rank, WG_MAX_RANK);
  }
  if (indices_rank < 1 || indices_rank > WG_MAX_RANK) {
    return wg_fail(err, WG_ERR_RANK, WG_ARG_INDICES, -1, (int64_t)indices_rank, WG_MAX_RANK);
  }
  int64_t bd = batch_dims, ir = (int64_t)indices_rank, pr = (int64_t)params_rank;
  /* batch_dims in [0, min(params.rank, indices.rank)), as OpenVINO and DirectML specify */
  int64_t bd_max = (ir < pr ? ir : pr) - 1;
  if (bd < 0 || bd > bd_max) return wg_fail(err, WG_ERR_BATCH_DIMS, WG_ARG_BATCH_DIMS, -1, bd, bd_max);
  for (int64_t d = 0; d < bd; ++d) {
    if (params_shape[d] != indices_shape[d]) {
      return wg_fail(err, WG_ERR_BATCH_SHAPE, WG_ARG_INDICES, d, (int64_t)indices_shape[d],
                     (int64_t)params_shape[d]);
    }
  }
  /* compared unsigned: a size_t above INT64_MAX must not turn into a negative depth */
  if (indices_shape[ir - 1] > (size_t)(pr - bd)) {
    return wg_fail(err, WG_ERR_INDEX_DEPTH, WG_ARG_INDICES, ir - 1, (int64_t)indices_shape[ir - 1], pr - bd);
  }
  int64_t depth = (int64_t)indices_shape[ir - 1];
  if (ir - 1 + pr - bd - depth > WG_MAX_RANK) {
    return wg_fail(err, WG_ERR_RANK, WG_ARG_OUT, -1, ir - 1 + pr - bd - depth, WG_MAX_RANK);
  }
  return WG_OK;
}

wg_status wg_gather_nd_shape(const size_t* params_shape, size_t params_rank,
                             const size_t* indices_shape, size_t indices_rank, int32_t batch_dims,
                             size_t* out_shape, size_t* out_rank, wg_error_info* err) {
  wg_status st = gather_nd_check(params_shape, params_rank, indices_shape, indices_rank,
                                 batch_dims, err);
  if (st != WG_OK) return st;
  if (!out_shape || !out_rank) return wg_fail(err, WG_ERR_INVALID_ARGUMENT, WG_ARG_OUT, -1, -1, -1);
  size_t r = 0;
  for (size_t d = 0; d + 1 < indices_rank; ++d) out_shape[r++] = indices_shape[d];
  for (size_t d = (size_t)batch_dims + indices_shape[indices_rank - 1]; d < params_rank; ++d) {
    out_shape[r++] = params_shape[d];
  }
  *out_rank = r;
  return WG_OK;
}

wg_status wg_gather_nd(wg_pool* pool, const void* params, const size_t* params_shape,
                       size_t params_rank, const void* indices, wg_index_type index_type,
                       const size_t* indices_shape, size_t indices_rank, int32_t batch_dims,
                       size_t elem_size, wg_oob_mode mode, void* out, wg_error_info* err) {
  size_t out_shape[WG_MAX_RANK], out_rank;
  wg_status st = wg_gather_nd_shape(params_shape, params_rank, indices_shape, indices_rank,
                                    batch_dims, out_shape, &out_rank, err);
  if (st != WG_OK) return st;
  size_t index_count = wg_prod(indices_shape, 0, indices_rank);
  st = wg_check_op_args(out_shape, out_rank, elem_size, wg_index_type_valid(index_type), mode,
                        params, indices, index_count, out, err);
  if (st != WG_OK) return st;
  size_t bd = (size_t)batch_dims, depth = indices_shape[indices_rank - 1];
  size_t out_count = wg_prod(out_shape, 0, out_rank);

  gather_nd_job g = {.tuples = wg_prod(indices_shape, bd, indices_rank - 1)};
  size_t slice = wg_prod(params_shape, bd + depth, params_rank);
  if (out_count) {
    /* Offsets are only formed from valid tuples; then every params dim is a factor of the
     * output or is indexed by a valid index, so params is not empty and these products fit.
     * (With an empty indexed dim every tuple is zeros or an error, and strides go unused.) */
    g.batch_bytes = wg_prod(params_shape, bd, params_rank) * elem_size;
    size_t stride = slice * elem_size;
    for (size_t c = depth; c-- > 0;) {
      g.job.scales[c] = stride;
      stride *= params_shape[bd + c];
    }
  }
  g.job.nblocks = out_count ? wg_prod(indices_shape, 0, indices_rank - 1) : 0;
  g.job.block_bytes = slice * elem_size;
  g.job.src = params;
  g.job.dst = out;
  g.job.map = gather_nd_map;
  g.job.mode = mode;
  g.job.indices = indices;
  g.job.index_type = index_type;
  g.job.index_count = index_count;
  g.job.depth = depth;
  g.job.dim_sizes = params_shape + bd;
  g.job.first_dim = bd;
  return wg_block_job_run(pool, &g.job, err);
}
