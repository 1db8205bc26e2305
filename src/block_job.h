/* The copy engine shared by the three ops: an output made of nblocks blocks of block_bytes
 * each, laid out one after another; the op only says where each block comes from. */
#ifndef WG_BLOCK_JOB_H
#define WG_BLOCK_JOB_H

#include <stdatomic.h>

#include "copy_kernels.h"
#include "wasm_gather.h"

/* Blocks resolved and copied per step: small enough for an offsets array on the stack. */
#define WG_SEGMENT 256

typedef struct wg_block_job wg_block_job;

/* The op's index-to-offset mapper: fills off[0..k) with the byte offsets in src of blocks
 * q .. q + k, for some 1 <= k <= n it chooses (it may stop early at its own boundaries), and
 * returns k; on a bad index in WG_OOB_ERROR mode it returns 0. */
typedef size_t (*wg_map_fn)(const wg_block_job* job, size_t q, size_t n, size_t* off);

struct wg_block_job {
  /* set by the op */
  const uint8_t* src;
  uint8_t* dst;
  size_t nblocks;
  size_t block_bytes;
  wg_map_fn map;
  wg_oob_mode mode;
  /* the indices, for reporting the first bad one: the index at flat position p is checked
   * against dim_sizes[p % depth], which is dimension first_dim + p % depth of the data */
  const void* indices;
  wg_index_type index_type;
  size_t index_count;
  size_t depth;
  const size_t* dim_sizes;
  size_t first_dim;
  /* set by the engine */
  wg_copy_fn copy;
  atomic_int failed;
};

/* Runs the job on the pool (or on the caller when it is small), then, in WG_OOB_ERROR mode,
 * reports the first bad index if there was one, or if the output was empty and so did not
 * look at the indices. */
wg_status wg_block_job_run(wg_pool* pool, wg_block_job* job, wg_error_info* err);

#endif
