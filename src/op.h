/* The interface between an op and the engine (XNNPACK's split: an op plans, one runner runs).
 *
 * An op is one file, src/op_<name>.c, and one line in src/ops.def. Its plan function reads the
 * call record (src/record.h), checks every rule of its arguments, and fills a wg_plan: the output
 * shape and type, the index check, the workspace it needs, and a short list of stages, each a
 * kind of work (stage_copy.h: blocks copied from where the indices say; stage_dequant.h: slices
 * dequantized) with its job, range and tile. WG_DEFINE_OP registers the plan function; the
 * shape query makes the plan once and keeps it in the call record, and the runner (runner.c)
 * executes it: no op runs anything itself. */
#ifndef WG_OP_H
#define WG_OP_H

#include <stdalign.h>

#include "record.h"
#include "wasm_gather.h"

/* A kind of stage: how its job takes the call's tensors and policies (bind, before the run, once
 * the runner has checked them; threads: how many will run it), and runs items [start, start + count) of its range (returns 0 at
 * a bad index in WG_OOB_ERROR mode: the runner stops, and reports the first one). */
typedef struct wg_stage_kind {
  void (*bind)(void* job, const wg_call* c, size_t threads);
  int (*run)(void* job, size_t start, size_t count);
  int when; /* WG_STAGE_IN_RUN, WG_STAGE_IN_OFFSETS or both: the runs the runner gives it; and
              * WG_STAGE_CHECKS */
  /* optional: the items of this run, once bound, where they depend on the threads (at most the
   * planned range; 0 skips the stage); NULL: the planned range */
  size_t (*range)(const void* job, size_t planned);
} wg_stage_kind;

/* A call runs either its plan into out (a run), or only the plan's offsets into the call's
 * offsets tensor (the offsets mode: stage_copy.h, stage_scatter.h); a stage kind runs in one or
 * both. */
enum { WG_STAGE_IN_RUN = 1, WG_STAGE_IN_OFFSETS = 2 };
/* A flag beside them: the stage resolves every index, stopping at a bad one, before any stage
 * writes the output (the scatters' sort): when it runs, the runner's scan first (check_first) is
 * not needed. */
enum { WG_STAGE_CHECKS = 4 };
/* And another: the stage counts what a data-dependent output will hold (src/stage_mask.h): a run
 * without an output address runs only these, and reports the count in the output's shape; the
 * run after it skips them and uses what they kept. */
enum { WG_STAGE_COUNTS = 8 };

typedef struct wg_stage {
  const wg_stage_kind* kind;
  void* job;   /* the kind's job, inside the op's plan */
  size_t range; /* items */
  size_t tile;  /* items handed out at once */
} wg_stage;

/* Stages a plan may have (XNNPACK's compute[] array). */
#define WG_MAX_STAGES 4

/* What the runner checks after the stages: in WG_OOB_ERROR mode, when a stage stopped at a bad
 * index (or the output is empty, so that no stage looked), the index tensor is scanned for the
 * first bad index: position p is checked against dim_sizes[p % depth], which are data dimensions
 * first_dim .. first_dim + depth. depth 0: the op has no index tensor to check. */
typedef struct wg_index_check {
  size_t depth;
  const size_t* dim_sizes;
  size_t first_dim;
  int unbounded; /* every index but a negative one is in range (dim_sizes not read) */
} wg_index_check;

typedef struct wg_plan {
  size_t out_rank;
  size_t out_shape[2 * WG_MAX_RANK]; /* room for any rank an op computes; the engine refuses
                                        one above WG_MAX_RANK */
  int32_t out_dtype;                 /* the output's wg_dtype */
  wg_index_check check;
  size_t workspace_bytes; /* scratch the run needs (XNNPACK's reshape reports workspace_size) */
  size_t workspace_align; /* at most 16, a power of 2 */
  size_t offsets_blocks;  /* the offsets mode's block count; 0: the op has no offsets mode */
  int from_data;          /* the output starts as data (the scatters): in place when out is data */
  size_t work_bytes;      /* from_data: the bytes the stages move besides copying data to out
                             (for the parallel threshold, which is otherwise the output's size) */
  int indices_optional;   /* the index tensor may be absent (dtype NONE) */
  int check_first;        /* no stage resolves the indices: the runner checks them before any
                             stage runs (the scatters refuse them with nothing to apply too) */
  int out_indices;        /* the run also writes out_indices: int32, the output's shape */
  int out_weights;        /* the run also writes out_weights: the output's type, the indices' shape */
  /* optional: checks what only the run can read (the segments of the fused gather-reduce) and
   * prepares the workspace from it, once the stages are bound and before any runs */
  wg_status (*validate)(const struct wg_plan* plan, const wg_call* c, wg_error_info* err);
  /* optional: the error of a stage that stopped at its op's own rule, not at a bad index (the
   * masks' source shorter than their count) */
  wg_status (*stopped)(const struct wg_plan* plan, const wg_call* c, wg_error_info* err);
  /* A data-dependent output (stage_mask.h): out_shape[count_dim - 1] is the most it can be (what
   * the shape query reports), the count stages write the true count to *counted, and the run
   * writes it there and into the record's output shape. 0: the plan knows the output's shape. */
  size_t count_dim;
  const size_t* counted;
  /* A counting plan's parallel threshold, stage by stage (the runner's): its count stages move
   * count_work_bytes; the stages after them work_bytes plus count_item_bytes a true element, so
   * that a sparse mask's write does not wake the pool for the output of a full one. */
  size_t count_work_bytes, count_item_bytes;
  int counts_kept; /* the runner's: the last run only counted, and the next uses its counts */
  size_t nstages;
  wg_stage stages[WG_MAX_STAGES];
} wg_plan;

typedef wg_status (*wg_plan_fn)(const wg_call* c, wg_plan* plan, wg_error_info* err);

/* An op's entry: its plan function. */
typedef struct wg_op_def {
  wg_plan_fn plan;
} wg_op_def;

/* Defines op `name`'s entry (wg_op_<name>) from its plan type, which begins with a wg_plan, and
 * its plan function wg_status fn(const wg_call*, plan_type*, wg_error_info*). */
#define WG_DEFINE_OP(name, plan_type, plan_fn)                                                    \
  _Static_assert(sizeof(plan_type) <= sizeof(((wg_call*)0)->plan), #plan_type " is too large");   \
  _Static_assert(alignof(plan_type) <= alignof(wg_call), #plan_type " is over-aligned");          \
  static wg_status name##_plan_entry(const wg_call* c, wg_plan* p, wg_error_info* err) {          \
    return plan_fn(c, (plan_type*)p, err);                                                        \
  }                                                                                               \
  const wg_op_def wg_op_##name = {name##_plan_entry};

#define WG_OP(name, tensors, attrs) extern const wg_op_def wg_op_##name;
#include "ops.def"
#undef WG_OP

/* The plan's container: `member` of type `type` at ptr. */
#define WG_CONTAINER_OF(ptr, type, member) ((type*)(void*)((char*)(ptr)-offsetof(type, member)))

/* Helpers for plan functions (op.c). Each returns WG_OK or fills *err and returns the rule's status. */
wg_status wg_fail(wg_error_info* err, wg_status status, wg_arg arg, int64_t dim, int64_t value,
                  int64_t limit);
/* The first batch_dims dims of data and indices are equal. */
wg_status wg_check_batch_shape(const wg_tensor* data, const wg_tensor* indices, size_t batch_dims,
                               wg_error_info* err);
/* axis in [-rank, rank), normalized into *out. */
wg_status wg_normalize_axis(int64_t axis, int64_t rank, size_t* out, wg_error_info* err);
/* Product of shape[begin..end), or SIZE_MAX if it overflows (only possible with an empty
 * tensor elsewhere, or a bogus shape). */
size_t wg_prod(const size_t* shape, size_t begin, size_t end);
/* Appends shape[begin..end) to the plan's output shape. */
void wg_plan_append(wg_plan* plan, const size_t* shape, size_t begin, size_t end);
/* Adds a stage to the plan. */
void wg_plan_stage(wg_plan* plan, const wg_stage_kind* kind, void* job, size_t range, size_t tile);
/* The tile of a stage whose items make item_bytes of output each (parallel.h: WG_TILE_BYTES). */
size_t wg_tile_for(size_t item_bytes);
/* Row-major strides of shape[0..n) whose last dimension steps by `unit`: strides[k] = unit *
 * prod(shape[k+1..n)). The caller knows they fit (a tensor that is not empty). */
void wg_strides(const size_t* shape, size_t n, size_t unit, size_t* strides);
/* Bytes of one element of a tensor of whole-byte elements (1, 2, 4, 8), else 0. */
size_t wg_elem_bytes(const wg_tensor* t);

/* The runner (runner.c): the run checks, the workspace, the parallel threshold, the stages, the
 * failure flag and the first bad index. */
wg_status wg_run_plan(wg_pool* pool, wg_plan* plan, const wg_call* c, wg_error_info* err);
/* n bytes copied from src to dst on the pool in tiles, as a run's stages are (runner.c): the
 * benchmark's parallel copy bound, nothing else. */
void wg_pool_copy(wg_pool* pool, void* dst, const void* src, size_t n);
/* n rows of row_bytes, row rows[i] at src + rows[i] * row_bytes, each copied in the order given
 * into dst, which holds dst_rows rows (a multiple of 64, reused: it stays in cache), on the pool in
 * tiles of 64 rows: the benchmark's bound for reading rows in a given order (runner.c), nothing else. */
void wg_pool_copy_rows(wg_pool* pool, void* dst, size_t dst_rows, const void* src, size_t row_bytes,
                       const int32_t* rows, size_t n);
/* The benchmark's and tests' switch, nothing else: parts > 0 makes every plan of the scatters'
 * stage that can sort (stage_scatter.h) sort into that many parts (at most WG_SCATTER_MAX_PARTS)
 * at any thread count, one thread too, so that the sort path's cost per item can be set beside
 * the one-applier pipeline's on one core; 0 restores the plans' own choice. */
void wg_scatter_force_parts(size_t parts);

#endif
