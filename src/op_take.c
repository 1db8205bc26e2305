/* take: tf.gather(params, indices, axis, batch_dims), ONNX Gather, numpy.take.
 * Blocks are (batch, outer, index) triples; each copies prod(params.shape[axis+1:]) elements.
 * https://www.tensorflow.org/api_docs/python/tf/gather */
#include "call.h"
#include "op.h"
#include "stage_copy.h"

typedef struct take_plan {
  wg_plan plan; /* first, as every op's */
  wg_block_job job;
  size_t outer;     /* prod(params.shape[batch_dims:axis]) */
  size_t axis_size; /* params.shape[axis] */
  size_t per_batch; /* prod(indices.shape[batch_dims:]) */
} take_plan;

static void take_map(const wg_block_job* job, size_t q, size_t n, wg_segment* seg) {
  const take_plan* t = WG_CONTAINER_OF(job, const take_plan, job);
  size_t i = q % t->per_batch;
  size_t bo = q / t->per_batch; /* batch * outer + outer index */
  size_t b = bo / t->outer;
  seg->count = t->per_batch - i < n ? t->per_batch - i : n;
  seg->first = b * t->per_batch + i;
  seg->base = bo * t->axis_size * job->block_bytes;
  seg->ramp = 0;
}

/* params rank >= 1; axis in [-rank, rank); batch_dims in [-indices.rank, indices.rank] and,
 * normalized, <= axis; equal batch dims. Output: params.shape[:axis] + indices.shape[batch_dims:]
 * + params.shape[axis+1:]. */
static wg_status plan_take(const wg_call* c, take_plan* t, wg_error_info* err) {
  const wg_tensor* data = &c->tensors[WG_TENSOR_data];
  const wg_tensor* indices = &c->tensors[WG_TENSOR_indices];
  const size_t* ps = data->shape;
  int64_t pr = (int64_t)data->rank, ir = (int64_t)indices->rank, bd = c->attrs[WG_ATTR_batch_dims];
  if (pr < 1) return wg_fail(err, WG_ERR_DATA_SCALAR, WG_ARG_DATA, -1, pr, 1);
  size_t axis;
  wg_status st = wg_normalize_axis(c->attrs[WG_ATTR_axis], pr, &axis, err);
  if (st != WG_OK) return st;
  if (bd < -ir || bd > ir) return wg_fail(err, WG_ERR_BATCH_DIMS_RANGE, WG_ARG_BATCH_DIMS, -1, bd, ir);
  if (bd < 0) bd += ir;
  if ((size_t)bd > axis) {
    return wg_fail(err, WG_ERR_BATCH_DIMS_AFTER_AXIS, WG_ARG_BATCH_DIMS, (int64_t)axis, bd, (int64_t)axis);
  }
  st = wg_check_batch_shape(data, indices, (size_t)bd, err);
  if (st != WG_OK) return st;
  size_t elem = wg_elem_bytes(data);
  if (!elem) return wg_fail(err, WG_ERR_INVALID_ARGUMENT, WG_ARG_DATA, -1, -1, -1);

  wg_plan* p = &t->plan;
  wg_plan_append(p, ps, 0, axis);
  wg_plan_append(p, indices->shape, (size_t)bd, indices->rank);
  wg_plan_append(p, ps, axis + 1, data->rank);
  p->out_dtype = data->dtype;
  t->outer = wg_prod(ps, (size_t)bd, axis);
  t->axis_size = ps[axis];
  t->per_batch = wg_prod(indices->shape, (size_t)bd, indices->rank);
  size_t block_bytes = wg_prod(ps, axis + 1, data->rank) * elem;
  /* All of these are factors of the output size, which the engine checks fits (zero if any
   * factor is zero). */
  size_t blocks = wg_prod(ps, 0, (size_t)bd) * t->outer * t->per_batch;
  t->job = (wg_block_job){.nblocks = wg_prod(p->out_shape, 0, p->out_rank) ? blocks : 0,
                          .block_bytes = block_bytes, .map = take_map, .depth = 1,
                          .dim_sizes = &ps[axis], .strides = {block_bytes}};
  wg_plan_block_copy(p, &t->job, axis);
  return WG_OK;
}

WG_DEFINE_OP(take, take_plan, plan_take)

wg_status wg_take_shape(const size_t* params_shape, size_t params_rank, const size_t* indices_shape,
                        size_t indices_rank, int32_t axis, int32_t batch_dims, size_t* out_shape,
                        size_t* out_rank, wg_error_info* err) {
  wg_call c;
  wg_status st = wg_call_indexed(&c, WG_OP_take, NULL, 1, params_shape, params_rank, NULL,
                                 WG_INDEX_I32, indices_shape, indices_rank, WG_OOB_ERROR,
                                 WG_NEGATIVE_WRAP, NULL);
  c.attrs[WG_ATTR_axis] = axis;
  c.attrs[WG_ATTR_batch_dims] = batch_dims;
  return st == WG_OK ? wg_call_shape_out(&c, out_shape, out_rank, err) : wg_call_failed(&c, st, err);
}

wg_status wg_take_ex(wg_pool* pool, const void* params, const size_t* params_shape,
                     size_t params_rank, const void* indices, wg_index_type index_type,
                     const size_t* indices_shape, size_t indices_rank, int32_t axis,
                     int32_t batch_dims, size_t elem_size, wg_oob_mode mode,
                     wg_negative_mode negative, void* out, wg_error_info* err) {
  wg_call c;
  wg_status st = wg_call_indexed(&c, WG_OP_take, params, elem_size, params_shape, params_rank,
                                 indices, index_type, indices_shape, indices_rank, mode, negative, out);
  c.attrs[WG_ATTR_axis] = axis;
  c.attrs[WG_ATTR_batch_dims] = batch_dims;
  return st == WG_OK ? wg_call_run_api(pool, &c, err) : wg_call_failed(&c, st, err);
}

wg_status wg_take(wg_pool* pool, const void* params, const size_t* params_shape, size_t params_rank,
                  const void* indices, wg_index_type index_type, const size_t* indices_shape,
                  size_t indices_rank, int32_t axis, int32_t batch_dims, size_t elem_size,
                  wg_oob_mode mode, void* out, wg_error_info* err) {
  return wg_take_ex(pool, params, params_shape, params_rank, indices, index_type, indices_shape,
                    indices_rank, axis, batch_dims, elem_size, mode, WG_NEGATIVE_WRAP, out, err);
}
