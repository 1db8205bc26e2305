/* embedding_bag_backward: the gradient of the bags' forward (its op file's) for its table, and
 * for its per-sample weights. For the table, entry i of bag b adds s_i * grad[b] to the row it
 * selected, fused: no row is gathered into memory first. The entries are sorted by their rows (a
 * counting sort, stable) and the rows visited in address order (stage_add_rows.h), each row's
 * entries in entry order: the same bits at any thread count, and a table's scattered rows read
 * and written about as a stream is. s_i is the entry's weight (1 without) over
 * the forward's divisor (1, the bag's count, the weights' sum, or the root of the count or of the
 * weights' squares), rounded to the type, and each row is added as a fused multiply-add, as
 * torch 1.13's CPU backward adds it (axpy in _embedding_bag_dense_backward_cpu_sum_mean,
 * https://github.com/pytorch/pytorch/blob/v1.13.1/aten/src/ATen/native/EmbeddingBag.cpp).
 * max: each element's gradient goes to the row its maximum came from (the forward's max indices),
 * but a bag of no entry the forward counts (empty, or padding only) is a constant and gets none, as
 * torch's _embedding_bag_dense_backward_cpu_max skips it.
 * The weights' gradient: entry i's grad[b] . table[row] (stage_dot.h), as
 * _embedding_bag_per_sample_weights_backward_cpu. Semantics: docs/fused-gather-reduce.md. */
#include <math.h>
#include <string.h>

#include "index_resolve.h"
#include "op.h"
#include "stage_bag.h"
#include "stage_add_rows.h"
#include "stage_dot.h"
#include "stage_scatter.h"

typedef struct backward_plan {
  wg_plan plan; /* first, as every op's */
  wg_scatter_job job; /* max: a scatter-add of the gradient's elements */
  wg_add_rows_job add; /* the others: the gradient's rows added into the rows the entries read */
  wg_bag_job bags; /* the segments (their rules and starts) and the entries' rows: not a stage */
  wg_dot_job dots; /* the weights' gradient */
  size_t dim;      /* elements a row */
  int max, accumulate;
  int scaled; /* the entries' rows are scaled (mean, sqrtn, weights): ws_scales */
  int adds; /* the rows are added (not max, an output that is not empty): the entries' order by row */
  size_t ws_starts, ws_bag_of, ws_rows, ws_scales, ws_srcs, ws_row_starts, ws_order; /* the workspace */
  const int32_t* max_indices;
  const size_t* live; /* max: each bag's count of entries not padding (0: no gradient) */
} backward_plan;

/* max: element q of the gradient (bag q / dim, column q % dim) to the same column of the row its
 * maximum came from (validate checked them: -1 or a row). */
static int max_resolve(const wg_scatter_job* job, size_t q, size_t n, size_t* dest, size_t* src) {
  const backward_plan* r = WG_CONTAINER_OF(job, const backward_plan, job);
  (void)src;
  for (size_t j = 0; j < n; ++j) {
    int32_t v = r->max_indices[q + j];
    dest[j] = v < 0 || !r->live[(q + j) / r->dim] ? WG_ZERO_BLOCK : (size_t)v * r->dim + (q + j) % r->dim;
  }
  return 1;
}

static size_t* ws_at(const wg_call* c, size_t offset) {
  uint8_t* ws = c->tensors[WG_TENSOR_workspace].ptr; /* NULL: the plan asked for none */
  return ws ? (size_t*)(void*)(ws + offset) : NULL;
}

/* An entry's weight, in float64. */
static double weight_at(const wg_bag_job* t, size_t q) {
  return t->value == WG_BAG_F64 ? ((const double*)t->weights)[q] : ((const float*)t->weights)[q];
}

/* The entries' scales (the added rows'): the weight over the forward's divisor, a bag at
 * a time: its count (entries not padding; dropped ones counted), the weights' sum and sum of
 * squares, each rounded to the type as the forward's are (stage_bag.c). */
static void entry_scales(backward_plan* r, const size_t* starts, const size_t* rows) {
  const wg_bag_job* t = &r->bags;
  const int f32 = t->value != WG_BAG_F64;
  for (size_t b = 0; b < t->bags; ++b) {
    size_t s0 = t->form == WG_SEGMENTS_FIXED ? b * t->fixed : starts[b];
    size_t s1 = t->form == WG_SEGMENTS_FIXED ? s0 + t->fixed : starts[b + 1];
    double count = 0, wsum = 0, w2sum = 0;
    for (size_t q = s0; q < s1; ++q) {
      if (rows[q] == SIZE_MAX - 1) continue; /* padding */
      count += 1;
      if (t->weighted) {
        double w = weight_at(t, q), w2 = f32 ? (float)(w * w) : w * w;
        wsum = f32 ? (float)(wsum + w) : wsum + w;
        w2sum = f32 ? (float)(w2sum + w2) : w2sum + w2;
      }
    }
    double by = 1;
    if (t->reduce == WG_REDUCE_MEAN) by = t->weighted ? wsum : count;
    if (t->reduce == WG_REDUCE_SQRTN) by = sqrt(t->weighted ? w2sum : count), by = f32 ? (float)by : by;
    for (size_t q = s0; q < s1; ++q) {
      double s = (t->weighted ? weight_at(t, q) : 1) / by;
      if (f32) ((float*)(void*)r->add.scales)[q] = (float)s;
      else ((double*)(void*)r->add.scales)[q] = s;
    }
  }
}

/* What only the run can read, before any stage: the segments (their rules, and each entry's bag),
 * the max indices, the entries' rows (for the scales and the weights' gradient), and the start of
 * the output (zeros, or the gradient it adds into). */
static wg_status backward_validate(const wg_plan* plan, const wg_call* c, wg_error_info* err) {
  /* the record's plan, writable: the hook sets what the run reads */
  backward_plan* r = (backward_plan*)(void*)(uintptr_t)plan;
  wg_bag_job* t = &r->bags;
  wg_scatter_job* job = &r->job;
  job->data = r->accumulate ? job->out : NULL;
  const wg_tensor* seg = &c->tensors[WG_TENSOR_segments];
  t->segments = seg->ptr;
  t->segments_type = (wg_index_type)wg_index_type_of(seg->dtype);
  t->starts = t->form == WG_SEGMENTS_FIXED ? NULL : ws_at(c, r->ws_starts);
  t->weights = t->weighted ? c->tensors[WG_TENSOR_weights].ptr : NULL;
  t->index_type = (wg_index_type)wg_index_type_of(c->tensors[WG_TENSOR_indices].dtype);
  t->mode = (wg_oob_mode)c->attrs[WG_ATTR_out_of_range];
  t->negative = (wg_negative_mode)c->attrs[WG_ATTR_negative_indices];
  wg_status st = wg_bag_check_segments(t, err);
  if (st != WG_OK) return st;
  if (r->max) {
    r->max_indices = c->tensors[WG_TENSOR_max_indices].ptr;
    size_t n = r->bags.bags * r->dim;
    for (size_t q = 0; q < n; ++q) {
      int32_t v = r->max_indices[q];
      if (v < -1 || (v >= 0 && (size_t)v >= t->rows)) {
        st = wg_fail(err, WG_ERR_MAX_INDICES, WG_ARG_MAX_INDICES, 0, v, (int64_t)t->rows);
        err->position = (int64_t)q;
        return st;
      }
    }
    /* each bag's entries that are not padding (a bad index: the runner reports it before any stage) */
    size_t* live = ws_at(c, r->ws_bag_of);
    size_t* rows = ws_at(c, r->ws_rows);
    if (t->has_padding && wg_resolve_indices(c->tensors[WG_TENSOR_indices].ptr, t->index_type, 0, 1, t->entries, t->rows, 0, 1,
                                             t->mode, t->negative, 0, rows) != WG_OK) {
      return WG_OK;
    }
    for (size_t b = 0; b < t->bags; ++b) {
      size_t s0 = t->form == WG_SEGMENTS_FIXED ? b * t->fixed : t->starts[b];
      size_t s1 = t->form == WG_SEGMENTS_FIXED ? s0 + t->fixed : t->starts[b + 1];
      live[b] = 0;
      for (size_t q = s0; q < s1; ++q) live[b] += !t->has_padding || rows[q] != t->padding;
    }
    r->live = live;
    return WG_OK;
  }
  size_t* bag_of = ws_at(c, r->ws_bag_of);
  for (size_t q = 0; q < t->entries; ++q) bag_of[q] = SIZE_MAX;
  for (size_t b = 0; b < t->bags; ++b) {
    size_t s0 = t->form == WG_SEGMENTS_FIXED ? b * t->fixed : t->starts[b];
    size_t s1 = t->form == WG_SEGMENTS_FIXED ? s0 + t->fixed : t->starts[b + 1];
    for (size_t q = s0; q < s1; ++q) bag_of[q] = b;
  }
  /* the entries' rows: SIZE_MAX dropped, SIZE_MAX - 1 on padding (a bad index: nothing runs, and
   * the runner reports it) */
  wg_add_rows_job* add = &r->add;
  add->starts = NULL;
  size_t* rows = ws_at(c, r->ws_rows);
  if (!t->entries || wg_resolve_indices(c->tensors[WG_TENSOR_indices].ptr, t->index_type, 0, 1, t->entries, t->rows, 0, 1,
                                        t->mode, t->negative, 0, rows) != WG_OK) {
    if (!t->entries) goto sorted; /* nothing to add (the rows, if any, zeroed by the stage) */
    return WG_OK;
  }
  for (size_t q = 0; q < t->entries; ++q) {
    if (bag_of[q] == SIZE_MAX) rows[q] = SIZE_MAX; /* in no bag: nothing */
    else if (rows[q] != WG_ZERO_BLOCK && t->has_padding && rows[q] == t->padding) rows[q] = SIZE_MAX - 1;
  }
  if (r->scaled) {
    add->scales = ws_at(c, r->ws_scales);
    entry_scales(r, t->starts, rows);
  }
  if (r->adds) {
    /* the entries that add a row, sorted by it (a counting sort: each row's in entry order) */
    size_t* row_starts = ws_at(c, r->ws_row_starts);
    size_t* order = ws_at(c, r->ws_order);
    size_t* srcs = ws_at(c, r->ws_srcs);
    memset(row_starts, 0, (t->rows + 1) * sizeof *row_starts);
    for (size_t q = 0; q < t->entries; ++q) {
      if (rows[q] < t->rows) row_starts[rows[q] + 1]++;
    }
    for (size_t k = 0; k < t->rows; ++k) row_starts[k + 1] += row_starts[k];
    for (size_t q = 0; q < t->entries; ++q) { /* placed from the starts, then shifted back one row */
      size_t k = rows[q];
      if (k >= t->rows) continue;
      order[row_starts[k]++] = q;
      srcs[q] = bag_of[q] * r->dim;
    }
    memmove(row_starts + 1, row_starts, t->rows * sizeof *row_starts);
    row_starts[0] = 0;
    add->order = order;
    add->srcs = srcs;
    add->dest = rows;
    add->starts = row_starts;
  }
sorted:
  if (r->adds && !add->starts) add->starts = ws_at(c, r->ws_row_starts), memset((void*)add->starts, 0, (t->rows + 1) * sizeof(size_t));
  add->out = c->tensors[WG_TENSOR_out].ptr;
  add->src = c->tensors[WG_TENSOR_updates].ptr;
  if (r->dots.items) {
    for (size_t q = 0; q < t->entries; ++q) {
      if (rows[q] == SIZE_MAX - 1) rows[q] = SIZE_MAX;
    }
    r->dots.a = c->tensors[WG_TENSOR_updates].ptr;
    r->dots.b = c->tensors[WG_TENSOR_table].ptr;
    r->dots.a_rows = bag_of;
    r->dots.b_rows = rows;
    r->dots.out = c->tensors[WG_TENSOR_out_weights].ptr;
  }
  return WG_OK;
}

/* Adds n items of `size` bytes to the plan's workspace (aligned to 16), returning their offset. */
static size_t ws_add(wg_plan* p, size_t n, size_t size, wg_error_info* err, wg_status* st) {
  size_t at = (p->workspace_bytes + 15) & ~(size_t)15;
  if (at < p->workspace_bytes || (n && size > (SIZE_MAX - at) / n)) {
    *st = wg_fail(err, WG_ERR_SIZE_OVERFLOW, WG_ARG_NONE, -1, -1, -1);
    return 0;
  }
  p->workspace_bytes = at + n * size;
  return at;
}

/* grad rank >= 1, float32 or float64, its rows the bags; indices and the bags' forms as
 * the forward's; mode sum, mean, sqrtn or max (with max indices of grad's shape, -1 or a row);
 * weights as the forward's; padding_idx in [-rows, rows); num_weights >= 0; the weights'
 * gradient (out_weights given) needs weights, mode sum and the table [rows, ...grad's row].
 * Output: [num_weights, ...grad.shape[1:]], grad's type; with accumulate, added into out. */
static wg_status plan_backward(const wg_call* c, backward_plan* r, wg_error_info* err) {
  const wg_tensor* grad = &c->tensors[WG_TENSOR_updates];
  wg_plan* p = &r->plan;
  /* the record's plan words past the wg_plan hold the last call's (the engine clears only the wg_plan) */
  memset((uint8_t*)r + sizeof r->plan, 0, sizeof *r - sizeof r->plan);
  wg_bag_job* t = &r->bags;
  if (grad->rank < 1) return wg_fail(err, WG_ERR_GRAD_SHAPE, WG_ARG_UPDATES, -1, 0, 1);
  if (grad->dtype != WG_DTYPE_F32 && grad->dtype != WG_DTYPE_F64) {
    return wg_fail(err, WG_ERR_VALUE_TYPE, WG_ARG_UPDATES, -1, grad->dtype, -1);
  }
  t->value = grad->dtype == WG_DTYPE_F64 ? WG_BAG_F64 : WG_BAG_F32;
  p->out_dtype = grad->dtype;
  size_t elem = wg_dtype_bits(grad->dtype) / 8;
  wg_status st = wg_bag_indices(c, t, err);
  if (st != WG_OK) return st;
  r->max = t->reduce == WG_REDUCE_MAX;
  int32_t num_weights = c->attrs[WG_ATTR_num_weights];
  if (num_weights < 0) return wg_fail(err, WG_ERR_INVALID_ARGUMENT, WG_ARG_OUT, 0, num_weights, 0);
  t->rows = (size_t)num_weights;
  r->dim = wg_prod(grad->shape, 1, grad->rank);
  if (grad->shape[0] != t->bags) return wg_fail(err, WG_ERR_GRAD_SHAPE, WG_ARG_UPDATES, 0, (int64_t)grad->shape[0], (int64_t)t->bags);
  st = wg_bag_weights_padding(c, t, grad->dtype, err);
  if (st != WG_OK) return st;
  if (r->max) {
    const wg_tensor* mi = &c->tensors[WG_TENSOR_max_indices];
    int same = mi->dtype == WG_DTYPE_I32 && mi->rank == grad->rank;
    for (size_t d = 0; same && d < grad->rank; ++d) same = mi->shape[d] == grad->shape[d];
    if (!same) return wg_fail(err, WG_ERR_MAX_INDICES, WG_ARG_MAX_INDICES, -1, mi->dtype, grad->dtype);
  }
  const int weights_grad = c->tensors[WG_TENSOR_table].dtype != WG_DTYPE_NONE;
  if (weights_grad) {
    const wg_tensor* table = &c->tensors[WG_TENSOR_table];
    if (!t->weighted || t->reduce != WG_REDUCE_ADD) return wg_fail(err, WG_ERR_TABLE, WG_ARG_TABLE, -4, t->reduce, t->weighted);
    if (table->dtype == WG_DTYPE_NONE) return wg_fail(err, WG_ERR_TABLE, WG_ARG_TABLE, -2, -1, -1);
    if (table->dtype != grad->dtype) return wg_fail(err, WG_ERR_TABLE, WG_ARG_TABLE, -3, table->dtype, grad->dtype);
    if (table->rank != grad->rank) return wg_fail(err, WG_ERR_TABLE, WG_ARG_TABLE, -1, (int64_t)table->rank, (int64_t)grad->rank);
    for (size_t d = 0; d < grad->rank; ++d) {
      size_t want = d == 0 ? t->rows : grad->shape[d];
      if (table->shape[d] != want) return wg_fail(err, WG_ERR_TABLE, WG_ARG_TABLE, (int64_t)d, (int64_t)table->shape[d], (int64_t)want);
    }
    p->out_weights = 1;
  }
  r->accumulate = c->attrs[WG_ATTR_accumulate] != 0;
  p->out_shape[p->out_rank++] = t->rows;
  wg_plan_append(p, grad->shape, 1, grad->rank);
  /* every index checked, in a bag or not (as the forward), before anything is written */
  p->check = (wg_index_check){.depth = 1, .dim_sizes = &t->rows, .first_dim = 0};
  p->check_first = 1;
  int empty_out = t->rows == 0 || r->dim == 0;
  if (r->max) {
    r->job = (wg_scatter_job){.nitems = empty_out ? 0 : t->bags * r->dim, .row_elems = 1, .dest_rows = t->rows * r->dim,
                              .src_step = 1, .resolve = max_resolve, .reduce = WG_REDUCE_ADD, .include_self = 1,
                              .one_part = 1 /* so that the runner checks the indices, which its items are not */};
    st = wg_plan_scatter(p, &r->job, elem, err);
    if (st != WG_OK) return st;
  } else {
    r->add = (wg_add_rows_job){.rows = t->rows, .row_elems = r->dim, .elem_bytes = elem, .dtype = grad->dtype,
                               .zero = !r->accumulate};
    if (!empty_out) wg_plan_add_rows(p, &r->add);
  }
  p->check_first = 1;
  /* the workspace past the scatter-add's (max): the segments' starts, then each bag's live count
   * (max), or each entry's bag, row, scale (mean, sqrtn, weights), source row, and the entries'
   * order by row with each row's start */
  r->scaled = !r->max && (t->weighted || t->reduce != WG_REDUCE_ADD);
  if (t->form != WG_SEGMENTS_FIXED) r->ws_starts = ws_add(p, t->bags + 1, sizeof(size_t), err, &st);
  r->ws_bag_of = ws_add(p, r->max ? t->bags : t->entries, sizeof(size_t), err, &st);
  if (!r->max || t->has_padding) r->ws_rows = ws_add(p, t->entries, sizeof(size_t), err, &st);
  if (r->scaled) r->ws_scales = ws_add(p, t->entries, elem, err, &st);
  r->adds = !r->max && !empty_out; /* (an empty output reserves no row starts: any num_weights) */
  if (r->adds) {
    r->ws_srcs = ws_add(p, t->entries, sizeof(size_t), err, &st);
    r->ws_order = ws_add(p, t->entries, sizeof(size_t), err, &st);
    r->ws_row_starts = ws_add(p, t->rows + 1, sizeof(size_t), err, &st);
  }
  if (st != WG_OK) return st;
  p->workspace_align = sizeof(size_t);
  p->validate = backward_validate;
  if (weights_grad && t->entries) {
    r->dots = (wg_dot_job){.items = t->entries, .dim = r->dim, .f64 = t->value == WG_BAG_F64};
    wg_plan_stage(p, &wg_stage_dot, &r->dots, t->entries, wg_tile_for(r->dim * elem));
  }
  return WG_OK;
}

WG_DEFINE_OP(embedding_bag_backward, backward_plan, plan_backward)
