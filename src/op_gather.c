/* gather: torch.gather(input, dim, index), ONNX GatherElements, numpy.take_along_axis.
 * Blocks are single elements in index's shape: out[..i_dim..] = input[..index[..]..]. Rank 0
 * is treated as shape [1]. */
#include <stddef.h>

#include "block_job.h"
#include "index_resolve.h"
#include "shape_util.h"

typedef struct gather_job {
  wg_block_job job; /* first, so the engine's pointer is the op's */
  size_t rank;
  size_t dim;
  const size_t* index_shape;
  size_t in_strides[WG_MAX_RANK]; /* bytes */
} gather_job;

static void gather_map(const wg_block_job* job, size_t q, size_t n, wg_segment* seg) {
  const gather_job* g = (const gather_job*)job;
  size_t last = g->rank - 1, row_len = g->index_shape[last];
  size_t k = q % row_len, row = q / row_len;
  /* offset of the row's first element in input, without the gathered dim */
  size_t base = 0;
  for (size_t d = last; d-- > 0;) {
    size_t i = row % g->index_shape[d];
    row /= g->index_shape[d];
    if (d != g->dim) base += i * g->in_strides[d];
  }
  seg->ramp = g->dim == last ? 0 : g->in_strides[last];
  seg->count = row_len - k < n ? row_len - k : n;
  seg->first = q;
  seg->base = base + k * seg->ramp;
}

static const size_t scalar_shape[1] = {1};

wg_status wg_gather_shape(const size_t* input_shape, size_t input_rank, const size_t* index_shape,
                          size_t index_rank, int32_t dim, size_t* out_shape, size_t* out_rank,
                          wg_error_info* err) {
  if ((input_rank && !input_shape) || (index_rank && !index_shape)) {
    return wg_fail(err, WG_ERR_INVALID_ARGUMENT, WG_ARG_NONE, -1, -1, -1);
  }
  if (input_rank > WG_MAX_RANK) {
    return wg_fail(err, WG_ERR_RANK, WG_ARG_DATA, -1, (int64_t)input_rank, WG_MAX_RANK);
  }
  if (index_rank != input_rank) {
    return wg_fail(err, WG_ERR_RANK, WG_ARG_INDICES, -1, (int64_t)index_rank, (int64_t)input_rank);
  }
  int64_t r = input_rank ? (int64_t)input_rank : 1, d0 = dim;
  if (d0 < -r || d0 >= r) return wg_fail(err, WG_ERR_AXIS, WG_ARG_AXIS, -1, d0, r);
  if (d0 < 0) d0 += r;
  for (size_t d = 0; d < input_rank; ++d) {
    if ((int64_t)d != d0 && index_shape[d] > input_shape[d]) {
      return wg_fail(err, WG_ERR_INDEX_SHAPE, WG_ARG_INDICES, (int64_t)d, (int64_t)index_shape[d],
                     (int64_t)input_shape[d]);
    }
  }
  if (!out_shape || !out_rank) return wg_fail(err, WG_ERR_INVALID_ARGUMENT, WG_ARG_OUT, -1, -1, -1);
  for (size_t d = 0; d < index_rank; ++d) out_shape[d] = index_shape[d];
  *out_rank = index_rank;
  return WG_OK;
}

wg_status wg_gather(wg_pool* pool, const void* input, const size_t* input_shape, size_t input_rank,
                    int32_t dim, const void* index, wg_index_type index_type,
                    const size_t* index_shape, size_t index_rank, size_t elem_size,
                    wg_oob_mode mode, void* out, wg_error_info* err) {
  size_t out_shape[WG_MAX_RANK], out_rank;
  wg_status st = wg_gather_shape(input_shape, input_rank, index_shape, index_rank, dim, out_shape,
                                 &out_rank, err);
  if (st != WG_OK) return st;
  size_t count = wg_prod(out_shape, 0, out_rank); /* index's shape */
  st = wg_check_op_args(out_shape, out_rank, elem_size, wg_index_type_valid(index_type), mode,
                        input, index, count, out, err);
  if (st != WG_OK) return st;
  if (input_rank == 0) { /* a scalar is a tensor of shape [1] */
    input_shape = index_shape = scalar_shape;
    input_rank = index_rank = 1;
  }
  if (dim < 0) dim += (int32_t)input_rank;
  gather_job g = {.rank = input_rank, .dim = (size_t)dim, .index_shape = index_shape};
  if (count && wg_prod(input_shape, 0, input_rank) != 0) {
    /* index is not empty, so no input dim but `dim` is empty; if that one is, every index is
     * out of range, and strides stay 0 (computed, they could overflow into offsets that would
     * form pointers outside the input). Otherwise input is not empty and these fit. */
    size_t stride = elem_size;
    for (size_t d = input_rank; d-- > 0;) {
      g.in_strides[d] = stride;
      stride *= input_shape[d];
    }
  }
  g.job.nblocks = count;
  g.job.block_bytes = elem_size;
  g.job.src = input;
  g.job.dst = out;
  g.job.map = gather_map;
  g.job.mode = mode;
  g.job.indices = index;
  g.job.index_type = index_type;
  g.job.index_count = count;
  g.job.depth = 1;
  g.job.dim_sizes = &input_shape[dim];
  g.job.first_dim = (size_t)dim;
  g.job.scales[0] = g.in_strides[dim];
  return wg_block_job_run(pool, &g.job, err);
}
