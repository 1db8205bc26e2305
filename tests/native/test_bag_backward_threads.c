/* The bags' gradient (embedding_bag_backward, src/op_embedding_bag_backward.c: the gradient's rows
 * added, scaled, into the rows the entries read, src/stage_add_rows.c; max's elements a
 * scatter-add, src/stage_scatter.c; the weights' gradient, src/stage_dot.c) on a pool, through the
 * call record as the JS binding calls it, with the parallel threshold at 0 so that every call runs
 * over the threads (destination rows in tiles, a table of one row among them; max's elements in one
 * part resolved ahead of its applier), compared bit for bit with the same call on the caller alone,
 * the weights' gradient too. Two ways, as test_scatter_threads.c:
 *  - on pools of 2, 3, 4 and 16 real threads (more threads than this machine's cores: preempted
 *    mid-tile);
 *  - at every count from 2 to 16, each job's tiles run on the caller in a shuffled order
 *    (wg_test_shuffle, src/parallel.h), a third of the calls at each count.
 * The calls: float32 and float64; sum, mean, sqrtn and max; every form of the bags (fixed, offsets,
 * bounds with entries past the last, sorted ids with empty segments), weights, padding (bags of
 * padding only among them), the output from zeros or added into (accumulate, in place), the
 * weights' gradient, the zero and clamp modes with indices out of range, both index widths, rows
 * narrower and wider than the kernel's block of 64 and tables of many rows or one; values that
 * round (random mantissas: the float32 fused multiply-adds and the float64 product-then-add give
 * other bits in another order) among small integers, -0, infinities and NaNs of several payloads.
 * Then errors at the end of the entries (an index out of range in the last entry, in a bag or past
 * the last bound; a max index out of range in the last bag; segments broken at their end): the same
 * report at every thread count, and nothing written, in place included. Built with the test-only
 * hooks of src/parallel.h: the caller yields once it has published a job; a worker that takes a
 * chunk of a pipeline waits 100 us first, so that the applier meets chunks being resolved; the run
 * fails if no worker ran a tile or the applier never waited. Run under ThreadSanitizer (any race is
 * a report) and ASan + UBSan by tests/native/native.test.mjs. */
#define _GNU_SOURCE
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "call.h"
#include "check.h"
#include "parallel.h"
#include "wasm_gather.h"

static int failures = 0;
#define THREAD_TEST_SEED 0x9e3779b97f4a7c15ull /* this test's values (thread_pools.h: next) */
#include "thread_pools.h" /* after failures: its CHECKs count there */



/* n values: random mantissas in [-4, 4) (sums and products that round), small integers, and 1 in
 * 2^rare (0: none) -0, an infinity or a NaN (either sign, payload 1-3): rare, so that most rows
 * stay finite however many entries they add up. */
static void fill_values(void* p, size_t n, int f64, int rare) {
  for (size_t i = 0; i < n; ++i) {
    uint64_t r = next();
    double x = r % 4 ? ldexp((double)(r >> 11 & 0xffffffffffffull), -45) - 4 : (double)((int)(r >> 8 & 7) - 4);
    int special = rare && r >> (64 - rare) == 0 ? (int)(r >> 30 & 3) + 1 : 0;
    if (special == 1) x = -0.0;
    if (special == 2) x = r & 1 ? INFINITY : -INFINITY;
    uint64_t bits;
    if (f64) {
      memcpy(&bits, &x, 8);
    } else {
      float f = (float)x;
      uint32_t u;
      memcpy(&u, &f, 4);
      bits = u;
    }
    if (special >= 3) {
      uint64_t sign = r & 2, payload = 1 + (r >> 2) % 3;
      bits = f64 ? (sign ? 0xfff8000000000000ull : 0x7ff8000000000000ull) | payload << 8
                 : (sign ? 0xffc00000u : 0x7fc00000u) | payload << 4;
    }
    memcpy((uint8_t*)p + i * (f64 ? 8 : 4), &bits, f64 ? 8 : 4);
  }
}

/* One call's tensors. */
typedef struct job {
  int f64, weighted, padded, accumulate, table, form, mode, negative;
  int32_t reduce, pad, num_segments;
  wg_index_type itype, stype;
  size_t rows, bags, entries, dim, G[3], gr, I[2], ir, slen;
  void *idx, *seg;
  uint8_t *grad, *weights, *tab, *init;
  int32_t* mi;
  char what[200];
} job;

static void* store_indices(const int64_t* v, size_t n, wg_index_type t) {
  void* p = malloc(n * 8 + 8);
  for (size_t i = 0; i < n; ++i) {
    if (t == WG_INDEX_I32) ((int32_t*)p)[i] = (int32_t)v[i];
    else ((int64_t*)p)[i] = v[i];
  }
  return p;
}

/* Sorted starts of `bags` segments over n entries (some empty), from 0, the last ending `tail`
 * entries before the end. */
static void random_starts(int64_t* s, size_t bags, size_t n, size_t tail) {
  s[0] = 0;
  for (size_t b = 1; b <= bags; ++b) {
    size_t room = n - tail - (size_t)s[b - 1], mean = 2 * (n - tail) / bags + 1;
    size_t len = next() % 5 == 0 ? 0 : (size_t)(next() % mean);
    s[b] = s[b - 1] + (int64_t)(len < room ? len : room);
  }
  s[bags] = (int64_t)(n - tail);
}

static const char* const REDUCE_NAME[7] = {"none", "sum", "mul", "max", "min", "mean", "sqrtn"};

/* A call: f64 or float32, `reduce`, weighted or not, `form` 0-3 (fixed, offsets, bounds with a
 * tail, ids with gaps); `variant` picks the rest: padding, accumulate, the weights' gradient, the
 * index and segments' types, the mode, the row width, the table's rows. */
static void build(job* j, int f64, int32_t reduce, int weighted, int form, unsigned variant) {
  memset(j, 0, sizeof *j);
  j->f64 = f64, j->reduce = reduce, j->weighted = weighted, j->form = form;
  const int max = reduce == WG_REDUCE_MAX;
  j->dim = variant % 2 ? 70 : 4; /* past one block of 64 */
  /* one row that every entry adds into, 7, or enough for many tiles of rows (stage_add_rows.c: a
   * tile is 16 KiB of rows, balanced down to a sixteenth of that) */
  j->rows = variant % 5 == 4 ? 1 : variant % 3 == 0 ? 7 : j->dim > 4 ? 50 : 3000;
  const size_t n = j->dim > 4 ? 600 : 2500;                     /* max: chunks of 1024 elements */
  j->entries = n;
  j->itype = variant % 2 ? WG_INDEX_I32 : WG_INDEX_I64;
  j->stype = variant % 4 < 2 ? WG_INDEX_I64 : WG_INDEX_I32;
  j->mode = form == 2 ? WG_OOB_ZERO : form == 3 ? WG_OOB_CLAMP : WG_OOB_ERROR;
  j->negative = form == 3 ? WG_NEGATIVE_ERROR : WG_NEGATIVE_WRAP;
  j->padded = (variant + (unsigned)form) % 3 != 0 && j->rows > 1;
  j->pad = variant % 2 ? 2 : -1;
  j->accumulate = variant % 4 == 1 || variant % 4 == 2;
  j->table = weighted && reduce == WG_REDUCE_ADD && variant % 3 != 1;
  static int64_t v[4096], s[4096];
  size_t hot = j->padded ? (j->pad < 0 ? j->rows - 1 : (size_t)j->pad) : 0;
  /* rows of either sign, the padding row and a few others often; out of range (zero, clamp) */
  for (size_t i = 0; i < n; ++i) {
    uint64_t r = next();
    size_t row = r % 3 == 1 ? (r >> 8) % 8 % j->rows : (r >> 8) % j->rows;
    v[i] = r % 6 == 0 ? (int64_t)hot : (int64_t)row - (r & 1 ? (int64_t)j->rows : 0);
    if (form >= 2 && r % 11 == 0) v[i] = r & 2 ? (int64_t)j->rows + 3 : -(int64_t)j->rows - 5;
  }
  switch (form) {
    case 0: /* fixed bags of 5 (a bag of padding only, now and then) */
      j->bags = n / 5, j->ir = 2, j->I[0] = j->bags, j->I[1] = 5;
      for (size_t b = 0; b < j->bags; b += 7) for (size_t k = 0; k < 5; ++k) v[b * 5 + k] = (int64_t)hot;
      break;
    case 1: /* offsets */
      j->bags = n / 12;
      random_starts(s, j->bags, n, 0);
      j->slen = j->bags;
      break;
    case 2: /* bounds, the last ending 40 entries before the end */
      j->bags = n / 8;
      random_starts(s, j->bags, n, 40);
      j->slen = j->bags + 1;
      break;
    default: { /* sorted ids, with gaps */
      j->bags = n / 10;
      j->num_segments = (int32_t)j->bags;
      int64_t id = 0;
      for (size_t i = 0; i < n; ++i) {
        s[i] = id;
        if (next() % 6 == 0) id += (int64_t)(next() % 4);
        if (id >= (int64_t)j->bags) id = (int64_t)j->bags - 1;
      }
      j->slen = n;
    }
  }
  if (form) j->ir = 1, j->I[0] = n, j->seg = store_indices(s, j->slen, j->stype);
  j->idx = store_indices(v, n, j->itype);
  j->gr = variant % 2 ? 3 : 2, j->G[0] = j->bags; /* [bags, 10, 7] or [bags, 4] */
  if (j->gr == 3) j->G[1] = 10, j->G[2] = 7;
  else j->G[1] = j->dim;
  size_t w = f64 ? 8 : 4;
  j->grad = malloc(j->bags * j->dim * w);
  fill_values(j->grad, j->bags * j->dim, f64, 11);
  if (weighted) {
    j->weights = malloc(n * w);
    fill_values(j->weights, n, f64, variant % 7 == 3 ? 8 : 0);
  }
  if (j->table) {
    j->tab = malloc(j->rows * j->dim * w);
    fill_values(j->tab, j->rows * j->dim, f64, 8);
  }
  if (j->accumulate) {
    j->init = malloc(j->rows * j->dim * w);
    fill_values(j->init, j->rows * j->dim, f64, 6);
  }
  if (max) { /* the forward's max indices: -1 (an empty bag's) or a row */
    j->mi = malloc(j->bags * j->dim * 4);
    for (size_t q = 0; q < j->bags * j->dim; ++q) j->mi[q] = next() % 9 == 0 ? -1 : (int32_t)(next() % j->rows);
  }
  snprintf(j->what, sizeof j->what, "%s %s%s form %d mode %d%s%s%s rows %zu dim %zu", f64 ? "f64" : "f32",
           REDUCE_NAME[reduce], weighted ? " weighted" : "", form, j->mode, j->padded ? " padding" : "",
           j->accumulate ? " accumulate" : "", j->table ? " weights' gradient" : "", j->rows, j->dim);
}

static void release(job* j) {
  free(j->idx);
  free(j->seg);
  free(j->grad);
  free(j->weights);
  free(j->tab);
  free(j->init);
  free(j->mi);
}

/* The call on the record, as js/ops/embedding-bag-backward.mjs fills it: the shape query, a
 * workspace of the size it asks, the run. out starts as the job's init (accumulate) or 0xA5. */
static wg_status run(wg_pool* pool, const job* j, uint8_t* out, uint8_t* out_w, wg_error_info* err) {
  const int32_t dt = j->f64 ? WG_DTYPE_F64 : WG_DTYPE_F32;
  const size_t w = j->f64 ? 8 : 4;
  wg_call c;
  wg_call_init(&c, WG_OP_embedding_bag_backward);
  c.attrs[WG_ATTR_reduce] = j->reduce;
  c.attrs[WG_ATTR_segment_form] = j->form == 0   ? WG_SEGMENTS_FIXED
                                  : j->form == 1 ? WG_SEGMENTS_OFFSETS
                                  : j->form == 2 ? WG_SEGMENTS_BOUNDS
                                                 : WG_SEGMENTS_IDS;
  c.attrs[WG_ATTR_num_segments] = j->form == 3 ? j->num_segments : -1;
  c.attrs[WG_ATTR_has_padding] = j->padded;
  c.attrs[WG_ATTR_padding_idx] = j->pad;
  c.attrs[WG_ATTR_num_weights] = (int32_t)j->rows;
  c.attrs[WG_ATTR_accumulate] = j->accumulate;
  c.attrs[WG_ATTR_out_of_range] = j->mode;
  c.attrs[WG_ATTR_negative_indices] = j->negative;
  size_t T[3] = {j->rows, j->G[1], j->G[2]};
  wg_status st = wg_call_tensor(&c, WG_TENSOR_updates, j->grad, dt, j->G, j->gr);
  const int32_t it = wg_dtype_of(wg_index_dtypes, 4, j->itype), sdt = wg_dtype_of(wg_index_dtypes, 4, j->stype);
  if (st == WG_OK) st = wg_call_tensor(&c, WG_TENSOR_indices, j->idx, it, j->I, j->ir);
  if (st == WG_OK && j->form) st = wg_call_tensor(&c, WG_TENSOR_segments, j->seg, sdt, &j->slen, 1);
  if (st == WG_OK && j->weighted) st = wg_call_tensor(&c, WG_TENSOR_weights, j->weights, dt, j->I, j->ir);
  if (st == WG_OK && j->mi) st = wg_call_tensor(&c, WG_TENSOR_max_indices, j->mi, WG_DTYPE_I32, j->G, j->gr);
  if (st == WG_OK && j->table) st = wg_call_tensor(&c, WG_TENSOR_table, j->tab, dt, T, j->gr);
  if (st == WG_OK) st = wg_call_shape(&c);
  void* ws = NULL;
  if (st == WG_OK) {
    size_t bytes = c.tensors[WG_TENSOR_workspace].shape[0];
    ws = bytes ? malloc(bytes) : NULL; /* malloc's alignment: 16 */
    if (j->accumulate) memcpy(out, j->init, j->rows * j->dim * w);
    else memset(out, 0xA5, j->rows * j->dim * w);
    if (out_w) memset(out_w, 0xA5, j->entries * w);
    c.tensors[WG_TENSOR_out].ptr = out;
    c.tensors[WG_TENSOR_out_weights].ptr = out_w;
    c.tensors[WG_TENSOR_workspace].ptr = ws;
    st = wg_call_run(pool, &c);
  }
  free(ws);
  if (err) *err = c.err;
  return st;
}

/* The call on the caller alone, then on each pool: the same bits, the weights' gradient too. */
static void compare(wg_pool* const* pools, size_t npools, const job* j) {
  size_t w = j->f64 ? 8 : 4, bytes = j->rows * j->dim * w, wbytes = j->table ? j->entries * w : 0;
  uint8_t *one = malloc(bytes), *many = malloc(bytes), *one_w = malloc(wbytes + 1), *many_w = malloc(wbytes + 1);
  wg_status st = run(NULL, j, one, j->table ? one_w : NULL, NULL);
  if (st != WG_OK) {
    fprintf(stderr, "%s: status %d on 1 thread\n", j->what, st);
    failures++;
  }
  for (size_t p = 0; st == WG_OK && p < npools; ++p) {
    wg_status got = run(pools[p], j, many, j->table ? many_w : NULL, NULL);
    if (got != WG_OK || memcmp(one, many, bytes) != 0 || memcmp(one_w, many_w, wbytes) != 0) {
      fprintf(stderr, "%s, %zu threads: status %d, %s\n", j->what, wg_pool_threads(pools[p]), got,
              got != WG_OK                 ? "failed"
              : memcmp(one, many, bytes) ? "differs from 1 thread"
                                         : "the weights' gradient differs");
      failures++;
    }
  }
  free(one);
  free(many);
  free(one_w);
  free(many_w);
}

/* Every type, reduction, weighting and form on the pools (the calls whose number is `phase`
 * modulo `stride`); returns the calls compared. */
static size_t compare_all(wg_pool* const* pools, size_t npools, size_t stride, size_t phase) {
  static const int32_t REDUCE[4] = {WG_REDUCE_ADD, WG_REDUCE_MEAN, WG_REDUCE_SQRTN, WG_REDUCE_MAX};
  size_t calls = 0, k = 0;
  job j;
  for (int f64 = 0; f64 < 2; ++f64) {
    for (int r = 0; r < 4; ++r) {
      for (int weighted = 0; weighted < (REDUCE[r] == WG_REDUCE_MAX ? 1 : 2); ++weighted) {
        for (int form = 0; form < 4; ++form) {
          unsigned variant = (unsigned)k;
          if (k++ % stride != phase) continue;
          build(&j, f64, REDUCE[r], weighted, form, variant);
          compare(pools, npools, &j);
          release(&j);
          ++calls;
        }
      }
    }
  }
  return calls;
}

/* A call that fails at the end of its entries, on the caller and on the pool: the same report,
 * and out (the accumulated values in place) and the weights' gradient as they were. */
static void expect_error(wg_pool* pool, const job* j, wg_status want, const char* what) {
  size_t w = j->f64 ? 8 : 4, bytes = j->rows * j->dim * w, wbytes = j->table ? j->entries * w : 0;
  uint8_t *out = malloc(bytes), *out_w = malloc(wbytes + 1);
  wg_error_info e1, e2;
  wg_status s1 = run(NULL, j, out, j->table ? out_w : NULL, &e1);
  wg_status s2 = run(pool, j, out, j->table ? out_w : NULL, &e2);
  int same = s1 == want && s2 == want && memcmp(&e1, &e2, sizeof e1) == 0;
  int untouched = j->accumulate ? memcmp(out, j->init, bytes) == 0 : 1;
  for (size_t i = 0; !j->accumulate && i < bytes; ++i) untouched &= out[i] == 0xA5;
  for (size_t i = 0; i < wbytes; ++i) untouched &= out_w[i] == 0xA5;
  if (!same || !untouched) {
    fprintf(stderr, "%s (%s), %zu threads: status %d / %d (want %d), position %lld / %lld, value %lld / %lld%s\n", what,
            j->what, wg_pool_threads(pool), s1, s2, want, (long long)e1.position, (long long)e2.position,
            (long long)e1.value, (long long)e2.value, untouched ? "" : "; the output was written");
    failures++;
  }
  free(out);
  free(out_w);
}

/* Errors at the end of the entries. */
static void check_late_errors(wg_pool* pool) {
  job j;
  /* an index out of range in the last entry (in a bag), added into in place, the weights' gradient asked */
  build(&j, 0, WG_REDUCE_ADD, 1, 1, 1);
  j.table = 1, j.accumulate = 1;
  if (!j.tab) j.tab = calloc(j.rows * j.dim, 4);
  if (!j.init) j.init = calloc(j.rows * j.dim, 4);
  ((int32_t*)j.idx)[j.entries - 1] = (int32_t)j.rows;
  expect_error(pool, &j, WG_ERR_INDEX_OUT_OF_RANGE, "an index out of range in the last entry");
  release(&j);
  /* past the last bound (in no bag), float64 mean; every other index in range */
  build(&j, 1, WG_REDUCE_MEAN, 0, 2, 2);
  j.mode = WG_OOB_ERROR;
  for (size_t i = 0; i < j.entries; ++i) ((int64_t*)j.idx)[i] = (int64_t)(i % j.rows);
  ((int64_t*)j.idx)[j.entries - 1] = -(int64_t)j.rows - 1;
  expect_error(pool, &j, WG_ERR_INDEX_OUT_OF_RANGE, "an index out of range past the last bound");
  release(&j);
  /* a max index out of range in the last bag */
  build(&j, 0, WG_REDUCE_MAX, 0, 0, 5);
  j.mi[j.bags * j.dim - 1] = (int32_t)j.rows;
  expect_error(pool, &j, WG_ERR_MAX_INDICES, "a max index out of range in the last bag");
  release(&j);
  /* offsets, the last below the one before */
  build(&j, 1, WG_REDUCE_SQRTN, 1, 1, 0);
  ((int64_t*)j.seg)[j.slen - 1] = ((int64_t*)j.seg)[j.slen - 2] - 1;
  expect_error(pool, &j, WG_ERR_SEGMENTS, "offsets decreasing at their end");
  release(&j);
  /* ids, the last past num_segments */
  build(&j, 0, WG_REDUCE_MEAN, 1, 3, 2);
  ((int32_t*)j.seg)[j.slen - 1] = j.num_segments;
  expect_error(pool, &j, WG_ERR_SEGMENTS, "a segment id past num_segments at the end");
  release(&j);
}

int main(int argc, char** argv) {
  main_thread = pthread_self();
  size_t real[MAX_POOLS], npools = parse_pools(argc, argv, real);
  atomic_store(&wg_test_hook, hook);
  wg_pool* pools[MAX_POOLS];
  for (size_t p = 0; p < npools; ++p) pools[p] = pool_of(real[p]);
  size_t calls = compare_all(pools, npools, 1, 0);
  for (size_t p = 0; p < npools; ++p) check_late_errors(pools[p]);
  for (size_t p = 0; p < npools; ++p) wg_pool_destroy(pools[p]);
  size_t tiles = atomic_load(&worker_tiles), awaited = atomic_load(&chunks_awaited);
  /* every count from 2 to 16, the tiles in shuffled orders on the caller: a third of the calls at
   * each (each call meets five counts), and the errors at each */
  atomic_store(&wg_test_shuffle, 0x2545f4914f6cdd1dull);
  size_t shuffled = 0;
  for (size_t t = 2; t <= MOST; ++t) {
    wg_pool* pool = pool_of(t);
    shuffled += compare_all(&pool, 1, 3, t % 3);
    check_late_errors(pool);
    wg_pool_destroy(pool);
  }
  atomic_store(&wg_test_shuffle, 0);
  atomic_store(&wg_test_hook, NULL);
  CHECK(tiles > 0);   /* else the pools ran nothing in parallel */
  CHECK(awaited > 0); /* else no pipeline's applier met a chunk being resolved */
  printf("embedding_bag_backward on pools of");
  for (size_t p = 0; p < npools; ++p) printf("%s %zu", p ? "," : "", real[p]);
  printf(" threads: %zu calls (%zu tiles run by workers, %zu chunks awaited); at 2-%d threads in shuffled tile"
         " orders: %zu calls; errors at the end at every count; %s\n",
         calls, tiles, awaited, MOST, shuffled, failures ? "FAILED" : "bitwise equal to 1 thread");
  return failures != 0;
}
