// gatherBlockQuantized's own arguments (onnxruntime's com.microsoft.GatherBlockQuantized): its
// codes, scales and zero points, and the options that describe how the table is quantized.
// The packed lengths are checked here (only JS knows the arrays' lengths); every shape rule is
// in C (src/op_gather_block_quantized.c).
import { integerArg, product, typedTensor, typeName } from './tensor.mjs';

const QUANT_TYPES = ['uint8', 'uint4', 'int4'];
const SCALE_TYPES = ['float32', 'float16', 'bfloat16'];
const halfRoundedUp = (shape) => Math.ceil(product(shape) / 2);
const Float16 = typeof globalThis.Float16Array === 'function' ? globalThis.Float16Array : undefined;
const SCALE_ARRAYS = Float16 ? [Float32Array, Uint16Array, Float16] : [Float32Array, Uint16Array];

/** opts.quantType, checked: 'uint8' (default), 'uint4' or 'int4'. */
export function quantTypeOf(op, opts) {
  const q = (opts !== null && typeof opts === 'object' ? opts.quantType : undefined) ?? 'uint8';
  if (!QUANT_TYPES.includes(q)) {
    throw new RangeError(`${op}: opts.quantType must be 'uint8', 'uint4' or 'int4', got ${JSON.stringify(q) ?? typeName(q)}`);
  }
  return q;
}

/**
 * Codes (the table, or zero points) of `quantType`: a Uint8Array, its shape the stored one for
 * 'uint8' (one byte an element), else holding two 4-bit codes a byte of its shape; a resident
 * one must be packed the same way (upload(t, { quantType: 'int4' })).
 */
export function codesTensor(op, name, t, owner, quantType) {
  const packed = quantType !== 'uint8';
  return typedTensor(op, name, t, owner, packed
    ? { Types: [Uint8Array], what: 'a Uint8Array of 4-bit codes, two a byte', length: halfRoundedUp, packed }
    : { Types: [Uint8Array], what: 'a Uint8Array' });
}

// The scale type from opts.scaleType and the scales' array type, checked against each other.
function scaleTypeOf(op, given, Type) {
  if (given !== undefined && !SCALE_TYPES.includes(given)) {
    throw new RangeError(`${op}: opts.scaleType must be 'float32', 'float16' or 'bfloat16', got ${JSON.stringify(given) ?? typeName(given)}`);
  }
  const allowed = Type === Float32Array ? ['float32'] : Type === Uint16Array ? ['float16', 'bfloat16'] : ['float16'];
  const t = given ?? allowed[0];
  if (!allowed.includes(t)) {
    throw new TypeError(`${op}: opts.scaleType '${t}' does not match scales.data, a ${Type.name} ` +
      `(float32 scales are a Float32Array; float16 or bfloat16 bits a Uint16Array${Float16 ? '; float16 a Float16Array' : ''})`);
  }
  return t;
}

/**
 * The attributes of a call (callOp's spec.attrs): the gather axis, the table's description for
 * the call record, the scales and zero points as extra inputs, and the output's array type (the
 * scales').
 */
export function quantAttrs(op, opts, owner, quantType, scales) {
  const sc = typedTensor(op, 'scales', scales, owner, {
    Types: SCALE_ARRAYS, what: `a Float32Array or a Uint16Array (float16 or bfloat16 bits)${Float16 ? ' or a Float16Array' : ''}` });
  const scaleType = scaleTypeOf(op, opts.scaleType, sc.Type);
  const zp = opts.zeroPoints == null ? undefined : codesTensor(op, 'opts.zeroPoints', opts.zeroPoints, owner, quantType);
  const quant = {
    quantType, scaleType,
    bits: integerArg(op, 'opts.bits', opts.bits, 4),
    blockSize: integerArg(op, 'opts.blockSize', opts.blockSize, 128),
    quantizeAxis: integerArg(op, 'opts.quantizeAxis', opts.quantizeAxis, -1),
    scaleShape: sc.shape, zpShape: zp?.shape,
  };
  return { axis: integerArg(op, 'opts.gatherAxis', opts.gatherAxis, 0), quant, extra: zp ? [sc, zp] : [sc], Type: sc.Type,
    outLike: 'the scales' };
}
