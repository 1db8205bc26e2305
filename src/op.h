/* The interface between an op and the engine (XNNPACK's split: an op plans, the engine runs).
 *
 * An op is one file, src/op_<name>.c, and one line in src/ops.def. Its plan function validates
 * the arguments, normalizes them (negative axis, batch dims) and fills a wg_plan: the output
 * shape, and the copy job that computes it (how many blocks, their size, where each comes from).
 * The same plan serves the shape query and the run, so every rule is checked in one place.
 * WG_DEFINE_OP then gives the op its two entry points (shape, run), which the public API
 * wrappers of wasm_gather.h and the JS binding's dispatch (wasm_exports.c) call. */
#ifndef WG_OP_H
#define WG_OP_H

#include "block_job.h"
#include "wasm_gather.h"

/* One call of any op: the public API's arguments in one record. */
typedef struct wg_op_args {
  const size_t* data_shape;
  size_t data_rank;
  const size_t* index_shape;
  size_t index_rank;
  int32_t axis;       /* take: axis; gather: dim; unused by gather_nd */
  int32_t batch_dims; /* take, gather_nd */
  size_t elem_size;   /* bytes per data element; a shape query plans with 1 */
  /* the run's tensors and options (a shape query leaves them unset) */
  const void* data;
  const void* indices;
  wg_index_type index_type;
  wg_oob_mode mode;
  int32_t negative_indices; /* wg_negative_mode; validated with the mode */
  void* out;
  /* The copy ops (take, gather, gather_nd; not gather_block_quantized): with offsets set, the
   * run resolves the output into its blocks' sources instead of copying them (the plan executed
   * elsewhere: js/copy-plan.mjs). offsets[b] is the byte offset in data of output block b, or
   * WG_ZERO_BLOCK (SIZE_MAX) for a block of zeros, for b below the block count; every block has
   * out's byte size / that count bytes. data and out are not touched (they may be NULL); the
   * rules and the errors are the run's. */
  size_t* offsets;
  /* The shape query writes the block count there when it is set (0 for
   * gather_block_quantized, which has no copy plan). */
  size_t* out_blocks;
  /* gather_block_quantized only: the table's quantization, its scales and zero points */
  wg_quant_desc quant;
  const void* scales;
  const void* zero_points;
} wg_op_args;

/* What a plan gives the engine. Each op's own plan type begins with it (and its map function
 * casts the job back to that type, as the job is the first member of both). */
typedef struct wg_plan {
  /* Set by the op: nblocks, block_bytes, map, depth, dim_sizes, first_dim, scales. The engine
   * sets the tensors, the index type and count, and the mode. */
  wg_block_job job;
  size_t out_rank;
  size_t out_shape[2 * WG_MAX_RANK]; /* room for any rank an op computes; the engine refuses
                                        one above WG_MAX_RANK */
} wg_plan;

/* Helpers for plan functions. Each returns WG_OK or fills *err and returns the rule's status. */
wg_status wg_fail(wg_error_info* err, wg_status status, wg_arg arg, int64_t dim, int64_t value,
                  int64_t limit);
/* The first batch_dims dims of data and indices are equal. */
wg_status wg_check_batch_shape(const wg_op_args* a, size_t batch_dims, wg_error_info* err);
/* axis in [-rank, rank), normalized into *out. */
wg_status wg_normalize_axis(int64_t axis, int64_t rank, size_t* out, wg_error_info* err);
/* Product of shape[begin..end), or SIZE_MAX if it overflows (only possible with an empty
 * tensor elsewhere, or a bogus shape). */
size_t wg_prod(const size_t* shape, size_t begin, size_t end);
/* Appends shape[begin..end) to the plan's output shape. */
void wg_plan_append(wg_plan* plan, const size_t* shape, size_t begin, size_t end);

/* The engine's two entry points for a planned op (src/op_engine.c): the common checks every
 * call gets before its plan (shapes present, ranks <= WG_MAX_RANK) are in WG_DEFINE_OP. */
wg_status wg_check_args(const wg_op_args* a, wg_error_info* err);
/* The output's rank is at most WG_MAX_RANK (a plan may compute more). */
wg_status wg_check_out_rank(const wg_plan* plan, wg_error_info* err);
wg_status wg_plan_shape(const wg_plan* plan, size_t* out_shape, size_t* out_rank,
                        wg_error_info* err);
wg_status wg_plan_run(wg_pool* pool, wg_plan* plan, const wg_op_args* a, wg_error_info* err);

typedef wg_status (*wg_op_shape_fn)(const wg_op_args* a, size_t* out_shape, size_t* out_rank,
                                    wg_error_info* err);
typedef wg_status (*wg_op_run_fn)(wg_pool* pool, const wg_op_args* a, wg_error_info* err);

/* Defines wg_<name>_shape_args and wg_<name>_run_args from the op's plan type and function
 * (wg_status plan_fn(const wg_op_args*, plan_type*, wg_error_info*)); the run is the engine's
 * copy job. */
#define WG_DEFINE_OP(name, plan_type, plan_fn) WG_DEFINE_OP_WITH(name, plan_type, plan_fn, wg_plan_run, .plan, 1)

/* The same for an op that runs its plan itself: wg_status run_fn(wg_pool*, plan_type*,
 * const wg_op_args*, wg_error_info*). */
#define WG_DEFINE_OP_RUN(name, plan_type, plan_fn, run_fn) WG_DEFINE_OP_WITH(name, plan_type, plan_fn, run_fn, , 0)

#define WG_DEFINE_OP_WITH(name, plan_type, plan_fn, run_fn, member, copy_job)                    \
  wg_status wg_##name##_shape_args(const wg_op_args* a, size_t* out_shape, size_t* out_rank,     \
                                   wg_error_info* err) {                                         \
    plan_type p;                                                                                 \
    wg_status st = wg_check_args(a, err);                                                        \
    if (st == WG_OK) st = plan_fn(a, &p, err);                                                   \
    if (st == WG_OK && a->out_blocks) *a->out_blocks = (copy_job) ? p.plan.job.nblocks : 0;      \
    return st == WG_OK ? wg_plan_shape(&p.plan, out_shape, out_rank, err) : st;                  \
  }                                                                                              \
  wg_status wg_##name##_run_args(wg_pool* pool, const wg_op_args* a, wg_error_info* err) {       \
    plan_type p;                                                                                 \
    wg_status st = wg_check_args(a, err);                                                        \
    if (st == WG_OK) st = plan_fn(a, &p, err);                                                   \
    return st == WG_OK ? run_fn(pool, &p member, a, err) : st;                                   \
  }

/* Declarations of every op's entry points, from the table. */
#define WG_OP(name)                                                                              \
  wg_status wg_##name##_shape_args(const wg_op_args* a, size_t* out_shape, size_t* out_rank,     \
                                   wg_error_info* err);                                          \
  wg_status wg_##name##_run_args(wg_pool* pool, const wg_op_args* a, wg_error_info* err);
#include "ops.def"
#undef WG_OP

#endif
