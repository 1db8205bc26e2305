#include "stage_dequant.h"

#include <string.h>

#include "index_resolve.h"

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
static void dequant_run(const wg_dequant_job* t, size_t p, size_t n, uint8_t* dst) {
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
        dequant_run(t, (o * t->axis_size + off[j]) * t->inner, t->inner, dst);
      }
    }
    q += k;
  }
  return 1;
}


static void bind_slices(void* ctx, const wg_call* c, size_t threads) {
  (void)threads;
  wg_dequant_job* t = ctx;
  t->data = c->tensors[WG_TENSOR_data].ptr;
  t->scales = c->tensors[WG_TENSOR_scales].ptr;
  t->zp = t->zp_kind == WG_ZP_DEFAULT ? NULL : c->tensors[WG_TENSOR_zero_points].ptr;
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
