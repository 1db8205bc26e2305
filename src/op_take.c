/* take: tf.gather(params, indices, axis, batch_dims), ONNX Gather, numpy.take.
 * Blocks are (batch, outer, index) triples; each copies prod(params.shape[axis+1:]) elements. */
#include <stddef.h>

#include "block_job.h"
#include "index_resolve.h"
#include "shape_util.h"

typedef struct take_job {
  wg_block_job job; /* first, so the engine's pointer is the op's */
  size_t outer;     /* prod(params.shape[batch_dims:axis]) */
  size_t axis_size; /* params.shape[axis] */
  size_t per_batch; /* prod(indices.shape[batch_dims:]) */
} take_job;

static void take_map(const wg_block_job* job, size_t q, size_t n, wg_segment* seg) {
  const take_job* t = (const take_job*)job;
  size_t i = q % t->per_batch;
  size_t bo = q / t->per_batch; /* batch * outer + outer index */
  size_t b = bo / t->outer;
  seg->count = t->per_batch - i < n ? t->per_batch - i : n;
  seg->first = b * t->per_batch + i;
  seg->base = bo * t->axis_size * job->block_bytes;
  seg->ramp = 0;
}

/* Validates the arguments and normalizes axis and batch_dims. */
static wg_status take_check(const size_t* params_shape, size_t params_rank,
                            const size_t* indices_shape, size_t indices_rank, int32_t* axis,
                            int32_t* batch_dims, wg_error_info* err) {
  if ((params_rank && !params_shape) || (indices_rank && !indices_shape)) {
    return wg_fail(err, WG_ERR_INVALID_ARGUMENT, WG_ARG_NONE, -1, -1, -1);
  }
  if (params_rank < 1 || params_rank > WG_MAX_RANK) {
    return wg_fail(err, WG_ERR_RANK, WG_ARG_DATA, -1, (int64_t)params_rank, WG_MAX_RANK);
  }
  if (indices_rank > WG_MAX_RANK) {
    return wg_fail(err, WG_ERR_RANK, WG_ARG_INDICES, -1, (int64_t)indices_rank, WG_MAX_RANK);
  }
  int64_t pr = (int64_t)params_rank, ir = (int64_t)indices_rank;
  int64_t a = *axis, bd = *batch_dims;
  if (a < -pr || a >= pr) return wg_fail(err, WG_ERR_AXIS, WG_ARG_AXIS, -1, a, pr);
  if (a < 0) a += pr;
  if (bd < -ir || bd > ir) return wg_fail(err, WG_ERR_BATCH_DIMS, WG_ARG_BATCH_DIMS, -1, bd, ir);
  if (bd < 0) bd += ir;
  if (bd > a) return wg_fail(err, WG_ERR_BATCH_DIMS, WG_ARG_BATCH_DIMS, a, bd, a);
  for (int64_t d = 0; d < bd; ++d) {
    if (params_shape[d] != indices_shape[d]) {
      return wg_fail(err, WG_ERR_BATCH_SHAPE, WG_ARG_INDICES, d, (int64_t)indices_shape[d],
                     (int64_t)params_shape[d]);
    }
  }
  if (pr - 1 + ir - bd > WG_MAX_RANK) {
    return wg_fail(err, WG_ERR_RANK, WG_ARG_OUT, -1, pr - 1 + ir - bd, WG_MAX_RANK);
  }
  *axis = (int32_t)a;
  *batch_dims = (int32_t)bd;
  return WG_OK;
}

wg_status wg_take_shape(const size_t* params_shape, size_t params_rank, const size_t* indices_shape,
                        size_t indices_rank, int32_t axis, int32_t batch_dims, size_t* out_shape,
                        size_t* out_rank, wg_error_info* err) {
  wg_status st = take_check(params_shape, params_rank, indices_shape, indices_rank, &axis,
                            &batch_dims, err);
  if (st != WG_OK) return st;
  if (!out_shape || !out_rank) return wg_fail(err, WG_ERR_INVALID_ARGUMENT, WG_ARG_OUT, -1, -1, -1);
  size_t r = 0;
  for (int32_t d = 0; d < axis; ++d) out_shape[r++] = params_shape[d];
  for (size_t d = (size_t)batch_dims; d < indices_rank; ++d) out_shape[r++] = indices_shape[d];
  for (size_t d = (size_t)axis + 1; d < params_rank; ++d) out_shape[r++] = params_shape[d];
  *out_rank = r;
  return WG_OK;
}

wg_status wg_take(wg_pool* pool, const void* params, const size_t* params_shape, size_t params_rank,
                  const void* indices, wg_index_type index_type, const size_t* indices_shape,
                  size_t indices_rank, int32_t axis, int32_t batch_dims, size_t elem_size,
                  wg_oob_mode mode, void* out, wg_error_info* err) {
  size_t out_shape[WG_MAX_RANK], out_rank;
  wg_status st = wg_take_shape(params_shape, params_rank, indices_shape, indices_rank, axis,
                               batch_dims, out_shape, &out_rank, err);
  if (st != WG_OK) return st;
  size_t index_count = wg_prod(indices_shape, 0, indices_rank);
  st = wg_check_op_args(out_shape, out_rank, elem_size, wg_index_type_valid(index_type), mode,
                        params, indices, index_count, out, err);
  if (st != WG_OK) return st;
  if (axis < 0) axis += (int32_t)params_rank;
  if (batch_dims < 0) batch_dims += (int32_t)indices_rank;
  size_t bd = (size_t)batch_dims, a = (size_t)axis;

  size_t batch = wg_prod(params_shape, 0, bd);
  take_job t = {
      .outer = wg_prod(params_shape, bd, a),
      .axis_size = params_shape[a],
      .per_batch = wg_prod(indices_shape, bd, indices_rank),
  };
  size_t inner = wg_prod(params_shape, a + 1, params_rank);
  /* All of these are factors of the output size, which fits (zero if any factor is zero). */
  t.job.nblocks = wg_prod(out_shape, 0, out_rank) == 0 ? 0 : batch * t.outer * t.per_batch;
  t.job.block_bytes = inner * elem_size;
  t.job.src = params;
  t.job.dst = out;
  t.job.map = take_map;
  t.job.mode = mode;
  t.job.indices = indices;
  t.job.index_type = index_type;
  t.job.index_count = index_count;
  t.job.depth = 1;
  t.job.dim_sizes = &params_shape[a];
  t.job.first_dim = a;
  t.job.scales[0] = t.job.block_bytes;
  return wg_block_job_run(pool, &t.job, err);
}
