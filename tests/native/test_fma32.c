/* wg_fma32 (src/stage_bag.c), the exact float32 fused multiply-add the bags' weighted sums use in
 * wasm (which has none in Emscripten 3.1.6), against libm's fmaf natively (exact: correctly
 * rounded, https://en.cppreference.com/w/c/numeric/math/fma), bit for bit (a NaN for a NaN):
 *  - constructed cases: the exact sum just below, just above and exactly on a float32 midpoint that
 *    the float64 sum rounds onto (normal, float32-subnormal and at the subnormal/normal boundary,
 *    both signs), results that round to zero, overflow to infinity and the overflow midpoint
 *    between FLT_MAX and 2^128, products that overflow, NaN and infinities, signed zeros;
 *  - random triples: any bits (NaNs, infinities, subnormals), products near 1 added to values of
 *    any exponent (many midpoints), tiny products added to subnormals, huge ones near FLT_MAX.
 * A failure prints the triple in hex floats and bits. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "stage_bag.h"

static int failures = 0;

static size_t checked = 0;

/* wg_fma32(a, b, c) against fmaf, and `want` when given (not NaN: the value fmaf must give too). */
static void check(float a, float b, float c, const float* want) {
  float got = wg_fma32(a, b, c), ref = fmaf(a, b, c);
  ++checked;
  int same = bits_of(got) == bits_of(ref) || (isnan(got) && isnan(ref));
  if (!same || (want && bits_of(ref) != bits_of(*want))) {
    fprintf(stderr,
            "wg_fma32(%a, %a, %a) [0x%08x 0x%08x 0x%08x] = %a [0x%08x]; fmaf gives %a [0x%08x]%s\n", a, b, c,
            bits_of(a), bits_of(b), bits_of(c), got, bits_of(got), ref, bits_of(ref),
            want && bits_of(ref) != bits_of(*want) ? " (not the value this test expects: the test is wrong)" : "");
    failures++;
  }
}
#define EXPECT(a, b, c, w)      \
  do {                          \
    const float want_ = (w);    \
    check((a), (b), (c), &want_); \
  } while (0)

/* Cases built to land the float64 sum on a float32 midpoint (the only place double rounding can
 * go wrong), with the exact sum below, above or on it, in each range; and the special values. */
static void constructed(void) {
  const float up = 1 + 0x1p-15f, down = 1 - 0x1p-15f; /* up * down = 1 - 2^-30; up * up = 1 + 2^-14 + 2^-30 */
  for (int sign = 1; sign >= -1; sign -= 2) {
    const float s = (float)sign;
    /* normal: 2^24 + 2 + (1 - 2^-30) = 2^24 + 3 - 2^-30 rounds in float64 to the midpoint 2^24 + 3 */
    EXPECT(s * up, down, s * (0x1p24f + 2), s * (0x1p24f + 2));
    EXPECT(s * up, up, s * (0x1p24f + 2), s * (0x1p24f + 4));  /* above it */
    EXPECT(s * 1, 1, s * (0x1p24f + 2), s * (0x1p24f + 4));    /* on it: to even */
    EXPECT(s * 1, 1, s * 0x1p24f, s * 0x1p24f);                /* on 2^24 + 1: to even */
    EXPECT(s * up, down, s * 0x1p24f, s * 0x1p24f);            /* 2^24 + 1 - 2^-30: below, to 2^24 */
    EXPECT(s * up, up, s * 0x1p24f, s * (0x1p24f + 2));        /* above */
    /* float32 subnormals: midpoints are odd multiples of 2^-150; 2^-75 (1 +- 2^-23) squared and
     * multiplied is 2^-150 (1 - 2^-46), 2^-150 (1 + 2^-22 + 2^-46) */
    const float lo = 0x1p-75f * (1 + 0x1p-23f), lo2 = 0x1p-75f * (1 - 0x1p-23f);
    EXPECT(s * lo, lo2, s * 513 * 0x1p-149f, s * 513 * 0x1p-149f); /* below the midpoint: the odd one */
    EXPECT(s * lo, lo, s * 513 * 0x1p-149f, s * 514 * 0x1p-149f);  /* above it */
    EXPECT(s * 0x1p-75f, 0x1p-75f, s * 513 * 0x1p-149f, s * 514 * 0x1p-149f); /* on it: to even */
    EXPECT(s * 0x1p-75f, 0x1p-75f, s * 512 * 0x1p-149f, s * 512 * 0x1p-149f);
    EXPECT(s * lo, lo2, s * 512 * 0x1p-149f, s * 512 * 0x1p-149f);
    EXPECT(s * lo, lo, s * 512 * 0x1p-149f, s * 513 * 0x1p-149f);
    /* around the smallest subnormal: 2^-150 and a hair, and nothing to add */
    EXPECT(s * 0x1p-75f, 0x1p-75f, 0, s * 0.0f);        /* exactly half of 2^-149: to even, 0 */
    EXPECT(s * lo, lo, 0, s * 0x1p-149f);                /* just above */
    EXPECT(s * lo, lo2, 0, s * 0.0f);                    /* just below */
    EXPECT(s * 0x1p-100f, 0x1p-100f, 0, s * 0.0f);       /* far below: a signed zero */
    EXPECT(s * lo, lo, s * -0x1p-149f, -s * 0.0f);       /* -2^-150 (1 - 2^-22 - 2^-46): a zero of c's sign */
    /* the subnormal/normal boundary: the largest subnormal (odd) and half a step */
    const float big_sub = 0x1p-126f - 0x1p-149f;
    EXPECT(s * lo, lo2, s * big_sub, s * big_sub);
    EXPECT(s * lo, lo, s * big_sub, s * 0x1p-126f);
    EXPECT(s * 0x1p-75f, 0x1p-75f, s * big_sub, s * 0x1p-126f); /* on it: to even, 2^-126 */
    /* overflow: FLT_MAX (odd) and half an ulp (2^103) is the midpoint to 2^128: infinity */
    const float max = 0x1.fffffep127f;
    EXPECT(s * 0x1p52f, 0x1p51f, s * max, s * INFINITY);
    EXPECT(s * 0x1p52f * up, 0x1p51f * down, s * max, s * max);       /* below it */
    EXPECT(s * 0x1p52f * up, 0x1p51f * up, s * max, s * INFINITY);    /* above it */
    EXPECT(s * 0x1p100f, 0x1p100f, 0, s * INFINITY);                  /* the product overflows */
    EXPECT(s * 0x1p100f, 0x1p100f, -s * max, s * INFINITY);
    EXPECT(s * 0x1p64f, 0x1p63f, -s * max, -s * 0x1.fffffcp126f);     /* 2^127 - FLT_MAX */
    /* infinities and NaN */
    EXPECT(s * INFINITY, 1, 5, s * INFINITY);
    EXPECT(s * 2, 3, s * INFINITY, s * INFINITY);
    check(s * INFINITY, 0, 1, NULL);         /* NaN */
    check(s * INFINITY, 1, -s * INFINITY, NULL); /* NaN */
    EXPECT(s * 0x1p100f, 0x1p100f, -s * INFINITY, -s * INFINITY); /* a product past float32's range */
    check(NAN, s, 1, NULL);
    check(s, 2, NAN, NULL);
    check(s * 0x1p-100f, 0x1p-100f, NAN, NULL); /* a tiny product and a NaN: the subnormal range */
    /* signed zeros: cancellation is +0, zeros of one sign keep it */
    EXPECT(s * 2, 3, -s * 6, 0.0f);
    EXPECT(s * 0.0f, 1, 0.0f, 0.0f);
    EXPECT(s * -0.0f, 1, s * -0.0f, s * -0.0f);
    EXPECT(s * 0x1p-149f, 0x1p-1f, 0, s * 0.0f); /* half the smallest: to even */
  }
}

static uint64_t rng = 0x853c49e6748fea9bull;
static uint32_t next32(void) { /* xorshift64, high bits */
  rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
  return (uint32_t)(rng >> 32);
}
static float sign_of(void) { return next32() & 1 ? -1.0f : 1.0f; }

/* n random triples of each kind. */
static void randomized(size_t n) {
  for (size_t i = 0; i < n; ++i) {
    /* any bits */
    check(float_of(next32()), float_of(next32()), float_of(next32()), NULL);
    /* products near 1 (a few ulps either side) added to values of any exponent: many sums land
     * on a float32 midpoint in float64 */
    float a = float_of(bits_of(1.0f) + next32() % 64) * sign_of();
    float b = float_of(bits_of(1.0f) - next32() % 64);
    float c = ldexpf(1 + (float)(next32() % 64) * 0x1p-23f, (int)(next32() % 80) - 30) * sign_of();
    check(a, b, c, NULL);
    check(a, float_of(bits_of(b) + 128), c, NULL);
    /* tiny products added to subnormals (and around the boundary) */
    float ta = ldexpf(a, -75 + (int)(next32() % 6) - 3), tb = ldexpf(b, -75);
    float tc = (float)(int)(next32() % (1u << 24)) * 0x1p-149f * sign_of();
    check(ta, tb, tc, NULL);
    /* huge products near FLT_MAX */
    float hc = float_of(0x7f7fffffu - next32() % 16) * sign_of();
    check(ldexpf(a, 52), ldexpf(b, 51 + (int)(next32() % 3)), hc, NULL);
  }
}

int main(void) {
  constructed();
  randomized(400000);
  printf("wg_fma32: %zu triples against fmaf, %s\n", checked, failures ? "FAILED" : "bit for bit");
  return failures != 0;
}
