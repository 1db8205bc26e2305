/* gather_nd: tf.gather_nd(params, indices, batch_dims), ONNX GatherND, OpenVINO GatherND-8.
 * Blocks are (batch, index tuple) pairs; each copies prod(params.shape[batch_dims+K:]) elements,
 * where K = indices.shape[-1]. Batch dims are kept in the output, as TF and OpenVINO-8 do.
 * https://www.tensorflow.org/api_docs/python/tf/gather_nd
 * https://docs.openvino.ai/2024/documentation/openvino-ir-format/operation-sets/operation-specs/movement/gather-nd-8.html */
#include "call.h"
#include "op.h"
#include "stage_copy.h"

typedef struct gather_nd_plan {
  wg_plan plan; /* first, as every op's */
  wg_block_job job;
  size_t tuples;      /* index tuples per batch: prod(indices.shape[batch_dims:-1]) */
  size_t batch_bytes; /* bytes of params per batch: prod(params.shape[batch_dims:]) * elem */
} gather_nd_plan;

static void gather_nd_map(const wg_block_job* job, size_t q, size_t n, wg_segment* seg) {
  const gather_nd_plan* g = WG_CONTAINER_OF(job, const gather_nd_plan, job);
  size_t left = g->tuples - q % g->tuples; /* tuples left in this batch */
  seg->count = left < n ? left : n;
  seg->first = q * job->depth;
  seg->base = q / g->tuples * g->batch_bytes;
  seg->ramp = 0;
}

/* params and indices rank >= 1; batch_dims in [0, min(params.rank, indices.rank)), as OpenVINO
 * and DirectML specify; equal batch dims; K <= params.rank - batch_dims. Output:
 * indices.shape[:-1] + params.shape[batch_dims + K:]. */
static wg_status plan_gather_nd(const wg_call* c, gather_nd_plan* g, wg_error_info* err) {
  const wg_tensor* params = &c->tensors[WG_TENSOR_data];
  const wg_tensor* indices = &c->tensors[WG_TENSOR_indices];
  const size_t* ps = params->shape;
  int64_t pr = (int64_t)params->rank, ir = (int64_t)indices->rank, bd = c->attrs[WG_ATTR_batch_dims];
  if (pr < 1) return wg_fail(err, WG_ERR_DATA_SCALAR, WG_ARG_DATA, -1, pr, 1);
  if (ir < 1) return wg_fail(err, WG_ERR_INDICES_SCALAR, WG_ARG_INDICES, -1, ir, 1);
  int64_t bd_max = (ir < pr ? ir : pr) - 1;
  if (bd < 0 || bd > bd_max) return wg_fail(err, WG_ERR_BATCH_DIMS_RANKS, WG_ARG_BATCH_DIMS, -1, bd, bd_max);
  wg_status st = wg_check_batch_shape(params, indices, (size_t)bd, err);
  if (st != WG_OK) return st;
  /* compared unsigned: a size_t above INT64_MAX must not turn into a negative depth */
  size_t depth = indices->shape[ir - 1], b = (size_t)bd;
  if (depth > (size_t)(pr - bd)) {
    return wg_fail(err, WG_ERR_INDEX_DEPTH, WG_ARG_INDICES, ir - 1, (int64_t)depth, pr - bd);
  }

  size_t elem = wg_elem_bytes(params);
  if (!elem) return wg_fail(err, WG_ERR_INVALID_ARGUMENT, WG_ARG_DATA, -1, -1, -1);
  wg_plan* p = &g->plan;
  p->out_dtype = params->dtype;
  wg_plan_append(p, indices->shape, 0, indices->rank - 1);
  wg_plan_append(p, ps, b + depth, params->rank);
  size_t out_count = wg_prod(p->out_shape, 0, p->out_rank);
  size_t block_bytes = wg_prod(ps, b + depth, params->rank) * elem;
  g->tuples = wg_prod(indices->shape, b, indices->rank - 1);
  g->job = (wg_block_job){.nblocks = out_count ? wg_prod(indices->shape, 0, indices->rank - 1) : 0,
                          .block_bytes = block_bytes, .map = gather_nd_map, .depth = depth,
                          .dim_sizes = ps + b};
  g->batch_bytes = 0;
  if (out_count) {
    /* Offsets are only formed from valid tuples; then every params dim is a factor of the
     * output or is indexed by a valid index, so params is not empty and these products fit.
     * (With an empty indexed dim every tuple is zeros or an error, and strides go unused.) */
    g->batch_bytes = wg_prod(ps, b, params->rank) * elem;
    wg_strides(ps + b, depth, block_bytes, g->job.strides);
  }
  wg_plan_block_copy(p, &g->job, b);
  return WG_OK;
}

WG_DEFINE_OP(gather_nd, gather_nd_plan, plan_gather_nd)

wg_status wg_gather_nd_shape(const size_t* params_shape, size_t params_rank,
                             const size_t* indices_shape, size_t indices_rank, int32_t batch_dims,
                             size_t* out_shape, size_t* out_rank, wg_error_info* err) {
  wg_call c;
  wg_status st = wg_call_indexed(&c, WG_OP_gather_nd, NULL, 1, params_shape, params_rank, NULL,
                                 WG_INDEX_I32, indices_shape, indices_rank, WG_OOB_ERROR,
                                 WG_NEGATIVE_WRAP, NULL);
  c.attrs[WG_ATTR_batch_dims] = batch_dims;
  return st == WG_OK ? wg_call_shape_out(&c, out_shape, out_rank, err) : wg_call_failed(&c, st, err);
}

wg_status wg_gather_nd_ex(wg_pool* pool, const void* params, const size_t* params_shape,
                          size_t params_rank, const void* indices, wg_index_type index_type,
                          const size_t* indices_shape, size_t indices_rank, int32_t batch_dims,
                          size_t elem_size, wg_oob_mode mode, wg_negative_mode negative, void* out,
                          wg_error_info* err) {
  wg_call c;
  wg_status st = wg_call_indexed(&c, WG_OP_gather_nd, params, elem_size, params_shape, params_rank,
                                 indices, index_type, indices_shape, indices_rank, mode, negative,
                                 out);
  c.attrs[WG_ATTR_batch_dims] = batch_dims;
  return st == WG_OK ? wg_call_run_api(pool, &c, err) : wg_call_failed(&c, st, err);
}

wg_status wg_gather_nd(wg_pool* pool, const void* params, const size_t* params_shape,
                       size_t params_rank, const void* indices, wg_index_type index_type,
                       const size_t* indices_shape, size_t indices_rank, int32_t batch_dims,
                       size_t elem_size, wg_oob_mode mode, void* out, wg_error_info* err) {
  return wg_gather_nd_ex(pool, params, params_shape, params_rank, indices, index_type,
                         indices_shape, indices_rank, batch_dims, elem_size, mode,
                         WG_NEGATIVE_WRAP, out, err);
}
