/* A mask read in chunks, three kinds of stage (src/op.h) for the ops whose output is as long as a
 * mask's true (not zero) elements: count, each chunk's true elements into the workspace; prefix,
 * the counts into the offsets where each chunk writes (their running sum: the output's count,
 * which the op may check: stopped); write, each chunk's true elements from its offset on, as the
 * op's kind of write says. Chunks are fixed by the plan, not by the threads, and each writes only
 * at its own offsets: the output is the same at any thread count and tile order.
 *
 * A true element is one with a bit set, the sign bit of a floating-point mask aside: NaN is true,
 * -0 is false (as numpy, torch and ONNX count them). */
#ifndef WG_STAGE_MASK_H
#define WG_STAGE_MASK_H

#include "op.h"

typedef enum wg_mask_write {
  WG_MASK_SLICES, /* out[o, k] = data[o, i]: outer blocks of slices, the k-th true i's slice */
  WG_MASK_COORDS, /* the k-th true i's coordinates in the mask's shape, as indices */
  WG_MASK_SOURCE, /* out = data, and out[i] = source[k] at the k-th true i */
} wg_mask_write;

typedef struct wg_mask_job {
  /* set by the op's plan */
  int write;                 /* wg_mask_write */
  size_t len;                /* the mask's elements read */
  size_t mask_bytes;         /* of one mask element: 1, 2, 4 or 8 */
  int mask_float;            /* its sign bit is not counted */
  size_t chunk, nchunks;     /* mask elements a chunk; chunks */
  size_t outer;              /* WG_MASK_SLICES: blocks of data (the dims before the mask's); else 1 */
  size_t group;              /* blocks a write item (the plan's) */
  size_t stride;             /* WG_MASK_SLICES: data's slices a block (>= len) */
  size_t item_bytes;         /* a slice's bytes; an index's (4, 8); an element's */
  size_t rank;               /* WG_MASK_COORDS: the mask's rank and shape */
  size_t shape[WG_MAX_RANK];
  int rows_first;            /* WG_MASK_COORDS: [count, rank], else [rank, count] */
  size_t source_len;         /* WG_MASK_SOURCE: the source's elements */
  /* bound from the call */
  const uint8_t* mask;
  const uint8_t* data;
  const uint8_t* source;
  uint8_t* out;
  size_t* offsets; /* the offsets mode (js/copy-plan.mjs copies what they say), instead of the
                      writes: WG_MASK_SLICES, each output slice's byte offset in data;
                      WG_MASK_SOURCE, the element each source value goes to, in order */
  size_t* counts; /* the workspace: nchunks + 1 counts, then offsets and the total */
  /* the prefix's */
  size_t total;
} wg_mask_job;

extern const wg_stage_kind wg_stage_mask_count, wg_stage_mask_prefix, wg_stage_mask_write;

/* The job's chunks (from len, the mask's type and item_bytes, which the plan sets first), its
 * workspace, its offsets mode (outer * len offsets at most, or len), and its three stages added to
 * the plan: count_dim (0: none) the output dimension the count is. Fails if mask is of no
 * whole-byte type. */
wg_status wg_plan_mask(wg_plan* plan, wg_mask_job* job, const wg_tensor* mask, size_t count_dim,
                       wg_error_info* err);

#endif
