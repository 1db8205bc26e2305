/* The scatters' stage (src/stage_scatter.c) on a pool: each op with heavy duplicate indices (most
 * items hit one of three destinations, the rest spread over every part of the output), run with
 * the parallel threshold at 0, so that every call runs its plan over threads (src/stage_scatter.h:
 * slabs in parallel, the one-part pipeline of short rows, or the sort by destination part), and
 * compared bit for bit with the same call on the caller alone; in place too. Two ways:
 *  - on pools of 2, 3, 4 and 16 real threads (more threads than this machine's cores: preempted
 *    mid-tile);
 *  - at every count from 2 to 16, each job's tiles run on the caller in a shuffled order
 *    (wg_test_shuffle, src/parallel.h): the plan of 16 threads and orders of its tiles that a
 *    schedule on 16 cores may meet, on 2;
 *  - the sort by destination part on the caller alone, into 2 and 64 parts
 *    (wg_scatter_force_parts, src/op.h: the benchmark's switch), against the plans' own choice.
 * Values include NaNs of both signs and several payloads (signaling ones too), so that a NaN meets
 * a NaN in every reduction: max and min keep the update's bits, add and mul the one in place, at
 * any thread count (src/scatter_kernels.c). Every value type and reduction, include_self 0 and
 * 1, index types of both widths, the drop and clamp modes, src larger than index and the value
 * form. An out-of-range index at the end (the last chunk) fails the call on the pool with the
 * first bad index reported, and writes nothing, in place included.
 * Built with the test-only hooks of src/parallel.h: the caller yields once it has published a job
 * (so that the workers, woken, claim tiles of every stage), and the tiles workers ran are counted:
 * the run fails if they ran none; a worker that takes a chunk of the one-part pipeline is delayed,
 * so that the applier must wait for it, and the waits are counted: the run fails without any. Run under ThreadSanitizer (any race is a report) and ASan +
 * UBSan by tests/native/native.test.mjs. */
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
#include "stage_scatter.h" /* WG_SCATTER_SORT_THREADS */
#include "wasm_gather.h"

static int failures = 0;
#define THREAD_TEST_SEED 0x853c49e6748fea9bull /* this test's values (thread_pools.h: next) */
#include "thread_pools.h" /* after failures: its CHECKs count there */


static const size_t WIDTH[12] = {1, 1, 2, 2, 4, 4, 8, 8, 2, 2, 4, 8}; /* by wg_value_type */
static const char* const VT_NAME[12] = {"i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64", "f16", "bf16", "f32", "f64"};


/* A NaN of the value type: either sign, quiet or signaling, payload p (1-3). */
static uint64_t nan_bits(int vt, int negative, int quiet, uint64_t p) {
  switch (vt) {
    case WG_VALUE_F16: return (negative ? 0xfc00 : 0x7c00) | (quiet ? 0x200 : 0) | p;
    case WG_VALUE_BF16: return (negative ? 0xff80 : 0x7f80) | (quiet ? 0x40 : 0) | p;
    case WG_VALUE_F32: return (negative ? 0xff800000u : 0x7f800000u) | (quiet ? 0x400000u : 0) | p << 4;
    default: return (negative ? 0xfff0000000000000ull : 0x7ff0000000000000ull) | (quiet ? 1ull << 51 : 0) | p << 8;
  }
}

/* Small values (sums and products that mean something), and now and then -0, inf or a NaN (of
 * either sign, quiet or signaling, one of a few payloads). */
static void fill_values(uint8_t* p, size_t n, int vt) {
  size_t w = WIDTH[vt];
  for (size_t i = 0; i < n; ++i) {
    float f = (float)((int)(next() % 9) - 4);
    uint64_t special = next() % 17, r = next();
    if (vt >= WG_VALUE_F16 && special < 3) f = special == 0 ? -0.0f : INFINITY;
    uint64_t bits;
    switch (vt) {
      case WG_VALUE_F16: bits = wg_f32_to_f16(f); break;
      case WG_VALUE_BF16: bits = wg_f32_to_bf16(f); break;
      case WG_VALUE_F32: { uint32_t u; memcpy(&u, &f, 4); bits = u; break; }
      case WG_VALUE_F64: { double d = f; memcpy(&bits, &d, 8); break; }
      default: bits = (uint64_t)(int64_t)f;
    }
    if (vt >= WG_VALUE_F16 && special == 1) bits = nan_bits(vt, r & 1, (r >> 1) & 1, 1 + (r >> 2) % 3);
    memcpy(p + i * w, &bits, w);
  }
}

/* Index values of a dimension of size s: three hot destinations for most, any for the rest, some
 * negative (counting from the end); with `wild`, some out of range either side (dropped or clamped). */
static void fill_indices(int64_t* idx, size_t n, size_t s, int wild) {
  for (size_t i = 0; i < n; ++i) {
    uint64_t r = next();
    int64_t v = r % 4 ? (int64_t)((r >> 8) % 3 * (s / 3)) : (int64_t)((r >> 8) % s);
    if (wild && r % 7 == 0) v = r % 2 ? (int64_t)s + 2 : -(int64_t)s - 3;
    else if (r % 5 == 0) v -= (int64_t)s;
    idx[i] = v;
  }
}

enum { SCATTER, SCATTER_ND, INDEX_REDUCE, TENSOR_SCATTER };
static const char* const OP_NAME[4] = {"scatter", "scatter_nd", "index_reduce", "tensor_scatter"};

/* One call's tensors (shapes of rank <= 4). */
typedef struct job {
  int op, vt, circular;
  int32_t axis;
  wg_scatter_desc desc;
  wg_index_type itype;
  size_t D[4], I[4], U[4], dr, ir, ur;
  uint8_t* data;
  void* idx;
  uint8_t* upd;
  size_t data_bytes;
} job;

static wg_status run(wg_pool* pool, const job* j, const void* data, void* out, wg_error_info* err) {
  switch (j->op) {
    case SCATTER:
      return wg_scatter(pool, data, j->D, j->dr, j->axis, j->idx, j->itype, j->I, j->ir, j->upd, j->U, j->ur,
                        &j->desc, out, err);
    case SCATTER_ND:
      return wg_scatter_nd(pool, data, j->D, j->dr, j->idx, j->itype, j->I, j->ir, j->upd, j->U, j->ur, &j->desc,
                           out, err);
    case INDEX_REDUCE:
      return wg_index_reduce(pool, data, j->D, j->dr, j->axis, j->idx, j->itype, j->I, j->ir, j->upd, j->U, j->ur,
                             &j->desc, out, err);
    default:
      return wg_tensor_scatter(pool, data, j->D, j->dr, j->upd, j->U, j->ur, j->idx, j->itype, j->axis, j->circular,
                               WIDTH[j->vt], out, err);
  }
}

static size_t numel(const size_t* s, size_t r) {
  size_t n = 1;
  for (size_t d = 0; d < r; ++d) n *= s[d];
  return n;
}

/* When not 0, the parts every call on the pools sorts into (wg_scatter_force_parts, src/op.h):
 * the sort path on the caller alone (a NULL pool) against the plans' own choice there. */
static size_t forced_parts;

/* The call on the caller alone, then on each pool, into a new output and in place: the same bits. */
static void compare(wg_pool* const* pools, size_t npools, const job* j, const char* what) {
  size_t bytes = j->data_bytes;
  uint8_t* one = malloc(bytes);
  uint8_t* many = malloc(bytes);
  CHECK(run(NULL, j, j->data, one, NULL) == WG_OK);
  wg_scatter_force_parts(forced_parts);
  for (size_t p = 0; p < npools; ++p) {
    for (int in_place = 0; in_place < 2; ++in_place) {
      memset(many, 0xA5, bytes);
      if (in_place) memcpy(many, j->data, bytes);
      wg_status st = run(pools[p], j, in_place ? many : j->data, many, NULL);
      if (st != WG_OK || memcmp(one, many, bytes) != 0) {
        fprintf(stderr, "%s %s %s reduce %d include_self %d, %zu threads%s: status %d, %s\n", OP_NAME[j->op], what,
                VT_NAME[j->vt], j->desc.reduce, j->desc.include_self, wg_pool_threads(pools[p]),
                in_place ? " in place" : "", st, st == WG_OK ? "differs from 1 thread" : "failed");
        failures++;
      }
    }
  }
  wg_scatter_force_parts(0);
  free(one);
  free(many);
}

/* The job's tensors: data and updates of small values, room for its indices. */
static void make(job* j, size_t data_n, size_t idx_n, size_t upd_n) {
  j->data_bytes = data_n * WIDTH[j->vt];
  j->data = malloc(j->data_bytes);
  j->idx = malloc(idx_n * 8);
  j->upd = malloc(upd_n * WIDTH[j->vt]);
  fill_values(j->data, data_n, j->vt);
  fill_values(j->upd, upd_n, j->vt);
}

static void release(job* j) {
  free(j->data);
  free(j->idx);
  free(j->upd);
}

/* The job's indices, of its index type, from int64 values. */
static void store_indices(job* j, const int64_t* v, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    if (j->itype == WG_INDEX_I32) ((int32_t*)j->idx)[i] = (int32_t)v[i];
    else ((int64_t*)j->idx)[i] = v[i];
  }
}

/* A job of op for value type vt, reduction reduce and include_self self; `form` (0-3) picks a
 * variant: 1 another axis or depth (and int32 indices), 2 the drop mode, 3 the clamp mode, and
 * for scatter 2 src larger than index and 3 the value form. */
static void build(job* j, int op, int vt, int reduce, int self, int form) {
  memset(j, 0, sizeof *j);
  j->op = op;
  j->vt = vt;
  j->desc = (wg_scatter_desc){vt, reduce, self, form == 2 ? WG_OOB_ZERO : form == 3 ? WG_OOB_CLAMP : WG_OOB_ERROR,
                              WG_NEGATIVE_WRAP};
  j->itype = form % 2 ? WG_INDEX_I32 : WG_INDEX_I64;
  int wild = form >= 2;
  static int64_t v[6000];
  switch (op) {
    case SCATTER: { /* input [40, 50] along dim 0, index [120, 25] (form 1: dim 1, [40, 75]): 3000 items */
      j->axis = form == 1;
      j->dr = j->ir = j->ur = 2;
      j->D[0] = 40, j->D[1] = 50;
      j->I[0] = form == 1 ? 40 : 120, j->I[1] = form == 1 ? 75 : 25;
      j->U[0] = j->I[0] + (form == 2), j->U[1] = j->I[1] + (form == 2);
      if (form == 3) j->ur = 0;
      make(j, 2000, 3000, j->ur ? numel(j->U, 2) : 1);
      fill_indices(v, 3000, j->D[j->axis], wild);
      store_indices(j, v, 3000);
      break;
    }
    case SCATTER_ND: { /* data [64, 8], rows of 8 (form 1: data [16, 16, 2], pairs): 3000 items */
      size_t K = form == 1 ? 2 : 1, row = form == 1 ? 2 : 8;
      j->dr = form == 1 ? 3 : 2;
      j->D[0] = form == 1 ? 16 : 64, j->D[1] = form == 1 ? 16 : 8, j->D[2] = 2;
      j->ir = 2, j->I[0] = 3000, j->I[1] = K;
      j->ur = 2, j->U[0] = 3000, j->U[1] = row;
      make(j, numel(j->D, j->dr), 3000 * K, 3000 * row);
      for (size_t i = 0; i < 3000 * K; ++i) fill_indices(v + i, 1, j->D[i % K], wild);
      store_indices(j, v, 3000 * K);
      break;
    }
    case INDEX_REDUCE: { /* input [3, 50, 4] along axis 1, index [1000]: 3000 items of 4 */
      j->axis = 1;
      j->dr = 3, j->D[0] = 3, j->D[1] = 50, j->D[2] = 4;
      j->ir = 1, j->I[0] = 1000;
      j->ur = 3, j->U[0] = 3, j->U[1] = 1000, j->U[2] = 4;
      make(j, 600, 1000, 12000);
      fill_indices(v, 1000, 50, wild);
      store_indices(j, v, 1000);
      break;
    }
    default: { /* cache [4, 3, 16, 2] along axis 2: circular, an update of 13 wrapping around the
                  end (form 1: linear, 10) */
      j->axis = 2;
      j->circular = form != 1;
      j->dr = j->ur = 4;
      j->D[0] = 4, j->D[1] = 3, j->D[2] = 16, j->D[3] = 2;
      memcpy(j->U, j->D, sizeof j->D);
      j->U[2] = j->circular ? 13 : 10;
      make(j, 384, 4, numel(j->U, 4));
      const int64_t w[4] = {5, 0, j->circular ? 15 : 6, j->circular ? 1000003 : 4};
      store_indices(j, w, 4);
    }
  }
}

/* An index out of range at the very end (the last chunk, resolved by some thread): the call fails
 * with it reported, and writes nothing, in place included. */
static void check_late_error(wg_pool* pool) {
  job j;
  build(&j, SCATTER, WG_VALUE_F32, WG_REDUCE_ADD, 1, 0);
  ((int64_t*)j.idx)[2999] = 40; /* dim 0 has 40 */
  uint8_t* out = malloc(j.data_bytes);
  uint8_t* copy = malloc(j.data_bytes);
  memset(out, 0xA5, j.data_bytes);
  memcpy(copy, j.data, j.data_bytes);
  wg_error_info err;
  CHECK(run(pool, &j, j.data, out, &err) == WG_ERR_INDEX_OUT_OF_RANGE);
  CHECK(err.position == 2999 && err.value == 40 && err.limit == 40 && err.dim == 0);
  for (size_t i = 0; i < j.data_bytes; ++i) CHECK(out[i] == 0xA5);
  CHECK(run(pool, &j, j.data, j.data, &err) == WG_ERR_INDEX_OUT_OF_RANGE); /* in place */
  CHECK(memcmp(j.data, copy, j.data_bytes) == 0);
  free(out);
  free(copy);
  release(&j);
}

static const char* const FORMS[4] = {"", "(form 1)", "(drop, larger src)", "(clamp, value form)"};

/* Every op, type, reduction and include_self on the pools; returns the calls compared. */
static size_t compare_all(wg_pool* const* pools, size_t npools) {
  size_t calls = 0;
  for (int op = SCATTER; op <= TENSOR_SCATTER; ++op) {
    int reduces = op == TENSOR_SCATTER ? 1 : op == SCATTER_ND ? 5 : 6; /* scatter_nd has no mean */
    for (int vt = 0; vt < 12; ++vt) {
      for (int reduce = 0; reduce < reduces; ++reduce) {
        for (int self = reduce ? 0 : 1; self < 2; ++self) { /* a plain write has no include_self */
          int form = (vt + reduce + self) % 4; /* each type meets each variant */
          job j;
          build(&j, op, vt, reduce, self, form);
          compare(pools, npools, &j, FORMS[form]);
          release(&j);
          ++calls;
        }
      }
    }
  }
  return calls;
}

int main(int argc, char** argv) {
  main_thread = pthread_self();
  size_t real[MAX_POOLS], npools = parse_pools(argc, argv, real);
  atomic_store(&wg_test_hook, hook);
  wg_pool* pools[MAX_POOLS];
  for (size_t p = 0; p < npools; ++p) pools[p] = pool_of(real[p]);
  size_t calls = compare_all(pools, npools);
  for (size_t p = 0; p < npools; ++p) check_late_error(pools[p]); /* short rows: a pipeline, or sorted from 4 */
  for (size_t p = 0; p < npools; ++p) wg_pool_destroy(pools[p]);
  size_t tiles = atomic_load(&worker_tiles), awaited = atomic_load(&chunks_awaited);
  /* every count from 2 to 16, the tiles in shuffled orders on the caller */
  atomic_store(&wg_test_shuffle, 0x9e3779b97f4a7c15ull);
  size_t shuffled = 0;
  for (size_t t = 2; t <= MOST; ++t) {
    wg_pool* pool = pool_of(t);
    shuffled += compare_all(&pool, 1);
    wg_pool_destroy(pool);
  }
  atomic_store(&wg_test_shuffle, 0);
  /* the sort path on the caller alone, into 2 and into the most parts */
  size_t sorted_alone = 0;
  wg_pool* alone = NULL;
  for (forced_parts = 2; forced_parts <= WG_SCATTER_MAX_PARTS; forced_parts *= WG_SCATTER_MAX_PARTS / 2) sorted_alone += compare_all(&alone, 1);
  forced_parts = 0;
  atomic_store(&wg_test_hook, NULL);
  CHECK(tiles > 0);   /* else the pools ran nothing in parallel */
  /* only pools under WG_SCATTER_SORT_THREADS take the pipeline (more sort: src/stage_scatter.c),
   * so a list of larger pools has no applier to wait */
  int pipelined = 0;
  for (size_t p = 0; p < npools; ++p) pipelined |= real[p] < WG_SCATTER_SORT_THREADS;
  if (pipelined) CHECK(awaited > 0); /* else no pipeline's applier waited for a chunk another thread resolved */
  printf("scatters on pools of");
  for (size_t p = 0; p < npools; ++p) printf("%s %zu", p ? "," : "", real[p]);
  printf(" threads: %zu calls (%zu tiles run by workers, %zu chunks awaited); "
         "at 2-%d threads in shuffled tile orders: %zu calls; sorted into 2 and %d parts on 1 thread: %zu calls; %s\n",
         calls, tiles, awaited, MOST, shuffled, WG_SCATTER_MAX_PARTS, sorted_alone,
         failures ? "FAILED" : "bitwise equal to 1 thread");
  return failures != 0;
}
