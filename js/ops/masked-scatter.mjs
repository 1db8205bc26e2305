// maskedScatter: torch.Tensor.masked_scatter (src/op_masked_scatter.c).
import { defineOp } from '../call.mjs';
import { maskTensor } from '../mask-options.mjs';
import { scatterData, updatesTensor } from '../scatter-options.mjs';

const OP = 'maskedScatter';

const desc = {
  name: OP,
  c: 'masked_scatter',
  params: ['x', 'mask', 'source', 'opts'],
  tensors: { data: 'x', mask: 'mask', updates: 'source' },
  attributes: [],
  axis: 'axis',
  options: ['inPlace', 'dtype'],
  common: ['out', 'resident'],
  fromData: true,
  maskRank: (limit) => `${limit}, x's`,
  read(s, [x, mask, source, opts]) {
    const d = scatterData(OP, 'x', x, s, opts);
    return { data: d, mask: maskTensor(OP, 'mask', mask, s), updates: updatesTensor(OP, 'source', source, s, d) };
  },
  attrs: () => ({ attrs: [] }),
};
export default desc;

/**
 * torch.Tensor.masked_scatter: x with the elements where mask (of x's shape) is true, in
 * row-major order, taking source's first values; source must hold at least that many.
 * opts: { inPlace?: boolean (a resident x), dtype?: 'float16' | 'bfloat16', out?, resident? }
 */
export const maskedScatter = defineOp(desc);
