#include "copy_kernels.h"

#include <string.h>

#include "index_resolve.h"

#ifdef __wasm_simd128__
#include <wasm_simd128.h>
#endif

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

/* Blocks of bb bytes: zeros for WG_ZERO_BLOCK, else copy_one; inlined into each kernel below
 * with copy_one a constant. */
static inline void copy_blocks(uint8_t* dst, const uint8_t* src, const size_t* off, size_t n,
                               size_t bb, void (*copy_one)(uint8_t*, const uint8_t*, size_t)) {
  for (size_t j = 0; j < n; ++j, dst += bb) {
    if (off[j] == WG_ZERO_BLOCK) {
      memset(dst, 0, bb);
    } else {
      copy_one(dst, src + off[j], bb);
    }
  }
}

static inline void copy_large(uint8_t* d, const uint8_t* s, size_t bytes) { memcpy(d, s, bytes); }

void wg_copy_v128(uint8_t* dst, const uint8_t* src, const size_t* off, size_t n, size_t bb) {
  copy_blocks(dst, src, off, n, bb, wg_copy_small);
}

void wg_copy_memcpy(uint8_t* dst, const uint8_t* src, const size_t* off, size_t n, size_t bb) {
  copy_blocks(dst, src, off, n, bb, copy_large);
}

/* The commonest fused loops (4-byte elements, int32 indices) four blocks at a time in wasm SIMD:
 * indices wrapped and checked as vectors, the four elements loaded into the lanes of one
 * vector. Each returns how many blocks it did (a multiple of 4, stopping before a group that
 * holds an index that is not plainly in range); the scalar loop does the rest. */
#if defined(__wasm_simd128__) && SIZE_MAX == UINT32_MAX
#define WG_V128_KERNELS 1

/* WG_WRAP_INDEX on four lanes: adds s to the negative ones (the caller then compares unsigned). */
static inline v128_t wrap_v128(v128_t v, v128_t s) {
  return wasm_i32x4_add(v, wasm_v128_and(wasm_i32x4_shr(v, 31), s));
}

/* The four 4-byte elements at byte offsets off (lanes) from src, stored to dst. */
static inline void gather4_x32(uint8_t* dst, const uint8_t* src, v128_t off) {
  v128_t r = wasm_v128_load32_zero(src + (uint32_t)wasm_i32x4_extract_lane(off, 0));
  r = wasm_v128_load32_lane(src + (uint32_t)wasm_i32x4_extract_lane(off, 1), r, 1);
  r = wasm_v128_load32_lane(src + (uint32_t)wasm_i32x4_extract_lane(off, 2), r, 2);
  r = wasm_v128_load32_lane(src + (uint32_t)wasm_i32x4_extract_lane(off, 3), r, 3);
  wasm_v128_store(dst, r);
}

/* One row: block j comes from src + idx[j] * 4. */
size_t wg_row_x32_i32_v128(uint8_t* dst, const uint8_t* src, const int32_t* idx, size_t n,
                           size_t dim_size) {
  const v128_t s = wasm_i32x4_splat((int32_t)dim_size);
  size_t j = 0;
  for (; j + 4 <= n; j += 4) {
    v128_t u = wrap_v128(wasm_v128_load(idx + j), s);
    if (!wasm_i32x4_all_true(wasm_u32x4_lt(u, s))) break;
    gather4_x32(dst + j * 4, src, wasm_i32x4_shl(u, 2));
  }
  return j;
}

/* Index triples (x, y, z): four of them are three vectors, lanes [x0 y0 z0 x1] [y1 z1 x2 y2]
 * [z2 x3 y3 z3], checked against sizes and scaled by steps in the same rotating pattern; each
 * block's offset is the sum of its three lanes, gathered across the vectors by shuffles. */
size_t wg_triples_x32_i32_v128(uint8_t* dst, const uint8_t* src, const int32_t* idx, size_t n,
                               const size_t* sz, const size_t* st) {
  const v128_t sa = wasm_i32x4_make(sz[0], sz[1], sz[2], sz[0]), sb = wasm_i32x4_make(sz[1], sz[2], sz[0], sz[1]),
               sc = wasm_i32x4_make(sz[2], sz[0], sz[1], sz[2]);
  const v128_t ka = wasm_i32x4_make(st[0], st[1], st[2], st[0]), kb = wasm_i32x4_make(st[1], st[2], st[0], st[1]),
               kc = wasm_i32x4_make(st[2], st[0], st[1], st[2]);
  size_t j = 0;
  for (; j + 4 <= n; j += 4, idx += 12) {
    v128_t a = wrap_v128(wasm_v128_load(idx), sa), b = wrap_v128(wasm_v128_load(idx + 4), sb),
           c = wrap_v128(wasm_v128_load(idx + 8), sc);
    v128_t ok = wasm_v128_and(wasm_u32x4_lt(a, sa), wasm_v128_and(wasm_u32x4_lt(b, sb), wasm_u32x4_lt(c, sc)));
    if (!wasm_i32x4_all_true(ok)) break;
    a = wasm_i32x4_mul(a, ka);
    b = wasm_i32x4_mul(b, kb);
    c = wasm_i32x4_mul(c, kc);
    v128_t p0 = wasm_i32x4_shuffle(wasm_i32x4_shuffle(a, b, 0, 3, 6, 0), c, 0, 1, 2, 5);
    v128_t p1 = wasm_i32x4_shuffle(wasm_i32x4_shuffle(a, b, 1, 4, 7, 0), c, 0, 1, 2, 6);
    v128_t p2 = wasm_i32x4_shuffle(wasm_i32x4_shuffle(a, b, 2, 5, 0, 0), c, 0, 1, 4, 7);
    gather4_x32(dst + j * 4, src, wasm_i32x4_add(p0, wasm_i32x4_add(p1, p2)));
  }
  return j;
}

/* How many int32 indices from idx[0] on equal v, counted four at a time (the caller counts the
 * rest): at most n. */
static inline size_t same_run_i32_v128(const int32_t* idx, size_t n, int32_t v) {
  const v128_t first = wasm_i32x4_splat(v);
  size_t e = 0;
  while (e + 4 <= n && wasm_i32x4_all_true(wasm_i32x4_eq(wasm_v128_load(idx + e), first))) e += 4;
  return e;
}
#else
#define WG_V128_KERNELS 0
#define wg_row_x32_i32_v128(dst, src, idx, n, s) 0
#define wg_triples_x32_i32_v128(dst, src, idx, n, sz, st) 0
#define same_run_i32_v128(idx, n, v) 0
#endif

/* A row along the last axis (depth 1, ramp one element: its blocks lie side by side in src at
 * one index) that starts with a run of one index: torch's x.gather(d, i.unsqueeze(-1).expand(...,
 * D)), the top-k rows and beam reordering, repeats each index along the row, and a run is one
 * copy of consecutive elements of `elem` bytes. One function an index type, for every width:
 * the fused kernels call it only for a row that starts so. Returns the blocks done, as they do. */
#define DEFINE_COPY_RUNS(I, U)                                                                  \
  __attribute__((noinline)) static size_t copy_runs_##I(                                      \
      uint8_t* dst, const uint8_t* src, const I* idx, size_t n, size_t size, size_t step, size_t elem) { \
    for (size_t j = 0; j < n;) {                                                                \
      const I v = idx[j];                                                                       \
      const U u = WG_WRAP_INDEX(U, v, v < 0, size);                                             \
      if (u >= (U)size) return j;                                                               \
      size_t e = j + 1;                                                                         \
      if (sizeof(I) == 4) e += same_run_i32_v128((const int32_t*)idx + e, n - e, (int32_t)v);   \
      while (e < n && idx[e] == v) ++e;                                                         \
      memcpy(dst + j * elem, src + j * elem + (size_t)u * step, (e - j) * elem);                \
      j = e;                                                                                    \
    }                                                                                           \
    return n;                                                                                   \
  }
DEFINE_COPY_RUNS(int32_t, size_t)
DEFINE_COPY_RUNS(int64_t, uint64_t)

/* Fused kernels: element width T, index type I, index arithmetic in the unsigned type U (see
 * WG_WRAP_INDEX). Block j comes from src + j * ramp + sum over c < D of index[j * D + c] *
 * strides[c]. The loop is inlined with D a constant for the common depths (so the tuple loop
 * unrolls) and, for a row of elements (depth 1, no ramp), with the stride a constant too (no
 * multiplies); the v128 loops handle the commonest cases four blocks at a time first. */
#define DEFINE_FUSED(name, T, I, U)                                                            \
  static inline size_t name##_loop(uint8_t* dst, const uint8_t* src, const I* idx, size_t n,   \
                                   size_t D, const size_t* dim_sizes, const size_t* strides,    \
                                   size_t ramp) {                                              \
    /* Local copies: the stores to dst could alias them, so they would be reloaded per block. */ \
    size_t sizes[WG_MAX_RANK], steps[WG_MAX_RANK];                                             \
    for (size_t c = 0; c < D; ++c) {                                                           \
      sizes[c] = dim_sizes[c];                                                                 \
      steps[c] = strides[c];                                                                    \
    }                                                                                          \
    size_t j = 0;                                                                              \
    if (D == 1 && ramp == sizeof(T) && n > 1 && idx[0] == idx[1]) {                             \
      return copy_runs_##I(dst, src, idx, n, sizes[0], steps[0], sizeof(T));                   \
    }                                                                                          \
    if (WG_V128_KERNELS && sizeof(T) == 4 && sizeof(I) == 4 && ramp == 0) {                    \
      if (D == 1 && steps[0] == 4) j = wg_row_x32_i32_v128(dst, src, (const int32_t*)idx, n, sizes[0]); \
      if (D == 3) j = wg_triples_x32_i32_v128(dst, src, (const int32_t*)idx, n, sizes, steps); \
    }                                                                                          \
    for (idx += j * D; j < n; ++j, idx += D) {                                                 \
      size_t off = j * ramp;                                                                   \
      for (size_t c = 0; c < D; ++c) {                                                         \
        U u = WG_WRAP_INDEX(U, idx[c], idx[c] < 0, sizes[c]);                                  \
        if (u >= (U)sizes[c]) return j;                                                        \
        off += (size_t)u * steps[c];                                                           \
      }                                                                                        \
      memcpy(dst + j * sizeof(T), src + off, sizeof(T));                                       \
    }                                                                                          \
    return n;                                                                                  \
  }                                                                                            \
  WG_FUSED_KERNEL(name) {                                                                      \
    static const size_t row_scale[1] = {sizeof(T)};                                            \
    switch (depth) {                                                                           \
      case 1:                                                                                  \
        if (ramp == 0 && strides[0] == sizeof(T)) {                                             \
          return name##_loop(dst, src, indices, n, 1, dim_sizes, row_scale, 0);                \
        }                                                                                      \
        return name##_loop(dst, src, indices, n, 1, dim_sizes, strides, ramp);                  \
      case 2: return name##_loop(dst, src, indices, n, 2, dim_sizes, strides, ramp);            \
      case 3: return name##_loop(dst, src, indices, n, 3, dim_sizes, strides, ramp);            \
      default: return name##_loop(dst, src, indices, n, depth, dim_sizes, strides, ramp);       \
    }                                                                                          \
  }
DEFINE_FUSED(wg_fused_x8_i32, uint8_t, int32_t, size_t)
DEFINE_FUSED(wg_fused_x16_i32, uint16_t, int32_t, size_t)
DEFINE_FUSED(wg_fused_x32_i32, uint32_t, int32_t, size_t)
DEFINE_FUSED(wg_fused_x64_i32, uint64_t, int32_t, size_t)
DEFINE_FUSED(wg_fused_x8_i64, uint8_t, int64_t, uint64_t)
DEFINE_FUSED(wg_fused_x16_i64, uint16_t, int64_t, uint64_t)
DEFINE_FUSED(wg_fused_x32_i64, uint32_t, int64_t, uint64_t)
DEFINE_FUSED(wg_fused_x64_i64, uint64_t, int64_t, uint64_t)

/* [width log2][index type I32, I64] */
static const wg_fused_fn fused_kernels[4][2] = {
    {wg_fused_x8_i32, wg_fused_x8_i64},
    {wg_fused_x16_i32, wg_fused_x16_i64},
    {wg_fused_x32_i32, wg_fused_x32_i64},
    {wg_fused_x64_i32, wg_fused_x64_i64},
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
    k.fused = fused_kernels[width][index_type == WG_INDEX_I64];
  }
  return k;
}
