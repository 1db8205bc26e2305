#include "dequant_kernels.h"

#include <string.h>

#ifdef __wasm_simd128__
#include <wasm_simd128.h>
#endif

/* The kernels are one body specialized by constants (bits, signedness, output type): it must be
 * inlined into each, or the compiler keeps one generic copy that tests them at run time (clang
 * did so for the 16-bit outputs, 3x slower). */
#define WG_ALWAYS_INLINE inline __attribute__((always_inline))

static WG_ALWAYS_INLINE uint32_t f32_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}
static WG_ALWAYS_INLINE float bits_f32(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

/* The constants of float_to_half_fast3_rtne, shared by the scalar and v128 versions (which are
 * the same steps, lane by lane, so that both round every value alike). */
#define F16_OVERFLOW 0x47800000u /* 65536.0f: at and above, Inf (or NaN) */
#define F32_INF 0x7f800000u
#define F16_MIN_NORMAL 0x38800000u /* 2^-14: below, a subnormal float16 (or zero) */
#define DENORM_MAGIC 0x3f000000u   /* 0.5f: its ulp is float16's subnormal step, 2^-24 */
#define REBIAS (((uint32_t)(15 - 127) << 23) + 0xfff) /* exponent 127 -> 15, and half an ulp - 1 */

uint16_t wg_f32_to_f16(float f) {
  uint32_t x = f32_bits(f);
  uint32_t sign = x & 0x80000000u;
  x ^= sign;
  uint32_t h;
  if (x >= F16_OVERFLOW) {
    h = x > F32_INF ? 0x7e00 : 0x7c00;
  } else if (x < F16_MIN_NORMAL) { /* the float add rounds to the subnormal step, to even */
    h = f32_bits(bits_f32(x) + bits_f32(DENORM_MAGIC)) - DENORM_MAGIC;
  } else { /* round to nearest even on bit 13, then drop it */
    h = (x + REBIAS + ((x >> 13) & 1)) >> 13;
  }
  return (uint16_t)(h | (sign >> 16));
}

uint16_t wg_f32_to_bf16(float f) {
  uint32_t x = f32_bits(f);
  if ((x & 0x7fffffffu) > F32_INF) return (uint16_t)(((x >> 16) & 0x8000) | 0x7fc0);
  return (uint16_t)((x + 0x7fff + ((x >> 16) & 1)) >> 16);
}

enum { OUT_F32, OUT_F16, OUT_BF16 };

static WG_ALWAYS_INLINE void store_one(void* dst, size_t j, float v, int out) {
  if (out == OUT_F32) {
    memcpy((uint8_t*)dst + 4 * j, &v, 4);
  } else {
    uint16_t h = out == OUT_F16 ? wg_f32_to_f16(v) : wg_f32_to_bf16(v);
    memcpy((uint8_t*)dst + 2 * j, &h, 2);
  }
}

#ifdef __wasm_simd128__
/* wg_f32_to_f16 on four lanes: every branch computed, then selected. */
static WG_ALWAYS_INLINE v128_t f16x4(v128_t f) {
  v128_t sign = wasm_v128_and(f, wasm_u32x4_const_splat(0x80000000u));
  v128_t x = wasm_v128_xor(f, sign); /* below 2^31: signed compares are right */
  v128_t big = wasm_i32x4_ge(x, wasm_u32x4_const_splat(F16_OVERFLOW));
  v128_t nan = wasm_i32x4_gt(x, wasm_u32x4_const_splat(F32_INF));
  v128_t h_big = wasm_v128_bitselect(wasm_i32x4_const_splat(0x7e00), wasm_i32x4_const_splat(0x7c00), nan);
  v128_t small = wasm_i32x4_lt(x, wasm_u32x4_const_splat(F16_MIN_NORMAL));
  v128_t h_small = wasm_i32x4_sub(wasm_f32x4_add(x, wasm_u32x4_const_splat(DENORM_MAGIC)),
                                  wasm_u32x4_const_splat(DENORM_MAGIC));
  v128_t odd = wasm_v128_and(wasm_u32x4_shr(x, 13), wasm_i32x4_const_splat(1));
  v128_t h_norm = wasm_u32x4_shr(wasm_i32x4_add(wasm_i32x4_add(x, wasm_u32x4_const_splat(REBIAS)), odd), 13);
  v128_t h = wasm_v128_bitselect(h_big, wasm_v128_bitselect(h_small, h_norm, small), big);
  return wasm_v128_or(h, wasm_u32x4_shr(sign, 16));
}

/* f16x4 for lanes known to be zero or of a magnitude in [2^-14, 65520): its normal branch alone
 * (a third of the work), zeros kept with their sign. */
static WG_ALWAYS_INLINE v128_t f16x4_normal(v128_t f) {
  v128_t sign = wasm_v128_and(f, wasm_u32x4_const_splat(0x80000000u));
  v128_t x = wasm_v128_xor(f, sign);
  v128_t odd = wasm_v128_and(wasm_u32x4_shr(x, 13), wasm_i32x4_const_splat(1));
  v128_t h = wasm_u32x4_shr(wasm_i32x4_add(wasm_i32x4_add(x, wasm_u32x4_const_splat(REBIAS)), odd), 13);
  h = wasm_v128_andnot(h, wasm_i32x4_eq(x, wasm_i32x4_const_splat(0)));
  return wasm_v128_or(h, wasm_u32x4_shr(sign, 16));
}

/* wg_f32_to_bf16 on four lanes. */
static WG_ALWAYS_INLINE v128_t bf16x4(v128_t x) {
  v128_t nan = wasm_i32x4_gt(wasm_v128_and(x, wasm_i32x4_const_splat(0x7fffffff)),
                             wasm_u32x4_const_splat(F32_INF));
  v128_t hi = wasm_u32x4_shr(x, 16);
  v128_t h_nan = wasm_v128_or(wasm_v128_and(hi, wasm_i32x4_const_splat(0x8000)), wasm_i32x4_const_splat(0x7fc0));
  v128_t odd = wasm_v128_and(hi, wasm_i32x4_const_splat(1));
  v128_t h = wasm_u32x4_shr(wasm_i32x4_add(wasm_i32x4_add(x, wasm_i32x4_const_splat(0x7fff)), odd), 16);
  return wasm_v128_bitselect(h_nan, h, nan);
}

/* 16 codes of 2 bits from the 4 bytes at b, each left in place in its own byte lane: code j
 * times 4^(j % 4). */
static WG_ALWAYS_INLINE v128_t in_place16(const uint8_t* b) {
  v128_t v = wasm_v128_load32_zero(b);
  return wasm_v128_and(wasm_i8x16_shuffle(v, v, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3),
                       wasm_i32x4_const_splat((int32_t)0xc0300c03));
}

/* 16 raw codes from the bytes at b (16 / (8 / bits) of them): one byte lane each, in order. */
static WG_ALWAYS_INLINE v128_t unpack16(const uint8_t* b, unsigned bits) {
  v128_t c;
  if (bits == 8) {
    c = wasm_v128_load(b);
  } else if (bits == 4) {
    v128_t v = wasm_v128_load64_zero(b);
    v128_t lo = wasm_v128_and(v, wasm_i8x16_const_splat(0x0f));
    v128_t hi = wasm_u8x16_shr(v, 4);
    c = wasm_i8x16_shuffle(lo, hi, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
  } else { /* 2 bits: four codes a byte */
    v128_t v = wasm_v128_load32_zero(b);
    v128_t m = wasm_i8x16_const_splat(3);
    v128_t s0 = wasm_v128_and(v, m), s1 = wasm_v128_and(wasm_u8x16_shr(v, 2), m);
    v128_t s2 = wasm_v128_and(wasm_u8x16_shr(v, 4), m), s3 = wasm_u8x16_shr(v, 6);
    v128_t a = wasm_i8x16_shuffle(s0, s1, 0, 16, 1, 17, 2, 18, 3, 19, 0, 0, 0, 0, 0, 0, 0, 0);
    v128_t d = wasm_i8x16_shuffle(s2, s3, 0, 16, 1, 17, 2, 18, 3, 19, 0, 0, 0, 0, 0, 0, 0, 0);
    c = wasm_i8x16_shuffle(a, d, 0, 1, 16, 17, 2, 3, 18, 19, 4, 5, 20, 21, 6, 7, 22, 23);
  }
  return c;
}

/* Four lanes of float32 in the 16-bit output type, in the low halves of the lanes. */
static WG_ALWAYS_INLINE v128_t half4(v128_t v, int out) { return out == OUT_F16 ? f16x4(v) : bf16x4(v); }

/* A block of 2- or 4-bit codes has at most 16 distinct values: for a 16-bit output, compute
 * them once (the same float32 multiply and rounding as every value) into a table of low bytes
 * and one of high bytes, indexed by the raw code, and look the codes up with swizzles. */
static WG_ALWAYS_INLINE void half_table(int32_t zp, float scale, int is_signed, int out, v128_t* lo, v128_t* hi) {
  v128_t vz = wasm_i32x4_splat(zp), vs = wasm_f32x4_splat(scale);
  v128_t k[4] = {wasm_i32x4_make(0, 1, 2, 3), wasm_i32x4_make(4, 5, 6, 7),
                 is_signed ? wasm_i32x4_make(-8, -7, -6, -5) : wasm_i32x4_make(8, 9, 10, 11),
                 is_signed ? wasm_i32x4_make(-4, -3, -2, -1) : wasm_i32x4_make(12, 13, 14, 15)};
  /* |q - zp| <= 15: with 2^-14 <= |scale| < 4096 every nonzero value is a normal float16 */
  const int normal = out == OUT_F16 && __builtin_fabsf(scale) >= 0x1p-14f && __builtin_fabsf(scale) < 4096.0f;
  v128_t h[4];
  for (int i = 0; i < 4; ++i) {
    v128_t v = wasm_f32x4_mul(wasm_f32x4_convert_i32x4(wasm_i32x4_sub(k[i], vz)), vs);
    h[i] = normal ? f16x4_normal(v) : half4(v, out);
  }
  v128_t a = wasm_u16x8_narrow_i32x4(h[0], h[1]), b = wasm_u16x8_narrow_i32x4(h[2], h[3]);
  *lo = wasm_i8x16_shuffle(a, b, 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
  *hi = wasm_i8x16_shuffle(a, b, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
}
#endif

/* One value, as onnxruntime computes it: static_cast<float>(q - zp) * scale, in float32. */
static WG_ALWAYS_INLINE float value(const uint8_t* codes, size_t i, int32_t zp, float scale, unsigned bits,
                          int is_signed) {
  return (float)(wg_code(codes, i, bits, is_signed) - zp) * scale;
}

#ifdef __wasm_simd128__
/* `groups` groups of 16 codes from the whole bytes at b into dst (16 values a group), one block's
 * zero point and scale: the SIMD loops. */
static WG_ALWAYS_INLINE void simd_groups(uint8_t* dst, const uint8_t* b, size_t groups, int32_t zp,
                                         float scale, unsigned bits, int is_signed, int out) {
  const size_t step = 16 / (8 / bits); /* bytes a group */
  if (bits <= 4 && out != OUT_F32) {
    v128_t lo, hi;
    half_table(zp, scale, is_signed, out, &lo, &hi);
    for (size_t g = 0; g < groups; ++g, b += step, dst += 32) {
      v128_t c = unpack16(b, bits); /* raw codes: the table's index */
      v128_t l = wasm_i8x16_swizzle(lo, c), h = wasm_i8x16_swizzle(hi, c);
      wasm_v128_store(dst, wasm_i8x16_shuffle(l, h, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23));
      wasm_v128_store(dst + 16, wasm_i8x16_shuffle(l, h, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31));
    }
    return;
  }
  /* 2-bit codes into float32, where the scale allows: each code is left where it sits in its
   * byte (code j shifted left by k_j = (j % 4) * 2, masked), which saves moving it down (for
   * 4-bit codes that saves nothing: measured); lane j then computes ((q - zp) * 2^k_j) *
   * (scale * 2^-k_j), the same real product as (q - zp) * scale, so the same rounded float, as
   * long as scale * 2^-k_j is exact: not for a scale below 2^-120 (other than 0), which takes
   * the general loop. */
  if (bits == 2 && out == OUT_F32 && !(__builtin_fabsf(scale) < 0x1p-120f && scale != 0.0f)) {
    const v128_t vz = wasm_i32x4_make(zp, zp * 4, zp * 16, zp * 64);
    const v128_t vs = wasm_f32x4_make(scale, scale * 0.25f, scale * 0.0625f, scale * 0.015625f);
    for (size_t g = 0; g < groups; ++g, b += step, dst += 64) {
      v128_t c = in_place16(b);
      v128_t lo = wasm_u16x8_extend_low_u8x16(c), hi = wasm_u16x8_extend_high_u8x16(c);
      v128_t q[4] = {wasm_i32x4_extend_low_i16x8(lo), wasm_i32x4_extend_high_i16x8(lo),
                     wasm_i32x4_extend_low_i16x8(hi), wasm_i32x4_extend_high_i16x8(hi)};
      for (int k = 0; k < 4; ++k) {
        wasm_v128_store(dst + 16 * k, wasm_f32x4_mul(wasm_f32x4_convert_i32x4(wasm_i32x4_sub(q[k], vz)), vs));
      }
    }
    return;
  }
  /* The general loop: the codes widened to int32 lanes, minus the zero point, converted
   * (exactly: small integers) and times the scale, as every value is. */
  const v128_t vz = wasm_i32x4_splat(zp), vs = wasm_f32x4_splat(scale);
  for (size_t g = 0; g < groups; ++g, b += step, dst += out == OUT_F32 ? 64 : 32) {
    v128_t c = unpack16(b, bits);
    if (is_signed) c = wasm_i8x16_sub(wasm_v128_xor(c, wasm_i8x16_const_splat(8)), wasm_i8x16_const_splat(8));
    v128_t lo = is_signed ? wasm_i16x8_extend_low_i8x16(c) : wasm_u16x8_extend_low_u8x16(c);
    v128_t hi = is_signed ? wasm_i16x8_extend_high_i8x16(c) : wasm_u16x8_extend_high_u8x16(c);
    v128_t q[4] = {wasm_i32x4_extend_low_i16x8(lo), wasm_i32x4_extend_high_i16x8(lo),
                   wasm_i32x4_extend_low_i16x8(hi), wasm_i32x4_extend_high_i16x8(hi)};
    v128_t v[4];
    for (int k = 0; k < 4; ++k) v[k] = wasm_f32x4_mul(wasm_f32x4_convert_i32x4(wasm_i32x4_sub(q[k], vz)), vs);
    if (out == OUT_F32) {
      for (int k = 0; k < 4; ++k) wasm_v128_store(dst + 16 * k, v[k]);
    } else { /* the halves fit in 16 bits: the saturating narrow keeps them */
      wasm_v128_store(dst, wasm_u16x8_narrow_i32x4(half4(v[0], out), half4(v[1], out)));
      wasm_v128_store(dst + 16, wasm_u16x8_narrow_i32x4(half4(v[2], out), half4(v[3], out)));
    }
  }
}
#endif

/* n codes from c0 on, of one block: one by one up to a byte boundary, then 16 at a time in SIMD,
 * then the rest one by one. Inlined into each named kernel with bits, is_signed and out constant. */
static WG_ALWAYS_INLINE void dequant(void* dst, const uint8_t* codes, size_t c0, size_t n, int32_t zp,
                                     float scale, unsigned bits, int is_signed, int out) {
  size_t j = 0;
#ifdef __wasm_simd128__
  const unsigned per = 8 / bits;
  const size_t width = out == OUT_F32 ? 4 : 2;
  if (n >= (per - c0 % per) % per + 16) {
    for (; (c0 + j) % per; ++j) store_one(dst, j, value(codes, c0 + j, zp, scale, bits, is_signed), out);
    size_t groups = (n - j) / 16;
    simd_groups((uint8_t*)dst + j * width, codes + (c0 + j) / per, groups, zp, scale, bits, is_signed, out);
    j += 16 * groups;
  }
#endif
  for (; j < n; ++j) store_one(dst, j, value(codes, c0 + j, zp, scale, bits, is_signed), out);
}

/* A run of blocks, each with its scale and zero point. Whole blocks that start on a byte go
 * straight to the SIMD loops (no per-block edges to look at: they matter for blocks of 32). */
static WG_ALWAYS_INLINE void dequant_blocks(void* dst, const uint8_t* codes, size_t c0, size_t n, size_t block,
                                  size_t phase, const float* scales, const int32_t* zps,
                                  unsigned bits, int is_signed, int out) {
  const size_t width = out == OUT_F32 ? 4 : 2;
  size_t j = 0, b = 0;
#ifdef __wasm_simd128__
  const unsigned per = 8 / bits;
  if (phase) { /* the rest of the first block */
    j = block - phase < n ? block - phase : n;
    dequant(dst, codes, c0, j, zps[0], scales[0], bits, is_signed, out);
    b = 1;
  }
  if (block % 16 == 0 && (c0 + j) % per == 0) {
    for (; n - j >= block; j += block, ++b) {
      simd_groups((uint8_t*)dst + j * width, codes + (c0 + j) / per, block / 16, zps[b], scales[b], bits, is_signed, out);
    }
  }
#endif
  for (; j < n; ++b, phase = 0) {
    size_t m = block - phase < n - j ? block - phase : n - j;
    dequant((uint8_t*)dst + j * width, codes, c0 + j, m, zps[b], scales[b], bits, is_signed, out);
    j += m;
  }
}

static const int OUT_OF[] = {[WG_SCALE_F32] = OUT_F32, [WG_SCALE_F16] = OUT_F16, [WG_SCALE_BF16] = OUT_BF16};
#define DEFINE_DEQUANT(c, o, bits, is_signed, type)                                              \
  WG_DEQUANT_KERNEL(wg_dequant_##c##_##o) {                                                      \
    dequant_blocks(dst, codes, c0, n, block, phase, scales, zps, bits, is_signed, OUT_OF[type]); \
  }
WG_DEQUANT_KERNELS(DEFINE_DEQUANT)

#ifdef __wasm_simd128__
/* The 4x4 transpose of rows w, x, y, z (32-bit lanes) into out[0..3]: out[i] = {w[i], x[i], y[i], z[i]}. */
static WG_ALWAYS_INLINE void transpose4(v128_t w, v128_t x, v128_t y, v128_t z, v128_t* out) {
  const v128_t t0 = wasm_i32x4_shuffle(w, x, 0, 4, 1, 5), t1 = wasm_i32x4_shuffle(w, x, 2, 6, 3, 7);
  const v128_t t2 = wasm_i32x4_shuffle(y, z, 0, 4, 1, 5), t3 = wasm_i32x4_shuffle(y, z, 2, 6, 3, 7);
  out[0] = wasm_i32x4_shuffle(t0, t2, 0, 1, 4, 5);
  out[1] = wasm_i32x4_shuffle(t0, t2, 2, 3, 6, 7);
  out[2] = wasm_i32x4_shuffle(t1, t3, 0, 1, 4, 5);
  out[3] = wasm_i32x4_shuffle(t1, t3, 2, 3, 6, 7);
}
#endif

/* The sums of dequantized rows (wg_dequant_sum_fn): 16 bytes of codes at a time, every row's
 * values computed in registers (the code minus the zero point, exact, times the scale, as
 * simd_groups computes them) and added in row order; the columns left, a block that 16 bytes
 * straddle, and a build without SIMD, value by value. */
static WG_ALWAYS_INLINE void dequant_sum(float* acc, size_t m, size_t n, const uint8_t* const* codes,
                                         const float* const* scales, const int32_t* zps, size_t block,
                                         size_t phase, unsigned bits, int is_signed) {
  const size_t nb = (phase + m + block - 1) / block;
  size_t j = 0;
#ifdef __wasm_simd128__
  /* 4- and 8-bit codes, 16 bytes a step (C = 128 / bits columns, P = 32 / bits codes a 32-bit
   * lane): code r of each lane shifted down and masked, ORed into the mantissa of 2^23 (for int4
   * the code plus 8, by an XOR) and 2^23 + zp subtracted gives q - zp exactly, with no widening
   * shuffles; accumulator r holds columns r, P + r, 2P + r, 3P + r (transposed in and out). */
  if (block % (128 / bits) == 0 && phase % (128 / bits) == 0) {
    const int P = 32 / (int)bits, C = 128 / (int)bits; /* 8 and 32, or 4 and 16 */
    const v128_t mask = wasm_i32x4_splat((1 << bits) - 1);
    const v128_t magic = wasm_i32x4_splat(is_signed ? 0x4b000008 : 0x4b000000);
    for (; j + (size_t)C <= m; j += (size_t)C) {
      const size_t b = (phase + j) / block;
      v128_t a[8], r[8];
      for (int k = 0; k < P; ++k) a[k] = wasm_v128_load(acc + j + 4 * k);
      for (int g = 0; g < P / 4; ++g) transpose4(a[g], a[g + P / 4], a[g + P / 2], a[g + 3 * P / 4], r + 4 * g);
      for (size_t i = 0; i < n; ++i) {
        const v128_t v = wasm_v128_load(codes[i] + j * bits / 8);
        const v128_t vz = wasm_f32x4_splat(0x1p23f + (float)(zps[i * nb + b] + (is_signed ? 8 : 0)));
        const v128_t vs = wasm_v128_load32_splat(scales[i] + b);
        for (int k = 0; k < P; ++k) {
          v128_t x = k ? wasm_u32x4_shr(v, (uint32_t)(k * (int)bits)) : v;
          if (k < P - 1) x = wasm_v128_and(x, mask);
          x = is_signed ? wasm_v128_xor(x, magic) : wasm_v128_or(x, magic);
          r[k] = wasm_f32x4_add(r[k], wasm_f32x4_mul(wasm_f32x4_sub(x, vz), vs));
        }
      }
      for (int g = 0; g < P / 4; ++g) transpose4(r[4 * g], r[4 * g + 1], r[4 * g + 2], r[4 * g + 3], a + 4 * g);
      /* the transpose's rows are columns g, g + 4, ...: a[4g + i] holds columns 4 * (g + i * P / 4) .. + 3 */
      for (int g = 0; g < P / 4; ++g) {
        for (int i = 0; i < 4; ++i) wasm_v128_store(acc + j + 4 * (g + i * P / 4), a[4 * g + i]);
      }
    }
  }
#endif
  for (; j < m; ++j) {
    const size_t b = (phase + j) / block;
    for (size_t i = 0; i < n; ++i) acc[j] = acc[j] + value(codes[i], j, zps[i * nb + b], scales[i][b], bits, is_signed);
  }
}

#define DEFINE_DEQUANT_SUM(c, bits, is_signed) \
  WG_DEQUANT_SUM_KERNEL(wg_dequant_sum_##c##_f32) { dequant_sum(acc, m, n, codes, scales, zps, block, phase, bits, is_signed); }
WG_DEQUANT_SUM_KERNELS(DEFINE_DEQUANT_SUM)

wg_dequant_sum_fn wg_pick_dequant_sum(unsigned bits, int is_signed) {
#define SUM_ENTRY(c, b, s) if (bits == b && !!is_signed == s) return wg_dequant_sum_##c##_f32;
  WG_DEQUANT_SUM_KERNELS(SUM_ENTRY)
#undef SUM_ENTRY
  return NULL;
}

wg_dequant_fn wg_pick_dequant(unsigned bits, int is_signed, wg_scale_type scale_type) {
  static const struct {
    unsigned bits;
    int is_signed;
    wg_scale_type type;
    wg_dequant_fn fn;
  } kernels[] = {
#define ENTRY(c, o, bits, is_signed, type) {bits, is_signed, type, wg_dequant_##c##_##o},
      WG_DEQUANT_KERNELS(ENTRY)
#undef ENTRY
  };
  for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; ++i) {
    if (kernels[i].bits == bits && kernels[i].is_signed == !!is_signed && kernels[i].type == scale_type) {
      return kernels[i].fn;
    }
  }
  return NULL;
}
