/* Index resolution: read int32/uint32/int64/uint64 indices, wrap negatives, check bounds and
 * apply the out-of-range mode. The one place where the index rules live. */
#ifndef WG_INDEX_RESOLVE_H
#define WG_INDEX_RESOLVE_H

#include "wasm_gather.h"

/* The index rule, in one place: index v of a dimension of size s selects the position
 * WG_WRAP_INDEX(U, v, neg, s) when that is below s, compared unsigned; else it is out of range.
 * A negative index (neg: v < 0, always 0 for unsigned index types) counts from the end, once: s
 * is added, in the unsigned type U. Then one unsigned compare rejects both v < -s (it wrapped
 * around to a huge value) and v >= s, for any s. U must hold every index and every size: uint64_t
 * for 64-bit indices (never truncated to a 32-bit size_t); size_t is enough for 32-bit ones (an
 * int32 plus a size_t cannot wrap past zero twice). The v128 kernels apply the same rule to four
 * lanes at once (copy_kernels.c, wrap_v128).
 * Under WG_NEGATIVE_ERROR (WG_POSITION, which wg_resolve_indices and wg_find_bad_index use) a
 * negative index becomes UINT64_MAX, above every size, so the same one compare puts it out of
 * range, where the out-of-range mode decides (error, zeros, or clamped to 0: the clamp looks at
 * the sign itself). (Not just "nothing added": read as uint64_t a negative v is at least 2^63,
 * but a native 64-bit size_t can hold a larger, empty, dimension; the fuzzer found that.) The
 * fused kernels wrap always, and the engine does not use them under WG_NEGATIVE_ERROR
 * (stage_copy.c). */
#define WG_WRAP_INDEX(U, v, neg, s) ((U)(v) + ((neg) ? (U)(s) : (U)0))
/* The position an index selects under either policy (wrap: WG_NEGATIVE_WRAP), to be compared
 * with the size: in range exactly when below it. */
#define WG_POSITION(v, neg, wrap, s) \
  ((neg) ? ((wrap) ? WG_WRAP_INDEX(uint64_t, v, 1, s) : UINT64_MAX) : (uint64_t)(v))

/* Indices resolved per step of a stage: an offsets array on the stack. */
#define WG_SEGMENT 256

/* Offset that stands for "this block is zeros" (never a real offset: tensors are smaller). */
#define WG_ZERO_BLOCK SIZE_MAX

/* Resolves the n indices at positions first, first + stride, ... of `indices` against a
 * dimension of size dim_size, into byte offsets base + index * step. With accumulate, adds
 * index * step to off[] instead (a WG_ZERO_BLOCK on either side stays WG_ZERO_BLOCK). Returns
 * WG_ERR_INDEX_OUT_OF_RANGE at the first bad index in WG_OOB_ERROR mode (off[] is then partial). */
wg_status wg_resolve_indices(const void* indices, wg_index_type type, size_t first, size_t stride,
                             size_t n, size_t dim_size, size_t base, size_t step,
                             wg_oob_mode mode, wg_negative_mode negative, int accumulate,
                             size_t* off);

/* Finds the first index (lowest flat position) that is outside [-s, s) (outside [0, s) under
 * WG_NEGATIVE_ERROR), where the index at position p is checked against dim_sizes[p % depth];
 * dim_sizes NULL: no bound, only a negative index is bad (err->limit -1). Returns 1 and fills
 * *err if there is one. */
int wg_find_bad_index(const void* indices, wg_index_type type, wg_negative_mode negative,
                      size_t count, size_t depth,
                      const size_t* dim_sizes, size_t first_dim, wg_error_info* err);

/* 1 when the n indices at positions first .. first + n pass the same check as wg_find_bad_index
 * (first a multiple of depth): the runner's parallel scan, one chunk at a time. With depth 1,
 * one branch-free loop per index type, which vectorizes. */
int wg_indices_in_range(const void* indices, wg_index_type type, wg_negative_mode negative,
                        size_t first, size_t n, size_t depth, const size_t* dim_sizes);

/* off[j] += base + j * step for every j that is not WG_ZERO_BLOCK. */
void wg_offsets_add_ramp(size_t* off, size_t n, size_t base, size_t step);

/* Reads index p as its 64 bits (sign-extended) and its sign. */
static inline uint64_t wg_load_index(const void* indices, wg_index_type type, size_t p, int* neg) {
  switch (type) {
    case WG_INDEX_I32: { int32_t v = ((const int32_t*)indices)[p]; *neg = v < 0; return (uint64_t)v; }
    case WG_INDEX_U32: *neg = 0; return ((const uint32_t*)indices)[p];
    case WG_INDEX_I64: { int64_t v = ((const int64_t*)indices)[p]; *neg = v < 0; return (uint64_t)v; }
    default: *neg = 0; return ((const uint64_t*)indices)[p];
  }
}

int wg_index_type_valid(wg_index_type type);
/* Bytes of one index of the type (4 or 8). */
static inline size_t wg_index_bytes(wg_index_type type) {
  return type == WG_INDEX_I64 || type == WG_INDEX_U64 ? 8 : 4;
}
int wg_oob_mode_valid(wg_oob_mode mode);
/* A wg_negative_mode (as the int32 attribute of the call record). */
int wg_negative_mode_valid(int32_t negative);

#endif
