#include "stage_dequant.h"

#include <string.h>

#include "index_resolve.h"

/* The dtypes of wg_quant_type's values (the table's codes) and of wg_scale_type's (the scales'). */
const wg_value_dtype wg_quant_dtypes[3] = {
    {WG_QUANT_UINT8, WG_DTYPE_U8}, {WG_QUANT_UINT4, WG_DTYPE_U4}, {WG_QUANT_INT4, WG_DTYPE_I4}};
const wg_value_dtype wg_scale_dtypes[3] = {
    {WG_SCALE_F32, WG_DTYPE_F32}, {WG_SCALE_F16, WG_DTYPE_F16}, {WG_SCALE_BF16, WG_DTYPE_BF16}};

/* shape == want in rank and every dim, else `status` naming the first difference. */
static wg_status check_shape(const size_t* shape, size_t rank, const size_t* want, size_t want_rank,
                             wg_status status, wg_arg arg, wg_error_info* err) {
  if (rank != want_rank) return wg_fail(err, status, arg, -1, (int64_t)rank, (int64_t)want_rank);
  for (size_t d = 0; d < rank; ++d) {
    if (shape[d] != want[d]) return wg_fail(err, status, arg, (int64_t)d, (int64_t)shape[d], (int64_t)want[d]);
  }
  return WG_OK;
}

/* The table's rules (wg_dequant_table in stage_dequant.h). */
wg_status wg_dequant_table(const wg_call* c, wg_dequant_job* t, size_t* shape, wg_error_info* err) {
  const wg_tensor* data = &c->tensors[WG_TENSOR_data];
  const wg_tensor* scales = &c->tensors[WG_TENSOR_scales];
  const wg_tensor* zero_points = &c->tensors[WG_TENSOR_zero_points];
  const int32_t bits = c->attrs[WG_ATTR_bits], block_size = c->attrs[WG_ATTR_block_size];
  const int32_t quantize_axis = c->attrs[WG_ATTR_quantize_axis];
  size_t rank = data->rank;
  if (rank < 1) return wg_fail(err, WG_ERR_DATA_SCALAR, WG_ARG_DATA, -1, 0, 1);
  int32_t quant_type = wg_value_of_dtype(wg_quant_dtypes, 3, data->dtype);
  int32_t scale_type = wg_value_of_dtype(wg_scale_dtypes, 3, scales->dtype);
  if (quant_type < 0 || scale_type < 0) return wg_fail(err, WG_ERR_INVALID_ARGUMENT, WG_ARG_NONE, -1, -1, -1);
  int packed = quant_type == WG_QUANT_UINT8; /* 8 / bits codes a byte along the last axis */
  if (packed ? !(bits == 2 || bits == 4 || bits == 8) : bits != 4) {
    return wg_fail(err, WG_ERR_BITS, WG_ARG_NONE, -1, bits, quant_type);
  }
  if (block_size < 16 || (block_size & (block_size - 1))) {
    return wg_fail(err, WG_ERR_BLOCK_SIZE, WG_ARG_NONE, -1, block_size, 16);
  }
  size_t qa;
  wg_status st = wg_normalize_axis(quantize_axis, (int64_t)rank, &qa, err);
  if (st != WG_OK) {
    if (err) err->arg = WG_ARG_QUANTIZE_AXIS;
    return st;
  }
  if (packed && qa != rank - 1) {
    return wg_fail(err, WG_ERR_QUANTIZE_AXIS_PACKED, WG_ARG_QUANTIZE_AXIS, -1, quantize_axis,
                   (int64_t)rank - 1);
  }
  /* The logical shape: for uint8 the last stored dim holds 8 / bits codes an element. */
  memcpy(shape, data->shape, rank * sizeof *shape);
  unsigned per = packed ? 8 / (unsigned)bits : 1;
  if (shape[rank - 1] > SIZE_MAX / per) return wg_fail(err, WG_ERR_SIZE_OVERFLOW, WG_ARG_DATA, -1, -1, -1);
  shape[rank - 1] *= per;
  if (wg_prod(shape, 0, rank) == SIZE_MAX) return wg_fail(err, WG_ERR_SIZE_OVERFLOW, WG_ARG_DATA, -1, -1, -1);

  size_t bs = (size_t)block_size;
  size_t scale_shape[WG_MAX_RANK];
  memcpy(scale_shape, shape, rank * sizeof *shape);
  scale_shape[qa] = shape[qa] / bs + (shape[qa] % bs != 0);
  st = check_shape(scales->shape, scales->rank, scale_shape, rank, WG_ERR_SCALES_SHAPE,
                   WG_ARG_SCALES, err);
  if (st != WG_OK) return st;
  t->zp_kind = WG_ZP_DEFAULT;
  if (zero_points->dtype != WG_DTYPE_NONE) {
    size_t zp_shape[WG_MAX_RANK];
    memcpy(zp_shape, scale_shape, rank * sizeof *shape);
    zp_shape[rank - 1] = zp_shape[rank - 1] / per + (zp_shape[rank - 1] % per != 0);
    st = check_shape(zero_points->shape, zero_points->rank, zp_shape, rank, WG_ERR_ZERO_POINTS_SHAPE,
                     WG_ARG_ZERO_POINTS, err);
    if (st != WG_OK) return st;
    if (zero_points->dtype != data->dtype) return wg_fail(err, WG_ERR_INVALID_ARGUMENT, WG_ARG_ZERO_POINTS, -1, -1, -1);
    t->zp_kind = !packed ? WG_ZP_NIBBLES : bits == 8 ? WG_ZP_BYTES : WG_ZP_ROWS;
    t->zp_row_bytes = zp_shape[rank - 1];
  }

  t->qlen = shape[qa];
  t->post = wg_prod(shape, qa + 1, rank);
  t->nblk = scale_shape[qa];
  t->block = bs;
  t->bits = (unsigned)bits;
  t->is_signed = quant_type == WG_QUANT_INT4;
  t->default_zp = packed ? 1 << (bits - 1) : 0;
  t->scale_type = (wg_scale_type)scale_type;
  t->out_size = wg_scale_bytes(t->scale_type);
  t->kernel = wg_pick_dequant(t->bits, t->is_signed, t->scale_type);
  return WG_OK;
}

/* The zero points of blocks s0 .. s0 + count (wg_dequant_zero_points in stage_dequant.h). */
void wg_dequant_zero_points(const wg_dequant_job* t, size_t s0, size_t count, int32_t* zp) {
  switch (t->zp_kind) {
    case WG_ZP_BYTES:
      for (size_t i = 0; i < count; ++i) zp[i] = t->zp[s0 + i];
      break;
    case WG_ZP_ROWS: { /* code k of row r of the zero points is code r * row_bytes * per + k */
      const unsigned per = 8 / t->bits;
      const size_t first = s0 / t->nblk * t->zp_row_bytes * per + s0 % t->nblk;
      for (size_t i = 0; i < count; ++i) zp[i] = wg_code(t->zp, first + i, t->bits, 0);
      break;
    }
    case WG_ZP_NIBBLES:
      for (size_t i = 0; i < count; ++i) zp[i] = wg_code(t->zp, s0 + i, 4, t->is_signed);
      break;
    default:
      for (size_t i = 0; i < count; ++i) zp[i] = t->default_zp;
  }
}

/* The scales (as float32) and zero points of blocks s0 .. s0 + count, which lie in one row of
 * the scales when the zero points are packed in rows (WG_ZP_ROWS: the quantize axis is the last). */
static void block_params(const wg_dequant_job* t, size_t s0, size_t count, float* sc, int32_t* zp) {
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
  wg_dequant_zero_points(t, s0, count, zp);
}

/* Whole rows row0 .. row0 + n of the table (quantize axis last, a row's blocks fitting the
 * arrays: t->whole_rows), one kernel call a row, no division on the way. */
static void dequant_rows(const wg_dequant_job* t, size_t row0, size_t n, uint8_t* dst) {
  float sc[WG_ROW_BLOCKS];
  int32_t zp[WG_ROW_BLOCKS];
  for (size_t r = row0; r < row0 + n; ++r, dst += t->qlen * t->out_size) {
    block_params(t, r * t->nblk, t->nblk, sc, zp);
    t->kernel(dst, t->data, r * t->qlen, t->qlen, t->block, 0, sc, zp);
  }
}

/* Logical elements p .. p + n of the table, dequantized into dst: runs of consecutive elements
 * whose blocks are consecutive, WG_ROW_BLOCKS blocks at most, each one kernel call. With the
 * quantize axis last (post == 1) a run is (part of) a row, `block` elements a block; otherwise
 * consecutive elements have consecutive scales, a block of one element each. */
void wg_dequant_elements(const wg_dequant_job* t, size_t p, size_t n, void* out) {
  uint8_t* dst = out;
  if (t->whole_rows && p % t->qlen == 0 && n % t->qlen == 0) {
    dequant_rows(t, p / t->qlen, n / t->qlen, dst);
    return;
  }
  float sc[WG_ROW_BLOCKS];
  int32_t zp[WG_ROW_BLOCKS];
  size_t post_i = p % t->post, x = p / t->post % t->qlen, pre = p / t->post / t->qlen;
  while (n) {
    size_t s = (pre * t->nblk + x / t->block) * t->post + post_i; /* the first element's block */
    size_t m, count, block, phase;
    if (t->post == 1) {
      phase = x % t->block;
      block = t->block;
      m = t->qlen - x; /* the rest of the row, or as many blocks as the arrays hold */
      if (m > WG_ROW_BLOCKS * block - phase) m = WG_ROW_BLOCKS * block - phase;
      if (m > n) m = n;
      count = (phase + m + block - 1) / block;
    } else {
      phase = 0;
      block = 1;
      m = t->post - post_i < WG_ROW_BLOCKS ? t->post - post_i : WG_ROW_BLOCKS;
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
static int run_slices(void* ctx, size_t start, size_t n) {
  const wg_dequant_job* t = ctx;
  const size_t slice_bytes = t->inner * t->out_size;
  size_t off[WG_SEGMENT];
  for (size_t q = start, end = start + n; q < end;) {
    size_t i = q % t->count, o = q / t->count;
    size_t k = end - q;
    if (k > t->count - i) k = t->count - i;
    if (k > WG_SEGMENT) k = WG_SEGMENT;
    if (wg_resolve_indices(t->indices, t->index_type, i, 1, k, t->axis_size, 0, 1, t->mode,
                           t->negative, 0, off) != WG_OK) {
      return 0;
    }
    for (size_t j = 0; j < k; ++j) {
      uint8_t* dst = t->out + (q + j) * slice_bytes;
      if (off[j] == WG_ZERO_BLOCK) {
        memset(dst, 0, slice_bytes); /* +0 in each of the three types */
      } else if (t->whole_rows) {
        size_t rows = t->inner / t->qlen;
        dequant_rows(t, (o * t->axis_size + off[j]) * rows, rows, dst);
      } else {
        wg_dequant_elements(t, (o * t->axis_size + off[j]) * t->inner, t->inner, dst);
      }
    }
    q += k;
  }
  return 1;
}


int wg_dequant_whole_rows(const wg_dequant_job* t, size_t inner) {
  return t->post == 1 && t->qlen && inner % t->qlen == 0 && t->nblk <= WG_ROW_BLOCKS;
}

void wg_dequant_bind(wg_dequant_job* t, const wg_call* c) {
  t->data = c->tensors[WG_TENSOR_data].ptr;
  t->scales = c->tensors[WG_TENSOR_scales].ptr;
  t->zp = t->zp_kind == WG_ZP_DEFAULT ? NULL : c->tensors[WG_TENSOR_zero_points].ptr;
}

static void bind_slices(void* ctx, const wg_call* c, size_t threads) {
  (void)threads;
  wg_dequant_job* t = ctx;
  wg_dequant_bind(t, c);
  t->out = c->tensors[WG_TENSOR_out].ptr;
  t->indices = c->tensors[WG_TENSOR_indices].ptr;
  t->index_type = (wg_index_type)wg_index_type_of(c->tensors[WG_TENSOR_indices].dtype);
  t->mode = (wg_oob_mode)c->attrs[WG_ATTR_out_of_range];
  t->negative = (wg_negative_mode)c->attrs[WG_ATTR_negative_indices];
}

const wg_stage_kind wg_stage_dequant = {bind_slices, run_slices, WG_STAGE_IN_RUN, NULL};

void wg_plan_dequant(wg_plan* plan, wg_dequant_job* job, size_t first_dim) {
  plan->check = (wg_index_check){.depth = 1, .dim_sizes = &job->axis_size, .first_dim = first_dim};
  size_t slices = job->outer * job->count; /* factors of the output: no overflow */
  if (slices && job->inner) {
    wg_plan_stage(plan, &wg_stage_dequant, job, slices, wg_tile_for(job->inner * job->out_size));
  }
}
