#include "stage_scatter.h"

#include <stdatomic.h>
#include <string.h>

#include "index_resolve.h"
#include "parallel.h" /* WG_TEST_HOOK */

/* An array of the workspace (none when the plan asked for no bytes: nothing reads it then). */
static size_t* ws_array(const wg_scatter_job* job, size_t offset) {
  return job->workspace ? (size_t*)(void*)(job->workspace + offset) : NULL;
}

/* Chunk c's items: [*q0, *q0 + return). */
static size_t chunk_range(const wg_scatter_job* job, size_t c, size_t* q0) {
  *q0 = c * job->chunk_items;
  size_t left = job->nitems - *q0;
  return left < job->chunk_items ? left : job->chunk_items;
}

/* Direct: items q0 .. q0 + n resolved WG_SEGMENT at a time into the stack, each piece handed to
 * fn (0 from the resolver: a bad index). */
typedef void (*piece_fn)(const wg_scatter_job* job, size_t q0, size_t k, const size_t* dest, const size_t* src);
static int resolve_pieces(const wg_scatter_job* job, size_t q0, size_t n, piece_fn fn) {
  size_t dest[WG_SEGMENT], src[WG_SEGMENT];
  for (size_t j = 0; j < n;) {
    size_t k = n - j < WG_SEGMENT ? n - j : WG_SEGMENT;
    if (!job->resolve(job, q0 + j, k, dest, job->src_map ? src : NULL)) return 0;
    fn(job, q0 + j, k, dest, src);
    j += k;
  }
  return 1;
}

/* Where an item's update row starts (in elements of updates). */
static size_t item_source(const wg_scatter_job* job, const size_t* srcs, size_t q) {
  return srcs ? srcs[q] : q * job->src_step;
}

/* Chunk c's part starts: starts[p] .. starts[p + 1] are part p's items, counted from the chunk's
 * first item (parts + 1 of them). */
static size_t* part_starts(const wg_scatter_job* job, size_t c) {
  return ws_array(job, job->ws_counts) + c * (job->max_parts + 1);
}

/* The placing loops of a chunk's n items, dest[j] its destinations (the job's fields in locals:
 * the stores alias them). next[p]: where part p's next item goes. */
static void place_order(size_t* restrict order, size_t* restrict next, const size_t* restrict dest, size_t n,
                        unsigned shift, size_t q0) {
  for (size_t j = 0; j < n; ++j) {
    size_t d = dest[j];
    if (d != WG_ZERO_BLOCK) order[next[d >> shift]++] = q0 + j;
  }
}

/* Short rows: the destinations into sorted[], and each item's row (row_bytes, under
 * WG_SCATTER_MIN_GROUPED_ROW) from src + j * stride bytes, or with srcs from base + srcs[j]
 * elements, into rows[] (NULL: the value form, nothing to copy). The common widths inline. */
#define PLACE_ROWS(WIDTH)                                                           \
  for (size_t j = 0; j < n; ++j) {                                                  \
    size_t d = dest[j];                                                             \
    if (d == WG_ZERO_BLOCK) continue;                                               \
    size_t k = next[d >> shift]++;                                                  \
    sorted[k] = d;                                                                  \
    const uint8_t* from = srcs ? base + srcs[j] * elem_bytes : base + j * stride;   \
    memcpy(rows + k * (WIDTH), from, (WIDTH));                                      \
  }
static void place_rows(size_t* restrict sorted, uint8_t* restrict rows, size_t* restrict next,
                       const size_t* restrict dest, size_t n, unsigned shift, const uint8_t* base,
                       size_t stride, const size_t* restrict srcs, size_t elem_bytes, size_t row_bytes) {
  if (!rows) {
    for (size_t j = 0; j < n; ++j) {
      size_t d = dest[j];
      if (d != WG_ZERO_BLOCK) sorted[next[d >> shift]++] = d;
    }
    return;
  }
  switch (row_bytes) {
    case 1: PLACE_ROWS(1) break;
    case 2: PLACE_ROWS(2) break;
    case 4: PLACE_ROWS(4) break;
    case 8: PLACE_ROWS(8) break;
    default: PLACE_ROWS(row_bytes)
  }
}
#undef PLACE_ROWS

/* 1. Sort (over chunks): each chunk's destinations resolved, then, with parts, its items sorted
 * by part, stably, in the chunk's own range: while they are in cache, and with no stage between
 * (a part's items are then its run in each chunk, chunk after chunk). Long rows are sorted as
 * item numbers (order[]); short ones (sorts_rows) as their destinations and a copy of their
 * update rows, so that a part reads its items in a stream, not a cache line of two arrays an
 * item. */
static int run_sort(void* ctx, size_t start, size_t count) {
  const wg_scatter_job* job = ctx;
  const size_t parts = job->parts;
  const unsigned shift = job->part_shift;
  for (size_t c = start; c < start + count; ++c) {
    size_t q0, n = chunk_range(job, c, &q0);
    size_t* dest = ws_array(job, job->ws_dest) + q0;
    size_t* srcs = job->src_map ? ws_array(job, job->ws_src) + q0 : NULL;
    if (!job->resolve(job, q0, n, dest, srcs)) return 0;
    if (parts <= 1) continue; /* one part: the items in order */
    size_t* restrict starts = part_starts(job, c);
    memset(starts, 0, (parts + 1) * sizeof *starts);
    for (size_t j = 0; j < n; ++j) {
      size_t d = dest[j];
      if (d != WG_ZERO_BLOCK) starts[(d >> shift) + 1]++;
    }
    size_t next[WG_SCATTER_MAX_PARTS];
    for (size_t p = 0; p < parts; ++p) {
      starts[p + 1] += starts[p];
      next[p] = q0 + starts[p];
    }
    if (!job->sorts_rows) {
      place_order(ws_array(job, job->ws_order), next, dest, n, shift, q0);
      continue;
    }
    size_t eb = job->elem_bytes;
    place_rows(ws_array(job, job->ws_sorted_dest), job->ws_sorted_rows ? job->workspace + job->ws_sorted_rows : NULL,
               next, dest, n, shift, srcs ? job->updates : job->updates + q0 * job->src_step * eb,
               job->src_step * eb, srcs, eb, job->row_elems * eb);
  }
  return 1;
}

static uint32_t* hits_of(const wg_scatter_job* job) {
  return job->hits ? (uint32_t*)(void*)(job->workspace + job->ws_hits) : NULL;
}

/* An item applied to its destination row r from its source row src, counted (hits: the mean,
 * include_self 0). */
static inline void apply_item(const wg_scatter_job* job, size_t r, const uint8_t* src, uint32_t* hits) {
  uint8_t* dst = job->out + r * job->row_elems * job->elem_bytes;
  if (hits && hits[r]++ == 0 && !job->include_self) job->kernels.identity(dst, job->row_elems);
  job->kernels.reduce(dst, src, job->row_elems, job->src_map || job->src_step ? 1 : 0);
}

static const uint8_t* source_row(const wg_scatter_job* job, size_t first) {
  return job->updates + first * job->elem_bytes;
}

/* Direct: a piece of items applied from the stack, in order. */
static void apply_piece(const wg_scatter_job* job, size_t q0, size_t k, const size_t* dest, const size_t* src) {
  uint32_t* hits = hits_of(job);
  if (!hits) {
    const uint8_t* up = job->src_map ? job->updates : job->updates + q0 * job->src_step * job->elem_bytes;
    job->kernels.apply(job->out, up, dest, NULL, job->src_map ? src : NULL, k, job->row_elems, job->src_step);
    return;
  }
  for (size_t j = 0; j < k; ++j) {
    if (dest[j] != WG_ZERO_BLOCK) apply_item(job, dest[j], source_row(job, job->src_map ? src[j] : (q0 + j) * job->src_step), hits);
  }
}

/* Items applied in order: item k is q = order ? order[k] : k (with counts: hits). */
static void apply_run(const wg_scatter_job* job, const size_t* order, size_t n, uint32_t* hits) {
  const size_t* dest = ws_array(job, job->ws_dest);
  const size_t* srcs = job->src_map ? ws_array(job, job->ws_src) : NULL;
  if (!hits) {
    job->kernels.apply(job->out, job->updates, dest, order, srcs, n, job->row_elems, job->src_step);
    return;
  }
  for (size_t k = 0; k < n; ++k) {
    size_t q = order ? order[k] : k;
    if (dest[q] != WG_ZERO_BLOCK) apply_item(job, dest[q], source_row(job, item_source(job, srcs, q)), hits);
  }
}

/* Short rows sorted: the destinations sorted[0 .. n) and their rows (the value form: updates). */
static void apply_sorted_rows(const wg_scatter_job* job, size_t first, size_t n, uint32_t* hits) {
  const size_t* sorted = ws_array(job, job->ws_sorted_dest) + first;
  size_t row_bytes = job->row_elems * job->elem_bytes, step = job->ws_sorted_rows ? job->row_elems : 0;
  const uint8_t* rows = step ? job->workspace + job->ws_sorted_rows + first * row_bytes : job->updates;
  if (!hits) {
    job->kernels.apply(job->out, rows, sorted, NULL, NULL, n, job->row_elems, step);
    return;
  }
  for (size_t k = 0; k < n; ++k) apply_item(job, sorted[k], rows + (step ? k * row_bytes : 0), hits);
}

/* Part p's items (nitems > 0), in order: its run in each chunk, chunk after chunk, as the sort
 * placed them; one part: every item. Returns 0 at a bad index (never: the sort stage checked
 * them). */
static int apply_items(const wg_scatter_job* job, size_t p, uint32_t* hits) {
  if (job->parts <= 1) {
    apply_run(job, NULL, job->nitems, hits);
    return 1;
  }
  for (size_t c = 0; c < job->chunks; ++c) {
    const size_t* starts = part_starts(job, c);
    size_t first = c * job->chunk_items + starts[p], n = starts[p + 1] - starts[p];
    if (n == 0) continue;
    if (job->sorts_rows) apply_sorted_rows(job, first, n, hits);
    else apply_run(job, ws_array(job, job->ws_order) + first, n, hits);
  }
  return 1;
}

/* One part over threads: a pipeline. The chunks' destinations are resolved into the workspace by
 * whichever thread takes each first, while one thread, the applier, applies them chunk after
 * chunk, in order, taking any chunk no thread has yet itself: it waits only for a chunk another
 * thread is resolving, so one thread alone (a NULL pool) runs every chunk. */
enum { CHUNK_OPEN, CHUNK_TAKEN, CHUNK_READY, CHUNK_FAILED };

static atomic_int* chunk_states(const wg_scatter_job* job) {
  return (atomic_int*)(void*)(job->workspace + job->ws_state);
}

static void take_chunk(const wg_scatter_job* job, size_t c) {
  atomic_int* state = &chunk_states(job)[c];
  int open = CHUNK_OPEN;
  if (!atomic_compare_exchange_strong(state, &open, CHUNK_TAKEN)) return;
  WG_TEST_HOOK(WG_HOOK_CHUNK_TAKEN);
  size_t q0, n = chunk_range(job, c, &q0);
  int ok = job->resolve(job, q0, n, ws_array(job, job->ws_dest) + q0,
                        job->src_map ? ws_array(job, job->ws_src) + q0 : NULL);
  atomic_store_explicit(state, ok ? CHUNK_READY : CHUNK_FAILED, memory_order_release);
}

static int apply_pipelined(const wg_scatter_job* job) {
  for (size_t c = 0; c < job->chunks; ++c) {
    take_chunk(job, c);
    int state = atomic_load_explicit(&chunk_states(job)[c], memory_order_acquire);
    if (state == CHUNK_TAKEN) WG_TEST_HOOK(WG_HOOK_CHUNK_AWAITED);
    while (state == CHUNK_TAKEN) state = atomic_load_explicit(&chunk_states(job)[c], memory_order_acquire);
    if (state == CHUNK_FAILED) return 0;
    size_t q0, n = chunk_range(job, c, &q0);
    apply_piece(job, q0, n, ws_array(job, job->ws_dest) + q0, job->src_map ? ws_array(job, job->ws_src) + q0 : NULL);
  }
  return 1;
}

/* The mean's end for rows r0 .. r1: each row a destination hit divided by its count. */
static void divide_rows(const wg_scatter_job* job, size_t r0, size_t r1, const uint32_t* hits) {
  if (!job->kernels.divide) return;
  size_t row_bytes = job->row_elems * job->elem_bytes;
  for (size_t r = r0; r < r1; ++r) {
    if (hits[r]) job->kernels.divide(job->out + r * row_bytes, job->row_elems, hits[r] + (job->include_self != 0));
  }
}

/* Bytes of data copied to out at a time by the copy stage (slabs: before they are applied). */
#define COPY_TILE (64 * 1024)

/* Output bytes [at, end) from data, or zeros where there is none (unless in place). */
static void start_out(const wg_scatter_job* job, size_t at, size_t end) {
  if (job->out == job->data) return; /* in place */
  if (job->data) memcpy(job->out + at, job->data + at, end - at);
  else memset(job->out + at, 0, end - at);
}

static int run_copy(void* ctx, size_t start, size_t count) {
  const wg_scatter_job* job = ctx;
  size_t bytes = job->dest_rows * job->row_elems * job->elem_bytes, at = start * COPY_TILE;
  size_t end = (start + count) * COPY_TILE < bytes ? (start + count) * COPY_TILE : bytes;
  start_out(job, at, end);
  return 1;
}

/* 3. Slabs: each slab's items in order, resolved a piece at a time. Parts: part p's rows of data
 * into out (unless in place), its items in order, the mean's end. */
static int run_apply(void* ctx, size_t start, size_t count) {
  const wg_scatter_job* job = ctx;
  if (job->slabs > 1) {
    for (size_t s = start; s < start + count; ++s) {
      size_t q0 = s * job->slab_items, n = job->nitems - q0 < job->slab_items ? job->nitems - q0 : job->slab_items;
      if (!resolve_pieces(job, q0, n, apply_piece)) return 0;
    }
    return 1;
  }
  size_t row_bytes = job->row_elems * job->elem_bytes;
  if (job->direct) { /* one part: tile 0 applies, tiles 1 .. chunks resolve chunks for it (pipeline) */
    for (size_t t = start; t < start + count; ++t) {
      if (t > 0) {
        if (job->pipeline) take_chunk(job, t - 1);
        continue;
      }
      start_out(job, 0, job->dest_rows * row_bytes);
      uint32_t* hits = hits_of(job);
      if (hits) memset(hits, 0, job->dest_rows * sizeof *hits);
      if (job->nitems && !(job->pipeline ? apply_pipelined(job) : resolve_pieces(job, 0, job->nitems, apply_piece))) return 0;
      divide_rows(job, 0, job->dest_rows, hits);
    }
    return 1;
  }
  for (size_t p = start; p < start + count && p < job->parts; ++p) {
    size_t r0 = p << job->part_shift, rows = (size_t)1 << job->part_shift;
    if (r0 >= job->dest_rows) break;
    size_t r1 = job->dest_rows - r0 < rows ? job->dest_rows : r0 + rows;
    start_out(job, r0 * row_bytes, r1 * row_bytes);
    uint32_t* hits = hits_of(job);
    if (hits) memset(hits + r0, 0, (r1 - r0) * sizeof *hits);
    if (job->nitems && !apply_items(job, p, hits)) return 0;
    divide_rows(job, r0, r1, hits);
  }
  return 1;
}

/* The offsets mode (a plain write whose sources are the items in order, src_step apart): chunk
 * c's destination rows into the offsets tensor, for the caller to move the rows (js/call.mjs). */
static int run_offsets(void* ctx, size_t start, size_t count) {
  const wg_scatter_job* job = ctx;
  for (size_t c = start; c < start + count; ++c) {
    size_t q0, n = chunk_range(job, c, &q0);
    if (!job->resolve(job, q0, n, job->offsets + q0, NULL)) return 0;
  }
  return 1;
}

/* wg_scatter_force_parts's (op.h): 0, or the parts every plan that can sort sorts into. */
static atomic_size_t forced_parts;

void wg_scatter_force_parts(size_t parts) {
  atomic_store_explicit(&forced_parts, parts, memory_order_relaxed);
}

static void bind_scatter(void* ctx, const wg_call* c, size_t threads) {
  wg_scatter_job* job = ctx;
  const wg_tensor* idx = &c->tensors[WG_TENSOR_indices];
  job->data = c->tensors[WG_TENSOR_data].ptr;
  job->out = c->tensors[WG_TENSOR_out].ptr;
  job->updates = c->tensors[WG_TENSOR_updates].ptr;
  job->indices = idx->ptr;
  job->index_type = (wg_index_type)wg_index_type_of(idx->dtype);
  job->mode = (wg_oob_mode)c->attrs[WG_ATTR_out_of_range];
  job->negative = (wg_negative_mode)c->attrs[WG_ATTR_negative_indices];
  job->workspace = c->tensors[WG_TENSOR_workspace].ptr;
  job->offsets = job->offers_offsets ? c->tensors[WG_TENSOR_offsets].ptr : NULL;
  size_t forced = atomic_load_explicit(&forced_parts, memory_order_relaxed);
  forced = job->sort_threads == SIZE_MAX ? 0 : forced;
  job->direct = !forced && threads < job->sort_threads;
  /* A few parts a thread, for balance; any number gives the same result. */
  size_t parts = forced ? forced : threads > 1 && !job->direct ? threads * 4 : 1;
  job->pipeline = threads > 1 && job->direct && job->slabs == 1 && job->chunks > 1 && job->workspace && !job->offsets;
  if (job->pipeline) {
    for (size_t k = 0; k < job->chunks; ++k) atomic_init(&chunk_states(job)[k], CHUNK_OPEN);
  }
  if (parts > job->max_parts) parts = job->max_parts;
  /* A part is a power of 2 of rows, so that an update's part is a shift, not a division (which
   * cost more than the rest of the sort); the parts that hold rows are then at most `parts`. */
  job->part_shift = 0;
  while (job->part_shift + 1 < sizeof(size_t) * 8 && ((size_t)parts << job->part_shift) < job->dest_rows) {
    job->part_shift++;
  }
  job->parts = parts > 1 ? ((job->dest_rows - 1) >> job->part_shift) + 1 : 1;
  wg_pick_reduce(job->dtype, job->reduce, &job->kernels); /* checked by the plan */
}

/* The stages' items once bound: a plan that may sort has the sort's stages, which a run on too
 * few threads to sort skips, and an apply stage for either (planned: the larger range). */
static size_t sort_range(const void* ctx, size_t planned) {
  return ((const wg_scatter_job*)ctx)->direct ? 0 : planned;
}

/* The apply stage's tiles on one part: tile 0 applies; with a pipeline, tiles 1 .. chunks resolve. */
static size_t one_part_tiles(const wg_scatter_job* job) { return job->keeps ? job->chunks + 1 : 1; }

static size_t apply_range(const void* ctx, size_t planned) {
  const wg_scatter_job* job = ctx;
  if (job->slabs > 1) return planned;
  return job->direct ? one_part_tiles(job) : job->max_parts;
}

const wg_stage_kind wg_stage_scatter_sort = {bind_scatter, run_sort, WG_STAGE_IN_RUN | WG_STAGE_CHECKS, sort_range};
const wg_stage_kind wg_stage_scatter_apply = {bind_scatter, run_apply, WG_STAGE_IN_RUN, apply_range};
const wg_stage_kind wg_stage_scatter_copy = {bind_scatter, run_copy, WG_STAGE_IN_RUN, NULL};
const wg_stage_kind wg_stage_scatter_offsets = {bind_scatter, run_offsets, WG_STAGE_IN_OFFSETS, NULL};

/* Adds n items of `size` bytes to the workspace at *end, aligned to 16 (SIZE_MAX once it overflows). */
static size_t ws_take(size_t* end, size_t n, size_t size) {
  size_t at = *end > SIZE_MAX - 15 ? SIZE_MAX : (*end + 15) & ~(size_t)15;
  if (at == SIZE_MAX || (size && n > (SIZE_MAX - 1 - at) / size)) { /* (rows of no bytes: none) */
    *end = SIZE_MAX;
    return 0;
  }
  *end = at + n * size;
  return at;
}

wg_status wg_plan_scatter(wg_plan* plan, wg_scatter_job* job, size_t elem_bytes, wg_error_info* err) {
  size_t out_count = wg_prod(plan->out_shape, 0, plan->out_rank);
  job->elem_bytes = elem_bytes;
  job->dtype = plan->out_dtype;
  plan->from_data = 1;
  /* nitems * row_elems elements of updates, in memory: no overflow */
  plan->work_bytes = job->nitems * job->row_elems * elem_bytes;
  if (out_count == 0 || out_count == SIZE_MAX) return WG_OK; /* nothing to write (the runner checks the indices) */
  job->chunk_items = job->nitems / WG_SCATTER_MAX_CHUNKS + 1;
  if (job->chunk_items < 1024) job->chunk_items = 1024;
  job->chunks = (job->nitems + job->chunk_items - 1) / job->chunk_items;
  job->max_parts = job->dest_rows < WG_SCATTER_MAX_PARTS ? job->dest_rows : WG_SCATTER_MAX_PARTS;
  job->hits = job->reduce == WG_REDUCE_MEAN || (job->reduce != WG_REDUCE_NONE && !job->include_self);
  /* Slabs, when the op has them: run in parallel as they are, nothing sorted or kept (S4: 2.3 ms
   * with the destinations kept and applied on one thread, 1.3 ms in slabs over 2). Not with counts
   * per destination row (the mean, include_self 0), whose rows a slab does not own as a range. */
  job->slabs = 1;
  if (job->slab_items && job->slab_items < job->nitems && !job->hits) {
    job->slabs = (job->nitems - 1) / job->slab_items + 1;
    job->max_parts = 1;
  }
  /* Direct: nothing sorted; in 'error' mode the runner checks every index first
   * (plan->check_first), in parallel, so that an error writes nothing. Slabs resolve their items
   * where they apply them, a piece at a time on the stack. So does one part on one thread; over
   * threads, it is a pipeline (apply_pipelined), its destinations kept in the workspace. That is
   * for rows too short to be worth the sort on a few threads: they are updated about as fast as
   * they are resolved, and sorted over 2 threads a 1M histogram took 2.9 ms where one thread took
   * 2.1 (S3). On WG_SCATTER_SORT_THREADS or more, the sort's stages in parallel outrun the one
   * applier, so such a plan lays out both and the bound thread count picks (bind_scatter).
   * Rows of 16-bit floats, converted at each update, and longer rows are always sorted. */
  int half = plan->out_dtype == WG_DTYPE_F16 || plan->out_dtype == WG_DTYPE_BF16;
  int short_rows = job->row_elems * elem_bytes < WG_SCATTER_MIN_GROUPED_ROW && !half;
  job->sort_threads = job->max_parts == 1 || job->one_part ? SIZE_MAX : !short_rows ? 1 : WG_SCATTER_SORT_THREADS;
#ifdef WG_NO_THREADS
  if (job->sort_threads > 1) job->sort_threads = SIZE_MAX; /* one thread, ever */
#endif
  if (job->sort_threads > 1 && job->chunks <= 1) job->sort_threads = SIZE_MAX; /* nothing to share */
  if (job->sort_threads == SIZE_MAX) job->max_parts = 1;
  int sorts = job->sort_threads != SIZE_MAX, one_part = job->sort_threads != 1;
  job->keeps = sorts || (job->slabs == 1 && job->chunks > 1); /* the destinations */
  size_t end = 0;
  job->ws_dest = job->keeps ? ws_take(&end, job->nitems, sizeof(size_t)) : 0;
  job->ws_src = job->keeps && job->src_map ? ws_take(&end, job->nitems, sizeof(size_t)) : 0;
  job->ws_counts = sorts ? ws_take(&end, job->chunks * (job->max_parts + 1), sizeof(size_t)) : 0;
  /* sorted: long rows as item numbers, short ones as destinations and copies of their rows */
  job->sorts_rows = sorts && short_rows;
  int value_form = !job->src_map && !job->src_step;
  job->ws_order = sorts && !short_rows ? ws_take(&end, job->nitems, sizeof(size_t)) : 0;
  job->ws_sorted_dest = job->sorts_rows ? ws_take(&end, job->nitems, sizeof(size_t)) : 0;
  job->ws_sorted_rows = job->sorts_rows && !value_form ? ws_take(&end, job->nitems, job->row_elems * elem_bytes) : 0;
  job->ws_state = job->keeps && one_part ? ws_take(&end, job->chunks, sizeof(atomic_int)) : 0;
  job->ws_hits = job->hits ? ws_take(&end, job->dest_rows, sizeof(uint32_t)) : 0;
  if (end == SIZE_MAX) return wg_fail(err, WG_ERR_SIZE_OVERFLOW, WG_ARG_NONE, -1, -1, -1);
  plan->workspace_bytes = end; /* none at all for one part without counts */
  plan->workspace_align = sizeof(size_t); /* its arrays: size_t and uint32_t */
  /* one part (or no items) has no sort stage: the runner checks the indices first (not when the
   * sort runs: it checks them, WG_STAGE_CHECKS) */
  plan->check_first = one_part || job->chunks == 0;
  /* A plain write of rows taken in item order can be left to the caller: the offsets mode. */
  job->offers_offsets = job->reduce == WG_REDUCE_NONE && !job->src_map && job->src_step && job->nitems;
  if (job->offers_offsets) {
    plan->offsets_blocks = job->nitems;
    wg_plan_stage(plan, &wg_stage_scatter_offsets, job, job->chunks, 1);
  }
  if (sorts) { /* apply: parts, or on one part chunks + 1 (apply_range) */
    wg_plan_stage(plan, &wg_stage_scatter_sort, job, job->chunks, 1);
    size_t apply = one_part && one_part_tiles(job) > job->max_parts ? one_part_tiles(job) : job->max_parts;
    wg_plan_stage(plan, &wg_stage_scatter_apply, job, apply, 1);
  } else if (job->slabs > 1) {
    size_t bytes = out_count * elem_bytes; /* the output is in memory: no overflow */
    wg_plan_stage(plan, &wg_stage_scatter_copy, job, (bytes - 1) / COPY_TILE + 1, 1);
    /* slabs a tile by their updates' bytes: a short slab is less work than handing it out */
    wg_plan_stage(plan, &wg_stage_scatter_apply, job, job->slabs,
                  wg_tile_for(job->slab_items * job->row_elems * elem_bytes));
  } else {
    wg_plan_stage(plan, &wg_stage_scatter_apply, job, one_part_tiles(job), 1);
  }
  return WG_OK;
}

wg_status wg_scatter_begin(const wg_call* c, wg_plan* plan, wg_scatter_job* job, int reductions,
                           size_t* elem_bytes, wg_error_info* err) {
  const wg_tensor* data = &c->tensors[WG_TENSOR_data];
  const wg_tensor* updates = &c->tensors[WG_TENSOR_updates];
  int32_t reduce = reductions ? c->attrs[WG_ATTR_reduce] : WG_REDUCE_NONE;
  int32_t self = reductions ? c->attrs[WG_ATTR_include_self] : 1;
  *elem_bytes = wg_elem_bytes(data);
  if (!*elem_bytes) return wg_fail(err, WG_ERR_INVALID_ARGUMENT, WG_ARG_DATA, -1, -1, -1);
  if (updates->dtype != data->dtype) {
    return wg_fail(err, WG_ERR_UPDATES_TYPE, WG_ARG_UPDATES, -1, updates->dtype, data->dtype);
  }
  wg_reduce_kernels k;
  if ((reduce == WG_REDUCE_MEAN && reductions != WG_SCATTER_WITH_MEAN) || !wg_pick_reduce(data->dtype, reduce, &k)) {
    return wg_fail(err, WG_ERR_REDUCE, WG_ARG_REDUCE, -1, reduce, -1);
  }
  if (self != 0 && self != 1) return wg_fail(err, WG_ERR_REDUCE, WG_ARG_REDUCE, -1, self, 1);
  job->reduce = reduce;
  job->include_self = self;
  wg_plan_append(plan, data->shape, 0, data->rank);
  plan->out_dtype = data->dtype;
  return WG_OK;
}

wg_status wg_check_updates(const wg_tensor* updates, const size_t* want, size_t rank,
                           wg_error_info* err) {
  if (updates->rank != rank) {
    return wg_fail(err, WG_ERR_UPDATES_SHAPE, WG_ARG_UPDATES, -1, (int64_t)updates->rank, (int64_t)rank);
  }
  for (size_t d = 0; d < rank; ++d) {
    if (updates->shape[d] != want[d]) {
      return wg_fail(err, WG_ERR_UPDATES_SHAPE, WG_ARG_UPDATES, (int64_t)d,
                     (int64_t)updates->shape[d], (int64_t)want[d]);
    }
  }
  return WG_OK;
}
