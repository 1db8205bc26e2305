/* Block copy kernels, named by the width they move (XNNPACK style), and the one place where
 * the kernels for a call are picked. */
#ifndef WG_COPY_KERNELS_H
#define WG_COPY_KERNELS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#ifdef __wasm_simd128__
#include <wasm_simd128.h>
#endif

#include "wasm_gather.h"

/* General path: copies n blocks of bb bytes from src + off[j] to dst + j * bb, where the offsets
 * were resolved beforehand; off[j] == WG_ZERO_BLOCK writes zeros. */
typedef void (*wg_copy_fn)(uint8_t* dst, const uint8_t* src, const size_t* off, size_t n, size_t bb);

/* Fused path, for single elements: resolves and copies in one loop. Block j (of n) comes from
 * src + j * ramp + sum over c < depth of indices[j * depth + c] * strides[c], each index wrapped
 * if negative and checked against dim_sizes[c] with one unsigned compare. Stops at the first
 * index that is not plainly in range and returns how many blocks it copied; the general path,
 * which knows the out-of-range modes, takes over from there. */
typedef size_t (*wg_fused_fn)(uint8_t* dst, const uint8_t* src, const void* indices, size_t n,
                              size_t depth, const size_t* dim_sizes, const size_t* strides,
                              size_t ramp);

/* Blocks at least this large go to memcpy, which is memory.copy with bulk memory: in V8 it beats
 * an explicit v128 loop only for larger rows (about 256 B here; see docs/toolchain.md). */
#define WG_MEMCPY_MIN_BYTES 256

/* Copies one block of any size below WG_MEMCPY_MIN_BYTES: 16-byte vectors, then the tail. */
static inline void wg_copy_small(uint8_t* d, const uint8_t* s, size_t bytes) {
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

/* Copies a block of any size: wg_copy_small, or memcpy from WG_MEMCPY_MIN_BYTES on. */
static inline void wg_copy_bytes(uint8_t* d, const uint8_t* s, size_t bytes) {
  if (bytes < WG_MEMCPY_MIN_BYTES) wg_copy_small(d, s, bytes);
  else memcpy(d, s, bytes);
}

typedef struct wg_kernels {
  wg_copy_fn copy;
  wg_fused_fn fused; /* NULL where there is none: every block takes the general path */
} wg_kernels;

void wg_copy_x8(uint8_t* dst, const uint8_t* src, const size_t* off, size_t n, size_t bb);
void wg_copy_x16(uint8_t* dst, const uint8_t* src, const size_t* off, size_t n, size_t bb);
void wg_copy_x32(uint8_t* dst, const uint8_t* src, const size_t* off, size_t n, size_t bb);
void wg_copy_x64(uint8_t* dst, const uint8_t* src, const size_t* off, size_t n, size_t bb);
void wg_copy_v128(uint8_t* dst, const uint8_t* src, const size_t* off, size_t n, size_t bb);
void wg_copy_memcpy(uint8_t* dst, const uint8_t* src, const size_t* off, size_t n, size_t bb);

/* Fused kernels by element width and index type (int32, int64; depth and ramp as wg_fused_fn),
 * each reachable by itself for a kernel test (tests/native/test_kernels.c). */
#define WG_FUSED_KERNEL(name)                                                                \
  size_t name(uint8_t* dst, const uint8_t* src, const void* indices, size_t n, size_t depth,   \
              const size_t* dim_sizes, const size_t* strides, size_t ramp)
WG_FUSED_KERNEL(wg_fused_x8_i32);
WG_FUSED_KERNEL(wg_fused_x16_i32);
WG_FUSED_KERNEL(wg_fused_x32_i32);
WG_FUSED_KERNEL(wg_fused_x64_i32);
WG_FUSED_KERNEL(wg_fused_x8_i64);
WG_FUSED_KERNEL(wg_fused_x16_i64);
WG_FUSED_KERNEL(wg_fused_x32_i64);
WG_FUSED_KERNEL(wg_fused_x64_i64);

#ifdef __wasm_simd128__
/* The wasm SIMD loops under the fused x32/i32 kernels: four blocks a step, stopping before a
 * group with an index that is not plainly in range; they return the blocks done (a multiple of 4).
 * A row of elements (block j from src + idx[j] * 4), and index triples (strides st). */
size_t wg_row_x32_i32_v128(uint8_t* dst, const uint8_t* src, const int32_t* idx, size_t n,
                           size_t dim_size);
size_t wg_triples_x32_i32_v128(uint8_t* dst, const uint8_t* src, const int32_t* idx, size_t n,
                               const size_t* sz, const size_t* st);
#endif

/* Picks the kernels for a call, once, from the block size in bytes, the index type and the
 * number of index components per block. */
wg_kernels wg_pick_kernels(size_t block_bytes, wg_index_type index_type, size_t depth);

#endif
