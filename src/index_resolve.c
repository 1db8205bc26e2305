#include "index_resolve.h"

#include <string.h>

/* Returns the position in [0, s) that index v (bits, sign) selects, or WG_ZERO_BLOCK, setting
 * *bad in error mode. wrap: whether a negative index counts from the end (WG_NEGATIVE_WRAP). */
static inline size_t resolve_one(uint64_t v, int neg, int wrap, size_t s, wg_oob_mode mode,
                                 int* bad) {
  uint64_t u = WG_POSITION(v, neg, wrap, s);
  if (u < (uint64_t)s) return (size_t)u;
  if (mode == WG_OOB_CLAMP && s > 0) return neg ? 0 : s - 1;
  if (mode == WG_OOB_ERROR) *bad = 1;
  return WG_ZERO_BLOCK;
}

/* One loop per index type (and, for signed types, negative policy), so the switch runs once
 * per call rather than once per index. The first loop is the common case (a plain offset from an
 * in-range index) with nothing else in it; the second takes over at the first index it cannot
 * handle. WRAP is 1 or 0: whether negatives count from the end. */
#define RESOLVE_LOOP(T, NEG, WRAP)                                                    \
  do {                                                                                \
    const T* src = (const T*)indices + first;                                         \
    size_t j = 0;                                                                     \
    if (!accumulate) {                                                                \
      for (; j < n; ++j) {                                                            \
        T x = src[j * stride];                                                        \
        uint64_t u = WG_POSITION(x, NEG(x), WRAP, dim_size);                          \
        if (u >= (uint64_t)dim_size) break;                                           \
        off[j] = base + (size_t)u * step;                                            \
      }                                                                               \
    }                                                                                 \
    for (; j < n; ++j) {                                                              \
      T x = src[j * stride];                                                          \
      size_t r = resolve_one((uint64_t)x, NEG(x), WRAP, dim_size, mode, &bad);        \
      if (bad) return WG_ERR_INDEX_OUT_OF_RANGE;                                      \
      size_t o;                                                                       \
      if (r == WG_ZERO_BLOCK || (accumulate && off[j] == WG_ZERO_BLOCK)) {            \
        o = WG_ZERO_BLOCK;                                                            \
      } else {                                                                        \
        o = (accumulate ? off[j] : base) + r * step;                                 \
      }                                                                               \
      off[j] = o;                                                                     \
    }                                                                                 \
  } while (0)
#define SIGNED_NEG(x) ((x) < 0)
#define UNSIGNED_NEG(x) 0

wg_status wg_resolve_indices(const void* indices, wg_index_type type, size_t first, size_t stride,
                             size_t n, size_t dim_size, size_t base, size_t step,
                             wg_oob_mode mode, wg_negative_mode negative, int accumulate,
                             size_t* off) {
  int bad = 0;
  int wrap = negative == WG_NEGATIVE_WRAP;
  switch (type) {
    case WG_INDEX_I32:
      if (wrap) RESOLVE_LOOP(int32_t, SIGNED_NEG, 1);
      else RESOLVE_LOOP(int32_t, SIGNED_NEG, 0);
      break;
    case WG_INDEX_U32: RESOLVE_LOOP(uint32_t, UNSIGNED_NEG, 1); break;
    case WG_INDEX_I64:
      if (wrap) RESOLVE_LOOP(int64_t, SIGNED_NEG, 1);
      else RESOLVE_LOOP(int64_t, SIGNED_NEG, 0);
      break;
    default: RESOLVE_LOOP(uint64_t, UNSIGNED_NEG, 1); break;
  }
  return WG_OK;
}

int wg_find_bad_index(const void* indices, wg_index_type type, wg_negative_mode negative,
                      size_t count, size_t depth, const size_t* dim_sizes, size_t first_dim,
                      wg_error_info* err) {
  int wrap = negative == WG_NEGATIVE_WRAP;
  for (size_t p = 0; p < count; ++p) {
    int bad = 0, neg;
    size_t k = depth > 1 ? p % depth : 0;
    uint64_t v = wg_load_index(indices, type, p, &neg);
    if (dim_sizes) resolve_one(v, neg, wrap, dim_sizes[k], WG_OOB_ERROR, &bad);
    else bad = neg;
    if (bad) {
      if (err) {
        err->arg = WG_ARG_INDICES;
        err->dim = (int64_t)(first_dim + k);
        err->position = (int64_t)p;
        err->limit = dim_sizes ? (int64_t)dim_sizes[k] : -1;
        memcpy(&err->value, &v, sizeof err->value); /* the value; for a uint64, its bits */
      }
      return 1;
    }
  }
  return 0;
}

/* Indices of one chunk compared with lo and hi (signed) or hi alone, a block at a time with no
 * branch inside, so that the compiler vectorizes the compares. */
#define RANGE_BLOCK 4096
#define RANGE_LOOP(T, BAD)                                              \
  do {                                                                  \
    const T* x = (const T*)indices + first;                             \
    for (size_t j = 0; j < n;) {                                        \
      size_t k = n - j < RANGE_BLOCK ? n - j : RANGE_BLOCK;             \
      int bad = 0;                                                      \
      for (size_t i = 0; i < k; ++i) bad |= BAD(x[j + i]);              \
      if (bad) return 0;                                                \
      j += k;                                                           \
    }                                                                   \
    return 1;                                                           \
  } while (0)

int wg_indices_in_range(const void* indices, wg_index_type type, wg_negative_mode negative,
                        size_t first, size_t n, size_t depth, const size_t* dim_sizes) {
  if (depth != 1) {
    size_t bytes = wg_index_bytes(type);
    return !wg_find_bad_index((const uint8_t*)indices + first * bytes, type, negative, n, depth,
                              dim_sizes, 0, NULL);
  }
  /* in range: [lo, hi], lo -s when negatives wrap (else 0), hi s - 1; no bound: hi the type's most */
  uint64_t s = dim_sizes ? (uint64_t)dim_sizes[0] : UINT64_MAX;
  if (s == 0) return n == 0;
  int wrap = dim_sizes && negative == WG_NEGATIVE_WRAP;
  uint64_t hi = dim_sizes ? s - 1 : UINT64_MAX;
  switch (type) {
    case WG_INDEX_I32: {
      int32_t h = hi > INT32_MAX ? INT32_MAX : (int32_t)hi;
      int32_t l = !wrap ? 0 : s > (uint64_t)INT32_MAX ? INT32_MIN : -(int32_t)s;
#define BAD_I32(v) (((v) < l) | ((v) > h))
      RANGE_LOOP(int32_t, BAD_I32);
    }
    case WG_INDEX_I64: {
      int64_t h = hi > INT64_MAX ? INT64_MAX : (int64_t)hi;
      int64_t l = !wrap ? 0 : s > (uint64_t)INT64_MAX ? INT64_MIN : -(int64_t)s;
#define BAD_I64(v) (((v) < l) | ((v) > h))
      RANGE_LOOP(int64_t, BAD_I64);
    }
    case WG_INDEX_U32: {
      uint32_t h = hi > UINT32_MAX ? UINT32_MAX : (uint32_t)hi;
#define BAD_U32(v) ((v) > h)
      RANGE_LOOP(uint32_t, BAD_U32);
    }
    default: {
#define BAD_U64(v) ((v) > hi)
      RANGE_LOOP(uint64_t, BAD_U64);
    }
  }
}

void wg_offsets_add_ramp(size_t* off, size_t n, size_t base, size_t step) {
  for (size_t j = 0; j < n; ++j) {
    if (off[j] != WG_ZERO_BLOCK) off[j] += base + j * step;
  }
}

int wg_index_type_valid(wg_index_type type) {
  return type == WG_INDEX_I32 || type == WG_INDEX_U32 || type == WG_INDEX_I64 ||
         type == WG_INDEX_U64;
}

int wg_oob_mode_valid(wg_oob_mode mode) {
  return mode == WG_OOB_ERROR || mode == WG_OOB_ZERO || mode == WG_OOB_CLAMP;
}

int wg_negative_mode_valid(int32_t negative) {
  return negative == WG_NEGATIVE_WRAP || negative == WG_NEGATIVE_ERROR;
}
