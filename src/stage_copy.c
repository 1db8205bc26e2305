#include "stage_copy.h"

#include "index_resolve.h"

/* Resolves blocks j .. j + k of a segment (k <= WG_SEGMENT) into their source offsets (every
 * out-of-range mode). Returns 0 at a bad index in WG_OOB_ERROR mode. */
static inline int resolve_blocks(const wg_block_job* job, const wg_segment* seg, size_t j, size_t k,
                                 size_t* off) {
  if (job->depth == 0) { /* no index components: every block is the slice at base */
    for (size_t i = 0; i < k; ++i) off[i] = seg->base;
  }
  for (size_t c = 0; c < job->depth; ++c) {
    wg_status st = wg_resolve_indices(job->indices, job->index_type,
                                      seg->first + j * job->depth + c, job->depth, k,
                                      job->dim_sizes[c], seg->base, job->strides[c], job->mode,
                                      job->negative, c > 0, off);
    if (st != WG_OK) return 0;
  }
  if (seg->ramp) wg_offsets_add_ramp(off, k, j * seg->ramp, seg->ramp);
  return 1;
}

/* The general path for blocks j .. seg->count of a segment: resolve WG_SEGMENT offsets at a time,
 * then copy them to dst (the segment's first block). Returns 0 at a bad index. */
static int copy_general(const wg_block_job* job, const wg_segment* seg, size_t j, uint8_t* dst) {
  size_t off[WG_SEGMENT];
  while (j < seg->count) {
    size_t k = seg->count - j < WG_SEGMENT ? seg->count - j : WG_SEGMENT;
    if (!resolve_blocks(job, seg, j, k, off)) return 0;
    job->kernels.copy(dst + j * job->block_bytes, job->src, off, k, job->block_bytes);
    j += k;
  }
  return 1;
}

/* The offsets mode: the same resolution, written to job->offsets from block q on. */
static int plan_general(const wg_block_job* job, const wg_segment* seg, size_t q) {
  for (size_t j = 0; j < seg->count;) {
    size_t k = seg->count - j < WG_SEGMENT ? seg->count - j : WG_SEGMENT;
    if (!resolve_blocks(job, seg, j, k, job->offsets + q + j)) return 0;
    j += k;
  }
  return 1;
}

static int run_blocks(void* ctx, size_t start, size_t count) {
  const wg_block_job* job = ctx;
  for (size_t q = start, end = start + count; q < end;) {
    wg_segment seg;
    job->map(job, q, end - q, &seg);
    int ok;
    if (job->offsets) {
      ok = plan_general(job, &seg, q);
    } else {
      uint8_t* dst = job->dst + q * job->block_bytes;
      size_t done = 0;
      if (job->kernels.fused) {
        const uint8_t* idx = (const uint8_t*)job->indices + seg.first * wg_index_bytes(job->index_type);
        done = job->kernels.fused(dst, job->src + seg.base, idx, seg.count, job->depth,
                                  job->dim_sizes, job->strides, seg.ramp);
      }
      ok = done == seg.count || copy_general(job, &seg, done, dst);
    }
    if (!ok) return 0;
    q += seg.count;
  }
  return 1;
}

static void bind_blocks(void* ctx, const wg_call* c, size_t threads) {
  (void)threads;
  wg_block_job* job = ctx;
  job->src = c->tensors[WG_TENSOR_data].ptr;
  job->dst = c->tensors[WG_TENSOR_out].ptr;
  job->offsets = c->tensors[WG_TENSOR_offsets].ptr;
  job->indices = c->tensors[WG_TENSOR_indices].ptr;
  job->index_type = (wg_index_type)wg_index_type_of(c->tensors[WG_TENSOR_indices].dtype);
  job->mode = (wg_oob_mode)c->attrs[WG_ATTR_out_of_range];
  job->negative = (wg_negative_mode)c->attrs[WG_ATTR_negative_indices];
  job->kernels = wg_pick_kernels(job->block_bytes, job->index_type, job->depth);
  /* The fused kernels wrap negative indices; the general path knows the policy. (The offsets
   * mode uses no kernel: plan_general.) */
  if (job->negative != WG_NEGATIVE_WRAP) job->kernels.fused = NULL;
}

const wg_stage_kind wg_stage_block_copy = {bind_blocks, run_blocks, WG_STAGE_IN_RUN | WG_STAGE_IN_OFFSETS, NULL};

void wg_plan_block_copy(wg_plan* plan, wg_block_job* job, size_t first_dim) {
  size_t total = job->nblocks * job->block_bytes; /* the output's size: the engine checks it fits */
  plan->check = (wg_index_check){.depth = job->depth, .dim_sizes = job->dim_sizes, .first_dim = first_dim};
  plan->offsets_blocks = job->nblocks;
  if (total) wg_plan_stage(plan, &wg_stage_block_copy, job, job->nblocks, wg_tile_for(job->block_bytes));
}
