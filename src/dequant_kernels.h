/* Dequantizing kernels of the dequantization stage (stage_dequant.c), named by the codes they read and the type
 * they write (XNNPACK style: u2/u4/i4/u8 codes -> f32/f16/bf16), the float conversions they
 * round with, and the one place where a call's kernel is picked. */
#ifndef WG_DEQUANT_KERNELS_H
#define WG_DEQUANT_KERNELS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "wasm_gather.h"

/* float32 -> float16 bits, round to nearest even: overflow to Inf, subnormals kept, NaN to the
 * quiet NaN 0x7e00 with the sign (onnxruntime's MLFloat16(float),
 * include/onnxruntime/core/session/onnxruntime_float16.h). The branch-free method of
 * https://gist.github.com/rygorous/2156668 (float_to_half_fast3_rtne); tests/native/
 * test_dequant.c checks it against a plain rounding on every float32. */
uint16_t wg_f32_to_f16(float f);
/* float32 -> bfloat16 bits, round to nearest even, NaN to 0x7fc0 with the sign. */
uint16_t wg_f32_to_bf16(float f);
/* float16 / bfloat16 bits -> float32 (exact); inline: a call reads one a block. */
static inline float wg_f16_to_f32(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000) << 16, e = (h >> 10) & 0x1f, m = h & 0x3ff, bits;
  if (e == 0) { /* zero or subnormal: m * 2^-24, exact */
    float v = (float)m * 0x1p-24f;
    return sign ? -v : v;
  }
  bits = sign | (e == 31 ? 0x7f800000u : (e + 112) << 23) | (m << 13);
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}
static inline float wg_bf16_to_f32(uint16_t h) {
  uint32_t bits = (uint32_t)h << 16;
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}

/* Writes n values: dst[j] = round((float)(code(c0 + j) - zp) * scale) for the codes numbered
 * c0 .. c0 + n - 1 of `codes` (8 / bits codes a byte, lowest bits first; 4-bit signed codes for
 * i4), in the output type, where code c0 + j is in block b = (phase + j) / block of the run,
 * whose scale and zero point are scales[b] and zps[b]. Reads only the bytes holding those codes. */
typedef void (*wg_dequant_fn)(void* dst, const uint8_t* codes, size_t c0, size_t n, size_t block,
                              size_t phase, const float* scales, const int32_t* zps);

#define WG_DEQUANT_KERNEL(name)                                                                  \
  void name(void* dst, const uint8_t* codes, size_t c0, size_t n, size_t block, size_t phase,   \
            const float* scales, const int32_t* zps)
/* Every kernel, once: X(codes, out, bits, is_signed, scale type) names wg_dequant_<codes>_<out>. */
#define WG_DEQUANT_KERNELS(X)                                                                   \
  X(u2, f32, 2, 0, WG_SCALE_F32) X(u4, f32, 4, 0, WG_SCALE_F32)                                \
  X(i4, f32, 4, 1, WG_SCALE_F32) X(u8, f32, 8, 0, WG_SCALE_F32)                                \
  X(u2, f16, 2, 0, WG_SCALE_F16) X(u4, f16, 4, 0, WG_SCALE_F16)                                \
  X(i4, f16, 4, 1, WG_SCALE_F16) X(u8, f16, 8, 0, WG_SCALE_F16)                                \
  X(u2, bf16, 2, 0, WG_SCALE_BF16) X(u4, bf16, 4, 0, WG_SCALE_BF16)                            \
  X(i4, bf16, 4, 1, WG_SCALE_BF16) X(u8, bf16, 8, 0, WG_SCALE_BF16)
#define WG_DECLARE_DEQUANT(c, o, bits, is_signed, type) WG_DEQUANT_KERNEL(wg_dequant_##c##_##o);
WG_DEQUANT_KERNELS(WG_DECLARE_DEQUANT)
#undef WG_DECLARE_DEQUANT

/* The sums of dequantized rows (the fused gather-reduce over a block-quantized table with float32
 * scales: stage_bag.c), named by the codes they read: for each of the n rows in order,
 * acc[j] = acc[j] + value(row i, code j) for j < m, each value rounded as wg_dequant_<codes>_f32
 * writes it, so that the sums are those of the dequantized rows. Row i's codes start at codes[i]
 * on a byte; code j is in block b = (phase + j) / block of the run, whose scale is scales[i][b]
 * and zero point zps[i * nb + b], nb = (phase + m + block - 1) / block. The values are never
 * stored: every row's are added, in registers, to 16 bytes' worth of columns before the next. */
typedef void (*wg_dequant_sum_fn)(float* acc, size_t m, size_t n, const uint8_t* const* codes,
                                  const float* const* scales, const int32_t* zps, size_t block, size_t phase);
#define WG_DEQUANT_SUM_KERNEL(name)                                                               \
  void name(float* acc, size_t m, size_t n, const uint8_t* const* codes, const float* const* scales, \
            const int32_t* zps, size_t block, size_t phase)
/* Every one, once: X(codes, bits, is_signed) names wg_dequant_sum_<codes>_f32. */
#define WG_DEQUANT_SUM_KERNELS(X) X(u4, 4, 0) X(i4, 4, 1) X(u8, 8, 0)
#define WG_DECLARE_DEQUANT_SUM(c, bits, is_signed) WG_DEQUANT_SUM_KERNEL(wg_dequant_sum_##c##_f32);
WG_DEQUANT_SUM_KERNELS(WG_DECLARE_DEQUANT_SUM)
#undef WG_DECLARE_DEQUANT_SUM

/* One code: number i of `codes`, `bits` bits, sign-extended when is_signed. */
static inline int32_t wg_code(const uint8_t* codes, size_t i, unsigned bits, int is_signed) {
  unsigned per = 8 / bits;
  int32_t v = (codes[i / per] >> ((i % per) * bits)) & ((1u << bits) - 1);
  return is_signed && v >= (1 << (bits - 1)) ? v - (1 << bits) : v;
}

/* The kernel for codes of `bits` bits (signed: int4) written as scale_type; NULL if none. */
wg_dequant_fn wg_pick_dequant(unsigned bits, int is_signed, wg_scale_type scale_type);
/* The sums' kernel for codes of `bits` bits (signed: int4); NULL if none. */
wg_dequant_sum_fn wg_pick_dequant_sum(unsigned bits, int is_signed);
/* Bytes of one output value of the scale type (4 or 2). */
static inline size_t wg_scale_bytes(wg_scale_type t) { return t == WG_SCALE_F32 ? 4 : 2; }

#endif
