/* What every op shares around its plan (src/op.h): the checks before it, the helpers it uses,
 * and the shape query and run after it. */
#include "op.h"

#include "index_resolve.h"

wg_status wg_fail(wg_error_info* err, wg_status status, wg_arg arg, int64_t dim, int64_t value,
                  int64_t limit) {
  if (err) {
    err->arg = arg;
    err->dim = dim;
    err->value = value;
    err->limit = limit;
    err->position = -1;
  }
  return status;
}

size_t wg_prod(const size_t* shape, size_t begin, size_t end) {
  for (size_t d = begin; d < end; ++d) {
    if (shape[d] == 0) return 0;
  }
  size_t p = 1;
  for (size_t d = begin; d < end; ++d) {
    if (p > SIZE_MAX / shape[d]) return SIZE_MAX;
    p *= shape[d];
  }
  return p;
}

wg_status wg_check_batch_shape(const wg_op_args* a, size_t batch_dims, wg_error_info* err) {
  for (size_t d = 0; d < batch_dims; ++d) {
    if (a->data_shape[d] != a->index_shape[d]) {
      return wg_fail(err, WG_ERR_BATCH_SHAPE, WG_ARG_INDICES, (int64_t)d,
                     (int64_t)a->index_shape[d], (int64_t)a->data_shape[d]);
    }
  }
  return WG_OK;
}

wg_status wg_normalize_axis(int64_t axis, int64_t rank, size_t* out, wg_error_info* err) {
  if (axis < -rank || axis >= rank) return wg_fail(err, WG_ERR_AXIS, WG_ARG_AXIS, -1, axis, rank);
  *out = (size_t)(axis < 0 ? axis + rank : axis);
  return WG_OK;
}

void wg_plan_append(wg_plan* plan, const size_t* shape, size_t begin, size_t end) {
  for (size_t d = begin; d < end; ++d) plan->out_shape[plan->out_rank++] = shape[d];
}

wg_status wg_check_args(const wg_op_args* a, wg_error_info* err) {
  if ((a->data_rank && !a->data_shape) || (a->index_rank && !a->index_shape)) {
    return wg_fail(err, WG_ERR_INVALID_ARGUMENT, WG_ARG_NONE, -1, -1, -1);
  }
  if (a->data_rank > WG_MAX_RANK) {
    return wg_fail(err, WG_ERR_MAX_RANK, WG_ARG_DATA, -1, (int64_t)a->data_rank, WG_MAX_RANK);
  }
  if (a->index_rank > WG_MAX_RANK) {
    return wg_fail(err, WG_ERR_MAX_RANK, WG_ARG_INDICES, -1, (int64_t)a->index_rank, WG_MAX_RANK);
  }
  return WG_OK;
}

wg_status wg_check_out_rank(const wg_plan* plan, wg_error_info* err) {
  if (plan->out_rank > WG_MAX_RANK) {
    return wg_fail(err, WG_ERR_MAX_RANK, WG_ARG_OUT, -1, (int64_t)plan->out_rank, WG_MAX_RANK);
  }
  return WG_OK;
}

wg_status wg_plan_shape(const wg_plan* plan, size_t* out_shape, size_t* out_rank,
                        wg_error_info* err) {
  wg_status st = wg_check_out_rank(plan, err);
  if (st != WG_OK) return st;
  if (!out_shape || !out_rank) return wg_fail(err, WG_ERR_INVALID_ARGUMENT, WG_ARG_OUT, -1, -1, -1);
  for (size_t d = 0; d < plan->out_rank; ++d) out_shape[d] = plan->out_shape[d];
  *out_rank = plan->out_rank;
  return WG_OK;
}

static int elem_size_valid(size_t s) { return s == 1 || s == 2 || s == 4 || s == 8; }

/* The checks of a run once the shapes are valid: known element size, index type, mode and
 * negative-index policy, an
 * output whose byte size fits in size_t, and no NULL tensor that would be read or written. */
static wg_status check_run(const wg_plan* plan, const wg_op_args* a, size_t index_count,
                           wg_error_info* err) {
  if (!elem_size_valid(a->elem_size) || !wg_index_type_valid(a->index_type) ||
      !wg_oob_mode_valid(a->mode) || !wg_negative_mode_valid(a->negative_indices)) {
    return wg_fail(err, WG_ERR_INVALID_ARGUMENT, WG_ARG_NONE, -1, -1, -1);
  }
  size_t n = wg_prod(plan->out_shape, 0, plan->out_rank);
  if (n == SIZE_MAX || (n != 0 && a->elem_size > SIZE_MAX / n)) {
    return wg_fail(err, WG_ERR_SIZE_OVERFLOW, WG_ARG_OUT, -1, -1, -1);
  }
  if ((index_count && !a->indices) || (n && !a->offsets && (!a->data || !a->out))) {
    return wg_fail(err, WG_ERR_INVALID_ARGUMENT, WG_ARG_NONE, -1, -1, -1);
  }
  return WG_OK;
}

wg_status wg_plan_run(wg_pool* pool, wg_plan* plan, const wg_op_args* a, wg_error_info* err) {
  wg_status st = wg_check_out_rank(plan, err);
  if (st != WG_OK) return st;
  size_t index_count = wg_prod(a->index_shape, 0, a->index_rank);
  st = check_run(plan, a, index_count, err);
  if (st != WG_OK) return st;
  wg_block_job* job = &plan->job;
  job->src = a->data;
  job->dst = a->out;
  job->offsets = a->offsets;
  job->indices = a->indices;
  job->index_type = a->index_type;
  job->index_count = index_count;
  job->mode = a->mode;
  job->negative = (wg_negative_mode)a->negative_indices;
  return wg_block_job_run(pool, job, err);
}
