// One call of a fused gather-reduce (embeddingBag, segmentReduce) from the editor's call
// { op, data, indices, attrs } (attrs.bag: the bags' form and values, how they are reduced), the
// same call as code, and the editor's attributes of an example's options.
import { fmtNum } from './dom.mjs';

export const BAGS = ['embeddingBag', 'segmentReduce'];
export const isBag = (op) => BAGS.includes(op);

/** The forms of the bags (segments) each op takes: form -> the option that holds them (null: none). */
export const FORMS = {
  embeddingBag: { offsets: 'offsets', 'offsets+last': 'offsets', fixed: null, ids: 'segmentIds' },
  segmentReduce: { lengths: 'lengths', offsets: 'offsets', ids: 'segmentIds' },
};
/** How the editor names each form. */
export const FORM_LABEL = {
  offsets: 'offsets', 'offsets+last': 'offsets, includeLastOffset', fixed: '2-D indices (a bag a row)',
  lengths: 'lengths', ids: 'segmentIds (sorted)',
};
export const MODES = ['sum', 'mean', 'max', 'sqrtn'];
export const REDUCTIONS = ['sum', 'mean', 'max', 'min', 'prod'];

/** The editor's bag attributes of an example's options (plain arrays, as lib/bag-examples.mjs has them). */
export function bagAttrs(op, opts = {}) {
  const form = opts.segmentIds ? 'ids' : opts.lengths ? 'lengths' : opts.offsets
    ? (opts.includeLastOffset ? 'offsets+last' : 'offsets') : 'fixed';
  return {
    form,
    segments: opts.segmentIds ?? opts.lengths ?? opts.offsets ?? [],
    numSegments: opts.numSegments ?? null,
    mode: opts.mode ?? 'mean',
    weights: opts.perSampleWeights ?? null,
    paddingIdx: opts.paddingIdx ?? null,
    returnIndices: opts.returnIndices ?? false,
    reduce: opts.reduce ?? 'sum',
    initial: opts.initial ?? null,
  };
}

const vector = (values) => ({ data: Int32Array.from(values), shape: [values.length] });

/**
 * The call's options: the bags as int32 tensors, the weights of the weight's array type and the
 * indices' shape; the mode (reduce) always, the rest where set.
 */
export function bagOpts(call) {
  const { op, data, indices, attrs } = call;
  const b = attrs.bag;
  const o = op === 'embeddingBag' ? { mode: b.mode } : { reduce: b.reduce };
  const key = FORMS[op][b.form];
  if (key) o[key] = vector(b.segments);
  if (b.form === 'offsets+last') o.includeLastOffset = true;
  if (b.form === 'ids' && b.numSegments !== null) o.numSegments = b.numSegments;
  if (op === 'embeddingBag') {
    if (b.weights) o.perSampleWeights = { data: data.data.constructor.from(b.weights), shape: indices.shape.slice() };
    if (b.paddingIdx !== null) o.paddingIdx = b.paddingIdx;
    if (b.returnIndices) o.returnIndices = true;
    if (attrs.outOfRange !== 'error') o.outOfRange = attrs.outOfRange;
  } else {
    if (b.initial !== null) o.initial = b.initial;
    if (attrs.axis !== 0) o.axis = attrs.axis;
  }
  return o;
}

/** Runs the call (on the library, or on common/reference-bag.mjs's ops); extra goes into its options. */
export function callBag(api, call, extra = {}) {
  const o = { ...bagOpts(call), ...extra };
  return call.op === 'embeddingBag' ? api.embeddingBag(call.data, call.indices, o) : api.segmentReduce(call.data, o);
}

/** `embeddingBag(weight, indices, { mode: 'sum', offsets: [0, 4], paddingIdx: 2 })` */
export function bagText(call) {
  const text = Object.entries(bagOpts(call)).map(([k, v]) => `${k}: ${typeof v === 'string' ? `'${v}'`
    : typeof v === 'object' ? `[${Array.from(v.data, fmtNum).join(', ')}]` : fmtNum(v)}`);
  const args = call.op === 'embeddingBag' ? 'weight, indices' : 'data';
  return `${call.op}(${args}, { ${text.join(', ')} })`;
}
