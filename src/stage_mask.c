#include "stage_mask.h"

#include <string.h>

#include "parallel.h"

/* Positions of true elements found a batch at a time (on the stack: a thread's is small). */
#define BATCH 64
/* Chunks: about a tile of output each where the mask is all true, within these bounds (a chunk's
 * count and offset are a word each of workspace; the prefix is serial over them). */
#define CHUNK_MIN 256
#define CHUNK_MAX (64 * 1024)

/* Mask element i (of `bytes` bytes) of m, its bits as a number. */
static uint64_t element(const uint8_t* m, size_t i, size_t bytes) {
  switch (bytes) {
    case 1: return m[i];
    case 2: { uint16_t v; memcpy(&v, m + 2 * i, 2); return v; }
    case 4: { uint32_t v; memcpy(&v, m + 4 * i, 4); return v; }
    default: { uint64_t v; memcpy(&v, m + 8 * i, 8); return v; }
  }
}

/* The bits of a mask element that count: all, or all but a float's sign bit. */
static uint64_t keep_bits(const wg_mask_job* j) {
  uint64_t all = j->mask_bytes == 8 ? ~(uint64_t)0 : ((uint64_t)1 << (8 * j->mask_bytes)) - 1;
  return j->mask_float ? all >> 1 : all;
}

#ifdef __wasm_simd128__
#include <wasm_simd128.h>
/* 16 bytes of mask a step: the kept bits of each element splatted, and the true elements of the
 * step at p (one lane-wise compare and a bitmask's popcount, whatever the width). */
static v128_t keep_vector(const wg_mask_job* j) {
  uint64_t keep = keep_bits(j);
  switch (j->mask_bytes) {
    case 1: return wasm_i8x16_splat((int8_t)keep);
    case 2: return wasm_i16x8_splat((int16_t)keep);
    case 4: return wasm_i32x4_splat((int32_t)keep);
    default: return wasm_i64x2_splat((int64_t)keep);
  }
}
static size_t count_step(const uint8_t* p, size_t bytes, v128_t keep) {
  v128_t v = wasm_v128_and(wasm_v128_load(p), keep), z = wasm_i64x2_splat(0);
  switch (bytes) {
    case 1: return (size_t)__builtin_popcount(wasm_i8x16_bitmask(wasm_i8x16_ne(v, z)));
    case 2: return (size_t)__builtin_popcount(wasm_i16x8_bitmask(wasm_i16x8_ne(v, z)));
    case 4: return (size_t)__builtin_popcount(wasm_i32x4_bitmask(wasm_i32x4_ne(v, z)));
    default: return (size_t)__builtin_popcount(wasm_i64x2_bitmask(wasm_i64x2_ne(v, z)));
  }
}
#endif

/* The true elements among mask elements [from, end). */
static size_t count_true(const wg_mask_job* j, size_t from, size_t end) {
  const size_t w = j->mask_bytes;
  const uint64_t keep = keep_bits(j);
  size_t n = 0;
#ifdef __wasm_simd128__
  const v128_t kv = keep_vector(j);
  for (const size_t step = 16 / w; end - from >= step; from += step) n += count_step(j->mask + from * w, w, kv);
#endif
#ifdef __clang__
#pragma clang loop vectorize(disable)
#endif
  for (; from < end; ++from) n += (element(j->mask, from, w) & keep) != 0;
  return n;
}

/* The true elements among mask elements [*at, end), at most max of them, into pos; *at moves
 * past the last element looked at. A step of 16 bytes with none is skipped at once. */
static size_t find_true(const wg_mask_job* j, size_t* at, size_t end, size_t* pos, size_t max) {
  const size_t w = j->mask_bytes;
  const uint64_t keep = keep_bits(j);
  size_t n = 0, i = *at;
#ifdef __wasm_simd128__
  const v128_t kv = keep_vector(j);
  const size_t step = 16 / w;
#endif
  while (i < end && n < max) {
#ifdef __wasm_simd128__
    if (end - i >= step && !wasm_v128_any_true(wasm_v128_and(wasm_v128_load(j->mask + i * w), kv))) {
      i += step;
      continue;
    }
#endif
    if (element(j->mask, i, w) & keep) pos[n++] = i;
    ++i;
  }
  *at = i;
  return n;
}

static size_t chunk_end(const wg_mask_job* j, size_t k) {
  return j->len - k * j->chunk < j->chunk ? j->len : (k + 1) * j->chunk;
}

/* 1. Each chunk's true elements. */
static int run_count(void* ctx, size_t start, size_t count) {
  wg_mask_job* j = ctx;
  for (size_t k = start; k < start + count; ++k) j->counts[k] = count_true(j, k * j->chunk, chunk_end(j, k));
  return 1;
}

/* 2. The counts into offsets, and the total (0: the source cannot fill it). */
static int run_prefix(void* ctx, size_t start, size_t count) {
  (void)start;
  (void)count;
  wg_mask_job* j = ctx;
  size_t sum = 0;
  for (size_t k = 0; k < j->nchunks; ++k) {
    size_t n = j->counts[k];
    j->counts[k] = sum;
    sum += n;
  }
  j->counts[j->nchunks] = sum;
  j->total = sum;
  return j->write != WG_MASK_SOURCE || sum <= j->source_len;
}

static void copy_item(uint8_t* dst, const uint8_t* src, size_t bytes) {
  switch (bytes) {
    case 1: *dst = *src; break;
    case 2: memcpy(dst, src, 2); break;
    case 4: memcpy(dst, src, 4); break;
    case 8: memcpy(dst, src, 8); break;
    default: memcpy(dst, src, bytes);
  }
}

/* Element k of the output's indices: v, as int32 or int64. */
static void put_index(uint8_t* out, size_t k, size_t width, size_t v) {
  if (width == 4) {
    int32_t x = (int32_t)v;
    memcpy(out + k * 4, &x, 4);
  } else {
    int64_t x = (int64_t)v;
    memcpy(out + k * 8, &x, 8);
  }
}

/* The true elements of chunk k written from its offset on: n of them at most (the count). */
static void write_chunk(const wg_mask_job* j, size_t o, size_t k) {
  size_t at = k * j->chunk, end = chunk_end(j, k), next = j->counts[k], last = j->counts[k + 1];
  const size_t ib = j->item_bytes;
  if (j->write == WG_MASK_SOURCE && j->out != j->data) memcpy(j->out + at * ib, j->data + at * ib, (end - at) * ib);
  size_t pos[BATCH];
  while (next < last && at < end) {
    size_t n = find_true(j, &at, end, pos, last - next < BATCH ? last - next : BATCH);
    for (size_t b = 0; b < n; ++b, ++next) {
      size_t p = pos[b];
      if (j->write == WG_MASK_SLICES) {
        copy_item(j->out + (o * j->total + next) * ib, j->data + (o * j->stride + p) * ib, ib);
      } else if (j->write == WG_MASK_SOURCE) {
        copy_item(j->out + p * ib, j->source + next * ib, ib);
      } else {
        for (size_t d = j->rank; d-- > 0;) {
          size_t v = p % j->shape[d];
          p /= j->shape[d];
          put_index(j->out, j->rows_first ? next * j->rank + d : d * j->total + next, ib, v);
        }
      }
    }
  }
}

/* 3. Items are chunks, or (block, chunk) pairs for slices. */
static int run_write(void* ctx, size_t start, size_t count) {
  const wg_mask_job* j = ctx;
  for (size_t q = start; q < start + count; ++q) write_chunk(j, q / j->nchunks, q % j->nchunks);
  return 1;
}

static void bind_mask(void* ctx, const wg_call* c, size_t threads) {
  (void)threads;
  wg_mask_job* j = ctx;
  j->mask = j->write == WG_MASK_COORDS ? c->tensors[WG_TENSOR_data].ptr : c->tensors[WG_TENSOR_mask].ptr;
  j->data = c->tensors[WG_TENSOR_data].ptr;
  j->source = c->tensors[WG_TENSOR_updates].ptr;
  j->out = c->tensors[WG_TENSOR_out].ptr;
  j->counts = c->tensors[WG_TENSOR_workspace].ptr;
}

const wg_stage_kind wg_stage_mask_count = {bind_mask, run_count, WG_STAGE_IN_RUN | WG_STAGE_COUNTS, NULL};
const wg_stage_kind wg_stage_mask_prefix = {bind_mask, run_prefix, WG_STAGE_IN_RUN | WG_STAGE_COUNTS, NULL};
const wg_stage_kind wg_stage_mask_write = {bind_mask, run_write, WG_STAGE_IN_RUN, NULL};

static int is_float(int32_t dtype) {
  return dtype == WG_DTYPE_F16 || dtype == WG_DTYPE_BF16 || dtype == WG_DTYPE_F32 || dtype == WG_DTYPE_F64;
}

static wg_status source_short(const wg_plan* plan, const wg_call* c, wg_error_info* err) {
  (void)c;
  const wg_mask_job* j = WG_CONTAINER_OF(plan->counted, const wg_mask_job, total);
  return wg_fail(err, WG_ERR_MASK_SOURCE, WG_ARG_UPDATES, -1, (int64_t)j->source_len, (int64_t)j->total);
}

wg_status wg_plan_mask(wg_plan* plan, wg_mask_job* j, const wg_tensor* mask, size_t count_dim,
                       wg_error_info* err) {
  j->mask_bytes = wg_elem_bytes(mask);
  if (!j->mask_bytes) return wg_fail(err, WG_ERR_MASK_SHAPE, WG_ARG_MASK, -3, mask->dtype, -1);
  j->mask_float = is_float(mask->dtype);
  /* a chunk's output about a tile where every element is true */
  size_t per = j->write == WG_MASK_COORDS ? j->rank * j->item_bytes : j->item_bytes;
  size_t chunk = WG_TILE_BYTES / (per ? per : 1);
  j->chunk = chunk < CHUNK_MIN ? CHUNK_MIN : chunk > CHUNK_MAX ? CHUNK_MAX : chunk;
  j->nchunks = j->len ? (j->len - 1) / j->chunk + 1 : 0;
  plan->workspace_bytes = (j->nchunks + 1) * sizeof(size_t);
  plan->workspace_align = alignof(size_t);
  plan->count_dim = count_dim;
  plan->counted = &j->total;
  if (j->write == WG_MASK_SOURCE) plan->stopped = source_short;
  /* what a run moves: the mask read twice, and a slice an element where every one is true */
  size_t blocks = j->write == WG_MASK_SLICES ? j->outer : 1;
  size_t each = 2 * j->mask_bytes + per;
  plan->work_bytes = j->len > SIZE_MAX / each / (blocks ? blocks : 1) ? SIZE_MAX : j->len * each * (blocks ? blocks : 1);
  size_t count_tile = WG_TILE_BYTES / (j->chunk * j->mask_bytes);
  wg_plan_stage(plan, &wg_stage_mask_count, j, j->nchunks, count_tile ? count_tile : 1);
  wg_plan_stage(plan, &wg_stage_mask_prefix, j, 1, 1);
  wg_plan_stage(plan, &wg_stage_mask_write, j, blocks * j->nchunks, 1);
  return WG_OK;
}
