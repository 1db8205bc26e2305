/* libFuzzer target for one op of the C API, chosen at compile time with WG_FUZZ_OP (take,
 * gather_nd, gather, gather_block_quantized, scatter, scatter_nd, index_reduce, tensor_scatter,
 * embedding_bag, segment_reduce, embedding_bag_backward, non_zero, boolean_mask, compress or
 * masked_scatter): CMake builds fuzz_<op> from this
 * file, one per folder of tests/fuzz/corpus/. The input decodes into shapes (with hostile dims: 0, huge,
 * SIZE_MAX), element width, index type, axis / dim / batch dims, out-of-range mode, negative-index
 * policy (the *_ex functions), pool use and
 * index values (in range, at the edges, negative, huge, truncation traps); for
 * gather_block_quantized also quant type, bits, block size, quantize axis, scale type, zero
 * points and (sometimes broken) scale / zero-point shapes, with a decoder of its own; the
 * scatters have one of their own too (fuzz_scatter: value type, reduction, include_self, in
 * place or not, the update values), and so has the fused gather-reduce (fuzz_bag: the form of
 * the segments and their values, broken or not, weights, padding, initial, max indices), and so
 * has the bags' gradient (fuzz_bag_backward: on the call record, as the JS binding calls it), and
 * so have the masks' ops (fuzz_mask: the mask's type and values, its shape made to fit or not, the
 * count-first protocol of a run without an output). The
 * shape rules and the op's result are checked against the simple references below: element by
 * element from each output multi-index (the scatters: each update applied in turn, in the index
 * tensor's order; the bags: each element from its segment's rows in order; the masks: a scalar
 * recount of the mask, then each true element's coordinates, slice or source value in turn).
 * Every tensor is its own exact-size malloc (AddressSanitizer flags any access outside it); in
 * "guard" inputs the tensors sit between patterned guard bytes instead, at odd offsets, and the
 * guards are compared afterwards. Inputs and indices must be left unchanged.
 *
 * tests/native/fuzz_replay.c provides a main() that replays the seed corpus without libFuzzer. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "call.h" /* the offsets mode (check_offsets) */
#include "wasm_gather.h"

/* WG_FUZZ_OP names the op (a line of src/ops.def, and a folder of tests/fuzz/corpus/); FUZZ_OP
 * is its number there. */
#ifndef WG_FUZZ_OP
#define WG_FUZZ_OP take
#endif
enum {
#define WG_OP(name, ...) OP_##name,
#include "ops.def"
#undef WG_OP
};
#define OP_NUMBER(name) OP_##name
#define OP_OF(name) OP_NUMBER(name)
#define FUZZ_OP OP_OF(WG_FUZZ_OP)
#define SC_IS(op) (FUZZ_OP == OP_##op)
/* the scatters have a decoder of their own (fuzz_scatter) */
#define IS_SCATTER (SC_IS(scatter) || SC_IS(scatter_nd) || SC_IS(index_reduce) || SC_IS(tensor_scatter))

/* Limits that keep one run fast; shapes beyond them are only checked by the *_shape functions. */
#define MAX_DATA_BYTES (1u << 16)
#define MAX_OUT_BYTES (1u << 17) /* past the 32 KiB thread threshold */
#define MAX_INDICES (1u << 14)
#define GUARD 64
#define RANKS (WG_MAX_RANK + 2) /* room for a rank-17 shape */

static void describe(void);
#define FAIL(...)                                          \
  do {                                                     \
    fprintf(stderr, "fuzz_ops: " __VA_ARGS__);             \
    fputc('\n', stderr);                                   \
    describe();                                            \
    abort();                                               \
  } while (0)

/* A bad index's report (position, value, limit, dimension) is the reference's. */
/* A copy of n bytes (at least one allocated), to check later that the op left them alone. */
static uint8_t* snapshot(const uint8_t* p, size_t n) {
  uint8_t* copy = malloc(n + 1);
  if (!copy) abort();
  memcpy(copy, p, n);
  return copy;
}

static void check_error_report(const wg_error_info* err, const wg_error_info* want) {
  if (err->arg != want->arg || err->dim != want->dim || err->value != want->value ||
      err->limit != want->limit || err->position != want->position) {
    FAIL("error report: position %lld value %lld limit %lld dim %lld; reference %lld %lld %lld %lld",
         (long long)err->position, (long long)err->value, (long long)err->limit, (long long)err->dim,
         (long long)want->position, (long long)want->value, (long long)want->limit,
         (long long)want->dim);
  }
}

/* ---- input reader: bytes until the input ends, then a PRNG seeded by the input ---- */
typedef struct reader {
  const uint8_t* p;
  size_t n;
  uint64_t rng;
} reader;

static uint64_t rnd(reader* r) { /* xorshift64* */
  r->rng ^= r->rng >> 12;
  r->rng ^= r->rng << 25;
  r->rng ^= r->rng >> 27;
  return r->rng * 0x2545F4914F6CDD1Dull;
}
static int has(const reader* r) { return r->n > 0; }
static uint8_t byte(reader* r) {
  if (!r->n) return (uint8_t)(rnd(r) >> 56);
  r->n--;
  return *r->p++;
}
static uint64_t u64(reader* r) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v = v << 8 | byte(r);
  return v;
}

/* Dims: mostly small, then sizes at the kernels' switch points, then hostile huge values. */
static const uint64_t DIM_TABLE[] = {6, 7, 8, 9, 13, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128,
                                     129, 255, 256, 257, 300, 511, 512, 513, 1000, 1024, 2047,
                                     4096, 4097, 8191, 16384, 40000, 0x7fffffff, 0x80000000,
                                     0xffffffff, 0x100000000, 0x100000001, 1ull << 40,
                                     0x7fffffffffffffff, 0x8000000000000000, SIZE_MAX,
                                     SIZE_MAX - 1, SIZE_MAX / 2, SIZE_MAX / 3};
static size_t decode_dim(uint8_t b) {
  if (b < 0xb0) return b % 6;
  return (size_t)DIM_TABLE[(b - 0xb0) % (sizeof DIM_TABLE / sizeof DIM_TABLE[0])];
}

/* Index values: in range (either sign), at the edges, or hostile; `s` the dim indexed. */
static uint64_t decode_index(reader* r, size_t s, unsigned hostile) {
  uint8_t c = byte(r);
  uint64_t S = s;
  if (!has(r) && (rnd(r) & 255) >= hostile) c &= 0x7f; /* past the input: mostly valid */
  if (c < 0x80) {
    uint64_t v = S ? byte(r) % S : 0;
    return (c & 1) && S ? v - S : v; /* negative: counts from the end */
  }
  switch (c & 31) {
    case 0: return S;
    case 1: return S - 1;
    case 2: return -S;
    case 3: return -S - 1;
    case 4: return S + 1;
    case 5: return (uint64_t)-1;
    case 6: return 0x7fffffff;
    case 7: return 0xffffffff80000000ull; /* INT32_MIN */
    case 8: return 0xffffffff;
    case 9: return 1ull << 32;
    case 10: return (1ull << 32) + (S ? byte(r) % S : 0); /* wraps into range if truncated */
    case 11: return (uint64_t)0 - (1ull << 32) + (S ? byte(r) % S : 0);
    case 12: return 0x7fffffffffffffffull;
    case 13: return 0x8000000000000000ull;
    case 14: return UINT64_MAX - 1;
    case 15: return (1ull << 53) + 1;
    case 16: return 0x80000000;
    case 17: return S + (1ull << 32);
    default: return u64(r);
  }
}

/* ---- reference shape rules, from the README ---- */
static int ref_take_shape(const size_t* P, size_t pr, const size_t* I, size_t ir, int32_t axis,
                          int32_t bd, size_t* out, size_t* orank, size_t* a_out, size_t* b_out) {
  if (pr < 1 || pr > WG_MAX_RANK || ir > WG_MAX_RANK) return 0;
  int64_t a = axis, b = bd;
  if (a < 0) a += (int64_t)pr;
  if (b < 0) b += (int64_t)ir;
  if (a < 0 || a >= (int64_t)pr || b < 0 || b > (int64_t)ir || b > a) return 0;
  for (int64_t d = 0; d < b; ++d) if (P[d] != I[d]) return 0;
  if (pr - 1 + ir - (size_t)b > WG_MAX_RANK) return 0;
  size_t n = 0;
  for (int64_t d = 0; d < a; ++d) out[n++] = P[d];
  for (size_t d = (size_t)b; d < ir; ++d) out[n++] = I[d];
  for (size_t d = (size_t)a + 1; d < pr; ++d) out[n++] = P[d];
  *orank = n;
  *a_out = (size_t)a;
  *b_out = (size_t)b;
  return 1;
}

static int ref_gather_nd_shape(const size_t* P, size_t pr, const size_t* I, size_t ir, int32_t bd,
                               size_t* out, size_t* orank) {
  if (pr < 1 || pr > WG_MAX_RANK || ir < 1 || ir > WG_MAX_RANK) return 0;
  if (bd < 0 || (size_t)bd >= pr || (size_t)bd >= ir) return 0;
  for (int32_t d = 0; d < bd; ++d) if (P[d] != I[d]) return 0;
  size_t K = I[ir - 1];
  if (K > pr - (size_t)bd) return 0;
  if (ir - 1 + pr - (size_t)bd - K > WG_MAX_RANK) return 0;
  size_t n = 0;
  for (size_t d = 0; d + 1 < ir; ++d) out[n++] = I[d];
  for (size_t d = (size_t)bd + K; d < pr; ++d) out[n++] = P[d];
  *orank = n;
  return 1;
}

static int ref_gather_shape(const size_t* X, size_t xr, const size_t* I, size_t ir, int32_t dim,
                            size_t* out, size_t* orank, size_t* dim_out) {
  if (xr > WG_MAX_RANK || ir != xr) return 0;
  int64_t r = xr ? (int64_t)xr : 1, d0 = dim;
  if (d0 < 0) d0 += r;
  if (d0 < 0 || d0 >= r) return 0;
  for (size_t d = 0; d < xr; ++d) if ((int64_t)d != d0 && I[d] > X[d]) return 0;
  for (size_t d = 0; d < ir; ++d) out[d] = I[d];
  *orank = ir;
  *dim_out = (size_t)d0;
  return 1;
}

/* ---- reference op ---- */
/* Product of shape[0..n), or SIZE_MAX when it overflows (0 wins over an overflow). */
static size_t count(const size_t* shape, size_t n) {
  size_t p = 1;
  int over = 0;
  for (size_t d = 0; d < n; ++d) {
    if (shape[d] == 0) return 0;
    if (p > SIZE_MAX / shape[d]) over = 1;
    else p *= shape[d];
  }
  return over ? SIZE_MAX : p;
}

static size_t ravel(const size_t* c, const size_t* shape, size_t n) {
  size_t o = 0;
  for (size_t d = 0; d < n; ++d) o = o * shape[d] + c[d];
  return o;
}

/* ravel's inverse: the coordinates c[0..n) of flat position o in a tensor of the given shape. */
static void unravel(size_t o, const size_t* shape, size_t n, size_t* c) {
  for (size_t d = n; d-- > 0;) {
    c[d] = o % shape[d];
    o /= shape[d];
  }
}

static const size_t INDEX_BYTES[] = {4, 4, 8, 8};

/* The stored index at position p: its magnitude and sign, never truncated. */
static void load(const void* idx, wg_index_type t, size_t p, uint64_t* mag, int* neg,
                 int64_t* bits) {
  int64_t v;
  switch (t) {
    case WG_INDEX_I32: v = ((const int32_t*)idx)[p]; break;
    case WG_INDEX_U32: v = ((const uint32_t*)idx)[p]; break;
    case WG_INDEX_I64: v = ((const int64_t*)idx)[p]; break;
    default: {
      uint64_t u = ((const uint64_t*)idx)[p];
      memcpy(bits, &u, 8);
      *mag = u;
      *neg = 0;
      return;
    }
  }
  *bits = v;
  *neg = v < 0;
  *mag = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
}

/* 1: *pos is the element to read; 0: zeros; -1: an error in WG_OOB_ERROR mode. Under
 * WG_NEGATIVE_ERROR (negative) every negative index is out of range (clamped: to 0). */
static int resolve(const void* idx, wg_index_type t, size_t p, size_t s, int mode, int negative,
                   size_t* pos) {
  uint64_t mag;
  int neg;
  int64_t bits;
  load(idx, t, p, &mag, &neg, &bits);
  int in_range = neg ? negative == WG_NEGATIVE_WRAP && mag <= s : mag < s;
  if (in_range) {
    *pos = neg ? (size_t)(s - mag) : (size_t)mag;
    return 1;
  }
  if (mode == WG_OOB_ERROR) return -1;
  if (mode == WG_OOB_ZERO || s == 0) return 0;
  *pos = neg ? 0 : s - 1;
  return 1;
}

typedef struct call {
  size_t P[RANKS], I[RANKS], O[RANKS]; /* data, indices, output shapes */
  size_t pr, ir, orank;
  size_t axis, bd;        /* normalized: take axis / gather dim, batch dims */
  size_t elem;
  wg_index_type itype;
  int mode;
  int negative; /* wg_negative_mode, or an invalid value */
} call;

static const call* current; /* for describe() */
static const void* current_idx;
static size_t current_nidx;

static void print_shape(const char* name, const size_t* s, size_t n) {
  fprintf(stderr, "  %s [", name);
  for (size_t d = 0; d < n; ++d) fprintf(stderr, d ? ", %zu" : "%zu", s[d]);
  fprintf(stderr, "]\n");
}

static void gbq_describe(void);
static void sc_describe(void);
static void bag_describe(void);
static void bw_describe(void);
static void mask_describe(void);
static void describe(void) {
  if (FUZZ_OP == OP_gather_block_quantized) {
    gbq_describe();
    return;
  }
  if (IS_SCATTER) {
    sc_describe();
    return;
  }
  if (SC_IS(embedding_bag) || SC_IS(segment_reduce)) {
    bag_describe();
    return;
  }
  if (SC_IS(embedding_bag_backward)) {
    bw_describe();
    return;
  }
  if (SC_IS(non_zero) || SC_IS(boolean_mask) || SC_IS(compress) || SC_IS(masked_scatter)) {
    mask_describe();
    return;
  }
  const call* c = current;
  if (!c) return;
  fprintf(stderr, "  op %d elem %zu index type %d mode %d negative %d axis %zu batch dims %zu\n",
          FUZZ_OP, c->elem, c->itype, c->mode, c->negative, c->axis, c->bd);
  print_shape("data", c->P, c->pr);
  print_shape("indices", c->I, c->ir);
  print_shape("output", c->O, c->orank);
  for (size_t p = 0; current_idx && p < current_nidx && p < 32; ++p) {
    uint64_t mag;
    int neg;
    int64_t bits;
    load(current_idx, c->itype, p, &mag, &neg, &bits);
    fprintf(stderr, "  index %zu: %lld\n", p, (long long)bits);
  }
}

/* The dim that index position p is checked against, and that dim's number in data. */
static size_t indexed_dim(const call* c, size_t p) {
  if (FUZZ_OP == OP_gather_nd) return c->bd + p % c->I[c->ir - 1];
  return c->axis;
}
/* Its size (gather treats a rank-0 tensor as shape [1]). */
static size_t dim_size(const call* c, size_t dim) { return c->pr ? c->P[dim] : 1; }

/* Writes the expected output into `want` (which the caller zeroed); returns WG_OK or
 * WG_ERR_INDEX_OUT_OF_RANGE with the first bad index in *err. */
static wg_status reference(const call* c, const uint8_t* data, const void* idx, uint8_t* want,
                           wg_error_info* err) {
  size_t nidx = count(c->I, c->ir);
  if (c->mode == WG_OOB_ERROR) { /* every index is checked, used or not */
    for (size_t p = 0; p < nidx; ++p) {
      size_t dim = indexed_dim(c, p), pos;
      if (resolve(idx, c->itype, p, dim_size(c, dim), WG_OOB_ERROR, c->negative, &pos) < 0) {
        uint64_t mag;
        int neg;
        load(idx, c->itype, p, &mag, &neg, &err->value);
        err->arg = WG_ARG_INDICES;
        err->dim = (int64_t)dim;
        err->limit = (int64_t)dim_size(c, dim);
        err->position = (int64_t)p;
        return WG_ERR_INDEX_OUT_OF_RANGE;
      }
    }
  }
  size_t nout = count(c->O, c->orank);
  size_t oc[RANKS], dc[RANKS], ic[RANKS];
  for (size_t o = 0; o < nout; ++o) {
    unravel(o, c->O, c->orank, oc);
    int ok = 1;
    size_t pos = 0;
    if (FUZZ_OP == OP_take) { /* out = P[:a] + I[b:] + P[a+1:] */
      size_t a = c->axis, b = c->bd, q = c->ir - b;
      for (size_t d = 0; d < b; ++d) ic[d] = oc[d];
      for (size_t d = 0; d < q; ++d) ic[b + d] = oc[a + d];
      for (size_t d = 0; d < a; ++d) dc[d] = oc[d];
      for (size_t d = a + 1; d < c->pr; ++d) dc[d] = oc[q + d - 1];
      ok = resolve(idx, c->itype, ravel(ic, c->I, c->ir), c->P[a], c->mode, c->negative, &pos);
      dc[a] = pos;
    } else if (FUZZ_OP == OP_gather_nd) { /* out = I[:-1] + P[b+K:] */
      size_t b = c->bd, K = c->I[c->ir - 1], lead = c->ir - 1;
      size_t tuple = ravel(oc, c->I, lead) * K;
      for (size_t d = 0; d < b; ++d) dc[d] = oc[d];
      for (size_t k = 0; k < K && ok == 1; ++k) {
        ok = resolve(idx, c->itype, tuple + k, c->P[b + k], c->mode, c->negative, &pos);
        dc[b + k] = pos;
      }
      for (size_t d = b + K; d < c->pr; ++d) dc[d] = oc[lead + d - b - K];
    } else { /* out = I's shape; rank 0 is shape [1] */
      for (size_t d = 0; d < c->pr; ++d) dc[d] = oc[d];
      ok = resolve(idx, c->itype, o, c->pr ? c->P[c->axis] : 1, c->mode, c->negative, &pos);
      if (c->pr) dc[c->axis] = pos;
    }
    if (ok < 0) FAIL("reference: a bad index after the scan");
    if (ok) memcpy(want + o * c->elem, data + ravel(dc, c->P, c->pr) * c->elem, c->elem);
  }
  return WG_OK;
}

/* ---- buffers: exact mallocs, or guarded at an offset ---- */
typedef struct buf {
  uint8_t* base; /* what was malloc'ed */
  uint8_t* p;    /* the tensor */
  size_t bytes, off;
  int guarded;
} buf;

static void buf_new(buf* b, size_t bytes, int guarded, size_t off) {
  b->bytes = bytes;
  b->guarded = guarded;
  b->off = guarded ? GUARD + off : 0;
  b->base = malloc(guarded ? bytes + 2 * GUARD + off : bytes); /* malloc(0): no byte readable */
  if (!b->base && bytes) FAIL("out of memory");
  b->p = b->base + b->off;
  if (guarded) {
    for (size_t i = 0; i < b->off; ++i) b->base[i] = (uint8_t)(0xC5 ^ i);
    for (size_t i = 0; i < GUARD; ++i) b->p[bytes + i] = (uint8_t)(0x3A ^ i);
  }
}

static void buf_check_free(buf* b, const char* name) {
  if (b->guarded) {
    for (size_t i = 0; i < b->off; ++i)
      if (b->base[i] != (uint8_t)(0xC5 ^ i)) FAIL("%s: guard byte %zu before it changed", name, b->off - i);
    for (size_t i = 0; i < GUARD; ++i)
      if (b->p[b->bytes + i] != (uint8_t)(0x3A ^ i)) FAIL("%s: guard byte %zu after it changed", name, i);
  }
  free(b->base);
}

static wg_pool* fuzz_pool(void) {
  static wg_pool* pool = NULL;
  static int made = 0;
  if (!made) {
    made = 1;
    if (wg_pool_create(2, &pool) != WG_OK) FAIL("wg_pool_create");
  }
  return pool;
}

/* The shared pool, splitting every op over its threads (split_all) or only large ones. */
static wg_pool* fuzz_pool_split(int split_all) {
  wg_pool* pool = fuzz_pool();
  wg_pool_set_parallel_threshold(pool, split_all ? 0 : WG_PARALLEL_MIN_BYTES);
  return pool;
}

static wg_status run_op(wg_pool* pool, const call* c, const void* data, const void* idx,
                        int32_t axis, int32_t bd, size_t elem, wg_index_type itype, int mode,
                        void* out, wg_error_info* err) {
  switch (FUZZ_OP) {
    case OP_take:
      return wg_take_ex(pool, data, c->P, c->pr, idx, itype, c->I, c->ir, axis, bd, elem,
                        (wg_oob_mode)mode, (wg_negative_mode)c->negative, out, err);
    case OP_gather_nd:
      return wg_gather_nd_ex(pool, data, c->P, c->pr, idx, itype, c->I, c->ir, bd, elem,
                             (wg_oob_mode)mode, (wg_negative_mode)c->negative, out, err);
    default:
      return wg_gather_ex(pool, data, c->P, c->pr, axis, idx, itype, c->I, c->ir, elem,
                          (wg_oob_mode)mode, (wg_negative_mode)c->negative, out, err);
  }
}

static size_t mul_or_max(size_t a, size_t b) { return b && a > SIZE_MAX / b ? SIZE_MAX : a * b; }

/* The same call in offsets mode (src/op.h: C resolves the plan, the caller moves the bytes, as
 * js/copy-plan.mjs does): the same status and error report, every offset inside the data, and
 * the output rebuilt here from the offsets equal to the reference's. */
static void check_offsets(wg_pool* pool, const call* c, size_t data_bytes, const uint8_t* data,
                          const void* idx, int32_t axis, int32_t bd, size_t elem,
                          wg_index_type itype, wg_status want_st, const uint8_t* want,
                          size_t out_bytes, const wg_error_info* want_err) {
  wg_call rec;
  wg_status st = wg_call_indexed(&rec, FUZZ_OP, NULL, elem, c->P, c->pr, idx, itype, c->I, c->ir,
                                 (wg_oob_mode)c->mode, (wg_negative_mode)c->negative, NULL);
  rec.attrs[WG_ATTR_axis] = axis;
  rec.attrs[WG_ATTR_batch_dims] = bd;
  if (st == WG_OK) st = wg_call_shape(&rec);
  size_t nblocks = rec.tensors[WG_TENSOR_offsets].shape[0];
  if (st != WG_OK) FAIL("offsets mode: shape query status %d", st);
  if (out_bytes && (!nblocks || out_bytes % nblocks)) FAIL("%zu blocks for %zu bytes", nblocks, out_bytes);
  size_t* off = malloc((nblocks + 1) * sizeof *off);
  if (!off) abort();
  rec.tensors[WG_TENSOR_offsets].ptr = off;
  memset(&rec.err, 0x77, sizeof rec.err);
  st = wg_call_run(pool, &rec);
  wg_error_info err = rec.err;
  if (st != want_st) FAIL("offsets mode: status %d, reference %d", st, want_st);
  if (st == WG_ERR_INDEX_OUT_OF_RANGE) check_error_report(&err, want_err);
  if (st == WG_OK && out_bytes) {
    size_t bb = out_bytes / nblocks;
    for (size_t b = 0; b < nblocks; ++b) {
      if (off[b] == SIZE_MAX) { /* WG_ZERO_BLOCK */
        for (size_t i = 0; i < bb; ++i)
          if (want[b * bb + i]) FAIL("offsets mode: block %zu is zeros, the reference's is not", b);
      } else if (off[b] > data_bytes || data_bytes - off[b] < bb) {
        FAIL("offsets mode: block %zu at %zu + %zu is outside the data (%zu bytes)", b, off[b], bb, data_bytes);
      } else if (memcmp(data + off[b], want + b * bb, bb) != 0) {
        FAIL("offsets mode: block %zu differs from the reference", b);
      }
    }
  }
  free(off);
}

/* ---- gather_block_quantized: its own decoder, shape rules and reference ----
 * Input layout (tests/fuzz/make-seeds.mjs writes it):
 *   q: quant type (0-2: uint8, uint4, int4; 3 invalid) | scale type << 2 (f32, f16, bf16, invalid)
 *      | 0x10 zero points | 0x20 pool | 0x40 every op split over the pool | 0x80 guard zones
 *   m: index type | mode << 2 | bits << 4 (4, 2, 8, a raw byte next) | 0x40 scales' shape
 *      perturbed | 0x80 zero points' shape perturbed
 *   b: block size (0-7: 16, 32, 64, 128, 256, a raw int32 next, 16, 32) | misalign << 3
 *      | 0x40 negative indices refused (WG_NEGATIVE_ERROR) | 0x80 an invalid negative-index
 *      policy | 0xc0 an invalid index type
 *   data rank (0-4; >= 0xf8: 17), index rank (0-3; >= 0xf8: 17), gather axis (int8; 0x80
 *   INT32_MIN, 0x7f INT32_MAX), quantize axis (< 0x80: the last, as rank-1 or -1; 0x80 INT32_MIN,
 *   0xff INT32_MAX; else -8..7), data dims (the stored shape for uint8, the logical one for
 *   uint4/int4), index dims, a perturbation byte for each perturbed shape, hostile, indices. */
#define GBQ_RANKS (RANKS + 1)

typedef struct gbq_call {
  int qt, st, bits, has_zp, itype, mode, negative;
  int32_t block, gaxis, qaxis;
  size_t D[GBQ_RANKS], L[GBQ_RANKS], I[GBQ_RANKS], S[GBQ_RANKS], Z[GBQ_RANKS], O[GBQ_RANKS];
  size_t dr, ir, sr, zr, orank;
  size_t ES[GBQ_RANKS], EZ[GBQ_RANKS], esr, ezr; /* the shapes the rules ask for */
  size_t g, qa;                                  /* normalized axes */
  const void* idx;
  size_t nidx;
} gbq_call;

static const gbq_call* gbq_current;

static void gbq_describe(void) {
  const gbq_call* c = gbq_current;
  if (!c) return;
  fprintf(stderr,
          "  gather_block_quantized quant type %d scale type %d bits %d block %d gather axis %d"
          " quantize axis %d zero points %d index type %d mode %d negative %d\n",
          c->qt, c->st, c->bits, c->block, c->gaxis, c->qaxis, c->has_zp, c->itype, c->mode,
          c->negative);
  print_shape("data", c->D, c->dr);
  print_shape("indices", c->I, c->ir);
  print_shape("scales", c->S, c->sr);
  if (c->has_zp) print_shape("zero points", c->Z, c->zr);
  print_shape("output", c->O, c->orank);
  for (size_t p = 0; c->idx && p < c->nidx && p < 32 && c->itype < 4; ++p) {
    uint64_t mag;
    int neg;
    int64_t bits;
    load(c->idx, (wg_index_type)c->itype, p, &mag, &neg, &bits);
    fprintf(stderr, "  index %zu: %lld\n", p, (long long)bits);
  }
}

/* float16 / bfloat16 bits <-> float, as common/reference-quantized.mjs defines them. */
static float f16_to_f32(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000) << 16, exp = h >> 10 & 0x1f, mant = h & 0x3ff, b;
  if (exp == 0x1f) b = sign | 0x7f800000u | mant << 13;
  else if (exp) b = sign | (exp + 112) << 23 | mant << 13;
  else if (!mant) b = sign;
  else { /* subnormal: normalize */
    int e = 113;
    while (!(mant & 0x400)) { mant <<= 1; --e; }
    b = sign | (uint32_t)e << 23 | (mant & 0x3ff) << 13;
  }
  float f;
  memcpy(&f, &b, 4);
  return f;
}
static float bf16_to_f32(uint16_t h) {
  uint32_t b = (uint32_t)h << 16;
  float f;
  memcpy(&f, &b, 4);
  return f;
}
static uint32_t round_shift(uint32_t m, int shift) { /* nearest even */
  uint32_t h = m >> shift, rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
  return rem > half || (rem == half && (h & 1)) ? h + 1 : h;
}
static uint16_t f32_to_f16(float x) {
  uint32_t b;
  memcpy(&b, &x, 4);
  uint32_t sign = b >> 16 & 0x8000, exp = b >> 23 & 0xff, mant = b & 0x7fffff;
  if (exp == 0xff) return (uint16_t)(sign | (mant ? 0x7e00 : 0x7c00));
  int e = (int)exp - 127 + 15;
  if (e >= 31) return (uint16_t)(sign | 0x7c00);
  if (e <= 0) return (uint16_t)(e < -10 ? sign : sign | round_shift(mant | 0x800000, 14 - e));
  return (uint16_t)(sign | round_shift((uint32_t)e << 23 | mant, 13));
}
static uint16_t f32_to_bf16(float x) {
  uint32_t b;
  memcpy(&b, &x, 4);
  if ((b & 0x7fffffff) > 0x7f800000) return (uint16_t)((b >> 16 & 0x8000) | 0x7fc0);
  return (uint16_t)(round_shift(b, 16) & 0xffff);
}

/* Code number i (flat) of a packed buffer: `bits` bits each, lowest first, sign-extended. */
static int gbq_code(const uint8_t* bytes, size_t i, int bits, int is_signed) {
  size_t per = (size_t)(8 / bits);
  int v = bytes[i / per] >> (int)((i % per) * (size_t)bits) & ((1 << bits) - 1);
  return is_signed && v >= 1 << (bits - 1) ? v - (1 << bits) : v;
}

static int shapes_equal(const size_t* a, size_t ar, const size_t* b, size_t br) {
  return ar == br && (ar == 0 || memcmp(a, b, ar * sizeof(size_t)) == 0);
}

/* Rules the call breaks, as the set of statuses that may report them. */
#define BIT(s) (1u << (s))
#define UPSTREAM_ANY                                                                          \
  (BIT(WG_ERR_INVALID_ARGUMENT) | BIT(WG_ERR_MAX_RANK) | BIT(WG_ERR_DATA_SCALAR) |            \
   BIT(WG_ERR_AXIS) | BIT(WG_ERR_BITS) | BIT(WG_ERR_BLOCK_SIZE) |                             \
   BIT(WG_ERR_QUANTIZE_AXIS_PACKED) | BIT(WG_ERR_SCALES_SHAPE) | BIT(WG_ERR_ZERO_POINTS_SHAPE) | \
   BIT(WG_ERR_SIZE_OVERFLOW))

/* Fills the logical shape, the normalized axes, the expected scale / zero-point shapes and the
 * output shape. Returns 0 when valid; else the statuses allowed (any gbq status when a rule
 * the later ones depend on is broken; the exact one when only a shape or the output rank is). */
static unsigned gbq_rules(gbq_call* c, int* scale_type_only) {
  *scale_type_only = 0;
  if (c->dr > WG_MAX_RANK || c->ir > WG_MAX_RANK) return UPSTREAM_ANY;
  if (c->qt < 0 || c->qt > 2) return UPSTREAM_ANY;
  int packed = c->qt == WG_QUANT_UINT8;
  if (packed ? c->bits != 2 && c->bits != 4 && c->bits != 8 : c->bits != 4) return UPSTREAM_ANY;
  if (c->block < 16 || (c->block & (c->block - 1))) return UPSTREAM_ANY;
  if (c->dr < 1) return UPSTREAM_ANY;
  int64_t r = (int64_t)c->dr, ga = c->gaxis, qa = c->qaxis;
  if (ga < -r || ga >= r || qa < -r || qa >= r) return UPSTREAM_ANY;
  c->g = (size_t)(ga < 0 ? ga + r : ga);
  c->qa = (size_t)(qa < 0 ? qa + r : qa);
  if (packed && c->qa != c->dr - 1) return UPSTREAM_ANY;
  size_t per = packed ? (size_t)(8 / c->bits) : 1;
  memcpy(c->L, c->D, c->dr * sizeof(size_t));
  if (c->D[c->dr - 1] > SIZE_MAX / per) return UPSTREAM_ANY; /* the logical dim overflows */
  c->L[c->dr - 1] = c->D[c->dr - 1] * per;
  size_t bs = (size_t)c->block;
  c->esr = c->dr;
  memcpy(c->ES, c->L, c->dr * sizeof(size_t));
  c->ES[c->qa] = c->L[c->qa] / bs + (c->L[c->qa] % bs != 0);
  c->ezr = c->dr;
  memcpy(c->EZ, c->ES, c->dr * sizeof(size_t));
  size_t last = c->ES[c->dr - 1];
  if (packed) c->EZ[c->dr - 1] = last / per + (last % per != 0);
  c->orank = 0;
  for (size_t d = 0; d < c->g; ++d) c->O[c->orank++] = c->L[d];
  for (size_t d = 0; d < c->ir; ++d) c->O[c->orank++] = c->I[d];
  for (size_t d = c->g + 1; d < c->dr; ++d) c->O[c->orank++] = c->L[d];
  unsigned broken = 0;
  /* a table whose logical element count does not fit in size_t cannot be stored */
  if (count(c->L, c->dr) == SIZE_MAX) broken |= BIT(WG_ERR_SIZE_OVERFLOW);
  if (!shapes_equal(c->S, c->sr, c->ES, c->esr)) broken |= BIT(WG_ERR_SCALES_SHAPE);
  if (c->has_zp && !shapes_equal(c->Z, c->zr, c->EZ, c->ezr)) broken |= BIT(WG_ERR_ZERO_POINTS_SHAPE);
  if (c->orank > WG_MAX_RANK) broken |= BIT(WG_ERR_MAX_RANK);
  if (c->st < 0 || c->st > 2) {
    if (!broken) *scale_type_only = 1; /* the shape query may leave it to the run */
    broken |= BIT(WG_ERR_INVALID_ARGUMENT);
  }
  return broken;
}

/* The error record of a shape rule: the dim and the values that broke it. */
static void gbq_check_shape_error(const gbq_call* c, const wg_error_info* err, wg_status st) {
  const size_t *got = st == WG_ERR_SCALES_SHAPE ? c->S : c->Z, *want = st == WG_ERR_SCALES_SHAPE ? c->ES : c->EZ;
  size_t gr = st == WG_ERR_SCALES_SHAPE ? c->sr : c->zr, wr = c->dr;
  int64_t arg = st == WG_ERR_SCALES_SHAPE ? WG_ARG_SCALES : WG_ARG_ZERO_POINTS;
  if (err->arg != arg) FAIL("status %d names argument %lld", st, (long long)err->arg);
  if (err->dim == -1) {
    if (gr == wr || err->value != (int64_t)gr || err->limit != (int64_t)wr)
      FAIL("status %d: rank %lld, limit %lld (ranks %zu, %zu)", st, (long long)err->value,
           (long long)err->limit, gr, wr);
    return;
  }
  if (gr != wr || err->dim < 0 || (size_t)err->dim >= gr) FAIL("status %d: dim %lld", st, (long long)err->dim);
  size_t d = (size_t)err->dim;
  if (got[d] == want[d] || err->value != (int64_t)got[d] || err->limit != (int64_t)want[d])
    FAIL("status %d: dim %zu value %lld limit %lld (shape has %zu, rule %zu)", st, d,
         (long long)err->value, (long long)err->limit, got[d], want[d]);
}

/* A shape changed so that it (mostly) breaks the rule: one more or one fewer dim, or a dim
 * off by one, zero, or hostile. uint8 zero points may also get the scales' (unpacked) shape. */
static void gbq_perturb(reader* r, size_t* s, size_t* rank, const size_t* unpacked) {
  uint8_t b = byte(r);
  size_t d = *rank ? (size_t)(b >> 3) % *rank : 0;
  switch (b & 7) {
    case 0: if (*rank < GBQ_RANKS) s[(*rank)++] = 1; break;
    case 1: if (*rank) --*rank; break;
    case 2: if (*rank) s[d] += 1; break;
    case 3: if (*rank) s[d] -= 1; break; /* 0 - 1: SIZE_MAX */
    case 4: if (*rank) s[d] = 0; break;
    case 5: if (*rank) s[d] = decode_dim(byte(r)); break;
    case 6: if (unpacked) memcpy(s, unpacked, *rank * sizeof(size_t)); break;
    default: if (*rank) s[d] *= 2; break;
  }
}

/* The scales' and zero points' shapes: as the rules ask (as far as they got), then perturbed where
 * asked (a perturbation byte each). */
static void gbq_layout_shapes(reader* r, gbq_call* c, int bad_scales, int bad_zp) {
  int scale_type_only;
  gbq_rules(c, &scale_type_only);
  int derived = c->esr > 0; /* the rules got as far as the scales' shape */
  c->sr = derived ? c->esr : c->dr;
  c->zr = derived ? c->ezr : c->dr;
  memcpy(c->S, derived ? c->ES : c->D, c->sr * sizeof(size_t));
  memcpy(c->Z, derived ? c->EZ : c->D, c->zr * sizeof(size_t));
  if (bad_scales) gbq_perturb(r, c->S, &c->sr, NULL);
  if (bad_zp) gbq_perturb(r, c->Z, &c->zr, c->qt == WG_QUANT_UINT8 ? c->S : NULL);
}

/* The table's value at logical coordinates dc (dc is changed): (code - zero point) * scale in one
 * float32 multiply, as onnxruntime's kernel. The rules (gbq_rules) must hold. */
static float gbq_value(const gbq_call* c, const uint8_t* data, const void* scales, const uint8_t* zp, size_t* dc) {
  int packed = c->qt == WG_QUANT_UINT8, is_signed = c->qt == WG_QUANT_INT4;
  int bits = packed ? c->bits : 4;
  size_t per = packed ? (size_t)(8 / c->bits) : 1;
  size_t row_len = c->ES[c->dr - 1], row_bytes = c->EZ[c->dr - 1];
  int q = gbq_code(data, ravel(dc, c->L, c->dr), bits, is_signed);
  dc[c->qa] /= (size_t)c->block;
  size_t si = ravel(dc, c->ES, c->dr);
  int z = packed ? 1 << (bits - 1) : 0;
  if (c->has_zp) {
    z = packed ? gbq_code(zp, si / row_len * row_bytes * per + si % row_len, bits, 0)
               : gbq_code(zp, si, 4, is_signed);
  }
  float scale = c->st == WG_SCALE_F32 ? ((const float*)scales)[si]
                : c->st == WG_SCALE_F16 ? f16_to_f32(((const uint16_t*)scales)[si])
                                        : bf16_to_f32(((const uint16_t*)scales)[si]);
  volatile float diff = (float)(q - z);
  return diff * scale;
}

/* Element o of a tensor of the scale type: the float32 value, rounded to it (nearest even). */
static void gbq_put(int st, uint8_t* p, size_t o, float value) {
  if (st == WG_SCALE_F16 || st == WG_SCALE_BF16) {
    uint16_t h = st == WG_SCALE_F16 ? f32_to_f16(value) : f32_to_bf16(value);
    memcpy(p + o * 2, &h, 2);
  } else { /* float32, and an invalid type's 4 bytes */
    memcpy(p + o * 4, &value, 4);
  }
}

/* n scales of the type: mostly small powers of two and fractions, sometimes any bits (Inf, NaN,
 * subnormal). */
static void gbq_fill_scales(reader* r, uint8_t* p, size_t n, int st) {
  for (size_t i = 0; i < n; ++i) {
    uint64_t v = rnd(r);
    float f = (float)((int)(v >> 8 & 63) - 32) / (float)(1 << (v >> 16 & 7));
    if ((v & 15) == 0) { /* raw bits */
      if (st == WG_SCALE_F16 || st == WG_SCALE_BF16) {
        uint16_t h = (uint16_t)(v >> 48);
        memcpy(p + i * 2, &h, 2);
      } else {
        uint32_t w = (uint32_t)(v >> 32);
        memcpy(p + i * 4, &w, 4);
      }
    } else {
      gbq_put(st, p, i, f);
    }
  }
}

static wg_status gbq_reference(const gbq_call* c, const uint8_t* data, const void* scales,
                               const uint8_t* zp, uint8_t* want, wg_error_info* err) {
  wg_index_type t = (wg_index_type)c->itype;
  size_t s = c->L[c->g];
  if (c->mode == WG_OOB_ERROR) {
    for (size_t p = 0; p < c->nidx; ++p) {
      size_t pos;
      if (resolve(c->idx, t, p, s, WG_OOB_ERROR, c->negative, &pos) < 0) {
        uint64_t mag;
        int neg;
        load(c->idx, t, p, &mag, &neg, &err->value);
        err->arg = WG_ARG_INDICES;
        err->dim = (int64_t)c->g;
        err->limit = (int64_t)s;
        err->position = (int64_t)p;
        return WG_ERR_INDEX_OUT_OF_RANGE;
      }
    }
  }
  size_t nout = count(c->O, c->orank), r = c->dr;
  size_t oc[GBQ_RANKS], dc[GBQ_RANKS], ic[GBQ_RANKS];
  for (size_t o = 0; o < nout; ++o) {
    unravel(o, c->O, c->orank, oc);
    for (size_t d = 0; d < c->ir; ++d) ic[d] = oc[c->g + d];
    size_t pos = 0;
    int ok = resolve(c->idx, t, ravel(ic, c->I, c->ir), s, c->mode, c->negative, &pos);
    float product = 0.0f;
    if (ok < 0) FAIL("reference: a bad index after the scan");
    if (ok) {
      for (size_t d = 0; d < c->g; ++d) dc[d] = oc[d];
      dc[c->g] = pos;
      for (size_t d = c->g + 1; d < r; ++d) dc[d] = oc[c->ir + d - 1];
      product = gbq_value(c, data, scales, zp, dc);
    }
    gbq_put(c->st, want, o, product);
  }
  return WG_OK;
}

/* Output element o equal to the reference's: bit for bit, except a NaN's sign and payload
 * (float32: any NaN; float16 / bfloat16: the quiet NaN 0x7e00 / 0x7fc0 of either sign), which
 * depend on the platform's multiply. */
static int gbq_same(int st, const uint8_t* got, const uint8_t* want, size_t o) {
  if (st == WG_SCALE_F32) {
    uint32_t a, b;
    memcpy(&a, got + o * 4, 4);
    memcpy(&b, want + o * 4, 4);
    if ((b & 0x7fffffff) > 0x7f800000) return (a & 0x7fffffff) > 0x7f800000;
    return a == b;
  }
  uint16_t a, b;
  memcpy(&a, got + o * 2, 2);
  memcpy(&b, want + o * 2, 2);
  uint16_t qnan = st == WG_SCALE_F16 ? 0x7e00 : 0x7fc0;
  if ((b & 0x7fff) == qnan) return (a & 0x7fff) == qnan;
  return a == b;
}

static int fuzz_gather_block_quantized(reader* r) {
  gbq_call c;
  memset(&c, 0, sizeof c);
  uint8_t q = byte(r), m = byte(r), b = byte(r);
  c.qt = q & 3;
  c.st = q >> 2 & 3;
  c.has_zp = q >> 4 & 1;
  int use_pool = q >> 5 & 1, split_all = q >> 6 & 1, guarded = q >> 7 & 1;
  c.itype = m & 3;
  c.mode = m >> 2 & 3; /* 3: an invalid mode, which the run must refuse */
  static const int BITS[] = {4, 2, 8};
  c.bits = (m >> 4 & 3) < 3 ? BITS[m >> 4 & 3] : (int8_t)byte(r);
  int bad_scales = m >> 6 & 1, bad_zp = m >> 7 & 1;
  static const int32_t BLOCKS[] = {16, 32, 64, 128, 256, 0, 16, 32};
  c.block = BLOCKS[b & 7];
  if ((b & 7) == 5) c.block = (int32_t)(uint32_t)(u64(r) >> 32);
  size_t misalign = b >> 3 & 7;
  int bad_itype = (b >> 6) == 3;
  c.negative = (b >> 6) == 1 ? WG_NEGATIVE_ERROR : (b >> 6) == 2 ? 7 : WG_NEGATIVE_WRAP;
  int bad_negative = (b >> 6) == 2;
  uint8_t rb = byte(r), ib = byte(r), ab = byte(r), qb = byte(r);
  c.dr = rb >= 0xf8 ? WG_MAX_RANK + 1 : rb % 5;
  c.ir = ib >= 0xf8 ? WG_MAX_RANK + 1 : ib % 4;
  c.gaxis = ab == 0x80 ? INT32_MIN : ab == 0x7f ? INT32_MAX : (int8_t)ab;
  c.qaxis = qb < 0x80 ? (qb & 1 ? -1 : (int32_t)c.dr - 1)
            : qb == 0x80 ? INT32_MIN : qb == 0xff ? INT32_MAX : (int32_t)(qb & 15) - 8;
  for (size_t d = 0; d < c.dr; ++d) c.D[d] = decode_dim(byte(r));
  for (size_t d = 0; d < c.ir; ++d) c.I[d] = decode_dim(byte(r));
  gbq_current = &c;

  /* the shapes the rules ask for, then (maybe) broken ones, then the rules again */
  int scale_type_only;
  gbq_layout_shapes(r, &c, bad_scales, bad_zp);
  unsigned broken = gbq_rules(&c, &scale_type_only);
  unsigned hostile = byte(r);

  wg_quant_desc desc = {.quant_type = c.qt, .scale_type = c.st, .bits = c.bits,
                        .block_size = c.block, .quantize_axis = c.qaxis,
                        .has_zero_points = c.has_zp, .scale_shape = c.S, .scale_rank = c.sr,
                        .zp_shape = c.Z, .zp_rank = c.zr};
  size_t got_shape[2 * WG_MAX_RANK + 2], got_rank = 0;
  wg_error_info err;
  memset(&err, 0x77, sizeof err);
  wg_status st = wg_gather_block_quantized_shape(c.D, c.dr, c.I, c.ir, c.gaxis, &desc, got_shape,
                                                 &got_rank, &err);
  if (st == WG_OK && broken && !scale_type_only)
    FAIL("shape check: library accepts, the reference breaks rules (statuses 0x%x)", broken);
  if (st != WG_OK) {
    if (!broken) FAIL("shape check: library status %d, the reference accepts", st);
    if (st >= 32 || !(broken & BIT(st))) FAIL("shape check: status %d, allowed 0x%x", st, broken);
    if (broken != UPSTREAM_ANY && (st == WG_ERR_SCALES_SHAPE || st == WG_ERR_ZERO_POINTS_SHAPE))
      gbq_check_shape_error(&c, &err, st);
    if (st == WG_ERR_AXIS) {
      int64_t rk = (int64_t)c.dr;
      int g_bad = c.gaxis < -rk || c.gaxis >= rk, q_bad = c.qaxis < -rk || c.qaxis >= rk;
      if (!(err.arg == WG_ARG_AXIS && g_bad && err.value == c.gaxis) &&
          !(err.arg == WG_ARG_QUANTIZE_AXIS && q_bad && err.value == c.qaxis))
        FAIL("axis error names argument %lld value %lld", (long long)err.arg, (long long)err.value);
    }
    return 0;
  }
  if (got_rank != c.orank || memcmp(got_shape, c.O, c.orank * sizeof(size_t)) != 0)
    FAIL("output shape differs from the reference (rank %zu vs %zu)", got_rank, c.orank);

  /* sizes: every tensor exactly as large as its shape says */
  int packed = c.qt == WG_QUANT_UINT8;
  size_t nlog = count(c.L, c.dr), nstored = count(c.D, c.dr);
  size_t data_bytes = packed ? nstored : (nlog == SIZE_MAX ? SIZE_MAX : nlog / 2 + (nlog & 1));
  size_t selem = c.st == WG_SCALE_F32 || c.st > 2 ? 4 : 2;
  size_t nscales = count(c.S, c.sr), nzp = count(c.Z, c.zr);
  size_t scale_bytes = mul_or_max(nscales, selem);
  size_t zp_bytes = !c.has_zp ? 0 : packed ? nzp : (nzp == SIZE_MAX ? SIZE_MAX : nzp / 2 + (nzp & 1));
  size_t nout = count(c.O, c.orank), out_bytes = mul_or_max(nout, selem);
  c.nidx = count(c.I, c.ir);
  if (out_bytes == SIZE_MAX && !scale_type_only) {
    /* an output too large for size_t: the run refuses it before it touches any tensor */
    memset(&err, 0x77, sizeof err);
    st = wg_gather_block_quantized(NULL, NULL, c.D, c.dr, NULL, (wg_index_type)c.itype, c.I, c.ir,
                                   c.gaxis, NULL, NULL, &desc, (wg_oob_mode)c.mode, NULL, &err);
    if (st != WG_ERR_SIZE_OVERFLOW) FAIL("an output of more than SIZE_MAX bytes gave status %d", st);
    return 0;
  }
  if (data_bytes > MAX_DATA_BYTES || scale_bytes > MAX_DATA_BYTES || zp_bytes > MAX_DATA_BYTES ||
      out_bytes > MAX_OUT_BYTES || c.nidx > MAX_INDICES)
    return 0;
  size_t ib_bytes = c.nidx * INDEX_BYTES[c.itype];

  /* uint8 tensors at any offset; scales, indices and the output aligned to their elements */
  buf data, idx, scales, zp, out;
  buf_new(&data, data_bytes, guarded, misalign);
  buf_new(&idx, ib_bytes, guarded, 0);
  buf_new(&scales, scale_bytes, guarded, (misalign & 2) * selem);
  buf_new(&zp, zp_bytes, guarded, misalign ^ 3);
  buf_new(&out, out_bytes, guarded, (misalign & 4) / 4 * selem);
  for (size_t i = 0; i < data_bytes; ++i) data.p[i] = (uint8_t)(rnd(r) >> 56);
  for (size_t i = 0; i < zp_bytes; ++i) zp.p[i] = (uint8_t)(rnd(r) >> 56);
  gbq_fill_scales(r, scales.p, nscales, c.st);
  for (size_t p = 0; p < c.nidx; ++p) {
    uint64_t v = decode_index(r, c.L[c.g], hostile);
    if (INDEX_BYTES[c.itype] == 4) {
      uint32_t v32 = (uint32_t)v;
      memcpy(idx.p + p * 4, &v32, 4);
    } else {
      memcpy(idx.p + p * 8, &v, 8);
    }
  }
  c.idx = idx.p;
  uint8_t* data_copy = snapshot(data.p, data_bytes);
  uint8_t* idx_copy = snapshot(idx.p, ib_bytes);
  uint8_t* scales_copy = snapshot(scales.p, scale_bytes);
  uint8_t* zp_copy = snapshot(zp.p, zp_bytes);
  uint8_t* want = calloc(out_bytes + 1, 1);
  memset(out.p, 0xA5, out_bytes);

  wg_pool* pool = use_pool ? fuzz_pool_split(split_all) : NULL;
  if (getenv("WG_FUZZ_DESCRIBE")) gbq_describe();
  memset(&err, 0x77, sizeof err);
  st = wg_gather_block_quantized_ex(pool, data.p, c.D, c.dr, idx.p,
                                    bad_itype ? (wg_index_type)4 : (wg_index_type)c.itype, c.I,
                                    c.ir, c.gaxis, scales.p, c.has_zp ? zp.p : NULL, &desc,
                                    (wg_oob_mode)c.mode, (wg_negative_mode)c.negative, out.p, &err);
  if (scale_type_only || c.mode == 3 || bad_itype || bad_negative) {
    if (st != WG_ERR_INVALID_ARGUMENT)
      FAIL("an invalid scale type, index type, mode or negative-index policy gave status %d", st);
    for (size_t i = 0; i < out_bytes; ++i)
      if (out.p[i] != 0xA5) FAIL("output written by a call that was refused");
  } else {
    wg_error_info want_err = {0};
    wg_status want_st = gbq_reference(&c, data.p, scales.p, zp.p, want, &want_err);
    if (st != want_st) FAIL("status %d, reference %d", st, want_st);
    for (size_t o = 0; st == WG_OK && o < nout; ++o)
      if (!gbq_same(c.st, out.p, want, o)) {
        uint32_t g32 = 0, w32 = 0;
        memcpy(&g32, out.p + o * selem, selem);
        memcpy(&w32, want + o * selem, selem);
        FAIL("output element %zu of %zu is 0x%x, reference 0x%x", o, nout, g32, w32);
      }
    if (st == WG_ERR_INDEX_OUT_OF_RANGE) check_error_report(&err, &want_err);
  }
  if (memcmp(data.p, data_copy, data_bytes) != 0) FAIL("data changed");
  if (memcmp(idx.p, idx_copy, ib_bytes) != 0) FAIL("indices changed");
  if (memcmp(scales.p, scales_copy, scale_bytes) != 0) FAIL("scales changed");
  if (memcmp(zp.p, zp_copy, zp_bytes) != 0) FAIL("zero points changed");
  buf_check_free(&data, "data");
  buf_check_free(&idx, "indices");
  buf_check_free(&scales, "scales");
  buf_check_free(&zp, "zero points");
  buf_check_free(&out, "output");
  free(data_copy);
  free(idx_copy);
  free(scales_copy);
  free(zp_copy);
  free(want);
  gbq_current = NULL;
  return 0;
}

/* ---- the scatters (scatter, scatter_nd, index_reduce, tensor_scatter): one decoder, their
 * shape rules and a reference that applies the updates one element at a time, in order ----
 * Input layout (tests/fuzz/make-seeds.mjs writes it):
 *   v: value type (0-11 wg_value_type; 12-15 invalid, for tensor_scatter element sizes 3, 16, 0,
 *      5) | reduce << 4 (0-5 none .. mean; 6 and 7: 6 and INT32_MIN, invalid; tensor_scatter:
 *      1 circular, 6 and 7 circular 2 and -1, invalid) | 0x80 include_self 0
 *   m: index type | mode << 2 (error, drop, clamp, invalid) | negative << 4 (wrap, error,
 *      invalid, wrap; tensor_scatter: 3 no write indices) | 0x40 pool | 0x80 every op split
 *   x: 0x01 in place | 0x02 guard zones | misalign << 2 (in elements) | 0x20 include_self 2 |
 *      0x40 an invalid index type | 0x80 shapes made to fit
 *   data rank, index rank, updates rank (each % 5; >= 0xf8: 17; scatter, fitted: updates rank
 *   byte & 0x40 the value form), axis (int8; 0x80 INT32_MIN, 0x7f INT32_MAX), data dims, index
 *   dims, updates dims (fitted: scatter, the extra of src over index in bit 0; tensor_scatter,
 *   the first byte the update's length), hostile, indices, update values, data values. */

/* wg_value_type: bytes and kind (i signed, u unsigned, h float16, b bfloat16, f float, d double) */
static const struct {
  size_t width;
  char kind;
} VT[12] = {{1, 'i'}, {1, 'u'}, {2, 'i'}, {2, 'u'}, {4, 'i'}, {4, 'u'},
            {8, 'i'}, {8, 'u'}, {2, 'h'}, {2, 'b'}, {4, 'f'}, {8, 'd'}};
static const size_t TS_BAD_WIDTH[4] = {3, 16, 0, 5}; /* tensor_scatter's invalid element sizes */

typedef struct sc_call {
  int vt, reduce, self, mode, negative, itype, circular, has_idx;
  size_t width; /* bytes an element (tensor_scatter: any size_t it was given) */
  int32_t axis;
  size_t a; /* the axis normalized */
  size_t P[RANKS], I[RANKS], U[RANKS], pr, ir, ur;
  int value_form;
  const void* idx;
  size_t nidx;
} sc_call;

static const sc_call* sc_current;

static void sc_describe(void) {
  const sc_call* c = sc_current;
  if (!c) return;
  fprintf(stderr,
          "  op %d value type %d (width %zu) reduce %d include_self %d mode %d negative %d index"
          " type %d axis %d circular %d write indices %d value form %d\n",
          FUZZ_OP, c->vt, c->width, c->reduce, c->self, c->mode, c->negative, c->itype, c->axis,
          c->circular, c->has_idx, c->value_form);
  print_shape("data", c->P, c->pr);
  print_shape("indices", c->I, c->ir);
  print_shape("updates", c->U, c->ur);
  for (size_t p = 0; c->idx && p < c->nidx && p < 32 && c->itype < 4; ++p) {
    uint64_t mag;
    int neg;
    int64_t bits;
    load(c->idx, (wg_index_type)c->itype, p, &mag, &neg, &bits);
    fprintf(stderr, "  index %zu: %lld\n", p, (long long)bits);
  }
}

/* ---- element arithmetic, on an element's bits (little-endian, as wasm and the CI hosts) ---- */
static uint64_t sc_mask(size_t w) { return w >= 8 ? UINT64_MAX : ((uint64_t)1 << (8 * w)) - 1; }
static uint64_t get_bits(const uint8_t* p, size_t w) {
  uint64_t v = 0;
  memcpy(&v, p, w);
  return v;
}
static void put_bits(uint8_t* p, size_t w, uint64_t v) { memcpy(p, &v, w); }
static int64_t sign_extend(uint64_t v, size_t w) {
  uint64_t top = (uint64_t)1 << (8 * w - 1), x = ((v & sc_mask(w)) ^ top) - top; /* wraps */
  int64_t s;
  memcpy(&s, &x, 8);
  return s;
}
static float to_float(char kind, uint64_t v) {
  if (kind == 'h') return f16_to_f32((uint16_t)v);
  if (kind == 'b') return bf16_to_f32((uint16_t)v);
  uint32_t u = (uint32_t)v;
  float f;
  memcpy(&f, &u, 4);
  return f;
}
static uint64_t from_float(char kind, float f) {
  if (kind == 'h') return f32_to_f16(f);
  if (kind == 'b') return f32_to_bf16(f);
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}
static double to_double(uint64_t v) {
  double d;
  memcpy(&d, &v, 8);
  return d;
}
static uint64_t from_double(double d) {
  uint64_t v;
  memcpy(&v, &d, 8);
  return v;
}
static int is_nan_bits(int vt, uint64_t v) {
  switch (VT[vt].kind) {
    case 'h': return (v & 0x7c00) == 0x7c00 && (v & 0x3ff);
    case 'b': return (v & 0x7f80) == 0x7f80 && (v & 0x7f);
    case 'f': return (v & 0x7fffffff) > 0x7f800000;
    case 'd': return (v & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
    default: return 0;
  }
}

/* Max and min (torch's scatter_reduce_ amax / amin): a NaN update y always wins, a NaN in place
 * x included; a NaN in place stays against a number; a tie (+0, -0) keeps x. (A float widens to
 * double exactly, so one function serves every float type.) */
static int ref_wins(int reduce, double x, double y) {
  return isnan(y) || (!isnan(x) && (reduce == WG_REDUCE_MAX ? y > x : y < x));
}

/* The value in place a combined with the update b: integers wrap; max and min as ref_wins says,
 * moving the winner's bits (a NaN's payload, a signaling one's included). */
static uint64_t ref_combine(int vt, int reduce, uint64_t a, uint64_t b) {
  size_t w = VT[vt].width;
  char k = VT[vt].kind;
  if (reduce == WG_REDUCE_NONE) return b;
  if (k == 'i' || k == 'u') {
    int greater = k == 'i' ? sign_extend(b, w) > sign_extend(a, w) : b > a;
    int less = k == 'i' ? sign_extend(b, w) < sign_extend(a, w) : b < a;
    switch (reduce) {
      case WG_REDUCE_MUL: return (a * b) & sc_mask(w);
      case WG_REDUCE_MAX: return greater ? b : a;
      case WG_REDUCE_MIN: return less ? b : a;
      default: return (a + b) & sc_mask(w); /* add, mean */
    }
  }
  if (k == 'd') {
    double x = to_double(a), y = to_double(b);
    switch (reduce) {
      case WG_REDUCE_MUL: return from_double(x * y);
      case WG_REDUCE_MAX:
      case WG_REDUCE_MIN: return ref_wins(reduce, x, y) ? b : a;
      default: return from_double(x + y);
    }
  }
  float x = to_float(k, a), y = to_float(k, b); /* float16 and bfloat16: in float32, rounded */
  switch (reduce) {
    case WG_REDUCE_MUL: return from_float(k, x * y);
    case WG_REDUCE_MAX:
    case WG_REDUCE_MIN: return ref_wins(reduce, x, y) ? b : a;
    default: return from_float(k, x + y);
  }
}

/* Where a position some update hits starts when include_self is 0. */
static uint64_t ref_identity(int vt, int reduce) {
  size_t w = VT[vt].width;
  uint64_t top = (uint64_t)1 << (8 * w - 1);
  switch (VT[vt].kind) {
    case 'i': return reduce == WG_REDUCE_MUL ? 1 : reduce == WG_REDUCE_MAX ? top : reduce == WG_REDUCE_MIN ? top - 1 : 0;
    case 'u': return reduce == WG_REDUCE_MUL ? 1 : reduce == WG_REDUCE_MIN ? sc_mask(w) : 0;
    case 'h': return reduce == WG_REDUCE_MUL ? 0x3c00 : reduce == WG_REDUCE_MAX ? 0xfc00 : reduce == WG_REDUCE_MIN ? 0x7c00 : 0;
    case 'b': return reduce == WG_REDUCE_MUL ? 0x3f80 : reduce == WG_REDUCE_MAX ? 0xff80 : reduce == WG_REDUCE_MIN ? 0x7f80 : 0;
    case 'f': return reduce == WG_REDUCE_MUL ? 0x3f800000 : reduce == WG_REDUCE_MAX ? 0xff800000 : reduce == WG_REDUCE_MIN ? 0x7f800000 : 0;
    default:
      return reduce == WG_REDUCE_MUL ? 0x3ff0000000000000ull : reduce == WG_REDUCE_MAX ? 0xfff0000000000000ull
             : reduce == WG_REDUCE_MIN ? 0x7ff0000000000000ull : 0;
  }
}

/* The mean: the sum over n; integers rounded toward minus infinity (torch's floor division). */
static uint64_t ref_divide(int vt, uint64_t a, uint64_t n) {
  size_t w = VT[vt].width;
  switch (VT[vt].kind) {
    case 'i': {
      int64_t s = sign_extend(a, w), q = s / (int64_t)n;
      if (s % (int64_t)n != 0 && s < 0) q -= 1;
      return (uint64_t)q & sc_mask(w);
    }
    case 'u': return a / n;
    case 'd': return from_double(to_double(a) / (double)n);
    default: return from_float(VT[vt].kind, to_float(VT[vt].kind, a) / (float)n);
  }
}

/* Values: small integers (many ties and duplicates), the type's edges, or any bits. */
static uint64_t decode_value(reader* r, int vt) {
  static const uint64_t INTS[16] = {0, 1, UINT64_MAX, 2, 3, UINT64_MAX - 1, 16, 127, 128, 255, 256,
                                    0x5555555555555555ull, 0xaaaaaaaaaaaaaaaaull, 0, 0, 0};
  static const uint16_t HALF[16] = {0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0xfe00, 0x7e01, 0x7c01,
                                    0x7bff, 0x0001, 0x0400, 0x3c01, 0x2e66, 0x3555, 0x6800, 0x6801};
  static const uint16_t BHALF[16] = {0x0000, 0x8000, 0x7f80, 0xff80, 0x7fc0, 0xffc0, 0x7fc1, 0x7f81,
                                     0x7f7f, 0x0001, 0x0080, 0x3f81, 0x3dcd, 0x3eab, 0x4380, 0x4381};
  static const uint32_t FLOATS[16] = {0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000,
                                      0x7fc00001, 0x7f800001, 0x7f7fffff, 0x00000001, 0x00800000, 0x3f800001,
                                      0x3dcccccd, 0x3eaaaaab, 0x4b800000, 0xcb800001};
  static const uint64_t DOUBLES[16] = {
      0, 0x8000000000000000ull, 0x7ff0000000000000ull, 0xfff0000000000000ull, 0x7ff8000000000000ull,
      0xfff8000000000000ull, 0x7ff8000000000001ull, 0x7ff0000000000001ull, 0x7fefffffffffffffull, 1,
      0x0010000000000000ull, 0x3ff0000000000001ull, 0x3fb999999999999aull, 0x3fd5555555555555ull,
      0x4340000000000000ull, 0xc340000000000001ull};
  size_t w = VT[vt].width;
  char k = VT[vt].kind;
  uint8_t c = byte(r);
  if (c < 0x60) {
    int v = (int)(c % 9) - 4;
    if (k == 'i' || k == 'u') return (uint64_t)(int64_t)v & sc_mask(w);
    return k == 'd' ? from_double(v) : from_float(k, (float)v);
  }
  if (c < 0x80) {
    size_t i = c & 15;
    switch (k) {
      case 'h': return HALF[i];
      case 'b': return BHALF[i];
      case 'f': return FLOATS[i];
      case 'd': return DOUBLES[i];
      default: {
        uint64_t top = (uint64_t)1 << (8 * w - 1);
        uint64_t edges[4] = {top, top - 1, top + 1, top - 2}; /* signed min, max, min + 1, max - 1 */
        return (i >= 13 ? edges[i - 13] : i == 12 ? edges[3] : INTS[i]) & sc_mask(w);
      }
    }
  }
  return rnd(r) & sc_mask(w);
}

/* ---- the rules: the statuses that may report what the call breaks (0: valid) ---- */
/* Checked when the call is planned (the record's shape query). */
static unsigned sc_plan_rules(sc_call* c) {
  unsigned broken = 0; /* first an invalid element type or a rank above the limit, either order */
  if (SC_IS(tensor_scatter) ? c->width != 1 && c->width != 2 && c->width != 4 && c->width != 8 : c->vt < 0)
    broken |= BIT(WG_ERR_INVALID_ARGUMENT);
  if (c->pr > WG_MAX_RANK || c->ir > WG_MAX_RANK || c->ur > WG_MAX_RANK) broken |= BIT(WG_ERR_MAX_RANK);
  if (broken) return broken;
  if (SC_IS(tensor_scatter)) {
    if (c->circular != 0 && c->circular != 1) broken |= BIT(WG_ERR_INVALID_ARGUMENT);
  } else {
    if (c->reduce < 0 || c->reduce > WG_REDUCE_MEAN || (c->reduce == WG_REDUCE_MEAN && SC_IS(scatter_nd)) ||
        (c->self != 0 && c->self != 1))
      broken |= BIT(WG_ERR_REDUCE);
  }
  int64_t rank = SC_IS(scatter) && c->pr == 0 ? 1 : (int64_t)c->pr;
  int axis_ok = c->axis >= -rank && c->axis < rank;
  if (axis_ok) c->a = (size_t)(c->axis < 0 ? c->axis + rank : c->axis);
  size_t want[3 * RANKS], wr = 0;
  if (SC_IS(scatter)) {
    if (c->ir != c->pr) return broken | BIT(WG_ERR_RANK_MISMATCH);
    c->value_form = c->ur == 0 && c->ir > 0;
    if (!c->value_form && c->ur != c->ir) return broken | BIT(WG_ERR_UPDATES_SHAPE);
    if (!axis_ok) return broken | BIT(WG_ERR_AXIS);
    for (size_t d = 0; d < c->ir; ++d) {
      if (!c->value_form && c->I[d] > c->U[d]) broken |= BIT(WG_ERR_UPDATES_SHAPE);
      if (d != c->a && c->I[d] > c->P[d]) broken |= BIT(WG_ERR_INDEX_SHAPE);
    }
    return broken;
  }
  if (SC_IS(scatter_nd)) {
    if (c->pr < 1) broken |= BIT(WG_ERR_DATA_SCALAR);
    if (c->ir < 1) broken |= BIT(WG_ERR_INDICES_SCALAR);
    if (broken & (BIT(WG_ERR_DATA_SCALAR) | BIT(WG_ERR_INDICES_SCALAR))) return broken;
    size_t K = c->I[c->ir - 1];
    if (K > c->pr) return broken | BIT(WG_ERR_INDEX_DEPTH);
    for (size_t d = 0; d + 1 < c->ir; ++d) want[wr++] = c->I[d];
    for (size_t d = K; d < c->pr; ++d) want[wr++] = c->P[d];
  } else if (SC_IS(index_reduce)) {
    if (c->pr < 1) return broken | BIT(WG_ERR_DATA_SCALAR);
    if (!axis_ok) return broken | BIT(WG_ERR_AXIS);
    for (size_t d = 0; d < c->a; ++d) want[wr++] = c->P[d];
    for (size_t d = 0; d < c->ir; ++d) want[wr++] = c->I[d];
    for (size_t d = c->a + 1; d < c->pr; ++d) want[wr++] = c->P[d];
  } else { /* tensor_scatter: the axis in [1, rank - 1], update the cache's shape but along it */
    if (!axis_ok || c->a < 1) return broken | BIT(WG_ERR_AXIS);
    if (c->ur != c->pr) return broken | BIT(WG_ERR_UPDATES_SHAPE);
    for (size_t d = 0; d < c->pr; ++d) want[wr++] = d == c->a ? c->U[d] : c->P[d];
    if (c->U[c->a] > c->P[c->a]) broken |= BIT(WG_ERR_UPDATES_SHAPE); /* in both modes */
  }
  if (!shapes_equal(c->U, c->ur, want, wr)) broken |= BIT(WG_ERR_UPDATES_SHAPE);
  return broken;
}

/* Checked when the call runs: the policies, the index type, the output's size. */
static unsigned sc_run_rules(const sc_call* c, int bad_itype) {
  unsigned broken = 0;
  if (SC_IS(tensor_scatter) ? bad_itype && c->has_idx
                            : bad_itype || c->mode == 3 || (c->negative != 0 && c->negative != 1))
    broken |= BIT(WG_ERR_INVALID_ARGUMENT);
  if (mul_or_max(count(c->P, c->pr), c->width) == SIZE_MAX) broken |= BIT(WG_ERR_SIZE_OVERFLOW);
  return broken;
}

/* The call's record, as the public wrapper makes it (for a shape query without tensors). */
static wg_status sc_record(const sc_call* c, wg_index_type itype, wg_call* rec) {
  if (SC_IS(tensor_scatter)) {
    size_t batch = c->pr ? c->P[0] : 0;
    wg_status st = wg_call_indexed(rec, FUZZ_OP, NULL, c->width, c->P, c->pr, NULL, itype, &batch, 1,
                                   WG_OOB_ERROR, WG_NEGATIVE_ERROR, NULL);
    if (!c->has_idx) rec->tensors[WG_TENSOR_indices].dtype = WG_DTYPE_NONE;
    rec->attrs[WG_ATTR_axis] = c->axis;
    rec->attrs[WG_ATTR_circular] = c->circular;
    if (st != WG_OK) return st;
    return wg_call_tensor(rec, WG_TENSOR_updates, NULL, rec->tensors[WG_TENSOR_data].dtype, c->U, c->ur);
  }
  wg_scatter_desc desc = {c->vt, c->reduce, c->self, c->mode, c->negative};
  wg_status st = wg_call_scatter(rec, FUZZ_OP, NULL, c->P, c->pr, NULL, itype, c->I, c->ir, NULL, c->U,
                                 c->ur, &desc, NULL);
  rec->attrs[WG_ATTR_axis] = c->axis;
  return st;
}

/* ---- the reference ---- */
/* Where the first bad index is, in WG_OOB_ERROR mode (tensor_scatter: always): returns 1 and
 * fills *err as the library must. */
static int sc_first_bad(const sc_call* c, wg_error_info* err) {
  size_t n = c->has_idx ? c->nidx : 0;
  for (size_t p = 0; p < n; ++p) {
    uint64_t mag;
    int neg;
    int64_t bits;
    load(c->idx, (wg_index_type)c->itype, p, &mag, &neg, &bits);
    size_t dim, s, pos;
    int bad;
    if (SC_IS(tensor_scatter)) { /* a write index: not negative; in linear mode, the update fits */
      size_t room = c->P[c->a] - c->U[c->a];
      /* linear: from 0 to room fit, saturated at SIZE_MAX (the bound is a size_t); circular: no
       * bound, the report's limit -1 */
      bad = neg || (!c->circular && (room == SIZE_MAX ? mag >= SIZE_MAX : mag > room));
      dim = c->a;
      s = c->circular ? (size_t)-1 : room == SIZE_MAX ? SIZE_MAX : room + 1;
    } else {
      dim = SC_IS(scatter_nd) ? p % c->I[c->ir - 1] : c->a;
      s = c->pr ? c->P[dim] : 1;
      bad = resolve(c->idx, (wg_index_type)c->itype, p, s, WG_OOB_ERROR, c->negative, &pos) < 0;
    }
    if (bad) {
      *err = (wg_error_info){.arg = WG_ARG_INDICES, .dim = (int64_t)dim, .value = bits,
                             .limit = SC_IS(tensor_scatter) && c->circular ? -1 : (int64_t)s, .position = (int64_t)p};
      return 1;
    }
  }
  return 0;
}

typedef struct sc_apply {
  const sc_call* c;
  uint8_t* out;
  uint32_t* hits; /* per element of the output */
  const uint8_t* updates;
} sc_apply;

/* n elements of update row `src` (step 1, or 0: the value form) into the output from `dest`. */
static void sc_apply_row(sc_apply* a, size_t dest, size_t src, size_t step, size_t n) {
  const sc_call* c = a->c;
  size_t w = c->width;
  int reduce = SC_IS(tensor_scatter) ? WG_REDUCE_NONE : c->reduce;
  for (size_t k = 0; k < n; ++k) {
    uint8_t* e = a->out + (dest + k) * w;
    uint64_t v = get_bits(e, w);
    if (a->hits[dest + k]++ == 0 && !c->self && reduce != WG_REDUCE_NONE) v = ref_identity(c->vt, reduce);
    put_bits(e, w, ref_combine(c->vt, reduce, v, get_bits(a->updates + (src + k * step) * w, w)));
  }
}

/* want = data with every update applied in the index tensor's row-major order. */
static void sc_reference(const sc_call* c, const uint8_t* data, const uint8_t* updates, uint8_t* want) {
  size_t nout = count(c->P, c->pr), w = c->width;
  if (nout == 0) return;
  /* Only data that fuzz_scatter allocated comes here; saying so bounds the calloc below, which
   * gcc's -Walloc-size-larger-than (Release) otherwise sees sized by count()'s SIZE_MAX. */
  if (nout > MAX_DATA_BYTES) FAIL("the reference called with %zu elements", nout);
  memcpy(want, data, nout * w);
  uint32_t* hits = calloc(nout, sizeof *hits);
  if (!hits) abort();
  sc_apply a = {c, want, hits, updates};
  wg_index_type t = (wg_index_type)c->itype;
  size_t pos, ic[RANKS], dc[RANKS];
  if (SC_IS(scatter)) { /* index element p: data at p's coordinates with `dim` replaced */
    const size_t one[1] = {1};
    size_t rank = c->pr ? c->pr : 1;
    const size_t *P = c->pr ? c->P : one, *I = c->pr ? c->I : one, *U = c->ur ? c->U : one;
    for (size_t p = 0; p < c->nidx; ++p) {
      unravel(p, I, rank, ic);
      if (resolve(c->idx, t, p, P[c->a], c->mode, c->negative, &pos) != 1) continue;
      memcpy(dc, ic, rank * sizeof *ic);
      dc[c->a] = pos;
      sc_apply_row(&a, ravel(dc, P, rank), c->value_form ? 0 : ravel(ic, U, rank), 1, 1);
    }
  } else if (SC_IS(scatter_nd)) { /* tuple t: the row data[i0, ..., iK-1] */
    size_t K = c->I[c->ir - 1], row = count(c->P + K, c->pr - K), items = count(c->I, c->ir - 1);
    for (size_t q = 0; q < items; ++q) {
      size_t r = 0;
      int ok = 1;
      for (size_t k = 0; k < K && ok; ++k) {
        ok = resolve(c->idx, t, q * K + k, c->P[k], c->mode, c->negative, &pos) == 1;
        r = r * c->P[k] + pos;
      }
      if (ok) sc_apply_row(&a, r * row, q * row, 1, row);
    }
  } else if (SC_IS(index_reduce)) { /* (outer o, index i): the row input[o, index[i], :] */
    size_t outer = count(c->P, c->a), inner = count(c->P + c->a + 1, c->pr - c->a - 1), A = c->P[c->a];
    for (size_t o = 0; o < outer; ++o) {
      for (size_t i = 0; i < c->nidx; ++i) {
        if (resolve(c->idx, t, i, A, c->mode, c->negative, &pos) == 1)
          sc_apply_row(&a, (o * A + pos) * inner, (o * c->nidx + i) * inner, 1, inner);
      }
    }
  } else { /* update row s of (batch b, middle m) to position write_indices[b] + s */
    size_t B = c->P[0], M = count(c->P + 1, c->a - 1), L = c->P[c->a], S = c->U[c->a];
    size_t inner = count(c->P + c->a + 1, c->pr - c->a - 1);
    for (size_t b = 0; b < B; ++b) {
      uint64_t wi = 0; /* valid: not negative */
      int neg;
      int64_t bits;
      if (c->has_idx) load(c->idx, t, b, &wi, &neg, &bits);
      for (size_t m = 0; m < M; ++m) {
        for (size_t s = 0; s < S; ++s) {
          pos = c->circular ? (size_t)((wi % L + s % L) % L) : (size_t)wi + s;
          sc_apply_row(&a, ((b * M + m) * L + pos) * inner, ((b * M + m) * S + s) * inner, 1, inner);
        }
      }
    }
  }
  if (!SC_IS(tensor_scatter) && c->reduce == WG_REDUCE_MEAN) {
    for (size_t e = 0; e < nout; ++e) {
      if (hits[e]) put_bits(want + e * w, w, ref_divide(c->vt, get_bits(want + e * w, w), hits[e] + (uint64_t)c->self));
    }
  }
  free(hits);
}

/* Output element e equal to the reference's, bit for bit; a NaN that arithmetic made (add, mul,
 * mean) may have any sign and payload, which depend on the platform. */
static int sc_same(const sc_call* c, const uint8_t* got, const uint8_t* want, size_t e) {
  size_t w = c->width;
  uint64_t a = get_bits(got + e * w, w), b = get_bits(want + e * w, w);
  if (a == b) return 1;
  int arith = !SC_IS(tensor_scatter) && (c->reduce == WG_REDUCE_ADD || c->reduce == WG_REDUCE_MUL ||
                                         c->reduce == WG_REDUCE_MEAN);
  return arith && is_nan_bits(c->vt, a) && is_nan_bits(c->vt, b);
}

static wg_status sc_run(wg_pool* pool, const sc_call* c, const void* data, const void* idx,
                        wg_index_type itype, const void* updates, void* out, wg_error_info* err) {
  wg_scatter_desc desc = {c->vt, c->reduce, c->self, c->mode, c->negative};
  switch (FUZZ_OP) {
    case OP_scatter:
      return wg_scatter(pool, data, c->P, c->pr, c->axis, idx, itype, c->I, c->ir, updates, c->U, c->ur, &desc, out, err);
    case OP_scatter_nd:
      return wg_scatter_nd(pool, data, c->P, c->pr, idx, itype, c->I, c->ir, updates, c->U, c->ur, &desc, out, err);
    case OP_index_reduce:
      return wg_index_reduce(pool, data, c->P, c->pr, c->axis, idx, itype, c->I, c->ir, updates, c->U, c->ur,
                             &desc, out, err);
    default:
      return wg_tensor_scatter(pool, data, c->P, c->pr, updates, c->U, c->ur, c->has_idx ? idx : NULL, itype,
                               c->axis, c->circular, c->width, out, err);
  }
}

/* Shapes made to fit the op's rules (most inputs), from the decoded dims: `extra` holds the
 * updates dims' bytes. */
static void sc_fit(sc_call* c, const uint8_t* extra, uint8_t ub) {
  int64_t rank = c->pr ? (int64_t)c->pr : 1;
  int64_t a = c->axis < 0 ? c->axis + rank : c->axis;
  if (SC_IS(scatter)) {
    c->ir = c->pr;
    for (size_t d = 0; d < c->ir; ++d) {
      if ((int64_t)d != a && c->P[d] < SIZE_MAX) c->I[d] %= c->P[d] + 1;
    }
    c->ur = (ub & 0x40) && c->ir ? 0 : c->ir;
    for (size_t d = 0; d < c->ur; ++d) c->U[d] = c->I[d] + (extra[d] & 1);
  } else if (SC_IS(scatter_nd)) {
    if (!c->pr || !c->ir) return;
    size_t K = c->I[c->ir - 1] % (c->pr + 1);
    c->I[c->ir - 1] = K;
    c->ur = 0;
    for (size_t d = 0; d + 1 < c->ir; ++d) c->U[c->ur++] = c->I[d];
    for (size_t d = K; d < c->pr; ++d) c->U[c->ur++] = c->P[d];
  } else if (SC_IS(index_reduce)) {
    if (!c->pr || a < 0 || a >= rank) return;
    c->ur = 0;
    for (size_t d = 0; d < (size_t)a; ++d) c->U[c->ur++] = c->P[d];
    for (size_t d = 0; d < c->ir; ++d) c->U[c->ur++] = c->I[d];
    for (size_t d = (size_t)a + 1; d < c->pr; ++d) c->U[c->ur++] = c->P[d];
  } else {
    if (a < 1 || a >= rank) return;
    c->ur = c->pr;
    memcpy(c->U, c->P, c->pr * sizeof *c->P);
    size_t L = c->P[a]; /* the update at most as long as the cache, in both modes */
    c->U[a] = L ? extra[0] % (L < 8 ? L + 1 : 9) + (L > 8 ? L - 8 : 0) : 0;
  }
}

static int fuzz_scatter(reader* r) {
  sc_call c;
  memset(&c, 0, sizeof c);
  uint8_t v = byte(r), m = byte(r), x = byte(r);
  static const int32_t BAD_REDUCE[2] = {6, INT32_MIN};
  int reduce_bits = v >> 4 & 7;
  if (SC_IS(tensor_scatter)) {
    c.vt = (v & 15) < 12 ? v & 15 : 0;
    c.width = (v & 15) < 12 ? VT[v & 15].width : TS_BAD_WIDTH[(v & 15) - 12];
    c.circular = reduce_bits == 6 ? 2 : reduce_bits == 7 ? -1 : reduce_bits & 1;
    c.has_idx = (m >> 4 & 3) != 3;
    c.mode = WG_OOB_ERROR;
    c.negative = WG_NEGATIVE_ERROR;
    c.self = 1;
  } else {
    c.vt = (v & 15) < 12 ? v & 15 : -1;
    c.width = c.vt >= 0 ? VT[c.vt].width : 1;
    c.reduce = reduce_bits < 6 ? reduce_bits : BAD_REDUCE[reduce_bits - 6];
    c.self = x & 0x20 ? 2 : !(v & 0x80);
    c.mode = m >> 2 & 3;
    c.negative = (m >> 4 & 3) == 2 ? 7 : (m >> 4 & 3) == 1;
    c.has_idx = 1;
  }
  c.itype = m & 3;
  int use_pool = m >> 6 & 1, split_all = m >> 7 & 1;
  int in_place = x & 1, guarded = x >> 1 & 1, bad_itype = x >> 6 & 1, fit = x >> 7;
  size_t misalign = x >> 2 & 7;
  uint8_t rb = byte(r), ib = byte(r), ub = byte(r), ab = byte(r);
  c.pr = rb >= 0xf8 ? WG_MAX_RANK + 1 : rb % 5;
  c.ir = ib >= 0xf8 ? WG_MAX_RANK + 1 : ib % 5;
  c.ur = ub >= 0xf8 ? WG_MAX_RANK + 1 : ub % 5;
  c.axis = ab == 0x80 ? INT32_MIN : ab == 0x7f ? INT32_MAX : (int8_t)ab;
  uint8_t extra[RANKS] = {0};
  for (size_t d = 0; d < c.pr; ++d) c.P[d] = decode_dim(byte(r));
  if (SC_IS(tensor_scatter)) { /* write indices: one a batch row */
    c.ir = 1;
    c.I[0] = c.pr ? c.P[0] : 0;
  } else {
    for (size_t d = 0; d < c.ir; ++d) c.I[d] = decode_dim(byte(r));
  }
  for (size_t d = 0; d < c.ur; ++d) c.U[d] = decode_dim(extra[d] = byte(r));
  if (fit && c.pr <= WG_MAX_RANK && c.ir <= WG_MAX_RANK) sc_fit(&c, extra, ub);
  unsigned hostile = byte(r);
  sc_current = &c;

  /* the rules */
  unsigned plan_broken = sc_plan_rules(&c);
  unsigned broken = plan_broken | sc_run_rules(&c, bad_itype);
  wg_index_type itype = bad_itype ? (wg_index_type)4 : (wg_index_type)c.itype;
  size_t ndata = count(c.P, c.pr), nupd = count(c.U, c.ur);
  c.nidx = count(c.I, c.ir);
  size_t data_bytes = mul_or_max(ndata, c.width), upd_bytes = mul_or_max(nupd, c.width);
  size_t ib_bytes = mul_or_max(c.nidx, INDEX_BYTES[c.itype]);
  if (data_bytes > MAX_DATA_BYTES || upd_bytes > MAX_DATA_BYTES || c.nidx > MAX_INDICES) {
    /* too large to allocate: the shape query alone, which must refuse what the rules refuse */
    wg_call rec;
    wg_status st = sc_record(&c, itype, &rec);
    if (st == WG_OK) st = wg_call_shape(&rec);
    if (plan_broken ? st >= 32 || !(plan_broken & BIT(st)) : st != WG_OK && st != WG_ERR_SIZE_OVERFLOW)
      FAIL("shape query: status %d, the rules allow 0x%x", st, plan_broken);
    return 0;
  }

  /* tensors of their exact sizes, each aligned to its element (the kernels read typed values) */
  size_t w = c.width ? c.width : 1;
  buf data, idx, upd, out;
  buf_new(&data, data_bytes, guarded, misalign * w);
  buf_new(&idx, ib_bytes, guarded, 0);
  buf_new(&upd, upd_bytes, guarded, (misalign ^ 3) * w);
  if (!in_place) buf_new(&out, data_bytes, guarded, (misalign ^ 5) * w);
  for (size_t p = 0; p < c.nidx; ++p) {
    size_t s;
    if (SC_IS(tensor_scatter)) /* the cache's length (circular), or the room for the update */
      s = c.ur != c.pr || c.a >= c.pr ? 1 : c.circular ? c.P[c.a] : c.U[c.a] <= c.P[c.a] ? c.P[c.a] - c.U[c.a] + 1 : 1;
    else if (SC_IS(scatter_nd)) s = c.ir && c.I[c.ir - 1] ? c.P[p % c.I[c.ir - 1] % (c.pr ? c.pr : 1)] : 0;
    else s = c.pr ? c.P[c.a < c.pr ? c.a : 0] : 1;
    uint64_t iv = decode_index(r, s, hostile);
    if (INDEX_BYTES[c.itype] == 4) {
      uint32_t v32 = (uint32_t)iv;
      memcpy(idx.p + p * 4, &v32, 4);
    } else {
      memcpy(idx.p + p * 8, &iv, 8);
    }
  }
  int vt = c.vt >= 0 ? c.vt : 0;
  for (size_t i = 0; c.width == VT[vt].width && i < nupd; ++i) put_bits(upd.p + i * w, w, decode_value(r, vt));
  for (size_t i = 0; c.width == VT[vt].width && i < ndata; ++i) put_bits(data.p + i * w, w, decode_value(r, vt));
  if (c.width != VT[vt].width) { /* tensor_scatter with an invalid size: any bytes */
    for (size_t i = 0; i < upd_bytes; ++i) upd.p[i] = (uint8_t)(rnd(r) >> 56);
    for (size_t i = 0; i < data_bytes; ++i) data.p[i] = (uint8_t)(rnd(r) >> 56);
  }
  c.idx = idx.p;
  uint8_t* target = in_place ? data.p : out.p;
  if (!in_place) memset(out.p, 0xA5, data_bytes);
  uint8_t* data_copy = snapshot(data.p, data_bytes);
  uint8_t* out_copy = snapshot(target, data_bytes);
  uint8_t* idx_copy = snapshot(idx.p, ib_bytes);
  uint8_t* upd_copy = snapshot(upd.p, upd_bytes);

  wg_pool* pool = use_pool ? fuzz_pool_split(split_all) : NULL;
  if (getenv("WG_FUZZ_DESCRIBE")) sc_describe();
  wg_error_info err;
  memset(&err, 0x77, sizeof err);
  wg_status st = sc_run(pool, &c, data.p, idx.p, itype, upd.p, target, &err);
  wg_status want_st = WG_OK;
  wg_error_info want_err = {0};
  if (broken) {
    if (st >= 32 || !(broken & BIT(st))) FAIL("status %d, the rules allow 0x%x", st, broken);
  } else {
    if ((c.mode == WG_OOB_ERROR || SC_IS(tensor_scatter)) && sc_first_bad(&c, &want_err)) want_st = WG_ERR_INDEX_OUT_OF_RANGE;
    if (st != want_st) FAIL("status %d, reference %d", st, want_st);
    if (st == WG_ERR_INDEX_OUT_OF_RANGE) check_error_report(&err, &want_err);
  }
  if (st == WG_OK) {
    uint8_t* want = malloc(data_bytes + 1);
    if (!want) abort();
    sc_reference(&c, data_copy, upd.p, want);
    for (size_t e = 0; e < ndata; ++e) {
      if (!sc_same(&c, target, want, e))
        FAIL("output element %zu of %zu is 0x%llx, reference 0x%llx", e, ndata,
             (unsigned long long)get_bits(target + e * w, w), (unsigned long long)get_bits(want + e * w, w));
    }
    free(want);
  } else if (st != WG_OK && memcmp(target, out_copy, data_bytes) != 0) {
    FAIL("a call that failed (status %d) wrote its output%s", st, in_place ? " (in place)" : "");
  }
  if (!in_place && memcmp(data.p, data_copy, data_bytes) != 0) FAIL("data changed");
  if (memcmp(idx.p, idx_copy, ib_bytes) != 0) FAIL("indices changed");
  if (memcmp(upd.p, upd_copy, upd_bytes) != 0) FAIL("updates changed");
  buf_check_free(&data, "data");
  buf_check_free(&idx, "indices");
  buf_check_free(&upd, "updates");
  if (!in_place) buf_check_free(&out, "output");
  free(data_copy);
  free(out_copy);
  free(idx_copy);
  free(upd_copy);
  sc_current = NULL;
  return 0;
}

/* ---- the fused gather-reduce (embedding_bag, segment_reduce): one decoder, their rules and a
 * reference that reduces each output element from its segment's rows, in order ----
 * Input layout (tests/fuzz/make-seeds.mjs writes it):
 *   v: value type (0-7: f32, f64, f16, bf16, f32, f64, i32 (refused), 12 (invalid)) | reduce << 3
 *      (0-7 of BAG_REDUCE / SEG_REDUCE: the op's own, then two it refuses) | 0x40 pool | 0x80
 *      every op split
 *   s: form (0-7 of BAG_FORM / SEG_FORM, refused ones among them) | segments' index type << 3 |
 *      how << 5 (0-3 valid; 4 one value broken; 5 one more or one fewer; 6 any values; 7 an
 *      invalid index type)
 *   x: index type | mode << 2 (error, zero, clamp, invalid) | negative << 4 (wrap, error,
 *      invalid, wrap) | 0x40 guard zones | 0x80 an invalid index type
 *   o: 0x01 per-sample weights (embedding_bag) or initial (segment_reduce) | 0x02 padding_idx |
 *      0x04 max_indices | 0x08 a quantized table (embedding_bag) | misalign << 4 (in elements) |
 *      0xff no desc at all
 *   a quantized table's two bytes (the value type is then the scales'):
 *      quant type (0-3: uint8, uint4, int4, a float32 table (refused)) | scale type << 2 (f32,
 *      f16, bf16, f64 (refused)) | 0x10 zero points | bits << 5 (0-3: 4, 2, 8, 3 (refused)) |
 *      0x80 scales' shape perturbed;
 *      block size (0-7: 16, 32, 64, 128, 256, 24, 0, 512) | quantize axis << 3 (0-3: -1, 0, 1,
 *      the rank) | 0x20 zero points' shape perturbed; the perturbation bytes come after them
 *   data rank (% 4; >= 0xf8: 17); embedding_bag: index rank (< 0x80 the form's, else % 3;
 *   >= 0xf8: 17), segment_reduce: axis (int8; 0x80 INT32_MIN, 0x7f INT32_MAX); data dims, index
 *   dims, the segments' count (a dim; ids: num_segments, < 0xb0 % 8, else NUM_TABLE), padding
 *   (< 0x80 in range, 0x80-0xef in range from the end, then rows, -rows - 1, INT32_MAX, INT32_MIN,
 *   else int8), hostile, segments (a step each: < 0x40 none, < 0x80 that many less 0x40, else any
 *   up to the room left; a broken one: position, kind), indices, weights or initial, data values
 *   (< 0x40 small integers, < 0x70 a random mantissa near 1, < 0x80 the next bytes' bits, else
 *   decode_value). */
#define IS_BAG (SC_IS(embedding_bag) || SC_IS(segment_reduce))
#define MAX_BAG_WORK (1u << 20) /* rows read times their length, at most */
#define MAX_WORKSPACE (1u << 20)

static const int32_t BAG_VT[8] = {WG_VALUE_F32, WG_VALUE_F64, WG_VALUE_F16, WG_VALUE_BF16,
                                  WG_VALUE_F32, WG_VALUE_F64, WG_VALUE_I32, 12};
static const int32_t BAG_REDUCE[8] = {WG_REDUCE_ADD, WG_REDUCE_MEAN, WG_REDUCE_MAX, WG_REDUCE_SQRTN,
                                      WG_REDUCE_ADD, WG_REDUCE_MEAN, WG_REDUCE_MIN, INT32_MIN};
static const int32_t SEG_REDUCE[8] = {WG_REDUCE_ADD, WG_REDUCE_MEAN, WG_REDUCE_MAX, WG_REDUCE_MIN,
                                      WG_REDUCE_MUL, WG_REDUCE_MEAN, WG_REDUCE_SQRTN, WG_REDUCE_NONE};
static const int32_t BAG_FORM[8] = {WG_SEGMENTS_FIXED, WG_SEGMENTS_OFFSETS, WG_SEGMENTS_BOUNDS, WG_SEGMENTS_IDS,
                                    WG_SEGMENTS_FIXED, WG_SEGMENTS_OFFSETS, WG_SEGMENTS_LENGTHS, -1};
static const int32_t SEG_FORM[8] = {WG_SEGMENTS_LENGTHS, WG_SEGMENTS_BOUNDS, WG_SEGMENTS_IDS, WG_SEGMENTS_LENGTHS,
                                    WG_SEGMENTS_BOUNDS, WG_SEGMENTS_IDS, WG_SEGMENTS_OFFSETS, WG_SEGMENTS_FIXED};
/* num_segments past the small ones: where (num + 1) * sizeof(size_t) wraps in wasm32 (2^30 - 1
 * on), and negative ones */
static const int64_t NUM_TABLE[] = {0, 1, 7, 16, 64, 257, 4097, 1 << 20, (1 << 29) - 1, 1 << 29,
                                    (1 << 30) - 2, (1 << 30) - 1, 1 << 30, (1 << 30) + 1, INT32_MAX, -1,
                                    INT32_MIN, -2};

typedef struct bag_call {
  int32_t vt, reduce, form, mode, negative, axis, num, pad;
  int stype, itype, how, weighted, padded, want_mi, has_init, no_desc, bad_itype, quant;
  size_t D[RANKS], I[RANKS], O[RANKS], dr, ir, orank;
  size_t V[GBQ_RANKS]; /* the values' shape: D, or a quantized table's logical shape */
  gbq_call q;          /* a quantized table: its layout (gather axis 0, no indices of its own) */
  size_t a, outer, n, inner, rows, bags, padn, width; /* derived by bag_rules */
  size_t slen;
  const void* idx;
  const void* seg;
  size_t nidx;
} bag_call;

static const bag_call* bag_current;

static void bag_describe(void) {
  const bag_call* c = bag_current;
  if (!c) return;
  fprintf(stderr,
          "  op %d value type %d reduce %d form %d segments type %d how %d index type %d mode %d negative %d"
          " weights %d padding %d (%d) max indices %d initial %d axis %d num_segments %d no desc %d\n",
          FUZZ_OP, c->vt, c->reduce, c->form, c->stype, c->how, c->itype, c->mode, c->negative, c->weighted,
          c->padded, c->pad, c->want_mi, c->has_init, c->axis, c->num, c->no_desc);
  print_shape("data", c->D, c->dr);
  if (SC_IS(embedding_bag)) print_shape("indices", c->I, c->ir);
  if (c->quant) {
    fprintf(stderr, "  quantized: quant type %d scale type %d bits %d block %d quantize axis %d zero points %d\n",
            c->q.qt, c->q.st, c->q.bits, c->q.block, c->q.qaxis, c->q.has_zp);
    print_shape("scales", c->q.S, c->q.sr);
    if (c->q.has_zp) print_shape("zero points", c->q.Z, c->q.zr);
  }
  for (size_t p = 0; c->seg && p < c->slen && p < 32 && c->stype < 4; ++p) {
    uint64_t mag;
    int neg;
    int64_t bits;
    load(c->seg, (wg_index_type)c->stype, p, &mag, &neg, &bits);
    fprintf(stderr, "  segment %zu: %lld\n", p, (long long)bits);
  }
  for (size_t p = 0; c->idx && p < c->nidx && p < 32; ++p) {
    uint64_t mag;
    int neg;
    int64_t bits;
    load(c->idx, (wg_index_type)c->itype, p, &mag, &neg, &bits);
    fprintf(stderr, "  index %zu: %lld\n", p, (long long)bits);
  }
}

/* What a call may end in: statuses, each with the report it must give (exact) or any. */
typedef struct outcome {
  wg_status st;
  int exact;
  wg_error_info err;
} outcome;
typedef struct outcomes {
  outcome o[16];
  size_t n;
} outcomes;

static void allow(outcomes* s, wg_status st, int exact, int64_t arg, int64_t dim, int64_t value, int64_t limit,
                  int64_t position) {
  if (s->n < 16) s->o[s->n++] = (outcome){st, exact, {arg, dim, value, limit, position}};
}
#define ALLOW_ANY(s, st) allow(s, st, 0, 0, 0, 0, 0, 0)

static void check_outcome(const outcomes* s, wg_status st, const wg_error_info* err) {
  for (size_t k = 0; k < s->n; ++k) {
    const outcome* o = &s->o[k];
    if (o->st == st && (!o->exact || memcmp(&o->err, err, sizeof *err) == 0)) return;
  }
  fprintf(stderr, "fuzz_ops: status %d (arg %lld dim %lld value %lld limit %lld position %lld); allowed:\n", st,
          (long long)err->arg, (long long)err->dim, (long long)err->value, (long long)err->limit,
          (long long)err->position);
  for (size_t k = 0; k < s->n; ++k) {
    const outcome* o = &s->o[k];
    if (o->exact)
      fprintf(stderr, "  status %d (arg %lld dim %lld value %lld limit %lld position %lld)\n", o->st,
              (long long)o->err.arg, (long long)o->err.dim, (long long)o->err.value, (long long)o->err.limit,
              (long long)o->err.position);
    else
      fprintf(stderr, "  status %d (any report)\n", o->st);
  }
  FAIL("a status the rules do not allow");
}

static int bag_float_type(int32_t vt) {
  return vt == WG_VALUE_F32 || vt == WG_VALUE_F64 || (SC_IS(embedding_bag) && (vt == WG_VALUE_F16 || vt == WG_VALUE_BF16));
}

/* The rules the plan checks (wasm_gather.h, src/op_embedding_bag.c, src/op_segment_reduce.c): each broken
 * one into s. Fills the derived sizes and the output shape as far as the rules hold. */
static void bag_plan_rules(bag_call* c, outcomes* s) {
  const int bag = SC_IS(embedding_bag);
  if (c->no_desc) {
    ALLOW_ANY(s, WG_ERR_INVALID_ARGUMENT);
    return;
  }
  if (c->dr > WG_MAX_RANK || (bag && c->ir > WG_MAX_RANK)) ALLOW_ANY(s, WG_ERR_MAX_RANK);
  if (c->dr < 1) ALLOW_ANY(s, WG_ERR_DATA_SCALAR);
  if (s->n) return;
  if (c->quant) { /* the table's rules first (wg_dequant_table), then the bag's on its logical shape */
    int scale_type_only;
    unsigned broken = gbq_rules(&c->q, &scale_type_only);
    for (wg_status st = 0; st < 32; ++st)
      if (broken & BIT(st)) ALLOW_ANY(s, st);
    if (s->n) return;
    memcpy(c->V, c->q.L, c->dr * sizeof(size_t));
  }
  if (!bag_float_type(c->vt)) ALLOW_ANY(s, WG_ERR_VALUE_TYPE);
  if (c->vt < 0 || c->vt > WG_VALUE_F64) ALLOW_ANY(s, WG_ERR_INVALID_ARGUMENT);
  int form_ok;
  if (bag) {
    c->a = 0;
    c->n = count(c->I, c->ir);
    size_t want = c->form == WG_SEGMENTS_FIXED ? 2 : 1;
    if (c->ir != want || c->form == WG_SEGMENTS_LENGTHS)
      allow(s, WG_ERR_SEGMENTS, 1, WG_ARG_SEGMENTS, WG_SEGMENT_FORM, c->form, (int64_t)c->ir, -1);
    if (c->reduce != WG_REDUCE_ADD && c->reduce != WG_REDUCE_MEAN && c->reduce != WG_REDUCE_MAX &&
        c->reduce != WG_REDUCE_SQRTN)
      ALLOW_ANY(s, WG_ERR_REDUCE);
    form_ok = c->form >= WG_SEGMENTS_FIXED && c->form <= WG_SEGMENTS_IDS;
  } else {
    int64_t r = (int64_t)c->dr;
    if (c->axis < -r || c->axis >= r) {
      allow(s, WG_ERR_AXIS, 1, WG_ARG_AXIS, -1, c->axis, r, -1);
      return;
    }
    c->a = (size_t)(c->axis < 0 ? c->axis + r : c->axis);
    c->n = c->D[c->a];
    form_ok = c->form == WG_SEGMENTS_LENGTHS || c->form == WG_SEGMENTS_BOUNDS || c->form == WG_SEGMENTS_IDS;
    if (!form_ok) allow(s, WG_ERR_SEGMENTS, 1, WG_ARG_SEGMENTS, WG_SEGMENT_FORM, c->form, -1, -1);
    if (c->reduce != WG_REDUCE_ADD && c->reduce != WG_REDUCE_MEAN && c->reduce != WG_REDUCE_MAX &&
        c->reduce != WG_REDUCE_MIN && c->reduce != WG_REDUCE_MUL)
      ALLOW_ANY(s, WG_ERR_REDUCE);
  }
  /* the segments' own shape (their rank is 1): the form, the index type, the form's count, ids one
   * an entry, num_segments */
  int own_form_bad = bag ? c->form != WG_SEGMENTS_FIXED && c->form != WG_SEGMENTS_LENGTHS && (!form_ok || c->stype > 3)
                         : form_ok && c->stype > 3;
  if (own_form_bad) {
    allow(s, WG_ERR_SEGMENTS, 1, WG_ARG_SEGMENTS, WG_SEGMENT_FORM, c->form, 1, -1);
  } else if (!form_ok || c->form == WG_SEGMENTS_FIXED) {
  } else if (c->form == WG_SEGMENTS_BOUNDS && c->slen < 1) {
    allow(s, WG_ERR_SEGMENTS, 1, WG_ARG_SEGMENTS, WG_SEGMENT_COUNT, 0, 1, -1);
  } else if (c->form == WG_SEGMENTS_IDS && c->slen != c->n) {
    allow(s, WG_ERR_SEGMENTS, 1, WG_ARG_SEGMENTS, WG_SEGMENT_COUNT, (int64_t)c->slen, (int64_t)c->n, -1);
  } else if (c->form == WG_SEGMENTS_IDS && c->num < 0) {
    allow(s, WG_ERR_SEGMENTS, 1, WG_ARG_SEGMENTS, WG_SEGMENT_NEGATIVE, c->num, 0, -1);
  } else if (c->form == WG_SEGMENTS_IDS && (uint64_t)c->num + 1 > SIZE_MAX / sizeof(size_t)) {
    ALLOW_ANY(s, WG_ERR_SIZE_OVERFLOW); /* no room for the starts */
  }
  c->bags = c->form == WG_SEGMENTS_FIXED ? (c->ir == 2 ? c->I[0] : 0)
            : c->form == WG_SEGMENTS_BOUNDS ? c->slen - (c->slen > 0)
            : c->form == WG_SEGMENTS_IDS ? (size_t)(c->num > 0 ? c->num : 0) : c->slen;
  c->orank = 0;
  if (bag) {
    c->rows = c->V[0];
    c->outer = 1;
    c->inner = count(c->V + 1, c->dr - 1);
    c->O[c->orank++] = c->bags;
    for (size_t d = 1; d < c->dr; ++d) c->O[c->orank++] = c->V[d];
    if (c->weighted && c->reduce == WG_REDUCE_MAX) allow(s, WG_ERR_WEIGHTS, 1, WG_ARG_WEIGHTS, -2, -1, -1, -1);
    if (c->padded) {
      uint64_t rows = c->rows; /* any size: [-rows, rows) compared unsigned */
      uint64_t mag = c->pad < 0 ? (uint64_t)(-(int64_t)c->pad) : (uint64_t)c->pad;
      if (c->pad < 0 ? mag > rows : mag >= rows)
        allow(s, WG_ERR_PADDING_IDX, 1, WG_ARG_NONE, -1, c->pad, rows > INT64_MAX ? INT64_MAX : (int64_t)rows, -1);
      else
        c->padn = c->pad < 0 ? (size_t)(rows - mag) : (size_t)mag;
    }
  } else {
    c->outer = count(c->D, c->a);
    c->inner = count(c->D + c->a + 1, c->dr - c->a - 1);
    for (size_t d = 0; d < c->a; ++d) c->O[c->orank++] = c->D[d];
    c->O[c->orank++] = c->bags;
    for (size_t d = c->a + 1; d < c->dr; ++d) c->O[c->orank++] = c->D[d];
  }
}

/* Segment value p as the library reads it: a uint64 above INT64_MAX is INT64_MAX (past any end). */
static int64_t seg_value(const bag_call* c, size_t p) {
  uint64_t mag;
  int neg;
  int64_t bits;
  load(c->seg, (wg_index_type)c->stype, p, &mag, &neg, &bits);
  return c->stype == WG_INDEX_U64 && (uint64_t)bits > INT64_MAX ? INT64_MAX : bits;
}

/* The segments' values against the rules (wasm_gather.h, wg_segment_rule): 1 and the first one they
 * break into *err, or 0 and the starts (segment s: entries [starts[s], starts[s + 1])). */
static int seg_first_broken(const bag_call* c, size_t* starts, wg_error_info* err) {
  const int exact_end = SC_IS(segment_reduce);
  const int64_t n = (int64_t)c->n;
#define BROKEN(rule, p, value, limit)                                                                 \
  do {                                                                                                \
    *err = (wg_error_info){WG_ARG_SEGMENTS, rule, (int64_t)(value), (int64_t)(limit), (int64_t)(p)}; \
    return 1;                                                                                         \
  } while (0)
  if (c->form == WG_SEGMENTS_FIXED) return 0;
  starts[0] = 0;
  switch (c->form) {
    case WG_SEGMENTS_OFFSETS:
    case WG_SEGMENTS_BOUNDS: {
      int64_t prev = 0;
      for (size_t p = 0; p < c->slen; ++p) {
        int64_t v = seg_value(c, p);
        if (p == 0 && v != 0) BROKEN(WG_SEGMENT_FIRST, p, v, 0);
        if (v < prev) BROKEN(WG_SEGMENT_DECREASING, p, v, prev);
        if (v > n) BROKEN(WG_SEGMENT_PAST_END, p, v, n);
        starts[p] = (size_t)v;
        prev = v;
      }
      if (c->form == WG_SEGMENTS_OFFSETS) starts[c->bags] = c->n;
      else if (exact_end && prev != n) BROKEN(WG_SEGMENT_COVER, c->slen - 1, prev, n);
      return 0;
    }
    case WG_SEGMENTS_LENGTHS: {
      int64_t at = 0;
      if (c->slen == 0 && n != 0) BROKEN(WG_SEGMENT_COVER, 0, 0, n);
      for (size_t p = 0; p < c->slen; ++p) {
        int64_t v = seg_value(c, p);
        if (v < 0) BROKEN(WG_SEGMENT_NEGATIVE, p, v, 0);
        uint64_t end = (uint64_t)at + (uint64_t)v; /* both at most INT64_MAX */
        if (end > (uint64_t)n) BROKEN(WG_SEGMENT_COVER, p, end > INT64_MAX ? INT64_MAX : (int64_t)end, n);
        at = (int64_t)end;
        starts[p + 1] = (size_t)at;
      }
      if (at != n) BROKEN(WG_SEGMENT_COVER, c->slen - 1, at, n);
      return 0;
    }
    default: { /* ids: segment s starts at the first entry whose id is at least s; an id past
                  num_segments is reported after the scan (ids out of order anywhere first) */
      int64_t prev = 0;
      size_t s = 0, beyond = SIZE_MAX;
      for (size_t p = 0; p < c->slen; ++p) {
        int64_t v = seg_value(c, p);
        if (v < 0) BROKEN(WG_SEGMENT_NEGATIVE, p, v, 0);
        if (v < prev) BROKEN(WG_SEGMENT_DECREASING, p, v, prev);
        prev = v;
        if ((uint64_t)v >= c->bags) {
          if (beyond == SIZE_MAX) beyond = p;
          continue;
        }
        while (s <= (size_t)v) starts[s++] = p;
      }
      if (beyond != SIZE_MAX) BROKEN(WG_SEGMENT_ID_RANGE, beyond, seg_value(c, beyond), c->bags);
      while (s <= c->bags) starts[s++] = c->slen;
      return 0;
    }
  }
#undef BROKEN
}

/* float32 a * b + c rounded once: libm's fmaf natively, which is exact. Emscripten 3.1.6's (musl's,
 * without rounding modes in wasm) is not at halfway cases: fmaf(1 + 2^-15, 1 - 2^-15, 2^24 + 2)
 * gives 2^24 + 4. There, the exact sum as a float64 and its error (Knuth's two-sum), and where
 * the float64 is the midpoint of two float32s, the one on the error's side (2^128 stands for
 * infinity's side of FLT_MAX). */
static float ref_fmaf(float a, float b, float c) {
#ifndef __EMSCRIPTEN__
  return fmaf(a, b, c);
#else
  double p = (double)a * b, s = p + c, z = s - p, err = (p - (s - z)) + (c - z);
  float r = (float)s;
  if (err == 0 || isnan(s) || s == (double)r) return r;
  float o = nextafterf(r, (double)r < s ? INFINITY : -INFINITY);
  double dr = isinf(r) ? copysign(0x1p128, r) : r, dn = isinf(o) ? copysign(0x1p128, o) : o;
  if (s != (dr + dn) / 2) return r;
  return (err > 0) == (dn > dr) ? o : r;
#endif
}

/* A value of the type at element i, as a double (exact for every type). */
static double bag_get(int32_t vt, const uint8_t* p, size_t i) {
  uint64_t v = get_bits(p + i * VT[vt].width, VT[vt].width);
  return VT[vt].kind == 'd' ? to_double(v) : (double)to_float(VT[vt].kind, v);
}

/* want = embedding_bag's result (docs/fused-gather-reduce.md): each element of bag b from the bag's
 * rows in order; float32 weighted sums fused (ref_fmaf; the weighted mean and sqrtn, TensorFlow's
 * combiners, not), float16 and bfloat16 in float32. */
static void bag_reference(const bag_call* c, const uint8_t* data, const uint8_t* weights, const size_t* starts,
                          uint8_t* want, int32_t* want_mi) {
  const int f64 = c->vt == WG_VALUE_F64, half = !f64 && c->vt != WG_VALUE_F32;
  const int fused = c->weighted && !f64 && !c->padded && c->reduce == WG_REDUCE_ADD;
  const size_t fixed = c->form == WG_SEGMENTS_FIXED ? c->I[1] : 0, w = VT[c->vt].width;
  for (size_t b = 0; b < c->bags; ++b) {
    size_t start = c->form == WG_SEGMENTS_FIXED ? b * fixed : starts[b];
    size_t end = c->form == WG_SEGMENTS_FIXED ? start + fixed : starts[b + 1];
    for (size_t e = 0; e < c->inner; ++e) {
      float af = 0, wsf = 0, w2f = 0;
      double ad = 0, wsd = 0, w2d = 0;
      size_t n = 0;
      int32_t from = 0;
      for (size_t j = start; j < end; ++j) {
        size_t pos = 0;
        int ok = resolve(c->idx, (wg_index_type)c->itype, j, c->rows, c->mode, c->negative, &pos);
        if (ok < 0) FAIL("reference: a bad index after the scan");
        if (c->padded && ok && pos == c->padn) continue;
        double x = ok ? bag_get(c->vt, data, pos * c->inner + e) : 0, wt = c->weighted ? bag_get(c->vt, weights, j) : 1;
        int greater = n == 0 || (f64 ? x > ad : (float)x > af);
        if (c->reduce == WG_REDUCE_MAX) {
          if (greater) ad = x, af = (float)x, from = ok ? (int32_t)pos : -1;
        } else if (f64) {
          if (c->weighted) wsd = wsd + wt, w2d = w2d + wt * wt;
          ad = c->weighted ? ad + wt * x : ad + x;
        } else {
          float xf = (float)x, wf = (float)wt;
          if (c->weighted) wsf = wsf + wf, w2f = fused ? ref_fmaf(wf, wf, w2f) : w2f + wf * wf;
          af = !c->weighted ? af + xf : fused ? ref_fmaf(wf, xf, af) : af + wf * xf;
        }
        ++n;
      }
      size_t o = b * c->inner + e;
      if (want_mi) want_mi[o] = n ? from : 0;
      if (n && (c->reduce == WG_REDUCE_MEAN || c->reduce == WG_REDUCE_SQRTN)) {
        int mean = c->reduce == WG_REDUCE_MEAN;
        if (f64) {
          ad = ad / (mean ? (c->weighted ? wsd : (double)n) : sqrt(c->weighted ? w2d : (double)n));
        } else {
          float by = mean ? (c->weighted ? wsf : (float)n) : sqrtf(c->weighted ? w2f : (float)n);
          if (half) af = to_float(VT[c->vt].kind, from_float(VT[c->vt].kind, af)); /* the sum rounded first */
          af = af / by;
        }
      }
      if (!n) put_bits(want + o * w, w, 0); /* an empty bag, or padding only */
      else if (f64) put_bits(want + o * w, w, from_double(ad));
      else put_bits(want + o * w, w, from_float(VT[c->vt].kind, af));
    }
  }
}

/* want = segment_reduce's result: each element from its segment's entries in order, from initial or
 * the reduction's identity; max and min let a NaN through; an empty segment keeps its start (a mean
 * without initial: NaN), with ids it is 0. */
static void seg_reference(const bag_call* c, const uint8_t* data, const uint8_t* init, const size_t* starts,
                          uint8_t* want) {
  const int f64 = c->vt == WG_VALUE_F64;
  const size_t w = VT[c->vt].width;
  double start = c->has_init ? bag_get(c->vt, init, 0)
                 : c->reduce == WG_REDUCE_MUL ? 1
                 : c->reduce == WG_REDUCE_MAX ? -INFINITY
                 : c->reduce == WG_REDUCE_MIN ? INFINITY : 0;
  for (size_t o = 0; o < c->outer; ++o) {
    for (size_t s = 0; s < c->bags; ++s) {
      size_t len = starts[s + 1] - starts[s];
      for (size_t e = 0; e < c->inner; ++e) {
        float af = (float)start;
        double ad = start;
        for (size_t j = starts[s]; j < starts[s + 1]; ++j) {
          double x = bag_get(c->vt, data, (o * c->n + j) * c->inner + e);
          float xf = (float)x;
          switch (c->reduce) {
            case WG_REDUCE_MUL: ad = ad * x, af = af * xf; break;
            case WG_REDUCE_MAX: ad = isnan(x) || x > ad ? x : ad, af = isnan(xf) || xf > af ? xf : af; break;
            case WG_REDUCE_MIN: ad = isnan(x) || x < ad ? x : ad, af = isnan(xf) || xf < af ? xf : af; break;
            default: ad = ad + x, af = af + xf;
          }
        }
        if (len == 0 && c->form == WG_SEGMENTS_IDS) ad = af = 0;
        else if (c->reduce == WG_REDUCE_MEAN && len) ad = ad / (double)len, af = af / (float)len;
        else if (c->reduce == WG_REDUCE_MEAN && !c->has_init) ad = af = NAN;
        size_t q = (o * c->bags + s) * c->inner + e;
        put_bits(want + q * w, w, f64 ? from_double(ad) : from_float('f', af));
      }
    }
  }
}

/* A step up to `room` (a segment's length, an offset's or an id's increase). */
static uint64_t bag_step(reader* r, uint64_t room) {
  uint8_t b = byte(r);
  if (b < 0x40) return 0;
  if (b < 0x80) return (uint64_t)(b - 0x40) < room ? (uint64_t)(b - 0x40) : room;
  return room == UINT64_MAX ? rnd(r) : rnd(r) % (room + 1);
}

/* The segments: valid ones of the form for c->n entries and `bags` (ids: c->num segments), then
 * (c->how) one value broken, one more or fewer, or any values. Returns their count. */
static size_t bag_make_segments(reader* r, const bag_call* c, size_t bags, unsigned hostile, int64_t* v) {
  const uint64_t n = c->n;
  size_t len = c->form == WG_SEGMENTS_BOUNDS ? bags + 1 : c->form == WG_SEGMENTS_IDS ? c->n : bags;
  uint64_t at = 0;
  for (size_t p = 0; p < len; ++p) {
    switch (c->form) {
      case WG_SEGMENTS_LENGTHS: {
        uint64_t l = p + 1 < len ? bag_step(r, n - at) : n - at;
        v[p] = (int64_t)l, at += l;
        break;
      }
      case WG_SEGMENTS_IDS: {
        uint64_t top = c->num > 0 ? (uint64_t)c->num - 1 : 0;
        at += p ? bag_step(r, top - at) : bag_step(r, top);
        v[p] = (int64_t)at;
        break;
      }
      default: /* offsets, bounds: from 0; bounds end at the end (embedding_bag: mostly) */
        if (p > 0) at += c->form == WG_SEGMENTS_BOUNDS && p + 1 == len && (SC_IS(segment_reduce) || byte(r) < 0xc0)
                             ? n - at : bag_step(r, n - at);
        v[p] = (int64_t)at;
    }
  }
  if (c->how == 4 && len) { /* one value broken */
    size_t p = byte(r) % len;
    int wide = INDEX_BYTES[c->stype & 3] == 8;
    switch (byte(r) & 7) {
      case 0: v[p] = p ? (int64_t)((uint64_t)v[p - 1] - 1) : 1; break; /* decreasing; the first not 0 */
      case 1: v[p] = -1; break;
      case 2: v[p] = wide ? INT64_MIN : INT32_MIN; break;
      case 3: v[p] = c->form == WG_SEGMENTS_IDS ? c->num : (int64_t)(n + 1); break; /* past the end */
      case 4: v[p] = (int64_t)(n + (1ull << 32)); break; /* in range if truncated */
      case 5: v[p] = (int64_t)(UINT64_MAX - 1); break;
      case 6: v[p] = 0x80000000; break;
      default: v[p] = (int64_t)((uint64_t)v[p] + 1);
    }
  } else if (c->how == 5) { /* one more, or one fewer */
    if (byte(r) & 1) v[len] = len ? v[len - 1] : 0, ++len;
    else if (len) --len;
  } else if (c->how == 6) {
    for (size_t p = 0; p < len; ++p) v[p] = (int64_t)decode_index(r, n, hostile);
  }
  return len;
}

/* A value of the type: small integers (exact sums, ties), a random mantissa near 1 (rounding), the
 * input's bits (its next bytes, big-endian), or decode_value's edges and any bits. */
static uint64_t bag_value(reader* r, int32_t vt) {
  uint8_t b = byte(r);
  char k = VT[vt].kind;
  if (b >= 0x70 && b < 0x80) {
    uint64_t v = 0;
    for (size_t i = 0; i < VT[vt].width; ++i) v = v << 8 | byte(r);
    return v;
  }
  if (b < 0x80) {
    uint64_t m = rnd(r);
    double x = b < 0x40 ? (double)((int)(b % 9) - 4)
                        : ldexp(1.0 + (double)(m >> 12) * 0x1p-52, (int)(b & 7) - 3) * (m & 1 ? -1 : 1);
    return k == 'd' ? from_double(x) : from_float(k, (float)x);
  }
  return decode_value(r, vt);
}

static void put_index(uint8_t* p, int type, size_t i, uint64_t v) {
  if (INDEX_BYTES[type & 3] == 4) {
    uint32_t v32 = (uint32_t)v;
    memcpy(p + i * 4, &v32, 4);
  } else {
    memcpy(p + i * 8, &v, 8);
  }
}

/* Output element o equal to the reference's: bit for bit, except that any NaN stands for a NaN (its
 * sign and payload are the platform's: wasm's arithmetic leaves them open). */
static int bag_same(int32_t vt, const uint8_t* got, const uint8_t* want, size_t o) {
  size_t w = VT[vt].width;
  uint64_t a = get_bits(got + o * w, w), b = get_bits(want + o * w, w);
  return a == b || (is_nan_bits(vt, a) && is_nan_bits(vt, b));
}

/* The dtypes of the quantized table's codes and scales, by the input's quant and scale type (the
 * last of each refused). */
static const int32_t QUANT_DTYPE[4] = {WG_DTYPE_U8, WG_DTYPE_U4, WG_DTYPE_I4, WG_DTYPE_F32};
static const int32_t SCALE_DTYPE[4] = {WG_DTYPE_F32, WG_DTYPE_F16, WG_DTYPE_BF16, WG_DTYPE_F64};
static const int32_t SCALE_VT[4] = {WG_VALUE_F32, WG_VALUE_F16, WG_VALUE_BF16, WG_VALUE_F32};

/* The record the public wrappers make (src/op_embedding_bag.c, src/op_segment_reduce.c), with a
 * quantized table's tensors as the JS binding sets them (the C API has no quantized bags); NULL
 * tensors for a shape query. */
static wg_status bag_record(const bag_call* c, const wg_bag_desc* desc, wg_call* rec, const void* data,
                            const void* idx, wg_index_type itype, const void* scales, const void* zp, void* out) {
  wg_status st = wg_call_bag(rec, FUZZ_OP, data, c->D, c->dr, c->no_desc ? NULL : desc, out);
  if (SC_IS(embedding_bag)) {
    if (st == WG_OK) st = wg_call_tensor(rec, WG_TENSOR_indices, idx, wg_dtype_of(wg_index_dtypes, 4, itype), c->I, c->ir);
    if (st == WG_OK && desc->weights) {
      rec->tensors[WG_TENSOR_weights].rank = c->ir;
      memcpy(rec->tensors[WG_TENSOR_weights].shape, c->I, c->ir * sizeof(size_t));
    }
  } else {
    rec->attrs[WG_ATTR_axis] = c->axis;
  }
  if (st == WG_OK && c->quant) {
    rec->tensors[WG_TENSOR_data].dtype = QUANT_DTYPE[c->q.qt];
    rec->attrs[WG_ATTR_bits] = c->q.bits;
    rec->attrs[WG_ATTR_block_size] = c->q.block;
    rec->attrs[WG_ATTR_quantize_axis] = c->q.qaxis;
    st = wg_call_tensor(rec, WG_TENSOR_scales, scales, SCALE_DTYPE[c->q.st], c->q.S, c->q.sr);
    if (st == WG_OK && c->q.has_zp) st = wg_call_tensor(rec, WG_TENSOR_zero_points, zp, QUANT_DTYPE[c->q.qt], c->q.Z, c->q.zr);
  }
  return st;
}

static wg_status bag_shape(const bag_call* c, const wg_bag_desc* desc, wg_call* rec) {
  wg_status st = bag_record(c, desc, rec, NULL, NULL, (wg_index_type)c->itype, NULL, NULL, NULL);
  return st == WG_OK ? wg_call_shape(rec) : st;
}

/* The quantized table's layout from the input (fuzz_bag's header), its scales' and zero points'
 * shapes as the rules ask or perturbed. */
static void bag_quant_layout(reader* r, bag_call* c, uint8_t qb, uint8_t kb) {
  gbq_call* q = &c->q;
  static const int BITS[4] = {4, 2, 8, 3};
  static const int32_t BLOCKS[8] = {16, 32, 64, 128, 256, 24, 0, 512};
  q->qt = qb & 3;
  q->st = qb >> 2 & 3;
  q->has_zp = qb >> 4 & 1;
  q->bits = BITS[qb >> 5 & 3];
  q->block = BLOCKS[kb & 7];
  int qa = kb >> 3 & 3;
  q->qaxis = qa == 0 ? -1 : qa == 3 ? (int32_t)c->dr : qa - 1;
  q->dr = c->dr;
  memcpy(q->D, c->D, c->dr * sizeof(size_t));
  gbq_layout_shapes(r, q, qb >> 7, kb >> 5 & 1);
}

static int fuzz_bag(reader* r) {
  const int bag = SC_IS(embedding_bag);
  bag_call c;
  memset(&c, 0, sizeof c);
  uint8_t v = byte(r), s = byte(r), x = byte(r), o = byte(r);
  c.vt = BAG_VT[v & 7];
  c.reduce = (bag ? BAG_REDUCE : SEG_REDUCE)[v >> 3 & 7];
  int use_pool = v >> 6 & 1, split_all = v >> 7;
  c.form = (bag ? BAG_FORM : SEG_FORM)[s & 7];
  c.how = s >> 5;
  c.stype = c.how == 7 ? 4 : s >> 3 & 3;
  c.itype = x & 3;
  c.mode = x >> 2 & 3; /* 3: invalid */
  c.negative = (x >> 4 & 3) == 2 ? 7 : (x >> 4 & 3) == 1;
  int guarded = x >> 6 & 1;
  c.bad_itype = bag && x >> 7;
  c.no_desc = o == 0xff;
  c.weighted = bag && (o & 1);
  c.has_init = !bag && (o & 1);
  c.padded = bag && (o >> 1 & 1);
  c.want_mi = bag && (o >> 2 & 1);
  c.quant = bag && !c.no_desc && (o >> 3 & 1);
  size_t misalign = o >> 4 & 7;
  uint8_t qb = c.quant ? byte(r) : 0, kb = c.quant ? byte(r) : 0;
  if (c.quant) c.vt = SCALE_VT[qb >> 2 & 3];
  uint8_t rb = byte(r), ib = byte(r);
  c.dr = rb >= 0xf8 ? WG_MAX_RANK + 1 : rb % 4;
  if (bag) c.ir = ib >= 0xf8 ? WG_MAX_RANK + 1 : ib & 0x80 ? ib % 3 : c.form == WG_SEGMENTS_FIXED ? 2 : 1;
  else c.axis = ib == 0x80 ? INT32_MIN : ib == 0x7f ? INT32_MAX : (int8_t)ib;
  for (size_t d = 0; d < c.dr; ++d) c.D[d] = decode_dim(byte(r));
  for (size_t d = 0; bag && d < c.ir; ++d) c.I[d] = decode_dim(byte(r));
  memcpy(c.V, c.D, sizeof c.D);
  if (c.quant) bag_quant_layout(r, &c, qb, kb);
  uint8_t nb = byte(r);
  size_t nbags = decode_dim(nb);
  c.num = nb < 0xb0 ? nb % 8 : (int32_t)NUM_TABLE[(nb - 0xb0) % (sizeof NUM_TABLE / sizeof NUM_TABLE[0])];
  if (c.padded) {
    uint8_t pb = byte(r); /* mostly in range, either sign; the bounds; int32's extremes */
    int64_t rows = c.dr ? (int64_t)(c.D[0] < INT32_MAX ? c.D[0] : INT32_MAX) : 0;
    c.pad = pb == 0xf0 ? (int32_t)rows : pb == 0xf1 ? (int32_t)(-rows - 1) : pb == 0xf2 ? INT32_MAX
            : pb == 0xf3 ? INT32_MIN : pb >= 0xf4 ? (int8_t)pb : !rows ? 0
            : pb < 0x80 ? (int32_t)(pb % rows) : (int32_t)(-1 - (pb % rows));
  }
  unsigned hostile = byte(r);
  bag_current = &c;

  /* the segments, when they can be made (their entries: the indices, or data's axis) */
  int64_t rank = (int64_t)c.dr;
  int axis_ok = c.dr && c.dr <= WG_MAX_RANK && c.axis >= -rank && c.axis < rank;
  c.n = bag ? (c.ir <= WG_MAX_RANK ? count(c.I, c.ir) : 0) : axis_ok ? c.D[c.axis < 0 ? c.axis + rank : c.axis] : 0;
  size_t nominal = c.form == WG_SEGMENTS_BOUNDS ? nbags + (nbags < SIZE_MAX) : c.form == WG_SEGMENTS_IDS ? c.n : nbags;
  static int64_t segv[MAX_INDICES + 2];
  int made = nominal <= MAX_INDICES && c.form != WG_SEGMENTS_FIXED;
  c.slen = made ? bag_make_segments(r, &c, c.form == WG_SEGMENTS_BOUNDS ? nominal - 1 : nominal, hostile, segv)
                : nominal + (c.how == 5 && nominal < SIZE_MAX);

  outcomes plan = {0};
  bag_plan_rules(&c, &plan);
  const size_t w = c.vt >= 0 && c.vt < 12 ? VT[c.vt].width : 4;
  size_t swidth = INDEX_BYTES[c.stype & 3];
  wg_index_type itype = c.bad_itype ? (wg_index_type)4 : (wg_index_type)c.itype;
  wg_bag_desc desc = {.value_type = c.vt, .reduce = c.reduce, .form = c.form, .segments_type = c.stype,
                      .segments_len = c.form == WG_SEGMENTS_FIXED ? 0 : c.slen, .num_segments = c.num,
                      .has_padding = c.padded, .padding_idx = c.pad, .mode = c.mode, .negative = c.negative};
  static uint8_t present; /* an address for what the shape query only needs to see given */
  if (c.weighted) desc.weights = &present;
  if (c.has_init) desc.initial = &present;
  if (c.want_mi) desc.max_indices = (int32_t*)(void*)&present;

  /* the plan first, on a record with no tensors: what the rules refuse, and the workspace */
  wg_call rec;
  wg_status st = bag_shape(&c, &desc, &rec);
  if (plan.n) check_outcome(&plan, st, &rec.err);
  else if (st != WG_OK) FAIL("shape query: status %d, the rules accept", st);
  size_t workspace = st == WG_OK ? rec.tensors[WG_TENSOR_workspace].shape[0] : 0;
  if (st == WG_OK && c.form != WG_SEGMENTS_FIXED &&
      (c.form == WG_SEGMENTS_IDS || mul_or_max(c.slen, swidth) <= SIZE_MAX / 2) && /* segments that fit in memory */
      workspace / sizeof(size_t) < c.bags + 1)
    FAIL("a workspace of %zu bytes for %zu segments' starts", workspace, c.bags + 1);

  /* sizes: too large, or too slow, and the shape query was all */
  size_t ndata = count(c.D, c.dr), nout = plan.n ? 0 : count(c.O, c.orank);
  c.nidx = bag ? count(c.I, c.ir) : 0;
  size_t data_bytes = mul_or_max(ndata, w), out_bytes = mul_or_max(nout, w);
  size_t seg_bytes = c.form == WG_SEGMENTS_FIXED ? 0 : mul_or_max(c.slen, swidth);
  size_t work = bag ? mul_or_max(c.bags ? c.nidx : 0, c.inner) : ndata;
  /* a quantized table: codes (uint8: its stored bytes; 4-bit: two a byte), scales, zero points */
  size_t nscales = 0, nzp = 0, scale_bytes = 0, zp_bytes = 0, nvalues = 0;
  if (c.quant) {
    int nibbles = c.q.qt == WG_QUANT_UINT4 || c.q.qt == WG_QUANT_INT4;
    size_t selem = c.q.st == WG_SCALE_F16 || c.q.st == WG_SCALE_BF16 ? 2 : c.q.st == WG_SCALE_F32 ? 4 : 8;
    data_bytes = !nibbles || ndata == SIZE_MAX ? ndata : ndata / 2 + (ndata & 1);
    nscales = count(c.q.S, c.q.sr), nzp = c.q.has_zp ? count(c.q.Z, c.q.zr) : 0;
    scale_bytes = mul_or_max(nscales, selem);
    zp_bytes = !nibbles || nzp == SIZE_MAX ? nzp : nzp / 2 + (nzp & 1);
    nvalues = plan.n ? 0 : count(c.V, c.dr); /* the dequantized table of the reference */
  }
  if (c.dr > WG_MAX_RANK || c.ir > WG_MAX_RANK || (c.form != WG_SEGMENTS_FIXED && !made) ||
      data_bytes > MAX_DATA_BYTES || c.nidx > MAX_INDICES || seg_bytes > MAX_DATA_BYTES ||
      out_bytes > MAX_OUT_BYTES || workspace > MAX_WORKSPACE || work > MAX_BAG_WORK ||
      scale_bytes > MAX_DATA_BYTES || zp_bytes > MAX_DATA_BYTES || nvalues > 4 * MAX_DATA_BYTES) {
    return 0;
  }

  /* tensors of their exact sizes, each aligned to its element */
  buf data, idx, seg, wts, out, mi, init, scales, zp;
  size_t mi_bytes = c.want_mi ? nout * 4 : 0;
  buf_new(&data, data_bytes, guarded, misalign * (c.quant ? 1 : w));
  buf_new(&scales, scale_bytes, guarded, (misalign & 2) * (scale_bytes / (nscales ? nscales : 1)));
  buf_new(&zp, zp_bytes, guarded, misalign ^ 3);
  buf_new(&idx, c.nidx * INDEX_BYTES[c.itype], guarded, 0);
  buf_new(&seg, seg_bytes, guarded, (misalign & 3) * swidth);
  buf_new(&wts, c.weighted ? c.nidx * w : 0, guarded, (misalign ^ 3) * w);
  buf_new(&out, out_bytes, guarded, (misalign ^ 5) * w);
  buf_new(&mi, mi_bytes, guarded, (misalign ^ 6) * 4);
  buf_new(&init, c.has_init ? w : 0, guarded, 0);
  for (size_t p = 0; p < c.nidx; ++p) put_index(idx.p, c.itype, p, decode_index(r, c.dr ? c.V[0] : 0, hostile));
  for (size_t p = 0; seg_bytes && p < c.slen; ++p) put_index(seg.p, c.stype, p, (uint64_t)segv[p]);
  int vt = bag_float_type(c.vt) ? c.vt : WG_VALUE_F32; /* refused types: any float32 bits */
  for (size_t p = 0; c.weighted && p < c.nidx; ++p) put_bits(wts.p + p * w, w, bag_value(r, vt));
  if (c.has_init) put_bits(init.p, w, bag_value(r, vt));
  if (c.quant) {
    for (size_t i = 0; i < data_bytes; ++i) data.p[i] = (uint8_t)(rnd(r) >> 56);
    for (size_t i = 0; i < zp_bytes; ++i) zp.p[i] = (uint8_t)(rnd(r) >> 56);
    gbq_fill_scales(r, scales.p, nscales, c.q.st);
  } else {
    for (size_t i = 0; i < ndata; ++i) put_bits(data.p + i * w, w, bag_value(r, vt));
  }
  c.idx = idx.p;
  c.seg = seg.p;
  uint8_t* copies[7] = {snapshot(data.p, data.bytes), snapshot(idx.p, idx.bytes), snapshot(seg.p, seg.bytes),
                        snapshot(wts.p, wts.bytes), snapshot(init.p, init.bytes), snapshot(scales.p, scales.bytes),
                        snapshot(zp.p, zp.bytes)};
  memset(out.p, 0xA5, out_bytes);
  memset(mi.p, 0xA5, mi_bytes);
  desc.segments = seg.p;
  desc.weights = c.weighted ? wts.p : NULL;
  desc.initial = c.has_init ? init.p : NULL;
  desc.max_indices = c.want_mi ? (int32_t*)(void*)mi.p : NULL;

  wg_pool* pool = use_pool ? fuzz_pool_split(split_all) : NULL;
  if (getenv("WG_FUZZ_DESCRIBE")) bag_describe();
  wg_error_info err;
  memset(&err, 0x77, sizeof err);
  const wg_bag_desc* d = c.no_desc ? NULL : &desc;
  if (c.quant) {
    st = bag_record(&c, d, &rec, data.p, idx.p, itype, scales.p, zp.p, out.p);
    st = st == WG_OK ? wg_call_run_api(pool, &rec, &err) : wg_call_failed(&rec, st, &err);
  } else {
    st = bag ? wg_embedding_bag(pool, data.p, c.D, c.dr, idx.p, itype, c.I, c.ir, d, out.p, &err)
             : wg_segment_reduce(pool, data.p, c.D, c.dr, c.axis, d, out.p, &err);
  }

  /* what it must have done: refused what the plan refuses, then an output too large, invalid
   * policies, then broken segments (each before any stage runs: nothing written), then the first
   * bad index, in a bag or not (the runner's scan, before any stage: nothing written), else the
   * result */
  outcomes want = plan;
  /* the starts: the plan's workspace held them, so they are few */
  size_t* starts = malloc((plan.n || c.form == WG_SEGMENTS_FIXED ? 1 : c.bags + 2) * sizeof *starts);
  if (!starts) abort();
  if (!want.n && mul_or_max(nout, w) == SIZE_MAX) ALLOW_ANY(&want, WG_ERR_SIZE_OVERFLOW);
  if (!plan.n && bag && (c.bad_itype || c.mode == 3 || c.negative == 7)) ALLOW_ANY(&want, WG_ERR_INVALID_ARGUMENT);
  if (!want.n) {
    wg_error_info e;
    if (seg_first_broken(&c, starts, &e)) {
      if ((uint64_t)c.n > INT64_MAX) ALLOW_ANY(&want, WG_ERR_SEGMENTS); /* the library's bound is an int64 */
      else allow(&want, WG_ERR_SEGMENTS, 1, e.arg, e.dim, e.value, e.limit, e.position);
    } else if ((uint64_t)c.n > INT64_MAX) {
      ALLOW_ANY(&want, WG_ERR_SEGMENTS);
    }
  }
  if (!want.n && bag && c.mode == WG_OOB_ERROR) {
    for (size_t p = 0; p < c.nidx; ++p) {
      size_t pos;
      if (resolve(idx.p, (wg_index_type)c.itype, p, c.rows, WG_OOB_ERROR, c.negative, &pos) < 0) {
        uint64_t mag;
        int neg;
        int64_t bits;
        load(idx.p, (wg_index_type)c.itype, p, &mag, &neg, &bits);
        allow(&want, WG_ERR_INDEX_OUT_OF_RANGE, 1, WG_ARG_INDICES, 0, bits, (int64_t)c.rows, (int64_t)p);
        break;
      }
    }
  }
  if (want.n) {
    check_outcome(&want, st, &err);
    for (size_t i = 0; i < out_bytes; ++i)
      if (out.p[i] != 0xA5) FAIL("a call refused before any stage (status %d) wrote its output", st);
  } else if (st != WG_OK) {
    FAIL("status %d, the reference accepts", st);
  } else {
    uint8_t* expect = malloc(out_bytes + 1);
    int32_t* expect_mi = malloc(nout * 4 + 4);
    if (!expect || !expect_mi) abort();
    uint8_t* values = data.p;
    if (c.quant) { /* the table as gather_block_quantized gives it, in the scale type */
      values = malloc(nvalues * w + 1);
      if (!values) abort();
      size_t dc[GBQ_RANKS];
      for (size_t i = 0; i < nvalues; ++i) {
        unravel(i, c.V, c.dr, dc);
        gbq_put(c.q.st, values, i, gbq_value(&c.q, data.p, scales.p, zp.p, dc));
      }
    }
    if (nout && bag) bag_reference(&c, values, wts.p, starts, expect, expect_mi);
    else if (nout) seg_reference(&c, data.p, init.p, starts, expect);
    for (size_t q = 0; q < nout; ++q) {
      if (!bag_same(c.vt, out.p, expect, q))
        FAIL("output element %zu of %zu is 0x%llx, reference 0x%llx", q, nout,
             (unsigned long long)get_bits(out.p + q * w, w), (unsigned long long)get_bits(expect + q * w, w));
    }
    if (c.want_mi && c.reduce == WG_REDUCE_MAX) {
      for (size_t q = 0; q < nout; ++q) {
        int32_t g;
        memcpy(&g, mi.p + q * 4, 4);
        if (g != expect_mi[q]) FAIL("max index %zu of %zu is %d, reference %d", q, nout, g, expect_mi[q]);
      }
    }
    free(expect);
    free(expect_mi);
    if (values != data.p) free(values);
  }
  if (c.want_mi && (c.reduce != WG_REDUCE_MAX || st != WG_OK)) {
    for (size_t i = 0; i < mi_bytes; ++i)
      if (mi.p[i] != 0xA5) FAIL("max indices written by a call without them (status %d)", st);
  }
  const buf* inputs[7] = {&data, &idx, &seg, &wts, &init, &scales, &zp};
  static const char* const names[7] = {"data", "indices", "segments", "weights", "initial", "scales", "zero points"};
  for (int k = 0; k < 7; ++k) {
    if (memcmp(inputs[k]->p, copies[k], inputs[k]->bytes) != 0) FAIL("%s changed", names[k]);
    free(copies[k]);
  }
  buf_check_free(&data, "data");
  buf_check_free(&idx, "indices");
  buf_check_free(&seg, "segments");
  buf_check_free(&wts, "weights");
  buf_check_free(&out, "output");
  buf_check_free(&mi, "max indices");
  buf_check_free(&init, "initial");
  buf_check_free(&scales, "scales");
  buf_check_free(&zp, "zero points");
  free(starts);
  bag_current = NULL;
  return 0;
}

/* ---- embedding_bag_backward: its own decoder, rules and reference. The op has no public C
 * wrapper: it is called on the call record, as the JS binding calls it (wg_call_tensor, the
 * attributes, wg_call_shape, wg_call_run). The reference applies each entry in entry order:
 * docs/fused-gather-reduce.md (embeddingBagBackward). ----
 * Input layout (tests/fuzz/make-seeds.mjs writes it):
 *   v: gradient type (0-7: f32, f64, f32, f64, then f16, bf16, i32 and 99, refused) | reduce << 3
 *      (0-7: sum, mean, max, sqrtn, sum, mean, then min and INT32_MIN, refused) | 0x40 pool |
 *      0x80 every op split
 *   s: form | segments' index type << 3 | how << 5 (fuzz_bag's; how 7: float32 segments)
 *   x: index type | mode << 2 | negative << 4 | 0x40 guard zones | 0x80 an invalid index type
 *      (float32)
 *   o: 0x01 weights | 0x02 padding_idx | 0x04 max indices (without max: given anyway; with max:
 *      any values, not only -1 or a row) | 0x08 the weights' gradient (the table given) | 0x10
 *      accumulate (out holds values, added into in place) | 0x20 a shape broken on purpose |
 *      misalign << 6 (in elements)
 *   gradient rank (< 0xf0: 1 + r % 3; < 0xf8: 0; else 17), index rank (fuzz_bag's), the
 *   gradient's row dims (its first dim is the bags'), index dims, the bags (a dim; ids:
 *   num_segments, NUM_TABLE), num_weights (< 0x80: % 8; < 0xc0: % 64; else NW_TABLE), the broken
 *   shape (BW_BROKEN | a parameter << 4, when 0x20), padding_idx (fuzz_bag's, against
 *   num_weights), hostile, segments (fuzz_bag's), indices, weights, max indices (< 0xe0 -1 or a
 *   row; else with 0x04 one out of range), the gradient's values, out's (accumulate), the
 *   table's; values as fuzz_bag's. */
static const int32_t BW_DTYPE[8] = {WG_DTYPE_F32, WG_DTYPE_F64, WG_DTYPE_F32, WG_DTYPE_F64,
                                    WG_DTYPE_F16, WG_DTYPE_BF16, WG_DTYPE_I32, 99};
static const int32_t BW_REDUCE[8] = {WG_REDUCE_ADD, WG_REDUCE_MEAN, WG_REDUCE_MAX, WG_REDUCE_SQRTN,
                                     WG_REDUCE_ADD, WG_REDUCE_MEAN, WG_REDUCE_MIN, INT32_MIN};
/* num_weights past the small ones: larger tables, int32's top, negative ones */
static const int64_t NW_TABLE[] = {0, 1, 7, 16, 64, 257, 4097, 65536, 1 << 20, INT32_MAX - 1, INT32_MAX, -1,
                                   INT32_MIN, -2};
/* What the broken-shape byte breaks (its high nibble picks a dim) */
enum {
  BW_GRAD_SCALAR, BW_GRAD_MORE, BW_GRAD_FEWER, BW_WEIGHTS_TYPE, BW_WEIGHTS_RANK, BW_WEIGHTS_DIM, BW_MI_TYPE,
  BW_MI_DIM, BW_MI_ABSENT, BW_TABLE_TYPE, BW_TABLE_RANK, BW_TABLE_ROWS, BW_TABLE_DIM, BW_FIXED_SEGMENTS,
  BW_NONE
};

typedef struct bw_call {
  int32_t gdtype, wdtype, mdtype, tdtype, reduce, num_weights;
  int vt; /* the gradient's wg_value_type for the float types (float32 for the refused ones) */
  int weighted, padded, max, mi_given, mi_hostile, table, accumulate, broken, seg_given;
  size_t G[RANKS], gr, W[RANKS], wr, M[RANKS], mr, T[RANKS], tr;
  size_t dim, rows, padn, bags;
  bag_call b; /* the bags (form, segments, indices, policies): fuzz_bag's helpers read it */
} bw_call;

static const bw_call* bw_current;

static void bw_describe(void) {
  const bw_call* c = bw_current;
  if (!c) return;
  const bag_call* b = &c->b;
  fprintf(stderr,
          "  embedding_bag_backward: gradient dtype %d reduce %d form %d segments type %d how %d index type %d%s"
          " mode %d negative %d weights %d (dtype %d) padding %d (%d) max indices %d (dtype %d%s) table %d"
          " (dtype %d) accumulate %d num_weights %d num_segments %d broken %d\n",
          c->gdtype, c->reduce, b->form, b->stype, b->how, b->itype, b->bad_itype ? " (invalid)" : "", b->mode,
          b->negative, c->weighted, c->wdtype, c->padded, b->pad, c->mi_given, c->mdtype,
          c->mi_hostile ? ", any values" : "", c->table, c->tdtype, c->accumulate, c->num_weights, b->num,
          c->broken);
  print_shape("gradient", c->G, c->gr);
  print_shape("indices", b->I, b->ir);
  if (c->weighted) print_shape("weights", c->W, c->wr);
  if (c->mi_given) print_shape("max indices", c->M, c->mr);
  if (c->table) print_shape("table", c->T, c->tr);
  for (size_t p = 0; b->seg && p < b->slen && p < 32 && b->stype < 4; ++p) {
    uint64_t mag;
    int neg;
    int64_t bits;
    load(b->seg, (wg_index_type)b->stype, p, &mag, &neg, &bits);
    fprintf(stderr, "  segment %zu: %lld\n", p, (long long)bits);
  }
  for (size_t p = 0; b->idx && p < b->nidx && p < 32; ++p) {
    uint64_t mag;
    int neg;
    int64_t bits;
    load(b->idx, (wg_index_type)b->itype, p, &mag, &neg, &bits);
    fprintf(stderr, "  index %zu: %lld\n", p, (long long)bits);
  }
}

static int bw_float(int32_t dtype) { return dtype == WG_DTYPE_F32 || dtype == WG_DTYPE_F64; }
static int32_t bw_other_float(int32_t dtype) { return dtype == WG_DTYPE_F64 ? WG_DTYPE_F32 : WG_DTYPE_F64; }
/* Bytes of an element of dtype (4 for 99, which has none), and the value type its values are made as. */
static size_t bw_width(int32_t dtype) { return wg_dtype_bits(dtype) >= 8 ? wg_dtype_bits(dtype) / 8 : 4; }
static int bw_vt(int32_t dtype) {
  switch (dtype) {
    case WG_DTYPE_F64: return WG_VALUE_F64;
    case WG_DTYPE_F16: return WG_VALUE_F16;
    case WG_DTYPE_BF16: return WG_VALUE_BF16;
    case WG_DTYPE_I32: return WG_VALUE_I32;
    default: return WG_VALUE_F32;
  }
}

/* The rules the plan checks (src/op_embedding_bag_backward.c, src/stage_bag.c's segments, the
 * engine's ranks): each broken one into s, with its report. The record's tensors of a rank above
 * WG_MAX_RANK are refused as they are set (wg_call_tensor). */
static void bw_plan_rules(bw_call* c, outcomes* s) {
  const bag_call* b = &c->b;
  if (c->gr > WG_MAX_RANK || b->ir > WG_MAX_RANK || (c->weighted && c->wr > WG_MAX_RANK) ||
      (c->mi_given && c->mr > WG_MAX_RANK) || (c->table && c->tr > WG_MAX_RANK)) {
    ALLOW_ANY(s, WG_ERR_MAX_RANK);
    return;
  }
  if (c->gr < 1) allow(s, WG_ERR_GRAD_SHAPE, 1, WG_ARG_UPDATES, -1, 0, 1, -1);
  if (!bw_float(c->gdtype)) allow(s, WG_ERR_VALUE_TYPE, 1, WG_ARG_UPDATES, -1, c->gdtype, -1, -1);
  const int rank_ok = b->ir == (b->form == WG_SEGMENTS_FIXED ? 2u : 1u) && b->form != WG_SEGMENTS_LENGTHS;
  if (!rank_ok) allow(s, WG_ERR_SEGMENTS, 1, WG_ARG_SEGMENTS, WG_SEGMENT_FORM, b->form, (int64_t)b->ir, -1);
  if (c->reduce != WG_REDUCE_ADD && c->reduce != WG_REDUCE_MEAN && c->reduce != WG_REDUCE_MAX &&
      c->reduce != WG_REDUCE_SQRTN)
    allow(s, WG_ERR_REDUCE, 1, WG_ARG_REDUCE, -1, c->reduce, -1, -1);
  if (c->num_weights < 0) allow(s, WG_ERR_INVALID_ARGUMENT, 1, WG_ARG_OUT, 0, c->num_weights, 0, -1);
  /* the segments' own shape */
  int seg_ok = 1;
  if (b->form == WG_SEGMENTS_FIXED) {
    if (c->seg_given) allow(s, WG_ERR_SEGMENTS, 1, WG_ARG_SEGMENTS, WG_SEGMENT_FORM, b->form, -1, -1), seg_ok = 0;
  } else if (b->form < WG_SEGMENTS_FIXED || b->form > WG_SEGMENTS_IDS || b->stype > 3) {
    allow(s, WG_ERR_SEGMENTS, 1, WG_ARG_SEGMENTS, WG_SEGMENT_FORM, b->form, 1, -1), seg_ok = 0;
  } else if (b->form == WG_SEGMENTS_BOUNDS && b->slen < 1) {
    allow(s, WG_ERR_SEGMENTS, 1, WG_ARG_SEGMENTS, WG_SEGMENT_COUNT, 0, 1, -1), seg_ok = 0;
  } else if (b->form == WG_SEGMENTS_IDS && b->slen != b->n) {
    allow(s, WG_ERR_SEGMENTS, 1, WG_ARG_SEGMENTS, WG_SEGMENT_COUNT, (int64_t)b->slen, (int64_t)b->n, -1), seg_ok = 0;
  } else if (b->form == WG_SEGMENTS_IDS && b->num < 0) {
    allow(s, WG_ERR_SEGMENTS, 1, WG_ARG_SEGMENTS, WG_SEGMENT_NEGATIVE, b->num, 0, -1), seg_ok = 0;
  } else if (b->form == WG_SEGMENTS_IDS && (size_t)b->num >= SIZE_MAX / sizeof(size_t)) {
    allow(s, WG_ERR_SIZE_OVERFLOW, 1, WG_ARG_SEGMENTS, -1, b->num, -1, -1), seg_ok = 0;
  }
  /* the bags are the gradient's rows */
  if (c->gr >= 1 && rank_ok && seg_ok && c->G[0] != c->bags)
    allow(s, WG_ERR_GRAD_SHAPE, 1, WG_ARG_UPDATES, 0, (int64_t)c->G[0], (int64_t)c->bags, -1);
  if (c->weighted) {
    if (c->max) {
      allow(s, WG_ERR_WEIGHTS, 1, WG_ARG_WEIGHTS, -2, -1, -1, -1);
    } else if (c->wdtype != c->gdtype) {
      allow(s, WG_ERR_WEIGHTS, 1, WG_ARG_WEIGHTS, -3, c->wdtype, c->gdtype, -1);
    } else if (c->wr != b->ir) {
      allow(s, WG_ERR_WEIGHTS, 1, WG_ARG_WEIGHTS, -1, (int64_t)c->wr, (int64_t)b->ir, -1);
    } else {
      for (size_t d = 0; d < c->wr; ++d) {
        if (c->W[d] != b->I[d]) {
          allow(s, WG_ERR_WEIGHTS, 1, WG_ARG_WEIGHTS, (int64_t)d, (int64_t)c->W[d], (int64_t)b->I[d], -1);
          break;
        }
      }
    }
  }
  if (c->padded && c->num_weights >= 0) { /* padding_idx in [-rows, rows) */
    int64_t rows = c->num_weights, pad = b->pad;
    if (pad >= rows || pad < -rows) allow(s, WG_ERR_PADDING_IDX, 1, WG_ARG_NONE, -1, pad, rows, -1);
    else c->padn = (size_t)(pad < 0 ? pad + rows : pad);
  }
  if (c->max) { /* the forward's max indices: int32, the gradient's shape */
    int same = c->mi_given && c->mdtype == WG_DTYPE_I32 && c->mr == c->gr;
    for (size_t d = 0; same && d < c->gr; ++d) same = c->M[d] == c->G[d];
    if (!same)
      allow(s, WG_ERR_MAX_INDICES, 1, WG_ARG_MAX_INDICES, -1, c->mi_given ? c->mdtype : WG_DTYPE_NONE, c->gdtype, -1);
  }
  if (c->table && c->num_weights >= 0) { /* the weights' gradient: weights, sum, the table [rows, ...row] */
    if (!c->weighted || c->reduce != WG_REDUCE_ADD) {
      allow(s, WG_ERR_TABLE, 1, WG_ARG_TABLE, -4, c->reduce, c->weighted, -1);
    } else if (c->tdtype != c->gdtype) {
      allow(s, WG_ERR_TABLE, 1, WG_ARG_TABLE, -3, c->tdtype, c->gdtype, -1);
    } else if (c->tr != c->gr) {
      allow(s, WG_ERR_TABLE, 1, WG_ARG_TABLE, -1, (int64_t)c->tr, (int64_t)c->gr, -1);
    } else {
      for (size_t d = 0; d < c->gr; ++d) {
        size_t want = d == 0 ? (size_t)c->num_weights : c->G[d];
        if (c->T[d] != want) {
          allow(s, WG_ERR_TABLE, 1, WG_ARG_TABLE, (int64_t)d, (int64_t)c->T[d], (int64_t)want, -1);
          break;
        }
      }
    }
  }
}

/* The tensors' addresses of a run (NULL: a shape query). */
typedef struct bw_ptrs {
  const void *grad, *idx, *seg, *wts, *mi, *table;
  void *out, *out_w, *ws;
} bw_ptrs;

/* The record as the JS binding fills it (js/ops/embedding-bag-backward.mjs): num_segments is the
 * gradient's rows with ids (here the input's, which may differ), else -1. */
static wg_status bw_record(const bw_call* c, wg_call* rec, const bw_ptrs* p) {
  const bag_call* b = &c->b;
  wg_call_init(rec, FUZZ_OP);
  rec->attrs[WG_ATTR_out_of_range] = b->mode;
  rec->attrs[WG_ATTR_negative_indices] = b->negative;
  rec->attrs[WG_ATTR_reduce] = c->reduce;
  rec->attrs[WG_ATTR_segment_form] = b->form;
  rec->attrs[WG_ATTR_num_segments] = b->form == WG_SEGMENTS_IDS ? b->num : -1;
  rec->attrs[WG_ATTR_has_padding] = c->padded;
  rec->attrs[WG_ATTR_padding_idx] = b->pad;
  rec->attrs[WG_ATTR_num_weights] = c->num_weights;
  rec->attrs[WG_ATTR_accumulate] = c->accumulate;
  rec->tensors[WG_TENSOR_out].ptr = p->out;
  rec->tensors[WG_TENSOR_out_weights].ptr = p->out_w;
  rec->tensors[WG_TENSOR_workspace].ptr = p->ws;
  int32_t itype = b->bad_itype ? WG_DTYPE_F32 : wg_dtype_of(wg_index_dtypes, 4, b->itype);
  int32_t stype = b->stype > 3 ? WG_DTYPE_F32 : wg_dtype_of(wg_index_dtypes, 4, b->stype);
  size_t slen = b->slen;
  wg_status st = wg_call_tensor(rec, WG_TENSOR_updates, p->grad, c->gdtype, c->G, c->gr);
  if (st == WG_OK) st = wg_call_tensor(rec, WG_TENSOR_indices, p->idx, itype, b->I, b->ir);
  if (st == WG_OK && c->seg_given) st = wg_call_tensor(rec, WG_TENSOR_segments, p->seg, stype, &slen, 1);
  if (st == WG_OK && c->weighted) st = wg_call_tensor(rec, WG_TENSOR_weights, p->wts, c->wdtype, c->W, c->wr);
  if (st == WG_OK && c->mi_given) st = wg_call_tensor(rec, WG_TENSOR_max_indices, p->mi, c->mdtype, c->M, c->mr);
  if (st == WG_OK && c->table) st = wg_call_tensor(rec, WG_TENSOR_table, p->table, c->tdtype, c->T, c->tr);
  return st;
}

/* A max index: -1 or a row, or (any) now and then one out of range. */
static int64_t bw_max_index(reader* r, size_t rows, int any) {
  uint8_t b = byte(r);
  if (any && b >= 0xe0) {
    switch (b & 7) {
      case 0: return (int64_t)(rows < INT32_MAX ? rows : INT32_MAX);
      case 1: return -2;
      case 2: return INT32_MIN;
      case 3: return INT32_MAX;
      case 4: return (int64_t)(rows < INT32_MAX ? rows + 1 : INT32_MAX);
      default: return -1 - (b & 7);
    }
  }
  return (int64_t)(b % (rows < 255 ? rows + 1 : 256)) - 1; /* rows <= INT32_MAX: no overflow */
}

/* want = the gradient (docs/fused-gather-reduce.md), added into want's contents (zeros, or out's
 * values with accumulate), and want_w = the weights' gradient (when the table is given).
 * Entry q of bag b, in entry order, unless dropped or on padding: row[r] += s_q * grad[b], s_q its
 * weight (1 without) over the forward's divisor (1; the bag's count of entries not padding, or the
 * weights' sum; the root of the count or of the weights' squares' sum; float32 sums rounded after
 * each add, float32 roots rounded once), rounded to the type once (a float32 quotient, correctly
 * rounded, equals the float64 one rounded). float32: a fused multiply-add (ref_fmaf); float64: the
 * product rounded, then added. max: grad[b, d] added to row max_indices[b, d] (-1: nowhere),
 * bag after bag, but for a bag of no entry the forward counts (empty, or padding only), which is
 * a constant: torch's _embedding_bag_dense_backward_cpu_max skips it.
 * The weights' gradient: grad[b] . table[r] in column order, summed in float64 (float32 products
 * are exact there) and rounded once; 0 for an entry in no bag, dropped or on padding. */
static void bw_reference(const bw_call* c, const size_t* starts, const uint8_t* grad, const uint8_t* wts,
                         const uint8_t* mi, const uint8_t* table, uint8_t* want, uint8_t* want_w) {
  const bag_call* b = &c->b;
  const int f64 = c->gdtype == WG_DTYPE_F64, vt = c->vt;
  const size_t w = f64 ? 8 : 4, dim = c->dim;
  const size_t fixed = b->form == WG_SEGMENTS_FIXED ? b->I[1] : 0;
  for (size_t q = 0; want_w && q < b->nidx; ++q) put_bits(want_w + q * w, w, 0); /* in no bag */
  for (size_t bag = 0; bag < c->bags; ++bag) {
    size_t s0 = b->form == WG_SEGMENTS_FIXED ? bag * fixed : starts[bag];
    size_t s1 = b->form == WG_SEGMENTS_FIXED ? s0 + fixed : starts[bag + 1];
    if (c->max) { /* a bag of no entry the forward counts is a constant: nothing */
      size_t kept = 0;
      for (size_t q = s0; q < s1; ++q) {
        size_t pos = 0;
        int ok = resolve(b->idx, (wg_index_type)b->itype, q, c->rows, b->mode, b->negative, &pos);
        kept += !(c->padded && ok == 1 && pos == c->padn);
      }
      for (size_t q = bag * dim; kept && q < (bag + 1) * dim; ++q) {
        int32_t v;
        memcpy(&v, mi + q * 4, 4);
        if (v < 0) continue;
        size_t o = (size_t)v * dim + q % dim;
        if (f64) put_bits(want + o * 8, 8, from_double(bag_get(vt, want, o) + bag_get(vt, grad, q)));
        else put_bits(want + o * 4, 4, from_float('f', (float)bag_get(vt, want, o) + (float)bag_get(vt, grad, q)));
      }
      continue;
    }
    size_t n = 0;
    float wsf = 0, w2f = 0;
    double wsd = 0, w2d = 0;
    for (size_t q = s0; q < s1; ++q) {
      size_t pos = 0;
      int ok = resolve(b->idx, (wg_index_type)b->itype, q, c->rows, b->mode, b->negative, &pos);
      if (ok < 0) FAIL("reference: a bad index after the scan");
      if (c->padded && ok && pos == c->padn) continue;
      ++n;
      if (c->weighted) {
        double x = bag_get(vt, wts, q);
        float xf = (float)x;
        wsf = wsf + xf, w2f = w2f + xf * xf;
        wsd = wsd + x, w2d = w2d + x * x;
      }
    }
    float byf = 1;
    double byd = 1;
    if (c->reduce == WG_REDUCE_MEAN) byf = c->weighted ? wsf : (float)n, byd = c->weighted ? wsd : (double)n;
    if (c->reduce == WG_REDUCE_SQRTN)
      byf = sqrtf(c->weighted ? w2f : (float)n), byd = sqrt(c->weighted ? w2d : (double)n);
    for (size_t q = s0; q < s1; ++q) {
      size_t pos = 0;
      int ok = resolve(b->idx, (wg_index_type)b->itype, q, c->rows, b->mode, b->negative, &pos);
      if (!ok || (c->padded && pos == c->padn)) continue;
      double wt = c->weighted ? bag_get(vt, wts, q) : 1;
      float sf = (float)wt / byf;
      double sd = wt / byd, dot = 0;
      for (size_t e = 0; e < dim; ++e) {
        size_t o = pos * dim + e, g = bag * dim + e;
        double acc = bag_get(vt, want, o), x = bag_get(vt, grad, g);
        if (f64) put_bits(want + o * 8, 8, from_double(acc + sd * x));
        else put_bits(want + o * 4, 4, from_float('f', ref_fmaf(sf, (float)x, (float)acc)));
        if (want_w) dot += x * bag_get(vt, table, o);
      }
      if (want_w) put_bits(want_w + q * w, w, f64 ? from_double(dot) : from_float('f', (float)dot));
    }
  }
}

static int fuzz_bag_backward(reader* r) {
  bw_call c;
  memset(&c, 0, sizeof c);
  bag_call* b = &c.b;
  uint8_t v = byte(r), s = byte(r), x = byte(r), o = byte(r);
  c.gdtype = BW_DTYPE[v & 7];
  c.vt = bw_vt(c.gdtype);
  c.reduce = BW_REDUCE[v >> 3 & 7];
  c.max = c.reduce == WG_REDUCE_MAX;
  int use_pool = v >> 6 & 1, split_all = v >> 7;
  b->form = BAG_FORM[s & 7];
  b->how = s >> 5;
  b->stype = b->how == 7 ? 4 : s >> 3 & 3;
  b->itype = x & 3;
  b->mode = x >> 2 & 3; /* 3: invalid */
  b->negative = (x >> 4 & 3) == 2 ? 7 : (x >> 4 & 3) == 1;
  int guarded = x >> 6 & 1;
  b->bad_itype = x >> 7;
  c.weighted = o & 1;
  c.padded = o >> 1 & 1;
  c.mi_given = c.max || (o >> 2 & 1);
  c.mi_hostile = c.max && (o >> 2 & 1);
  c.table = o >> 3 & 1;
  c.accumulate = o >> 4 & 1;
  int has_broken = o >> 5 & 1;
  size_t misalign = o >> 6;
  uint8_t rb = byte(r), ib = byte(r);
  c.gr = rb >= 0xf8 ? WG_MAX_RANK + 1 : rb >= 0xf0 ? 0 : 1 + rb % 3;
  b->ir = ib >= 0xf8 ? WG_MAX_RANK + 1 : ib & 0x80 ? ib % 3 : b->form == WG_SEGMENTS_FIXED ? 2 : 1;
  for (size_t d = 1; d < c.gr; ++d) c.G[d] = decode_dim(byte(r));
  for (size_t d = 0; d < b->ir; ++d) b->I[d] = decode_dim(byte(r));
  uint8_t nb = byte(r);
  size_t nbags = decode_dim(nb);
  b->num = nb < 0xb0 ? nb % 8 : (int32_t)NUM_TABLE[(nb - 0xb0) % (sizeof NUM_TABLE / sizeof NUM_TABLE[0])];
  uint8_t wb = byte(r);
  c.num_weights = wb < 0x80 ? wb % 8 : wb < 0xc0 ? wb % 64
                  : (int32_t)NW_TABLE[(wb - 0xc0) % (sizeof NW_TABLE / sizeof NW_TABLE[0])];
  c.rows = c.num_weights > 0 ? (size_t)c.num_weights : 0;
  uint8_t kb = has_broken ? byte(r) : BW_NONE;
  c.broken = kb & 15;
  if (c.padded) { /* mostly in range, either sign; the bounds; int32's extremes */
    uint8_t pb = byte(r);
    int64_t rows = (int64_t)c.rows;
    b->pad = pb == 0xf0 ? (int32_t)rows : pb == 0xf1 ? (int32_t)(-rows - 1) : pb == 0xf2 ? INT32_MAX
             : pb == 0xf3 ? INT32_MIN : pb >= 0xf4 ? (int8_t)pb : !rows ? 0
             : pb < 0x80 ? (int32_t)(pb % rows) : (int32_t)(-1 - (pb % rows));
  }
  unsigned hostile = byte(r);
  bw_current = &c;

  /* the segments, when they can be made; the bags; the gradient's rows are the bags */
  b->n = b->ir <= WG_MAX_RANK ? count(b->I, b->ir) : 0;
  size_t nominal = b->form == WG_SEGMENTS_BOUNDS ? nbags + (nbags < SIZE_MAX)
                   : b->form == WG_SEGMENTS_IDS  ? b->n
                                                 : nbags;
  static int64_t segv[MAX_INDICES + 2];
  int made = nominal <= MAX_INDICES && b->form != WG_SEGMENTS_FIXED;
  b->slen = made ? bag_make_segments(r, b, b->form == WG_SEGMENTS_BOUNDS ? nominal - 1 : nominal, hostile, segv)
                 : nominal + (b->how == 5 && nominal < SIZE_MAX);
  c.seg_given = b->form != WG_SEGMENTS_FIXED;
  c.bags = b->form == WG_SEGMENTS_FIXED ? (b->ir == 2 ? b->I[0] : nbags)
           : b->form == WG_SEGMENTS_BOUNDS ? b->slen - (b->slen > 0)
           : b->form == WG_SEGMENTS_IDS ? (size_t)(b->num > 0 ? b->num : 0) : b->slen;
  b->bags = c.bags;
  c.G[0] = c.bags;
  /* the shape broken on purpose: the gradient's first, then the others (made from it) */
  size_t kp = kb >> 4;
  if (c.broken == BW_GRAD_SCALAR) c.gr = 0;
  if (c.broken == BW_GRAD_MORE) c.G[0] += 1;
  if (c.broken == BW_GRAD_FEWER) c.G[0] -= 1;
  c.dim = c.gr >= 1 && c.gr <= WG_MAX_RANK ? count(c.G + 1, c.gr - 1) : 0;
  c.wdtype = c.gdtype, c.wr = b->ir;
  memcpy(c.W, b->I, sizeof c.W);
  c.mdtype = WG_DTYPE_I32, c.mr = c.gr;
  memcpy(c.M, c.G, sizeof c.M);
  c.tdtype = c.gdtype, c.tr = c.gr;
  memcpy(c.T, c.G, sizeof c.T);
  c.T[0] = c.rows;
  switch (c.broken) {
    case BW_WEIGHTS_TYPE: c.wdtype = bw_other_float(c.gdtype); break;
    case BW_WEIGHTS_RANK: c.W[c.wr++] = 1; break;
    case BW_WEIGHTS_DIM: if (c.wr) c.W[kp % c.wr] += 1; else c.W[c.wr++] = 1; break;
    case BW_MI_TYPE: c.mdtype = kp & 1 ? WG_DTYPE_I64 : WG_DTYPE_U32; break;
    case BW_MI_DIM: if (c.mr) c.M[kp % c.mr] += 1; else c.M[c.mr++] = 1; break;
    case BW_MI_ABSENT: c.mi_given = 0; break;
    case BW_TABLE_TYPE: c.tdtype = bw_other_float(c.gdtype); break;
    case BW_TABLE_RANK: if (c.tr) c.tr--; else c.T[c.tr++] = 1; break;
    case BW_TABLE_ROWS: c.T[0] += 1; break;
    case BW_TABLE_DIM: if (c.tr) c.T[kp % c.tr] += 1; break;
    case BW_FIXED_SEGMENTS: if (b->form == WG_SEGMENTS_FIXED) c.seg_given = 1, b->slen = 0; break;
    default: break;
  }

  /* the plan first, on a record with no addresses: what the rules refuse; tensors too large to
   * be may also overflow the workspace's size, and so may a huge table */
  outcomes plan = {0};
  bw_plan_rules(&c, &plan);
  const size_t gw = bw_width(c.gdtype), swidth = INDEX_BYTES[b->stype & 3];
  size_t ngrad = c.gr <= WG_MAX_RANK ? count(c.G, c.gr) : SIZE_MAX;
  /* (the rows' counting sort takes num_weights + 1 words whatever the rows' length: in wasm32, a
   * table of 2^30 rows or more overflows the workspace, its rows empty too) */
  int may_overflow = mul_or_max(ngrad, gw) > SIZE_MAX / 64 || mul_or_max(b->n, 64) == SIZE_MAX ||
                     mul_or_max(c.bags, 64) == SIZE_MAX || (!c.max && c.rows >= SIZE_MAX / 2 / sizeof(size_t));
  wg_call rec;
  bw_ptrs none = {0};
  wg_status st = bw_record(&c, &rec, &none);
  if (st == WG_OK) st = wg_call_shape(&rec);
  if (st == WG_ERR_SIZE_OVERFLOW && may_overflow) {
    return 0; /* a size that cannot be in memory */
  } else if (plan.n) {
    check_outcome(&plan, st, &rec.err);
  } else if (st != WG_OK) {
    FAIL("shape query: status %d, the rules accept", st);
  }
  /* the output [num_weights, ...the gradient's row]; the weights' gradient the indices' shape */
  size_t O[RANKS], orank = c.gr ? c.gr : 1;
  O[0] = c.rows;
  for (size_t d = 1; d < c.gr && d < RANKS; ++d) O[d] = c.G[d];
  if (st == WG_OK) {
    const wg_tensor* out_t = &rec.tensors[WG_TENSOR_out];
    const wg_tensor* ow = &rec.tensors[WG_TENSOR_out_weights];
    if (out_t->rank != c.gr || memcmp(out_t->shape, O, c.gr * sizeof(size_t)) != 0) FAIL("the output's shape");
    if (ow->dtype != (c.table ? c.gdtype : WG_DTYPE_NONE) || ow->rank != (c.table ? b->ir : 0) ||
        memcmp(ow->shape, b->I, ow->rank * sizeof(size_t)) != 0)
      FAIL("the weights' gradient's shape or type");
  }
  size_t workspace = st == WG_OK ? rec.tensors[WG_TENSOR_workspace].shape[0] : 0;

  /* sizes: too large, or too slow, and the shape query was all */
  size_t nout = orank <= WG_MAX_RANK ? count(O, orank) : SIZE_MAX;
  int out_over = nout == SIZE_MAX || (nout && gw > SIZE_MAX / nout);
  size_t ww = bw_width(c.wdtype), mw = c.mdtype == WG_DTYPE_I64 ? 8 : 4, tw = bw_width(c.tdtype);
  size_t nw = c.weighted && c.wr <= WG_MAX_RANK ? count(c.W, c.wr) : 0;
  size_t nmi = c.mi_given && c.mr <= WG_MAX_RANK ? count(c.M, c.mr) : 0;
  size_t ntab = c.table && c.tr <= WG_MAX_RANK ? count(c.T, c.tr) : 0;
  size_t grad_bytes = mul_or_max(ngrad, gw), seg_bytes = c.seg_given ? mul_or_max(b->slen, swidth) : 0;
  size_t out_bytes = out_over ? 0 : nout * gw;
  size_t work = mul_or_max(b->n + c.bags, c.dim + 1);
  if (c.gr > WG_MAX_RANK || b->ir > WG_MAX_RANK || c.wr > WG_MAX_RANK || c.mr > WG_MAX_RANK || c.tr > WG_MAX_RANK ||
      (b->form != WG_SEGMENTS_FIXED && !made) || grad_bytes > MAX_DATA_BYTES || b->n > MAX_INDICES ||
      seg_bytes > MAX_DATA_BYTES || mul_or_max(nw, ww) > MAX_DATA_BYTES || mul_or_max(nmi, mw) > MAX_DATA_BYTES ||
      mul_or_max(ntab, tw) > MAX_DATA_BYTES || out_bytes > MAX_OUT_BYTES || workspace > MAX_WORKSPACE ||
      work > MAX_BAG_WORK) {
    return 0;
  }

  /* tensors of their exact sizes (or guarded), each aligned to its element */
  buf grad, idx, seg, wts, mi, table, out, out_w, ws;
  b->nidx = b->n;
  buf_new(&grad, grad_bytes, guarded, misalign * gw);
  buf_new(&idx, b->n * INDEX_BYTES[b->itype], guarded, 0);
  buf_new(&seg, seg_bytes, guarded, (misalign & 1) * swidth);
  buf_new(&wts, nw * ww, guarded, (misalign ^ 1) * ww);
  buf_new(&mi, nmi * mw, guarded, (misalign ^ 2) * mw);
  buf_new(&table, ntab * tw, guarded, (misalign ^ 3) * tw);
  buf_new(&out, out_bytes, guarded, (misalign ^ 1) * gw);
  buf_new(&out_w, c.table ? b->n * gw : 0, guarded, misalign * gw);
  buf_new(&ws, workspace, guarded, (misalign & 1) * 16);
  for (size_t p = 0; p < b->n; ++p) put_index(idx.p, b->itype, p, decode_index(r, c.rows, hostile));
  for (size_t p = 0; seg_bytes && p < b->slen; ++p) put_index(seg.p, b->stype, p, (uint64_t)segv[p]);
  for (size_t p = 0; p < nw; ++p) put_bits(wts.p + p * ww, ww, bag_value(r, bw_vt(c.wdtype)));
  for (size_t p = 0; p < nmi; ++p) {
    uint64_t m = (uint64_t)bw_max_index(r, c.rows, c.mi_hostile);
    put_bits(mi.p + p * mw, mw, m);
  }
  for (size_t p = 0; p < ngrad; ++p) put_bits(grad.p + p * gw, gw, bag_value(r, c.vt));
  if (c.accumulate) {
    for (size_t p = 0; p < out_bytes / gw; ++p) put_bits(out.p + p * gw, gw, bag_value(r, c.vt));
  } else {
    memset(out.p, 0xA5, out_bytes);
  }
  for (size_t p = 0; p < ntab; ++p) put_bits(table.p + p * tw, tw, bag_value(r, bw_vt(c.tdtype)));
  memset(out_w.p, 0xA5, out_w.bytes);
  b->idx = idx.p;
  b->seg = seg.p;
  uint8_t* copies[7] = {snapshot(grad.p, grad.bytes), snapshot(idx.p, idx.bytes), snapshot(seg.p, seg.bytes),
                        snapshot(wts.p, wts.bytes),   snapshot(mi.p, mi.bytes),   snapshot(table.p, table.bytes),
                        snapshot(out.p, out.bytes)};

  /* the run: planned by its shape query (as the binding runs it), or a refused call run without one */
  wg_pool* pool = use_pool ? fuzz_pool_split(split_all) : NULL;
  if (getenv("WG_FUZZ_DESCRIBE")) bw_describe();
  bw_ptrs ptrs = {grad.p, idx.p, seg.p, wts.p, mi.p, table.p, out.p, out_w.p, ws.p};
  st = bw_record(&c, &rec, &ptrs);
  if (st == WG_OK && !plan.n) st = wg_call_shape(&rec);
  if (st == WG_OK) st = wg_call_run(pool, &rec);
  wg_error_info err = rec.err;

  /* what it must have done: refused what the plan refuses; then an output too large, invalid
   * policies, broken segments, max indices that are not -1 or a row, and the first bad index
   * (every one, in a bag or not: the runner's scan), each before any stage: nothing written */
  outcomes want = plan;
  size_t* starts = malloc((want.n || b->form == WG_SEGMENTS_FIXED ? 1 : c.bags + 2) * sizeof *starts);
  if (!starts) abort();
  if (!want.n && out_over) allow(&want, WG_ERR_SIZE_OVERFLOW, 1, WG_ARG_OUT, -1, -1, -1, -1);
  if (!want.n && (b->bad_itype || b->mode == 3 || b->negative == 7))
    allow(&want, WG_ERR_INVALID_ARGUMENT, 1, WG_ARG_NONE, -1, -1, -1, -1);
  if (!want.n) {
    wg_error_info e;
    if (seg_first_broken(b, starts, &e)) allow(&want, WG_ERR_SEGMENTS, 1, e.arg, e.dim, e.value, e.limit, e.position);
  }
  for (size_t q = 0; !want.n && c.max && q < c.bags * c.dim; ++q) {
    int32_t m;
    memcpy(&m, mi.p + q * 4, 4);
    if (m < -1 || (m >= 0 && (size_t)m >= c.rows))
      allow(&want, WG_ERR_MAX_INDICES, 1, WG_ARG_MAX_INDICES, 0, m, (int64_t)c.rows, (int64_t)q);
  }
  for (size_t p = 0; !want.n && b->mode == WG_OOB_ERROR && p < b->n; ++p) {
    size_t pos;
    if (resolve(idx.p, (wg_index_type)b->itype, p, c.rows, WG_OOB_ERROR, b->negative, &pos) < 0) {
      uint64_t mag;
      int neg;
      int64_t bits;
      load(idx.p, (wg_index_type)b->itype, p, &mag, &neg, &bits);
      allow(&want, WG_ERR_INDEX_OUT_OF_RANGE, 1, WG_ARG_INDICES, 0, bits, (int64_t)c.rows, (int64_t)p);
    }
  }
  if (want.n) {
    check_outcome(&want, st, &err);
    if (memcmp(out.p, copies[6], out.bytes) != 0) FAIL("a refused call (status %d) wrote its output", st);
    for (size_t i = 0; i < out_w.bytes; ++i)
      if (out_w.p[i] != 0xA5) FAIL("a refused call (status %d) wrote the weights' gradient", st);
  } else if (st != WG_OK) {
    FAIL("status %d (arg %lld dim %lld value %lld limit %lld position %lld), the reference accepts", st,
         (long long)err.arg, (long long)err.dim, (long long)err.value, (long long)err.limit, (long long)err.position);
  } else {
    uint8_t* expect = malloc(out_bytes + 1);
    uint8_t* expect_w = c.table ? malloc(out_w.bytes + 1) : NULL;
    if (!expect || (c.table && !expect_w)) abort();
    if (c.accumulate) memcpy(expect, copies[6], out_bytes);
    else memset(expect, 0, out_bytes);
    bw_reference(&c, starts, grad.p, wts.p, mi.p, table.p, expect, expect_w);
    for (size_t q = 0; q < nout; ++q) {
      if (!bag_same(c.vt, out.p, expect, q))
        FAIL("output element %zu of %zu is 0x%llx, reference 0x%llx", q, nout,
             (unsigned long long)get_bits(out.p + q * gw, gw), (unsigned long long)get_bits(expect + q * gw, gw));
    }
    for (size_t q = 0; c.table && q < b->n; ++q) {
      if (!bag_same(c.vt, out_w.p, expect_w, q))
        FAIL("weights' gradient %zu of %zu is 0x%llx, reference 0x%llx", q, b->n,
             (unsigned long long)get_bits(out_w.p + q * gw, gw), (unsigned long long)get_bits(expect_w + q * gw, gw));
    }
    free(expect);
    free(expect_w);
  }
  const buf* inputs[6] = {&grad, &idx, &seg, &wts, &mi, &table};
  static const char* const names[6] = {"gradient", "indices", "segments", "weights", "max indices", "table"};
  for (int k = 0; k < 6; ++k) {
    if (memcmp(inputs[k]->p, copies[k], inputs[k]->bytes) != 0) FAIL("%s changed", names[k]);
  }
  for (int k = 0; k < 7; ++k) free(copies[k]);
  buf_check_free(&grad, "gradient");
  buf_check_free(&idx, "indices");
  buf_check_free(&seg, "segments");
  buf_check_free(&wts, "weights");
  buf_check_free(&mi, "max indices");
  buf_check_free(&table, "table");
  buf_check_free(&out, "output");
  buf_check_free(&out_w, "weights' gradient");
  buf_check_free(&ws, "workspace");
  free(starts);
  bw_current = NULL;
  return 0;
}

/* ---- the masks' ops (non_zero, boolean_mask, compress, masked_scatter): one decoder, their rules
 * and a reference that recounts the mask in a scalar loop, an element's value compared with zero
 * as its type reads it (NaN is true, -0 false: numpy, torch and ONNX) ----
 * Input layout (tests/fuzz/make-seeds.mjs writes it):
 *   t: the mask's type (MASK_DTYPE: the 12 whole-byte types, uint8 again, then none, uint4 and an
 *      unknown dtype, refused) | the data's type << 4 (DATA_DTYPE: the 12, uint8, then int4, none
 *      and an unknown dtype, refused). non_zero (its data is the mask): 0x10 rows first (with 0x80
 *      given as -1), 0x60 the index type (int32, int64, int32, and uint32 or with 0x80 7: refused)
 *   o: 0x01 pool | 0x02 every op split | 0x04 guard zones | 0x08 count first: a run without an
 *      output (only counts), then one that writes into an output (offsets) of exactly the count
 *      (masked_scatter: in the offsets mode only) | 0x10 a shape
 *      query first (the runs are wg_call_rerun; else wg_call_run, which plans each) | 0x20 hostile:
 *      the mask changed between the count and the write (count first, after a shape query, not
 *      with 0x40) | 0x40 count first: a second run without an output (refused unless the output
 *      is empty), then the write recounts; masked_scatter: in place (out is data) | 0x80
 *      misaligned (in elements)
 *   x: compress: 0x01 no axis (flatten), 0x02 flatten given as -1; masked_scatter: the source: 0-2
 *      its length (0-3 the count, 4 the count and more, 5 one fewer, 6 none, 7 a dim byte next) |
 *      its shape << 3 (0, 1 [n]; 2 [1, n]; 3 [] when n is 1, else [n, 1]) | 0x80 another type;
 *      not non_zero: 0x40 the offsets mode instead (mask_offsets), 0x20 then with no workspace
 *   m: how the mask's values are made: 0-1 a byte each (MASK_VALUE below), a density (the next
 *      byte: true below it), runs (each a byte long times 1 + (m >> 2 & 7), false and true in
 *      turn; 0x20 their values a byte each), or one value for all (the next byte)
 *   data rank (< 0xf8: % 6; else 17), axis (int8; 0x80 INT32_MIN, 0x7f INT32_MAX), the mask's rank
 *   (not non_zero: 0x80 made from data's shape (boolean_mask: 1 + (k & 7) % the dims from the axis;
 *   compress: (k >> 4 & 3) 0-1 the axis, 2 the axis less k & 15, 3 (k & 15) % (the axis + 1);
 *   masked_scatter: data's) | 0x40 then perturbed by a byte after the dims (mask_perturb;
 *   compress: the axis plus 1 or 2); else a rank (% 6, compress % 3; >= 0xf8: 17) and dims of its
 *   own), data dims, the mask's own dims, the perturbation byte, the mask's values, a dim byte
 *   for masked_scatter's source (length 7), the hostile mutation's bytes; data and source values
 *   come from the PRNG (any bits: the ops copy them).
 * A mask value byte (MASK_VALUE): < 0x40 zero, < 0x80 one (1.0 for the floats), else by its low
 * nibble the sign bit alone (-0), all ones, a quiet NaN, -1, the least subnormal, one bit of any
 * byte, the exponent's top bit, the low byte's top bit, the least negative subnormal, +-inf, a
 * negative NaN, or any bits. */
#define IS_MASK (SC_IS(non_zero) || SC_IS(boolean_mask) || SC_IS(compress) || SC_IS(masked_scatter))
#define MASK_MAX_ELEMS (1u << 16) /* the mask's elements run, at most */
#define MASK_MAX_BYTES (1u << 20) /* any tensor's bytes */

static const int32_t MASK_DTYPE[16] = {WG_DTYPE_U8,  WG_DTYPE_I8,  WG_DTYPE_U16, WG_DTYPE_I16, WG_DTYPE_U32, WG_DTYPE_I32,
                                       WG_DTYPE_U64, WG_DTYPE_I64, WG_DTYPE_F16, WG_DTYPE_BF16, WG_DTYPE_F32, WG_DTYPE_F64,
                                       WG_DTYPE_U8,  WG_DTYPE_NONE, WG_DTYPE_U4, 99};
static const int32_t DATA_DTYPE[16] = {WG_DTYPE_U8,  WG_DTYPE_I8,  WG_DTYPE_U16, WG_DTYPE_I16, WG_DTYPE_U32, WG_DTYPE_I32,
                                       WG_DTYPE_U64, WG_DTYPE_I64, WG_DTYPE_F16, WG_DTYPE_BF16, WG_DTYPE_F32, WG_DTYPE_F64,
                                       WG_DTYPE_U8,  WG_DTYPE_I4,  WG_DTYPE_NONE, 99};

typedef struct mask_call {
  int32_t mdtype, ddtype, sdtype; /* the mask's, data's and source's types (non_zero: data is the mask) */
  size_t mw, dw, ow;              /* bytes of their elements (0: none whole) and of the output's */
  size_t D[RANKS], dr, M[RANKS], mr, S[RANKS], sr;
  int32_t axis, index_type, rows_first, flatten;
  int count_first, shape_first, hostile, again, in_place, use_pool, split_all, guarded, misalign;
  int offsets_mode, no_workspace; /* the offsets mode (not non_zero's), without a workspace */
  uint8_t fill;
  /* derived by mask_plan_rules when the shapes are valid */
  size_t a;          /* the axis, normalized */
  size_t len;        /* the mask's elements read (compress: the condition's length) */
  size_t outer;      /* blocks of data before the mask's dims */
  size_t stride;     /* data's slices a block (the mask's elements, compress: the axis's) */
  size_t inner;      /* a slice's elements */
  size_t O[RANKS], orank, count_dim; /* the output's shape, its count dim at its most (the mask's
                                        elements) and that dim + 1 (0: none) */
  size_t n;          /* the true elements: the reference's count */
  size_t workspace;  /* its bytes (the shape query's) */
  int slice_overflow; /* a slice's bytes near size_t's top: WG_ERR_SIZE_OVERFLOW or planned */
  const uint8_t* mask;
} mask_call;

static const mask_call* mask_current;

static void mask_describe(void) {
  const mask_call* c = mask_current;
  if (!c) return;
  fprintf(stderr,
          "  op %d mask dtype %d data dtype %d source dtype %d axis %d flatten %d rows_first %d index type %d"
          " count first %d shape first %d hostile %d again/in place %d/%d offsets mode %d (no workspace %d) pool %d split %d"
          " guarded %d misalign %d fill 0x%02x count %zu\n",
          FUZZ_OP, c->mdtype, c->ddtype, c->sdtype, c->axis, c->flatten, c->rows_first, c->index_type, c->count_first,
          c->shape_first, c->hostile, c->again, c->in_place, c->offsets_mode, c->no_workspace, c->use_pool, c->split_all,
          c->guarded, c->misalign, c->fill, c->n);
  print_shape("data", c->D, c->dr);
  if (!SC_IS(non_zero)) print_shape("mask", c->M, c->mr);
  if (SC_IS(masked_scatter)) print_shape("source", c->S, c->sr);
  for (size_t i = 0; c->mask && c->mw && i < c->len && i < 32; ++i)
    fprintf(stderr, "  mask %zu: 0x%llx\n", i, (unsigned long long)get_bits(c->mask + i * c->mw, c->mw));
}

static size_t mask_width(int32_t dtype) { return wg_dtype_bits(dtype) >= 8 ? wg_dtype_bits(dtype) / 8 : 0; }

/* Mask element i as its type reads it, compared with zero: NaN != 0, -0 == 0. */
static int ref_true(int32_t dtype, size_t w, const uint8_t* m, size_t i) {
  uint64_t v = get_bits(m + i * w, w);
  switch (dtype) {
    case WG_DTYPE_F16: return f16_to_f32((uint16_t)v) != 0.0f;
    case WG_DTYPE_BF16: return bf16_to_f32((uint16_t)v) != 0.0f;
    case WG_DTYPE_F32: return to_float('f', v) != 0.0f;
    case WG_DTYPE_F64: return to_double(v) != 0.0;
    default: return v != 0;
  }
}

/* A mask value of dtype from byte c (MASK_VALUE above). */
static uint64_t mask_value(int32_t dtype, uint8_t c, reader* r) {
  size_t w = mask_width(dtype);
  if (!w) return 0;
  uint64_t all = sc_mask(w), sign = (uint64_t)1 << (8 * w - 1), one = 1, nan = all >> 1, inf = sign >> 1;
  switch (dtype) { /* the floats' 1.0, quiet NaN and infinity */
    case WG_DTYPE_F16: one = 0x3c00, nan = 0x7e00, inf = 0x7c00; break;
    case WG_DTYPE_BF16: one = 0x3f80, nan = 0x7fc0, inf = 0x7f80; break;
    case WG_DTYPE_F32: one = 0x3f800000u, nan = 0x7fc00000u, inf = 0x7f800000u; break;
    case WG_DTYPE_F64: one = 0x3ff0000000000000ull, nan = 0x7ff8000000000000ull, inf = 0x7ff0000000000000ull; break;
    default: break;
  }
  if (c < 0x40) return 0;
  if (c < 0x80) return one;
  switch (c & 15) {
    case 0: return sign;                                  /* -0 */
    case 1: return all;                                   /* a NaN with every bit; -1 */
    case 2: return nan;
    case 3: return one | sign;                            /* -1.0; a negative integer */
    case 4: return 1;                                     /* the least subnormal */
    case 5: return (uint64_t)1 << (8 * ((c >> 4 & 7) % w) + (c >> 4 & 7)); /* one bit of any byte */
    case 6: return sign >> 1;                             /* the exponent's top bit */
    case 7: return 0x80;                                  /* the low byte's top bit (int8: the sign) */
    case 8: return sign | 1;                              /* the least negative subnormal */
    case 9: return inf;
    case 10: return inf | sign;
    case 11: return nan | sign;
    default: return rnd(r) & all;
  }
}

/* The mask's len values (of width w >= 1) into m, as c->fill says. */
static void mask_fill(reader* r, const mask_call* c, uint8_t* m, size_t len, size_t w) {
  int mode = c->fill & 3;
  uint8_t p = mode ? byte(r) : 0;
  size_t run = 0, scale = 1 + (c->fill >> 2 & 7);
  int on = 1;
  uint64_t v = 0;
  for (size_t i = 0; i < len; ++i) {
    switch (mode) {
      case 0: v = mask_value(c->mdtype, byte(r), r); break;
      case 1: {
        uint64_t b = rnd(r);
        if ((b & 255) < p) v = mask_value(c->mdtype, b >> 8 & 1 ? 0x40 : (uint8_t)(0x80 | (b >> 16)), r);
        else v = b >> 8 & 2 ? mask_value(c->mdtype, 0x80, r) : 0; /* -0 or 0 */
        break;
      }
      case 2:
        if (!run) {
          on = !on;
          run = 1 + (size_t)byte(r) * scale;
          v = on ? mask_value(c->mdtype, c->fill & 0x20 ? byte(r) : 0x40, r) : 0;
        }
        --run;
        break;
      default: v = mask_value(c->mdtype, p, r);
    }
    if (c->mw) put_bits(m + i * w, w, v);
    else m[i] = (uint8_t)v;
  }
}

/* A mask shape made from data's broken by byte pb: a dim one more, a dim 0 (or 1), one dim more,
 * one fewer. */
static void mask_perturb(uint8_t pb, size_t* M, size_t* mr) {
  size_t k = *mr ? (size_t)(pb >> 2) % *mr : 0;
  switch (pb & 3) {
    case 0: if (*mr) M[k] += 1; else M[(*mr)++] = 2; break;
    case 1: if (*mr) M[k] = M[k] ? 0 : 1; else M[(*mr)++] = 0; break;
    case 2: M[(*mr)++] = 1 + (pb >> 2 & 3); break;
    default: if (*mr) --*mr; else M[(*mr)++] = 1; break;
  }
}

/* The rules the plan checks (src/op_<name>.c, src/stage_mask.c's types, the engine's ranks): each
 * broken one into s, with its report. Fills the derived sizes and the output's shape when the
 * shapes hold. */
static void mask_plan_rules(mask_call* c, outcomes* s) {
  const int nz = SC_IS(non_zero), bm = SC_IS(boolean_mask), cp = SC_IS(compress), ms = SC_IS(masked_scatter);
  if (c->dr > WG_MAX_RANK || (!nz && c->mr > WG_MAX_RANK) || (ms && c->sr > WG_MAX_RANK)) {
    ALLOW_ANY(s, WG_ERR_MAX_RANK); /* wg_call_tensor refuses it */
    return;
  }
  if (!nz && !c->dw) allow(s, WG_ERR_INVALID_ARGUMENT, 1, WG_ARG_DATA, -1, -1, -1, -1);
  if (!c->mw) allow(s, WG_ERR_MASK_SHAPE, 1, WG_ARG_MASK, -3, c->mdtype, -1, -1);
  int shapes_ok = 1;
  size_t after = 0; /* data's first dim after the mask's */
  if (nz) {
    if (c->index_type != WG_INDEX_I32 && c->index_type != WG_INDEX_I64)
      allow(s, WG_ERR_INVALID_ARGUMENT, 1, WG_ARG_NONE, -1, c->index_type, -1, -1);
    c->len = count(c->D, c->dr);
    if (c->len == SIZE_MAX) allow(s, WG_ERR_SIZE_OVERFLOW, 1, WG_ARG_DATA, -1, -1, -1, -1), shapes_ok = 0;
    size_t rank = c->dr || c->rows_first ? c->dr : 1; /* a scalar as [1] in ONNX's layout */
    c->orank = 2;
    c->O[0] = c->rows_first ? c->len : rank;
    c->O[1] = c->rows_first ? rank : c->len;
    c->count_dim = c->rows_first ? 1 : 2;
  } else if (bm) {
    if (c->dr < 1) {
      allow(s, WG_ERR_DATA_SCALAR, 1, WG_ARG_DATA, -1, 0, 1, -1), shapes_ok = 0;
    } else if (c->axis < -(int64_t)c->dr || c->axis >= (int64_t)c->dr) {
      allow(s, WG_ERR_AXIS, 1, WG_ARG_AXIS, -1, c->axis, (int64_t)c->dr, -1), shapes_ok = 0;
    } else {
      c->a = (size_t)(c->axis < 0 ? c->axis + (int64_t)c->dr : c->axis);
      if (c->mr < 1 || c->mr > c->dr - c->a) {
        allow(s, WG_ERR_MASK_SHAPE, 1, WG_ARG_MASK, -1, (int64_t)c->mr, (int64_t)(c->dr - c->a), -1), shapes_ok = 0;
      } else {
        for (size_t d = 0; d < c->mr && shapes_ok; ++d) {
          if (c->M[d] != c->D[c->a + d])
            allow(s, WG_ERR_MASK_SHAPE, 1, WG_ARG_MASK, (int64_t)d, (int64_t)c->M[d], (int64_t)c->D[c->a + d], -1), shapes_ok = 0;
        }
      }
    }
    if (shapes_ok) {
      after = c->a + c->mr;
      c->len = c->stride = count(c->M, c->mr);
      c->outer = count(c->D, c->a);
      c->orank = 0;
      for (size_t d = 0; d < c->a; ++d) c->O[c->orank++] = c->D[d];
      c->O[c->orank++] = c->len;
      for (size_t d = after; d < c->dr; ++d) c->O[c->orank++] = c->D[d];
      c->count_dim = c->a + 1;
      if (c->len == SIZE_MAX || c->outer == SIZE_MAX || count(c->O, c->orank) == SIZE_MAX)
        allow(s, WG_ERR_SIZE_OVERFLOW, 1, WG_ARG_OUT, -1, -1, -1, -1), shapes_ok = 0;
    }
  } else if (cp) {
    if (c->mr != 1) allow(s, WG_ERR_MASK_SHAPE, 1, WG_ARG_MASK, -1, (int64_t)c->mr, 1, -1), shapes_ok = 0;
    size_t all = count(c->D, c->dr);
    if (all == SIZE_MAX) allow(s, WG_ERR_SIZE_OVERFLOW, 1, WG_ARG_DATA, -1, -1, -1, -1), shapes_ok = 0;
    if (!c->flatten && c->dr < 1) {
      allow(s, WG_ERR_DATA_SCALAR, 1, WG_ARG_DATA, -1, 0, 1, -1), shapes_ok = 0;
    } else if (!c->flatten && (c->axis < -(int64_t)c->dr || c->axis >= (int64_t)c->dr)) {
      allow(s, WG_ERR_AXIS, 1, WG_ARG_AXIS, -1, c->axis, (int64_t)c->dr, -1), shapes_ok = 0;
    } else if (all != SIZE_MAX) {
      c->a = c->flatten ? 0 : (size_t)(c->axis < 0 ? c->axis + (int64_t)c->dr : c->axis);
      c->stride = c->flatten ? all : c->D[c->a];
      if (c->mr == 1 && c->M[0] > c->stride)
        allow(s, WG_ERR_MASK_SHAPE, 1, WG_ARG_MASK, -2, (int64_t)c->M[0], (int64_t)c->stride, -1), shapes_ok = 0;
    }
    if (shapes_ok) {
      c->len = c->M[0];
      c->outer = c->flatten ? 1 : count(c->D, c->a);
      after = c->flatten ? c->dr : c->a + 1;
      c->orank = 0;
      for (size_t d = 0; !c->flatten && d < c->a; ++d) c->O[c->orank++] = c->D[d];
      c->O[c->orank++] = c->len;
      for (size_t d = after; d < c->dr; ++d) c->O[c->orank++] = c->D[d];
      c->count_dim = c->flatten ? 1 : c->a + 1;
    }
  } else {
    if (c->mr != c->dr) {
      allow(s, WG_ERR_MASK_SHAPE, 1, WG_ARG_MASK, -1, (int64_t)c->mr, (int64_t)c->dr, -1), shapes_ok = 0;
    } else {
      for (size_t d = 0; d < c->mr && shapes_ok; ++d) {
        if (c->M[d] != c->D[d]) allow(s, WG_ERR_MASK_SHAPE, 1, WG_ARG_MASK, (int64_t)d, (int64_t)c->M[d], (int64_t)c->D[d], -1), shapes_ok = 0;
      }
    }
    if (c->sdtype != c->ddtype) allow(s, WG_ERR_UPDATES_TYPE, 1, WG_ARG_UPDATES, -1, c->sdtype, c->ddtype, -1);
    c->len = count(c->D, c->dr);
    if (shapes_ok && (c->len == SIZE_MAX || count(c->S, c->sr) == SIZE_MAX))
      allow(s, WG_ERR_SIZE_OVERFLOW, 1, WG_ARG_DATA, -1, -1, -1, -1), shapes_ok = 0;
    c->orank = c->dr;
    memcpy(c->O, c->D, sizeof c->O);
    c->count_dim = 0;
  }
  if (shapes_ok && (bm || cp)) {
    c->inner = count(c->D + after, c->dr - after);
    /* a slice of bytes near size_t's top (where another dim is 0: the output is empty), which no
     * memory holds: an overflow, or planned */
    c->slice_overflow = mul_or_max(c->inner, c->dw) > SIZE_MAX / 16;
    if (c->slice_overflow && s->n) ALLOW_ANY(s, WG_ERR_SIZE_OVERFLOW);
  }
}

/* The record as the JS binding fills it (js/ops/non-zero.mjs, boolean-mask.mjs, compress.mjs,
 * masked-scatter.mjs). */
static wg_status mask_record(const mask_call* c, wg_call* rec, const void* data, const void* mask,
                             const void* source, void* out, void* ws) {
  wg_call_init(rec, FUZZ_OP);
  if (SC_IS(boolean_mask) || SC_IS(compress)) rec->attrs[WG_ATTR_axis] = c->axis;
  if (SC_IS(compress)) rec->attrs[WG_ATTR_flatten] = c->flatten;
  if (SC_IS(non_zero)) rec->attrs[WG_ATTR_rows_first] = c->rows_first, rec->attrs[WG_ATTR_index_type] = c->index_type;
  rec->tensors[WG_TENSOR_out].ptr = out;
  rec->tensors[WG_TENSOR_workspace].ptr = ws;
  wg_status st = wg_call_tensor(rec, WG_TENSOR_data, data, SC_IS(non_zero) ? c->mdtype : c->ddtype, c->D, c->dr);
  if (st == WG_OK && !SC_IS(non_zero)) st = wg_call_tensor(rec, WG_TENSOR_mask, mask, c->mdtype, c->M, c->mr);
  if (st == WG_OK && SC_IS(masked_scatter)) st = wg_call_tensor(rec, WG_TENSOR_updates, source, c->sdtype, c->S, c->sr);
  return st;
}

/* The expected output (of c->n true elements, counted first) into want: each true element's
 * coordinates; each block's slices at the true elements; data with the source's values in turn
 * at the true elements. */
static void mask_reference(const mask_call* c, const uint8_t* mask, const uint8_t* data, const uint8_t* source,
                           uint8_t* want) {
  const size_t ow = c->ow, n = c->n;
  if (SC_IS(non_zero)) {
    size_t one = 1, rank = c->dr || c->rows_first ? c->dr : 1, cc[RANKS];
    const size_t* shape = c->dr ? c->D : &one;
    for (size_t i = 0, k = 0; i < c->len; ++i) {
      if (!ref_true(c->mdtype, c->mw, mask, i)) continue;
      unravel(i, shape, rank, cc);
      for (size_t d = 0; d < rank; ++d) put_bits(want + (c->rows_first ? k * rank + d : d * n + k) * ow, ow, cc[d]);
      ++k;
    }
  } else if (SC_IS(masked_scatter)) {
    memcpy(want, data, c->len * ow);
    for (size_t i = 0, k = 0; i < c->len; ++i) {
      if (ref_true(c->mdtype, c->mw, mask, i)) memcpy(want + i * ow, source + k++ * ow, ow);
    }
  } else {
    const size_t slice = c->inner * ow;
    for (size_t o = 0; n && slice && o < c->outer; ++o) { /* (else no output: outer may be huge) */
      for (size_t p = 0, k = 0; p < c->len; ++p) {
        if (ref_true(c->mdtype, c->mw, mask, p)) memcpy(want + (o * n + k++) * slice, data + (o * c->stride + p) * slice, slice);
      }
    }
  }
}

/* The record's output shape after a run: the plan's, its count dim the count (a run planned
 * without a shape query writes the count only). */
static void mask_check_shape(const mask_call* c, const wg_call* rec, const char* when) {
  const wg_tensor* o = &rec->tensors[WG_TENSOR_out];
  if (c->count_dim && o->shape[c->count_dim - 1] != c->n)
    FAIL("%s: the record's count is %zu, the reference's %zu", when, o->shape[c->count_dim - 1], c->n);
  if (!c->shape_first) return;
  for (size_t d = 0; d < c->orank; ++d) {
    size_t want = d + 1 == c->count_dim ? c->n : c->O[d];
    if (o->rank != c->orank || o->shape[d] != want) FAIL("%s: output dim %zu is %zu, reference %zu (rank %zu)", when, d, o->shape[d], want, o->rank);
  }
}

/* Another mask between a count and the write (c->hostile): elements changed at random, any
 * output then, but written only where the count made room. */
static void mask_mutate(const mask_call* c, uint8_t* mask, size_t elems, reader* r) {
  uint8_t how = byte(r);
  for (size_t i = 0; i < elems; ++i) {
    uint64_t b = rnd(r);
    if (how & 1 || (b & 7) == 0) put_bits(mask + i * c->mw, c->mw, mask_value(c->mdtype, how & 2 ? (uint8_t)b : how & 4 ? 0x40 : 0, r));
  }
}

/* The offsets mode (src/stage_mask.h): a run with an offsets tensor and no data, source or output
 * (js/call.mjs: the data is not in wasm memory) resolves each output slice's byte offset in data
 * (boolean_mask, compress: the count in the record) or the element each source value goes to
 * (masked_scatter: the count the workspace's last word, which js/call.mjs reads). Without its
 * workspace the run must be refused; with a source short of the count, refused, nothing written.
 * Count first (c->count_first), as the binding runs it (js/call.mjs, countOffsets): a run with
 * neither offsets nor an output counts, reading the mask alone (data and source NULL), and the
 * offsets get room for exactly as many as the record then notes, which the next run writes (from
 * the kept counts, after a shape query: then c->hostile changes the mask between the two, and the
 * offsets may be any, but only in that room); else one run, into room for the most a count may
 * need (nblocks). Returns whether the mask was changed. */
static int mask_offsets(const mask_call* c, wg_pool* pool, uint8_t* mask, size_t mask_elems, const buf* ws,
                        size_t nblocks, size_t nsource, reader* r) {
  const int ms = SC_IS(masked_scatter);
  const size_t most = ms ? c->len : mul_or_max(c->outer, c->len), n = c->n, words = c->workspace / sizeof(size_t);
  if (nblocks < most) FAIL("the offsets mode: %zu offsets, fewer than the %zu a count may need", nblocks, most);
  if (nblocks > MASK_MAX_BYTES / sizeof(size_t)) return 0;
  outcomes want = {0};
  if (c->no_workspace && c->workspace) allow(&want, WG_ERR_INVALID_ARGUMENT, 1, WG_ARG_NONE, -1, -1, -1, -1);
  else if (ms && n > nsource) allow(&want, WG_ERR_MASK_SOURCE, 1, WG_ARG_UPDATES, -1, (int64_t)nsource, (int64_t)n, -1);
  /* the record says how many offsets the run wrote (or the count will): the binding reads no more */
  const size_t want_noted = ms ? n : mul_or_max(c->outer, n);
  wg_call rec;
  wg_status st = mask_record(c, &rec, NULL, mask, NULL, NULL, c->no_workspace ? NULL : ws->p);
  if (st == WG_OK && c->shape_first) st = wg_call_shape(&rec);
#define OFFSETS_RUN(rec) (c->shape_first ? wg_call_rerun(pool, (rec)) : wg_call_run(pool, (rec)))
  size_t room = nblocks;
  int mutated = 0;
  if (st == WG_OK && c->count_first) {
    st = OFFSETS_RUN(&rec);
    if (st == WG_OK) {
      room = rec.tensors[WG_TENSOR_offsets].shape[0];
      if (room != want_noted) FAIL("the offsets mode: the count notes %zu offsets, the reference %zu", room, want_noted);
      if (c->hostile) mutated = 1, mask_mutate(c, mask, mask_elems, r);
    }
  }
  buf off;
  buf_new(&off, room * sizeof(size_t), c->guarded, 0);
  if (off.bytes) memset(off.p, 0xA5, off.bytes);
  /* count first with nothing to resolve: no second run (the binding makes none) */
  if (st == WG_OK && (room || !c->count_first)) {
    rec.tensors[WG_TENSOR_offsets].ptr = off.p;
    st = OFFSETS_RUN(&rec);
  }
#undef OFFSETS_RUN
  size_t written = 0;
  if (want.n) {
    check_outcome(&want, st, &rec.err);
  } else if (st != WG_OK) {
    FAIL("the offsets mode: status %d, the reference accepts", st);
  } else if (mutated) {
    written = room * sizeof(size_t); /* any offsets, in their room (its guard checked below) */
  } else {
    size_t got_n = ms ? ((const size_t*)(const void*)ws->p)[words - 1] : rec.tensors[WG_TENSOR_out].shape[c->count_dim - 1];
    if (got_n != n) FAIL("the offsets mode: the count is %zu, the reference's %zu", got_n, n);
    size_t noted = rec.tensors[WG_TENSOR_offsets].shape[0];
    if (noted != want_noted) FAIL("the offsets mode: the record says %zu offsets, the reference %zu", noted, want_noted);
    const size_t slice = c->inner * c->dw;
    for (size_t o = 0; o < (ms ? 1 : c->outer) && n; ++o) {
      for (size_t p = 0, k = 0; p < c->len; ++p) {
        if (!ref_true(c->mdtype, c->mw, mask, p)) continue;
        size_t got, want_at = ms ? p : (o * c->stride + p) * slice;
        memcpy(&got, off.p + (o * n + k) * sizeof(size_t), sizeof got);
        if (got != want_at) FAIL("the offsets mode: offset %zu is %zu, the reference's %zu", o * n + k, got, want_at);
        ++k;
      }
    }
    written = (ms ? 1 : c->outer) * n * sizeof(size_t);
  }
  for (size_t i = written; i < off.bytes; ++i)
    if (off.p[i] != 0xA5) FAIL("the offsets mode: byte %zu, past the %zu written, changed", i, written);
  buf_check_free(&off, "offsets");
  return mutated;
}

static int fuzz_mask(reader* r) {
  mask_call c;
  memset(&c, 0, sizeof c);
  const int nz = SC_IS(non_zero), bm = SC_IS(boolean_mask), cp = SC_IS(compress), ms = SC_IS(masked_scatter);
  uint8_t t = byte(r), o = byte(r), x = byte(r);
  c.fill = byte(r);
  c.mdtype = MASK_DTYPE[t & 15];
  if (nz) {
    static const int32_t IT[4] = {WG_INDEX_I32, WG_INDEX_I64, WG_INDEX_I32, WG_INDEX_U32};
    c.rows_first = t & 0x10 ? (t & 0x80 ? -1 : 1) : 0;
    c.index_type = (t >> 5 & 3) == 3 && (t & 0x80) ? 7 : IT[t >> 5 & 3];
    c.ddtype = c.mdtype;
    c.ow = c.index_type == WG_INDEX_I64 ? 8 : 4;
  } else {
    c.ddtype = DATA_DTYPE[t >> 4];
  }
  c.use_pool = o & 1, c.split_all = o >> 1 & 1, c.guarded = o >> 2 & 1;
  c.offsets_mode = !nz && (x & 0x40);
  /* masked_scatter's output is data's shape: it counts first in the offsets mode only (the
   * binding's), which is never in place */
  c.count_first = (o >> 3 & 1) && (!ms || (c.offsets_mode && !(o >> 6 & 1)));
  c.shape_first = o >> 4 & 1;
  c.hostile = c.count_first && c.shape_first && (o >> 5 & 1) && !(o >> 6 & 1); /* not with a recount */
  c.again = c.count_first && !ms && (o >> 6 & 1);
  c.in_place = ms && (o >> 6 & 1);
  c.misalign = o >> 7 ? 1 + (int)(rnd(r) % 7) : 0;
  if (cp) c.flatten = x & 1 ? (x & 2 ? -1 : 1) : 0;
  c.no_workspace = c.offsets_mode && (x & 0x20);
  c.sdtype = ms && (x & 0x80) ? DATA_DTYPE[((t >> 4) + 1) % 12] : c.ddtype;
  c.mw = mask_width(c.mdtype);
  c.dw = mask_width(c.ddtype);
  if (!nz) c.ow = c.dw;
  uint8_t rb = byte(r), ab = byte(r), kb = nz ? 0 : byte(r);
  c.dr = rb >= 0xf8 ? WG_MAX_RANK + 1 : rb % 6;
  c.axis = ab == 0x80 ? INT32_MIN : ab == 0x7f ? INT32_MAX : (int8_t)ab;
  for (size_t d = 0; d < c.dr; ++d) c.D[d] = decode_dim(byte(r));
  int fit = !nz && (kb & 0x80), perturb = fit && (kb & 0x40);
  if (fit) { /* the mask's shape from data's */
    int64_t dr = (int64_t)c.dr, a = c.axis < 0 ? c.axis + dr : c.axis;
    size_t from = a >= 0 && a < dr ? (size_t)a : 0, room = c.dr - from;
    if (bm) {
      c.mr = c.dr ? 1 + (size_t)(kb & 7) % room : 1;
      for (size_t d = 0; d < c.mr; ++d) c.M[d] = c.dr ? c.D[from + d] : 3;
    } else if (cp) {
      size_t along = !c.flatten && c.dr ? c.D[from] : count(c.D, c.dr), k = kb & 15;
      c.mr = 1;
      c.M[0] = perturb ? along + 1 + (kb & 1) : (kb >> 4 & 3) < 2 ? along : (kb >> 4 & 3) == 2 ? (along > k ? along - k : 0)
               : along == SIZE_MAX ? k : k % (along + 1);
      perturb = 0;
    } else {
      c.mr = c.dr;
      memcpy(c.M, c.D, sizeof c.M);
    }
  } else if (!nz) {
    c.mr = kb >= 0xf8 ? WG_MAX_RANK + 1 : kb % (cp ? 3 : 6);
    for (size_t d = 0; d < c.mr; ++d) c.M[d] = decode_dim(byte(r));
  }
  if (perturb) mask_perturb(byte(r), c.M, &c.mr);
  mask_current = &c;
  if (getenv("WG_FUZZ_DESCRIBE")) mask_describe(); /* before a sanitizer report cuts the run short */

  /* the plan first, on a record with no addresses */
  outcomes plan = {0};
  mask_plan_rules(&c, &plan);
  wg_call rec;
  wg_status st = mask_record(&c, &rec, NULL, NULL, NULL, NULL, NULL);
  if (st == WG_OK) st = wg_call_shape(&rec);
  if (plan.n) {
    check_outcome(&plan, st, &rec.err);
    /* the same refusal from a run that plans the call itself */
    st = mask_record(&c, &rec, NULL, NULL, NULL, NULL, NULL);
    if (st == WG_OK) st = wg_call_run(NULL, &rec);
    check_outcome(&plan, st, &rec.err);
    mask_current = NULL;
    return 0;
  }
  if (st == WG_ERR_SIZE_OVERFLOW && c.slice_overflow) {
    mask_current = NULL;
    return 0;
  }
  if (st != WG_OK) FAIL("shape query: status %d, the rules accept", st);
  {
    const wg_tensor* ot = &rec.tensors[WG_TENSOR_out];
    if (ot->rank != c.orank || memcmp(ot->shape, c.O, c.orank * sizeof(size_t)) != 0) FAIL("the shape query's output shape");
  }
  size_t workspace = rec.tensors[WG_TENSOR_workspace].shape[0], nblocks = rec.tensors[WG_TENSOR_offsets].shape[0];
  c.workspace = workspace;

  /* sizes: too large, or too slow, and the shape query was all */
  if (!c.mw || !c.ow) FAIL("a plan of a type of no whole bytes");
  size_t ndata = count(c.D, c.dr), nsource = 0;
  size_t mask_elems = nz || ms ? ndata : count(c.M, c.mr);
  size_t data_bytes = nz ? 0 : mul_or_max(ndata, c.dw), mask_bytes = mul_or_max(mask_elems, c.mw);
  size_t most = count(c.O, c.orank), most_bytes = mul_or_max(most, c.ow);
  if (mask_elems > MASK_MAX_ELEMS || mask_bytes > MASK_MAX_BYTES || data_bytes > MASK_MAX_BYTES ||
      most_bytes > (c.count_first ? 8 * MASK_MAX_BYTES : MASK_MAX_BYTES) || workspace > MASK_MAX_BYTES) {
    mask_current = NULL;
    return 0;
  }

  /* the mask, counted; the source (masked_scatter) */
  buf mask, data, source, out, ws;
  buf_new(&mask, mask_bytes, c.guarded, (size_t)c.misalign * c.mw);
  mask_fill(r, &c, mask.p, mask_elems, c.mw);
  c.mask = mask.p;
  for (size_t i = 0; i < c.len; ++i) c.n += ref_true(c.mdtype, c.mw, mask.p, i);
  if (ms) {
    size_t lm = x & 7, n = c.n;
    nsource = lm < 4 ? n : lm == 4 ? n + (rnd(r) & 63) : lm == 5 ? (n ? n - 1 : 0) : lm == 6 ? 0 : decode_dim(byte(r));
    int shape = x >> 3 & 3;
    c.sr = shape < 2 ? 1 : shape == 3 && nsource == 1 ? 0 : 2;
    c.S[0] = shape == 2 ? 1 : nsource, c.S[1] = shape == 2 ? nsource : 1;
    if (mul_or_max(nsource, c.dw) > MASK_MAX_BYTES) { /* a source too large to be: only planned */
      st = mask_record(&c, &rec, NULL, NULL, NULL, NULL, NULL);
      if (st == WG_OK) st = wg_call_shape(&rec);
      if (st != (nsource == SIZE_MAX ? WG_ERR_SIZE_OVERFLOW : WG_OK)) FAIL("a source of %zu elements: status %d", nsource, st);
      buf_check_free(&mask, "mask");
      mask_current = NULL;
      return 0;
    }
  }
  size_t out_bytes = c.count_first ? 0 : ms ? data_bytes : most_bytes;
  buf_new(&data, data_bytes, c.guarded, (size_t)(c.misalign ^ 3) * c.dw);
  buf_new(&source, nsource * c.dw, c.guarded, (size_t)(c.misalign ^ 5) * c.dw);
  buf_new(&ws, workspace, c.guarded, (size_t)(c.misalign & 1) * 16);
  for (size_t i = 0; i < data_bytes; ++i) data.p[i] = (uint8_t)(rnd(r) >> 56);
  for (size_t i = 0; i < source.bytes; ++i) source.p[i] = (uint8_t)(rnd(r) >> 56);
  memset(ws.p, 0x5A, workspace);
  if (c.in_place) {
    out = data;
    out.guarded = 0; /* checked as data */
  } else if (!c.count_first) { /* the most the shape query says (count first: once counted) */
    buf_new(&out, out_bytes, c.guarded, (size_t)(c.misalign ^ 6) * c.ow);
    memset(out.p, 0xA5, out_bytes);
  }
  uint8_t* copies[3] = {snapshot(mask.p, mask.bytes), snapshot(data.p, data.bytes), snapshot(source.p, source.bytes)};

  /* the expected output: exactly as long as the count */
  size_t exact = c.n;
  if (!nz && !ms) exact = mul_or_max(mul_or_max(c.outer, c.n), c.inner);
  if (nz) exact = mul_or_max(c.n, c.dr || c.rows_first ? c.dr : 1);
  if (ms) exact = ndata;
  size_t exact_bytes = exact * c.ow;
  uint8_t* want = malloc(exact_bytes + 1);
  if (!want) abort();
  int short_source = ms && c.n > nsource;
  if (!short_source) mask_reference(&c, mask.p, data.p, source.p, want);

  wg_pool* pool = c.use_pool ? fuzz_pool_split(c.split_all) : NULL;
  if (getenv("WG_FUZZ_DESCRIBE")) mask_describe(); /* with the count and the mask's values */
  int mutated = 0;
  if (c.offsets_mode && nblocks) {
    mutated = mask_offsets(&c, pool, mask.p, mask_elems, &ws, nblocks, nsource, r);
  } else {
    /* the call: planned by a shape query and run again (wg_call_rerun, as the binding runs it), or
     * run by wg_call_run, which plans it each time */
#define MASK_RUN(rec) (c.shape_first ? wg_call_rerun(pool, (rec)) : wg_call_run(pool, (rec)))
    st = mask_record(&c, &rec, nz ? mask.p : data.p, mask.p, source.p, c.count_first ? NULL : out.p, ws.p);
    if (st == WG_OK && c.shape_first) st = wg_call_shape(&rec);
    if (st != WG_OK) FAIL("the record or its shape query: status %d", st);
    if (c.count_first) {
      /* a run without an output counts: the count in the record, nothing else written */
      st = MASK_RUN(&rec);
      if (st != WG_OK) FAIL("the count: status %d", st);
      mask_check_shape(&c, &rec, "the count");
      if (c.again && c.shape_first) {
        /* a second run without an output: its counts are the first's, and it needs an output
         * unless the output is empty; the run after it counts again */
        memset(&rec.err, 0x77, sizeof rec.err);
        st = wg_call_rerun(pool, &rec);
        if (exact && st != WG_ERR_INVALID_ARGUMENT) FAIL("a second run without an output of %zu elements: status %d", exact, st);
        if (!exact && st != WG_OK) FAIL("a second run without an empty output: status %d", st);
      }
      buf_new(&out, exact_bytes, c.guarded, (size_t)(c.misalign ^ 6) * c.ow);
      memset(out.p, 0xA5, exact_bytes);
      rec.tensors[WG_TENSOR_out].ptr = out.p;
      if (c.hostile) mutated = 1, mask_mutate(&c, mask.p, mask_elems, r); /* any output then, but only there */
      st = MASK_RUN(&rec);
      if (st != WG_OK) FAIL("the write: status %d", st);
    } else {
      memset(&rec.err, 0x77, sizeof rec.err);
      st = MASK_RUN(&rec);
    }
#undef MASK_RUN
    if (short_source) {
      outcomes want_st = {0};
      allow(&want_st, WG_ERR_MASK_SOURCE, 1, WG_ARG_UPDATES, -1, (int64_t)nsource, (int64_t)c.n, -1);
      check_outcome(&want_st, st, &rec.err);
      if (c.in_place && memcmp(data.p, copies[1], data.bytes) != 0) FAIL("a refused call (source short) changed data in place");
      for (size_t i = 0; !c.in_place && i < out.bytes; ++i)
        if (out.p[i] != 0xA5) FAIL("a refused call (source short) wrote its output");
    } else if (st != WG_OK) {
      FAIL("status %d (arg %lld dim %lld value %lld limit %lld position %lld), the reference accepts", st,
           (long long)rec.err.arg, (long long)rec.err.dim, (long long)rec.err.value, (long long)rec.err.limit,
           (long long)rec.err.position);
    } else {
      mask_check_shape(&c, &rec, "the run");
      if (!mutated && memcmp(out.p, want, exact_bytes) != 0) {
        size_t i = 0;
        while (out.p[i] == want[i]) ++i;
        FAIL("output byte %zu of %zu (element %zu) is 0x%02x, reference 0x%02x", i, exact_bytes, i / c.ow, out.p[i], want[i]);
      }
      for (size_t i = exact_bytes; i < out.bytes; ++i)
        if (out.p[i] != 0xA5) FAIL("output byte %zu, past the %zu of the count, written", i, exact_bytes);
  }
  }
  if (!mutated && memcmp(mask.p, copies[0], mask.bytes) != 0) FAIL("the mask changed");
  if (!c.in_place && memcmp(data.p, copies[1], data.bytes) != 0) FAIL("data changed");
  if (memcmp(source.p, copies[2], source.bytes) != 0) FAIL("the source changed");
  for (int k = 0; k < 3; ++k) free(copies[k]);
  free(want);
  buf_check_free(&mask, "mask");
  buf_check_free(&data, "data");
  buf_check_free(&source, "source");
  buf_check_free(&ws, "workspace");
  if (!c.in_place && !(c.count_first && c.offsets_mode && nblocks)) buf_check_free(&out, "output");
  mask_current = NULL;
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t* bytes, size_t size) {
  reader r = {bytes, size, 0x9E3779B97F4A7C15ull ^ size};
  for (size_t i = 0; i < size && i < 64; ++i) r.rng = (r.rng ^ bytes[i]) * 0x100000001B3ull;
  if (!r.rng) r.rng = 1;
  if (FUZZ_OP == OP_gather_block_quantized) return fuzz_gather_block_quantized(&r);
  if (IS_SCATTER) return fuzz_scatter(&r);
  if (IS_BAG) return fuzz_bag(&r);
  if (SC_IS(embedding_bag_backward)) return fuzz_bag_backward(&r);
  if (IS_MASK) return fuzz_mask(&r);

  /* header */
  uint8_t f = byte(&r), g = byte(&r);
  static const size_t ELEMS[] = {1, 2, 4, 8};
  call c = {0};
  c.elem = ELEMS[f & 3];
  c.itype = (wg_index_type)(f >> 2 & 3);
  c.mode = f >> 4 & 3; /* 3: an invalid mode, which must be refused */
  int use_pool = f >> 6 & 1, split_all = f >> 7 & 1;
  int guarded = g & 1;
  size_t misalign = g >> 1 & 7;
  size_t bad_elem = (g >> 4 & 7) == 7 ? (g & 0x80 ? 3 : 16) : 0;
  /* g: 0x60 an invalid index type, 0xe0 an invalid negative-index policy; otherwise 0x80 is
   * WG_NEGATIVE_ERROR */
  int bad_itype = (g >> 4 & 7) == 6 && !(g & 0x80);
  int bad_negative = (g >> 4 & 7) == 6 && (g & 0x80);
  c.negative = bad_negative ? 7 : (g >> 4 & 7) < 6 && (g & 0x80) ? WG_NEGATIVE_ERROR : WG_NEGATIVE_WRAP;
  uint8_t rb = byte(&r), ib = byte(&r);
  c.pr = rb >= 0xf8 ? WG_MAX_RANK + 1 : rb % 7;
  c.ir = ib >= 0xf8 ? WG_MAX_RANK + 1 : ib % 7;
  if (FUZZ_OP == OP_gather && !(ib & 0x80)) c.ir = c.pr; /* mostly a valid pair of ranks */
  uint8_t ab = byte(&r), bb = byte(&r);
  int32_t axis = ab == 0x80 ? INT32_MIN : ab == 0x7f ? INT32_MAX : (int8_t)ab;
  int32_t bd = bb == 0x80 ? INT32_MIN : bb == 0x7f ? INT32_MAX : (int8_t)bb % 8;
  for (size_t d = 0; d < c.pr; ++d) c.P[d] = decode_dim(byte(&r));
  for (size_t d = 0; d < c.ir; ++d) c.I[d] = decode_dim(byte(&r));
  if (FUZZ_OP != OP_take && c.ir && c.pr && (ib & 0x40)) { /* mostly shapes that fit */
    for (size_t d = 0; d < c.ir && d < c.pr; ++d) {
      if (FUZZ_OP == OP_gather && c.I[d] > c.P[d] && c.P[d]) c.I[d] = c.I[d] % c.P[d] + 1;
      if (FUZZ_OP == OP_gather_nd && (int64_t)d < bd) c.I[d] = c.P[d];
    }
    if (FUZZ_OP == OP_gather_nd) c.I[c.ir - 1] %= c.pr + 1;
  }
  if (FUZZ_OP == OP_take && bd > 0 && (ib & 0x40)) {
    for (int32_t d = 0; d < bd && (size_t)d < c.ir && (size_t)d < c.pr; ++d) c.I[d] = c.P[d];
  }
  unsigned hostile = byte(&r);

  current = &c;
  current_idx = NULL;
  /* shapes: the library against the reference */
  size_t got_shape[RANKS], got_rank = 0;
  wg_error_info err;
  wg_status st;
  int ok;
  if (FUZZ_OP == OP_take) {
    st = wg_take_shape(c.P, c.pr, c.I, c.ir, axis, bd, got_shape, &got_rank, &err);
    ok = ref_take_shape(c.P, c.pr, c.I, c.ir, axis, bd, c.O, &c.orank, &c.axis, &c.bd);
  } else if (FUZZ_OP == OP_gather_nd) {
    st = wg_gather_nd_shape(c.P, c.pr, c.I, c.ir, bd, got_shape, &got_rank, &err);
    ok = ref_gather_nd_shape(c.P, c.pr, c.I, c.ir, bd, c.O, &c.orank);
    c.bd = (size_t)bd;
  } else {
    st = wg_gather_shape(c.P, c.pr, c.I, c.ir, axis, got_shape, &got_rank, &err);
    ok = ref_gather_shape(c.P, c.pr, c.I, c.ir, axis, c.O, &c.orank, &c.axis);
  }
  if (ok != (st == WG_OK)) FAIL("shape check: library status %d, reference %s", st, ok ? "valid" : "invalid");
  if (!ok) {
    if (st == WG_ERR_INDEX_OUT_OF_RANGE || st > WG_ERR_OUT_OF_MEMORY) FAIL("shape status %d", st);
    return 0;
  }
  if (got_rank != c.orank || memcmp(got_shape, c.O, c.orank * sizeof(size_t)) != 0)
    FAIL("output shape differs from the reference (rank %zu vs %zu)", got_rank, c.orank);

  /* sizes; shapes too large to allocate end here */
  size_t ndata = count(c.P, c.pr), nidx = count(c.I, c.ir), nout = count(c.O, c.orank);
  size_t elem = bad_elem ? bad_elem : c.elem;
  size_t data_bytes = mul_or_max(ndata, elem), out_bytes = mul_or_max(nout, elem);
  if (data_bytes > MAX_DATA_BYTES || out_bytes > MAX_OUT_BYTES || nidx > MAX_INDICES) return 0;
  wg_index_type itype = bad_itype ? (wg_index_type)4 : c.itype;
  size_t ib_bytes = nidx * INDEX_BYTES[c.itype];

  buf data, idx, out;
  buf_new(&data, data_bytes, guarded, misalign);
  buf_new(&idx, ib_bytes, guarded, 0); /* indices stay naturally aligned */
  buf_new(&out, out_bytes, guarded, misalign ^ 5);
  for (size_t i = 0; i < data_bytes; ++i) data.p[i] = (uint8_t)(rnd(&r) >> 56);
  for (size_t p = 0; p < nidx; ++p) {
    size_t s = dim_size(&c, indexed_dim(&c, p));
    uint64_t v = decode_index(&r, s, hostile);
    if (INDEX_BYTES[c.itype] == 4) {
      uint32_t v32 = (uint32_t)v;
      memcpy(idx.p + p * 4, &v32, 4);
    } else {
      memcpy(idx.p + p * 8, &v, 8);
    }
  }
  uint8_t* data_copy = snapshot(data.p, data_bytes);
  uint8_t* idx_copy = snapshot(idx.p, ib_bytes);
  uint8_t* want = calloc(out_bytes + 1, 1);
  memset(out.p, 0xA5, out_bytes);

  wg_pool* pool = use_pool ? fuzz_pool_split(split_all) : NULL;
  current_idx = idx.p;
  current_nidx = nidx;
  if (getenv("WG_FUZZ_DESCRIBE")) describe(); /* before a sanitizer report cuts the run short */
  memset(&err, 0x77, sizeof err);
  st = run_op(pool, &c, data.p, idx.p, axis, bd, elem, itype, c.mode, out.p, &err);

  if (bad_elem || bad_itype || bad_negative || c.mode == 3) {
    if (st != WG_ERR_INVALID_ARGUMENT)
      FAIL("an invalid element size, index type, mode or negative-index policy gave status %d", st);
    for (size_t i = 0; i < out_bytes; ++i)
      if (out.p[i] != 0xA5) FAIL("output written by a call that was refused");
  } else {
    wg_error_info want_err = {0};
    wg_status want_st = reference(&c, data.p, idx.p, want, &want_err);
    if (st != want_st) FAIL("status %d, reference %d", st, want_st);
    if (st == WG_OK && memcmp(out.p, want, out_bytes) != 0) {
      size_t i = 0;
      while (out.p[i] == want[i]) ++i;
      FAIL("output differs from the reference at byte %zu of %zu", i, out_bytes);
    }
    if (st == WG_ERR_INDEX_OUT_OF_RANGE) check_error_report(&err, &want_err);
    check_offsets(pool, &c, data_bytes, data.p, idx.p, axis, bd, elem, itype, want_st, want,
                  out_bytes, &want_err);
  }
  if (memcmp(data.p, data_copy, data_bytes) != 0) FAIL("data changed");
  if (memcmp(idx.p, idx_copy, ib_bytes) != 0) FAIL("indices changed");
  buf_check_free(&data, "data");
  buf_check_free(&idx, "indices");
  buf_check_free(&out, "output");
  free(data_copy);
  free(idx_copy);
  free(want);
  return 0;
}
