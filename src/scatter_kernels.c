#include "scatter_kernels.h"

#include <math.h>
#include <string.h>

#include "copy_kernels.h"    /* wg_copy_bytes */
#include "dequant_kernels.h" /* the float16 / bfloat16 conversions */
#include "fma32.h"           /* wg_fma32 */
#include "index_resolve.h"   /* WG_ZERO_BLOCK */

#ifdef __wasm_simd128__
#include <wasm_simd128.h>
#endif

/* What each kind computes in: load a stored value, store a computed one. */
#define LOAD_INT(x) (x)
#define LOAD_UINT(x) (x)
#define LOAD_FLOAT(x) (x)
#define LOAD_HALF(x) wg_f16_to_f32(x)
#define LOAD_BHALF(x) wg_bf16_to_f32(x)
#define STORE_HALF(v) wg_f32_to_f16(v)
#define STORE_BHALF(v) wg_f32_to_bf16(v)

/* A float sum or product whose operand is a NaN: the NaN in place, else the update's, quieted (a
 * NaN made of numbers, inf - inf or 0 * inf, is the hardware's). Written out here, not left to
 * the hardware: x86 and Arm return the NaN of an instruction's first operand, and a + b is
 * commutative, so the compiler may put either first, and differently in two loops of one kernel.
 * gcc did, for the loop with an items list and the one without (a part's items over threads, all
 * items on one thread): a bfloat16 product of a NaN and a NaN of the other sign then differed
 * between 1 thread and 16 (tests/native/test_scatter_kernels.c pins every loop to this rule). */
#define DEFINE_NAN_RULE(T, BITS, QUIET_BIT)                                                    \
  static inline T quiet_##T(T x) { /* the quiet bit set, as an instruction sets it */           \
    BITS b;                                                                                     \
    memcpy(&b, &x, sizeof b);                                                                   \
    b |= QUIET_BIT;                                                                             \
    memcpy(&x, &b, sizeof b);                                                                   \
    return x;                                                                                   \
  }                                                                                             \
  static inline T nan_rule_##T(T r, T a, T u) {                                                 \
    return r == r ? r : a != a ? quiet_##T(a) : u != u ? quiet_##T(u) : r;                      \
  }                                                                                             \
  static inline T add_##T(T a, T u) { return nan_rule_##T(a + u, a, u); }                       \
  static inline T mul_##T(T a, T u) { return nan_rule_##T(a * u, a, u); }
DEFINE_NAN_RULE(float, uint32_t, 0x00400000u)
DEFINE_NAN_RULE(double, uint64_t, 0x0008000000000000ull)

/* add and mul: integers in uint64_t, whose low bits are the wrapped result at every width (no
 * signed overflow); floats in the type, or in float32 and rounded back. */
#define ADD_INT(T, a, b) (T)((uint64_t)(a) + (uint64_t)(b))
#define ADD_UINT ADD_INT
#define ADD_FLOAT(T, a, b) add_##T(a, b)
#define ADD_HALF(T, a, b) STORE_HALF(add_float(LOAD_HALF(a), LOAD_HALF(b)))
#define ADD_BHALF(T, a, b) STORE_BHALF(add_float(LOAD_BHALF(a), LOAD_BHALF(b)))
#define MUL_INT(T, a, b) (T)((uint64_t)(a) * (uint64_t)(b))
#define MUL_UINT MUL_INT
#define MUL_FLOAT(T, a, b) mul_##T(a, b)
#define MUL_HALF(T, a, b) STORE_HALF(mul_float(LOAD_HALF(a), LOAD_HALF(b)))
#define MUL_BHALF(T, a, b) STORE_BHALF(mul_float(LOAD_BHALF(a), LOAD_BHALF(b)))

/* max and min (torch's rule, scatter_reduce_ amax / amin): a NaN update always wins, a NaN in
 * place included; otherwise the update wins if it is strictly beyond the value in place, unless
 * that is a NaN; a tie (+0, -0) keeps the value in place. The winner's bits are written as they
 * are (a signaling NaN's payload included). */
#define WINS_INT(T, a, b, CMP) ((b)CMP(a))
#define WINS_UINT WINS_INT
#define WINS_FLOAT(T, a, b, CMP) (isnan(b) || (!isnan(a) && (b)CMP(a)))
#define WINS_HALF(T, a, b, CMP) WINS_FLOAT(float, LOAD_HALF(a), LOAD_HALF(b), CMP)
#define WINS_BHALF(T, a, b, CMP) WINS_FLOAT(float, LOAD_BHALF(a), LOAD_BHALF(b), CMP)

/* The identities (bits of the stored type). */
#define SIGNED_MIN(T) ((T)((uint64_t)1 << (sizeof(T) * 8 - 1)))
#define ZERO_INT(T) ((T)0)
#define ZERO_UINT ZERO_INT
#define ZERO_FLOAT ZERO_INT
#define ZERO_HALF ZERO_INT
#define ZERO_BHALF ZERO_INT
#define ONE_INT(T) ((T)1)
#define ONE_UINT ONE_INT
#define ONE_FLOAT ONE_INT
#define ONE_HALF(T) ((T)0x3c00)
#define ONE_BHALF(T) ((T)0x3f80)
#define LOWEST_INT(T) SIGNED_MIN(T)
#define LOWEST_UINT(T) ((T)0)
#define LOWEST_FLOAT(T) ((T)-INFINITY)
#define LOWEST_HALF(T) ((T)0xfc00)
#define LOWEST_BHALF(T) ((T)0xff80)
#define HIGHEST_INT(T) ((T)~SIGNED_MIN(T))
#define HIGHEST_UINT(T) ((T)~(uint64_t)0)
#define HIGHEST_FLOAT(T) ((T)INFINITY)
#define HIGHEST_HALF(T) ((T)0x7c00)
#define HIGHEST_BHALF(T) ((T)0x7f80)

/* The mean's division by a count of at least 1. */
#define DIV_INT(T, a, c) (T)(((int64_t)(a) / (int64_t)(c)) - ((int64_t)(a) % (int64_t)(c) < 0))
#define DIV_UINT(T, a, c) (T)((uint64_t)(a) / (c))
#define DIV_FLOAT(T, a, c) (T)((a) / (T)(c))
#define DIV_HALF(T, a, c) STORE_HALF(LOAD_HALF(a) / (float)(c))
#define DIV_BHALF(T, a, c) STORE_BHALF(LOAD_BHALF(a) / (float)(c))

/* What each reduction makes of the value in place a and the update u. */
#define COMBINE_none(KIND, T, a, u) (u)
#define COMBINE_add(KIND, T, a, u) ADD_##KIND(T, a, u)
#define COMBINE_mul(KIND, T, a, u) MUL_##KIND(T, a, u)
#define COMBINE_max(KIND, T, a, u) (WINS_##KIND(T, a, u, >) ? (u) : (a))
#define COMBINE_min(KIND, T, a, u) (WINS_##KIND(T, a, u, <) ? (u) : (a))

/* Float adds four (two) lanes at a time in wasm, where the compilers leave the NaN rule's selects
 * scalar: a vector with a NaN in it is added lane by lane by the rule. Returns the elements done. */
#ifdef __wasm_simd128__
static inline size_t add_f32_v128(float* restrict d, const float* restrict s, size_t n) {
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    v128_t r = wasm_f32x4_add(wasm_v128_load(d + i), wasm_v128_load(s + i));
    if (wasm_v128_any_true(wasm_f32x4_ne(r, r))) {
      for (size_t k = i; k < i + 4; ++k) d[k] = add_float(d[k], s[k]);
    } else {
      wasm_v128_store(d + i, r);
    }
  }
  return i;
}
static inline size_t add_f64_v128(double* restrict d, const double* restrict s, size_t n) {
  size_t i = 0;
  for (; i + 2 <= n; i += 2) {
    v128_t r = wasm_f64x2_add(wasm_v128_load(d + i), wasm_v128_load(s + i));
    if (wasm_v128_any_true(wasm_f64x2_ne(r, r))) {
      for (size_t k = i; k < i + 2; ++k) d[k] = add_double(d[k], s[k]);
    } else {
      wasm_v128_store(d + i, r);
    }
  }
  return i;
}
#define IS_ADD_none 0
#define IS_ADD_add 1
#define IS_ADD_mul 0
#define IS_ADD_max 0
#define IS_ADD_min 0
#define IS_FLOAT_INT 0
#define IS_FLOAT_UINT 0
#define IS_FLOAT_FLOAT 1
#define IS_FLOAT_HALF 0
#define IS_FLOAT_BHALF 0
#define ROW_V128(op, KIND, T, d, s, n)                                                                      \
  (IS_ADD_##op && IS_FLOAT_##KIND                                                                           \
       ? (sizeof(T) == 4 ? add_f32_v128((float*)(void*)(d), (const float*)(const void*)(s), n)             \
                         : add_f64_v128((double*)(void*)(d), (const double*)(const void*)(s), n))          \
       : 0)
#else
#define ROW_V128(op, KIND, T, d, s, n) 0
#endif

/* A row: one loop per source step (a row, or the value form), so that it can be vectorized. A
 * plain write of a row is a copy (wg_copy_bytes: no memory.copy for short rows). */
#define ROW_BODY(op, KIND, T)                                                          \
  T* restrict d = dst;                                                                 \
  const T* restrict s = src;                                                           \
  if (step) {                                                                          \
    size_t i0 = ROW_V128(op, KIND, T, d, s, n);                                        \
    for (size_t i = i0; i < n; ++i) d[i] = COMBINE_##op(KIND, T, d[i], s[i]);          \
  } else {                                                                             \
    T u = s[0];                                                                        \
    for (size_t i = 0; i < n; ++i) d[i] = COMBINE_##op(KIND, T, d[i], u);              \
  }

/* The row kernel and the batched one of reduction op on type name. Items of single elements
 * (of the elements op) have a loop of their own, with no call an item; rows call the row kernel,
 * which is not inlined there (one copy of each vectorized loop: 40% less code, the same speed). */
#define WG_NOINLINE __attribute__((noinline))
/* Integer and 16-bit float products, maxima and minima (rare in a model's scatters), their row and
 * item kernels, compiled for size, not unrolled and vectorized: about 25 KiB of the module, which
 * keeps it under webpack's 244 KiB hint. */
#ifdef __clang__
#define SMALL_INT __attribute__((minsize))
#else
#define SMALL_INT
#endif
#define SMALL_none_INT
#define SMALL_none_UINT
#define SMALL_add_INT
#define SMALL_add_UINT
#define SMALL_mul_INT SMALL_INT
#define SMALL_mul_UINT SMALL_INT
#define SMALL_max_INT SMALL_INT
#define SMALL_max_UINT SMALL_INT
#define SMALL_min_INT SMALL_INT
#define SMALL_min_UINT SMALL_INT
#define SMALL_none_FLOAT
#define SMALL_add_FLOAT
#define SMALL_mul_FLOAT
#define SMALL_max_FLOAT
#define SMALL_min_FLOAT
#define SMALL_none_HALF
#define SMALL_add_HALF
#define SMALL_mul_HALF SMALL_INT
#define SMALL_max_HALF SMALL_INT
#define SMALL_min_HALF SMALL_INT
#define SMALL_none_BHALF
#define SMALL_add_BHALF
#define SMALL_mul_BHALF SMALL_INT
#define SMALL_max_BHALF SMALL_INT
#define SMALL_min_BHALF SMALL_INT
#define DEFINE_OP_KERNELS(op, name, T, KIND)                                                      \
  WG_NOINLINE SMALL_##op##_##KIND static void row_##op##_##name(void* dst, const void* src, size_t n, size_t step) {  \
    if (WG_REDUCE_IS_NONE_##op && step) {                                                         \
      wg_copy_bytes(dst, src, n * sizeof(T));                                                     \
      return;                                                                                     \
    }                                                                                             \
    ROW_BODY(op, KIND, T)                                                                         \
  }                                                                                               \
  SMALL_##op##_##KIND static void apply_##op##_##name(void* out, const void* updates, const size_t* dest, \
                                  const size_t* items, const size_t* srcs, size_t n, size_t row,   \
                                  size_t step) {                                                  \
    T* o = out;                                                                                   \
    const T* up = updates;                                                                        \
    if (row == 1 && !srcs) {                                                                      \
      for (size_t k = 0; k < n; ++k) {                                                            \
        size_t q = items ? items[k] : k, r = dest[q];                                             \
        if (r == WG_ZERO_BLOCK) continue;                                                         \
        T u = up[q * step];                                                                       \
        o[r] = COMBINE_##op(KIND, T, o[r], u);                                                    \
      }                                                                                           \
      return;                                                                                     \
    }                                                                                             \
    for (size_t k = 0; k < n; ++k) {                                                              \
      size_t q = items ? items[k] : k, r = dest[q];                                               \
      if (r == WG_ZERO_BLOCK) continue;                                                           \
      row_##op##_##name(o + r * row, up + (srcs ? srcs[q] : q * step), row, srcs || step);        \
    }                                                                                             \
  }
#define WG_REDUCE_IS_NONE_none 1
#define WG_REDUCE_IS_NONE_add 0
#define WG_REDUCE_IS_NONE_mul 0
#define WG_REDUCE_IS_NONE_max 0
#define WG_REDUCE_IS_NONE_min 0

#define DEFINE_KERNELS(name, T, dtype, KIND)                                                    \
  DEFINE_OP_KERNELS(none, name, T, KIND)                                                        \
  DEFINE_OP_KERNELS(add, name, T, KIND)                                                         \
  DEFINE_OP_KERNELS(mul, name, T, KIND)                                                         \
  DEFINE_OP_KERNELS(max, name, T, KIND)                                                         \
  DEFINE_OP_KERNELS(min, name, T, KIND)                                                         \
  static void fill_##name(T* d, size_t n, T v) {                                                \
    for (size_t i = 0; i < n; ++i) d[i] = v;                                                    \
  }                                                                                             \
  static void zero_##name(void* dst, size_t n) { fill_##name(dst, n, ZERO_##KIND(T)); }         \
  static void one_##name(void* dst, size_t n) { fill_##name(dst, n, ONE_##KIND(T)); }           \
  static void lowest_##name(void* dst, size_t n) { fill_##name(dst, n, LOWEST_##KIND(T)); }     \
  static void highest_##name(void* dst, size_t n) { fill_##name(dst, n, HIGHEST_##KIND(T)); }   \
  static void divide_##name(void* dst, size_t n, uint32_t count) {                              \
    T* d = dst;                                                                                 \
    for (size_t i = 0; i < n; ++i) d[i] = DIV_##KIND(T, d[i], count);                           \
  }                                                                                             \
  static int pick_##name(int32_t reduce, wg_reduce_kernels* k) {                                \
    switch (reduce) {                                                                           \
      case WG_REDUCE_NONE: *k = (wg_reduce_kernels){row_none_##name, apply_none_##name, NULL, NULL, NULL}; return 1; \
      case WG_REDUCE_ADD: *k = (wg_reduce_kernels){row_add_##name, apply_add_##name, zero_##name, NULL, NULL}; return 1; \
      case WG_REDUCE_MUL: *k = (wg_reduce_kernels){row_mul_##name, apply_mul_##name, one_##name, NULL, NULL}; return 1; \
      case WG_REDUCE_MAX: *k = (wg_reduce_kernels){row_max_##name, apply_max_##name, lowest_##name, NULL, NULL}; return 1; \
      case WG_REDUCE_MIN: *k = (wg_reduce_kernels){row_min_##name, apply_min_##name, highest_##name, NULL, NULL}; return 1; \
      case WG_REDUCE_MEAN:                                                                      \
        *k = (wg_reduce_kernels){row_add_##name, apply_add_##name, zero_##name, divide_##name, NULL}; \
        return 1;                                                                               \
      default: return 0;                                                                        \
    }                                                                                           \
  }
WG_REDUCE_TYPES(DEFINE_KERNELS)
#undef DEFINE_KERNELS

/* Scaled adds. float32: a fused multiply-add each element, emulated exactly (wg_fma32: float64
 * sums rounded once where that is exact, which vectorizes, and the emulation for a block where an
 * element needs it). float64: the product rounded, then added (as TensorFlow's segment gradients:
 * an exact float64 fma has no cheap emulation, and the guest module links no libm). A NaN result
 * takes the NaN rule of the adds. */
#define FMA_BLOCK 64
static void fma_row_f32(float* restrict dst, const float* restrict x, float s, size_t m) {
  for (size_t e0 = 0; e0 < m; e0 += FMA_BLOCK) {
    const size_t k = m - e0 < FMA_BLOCK ? m - e0 : FMA_BLOCK;
    float r[FMA_BLOCK];
    uint64_t slow = 0;
    size_t e = 0;
#ifdef __wasm_simd128__
    /* four at a time in two f64x2 halves (the compilers leave the float64 check scalar) */
    const v128_t sv = wasm_f64x2_splat(s), low = wasm_i64x2_splat(0x1fffffff), half = wasm_i64x2_splat(0x10000000);
    const v128_t tiny = wasm_f64x2_splat(0x1p-126), zero = wasm_f64x2_splat(0);
    v128_t flags = wasm_i64x2_splat(0);
    for (; e + 4 <= k; e += 4) {
      const v128_t x4 = wasm_v128_load(x + e0 + e), a4 = wasm_v128_load(dst + e0 + e);
      v128_t t[2];
      for (int h = 0; h < 2; ++h) {
        const v128_t xh = wasm_f64x2_promote_low_f32x4(h ? wasm_i32x4_shuffle(x4, x4, 2, 3, 0, 1) : x4);
        const v128_t ah = wasm_f64x2_promote_low_f32x4(h ? wasm_i32x4_shuffle(a4, a4, 2, 3, 0, 1) : a4);
        t[h] = wasm_f64x2_add(wasm_f64x2_mul(sv, xh), ah);
        flags = wasm_v128_or(flags, wasm_i64x2_eq(wasm_v128_and(t[h], low), half)); /* halfway */
        flags = wasm_v128_or(flags, wasm_v128_and(wasm_f64x2_lt(wasm_f64x2_abs(t[h]), tiny), wasm_f64x2_ne(t[h], zero)));
        flags = wasm_v128_or(flags, wasm_f64x2_ne(t[h], t[h])); /* NaN */
      }
      wasm_v128_store(r + e, wasm_i32x4_shuffle(wasm_f32x4_demote_f64x2_zero(t[0]), wasm_f32x4_demote_f64x2_zero(t[1]), 0, 1, 4, 5));
    }
    slow = wasm_v128_any_true(flags);
#endif
    for (; e < k; ++e) {
      double t = (double)s * x[e0 + e] + dst[e0 + e];
      slow |= wg_fma32_needs_exact(t) | (t != t);
      r[e] = (float)t;
    }
    if (!slow) {
      memcpy(dst + e0, r, k * sizeof *r);
      continue;
    }
    for (size_t i = e0; i < e0 + k; ++i) {
      float a = dst[i], v = x[i], f = wg_fma32(s, v, a);
      dst[i] = f == f ? f : a != a ? quiet_float(a) : v != v ? quiet_float(v) : s != s ? quiet_float(s) : f;
    }
  }
}

static void fma_row_f64(double* restrict dst, const double* restrict x, double s, size_t m) {
  for (size_t e = 0; e < m; ++e) {
    double a = dst[e], v = x[e], f = a + s * v;
    dst[e] = f == f ? f : a != a ? quiet_double(a) : v != v ? quiet_double(v) : s != s ? quiet_double(s) : f;
  }
}

#define DEFINE_SCALED(name, T)                                                                     \
  static void apply_scaled_##name(void* out, const void* updates, const size_t* dest, const size_t* items, \
                                  const size_t* srcs, const void* scales, size_t n, size_t row, size_t src_step) { \
    T* o = out;                                                                                    \
    const T* u = updates;                                                                          \
    const T* s = scales;                                                                           \
    for (size_t k = 0; k < n; ++k) {                                                               \
      const size_t q = items ? items[k] : k;                                                       \
      if (dest[q] == WG_ZERO_BLOCK) continue;                                                      \
      fma_row_##name(o + dest[q] * row, u + (srcs ? srcs[q] : q * src_step), s[q], row);           \
    }                                                                                              \
  }
DEFINE_SCALED(f32, float)
DEFINE_SCALED(f64, double)
#undef DEFINE_SCALED

int wg_pick_reduce(int32_t dtype, int32_t reduce, wg_reduce_kernels* k) {
  if (reduce == WG_REDUCE_ADD && (dtype == WG_DTYPE_F32 || dtype == WG_DTYPE_F64)) {
    int ok = dtype == WG_DTYPE_F32 ? pick_f32(reduce, k) : pick_f64(reduce, k);
    k->apply_scaled = dtype == WG_DTYPE_F32 ? apply_scaled_f32 : apply_scaled_f64;
    return ok;
  }
  switch (dtype) {
#define PICK(name, T, dt, KIND) \
  case dt: return pick_##name(reduce, k);
    WG_REDUCE_TYPES(PICK)
#undef PICK
    default: return 0;
  }
}
