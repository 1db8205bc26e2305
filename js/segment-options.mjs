// What the fused gather-reduce ops (js/ops/) share: their segments (offsets, lengths or sorted
// segment ids, src/wasm_gather.h's wg_segment_form), the reductions by name, and the words for
// their rules (js/errors.mjs: an op's messages).
import { wordsOf } from './quant-table.mjs';
import { dataTensor, describeValue, indexTensor, typeName } from './tensor.mjs';

// A 1-D index array given as a tensor { data, shape }, a resident tensor, or bare (a TypedArray or
// an array of integers: its shape is its length).
const asTensor = (v) => (ArrayBuffer.isView(v) || Array.isArray(v) ? { data: v, shape: [v.length] } : v);

/**
 * The segments of a call from opts: the first of `forms` ([option, wg_segment_form's name] pairs)
 * that opts has, read as an index tensor (named for messages), or undefined when none is given;
 * giving two is an error. Returns { tensor, form (the name), option }.
 */
export function segmentsOf(op, opts, forms) {
  const given = forms.filter(([o]) => opts[o] !== undefined && opts[o] !== null);
  if (given.length > 1) {
    throw new TypeError(`${op}: give one of ${given.map(([o]) => `opts.${o}`).join(' and ')}, not both`);
  }
  if (!given.length) return undefined;
  const [option, form] = given[0];
  return { option, form, value: asTensor(opts[option]) };
}

/** opts[name] of `op`, true or false (default false). */
export function flagOption(op, opts, name) {
  const v = opts[name] ?? false;
  if (typeof v !== 'boolean') throw new TypeError(`${op}: opts.${name} must be true or false, got ${typeName(v)}`);
  return v;
}

/** The bags' forms (segmentsOf's), the bags' ops' (forward and backward): without either, 2-D indices (fixed bags). */
export const bagForms = (op, opts) => [['offsets', flagOption(op, opts, 'includeLastOffset') ? 'BOUNDS' : 'OFFSETS'], ['segmentIds', 'IDS']];

const Float16 = typeof globalThis.Float16Array === 'function' ? globalThis.Float16Array : undefined;

/**
 * The bags' per-sample weights: one an index, of the output's array type Type and its dtype (a
 * bare array has the indices' shape).
 */
export function bagWeights(op, s, value, indices, Type, dtype) {
  const w = dataTensor(op, 'opts.perSampleWeights', ArrayBuffer.isView(value) ? { data: value, shape: indices.shape } : value, s,
    Float16 ? [Float32Array, Float64Array, Uint16Array, Float16] : [Float32Array, Float64Array, Uint16Array]);
  if (w.Type !== Type) {
    throw new TypeError(`${op}: opts.perSampleWeights must be a ${Type.name} like the output, got a ${w.Type.name}`);
  }
  w.dtype = dtype;
  return w;
}

/** The segments tensor of segmentsOf's choice, into the call's tensors (named for messages). */
export function addSegments(op, t, chosen, s) {
  t.segments = indexTensor(op, `opts.${chosen.option}`, chosen.value, s);
  t.segments.name = `opts.${chosen.option}`;
}

/**
 * opts.numSegments of the segment ids form, checked, or, without it, the last id + 1 (0 with no
 * ids), read from the ids (in wasm memory when resident).
 */
export function numSegments(op, opts, ids, buffer) {
  const n = opts.numSegments;
  if (n !== undefined) {
    if (!Number.isInteger(n) || n < 0 || n >= 2 ** 31) {
      throw new RangeError(`${op}: opts.numSegments must be an integer in [0, 2^31), got ${describeValue(n)}`);
    }
    return n;
  }
  const len = ids.ptr === undefined ? ids.data.length : ids.length;
  if (!len) return 0;
  const last = Number(ids.ptr === undefined ? ids.data[len - 1] : new ids.Type(buffer, ids.ptr, len)[len - 1]);
  if (!(last >= 0 && last < 2 ** 31 - 1)) {
    throw new RangeError(`${op}: the last of opts.segmentIds, ${last}, must be in [0, 2^31 - 1) (the segments are the last id + 1)`);
  }
  return last + 1;
}

/** The wg_reduce value of opts[name] (one of `names`: { name: wg_reduce's name }), or `fallback`'s. */
export function reduceOf(op, s, opts, option, names, fallback) {
  const r = opts[option] ?? fallback;
  if (!Object.hasOwn(names, r)) {
    const list = Object.keys(names).map((n) => `'${n}'`).join(', ');
    if (r === undefined) throw new TypeError(`${op}: opts.${option} is required (${list})`);
    throw new RangeError(`${op}: opts.${option} must be one of ${list}, got ${typeof r === 'string' ? JSON.stringify(r) : typeName(r)}`);
  }
  return s.abi.value(`WG_REDUCE_${names[r]}`);
}

// The rule of a WG_ERR_SEGMENTS, in words. e: { dim (the wg_segment_rule), value, limit, position }.
const RULES = {
  FIRST: (e, n) => `${n}[0] is ${e.value} but must be 0 (the first segment starts at the first entry)`,
  DECREASING: (e, n, unsorted) => `${n}[${e.position}] = ${e.value} is less than the one before it, ${e.limit}: it must be sorted ` +
    `(non-decreasing)${n.endsWith('segmentIds') ? `; for unsorted segment ids, use ${unsorted.name}` : ''}`,
  PAST_END: (e, n) => `${n}[${e.position}] = ${e.value} is past the end of the entries (${e.limit})`,
  NEGATIVE: (e, n) => (e.position < 0 ? `${n === 'opts.segmentIds' ? 'opts.numSegments' : n} ${e.value} must not be negative` : `${n}[${e.position}] = ${e.value} must not be negative`),
  COVER: (e, n) => `${n} make segments that end at entry ${e.value}, but they must cover the axis's ${e.limit} entries exactly`,
  ID_RANGE: (e, n) => `${n}[${e.position}] = ${e.value} is not below opts.numSegments (${e.limit})`,
  COUNT: (e, n) => (n === 'opts.segmentIds'
    ? `${n} has ${e.value} ids but must have one for each of the ${e.limit} entries`
    : `${n} has ${e.value} entries but must have at least ${e.limit} (the end of the last segment)`),
};

/**
 * Words for the fused gather-reduce's statuses: form(e, ctx) the message of WG_SEGMENT_FORM,
 * types the element types the op reduces (its updates', for the bags' backward, else its data's), in words,
 * unsorted the descriptor of the op that reduces unsorted segment ids (named where ids are not sorted).
 */
export const segmentMessages = (form, types, unsorted) => wordsOf('segment-options', {
  WG_ERR_SEGMENTS: (e, ctx) => {
    const rule = ctx.abi.nameOf('WG_SEGMENT_', e.dim)?.slice(11);
    if (rule === 'FORM' || !RULES[rule]) return form(e, ctx);
    return `${ctx.op}: ${RULES[rule](e, ctx.segmentsName ?? 'the segments', unsorted)}`;
  },
  WG_ERR_VALUE_TYPE: (e, { op, names: N, abi }) => `${op}: ${N.updates ?? N.data} must hold ${types}, got ` +
    `${abi.nameOf('WG_DTYPE_', e.value)?.slice(9).toLowerCase() ?? e.value} values`,
});

/** The words of a bag form that does not go with the indices (segmentMessages' form), the bags' ops'. */
export const bagFormMessage = (e, { op, indexShape, segmentsName }) => (segmentsName
  ? `${op}: ${segmentsName} goes with 1-D indices and must be 1-D itself; got indices [${indexShape.join(', ')}] ` +
    '(2-D indices are bags of a fixed length, one a row, and accept neither opts.offsets nor opts.segmentIds)'
  : `${op}: indices [${indexShape.join(', ')}] need opts.offsets or opts.segmentIds (only 2-D indices make bags by themselves, one a row)`);

/** Words for the bags' own rules, the bags' ops' (forward and backward): their weights and padding. */
export const bagMessages = wordsOf('segment-options', {
  WG_ERR_WEIGHTS: (e, { op, indexShape }) => (e.dim === -2
    ? `${op}: opts.perSampleWeights do not go with mode 'max' (as torch)`
    : e.dim === -1 ? `${op}: opts.perSampleWeights must have the indices' shape [${indexShape.join(', ')}], got rank ${e.value}`
      : `${op}: opts.perSampleWeights.shape[${e.dim}] is ${e.value} but must be ${e.limit} (the indices' shape)`),
  WG_ERR_PADDING_IDX: (e, { op }) => `${op}: opts.paddingIdx ${e.value} is out of range for the weight's ${e.limit} rows ` +
    `(expected ${-e.limit} <= paddingIdx < ${e.limit})`,
});
