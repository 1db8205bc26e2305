/* The fused gather-reduce's stage (src/stage_bag.c) on a pool: embedding_bag and segment_reduce,
 * every value type and reduction, with the parallel threshold at 0 so that every call splits its
 * output rows over the threads, compared bit for bit with the same call on the caller alone (the
 * bags' max indices too). Two ways, as test_scatter_threads.c:
 *  - on pools of 2, 3, 4 and 16 real threads (more threads than this machine's cores: preempted
 *    mid-tile);
 *  - at every count from 2 to 16, each job's tiles run on the caller in a shuffled order
 *    (wg_test_shuffle, src/parallel.h), a third of the calls at each count.
 * The calls: every form of the segments (fixed bags, offsets, bounds with entries past the last,
 * sorted ids with empty segments; lengths, bounds and ids for segment_reduce, along an inner axis
 * and the first), rows narrower and wider than a chunk of columns (WG_BAG_CHUNK), weights (fused
 * float32 sums) and padding (torch's own loop), initial values, both index widths, the zero and
 * clamp modes with indices out of range, and values that round (random mantissas) among small
 * integers, -0, infinities and NaNs of several payloads. Then an index out of range in the last
 * bag, and segments that break a rule at their end: the same error at every thread count, and for
 * the segments nothing written. Built with the test-only hooks of src/parallel.h: the caller
 * yields once it has published a job, and the run fails if no worker ran a tile. Run under
 * ThreadSanitizer (any race is a report) and ASan + UBSan by tests/native/native.test.mjs. */
#define _GNU_SOURCE
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "dequant_kernels.h" /* wg_f32_to_f16, wg_f32_to_bf16: test values */
#include "parallel.h"
#include "wasm_gather.h"

static int failures = 0;
#define THREAD_TEST_SEED 0x9e3779b97f4a7c15ull /* this test's values (thread_pools.h: next) */
#include "thread_pools.h" /* after failures: its CHECKs count there */



static const wg_value_type TYPES[4] = {WG_VALUE_F32, WG_VALUE_F64, WG_VALUE_F16, WG_VALUE_BF16};
static const char* const TYPE_NAME[4] = {"f32", "f64", "f16", "bf16"};
static size_t width(int32_t vt) { return vt == WG_VALUE_F64 ? 8 : vt == WG_VALUE_F32 ? 4 : 2; }

/* n values of the type: random mantissas in [-8, 8) (sums that round), small integers, and now
 * and then -0, an infinity or a NaN (either sign, payload 1-3). */
static void fill_values(uint8_t* p, size_t n, int32_t vt) {
  size_t w = width(vt);
  for (size_t i = 0; i < n; ++i) {
    uint64_t r = next();
    double x = r % 4 ? ldexp((double)(r >> 11 & 0xffffffffffffull), -45) - 4 : (double)((int)(r >> 8 & 7) - 4);
    int special = r >> 60 == 0 ? (int)(r >> 56 & 3) + 1 : 0; /* 1 in 16 */
    if (special == 1) x = -0.0;
    if (special == 2) x = r & 1 ? INFINITY : -INFINITY;
    float f = (float)x;
    uint64_t bits;
    switch (vt) {
      case WG_VALUE_F16: bits = wg_f32_to_f16(f); break;
      case WG_VALUE_BF16: bits = wg_f32_to_bf16(f); break;
      case WG_VALUE_F32: { uint32_t u; memcpy(&u, &f, 4); bits = u; break; }
      default: memcpy(&bits, &x, 8);
    }
    if (special >= 3) { /* a NaN */
      uint64_t sign = r & 2, payload = 1 + (r >> 2) % 3;
      bits = vt == WG_VALUE_F16 ? (sign ? 0xfe00 : 0x7e00) | payload
             : vt == WG_VALUE_BF16 ? (sign ? 0xffc0 : 0x7fc0) | payload
             : vt == WG_VALUE_F32 ? (sign ? 0xffc00000u : 0x7fc00000u) | payload << 4
             : (sign ? 0xfff8000000000000ull : 0x7ff8000000000000ull) | payload << 8;
    }
    memcpy(p + i * w, &bits, w);
  }
}

enum { BAG, SEGMENT };

typedef struct job {
  int op, type; /* type: a position in TYPES */
  wg_bag_desc desc;
  size_t D[3], dr, I[2], ir;
  int32_t axis;
  wg_index_type itype;
  uint8_t* data;
  void* idx;
  int64_t* seg;
  uint8_t* weights;
  union {
    float f;
    double d;
  } initial; /* of the value type */
  size_t nout;
  char what[160];
} job;

static void* store_indices(const int64_t* v, size_t n, wg_index_type t) {
  void* p = malloc(n * 8 + 8);
  for (size_t i = 0; i < n; ++i) {
    if (t == WG_INDEX_I32) ((int32_t*)p)[i] = (int32_t)v[i];
    else ((int64_t*)p)[i] = v[i];
  }
  return p;
}

/* Sorted starts of `bags` segments over n entries (some empty), from 0: lengths summing to n (the
 * last takes what is left; bounds: a tail left over, `tail` entries). */
static void random_starts(int64_t* s, size_t bags, size_t n, size_t tail) {
  s[0] = 0;
  for (size_t b = 1; b <= bags; ++b) {
    size_t room = n - tail - (size_t)s[b - 1], mean = 2 * (n - tail) / bags + 1;
    size_t len = next() % 5 == 0 ? 0 : (size_t)(next() % mean);
    s[b] = s[b - 1] + (int64_t)(len < room ? len : room);
  }
  s[bags] = (int64_t)(n - tail);
}

/* embedding_bag of value type TYPES[type] and reduction `reduce`, weighted or not; `form` 0-3 picks
 * the bags (fixed, offsets, bounds, ids), the row width, the index type, the mode and padding. */
static void build_bag(job* j, int type, int32_t reduce, int weighted, int form) {
  memset(j, 0, sizeof *j);
  j->op = BAG;
  j->type = type;
  int32_t vt = TYPES[type];
  int wide = form % 2; /* rows of two chunks of columns */
  size_t rows = wide ? 64 : 200, inner = wide ? 260 : 16, n = wide ? 400 : 1500;
  j->dr = 2, j->D[0] = rows, j->D[1] = inner;
  j->itype = form % 2 ? WG_INDEX_I32 : WG_INDEX_I64;
  j->desc = (wg_bag_desc){.value_type = vt, .reduce = reduce, .mode = form == 2 ? WG_OOB_ZERO : form == 3 ? WG_OOB_CLAMP : WG_OOB_ERROR,
                          .negative = form == 3 ? WG_NEGATIVE_ERROR : WG_NEGATIVE_WRAP};
  static int64_t v[4096], s[4096];
  for (size_t i = 0; i < n; ++i) { /* rows of either sign, and some out of range (zero, clamp) */
    uint64_t r = next();
    v[i] = (int64_t)(r % rows) - (r & 1 ? (int64_t)rows : 0);
    if (form >= 2 && r % 11 == 0) v[i] = r & 2 ? (int64_t)rows + 3 : -(int64_t)rows - 5;
  }
  size_t bags;
  switch (form) {
    case 0: /* fixed: 250 bags of 6 */
      j->desc.form = WG_SEGMENTS_FIXED;
      j->ir = 2, j->I[0] = 250, j->I[1] = 6, bags = 250;
      break;
    case 1: /* offsets: 100 bags */
      j->desc.form = WG_SEGMENTS_OFFSETS, bags = 100;
      random_starts(s, bags, n, 0);
      break;
    case 2: /* bounds: 300 bags, the last ending 40 entries before the end */
      j->desc.form = WG_SEGMENTS_BOUNDS, bags = 300;
      random_starts(s, bags, n, 40);
      break;
    default: { /* sorted ids of 150 bags, with gaps */
      j->desc.form = WG_SEGMENTS_IDS, bags = 150;
      j->desc.num_segments = 150;
      int64_t id = 0;
      for (size_t i = 0; i < n; ++i) {
        s[i] = id;
        if (next() % 4 == 0) id += (int64_t)(next() % 3);
        if (id > 149) id = 149;
      }
    }
  }
  if (form) {
    j->ir = 1, j->I[0] = n;
    j->desc.segments_len = form == 1 ? bags : form == 2 ? bags + 1 : n;
    j->desc.segments_type = form % 2 ? WG_INDEX_I64 : WG_INDEX_I32;
    j->seg = store_indices(s, j->desc.segments_len, j->desc.segments_type);
    j->desc.segments = j->seg;
  }
  j->idx = store_indices(v, n, j->itype);
  j->data = malloc(rows * inner * width(vt));
  fill_values(j->data, rows * inner, vt);
  if (weighted) {
    j->weights = malloc(n * width(vt));
    fill_values(j->weights, n, vt);
    j->desc.weights = j->weights;
  }
  if (form == 1 || form == 2) j->desc.has_padding = 1, j->desc.padding_idx = form == 1 ? 3 : -1;
  j->nout = bags * inner;
  snprintf(j->what, sizeof j->what, "embedding_bag %s reduce %d%s form %d", TYPE_NAME[type], reduce,
           weighted ? " weighted" : "", form);
}

/* segment_reduce of float32 or float64 (type 0 or 1), `reduce`, with initial or not; `form` 0-2:
 * lengths along axis 1 of [3, 500, 16], bounds along axis -2 of [500, 40], ids along axis 1 of
 * [2, 500, 260] (two chunks of columns). */
static void build_segment(job* j, int type, int32_t reduce, int with_initial, int form) {
  memset(j, 0, sizeof *j);
  j->op = SEGMENT;
  j->type = type;
  int32_t vt = TYPES[type];
  const size_t n = 500, bags = 150;
  static int64_t s[1024];
  j->desc = (wg_bag_desc){.value_type = vt, .reduce = reduce, .segments_type = form == 1 ? WG_INDEX_U32 : WG_INDEX_I64};
  if (form == 0) {
    j->dr = 3, j->D[0] = 3, j->D[1] = n, j->D[2] = 16, j->axis = 1;
    j->desc.form = WG_SEGMENTS_LENGTHS, j->desc.segments_len = bags;
    random_starts(s, bags, n, 0);
    for (size_t b = 0; b < bags; ++b) s[b] = s[b + 1] - s[b];
  } else if (form == 1) {
    j->dr = 2, j->D[0] = n, j->D[1] = 40, j->axis = -2;
    j->desc.form = WG_SEGMENTS_BOUNDS, j->desc.segments_len = bags + 1;
    random_starts(s, bags, n, 0);
  } else {
    j->dr = 3, j->D[0] = 2, j->D[1] = n, j->D[2] = 260, j->axis = 1;
    j->desc.form = WG_SEGMENTS_IDS, j->desc.segments_len = n, j->desc.num_segments = (int32_t)bags;
    int64_t id = 0;
    for (size_t i = 0; i < n; ++i) {
      s[i] = id;
      if (next() % 3 == 0) id += (int64_t)(next() % 3);
      if (id >= (int64_t)bags) id = (int64_t)bags - 1;
    }
  }
  if (j->desc.segments_type == WG_INDEX_U32) {
    uint32_t* u = malloc(j->desc.segments_len * 4);
    for (size_t i = 0; i < j->desc.segments_len; ++i) u[i] = (uint32_t)s[i];
    j->seg = (int64_t*)(void*)u;
  } else {
    j->seg = store_indices(s, j->desc.segments_len, WG_INDEX_I64);
  }
  j->desc.segments = j->seg;
  size_t numel = j->D[0] * j->D[1] * (j->dr == 3 ? j->D[2] : 1);
  j->data = malloc(numel * width(vt));
  fill_values(j->data, numel, vt);
  if (with_initial) {
    int k = (int)(next() % 7) - 3;
    if (vt == WG_VALUE_F32) j->initial.f = (float)k;
    else j->initial.d = k;
    j->desc.initial = &j->initial;
  }
  j->nout = numel / n * bags;
  snprintf(j->what, sizeof j->what, "segment_reduce %s reduce %d%s form %d", TYPE_NAME[type], reduce,
           with_initial ? " initial" : "", form);
}

static void release(job* j) {
  free(j->data);
  free(j->idx);
  free(j->seg);
  free(j->weights);
}

static wg_status run(wg_pool* pool, const job* j, void* out, int32_t* mi, wg_error_info* err) {
  wg_bag_desc d = j->desc;
  d.max_indices = mi;
  return j->op == BAG ? wg_embedding_bag(pool, j->data, j->D, j->dr, j->idx, j->itype, j->I, j->ir, &d, out, err)
                      : wg_segment_reduce(pool, j->data, j->D, j->dr, j->axis, &d, out, err);
}

/* The call on the caller alone, then on each pool: the same bits, max indices included. */
static void compare(wg_pool* const* pools, size_t npools, const job* j) {
  size_t bytes = j->nout * width(TYPES[j->type]);
  int with_mi = j->op == BAG && j->desc.reduce == WG_REDUCE_MAX;
  uint8_t *one = malloc(bytes), *many = malloc(bytes);
  int32_t *mi1 = with_mi ? malloc(j->nout * 4) : NULL, *mi = with_mi ? malloc(j->nout * 4) : NULL;
  wg_status st = run(NULL, j, one, mi1, NULL);
  if (st != WG_OK) {
    fprintf(stderr, "%s: status %d on 1 thread\n", j->what, st);
    failures++;
  }
  for (size_t p = 0; st == WG_OK && p < npools; ++p) {
    memset(many, 0xA5, bytes);
    if (mi) memset(mi, 0xA5, j->nout * 4);
    wg_status got = run(pools[p], j, many, mi, NULL);
    if (got != WG_OK || memcmp(one, many, bytes) != 0 || (mi && memcmp(mi1, mi, j->nout * 4) != 0)) {
      fprintf(stderr, "%s, %zu threads: status %d, %s\n", j->what, wg_pool_threads(pools[p]), got,
              got == WG_OK ? "differs from 1 thread" : "failed");
      failures++;
    }
  }
  free(one);
  free(many);
  free(mi1);
  free(mi);
}

/* Every op, type, reduction and variant on the pools (those whose number is `phase` modulo
 * `stride`); returns the calls compared. */
static size_t compare_all(wg_pool* const* pools, size_t npools, size_t stride, size_t phase) {
  static const int32_t BAG_REDUCE[4] = {WG_REDUCE_ADD, WG_REDUCE_MEAN, WG_REDUCE_MAX, WG_REDUCE_SQRTN};
  static const int32_t SEG_REDUCE[5] = {WG_REDUCE_ADD, WG_REDUCE_MEAN, WG_REDUCE_MAX, WG_REDUCE_MIN, WG_REDUCE_MUL};
  size_t calls = 0, k = 0;
  job j;
  for (int type = 0; type < 4; ++type) {
    for (int r = 0; r < 4; ++r) {
      for (int weighted = 0; weighted < (BAG_REDUCE[r] == WG_REDUCE_MAX ? 1 : 2); ++weighted) {
        if (k++ % stride != phase) continue;
        build_bag(&j, type, BAG_REDUCE[r], weighted, (type + r + weighted) % 4); /* each type meets each form */
        compare(pools, npools, &j);
        release(&j);
        ++calls;
      }
    }
  }
  for (int type = 0; type < 2; ++type) {
    for (int r = 0; r < 5; ++r) {
      for (int init = 0; init < 2; ++init) {
        if (k++ % stride != phase) continue;
        build_segment(&j, type, SEG_REDUCE[r], init, (type + r + init) % 3);
        compare(pools, npools, &j);
        release(&j);
        ++calls;
      }
    }
  }
  return calls;
}

/* An index out of range in the last bag: the same report on the pool; segments that break a rule
 * at their end: the same report, and nothing written. */
static void check_late_errors(wg_pool* pool) {
  job j;
  build_bag(&j, 0, WG_REDUCE_ADD, 1, 0); /* fixed bags, the error mode */
  ((int64_t*)j.idx)[1499] = 200; /* the table has 200 rows */
  size_t bytes = j.nout * 4;
  uint8_t* out = malloc(bytes);
  wg_error_info err;
  CHECK(run(pool, &j, out, NULL, &err) == WG_ERR_INDEX_OUT_OF_RANGE);
  CHECK(err.position == 1499 && err.value == 200 && err.limit == 200 && err.dim == 0);
  release(&j);

  build_segment(&j, 1, WG_REDUCE_ADD, 0, 1); /* bounds */
  ((uint32_t*)(void*)j.seg)[j.desc.segments_len - 1] = 5; /* the last bound (u32) below the one before */
  bytes = j.nout * 8;
  out = realloc(out, bytes);
  memset(out, 0xA5, bytes);
  CHECK(run(pool, &j, out, NULL, &err) == WG_ERR_SEGMENTS);
  CHECK(err.dim == WG_SEGMENT_DECREASING && err.position == (int64_t)j.desc.segments_len - 1 && err.value == 5);
  for (size_t i = 0; i < bytes; ++i) CHECK(out[i] == 0xA5);
  free(out);
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
  size_t tiles = atomic_load(&worker_tiles);
  /* every count from 2 to 16, the tiles in shuffled orders on the caller: a third of the calls at
   * each (each call meets five counts) */
  atomic_store(&wg_test_shuffle, 0x2545f4914f6cdd1dull);
  size_t shuffled = 0;
  for (size_t t = 2; t <= MOST; ++t) {
    wg_pool* pool = pool_of(t);
    shuffled += compare_all(&pool, 1, 3, t % 3);
    wg_pool_destroy(pool);
  }
  atomic_store(&wg_test_shuffle, 0);
  atomic_store(&wg_test_hook, NULL);
  CHECK(tiles > 0); /* else the pools ran nothing in parallel */
  printf("bags and segments on pools of");
  for (size_t p = 0; p < npools; ++p) printf("%s %zu", p ? "," : "", real[p]);
  printf(" threads: %zu calls (%zu tiles run by workers); at 2-%d threads in shuffled tile orders: %zu calls; %s\n",
         calls, tiles, MOST, shuffled, failures ? "FAILED" : "bitwise equal to 1 thread");
  return failures != 0;
}
