// gatherND: tf.gather_nd / ONNX GatherND (src/op_gather_nd.c).
import { defineOp } from '../call.mjs';
import { dataTensor, indexTensor, integerArg } from '../tensor.mjs';

const desc = {
  name: 'gatherND',
  c: 'gather_nd',
  tfjs: 'GatherNd',
  params: ['params', 'indices', 'opts'],
  tensors: { data: 'params', indices: 'indices' },
  attributes: ['batch_dims'],
  axis: 'axis',
  options: ['batchDims'],
  read: (s, [params, indices]) => ({ data: dataTensor('gatherND', 'params', params, s), indices: indexTensor('gatherND', 'indices', indices, s) }),
  attrs: (o) => ({ attrs: { batch_dims: integerArg('gatherND', 'opts.batchDims', o.batchDims, 0) } }),
};
export default desc;

/**
 * tf.gather_nd / ONNX GatherND: output = indices.shape[:-1] + params.shape[batchDims + indices.shape[-1]:].
 * opts: { batchDims?: number, outOfRange?, negativeIndices?, out?, resident? }
 */
export const gatherND = defineOp(desc);
