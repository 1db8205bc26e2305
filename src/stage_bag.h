/* The segment reduction, a kind of stage (src/op.h) shared by the fused gather-reduce ops
 * (src/ops.def's last two): output row (o, s) is the reduction of segment s's rows, in order. A
 * row is entry j of outer slice o (data[o, j, :]), or the table's row that index j selects (a
 * bag: outer 1). Items are output rows, in parallel; a row is
 * reduced a chunk of columns at a time (WG_BAG_CHUNK, in registers and on the stack), each entry
 * after the one before, so that the result is the same at any thread count and in both builds.
 * The rules each op follows (torch's embedding bags, torch's and TensorFlow's segment reductions,
 * float16 accumulated in float32, float32 weighted sums as fused multiply-adds) are written in
 * docs/fused-gather-reduce.md and checked against common/reference-bag.mjs. */
#ifndef WG_STAGE_BAG_H
#define WG_STAGE_BAG_H

#include "fma32.h" /* wg_fma32, defined in stage_bag.c */
#include "op.h"
#include "stage_dequant.h"

/* Columns reduced at once: a chunk's accumulators on the stack. */
#define WG_BAG_CHUNK 256

/* What the rows hold; every float type but float64 is reduced in float32. */
typedef enum wg_bag_value { WG_BAG_F32, WG_BAG_F64, WG_BAG_F16, WG_BAG_BF16, WG_BAG_QUANT } wg_bag_value;

typedef struct wg_bag_job {
  /* set by the op's plan */
  size_t outer;      /* slices before the reduced axis (bags: 1) */
  size_t entries;    /* along the reduced axis: the indices (bags) or data's axis */
  size_t bags;       /* segments */
  size_t fixed;      /* WG_SEGMENTS_FIXED: entries a bag */
  size_t inner;      /* elements a row */
  int gathers;       /* the rows are the table's that the indices select (else data's entries, float32 or float64) */
  size_t rows;       /* gathers: the table's rows */
  wg_bag_value value;
  int32_t reduce;    /* wg_reduce */
  int32_t form;      /* wg_segment_form */
  int exact_end;     /* the segments must end at the end of the axis (torch's segments) */
  int bag_max;       /* max as torch's bags' (the first row, then a greater value; a NaN only
                        first); else as segments' (from the start, a NaN goes through) */
  int empty_zero;    /* an empty segment is zeros; else it keeps its start (mean: NaN) */
  int weighted, fused, has_padding, return_indices, has_initial;
  size_t padding;    /* a row, normalized */
  wg_dequant_job quant; /* WG_BAG_QUANT: the table's layout (stage_dequant.h) */
  wg_dequant_sum_fn quant_sum; /* WG_BAG_QUANT: sums its rows as it dequantizes them, or NULL */
  size_t out_size;   /* bytes of an output value */
  /* bound from the call by the runner */
  const uint8_t* data;
  const void* indices;
  wg_index_type index_type;
  wg_oob_mode mode;
  wg_negative_mode negative;
  const void* segments;
  wg_index_type segments_type;
  size_t segments_len;
  const void* weights;
  size_t* starts; /* the workspace: segment s is entries [starts[s], starts[s + 1]) */
  uint8_t* out;
  int32_t* out_indices;
  double initial; /* the start of every segment (has_initial), in the accumulator's type */
} wg_bag_job;

extern const wg_stage_kind wg_stage_bag;

/* The segments of the call's form (the segments tensor's length and the entries: job->form,
 * job->entries set) into job->bags, with the form's shape rules. */
wg_status wg_bag_segments(const wg_call* c, wg_bag_job* job, wg_error_info* err);
/* Checks the job's bound segments (segments, segments_type, segments_len) by the form's rules and
 * writes the starts into job->starts (bags + 1 of them; none for fixed bags). */
wg_status wg_bag_check_segments(const wg_bag_job* job, wg_error_info* err);
/* The bags' indices (2-D for fixed bags, else 1-D with their segments) and mode (sum, mean, max,
 * sqrtn) from the call, the forward's rules and its gradient's: job->form, reduce, entries, outer,
 * gathers, and the bags (wg_bag_segments). */
wg_status wg_bag_indices(const wg_call* c, wg_bag_job* job, wg_error_info* err);
/* The bags' per-sample weights (the call's weights tensor: none, or of value_dtype and the indices'
 * shape, not with max) and padding_idx (in [-rows, rows), normalized), the forward's rules and its
 * gradient's, into job->weighted, has_padding, padding (job->reduce, rows set). */
wg_status wg_bag_weights_padding(const wg_call* c, wg_bag_job* job, int32_t value_dtype, wg_error_info* err);
/* Adds the job as the plan's stage, its workspace (the segments' starts) and its checks. */
void wg_plan_bag(wg_plan* plan, wg_bag_job* job);


#endif
