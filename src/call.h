/* The call record: one call of any op, its tensors and attributes laid out from src/call.def.
 * The JS binding fills it in wasm memory (js/call.mjs), the public C API on its stack; either
 * way the engine plans it (wg_call_shape: the output shape, and the plan kept in the record) and
 * runs it (wg_call_run). */
#ifndef WG_CALL_H
#define WG_CALL_H

#include "wasm_gather.h"

/* Element types, once: X(name, bits). A tensor's type says what its bytes are; the copy ops
 * only look at the width (every dtype by width, bit patterns kept). NONE marks an absent tensor. */
#define WG_DTYPES(X)                                                                             \
  X(NONE, 0) X(I8, 8) X(U8, 8) X(I16, 16) X(U16, 16) X(I32, 32) X(U32, 32) X(I64, 64) X(U64, 64) \
  X(F16, 16) X(BF16, 16) X(F32, 32) X(F64, 64) X(U4, 4) X(I4, 4)

typedef enum wg_dtype {
#define WG_DTYPE_ENUM(name, bits) WG_DTYPE_##name,
  WG_DTYPES(WG_DTYPE_ENUM)
#undef WG_DTYPE_ENUM
  WG_DTYPE_COUNT
} wg_dtype;

/* Bits of one element (0 for NONE or an unknown value). */
unsigned wg_dtype_bits(int32_t dtype);
/* The dtype of a whole-byte element of `bytes` bytes (1, 2, 4, 8: by width), else NONE. */
wg_dtype wg_dtype_of_width(size_t bytes);
/* A public API enum's values and their dtypes, one table read both ways: the dtype of a value
 * (NONE for another value), the value of a dtype (-1 for another dtype). */
typedef struct wg_value_dtype {
  int32_t value, dtype;
} wg_value_dtype;
int32_t wg_dtype_of(const wg_value_dtype* table, size_t n, int32_t value);
int32_t wg_value_of_dtype(const wg_value_dtype* table, size_t n, int32_t dtype);
/* wg_index_type's values as dtypes (I32, U32, I64, U64), and a tensor's index type, or -1. */
extern const wg_value_dtype wg_index_dtypes[4];
#define wg_index_type_of(dtype) wg_value_of_dtype(wg_index_dtypes, 4, (dtype))
/* wg_value_type's values as dtypes. */
extern const wg_value_dtype wg_value_dtypes[12];

/* The tensor slots and attributes, by name: WG_TENSOR_<role>, WG_ATTR_<name>. */
enum {
#define WG_TENSOR(role, arg, by) WG_TENSOR_##role,
#define WG_ATTR(name, dflt)
#include "call.def"
#undef WG_TENSOR
#undef WG_ATTR
  WG_TENSOR_COUNT
};
enum {
#define WG_TENSOR(role, arg, by)
#define WG_ATTR(name, dflt) WG_ATTR_##name,
#include "call.def"
#undef WG_TENSOR
#undef WG_ATTR
  WG_ATTR_COUNT
};
/* Who gives a tensor's shape (src/call.def), and the mask of those the plan writes. */
#define WG_CALLER 0
#define WG_PLAN 1
enum {
  WG_PLANNED_TENSORS = 0
#define WG_TENSOR(role, arg, by) | ((by) << WG_TENSOR_##role)
#define WG_ATTR(name, dflt)
#include "call.def"
#undef WG_TENSOR
#undef WG_ATTR
};
/* src/ops.def's masks of what an op takes */
#define WG_T(role) (1u << WG_TENSOR_##role)
#define WG_A(name) (1u << WG_ATTR_##name)
/* the policies every op with indices takes */
#define WG_INDEX_POLICY (WG_A(out_of_range) | WG_A(negative_indices))

/* Every op of src/ops.def, by its position there. */
enum {
#define WG_OP(name, tensors, attrs) WG_OP_##name,
#include "ops.def"
#undef WG_OP
  WG_OP_COUNT
};

typedef struct wg_tensor {
  void* ptr;     /* its first element; may be NULL where nothing is read or written */
  int32_t dtype; /* wg_dtype; WG_DTYPE_NONE: absent */
  size_t rank;
  size_t shape[WG_MAX_RANK];
} wg_tensor;

/* Room for any op's plan in the record (each op's plan type is checked against it: op.h). */
#define WG_PLAN_WORDS 224

typedef struct wg_call {
  int32_t op; /* position in src/ops.def */
  wg_tensor tensors[WG_TENSOR_COUNT];
  int32_t attrs[WG_ATTR_COUNT];
  wg_error_info err;
  /* the engine's: the plan made by the shape query, kept for the run (op + 1 while valid) */
  int32_t planned;
  union {
    size_t words[WG_PLAN_WORDS];
    uint64_t align64;
    double align_double;
    void* align_ptr;
  } plan;
} wg_call;

/* Validates the call and plans it: writes the output's shape and rank into tensors[out], the
 * offsets mode's block count into tensors[offsets] (shape [n]; 0 for an op without it) and the
 * workspace the run needs into tensors[workspace] (shape [bytes]). The plan is kept for the run. */
wg_status wg_call_shape(wg_call* c);
/* Runs the call on the pool (NULL: on the caller) with the plan the shape query made for it, or
 * plans it first when there is none; the tensors' addresses are read now. A plan that counts (the
 * masks' ops: src/stage_mask.h) writes the true output shape into tensors[out], and the offsets its
 * count makes (those its offsets mode writes) into tensors[offsets]'s shape. */
wg_status wg_call_run(wg_pool* pool, wg_call* c);
/* Runs the call again with the plan its shape query made, and keeps that plan for the next run: a
 * prepared call (js/prepared.mjs), whose record nothing else writes and whose tensors' shapes and
 * attributes never change, only its addresses' contents. Without a plan, WG_ERR_INVALID_ARGUMENT. */
wg_status wg_call_rerun(wg_pool* pool, wg_call* c);

/* The tensors op takes: a mask of WG_T(role) (src/ops.def). */
uint32_t wg_op_tensors(int32_t op);

/* For the public API's wrappers (src/op_<name>.c): a record for op with every attribute at its
 * default, and a tensor set into it (its shape copied; a NULL shape or a rank above WG_MAX_RANK
 * fails here, naming the tensor). */
void wg_call_init(wg_call* c, int32_t op);
wg_status wg_call_tensor(wg_call* c, int role, const void* ptr, int32_t dtype, const size_t* shape,
                         size_t rank);
/* The indexed ops' public arguments (data of elem_size bytes an element, indices of index_type,
 * the policies, out) into a record for op, attributes at their defaults. */
wg_status wg_call_indexed(wg_call* c, int32_t op, const void* data, size_t elem_size,
                          const size_t* data_shape, size_t data_rank, const void* indices,
                          wg_index_type index_type, const size_t* index_shape, size_t index_rank,
                          wg_oob_mode mode, wg_negative_mode negative, void* out);
/* The scatters' public arguments (src/wasm_gather.h: data, indices and updates, desc's element
 * type and policies, out) into a record for op, its other attributes at their defaults. */
wg_status wg_call_scatter(wg_call* c, int32_t op, const void* data, const size_t* data_shape,
                          size_t data_rank, const void* indices, wg_index_type index_type,
                          const size_t* index_shape, size_t index_rank, const void* updates,
                          const size_t* updates_shape, size_t updates_rank,
                          const wg_scatter_desc* desc, void* out);
/* The fused gather-reduce's public arguments (data and desc: src/wasm_gather.h, out) into a
 * record for op, its other attributes at their defaults (the indices are the caller's). */
wg_status wg_call_bag(wg_call* c, int32_t op, const void* data, const size_t* data_shape,
                      size_t data_rank, const wg_bag_desc* desc, void* out);
/* A wrapper's failure before the call: the record's error copied out, and st. */
wg_status wg_call_failed(const wg_call* c, wg_status st, wg_error_info* err);
/* The shape query for the public API: copies the output shape out. */
wg_status wg_call_shape_out(wg_call* c, size_t* out_shape, size_t* out_rank, wg_error_info* err);
/* The run for the public API: the workspace, if the plan asks for one, from malloc. */
wg_status wg_call_run_api(wg_pool* pool, wg_call* c, wg_error_info* err);

#endif
