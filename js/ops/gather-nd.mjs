// gatherND: tf.gather_nd / ONNX GatherND (src/op_gather_nd.c).
import { defineOp } from '../call.mjs';
import { dataTensor, indexTensor, integerArg } from '../tensor.mjs';

const desc = {
  name: 'gatherND',
  c: 'gather_nd',
  tfjs: ['GatherNd'],
  params: ['params', 'indices', 'opts'],
  tensors: { data: 'params', indices: 'indices' },
  attributes: ['batch_dims'],
  axis: 'axis',
  options: ['batchDims'],
  read: (s, args) => ({ data: dataTensor('gatherND', 'params', args[0], s), indices: indexTensor('gatherND', 'indices', args[1], s) }),
  attrs: (o) => ({ attrs: [integerArg('gatherND', 'opts.batchDims', o.batchDims, 0)] }),
};
export default desc;

/**
 * tf.gather_nd / ONNX GatherND: output = indices.shape[:-1] + params.shape[batchDims + indices.shape[-1]:].
 * opts: { batchDims?: number, outOfRange?, negativeIndices?, out?, resident? }
 */
export const gatherND = defineOp(desc);
