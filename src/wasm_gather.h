/* wasm-gather public C API.
 *
 * Three gather ops (and a fourth over block-quantized tables), and their mirrors, the scatters, over plain row-major tensors of any element width (1, 2, 4 or 8 bytes):
 *   wg_gather    torch.gather / ONNX GatherElements / numpy.take_along_axis
 *   wg_gather_nd tf.gather_nd with batch_dims / ONNX GatherND / OpenVINO GatherND-8
 *   wg_take      tf.gather with axis and batch_dims / ONNX Gather / numpy.take
 *   wg_gather_block_quantized  onnxruntime's com.microsoft.GatherBlockQuantized
 *   wg_scatter, wg_scatter_nd, wg_index_reduce, wg_tensor_scatter  (below)
 *
 * Every call returns a wg_status, one per rule broken; on failure *err (when not NULL) says
 * which argument and the values that broke it, and the output may be partly written. Each op has a *_shape function that only validates
 * and computes the output shape, so a caller can size the output before running the op.
 * Shapes are arrays of size_t; tensors are dense and row-major. A NULL pool runs on the caller.
 */
#ifndef WASM_GATHER_H
#define WASM_GATHER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Highest tensor rank accepted by every op. */
#define WG_MAX_RANK 16

typedef enum wg_status {
  WG_OK = 0,
  WG_ERR_INVALID_ARGUMENT = 1,       /* NULL pointer, unknown enum value, bad element size */
  WG_ERR_MAX_RANK = 2,               /* a tensor (err->arg: data, indices or the output) would have
                                        more than WG_MAX_RANK dims (err->value, err->limit) */
  WG_ERR_DATA_SCALAR = 3,            /* take, gather_nd: params has rank 0 (err->value) */
  WG_ERR_INDICES_SCALAR = 4,         /* gather_nd: indices has rank 0 (err->value) */
  WG_ERR_RANK_MISMATCH = 5,          /* gather: index's rank (err->value) differs from input's (err->limit) */
  WG_ERR_AXIS = 6,                   /* dim/axis outside [-rank, rank) (err->value, err->limit = rank) */
  WG_ERR_BATCH_DIMS_RANGE = 7,       /* take: batch_dims outside [-indices.rank, indices.rank]
                                        (err->value, err->limit = indices.rank) */
  WG_ERR_BATCH_DIMS_AFTER_AXIS = 8,  /* take: batch_dims (err->value) > axis (err->limit, err->dim) */
  WG_ERR_BATCH_DIMS_RANKS = 9,       /* gather_nd: batch_dims outside [0, min(params.rank,
                                        indices.rank) - 1] (err->value, err->limit = the maximum) */
  WG_ERR_BATCH_SHAPE = 10,           /* params/indices batch dim differ (err->dim, value, limit) */
  WG_ERR_INDEX_SHAPE = 11,           /* gather: index.shape[d] > input.shape[d] (err->dim, value, limit) */
  WG_ERR_INDEX_DEPTH = 12,           /* gather_nd: indices.shape[-1] too large (err->value, err->limit) */
  WG_ERR_INDEX_OUT_OF_RANGE = 13,    /* an index outside [-s, s) in WG_OOB_ERROR mode, or a negative
                                        one under WG_NEGATIVE_ERROR (err->position, err->value,
                                        err->limit = s, err->dim = dimension indexed) */
  WG_ERR_SIZE_OVERFLOW = 14,         /* the output's byte size does not fit in size_t (err->arg
                                        out), or gather_block_quantized's table has more logical
                                        elements than size_t counts (err->arg data), whatever
                                        the output */
  WG_ERR_OUT_OF_MEMORY = 15,         /* the pool could not allocate (memory, mutex, condition) */
  /* gather_block_quantized's own rules */
  WG_ERR_BITS = 16,                  /* bits (err->value) is not 2, 4 or 8 for uint8 codes, not 4
                                        for uint4/int4 (err->limit = the wg_quant_type) */
  WG_ERR_BLOCK_SIZE = 17,            /* block_size (err->value) is not a power of 2 >= 16 */
  WG_ERR_QUANTIZE_AXIS_PACKED = 18,  /* uint8 codes: quantize_axis (err->value) is not the last
                                        axis (err->limit), along which the codes are packed */
  WG_ERR_SCALES_SHAPE = 19,          /* scales' rank (err->dim = -1) or scales.shape[err->dim]
                                        (err->value) is not what data and block_size make (err->limit) */
  WG_ERR_ZERO_POINTS_SHAPE = 20,     /* the same for zero_points */
  /* the scatters' own rules */
  WG_ERR_UPDATES_SHAPE = 21,         /* updates' rank (err->dim = -1: err->value, err->limit) or
                                        updates.shape[err->dim] (err->value) is not what data and
                                        indices make (err->limit; for scatter, the least it may be) */
  WG_ERR_UPDATES_TYPE = 22,          /* updates' element type is not data's (the call record's
                                        dtypes: err->value, err->limit) */
  WG_ERR_REDUCE = 23,                /* reduce (err->value) is not one this op has (mean: scatter and
                                        index_reduce), or include_self / circular not 0 or 1 */
  /* embedding_bag's and segment_reduce's own rules */
  WG_ERR_SEGMENTS = 24,              /* the segments break rule err->dim (a wg_segment_rule) at
                                        err->position: its value (err->value), the bound (err->limit) */
  WG_ERR_VALUE_TYPE = 25,            /* data's element type (err->value, a dtype of the call
                                        record) is not one the op reduces */
  WG_ERR_WEIGHTS = 26,               /* per-sample weights with max (err->dim = -2), or their rank
                                        (err->dim = -1) or shape[err->dim] (err->value) is not the
                                        indices' (err->limit) */
  WG_ERR_PADDING_IDX = 27,           /* padding_idx (err->value) outside [-rows, rows) (err->limit = rows) */
  /* embedding_bag_backward's own rules */
  WG_ERR_GRAD_SHAPE = 28,            /* the output's gradient has err->value rows (err->dim = 0) but
                                        the bags are err->limit; or (err->dim = -1) its rank is 0 */
  WG_ERR_MAX_INDICES = 29,           /* max indices: absent or not the gradient's shape (err->dim =
                                        -1), or max_indices[err->position] (err->value) outside
                                        [-1, rows) (err->limit = rows) */
  WG_ERR_TABLE = 30,                 /* the weights' gradient: without weights or with a mode
                                        but sum (err->dim = -4: err->value the mode, err->limit 1
                                        with weights); its table absent (-2), not the gradient's
                                        type (-3), its rank (-1) or shape[err->dim] (err->value)
                                        not [rows, ...the gradient's row] (err->limit) */
  WG_ERR_MASK_SHAPE = 31,            /* the mask's rank (err->dim = -1: err->value, err->limit
                                        the most) or mask.shape[err->dim] (err->value) is not the
                                        data's dimension it covers (err->limit); a 1-D condition
                                        longer (err->dim = -2: err->value) than what it selects
                                        from (err->limit); a mask of no whole-byte type (-3) */
  WG_ERR_MASK_SOURCE = 32,           /* the source holds err->value elements, fewer than the
                                        mask's err->limit true elements */
} wg_status;

/* Which argument an error is about. */
typedef enum wg_arg {
  WG_ARG_NONE = 0,
  WG_ARG_DATA = 1,        /* input / params */
  WG_ARG_INDICES = 2,     /* index / indices */
  WG_ARG_AXIS = 3,        /* dim / axis */
  WG_ARG_BATCH_DIMS = 4,
  WG_ARG_OUT = 5,
  WG_ARG_SCALES = 6,        /* gather_block_quantized */
  WG_ARG_ZERO_POINTS = 7,
  WG_ARG_QUANTIZE_AXIS = 8,
  WG_ARG_UPDATES = 9,       /* the scatters: src / updates / source / update */
  WG_ARG_REDUCE = 10,
  WG_ARG_SEGMENTS = 11,     /* embedding_bag, segment_reduce: offsets, lengths or segment ids */
  WG_ARG_WEIGHTS = 12,      /* embedding_bag: per-sample weights */
  WG_ARG_INITIAL = 13,      /* segment_reduce: the initial value */
  WG_ARG_MAX_INDICES = 14,  /* embedding_bag_backward: the forward's max indices */
  WG_ARG_TABLE = 15,        /* embedding_bag_backward: the table (the weights' gradient) */
  WG_ARG_MASK = 16,         /* the masks' ops: mask / condition */
} wg_arg;

typedef enum wg_index_type {
  WG_INDEX_I32 = 0,
  WG_INDEX_U32 = 1,
  WG_INDEX_I64 = 2,
  WG_INDEX_U64 = 3,
} wg_index_type;

/* What an index outside [-s, s) does. */
typedef enum wg_oob_mode {
  WG_OOB_ERROR = 0, /* fail with WG_ERR_INDEX_OUT_OF_RANGE, reporting the first bad index */
  WG_OOB_ZERO = 1,  /* the element or slice it selects is zeros */
  WG_OOB_CLAMP = 2, /* wrap negatives, then clamp into [0, s-1]; zeros when s == 0 */
} wg_oob_mode;

/* What a negative index does (the *_ex functions; the others wrap). */
typedef enum wg_negative_mode {
  WG_NEGATIVE_WRAP = 0,  /* counts from the end, once: v in [-s, 0) selects s + v (numpy, ONNX) */
  WG_NEGATIVE_ERROR = 1, /* every negative index is out of range, like v >= s (TensorFlow,
                            PyTorch): WG_OOB_ERROR fails reporting it, WG_OOB_ZERO gives zeros,
                            WG_OOB_CLAMP clamps it to 0 (as TensorFlow's clamp does) */
} wg_negative_mode;

/* gather_block_quantized: how the table's codes are stored
 * (https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.GatherBlockQuantized). */
typedef enum wg_quant_type {
  WG_QUANT_UINT8 = 0, /* `8 / bits` codes per byte along the last axis, lowest bits first; the data
                         shape is the stored one (its last dim times 8 / bits is the logical one) */
  WG_QUANT_UINT4 = 1, /* two codes per byte, flat row-major, element 0 in the low nibble; the data
                         shape is the logical one */
  WG_QUANT_INT4 = 2,  /* as uint4, the codes signed (-8..7) */
} wg_quant_type;

/* The type of the scales, which is the output's. */
typedef enum wg_scale_type {
  WG_SCALE_F32 = 0,
  WG_SCALE_F16 = 1,  /* IEEE binary16 bits */
  WG_SCALE_BF16 = 2, /* bfloat16 bits */
} wg_scale_type;

/* gather_block_quantized's description of the table: how it is quantized, and the shapes of its
 * scales and (when has_zero_points) zero points. */
typedef struct wg_quant_desc {
  int32_t quant_type;    /* wg_quant_type */
  int32_t scale_type;    /* wg_scale_type */
  int32_t bits;          /* 2, 4 or 8 for uint8; 4 for uint4 and int4 */
  int32_t block_size;    /* a power of 2, at least 16 */
  int32_t quantize_axis; /* in [-rank, rank); the last axis for uint8 */
  int32_t has_zero_points;
  const size_t* scale_shape;
  size_t scale_rank;
  const size_t* zp_shape;
  size_t zp_rank;
} wg_quant_desc;

/* The scatters' element types: what the reductions compute in (WG_REDUCE_NONE only moves bits). */
typedef enum wg_value_type {
  WG_VALUE_I8 = 0, WG_VALUE_U8 = 1, WG_VALUE_I16 = 2, WG_VALUE_U16 = 3, WG_VALUE_I32 = 4,
  WG_VALUE_U32 = 5, WG_VALUE_I64 = 6, WG_VALUE_U64 = 7,
  WG_VALUE_F16 = 8,  /* IEEE binary16 bits; computed in float32, rounded after each update */
  WG_VALUE_BF16 = 9, /* bfloat16 bits; the same */
  WG_VALUE_F32 = 10, WG_VALUE_F64 = 11,
} wg_value_type;

/* How a scatter combines an update with the value in place. Integers wrap (two's complement);
 * max/min as torch's amax / amin: a NaN update wins with its bits, over a NaN in place too; a
 * NaN in place stays against a number; a tie keeps the value in place. */
typedef enum wg_reduce {
  WG_REDUCE_NONE = 0, /* a plain write: the last update in the index tensor's order wins */
  WG_REDUCE_ADD = 1,
  WG_REDUCE_MUL = 2,
  WG_REDUCE_MAX = 3,
  WG_REDUCE_MIN = 4,
  WG_REDUCE_MEAN = 5, /* scatter and index_reduce: the sum over the count; integers floor */
  WG_REDUCE_SQRTN = 6, /* embedding_bag: the sum over the square root of the count (TensorFlow's
                          sqrtn combiner) */
} wg_reduce;

/* How embedding_bag's and segment_reduce's segments (bags) are given
 * (docs/fused-gather-reduce.md). */
typedef enum wg_segment_form {
  WG_SEGMENTS_FIXED = 0,   /* embedding_bag: none; 2-D indices, a bag a row */
  WG_SEGMENTS_OFFSETS = 1, /* the start of each segment, the first 0; the last ends at the end */
  WG_SEGMENTS_BOUNDS = 2,  /* the starts and then the end of the last (torch's include_last_offset;
                              segment_reduce's offsets) */
  WG_SEGMENTS_LENGTHS = 3, /* the length of each segment, in order, adding up to the entries */
  WG_SEGMENTS_IDS = 4,     /* a sorted segment id for each entry (TensorFlow's), ids in
                              [0, num_segments) */
} wg_segment_form;

/* The rule a WG_ERR_SEGMENTS broke (err->dim). */
typedef enum wg_segment_rule {
  WG_SEGMENT_FORM = 0,      /* the form does not go with the indices' rank or the op (err->value:
                               the form, err->limit: the indices' rank), or segments are not 1-D */
  WG_SEGMENT_FIRST = 1,     /* offsets: the first (err->value) is not 0 */
  WG_SEGMENT_DECREASING = 2, /* offsets, segment ids: one (err->value) is less than the one
                                before it (err->limit) */
  WG_SEGMENT_PAST_END = 3,  /* offsets: one (err->value) is past the entries (err->limit) */
  WG_SEGMENT_NEGATIVE = 4,  /* a length or segment id (err->value) is negative */
  WG_SEGMENT_COVER = 5,     /* segment_reduce: the segments end at err->value, not at the end of
                               the axis (err->limit) */
  WG_SEGMENT_ID_RANGE = 6,  /* a segment id (err->value) is not below num_segments (err->limit) */
  WG_SEGMENT_COUNT = 7,     /* the segments' length (err->value) is not what the form needs
                               (err->limit): ids one an entry, bounds at least one */
} wg_segment_rule;

/* embedding_bag's and segment_reduce's description of a call: the element type, the
 * reduction, the segments and the options. */
typedef struct wg_bag_desc {
  int32_t value_type;     /* wg_value_type: F32, F64, F16, BF16 (segment_reduce: F32, F64) */
  int32_t reduce;         /* embedding_bag: ADD, MEAN, MAX, SQRTN; segment_reduce: ADD, MEAN,
                             MAX, MIN, MUL */
  int32_t form;           /* wg_segment_form */
  const void* segments;   /* the offsets, lengths or ids (WG_SEGMENTS_FIXED: NULL) */
  int32_t segments_type;  /* wg_index_type */
  size_t segments_len;
  int32_t num_segments;   /* WG_SEGMENTS_IDS: the segments */
  const void* weights;    /* embedding_bag: per-sample weights of the value type, one an index, or NULL */
  int32_t has_padding;    /* embedding_bag: entries whose row is padding_idx are skipped */
  int32_t padding_idx;    /* in [-rows, rows) */
  int32_t* max_indices;   /* embedding_bag, max: the row each output element came from, or NULL */
  const void* initial;    /* segment_reduce: one value of the value type that starts every
                             segment, or NULL */
  int32_t mode;           /* wg_oob_mode for the indices */
  int32_t negative;       /* wg_negative_mode */
} wg_bag_desc;

/* A scatter's element type and policies. */
typedef struct wg_scatter_desc {
  int32_t value_type;   /* wg_value_type of data, updates and out */
  int32_t reduce;       /* wg_reduce */
  int32_t include_self; /* 1: reduce into the value in place; 0: a position some update hits
                           starts from the reduction's identity (torch's include_self) */
  int32_t mode;         /* wg_oob_mode: WG_OOB_ZERO drops the update */
  int32_t negative;     /* wg_negative_mode */
} wg_scatter_desc;

/* Details of a failure. All fields are int64 so that a JS caller can read them as one
 * BigInt64Array; fields that do not apply are -1. */
typedef struct wg_error_info {
  int64_t arg;      /* wg_arg */
  int64_t dim;      /* dimension concerned */
  int64_t value;    /* offending value (for a uint64 index, its bit pattern) */
  int64_t limit;    /* the bound or expected value it broke */
  int64_t position; /* flat position of the bad index in the indices tensor */
} wg_error_info;

/* ---- thread pool (pthreadpool style). NULL means "run on the caller". ----
 * What a caller may rely on:
 *  - An op returns only when every part of it is done: no thread of the pool reads or writes
 *    the op's tensors after it returns (tests/native/test_pool.c forces the interleavings that
 *    once broke this, and runs under ThreadSanitizer).
 *  - The output is bitwise the same whatever the pool and its thread count: each output block is
 *    written by exactly one thread.
 *  - One op at a time per pool. Calls from several threads at once are safe, but while one op
 *    runs on the pool the others run on their own thread alone: give each calling thread its
 *    own pool to run them in parallel. wg_pool_destroy must not overlap a call on its pool.
 *  - Pools share nothing. In JS each module instance (each worker_thread or Web Worker that calls
 *    init()) has its own wasm memory and its own pool, so JS workers never contend for one. */
typedef struct wg_pool wg_pool;

/* Creates a pool of `threads` threads in all, the caller included (threads - 1 workers).
 * threads <= 1, or a build without threads, gives *pool = NULL. If fewer workers can be started
 * than asked for, the pool keeps those it got; wg_pool_threads tells how many it has. Returns
 * WG_ERR_OUT_OF_MEMORY, and no pool, when its memory, mutex or condition variable cannot be had. */
wg_status wg_pool_create(size_t threads, wg_pool** pool);
size_t wg_pool_threads(const wg_pool* pool);
void wg_pool_destroy(wg_pool* pool);

/* Ops that move fewer bytes than this run on the caller alone (default WG_PARALLEL_MIN_BYTES);
 * for tuning and benchmarks. 32 KiB is where 2 threads start to beat 1 in bench/threshold.mjs
 * (Node 20, 2 cores: 1.1-1.4x at 32 KiB, 1.5-2.8x from 128 KiB; at 16 KiB 0.9-1.0x). */
#define WG_PARALLEL_MIN_BYTES (32 * 1024)
void wg_pool_set_parallel_threshold(wg_pool* pool, size_t min_bytes);
size_t wg_pool_parallel_threshold(const wg_pool* pool);

/* ---- ops ---- */
wg_status wg_gather_shape(const size_t* input_shape, size_t input_rank, const size_t* index_shape,
                          size_t index_rank, int32_t dim, size_t* out_shape, size_t* out_rank,
                          wg_error_info* err);
wg_status wg_gather(wg_pool* pool, const void* input, const size_t* input_shape, size_t input_rank,
                    int32_t dim, const void* index, wg_index_type index_type,
                    const size_t* index_shape, size_t index_rank, size_t elem_size,
                    wg_oob_mode mode, void* out, wg_error_info* err);

wg_status wg_gather_nd_shape(const size_t* params_shape, size_t params_rank,
                             const size_t* indices_shape, size_t indices_rank, int32_t batch_dims,
                             size_t* out_shape, size_t* out_rank, wg_error_info* err);
wg_status wg_gather_nd(wg_pool* pool, const void* params, const size_t* params_shape,
                       size_t params_rank, const void* indices, wg_index_type index_type,
                       const size_t* indices_shape, size_t indices_rank, int32_t batch_dims,
                       size_t elem_size, wg_oob_mode mode, void* out, wg_error_info* err);

wg_status wg_take_shape(const size_t* params_shape, size_t params_rank, const size_t* indices_shape,
                        size_t indices_rank, int32_t axis, int32_t batch_dims, size_t* out_shape,
                        size_t* out_rank, wg_error_info* err);
wg_status wg_take(wg_pool* pool, const void* params, const size_t* params_shape, size_t params_rank,
                  const void* indices, wg_index_type index_type, const size_t* indices_shape,
                  size_t indices_rank, int32_t axis, int32_t batch_dims, size_t elem_size,
                  wg_oob_mode mode, void* out, wg_error_info* err);

/* gather, gather_nd and take with a policy for negative indices (the functions above are these with
 * WG_NEGATIVE_WRAP); an unknown policy is WG_ERR_INVALID_ARGUMENT. */
wg_status wg_gather_ex(wg_pool* pool, const void* input, const size_t* input_shape,
                       size_t input_rank, int32_t dim, const void* index, wg_index_type index_type,
                       const size_t* index_shape, size_t index_rank, size_t elem_size,
                       wg_oob_mode mode, wg_negative_mode negative, void* out, wg_error_info* err);
wg_status wg_gather_nd_ex(wg_pool* pool, const void* params, const size_t* params_shape,
                          size_t params_rank, const void* indices, wg_index_type index_type,
                          const size_t* indices_shape, size_t indices_rank, int32_t batch_dims,
                          size_t elem_size, wg_oob_mode mode, wg_negative_mode negative, void* out,
                          wg_error_info* err);
wg_status wg_take_ex(wg_pool* pool, const void* params, const size_t* params_shape,
                     size_t params_rank, const void* indices, wg_index_type index_type,
                     const size_t* indices_shape, size_t indices_rank, int32_t axis,
                     int32_t batch_dims, size_t elem_size, wg_oob_mode mode,
                     wg_negative_mode negative, void* out, wg_error_info* err);

/* com.microsoft.GatherBlockQuantized: take(dequantize(data), indices, gather_axis), dequantizing
 * only the gathered rows: each value (q - zero_point) * scale, one float32 multiply, rounded to
 * the scale type (nearest even). scales has the logical data shape with quantize_axis divided by
 * block_size, rounded up; zero_points (NULL: 2^(bits-1) for uint8, 0 for uint4/int4) are packed
 * as onnxruntime packs them: uint8 bits 8 one a byte; uint8 bits 2/4 `8 / bits` a byte along the
 * last axis, each row starting on a byte; uint4/int4 two a byte, flat. out has the scales' type. */
wg_status wg_gather_block_quantized_shape(const size_t* data_shape, size_t data_rank,
                                          const size_t* indices_shape, size_t indices_rank,
                                          int32_t gather_axis, const wg_quant_desc* q,
                                          size_t* out_shape, size_t* out_rank, wg_error_info* err);
wg_status wg_gather_block_quantized(wg_pool* pool, const uint8_t* data, const size_t* data_shape,
                                    size_t data_rank, const void* indices, wg_index_type index_type,
                                    const size_t* indices_shape, size_t indices_rank,
                                    int32_t gather_axis, const void* scales,
                                    const uint8_t* zero_points, const wg_quant_desc* q,
                                    wg_oob_mode mode, void* out, wg_error_info* err);
/* The same with a policy for negative indices (wg_gather_block_quantized: WG_NEGATIVE_WRAP). */
wg_status wg_gather_block_quantized_ex(wg_pool* pool, const uint8_t* data,
                                       const size_t* data_shape, size_t data_rank,
                                       const void* indices, wg_index_type index_type,
                                       const size_t* indices_shape, size_t indices_rank,
                                       int32_t gather_axis, const void* scales,
                                       const uint8_t* zero_points, const wg_quant_desc* q,
                                       wg_oob_mode mode, wg_negative_mode negative, void* out,
                                       wg_error_info* err);

/* ---- scatters: out = data with the updates applied one at a time in the row-major order of the
 * index tensor, the same result at any thread count. out may be data (in place); on any error
 * nothing is written. ---- */
/* torch.scatter / scatter_reduce, ONNX ScatterElements: input, index, src of one rank;
 * index.shape[d] <= src.shape[d], and <= input.shape[d] for d != dim. src of rank 0 with an
 * index of rank > 0 is torch's value form (every update is src[0]). */
wg_status wg_scatter(wg_pool* pool, const void* input, const size_t* input_shape, size_t input_rank,
                     int32_t dim, const void* index, wg_index_type index_type,
                     const size_t* index_shape, size_t index_rank, const void* src,
                     const size_t* src_shape, size_t src_rank, const wg_scatter_desc* desc,
                     void* out, wg_error_info* err);
/* ONNX ScatterND, tf.tensor_scatter_nd_*: indices [..., K], K <= data rank; updates'
 * shape indices.shape[:-1] + data.shape[K:]. */
wg_status wg_scatter_nd(wg_pool* pool, const void* data, const size_t* data_shape, size_t data_rank,
                        const void* indices, wg_index_type index_type, const size_t* indices_shape,
                        size_t indices_rank, const void* updates, const size_t* updates_shape,
                        size_t updates_rank, const wg_scatter_desc* desc, void* out,
                        wg_error_info* err);
/* torch.index_add / index_copy / index_reduce, tf.math.unsorted_segment_*: source's shape
 * input.shape[:axis] + index.shape + input.shape[axis+1:]. */
wg_status wg_index_reduce(wg_pool* pool, const void* input, const size_t* input_shape,
                          size_t input_rank, int32_t axis, const void* index,
                          wg_index_type index_type, const size_t* index_shape, size_t index_rank,
                          const void* source, const size_t* source_shape, size_t source_rank,
                          const wg_scatter_desc* desc, void* out, wg_error_info* err);
/* ONNX TensorScatter: update has cache's shape but along axis (in [1, rank-1] once normalized);
 * batch row b goes to positions write_indices[b] onward (NULL: 0) along axis, modulo its length
 * when circular, else the write must fit; update is at most as long as the cache along axis in
 * both modes. A negative write index is an error. */
wg_status wg_tensor_scatter(wg_pool* pool, const void* cache, const size_t* cache_shape,
                            size_t cache_rank, const void* update, const size_t* update_shape,
                            size_t update_rank, const void* write_indices, wg_index_type index_type,
                            int32_t axis, int32_t circular, size_t elem_size, void* out,
                            wg_error_info* err);

/* ---- the fused gather-reduce (docs/fused-gather-reduce.md): each output row reduced from its
 * segment's rows in order, the segments in parallel: the same bits at any thread count. ---- */
/* torch.nn.functional.embedding_bag: the rows of weight [rows, ...] that indices select,
 * reduced per bag (desc: the form of the bags, the mode, weights, padding) into out [bags, ...]. */
wg_status wg_embedding_bag(wg_pool* pool, const void* weight, const size_t* weight_shape,
                           size_t weight_rank, const void* indices, wg_index_type index_type,
                           const size_t* index_shape, size_t index_rank, const wg_bag_desc* desc,
                           void* out, wg_error_info* err);
/* torch.segment_reduce, tf.math.segment_*: data's entries along axis reduced per segment into
 * out (data's shape with the segments along axis). */
wg_status wg_segment_reduce(wg_pool* pool, const void* data, const size_t* data_shape,
                            size_t data_rank, int32_t axis, const wg_bag_desc* desc, void* out,
                            wg_error_info* err);

#ifdef __cplusplus
}
#endif
#endif /* WASM_GATHER_H */
