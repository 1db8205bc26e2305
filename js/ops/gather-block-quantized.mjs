// gatherBlockQuantized: onnxruntime's com.microsoft.GatherBlockQuantized (src/op_gather_block_quantized.c):
// a block-quantized table (js/quant-table.mjs) and the indices.
import { defineOp } from '../call.mjs';
import { QUANT_OPTIONS, quantAttrs, quantMessages, quantScales, quantTable } from '../quant-table.mjs';
import { indexTensor, integerArg } from '../tensor.mjs';

const OP = 'gatherBlockQuantized';

// The table's codes (their packing from opts.quantType) and the indices.
function read(s, [data, indices, , opts]) {
  return { data: quantTable(OP, s, data, opts), indices: indexTensor(OP, 'indices', indices, s) };
}

// The scales and zero points (added to the call's tensors), the attributes, and the output's
// array type (the scales').
function attrs(opts, t, s, [, , scales]) {
  const Type = quantScales(OP, t, s, scales, opts);
  return { attrs: [integerArg(OP, 'opts.gatherAxis', opts.gatherAxis, 0), ...quantAttrs(OP, opts)], Type, outLike: 'the scales' };
}

const desc = {
  name: OP,
  c: 'gather_block_quantized',
  params: ['data', 'indices', 'scales', 'opts'],
  tensors: { data: 'data', indices: 'indices', scales: 'scales', zero_points: 'opts.zeroPoints' },
  attributes: ['axis', 'bits', 'block_size', 'quantize_axis'],
  axis: 'opts.gatherAxis',
  options: [...QUANT_OPTIONS, 'gatherAxis'],
  messages: quantMessages('scales'),
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
