/* gather_block_quantized: onnxruntime's com.microsoft.GatherBlockQuantized, ONNX Gather of
 * dequantize(data) along gather_axis, without dequantizing what is not gathered.
 * https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.GatherBlockQuantized
 * Semantics and what onnxruntime-web 1.30 accepts: docs/gather-block-quantized.md. The rules are
 * here; the work is the dequantization stage (stage_dequant.c). */
#include <string.h>

#include "op.h"
#include "stage_dequant.h"

typedef struct gbq_plan {
  wg_plan plan; /* first, as every op's */
  wg_dequant_job job;
} gbq_plan;

/* The dtypes of wg_quant_type's values (the table's codes) and of wg_scale_type's (the scales'). */
static const wg_value_dtype quant_dtypes[3] = {
    {WG_QUANT_UINT8, WG_DTYPE_U8}, {WG_QUANT_UINT4, WG_DTYPE_U4}, {WG_QUANT_INT4, WG_DTYPE_I4}};
static const wg_value_dtype scale_dtypes[3] = {
    {WG_SCALE_F32, WG_DTYPE_F32}, {WG_SCALE_F16, WG_DTYPE_F16}, {WG_SCALE_BF16, WG_DTYPE_BF16}};

/* shape == want in rank and every dim, else `status` naming the first difference. */
static wg_status check_shape(const size_t* shape, size_t rank, const size_t* want, size_t want_rank,
                             wg_status status, wg_arg arg, wg_error_info* err) {
  if (rank != want_rank) return wg_fail(err, status, arg, -1, (int64_t)rank, (int64_t)want_rank);
  for (size_t d = 0; d < rank; ++d) {
    if (shape[d] != want[d]) return wg_fail(err, status, arg, (int64_t)d, (int64_t)shape[d], (int64_t)want[d]);
  }
  return WG_OK;
}

/* Every rule: data rank >= 1; quant type, bits, block size; both axes in range, the quantize
 * axis last for uint8; the scales' and zero points' shapes. Output: the logical data shape with
 * gather_axis replaced by indices.shape. */
static wg_status plan_gbq(const wg_call* c, gbq_plan* plan, wg_error_info* err) {
  const wg_tensor* data = &c->tensors[WG_TENSOR_data];
  const wg_tensor* indices = &c->tensors[WG_TENSOR_indices];
  const wg_tensor* scales = &c->tensors[WG_TENSOR_scales];
  const wg_tensor* zero_points = &c->tensors[WG_TENSOR_zero_points];
  wg_dequant_job* t = &plan->job;
  const int32_t bits = c->attrs[WG_ATTR_bits], block_size = c->attrs[WG_ATTR_block_size];
  const int32_t quantize_axis = c->attrs[WG_ATTR_quantize_axis];
  size_t rank = data->rank;
  if (rank < 1) return wg_fail(err, WG_ERR_DATA_SCALAR, WG_ARG_DATA, -1, 0, 1);
  int32_t quant_type = wg_value_of_dtype(quant_dtypes, 3, data->dtype);
  int32_t scale_type = wg_value_of_dtype(scale_dtypes, 3, scales->dtype);
  if (quant_type < 0 || scale_type < 0) return wg_fail(err, WG_ERR_INVALID_ARGUMENT, WG_ARG_NONE, -1, -1, -1);
  int packed = quant_type == WG_QUANT_UINT8; /* 8 / bits codes a byte along the last axis */
  if (packed ? !(bits == 2 || bits == 4 || bits == 8) : bits != 4) {
    return wg_fail(err, WG_ERR_BITS, WG_ARG_NONE, -1, bits, quant_type);
  }
  if (block_size < 16 || (block_size & (block_size - 1))) {
    return wg_fail(err, WG_ERR_BLOCK_SIZE, WG_ARG_NONE, -1, block_size, 16);
  }
  size_t g, qa;
  wg_status st = wg_normalize_axis(c->attrs[WG_ATTR_axis], (int64_t)rank, &g, err);
  if (st != WG_OK) return st;
  st = wg_normalize_axis(quantize_axis, (int64_t)rank, &qa, err);
  if (st != WG_OK) {
    if (err) err->arg = WG_ARG_QUANTIZE_AXIS;
    return st;
  }
  if (packed && qa != rank - 1) {
    return wg_fail(err, WG_ERR_QUANTIZE_AXIS_PACKED, WG_ARG_QUANTIZE_AXIS, -1, quantize_axis,
                   (int64_t)rank - 1);
  }
  /* The logical shape: for uint8 the last stored dim holds 8 / bits codes an element. */
  size_t shape[WG_MAX_RANK];
  memcpy(shape, data->shape, rank * sizeof *shape);
  unsigned per = packed ? 8 / (unsigned)bits : 1;
  if (shape[rank - 1] > SIZE_MAX / per) return wg_fail(err, WG_ERR_SIZE_OVERFLOW, WG_ARG_DATA, -1, -1, -1);
  shape[rank - 1] *= per;
  if (wg_prod(shape, 0, rank) == SIZE_MAX) return wg_fail(err, WG_ERR_SIZE_OVERFLOW, WG_ARG_DATA, -1, -1, -1);

  size_t bs = (size_t)block_size;
  size_t scale_shape[WG_MAX_RANK];
  memcpy(scale_shape, shape, rank * sizeof *shape);
  scale_shape[qa] = shape[qa] / bs + (shape[qa] % bs != 0);
  st = check_shape(scales->shape, scales->rank, scale_shape, rank, WG_ERR_SCALES_SHAPE,
                   WG_ARG_SCALES, err);
  if (st != WG_OK) return st;
  t->zp_kind = WG_ZP_DEFAULT;
  if (zero_points->dtype != WG_DTYPE_NONE) {
    size_t zp_shape[WG_MAX_RANK];
    memcpy(zp_shape, scale_shape, rank * sizeof *shape);
    zp_shape[rank - 1] = zp_shape[rank - 1] / per + (zp_shape[rank - 1] % per != 0);
    st = check_shape(zero_points->shape, zero_points->rank, zp_shape, rank, WG_ERR_ZERO_POINTS_SHAPE,
                     WG_ARG_ZERO_POINTS, err);
    if (st != WG_OK) return st;
    if (zero_points->dtype != data->dtype) return wg_fail(err, WG_ERR_INVALID_ARGUMENT, WG_ARG_ZERO_POINTS, -1, -1, -1);
    t->zp_kind = !packed ? WG_ZP_NIBBLES : bits == 8 ? WG_ZP_BYTES : WG_ZP_ROWS;
    t->zp_row_bytes = zp_shape[rank - 1];
  }

  wg_plan* p = &plan->plan;
  wg_plan_append(p, shape, 0, g);
  wg_plan_append(p, indices->shape, 0, indices->rank);
  wg_plan_append(p, shape, g + 1, rank);
  t->outer = wg_prod(shape, 0, g);
  t->axis_size = shape[g];
  t->count = wg_prod(indices->shape, 0, indices->rank);
  t->inner = wg_prod(shape, g + 1, rank);
    t->qlen = shape[qa];
  t->post = wg_prod(shape, qa + 1, rank);
  t->nblk = scale_shape[qa];
  t->block = bs;
  t->bits = (unsigned)bits;
  t->is_signed = quant_type == WG_QUANT_INT4;
  t->default_zp = packed ? 1 << (bits - 1) : 0;
  t->scale_type = (wg_scale_type)scale_type;
  t->out_size = wg_scale_bytes(t->scale_type);
  t->kernel = wg_pick_dequant(t->bits, t->is_signed, t->scale_type);
  t->whole_rows = t->post == 1 && t->qlen && t->inner % t->qlen == 0 && t->nblk <= WG_ROW_BLOCKS;
  p->out_dtype = scales->dtype;
  wg_plan_dequant(p, t, g);
  p->out_dtype = scales->dtype;
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
  c->tensors[WG_TENSOR_data].dtype = wg_dtype_of(quant_dtypes, 3, q->quant_type);
  int32_t scale_dtype = wg_dtype_of(scale_dtypes, 3, q->scale_type);
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
