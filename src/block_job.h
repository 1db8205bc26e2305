/* The copy engine shared by the three ops: an output made of nblocks blocks of block_bytes
 * each, laid out one after another; the op only says where each block comes from.
 *
 * Every op's source offsets have one form. Block q + j of a segment (a run of blocks the op
 * hands out at once) comes from
 *     base + j * ramp + sum over c < depth of resolve(indices[first + j * depth + c]) * scales[c]
 * where resolve() wraps a negative index and checks it against dim_sizes[c]. take and gather
 * have depth 1, gather_nd has depth K (0 for whole slices). */
#ifndef WG_BLOCK_JOB_H
#define WG_BLOCK_JOB_H

#include <stdatomic.h>

#include "copy_kernels.h"
#include "wasm_gather.h"

/* Blocks resolved and copied per step of the general path: an offsets array on the stack. */
#define WG_SEGMENT 256

typedef struct wg_block_job wg_block_job;

typedef struct wg_segment {
  size_t count; /* blocks in the segment */
  size_t first; /* position in indices of the first block's first component */
  size_t base;  /* byte offset in src before indices and ramp are added */
  size_t ramp;  /* bytes added to the offset per block */
} wg_segment;

/* The op's mapper: describes blocks q .. q + seg->count, for some 1 <= count <= n it chooses
 * (it may stop early at its own boundaries: a row, a batch). */
typedef void (*wg_map_fn)(const wg_block_job* job, size_t q, size_t n, wg_segment* seg);

struct wg_block_job {
  /* set by the op */
  const uint8_t* src;
  uint8_t* dst;
  size_t nblocks;
  size_t block_bytes;
  wg_map_fn map;
  wg_oob_mode mode;
  wg_negative_mode negative; /* set by the engine, as mode */
  const void* indices;
  wg_index_type index_type;
  size_t index_count;
  size_t depth;            /* index components per block */
  const size_t* dim_sizes; /* [depth]: the size of the data dimension each component indexes, */
  size_t first_dim;        /* which are dimensions first_dim .. first_dim + depth of the data */
  size_t scales[WG_MAX_RANK]; /* [depth]: bytes per step of each component */
  /* set by the engine */
  size_t* offsets; /* NULL: copy; else each block's source offset is written there (op.h) */
  wg_kernels kernels;
  atomic_int failed;
};

/* Runs the job on the pool (or on the caller when it is small; under WG_NEGATIVE_ERROR without
 * the fused kernels, which wrap negative indices), then, in WG_OOB_ERROR mode,
 * reports the first bad index if there was one, or if the output was empty and so did not
 * look at the indices. */
wg_status wg_block_job_run(wg_pool* pool, wg_block_job* job, wg_error_info* err);

#endif
