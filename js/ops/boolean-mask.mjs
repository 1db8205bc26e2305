// booleanMask: tf.boolean_mask, torch.masked_select (src/op_boolean_mask.c).
import { defineOp } from '../call.mjs';
import { maskTensor } from '../mask-options.mjs';
import { dataTensor, DATA_TYPES_F16, integerArg } from '../tensor.mjs';

const OP = 'booleanMask';

const desc = {
  name: OP,
  c: 'boolean_mask',
  params: ['x', 'mask', 'opts'],
  tensors: { data: 'x', mask: 'mask' },
  attributes: ['axis'],
  axis: 'opts.axis',
  options: ['axis'],
  common: ['out', 'resident'],
  counted: true,
  maskRank: (limit) => `${limit === 1 ? '1' : `from 1 to ${limit}`} (x's rank less opts.axis)`,
  read: (s, [x, mask]) => ({ data: dataTensor(OP, 'x', x, s, DATA_TYPES_F16), mask: maskTensor(OP, 'mask', mask, s) }),
  attrs: (o) => ({ attrs: [integerArg(OP, 'opts.axis', o.axis, 0)] }),
};
export default desc;

/**
 * tf.boolean_mask: a mask of K dims over x's dims [axis, axis + K) keeps the slices where it is
 * true: output [...x.shape.slice(0, axis), count, ...x.shape.slice(axis + K)].
 * opts: { axis?: number (0), out?, resident? }
 */
export const booleanMask = defineOp(desc);
