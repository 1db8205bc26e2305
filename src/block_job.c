#include "block_job.h"

#include "index_resolve.h"
#include "parallel.h"

/* Bytes a tile moves: large enough to amortize handing it out, small enough to balance. */
#define WG_TILE_BYTES (16 * 1024)

static void run_blocks(void* ctx, size_t start, size_t count) {
  wg_block_job* job = ctx;
  size_t off[WG_SEGMENT];
  for (size_t q = start, end = start + count; q < end;) {
    if (atomic_load_explicit(&job->failed, memory_order_relaxed)) return;
    size_t n = end - q < WG_SEGMENT ? end - q : WG_SEGMENT;
    size_t k = job->map(job, q, n, off);
    if (k == 0) {
      atomic_store(&job->failed, 1);
      return;
    }
    job->copy(job->dst + q * job->block_bytes, job->src, off, k, job->block_bytes);
    q += k;
  }
}

wg_status wg_block_job_run(wg_pool* pool, wg_block_job* job, wg_error_info* err) {
  size_t total = job->nblocks * job->block_bytes; /* the op checked it does not overflow */
  atomic_init(&job->failed, 0);
  if (total > 0) {
    job->copy = wg_pick_copy(job->block_bytes);
    size_t tile = WG_TILE_BYTES / job->block_bytes;
    /* Small jobs run on the caller alone: waking the pool costs more than it saves. */
    wg_parallelize_1d(total < wg_pool_parallel_threshold(pool) ? NULL : pool, run_blocks, job, job->nblocks,
                      tile ? tile : 1);
  }
  int scan = job->mode == WG_OOB_ERROR && (total == 0 || atomic_load(&job->failed));
  if (scan && wg_find_bad_index(job->indices, job->index_type, job->index_count, job->depth,
                                job->dim_sizes, job->first_dim, err)) {
    return WG_ERR_INDEX_OUT_OF_RANGE;
  }
  return WG_OK;
}
