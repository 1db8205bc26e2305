// indexReduce: torch.index_add / index_copy / index_reduce, tf.math.unsorted_segment_*
// (src/op_index_reduce.c).
import { defineOp } from '../call.mjs';
import { SCATTER_MODES, reduceAttrs, scatterData, updatesTensor } from '../scatter-options.mjs';
import { indexTensor, integerArg } from '../tensor.mjs';

const OP = 'indexReduce';

const desc = {
  name: OP,
  c: 'index_reduce',
  params: ['input', 'axis', 'index', 'source', 'opts'],
  tensors: { data: 'input', indices: 'index', updates: 'source' },
  attributes: ['axis', 'reduce', 'include_self'],
  axis: 'axis',
  options: ['reduce', 'includeSelf', 'inPlace', 'dtype'],
  modes: SCATTER_MODES,
  fromData: true,
  tfjs: ['UnsortedSegmentSum'],
  read(s, [input, , index, source, opts]) {
    const d = scatterData(OP, 'input', input, s, opts);
    return { data: d, indices: indexTensor(OP, 'index', index, s), updates: updatesTensor(OP, 'source', source, s, d) };
  },
  attrs(o, t, s, args) {
    const axis = args[1];
    if (axis === undefined) throw new TypeError(`${OP}: axis is required (the axis the index selects along)`);
    return { attrs: [integerArg(OP, 'axis', axis), ...reduceAttrs(OP, o, s, true)] };
  },
};
export default desc;

/**
 * torch.index_add / index_copy / index_reduce, tf.math.unsorted_segment_sum / prod / max / min:
 * out = input with source[..., i, ...] (source: tf.gather's output shape) combined into
 * input[..., index[i], ...] along axis, in order. opts: { reduce?, includeSelf?, inPlace?, dtype?, outOfRange?, negativeIndices?, out?, resident? }
 */
export const indexReduce = defineOp(desc);
