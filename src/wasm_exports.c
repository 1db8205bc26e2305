/* The C side of the JS binding (wasm builds only): one call record that the binding fills in wasm
 * memory and any op runs from, and the table of constants the binding reads at init, so that
 * the JS side holds no number of its own (js/abi.mjs). */
#include <malloc.h>
#include <stddef.h>

#include "op.h"

/* One op call. The binding writes op, the args' scalars and tensors, and the two shapes; the
 * shape query writes out_shape and out_rank; a failure writes err. */
typedef struct wg_call {
  wg_op_args args; /* data_shape and index_shape are set here, to the arrays below */
  int32_t op;      /* position in src/ops.def */
  size_t data_shape[WG_MAX_RANK];
  size_t index_shape[WG_MAX_RANK];
  size_t scale_shape[WG_MAX_RANK]; /* gather_block_quantized: args.quant's two shapes */
  size_t zp_shape[WG_MAX_RANK];
  size_t out_shape[WG_MAX_RANK];
  size_t out_rank;
  size_t out_blocks; /* the shape query's block count (op.h: offsets) */
  wg_error_info err;
} wg_call;

/* Every op of src/ops.def, by its position there. */
enum {
#define WG_OP(name) WG_OP_##name,
#include "ops.def"
#undef WG_OP
  WG_OP_COUNT
};
static const struct {
  wg_op_shape_fn shape;
  wg_op_run_fn run;
} ops[WG_OP_COUNT] = {
#define WG_OP(name) {wg_##name##_shape_args, wg_##name##_run_args},
#include "ops.def"
#undef WG_OP
};

static int prepare(wg_call* c) {
  c->args.data_shape = c->data_shape;
  c->args.index_shape = c->index_shape;
  c->args.quant.scale_shape = c->scale_shape;
  c->args.quant.zp_shape = c->zp_shape;
  c->args.out_blocks = &c->out_blocks;
  return c->op >= 0 && c->op < WG_OP_COUNT;
}

/* Validates the call and computes its output shape. */
wg_status wg_call_shape(wg_call* c) {
  if (!prepare(c)) return WG_ERR_INVALID_ARGUMENT;
  return ops[c->op].shape(&c->args, c->out_shape, &c->out_rank, &c->err);
}

/* Runs the call on the pool (NULL: on the caller). */
wg_status wg_call_run(wg_pool* pool, wg_call* c) {
  if (!prepare(c)) return WG_ERR_INVALID_ARGUMENT;
  return ops[c->op].run(pool, &c->args, &c->err);
}

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
#define FIELD(path) {"wg_call." #path, (int32_t)offsetof(wg_call, path)}
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
    CONSTANT(WG_ERR_ZERO_POINTS_SHAPE),
    /* wg_arg, wg_index_type, wg_oob_mode, wg_negative_mode, wg_quant_type, wg_scale_type */
    CONSTANT(WG_ARG_NONE), CONSTANT(WG_ARG_DATA), CONSTANT(WG_ARG_INDICES), CONSTANT(WG_ARG_AXIS),
    CONSTANT(WG_ARG_BATCH_DIMS), CONSTANT(WG_ARG_OUT), CONSTANT(WG_ARG_SCALES),
    CONSTANT(WG_ARG_ZERO_POINTS), CONSTANT(WG_ARG_QUANTIZE_AXIS),
    CONSTANT(WG_QUANT_UINT8), CONSTANT(WG_QUANT_UINT4), CONSTANT(WG_QUANT_INT4),
    CONSTANT(WG_SCALE_F32), CONSTANT(WG_SCALE_F16), CONSTANT(WG_SCALE_BF16),
    CONSTANT(WG_INDEX_I32), CONSTANT(WG_INDEX_U32), CONSTANT(WG_INDEX_I64), CONSTANT(WG_INDEX_U64),
    CONSTANT(WG_OOB_ERROR), CONSTANT(WG_OOB_ZERO), CONSTANT(WG_OOB_CLAMP),
    CONSTANT(WG_NEGATIVE_WRAP), CONSTANT(WG_NEGATIVE_ERROR),
    /* the ops */
#define WG_OP(name) {"WG_OP_" #name, WG_OP_##name},
#include "ops.def"
#undef WG_OP
    /* the call record */
    FIELD(op), FIELD(args.data_rank), FIELD(args.index_rank), FIELD(args.axis),
    FIELD(args.batch_dims), FIELD(args.elem_size), FIELD(args.data), FIELD(args.indices),
    FIELD(args.index_type), FIELD(args.mode), FIELD(args.negative_indices), FIELD(args.out), FIELD(data_shape),
    FIELD(index_shape), FIELD(out_shape), FIELD(out_rank), FIELD(err.arg), FIELD(err.dim),
    FIELD(err.value), FIELD(err.limit), FIELD(err.position),
    FIELD(args.quant.quant_type), FIELD(args.quant.scale_type), FIELD(args.quant.bits),
    FIELD(args.quant.block_size), FIELD(args.quant.quantize_axis), FIELD(args.quant.has_zero_points),
    FIELD(args.quant.scale_rank), FIELD(args.quant.zp_rank), FIELD(args.scales),
    FIELD(args.zero_points), FIELD(scale_shape), FIELD(zp_shape), FIELD(args.offsets),
    FIELD(out_blocks),
};

size_t wg_abi_count(void) { return sizeof abi / sizeof abi[0]; }
const char* wg_abi_name(size_t i) { return i < wg_abi_count() ? abi[i].name : NULL; }
int32_t wg_abi_value(size_t i) { return i < wg_abi_count() ? abi[i].value : 0; }
