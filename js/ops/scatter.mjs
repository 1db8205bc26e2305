// scatter: torch.scatter / scatter_reduce, ONNX ScatterElements (src/op_scatter.c).
import { defineOp } from '../call.mjs';
import { SCATTER_MODES, reduceAttrs, scatterData, updatesTensor, valueTensor } from '../scatter-options.mjs';
import { indexTensor, integerArg } from '../tensor.mjs';

const OP = 'scatter';

const desc = {
  name: OP,
  c: 'scatter',
  params: ['input', 'dim', 'index', 'src', 'opts'],
  tensors: { data: 'input', indices: 'index', updates: 'src' },
  attributes: ['axis', 'reduce', 'include_self'],
  axis: 'dim',
  options: ['reduce', 'includeSelf', 'inPlace', 'dtype'],
  modes: SCATTER_MODES,
  fromData: true,
  updatesAtLeast: true, // src may be larger than index
  read(s, [input, , index, src, opts]) {
    const data = scatterData(OP, 'input', input, s, opts);
    const indices = indexTensor(OP, 'index', index, s);
    const value = valueTensor(OP, 'src', src, data);
    const updates = value ?? updatesTensor(OP, 'src', src, s, data);
    // C reads a rank-0 src with an index of higher rank as the value form: only a number is that
    if (!value && updates.shape.length === 0 && indices.shape.length > 0) {
      throw new RangeError(`${OP}: src must have the rank of index (${indices.shape.length}), got rank 0 (a value for every position is a number)`);
    }
    return { data, indices, updates };
  },
  attrs(o, t, s, args) {
    const dim = args[1];
    if (dim === undefined) throw new TypeError(`${OP}: dim is required (the axis to scatter along)`);
    return { attrs: [integerArg(OP, 'dim', dim), ...reduceAttrs(OP, o, s, true)] };
  },
};
export default desc;

/**
 * torch.scatter / scatter_reduce, ONNX ScatterElements: out = input with
 * out[i][index[i][j][k]][k] (dim 1, and so on) combined with src[i][j][k], in index's row-major
 * order. opts: { reduce?, includeSelf?, inPlace?, dtype?, outOfRange?, negativeIndices?, out?, resident? }
 */
export const scatter = defineOp(desc);

/** ONNX's name for it (ScatterElements). */
export const scatterElements = scatter;
