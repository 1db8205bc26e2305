// gatherBlockQuantized in the playground: its scales typed as numbers (stored as float32, or as
// float16 / bfloat16 bits), and the pictures of a block-quantized table: its codes unpacked, its
// scales and zero points one per block, and the whole table dequantized (by the library itself:
// the op over every index of the gather axis).
import { numel, ravel, unravel } from '../../common/shape.mjs';
import { bf16ToF32, f16ToF32, f32ToBf16, f32ToF16 } from '../../common/reference-quantized.mjs';

/** The editor's scale types: how typed numbers are stored, and how stored values read back. */
export const SCALE_TYPES = {
  float32: { Type: Float32Array, encode: Math.fround, decode: (v) => v },
  float16: { Type: Uint16Array, encode: f32ToF16, decode: f16ToF32 },
  bfloat16: { Type: Uint16Array, encode: f32ToBf16, decode: bf16ToF32 },
};

/** Numbers -> the scales' array of `scaleType` (float16 / bfloat16: rounded, as bits). */
export function encodeScales(values, scaleType) {
  const { Type, encode } = SCALE_TYPES[scaleType];
  return Type.from(values, (v) => encode(Number(v)));
}

/** A scales (or output) array of `scaleType` -> its values as numbers. */
export function decodeScales(data, scaleType) {
  const { decode } = SCALE_TYPES[scaleType];
  return Float64Array.from(data, (v) => decode(v));
}

/** The scale type a call's scales stand for (the array type, and opts.scaleType for bits). */
export const scaleTypeOf = (data, attrs) => (data instanceof Float32Array ? 'float32' : attrs.scaleType ?? 'float16');

// Code number i (flat) of a packed buffer: `bits` bits each, lowest first; signed if asked.
function code(bytes, i, bits, signed) {
  const per = 8 / bits;
  const v = (bytes[Math.floor(i / per)] >> ((i % per) * bits)) & ((1 << bits) - 1);
  return signed && v >= 1 << (bits - 1) ? v - (1 << bits) : v;
}

/**
 * Everything the picture of a successful call shows. `call`: { data, indices, scales,
 * zeroPoints, attrs } as the op took them (it has validated them). Returns { shape (logical),
 * codes, scaleShape, scales (numbers), zeroPoints (numbers per block, or null), defaultZp,
 * table (the dequantized table, numbers), gatherAxis, quantizeAxis, blockOf(flat) }.
 */
export function quantPicture(api, call, opts) {
  const { data, scales, zeroPoints, attrs } = call;
  const quantType = attrs.quantType;
  const packed = quantType === 'uint8';
  const bits = packed ? attrs.bits : 4;
  const per = packed ? 8 / bits : 1;
  const rank = data.shape.length;
  const shape = data.shape.slice();
  shape[rank - 1] *= per;
  const norm = (a) => (a < 0 ? a + rank : a);
  const g = norm(attrs.gatherAxis);
  const qa = norm(attrs.quantizeAxis);
  const n = numel(shape);
  const signed = quantType === 'int4';
  const codes = Int32Array.from({ length: n }, (_, i) => code(data.data, i, bits, signed));
  const scaleShape = scales.shape.slice();
  const scaleType = scaleTypeOf(scales.data, attrs);
  const blockOf = (flat) => {
    const c = unravel(flat, shape);
    c[qa] = Math.floor(c[qa] / attrs.blockSize);
    return ravel(c, scaleShape);
  };
  let zps = null;
  if (zeroPoints) {
    const rowLen = scaleShape[rank - 1];
    const rowBytes = zeroPoints.shape[rank - 1];
    zps = Int32Array.from({ length: numel(scaleShape) }, (_, s) => (packed
      ? code(zeroPoints.data, Math.floor(s / rowLen) * rowBytes * per + (s % rowLen), bits, false)
      : code(zeroPoints.data, s, 4, signed)));
  }
  // The whole table, dequantized by the library: every index of the gather axis, in order.
  const every = Int32Array.from({ length: shape[g] }, (_, i) => i);
  const table = api.gatherBlockQuantized(data, { data: every, shape: [shape[g]] }, scales, { ...opts, outOfRange: 'error' });
  return {
    shape, codes, scaleShape, scaleType,
    scales: decodeScales(scales.data, scaleType),
    zeroPoints: zps,
    defaultZp: packed ? 1 << (bits - 1) : 0,
    table: decodeScales(table.data, scaleType),
    gatherAxis: g, quantizeAxis: qa, blockOf,
    // Cells that start a block along the quantize axis, when that axis is the grid's columns:
    // in the table's grids, and in the output's unless it was gathered along the last axis.
    blockStart: (flat, isOutput = false) => {
      const cols = shape[rank - 1];
      const col = flat % cols;
      return qa === rank - 1 && !(isOutput && g === rank - 1) && col > 0 && col % attrs.blockSize === 0;
    },
  };
}
