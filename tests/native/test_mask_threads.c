/* The masks' stages (src/stage_mask.c: count each chunk, the prefix, each chunk written at its
 * offset) on a pool: non_zero, boolean_mask, compress and masked_scatter on masks of 64K to 512K
 * elements (16 to 512 chunks; boolean_mask and compress also in groups of blocks: items of a
 * group and a chunk), with the parallel threshold at 0 so that every
 * call splits its chunks over the threads, compared bit for bit with the same call on the caller
 * alone and with a scalar reference written here (a loop over the mask, each element compared
 * with zero as its type reads it: NaN is true, -0 false). Each call is made as the JS binding
 * makes it (js/call.mjs, callCounted): a shape query, a run without an output that only counts
 * (the count checked against the reference's), then a run into an output of exactly that count.
 * Two ways, as test_bag_threads.c:
 *  - on pools of 2, 3, 4 and 16 real threads (more threads than this machine's cores: preempted
 *    mid-tile);
 *  - at 2, 3, 4, 8, 12 and 16 threads, each job's tiles run on the caller in a shuffled order
 *    (wg_test_shuffle, src/parallel.h): the chunks' counts, offsets and writes in orders a real
 *    schedule meets only now and then.
 * The calls: every mask width (1, 2, 4, 8 bytes; integers and the four floats, their -0 and NaNs
 * among the values), dense, sparse, all-false and all-true masks, runs; boolean_mask and compress
 * along an inner axis (blocks of (block, chunk) items), a condition shorter than its axis, compress
 * with no axis; non_zero in both layouts and both index widths; masked_scatter in place and not.
 * Then a source one element short: the same error at every thread count, nothing written. Built
 * with the test-only hooks of src/parallel.h: the caller yields once it has published a job, and
 * the run fails if no worker ran a tile. Run under ThreadSanitizer (any race is a report) and
 * ASan + UBSan by tests/native/native.test.mjs. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "call.h" /* the ops have no public wrapper: the call record, as the binding fills it */
#include "check.h"
#include "parallel.h"
#include "wasm_gather.h"

static int failures = 0;
#define THREAD_TEST_SEED 0x2545f4914f6cdd1dull /* this test's values (thread_pools.h: next) */
#include "thread_pools.h" /* after failures: its CHECKs count there */



static size_t width(int32_t dtype) { return wg_dtype_bits(dtype) / 8; }

/* Mask element i, compared with zero as its type reads it. */
static int is_true(int32_t dtype, const uint8_t* m, size_t i) {
  switch (dtype) {
    case WG_DTYPE_F32: { float f; memcpy(&f, m + 4 * i, 4); return f != 0; }
    case WG_DTYPE_F64: { double d; memcpy(&d, m + 8 * i, 8); return d != 0; }
    case WG_DTYPE_F16:
    case WG_DTYPE_BF16: { uint16_t h; memcpy(&h, m + 2 * i, 2); return (h & 0x7fff) != 0; } /* +-0: no exponent, no mantissa */
    default: {
      uint64_t v = 0;
      memcpy(&v, m + width(dtype) * i, width(dtype));
      return v != 0;
    }
  }
}

/* A mask of n elements of dtype: true with probability density / 256 (0: none, 256: all), in runs
 * when `runs` (lengths up to 2^12); the true values 1, -1, a float's 1.0, a NaN of either sign or
 * any nonzero bits, the false ones 0 and (floats) -0. */
enum { NONE = 0, ALL = 256 };
static uint8_t* make_mask(int32_t dtype, size_t n, unsigned density, int runs) {
  size_t w = width(dtype);
  int is_float = dtype == WG_DTYPE_F16 || dtype == WG_DTYPE_BF16 || dtype == WG_DTYPE_F32 || dtype == WG_DTYPE_F64;
  uint64_t sign = (uint64_t)1 << (8 * w - 1), one = 1, nan = sign - 1;
  if (dtype == WG_DTYPE_F16) one = 0x3c00;
  if (dtype == WG_DTYPE_BF16) one = 0x3f80;
  if (dtype == WG_DTYPE_F32) one = 0x3f800000u;
  if (dtype == WG_DTYPE_F64) one = 0x3ff0000000000000ull;
  uint8_t* m = malloc(n * w);
  size_t run = 0;
  int on = 0;
  for (size_t i = 0; i < n; ++i) {
    uint64_t r = next();
    if (runs && !run) on = (r & 255) < density, run = 1 + (r >> 8) % 4096;
    int t = runs ? on : (r & 255) < density;
    if (runs) --run;
    uint64_t v;
    if (t) {
      switch (r >> 16 & 7) {
        case 0: v = sign | one; break;
        case 1: v = nan; break;
        case 2: v = sign | nan; break;
        case 3: v = (r >> 24 | 1) & (sign | nan); break; /* any nonzero bits (a subnormal, the sign with others) */
        default: v = one;
      }
      if (!((v & ~sign) || !is_float)) v = one;
    } else {
      v = is_float && (r >> 16 & 1) ? sign : 0;
    }
    memcpy(m + i * w, &v, w);
  }
  return m;
}

static uint8_t* random_bytes(size_t n) {
  uint8_t* p = malloc(n ? n : 1);
  for (size_t i = 0; i < n; i += 8) {
    uint64_t r = next();
    memcpy(p + i, &r, n - i < 8 ? n - i : 8);
  }
  return p;
}

typedef struct job {
  int op; /* WG_OP_<name> */
  int32_t mdtype, ddtype, axis, flatten, rows_first, index_type;
  size_t a; /* the axis, normalized */
  int in_place, short_source;
  size_t D[4], dr, M[2], mr, len; /* len: the mask's elements read */
  uint8_t *mask, *data, *source;
  size_t data_bytes, source_len;
  size_t count;      /* the reference's */
  uint8_t* want;     /* the reference's output */
  size_t want_bytes; /* exactly the count's */
  char what[160];
} job;

static size_t prod(const size_t* s, size_t from, size_t to) {
  size_t p = 1;
  for (size_t d = from; d < to; ++d) p *= s[d];
  return p;
}

/* The reference: the count, then the output (as wasm_gather.h and the ops' files say). */
static void reference(job* j) {
  const size_t ow = j->op == WG_OP_non_zero ? (j->index_type == WG_INDEX_I64 ? 8 : 4) : width(j->ddtype);
  j->count = 0;
  for (size_t i = 0; i < j->len; ++i) j->count += is_true(j->mdtype, j->mask, i);
  const size_t n = j->count;
  if (j->op == WG_OP_non_zero) {
    j->want_bytes = n * j->dr * ow;
    j->want = malloc(j->want_bytes + 1);
    for (size_t i = 0, k = 0; i < j->len; ++i) {
      if (!is_true(j->mdtype, j->mask, i)) continue;
      size_t rest = i;
      for (size_t d = j->dr; d-- > 0;) {
        uint64_t v = rest % j->D[d];
        rest /= j->D[d];
        size_t at = j->rows_first ? k * j->dr + d : d * n + k;
        if (ow == 4) { uint32_t v32 = (uint32_t)v; memcpy(j->want + at * 4, &v32, 4); }
        else memcpy(j->want + at * 8, &v, 8);
      }
      ++k;
    }
  } else if (j->op == WG_OP_masked_scatter) {
    j->want_bytes = j->data_bytes;
    j->want = malloc(j->want_bytes + 1);
    memcpy(j->want, j->data, j->data_bytes);
    for (size_t i = 0, k = 0; i < j->len && n <= j->source_len; ++i) {
      if (is_true(j->mdtype, j->mask, i)) memcpy(j->want + i * ow, j->source + k++ * ow, ow);
    }
  } else { /* slices: the blocks before the mask's dims, the slices after them */
    size_t a = j->a;
    size_t outer = j->op == WG_OP_compress && j->flatten ? 1 : prod(j->D, 0, a);
    size_t after = j->op == WG_OP_compress ? (j->flatten ? j->dr : a + 1) : a + j->mr;
    size_t stride = j->op == WG_OP_compress ? (j->flatten ? prod(j->D, 0, j->dr) : j->D[a]) : j->len;
    size_t slice = prod(j->D, after, j->dr) * ow;
    j->want_bytes = outer * n * slice;
    j->want = malloc(j->want_bytes + 1);
    for (size_t o = 0; o < outer; ++o) {
      for (size_t p = 0, k = 0; p < j->len; ++p) {
        if (is_true(j->mdtype, j->mask, p)) memcpy(j->want + (o * n + k++) * slice, j->data + (o * stride + p) * slice, slice);
      }
    }
  }
}

/* The call as the binding makes it: shape query, a run without an output (the count), a run into
 * out (exactly the count's bytes; masked_scatter: data's, or data itself in place). Returns the
 * status of the run that writes; *count the first run's count. */
static wg_status run(wg_pool* pool, const job* j, uint8_t* out, size_t* count, wg_error_info* err) {
  wg_call c;
  wg_call_init(&c, j->op);
  c.attrs[WG_ATTR_axis] = j->axis;
  c.attrs[WG_ATTR_flatten] = j->flatten;
  c.attrs[WG_ATTR_rows_first] = j->rows_first;
  c.attrs[WG_ATTR_index_type] = j->index_type;
  size_t source_shape = j->source_len;
  if (j->op == WG_OP_non_zero) {
    CHECK(wg_call_tensor(&c, WG_TENSOR_data, j->mask, j->mdtype, j->D, j->dr) == WG_OK);
  } else {
    CHECK(wg_call_tensor(&c, WG_TENSOR_data, j->in_place ? out : j->data, j->ddtype, j->D, j->dr) == WG_OK);
    CHECK(wg_call_tensor(&c, WG_TENSOR_mask, j->mask, j->mdtype, j->M, j->mr) == WG_OK);
  }
  if (j->op == WG_OP_masked_scatter) CHECK(wg_call_tensor(&c, WG_TENSOR_updates, j->source, j->ddtype, &source_shape, 1) == WG_OK);
  wg_status st = wg_call_shape(&c);
  if (st != WG_OK) return st;
  void* ws = malloc(c.tensors[WG_TENSOR_workspace].shape[0]);
  c.tensors[WG_TENSOR_workspace].ptr = ws;
  *count = SIZE_MAX;
  if (j->op != WG_OP_masked_scatter) {
    st = wg_call_rerun(pool, &c); /* no output: counts */
    const wg_tensor* o = &c.tensors[WG_TENSOR_out];
    size_t dim = j->op == WG_OP_non_zero ? (j->rows_first ? 0 : 1) : j->a;
    if (st == WG_OK) *count = o->shape[dim];
  }
  c.tensors[WG_TENSOR_out].ptr = out;
  if (st == WG_OK) st = wg_call_rerun(pool, &c);
  if (err) *err = c.err;
  free(ws);
  return st;
}

/* The call on the caller alone against the reference, then on each pool against the caller's:
 * the same bits (masked_scatter short of source: the same error, nothing written). */
static void compare(wg_pool* const* pools, size_t npools, const job* j) {
  size_t bytes = j->want_bytes;
  uint8_t *one = malloc(bytes + 1), *many = malloc(bytes + 1);
  size_t count = 0;
  wg_error_info err;
  if (j->in_place) memcpy(one, j->data, bytes);
  else memset(one, 0xA5, bytes);
  wg_status want_st = j->short_source ? WG_ERR_MASK_SOURCE : WG_OK;
  wg_status st = run(NULL, j, one, &count, &err);
  if (st != want_st || (j->op != WG_OP_masked_scatter && count != j->count) ||
      (st == WG_OK && memcmp(one, j->want, bytes) != 0)) {
    fprintf(stderr, "%s: status %d, count %zu (reference %zu)%s on 1 thread\n", j->what, st, count, j->count,
            st == WG_OK && memcmp(one, j->want, bytes) != 0 ? ", output differs from the reference" : "");
    failures++;
  }
  if (j->short_source) {
    CHECK(err.value == (int64_t)j->source_len && err.limit == (int64_t)j->count);
    for (size_t i = 0; i < bytes; ++i) CHECK(one[i] == (j->in_place ? j->data[i] : 0xA5));
  }
  for (size_t p = 0; p < npools; ++p) {
    if (j->in_place) memcpy(many, j->data, bytes);
    else memset(many, 0xA5, bytes);
    size_t got_count = 0;
    wg_error_info got_err;
    wg_status got = run(pools[p], j, many, &got_count, &got_err);
    if (got != st || got_count != count || memcmp(one, many, bytes) != 0 ||
        (st != WG_OK && memcmp(&err, &got_err, sizeof err) != 0)) {
      fprintf(stderr, "%s, %zu threads: status %d (1 thread: %d), count %zu (%zu), %s\n", j->what,
              wg_pool_threads(pools[p]), got, st, got_count, count,
              memcmp(one, many, bytes) != 0 ? "differs from 1 thread" : "the same bytes");
      failures++;
    }
  }
  free(one);
  free(many);
}

static void release(job* j) {
  free(j->mask);
  free(j->data);
  free(j->source);
  free(j->want);
}

static const char* dtype_name(int32_t dtype) {
  switch (dtype) {
    case WG_DTYPE_I8: return "i8"; case WG_DTYPE_U8: return "u8"; case WG_DTYPE_I16: return "i16";
    case WG_DTYPE_U16: return "u16"; case WG_DTYPE_I32: return "i32"; case WG_DTYPE_U32: return "u32";
    case WG_DTYPE_I64: return "i64"; case WG_DTYPE_U64: return "u64"; case WG_DTYPE_F16: return "f16";
    case WG_DTYPE_BF16: return "bf16"; case WG_DTYPE_F32: return "f32"; default: return "f64";
  }
}

/* Job k of the list (NJOBS of them), made and referenced. */
enum { NJOBS = 16 };
static void build(job* j, int k) {
  memset(j, 0, sizeof *j);
  j->index_type = WG_INDEX_I32;
  switch (k) {
    case 0: /* non_zero, ONNX's columns, int64: a dense u8 mask of 512K (512 chunks) */
      j->op = WG_OP_non_zero, j->mdtype = WG_DTYPE_U8, j->dr = 2, j->D[0] = 512, j->D[1] = 1024;
      j->index_type = WG_INDEX_I64;
      j->mask = make_mask(j->mdtype, 512 * 1024, 96, 0);
      break;
    case 1: /* non_zero, torch's rows: an f32 mask with -0 and NaNs, rank 3 */
      j->op = WG_OP_non_zero, j->mdtype = WG_DTYPE_F32, j->dr = 3, j->D[0] = 32, j->D[1] = 128, j->D[2] = 128;
      j->rows_first = 1;
      j->mask = make_mask(j->mdtype, 32 * 128 * 128, 128, 0);
      break;
    case 2: /* non_zero, a sparse f16 mask in runs, int64 rows */
      j->op = WG_OP_non_zero, j->mdtype = WG_DTYPE_F16, j->dr = 1, j->D[0] = 400000;
      j->rows_first = 1, j->index_type = WG_INDEX_I64;
      j->mask = make_mask(j->mdtype, 400000, 20, 1);
      break;
    case 3: /* boolean_mask along axis 1 of [8, 256, 256] f32, a 2-D bf16 mask: 8 blocks x 16 chunks */
      j->op = WG_OP_boolean_mask, j->mdtype = WG_DTYPE_BF16, j->ddtype = WG_DTYPE_F32, j->axis = 1;
      j->dr = 3, j->D[0] = 8, j->D[1] = 256, j->D[2] = 256, j->mr = 2, j->M[0] = 256, j->M[1] = 256;
      j->mask = make_mask(j->mdtype, 256 * 256, 160, 0);
      break;
    case 4: /* boolean_mask along axis 1 of [3, 512K] u8, a u8 mask in runs: 1-byte slices */
      j->op = WG_OP_boolean_mask, j->mdtype = WG_DTYPE_U8, j->ddtype = WG_DTYPE_U8, j->axis = -1;
      j->dr = 2, j->D[0] = 3, j->D[1] = 1 << 19, j->mr = 1, j->M[0] = 1 << 19;
      j->mask = make_mask(j->mdtype, 1 << 19, 128, 1);
      break;
    case 5: /* boolean_mask of [256K, 2] i16 along 0 (masked rows), an i64 mask, all true */
      j->op = WG_OP_boolean_mask, j->mdtype = WG_DTYPE_I64, j->ddtype = WG_DTYPE_I16;
      j->dr = 2, j->D[0] = 1 << 18, j->D[1] = 2, j->mr = 1, j->M[0] = 1 << 18;
      j->mask = make_mask(j->mdtype, 1 << 18, ALL, 0);
      break;
    case 6: /* compress along axis 1 of [4, 256K] u16, a u32 condition 5 shorter */
      j->op = WG_OP_compress, j->mdtype = WG_DTYPE_U32, j->ddtype = WG_DTYPE_U16, j->axis = 1;
      j->dr = 2, j->D[0] = 4, j->D[1] = 1 << 18, j->mr = 1, j->M[0] = (1 << 18) - 5;
      j->mask = make_mask(j->mdtype, j->M[0], 64, 0);
      break;
    case 7: /* compress with no axis: [512, 512] f64 flattened, an i8 condition 100 shorter */
      j->op = WG_OP_compress, j->mdtype = WG_DTYPE_I8, j->ddtype = WG_DTYPE_F64, j->flatten = 1;
      j->dr = 2, j->D[0] = 512, j->D[1] = 512, j->mr = 1, j->M[0] = 512 * 512 - 100;
      j->mask = make_mask(j->mdtype, j->M[0], 200, 1);
      break;
    case 8: /* compress along axis 0 of [256K, 3] f32, an f64 condition of 0 and -0: all false */
      j->op = WG_OP_compress, j->mdtype = WG_DTYPE_F64, j->ddtype = WG_DTYPE_F32;
      j->dr = 2, j->D[0] = 1 << 18, j->D[1] = 3, j->mr = 1, j->M[0] = 1 << 18;
      j->mask = make_mask(j->mdtype, 1 << 18, NONE, 0);
      break;
    case 9: /* compress along axis 1 of [2, 256K, 2] i8, a u16 condition */
      j->op = WG_OP_compress, j->mdtype = WG_DTYPE_U16, j->ddtype = WG_DTYPE_I8, j->axis = -2;
      j->dr = 3, j->D[0] = 2, j->D[1] = 1 << 18, j->D[2] = 2, j->mr = 1, j->M[0] = 1 << 18;
      j->mask = make_mask(j->mdtype, 1 << 18, 100, 0);
      break;
    case 10: /* masked_scatter f32 [512K], a u8 mask */
      j->op = WG_OP_masked_scatter, j->mdtype = WG_DTYPE_U8, j->ddtype = WG_DTYPE_F32;
      j->dr = 1, j->D[0] = 1 << 19, j->mr = 1, j->M[0] = 1 << 19;
      j->mask = make_mask(j->mdtype, 1 << 19, 128, 0);
      break;
    case 11: /* masked_scatter in place, u8 [512, 512], an f32 mask in runs */
      j->op = WG_OP_masked_scatter, j->mdtype = WG_DTYPE_F32, j->ddtype = WG_DTYPE_U8, j->in_place = 1;
      j->dr = 2, j->D[0] = 512, j->D[1] = 512, j->mr = 2, j->M[0] = 512, j->M[1] = 512;
      j->mask = make_mask(j->mdtype, 1 << 18, 128, 1);
      break;
    case 12: /* masked_scatter f64 [256, 1024], an i32 mask */
      j->op = WG_OP_masked_scatter, j->mdtype = WG_DTYPE_I32, j->ddtype = WG_DTYPE_F64;
      j->dr = 2, j->D[0] = 256, j->D[1] = 1024, j->mr = 2, j->M[0] = 256, j->M[1] = 1024;
      j->mask = make_mask(j->mdtype, 1 << 18, 230, 0);
      break;
    case 13: /* boolean_mask along axis 1 of [64, 4096, 2] f64, a u8 mask: 16-byte slices, 4 groups of 16 blocks x 4 chunks */
      j->op = WG_OP_boolean_mask, j->mdtype = WG_DTYPE_U8, j->ddtype = WG_DTYPE_F64, j->axis = 1;
      j->dr = 3, j->D[0] = 64, j->D[1] = 4096, j->D[2] = 2, j->mr = 1, j->M[0] = 4096;
      j->mask = make_mask(j->mdtype, 4096, 128, 0);
      break;
    case 14: /* compress along axis 1 of [16, 1024, 64] u32, an i16 condition: 256-byte slices, a block a group, 16 x 4 */
      j->op = WG_OP_compress, j->mdtype = WG_DTYPE_I16, j->ddtype = WG_DTYPE_U32, j->axis = 1;
      j->dr = 3, j->D[0] = 16, j->D[1] = 1024, j->D[2] = 64, j->mr = 1, j->M[0] = 1000;
      j->mask = make_mask(j->mdtype, 1000, 100, 1);
      break;
    default: /* masked_scatter in place with a source one short: refused, nothing written */
      j->op = WG_OP_masked_scatter, j->mdtype = WG_DTYPE_BF16, j->ddtype = WG_DTYPE_U16, j->in_place = 1;
      j->dr = 1, j->D[0] = 1 << 18, j->mr = 1, j->M[0] = 1 << 18;
      j->mask = make_mask(j->mdtype, 1 << 18, 64, 0);
      j->short_source = 1;
  }
  j->len = j->op == WG_OP_non_zero || j->op == WG_OP_masked_scatter ? prod(j->D, 0, j->dr) : prod(j->M, 0, j->mr);
  j->a = j->flatten ? 0 : (size_t)(j->axis < 0 ? j->axis + (int32_t)j->dr : j->axis);
  if (j->op != WG_OP_non_zero) {
    j->data_bytes = prod(j->D, 0, j->dr) * width(j->ddtype);
    j->data = random_bytes(j->data_bytes);
  }
  if (j->op == WG_OP_masked_scatter) { /* the count's elements (one fewer: refused), or more */
    size_t n = 0;
    for (size_t i = 0; i < j->len; ++i) n += is_true(j->mdtype, j->mask, i);
    j->source_len = j->short_source ? n - 1 : n + (size_t)(k % 2) * 7;
    j->source = random_bytes(j->source_len * width(j->ddtype));
  }
  reference(j);
  snprintf(j->what, sizeof j->what, "job %d: op %d, %s mask of %zu (%zu true), %s data%s%s", k, j->op, dtype_name(j->mdtype),
           j->len, j->count, j->op == WG_OP_non_zero ? "no" : dtype_name(j->ddtype), j->in_place ? ", in place" : "",
           j->short_source ? ", source one short" : "");
}

static size_t compare_all(wg_pool* const* pools, size_t npools, job* jobs) {
  for (int k = 0; k < NJOBS; ++k) compare(pools, npools, &jobs[k]);
  return NJOBS;
}

int main(int argc, char** argv) {
  main_thread = pthread_self();
  size_t real[MAX_POOLS], npools = parse_pools(argc, argv, real);
  job jobs[NJOBS];
  for (int k = 0; k < NJOBS; ++k) build(&jobs[k], k);
  atomic_store(&wg_test_hook, hook);
  wg_pool* pools[MAX_POOLS];
  for (size_t p = 0; p < npools; ++p) pools[p] = pool_of(real[p]);
  size_t calls = compare_all(pools, npools, jobs);
  for (size_t p = 0; p < npools; ++p) wg_pool_destroy(pools[p]);
  size_t tiles = atomic_load(&worker_tiles);
  /* the tiles in shuffled orders on the caller, at each of these counts */
  static const size_t SHUFFLED[] = {2, 3, 4, 8, 12, 16};
  wg_pool* shuffled[6];
  for (size_t p = 0; p < 6; ++p) shuffled[p] = pool_of(SHUFFLED[p]);
  atomic_store(&wg_test_shuffle, 0x9e3779b97f4a7c15ull);
  size_t shuffled_calls = compare_all(shuffled, 6, jobs);
  atomic_store(&wg_test_shuffle, 0);
  for (size_t p = 0; p < 6; ++p) wg_pool_destroy(shuffled[p]);
  atomic_store(&wg_test_hook, NULL);
  size_t trues = 0;
  for (int k = 0; k < NJOBS; ++k) trues += jobs[k].count, release(&jobs[k]);
  CHECK(tiles > 0); /* else the pools ran nothing in parallel */
  printf("masks' ops (%d jobs, %zu true elements) on pools of", NJOBS, trues);
  for (size_t p = 0; p < npools; ++p) printf("%s %zu", p ? "," : "", real[p]);
  printf(" threads: %zu calls each (%zu tiles run by workers); at 2, 3, 4, 8, 12 and 16 threads in shuffled tile orders: "
         "%zu calls each; %s\n", calls, tiles, shuffled_calls, failures ? "FAILED" : "bitwise equal to 1 thread and the reference");
  return failures != 0;
}
