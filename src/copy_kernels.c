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

wg_copy_fn wg_pick_copy(size_t block_bytes) {
  switch (block_bytes) {
    case 1: return wg_copy_x8;
    case 2: return wg_copy_x16;
    case 4: return wg_copy_x32;
    case 8: return wg_copy_x64;
    default: return block_bytes < WG_MEMCPY_MIN_BYTES ? wg_copy_v128 : wg_copy_memcpy;
  }
}
