// nonZero: ONNX NonZero, torch.nonzero, tf.where (src/op_non_zero.c).
import { defineOp } from '../call.mjs';
import { scatterData } from '../scatter-options.mjs';
import { describeValue } from '../describe.mjs';

const OP = 'nonZero';
// opts.layout: ONNX's columns [rank, count], or torch's (and tf.where's) rows [count, rank]
const LAYOUTS = { onnx: 0, torch: 1 };
const INDEX_TYPES = { int32: ['WG_INDEX_I32', Int32Array], int64: ['WG_INDEX_I64', BigInt64Array] };

const desc = {
  name: OP,
  c: 'non_zero',
  params: ['x', 'opts'],
  tensors: { data: 'x' },
  attributes: ['rows_first', 'index_type'],
  axis: 'axis',
  options: ['layout', 'indexType', 'dtype'],
  common: ['out', 'resident'],
  counted: true,
  read: (s, [x, opts]) => ({ data: scatterData(OP, 'x', x, s, opts) }),
  attrs(o, t, s) {
    const layout = o.layout ?? 'onnx', indexType = o.indexType ?? 'int32';
    if (!Object.hasOwn(LAYOUTS, layout)) throw new RangeError(`${OP}: opts.layout must be 'onnx' or 'torch', got ${describeValue(layout)}`);
    if (!Object.hasOwn(INDEX_TYPES, indexType)) throw new RangeError(`${OP}: opts.indexType must be 'int32' or 'int64', got ${describeValue(indexType)}`);
    const [name, Type] = INDEX_TYPES[indexType];
    return { attrs: [LAYOUTS[layout], s.abi.value(name)], Type, outLike: `the coordinates (opts.indexType '${indexType}')` };
  },
};
export default desc;

/**
 * The coordinates of x's non-zero elements, in row-major order (NaN is non-zero, -0 is zero).
 * opts: { layout?: 'onnx' ([rank, count], the default) | 'torch' ([count, rank]), indexType?:
 * 'int32' | 'int64', dtype?: 'float16' | 'bfloat16' (x's bits in a Uint16Array), out?, resident? }
 */
export const nonZero = defineOp(desc);
