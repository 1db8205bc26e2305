/* libFuzzer target for one op of the C API, chosen at compile time with WG_FUZZ_OP
 * (take, gather_nd or gather): CMake builds fuzz_take, fuzz_gather_nd and fuzz_gather from
 * this file. The input decodes into shapes (with hostile dims: 0, huge, SIZE_MAX), element width,
 * index type, axis / dim / batch dims, out-of-range mode, pool use and index values (in range,
 * at the edges, negative, huge, truncation traps). The shape rules and the op's result are
 * checked against the simple reference below: element by element from each output multi-index.
 * Every tensor is its own exact-size malloc (AddressSanitizer flags any access outside it); in
 * "guard" inputs the tensors sit between patterned guard bytes instead, at odd offsets, and the
 * guards are compared afterwards. Inputs and indices must be left unchanged.
 *
 * tests/native/fuzz_replay.c provides a main() that replays the seed corpus without libFuzzer. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wasm_gather.h"

/* WG_FUZZ_OP names the op (take, gather_nd or gather: a line of src/ops.def, and a folder of
 * tests/fuzz/corpus/); FUZZ_OP is its number there. */
#ifndef WG_FUZZ_OP
#define WG_FUZZ_OP take
#endif
enum {
#define WG_OP(name) OP_##name,
#include "ops.def"
#undef WG_OP
};
#define OP_NUMBER(name) OP_##name
#define OP_OF(name) OP_NUMBER(name)
#define FUZZ_OP OP_OF(WG_FUZZ_OP)

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

/* 1: *pos is the element to read; 0: zeros; -1: an error in WG_OOB_ERROR mode. */
static int resolve(const void* idx, wg_index_type t, size_t p, size_t s, int mode, size_t* pos) {
  uint64_t mag;
  int neg;
  int64_t bits;
  load(idx, t, p, &mag, &neg, &bits);
  if (neg ? mag <= s : mag < s) {
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
} call;

static const call* current; /* for describe() */
static const void* current_idx;
static size_t current_nidx;

static void print_shape(const char* name, const size_t* s, size_t n) {
  fprintf(stderr, "  %s [", name);
  for (size_t d = 0; d < n; ++d) fprintf(stderr, d ? ", %zu" : "%zu", s[d]);
  fprintf(stderr, "]\n");
}

static void describe(void) {
  const call* c = current;
  if (!c) return;
  fprintf(stderr, "  op %d elem %zu index type %d mode %d axis %zu batch dims %zu\n", FUZZ_OP,
          c->elem, c->itype, c->mode, c->axis, c->bd);
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
      if (resolve(idx, c->itype, p, dim_size(c, dim), WG_OOB_ERROR, &pos) < 0) {
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
    size_t rem = o;
    for (size_t d = c->orank; d-- > 0;) {
      oc[d] = rem % c->O[d];
      rem /= c->O[d];
    }
    int ok = 1;
    size_t pos = 0;
    if (FUZZ_OP == OP_take) { /* out = P[:a] + I[b:] + P[a+1:] */
      size_t a = c->axis, b = c->bd, q = c->ir - b;
      for (size_t d = 0; d < b; ++d) ic[d] = oc[d];
      for (size_t d = 0; d < q; ++d) ic[b + d] = oc[a + d];
      for (size_t d = 0; d < a; ++d) dc[d] = oc[d];
      for (size_t d = a + 1; d < c->pr; ++d) dc[d] = oc[q + d - 1];
      ok = resolve(idx, c->itype, ravel(ic, c->I, c->ir), c->P[a], c->mode, &pos);
      dc[a] = pos;
    } else if (FUZZ_OP == OP_gather_nd) { /* out = I[:-1] + P[b+K:] */
      size_t b = c->bd, K = c->I[c->ir - 1], lead = c->ir - 1;
      size_t tuple = ravel(oc, c->I, lead) * K;
      for (size_t d = 0; d < b; ++d) dc[d] = oc[d];
      for (size_t k = 0; k < K && ok == 1; ++k) {
        ok = resolve(idx, c->itype, tuple + k, c->P[b + k], c->mode, &pos);
        dc[b + k] = pos;
      }
      for (size_t d = b + K; d < c->pr; ++d) dc[d] = oc[lead + d - b - K];
    } else { /* out = I's shape; rank 0 is shape [1] */
      for (size_t d = 0; d < c->pr; ++d) dc[d] = oc[d];
      ok = resolve(idx, c->itype, o, c->pr ? c->P[c->axis] : 1, c->mode, &pos);
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

static wg_status run_op(wg_pool* pool, const call* c, const void* data, const void* idx,
                        int32_t axis, int32_t bd, size_t elem, wg_index_type itype, int mode,
                        void* out, wg_error_info* err) {
  switch (FUZZ_OP) {
    case OP_take:
      return wg_take(pool, data, c->P, c->pr, idx, itype, c->I, c->ir, axis, bd, elem,
                     (wg_oob_mode)mode, out, err);
    case OP_gather_nd:
      return wg_gather_nd(pool, data, c->P, c->pr, idx, itype, c->I, c->ir, bd, elem,
                          (wg_oob_mode)mode, out, err);
    default:
      return wg_gather(pool, data, c->P, c->pr, axis, idx, itype, c->I, c->ir, elem,
                       (wg_oob_mode)mode, out, err);
  }
}

static size_t mul_or_max(size_t a, size_t b) { return b && a > SIZE_MAX / b ? SIZE_MAX : a * b; }

int LLVMFuzzerTestOneInput(const uint8_t* bytes, size_t size) {
  reader r = {bytes, size, 0x9E3779B97F4A7C15ull ^ size};
  for (size_t i = 0; i < size && i < 64; ++i) r.rng = (r.rng ^ bytes[i]) * 0x100000001B3ull;
  if (!r.rng) r.rng = 1;

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
  int bad_itype = (g >> 4 & 7) == 6;
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
  uint8_t* data_copy = malloc(data_bytes + 1);
  uint8_t* idx_copy = malloc(ib_bytes + 1);
  uint8_t* want = calloc(out_bytes + 1, 1);
  memcpy(data_copy, data.p, data_bytes);
  memcpy(idx_copy, idx.p, ib_bytes);
  memset(out.p, 0xA5, out_bytes);

  wg_pool* pool = NULL;
  if (use_pool) {
    pool = fuzz_pool();
    wg_pool_set_parallel_threshold(pool, split_all ? 0 : WG_PARALLEL_MIN_BYTES);
  }
  current_idx = idx.p;
  current_nidx = nidx;
  if (getenv("WG_FUZZ_DESCRIBE")) describe(); /* before a sanitizer report cuts the run short */
  memset(&err, 0x77, sizeof err);
  st = run_op(pool, &c, data.p, idx.p, axis, bd, elem, itype, c.mode, out.p, &err);

  if (bad_elem || bad_itype || c.mode == 3) {
    if (st != WG_ERR_INVALID_ARGUMENT) FAIL("an invalid element size, index type or mode gave status %d", st);
    for (size_t i = 0; i < out_bytes; ++i)
      if (out.p[i] != 0xA5) FAIL("output written by a call that was refused");
  } else {
    wg_error_info want_err;
    wg_status want_st = reference(&c, data.p, idx.p, want, &want_err);
    if (st != want_st) FAIL("status %d, reference %d", st, want_st);
    if (st == WG_OK && memcmp(out.p, want, out_bytes) != 0) {
      size_t i = 0;
      while (out.p[i] == want[i]) ++i;
      FAIL("output differs from the reference at byte %zu of %zu", i, out_bytes);
    }
    if (st == WG_ERR_INDEX_OUT_OF_RANGE &&
        (err.arg != want_err.arg || err.dim != want_err.dim || err.value != want_err.value ||
         err.limit != want_err.limit || err.position != want_err.position)) {
      FAIL("error report: position %lld value %lld limit %lld dim %lld; reference %lld %lld %lld %lld",
           (long long)err.position, (long long)err.value, (long long)err.limit, (long long)err.dim,
           (long long)want_err.position, (long long)want_err.value, (long long)want_err.limit,
           (long long)want_err.dim);
    }
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
