// scatterND: ONNX ScatterND, tf.tensor_scatter_nd_* (src/op_scatter_nd.c).
import { defineOp } from '../call.mjs';
import { SCATTER_MODES, reduceAttrs, scatterData, updatesTensor } from '../scatter-options.mjs';
import { indexTensor } from '../tensor.mjs';

const OP = 'scatterND';

const desc = {
  name: OP,
  c: 'scatter_nd',
  params: ['data', 'indices', 'updates', 'opts'],
  tensors: { data: 'data', indices: 'indices', updates: 'updates' },
  attributes: ['reduce', 'include_self'],
  axis: 'axis',
  options: ['reduce', 'includeSelf', 'inPlace', 'dtype'],
  modes: SCATTER_MODES,
  fromData: true,
  tfjs: ['ScatterNd', 'TensorScatterUpdate'],
  read(s, [data, indices, updates, opts]) {
    const d = scatterData(OP, 'data', data, s, opts);
    return { data: d, indices: indexTensor(OP, 'indices', indices, s), updates: updatesTensor(OP, 'updates', updates, s, d) };
  },
  attrs: (o, t, s) => ({ attrs: reduceAttrs(OP, o, s, false) }),
  messages: {
    WG_ERR_INDEX_DEPTH: (e) => `${OP}: indices.shape[-1] (${e.value}), the length of each index tuple, must be <= data rank (${e.limit})`,
  },
};
export default desc;

/**
 * ONNX ScatterND, tf.tensor_scatter_nd_update / add / max / min: out = data with the slice at
 * each index tuple of indices [..., K] combined with its row of updates (indices.shape[:-1] +
 * data.shape[K:]), in order. opts: { reduce?, includeSelf?, inPlace?, dtype?, outOfRange?, negativeIndices?, out?, resident? }
 */
export const scatterND = defineOp(desc);
