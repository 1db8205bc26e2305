// embeddingBag's backward in the playground: the gradient of one output row for the table, by the
// library's own backward op. Its gradOutput is ones in that row and zeros elsewhere, so the
// gradient is what the row's gradient reaches: each table row one of the bag's entries read, with
// the entry's scale (its weight over the bag's divisor: 1 for 'sum', 1/count for 'mean', ...; for
// 'max', 1 at each element's winning row), summed where a row is read more than once.
// The op is found in js/ops/index.mjs's list, as the forward's C name with '_backward'.
import { OPS, opNamed } from '../../js/ops/index.mjs';
import { numel } from '../../common/shape.mjs';
import { bagOpts, callBag } from './bag-ops.mjs';

const FORWARD = opNamed('embeddingBag');
/** The backward op's descriptor, or null where the library has none. */
export const BACKWARD = OPS.find((d) => d.c === `${FORWARD.c}_backward`) ?? null;
const COMMON = ['outOfRange', 'negativeIndices']; // the index policies, taken by both

/**
 * The backward's options for an embeddingBag call of the editor (lib/bag-ops.mjs) and its output:
 * the forward's bags, mode, weights (of gradOutput's array type), padding and outOfRange, as
 * the backward takes them; numWeights, the table's rows; for 'max', the forward's maxIndices.
 */
export function gradOpts(api, call, output, Type) {
  const o = Object.fromEntries(Object.entries(bagOpts(call)).filter(([k]) => BACKWARD.options.includes(k) || COMMON.includes(k)));
  if (o.perSampleWeights) o.perSampleWeights = { data: Type.from(call.attrs.bag.weights), shape: o.perSampleWeights.shape };
  o.numWeights = call.data.shape[0] ?? 0;
  if (o.mode === 'max') o.maxIndices = (output.maxIndices ?? callBag(api, call, { returnIndices: true }).maxIndices);
  return o;
}

/** gradOutput for output row `row`: the output's shape, ones in that row, zeros elsewhere. */
export function oneHotRow(shape, row, Type) {
  const dim = numel(shape.slice(1));
  const data = new Type(numel(shape));
  data.fill(1, row * dim, (row + 1) * dim);
  return { data, shape: shape.slice() };
}

/**
 * The gradient of output row `row` of an embeddingBag call for its table, by impl's backward
 * (the library, or common/reference-bag-backward.mjs): { row, gradOutput, opts, result ({ data,
 * shape }: [table rows, ...row]), text (the call as code) }. float64 for a float64 table, else float32.
 */
export function bagGradient(impl, api, call, output, row) {
  const Type = call.data.data instanceof Float64Array ? Float64Array : Float32Array;
  const gradOutput = oneHotRow(output.shape, row, Type);
  const opts = gradOpts(api, call, output, Type);
  const result = impl[BACKWARD.name](gradOutput, call.indices, opts);
  return { row, gradOutput, opts, result, text: gradText(row, opts) };
}

/** `embeddingBagBackward(gradOutput, indices, { mode: 'mean', offsets: [0, 4], numWeights: 10 })`, gradOutput: ones in row 1 */
function gradText(row, opts) {
  const fmt = (v) => (typeof v === 'string' ? `'${v}'` : typeof v === 'object'
    ? (v.data.length > 12 ? `[${v.data.length} values]` : `[${Array.from(v.data).join(', ')}]`) : String(v));
  const text = Object.entries(opts).map(([k, v]) => `${k}: ${k === 'maxIndices' ? 'maxIndices' : fmt(v)}`);
  return `${BACKWARD.name}(${BACKWARD.params.slice(0, -1).join(', ')}, { ${text.join(', ')} }) with gradOutput ones in row ${row}`;
}
