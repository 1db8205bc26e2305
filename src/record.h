/* The call record's types: one call of any op, its tensors and attributes laid out from
 * src/call.def, the element types and the ops of src/ops.def by number. The floor below both the
 * plan and the runner (src/op.h) and the entry that fills and runs a record (src/call.h). */
#ifndef WG_RECORD_H
#define WG_RECORD_H

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
  /* the engine's: wg_call_start's run (src/call.h), whether a worker has it, and its status */
  int32_t on_worker;
  int32_t start_status;
  union {
    size_t words[WG_PLAN_WORDS];
    uint64_t align64;
    double align_double;
    void* align_ptr;
  } plan;
} wg_call;

/* The tensors op takes: a mask of WG_T(role) (src/ops.def). */
uint32_t wg_op_tensors(int32_t op);

#endif
