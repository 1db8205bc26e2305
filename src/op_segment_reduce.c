/* segment_reduce: torch.segment_reduce (lengths, offsets), TensorFlow's tf.math.segment_* (sorted
 * segment ids): reductions over contiguous segments of one axis, in order.
 * https://pytorch.org/docs/1.13/generated/torch.segment_reduce.html
 * https://www.tensorflow.org/api_docs/python/tf/math/segment_sum
 * Semantics: docs/fused-gather-reduce.md. The rules are here; the work is the segment reduction
 * stage (stage_bag.c). */
#include "call.h"
#include "op.h"
#include "stage_bag.h"

typedef struct segment_plan {
  wg_plan plan; /* first, as every op's */
  wg_bag_job job;
} segment_plan;

/* data rank >= 1, float32 or float64; axis in range; segments as lengths, offsets with their end,
 * or ids; reduce sum, mean, max, min or prod; initial a scalar of data's type. Output: data's
 * shape with the segments along axis. */
static wg_status plan_segment_reduce(const wg_call* c, segment_plan* plan, wg_error_info* err) {
  const wg_tensor* data = &c->tensors[WG_TENSOR_data];
  const wg_tensor* initial = &c->tensors[WG_TENSOR_initial];
  wg_bag_job* t = &plan->job;
  *t = (wg_bag_job){0}; /* the record's plan words hold the last call's (the engine clears only the wg_plan) */
  wg_plan* p = &plan->plan;
  size_t rank = data->rank, axis;
  if (rank < 1) return wg_fail(err, WG_ERR_DATA_SCALAR, WG_ARG_DATA, -1, 0, 1);
  if (data->dtype != WG_DTYPE_F32 && data->dtype != WG_DTYPE_F64) {
    return wg_fail(err, WG_ERR_VALUE_TYPE, WG_ARG_DATA, -1, data->dtype, -1);
  }
  wg_status st = wg_normalize_axis(c->attrs[WG_ATTR_axis], (int64_t)rank, &axis, err);
  if (st != WG_OK) return st;
  t->form = c->attrs[WG_ATTR_segment_form];
  if (t->form != WG_SEGMENTS_LENGTHS && t->form != WG_SEGMENTS_BOUNDS && t->form != WG_SEGMENTS_IDS) {
    return wg_fail(err, WG_ERR_SEGMENTS, WG_ARG_SEGMENTS, WG_SEGMENT_FORM, t->form, -1);
  }
  t->reduce = c->attrs[WG_ATTR_reduce];
  if (t->reduce != WG_REDUCE_ADD && t->reduce != WG_REDUCE_MEAN && t->reduce != WG_REDUCE_MAX &&
      t->reduce != WG_REDUCE_MIN && t->reduce != WG_REDUCE_MUL) {
    return wg_fail(err, WG_ERR_REDUCE, WG_ARG_REDUCE, -1, t->reduce, -1);
  }
  t->has_initial = initial->dtype != WG_DTYPE_NONE;
  if (t->has_initial && (initial->dtype != data->dtype || initial->rank != 0)) {
    return wg_fail(err, WG_ERR_INVALID_ARGUMENT, WG_ARG_INITIAL, -1, (int64_t)initial->rank, 0);
  }
  t->value = data->dtype == WG_DTYPE_F64 ? WG_BAG_F64 : WG_BAG_F32;
  t->out_size = wg_dtype_bits(data->dtype) / 8;
  t->outer = wg_prod(data->shape, 0, axis);
  t->entries = data->shape[axis];
  t->inner = wg_prod(data->shape, axis + 1, rank);
  st = wg_bag_segments(c, t, err);
  if (st != WG_OK) return st;
  t->exact_end = 1;
  t->empty_zero = t->form == WG_SEGMENTS_IDS; /* TensorFlow's rule; torch's keeps the start */
  p->out_dtype = data->dtype;
  wg_plan_append(p, data->shape, 0, axis);
  p->out_shape[p->out_rank++] = t->bags;
  wg_plan_append(p, data->shape, axis + 1, rank);
  wg_plan_bag(p, t);
  return WG_OK;
}

WG_DEFINE_OP(segment_reduce, segment_plan, plan_segment_reduce)

wg_status wg_segment_reduce(wg_pool* pool, const void* data, const size_t* data_shape,
                            size_t data_rank, int32_t axis, const wg_bag_desc* desc, void* out,
                            wg_error_info* err) {
  wg_call c;
  wg_status st = wg_call_bag(&c, WG_OP_segment_reduce, data, data_shape, data_rank, desc, out);
  c.attrs[WG_ATTR_axis] = axis;
  return st == WG_OK ? wg_call_run_api(pool, &c, err) : wg_call_failed(&c, st, err);
}
