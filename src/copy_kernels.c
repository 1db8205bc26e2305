#include "copy_kernels.h"

#include <string.h>

#include "index_resolve.h"

#ifdef __wasm_simd128__
#include <wasm_simd128.h>
#endif

/* Blocks at least this large go to memcpy, which is memory.copy with bulk memory: in V8 it beats
 * an explicit v128 loop only for larger rows (about 256 B here; see toolchain-notes.md). */
#define WG_MEMCPY_MIN_BYTES 256

/* Single elements of 1, 2, 4 or 8 bytes. memcpy of a constant size compiles to one load/store
 * and has no alignment or aliasing pitfalls. */
#define DEFINE_COPY_ELEMENT(name, T)                                                        \
  void name(uint8_t* dst, const uint8_t* src, const size_t* off, size_t n, size_t bb) {     \
    (void)bb;                                                                               \
    for (size_t j = 0; j < n; ++j) {                                                        \
      T v = 0;                                                                              \
      if (off[j] != WG_ZERO_BLOCK) memcpy(&v, src + off[j], sizeof v);                      \
      memcpy(dst + j * sizeof v, &v, sizeof v);                                             \
    }                                                                                       \
  }
DEFINE_COPY_ELEMENT(wg_copy_x8, uint8_t)
DEFINE_COPY_ELEMENT(wg_copy_x16, uint16_t)
DEFINE_COPY_ELEMENT(wg_copy_x32, uint32_t)
DEFINE_COPY_ELEMENT(wg_copy_x64, uint64_t)

/* Copies one block of any size below WG_MEMCPY_MIN_BYTES: 16-byte vectors, then the tail. */
static inline void copy_small(uint8_t* d, const uint8_t* s, size_t bytes) {
  for (; bytes >= 16; bytes -= 16, d += 16, s += 16) {
#ifdef __wasm_simd128__
    wasm_v128_store(d, wasm_v128_load(s));
#else
    memcpy(d, s, 16);
#endif
  }
  if (bytes & 8) { memcpy(d, s, 8); d += 8; s += 8; }
  if (bytes & 4) { memcpy(d, s, 4); d += 4; s += 4; }
  if (bytes & 2) { memcpy(d, s, 2); d += 2; s += 2; }
  if (bytes & 1) { *d = *s; }
}

void wg_copy_v128(uint8_t* dst, const uint8_t* src, const size_t* off, size_t n, size_t bb) {
  for (size_t j = 0; j < n; ++j, dst += bb) {
    if (off[j] == WG_ZERO_BLOCK) {
      memset(dst, 0, bb);
    } else {
      copy_small(dst, src + off[j], bb);
    }
  }
}

void wg_copy_memcpy(uint8_t* dst, const uint8_t* src, const size_t* off, size_t n, size_t bb) {
  for (size_t j = 0; j < n; ++j, dst += bb) {
    if (off[j] == WG_ZERO_BLOCK) {
      memset(dst, 0, bb);
    } else {
      memcpy(dst, src + off[j], bb);
    }
  }
}

/* Fused kernels: element width T, index type I, index arithmetic in the unsigned type U. After
 * the wrap of a negative index, one unsigned compare rejects both an index below -s (it wrapped
 * around to a huge value) and one at or above s. U is size_t for int32 indices (an int32 plus a
 * size_t dim cannot wrap past zero twice) and uint64_t for int64 ones, which must never be
 * truncated to a 32-bit size_t. Depth 1 (take, gather) has a loop of its own. */
#define DEFINE_FUSED(name, T, I, U)                                                          \
  static size_t name##_d1(uint8_t* dst, const uint8_t* src, const void* indices, size_t n,     \
                          size_t depth, const size_t* dim_sizes, const size_t* scales,        \
                          size_t ramp) {                                                      \
    (void)depth;                                                                              \
    const I* idx = indices;                                                                   \
    const U s = dim_sizes[0];                                                                 \
    const size_t scale = scales[0];                                                           \
    for (size_t j = 0; j < n; ++j) {                                                          \
      I v = idx[j];                                                                           \
      U u = (U)v + (v < 0 ? s : 0);                                                           \
      if (u >= s) return j;                                                                   \
      memcpy(dst + j * sizeof(T), src + j * ramp + (size_t)u * scale, sizeof(T));             \
    }                                                                                         \
    return n;                                                                                 \
  }                                                                                           \
  static size_t name##_dk(uint8_t* dst, const uint8_t* src, const void* indices, size_t n,     \
                          size_t depth, const size_t* dim_sizes, const size_t* scales,        \
                          size_t ramp) {                                                      \
    const I* idx = indices;                                                                   \
    for (size_t j = 0; j < n; ++j, idx += depth) {                                            \
      size_t off = j * ramp;                                                                  \
      for (size_t c = 0; c < depth; ++c) {                                                    \
        I v = idx[c];                                                                         \
        U s = dim_sizes[c], u = (U)v + (v < 0 ? s : 0);                                       \
        if (u >= s) return j;                                                                 \
        off += (size_t)u * scales[c];                                                         \
      }                                                                                       \
      memcpy(dst + j * sizeof(T), src + off, sizeof(T));                                      \
    }                                                                                         \
    return n;                                                                                 \
  }
DEFINE_FUSED(wg_fused_x8_i32, uint8_t, int32_t, size_t)
DEFINE_FUSED(wg_fused_x16_i32, uint16_t, int32_t, size_t)
DEFINE_FUSED(wg_fused_x32_i32, uint32_t, int32_t, size_t)
DEFINE_FUSED(wg_fused_x64_i32, uint64_t, int32_t, size_t)
DEFINE_FUSED(wg_fused_x8_i64, uint8_t, int64_t, uint64_t)
DEFINE_FUSED(wg_fused_x16_i64, uint16_t, int64_t, uint64_t)
DEFINE_FUSED(wg_fused_x32_i64, uint32_t, int64_t, uint64_t)
DEFINE_FUSED(wg_fused_x64_i64, uint64_t, int64_t, uint64_t)

/* [width log2][index type I32, I64][depth 1, depth k] */
static const wg_fused_fn fused_kernels[4][2][2] = {
    {{wg_fused_x8_i32_d1, wg_fused_x8_i32_dk}, {wg_fused_x8_i64_d1, wg_fused_x8_i64_dk}},
    {{wg_fused_x16_i32_d1, wg_fused_x16_i32_dk}, {wg_fused_x16_i64_d1, wg_fused_x16_i64_dk}},
    {{wg_fused_x32_i32_d1, wg_fused_x32_i32_dk}, {wg_fused_x32_i64_d1, wg_fused_x32_i64_dk}},
    {{wg_fused_x64_i32_d1, wg_fused_x64_i32_dk}, {wg_fused_x64_i64_d1, wg_fused_x64_i64_dk}},
};

wg_kernels wg_pick_kernels(size_t block_bytes, wg_index_type index_type, size_t depth) {
  wg_kernels k = {NULL, NULL};
  int width = -1;
  switch (block_bytes) {
    case 1: k.copy = wg_copy_x8; width = 0; break;
    case 2: k.copy = wg_copy_x16; width = 1; break;
    case 4: k.copy = wg_copy_x32; width = 2; break;
    case 8: k.copy = wg_copy_x64; width = 3; break;
    default: k.copy = block_bytes < WG_MEMCPY_MIN_BYTES ? wg_copy_v128 : wg_copy_memcpy; break;
  }
  /* Larger blocks spend their time copying, not resolving: the general path is as fast. */
  if (width >= 0 && depth > 0 && (index_type == WG_INDEX_I32 || index_type == WG_INDEX_I64)) {
    k.fused = fused_kernels[width][index_type == WG_INDEX_I64][depth > 1];
  }
  return k;
}
