/* The engine's entry: a call record (src/call.h) is planned by its op (src/op.h), once, and the
 * plan run by the runner (runner.c). The checks every call gets around its op's own rules are
 * here: the op and its tensors' ranks before the plan, the output's rank after it (the runner
 * checks the rest: runner.c). */
#include "call.h"

#include <stdlib.h>
#include <string.h>

#include "op.h"
#include "parallel.h"

static const wg_op_def* const ops[WG_OP_COUNT] = {
#define WG_OP(name, tensors, attrs) &wg_op_##name,
#include "ops.def"
#undef WG_OP
};

static const wg_arg tensor_args[WG_TENSOR_COUNT] = {
#define WG_TENSOR(role, arg, by) arg,
#define WG_ATTR(name, dflt)
#include "call.def"
#undef WG_TENSOR
#undef WG_ATTR
};

static int takes(const wg_call* c, int role) { return (wg_op_tensors(c->op) >> role) & 1; }

/* Everything but the addresses: the op's rules, then the output's rank and size. */
static wg_status plan_call(wg_call* c, wg_plan* plan) {
  wg_error_info* err = &c->err;
  if (c->op < 0 || c->op >= WG_OP_COUNT) return wg_fail(err, WG_ERR_INVALID_ARGUMENT, WG_ARG_NONE, -1, -1, -1);
  for (int r = 0; r < WG_TENSOR_COUNT; ++r) {
    if (((WG_PLANNED_TENSORS >> r) & 1) || !takes(c, r)) continue; /* the plan writes those */
    if (c->tensors[r].rank > WG_MAX_RANK) {
      return wg_fail(err, WG_ERR_MAX_RANK, tensor_args[r], -1, (int64_t)c->tensors[r].rank, WG_MAX_RANK);
    }
  }
  memset(plan, 0, sizeof *plan);
  wg_status st = ops[c->op]->plan(c, plan, err);
  if (st != WG_OK) return st;
  if (plan->out_rank > WG_MAX_RANK) {
    return wg_fail(err, WG_ERR_MAX_RANK, WG_ARG_OUT, -1, (int64_t)plan->out_rank, WG_MAX_RANK);
  }
  return WG_OK;
}

static void set_shape1(wg_tensor* t, size_t n) {
  t->rank = 1;
  t->shape[0] = n;
}

wg_status wg_call_shape(wg_call* c) {
  c->planned = 0;
  wg_plan* plan = (wg_plan*)(void*)c->plan.words;
  wg_status st = plan_call(c, plan);
  if (st != WG_OK) return st;
  wg_tensor* out = &c->tensors[WG_TENSOR_out];
  out->rank = plan->out_rank;
  memcpy(out->shape, plan->out_shape, plan->out_rank * sizeof *out->shape);
  set_shape1(&c->tensors[WG_TENSOR_offsets], plan->offsets_blocks);
  set_shape1(&c->tensors[WG_TENSOR_workspace], plan->workspace_bytes);
  wg_tensor* out_indices = &c->tensors[WG_TENSOR_out_indices];
  out_indices->dtype = plan->out_indices ? WG_DTYPE_I32 : WG_DTYPE_NONE;
  out_indices->rank = plan->out_indices ? out->rank : 0;
  memcpy(out_indices->shape, out->shape, out_indices->rank * sizeof *out->shape);
  wg_tensor* out_weights = &c->tensors[WG_TENSOR_out_weights];
  const wg_tensor* indices = &c->tensors[WG_TENSOR_indices];
  out_weights->dtype = plan->out_weights ? plan->out_dtype : WG_DTYPE_NONE;
  out_weights->rank = plan->out_weights ? indices->rank : 0;
  memcpy(out_weights->shape, indices->shape, out_weights->rank * sizeof *indices->shape);
  c->planned = c->op + 1;
  return WG_OK;
}

/* The record holds the plan its shape query made for its op. */
static int has_plan(const wg_call* c) { return c->op >= 0 && c->op < WG_OP_COUNT && c->planned == c->op + 1; }

/* The plan run; a data-dependent output's true shape (src/op.h: count_dim) into the record. */
static wg_status run_plan(wg_pool* pool, wg_plan* plan, wg_call* c) {
  wg_status st = wg_run_plan(pool, plan, c, &c->err);
  if (st == WG_OK && plan->count_dim) c->tensors[WG_TENSOR_out].shape[plan->count_dim - 1] = plan->out_shape[plan->count_dim - 1];
  /* and the offsets the count makes (what the offsets mode wrote): the blocks up to the count's
   * dimension, or the count itself */
  if (st == WG_OK && plan->counted) {
    c->tensors[WG_TENSOR_offsets].shape[0] = plan->count_dim ? wg_prod(plan->out_shape, 0, plan->count_dim) : *plan->counted;
  }
  return st;
}

wg_status wg_call_run(wg_pool* pool, wg_call* c) {
  wg_plan* plan = (wg_plan*)(void*)c->plan.words;
  int planned = has_plan(c);
  c->planned = 0; /* a plan serves one run */
  if (!planned) {
    wg_status st = plan_call(c, plan);
    if (st != WG_OK) return st;
  }
  return run_plan(pool, plan, c);
}

wg_status wg_call_rerun(wg_pool* pool, wg_call* c) {
  if (!has_plan(c)) return wg_fail(&c->err, WG_ERR_INVALID_ARGUMENT, WG_ARG_NONE, -1, -1, -1);
  return run_plan(pool, (wg_plan*)(void*)c->plan.words, c);
}

/* wg_call_start's run, on the worker that claimed it: alone, as on a NULL pool (the pool is the
 * started job's until the join). */
static void rerun_task(void* ctx, size_t start, size_t count) {
  (void)start;
  (void)count;
  wg_call* c = ctx;
  c->start_status = wg_call_rerun(NULL, c);
}

void wg_call_start(wg_pool* pool, wg_call* c) {
  c->on_worker = wg_pool_start(pool, rerun_task, c);
  if (!c->on_worker) c->start_status = wg_call_rerun(pool, c);
}

wg_status wg_call_finish(wg_pool* pool, wg_call* c) {
  if (c->on_worker) wg_pool_join(pool);
  c->on_worker = 0;
  return (wg_status)c->start_status;
}

/* ---- the public API's wrappers (src/op_<name>.c) ---- */

void wg_call_init(wg_call* c, int32_t op) {
  memset(c, 0, offsetof(wg_call, plan));
  c->op = op;
  const int32_t defaults[WG_ATTR_COUNT] = {
#define WG_TENSOR(role, arg, by)
#define WG_ATTR(name, dflt) (int32_t)(dflt),
#include "call.def"
#undef WG_TENSOR
#undef WG_ATTR
  };
  memcpy(c->attrs, defaults, sizeof defaults);
}

wg_status wg_call_tensor(wg_call* c, int role, const void* ptr, int32_t dtype, const size_t* shape,
                         size_t rank) {
  wg_tensor* t = &c->tensors[role];
  t->ptr = (void*)(uintptr_t)ptr;
  t->dtype = dtype;
  t->rank = rank;
  if (rank && !shape) return wg_fail(&c->err, WG_ERR_INVALID_ARGUMENT, WG_ARG_NONE, -1, -1, -1);
  if (rank > WG_MAX_RANK) {
    return wg_fail(&c->err, WG_ERR_MAX_RANK, tensor_args[role], -1, (int64_t)rank, WG_MAX_RANK);
  }
  if (rank) memcpy(t->shape, shape, rank * sizeof *shape);
  return WG_OK;
}

static void copy_err(const wg_call* c, wg_error_info* err) {
  if (err) *err = c->err;
}

wg_status wg_call_failed(const wg_call* c, wg_status st, wg_error_info* err) {
  copy_err(c, err);
  return st;
}

wg_status wg_call_indexed(wg_call* c, int32_t op, const void* data, size_t elem_size,
                          const size_t* data_shape, size_t data_rank, const void* indices,
                          wg_index_type index_type, const size_t* index_shape, size_t index_rank,
                          wg_oob_mode mode, wg_negative_mode negative, void* out) {
  wg_call_init(c, op);
  c->attrs[WG_ATTR_out_of_range] = (int32_t)mode;
  c->attrs[WG_ATTR_negative_indices] = (int32_t)negative;
  c->tensors[WG_TENSOR_out].ptr = out;
  if ((data_rank && !data_shape) || (index_rank && !index_shape)) {
    return wg_fail(&c->err, WG_ERR_INVALID_ARGUMENT, WG_ARG_NONE, -1, -1, -1);
  }
  wg_status st = wg_call_tensor(c, WG_TENSOR_data, data, wg_dtype_of_width(elem_size), data_shape,
                                data_rank);
  if (st != WG_OK) return st;
  return wg_call_tensor(c, WG_TENSOR_indices, indices, wg_dtype_of(wg_index_dtypes, 4, (int32_t)index_type), index_shape,
                        index_rank);
}

wg_status wg_call_scatter(wg_call* c, int32_t op, const void* data, const size_t* data_shape,
                          size_t data_rank, const void* indices, wg_index_type index_type,
                          const size_t* index_shape, size_t index_rank, const void* updates,
                          const size_t* updates_shape, size_t updates_rank,
                          const wg_scatter_desc* desc, void* out) {
  wg_call_init(c, op);
  if (!desc) return wg_fail(&c->err, WG_ERR_INVALID_ARGUMENT, WG_ARG_NONE, -1, -1, -1);
  int32_t dtype = wg_dtype_of(wg_value_dtypes, 12, desc->value_type);
  if (dtype == WG_DTYPE_NONE) return wg_fail(&c->err, WG_ERR_INVALID_ARGUMENT, WG_ARG_DATA, -1, desc->value_type, -1);
  wg_status st = wg_call_indexed(c, op, data, wg_dtype_bits(dtype) / 8, data_shape, data_rank, indices,
                                 index_type, index_shape, index_rank, (wg_oob_mode)desc->mode,
                                 (wg_negative_mode)desc->negative, out);
  c->tensors[WG_TENSOR_data].dtype = dtype;
  c->attrs[WG_ATTR_reduce] = desc->reduce;
  c->attrs[WG_ATTR_include_self] = desc->include_self;
  if (st != WG_OK) return st;
  return wg_call_tensor(c, WG_TENSOR_updates, updates, dtype, updates_shape, updates_rank);
}

wg_status wg_call_bag(wg_call* c, int32_t op, const void* data, const size_t* data_shape,
                      size_t data_rank, const wg_bag_desc* desc, void* out) {
  wg_call_init(c, op);
  if (!desc) return wg_fail(&c->err, WG_ERR_INVALID_ARGUMENT, WG_ARG_NONE, -1, -1, -1);
  int32_t dtype = wg_dtype_of(wg_value_dtypes, 12, desc->value_type);
  c->attrs[WG_ATTR_out_of_range] = desc->mode;
  c->attrs[WG_ATTR_negative_indices] = desc->negative;
  c->attrs[WG_ATTR_reduce] = desc->reduce;
  c->attrs[WG_ATTR_segment_form] = desc->form;
  c->attrs[WG_ATTR_num_segments] = desc->num_segments;
  c->attrs[WG_ATTR_has_padding] = desc->has_padding;
  c->attrs[WG_ATTR_padding_idx] = desc->padding_idx;
  c->attrs[WG_ATTR_return_indices] = desc->max_indices != NULL;
  c->tensors[WG_TENSOR_out].ptr = out;
  c->tensors[WG_TENSOR_out_indices].ptr = desc->max_indices;
  wg_status st = wg_call_tensor(c, WG_TENSOR_data, data, dtype, data_shape, data_rank);
  if (st == WG_OK && desc->form != WG_SEGMENTS_FIXED) {
    size_t len = desc->segments_len;
    st = wg_call_tensor(c, WG_TENSOR_segments, desc->segments,
                        wg_dtype_of(wg_index_dtypes, 4, desc->segments_type), &len, 1);
  }
  if (st == WG_OK && desc->initial) st = wg_call_tensor(c, WG_TENSOR_initial, desc->initial, dtype, NULL, 0);
  if (st == WG_OK && desc->weights) {
    /* the weights' shape is the indices': set with them (the bags' wrapper) */
    c->tensors[WG_TENSOR_weights].ptr = (void*)(uintptr_t)desc->weights;
    c->tensors[WG_TENSOR_weights].dtype = dtype;
  }
  return st;
}

wg_status wg_call_shape_out(wg_call* c, size_t* out_shape, size_t* out_rank, wg_error_info* err) {
  wg_status st = wg_call_shape(c);
  if (st == WG_OK && (!out_shape || !out_rank)) {
    st = wg_fail(&c->err, WG_ERR_INVALID_ARGUMENT, WG_ARG_OUT, -1, -1, -1);
  }
  if (st != WG_OK) {
    copy_err(c, err);
    return st;
  }
  const wg_tensor* out = &c->tensors[WG_TENSOR_out];
  memcpy(out_shape, out->shape, out->rank * sizeof *out_shape);
  *out_rank = out->rank;
  return WG_OK;
}

wg_status wg_call_run_api(wg_pool* pool, wg_call* c, wg_error_info* err) {
  wg_status st = wg_call_shape(c);
  void* workspace = NULL;
  if (st == WG_OK && c->tensors[WG_TENSOR_workspace].shape[0]) {
    workspace = malloc(c->tensors[WG_TENSOR_workspace].shape[0]); /* malloc's alignment: 16 */
    if (!workspace) st = wg_fail(&c->err, WG_ERR_OUT_OF_MEMORY, WG_ARG_NONE, -1, -1, -1);
    c->tensors[WG_TENSOR_workspace].ptr = workspace;
  }
  if (st == WG_OK) st = wg_call_run(pool, c);
  free(workspace);
  if (st != WG_OK) copy_err(c, err);
  return st;
}
