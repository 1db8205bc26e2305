#include "stage_scatter.h"

#include <string.h>

#include "index_resolve.h"

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

/* Direct (one part): items q0 .. q0 + n resolved WG_SEGMENT at a time into the stack, each
 * piece handed to fn (0 from the resolver: a bad index). */
typedef void (*piece_fn)(const wg_scatter_job* job, size_t q0, size_t k, const size_t* dest, const size_t* src);
static int resolve_pieces(const wg_scatter_job* job, size_t q0, size_t n, piece_fn fn) {
  size_t dest[WG_SEGMENT], src[WG_SEGMENT];
  for (size_t j = 0; j < n;) {
    size_t k = n - j < WG_SEGMENT ? n - j : WG_SEGMENT;
    if (!job->resolve(job, q0 + j, k, dest, job->src_map ? src : NULL)) return 0;
    if (fn) fn(job, q0 + j, k, dest, src);
    j += k;
  }
  return 1;
}

/* 1. Each chunk's destinations, and with parts, how many of them each part receives (direct:
 * nothing to do). */
static int run_resolve(void* ctx, size_t start, size_t count) {
  const wg_scatter_job* job = ctx;
  for (size_t c = start; c < start + count; ++c) {
    size_t q0, n = chunk_range(job, c, &q0);
    if (job->direct) continue; /* resolved where applied (never in 'error' mode) */
    size_t* dest = ws_array(job, job->ws_dest) + q0;
    size_t* src = job->src_map ? ws_array(job, job->ws_src) + q0 : NULL;
    if (!job->resolve(job, q0, n, dest, src)) return 0;
    if (job->parts > 1) {
      size_t* counts = ws_array(job, job->ws_counts) + c * job->max_parts;
      memset(counts, 0, job->parts * sizeof *counts);
      for (size_t j = 0; j < n; ++j) {
        if (dest[j] != WG_ZERO_BLOCK) counts[dest[j] >> job->part_shift]++;
      }
    }
  }
  return 1;
}

/* Where part p's items start in order[], and how many there are. */
static size_t part_start(const wg_scatter_job* job, size_t p, size_t* size) {
  const size_t* counts = ws_array(job, job->ws_counts);
  size_t start = 0, n = 0;
  for (size_t c = 0; c < job->chunks; ++c) {
    for (size_t k = 0; k < p; ++k) start += counts[c * job->max_parts + k];
    n += counts[c * job->max_parts + p];
  }
  *size = n;
  return start;
}

/* 2. The stable counting sort: chunk c's items go after those of earlier chunks in each part. */
static int run_place(void* ctx, size_t start, size_t count) {
  const wg_scatter_job* job = ctx;
  if (job->parts <= 1) return 1;
  const size_t* counts = ws_array(job, job->ws_counts);
  size_t* order = ws_array(job, job->ws_order);
  for (size_t c = start; c < start + count; ++c) {
    /* part p's items start after those of parts before it; chunk c's, after earlier chunks' */
    size_t next[WG_SCATTER_MAX_PARTS], at = 0;
    for (size_t p = 0; p < job->parts; ++p) {
      size_t before = 0, total = 0;
      for (size_t e = 0; e < job->chunks; ++e) {
        size_t k = counts[e * job->max_parts + p];
        total += k;
        if (e < c) before += k;
      }
      next[p] = at + before;
      at += total;
    }
    size_t q0, n = chunk_range(job, c, &q0);
    const size_t* dest = ws_array(job, job->ws_dest) + q0;
    for (size_t j = 0; j < n; ++j) {
      if (dest[j] != WG_ZERO_BLOCK) order[next[dest[j] >> job->part_shift]++] = q0 + j;
    }
  }
  return 1;
}

static uint32_t* hits_of(const wg_scatter_job* job) {
  return job->hits ? (uint32_t*)(void*)(job->workspace + job->ws_hits) : NULL;
}

/* An item applied to its destination row r from its source row at element `first`, counted
 * (hits: the mean, include_self 0). */
static inline void apply_item(const wg_scatter_job* job, size_t r, size_t first, uint32_t* hits) {
  uint8_t* dst = job->out + r * job->row_elems * job->elem_bytes;
  if (hits && hits[r]++ == 0 && !job->include_self) job->kernels.identity(dst, job->row_elems);
  job->kernels.reduce(dst, job->updates + first * job->elem_bytes, job->row_elems,
                      job->src_map || job->src_step ? 1 : 0);
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
    if (dest[j] != WG_ZERO_BLOCK) apply_item(job, dest[j], job->src_map ? src[j] : (q0 + j) * job->src_step, hits);
  }
}

/* Part p's items (nitems > 0), in order: resolved a piece at a time (direct), or as the sort
 * placed them. Returns 0 at a bad index (never: the resolve stage checked them). */
static int apply_items(const wg_scatter_job* job, size_t p, uint32_t* hits) {
  if (job->direct) return resolve_pieces(job, 0, job->nitems, apply_piece);
  const size_t* dest = ws_array(job, job->ws_dest);
  const size_t* srcs = job->src_map ? ws_array(job, job->ws_src) : NULL;
  size_t n = job->nitems;
  const size_t* order = NULL; /* one part: every item, in order */
  if (job->parts > 1) order = ws_array(job, job->ws_order) + part_start(job, p, &n);
  if (!hits) {
    job->kernels.apply(job->out, job->updates, dest, order, srcs, n, job->row_elems, job->src_step);
    return 1;
  }
  for (size_t k = 0; k < n; ++k) {
    size_t q = order ? order[k] : k;
    if (dest[q] != WG_ZERO_BLOCK) apply_item(job, dest[q], srcs ? srcs[q] : q * job->src_step, hits);
  }
  return 1;
}

/* 3. Part p: its rows of data into out (unless in place), its items in order, the mean's end. */
static int run_apply(void* ctx, size_t start, size_t count) {
  const wg_scatter_job* job = ctx;
  size_t row_bytes = job->row_elems * job->elem_bytes;
  for (size_t p = start; p < start + count && p < job->parts; ++p) {
    size_t r0 = p << job->part_shift, rows = (size_t)1 << job->part_shift;
    if (r0 >= job->dest_rows) break;
    size_t r1 = job->dest_rows - r0 < rows ? job->dest_rows : r0 + rows;
    if (job->out != job->data) memcpy(job->out + r0 * row_bytes, job->data + r0 * row_bytes, (r1 - r0) * row_bytes);
    uint32_t* hits = hits_of(job);
    if (hits) memset(hits + r0, 0, (r1 - r0) * sizeof *hits);
    if (job->nitems && !apply_items(job, p, hits)) return 0;
    if (job->kernels.divide) {
      for (size_t r = r0; r < r1; ++r) {
        if (hits[r]) job->kernels.divide(job->out + r * row_bytes, job->row_elems, hits[r] + (job->include_self != 0));
      }
    }
  }
  return 1;
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
  /* A few parts a thread, for balance; any number gives the same result. */
  size_t parts = threads > 1 ? threads * 4 : 1;
  if (parts > job->max_parts) parts = job->max_parts;
  /* A part is a power of 2 of rows, so that an update's part is a shift, not a division (which
   * cost more than the rest of the sort); the parts that hold rows are then at most `parts`. */
  job->part_shift = 0;
  while (job->part_shift + 1 < sizeof(size_t) * 8 && ((size_t)parts << job->part_shift) < job->dest_rows) {
    job->part_shift++;
  }
  job->parts = parts > 1 ? ((job->dest_rows - 1) >> job->part_shift) + 1 : 1;
  wg_pick_reduce(c->tensors[WG_TENSOR_data].dtype, job->reduce, &job->kernels); /* checked by the plan */
}

const wg_stage_kind wg_stage_scatter_resolve = {bind_scatter, run_resolve};
const wg_stage_kind wg_stage_scatter_place = {bind_scatter, run_place};
const wg_stage_kind wg_stage_scatter_apply = {bind_scatter, run_apply};

/* Adds n items of `size` bytes to the workspace at *end, aligned to 16 (SIZE_MAX once it overflows). */
static size_t ws_take(size_t* end, size_t n, size_t size) {
  size_t at = *end > SIZE_MAX - 15 ? SIZE_MAX : (*end + 15) & ~(size_t)15;
  if (at == SIZE_MAX || n > (SIZE_MAX - 1 - at) / size) {
    *end = SIZE_MAX;
    return 0;
  }
  *end = at + n * size;
  return at;
}

wg_status wg_plan_scatter(wg_plan* plan, wg_scatter_job* job, size_t elem_bytes, wg_error_info* err) {
  size_t out_count = wg_prod(plan->out_shape, 0, plan->out_rank);
  job->elem_bytes = elem_bytes;
  plan->from_data = 1;
  /* nitems * row_elems elements of updates, in memory: no overflow */
  plan->work_bytes = job->nitems * job->row_elems * elem_bytes;
  if (out_count == 0 || out_count == SIZE_MAX) return WG_OK; /* nothing to write (the runner checks the indices) */
  job->chunk_items = job->nitems / WG_SCATTER_MAX_CHUNKS + 1;
  if (job->chunk_items < 1024) job->chunk_items = 1024;
  job->chunks = (job->nitems + job->chunk_items - 1) / job->chunk_items;
  job->max_parts = job->dest_rows < WG_SCATTER_MAX_PARTS ? job->dest_rows : WG_SCATTER_MAX_PARTS;
  /* Rows this short are updated about as fast as they are sorted: grouped over 2 threads a 1M
   * histogram took 2.9 ms where one thread takes 2.1 (npm run bench, S3 and S4). They run on one
   * thread, without the sort's workspace; rows of 16-bit floats, converted at each update, and
   * longer rows are grouped. */
  int half = plan->out_dtype == WG_DTYPE_F16 || plan->out_dtype == WG_DTYPE_BF16;
  if (job->row_elems * elem_bytes < WG_SCATTER_MIN_GROUPED_ROW && !half) job->max_parts = 1;
  job->hits = job->reduce == WG_REDUCE_MEAN || (job->reduce != WG_REDUCE_NONE && !job->include_self);
  /* One part, outside 'error' mode: the items are resolved where they are applied, a piece at a
   * time on the stack, and none is kept. ('error' mode checks every index before anything is
   * written; resolving them twice costs more than keeping them: S3 2.2 -> 4.0 ms.) */
  job->direct = job->max_parts == 1 && job->planned_mode != WG_OOB_ERROR;
  size_t end = 0;
  job->ws_dest = job->direct ? 0 : ws_take(&end, job->nitems, sizeof(size_t));
  job->ws_src = job->src_map && !job->direct ? ws_take(&end, job->nitems, sizeof(size_t)) : 0;
  job->ws_counts = job->max_parts > 1 ? ws_take(&end, job->chunks * job->max_parts, sizeof(size_t)) : 0;
  job->ws_order = job->max_parts > 1 ? ws_take(&end, job->nitems, sizeof(size_t)) : 0;
  job->ws_hits = job->hits ? ws_take(&end, job->dest_rows, sizeof(uint32_t)) : 0;
  if (end == SIZE_MAX) return wg_fail(err, WG_ERR_SIZE_OVERFLOW, WG_ARG_NONE, -1, -1, -1);
  plan->workspace_bytes = end; /* none at all for one part without counts */
  plan->workspace_align = sizeof(size_t); /* its arrays: size_t and uint32_t */
  plan->check_first = job->chunks == 0; /* no resolve stage: the runner checks the indices first */
  if (job->chunks) wg_plan_stage(plan, &wg_stage_scatter_resolve, job, job->chunks, 1);
  if (job->chunks && job->max_parts > 1) wg_plan_stage(plan, &wg_stage_scatter_place, job, job->chunks, 1);
  wg_plan_stage(plan, &wg_stage_scatter_apply, job, job->max_parts, 1);
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
  job->planned_mode = c->attrs[WG_ATTR_out_of_range];
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
