// embeddingBagBackward: the gradient of the bags' forward for its table, an add of the output's
// gradient rows into the rows the bags read, fused (nothing gathered first), and for its
// per-sample weights (src/op_embedding_bag_backward.c). Semantics: docs/fused-gather-reduce.md.
import { defineOp } from '../call.mjs';
import { ResidentTensor } from '../resident.mjs';
import { addSegments, bagFormMessage, bagForms, bagMessages, bagWeights, flagOption, reduceOf, segmentMessages, segmentsOf } from '../segment-options.mjs';
import unsortedSegments from './index-reduce.mjs'; // named in the message for unsorted segment ids
import { describeValue, indexTensor, integerArg, typeName, typedTensor } from '../tensor.mjs';

const OP = 'embeddingBagBackward';
const MODES = { sum: 'ADD', mean: 'MEAN', max: 'MAX', sqrtn: 'SQRTN' };
const FLOATS = { Types: [Float32Array, Float64Array], what: 'a Float32Array or Float64Array' };

// The table's rows: opts.numWeights, or opts.out's first dimension (a bare array's from its length).
function numWeights(o, grad) {
  const row = grad.shape.slice(1).reduce((a, b) => a * b, 1);
  const out = o.out;
  const fromOut = out instanceof ResidentTensor || (out && !ArrayBuffer.isView(out) && (out.shape ?? out.dims))
    ? (out.shape ?? out.dims)[0] : ArrayBuffer.isView(out) && row > 0 ? out.length / row : undefined;
  const n = o.numWeights ?? fromOut;
  if (n === undefined) throw new TypeError(`${OP}: opts.numWeights (the table's rows) is required without opts.out`);
  if (!Number.isInteger(n) || n < 0 || n >= 2 ** 31) {
    throw new RangeError(`${OP}: opts.numWeights must be an integer in [0, 2^31), got ${describeValue(n)}`);
  }
  return n;
}

const desc = {
  name: OP,
  c: 'embedding_bag_backward',
  tfjs: ['SparseSegmentSumGrad', 'SparseSegmentMeanGrad'], // TensorFlow's kernels of these names (js/tfjs.mjs)
  params: ['gradOutput', 'indices', 'opts'],
  tensors: { updates: 'gradOutput', indices: 'indices', segments: 'the bags', weights: 'opts.perSampleWeights',
    max_indices: 'opts.maxIndices', table: 'opts.weight' },
  attributes: ['reduce', 'segment_form', 'num_segments', 'has_padding', 'padding_idx', 'num_weights', 'accumulate'],
  dataName: 'the table (opts.numWeights)', // what its indices index
  axis: 'axis 0',
  options: ['mode', 'offsets', 'includeLastOffset', 'segmentIds', 'numSegments', 'perSampleWeights', 'paddingIdx',
    'maxIndices', 'numWeights', 'inPlace', 'returnWeightsGrad', 'weight'],
  read(s, [grad, indices, opts]) {
    const o = opts ?? {};
    const updates = typedTensor(OP, 'gradOutput', grad, s, FLOATS);
    // data: the gradient, for the messages and the output's type (the op takes no data tensor)
    const t = { updates, data: updates, indices: indexTensor(OP, 'indices', indices, s) };
    const chosen = segmentsOf(OP, o, bagForms(OP, o));
    if (chosen) addSegments(OP, t, chosen, s);
    else if (o.includeLastOffset) throw new TypeError(`${OP}: opts.includeLastOffset goes with opts.offsets`);
    t.form = chosen?.form ?? 'FIXED';
    if (o.maxIndices != null) t.max_indices = typedTensor(OP, 'opts.maxIndices', o.maxIndices, s, { Types: [Int32Array], what: 'an Int32Array' });
    if (flagOption(OP, o, 'returnWeightsGrad')) {
      if (o.weight == null) throw new TypeError(`${OP}: opts.returnWeightsGrad needs opts.weight (the forward's table)`);
      t.table = typedTensor(OP, 'opts.weight', o.weight, s, FLOATS);
    }
    return t;
  },
  attrs(o, t, s) {
    const { Type, dtype, shape } = t.updates;
    if (o.perSampleWeights != null) t.weights = bagWeights(OP, s, o.perSampleWeights, t.indices, Type, dtype);
    const reduce = reduceOf(OP, s, o, 'mode', MODES, 'mean');
    if ((o.mode === 'max') !== (t.max_indices !== undefined)) {
      throw new TypeError(o.mode === 'max'
        ? `${OP}: mode 'max' needs opts.maxIndices (the forward's result.maxIndices, from opts.returnIndices)`
        : `${OP}: opts.maxIndices goes with mode 'max'`);
    }
    if (t.table) {
      if (t.table.Type !== Type) throw new TypeError(`${OP}: opts.weight must be a ${Type.name} like gradOutput, got a ${t.table.Type.name}`);
      if (!t.weights || (o.mode ?? 'mean') !== 'sum') {
        throw new TypeError(`${OP}: opts.returnWeightsGrad goes with opts.perSampleWeights and mode 'sum' (as torch)`);
      }
    }
    const inPlace = flagOption(OP, o, 'inPlace');
    if (inPlace && !(o.out instanceof ResidentTensor)) {
      throw new TypeError(`${OP}: opts.inPlace adds into opts.out, which must be a resident tensor (upload() it); got ${typeName(o.out)}`);
    }
    let ids = -1;
    if (t.form === 'IDS') { // the bags are gradOutput's rows
      ids = shape[0];
      if (o.numSegments !== undefined && o.numSegments !== ids) {
        throw new RangeError(`${OP}: opts.numSegments ${describeValue(o.numSegments)} must be gradOutput's rows, ${ids} (one a bag)`);
      }
    }
    const padding = o.paddingIdx;
    return {
      attrs: [reduce, s.abi.value(`WG_SEGMENTS_${t.form}`), ids, padding === undefined ? 0 : 1,
        integerArg(OP, 'opts.paddingIdx', padding, 0), numWeights(o, t.updates), inPlace ? 1 : 0],
      Type,
      outLike: 'gradOutput',
    };
  },
  messages: {
    ...segmentMessages(bagFormMessage, 'float32 or float64 values', unsortedSegments),
    ...bagMessages,
    WG_ERR_GRAD_SHAPE: (e, { op }) => (e.dim === -1 ? `${op}: gradOutput must have rank 1 or more (a row a bag), got a scalar`
      : `${op}: gradOutput has ${e.value} rows but the bags are ${e.limit} (one row a bag)`),
    WG_ERR_MAX_INDICES: (e, { op }) => (e.dim === -1
      ? `${op}: opts.maxIndices must be an Int32Array of gradOutput's shape (the forward's result.maxIndices)`
      : `${op}: opts.maxIndices[${e.position}] = ${e.value} is not -1 or a row of the table (expected -1 <= v < ${e.limit})`),
    WG_ERR_TABLE: (e, { op }) => (e.dim === -1
      ? `${op}: opts.weight has rank ${e.value} but must have gradOutput's rank, ${e.limit} ([numWeights, ...gradOutput's row])`
      : `${op}: opts.weight.shape[${e.dim}] is ${e.value} but must be ${e.limit} ([numWeights, ...gradOutput's row])`),
  },
};
export default desc;

/**
 * The gradient of the bags' forward (weight, indices, opts) for weight, from gradOutput (its output's
 * gradient): each bag's gradient row, times the entry's scale (its weight over the forward's
 * divisor), added to the row each entry read, in entry order, rounded once (a fused
 * multiply-add). Output [numWeights, ...gradOutput.shape.slice(1)]; with opts.inPlace, added into
 * the resident opts.out. With opts.returnWeightsGrad, the result also has weightsGrad (the
 * per-sample weights' gradient, the indices' shape).
 * opts: { mode?, offsets?, includeLastOffset?, segmentIds?, numSegments?, perSampleWeights?,
 * paddingIdx?, maxIndices?, numWeights?, inPlace?, returnWeightsGrad?, weight?, outOfRange?,
 * negativeIndices?, out?, resident? } (js/index.d.cts).
 */
export const embeddingBagBackward = defineOp(desc);
