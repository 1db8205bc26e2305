/* gather_block_quantized: onnxruntime's com.microsoft.GatherBlockQuantized, ONNX Gather of
 * dequantize(data) along gather_axis, without dequantizing what is not gathered.
 * https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.GatherBlockQuantized
 * Semantics and what onnxruntime-web 1.30 accepts: docs/gather-block-quantized.md. The rules are
 * here; the work is the dequantization stage (stage_dequant.c). */
#include <string.h>

#include "call.h"
#include "op.h"
#include "stage_dequant.h"

typedef struct gbq_plan {
  wg_plan plan; /* first, as every op's */
  wg_dequant_job job;
} gbq_plan;

/* Every rule: the table's (stage_dequant.h: wg_dequant_table), and gather_axis in range.
 * Output: the logical data shape with gather_axis replaced by indices.shape. */
static wg_status plan_gbq(const wg_call* c, gbq_plan* plan, wg_error_info* err) {
  const wg_tensor* data = &c->tensors[WG_TENSOR_data];
  const wg_tensor* indices = &c->tensors[WG_TENSOR_indices];
  wg_dequant_job* t = &plan->job;
  size_t rank = data->rank, g, shape[WG_MAX_RANK];
  if (rank < 1) return wg_fail(err, WG_ERR_DATA_SCALAR, WG_ARG_DATA, -1, 0, 1);
  wg_status st = wg_dequant_table(c, t, shape, err);
  if (st == WG_OK) st = wg_normalize_axis(c->attrs[WG_ATTR_axis], (int64_t)rank, &g, err);
  if (st != WG_OK) return st;
  wg_plan* p = &plan->plan;
  wg_plan_append(p, shape, 0, g);
  wg_plan_append(p, indices->shape, 0, indices->rank);
  wg_plan_append(p, shape, g + 1, rank);
  t->outer = wg_prod(shape, 0, g);
  t->axis_size = shape[g];
  t->count = wg_prod(indices->shape, 0, indices->rank);
  t->inner = wg_prod(shape, g + 1, rank);
  t->whole_rows = wg_dequant_whole_rows(t, t->inner);
  p->out_dtype = c->tensors[WG_TENSOR_scales].dtype;
  wg_plan_dequant(p, t, g);
  return WG_OK;
}

WG_DEFINE_OP(gather_block_quantized, gbq_plan, plan_gbq)

/* The public API's description of the table (wg_quant_desc) into a record. */
static wg_status gbq_call(wg_call* c, const uint8_t* data, const size_t* data_shape,
                          size_t data_rank, const void* indices, wg_index_type index_type,
                          const size_t* indices_shape, size_t indices_rank, int32_t gather_axis,
                          const void* scales, const uint8_t* zero_points, const wg_quant_desc* q,
                          wg_oob_mode mode, wg_negative_mode negative, void* out) {
  wg_status st = wg_call_indexed(c, WG_OP_gather_block_quantized, data, 1, data_shape, data_rank,
                                 indices, index_type, indices_shape, indices_rank, mode, negative, out);
  if (st != WG_OK) return st;
  if (!q) return wg_fail(&c->err, WG_ERR_INVALID_ARGUMENT, WG_ARG_NONE, -1, -1, -1);
  c->tensors[WG_TENSOR_data].dtype = wg_dtype_of(wg_quant_dtypes, 3, q->quant_type);
  int32_t scale_dtype = wg_dtype_of(wg_scale_dtypes, 3, q->scale_type);
  c->attrs[WG_ATTR_axis] = gather_axis;
  c->attrs[WG_ATTR_bits] = q->bits;
  c->attrs[WG_ATTR_block_size] = q->block_size;
  c->attrs[WG_ATTR_quantize_axis] = q->quantize_axis;
  st = wg_call_tensor(c, WG_TENSOR_scales, scales, scale_dtype, q->scale_shape, q->scale_rank);
  if (st == WG_OK && q->has_zero_points) {
    st = wg_call_tensor(c, WG_TENSOR_zero_points, zero_points, c->tensors[WG_TENSOR_data].dtype,
                        q->zp_shape, q->zp_rank);
  }
  return st;
}

wg_status wg_gather_block_quantized_shape(const size_t* data_shape, size_t data_rank,
                                          const size_t* indices_shape, size_t indices_rank,
                                          int32_t gather_axis, const wg_quant_desc* q,
                                          size_t* out_shape, size_t* out_rank, wg_error_info* err) {
  wg_call c;
  wg_status st = gbq_call(&c, NULL, data_shape, data_rank, NULL, WG_INDEX_I32, indices_shape,
                          indices_rank, gather_axis, NULL, NULL, q, WG_OOB_ERROR, WG_NEGATIVE_WRAP,
                          NULL);
  return st == WG_OK ? wg_call_shape_out(&c, out_shape, out_rank, err) : wg_call_failed(&c, st, err);
}

wg_status wg_gather_block_quantized_ex(wg_pool* pool, const uint8_t* data,
                                       const size_t* data_shape, size_t data_rank,
                                       const void* indices, wg_index_type index_type,
                                       const size_t* indices_shape, size_t indices_rank,
                                       int32_t gather_axis, const void* scales,
                                       const uint8_t* zero_points, const wg_quant_desc* q,
                                       wg_oob_mode mode, wg_negative_mode negative, void* out,
                                       wg_error_info* err) {
  wg_call c;
  wg_status st = gbq_call(&c, data, data_shape, data_rank, indices, index_type, indices_shape,
                          indices_rank, gather_axis, scales, zero_points, q, mode, negative, out);
  return st == WG_OK ? wg_call_run_api(pool, &c, err) : wg_call_failed(&c, st, err);
}

wg_status wg_gather_block_quantized(wg_pool* pool, const uint8_t* data, const size_t* data_shape,
                                    size_t data_rank, const void* indices, wg_index_type index_type,
                                    const size_t* indices_shape, size_t indices_rank,
                                    int32_t gather_axis, const void* scales,
                                    const uint8_t* zero_points, const wg_quant_desc* q,
                                    wg_oob_mode mode, void* out, wg_error_info* err) {
  return wg_gather_block_quantized_ex(pool, data, data_shape, data_rank, indices, index_type,
                                      indices_shape, indices_rank, gather_axis, scales,
                                      zero_points, q, mode, WG_NEGATIVE_WRAP, out, err);
}
