/* gather_block_quantized: onnxruntime's com.microsoft.GatherBlockQuantized, take(dequantize(data),
 * indices, gather_axis) without dequantizing what is not gathered.
 * https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.GatherBlockQuantized
 * Semantics and what onnxruntime-web 1.30 accepts: docs/gather-block-quantized.md.
 *
 * The output is outer * count slices (outer = prod of the logical dims before gather_axis, count
 * = the indices), each a run of `inner` consecutive logical elements of the table: slice (o, i)
 * is elements [(o * axis_size + indices[i]) * inner, + inner). A run is dequantized a block at a
 * time (one scale and one zero point each) by the kernels of dequant_kernels.h, in parallel over
 * slices. Code number p of the table is logical element p in both packings (uint8 rows hold
 * whole bytes), so only the scales and zero points need the block arithmetic. */
#include <stdatomic.h>
#include <string.h>

#include "dequant_kernels.h"
#include "index_resolve.h"
#include "op.h"
#include "parallel.h"

/* Blocks whose scales and zero points are read into arrays at once: a row's, or this many. */
#define ROW_BLOCKS 64

/* Where a block's zero point comes from. */
typedef enum zp_kind {
  ZP_DEFAULT, /* none given: 2^(bits-1) for uint8, 0 for 4-bit */
  ZP_BYTES,   /* uint8 bits 8: one byte per scale */
  ZP_ROWS,    /* uint8 bits 2/4: 8 / bits a byte along the last axis, each row starting on a byte */
  ZP_NIBBLES, /* uint4/int4: two a byte, flat over all the scales */
} zp_kind;

typedef struct gbq_plan {
  wg_plan plan;     /* first, as every op's (only its output shape is used here) */
  size_t outer;     /* prod(logical dims before gather_axis) */
  size_t axis_size; /* the logical gather dim */
  size_t count;     /* indices */
  size_t inner;     /* prod(logical dims after gather_axis): elements per slice */
  /* element p's block: scales[(p / (qlen * post) * nblk + (p / post) % qlen / block) * post + p % post] */
  size_t qlen, post, nblk, block;
  unsigned bits;
  int is_signed;
  zp_kind zp_kind;
  int32_t default_zp;
  size_t zp_row_bytes; /* ZP_ROWS */
  wg_scale_type scale_type;
  size_t out_size;      /* bytes per output value */
  wg_dequant_fn kernel; /* picked once per call */
  int whole_rows;       /* slices are whole rows of at most ROW_BLOCKS blocks: dequant_rows */
  size_t gather_axis;
  /* the run's tensors */
  const uint8_t* data;
  const void* scales;
  const uint8_t* zp;
  uint8_t* out;
  const void* indices;
  wg_index_type index_type;
  wg_oob_mode mode;
  wg_negative_mode negative;
  atomic_int failed;
} gbq_plan;

/* The scales (as float32) and zero points of blocks s0 .. s0 + count, which lie in one row of
 * the scales when the zero points are packed in rows (ZP_ROWS: the quantize axis is the last). */
static void block_params(const gbq_plan* t, size_t s0, size_t count, float* sc, int32_t* zp) {
  const uint8_t* scales = t->scales;
  uint16_t h;
  switch (t->scale_type) {
    case WG_SCALE_F32: memcpy(sc, scales + 4 * s0, 4 * count); break;
    case WG_SCALE_F16:
      for (size_t i = 0; i < count; ++i) memcpy(&h, scales + 2 * (s0 + i), 2), sc[i] = wg_f16_to_f32(h);
      break;
    default:
      for (size_t i = 0; i < count; ++i) memcpy(&h, scales + 2 * (s0 + i), 2), sc[i] = wg_bf16_to_f32(h);
  }
  switch (t->zp_kind) {
    case ZP_BYTES:
      for (size_t i = 0; i < count; ++i) zp[i] = t->zp[s0 + i];
      break;
    case ZP_ROWS: { /* code k of row r of the zero points is code r * row_bytes * per + k */
      const unsigned per = 8 / t->bits;
      const size_t first = s0 / t->nblk * t->zp_row_bytes * per + s0 % t->nblk;
      for (size_t i = 0; i < count; ++i) zp[i] = wg_code(t->zp, first + i, t->bits, 0);
      break;
    }
    case ZP_NIBBLES:
      for (size_t i = 0; i < count; ++i) zp[i] = wg_code(t->zp, s0 + i, 4, t->is_signed);
      break;
    default:
      for (size_t i = 0; i < count; ++i) zp[i] = t->default_zp;
  }
}

/* Whole rows row0 .. row0 + n of the table (quantize axis last, a row's blocks fitting the
 * arrays: t->whole_rows), one kernel call a row, no division on the way. */
static void dequant_rows(const gbq_plan* t, size_t row0, size_t n, uint8_t* dst) {
  float sc[ROW_BLOCKS];
  int32_t zp[ROW_BLOCKS];
  for (size_t r = row0; r < row0 + n; ++r, dst += t->qlen * t->out_size) {
    block_params(t, r * t->nblk, t->nblk, sc, zp);
    t->kernel(dst, t->data, r * t->qlen, t->qlen, t->block, 0, sc, zp);
  }
}

/* Logical elements p .. p + n of the table, dequantized into dst: runs of consecutive elements
 * whose blocks are consecutive, ROW_BLOCKS blocks at most, each one kernel call. With the
 * quantize axis last (post == 1) a run is (part of) a row, `block` elements a block; otherwise
 * consecutive elements have consecutive scales, a block of one element each. */
static void dequant_run(const gbq_plan* t, size_t p, size_t n, uint8_t* dst) {
  float sc[ROW_BLOCKS];
  int32_t zp[ROW_BLOCKS];
  size_t post_i = p % t->post, x = p / t->post % t->qlen, pre = p / t->post / t->qlen;
  while (n) {
    size_t s = (pre * t->nblk + x / t->block) * t->post + post_i; /* the first element's block */
    size_t m, count, block, phase;
    if (t->post == 1) {
      phase = x % t->block;
      block = t->block;
      m = t->qlen - x; /* the rest of the row, or as many blocks as the arrays hold */
      if (m > ROW_BLOCKS * block - phase) m = ROW_BLOCKS * block - phase;
      if (m > n) m = n;
      count = (phase + m + block - 1) / block;
    } else {
      phase = 0;
      block = 1;
      m = t->post - post_i < ROW_BLOCKS ? t->post - post_i : ROW_BLOCKS;
      if (m > n) m = n;
      count = m;
    }
    block_params(t, s, count, sc, zp);
    t->kernel(dst, t->data, p, m, block, phase, sc, zp);
    dst += m * t->out_size;
    p += m;
    n -= m;
    if (t->post == 1) {
      x += m;
    } else if ((post_i += m) == t->post) {
      post_i = 0;
      ++x;
    }
    if (x == t->qlen) x = 0, ++pre;
  }
}

/* Slices a tile of the job: their indices resolved WG_SEGMENT at a time (every out-of-range
 * mode), then each dequantized or zeroed. */
static void run_slices(void* ctx, size_t start, size_t n) {
  gbq_plan* t = ctx;
  const size_t slice_bytes = t->inner * t->out_size;
  size_t off[WG_SEGMENT];
  for (size_t q = start, end = start + n; q < end;) {
    if (atomic_load_explicit(&t->failed, memory_order_relaxed)) return;
    size_t i = q % t->count, o = q / t->count;
    size_t k = end - q;
    if (k > t->count - i) k = t->count - i;
    if (k > WG_SEGMENT) k = WG_SEGMENT;
    if (wg_resolve_indices(t->indices, t->index_type, i, 1, k, t->axis_size, 0, 1, t->mode,
                           t->negative, 0, off) != WG_OK) {
      atomic_store(&t->failed, 1);
      return;
    }
    for (size_t j = 0; j < k; ++j) {
      uint8_t* dst = t->out + (q + j) * slice_bytes;
      if (off[j] == WG_ZERO_BLOCK) {
        memset(dst, 0, slice_bytes); /* +0 in each of the three types */
      } else if (t->whole_rows) {
        size_t rows = t->inner / t->qlen;
        dequant_rows(t, (o * t->axis_size + off[j]) * rows, rows, dst);
      } else {
        dequant_run(t, (o * t->axis_size + off[j]) * t->inner, t->inner, dst);
      }
    }
    q += k;
  }
}

/* shape == want in rank and every dim, else `status` naming the first difference. */
static wg_status check_shape(const size_t* shape, size_t rank, const size_t* want, size_t want_rank,
                             wg_status status, wg_arg arg, wg_error_info* err) {
  if (rank != want_rank) return wg_fail(err, status, arg, -1, (int64_t)rank, (int64_t)want_rank);
  if (rank && !shape) return wg_fail(err, WG_ERR_INVALID_ARGUMENT, arg, -1, -1, -1);
  for (size_t d = 0; d < rank; ++d) {
    if (shape[d] != want[d]) return wg_fail(err, status, arg, (int64_t)d, (int64_t)shape[d], (int64_t)want[d]);
  }
  return WG_OK;
}

/* Every rule: data rank >= 1; quant type, bits, block size; both axes in range, the quantize
 * axis last for uint8; the scales' and zero points' shapes. Output: the logical data shape with
 * the gather axis replaced by indices.shape. */
static wg_status plan_gbq(const wg_op_args* a, gbq_plan* t, wg_error_info* err) {
  const wg_quant_desc* q = &a->quant;
  size_t rank = a->data_rank;
  if (rank < 1) return wg_fail(err, WG_ERR_DATA_SCALAR, WG_ARG_DATA, -1, 0, 1);
  if (!(q->quant_type == WG_QUANT_UINT8 || q->quant_type == WG_QUANT_UINT4 || q->quant_type == WG_QUANT_INT4) ||
      !(q->scale_type == WG_SCALE_F32 || q->scale_type == WG_SCALE_F16 || q->scale_type == WG_SCALE_BF16)) {
    return wg_fail(err, WG_ERR_INVALID_ARGUMENT, WG_ARG_NONE, -1, -1, -1);
  }
  int packed = q->quant_type == WG_QUANT_UINT8; /* 8 / bits codes a byte along the last axis */
  if (packed ? !(q->bits == 2 || q->bits == 4 || q->bits == 8) : q->bits != 4) {
    return wg_fail(err, WG_ERR_BITS, WG_ARG_NONE, -1, q->bits, q->quant_type);
  }
  if (q->block_size < 16 || (q->block_size & (q->block_size - 1))) {
    return wg_fail(err, WG_ERR_BLOCK_SIZE, WG_ARG_NONE, -1, q->block_size, 16);
  }
  size_t g, qa;
  wg_status st = wg_normalize_axis(a->axis, (int64_t)rank, &g, err);
  if (st != WG_OK) return st;
  st = wg_normalize_axis(q->quantize_axis, (int64_t)rank, &qa, err);
  if (st != WG_OK) {
    if (err) err->arg = WG_ARG_QUANTIZE_AXIS;
    return st;
  }
  if (packed && qa != rank - 1) {
    return wg_fail(err, WG_ERR_QUANTIZE_AXIS_PACKED, WG_ARG_QUANTIZE_AXIS, -1, q->quantize_axis,
                   (int64_t)rank - 1);
  }
  /* The logical shape: for uint8 the last stored dim holds 8 / bits codes an element. */
  size_t shape[WG_MAX_RANK];
  memcpy(shape, a->data_shape, rank * sizeof *shape);
  unsigned per = packed ? 8 / (unsigned)q->bits : 1;
  if (shape[rank - 1] > SIZE_MAX / per) return wg_fail(err, WG_ERR_SIZE_OVERFLOW, WG_ARG_DATA, -1, -1, -1);
  shape[rank - 1] *= per;
  if (wg_prod(shape, 0, rank) == SIZE_MAX) return wg_fail(err, WG_ERR_SIZE_OVERFLOW, WG_ARG_DATA, -1, -1, -1);

  size_t bs = (size_t)q->block_size;
  size_t scale_shape[WG_MAX_RANK];
  memcpy(scale_shape, shape, rank * sizeof *shape);
  scale_shape[qa] = shape[qa] / bs + (shape[qa] % bs != 0);
  st = check_shape(q->scale_shape, q->scale_rank, scale_shape, rank, WG_ERR_SCALES_SHAPE,
                   WG_ARG_SCALES, err);
  if (st != WG_OK) return st;
  t->zp_kind = ZP_DEFAULT;
  if (q->has_zero_points) {
    size_t zp_shape[WG_MAX_RANK];
    memcpy(zp_shape, scale_shape, rank * sizeof *shape);
    zp_shape[rank - 1] = zp_shape[rank - 1] / per + (zp_shape[rank - 1] % per != 0);
    st = check_shape(q->zp_shape, q->zp_rank, zp_shape, rank, WG_ERR_ZERO_POINTS_SHAPE,
                     WG_ARG_ZERO_POINTS, err);
    if (st != WG_OK) return st;
    t->zp_kind = !packed ? ZP_NIBBLES : q->bits == 8 ? ZP_BYTES : ZP_ROWS;
    t->zp_row_bytes = zp_shape[rank - 1];
  }

  wg_plan* p = &t->plan;
  p->out_rank = 0;
  wg_plan_append(p, shape, 0, g);
  wg_plan_append(p, a->index_shape, 0, a->index_rank);
  wg_plan_append(p, shape, g + 1, rank);
  t->outer = wg_prod(shape, 0, g);
  t->axis_size = shape[g];
  t->count = wg_prod(a->index_shape, 0, a->index_rank);
  t->inner = wg_prod(shape, g + 1, rank);
  t->gather_axis = g;
  t->qlen = shape[qa];
  t->post = wg_prod(shape, qa + 1, rank);
  t->nblk = scale_shape[qa];
  t->block = bs;
  t->bits = (unsigned)q->bits;
  t->is_signed = q->quant_type == WG_QUANT_INT4;
  t->default_zp = packed ? 1 << (q->bits - 1) : 0;
  t->scale_type = (wg_scale_type)q->scale_type;
  t->out_size = wg_scale_bytes(t->scale_type);
  t->kernel = wg_pick_dequant(t->bits, t->is_signed, t->scale_type);
  t->whole_rows = t->post == 1 && t->qlen && t->inner % t->qlen == 0 && t->nblk <= ROW_BLOCKS;
  return WG_OK;
}

static wg_status run_gbq(wg_pool* pool, gbq_plan* t, const wg_op_args* a, wg_error_info* err) {
  wg_status st = wg_check_out_rank(&t->plan, err);
  if (st != WG_OK) return st;
  size_t n = wg_prod(t->plan.out_shape, 0, t->plan.out_rank);
  if (n == SIZE_MAX || (n != 0 && t->out_size > SIZE_MAX / n)) {
    return wg_fail(err, WG_ERR_SIZE_OVERFLOW, WG_ARG_OUT, -1, -1, -1);
  }
  if (!wg_index_type_valid(a->index_type) || !wg_oob_mode_valid(a->mode) ||
      !wg_negative_mode_valid(a->negative_indices) || (t->count && !a->indices) || a->offsets ||
      (n && (!a->data || !a->scales || !a->out || (a->quant.has_zero_points && !a->zero_points)))) {
    return wg_fail(err, WG_ERR_INVALID_ARGUMENT, WG_ARG_NONE, -1, -1, -1);
  }
  t->data = a->data;
  t->scales = a->scales;
  t->zp = a->zero_points;
  t->out = a->out;
  t->indices = a->indices;
  t->index_type = a->index_type;
  t->mode = a->mode;
  t->negative = (wg_negative_mode)a->negative_indices;
  atomic_init(&t->failed, 0);
  size_t total = n * t->out_size;
  if (total) {
    size_t slices = t->outer * t->count; /* factors of n: no overflow */
    size_t tile = WG_TILE_BYTES / (t->inner * t->out_size);
    /* Small jobs run on the caller alone: waking the pool costs more than it saves. */
    wg_parallelize_1d(total < wg_pool_parallel_threshold(pool) ? NULL : pool, run_slices, t,
                      slices, tile ? tile : 1);
  }
  int scan = t->mode == WG_OOB_ERROR && (total == 0 || atomic_load(&t->failed));
  if (scan && wg_find_bad_index(t->indices, t->index_type, t->negative, t->count, 1,
                                &t->axis_size, t->gather_axis, err)) {
    return WG_ERR_INDEX_OUT_OF_RANGE;
  }
  return WG_OK;
}

WG_DEFINE_OP_RUN(gather_block_quantized, gbq_plan, plan_gbq, run_gbq)

wg_status wg_gather_block_quantized_shape(const size_t* data_shape, size_t data_rank,
                                          const size_t* indices_shape, size_t indices_rank,
                                          int32_t gather_axis, const wg_quant_desc* q,
                                          size_t* out_shape, size_t* out_rank, wg_error_info* err) {
  if (!q) return wg_fail(err, WG_ERR_INVALID_ARGUMENT, WG_ARG_NONE, -1, -1, -1);
  const wg_op_args a = {.data_shape = data_shape, .data_rank = data_rank,
                        .index_shape = indices_shape, .index_rank = indices_rank,
                        .axis = gather_axis, .elem_size = 1, .quant = *q};
  return wg_gather_block_quantized_shape_args(&a, out_shape, out_rank, err);
}

wg_status wg_gather_block_quantized_ex(wg_pool* pool, const uint8_t* data,
                                       const size_t* data_shape, size_t data_rank,
                                       const void* indices, wg_index_type index_type,
                                       const size_t* indices_shape, size_t indices_rank,
                                       int32_t gather_axis, const void* scales,
                                       const uint8_t* zero_points, const wg_quant_desc* q,
                                       wg_oob_mode mode, wg_negative_mode negative, void* out,
                                       wg_error_info* err) {
  if (!q) return wg_fail(err, WG_ERR_INVALID_ARGUMENT, WG_ARG_NONE, -1, -1, -1);
  const wg_op_args a = {.data_shape = data_shape, .data_rank = data_rank,
                        .index_shape = indices_shape, .index_rank = indices_rank,
                        .axis = gather_axis, .elem_size = 1, .data = data, .indices = indices,
                        .index_type = index_type, .mode = mode,
                        .negative_indices = (int32_t)negative, .out = out, .quant = *q,
                        .scales = scales, .zero_points = zero_points};
  return wg_gather_block_quantized_run_args(pool, &a, err);
}

wg_status wg_gather_block_quantized(wg_pool* pool, const uint8_t* data, const size_t* data_shape,
                                    size_t data_rank, const void* indices, wg_index_type index_type,
                                    const size_t* indices_shape, size_t indices_rank,
                                    int32_t gather_axis, const void* scales,
                                    const uint8_t* zero_points, const wg_quant_desc* q,
                                    wg_oob_mode mode, void* out, wg_error_info* err) {
  return wg_gather_block_quantized_ex(pool, data, data_shape, data_rank, indices, index_type,
                                      indices_shape, indices_rank, gather_axis, scales,
                                      zero_points, q, mode, WG_NEGATIVE_WRAP, out, err);
}
