#include "index_resolve.h"

#include <string.h>

/* Reads index p as int64. A uint64 above INT64_MAX is out of range for any tensor, so it is
 * saturated to INT64_MAX, which stays out of range (and clamps to s - 1). */
static inline int64_t load_index(const void* indices, wg_index_type type, size_t p) {
  switch (type) {
    case WG_INDEX_I32: return ((const int32_t*)indices)[p];
    case WG_INDEX_U32: return ((const uint32_t*)indices)[p];
    case WG_INDEX_I64: return ((const int64_t*)indices)[p];
    default: {
      uint64_t v = ((const uint64_t*)indices)[p];
      return v > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)v;
    }
  }
}

/* Returns the position in [0, s) that v selects, or WG_ZERO_BLOCK, setting *bad in error mode. */
static inline size_t resolve_one(int64_t v, size_t s, wg_oob_mode mode, int* bad) {
  if (v < 0) v += (int64_t)s; /* s <= SIZE_MAX < INT64_MAX on wasm32; tensor dims are far smaller */
  if (v >= 0 && (uint64_t)v < (uint64_t)s) return (size_t)v;
  if (mode == WG_OOB_CLAMP && s > 0) return v < 0 ? 0 : s - 1;
  if (mode == WG_OOB_ERROR) *bad = 1;
  return WG_ZERO_BLOCK;
}

/* One loop per index type, so the type switch runs once per call rather than once per index.
 * The first loop is the common case (a plain offset from an in-range index) with nothing else
 * in it; the second takes over at the first index it cannot handle. */
#define RESOLVE_LOOP(T, LOAD)                                                         \
  do {                                                                                \
    const T* src = (const T*)indices + first;                                         \
    size_t j = 0;                                                                     \
    if (!accumulate) {                                                                \
      for (; j < n; ++j) {                                                            \
        int64_t v = LOAD(src[j * stride]);                                            \
        if (v < 0) v += (int64_t)dim_size;                                            \
        if ((uint64_t)v >= (uint64_t)dim_size) break;                                 \
        off[j] = base + (size_t)v * scale;                                            \
      }                                                                               \
    }                                                                                 \
    for (; j < n; ++j) {                                                              \
      size_t r = resolve_one(LOAD(src[j * stride]), dim_size, mode, &bad);            \
      if (bad) return WG_ERR_INDEX_OUT_OF_RANGE;                                      \
      size_t o;                                                                       \
      if (r == WG_ZERO_BLOCK || (accumulate && off[j] == WG_ZERO_BLOCK)) {            \
        o = WG_ZERO_BLOCK;                                                            \
      } else {                                                                        \
        o = (accumulate ? off[j] : base) + r * scale;                                 \
      }                                                                               \
      off[j] = o;                                                                     \
    }                                                                                 \
  } while (0)
#define AS_I64(x) ((int64_t)(x))
#define SATURATE_U64(x) ((x) > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)(x))

wg_status wg_resolve_indices(const void* indices, wg_index_type type, size_t first, size_t stride,
                             size_t n, size_t dim_size, size_t base, size_t scale,
                             wg_oob_mode mode, int accumulate, size_t* off) {
  int bad = 0;
  switch (type) {
    case WG_INDEX_I32: RESOLVE_LOOP(int32_t, AS_I64); break;
    case WG_INDEX_U32: RESOLVE_LOOP(uint32_t, AS_I64); break;
    case WG_INDEX_I64: RESOLVE_LOOP(int64_t, AS_I64); break;
    default: RESOLVE_LOOP(uint64_t, SATURATE_U64); break;
  }
  return WG_OK;
}

int wg_find_bad_index(const void* indices, wg_index_type type, size_t count, size_t depth,
                      const size_t* dim_sizes, size_t first_dim, wg_error_info* err) {
  for (size_t p = 0; p < count; ++p) {
    int bad = 0;
    size_t k = depth > 1 ? p % depth : 0;
    resolve_one(load_index(indices, type, p), dim_sizes[k], WG_OOB_ERROR, &bad);
    if (bad) {
      if (err) {
        err->arg = WG_ARG_INDICES;
        err->dim = (int64_t)(first_dim + k);
        err->position = (int64_t)p;
        err->limit = (int64_t)dim_sizes[k];
        if (type == WG_INDEX_U64) {
          memcpy(&err->value, (const uint64_t*)indices + p, sizeof err->value);
        } else {
          err->value = load_index(indices, type, p);
        }
      }
      return 1;
    }
  }
  return 0;
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
