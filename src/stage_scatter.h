/* The scatters' stage kinds (src/op.h): the output is data (copied into out, unless out is data:
 * in place) with nitems update rows of row_elems elements applied, each to the destination row its
 * indices select, combined by a reduction kernel (scatter_kernels.h).
 *
 * The result is the one of applying the updates one at a time in item order (the row-major
 * order of the index tensor), at any thread count, without atomics on the data. Every index is
 * checked before anything is written (an error writes nothing, in place included): by the
 * runner's parallel scan first (plan->check_first), or by the sort stage. Then one of three
 * plans, by what the op's items are:
 *   - slabs: items in runs that share no destination with another run (the op sets slab_items:
 *     where the index's outer coordinates are the destination's): data copied to out, then the slabs applied
 *     in parallel, each in order, its destinations resolved a piece at a time on the stack;
 *   - one part (rows too short to be worth a sort, on fewer than WG_SCATTER_SORT_THREADS
 *     threads): one thread applies every item in order; over threads the others resolve chunks
 *     of destinations into the workspace ahead of it (a pipeline: run_apply);
 *   - sorted (longer rows; short ones on WG_SCATTER_SORT_THREADS or more): 1. sort (over
 *     chunks): dest[q] = the item's destination row, or WG_ZERO_BLOCK for a dropped one, then
 *     the chunk's items sorted by part (a range of 2^part_shift destination rows), stably, in the
 *     chunk's own range of order[] (short rows: of their destinations and a copy of their update
 *     rows, which a part then reads in a stream); 2. apply (over parts): the part's rows of data
 *     copied to out, then its items applied in order, its run of each chunk after the one before
 *     (the mean divided at the end).
 * The offsets mode (a plain write of the update rows in order, when the call gives an offsets
 * tensor): each item's destination row resolved into it and nothing applied; the caller writes
 * the rows (js/call.mjs: the data stays in JS). */
#ifndef WG_STAGE_SCATTER_H
#define WG_STAGE_SCATTER_H

#include "index_resolve.h"
#include "op.h"
#include "scatter_kernels.h"

typedef struct wg_scatter_job wg_scatter_job;

/* The op's resolver: the destination rows of items q .. q + n into dest[0 .. n) (WG_ZERO_BLOCK:
 * dropped), and, when the job has src_map, the first source element of each into src[0 .. n).
 * Returns 0 at a bad index in WG_OOB_ERROR mode. */
typedef int (*wg_scatter_resolve_fn)(const wg_scatter_job* job, size_t q, size_t n, size_t* dest,
                                     size_t* src);

/* Most parts and chunks a call uses (the workspace holds a count per chunk and part): four parts
 * a thread at 16 threads. */
#define WG_SCATTER_MAX_PARTS 64
#define WG_SCATTER_MAX_CHUNKS 64
/* Bytes of an update row below which the updates are sorted into parts only on this many threads
 * or more (wg_plan_scatter): on fewer, one applier keeps up with the threads that resolve. */
#define WG_SCATTER_MIN_GROUPED_ROW 64
#define WG_SCATTER_SORT_THREADS 4

struct wg_scatter_job {
  /* set by the op's plan */
  size_t nitems;
  size_t row_elems;  /* elements per update row */
  size_t dest_rows;  /* rows of the output */
  size_t src_step;   /* elements between items' source rows (0: the value form) */
  int src_map;       /* the resolver gives each item's source (else item q's is q * src_step) */
  size_t slab_items; /* items come in slabs of this many (the last fewer) that share no destination
                        with another slab: slabs run in parallel, unsorted (0: one slab) */
  wg_scatter_resolve_fn resolve;
  int32_t reduce, include_self;
  int one_part; /* never sorted into parts: the runner checks the op's indices before any stage
                    (an op whose items are not its indices: the bags' gradient's max) */
  /* the workspace (wg_plan_scatter lays it out) */
  size_t chunks, chunk_items, max_parts;
  int hits;   /* a count per destination row (the mean; include_self 0) */
  size_t sort_threads; /* the fewest threads on which the items are sorted into parts (SIZE_MAX:
                          never, one part; the runner checks the indices first in 'error' mode) */
  int keeps;  /* the workspace holds the items' destinations */
  int sorts_rows; /* short rows, sorted as their destinations and a copy of their rows (not order[]) */
  size_t slabs; /* slabs applied in parallel (direct; 1: the items in one run) */
  int pipeline;  /* one part over threads: resolved ahead by the other threads (stage_scatter.c) */
  int offers_offsets; /* a plain write of the items' rows in order: the offsets mode serves it */
  size_t ws_dest, ws_src, ws_counts, ws_order, ws_sorted_dest, ws_sorted_rows, ws_state, ws_hits; /* byte offsets */
  /* bound from the call by the runner */
  const uint8_t* data; /* NULL: the output starts as zeros (set by the op's validate hook) */
  uint8_t* out;
  const uint8_t* updates;
  const void* indices;
  wg_index_type index_type;
  wg_oob_mode mode;
  wg_negative_mode negative;
  uint8_t* workspace;
  size_t* offsets; /* the offsets mode: each item's destination row written here, nothing applied */
  size_t elem_bytes;
  int32_t dtype; /* the output's (its kernels'), from the plan */
  int direct; /* one part (fewer threads than sort_threads): nothing sorted, destinations resolved
                 where applied, or ahead of the applier into the workspace (a pipeline) */
  size_t parts;      /* parts of the output, each 2^part_shift destination rows (the last fewer) */
  unsigned part_shift;
  wg_reduce_kernels kernels;
};

extern const wg_stage_kind wg_stage_scatter_sort, wg_stage_scatter_apply,
    wg_stage_scatter_copy, wg_stage_scatter_offsets;

/* Lays out the job's workspace in the plan and adds its stages (nothing when the output is
 * empty). The op has set the job's plan fields, and the plan's output shape and index check. */
wg_status wg_plan_scatter(wg_plan* plan, wg_scatter_job* job, size_t elem_bytes, wg_error_info* err);

/* Which reductions an op has: none (it takes no reduce and include_self attributes, and writes),
 * all but the mean, all. */
enum { WG_SCATTER_WRITE_ONLY, WG_SCATTER_NO_MEAN, WG_SCATTER_WITH_MEAN };
/* The start of the plan of each of the scatters: the rules they share (data of whole-byte elements,
 * updates of its type, reduce one of the type's and the op's, include_self 0 or 1), the output
 * (data's shape and type), and the job's reduction; *elem_bytes: data's element. */
wg_status wg_scatter_begin(const wg_call* c, wg_plan* plan, wg_scatter_job* job, int reductions,
                           size_t* elem_bytes, wg_error_info* err);
/* updates has this shape, else WG_ERR_UPDATES_SHAPE. */
wg_status wg_check_updates(const wg_tensor* updates, const size_t* want, size_t rank,
                           wg_error_info* err);

#endif
