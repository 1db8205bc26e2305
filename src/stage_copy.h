/* The block copy, a kind of stage (src/op.h): an output made of nblocks blocks of block_bytes
 * each, laid out one after another; the op only says where each block comes from.
 *
 * Every op's source offsets have one form. Block q + j of a segment (a run of blocks the op
 * hands out at once) comes from
 *     base + j * ramp + sum over c < depth of resolve(indices[first + j * depth + c]) * strides[c]
 * where resolve() wraps a negative index and checks it against dim_sizes[c]. An op that indexes
 * one dimension has depth 1; one whose indices are tuples of K has depth K (0: whole slices).
 *
 * In the offsets mode (the call's offsets tensor set: js/copy-plan.mjs) the run resolves the
 * output into its blocks' sources instead of copying them: offsets[b] is the byte offset in data
 * of output block b, or WG_ZERO_BLOCK (SIZE_MAX) for a block of zeros; data and out are not
 * touched (they may be NULL); the rules and the errors are the run's. */
#ifndef WG_STAGE_COPY_H
#define WG_STAGE_COPY_H

#include "copy_kernels.h"
#include "op.h"

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
  /* set by the op's plan */
  size_t nblocks;
  size_t block_bytes;
  wg_map_fn map;
  size_t depth;                /* index components per block */
  const size_t* dim_sizes;     /* [depth]: the size of the data dimension each component indexes */
  size_t strides[WG_MAX_RANK]; /* [depth]: bytes per step of each component */
  /* bound from the call by the runner */
  const uint8_t* src;
  uint8_t* dst;
  size_t* offsets; /* NULL: copy; else each block's source offset is written there */
  const void* indices;
  wg_index_type index_type;
  wg_oob_mode mode;
  wg_negative_mode negative;
  wg_kernels kernels;
};

extern const wg_stage_kind wg_stage_block_copy;

/* Adds the job as the plan's block copy stage, with its index check and offsets mode
 * (dimensions first_dim .. first_dim + depth of the data are the ones indexed). */
void wg_plan_block_copy(wg_plan* plan, wg_block_job* job, size_t first_dim);

#endif
