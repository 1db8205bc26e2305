/* The one runner (XNNPACK's xnn_run_operator): executes any op's plan (src/op.h). It owns what
 * every run shares: the output's byte size, the index type and policies, the addresses, the
 * workspace, the parallel threshold, the failure flag the stages stop at, and the report of the first bad index. */
#include <stdatomic.h>
#include <string.h>

#include "index_resolve.h"
#include "op.h"
#include "parallel.h"

/* One stage on the pool: its tiles, stopped once any of them met a bad index. */
typedef struct stage_run {
  const wg_stage* stage;
  atomic_int failed;
} stage_run;

static void run_tile(void* ctx, size_t start, size_t count) {
  stage_run* r = ctx;
  if (atomic_load_explicit(&r->failed, memory_order_relaxed)) return;
  if (!r->stage->kind->run(r->stage->job, start, count)) atomic_store(&r->failed, 1);
}

static int present(const wg_tensor* t) { return t->dtype != WG_DTYPE_NONE; }

/* The threads a call of `work` bytes runs on (p: the pool, NULL under its threshold): a quarter
 * of the parallel threshold a thread at least, so that a small call wakes fewer threads than a
 * large one (W4a, 64 KiB out: on 16 cores 8 threads beat 4, and 16 ran no faster than 8, some runs
 * slower); all of them with the threshold at 0. */
static size_t threads_for(wg_pool* p, size_t work) {
  size_t threads = p ? wg_pool_threads(p) : 1, least = wg_pool_parallel_threshold(p) / 4;
  if (threads > 1 && least && work / least < threads) threads = work / least > 1 ? work / least : 1;
  return threads;
}

/* A stage's tile on this many threads: where its planned tiles are fewer than a few a thread (a
 * small output: W4a's 64 KiB was 4 tiles, so that 16 threads ran slower than 4), smaller ones, but
 * no smaller than a sixteenth of the planned tile. Any tiling gives the same result. */
#define TILES_A_THREAD 4
static size_t balanced_tile(size_t tile, size_t range, size_t threads) {
  size_t want = threads * TILES_A_THREAD;
  if (threads <= 1 || tile <= 1 || range / tile >= want) return tile;
  size_t t = (range - 1) / want + 1, least = (tile - 1) / 16 + 1;
  return t > least ? t : least;
}

/* Every address the run reads or writes is set: the indices whenever there are any (the
 * out-of-range scan reads them), a mask likewise (it is counted), the other inputs and the output when the output is not empty
 * (in the offsets mode, the offsets instead of the data and the output), the workspace when the
 * plan asks for one (in the offsets mode, a counting plan's only); no output in a run that only
 * counts, nor the inputs it does not read (the data and source of a write where a mask is true). */
static int addresses_set(const wg_plan* plan, const wg_call* c, uint32_t takes, size_t out_count,
                         int offsets_mode, int count_only) {
  for (int r = 0; r < WG_TENSOR_COUNT; ++r) {
    const wg_tensor* t = &c->tensors[r];
    if (!((takes >> r) & 1) || r == WG_TENSOR_offsets || r == WG_TENSOR_workspace || t->ptr) continue;
    if (r == WG_TENSOR_out && count_only) continue;
    if (r == WG_TENSOR_out_indices) {
      if (plan->out_indices && out_count) return 0;
    } else if (r == WG_TENSOR_out_weights) {
      if (plan->out_weights && present(&c->tensors[WG_TENSOR_indices]) &&
          wg_prod(c->tensors[WG_TENSOR_indices].shape, 0, c->tensors[WG_TENSOR_indices].rank)) return 0;
    } else if (r == WG_TENSOR_indices || r == WG_TENSOR_segments || r == WG_TENSOR_mask ||
               (plan->count_dim && r == WG_TENSOR_data && !offsets_mode &&
                (!count_only || !((takes >> WG_TENSOR_mask) & 1)))) {
      /* read whatever the output's size; the data too, unless it is not what is counted (a mask
       * of its own) and the run only counts */
      if (present(t) && wg_prod(t->shape, 0, t->rank)) return 0;
    } else if (out_count && !offsets_mode && !count_only && (r == WG_TENSOR_out || present(t))) {
      return 0;
    }
  }
  const wg_tensor* ws = &c->tensors[WG_TENSOR_workspace];
  return !plan->workspace_bytes || (offsets_mode && !plan->counted) ||
         (ws->ptr && (uintptr_t)ws->ptr % (plan->workspace_align ? plan->workspace_align : 1) == 0);
}

/* The first bad index of the call's index tensor under the plan's check (1 and *err filled). */
static int find_bad_index(const wg_plan* plan, const wg_call* c, wg_error_info* err) {
  const wg_tensor* idx = &c->tensors[WG_TENSOR_indices];
  return wg_find_bad_index(idx->ptr, (wg_index_type)wg_index_type_of(idx->dtype),
                           (wg_negative_mode)c->attrs[WG_ATTR_negative_indices],
                           wg_prod(idx->shape, 0, idx->rank), plan->check.depth,
                           plan->check.unbounded ? NULL : plan->check.dim_sizes,
                           plan->check.first_dim, err);
}

/* The scan before the stages (plan->check_first), in chunks over the pool: whether every index is
 * in range. Only when one is not does find_bad_index look for the first, serially, to report it. */
#define CHECK_CHUNK (64 * 1024) /* positions (a multiple of any depth: a chunk starts at a tuple) */
typedef struct check_run {
  const wg_plan* plan;
  const wg_tensor* idx;
  wg_negative_mode negative;
  size_t count, chunk;
  atomic_int bad;
} check_run;

static void check_tile(void* ctx, size_t start, size_t n) {
  check_run* r = ctx;
  const wg_index_check* k = &r->plan->check;
  for (size_t i = start; i < start + n && !atomic_load_explicit(&r->bad, memory_order_relaxed); ++i) {
    size_t first = i * r->chunk, len = r->count - first < r->chunk ? r->count - first : r->chunk;
    if (!wg_indices_in_range(r->idx->ptr, (wg_index_type)wg_index_type_of(r->idx->dtype), r->negative,
                             first, len, k->depth, k->unbounded ? NULL : k->dim_sizes)) {
      atomic_store(&r->bad, 1);
    }
  }
}

static int indices_in_range(wg_pool* pool, size_t threads, const wg_plan* plan, const wg_call* c) {
  check_run r = {.plan = plan, .idx = &c->tensors[WG_TENSOR_indices],
                 .negative = (wg_negative_mode)c->attrs[WG_ATTR_negative_indices]};
  r.count = wg_prod(r.idx->shape, 0, r.idx->rank);
  r.chunk = CHECK_CHUNK - CHECK_CHUNK % (plan->check.depth ? plan->check.depth : 1);
  if (r.chunk == 0) r.chunk = plan->check.depth; /* a depth above a chunk: a tuple at a time */
  atomic_init(&r.bad, 0);
  if (r.count) wg_parallelize_1d(pool, check_tile, &r, (r.count - 1) / r.chunk + 1, 1, threads);
  return !atomic_load(&r.bad);
}

/* What a counting plan's stages after the count move: work_bytes, the copy of data (if any) and
 * count_item_bytes a true element (saturating). */
static size_t counted_work(const wg_plan* plan, size_t copy) {
  size_t n = *plan->counted, per = plan->count_item_bytes, w = plan->work_bytes;
  size_t items = per && n > SIZE_MAX / per ? SIZE_MAX : n * per;
  w = w > SIZE_MAX - copy ? SIZE_MAX : w + copy;
  return w > SIZE_MAX - items ? SIZE_MAX : w + items;
}

wg_status wg_run_plan(wg_pool* pool, wg_plan* plan, const wg_call* c, wg_error_info* err) {
  size_t out_count = wg_prod(plan->out_shape, 0, plan->out_rank);
  size_t elem_bytes = (wg_dtype_bits(plan->out_dtype) + 7) / 8;
  int too_large = out_count == SIZE_MAX || (out_count != 0 && elem_bytes > SIZE_MAX / out_count);
  size_t out_bytes = too_large ? SIZE_MAX : out_count * elem_bytes;
  uint32_t takes = wg_op_tensors(c->op);
  int offsets_mode = ((takes >> WG_TENSOR_offsets) & 1) && c->tensors[WG_TENSOR_offsets].ptr && plan->offsets_blocks;
  /* A counting plan given neither an output nor offsets: this run only counts (WG_STAGE_COUNTS),
   * for the caller to size what the next run writes (the output of a data-dependent shape, or
   * the offsets of a masked write's offsets mode), and reads nothing but the mask. */
  int count_only = plan->counted && !c->tensors[WG_TENSOR_out].ptr && !plan->counts_kept && !offsets_mode;
  /* Until counted, a data-dependent output's shape is the most it could be (count_dim), which
   * need not fit in memory (the coordinates of a large sparse mask): a run that only counts
   * writes none, and the run after it checks the true size. */
  if (too_large && !count_only) return wg_fail(err, WG_ERR_SIZE_OVERFLOW, WG_ARG_OUT, -1, -1, -1);
  /* the index type and the policies (an op without indices has none) */
  const wg_tensor* idx = &c->tensors[WG_TENSOR_indices];
  int has_indices = ((takes >> WG_TENSOR_indices) & 1) && (present(idx) || idx->ptr || !plan->indices_optional);
  if (((takes >> WG_TENSOR_indices) & 1) &&
      ((has_indices && wg_index_type_of(idx->dtype) < 0) ||
       !wg_oob_mode_valid((wg_oob_mode)c->attrs[WG_ATTR_out_of_range]) ||
       !wg_negative_mode_valid(c->attrs[WG_ATTR_negative_indices]))) {
    return wg_fail(err, WG_ERR_INVALID_ARGUMENT, WG_ARG_NONE, -1, -1, -1);
  }
  int counts_kept = plan->counts_kept;
  plan->counts_kept = 0;
  if (!addresses_set(plan, c, takes, out_count, offsets_mode, count_only)) {
    return wg_fail(err, WG_ERR_INVALID_ARGUMENT, WG_ARG_NONE, -1, -1, -1);
  }
  /* Small calls run on the caller alone: waking the pool costs more than it saves. What a call
   * moves is its output, or for an op whose output starts as data, its own work plus the copy of
   * data (none in place). */
  size_t work = out_bytes, copy = 0;
  if (plan->count_dim) work = plan->work_bytes;
  if (plan->from_data) {
    copy = c->tensors[WG_TENSOR_out].ptr != c->tensors[WG_TENSOR_data].ptr ? out_bytes : 0;
    work = plan->work_bytes + copy;
  }
  wg_pool* p = work < wg_pool_parallel_threshold(pool) ? NULL : pool;
  size_t threads = threads_for(p, work);
  /* Each job bound once (consecutive stages may share one job and its bind). */
  for (size_t i = 0; i < plan->nstages; ++i) {
    const wg_stage* st = &plan->stages[i];
    if (i == 0 || st->job != st[-1].job || st->kind->bind != st[-1].kind->bind) st->kind->bind(st->job, c, threads);
  }
  if (plan->validate && !offsets_mode) {
    wg_status st = plan->validate(plan, c, err);
    if (st != WG_OK) return st;
  }
  /* The stages' items in this run, once bound (0: the stage does not run). */
  int when = offsets_mode ? WG_STAGE_IN_OFFSETS : WG_STAGE_IN_RUN, checked = 0;
  size_t ranges[WG_MAX_STAGES];
  for (size_t i = 0; i < plan->nstages; ++i) {
    const wg_stage* st = &plan->stages[i];
    int counts = (st->kind->when & WG_STAGE_COUNTS) != 0;
    ranges[i] = !(st->kind->when & when) || (count_only && !counts) || (counts_kept && counts) ? 0
                : st->kind->range ? st->kind->range(st->job, st->range) : st->range;
    if (ranges[i] && (st->kind->when & WG_STAGE_CHECKS)) checked = 1;
  }
  int scan = plan->check.dim_sizes && present(idx) && c->attrs[WG_ATTR_out_of_range] == WG_OOB_ERROR;
  if (scan && plan->check_first && !checked && !indices_in_range(p, threads, plan, c) && find_bad_index(plan, c, err)) {
    return WG_ERR_INDEX_OUT_OF_RANGE;
  }
  int failed = 0;
  for (size_t i = 0; i < plan->nstages && !failed; ++i) {
    if (!ranges[i]) continue;
    stage_run r = {.stage = &plan->stages[i]};
    atomic_init(&r.failed, 0);
    if (plan->counted) { /* a counting plan: each stage by what it moves (the count known once counted) */
      size_t w = (r.stage->kind->when & WG_STAGE_COUNTS) ? plan->count_work_bytes : counted_work(plan, copy);
      p = w < wg_pool_parallel_threshold(pool) ? NULL : pool;
      threads = threads_for(p, w);
    }
    wg_parallelize_1d(p, run_tile, &r, ranges[i], balanced_tile(r.stage->tile, ranges[i], threads), threads);
    failed = atomic_load(&r.failed);
  }
  if (failed && plan->stopped) return plan->stopped(plan, c, err);
  /* In WG_OOB_ERROR mode a stage stops at a bad index, which is found and reported here (and
   * looked for when the output is empty: no stage looked then). */
  if (scan && (failed || out_count == 0) && find_bad_index(plan, c, err)) return WG_ERR_INDEX_OUT_OF_RANGE;
  /* A stage stopped, yet no index is bad: the stage and the check disagree. Never OK: the output
   * is not written. */
  if (failed) return wg_fail(err, WG_ERR_INVALID_ARGUMENT, WG_ARG_INDICES, -1, -1, -1);
  if (plan->counted) { /* the true count (call.c reports it), kept for the next run if this one only counted */
    if (plan->count_dim) plan->out_shape[plan->count_dim - 1] = *plan->counted;
    plan->counts_kept = count_only;
  }
  return WG_OK;
}

/* A copy of n bytes from src to dst (not overlapping) on the pool, in tiles of WG_TILE_BYTES that
 * the workers and the caller claim as they claim an op's, and on the caller alone under the
 * pool's parallel threshold, as an op's run is. No op uses it: it is the bound of the benchmark's
 * thread-scaling suite (bench/thread-suite.mjs; exported to JS by CMakeLists.txt), memory.copy
 * (what memcpy of a large block compiles to with -mbulk-memory) of a workload's bytes split over
 * the same threads, tiles and hand-out as the workload itself. It lives here because the runner
 * is the one place that drives the pool (tests/unit/op-files.test.mjs). */
typedef struct copy_run {
  unsigned char* dst;
  const unsigned char* src;
} copy_run;

static void copy_tile(void* ctx, size_t start, size_t count) {
  copy_run* r = ctx;
  memcpy(r->dst + start, r->src + start, count);
}

void wg_pool_copy(wg_pool* pool, void* dst, const void* src, size_t n) {
  copy_run r = {.dst = dst, .src = src};
  wg_pool* p = n < wg_pool_parallel_threshold(pool) ? NULL : pool;
  if (n) wg_parallelize_1d(p, copy_tile, &r, n, WG_TILE_BYTES, threads_for(p, n));
}

/* The rows' copy (wg_pool_copy_rows in op.h): tile t writes the t-th block of 64 rows of dst
 * (modulo its blocks), which stays in cache, so that what is measured is the reading of the rows
 * in their order. */
typedef struct copy_rows_run {
  unsigned char* dst;
  size_t slots;
  const unsigned char* src;
  size_t row_bytes;
  const int32_t* rows;
} copy_rows_run;

static void copy_rows_tile(void* ctx, size_t start, size_t count) {
  copy_rows_run* r = ctx;
  unsigned char* slot = r->dst + (start / 64 % r->slots) * 64 * r->row_bytes;
  for (size_t i = start; i < start + count; ++i) {
    memcpy(slot + (i % 64) * r->row_bytes, r->src + (size_t)r->rows[i] * r->row_bytes, r->row_bytes);
  }
}

void wg_pool_copy_rows(wg_pool* pool, void* dst, size_t dst_rows, const void* src, size_t row_bytes,
                       const int32_t* rows, size_t n) {
  copy_rows_run r = {.dst = dst, .slots = dst_rows / 64 ? dst_rows / 64 : 1, .src = src, .row_bytes = row_bytes, .rows = rows};
  size_t bytes = n * row_bytes;
  wg_pool* p = bytes < wg_pool_parallel_threshold(pool) ? NULL : pool;
  if (n) wg_parallelize_1d(p, copy_rows_tile, &r, n, 64, threads_for(p, bytes));
}
