// Plain-JS reference of onnxruntime's contrib op com.microsoft.GatherBlockQuantized, written from
// its spec and its CPU kernel (read, not copied):
//   https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.GatherBlockQuantized
//   https://github.com/microsoft/onnxruntime/blob/main/onnxruntime/contrib_ops/cpu/quantization/gather_block_quantized.cc
// Findings and what onnxruntime-web 1.30 accepts: docs/gather-block-quantized.md.
//
//   refGatherBlockQuantized(data, indices, scales, opts) -> { data, shape }
//
// Defined as take(dequantize(data), indices, gatherAxis), computed per output element (nothing
// is dequantized that the output does not need). Correctness over speed.
//
// data: { data: Uint8Array, shape }. opts.quantType:
//   'uint8' (default): shape is the STORED shape; opts.bits 2, 4 or 8 (default 4) codes per byte
//     along the last axis, lowest bits first, so the logical last dim is stored * 8 / bits; the
//     quantize axis must be the last one; default zero point 2^(bits-1).
//   'uint4' | 'int4': shape is the LOGICAL shape; two codes per byte in flat row-major order,
//     element 0 in the low nibble (data.length = ceil(n / 2)); int4 codes are signed (-8..7);
//     bits, if given, must be 4; default zero point 0.
// scales: { data, shape }, shape = the logical shape with the quantize axis divided by blockSize,
//   rounded up. Float32Array (float32), Uint16Array of float16 bits (opts.scaleType 'float16', the
//   default) or bfloat16 bits ('bfloat16'), or a Float16Array where the runtime has one. The
//   output has the scales' array type.
// opts.zeroPoints: optional { data: Uint8Array, shape }, packed as onnxruntime packs them:
//   'uint8' bits 8: shape = scales' shape, one per byte;
//   'uint8' bits 2/4: along the last axis 8 / bits per byte, lowest bits first, each row padded to
//     a whole byte: shape = scales' shape with the last dim ceil(dim * bits / 8);
//   'uint4' | 'int4': shape = scales' shape, two per byte in flat row-major order (low nibble
//     first, data.length = ceil(n / 2)), signed for int4.
// opts.gatherAxis (default 0), opts.quantizeAxis (default the last; onnxruntime's kernel defaults
//   to 1), opts.blockSize (default 128, a power of 2, at least 16), opts.outOfRange ('error' |
//   'zero' | 'clamp', the rules of common/reference.mjs), opts.out (as in common/reference.mjs).
//
// Each value is (q - zp) * scale computed as onnxruntime's CPU kernel computes it:
//   static_cast<T2>(static_cast<float>(q - zp) * static_cast<float>(scale))
// i.e. one float32 multiply (the scale widened exactly from float16), then, for float16 output,
// MLFloat16's float -> half conversion: round to nearest even, overflow to Inf, NaN to a quiet NaN
// (0x7e00 with the sign) (onnxruntime/core/common/float16.h, include/onnxruntime/core/session/
// onnxruntime_float16.h, Float16Impl::ToUint16Impl). bfloat16 (which onnxruntime's kernel does not
// implement) is defined the same way: float32 product, rounded to nearest even, NaN -> 0x7fc0.
import { numel, ravel, unravel } from './shape.mjs';
import { checkEveryIndex, checkShape, getMode, getNegative, makeOutput, rawIndex, resolve } from './reference.mjs';

const QUANT_TYPES = new Set(['uint8', 'uint4', 'int4']);

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** float16 bits -> the (exact) float value. */
export function f16ToF32(h) {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >> 10) & 0x1f;
  const mant = h & 0x3ff;
  if (exp === 0x1f && mant) { // a NaN keeps its sign and payload (as float32 bits; a JS NaN has no sign)
    u32[0] = ((h & 0x8000) << 16) | 0x7f800000 | (mant << 13);
    return f32[0];
  }
  if (exp === 0x1f) return sign * Infinity;
  if (exp === 0) return sign * mant * 2 ** -24;
  return sign * (1024 + mant) * 2 ** (exp - 25);
}

/** bfloat16 bits -> the (exact) float value. */
export function bf16ToF32(h) {
  u32[0] = h << 16;
  return f32[0];
}

// Round-to-nearest-even of the low `shift` bits away from `m`.
function roundShift(m, shift) {
  const h = m >>> shift;
  const rem = m & ((1 << shift) - 1);
  const half = 1 << (shift - 1);
  return rem > half || (rem === half && h & 1) ? h + 1 : h;
}

/** A float32 value -> float16 bits, round to nearest even (a carry into the exponent is right). */
export function f32ToF16(x) {
  f32[0] = x;
  const b = u32[0];
  const sign = (b >>> 16) & 0x8000;
  const exp = (b >>> 23) & 0xff;
  const mant = b & 0x7fffff;
  if (exp === 0xff) return sign | (mant ? 0x7e00 : 0x7c00);
  const e = exp - 127 + 15; // float16 biased exponent
  if (e >= 31) return sign | 0x7c00;
  if (e <= 0) return e < -10 ? sign : sign | roundShift(mant | 0x800000, 14 - e); // subnormal or 0
  return sign | roundShift((e << 23) | mant, 13); // carry may reach 0x7c00: Inf, as it should
}

/** A float32 value -> bfloat16 bits, round to nearest even, NaN -> quiet NaN. */
export function f32ToBf16(x) {
  f32[0] = x;
  const b = u32[0];
  if ((b & 0x7fffffff) > 0x7f800000) return ((b >>> 16) & 0x8000) | 0x7fc0;
  return roundShift(b, 16) & 0xffff;
}

// The scale type from the scales' array and opts.scaleType.
function scaleKind(scales, opts) {
  const a = scales.data;
  const t = opts.scaleType;
  if (a instanceof Float32Array) {
    if (t !== undefined && t !== 'float32') throw new TypeError(`scaleType ${t} needs scales.data to be a Uint16Array`);
    return { toF32: (v) => v, fromF32: (v) => v };
  }
  const isF16Array = typeof Float16Array === 'function' && a instanceof globalThis.Float16Array;
  if (isF16Array && (t === undefined || t === 'float16')) return { toF32: (v) => v, fromF32: Math.fround };
  if (!(a instanceof Uint16Array)) {
    throw new TypeError('scales.data must be a Float32Array, a Uint16Array (float16 or bfloat16 bits) or a Float16Array');
  }
  if (t === undefined || t === 'float16') return { toF32: f16ToF32, fromF32: f32ToF16 };
  if (t === 'bfloat16') return { toF32: bf16ToF32, fromF32: f32ToBf16 };
  throw new TypeError(`bad scaleType ${t}: 'float16' or 'bfloat16' for a Uint16Array`);
}

function checkLength(t, name, n) {
  if (t.data.length !== n) {
    throw new RangeError(`${name}.data has ${t.data.length} elements, shape [${t.shape}] needs ${n}`);
  }
}

function checkAxis(v, rank, name) {
  if (!Number.isInteger(v) || v < -rank || v >= rank) throw new RangeError(`${name} ${v} out of range for rank ${rank}`);
  return v < 0 ? v + rank : v;
}

function sameShape(got, want, name, rule) {
  if (got.length !== want.length || got.some((d, i) => d !== want[i])) {
    throw new RangeError(`${name}.shape is [${got}], ${rule} needs [${want}]`);
  }
}

// Reads code number `i` (flat) of a packed buffer: `per` codes per byte of `bits` bits each,
// lowest bits first; sign-extended when `signed`.
function code(bytes, i, bits, signed) {
  const per = 8 / bits;
  const v = (bytes[Math.floor(i / per)] >> ((i % per) * bits)) & ((1 << bits) - 1);
  return signed && v >= 1 << (bits - 1) ? v - (1 << bits) : v;
}

/** The validated, normalized arguments: logical shape, axes, and per-element readers. */
function plan(data, scales, opts) {
  const quantType = opts.quantType ?? 'uint8';
  if (!QUANT_TYPES.has(quantType)) throw new TypeError(`bad quantType ${quantType}: 'uint8', 'uint4' or 'int4'`);
  checkShape(data, 'data');
  checkShape(scales, 'scales');
  if (!(data.data instanceof Uint8Array)) throw new TypeError('data.data must be a Uint8Array');
  const packed = quantType === 'uint8';
  const bits = opts.bits ?? 4;
  if (packed ? ![2, 4, 8].includes(bits) : bits !== 4) {
    throw new RangeError(`bad bits ${bits}: ${packed ? '2, 4 or 8 for uint8' : `4 for ${quantType}`}`);
  }
  const rank = data.shape.length;
  if (rank < 1) throw new RangeError('data rank must be >= 1');
  const per = packed ? 8 / bits : 1; // codes per stored element
  const shape = data.shape.slice();
  shape[rank - 1] *= per;
  const n = numel(shape);
  checkLength(data, 'data', packed ? numel(data.shape) : Math.ceil(n / 2));

  const gatherAxis = checkAxis(opts.gatherAxis ?? 0, rank, 'gatherAxis');
  const quantizeAxis = checkAxis(opts.quantizeAxis ?? rank - 1, rank, 'quantizeAxis');
  if (packed && quantizeAxis !== rank - 1) {
    throw new RangeError(`quantizeAxis ${quantizeAxis} must be the last axis (${rank - 1}) for uint8, along which codes are packed`);
  }
  const blockSize = opts.blockSize ?? 128;
  if (!Number.isInteger(blockSize) || blockSize < 16 || (blockSize & (blockSize - 1)) !== 0) {
    throw new RangeError(`bad blockSize ${blockSize}: a power of 2, at least 16`);
  }

  const kind = scaleKind(scales, opts);
  const scalesShape = shape.slice();
  scalesShape[quantizeAxis] = Math.ceil(shape[quantizeAxis] / blockSize);
  sameShape(scales.shape, scalesShape, 'scales', `data [${data.shape}] with blockSize ${blockSize}`);
  checkLength(scales, 'scales', numel(scalesShape));

  const signed = quantType === 'int4';
  const codeBits = packed ? bits : 4;
  const zp = opts.zeroPoints;
  let zeroPoint = () => (packed ? 1 << (bits - 1) : 0);
  if (zp != null) {
    checkShape(zp, 'zeroPoints');
    if (!(zp.data instanceof Uint8Array)) throw new TypeError('zeroPoints.data must be a Uint8Array');
    const zpShape = scalesShape.slice();
    zpShape[rank - 1] = packed ? Math.ceil(scalesShape[rank - 1] / per) : zpShape[rank - 1];
    sameShape(zp.shape, zpShape, 'zeroPoints', `scales [${scalesShape}] packed for ${quantType}${packed ? ` bits ${bits}` : ''}`);
    checkLength(zp, 'zeroPoints', packed ? numel(zpShape) : Math.ceil(numel(zpShape) / 2));
    const rowLen = scalesShape[rank - 1];
    const rowBytes = zpShape[rank - 1];
    // uint8: each row of zero points starts on a byte; int4/uint4: flat over the whole tensor.
    zeroPoint = packed
      ? (s) => code(zp.data, Math.floor(s / rowLen) * rowBytes * per + (s % rowLen), codeBits, false)
      : (s) => code(zp.data, s, codeBits, signed);
  }
  return { shape, gatherAxis, quantizeAxis, blockSize, kind, scalesShape, signed, codeBits, zeroPoint };
}

/** GatherBlockQuantized: see the file comment. Returns { data, shape }. */
export function refGatherBlockQuantized(data, indices, scales, opts = {}) {
  const p = plan(data, scales, opts);
  checkShape(indices, 'indices');
  checkLength(indices, 'indices', numel(indices.shape));
  const mode = getMode(opts);
  const negative = getNegative(opts);
  const { shape, gatherAxis: g, quantizeAxis: qa, kind } = p;
  const s = shape[g];
  const q = indices.shape.length;
  const outShape = shape.slice(0, g).concat(indices.shape, shape.slice(g + 1));

  checkEveryIndex(indices.data, () => s, mode, negative);

  const out = makeOutput(scales.data, outShape, opts);
  const zero = kind.fromF32(0);
  for (let o = 0; o < out.length; o++) {
    const c = unravel(o, outShape);
    const k = resolve(rawIndex(indices.data, ravel(c.slice(g, g + q), indices.shape)), s, mode, negative);
    if (k < 0) {
      out[o] = zero;
      continue;
    }
    const dc = c.slice(0, g).concat([k], c.slice(g + q)); // coordinates in the logical data
    const v = code(data.data, ravel(dc, shape), p.codeBits, p.signed);
    const sc = dc.slice();
    sc[qa] = Math.floor(sc[qa] / p.blockSize);
    const si = ravel(sc, p.scalesShape);
    const product = Math.fround(Math.fround(v - p.zeroPoint(si)) * Math.fround(kind.toF32(scales.data[si])));
    out[o] = kind.fromF32(product);
  }
  return { data: out, shape: outShape };
}
