// The ops: each names its arguments for messages and reads its own attributes; callOp
// (js/call.mjs) does the rest, served by the C op of src/ops.def named by `c`.
import { callOp } from './call.mjs';
import { OP_NAMES } from './op-names.mjs';
import { codesTensor, quantAttrs, quantTypeOf } from './quantized.mjs';
import { ready } from './state.mjs';
import { integerArg } from './tensor.mjs';

const { take: TF_NAMES, gather: GATHER_NAMES } = OP_NAMES;

// Each op's own option names, besides those all take (outOfRange, negativeIndices, out, resident:
// COMMON_OPTIONS of js/tensor.mjs); any other name throws, naming these (callOp: commonOptions).
const OPTIONS = {
  gather: [],
  gatherND: ['batchDims'],
  take: ['axis', 'batchDims'],
  gatherBlockQuantized: ['quantType', 'bits', 'scaleType', 'zeroPoints', 'gatherAxis', 'quantizeAxis', 'blockSize'],
};

/**
 * torch.gather / ONNX GatherElements: out[i][j][k] = input[i][index[i][j][k]][k] for dim 1, and
 * so on. opts: { outOfRange?: 'error'|'zero'|'clamp', out?, resident? }
 */
export function gather(input, dim, index, opts) {
  const attrs = () => {
    if (dim === undefined) throw new TypeError('gather: dim is required (the axis to gather along)');
    return { axis: integerArg('gather', 'dim', dim) };
  };
  return callOp(ready('gather'), { op: 'gather', c: 'gather', names: GATHER_NAMES, opts, options: OPTIONS.gather, attrs }, input, index);
}

/**
 * tf.gather_nd / ONNX GatherND: output = indices.shape[:-1] + params.shape[batchDims + indices.shape[-1]:].
 * opts: { batchDims?: number, outOfRange?, out?, resident? }
 */
export function gatherND(params, indices, opts) {
  const attrs = (o) => ({ batchDims: integerArg('gatherND', 'opts.batchDims', o.batchDims, 0) });
  return callOp(ready('gatherND'), { op: 'gatherND', c: 'gather_nd', names: TF_NAMES, opts, options: OPTIONS.gatherND, attrs }, params, indices);
}

/**
 * tf.gather / ONNX Gather: output = params.shape[:axis] + indices.shape[batchDims:] + params.shape[axis+1:].
 * opts: { axis?: number, batchDims?: number, outOfRange?, out?, resident? }
 */
export function take(params, indices, opts) {
  const attrs = (o) => ({ axis: integerArg('take', 'opts.axis', o.axis, 0),
    batchDims: integerArg('take', 'opts.batchDims', o.batchDims, 0) });
  return callOp(ready('take'), { op: 'take', c: 'take', names: TF_NAMES, opts, options: OPTIONS.take, attrs }, params, indices);
}

/** ONNX's name for gather (torch.gather); gatherND is already ONNX's GatherND. */
export const gatherElements = gather;

/**
 * onnxruntime's com.microsoft.GatherBlockQuantized: the rows of a block-quantized table,
 * dequantized. Output shape: the logical data shape with opts.gatherAxis replaced by
 * indices.shape; each value (q - zeroPoint) * scale in float32, rounded to the scales' type.
 * opts: { quantType?, bits?, scaleType?, zeroPoints?, gatherAxis?, quantizeAxis?, blockSize?,
 * outOfRange?, out?, resident? } (js/index.d.cts).
 */
export function gatherBlockQuantized(data, indices, scales, opts) {
  const s = ready(GBQ);
  const quantType = quantTypeOf(GBQ, opts);
  return callOp(s, { op: GBQ, c: 'gather_block_quantized', names: GBQ_NAMES, opts, options: OPTIONS[GBQ], quantType, scales,
    data: gbqData, attrs: gbqAttrs }, data, indices);
}

const GBQ = 'gatherBlockQuantized';
const GBQ_NAMES = { data: 'data', indices: 'indices', axis: 'opts.gatherAxis' };
// callOp's hooks for it (called with the spec as `this`: no closure made per call).
function gbqData(op, name, t, owner) { return codesTensor(op, name, t, owner, this.quantType); }
function gbqAttrs(o, d, owner) { return quantAttrs(GBQ, o, owner, this.quantType, this.scales); }
