/* The scatters' reduction kernels (stage_scatter.c), named by the reduction and the type they
 * compute in (XNNPACK style: add_f32, max_i8, ...), and the one place where a call's kernels are
 * picked. A kernel combines one update row into one destination row, element by element, in
 * order: dst[i] = op(dst[i], src[i * src_step]) (src_step 0: torch's value form, one value for
 * every element). */
#ifndef WG_SCATTER_KERNELS_H
#define WG_SCATTER_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include "record.h"

typedef void (*wg_reduce_fn)(void* dst, const void* src, size_t n, size_t src_step);
/* Applies n items to out, in order: item k is q = items ? items[k] : k; its destination row
 * dest[q] of out (skipped when WG_ZERO_BLOCK), of row elements, combined with its source row at
 * updates + (srcs ? srcs[q] : q * src_step) elements (src_step 0 without srcs: the value form). */
typedef void (*wg_apply_fn)(void* out, const void* updates, const size_t* dest, const size_t* items,
                            const size_t* srcs, size_t n, size_t row, size_t src_step);
/* As wg_apply_fn for add, each item's source row multiplied by its scale scales[q] (of the
 * element type) and added: float32 rounded once (acc = s * x + acc, a fused multiply-add, as torch's
 * saxpy), float64 the product rounded, then the sum (the bag backward's rows). */
typedef void (*wg_apply_scaled_fn)(void* out, const void* updates, const size_t* dest, const size_t* items,
                                   const size_t* srcs, const void* scales, size_t n, size_t row, size_t src_step);
/* Sets n elements to the reduction's identity (include_self 0: a hit position starts there). */
typedef void (*wg_identity_fn)(void* dst, size_t n);
/* The mean's end: dst[i] = dst[i] / count (floats in the type, or float32 for the 16-bit
 * floats; integers rounded toward minus infinity, as torch). */
typedef void (*wg_divide_fn)(void* dst, size_t n, uint32_t count);

typedef struct wg_reduce_kernels {
  wg_reduce_fn reduce;     /* one row; for WG_REDUCE_NONE a copy of the bits */
  wg_apply_fn apply;       /* many items, no identity or count (the common case) */
  wg_identity_fn identity; /* NULL for WG_REDUCE_NONE */
  wg_divide_fn divide;     /* WG_REDUCE_MEAN only */
  wg_apply_scaled_fn apply_scaled; /* WG_REDUCE_ADD on float32 and float64 only, else NULL */
} wg_reduce_kernels;

/* Every type the reductions compute in, once: X(name, storage type, dtype, kind), kind INT or
 * UINT (wrapping arithmetic in the unsigned type of the width), FLOAT (the C type), HALF
 * (float16 bits) or BHALF (bfloat16 bits), the last two computed in float32 and rounded to
 * nearest even after each update, as onnxruntime does. */
#define WG_REDUCE_TYPES(X)                                                                  \
  X(i8, int8_t, WG_DTYPE_I8, INT) X(u8, uint8_t, WG_DTYPE_U8, UINT)                        \
  X(i16, int16_t, WG_DTYPE_I16, INT) X(u16, uint16_t, WG_DTYPE_U16, UINT)                  \
  X(i32, int32_t, WG_DTYPE_I32, INT) X(u32, uint32_t, WG_DTYPE_U32, UINT)                  \
  X(i64, int64_t, WG_DTYPE_I64, INT) X(u64, uint64_t, WG_DTYPE_U64, UINT)                  \
  X(f16, uint16_t, WG_DTYPE_F16, HALF) X(bf16, uint16_t, WG_DTYPE_BF16, BHALF)             \
  X(f32, float, WG_DTYPE_F32, FLOAT) X(f64, double, WG_DTYPE_F64, FLOAT)

/* The kernels for reduce (wg_reduce) on elements of dtype; 0 when there are none (an unknown
 * reduction, or arithmetic on a type without it). */
int wg_pick_reduce(int32_t dtype, int32_t reduce, wg_reduce_kernels* k);

#endif
