// gather: torch.gather / ONNX GatherElements (src/op_gather.c).
import { defineOp } from '../call.mjs';
import { dataTensor, indexTensor, integerArg } from '../tensor.mjs';

const desc = {
  name: 'gather',
  c: 'gather',
  params: ['input', 'dim', 'index', 'opts'],
  tensors: { data: 'input', indices: 'index' },
  attributes: ['axis'],
  axis: 'dim',
  options: [],
  read: (s, args) => ({ data: dataTensor('gather', 'input', args[0], s), indices: indexTensor('gather', 'index', args[2], s) }),
  attrs(o, t, s, args) {
    const dim = args[1];
    if (dim === undefined) throw new TypeError('gather: dim is required (the axis to gather along)');
    return { attrs: [integerArg('gather', 'dim', dim)] };
  },
};
export default desc;

/**
 * torch.gather / ONNX GatherElements: out[i][j][k] = input[i][index[i][j][k]][k] for dim 1, and
 * so on. opts: { outOfRange?, negativeIndices?, out?, resident? }
 */
export const gather = defineOp(desc);

/** ONNX's name for it (GatherElements). */
export const gatherElements = gather;
