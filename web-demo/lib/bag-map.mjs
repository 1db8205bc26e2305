// Which entries each output row of a fused gather-reduce reduced, in order, for the picture. An
// "entry" is one index of embeddingBag (k: its flat position in indices) or one position j along
// segmentReduce's axis. Every form puts a bag's (segment's) entries one after the other, so the
// bags are runs of entries, and their lengths say where each starts.
//
// The lengths, and the row each index reads, come from the library itself, as the gathers'
// provenance does, so that the picture follows the call's own rules:
//   - the lengths: the same bags (segments) reduced with 'sum' over a table of ones (embeddingBag
//     with outOfRange 'clamp', so that every entry is counted: an entry out of range still counts
//     as one, and padding is left out of this call);
//   - the rows: take over an "iota" of the table's rows (values 1 + each row; 0 where
//     outOfRange 'zero' zeroed the index), with the call's index rules;
//   - max's winners: the call's maxIndices (asked for once more if the call did not).
import { numel } from '../../common/shape.mjs';
import { FORMS, bagOpts } from './bag-ops.mjs';

const ones = (n, shape) => ({ data: new Float64Array(n).fill(1), shape });

/** The bags (segments) as [start, end) runs of entries, from their lengths. */
function runs(lengths) {
  const out = [];
  let start = 0;
  for (const l of lengths) {
    out.push([start, start + l]);
    start += l;
  }
  return out;
}

/** The bags' options alone (no mode, weights, padding): what says which entries make each bag. */
function formOpts(call) {
  const o = bagOpts(call);
  const keep = [FORMS[call.op][call.attrs.bag.form], 'includeLastOffset', 'numSegments'];
  return Object.fromEntries(Object.entries(o).filter(([k]) => keep.includes(k)));
}

/**
 * embeddingBag's map of a successful call: { bags: [[start, end)], rowOf: Int32Array (entry ->
 * table row, -1: zeroed), padding(k), padRow (or -1), dim (elements of a row), winner(b, e): the
 * entry whose row gave max's element e of bag b (-1: none) }.
 */
function embeddingBagMap(api, call, output) {
  const { data, indices, attrs } = call;
  const rows = data.shape[0] ?? 0;
  const n = numel(indices.shape);
  const dim = numel(data.shape.slice(1));
  const sizes = api.embeddingBag(ones(Math.max(rows, 1), [Math.max(rows, 1), 1]), indices,
    { ...formOpts(call), mode: 'sum', outOfRange: 'clamp' });
  const bags = runs(Array.from(sizes.data));
  let rowOf = new Int32Array(n).fill(-1);
  if (rows > 0) {
    const iota = { data: Uint32Array.from({ length: rows }, (_, i) => i + 1), shape: [rows] };
    rowOf = Int32Array.from(api.take(iota, indices, { outOfRange: attrs.outOfRange }).data, (v) => v - 1);
  }
  const pad = attrs.bag.paddingIdx;
  const padRow = pad === null ? -1 : pad < 0 ? pad + rows : pad;
  const padding = (k) => padRow >= 0 && rowOf[k] === padRow;
  let winner = () => -1;
  if (attrs.bag.mode === 'max') {
    const maxIndices = output.maxIndices ?? api.embeddingBag(data, indices, { ...bagOpts(call), returnIndices: true }).maxIndices;
    winner = (b, e) => {
      const [start, end] = bags[b];
      for (let k = start; k < end; k++) if (!padding(k) && rowOf[k] === maxIndices.data[b * dim + e]) return k;
      return -1;
    };
  }
  return { bags, rowOf, padding, padRow, dim, winner };
}

/**
 * segmentReduce's map of a successful call: { bags: [[start, end)] of positions along the axis,
 * axis, outer, n, inner (the data's shape around the axis), winner(o, s, e): max's or min's
 * position j (-1: none; the first that equals the output, as the first is kept) }.
 */
function segmentReduceMap(api, call, output) {
  const { data, attrs } = call;
  const rank = data.shape.length;
  const axis = attrs.axis < 0 ? attrs.axis + rank : attrs.axis;
  const n = data.shape[axis];
  const outer = numel(data.shape.slice(0, axis));
  const inner = numel(data.shape.slice(axis + 1));
  const lengths = api.segmentReduce(ones(n, [n]), { ...formOpts(call), reduce: 'sum' });
  const bags = runs(Array.from(lengths.data));
  const reduce = attrs.bag.reduce;
  const winner = (o, s, e) => {
    if (reduce !== 'max' && reduce !== 'min') return -1;
    const got = output.data[(o * bags.length + s) * inner + e];
    const [start, end] = bags[s];
    for (let j = start; j < end; j++) {
      const x = data.data[(o * n + j) * inner + e];
      if (x === got || (Number.isNaN(x) && Number.isNaN(got))) return j;
    }
    return -1; // the initial value won
  };
  return { bags, axis, outer, n, inner, winner };
}

/** The map of a successful call (see above). */
export function bagMap(api, call, output) {
  return call.op === 'embeddingBag' ? embeddingBagMap(api, call, output) : segmentReduceMap(api, call, output);
}
