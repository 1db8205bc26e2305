/* The dequantization, a kind of stage (src/op.h): slices of a block-quantized table, gathered
 * and dequantized. The output is outer * count slices (outer = prod of the logical dims before
 * gather_axis, count = the indices), each a run of `inner` consecutive logical elements of
 * the table: slice (o, i) is elements [(o * axis_size + indices[i]) * inner, + inner). A run is
 * dequantized a block at a time (one scale and one zero point each) by the kernels of
 * dequant_kernels.h, in parallel over slices. Code number p of the table is logical element p in
 * both packings (uint8 rows hold whole bytes), so only the scales and zero points need the block
 * arithmetic. The layouts: https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md */
#ifndef WG_STAGE_DEQUANT_H
#define WG_STAGE_DEQUANT_H

#include "dequant_kernels.h"
#include "op.h"

/* Blocks whose scales and zero points are read into arrays at once: a row's, or this many. */
#define WG_ROW_BLOCKS 64

/* Where a block's zero point comes from. */
typedef enum wg_zp_kind {
  WG_ZP_DEFAULT, /* none given: 2^(bits-1) for uint8, 0 for 4-bit */
  WG_ZP_BYTES,   /* uint8 bits 8: one byte per scale */
  WG_ZP_ROWS,    /* uint8 bits 2/4: 8 / bits a byte along the last axis, each row starting on a byte */
  WG_ZP_NIBBLES, /* uint4/int4: two a byte, flat over all the scales */
} wg_zp_kind;

typedef struct wg_dequant_job {
  /* set by the op's plan */
  size_t outer;     /* prod(logical dims before gather_axis) */
  size_t axis_size; /* the logical dim along gather_axis */
  size_t count;     /* indices */
  size_t inner;     /* prod(logical dims after gather_axis): elements per slice */
  /* element p's block: scales[(p / (qlen * post) * nblk + (p / post) % qlen / block) * post + p % post] */
  size_t qlen, post, nblk, block;
  unsigned bits;
  int is_signed;
  wg_zp_kind zp_kind;
  int32_t default_zp;
  size_t zp_row_bytes; /* WG_ZP_ROWS */
  wg_scale_type scale_type;
  size_t out_size;      /* bytes per output value */
  wg_dequant_fn kernel; /* picked once per call */
  int whole_rows;       /* slices are whole rows of at most WG_ROW_BLOCKS blocks: dequant_rows */
  /* bound from the call by the runner */
  const uint8_t* data;
  const void* scales;
  const uint8_t* zp;
  uint8_t* out;
  const void* indices;
  wg_index_type index_type;
  wg_oob_mode mode;
  wg_negative_mode negative;
} wg_dequant_job;

extern const wg_stage_kind wg_stage_dequant;

/* wg_quant_type's values as the codes' dtypes, wg_scale_type's as the scales'. */
extern const wg_value_dtype wg_quant_dtypes[3], wg_scale_dtypes[3];
/* The rules of a block-quantized table (the call's data, scales, zero points, bits, block size,
 * quantize axis: onnxruntime's GatherBlockQuantized): data rank >= 1; quant type, bits, block
 * size; the quantize axis in range, and last for uint8; the scales' and zero points' shapes.
 * Fills the job's layout of the table (all but outer, axis_size, count, inner, whole_rows) and
 * its logical shape (data's rank). */
wg_status wg_dequant_table(const wg_call* c, wg_dequant_job* job, size_t* shape, wg_error_info* err);

/* Whether slices of `inner` logical elements are whole rows of the table (the quantize axis
 * last, a row's blocks fitting the arrays): job->whole_rows. */
int wg_dequant_whole_rows(const wg_dequant_job* job, size_t inner);
/* The table's addresses from the call (the stage's bind does this and more). */
void wg_dequant_bind(wg_dequant_job* job, const wg_call* c);
/* Logical elements p .. p + n of the table dequantized into dst, in the scales' type: a bound
 * job's slice, or part of one (the fused gather-reduce sums them: stage_bag.c); whole rows a
 * row at a time when job->whole_rows. */
void wg_dequant_elements(const wg_dequant_job* job, size_t p, size_t n, void* dst);

/* The zero points of blocks s0 .. s0 + count into zp (blocks numbered as the scales are; with
 * zero points packed in rows, all in one row of the scales). */
void wg_dequant_zero_points(const wg_dequant_job* job, size_t s0, size_t count, int32_t* zp);

/* Adds the job as the plan's stage, with its index check (gather_axis, first_dim). */
void wg_plan_dequant(wg_plan* plan, wg_dequant_job* job, size_t first_dim);

#endif
