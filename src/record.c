/* The call record's element types and what each op takes (src/record.h). */
#include "record.h"

static const uint32_t op_tensors[WG_OP_COUNT] = {
#define WG_OP(name, tensors, attrs) (tensors),
#include "ops.def"
#undef WG_OP
};

static const unsigned dtype_bits[WG_DTYPE_COUNT] = {
#define WG_DTYPE_BITS(name, bits) bits,
    WG_DTYPES(WG_DTYPE_BITS)
#undef WG_DTYPE_BITS
};

unsigned wg_dtype_bits(int32_t dtype) {
  return dtype >= 0 && dtype < WG_DTYPE_COUNT ? dtype_bits[dtype] : 0;
}

wg_dtype wg_dtype_of_width(size_t bytes) {
  switch (bytes) {
    case 1: return WG_DTYPE_U8;
    case 2: return WG_DTYPE_U16;
    case 4: return WG_DTYPE_U32;
    case 8: return WG_DTYPE_U64;
    default: return WG_DTYPE_NONE;
  }
}

int32_t wg_dtype_of(const wg_value_dtype* table, size_t n, int32_t value) {
  for (size_t i = 0; i < n; ++i) {
    if (table[i].value == value) return table[i].dtype;
  }
  return WG_DTYPE_NONE;
}

int32_t wg_value_of_dtype(const wg_value_dtype* table, size_t n, int32_t dtype) {
  for (size_t i = 0; i < n; ++i) {
    if (table[i].dtype == dtype) return table[i].value;
  }
  return -1;
}

const wg_value_dtype wg_index_dtypes[4] = {{WG_INDEX_I32, WG_DTYPE_I32}, {WG_INDEX_U32, WG_DTYPE_U32},
                                           {WG_INDEX_I64, WG_DTYPE_I64}, {WG_INDEX_U64, WG_DTYPE_U64}};

const wg_value_dtype wg_value_dtypes[12] = {
    {WG_VALUE_I8, WG_DTYPE_I8},   {WG_VALUE_U8, WG_DTYPE_U8},   {WG_VALUE_I16, WG_DTYPE_I16},
    {WG_VALUE_U16, WG_DTYPE_U16}, {WG_VALUE_I32, WG_DTYPE_I32}, {WG_VALUE_U32, WG_DTYPE_U32},
    {WG_VALUE_I64, WG_DTYPE_I64}, {WG_VALUE_U64, WG_DTYPE_U64}, {WG_VALUE_F16, WG_DTYPE_F16},
    {WG_VALUE_BF16, WG_DTYPE_BF16}, {WG_VALUE_F32, WG_DTYPE_F32}, {WG_VALUE_F64, WG_DTYPE_F64}};

uint32_t wg_op_tensors(int32_t op) { return op >= 0 && op < WG_OP_COUNT ? op_tensors[op] : 0; }
