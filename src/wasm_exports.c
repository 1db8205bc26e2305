/* The C side of the JS binding (wasm builds only): the table of constants and of the call
 * record's layout (src/record.h) that the binding reads at init, so that the JS side holds no
 * number of its own (js/abi.mjs), and the heap's size. The binding calls wg_call_shape and
 * wg_call_run (src/call.c) with the record it fills. */
#include <malloc.h>
#include <stddef.h>

#include "call.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define WG_ASAN 1
#endif
#endif

#ifdef WG_ASAN
#include <sanitizer/allocator_interface.h>

/* The test-only AddressSanitizer build (CMake WG_WASM_ASAN): malloc is ASan's allocator, which
 * mallinfo does not see (it reports 0), so ask the allocator, and the tests' checks that every
 * call frees what it allocated keep their meaning there. */
size_t wg_heap_in_use(void) { return __sanitizer_get_current_allocated_bytes(); }
#else
/* Bytes of the malloc heap currently allocated (leak checks, per-call peak heap). */
size_t wg_heap_in_use(void) { return mallinfo().uordblks; }
#endif

/* ---- the constants the binding needs, by name ---- */
typedef struct abi_entry {
  const char* name;
  int32_t value;
} abi_entry;
#define CONSTANT(x) {#x, (int32_t)(x)}
#define FIELD(name, path) {"wg_call." name, (int32_t)offsetof(wg_call, path)}
#define TENSOR_FIELDS(role)                                                                      \
  FIELD(#role ".ptr", tensors[WG_TENSOR_##role].ptr),                                            \
  FIELD(#role ".dtype", tensors[WG_TENSOR_##role].dtype),                                        \
  FIELD(#role ".rank", tensors[WG_TENSOR_##role].rank),                                          \
  FIELD(#role ".shape", tensors[WG_TENSOR_##role].shape)
static const abi_entry abi[] = {
    CONSTANT(WG_MAX_RANK), CONSTANT(WG_PARALLEL_MIN_BYTES),
    {"sizeof(size_t)", sizeof(size_t)}, {"sizeof(wg_call)", sizeof(wg_call)},
    /* wg_status */
    CONSTANT(WG_OK), CONSTANT(WG_ERR_INVALID_ARGUMENT), CONSTANT(WG_ERR_MAX_RANK),
    CONSTANT(WG_ERR_DATA_SCALAR), CONSTANT(WG_ERR_INDICES_SCALAR), CONSTANT(WG_ERR_RANK_MISMATCH),
    CONSTANT(WG_ERR_AXIS), CONSTANT(WG_ERR_BATCH_DIMS_RANGE), CONSTANT(WG_ERR_BATCH_DIMS_AFTER_AXIS),
    CONSTANT(WG_ERR_BATCH_DIMS_RANKS), CONSTANT(WG_ERR_BATCH_SHAPE), CONSTANT(WG_ERR_INDEX_SHAPE),
    CONSTANT(WG_ERR_INDEX_DEPTH), CONSTANT(WG_ERR_INDEX_OUT_OF_RANGE), CONSTANT(WG_ERR_SIZE_OVERFLOW),
    CONSTANT(WG_ERR_OUT_OF_MEMORY), CONSTANT(WG_ERR_BITS), CONSTANT(WG_ERR_BLOCK_SIZE),
    CONSTANT(WG_ERR_QUANTIZE_AXIS_PACKED), CONSTANT(WG_ERR_SCALES_SHAPE),
    CONSTANT(WG_ERR_ZERO_POINTS_SHAPE), CONSTANT(WG_ERR_UPDATES_SHAPE), CONSTANT(WG_ERR_UPDATES_TYPE),
    CONSTANT(WG_ERR_REDUCE), CONSTANT(WG_ERR_SEGMENTS), CONSTANT(WG_ERR_VALUE_TYPE),
    CONSTANT(WG_ERR_WEIGHTS), CONSTANT(WG_ERR_PADDING_IDX), CONSTANT(WG_ERR_GRAD_SHAPE),
    CONSTANT(WG_ERR_MAX_INDICES), CONSTANT(WG_ERR_TABLE), CONSTANT(WG_ERR_MASK_SHAPE),
    CONSTANT(WG_ERR_MASK_SOURCE),
    /* wg_arg, wg_index_type, wg_oob_mode, wg_negative_mode, wg_quant_type, wg_scale_type */
    CONSTANT(WG_ARG_NONE), CONSTANT(WG_ARG_DATA), CONSTANT(WG_ARG_INDICES), CONSTANT(WG_ARG_AXIS),
    CONSTANT(WG_ARG_BATCH_DIMS), CONSTANT(WG_ARG_OUT), CONSTANT(WG_ARG_SCALES),
    CONSTANT(WG_ARG_ZERO_POINTS), CONSTANT(WG_ARG_QUANTIZE_AXIS), CONSTANT(WG_ARG_UPDATES),
    CONSTANT(WG_ARG_REDUCE), CONSTANT(WG_ARG_SEGMENTS), CONSTANT(WG_ARG_WEIGHTS), CONSTANT(WG_ARG_INITIAL),
    CONSTANT(WG_ARG_MAX_INDICES), CONSTANT(WG_ARG_TABLE), CONSTANT(WG_ARG_MASK),
    /* wg_value_type */
    CONSTANT(WG_VALUE_I8), CONSTANT(WG_VALUE_U8), CONSTANT(WG_VALUE_I16), CONSTANT(WG_VALUE_U16),
    CONSTANT(WG_VALUE_I32), CONSTANT(WG_VALUE_U32), CONSTANT(WG_VALUE_I64), CONSTANT(WG_VALUE_U64),
    CONSTANT(WG_VALUE_F16), CONSTANT(WG_VALUE_BF16), CONSTANT(WG_VALUE_F32), CONSTANT(WG_VALUE_F64),
    /* wg_reduce */
    CONSTANT(WG_REDUCE_NONE), CONSTANT(WG_REDUCE_ADD), CONSTANT(WG_REDUCE_MUL), CONSTANT(WG_REDUCE_MAX),
    CONSTANT(WG_REDUCE_MIN), CONSTANT(WG_REDUCE_MEAN), CONSTANT(WG_REDUCE_SQRTN),
    /* wg_segment_form, wg_segment_rule */
    CONSTANT(WG_SEGMENTS_FIXED), CONSTANT(WG_SEGMENTS_OFFSETS), CONSTANT(WG_SEGMENTS_BOUNDS),
    CONSTANT(WG_SEGMENTS_LENGTHS), CONSTANT(WG_SEGMENTS_IDS),
    CONSTANT(WG_SEGMENT_FORM), CONSTANT(WG_SEGMENT_FIRST), CONSTANT(WG_SEGMENT_DECREASING),
    CONSTANT(WG_SEGMENT_PAST_END), CONSTANT(WG_SEGMENT_NEGATIVE), CONSTANT(WG_SEGMENT_COVER),
    CONSTANT(WG_SEGMENT_ID_RANGE), CONSTANT(WG_SEGMENT_COUNT),
    CONSTANT(WG_QUANT_UINT8), CONSTANT(WG_QUANT_UINT4), CONSTANT(WG_QUANT_INT4),
    CONSTANT(WG_SCALE_F32), CONSTANT(WG_SCALE_F16), CONSTANT(WG_SCALE_BF16),
    CONSTANT(WG_INDEX_I32), CONSTANT(WG_INDEX_U32), CONSTANT(WG_INDEX_I64), CONSTANT(WG_INDEX_U64),
    CONSTANT(WG_OOB_ERROR), CONSTANT(WG_OOB_ZERO), CONSTANT(WG_OOB_CLAMP),
    CONSTANT(WG_NEGATIVE_WRAP), CONSTANT(WG_NEGATIVE_ERROR),
    /* the tensors whose shape the plan writes, and the policy attributes (masks) */
    CONSTANT(WG_PLANNED_TENSORS), CONSTANT(WG_INDEX_POLICY),
    /* the element types */
#define WG_DTYPE_ENTRY(name, bits) {"WG_DTYPE_" #name, WG_DTYPE_##name},
    WG_DTYPES(WG_DTYPE_ENTRY)
#undef WG_DTYPE_ENTRY
    /* the ops, and the tensors and attributes each takes (masks of the bits below) */
#define WG_OP(name, tensors, attrs) {"WG_OP_" #name, WG_OP_##name}, \
    {"WG_OP_" #name ".tensors", (int32_t)(tensors)}, {"WG_OP_" #name ".attrs", (int32_t)(attrs)},
#include "ops.def"
#undef WG_OP
    /* the call record (src/call.def) */
    FIELD("op", op), FIELD("err.arg", err.arg), FIELD("err.dim", err.dim),
    FIELD("err.value", err.value), FIELD("err.limit", err.limit),
    FIELD("err.position", err.position),
#define WG_TENSOR(role, arg, by) {"WG_TENSOR_" #role, WG_TENSOR_##role}, TENSOR_FIELDS(role),
#define WG_ATTR(name, dflt) {"WG_ATTR_" #name, WG_ATTR_##name}, FIELD("attrs." #name, attrs[WG_ATTR_##name]),
#include "call.def"
#undef WG_TENSOR
#undef WG_ATTR
};

size_t wg_abi_count(void) { return sizeof abi / sizeof abi[0]; }
const char* wg_abi_name(size_t i) { return i < wg_abi_count() ? abi[i].name : NULL; }
int32_t wg_abi_value(size_t i) { return i < wg_abi_count() ? abi[i].value : 0; }
