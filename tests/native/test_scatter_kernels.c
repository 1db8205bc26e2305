/* The scatters' reduction kernels of src/scatter_kernels.h by themselves, on values worked out by
 * hand (each case says how): every element type and reduction (the mean sums with add's kernel),
 * each case in a row of its kernel's cases and in the value form (one update for the whole row),
 * the same through the batched kernel (a part's items in one call, in the items' order), the
 * identities include_self 0 starts from, and the mean's division.
 * - integers wrap (two's complement; signed and unsigned compare differently);
 * - the integer mean rounds toward minus infinity (src/scatter_kernels.h: torch's integer mean);
 *   the reductions and include_self are torch.Tensor.scatter_reduce_'s
 *   (https://pytorch.org/docs/stable/generated/torch.Tensor.scatter_reduce_.html);
 * - max and min: a NaN update always wins (a NaN in place too), a NaN in place stays against a
 *   number, a tie (+0, -0) keeps the value in place, and the winner's bits move as they are
 *   (payloads, signaling NaNs): torch's amax / amin;
 * - add and mul (and the mean's sum) of a NaN: the NaN in place, else the update's, quieted, in
 *   every loop of a kernel (src/scatter_kernels.c: not the hardware's pick by operand order);
 * - float16 and bfloat16 are computed in float32 and rounded to nearest even after each update,
 *   so that updates applied one at a time differ from a float32 sum rounded once.
 * - the bag backward's scaled add (apply_scaled, float32 and float64 add): float32 s * x + acc
 *   rounded once, against libm's fmaf, at midpoints, subnormals and overflow, each case at every
 *   place of rows around the kernel's blocks of 64 among random values; float64 the product
 *   rounded, then added; NaNs by the rule of add, then the scale's; the items' order, source map
 *   and skipped items.
 * Each row runs with guard elements on both sides: nothing is written outside it. Natively this
 * is the scalar code; the wasm build runs the same C through the fuzz harness
 * (tests/asan-wasm/fuzz.mjs). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "index_resolve.h" /* WG_ZERO_BLOCK: an item to skip */
#include "scatter_kernels.h"

static int failures = 0;

enum { NONE = WG_REDUCE_NONE, ADD = WG_REDUCE_ADD, MUL = WG_REDUCE_MUL, MAX = WG_REDUCE_MAX,
       MIN = WG_REDUCE_MIN, MEAN = WG_REDUCE_MEAN };

static size_t width_of(int dtype) { return wg_dtype_bits(dtype) / 8; }

static const char* dtype_name(int dtype) {
  static const char* const NAMES[] = {
#define NAME(name, bits) #name,
      WG_DTYPES(NAME)
#undef NAME
  };
  return dtype >= 0 && dtype < WG_DTYPE_COUNT ? NAMES[dtype] : "?";
}
static const char* const REDUCE_NAME[] = {"none", "add", "mul", "max", "min", "mean"};

/* An element's bits to and from a buffer (little-endian hosts: the low bytes). */
static void put(uint8_t* p, size_t w, uint64_t v) { memcpy(p, &v, w); }
static uint64_t get(const uint8_t* p, size_t w) {
  uint64_t v = 0;
  memcpy(&v, p, w);
  return v;
}

/* NaN in the type (any sign and payload). */
static int is_nan(int dtype, uint64_t v) {
  switch (dtype) {
    case WG_DTYPE_F16: return (v & 0x7c00) == 0x7c00 && (v & 0x3ff);
    case WG_DTYPE_BF16: return (v & 0x7f80) == 0x7f80 && (v & 0x7f);
    case WG_DTYPE_F32: return (v & 0x7fffffff) > 0x7f800000;
    case WG_DTYPE_F64: return (v & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
    default: return 0;
  }
}

/* want == ANY_NAN: any NaN of the type (arithmetic's NaN has a sign and payload of the platform). */
#define ANY_NAN 0xdeadbeefcafef00dull

static int same(int dtype, uint64_t got, uint64_t want) {
  return want == ANY_NAN ? is_nan(dtype, got) : got == want;
}

typedef struct kcase {
  int dtype, reduce;
  uint64_t dst, src, want; /* bits */
  const char* why;
} kcase;

/* Hand-worked cases: dst combined with src. */
static const kcase CASES[] = {
    /* a plain write moves any bits */
    {WG_DTYPE_I8, NONE, 5, 0x80, 0x80, "write"},
    {WG_DTYPE_F32, NONE, 0, 0x7f800001, 0x7f800001, "write: a signaling NaN kept"},
    {WG_DTYPE_F16, NONE, 0x3c00, 0xfe05, 0xfe05, "write: a NaN payload kept"},
    {WG_DTYPE_U64, NONE, 1, 0xfedcba9876543210ull, 0xfedcba9876543210ull, "write"},
    {WG_DTYPE_U8, NONE, 0xff, 0x01, 0x01, "write"},
    {WG_DTYPE_I16, NONE, 0x1234, 0x8001, 0x8001, "write"},
    {WG_DTYPE_U16, NONE, 0, 0xffff, 0xffff, "write"},
    {WG_DTYPE_I32, NONE, 7, 0x80000000, 0x80000000, "write"},
    {WG_DTYPE_U32, NONE, 7, 0xdeadbeef, 0xdeadbeef, "write"},
    {WG_DTYPE_I64, NONE, 7, 0x8000000000000001ull, 0x8000000000000001ull, "write"},
    {WG_DTYPE_BF16, NONE, 0x3f80, 0xff81, 0xff81, "write: a signaling NaN kept"},
    {WG_DTYPE_F64, NONE, 0, 0x7ff0000000000001ull, 0x7ff0000000000001ull, "write: a signaling NaN kept"},
    /* int8 */
    {WG_DTYPE_I8, ADD, 100, 100, 0xc8, "100 + 100 = 200 = -56 (wraps)"},
    {WG_DTYPE_I8, ADD, 0x80, 0xff, 0x7f, "-128 + -1 = 127 (wraps)"},
    {WG_DTYPE_I8, ADD, 3, 0xfb, 0xfe, "3 + -5 = -2"},
    {WG_DTYPE_I8, MUL, 16, 16, 0, "16 * 16 = 256 = 0"},
    {WG_DTYPE_I8, MUL, 0x80, 0xff, 0x80, "-128 * -1 = 128 = -128"},
    {WG_DTYPE_I8, MUL, 0xfd, 5, 0xf1, "-3 * 5 = -15"},
    {WG_DTYPE_I8, MAX, 0xc8, 100, 100, "max(-56, 100): signed"},
    {WG_DTYPE_I8, MAX, 0x7f, 0x80, 0x7f, "max(127, -128)"},
    {WG_DTYPE_I8, MIN, 100, 0xc8, 0xc8, "min(100, -56)"},
    {WG_DTYPE_I8, MIN, 0x80, 0x7f, 0x80, "min(-128, 127)"},
    /* uint8 */
    {WG_DTYPE_U8, ADD, 200, 100, 44, "200 + 100 = 300 = 44"},
    {WG_DTYPE_U8, ADD, 255, 1, 0, "255 + 1 = 0"},
    {WG_DTYPE_U8, MUL, 3, 200, 88, "3 * 200 = 600 = 88"},
    {WG_DTYPE_U8, MUL, 15, 17, 255, "15 * 17 = 255"},
    {WG_DTYPE_U8, MAX, 100, 200, 200, "max(100, 200): unsigned, unlike int8"},
    {WG_DTYPE_U8, MIN, 0, 255, 0, "min(0, 255)"},
    /* int16 */
    {WG_DTYPE_I16, ADD, 0x7fff, 1, 0x8000, "32767 + 1 = -32768"},
    {WG_DTYPE_I16, MUL, 300, 300, 0x5f90, "300 * 300 = 90000 = 0x15f90 -> 0x5f90"},
    {WG_DTYPE_I16, MUL, 0xffff, 0x8000, 0x8000, "-1 * -32768 = 32768 = -32768"},
    {WG_DTYPE_I16, MAX, 0x8000, 0x7fff, 0x7fff, "max(-32768, 32767)"},
    {WG_DTYPE_I16, MIN, 1, 0xffff, 0xffff, "min(1, -1)"},
    /* uint16 */
    {WG_DTYPE_U16, ADD, 0xffff, 2, 1, "65535 + 2 = 1"},
    {WG_DTYPE_U16, MUL, 0x100, 0x100, 0, "256 * 256 = 65536 = 0"},
    {WG_DTYPE_U16, MUL, 255, 257, 0xffff, "255 * 257 = 65535"},
    {WG_DTYPE_U16, MAX, 1, 0xffff, 0xffff, "max(1, 65535)"},
    {WG_DTYPE_U16, MIN, 0xffff, 1, 1, "min(65535, 1)"},
    /* int32 */
    {WG_DTYPE_I32, ADD, 0x7fffffff, 1, 0x80000000, "INT32_MAX + 1 = INT32_MIN"},
    {WG_DTYPE_I32, ADD, 0xffffffff, 0xffffffff, 0xfffffffe, "-1 + -1 = -2"},
    {WG_DTYPE_I32, MUL, 65536, 65536, 0, "2^16 * 2^16 = 2^32 = 0"},
    {WG_DTYPE_I32, MUL, 46341, 46341, 0x80001219, "46341^2 = 2147488281 = 2^31 + 4633"},
    {WG_DTYPE_I32, MAX, 0x80000000, 0x7fffffff, 0x7fffffff, "max(INT32_MIN, INT32_MAX)"},
    {WG_DTYPE_I32, MIN, 0, 0xffffffff, 0xffffffff, "min(0, -1)"},
    /* uint32 */
    {WG_DTYPE_U32, ADD, 0xffffffff, 1, 0, "UINT32_MAX + 1 = 0"},
    {WG_DTYPE_U32, MUL, 0x80000000, 2, 0, "2^31 * 2 = 0"},
    {WG_DTYPE_U32, MUL, 0xffffffff, 0xffffffff, 1, "(2^32 - 1)^2 = 2^64 - 2^33 + 1 = 1"},
    {WG_DTYPE_U32, MAX, 1, 0x80000000, 0x80000000, "max(1, 2^31): unsigned"},
    {WG_DTYPE_U32, MIN, 0x80000000, 1, 1, "min(2^31, 1)"},
    /* int64 */
    {WG_DTYPE_I64, ADD, 0x7fffffffffffffffull, 1, 0x8000000000000000ull, "INT64_MAX + 1 = INT64_MIN"},
    {WG_DTYPE_I64, MUL, 1ull << 32, 1ull << 32, 0, "2^32 * 2^32 = 0"},
    {WG_DTYPE_I64, MUL, UINT64_MAX, 0x8000000000000000ull, 0x8000000000000000ull, "-1 * INT64_MIN = INT64_MIN"},
    {WG_DTYPE_I64, MAX, 0x8000000000000000ull, UINT64_MAX, UINT64_MAX, "max(INT64_MIN, -1) = -1"},
    {WG_DTYPE_I64, MIN, UINT64_MAX, 0x8000000000000000ull, 0x8000000000000000ull, "min(-1, INT64_MIN)"},
    /* uint64 */
    {WG_DTYPE_U64, ADD, UINT64_MAX, 2, 1, "UINT64_MAX + 2 = 1"},
    {WG_DTYPE_U64, MUL, 1ull << 63, 2, 0, "2^63 * 2 = 0"},
    {WG_DTYPE_U64, MUL, UINT64_MAX, UINT64_MAX, 1, "(2^64 - 1)^2 = 1"},
    {WG_DTYPE_U64, MAX, 1, 1ull << 63, 1ull << 63, "max(1, 2^63): unsigned"},
    {WG_DTYPE_U64, MIN, 1ull << 63, 1, 1, "min(2^63, 1)"},
    /* float32 */
    {WG_DTYPE_F32, ADD, 0x3dcccccd, 0x3e4ccccd, 0x3e99999a, "0.1f + 0.2f = 0.3f (0x3e99999a)"},
    {WG_DTYPE_F32, ADD, 0x3f800000, 0x33800000, 0x3f800000, "1 + 2^-24: a tie, to even (1)"},
    {WG_DTYPE_F32, ADD, 0x3f800000, 0x34400000, 0x3f800002, "1 + 1.5 * 2^-23: a tie, to even (1 + 2^-22)"},
    {WG_DTYPE_F32, ADD, 0x80000000, 0x80000000, 0x80000000, "-0 + -0 = -0"},
    {WG_DTYPE_F32, ADD, 0x00000000, 0x80000000, 0x00000000, "+0 + -0 = +0"},
    {WG_DTYPE_F32, ADD, 0x7f800000, 0xff800000, ANY_NAN, "inf + -inf = NaN"},
    {WG_DTYPE_F32, ADD, 0x7fc11111, 0xffc00123, 0x7fc11111, "NaN + -NaN: the one in place"},
    {WG_DTYPE_F32, ADD, 0x3f800000, 0xffc00123, 0xffc00123, "1 + -NaN: the update's"},
    {WG_DTYPE_F32, ADD, 0x7f800001, 0xffc00123, 0x7fc00001, "sNaN + -NaN: the one in place, quieted"},
    {WG_DTYPE_F32, ADD, 0x3f800000, 0xff800001, 0xffc00001, "1 + -sNaN: the update's, quieted"},
    {WG_DTYPE_F32, ADD, 0x7f7fffff, 0x73000000, 0x7f800000, "FLT_MAX + 2^103 (half an ulp): a tie, to even (inf)"},
    {WG_DTYPE_F32, MUL, 0x80000000, 0x40a00000, 0x80000000, "-0 * 5 = -0"},
    {WG_DTYPE_F32, MUL, 0x40400000, 0x3f000000, 0x3fc00000, "3 * 0.5 = 1.5"},
    {WG_DTYPE_F32, MUL, 0x7f000000, 0x40000000, 0x7f800000, "2^127 * 2 = inf"},
    {WG_DTYPE_F32, MUL, 0x7f800000, 0x00000000, ANY_NAN, "inf * 0 = NaN"},
    {WG_DTYPE_F32, MUL, 0xffc00123, 0x7fc11111, 0xffc00123, "-NaN * NaN: the one in place"},
    {WG_DTYPE_F32, MUL, 0x7fc11111, 0xffc00123, 0x7fc11111, "NaN * -NaN: the one in place"},
    {WG_DTYPE_F32, MUL, 0x40000000, 0x7f800001, 0x7fc00001, "2 * sNaN: the update's, quieted"},
    {WG_DTYPE_F32, MUL, 0x00000001, 0x3f000000, 0x00000000, "2^-149 * 0.5: a tie, to even (+0)"},
    {WG_DTYPE_F32, MAX, 0x7fc00001, 0x40a00000, 0x7fc00001, "max(NaN, 5): the NaN in place stays"},
    {WG_DTYPE_F32, MAX, 0x40a00000, 0xffc00123, 0xffc00123, "max(5, -NaN): the NaN wins, its bits"},
    {WG_DTYPE_F32, MAX, 0x7fc00001, 0xffc00123, 0xffc00123, "max(NaN, -NaN): the update's"},
    {WG_DTYPE_F32, MAX, 0x7fc11111, 0x7f800001, 0x7f800001, "max(NaN, sNaN): the update's, signaling"},
    {WG_DTYPE_F32, MAX, 0x00000000, 0x80000000, 0x00000000, "max(+0, -0): a tie keeps +0"},
    {WG_DTYPE_F32, MAX, 0x80000000, 0x00000000, 0x80000000, "max(-0, +0): a tie keeps -0"},
    {WG_DTYPE_F32, MAX, 0xff800000, 0xc0400000, 0xc0400000, "max(-inf, -3) = -3"},
    {WG_DTYPE_F32, MAX, 0x3f800000, 0x7f800001, 0x7f800001, "max(1, sNaN): the signaling NaN moves as it is"},
    {WG_DTYPE_F32, MIN, 0x7fc00001, 0xc0a00000, 0x7fc00001, "min(NaN, -5): the NaN in place stays"},
    {WG_DTYPE_F32, MIN, 0x40a00000, 0xffc00123, 0xffc00123, "min(5, -NaN): the NaN wins"},
    {WG_DTYPE_F32, MIN, 0x7fc11111, 0x7f800001, 0x7f800001, "min(NaN, sNaN): the update's, signaling"},
    {WG_DTYPE_F32, MIN, 0x00000000, 0x80000000, 0x00000000, "min(+0, -0): a tie keeps +0"},
    {WG_DTYPE_F32, MIN, 0x80000000, 0x00000000, 0x80000000, "min(-0, +0): a tie keeps -0"},
    {WG_DTYPE_F32, MIN, 0x3f800000, 0xff800000, 0xff800000, "min(1, -inf) = -inf"},
    /* float64 */
    {WG_DTYPE_F64, ADD, 0x3fb999999999999aull, 0x3fc999999999999aull, 0x3fd3333333333334ull, "0.1 + 0.2 = 0.30000000000000004"},
    {WG_DTYPE_F64, ADD, 0x4340000000000000ull, 0x3ff0000000000000ull, 0x4340000000000000ull, "2^53 + 1: a tie, to even (2^53)"},
    {WG_DTYPE_F64, ADD, 0x8000000000000000ull, 0x8000000000000000ull, 0x8000000000000000ull, "-0 + -0 = -0"},
    {WG_DTYPE_F64, ADD, 0x7ff0000000000000ull, 0xfff0000000000000ull, ANY_NAN, "inf + -inf = NaN"},
    {WG_DTYPE_F64, ADD, 0x7ff8000000000011ull, 0xfff8000000000123ull, 0x7ff8000000000011ull, "NaN + -NaN: the one in place"},
    {WG_DTYPE_F64, ADD, 0x3ff0000000000000ull, 0xfff0000000000123ull, 0xfff8000000000123ull, "1 + -sNaN: the update's, quieted"},
    {WG_DTYPE_F64, MUL, 0x4008000000000000ull, 0xbfe0000000000000ull, 0xbff8000000000000ull, "3 * -0.5 = -1.5"},
    {WG_DTYPE_F64, MUL, 0x7fe0000000000000ull, 0x4000000000000000ull, 0x7ff0000000000000ull, "2^1023 * 2 = inf"},
    {WG_DTYPE_F64, MUL, 0xfff8000000000123ull, 0x7ff8000000000011ull, 0xfff8000000000123ull, "-NaN * NaN: the one in place"},
    {WG_DTYPE_F64, MAX, 0x7ff8000000000001ull, 0x4014000000000000ull, 0x7ff8000000000001ull, "max(NaN, 5): stays"},
    {WG_DTYPE_F64, MAX, 0x4014000000000000ull, 0xfff8000000000123ull, 0xfff8000000000123ull, "max(5, -NaN): wins"},
    {WG_DTYPE_F64, MAX, 0x7ff8000000000001ull, 0x7ff0000000000001ull, 0x7ff0000000000001ull, "max(NaN, sNaN): the update's"},
    {WG_DTYPE_F64, MAX, 0x0000000000000000ull, 0x8000000000000000ull, 0x0000000000000000ull, "max(+0, -0): +0"},
    {WG_DTYPE_F64, MIN, 0x8000000000000000ull, 0x0000000000000000ull, 0x8000000000000000ull, "min(-0, +0): -0"},
    {WG_DTYPE_F64, MIN, 0x4014000000000000ull, 0xc014000000000000ull, 0xc014000000000000ull, "min(5, -5) = -5"},
    {WG_DTYPE_F64, MIN, 0xfff8000000000123ull, 0x7ff8000000000001ull, 0x7ff8000000000001ull, "min(-NaN, NaN): the update's"},
    /* float16: computed in float32, rounded to nearest even */
    {WG_DTYPE_F16, ADD, 0x6800, 0x3c00, 0x6800, "2048 + 1 = 2049: a tie, to even (2048)"},
    {WG_DTYPE_F16, ADD, 0x6801, 0x3c00, 0x6802, "2050 + 1 = 2051: a tie, to even (2052)"},
    {WG_DTYPE_F16, ADD, 0x7bff, 0x4c00, 0x7c00, "65504 + 16 = 65520: a tie, to even (inf)"},
    {WG_DTYPE_F16, ADD, 0x7bff, 0x4800, 0x7bff, "65504 + 8 = 65512: down to 65504"},
    {WG_DTYPE_F16, ADD, 0x0001, 0x0001, 0x0002, "2^-24 + 2^-24 = 2^-23 (subnormals)"},
    {WG_DTYPE_F16, ADD, 0x8000, 0x8000, 0x8000, "-0 + -0 = -0"},
    {WG_DTYPE_F16, ADD, 0x7c00, 0xfc00, ANY_NAN, "inf + -inf = NaN"},
    {WG_DTYPE_F16, ADD, 0x7e01, 0xfe05, 0x7e00, "NaN + -NaN: the one in place (its sign; float16's NaN)"},
    {WG_DTYPE_F16, MUL, 0xfe05, 0x7e01, 0xfe00, "-NaN * NaN: the one in place (its sign)"},
    {WG_DTYPE_F16, MUL, 0x3c01, 0x3c01, 0x3c02, "(1 + 2^-10)^2 = 1 + 2^-9 + 2^-20: down to 1 + 2^-9"},
    {WG_DTYPE_F16, MUL, 0x5c00, 0x5c00, 0x7c00, "256 * 256 = 65536 = inf"},
    {WG_DTYPE_F16, MUL, 0x0001, 0x3800, 0x0000, "2^-24 * 0.5: a tie, to even (0)"},
    {WG_DTYPE_F16, MUL, 0x0003, 0x3800, 0x0002, "3 * 2^-24 * 0.5: a tie, to even (2 * 2^-24)"},
    {WG_DTYPE_F16, MAX, 0x7e01, 0x3c00, 0x7e01, "max(NaN, 1): stays"},
    {WG_DTYPE_F16, MAX, 0x7c01, 0x3c00, 0x7c01, "max(sNaN, 1): stays as it is"},
    {WG_DTYPE_F16, MAX, 0x3c00, 0xfe05, 0xfe05, "max(1, -NaN): wins with its bits"},
    {WG_DTYPE_F16, MAX, 0x7e01, 0xfe05, 0xfe05, "max(NaN, -NaN): the update's bits"},
    {WG_DTYPE_F16, MIN, 0xfe05, 0x7c01, 0x7c01, "min(-NaN, sNaN): the update's bits"},
    {WG_DTYPE_F16, MAX, 0x0000, 0x8000, 0x0000, "max(+0, -0): +0"},
    {WG_DTYPE_F16, MAX, 0x3c00, 0x3c01, 0x3c01, "max(1, 1 + 2^-10)"},
    {WG_DTYPE_F16, MIN, 0x8000, 0x0000, 0x8000, "min(-0, +0): -0"},
    {WG_DTYPE_F16, MIN, 0x3c00, 0xfc00, 0xfc00, "min(1, -inf) = -inf"},
    {WG_DTYPE_F16, MIN, 0x3c00, 0x7e00, 0x7e00, "min(1, NaN): wins"},
    /* bfloat16: the same, with 8 bits of precision */
    {WG_DTYPE_BF16, ADD, 0x4380, 0x3f80, 0x4380, "256 + 1 = 257: a tie, to even (256)"},
    {WG_DTYPE_BF16, ADD, 0x4381, 0x3f80, 0x4382, "258 + 1 = 259: a tie, to even (260)"},
    {WG_DTYPE_BF16, ADD, 0x3f80, 0x3b80, 0x3f80, "1 + 2^-8: a tie, to even (1)"},
    {WG_DTYPE_BF16, ADD, 0x3f80, 0x3bc0, 0x3f81, "1 + 1.5 * 2^-8: up to 1 + 2^-7"},
    {WG_DTYPE_BF16, ADD, 0x7f80, 0xff80, ANY_NAN, "inf + -inf = NaN"},
    {WG_DTYPE_BF16, ADD, 0xffc1, 0x7fc3, 0xffc0, "-NaN + NaN: the one in place (its sign; bfloat16's NaN)"},
    {WG_DTYPE_BF16, MUL, 0x7fc1, 0xffc3, 0x7fc0, "NaN * -NaN: the one in place (its sign)"},
    {WG_DTYPE_BF16, MUL, 0xffc1, 0x7fc3, 0xffc0, "-NaN * NaN: the one in place (its sign)"},
    {WG_DTYPE_BF16, MUL, 0x3f81, 0x3f81, 0x3f82, "(1 + 2^-7)^2 = 1 + 2^-6 + 2^-14: down to 1 + 2^-6"},
    {WG_DTYPE_BF16, MUL, 0x7f7f, 0x4000, 0x7f80, "max finite * 2 = inf"},
    {WG_DTYPE_BF16, MAX, 0x7fc1, 0x3f80, 0x7fc1, "max(NaN, 1): stays"},
    {WG_DTYPE_BF16, MAX, 0x3f80, 0xffc3, 0xffc3, "max(1, -NaN): wins"},
    {WG_DTYPE_BF16, MAX, 0x7fc1, 0xffc3, 0xffc3, "max(NaN, -NaN): the update's bits"},
    {WG_DTYPE_BF16, MIN, 0xffc3, 0x7f81, 0x7f81, "min(-NaN, sNaN): the update's bits"},
    {WG_DTYPE_BF16, MAX, 0x8000, 0x0000, 0x8000, "max(-0, +0): -0"},
    {WG_DTYPE_BF16, MIN, 0x0000, 0x8000, 0x0000, "min(+0, -0): +0"},
    {WG_DTYPE_BF16, MIN, 0x3f80, 0xbf80, 0xbf80, "min(1, -1) = -1"},
};
enum { NCASES = sizeof CASES / sizeof CASES[0], GUARD = 3, POISON = 0xEE, ROW = 37 };

/* Runs the kernel on a row of n elements (src step 1, or 0: every element takes src[0]) between
 * guards; returns the row's bits in out[]. */
static void run_row(const wg_reduce_kernels* k, int dtype, const uint64_t* dst, const uint64_t* src, size_t n,
                    size_t step, uint64_t* out) {
  size_t w = width_of(dtype);
  /* 8-byte elements at 8-aligned offsets: the kernels read typed values */
  uint64_t dbuf[ROW + 2 * GUARD], sbuf[ROW];
  uint8_t* d = (uint8_t*)dbuf;
  memset(dbuf, POISON, sizeof dbuf);
  for (size_t i = 0; i < n; ++i) put(d + (GUARD + i) * w, w, dst[i]);
  for (size_t i = 0; i < (step ? n : 1); ++i) put((uint8_t*)sbuf + i * w, w, src[i]);
  k->reduce(d + GUARD * w, sbuf, n, step);
  for (size_t i = 0; i < n; ++i) out[i] = get(d + (GUARD + i) * w, w);
  for (size_t b = 0; b < GUARD * w; ++b) {
    CHECK(d[b] == POISON);
    CHECK(d[(GUARD + n) * w + b] == POISON);
  }
}

/* Each case by itself, as a row of all the cases of its type and reduction, and in the value form
 * (a row of its dst, one src). */
static void check_cases(void) {
  for (int32_t d = WG_DTYPE_I8; d <= WG_DTYPE_F64; ++d) { /* a case for every type and reduction */
    for (int r = NONE; r <= MIN; ++r) {
      int found = 0;
      for (size_t c = 0; c < NCASES; ++c) found |= CASES[c].dtype == d && CASES[c].reduce == r;
      if (!found) fprintf(stderr, "no case of %s %s\n", dtype_name(d), REDUCE_NAME[r]);
      CHECK(found);
    }
  }
  for (size_t c = 0; c < NCASES; ++c) {
    const kcase* k = &CASES[c];
    wg_reduce_kernels kern;
    CHECK(wg_pick_reduce(k->dtype, k->reduce, &kern));
    uint64_t dst[ROW], src[ROW], got[ROW];
    size_t n = 0;
    for (size_t e = 0; e < NCASES && n < ROW; ++e) { /* the row: every case of this kernel, in turn */
      if (CASES[e].dtype == k->dtype && CASES[e].reduce == k->reduce) {
        dst[n] = CASES[e].dst;
        src[n++] = CASES[e].src;
      }
    }
    for (size_t fill = n; n < ROW; ++n) { /* repeated to a length past any vector width */
      dst[n] = dst[n % fill];
      src[n] = src[n % fill];
    }
    for (int mean = 0; mean < (k->reduce == ADD ? 2 : 1); ++mean) { /* the mean sums with add's kernel */
      if (mean) CHECK(wg_pick_reduce(k->dtype, MEAN, &kern));
      run_row(&kern, k->dtype, dst, src, ROW, 1, got);
      for (size_t i = 0; i < ROW; ++i) {
        if (dst[i] == k->dst && src[i] == k->src && !same(k->dtype, got[i], k->want)) {
          fprintf(stderr, "%s %s, %s: got 0x%llx, want 0x%llx (element %zu of a row)\n", dtype_name(k->dtype),
                  mean ? "mean" : REDUCE_NAME[k->reduce], k->why, (unsigned long long)got[i],
                  (unsigned long long)k->want, i);
          failures++;
          break;
        }
      }
    }
    CHECK(wg_pick_reduce(k->dtype, k->reduce, &kern));
    for (size_t i = 0; i < ROW; ++i) dst[i] = k->dst;
    src[0] = k->src;
    run_row(&kern, k->dtype, dst, src, 19, 0, got);
    for (size_t i = 0; i < 19; ++i) {
      if (!same(k->dtype, got[i], k->want)) {
        fprintf(stderr, "%s %s, %s: value form, element %zu got 0x%llx\n", dtype_name(k->dtype),
                REDUCE_NAME[k->reduce], k->why, i, (unsigned long long)got[i]);
        failures++;
        break;
      }
    }
  }
}

/* The batched kernel (apply: a part's items in one call) on the same cases: each case an item of
 * its own destination, applied in the order of an items list (reversed) and straight (no list), as
 * single elements (its own loop, with a list and without: the compiler makes each a loop of its
 * own) and as rows of 3 with a source map (the row kernel), an item whose
 * destination is WG_ZERO_BLOCK skipped, and the value form (one update for every item). */
static void check_apply(void) {
  enum { MAXC = 24, ROWLEN = 3 };
  for (size_t c = 0; c < NCASES; ++c) {
    const kcase* k = &CASES[c];
    if (c > 0 && CASES[c - 1].dtype == k->dtype && CASES[c - 1].reduce == k->reduce) continue; /* once a kernel */
    size_t w = width_of(k->dtype), m = 0;
    uint64_t dst[MAXC], src[MAXC], want[MAXC];
    for (size_t e = c; e < NCASES && m < MAXC && CASES[e].dtype == k->dtype && CASES[e].reduce == k->reduce; ++e) {
      dst[m] = CASES[e].dst, src[m] = CASES[e].src, want[m] = CASES[e].want;
      ++m;
    }
    wg_reduce_kernels kern;
    CHECK(wg_pick_reduce(k->dtype, k->reduce, &kern) && kern.apply);
    for (int form = 0; form < 3; ++form) { /* elements, elements in a list's order, rows */
      int rows = form == 2, list = form >= 1;
      size_t row = rows ? ROWLEN : 1;
      /* out: m destinations and a spare; updates: item q's row at srcs[q] (rows) or q (elements), and
       * one more item, m, whose destination is WG_ZERO_BLOCK */
      uint64_t out[(MAXC + 1) * ROWLEN], upd[(MAXC + 1) * ROWLEN];
      size_t dest[MAXC + 1], items[MAXC + 1], srcs[MAXC + 1];
      for (size_t q = 0; q <= m; ++q) {
        dest[q] = q < m ? m - 1 - q : WG_ZERO_BLOCK; /* item q to destination m - 1 - q */
        srcs[q] = (m - q) * row;                     /* its source row: m - q */
        items[q] = m - q;                            /* applied last to first, the skipped one first */
        for (size_t i = 0; i < row; ++i) {
          put((uint8_t*)out + (q * row + i) * w, w, q < m ? dst[m - 1 - q] : 0x55);
          put((uint8_t*)upd + ((m - q) * row + i) * w, w, q < m ? src[q] : 0x77);
        }
      }
      if (!rows) { /* elements: no source map, item q's update at q; the same values, moved */
        for (size_t q = 0; q <= m; ++q) put((uint8_t*)upd + q * w, w, q < m ? src[q] : 0x77);
      }
      kern.apply(out, upd, dest, list ? items : NULL, rows ? srcs : NULL, m + 1, row, rows ? 0 : 1);
      for (size_t q = 0; q < m; ++q) {
        for (size_t i = 0; i < row; ++i) {
          uint64_t got = get((uint8_t*)out + ((m - 1 - q) * row + i) * w, w);
          if (!same(k->dtype, got, want[q])) {
            fprintf(stderr, "%s %s apply (%s): case %zu got 0x%llx, want 0x%llx\n", dtype_name(k->dtype),
                    REDUCE_NAME[k->reduce], rows ? "rows, a source map" : list ? "elements, a list" : "elements", q, (unsigned long long)got,
                    (unsigned long long)want[q]);
            failures++;
          }
        }
      }
      for (size_t i = 0; i < row; ++i) CHECK(get((uint8_t*)out + (m * row + i) * w, w) == (0x55 & (w < 8 ? (1ull << (8 * w)) - 1 : UINT64_MAX)));
    }
    /* the value form: every item takes updates[0]; destinations hold the first case's dst */
    uint64_t out[MAXC], one = src[0];
    size_t dest[MAXC];
    for (size_t q = 0; q < m; ++q) {
      put((uint8_t*)out + q * w, w, dst[0]);
      dest[q] = q;
    }
    uint64_t upd0 = 0;
    put((uint8_t*)&upd0, w, one);
    kern.apply(out, &upd0, dest, NULL, NULL, m, 1, 0);
    for (size_t q = 0; q < m; ++q) CHECK(same(k->dtype, get((uint8_t*)out + q * w, w), want[0]));
  }
}

/* Items to one destination are applied in the items list's order: float16 0 + 2048 + 1 + 1 + 1
 * rounds after each (2048 at every step), the reverse 0 + 1 + 1 + 1 + 2048 = 2051 -> 2052; a plain
 * write keeps the last item's value. */
static void check_apply_order(void) {
  wg_reduce_kernels k;
  const uint16_t upd[4] = {0x6800, 0x3c00, 0x3c00, 0x3c00};
  const size_t dest[4] = {0, 0, 0, 0}, forward[4] = {0, 1, 2, 3}, backward[4] = {3, 2, 1, 0};
  CHECK(wg_pick_reduce(WG_DTYPE_F16, ADD, &k));
  uint16_t out = 0;
  k.apply(&out, upd, dest, forward, NULL, 4, 1, 1);
  CHECK(out == 0x6800);
  out = 0;
  k.apply(&out, upd, dest, backward, NULL, 4, 1, 1);
  CHECK(out == 0x6802);
  const int32_t vals[3] = {5, 6, 7};
  const size_t order[3] = {2, 0, 1};
  int32_t last = 0;
  CHECK(wg_pick_reduce(WG_DTYPE_I32, NONE, &k));
  k.apply(&last, vals, dest, order, NULL, 3, 1, 1);
  CHECK(last == 6);
}

/* Updates applied one at a time round after each: 2048 + 1 + 1 + 1 stays 2048 in float16 (and
 * 256 + 1 + 1 + 1 stays 256 in bfloat16), where a float32 sum rounded once would be 2051 -> 2052
 * (259 -> 260); the same four updates in the other order, 1 + 1 + 1 + 2048 = 2051 -> 2052. */
static void check_rounding_each_update(void) {
  const struct {
    int dtype;
    uint64_t start, one, want;
  } SEQ[] = {{WG_DTYPE_F16, 0x6800, 0x3c00, 0x6800}, {WG_DTYPE_BF16, 0x4380, 0x3f80, 0x4380}};
  for (size_t s = 0; s < 2; ++s) {
    wg_reduce_kernels k;
    CHECK(wg_pick_reduce(SEQ[s].dtype, ADD, &k));
    uint16_t v = (uint16_t)SEQ[s].start, one = (uint16_t)SEQ[s].one;
    for (int i = 0; i < 3; ++i) k.reduce(&v, &one, 1, 1);
    CHECK(v == SEQ[s].want);
    uint16_t w = one, big = (uint16_t)SEQ[s].start;
    k.reduce(&w, &one, 1, 1);
    k.reduce(&w, &one, 1, 1);
    k.reduce(&w, &big, 1, 1);
    CHECK(w == (SEQ[s].dtype == WG_DTYPE_F16 ? 0x6802 : 0x4382)); /* 3 + 2048 = 2051 -> 2052; 3 + 256 = 259 -> 260 */
  }
}

/* The identity each reduction starts from with include_self 0: add and mean 0, mul 1, max the
 * lowest value (-inf for floats), min the highest (+inf). */
static void check_identities(void) {
  const struct {
    int dtype;
    uint64_t one, lowest, highest;
  } ID[] = {
      {WG_DTYPE_I8, 1, 0x80, 0x7f},
      {WG_DTYPE_U8, 1, 0, 0xff},
      {WG_DTYPE_I16, 1, 0x8000, 0x7fff},
      {WG_DTYPE_U16, 1, 0, 0xffff},
      {WG_DTYPE_I32, 1, 0x80000000, 0x7fffffff},
      {WG_DTYPE_U32, 1, 0, 0xffffffff},
      {WG_DTYPE_I64, 1, 0x8000000000000000ull, 0x7fffffffffffffffull},
      {WG_DTYPE_U64, 1, 0, UINT64_MAX},
      {WG_DTYPE_F16, 0x3c00, 0xfc00, 0x7c00},
      {WG_DTYPE_BF16, 0x3f80, 0xff80, 0x7f80},
      {WG_DTYPE_F32, 0x3f800000, 0xff800000, 0x7f800000},
      {WG_DTYPE_F64, 0x3ff0000000000000ull, 0xfff0000000000000ull, 0x7ff0000000000000ull},
  };
  for (size_t t = 0; t < sizeof ID / sizeof ID[0]; ++t) {
    const int reduces[5] = {ADD, MUL, MAX, MIN, MEAN};
    const uint64_t want[5] = {0, ID[t].one, ID[t].lowest, ID[t].highest, 0};
    size_t w = width_of(ID[t].dtype);
    for (size_t r = 0; r < 5; ++r) {
      wg_reduce_kernels k;
      CHECK(wg_pick_reduce(ID[t].dtype, reduces[r], &k));
      CHECK(k.identity != NULL);
      CHECK((k.divide != NULL) == (reduces[r] == MEAN));
      if (!k.identity) continue;
      uint64_t buf[9];
      memset(buf, POISON, sizeof buf);
      k.identity((uint8_t*)buf + w, 7); /* 7 elements after one guard element */
      for (size_t i = 0; i < 7; ++i) CHECK(get((uint8_t*)buf + (1 + i) * w, w) == want[r]);
      CHECK(((uint8_t*)buf)[w - 1] == POISON && ((uint8_t*)buf)[8 * w] == POISON);
    }
    wg_reduce_kernels k;
    CHECK(wg_pick_reduce(ID[t].dtype, NONE, &k));
    CHECK(k.identity == NULL && k.divide == NULL); /* a plain write has neither */
  }
}

/* The mean's division by the count: integers toward minus infinity, floats in the type (float16 and
 * bfloat16 in float32, rounded). */
static void check_divide(void) {
  const struct {
    int dtype;
    uint64_t sum;
    uint32_t count;
    uint64_t want;
    const char* why;
  } DIV[] = {
      {WG_DTYPE_I8, 0xf9, 2, 0xfc, "-7 / 2 = -3.5 -> -4"},
      {WG_DTYPE_I8, 7, 2, 3, "7 / 2 = 3.5 -> 3"},
      {WG_DTYPE_I8, 0xf8, 2, 0xfc, "-8 / 2 = -4"},
      {WG_DTYPE_I8, 0xff, 3, 0xff, "-1 / 3 -> -1"},
      {WG_DTYPE_I8, 0x80, 3, 0xd5, "-128 / 3 = -42.7 -> -43"},
      {WG_DTYPE_U8, 0xff, 2, 0x7f, "255 / 2 -> 127 (unsigned)"},
      {WG_DTYPE_I16, 0xffff, 2, 0xffff, "-1 / 2 -> -1"},
      {WG_DTYPE_U16, 0xffff, 2, 0x7fff, "65535 / 2 -> 32767"},
      {WG_DTYPE_I32, 0xfffffff9, 2, 0xfffffffc, "-7 / 2 -> -4"},
      {WG_DTYPE_I32, 0x80000000, 1, 0x80000000, "INT32_MIN / 1"},
      {WG_DTYPE_U32, 0xffffffff, 4, 0x3fffffff, "UINT32_MAX / 4"},
      {WG_DTYPE_I64, 0xfffffffffffffff9ull, 2, 0xfffffffffffffffcull, "-7 / 2 -> -4"},
      {WG_DTYPE_I64, 0x8000000000000000ull, 3, 0xd555555555555555ull,
       "INT64_MIN / 3 = -3074457345618258602.7 -> -3074457345618258603"},
      {WG_DTYPE_U64, UINT64_MAX, 2, 0x7fffffffffffffffull, "UINT64_MAX / 2 (unsigned)"},
      {WG_DTYPE_F32, 0x3f800000, 3, 0x3eaaaaab, "1 / 3"},
      {WG_DTYPE_F32, 0x80000000, 2, 0x80000000, "-0 / 2 = -0"},
      {WG_DTYPE_F32, 0x7fc00000, 2, ANY_NAN, "NaN / 2"},
      {WG_DTYPE_F64, 0x3ff0000000000000ull, 3, 0x3fd5555555555555ull, "1 / 3"},
      {WG_DTYPE_F16, 0x3c00, 3, 0x3555, "1 / 3 -> 0x3555"},
      {WG_DTYPE_F16, 0x4200, 2, 0x3e00, "3 / 2 = 1.5"},
      {WG_DTYPE_F16, 0x0001, 2, 0x0000, "2^-24 / 2: a tie, to even (0)"},
      {WG_DTYPE_BF16, 0x3f80, 3, 0x3eab, "1 / 3 -> 0x3eab"},
      {WG_DTYPE_BF16, 0x4040, 2, 0x3fc0, "3 / 2 = 1.5"},
  };
  for (size_t c = 0; c < sizeof DIV / sizeof DIV[0]; ++c) {
    wg_reduce_kernels k;
    size_t w = width_of(DIV[c].dtype);
    CHECK(wg_pick_reduce(DIV[c].dtype, MEAN, &k) && k.divide);
    uint64_t buf[5];
    memset(buf, POISON, sizeof buf);
    for (size_t i = 1; i < 4; ++i) put((uint8_t*)buf + i * w, w, DIV[c].sum);
    k.divide((uint8_t*)buf + w, 3, DIV[c].count);
    for (size_t i = 1; i < 4; ++i) {
      uint64_t got = get((uint8_t*)buf + i * w, w);
      if (!same(DIV[c].dtype, got, DIV[c].want)) {
        fprintf(stderr, "%s mean's division, %s: got 0x%llx\n", dtype_name(DIV[c].dtype), DIV[c].why,
                (unsigned long long)got);
        failures++;
      }
    }
    CHECK(((uint8_t*)buf)[0] == POISON && ((uint8_t*)buf)[4 * w] == POISON);
  }
}

/* ---- the bag backward's scaled add (apply_scaled: add's, float32 and float64 only) ----
 * Each item's row times its scale scales[q], added to its destination row (src/scatter_kernels.h):
 * float32 rounded once, s * x + acc as a fused multiply-add, against libm's fmaf (correctly
 * rounded: https://en.cppreference.com/w/c/numeric/math/fma); float64 the product rounded, then
 * the sum (acc + s * x with -ffp-contract=off). A NaN result is the NaN in place, else the
 * update's, else the scale's, quieted (src/scatter_kernels.c); one made of numbers (inf * 0,
 * inf - inf) is any NaN. */
static uint64_t krng = 0x2545f4914f6cdd1dull;
static uint64_t knext(void) { /* xorshift64 */
  krng ^= krng << 13, krng ^= krng >> 7, krng ^= krng << 17;
  return krng;
}

static uint64_t scaled_want(int dtype, uint64_t s, uint64_t x, uint64_t acc) {
  if (dtype == WG_DTYPE_F32) {
    float fs = float_of((uint32_t)s), fx = float_of((uint32_t)x), fa = float_of((uint32_t)acc);
    float f = fmaf(fs, fx, fa);
    return f == f ? bits_of(f) : fa != fa ? acc | 0x00400000u : fx != fx ? x | 0x00400000u : fs != fs ? s | 0x00400000u : ANY_NAN;
  }
  double ds, dx, da, f;
  memcpy(&ds, &s, 8), memcpy(&dx, &x, 8), memcpy(&da, &acc, 8);
  f = da + ds * dx;
  uint64_t q = 0x0008000000000000ull, fb;
  memcpy(&fb, &f, 8);
  return f == f ? fb : da != da ? acc | q : dx != dx ? x | q : ds != ds ? s | q : ANY_NAN;
}

typedef struct scase {
  int dtype;
  uint64_t s, x, acc, want; /* bits; want ANY_NAN: any NaN */
  const char* why;
} scase;

static const scase SCALED[] = {
    /* float32 midpoints: up = 1 + 2^-15, down = 1 - 2^-15; the float64 sum of the exact product
     * and 2^24 + 2 lands on the midpoint 2^24 + 3 (test_fma32.c) */
    {WG_DTYPE_F32, 0x3f800100, 0x3f7ffe00, 0x4b800001, 0x4b800001, "up * down + 2^24 + 2 = 2^24 + 3 - 2^-30: below the midpoint (unfused: 2^24 + 4)"},
    {WG_DTYPE_F32, 0x3f800100, 0x3f800100, 0x4b800001, 0x4b800002, "up * up + 2^24 + 2: above the midpoint, 2^24 + 4"},
    {WG_DTYPE_F32, 0x3f800000, 0x3f800000, 0x4b800001, 0x4b800002, "1 * 1 + 2^24 + 2 = 2^24 + 3: on it, to even (2^24 + 4)"},
    {WG_DTYPE_F32, 0xbf800100, 0x3f7ffe00, 0xcb800001, 0xcb800001, "-up * down - 2^24 - 2: below it, negative"},
    {WG_DTYPE_F32, 0x3f800100, 0x3f7ffe00, 0x4b800000, 0x4b800000, "up * down + 2^24 = 2^24 + 1 - 2^-30: below 2^24 + 1, 2^24"},
    /* subnormals: the products 2^-75 (1 + 2^-23) * 2^-75 (1 -+ 2^-23) = 2^-150 (1 - 2^-46), and plus
     * 513 * 2^-149: just below the midpoint 513.5 * 2^-149, and above it */
    {WG_DTYPE_F32, 0x1a000001, 0x19fffffe, 0x00000201, 0x00000201, "2^-150 (1 - 2^-46) + 513 * 2^-149: below the subnormal midpoint"},
    {WG_DTYPE_F32, 0x1a000001, 0x1a000001, 0x00000201, 0x00000202, "2^-150 (1 + 2^-22 + 2^-46) + 513 * 2^-149: above it"},
    {WG_DTYPE_F32, 0x00800000, 0x3f000000, 0x00000000, 0x00400000, "2^-126 * 0.5 = 2^-127, a subnormal"},
    {WG_DTYPE_F32, 0x00800000, 0xbf800000, 0x00800000, 0x00000000, "2^-126 * -1 + 2^-126 = +0"},
    {WG_DTYPE_F32, 0x00000001, 0x3f000000, 0x00000000, 0x00000000, "2^-149 * 0.5 + 0: a tie, to even (+0)"},
    {WG_DTYPE_F32, 0x00000001, 0x3f000000, 0x00000001, 0x00000002, "2^-149 * 0.5 + 2^-149 = 1.5 * 2^-149: a tie, to even (2^-148)"},
    /* no intermediate rounding: FLT_MAX * 2 - FLT_MAX = FLT_MAX; FLT_MAX * 2 overflows */
    {WG_DTYPE_F32, 0x7f7fffff, 0x40000000, 0xff7fffff, 0x7f7fffff, "FLT_MAX * 2 - FLT_MAX = FLT_MAX (no overflow in between)"},
    {WG_DTYPE_F32, 0x7f7fffff, 0x40000000, 0x00000000, 0x7f800000, "FLT_MAX * 2 = inf"},
    /* signed zeros */
    {WG_DTYPE_F32, 0xbf800000, 0x00000000, 0x00000000, 0x00000000, "-1 * 0 + 0 = +0"},
    {WG_DTYPE_F32, 0xbf800000, 0x00000000, 0x80000000, 0x80000000, "-1 * 0 + -0 = -0"},
    {WG_DTYPE_F32, 0x3f800000, 0x80000000, 0x80000000, 0x80000000, "1 * -0 + -0 = -0"},
    /* NaNs: the one in place, else the update's, else the scale's, quieted; made of numbers: any */
    {WG_DTYPE_F32, 0x3f800000, 0xffc00123, 0x7fc11111, 0x7fc11111, "NaN in place and a NaN update: the one in place"},
    {WG_DTYPE_F32, 0x7fc00005, 0xffc00123, 0x7f800001, 0x7fc00001, "sNaN in place: quieted, over the update's and the scale's"},
    {WG_DTYPE_F32, 0x7fc00005, 0xff800001, 0x3f800000, 0xffc00001, "a signaling NaN update: quieted, over the scale's"},
    {WG_DTYPE_F32, 0x7f800003, 0x3f800000, 0x3f800000, 0x7fc00003, "a signaling NaN scale: quieted"},
    {WG_DTYPE_F32, 0xffc00007, 0x00000000, 0x3f800000, 0xffc00007, "a NaN scale times 0: the scale's"},
    {WG_DTYPE_F32, 0x7f800000, 0x00000000, 0x7fc00009, 0x7fc00009, "inf * 0 + NaN: the NaN in place"},
    {WG_DTYPE_F32, 0x7f800000, 0x00000000, 0x3f800000, ANY_NAN, "inf * 0 + 1: a NaN of numbers"},
    {WG_DTYPE_F32, 0x7f800000, 0xbf800000, 0x7f800000, ANY_NAN, "inf * -1 + inf: a NaN of numbers"},
    {WG_DTYPE_F32, 0x7f800000, 0xbf800000, 0xff800000, 0xff800000, "inf * -1 - inf = -inf"},
    /* float64: the product rounded, then added */
    {WG_DTYPE_F64, 0x3ff0000000400000ull, 0x3fefffffff800000ull, 0x4340000000000001ull, 0x4340000000000002ull,
     "(1 + 2^-30)(1 - 2^-30) rounds to 1; 2^53 + 2 + 1: a tie, to even (a fused one: 2^53 + 2)"},
    {WG_DTYPE_F64, 0x7fefffffffffffffull, 0x4000000000000000ull, 0xffefffffffffffffull, 0x7ff0000000000000ull,
     "DBL_MAX * 2 overflows first: inf - DBL_MAX = inf (a fused one: DBL_MAX)"},
    {WG_DTYPE_F64, 0x7fefffffffffffffull, 0x4000000000000000ull, 0xfff0000000000000ull, ANY_NAN,
     "DBL_MAX * 2 - inf = inf - inf: a NaN of numbers (a fused one: -inf)"},
    {WG_DTYPE_F64, 0x0010000000000000ull, 0x3fe0000000000000ull, 0x0000000000000000ull, 0x0008000000000000ull, "2^-1022 * 0.5, a subnormal"},
    {WG_DTYPE_F64, 0x0000000000000001ull, 0x3fe0000000000000ull, 0x0000000000000001ull, 0x0000000000000001ull,
     "2^-1074 * 0.5 rounds to 0 (to even) first: 2^-1074 stays (a fused one: a tie, 2^-1073)"},
    {WG_DTYPE_F64, 0xbff0000000000000ull, 0x0000000000000000ull, 0x8000000000000000ull, 0x8000000000000000ull, "-1 * 0 + -0 = -0"},
    {WG_DTYPE_F64, 0xbff0000000000000ull, 0x0000000000000000ull, 0x0000000000000000ull, 0x0000000000000000ull, "-1 * 0 + 0 = +0"},
    {WG_DTYPE_F64, 0x3ff0000000000000ull, 0xfff8000000000123ull, 0x7ff8000000000011ull, 0x7ff8000000000011ull, "NaN in place: it"},
    {WG_DTYPE_F64, 0x7ff8000000000005ull, 0xfff8000000000123ull, 0x7ff0000000000001ull, 0x7ff8000000000001ull, "sNaN in place: quieted"},
    {WG_DTYPE_F64, 0x7ff8000000000005ull, 0xfff0000000000123ull, 0x3ff0000000000000ull, 0xfff8000000000123ull, "a signaling NaN update: quieted"},
    {WG_DTYPE_F64, 0x7ff0000000000005ull, 0x3ff0000000000000ull, 0x3ff0000000000000ull, 0x7ff8000000000005ull, "a signaling NaN scale: quieted"},
    {WG_DTYPE_F64, 0x7ff0000000000000ull, 0x0000000000000000ull, 0x3ff0000000000000ull, ANY_NAN, "inf * 0 + 1: a NaN of numbers"},
};
enum { NSCALED = sizeof SCALED / sizeof SCALED[0] };

/* A value for the rows around a case: random mantissas of moderate size, near-1 products on
 * 2^24-sized accumulators (float32 midpoints), subnormals, or any bits. */
static uint64_t scaled_value(int dtype, int role) {
  uint64_t r = knext();
  if (dtype == WG_DTYPE_F64) {
    switch (r % 4) {
      case 0: return knext(); /* any bits */
      case 1: { /* near 1, or 2^53-sized: ties of the sum */
        double v = role == 2 ? ldexp(1, 53) + 2.0 * (double)(r >> 40 & 7) : 1 + ldexp((double)((int)(r >> 32 & 15) - 8), -30);
        uint64_t b;
        memcpy(&b, &v, 8);
        return b;
      }
      case 2: return r >> 12 & 0xfffffffffull; /* a subnormal */
      default: {
        double v = ldexp((double)(r >> 11), -50) - 4096;
        uint64_t b;
        memcpy(&b, &v, 8);
        return b;
      }
    }
  }
  switch (r % 5) {
    case 0: return knext() & 0xffffffffu;
    case 1: return bits_of(role == 2 ? 0x1p24f + 2.0f * (float)(r >> 40 & 7) : 1 + ldexpf((float)((int)(r >> 32 & 15) - 8), -15));
    case 2: return role == 2 ? (r >> 20 & 0x7fff) : bits_of(ldexpf(1 + (float)(r >> 32 & 255) * 0x1p-23f, -75)); /* subnormal sums */
    case 3: return bits_of(ldexpf((float)(r >> 40), -20) - 4096);
    default: return bits_of((float)((int)((r >> 8) % 9) - 4));
  }
}

/* Rows of n (around the kernel's blocks of 64: a block with one element on a midpoint or
 * subnormal goes the exact way, whole), each case in turn at position p of its item's row among
 * random values; then random triples; each element against scaled_want, nothing written past
 * the rows. */
static void check_scaled_rows(void) {
  static const size_t LENS[] = {1, 3, 63, 64, 65, 130};
  enum { MAXROW = 130, G = 4 };
  for (size_t li = 0; li < sizeof LENS / sizeof LENS[0]; ++li) {
    const size_t n = LENS[li];
    for (size_t c = 0; c < NSCALED + 40; ++c) {
      const int dtype = c < NSCALED ? SCALED[c].dtype : c % 2 ? WG_DTYPE_F64 : WG_DTYPE_F32;
      const size_t w = width_of(dtype), p = (c * 37) % n;
      wg_reduce_kernels k;
      CHECK(wg_pick_reduce(dtype, ADD, &k) && k.apply_scaled);
      uint64_t out[MAXROW + 2 * G], x[MAXROW], acc[MAXROW], scale;
      memset(out, POISON, sizeof out);
      scale = c < NSCALED ? SCALED[c].s : scaled_value(dtype, 0);
      for (size_t e = 0; e < n; ++e) {
        int at = c < NSCALED && e == p;
        x[e] = at ? SCALED[c].x : scaled_value(dtype, 1);
        acc[e] = at ? SCALED[c].acc : scaled_value(dtype, 2);
        put((uint8_t*)out + (G * 8 / w + e) * w, w, acc[e]);
      }
      uint64_t xs[MAXROW], sc = 0;
      for (size_t e = 0; e < n; ++e) put((uint8_t*)xs + e * w, w, x[e]);
      put((uint8_t*)&sc, w, scale);
      const size_t dest = 0;
      k.apply_scaled((uint8_t*)out + G * 8, xs, &dest, NULL, NULL, &sc, 1, n, n);
      for (size_t e = 0; e < n; ++e) {
        uint64_t got = get((uint8_t*)out + (G * 8 / w + e) * w, w), want = scaled_want(dtype, scale, x[e], acc[e]);
        int is_case = c < NSCALED && e == p;
        if (!same(dtype, got, want) || (is_case && want != SCALED[c].want)) {
          fprintf(stderr, "%s scaled add, row of %zu, element %zu%s%s: s 0x%llx x 0x%llx acc 0x%llx: got 0x%llx, want 0x%llx%s\n",
                  dtype_name(dtype), n, e, is_case ? ", " : "", is_case ? SCALED[c].why : "", (unsigned long long)scale,
                  (unsigned long long)x[e], (unsigned long long)acc[e], (unsigned long long)got, (unsigned long long)want,
                  is_case && want != SCALED[c].want ? " (the reference disagrees with the case: the test is wrong)" : "");
          failures++;
        }
      }
      for (size_t b = 0; b < G * 8; ++b) {
        CHECK(((uint8_t*)out)[b] == POISON);
        CHECK(((uint8_t*)out)[G * 8 + n * w + b] == POISON);
      }
    }
  }
}

/* Items: each its own scale, its source row from the source map (or q * src_step), in a list's
 * order or none, an item of destination WG_ZERO_BLOCK skipped (its scale a NaN: nothing shows);
 * then the order of three items to one destination. */
static void check_scaled_items(void) {
  for (int f64 = 0; f64 < 2; ++f64) {
    const int dtype = f64 ? WG_DTYPE_F64 : WG_DTYPE_F32;
    const size_t w = width_of(dtype);
    wg_reduce_kernels k;
    CHECK(wg_pick_reduce(dtype, ADD, &k) && k.apply_scaled);
    /* 4 items of rows of 2 into 2 destination rows: row 0 = 2 * (1, 5); row 1 = (2^24, -3) + (1, 0.5)
     * (float32: 2^24 + 1 a tie, to even, either way) */
    const double upd[8] = {0x1p24, -3, 1, 5, 99, 99, 1, 0.5}, scl[4] = {1, 2, NAN, 1};
    const size_t dest[4] = {1, 0, WG_ZERO_BLOCK, 1}, srcs[4] = {0, 2, 4, 6};
    const size_t forward[4] = {0, 1, 2, 3}, backward[4] = {3, 2, 1, 0};
    const double want[4] = {2, 10, f64 ? 0x1p24 + 1 : 0x1p24, -2.5};
    for (int order = 0; order < 3; ++order) { /* a list forward, backward; none (the source step) */
      uint64_t o[4] = {0, 0, 0, 0}, u[8], s[4];
      for (int i = 0; i < 8; ++i) put((uint8_t*)u + i * w, w, f64 ? get((const uint8_t*)&upd[i], 8) : bits_of((float)upd[i]));
      for (int i = 0; i < 4; ++i) put((uint8_t*)s + i * w, w, f64 ? get((const uint8_t*)&scl[i], 8) : bits_of((float)scl[i]));
      k.apply_scaled(o, u, dest, order == 0 ? forward : order == 1 ? backward : NULL, order < 2 ? srcs : NULL, s, 4, 2, 2);
      for (int i = 0; i < 4; ++i) {
        uint64_t got = get((uint8_t*)o + i * w, w);
        double g = f64 ? 0 : float_of((uint32_t)got);
        if (f64) memcpy(&g, &got, 8);
        if (g != want[i]) {
          fprintf(stderr, "%s scaled add, items (%s): element %d is %a, want %a\n", dtype_name(dtype),
                  order == 0 ? "a list" : order == 1 ? "a list, backward" : "no list", i, g, want[i]);
          failures++;
        }
      }
    }
  }
  /* the order: three items to one float32 destination, scale 1: 0 + 2^24 + 1 + 1 stays 2^24 (each
   * 2^24 + 1 a tie, to even); backward, 0 + 1 + 1 + 2^24 = 2^24 + 2 */
  wg_reduce_kernels k;
  CHECK(wg_pick_reduce(WG_DTYPE_F32, ADD, &k) && k.apply_scaled);
  const float upd[3] = {0x1p24f, 1, 1}, scl[3] = {1, 1, 1};
  const size_t dest[3] = {0, 0, 0}, forward[3] = {0, 1, 2}, backward[3] = {2, 1, 0};
  float o = 0;
  k.apply_scaled(&o, upd, dest, forward, NULL, scl, 3, 1, 1);
  CHECK(o == 0x1p24f);
  o = 0;
  k.apply_scaled(&o, upd, dest, backward, NULL, scl, 3, 1, 1);
  CHECK(o == 0x1p24f + 2);
  /* only add on float32 and float64 has it */
  for (int32_t d = WG_DTYPE_I8; d <= WG_DTYPE_F64; ++d) {
    for (int r = NONE; r <= MEAN; ++r) {
      CHECK(wg_pick_reduce(d, r, &k));
      CHECK(!k.apply_scaled == !(r == ADD && (d == WG_DTYPE_F32 || d == WG_DTYPE_F64)));
    }
  }
}

/* What has no kernels: an unknown reduction, and element types that are not the 12 value types. */
static void check_refused(void) {
  wg_reduce_kernels k;
  const int32_t bad_reduce[] = {6, 7, -1, INT32_MIN, INT32_MAX};
  for (size_t i = 0; i < sizeof bad_reduce / sizeof bad_reduce[0]; ++i) CHECK(!wg_pick_reduce(WG_DTYPE_F32, bad_reduce[i], &k));
  const int32_t bad_dtype[] = {WG_DTYPE_NONE, WG_DTYPE_U4, WG_DTYPE_I4, WG_DTYPE_COUNT, -1};
  for (size_t i = 0; i < sizeof bad_dtype / sizeof bad_dtype[0]; ++i) {
    for (int r = NONE; r <= MEAN; ++r) CHECK(!wg_pick_reduce(bad_dtype[i], r, &k));
  }
  for (int32_t d = WG_DTYPE_I8; d <= WG_DTYPE_F64; ++d) { /* every value type has every reduction */
    for (int r = NONE; r <= MEAN; ++r) CHECK(wg_pick_reduce(d, r, &k) && k.reduce);
  }
}

int main(void) {
  check_cases();
  check_apply();
  check_apply_order();
  check_rounding_each_update();
  check_identities();
  check_divide();
  check_refused();
  check_scaled_rows();
  check_scaled_items();
  if (failures) fprintf(stderr, "%d failure(s)\n", failures);
  else printf("scatter kernels: %zu hand-worked cases, %zu of the scaled add, ok\n", (size_t)NCASES, (size_t)NSCALED);
  return failures != 0;
}
