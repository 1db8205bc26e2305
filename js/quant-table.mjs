// A block-quantized table (onnxruntime's GatherBlockQuantized layout, src/stage_dequant.h): its
// codes, scales and zero points, and the options that describe how it is quantized, as the ops
// that read one are given them. The packed lengths are checked here (only JS knows the arrays'
// lengths); every shape rule is in C.
import { codesTensor, integerArg, typedTensor, typeName } from './tensor.mjs';

const QUANT_TYPES = ['uint8', 'uint4', 'int4'];
const SCALE_TYPES = ['float32', 'float16', 'bfloat16'];
const Float16 = typeof globalThis.Float16Array === 'function' ? globalThis.Float16Array : undefined;
const SCALE_ARRAYS = Float16 ? [Float32Array, Uint16Array, Float16] : [Float32Array, Uint16Array];

/** opts.quantType, checked: 'uint8' (default), 'uint4' or 'int4'. */
function quantTypeOf(op, opts) {
  const q = (opts !== null && typeof opts === 'object' ? opts.quantType : undefined) ?? 'uint8';
  if (!QUANT_TYPES.includes(q)) {
    throw new RangeError(`${op}: opts.quantType must be 'uint8', 'uint4' or 'int4', got ${JSON.stringify(q) ?? typeName(q)}`);
  }
  return q;
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

const QUANT_DTYPES = { uint8: 'U8', uint4: 'U4', int4: 'I4' };
const SCALE_DTYPES = { float32: 'F32', float16: 'F16', bfloat16: 'BF16' };

/** The table's codes (data), packed as opts.quantType says, with their dtype. */
export function quantTable(op, s, data, opts) {
  const quantType = quantTypeOf(op, opts);
  const d = codesTensor(op, 'data', data, s, quantType);
  d.dtype = QUANT_DTYPES[quantType];
  return d;
}

/**
 * The scales (`scales`, named `name` in messages) and opts.zeroPoints added to the call's
 * tensors t; returns the output's array type (the scales').
 */
export function quantScales(op, t, s, scales, opts, name = 'scales') {
  const quantType = quantTypeOf(op, opts);
  const sc = typedTensor(op, name, scales, s, {
    Types: SCALE_ARRAYS, what: `a Float32Array or a Uint16Array (float16 or bfloat16 bits)${Float16 ? ' or a Float16Array' : ''}` });
  sc.dtype = SCALE_DTYPES[scaleTypeOf(op, opts.scaleType, sc.Type)];
  t.scales = sc;
  if (opts.zeroPoints != null) {
    t.zero_points = codesTensor(op, 'opts.zeroPoints', opts.zeroPoints, s, quantType);
    t.zero_points.dtype = t.data.dtype;
  }
  return sc.Type;
}

/** The bits, block_size and quantize_axis attributes from opts. */
export const quantAttrs = (op, opts) => [
  integerArg(op, 'opts.bits', opts.bits, 4),
  integerArg(op, 'opts.blockSize', opts.blockSize, 128),
  integerArg(op, 'opts.quantizeAxis', opts.quantizeAxis, -1),
];

/**
 * messages, each marked as the words of `family` (the module that holds them): the statuses a few
 * ops share have their words written once there (tests/abi/abi.test.mjs checks that each status
 * is worded in one place).
 */
export function wordsOf(family, messages) {
  for (const f of Object.values(messages)) f.family = family;
  return messages;
}

/** The options that describe a table. */
export const QUANT_OPTIONS = ['quantType', 'bits', 'scaleType', 'zeroPoints', 'quantizeAxis', 'blockSize'];

/**
 * Words for the table's rules (js/errors.mjs: an op's messages), keyed by the status's name;
 * scales: what the op calls its scales.
 */
export const quantMessages = (scales) => wordsOf('quant-table', {
  WG_ERR_BITS: (e, { op, abi }) => `${op}: opts.bits ${e.value} is not valid for quantType ` +
    `'${quantTypeName(abi, e.limit)}' (uint8 codes have 2, 4 or 8 bits; uint4 and int4 codes have 4)`,
  WG_ERR_BLOCK_SIZE: (e, { op }) => `${op}: opts.blockSize ${e.value} must be a power of 2, at least 16`,
  WG_ERR_QUANTIZE_AXIS_PACKED: (e, { op }) => `${op}: opts.quantizeAxis ${e.value} must be the last axis ` +
    `(${e.limit}) for quantType 'uint8', whose codes are packed along it`,
  WG_ERR_SCALES_SHAPE: (e, ctx) => quantShapeMessage(e, ctx, scales,
    "the data's logical shape with dimension quantizeAxis divided by blockSize, rounded up"),
  WG_ERR_ZERO_POINTS_SHAPE: (e, ctx) => quantShapeMessage(e, ctx, 'opts.zeroPoints',
    "the scales' shape, with the last dimension divided by the codes a byte holds (8 / bits), rounded up, for quantType 'uint8' of 2 or 4 bits"),
});

// 'uint8', 'uint4' or 'int4' from a wg_quant_type.
const quantTypeName = (abi, v) => abi.nameOf('WG_QUANT_', v)?.slice(9).toLowerCase() ?? String(v);

function quantShapeMessage(e, { op }, name, rule) {
  if (e.dim < 0) return `${op}: ${name} has rank ${e.value} but must have the data's rank, ${e.limit}`;
  return `${op}: ${name}.shape[${e.dim}] is ${e.value} but must be ${e.limit} (${rule})`;
}

