// take: tf.gather / ONNX Gather (src/op_take.c).
import { defineOp } from '../call.mjs';
import { dataTensor, indexTensor, integerArg } from '../tensor.mjs';

const desc = {
  name: 'take',
  c: 'take',
  tfjs: ['GatherV2'],
  params: ['params', 'indices', 'opts'],
  tensors: { data: 'params', indices: 'indices' },
  attributes: ['axis', 'batch_dims'],
  axis: 'axis',
  options: ['axis', 'batchDims'],
  read: (s, args) => ({ data: dataTensor('take', 'params', args[0], s), indices: indexTensor('take', 'indices', args[1], s) }),
  attrs: (o) => ({ attrs: [integerArg('take', 'opts.axis', o.axis, 0), integerArg('take', 'opts.batchDims', o.batchDims, 0)] }),
  // Whether the plan's blocks are whole rows of params (axis 0, no batch dimensions): block j is
  // row indices[j], which a prepared call then resolves in JS (js/prepared.mjs).
  blocksAreRows: (o, t) => (o.axis ?? 0) % t.data.shape.length === 0 && (o.batchDims ?? 0) === 0,
};
export default desc;

/**
 * tf.gather / ONNX Gather: output = params.shape[:axis] + indices.shape[batchDims:] + params.shape[axis+1:].
 * opts: { axis?: number, batchDims?: number, outOfRange?, negativeIndices?, out?, resident? }
 */
export const take = defineOp(desc);
