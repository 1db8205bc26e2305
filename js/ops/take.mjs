// take: tf.gather / ONNX Gather (src/op_take.c).
import { defineOp } from '../call.mjs';
import { dataTensor, indexTensor, integerArg } from '../tensor.mjs';

const desc = {
  name: 'take',
  c: 'take',
  tfjs: 'GatherV2',
  params: ['params', 'indices', 'opts'],
  tensors: { data: 'params', indices: 'indices' },
  attributes: ['axis', 'batch_dims'],
  axis: 'axis',
  options: ['axis', 'batchDims'],
  read: (s, [params, indices]) => ({ data: dataTensor('take', 'params', params, s), indices: indexTensor('take', 'indices', indices, s) }),
  attrs: (o) => ({ attrs: { axis: integerArg('take', 'opts.axis', o.axis, 0), batch_dims: integerArg('take', 'opts.batchDims', o.batchDims, 0) } }),
};
export default desc;

/**
 * tf.gather / ONNX Gather: output = params.shape[:axis] + indices.shape[batchDims:] + params.shape[axis+1:].
 * opts: { axis?: number, batchDims?: number, outOfRange?, negativeIndices?, out?, resident? }
 */
export const take = defineOp(desc);
