// gatherBlockQuantized: onnxruntime's com.microsoft.GatherBlockQuantized (src/op_gather_block_quantized.c):
// its codes, scales and zero points, and the options that describe how the table is quantized.
// The packed lengths are checked here (only JS knows the arrays' lengths); every shape rule is
// in C.
import { defineOp } from '../call.mjs';
import { codesTensor, indexTensor, integerArg, typedTensor, typeName } from '../tensor.mjs';

const OP = 'gatherBlockQuantized';
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

// The table's codes and the indices, the codes' packing read from opts.quantType.
function read(s, [data, indices, , opts]) {
  const quantType = quantTypeOf(OP, opts);
  const d = codesTensor(OP, 'data', data, s, quantType);
  d.dtype = QUANT_DTYPES[quantType];
  return { data: d, indices: indexTensor(OP, 'indices', indices, s) };
}

// The scales and zero points (added to the call's tensors), the attributes, and the output's
// array type (the scales').
function attrs(opts, t, s, [, , scales]) {
  const quantType = quantTypeOf(OP, opts);
  const sc = typedTensor(OP, 'scales', scales, s, {
    Types: SCALE_ARRAYS, what: `a Float32Array or a Uint16Array (float16 or bfloat16 bits)${Float16 ? ' or a Float16Array' : ''}` });
  sc.dtype = SCALE_DTYPES[scaleTypeOf(OP, opts.scaleType, sc.Type)];
  t.scales = sc;
  if (opts.zeroPoints != null) {
    t.zero_points = codesTensor(OP, 'opts.zeroPoints', opts.zeroPoints, s, quantType);
    t.zero_points.dtype = t.data.dtype;
  }
  return {
    attrs: [ // in the order of desc.attributes
      integerArg(OP, 'opts.gatherAxis', opts.gatherAxis, 0),
      integerArg(OP, 'opts.bits', opts.bits, 4),
      integerArg(OP, 'opts.blockSize', opts.blockSize, 128),
      integerArg(OP, 'opts.quantizeAxis', opts.quantizeAxis, -1),
    ],
    Type: sc.Type,
    outLike: 'the scales',
  };
}

// Words for its own rules (js/errors.mjs), keyed by the status's name.
const messages = {
  WG_ERR_BITS: (e, { op, abi }) => `${op}: opts.bits ${e.value} is not valid for quantType ` +
    `'${quantTypeName(abi, e.limit)}' (uint8 codes have 2, 4 or 8 bits; uint4 and int4 codes have 4)`,
  WG_ERR_BLOCK_SIZE: (e, { op }) => `${op}: opts.blockSize ${e.value} must be a power of 2, at least 16`,
  WG_ERR_QUANTIZE_AXIS_PACKED: (e, { op }) => `${op}: opts.quantizeAxis ${e.value} must be the last axis ` +
    `(${e.limit}) for quantType 'uint8', whose codes are packed along it`,
  WG_ERR_SCALES_SHAPE: (e, ctx) => quantShapeMessage(e, ctx, 'scales',
    "the data's logical shape with dimension quantizeAxis divided by blockSize, rounded up"),
  WG_ERR_ZERO_POINTS_SHAPE: (e, ctx) => quantShapeMessage(e, ctx, 'opts.zeroPoints',
    "the scales' shape, with the last dimension divided by the codes a byte holds (8 / bits), rounded up, for quantType 'uint8' of 2 or 4 bits"),
};

// 'uint8', 'uint4' or 'int4' from a wg_quant_type.
const quantTypeName = (abi, v) => abi.nameOf('WG_QUANT_', v)?.slice(9).toLowerCase() ?? String(v);

function quantShapeMessage(e, { op }, name, rule) {
  if (e.dim < 0) return `${op}: ${name} has rank ${e.value} but must have the data's rank, ${e.limit}`;
  return `${op}: ${name}.shape[${e.dim}] is ${e.value} but must be ${e.limit} (${rule})`;
}

const desc = {
  name: OP,
  c: 'gather_block_quantized',
  params: ['data', 'indices', 'scales', 'opts'],
  tensors: { data: 'data', indices: 'indices', scales: 'scales', zero_points: 'opts.zeroPoints' },
  attributes: ['axis', 'bits', 'block_size', 'quantize_axis'],
  axis: 'opts.gatherAxis',
  options: ['quantType', 'bits', 'scaleType', 'zeroPoints', 'gatherAxis', 'quantizeAxis', 'blockSize'],
  messages,
  read,
  attrs,
};
export default desc;

/**
 * onnxruntime's com.microsoft.GatherBlockQuantized: the rows of a block-quantized table,
 * dequantized. Output shape: the logical data shape with opts.gatherAxis replaced by
 * indices.shape; each value (q - zeroPoint) * scale in float32, rounded to the scales' type.
 * opts: { quantType?, bits?, scaleType?, zeroPoints?, gatherAxis?, quantizeAxis?, blockSize?,
 * outOfRange?, negativeIndices?, out?, resident? } (js/index.d.cts).
 */
export const gatherBlockQuantized = defineOp(desc);
