// compress: ONNX Compress (src/op_compress.c).
import { defineOp } from '../call.mjs';
import { maskTensor } from '../mask-options.mjs';
import { dataTensor, DATA_TYPES_F16, integerArg } from '../tensor.mjs';

const OP = 'compress';

const desc = {
  name: OP,
  c: 'compress',
  params: ['x', 'condition', 'opts'],
  tensors: { data: 'x', mask: 'condition' },
  attributes: ['axis', 'flatten'],
  axis: 'opts.axis',
  options: ['axis'],
  common: ['out', 'resident'],
  counted: true,
  maskRank: () => '1',
  read: (s, [x, condition]) => ({ data: dataTensor(OP, 'x', x, s, DATA_TYPES_F16), mask: maskTensor(OP, 'condition', condition, s) }),
  // no opts.axis: x flattened
  attrs: (o) => ({ attrs: o.axis == null ? [0, 1] : [integerArg(OP, 'opts.axis', o.axis, 0), 0] }),
};
export default desc;

/**
 * ONNX Compress: the slices of x along opts.axis where the 1-D condition is true (a condition
 * shorter than the axis selects from its length only); with no axis, the elements of x flattened.
 * opts: { axis?: number, out?, resident? }
 */
export const compress = defineOp(desc);
