#include "stage_bag.h"

#include <math.h>
#include <string.h>

#include "index_resolve.h"

#ifdef __wasm_simd128__
#include <wasm_simd128.h>
#endif

/* Products and sums are rounded as written: CMakeLists.txt builds with -ffp-contract=off. */

float wg_fma32(float a, float b, float c) {
  /* The product is exact in float64, so s is the exact sum rounded once; rounding s to float32
   * again gives the float32 nearest the exact sum unless s lies exactly halfway between two
   * float32s (double rounding cannot cross a midpoint, only land on it). Then the exact sum lies
   * on the side of s that its rounding error says, and one float64 step that way decides. */
  double p = (double)a * b, s = p + c;
  float r = (float)s;
  uint64_t bits;
  memcpy(&bits, &s, sizeof bits);
  if (isnan(s)) return r; /* never a tie; and (int64_t)NaN below would be undefined */
  int tie;
  if (fabs(s) >= 0x1p-126) {
    tie = (bits & 0x1fffffffu) == 0x10000000u; /* the 29 bits below float32's last are a half */
  } else { /* float32 subnormals: halfway points are odd multiples of 2^-150 */
    double k = s * 0x1p150;
    tie = k == (double)(int64_t)k && ((int64_t)k & 1);
  }
  if (!tie) return r;
  double sp = s - c, err = (p - sp) + (c - (s - sp)); /* s + err == p + c exactly */
  if (err == 0) return r;
  bits += (err > 0) == (s > 0) ? 1 : (uint64_t)-1; /* one step away from zero, or towards it */
  memcpy(&s, &bits, sizeof s);
  return (float)s;
}

/* The float32 values of columns e0 .. e0 + m of row r (NULL: a row of zeros) into tmp, or a
 * pointer to them where they are. */
static const float zeros_f32[WG_BAG_CHUNK];
static const double zeros_f64[WG_BAG_CHUNK];

static const float* load_f32(const wg_bag_job* t, size_t r, size_t e0, size_t m, float* tmp) {
  if (r == WG_ZERO_BLOCK) return zeros_f32;
  size_t p = r * t->inner + e0;
  uint16_t h;
  switch (t->value) {
    case WG_BAG_F32: return (const float*)(const void*)t->data + p;
    case WG_BAG_F16:
      for (size_t e = 0; e < m; ++e) memcpy(&h, t->data + 2 * (p + e), 2), tmp[e] = wg_f16_to_f32(h);
      return tmp;
    case WG_BAG_BF16:
      for (size_t e = 0; e < m; ++e) memcpy(&h, t->data + 2 * (p + e), 2), tmp[e] = wg_bf16_to_f32(h);
      return tmp;
    default: { /* dequantized in the scales' type, as the dequantization stage writes it */
      uint16_t half[WG_BAG_CHUNK];
      if (t->quant.scale_type == WG_SCALE_F32) {
        wg_dequant_elements(&t->quant, p, m, tmp);
      } else {
        wg_dequant_elements(&t->quant, p, m, half);
        for (size_t e = 0; e < m; ++e) {
          tmp[e] = t->quant.scale_type == WG_SCALE_F16 ? wg_f16_to_f32(half[e]) : wg_bf16_to_f32(half[e]);
        }
      }
      return tmp;
    }
  }
}

/* A weight (entry j) in the accumulator's type. */
static double weight_of(const wg_bag_job* t, size_t j) {
  uint16_t h;
  switch (t->value == WG_BAG_QUANT ? (t->quant.scale_type == WG_SCALE_F32 ? WG_BAG_F32
                                      : t->quant.scale_type == WG_SCALE_F16 ? WG_BAG_F16 : WG_BAG_BF16)
                                   : t->value) {
    case WG_BAG_F32: return ((const float*)t->weights)[j];
    case WG_BAG_F64: return ((const double*)t->weights)[j];
    case WG_BAG_F16: memcpy(&h, (const uint8_t*)t->weights + 2 * j, 2); return wg_f16_to_f32(h);
    default: memcpy(&h, (const uint8_t*)t->weights + 2 * j, 2); return wg_bf16_to_f32(h);
  }
}

/* The table's rows that indices j0 .. j0 + n select (WG_ZERO_BLOCK: zeros). 0 at a bad index in
 * WG_OOB_ERROR mode. */
static int rows_of(const wg_bag_job* t, size_t j0, size_t n, size_t* rows) {
  return wg_resolve_indices(t->indices, t->index_type, j0, 1, n, t->rows, 0, 1, t->mode, t->negative, 0,
                            rows) == WG_OK;
}

/* A segment's state over one chunk of columns. */
typedef struct chunk {
  size_t e0, m;
  size_t count;       /* entries reduced (padding skipped) */
  double wsum, w2sum; /* the weights' sum and sum of squares, in the accumulator's type */
  int32_t from[WG_BAG_CHUNK];
} chunk;

/* Rows reduced in one pass over the chunk: their loads overlap (a table's rows are scattered:
 * one row's latency at a time would bound the call), and each element still takes them in
 * order. */
#define GROUP 8

/* Up to GROUP entries: their values over the chunk, weights and rows (-1: a row of zeros). */
typedef struct group {
  size_t n;
  const float* xf[GROUP];
  const double* xd[GROUP];
  double w[GROUP];
  int32_t row[GROUP];
} group;


/* acc = w * x + acc for the group's rows in order, each element rounded once: float64 sums
 * rounded to float32 where that is exact (wg_fma32's fast case), which vectorizes; the exact
 * emulation for the whole group where any element needs it. */
static void fma_rows(float* restrict acc, const group* g, size_t m) {
  float r[WG_BAG_CHUNK];
  uint64_t slow = 0;
  memcpy(r, acc, m * sizeof *r);
  size_t j = 0;
  for (; j + 4 <= g->n; j += 4) { /* four rows a pass */
    const float *restrict x0 = g->xf[j], *restrict x1 = g->xf[j + 1], *restrict x2 = g->xf[j + 2], *restrict x3 = g->xf[j + 3];
    const double w0 = (float)g->w[j], w1 = (float)g->w[j + 1], w2 = (float)g->w[j + 2], w3 = (float)g->w[j + 3];
    for (size_t e = 0; e < m; ++e) {
      double s0 = w0 * x0[e] + r[e];
      double s1 = w1 * x1[e] + (float)s0;
      double s2 = w2 * x2[e] + (float)s1;
      double s3 = w3 * x3[e] + (float)s2;
      slow |= wg_fma32_needs_exact(s0) | wg_fma32_needs_exact(s1) | wg_fma32_needs_exact(s2) | wg_fma32_needs_exact(s3);
      r[e] = (float)s3;
    }
  }
  for (; j < g->n; ++j) {
    const float* restrict x = g->xf[j];
    const double w = (float)g->w[j];
    for (size_t e = 0; e < m; ++e) {
      double sum = w * x[e] + r[e];
      slow |= wg_fma32_needs_exact(sum);
      r[e] = (float)sum;
    }
  }
  if (!slow) {
    memcpy(acc, r, m * sizeof *r);
    return;
  }
  for (j = 0; j < g->n; ++j) {
    for (size_t e = 0; e < m; ++e) acc[e] = wg_fma32((float)g->w[j], g->xf[j][e], acc[e]);
  }
}

/* Bag max: acc takes a greater value, and from its row (a tie keeps the first). Segment max and
 * min: a greater (smaller) value or a NaN goes through. The compilers' cost models leave these
 * selects scalar: v128 by hand. */
static void max_row_f32(float* restrict acc, int32_t* restrict from, const float* restrict x, int32_t row, size_t m) {
  size_t e = 0;
#ifdef __wasm_simd128__
  for (const v128_t r = wasm_i32x4_splat(row); e + 4 <= m; e += 4) {
    v128_t a = wasm_v128_load(acc + e), v = wasm_v128_load(x + e), gt = wasm_f32x4_gt(v, a);
    wasm_v128_store(acc + e, wasm_v128_bitselect(v, a, gt));
    wasm_v128_store(from + e, wasm_v128_bitselect(r, wasm_v128_load(from + e), gt));
  }
#endif
  for (; e < m; ++e) {
    int gt = x[e] > acc[e];
    acc[e] = gt ? x[e] : acc[e];
    from[e] = gt ? row : from[e];
  }
}
static void max_row_f64(double* restrict acc, int32_t* restrict from, const double* restrict x, int32_t row, size_t m) {
  size_t e = 0;
#ifdef __wasm_simd128__
  for (const v128_t r = wasm_i32x4_splat(row); e + 2 <= m; e += 2) {
    v128_t a = wasm_v128_load(acc + e), v = wasm_v128_load(x + e), gt = wasm_f64x2_gt(v, a);
    wasm_v128_store(acc + e, wasm_v128_bitselect(v, a, gt));
    v128_t gt32 = wasm_i32x4_shuffle(gt, gt, 0, 2, 0, 2), f = wasm_v128_load64_zero(from + e);
    wasm_v128_store64_lane(from + e, wasm_v128_bitselect(r, f, gt32), 0);
  }
#endif
  for (; e < m; ++e) {
    int gt = x[e] > acc[e];
    acc[e] = gt ? x[e] : acc[e];
    from[e] = gt ? row : from[e];
  }
}
/* sign 1: max, -1: min */
static void extreme_row_f32(float* restrict acc, const float* restrict x, int sign, size_t m) {
  size_t e = 0;
#ifdef __wasm_simd128__
  for (; e + 4 <= m; e += 4) {
    v128_t a = wasm_v128_load(acc + e), v = wasm_v128_load(x + e);
    v128_t wins = wasm_v128_or(sign > 0 ? wasm_f32x4_gt(v, a) : wasm_f32x4_lt(v, a), wasm_f32x4_ne(v, v));
    wasm_v128_store(acc + e, wasm_v128_bitselect(v, a, wins));
  }
#endif
  for (; e < m; ++e) acc[e] = x[e] != x[e] || (sign > 0 ? x[e] > acc[e] : x[e] < acc[e]) ? x[e] : acc[e];
}
static void extreme_row_f64(double* restrict acc, const double* restrict x, int sign, size_t m) {
  size_t e = 0;
#ifdef __wasm_simd128__
  for (; e + 2 <= m; e += 2) {
    v128_t a = wasm_v128_load(acc + e), v = wasm_v128_load(x + e);
    v128_t wins = wasm_v128_or(sign > 0 ? wasm_f64x2_gt(v, a) : wasm_f64x2_lt(v, a), wasm_f64x2_ne(v, v));
    wasm_v128_store(acc + e, wasm_v128_bitselect(v, a, wins));
  }
#endif
  for (; e < m; ++e) acc[e] = x[e] != x[e] || (sign > 0 ? x[e] > acc[e] : x[e] < acc[e]) ? x[e] : acc[e];
}

/* The group into a chunk of T (apply_f32, apply_f64: the group's values xs, the row kernels
 * *_SUFFIX), by the reduction; float32's weighted sums without padding are fused multiply-adds. */
#define DEFINE_APPLY(T, SUFFIX, xs, FUSED)                                                        \
  static void apply_##SUFFIX(const wg_bag_job* t, chunk* k, T* restrict acc, const group* g) {   \
    const size_t m = k->m;                                                                     \
    size_t j = 0;                                                                              \
    switch (t->reduce) {                                                                       \
      case WG_REDUCE_MAX:                                                                      \
      case WG_REDUCE_MIN:                                                                      \
        if (!t->bag_max) {                                                                     \
          for (; j < g->n; ++j) extreme_row_##SUFFIX(acc, g->xs[j], t->reduce == WG_REDUCE_MAX ? 1 : -1, m); \
          return;                                                                              \
        }                                                                                      \
        if (k->count == 0) { /* a bag's first row, as it is */                                 \
          memcpy(acc, g->xs[0], m * sizeof *acc);                                              \
          for (size_t e = 0; e < m; ++e) k->from[e] = g->row[0];                               \
          j = 1;                                                                               \
        }                                                                                      \
        for (; j < g->n; ++j) max_row_##SUFFIX(acc, k->from, g->xs[j], g->row[j], m);           \
        return;                                                                                \
      case WG_REDUCE_MUL:                                                                      \
        for (; j < g->n; ++j) {                                                                \
          const T* x = g->xs[j];                                                               \
          for (size_t e = 0; e < m; ++e) acc[e] = acc[e] * x[e];                               \
        }                                                                                      \
        return;                                                                                \
      default:                                                                                 \
        if (FUSED && t->fused) {                                                               \
          fma_rows((float*)(void*)acc, g, m);                                                  \
        } else if (t->weighted && g->n == GROUP) { /* w * x rounded, then added, row by row */ \
          const T *restrict x0 = g->xs[0], *restrict x1 = g->xs[1], *restrict x2 = g->xs[2];  \
          const T *restrict x3 = g->xs[3], *restrict x4 = g->xs[4], *restrict x5 = g->xs[5];  \
          const T *restrict x6 = g->xs[6], *restrict x7 = g->xs[7];                           \
          const T w0 = (T)g->w[0], w1 = (T)g->w[1], w2 = (T)g->w[2], w3 = (T)g->w[3];          \
          const T w4 = (T)g->w[4], w5 = (T)g->w[5], w6 = (T)g->w[6], w7 = (T)g->w[7];          \
          for (size_t e = 0; e < m; ++e) {                                                     \
            T a = (((acc[e] + w0 * x0[e]) + w1 * x1[e]) + w2 * x2[e]) + w3 * x3[e];            \
            acc[e] = (((a + w4 * x4[e]) + w5 * x5[e]) + w6 * x6[e]) + w7 * x7[e];              \
          }                                                                                    \
        } else if (t->weighted) {                                                              \
          for (; j < g->n; ++j) {                                                              \
            const T* x = g->xs[j];                                                             \
            const T w = (T)g->w[j];                                                            \
            for (size_t e = 0; e < m; ++e) acc[e] = acc[e] + w * x[e];                         \
          }                                                                                    \
        } else if (g->n == GROUP) { /* each element adds the rows in order */                  \
          const T *restrict x0 = g->xs[0], *restrict x1 = g->xs[1], *restrict x2 = g->xs[2];  \
          const T *restrict x3 = g->xs[3], *restrict x4 = g->xs[4], *restrict x5 = g->xs[5];  \
          const T *restrict x6 = g->xs[6], *restrict x7 = g->xs[7];                           \
          for (size_t e = 0; e < m; ++e) {                                                     \
            acc[e] = (((((((acc[e] + x0[e]) + x1[e]) + x2[e]) + x3[e]) + x4[e]) + x5[e]) + x6[e]) + x7[e]; \
          }                                                                                    \
        } else {                                                                               \
          for (; j < g->n; ++j) {                                                              \
            const T* x = g->xs[j];                                                             \
            for (size_t e = 0; e < m; ++e) acc[e] = acc[e] + x[e];                             \
          }                                                                                    \
        }                                                                                      \
    }                                                                                          \
  }
DEFINE_APPLY(float, f32, xf, 1)
DEFINE_APPLY(double, f64, xd, 0)
#undef DEFINE_APPLY

/* acc[e] = acc[e] + x[j * stride + e] for the n rows j in order, m columns: consecutive rows of
 * data (a segment's), their columns 16 at a time in v128 accumulators straight down the rows
 * (no group to set up: the narrow rows of many short segments are what it is for), the rest one
 * by one. */
static void sum_rows_f32(float* restrict acc, const float* x, size_t stride, size_t n, size_t m) {
  size_t e = 0;
#ifdef __wasm_simd128__
  for (; e + 16 <= m; e += 16) {
    v128_t a0 = wasm_v128_load(acc + e), a1 = wasm_v128_load(acc + e + 4);
    v128_t a2 = wasm_v128_load(acc + e + 8), a3 = wasm_v128_load(acc + e + 12);
    for (const float* p = x + e; p < x + e + n * stride; p += stride) {
      a0 = wasm_f32x4_add(a0, wasm_v128_load(p));
      a1 = wasm_f32x4_add(a1, wasm_v128_load(p + 4));
      a2 = wasm_f32x4_add(a2, wasm_v128_load(p + 8));
      a3 = wasm_f32x4_add(a3, wasm_v128_load(p + 12));
    }
    wasm_v128_store(acc + e, a0);
    wasm_v128_store(acc + e + 4, a1);
    wasm_v128_store(acc + e + 8, a2);
    wasm_v128_store(acc + e + 12, a3);
  }
#endif
  for (; e < m; ++e) {
    float a = acc[e];
    for (size_t j = 0; j < n; ++j) a = a + x[j * stride + e];
    acc[e] = a;
  }
}

/* A group of a block-quantized table's rows into acc: summed as they are dequantized where the
 * job has a sum kernel and no row is a row of zeros, else dequantized into tmp first. */
static void apply_quant(const wg_bag_job* t, chunk* k, float* acc, group* g, float (*tmp)[WG_BAG_CHUNK]) {
  const wg_dequant_job* q = &t->quant;
  int zero_row = 0;
  for (size_t i = 0; i < g->n; ++i) zero_row |= g->row[i] < 0;
  if (t->quant_sum && !zero_row) {
    const uint8_t* codes[GROUP];
    const float* scales[GROUP];
    /* the chunk starts on 16 columns, so on a block or 16 columns into one: at most 17 blocks */
    int32_t zps[GROUP * (WG_BAG_CHUNK / 16 + 1)];
    const size_t phase = k->e0 % q->block, nb = (phase + k->m + q->block - 1) / q->block, per = 8 / q->bits;
    for (size_t i = 0; i < g->n; ++i) {
      const size_t r = (size_t)g->row[i], s0 = r * q->nblk + k->e0 / q->block; /* the chunk's first block */
      codes[i] = q->data + (r * t->inner + k->e0) / per; /* on a byte: the plan's rule */
      scales[i] = (const float*)q->scales + s0;
      wg_dequant_zero_points(q, s0, nb, zps + i * nb);
    }
    t->quant_sum(acc, k->m, g->n, codes, scales, zps, q->block, phase);
    return;
  }
  for (size_t i = 0; i < g->n; ++i) g->xf[i] = load_f32(t, g->row[i] < 0 ? WG_ZERO_BLOCK : (size_t)g->row[i], k->e0, k->m, tmp[i]);
  apply_f32(t, k, acc, g);
}

/* A group into the chunk's accumulators, by their type. */
static void apply_group(const wg_bag_job* t, chunk* k, void* acc, group* g, float (*tmp)[WG_BAG_CHUNK]) {
  if (t->value == WG_BAG_F64) apply_f64(t, k, acc, g);
  else if (t->value == WG_BAG_QUANT) apply_quant(t, k, acc, g, tmp);
  else apply_f32(t, k, acc, g);
}

/* What a mean or sqrtn divides by (1: nothing). */
static double divisor(const wg_bag_job* t, const chunk* k) {
  int f64 = t->value == WG_BAG_F64;
  if (t->reduce == WG_REDUCE_MEAN) return t->weighted ? k->wsum : (double)k->count;
  if (t->reduce != WG_REDUCE_SQRTN) return 1;
  double r = sqrt(t->weighted ? k->w2sum : (double)k->count);
  return f64 ? r : (double)(float)r;
}

/* The output's type from a float32 accumulator. */
static void store_f32(const wg_bag_job* t, uint8_t* dst, const float* v, size_t m) {
  wg_scale_type type = t->value == WG_BAG_QUANT ? t->quant.scale_type
                       : t->value == WG_BAG_F16 ? WG_SCALE_F16
                       : t->value == WG_BAG_BF16 ? WG_SCALE_BF16 : WG_SCALE_F32;
  if (type == WG_SCALE_F32) {
    memcpy(dst, v, m * sizeof *v);
    return;
  }
  for (size_t e = 0; e < m; ++e) {
    uint16_t h = type == WG_SCALE_F16 ? wg_f32_to_f16(v[e]) : wg_f32_to_bf16(v[e]);
    memcpy(dst + 2 * e, &h, 2);
  }
}

/* A half type's rounding of a float32 (the mean of a float16 sum is of the sum rounded). */
static float round_half(const wg_bag_job* t, float v) {
  wg_scale_type type = t->value == WG_BAG_QUANT ? t->quant.scale_type
                       : t->value == WG_BAG_F16 ? WG_SCALE_F16
                       : t->value == WG_BAG_BF16 ? WG_SCALE_BF16 : WG_SCALE_F32;
  if (type == WG_SCALE_F16) return wg_f16_to_f32(wg_f32_to_f16(v));
  if (type == WG_SCALE_BF16) return wg_bf16_to_f32(wg_f32_to_bf16(v));
  return v;
}

/* Output row q (outer o, segment s), columns of chunk k: 0 at a bad index. */
static int reduce_chunk(const wg_bag_job* t, size_t o, size_t s, chunk* k) {
  const int f64 = t->value == WG_BAG_F64;
  union {
    float f[WG_BAG_CHUNK];
    double d[WG_BAG_CHUNK];
  } acc;
  float tmp[GROUP][WG_BAG_CHUNK]; /* converted values (16-bit floats, quantized codes) */
  size_t rows[WG_SEGMENT];
  group g;
  g.n = 0;
  const size_t m = k->m, start = t->form == WG_SEGMENTS_FIXED ? s * t->fixed : t->starts[s];
  const size_t end = t->form == WG_SEGMENTS_FIXED ? start + t->fixed : t->starts[s + 1];
  /* the start: initial, or the reduction's identity (a bag's max takes its first row) */
  double first = t->has_initial ? t->initial
                 : t->reduce == WG_REDUCE_MUL ? 1
                 : t->reduce == WG_REDUCE_MAX ? -INFINITY
                 : t->reduce == WG_REDUCE_MIN ? INFINITY : 0;
  for (size_t e = 0; e < m; ++e) {
    if (f64) acc.d[e] = first;
    else acc.f[e] = (float)first;
    k->from[e] = 0;
  }
  k->count = 0;
  k->wsum = k->w2sum = 0;
  /* data's own entries (float32 or float64): consecutive rows, nothing to resolve; a float32 sum
   * straight down the rows, else in groups */
  const int straight = !t->gathers && !f64 && (t->reduce == WG_REDUCE_ADD || t->reduce == WG_REDUCE_MEAN);
  if (straight) {
    sum_rows_f32(acc.f, (const float*)(const void*)t->data + (o * t->entries + start) * t->inner + k->e0, t->inner,
                 end - start, m);
    k->count += end - start;
  }
  for (size_t j = start; !t->gathers && !straight && j < end; j += g.n) {
    g.n = end - j < GROUP ? end - j : GROUP;
    size_t p = (o * t->entries + j) * t->inner + k->e0;
    for (size_t i = 0; i < g.n; ++i, p += t->inner) {
      if (f64) g.xd[i] = (const double*)(const void*)t->data + p;
      else g.xf[i] = (const float*)(const void*)t->data + p;
    }
    apply_group(t, k, &acc, &g, tmp);
    k->count += g.n;
  }
  if (!t->gathers) g.n = 0;
  /* the table's rows that the indices select */
  for (size_t j = t->gathers ? start : end; j < end;) {
    size_t n = end - j < WG_SEGMENT ? end - j : WG_SEGMENT;
    if (!rows_of(t, j, n, rows)) return 0;
    for (size_t i = 0; i < n; ++i) {
      size_t r = rows[i];
      if (t->has_padding && r == t->padding) continue;
      double w = t->weighted ? weight_of(t, j + i) : 1;
      if (t->weighted) { /* what a mean or sqrtn divides by, summed as the rows are */
        if (f64) {
          k->wsum += w;
          k->w2sum = k->w2sum + w * w;
        } else {
          k->wsum = (float)((float)k->wsum + (float)w);
          k->w2sum = t->fused ? wg_fma32((float)w, (float)w, (float)k->w2sum)
                              : (float)((float)k->w2sum + (float)((float)w * (float)w));
        }
      }
      g.w[g.n] = w;
      g.row[g.n] = r == WG_ZERO_BLOCK ? -1 : (int32_t)r;
      if (f64) g.xd[g.n] = r == WG_ZERO_BLOCK ? zeros_f64 : (const double*)(const void*)t->data + r * t->inner + k->e0;
      else if (t->value != WG_BAG_QUANT) g.xf[g.n] = load_f32(t, r, k->e0, m, tmp[g.n]);
      if (++g.n == GROUP) { /* a quantized table's rows are read as the group is applied */
        apply_group(t, k, &acc, &g, tmp);
        k->count += g.n;
        g.n = 0;
      }
    }
    j += n;
  }
  if (g.n) {
    apply_group(t, k, &acc, &g, tmp);
    k->count += g.n;
  }
  uint8_t* dst = t->out + ((o * t->bags + s) * t->inner + k->e0) * t->out_size;
  const int divides = t->reduce == WG_REDUCE_MEAN || t->reduce == WG_REDUCE_SQRTN;
  if (k->count == 0 && t->empty_zero) { /* no entries, or only padding */
    memset(dst, 0, m * t->out_size);
    if (t->out_indices) memset(t->out_indices + (o * t->bags + s) * t->inner + k->e0, 0, m * 4);
    return 1;
  }
  if (divides) {
    if (k->count == 0) { /* a segment's empty mean (torch): its start with initial, else NaN */
      for (size_t e = 0; e < m; ++e) {
        if (f64) acc.d[e] = t->has_initial ? acc.d[e] : NAN;
        else acc.f[e] = t->has_initial ? acc.f[e] : NAN;
      }
    } else {
      double by = divisor(t, k);
      for (size_t e = 0; e < m; ++e) {
        if (f64) acc.d[e] = acc.d[e] / by;
        else acc.f[e] = (float)((double)round_half(t, acc.f[e]) / by);
      }
    }
  }
  if (f64) memcpy(dst, acc.d, m * sizeof(double));
  else store_f32(t, dst, acc.f, m);
  if (t->out_indices) memcpy(t->out_indices + (o * t->bags + s) * t->inner + k->e0, k->from, m * 4);
  return 1;
}

static int run_bags(void* ctx, size_t start, size_t n) {
  const wg_bag_job* t = ctx;
  chunk k;
  for (size_t q = start; q < start + n; ++q) {
    size_t o = q / t->bags, s = q % t->bags;
    for (k.e0 = 0; k.e0 < t->inner; k.e0 += k.m) {
      k.m = t->inner - k.e0 < WG_BAG_CHUNK ? t->inner - k.e0 : WG_BAG_CHUNK;
      if (!reduce_chunk(t, o, s, &k)) return 0;
    }
  }
  return 1;
}

static void bind_bags(void* ctx, const wg_call* c, size_t threads) {
  (void)threads;
  wg_bag_job* t = ctx;
  t->data = c->tensors[WG_TENSOR_data].ptr;
  t->out = c->tensors[WG_TENSOR_out].ptr;
  t->out_indices = t->return_indices ? c->tensors[WG_TENSOR_out_indices].ptr : NULL;
  t->starts = c->tensors[WG_TENSOR_workspace].ptr;
  t->segments = c->tensors[WG_TENSOR_segments].ptr;
  t->segments_type = (wg_index_type)wg_index_type_of(c->tensors[WG_TENSOR_segments].dtype);
  t->weights = t->weighted ? c->tensors[WG_TENSOR_weights].ptr : NULL;
  if (t->gathers) {
    t->indices = c->tensors[WG_TENSOR_indices].ptr;
    t->index_type = (wg_index_type)wg_index_type_of(c->tensors[WG_TENSOR_indices].dtype);
    t->mode = (wg_oob_mode)c->attrs[WG_ATTR_out_of_range];
    t->negative = (wg_negative_mode)c->attrs[WG_ATTR_negative_indices];
  }
  if (t->value == WG_BAG_QUANT) wg_dequant_bind(&t->quant, c);
  if (t->has_initial) {
    const void* v = c->tensors[WG_TENSOR_initial].ptr;
    if (!v) t->initial = 0;
    else if (t->value == WG_BAG_F64) memcpy(&t->initial, v, sizeof(double));
    else {
      float f;
      memcpy(&f, v, sizeof f);
      t->initial = f;
    }
  }
}

const wg_stage_kind wg_stage_bag = {bind_bags, run_bags, WG_STAGE_IN_RUN, NULL};

/* ---- the segments: their rules, and the starts they give ---- */

static wg_status segment_fail(wg_error_info* err, wg_segment_rule rule, size_t position, int64_t value,
                              int64_t limit) {
  wg_status st = wg_fail(err, WG_ERR_SEGMENTS, WG_ARG_SEGMENTS, rule, value, limit);
  if (err) err->position = (int64_t)position;
  return st;
}

/* Segment value p as a signed number (a uint64 above INT64_MAX reads as INT64_MAX: past any end). */
static int64_t segment_value(const wg_bag_job* t, size_t p) {
  int neg;
  uint64_t v = wg_load_index(t->segments, t->segments_type, p, &neg);
  return neg ? (int64_t)v : v > INT64_MAX ? INT64_MAX : (int64_t)v;
}

/* The segment ids form's scan (bag_validate): the last id, the next segment whose start is not
 * yet written, the first id not below num_segments. */
typedef struct id_scan {
  int64_t prev;
  size_t s, beyond;
} id_scan;

/* Id v at position p, not the one before it: its rules, and the starts of the segments up to
 * it. 0 with *st set when it breaks one. An id past num_segments is reported after the scan:
 * ids out of order anywhere say more (the default count is the last id + 1: [1, 0] is unsorted,
 * not an id past it). */
static int id_step(const wg_bag_job* t, size_t* starts, id_scan* k, size_t p, int64_t v, wg_status* st,
                   wg_error_info* err) {
  if (v < 0) return *st = segment_fail(err, WG_SEGMENT_NEGATIVE, p, v, 0), 0;
  if (v < k->prev) return *st = segment_fail(err, WG_SEGMENT_DECREASING, p, v, k->prev), 0;
  k->prev = v;
  if ((uint64_t)v >= t->bags) {
    if (k->beyond == SIZE_MAX) k->beyond = p;
    return 1;
  }
  while (k->s <= (size_t)v) starts[k->s++] = p;
  return 1;
}

/* The scan of 32-bit ids (int32, or uint32 where u): the ids where one changes from the one
 * before found sixteen at a time as a bitmask (most repeat it), each taken by id_step as the
 * other types' scan takes it. 0 with *st set at an id that breaks a rule. */
static int scan_ids32(const wg_bag_job* t, size_t* starts, id_scan* k, int u, wg_status* st, wg_error_info* err) {
  const int32_t* q = t->segments;
  const size_t len = t->segments_len;
#define ID32(p) (u ? (int64_t)(uint32_t)q[p] : (int64_t)q[p])
  if (!id_step(t, starts, k, 0, ID32(0), st, err)) return 0;
  size_t p = 1;
#ifdef __wasm_simd128__
  for (; p < len && len - p >= 16; p += 16) {
    const v128_t d0 = wasm_i32x4_ne(wasm_v128_load(q + p), wasm_v128_load(q + p - 1));
    const v128_t d1 = wasm_i32x4_ne(wasm_v128_load(q + p + 4), wasm_v128_load(q + p + 3));
    const v128_t d2 = wasm_i32x4_ne(wasm_v128_load(q + p + 8), wasm_v128_load(q + p + 7));
    const v128_t d3 = wasm_i32x4_ne(wasm_v128_load(q + p + 12), wasm_v128_load(q + p + 11));
    uint32_t bits = wasm_i32x4_bitmask(d0) | wasm_i32x4_bitmask(d1) << 4 | wasm_i32x4_bitmask(d2) << 8 |
                    wasm_i32x4_bitmask(d3) << 12;
    for (; bits; bits &= bits - 1) {
      const size_t c = p + (size_t)__builtin_ctz(bits);
      if (!id_step(t, starts, k, c, ID32(c), st, err)) return 0;
    }
  }
#endif
  for (; p < len; ++p) {
    if (q[p] != q[p - 1] && !id_step(t, starts, k, p, ID32(p), st, err)) return 0;
  }
#undef ID32
  return 1;
}

wg_status wg_bag_check_segments(const wg_bag_job* t, wg_error_info* err) {
  size_t* starts = t->starts;
  const int64_t n = (int64_t)t->entries;
  if (t->form == WG_SEGMENTS_FIXED || !t->segments_len) {
    if (t->form != WG_SEGMENTS_FIXED && starts) starts[0] = 0;
    if (t->form == WG_SEGMENTS_LENGTHS || t->form == WG_SEGMENTS_IDS) {
      if (t->exact_end && n != 0 && t->form == WG_SEGMENTS_LENGTHS) return segment_fail(err, WG_SEGMENT_COVER, 0, 0, n);
    }
    if (t->form == WG_SEGMENTS_IDS && starts) {
      for (size_t s = 0; s <= t->bags; ++s) starts[s] = 0;
    }
    return WG_OK;
  }
  if (!t->segments || !starts) return wg_fail(err, WG_ERR_INVALID_ARGUMENT, WG_ARG_SEGMENTS, -1, -1, -1);
  switch (t->form) {
    case WG_SEGMENTS_OFFSETS:
    case WG_SEGMENTS_BOUNDS: {
      int64_t prev = 0;
      for (size_t p = 0; p < t->segments_len; ++p) {
        int64_t v = segment_value(t, p);
        if (p == 0 && v != 0) return segment_fail(err, WG_SEGMENT_FIRST, p, v, 0);
        if (v < prev) return segment_fail(err, WG_SEGMENT_DECREASING, p, v, prev);
        if (v > n) return segment_fail(err, WG_SEGMENT_PAST_END, p, v, n);
        starts[p] = (size_t)v;
        prev = v;
      }
      if (t->form == WG_SEGMENTS_OFFSETS) starts[t->bags] = (size_t)n;
      else if (t->exact_end && prev != n) return segment_fail(err, WG_SEGMENT_COVER, t->segments_len - 1, prev, n);
      return WG_OK;
    }
    case WG_SEGMENTS_LENGTHS: {
      int64_t at = 0;
      starts[0] = 0;
      for (size_t p = 0; p < t->segments_len; ++p) {
        int64_t v = segment_value(t, p);
        if (v < 0) return segment_fail(err, WG_SEGMENT_NEGATIVE, p, v, 0);
        if (v > n - at) return segment_fail(err, WG_SEGMENT_COVER, p, v > INT64_MAX - at ? INT64_MAX : at + v, n);
        at += v;
        starts[p + 1] = (size_t)at;
      }
      if (at != n) return segment_fail(err, WG_SEGMENT_COVER, t->segments_len - 1, at, n);
      return WG_OK;
    }
    default: { /* WG_SEGMENTS_IDS: segment s starts at the first entry whose id is at least s */
      id_scan k = {.prev = INT64_MIN, .s = 0, .beyond = SIZE_MAX};
      wg_status st = WG_OK;
      const size_t len = t->segments_len;
      /* a loop per index type, most ids repeating the one before: 32-bit ids sixteen at a time
       * (scan_ids32), 64-bit ones four at a time one compare */
#define SCAN_IDS(T, LOAD)                                                        \
  for (size_t p = 0; p < len;) {                                                 \
    const T* q = (const T*)t->segments + p;                                      \
    if (p > 0 && len - p >= 4 &&                                                 \
        ((LOAD(q[0]) ^ k.prev) | (LOAD(q[1]) ^ k.prev) | (LOAD(q[2]) ^ k.prev) | \
         (LOAD(q[3]) ^ k.prev)) == 0) {                                          \
      p += 4; /* four more of the same segment */                                \
      continue;                                                                  \
    }                                                                            \
    int64_t v = LOAD(q[0]);                                                      \
    if ((v != k.prev || p == 0) && !id_step(t, starts, &k, p, v, &st, err)) return st; \
    ++p;                                                                         \
  }
#define U64_AS_I64(x) ((x) > INT64_MAX ? INT64_MAX : (int64_t)(x))
      switch (t->segments_type) {
        case WG_INDEX_I32:
        case WG_INDEX_U32:
          if (!scan_ids32(t, starts, &k, t->segments_type == WG_INDEX_U32, &st, err)) return st;
          break;
        case WG_INDEX_I64: SCAN_IDS(int64_t, (int64_t)) break;
        default: SCAN_IDS(uint64_t, U64_AS_I64)
      }
#undef SCAN_IDS
#undef U64_AS_I64
      if (k.beyond != SIZE_MAX) {
        return segment_fail(err, WG_SEGMENT_ID_RANGE, k.beyond, segment_value(t, k.beyond), (int64_t)t->bags);
      }
      while (k.s <= t->bags) starts[k.s++] = len;
      return WG_OK;
    }
  }
}

/* Checks the bound segments and writes their starts into the workspace (plan->validate). */
static wg_status bag_validate(const wg_plan* plan, const wg_call* c, wg_error_info* err) {
  (void)c;
  return wg_bag_check_segments(plan->stages[0].job, err);
}

wg_status wg_bag_segments(const wg_call* c, wg_bag_job* t, wg_error_info* err) {
  const wg_tensor* seg = &c->tensors[WG_TENSOR_segments];
  t->segments_len = 0;
  if (t->form == WG_SEGMENTS_FIXED) {
    if (seg->dtype != WG_DTYPE_NONE) return wg_fail(err, WG_ERR_SEGMENTS, WG_ARG_SEGMENTS, WG_SEGMENT_FORM, t->form, -1);
    return WG_OK;
  }
  if (t->form < WG_SEGMENTS_FIXED || t->form > WG_SEGMENTS_IDS || seg->dtype == WG_DTYPE_NONE ||
      seg->rank != 1 || wg_index_type_of(seg->dtype) < 0) {
    return wg_fail(err, WG_ERR_SEGMENTS, WG_ARG_SEGMENTS, WG_SEGMENT_FORM, t->form, (int64_t)seg->rank);
  }
  size_t len = seg->shape[0];
  t->segments_len = len;
  switch (t->form) {
    case WG_SEGMENTS_OFFSETS:
    case WG_SEGMENTS_LENGTHS: t->bags = len; break;
    case WG_SEGMENTS_BOUNDS:
      if (len < 1) return wg_fail(err, WG_ERR_SEGMENTS, WG_ARG_SEGMENTS, WG_SEGMENT_COUNT, 0, 1);
      t->bags = len - 1;
      break;
    default: {
      int32_t num = c->attrs[WG_ATTR_num_segments];
      if (len != t->entries) {
        return wg_fail(err, WG_ERR_SEGMENTS, WG_ARG_SEGMENTS, WG_SEGMENT_COUNT, (int64_t)len, (int64_t)t->entries);
      }
      if (num < 0) return wg_fail(err, WG_ERR_SEGMENTS, WG_ARG_SEGMENTS, WG_SEGMENT_NEGATIVE, num, 0);
      /* the starts' workspace, (num + 1) * sizeof(size_t) bytes, must not wrap (wasm32: from 2^30) */
      if ((size_t)num >= SIZE_MAX / sizeof(size_t)) return wg_fail(err, WG_ERR_SIZE_OVERFLOW, WG_ARG_SEGMENTS, -1, num, -1);
      t->bags = (size_t)num;
    }
  }
  return WG_OK;
}

wg_status wg_bag_indices(const wg_call* c, wg_bag_job* t, wg_error_info* err) {
  const wg_tensor* indices = &c->tensors[WG_TENSOR_indices];
  t->form = c->attrs[WG_ATTR_segment_form];
  size_t want_rank = t->form == WG_SEGMENTS_FIXED ? 2 : 1;
  if (indices->rank != want_rank || t->form == WG_SEGMENTS_LENGTHS) {
    return wg_fail(err, WG_ERR_SEGMENTS, WG_ARG_SEGMENTS, WG_SEGMENT_FORM, t->form, (int64_t)indices->rank);
  }
  t->reduce = c->attrs[WG_ATTR_reduce];
  if (t->reduce != WG_REDUCE_ADD && t->reduce != WG_REDUCE_MEAN && t->reduce != WG_REDUCE_MAX &&
      t->reduce != WG_REDUCE_SQRTN) {
    return wg_fail(err, WG_ERR_REDUCE, WG_ARG_REDUCE, -1, t->reduce, -1);
  }
  t->entries = wg_prod(indices->shape, 0, indices->rank);
  t->outer = 1;
  t->gathers = 1;
  if (t->form == WG_SEGMENTS_FIXED) {
    t->bags = indices->shape[0];
    t->fixed = indices->shape[1];
  }
  return wg_bag_segments(c, t, err);
}

wg_status wg_bag_weights_padding(const wg_call* c, wg_bag_job* t, int32_t value_dtype, wg_error_info* err) {
  const wg_tensor* weights = &c->tensors[WG_TENSOR_weights];
  const wg_tensor* indices = &c->tensors[WG_TENSOR_indices];
  t->weighted = weights->dtype != WG_DTYPE_NONE;
  if (t->weighted) {
    if (t->reduce == WG_REDUCE_MAX) return wg_fail(err, WG_ERR_WEIGHTS, WG_ARG_WEIGHTS, -2, -1, -1);
    if (weights->dtype != value_dtype) return wg_fail(err, WG_ERR_WEIGHTS, WG_ARG_WEIGHTS, -3, weights->dtype, value_dtype);
    if (weights->rank != indices->rank) {
      return wg_fail(err, WG_ERR_WEIGHTS, WG_ARG_WEIGHTS, -1, (int64_t)weights->rank, (int64_t)indices->rank);
    }
    for (size_t d = 0; d < indices->rank; ++d) {
      if (weights->shape[d] != indices->shape[d]) {
        return wg_fail(err, WG_ERR_WEIGHTS, WG_ARG_WEIGHTS, (int64_t)d, (int64_t)weights->shape[d], (int64_t)indices->shape[d]);
      }
    }
  }
  t->has_padding = c->attrs[WG_ATTR_has_padding] != 0;
  if (t->has_padding) {
    int64_t pad = c->attrs[WG_ATTR_padding_idx]; /* an int32: -pad does not overflow */
    uint64_t rows = t->rows;                      /* compared unsigned: any size_t */
    if (pad >= 0 ? (uint64_t)pad >= rows : (uint64_t)-pad > rows) {
      return wg_fail(err, WG_ERR_PADDING_IDX, WG_ARG_NONE, -1, pad, rows > INT64_MAX ? INT64_MAX : (int64_t)rows);
    }
    t->padding = pad < 0 ? t->rows - (size_t)-pad : (size_t)pad;
  }
  return WG_OK;
}

void wg_plan_bag(wg_plan* plan, wg_bag_job* t) {
  if (t->form != WG_SEGMENTS_FIXED) {
    /* the starts; bags + 1 fits: a tensor's length plus one, or an int32 */
    plan->workspace_bytes = (t->bags + 1) * sizeof(size_t);
    plan->workspace_align = sizeof(size_t);
  }
  if (t->gathers) {
    plan->check = (wg_index_check){.depth = 1, .dim_sizes = &t->rows, .first_dim = 0};
  }
  /* a quantized table's unweighted sums (and means) summed as dequantized: 4- or 8-bit codes in
   * whole rows and blocks of 16 bytes' worth, the quantize axis last, float32 scales */
  const wg_dequant_job* q = &t->quant;
  const size_t step = q->bits ? 128 / q->bits : 0; /* columns in 16 bytes of codes */
  t->quant_sum = t->value == WG_BAG_QUANT && !t->weighted && q->scale_type == WG_SCALE_F32 && q->post == 1 &&
                         q->bits >= 4 && q->qlen == t->inner && t->inner % step == 0 && q->block % step == 0 &&
                         (t->reduce == WG_REDUCE_ADD || t->reduce == WG_REDUCE_MEAN || t->reduce == WG_REDUCE_SQRTN)
                     ? wg_pick_dequant_sum(q->bits, q->is_signed)
                     : NULL;
  plan->out_indices = t->return_indices;
  plan->validate = bag_validate;
  size_t items = t->inner ? t->outer * t->bags : 0; /* the output's rows: no overflow */
  wg_plan_stage(plan, &wg_stage_bag, t, items, wg_tile_for(t->inner * t->out_size));
}
