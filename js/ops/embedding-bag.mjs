// embeddingBag: torch.nn.functional.embedding_bag, with TensorFlow's segment ids and sqrtn
// combiner, over a float table or a block-quantized one (src/op_embedding_bag.c).
import { defineOp } from '../call.mjs';
import { QUANT_OPTIONS, quantAttrs, quantMessages, quantScales, quantTable } from '../quant-table.mjs';
import { scatterData } from '../scatter-options.mjs';
import { addSegments, bagFormMessage, bagForms, bagMessages, bagWeights, flagOption, numSegments, reduceOf, segmentMessages, segmentsOf } from '../segment-options.mjs';
import unsortedSegments from './index-reduce.mjs'; // named in the message for unsorted segment ids
import { indexTensor, integerArg } from '../tensor.mjs';

const OP = 'embeddingBag';
const MODES = { sum: 'ADD', mean: 'MEAN', max: 'MAX', sqrtn: 'SQRTN' };
const desc = {
  name: OP,
  c: 'embedding_bag',
  tfjs: ['SparseSegmentSum', 'SparseSegmentMean'],
  params: ['weight', 'indices', 'opts'],
  tensors: { data: 'weight', indices: 'indices', scales: 'opts.scales', zero_points: 'opts.zeroPoints',
    segments: 'the bags', weights: 'opts.perSampleWeights' },
  attributes: ['reduce', 'segment_form', 'num_segments', 'has_padding', 'padding_idx', 'return_indices', 'bits', 'block_size', 'quantize_axis'],
  axis: 'axis 0',
  options: ['mode', 'offsets', 'includeLastOffset', 'segmentIds', 'numSegments', 'perSampleWeights', 'paddingIdx',
    'returnIndices', 'dtype', 'scales', ...QUANT_OPTIONS],
  read(s, [weight, indices, opts]) {
    const o = opts ?? {};
    const data = o.scales != null ? quantTable(OP, s, weight, o) : scatterData(OP, 'weight', weight, s, o);
    const t = { data, indices: indexTensor(OP, 'indices', indices, s) };
    const chosen = segmentsOf(OP, o, bagForms(OP, o));
    if (chosen) addSegments(OP, t, chosen, s);
    else if (o.includeLastOffset) throw new TypeError(`${OP}: opts.includeLastOffset goes with opts.offsets`);
    t.form = chosen?.form ?? 'FIXED';
    return t;
  },
  attrs(o, t, s) {
    const Type = o.scales != null ? quantScales(OP, t, s, o.scales, o, 'opts.scales') : t.data.Type;
    const dtype = t.scales?.dtype ?? t.data.dtype;
    if (o.perSampleWeights != null) t.weights = bagWeights(OP, s, o.perSampleWeights, t.indices, Type, dtype);
    const reduce = reduceOf(OP, s, o, 'mode', MODES, 'mean');
    const returnIndices = flagOption(OP, o, 'returnIndices');
    if (returnIndices && o.mode !== 'max') {
      throw new TypeError(`${OP}: opts.returnIndices goes with mode 'max' (the row each maximum came from)`);
    }
    const padding = o.paddingIdx;
    const ids = t.form === 'IDS' ? numSegments(OP, o, t.segments, s.memory.buffer) : -1;
    return {
      attrs: [reduce, s.abi.value(`WG_SEGMENTS_${t.form}`), ids, padding === undefined ? 0 : 1,
        integerArg(OP, 'opts.paddingIdx', padding, 0), returnIndices ? 1 : 0,
        ...(o.scales != null ? quantAttrs(OP, o) : [4, 128, -1])],
      Type,
      outLike: o.scales != null ? 'the scales' : 'the weight',
    };
  },
  messages: {
    ...quantMessages('opts.scales'),
    ...segmentMessages(bagFormMessage, 'float32, float64, float16 or bfloat16 (opts.dtype) values, or quantized codes with opts.scales', unsortedSegments),
    ...bagMessages,
  },
};
export default desc;

/**
 * torch.nn.functional.embedding_bag: the rows of weight that indices select, reduced per bag as
 * they are read (never gathered into memory). Output [bags, ...weight.shape.slice(1)].
 * opts: { mode?, offsets?, includeLastOffset?, segmentIds?, numSegments?, perSampleWeights?,
 * paddingIdx?, returnIndices?, dtype?, scales?, zeroPoints?, quantType?, bits?, blockSize?,
 * quantizeAxis?, scaleType?, outOfRange?, negativeIndices?, out?, resident? } (js/index.d.cts);
 * with returnIndices, the result also has maxIndices.
 */
export const embeddingBag = defineOp(desc);
