/* embedding_bag: torch.nn.functional.embedding_bag, with TensorFlow's segment ids and sqrtn
 * combiner (tf.nn.embedding_lookup_sparse), over a float table or a block-quantized one
 * (onnxruntime's GatherBlockQuantized layout: FBGEMM's quantized embedding bag). The rows that the indices
 * select are reduced per bag as they are read, never gathered into memory.
 * https://pytorch.org/docs/1.13/generated/torch.nn.functional.embedding_bag.html
 * Semantics: docs/fused-gather-reduce.md. The rules are here; the work is the segment reduction
 * stage (stage_bag.c). */
#include "call.h"
#include "op.h"
#include "stage_bag.h"

typedef struct bag_plan {
  wg_plan plan; /* first, as every op's */
  wg_bag_job job;
} bag_plan;

/* The float tables and their kinds of value. */
static const wg_value_dtype float_tables[4] = {
    {WG_BAG_F32, WG_DTYPE_F32}, {WG_BAG_F64, WG_DTYPE_F64}, {WG_BAG_F16, WG_DTYPE_F16}, {WG_BAG_BF16, WG_DTYPE_BF16}};

/* weight rank >= 1 (a float type, or quantized codes with scales); indices 2-D for fixed bags,
 * else 1-D with their segments; mode sum, mean, max or sqrtn; weights of the indices' shape and
 * the output's type, not with max; padding_idx in [-rows, rows). Output: [bags, ...weight's
 * logical shape[1:]]. */
static wg_status plan_bag(const wg_call* c, bag_plan* plan, wg_error_info* err) {
  const wg_tensor* weight = &c->tensors[WG_TENSOR_data];
  wg_bag_job* t = &plan->job;
  *t = (wg_bag_job){0}; /* the record's plan words hold the last call's (the engine clears only the wg_plan) */
  wg_plan* p = &plan->plan;
  size_t rank = weight->rank, shape[WG_MAX_RANK];
  if (rank < 1) return wg_fail(err, WG_ERR_DATA_SCALAR, WG_ARG_DATA, -1, 0, 1);
  if (c->tensors[WG_TENSOR_scales].dtype != WG_DTYPE_NONE) {
    wg_status st = wg_dequant_table(c, &t->quant, shape, err);
    if (st != WG_OK) return st;
    t->value = WG_BAG_QUANT;
    p->out_dtype = c->tensors[WG_TENSOR_scales].dtype;
  } else {
    int32_t v = wg_value_of_dtype(float_tables, 4, weight->dtype);
    if (v < 0) return wg_fail(err, WG_ERR_VALUE_TYPE, WG_ARG_DATA, -1, weight->dtype, -1);
    t->value = (wg_bag_value)v;
    p->out_dtype = weight->dtype;
    for (size_t d = 0; d < rank; ++d) shape[d] = weight->shape[d];
  }
  t->out_size = wg_dtype_bits(p->out_dtype) / 8;
  wg_status st = wg_bag_indices(c, t, err);
  if (st != WG_OK) return st;
  t->rows = shape[0];
  t->inner = wg_prod(shape, 1, rank);
  if (t->value == WG_BAG_QUANT) t->quant.whole_rows = wg_dequant_whole_rows(&t->quant, t->inner);
  st = wg_bag_weights_padding(c, t, p->out_dtype, err);
  if (st != WG_OK) return st;
  t->return_indices = t->reduce == WG_REDUCE_MAX && c->attrs[WG_ATTR_return_indices];
  t->bag_max = 1;
  t->empty_zero = 1;
  /* every index checked, in a bag or not (torch checks them all), before anything is written */
  p->check_first = 1;
  /* float32 weighted sums as fbgemm's: fused multiply-adds; torch's own loop with padding; the
   * weighted mean and sqrtn as TensorFlow's combiners: rows times weights, rounded, then summed */
  t->fused = t->weighted && t->value != WG_BAG_F64 && !t->has_padding && t->reduce == WG_REDUCE_ADD;
  p->out_shape[p->out_rank++] = t->bags;
  wg_plan_append(p, shape, 1, rank);
  wg_plan_bag(p, t);
  return WG_OK;
}

WG_DEFINE_OP(embedding_bag, bag_plan, plan_bag)

wg_status wg_embedding_bag(wg_pool* pool, const void* weight, const size_t* weight_shape,
                           size_t weight_rank, const void* indices, wg_index_type index_type,
                           const size_t* index_shape, size_t index_rank, const wg_bag_desc* desc,
                           void* out, wg_error_info* err) {
  wg_call c;
  wg_status st = wg_call_bag(&c, WG_OP_embedding_bag, weight, weight_shape, weight_rank, desc, out);
  if (st == WG_OK) {
    st = wg_call_tensor(&c, WG_TENSOR_indices, indices, wg_dtype_of(wg_index_dtypes, 4, (int32_t)index_type),
                        index_shape, index_rank);
  }
  if (st == WG_OK && desc->weights) { /* one weight an index */
    wg_tensor* w = &c.tensors[WG_TENSOR_weights];
    w->rank = index_rank;
    for (size_t d = 0; d < index_rank; ++d) w->shape[d] = index_shape[d];
  }
  return st == WG_OK ? wg_call_run_api(pool, &c, err) : wg_call_failed(&c, st, err);
}
