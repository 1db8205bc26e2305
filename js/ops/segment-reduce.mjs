// segmentReduce: torch.segment_reduce, tf.math.segment_* (src/op_segment_reduce.c).
import { defineOp } from '../call.mjs';
import { valueTensor } from '../scatter-options.mjs';
import { addSegments, numSegments, reduceOf, segmentMessages, segmentsOf } from '../segment-options.mjs';
import unsortedSegments from './index-reduce.mjs'; // named in the message for unsorted segment ids
import { dataTensor, describeValue, integerArg } from '../tensor.mjs';

const OP = 'segmentReduce';
const REDUCES = { sum: 'ADD', mean: 'MEAN', max: 'MAX', min: 'MIN', prod: 'MUL' };
// [option, wg_segment_form's name]: torch's lengths and offsets (with the end), TensorFlow's ids
const FORMS = [['lengths', 'LENGTHS'], ['offsets', 'BOUNDS'], ['segmentIds', 'IDS']];

const desc = {
  name: OP,
  c: 'segment_reduce',
  params: ['data', 'opts'],
  tensors: { data: 'data', segments: 'the segments', initial: 'opts.initial' },
  attributes: ['axis', 'reduce', 'segment_form', 'num_segments'],
  axis: 'opts.axis',
  options: ['reduce', 'lengths', 'offsets', 'segmentIds', 'numSegments', 'initial', 'axis'],
  common: ['out', 'resident'],
  read(s, [data, opts]) {
    const o = opts ?? {};
    const t = { data: dataTensor(OP, 'data', data, s) };
    const chosen = segmentsOf(OP, o, FORMS);
    if (!chosen) throw new TypeError(`${OP}: give the segments: opts.lengths, opts.offsets or opts.segmentIds`);
    addSegments(OP, t, chosen, s);
    t.form = chosen.form;
    if (o.initial !== undefined) {
      t.initial = valueTensor(OP, 'opts.initial', o.initial, t.data);
      if (!t.initial) throw new TypeError(`${OP}: opts.initial must be a number, got ${describeValue(o.initial)}`);
    }
    return t;
  },
  attrs(o, t, s) {
    const ids = t.form === 'IDS' ? numSegments(OP, o, t.segments, s.memory.buffer) : -1;
    return { attrs: [integerArg(OP, 'opts.axis', o.axis, 0), reduceOf(OP, s, o, 'reduce', REDUCES), s.abi.value(`WG_SEGMENTS_${t.form}`), ids] };
  },
  messages: segmentMessages((e, { op, segmentsName }) => `${op}: ${segmentsName} must be 1-D`, 'float32 or float64 values', unsortedSegments),
};
export default desc;

/**
 * torch.segment_reduce / tf.math.segment_*: data's entries along opts.axis (default 0) reduced
 * per segment, in order. Output: data's shape with the segments along the axis.
 * opts: { reduce, lengths? | offsets? | segmentIds?, numSegments?, initial?, axis?, out?, resident? }
 */
export const segmentReduce = defineOp(desc);
