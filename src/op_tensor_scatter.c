/* tensor_scatter: ONNX TensorScatter-24, the KV-cache write. Items are (batch, middle, position)
 * triples of update; update row s of batch b goes to position write_indices[b] + s of the cache
 * along axis (modulo its length when circular), a row of prod(cache.shape[axis+1:]) elements.
 * As onnxruntime's CPU kernel (onnxruntime/core/providers/cpu/tensor/tensor_scatter.cc): the axis
 * is in [1, rank-1] once normalized, a negative write index is an error, and in linear mode the
 * write must fit in the cache.
 * https://onnx.ai/onnx/operators/onnx__TensorScatter.html */
#include "call.h"
#include "op.h"
#include "stage_scatter.h"

typedef struct tensor_scatter_plan {
  wg_plan plan; /* first, as every op's */
  wg_scatter_job job;
  size_t middle;     /* prod(cache.shape[1:axis]) */
  size_t cache_len;  /* cache.shape[axis] */
  size_t update_len; /* update.shape[axis] */
  size_t index_size; /* linear: write indices below this fit (circular: any but a negative one) */
  int circular;
} tensor_scatter_plan;

static int tensor_scatter_resolve(const wg_scatter_job* job, size_t q, size_t n, size_t* dest, size_t* src) {
  const tensor_scatter_plan* t = WG_CONTAINER_OF(job, const tensor_scatter_plan, job);
  (void)src;
  for (size_t j = 0; j < n;) { /* a run of positions of one (batch, middle) row at a time */
    size_t s = (q + j) % t->update_len, row = (q + j) / t->update_len, b = row / t->middle;
    size_t k = t->update_len - s < n - j ? t->update_len - s : n - j;
    size_t w = 0, base = row * t->cache_len;
    if (t->circular) {
      /* any write index that is not negative, taken modulo the length as it is (64 bits) */
      int neg = 0;
      uint64_t v = job->indices ? wg_load_index(job->indices, job->index_type, b, &neg) : 0;
      if (neg) return 0;
      size_t pos = (size_t)((v % t->cache_len + s) % t->cache_len);
      for (size_t i = 0; i < k; ++i) {
        dest[j + i] = base + pos;
        if (++pos == t->cache_len) pos = 0;
      }
    } else {
      if (job->indices &&
          wg_resolve_indices(job->indices, job->index_type, b, 0, 1, t->index_size, 0, 1, WG_OOB_ERROR,
                             WG_NEGATIVE_ERROR, 0, &w) != WG_OK) {
        return 0;
      }
      for (size_t i = 0; i < k; ++i) dest[j + i] = base + w + s + i;
    }
    j += k;
  }
  return 1;
}

/* cache rank >= 2; axis in [-rank, rank), normalized in [1, rank-1]; update's shape cache's but
 * along axis, where it is at most the cache's length; write_indices absent or of shape [batch].
 * Output: cache's shape. */
static wg_status plan_tensor_scatter(const wg_call* c, tensor_scatter_plan* t, wg_error_info* err) {
  const wg_tensor* cache = &c->tensors[WG_TENSOR_data];
  const wg_tensor* update = &c->tensors[WG_TENSOR_updates];
  const wg_tensor* index = &c->tensors[WG_TENSOR_indices];
  size_t elem, axis;
  wg_status st = wg_scatter_begin(c, &t->plan, &t->job, WG_SCATTER_WRITE_ONLY, &elem, err);
  if (st != WG_OK) return st;
  int32_t circular = c->attrs[WG_ATTR_circular];
  if (circular != 0 && circular != 1) return wg_fail(err, WG_ERR_INVALID_ARGUMENT, WG_ARG_NONE, -1, circular, 1);
  /* its write indices' rule is its own: errors, negatives included */
  if (c->attrs[WG_ATTR_out_of_range] != WG_OOB_ERROR || c->attrs[WG_ATTR_negative_indices] != WG_NEGATIVE_ERROR) {
    return wg_fail(err, WG_ERR_INVALID_ARGUMENT, WG_ARG_INDICES, -1, -1, -1);
  }
  int64_t rank = (int64_t)cache->rank;
  st = wg_normalize_axis(c->attrs[WG_ATTR_axis], rank, &axis, err);
  if (st != WG_OK) return st;
  if (axis < 1) return wg_fail(err, WG_ERR_AXIS, WG_ARG_AXIS, -1, c->attrs[WG_ATTR_axis], rank);
  size_t want[WG_MAX_RANK];
  for (size_t d = 0; d < cache->rank; ++d) want[d] = cache->shape[d];
  size_t update_len = update->rank == cache->rank ? update->shape[axis] : 0;
  want[axis] = update_len;
  st = wg_check_updates(update, want, cache->rank, err);
  if (st != WG_OK) return st;
  /* in both modes, as the spec (sequence_length <= max_sequence_length) and onnxruntime */
  if (update_len > cache->shape[axis]) {
    /* err->arg: the length along the axis is what breaks the rule */
    return wg_fail(err, WG_ERR_UPDATES_SHAPE, WG_ARG_AXIS, (int64_t)axis, (int64_t)update_len,
                   (int64_t)cache->shape[axis]);
  }
  if (index->dtype != WG_DTYPE_NONE) {
    if (index->rank != 1) return wg_fail(err, WG_ERR_RANK_MISMATCH, WG_ARG_INDICES, -1, (int64_t)index->rank, 1);
    if (index->shape[0] != cache->shape[0]) {
      return wg_fail(err, WG_ERR_INDEX_SHAPE, WG_ARG_INDICES, 0, (int64_t)index->shape[0], (int64_t)cache->shape[0]);
    }
  }

  t->middle = wg_prod(cache->shape, 1, axis);
  t->cache_len = cache->shape[axis];
  t->update_len = update_len;
  t->circular = circular;
  /* linear: the write indices below this fit (saturated: a cache of SIZE_MAX positions) */
  t->index_size = t->cache_len - update_len == SIZE_MAX ? SIZE_MAX : t->cache_len - update_len + 1;
  int empty = wg_prod(cache->shape, 0, cache->rank) == 0;
  size_t rows = empty ? 0 : cache->shape[0] * t->middle;
  t->job = (wg_scatter_job){.nitems = rows * update_len, .row_elems = wg_prod(cache->shape, axis + 1, cache->rank),
                            .dest_rows = rows * t->cache_len, .resolve = tensor_scatter_resolve,
                            .slab_items = update_len, /* a row of the cache's: its own positions */
                            .reduce = WG_REDUCE_NONE, .include_self = 1};
  t->job.src_step = t->job.row_elems;
  t->plan.indices_optional = 1;
  t->plan.check = (wg_index_check){.depth = 1, .dim_sizes = &t->index_size, .first_dim = axis,
                                   .unbounded = circular};
  return wg_plan_scatter(&t->plan, &t->job, elem, err);
}

WG_DEFINE_OP(tensor_scatter, tensor_scatter_plan, plan_tensor_scatter)

wg_status wg_tensor_scatter(wg_pool* pool, const void* cache, const size_t* cache_shape,
                            size_t cache_rank, const void* update, const size_t* update_shape,
                            size_t update_rank, const void* write_indices, wg_index_type index_type,
                            int32_t axis, int32_t circular, size_t elem_size, void* out,
                            wg_error_info* err) {
  wg_call c;
  size_t batch = cache_rank && cache_shape ? cache_shape[0] : 0;
  wg_status st = wg_call_indexed(&c, WG_OP_tensor_scatter, cache, elem_size, cache_shape, cache_rank,
                                 write_indices, index_type, &batch, 1, WG_OOB_ERROR, WG_NEGATIVE_ERROR, out);
  if (!write_indices) c.tensors[WG_TENSOR_indices].dtype = WG_DTYPE_NONE;
  c.attrs[WG_ATTR_axis] = axis;
  c.attrs[WG_ATTR_circular] = circular;
  if (st == WG_OK) {
    st = wg_call_tensor(&c, WG_TENSOR_updates, update, c.tensors[WG_TENSOR_data].dtype, update_shape, update_rank);
  }
  return st == WG_OK ? wg_call_run_api(pool, &c, err) : wg_call_failed(&c, st, err);
}
