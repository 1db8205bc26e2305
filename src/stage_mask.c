#include "stage_mask.h"

#include <string.h>

#include "copy_kernels.h"
#include "parallel.h"

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
/* 16 bytes of mask a step, whatever the width: the kept bits of each element splatted, and the
 * step's true lanes as the bits of one lane-wise compare's bitmask. */
static v128_t keep_vector(const wg_mask_job* j) {
  uint64_t keep = keep_bits(j);
  switch (j->mask_bytes) {
    case 1: return wasm_i8x16_splat((int8_t)keep);
    case 2: return wasm_i16x8_splat((int16_t)keep);
    case 4: return wasm_i32x4_splat((int32_t)keep);
    default: return wasm_i64x2_splat((int64_t)keep);
  }
}
/* The true lanes of the 16 bytes at p, a bit each (lane order). */
static uint32_t step_bits(const uint8_t* p, size_t bytes, v128_t keep) {
  v128_t v = wasm_v128_and(wasm_v128_load(p), keep), z = wasm_i64x2_splat(0);
  switch (bytes) {
    case 1: return wasm_i8x16_bitmask(wasm_i8x16_ne(v, z));
    case 2: return wasm_i16x8_bitmask(wasm_i16x8_ne(v, z));
    case 4: return wasm_i32x4_bitmask(wasm_i32x4_ne(v, z));
    default: return wasm_i64x2_bitmask(wasm_i64x2_ne(v, z));
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
  for (const size_t step = 16 / w; end - from >= step; from += step) n += (size_t)__builtin_popcount(step_bits(j->mask + from * w, w, kv));
#endif
#ifdef __clang__
#pragma clang loop vectorize(disable)
#endif
  for (; from < end; ++from) n += (element(j->mask, from, w) & keep) != 0;
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

/* Each true element p of mask elements [at, end), in order, the n-th of the output from next on
 * (at most up to last: the count): BODY run with p and next. 16 bytes of mask a step, their true
 * lanes as bits, taken in order; the rest an element at a time. */
#ifdef __wasm_simd128__
#define FOR_EACH_TRUE(j, at, end, next, last, BODY)                                       \
  do {                                                                                     \
    const size_t w_ = (j)->mask_bytes, step_ = 16 / w_;                                    \
    const uint64_t keep_ = keep_bits(j);                                                   \
    const v128_t kv_ = keep_vector(j);                                                     \
    while ((at) < (end) && (next) < (last)) {                                              \
      size_t base_ = (at);                                                                 \
      uint32_t bits_;                                                                      \
      if ((end) - (at) >= step_) {                                                         \
        bits_ = step_bits((j)->mask + (at) * w_, w_, kv_);                                 \
        (at) += step_;                                                                     \
      } else {                                                                             \
        bits_ = (element((j)->mask, (at), w_) & keep_) != 0;                               \
        (at) += 1;                                                                         \
      }                                                                                    \
      for (; bits_ && (next) < (last); bits_ &= bits_ - 1, ++(next)) {                     \
        size_t p = base_ + (size_t)__builtin_ctz(bits_);                                   \
        BODY;                                                                              \
      }                                                                                    \
    }                                                                                      \
  } while (0)
#else
#define FOR_EACH_TRUE(j, at, end, next, last, BODY)                                       \
  do {                                                                                     \
    const size_t w_ = (j)->mask_bytes;                                                     \
    const uint64_t keep_ = keep_bits(j);                                                   \
    for (; (at) < (end) && (next) < (last); ++(at)) {                                      \
      if (element((j)->mask, (at), w_) & keep_) {                                          \
        size_t p = (at);                                                                   \
        BODY;                                                                              \
        ++(next);                                                                          \
      }                                                                                    \
    }                                                                                      \
  } while (0)
#endif

/* An element of T copied (no call: a load and a store). */
#define COPY_AS(T, dst, src)  \
  do {                        \
    T v_;                     \
    memcpy(&v_, (src), sizeof v_); \
    memcpy((dst), &v_, sizeof v_); \
  } while (0)

/* A source written where the mask is true, elements [at, end) of chunk k: each output element
 * data's, or where the mask is true the next source value, in one pass (not in place, no copy of
 * data first; in place, 16 elements with no true one are passed over). 4-byte elements read 16
 * mask elements a step and expand the source's next values into their true lanes (a shuffle by
 * the lanes' bits); the rest an element at a time. */
#ifdef __wasm_simd128__
/* For 4 lanes' true bits b: true lane l's bytes from the source's value popcount(b & ((1 << l) - 1))
 * of the step's (false lanes: value 0's, not kept). */
static const uint8_t EXPAND_X32[16][16] = {
#define L(k) 4 * (k), 4 * (k) + 1, 4 * (k) + 2, 4 * (k) + 3
  {L(0), L(0), L(0), L(0)}, {L(0), L(0), L(0), L(0)}, {L(0), L(0), L(0), L(0)}, {L(0), L(1), L(0), L(0)},
  {L(0), L(0), L(0), L(0)}, {L(0), L(0), L(1), L(0)}, {L(0), L(0), L(1), L(0)}, {L(0), L(1), L(2), L(0)},
  {L(0), L(0), L(0), L(0)}, {L(0), L(0), L(0), L(1)}, {L(0), L(0), L(0), L(1)}, {L(0), L(1), L(0), L(2)},
  {L(0), L(0), L(0), L(1)}, {L(0), L(0), L(1), L(2)}, {L(0), L(0), L(1), L(2)}, {L(0), L(1), L(2), L(3)},
#undef L
};
/* The 16 mask elements from at, a bit each (element order). */
__attribute__((noinline)) static uint32_t bits16(const wg_mask_job* j, size_t at, v128_t kv) {
  const size_t w = j->mask_bytes, step = 16 / w;
  if (w == 1) return step_bits(j->mask + at, 1, kv);
  uint32_t bits = 0;
  for (size_t q = 0; q < 16; q += step) bits |= step_bits(j->mask + (at + q) * w, w, kv) << q;
  return bits;
}
#endif

__attribute__((noinline)) static void merge_chunk(const wg_mask_job* j, size_t at, size_t end, size_t next) {
  const size_t ib = j->item_bytes;
  const uint8_t *data = j->data, *src = j->source;
  uint8_t* out = j->out;
#ifdef __wasm_simd128__
  const v128_t kv = keep_vector(j), lane_bit = wasm_i32x4_make(1, 2, 4, 8);
  if (ib == 4) {
    for (; end - at >= 16; at += 16) {
      uint32_t bits = bits16(j, at, kv);
      if (!bits && out == data) continue;
      for (size_t g = 0; g < 16; g += 4, bits >>= 4) {
        const uint32_t b = bits & 15;
        v128_t lanes = wasm_i32x4_ne(wasm_v128_and(wasm_i32x4_splat((int32_t)b), lane_bit), wasm_i32x4_splat(0));
        v128_t values = wasm_i32x4_splat(0); /* the source's next 4 values, or as many as it has left */
        if (next + 4 <= j->source_len) values = wasm_v128_load(src + next * 4);
        else memcpy(&values, src + next * 4, (j->source_len - next) * 4);
        v128_t from = wasm_i8x16_swizzle(values, wasm_v128_load(EXPAND_X32[b]));
        wasm_v128_store(out + (at + g) * 4, wasm_v128_bitselect(from, wasm_v128_load(data + (at + g) * 4), lanes));
        next += (size_t)__builtin_popcount(b);
      }
    }
  }
#endif
  const uint64_t keep = keep_bits(j);
  for (; at < end; ++at) {
    if (element(j->mask, at, j->mask_bytes) & keep) wg_copy_small(out + at * ib, src + next++ * ib, ib);
    else if (out != data) wg_copy_small(out + at * ib, data + at * ib, ib);
  }
}

#ifdef __wasm_simd128__
/* For 4 lanes' true bits b: the true lanes' numbers, packed to the front (left-packing). */
static const uint8_t PACK_X32[16][4] = {
  {0}, {0}, {1}, {0, 1}, {2}, {0, 2}, {1, 2}, {0, 1, 2}, {3}, {0, 3}, {1, 3}, {0, 1, 3}, {2, 3}, {0, 2, 3}, {1, 2, 3}, {0, 1, 2, 3},
};
/* The offsets of the true elements p of mask elements [*at, end), from + p * scale each, written
 * from offsets[*next] on, 16 mask elements a step while the step's 16 slots stay below `last` (the next
 * chunk's): each 4 lanes store their true lanes' offsets packed to the front, in one store, and
 * the next store starts past them (overwriting the rest). Leaves *at and *next where it stopped. */
static void pack_offsets(const wg_mask_job* j, size_t* offsets, size_t* at, size_t end, size_t* next, size_t last, size_t from, size_t scale) {
  const v128_t kv = keep_vector(j), step = wasm_i32x4_splat((int32_t)(4 * scale)), sv = wasm_i32x4_splat((int32_t)scale);
  size_t a = *at, n = *next;
  for (; end - a >= 16 && last - n >= 16; a += 16) {
    uint32_t bits = j->mask_bytes == 1 ? step_bits(j->mask + a, 1, kv) : bits16(j, a, kv);
    v128_t base = wasm_i32x4_splat((int32_t)(from + a * scale));
    for (int g = 0; g < 4; ++g, bits >>= 4, base = wasm_i32x4_add(base, step)) {
      const uint32_t b = bits & 15;
      v128_t lanes = wasm_u32x4_extend_low_u16x8(wasm_u16x8_extend_low_u8x16(wasm_v128_load32_zero(PACK_X32[b])));
      wasm_v128_store(offsets + n, wasm_i32x4_add(base, wasm_i32x4_mul(lanes, sv)));
      n += (size_t)__builtin_popcount(b);
    }
  }
  *at = a;
  *next = n;
}
#endif

/* A kept slice: rows under 1 KiB by a vector loop, which beats memory.copy's call there when the
 * rows are read at random (420 kept rows of 336 B out of 8400: 26 -> 18 us), larger ones by memcpy. */
static void copy_row(uint8_t* d, const uint8_t* s, size_t bytes) {
  if (bytes < 1024) wg_copy_small(d, s, bytes);
  else memcpy(d, s, bytes);
}

/* The true elements of chunk k written from its offset on: no more than its count, for blocks
 * [o, o_end) of slices (each true element's slice of every block, so that the mask is read once
 * for the group). Elements of 4 and 8 bytes have loops of their own: a load and a store each, no
 * call. */
static void write_chunk(const wg_mask_job* j, size_t o, size_t o_end, size_t k) {
  size_t at = k * j->chunk, end = chunk_end(j, k), next = j->counts[k], last = j->counts[k + 1];
  const size_t ib = j->item_bytes, os = j->total * ib, is = j->stride * ib;
  uint8_t* out = j->out;
  if (j->write == WG_MASK_SLICES && !j->total) return; /* no output (its address may be NULL) */
  if (j->write == WG_MASK_SOURCE && j->offsets) {
#ifdef __wasm_simd128__
    pack_offsets(j, j->offsets, &at, end, &next, last, 0, 1);
#endif
    FOR_EACH_TRUE(j, at, end, next, last, j->offsets[next] = p);
  } else if (j->write == WG_MASK_SOURCE) {
    merge_chunk(j, at, end, next);
  } else if (j->write == WG_MASK_SLICES && j->offsets && o_end - o == 1) {
    size_t* offsets = j->offsets + o * j->total, from = o * is;
#ifdef __wasm_simd128__
    pack_offsets(j, offsets, &at, end, &next, last, from, ib);
#endif
    FOR_EACH_TRUE(j, at, end, next, last, offsets[next] = from + p * ib);
  } else if (j->write == WG_MASK_SLICES && j->offsets) {
    FOR_EACH_TRUE(j, at, end, next, last, {
      for (size_t b = o; b < o_end; ++b) j->offsets[b * j->total + next] = b * is + p * ib;
    });
  } else if (j->write == WG_MASK_SLICES && o_end - o == 1) { /* one block: no loop over blocks (4x faster) */
    uint8_t* to = out + o * os;
    const uint8_t* from = j->data + o * is;
    if (ib == 4) FOR_EACH_TRUE(j, at, end, next, last, COPY_AS(uint32_t, to + next * 4, from + p * 4));
    else if (ib == 8) FOR_EACH_TRUE(j, at, end, next, last, COPY_AS(uint64_t, to + next * 8, from + p * 8));
    else FOR_EACH_TRUE(j, at, end, next, last, copy_row(to + next * ib, from + p * ib, ib));
  } else if (j->write == WG_MASK_SLICES) {
    const uint8_t* in = j->data;
    if (ib == 4) {
      FOR_EACH_TRUE(j, at, end, next, last, {
        for (size_t b = o; b < o_end; ++b) COPY_AS(uint32_t, out + b * os + next * 4, in + b * is + p * 4);
      });
    } else {
      FOR_EACH_TRUE(j, at, end, next, last, {
        for (size_t b = o; b < o_end; ++b) wg_copy_bytes(out + b * os + next * ib, in + b * is + p * ib, ib);
      });
    }
  } else if (j->rank) { /* coordinates: those of a row's start by division, once a row */
    const size_t rank = j->rank, row = j->shape[rank - 1];
    size_t coords[WG_MAX_RANK], row_start = 0, row_end = 0;
    FOR_EACH_TRUE(j, at, end, next, last, {
      if (p >= row_end) {
        size_t q = p / row;
        row_start = q * row;
        row_end = row_start + row;
        for (size_t d = rank - 1; d-- > 0;) {
          coords[d] = q % j->shape[d];
          q /= j->shape[d];
        }
      }
      coords[rank - 1] = p - row_start;
      for (size_t d = 0; d < rank; ++d) put_index(out, j->rows_first ? next * rank + d : d * j->total + next, ib, coords[d]);
    });
  }
}

/* 3. Items are chunks, or (group of blocks, chunk) pairs for slices. */
static int run_write(void* ctx, size_t start, size_t count) {
  const wg_mask_job* j = ctx;
  for (size_t q = start; q < start + count; ++q) {
    size_t o = q / j->nchunks * j->group, o_end = j->outer - o < j->group ? j->outer : o + j->group;
    write_chunk(j, o, o_end, q % j->nchunks);
  }
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
  j->offsets = wg_op_tensors(c->op) & WG_T(offsets) ? c->tensors[WG_TENSOR_offsets].ptr : NULL;
}

const wg_stage_kind wg_stage_mask_count = {bind_mask, run_count, WG_STAGE_IN_RUN | WG_STAGE_IN_OFFSETS | WG_STAGE_COUNTS, NULL};
const wg_stage_kind wg_stage_mask_prefix = {bind_mask, run_prefix, WG_STAGE_IN_RUN | WG_STAGE_IN_OFFSETS | WG_STAGE_COUNTS, NULL};
const wg_stage_kind wg_stage_mask_write = {bind_mask, run_write, WG_STAGE_IN_RUN | WG_STAGE_IN_OFFSETS, NULL};

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
  if (j->write == WG_MASK_SLICES && j->item_bytes) plan->offsets_blocks = j->outer > SIZE_MAX / (j->len ? j->len : 1) ? 0 : j->outer * j->len;
  if (j->write == WG_MASK_SOURCE) plan->offsets_blocks = j->len;
  plan->counted = &j->total;
  if (j->write == WG_MASK_SOURCE) plan->stopped = source_short;
  /* slices: blocks in groups, so that the mask is read once a group, not a block: where a slice is
   * small beside a mask element, many blocks a group */
  size_t group = j->item_bytes ? 256 * j->mask_bytes / j->item_bytes : SIZE_MAX;
  j->outer = j->write == WG_MASK_SLICES ? j->outer : 1;
  j->group = group < 1 ? 1 : group > j->outer ? (j->outer ? j->outer : 1) : group;
  size_t blocks = j->outer && (j->write != WG_MASK_SLICES || j->item_bytes) ? (j->outer - 1) / j->group + 1 : 0; /* slices of no bytes: nothing to write */
  /* what the stages move (the runner's threshold): the count, the mask; the write, the mask again
   * and, a true element, its slice of each block (its index; the source's value) */
  plan->count_work_bytes = plan->work_bytes = j->len * j->mask_bytes; /* the mask is in memory: no overflow */
  plan->count_item_bytes = per > SIZE_MAX / (j->outer ? j->outer : 1) ? SIZE_MAX : per * j->outer;
  size_t count_tile = WG_TILE_BYTES / (j->chunk * j->mask_bytes);
  wg_plan_stage(plan, &wg_stage_mask_count, j, j->nchunks, count_tile ? count_tile : 1);
  wg_plan_stage(plan, &wg_stage_mask_prefix, j, 1, 1);
  wg_plan_stage(plan, &wg_stage_mask_write, j, blocks * j->nchunks, 1);
  return WG_OK;
}
