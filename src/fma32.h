/* float32 a * b + c rounded once, emulated exactly: wasm has no fused multiply-add in Emscripten
 * 3.1.6. The product of two float32s is exact in float64, so the float64 sum is the exact sum
 * rounded once; rounding it to float32 again is exact unless it lands halfway between two
 * float32s, or in float32's subnormal range (wg_fma32_needs_exact): then wg_fma32 decides with
 * the sum's rounding error. The bags' weighted sums (stage_bag.c) and the bag backward's scaled
 * rows (scatter_kernels.c) use it. */
#ifndef WG_FMA32_H
#define WG_FMA32_H

#include <math.h>
#include <stdint.h>
#include <string.h>

float wg_fma32(float a, float b, float c);

/* A float64 sum that float32 rounding may get wrong: exactly halfway between two float32s (its
 * 29 bits below float32's last are a half), or in float32's subnormal range. */
static inline uint64_t wg_fma32_needs_exact(double sum) {
  uint64_t bits;
  memcpy(&bits, &sum, sizeof bits);
  return ((bits & 0x1fffffffu) == 0x10000000u) | ((fabs(sum) < 0x1p-126) & (sum != 0));
}

#endif
