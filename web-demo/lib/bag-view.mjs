// embeddingBag's picture in the playground: the weight, the indices, the bags' offsets or segment
// ids, the per-sample weights, the list of bags (lib/bag-strip.mjs: each output row's entries, in
// order, with their weights, padding struck out) and the output (and maxIndices), as grids; a bag,
// its entries and its output row share a colour. Hover: an output element lights its bag's table
// rows, numbered in the order they were reduced (a row read twice carries both numbers), the
// element each contributed, the entries' indices and weights, and marks padding as skipped (and,
// for max, the element that won); a table cell lights the outputs it went into; an entry its row
// and its bag. Who read what: lib/bag-map.mjs. segmentReduce's picture: lib/segment-view.mjs.
// The backward (lib/bag-grad.mjs): with an output row picked, the gradient of that row for the
// table (embeddingBagBackward with gradOutput ones in that row) is drawn after the output, the
// table rows it reaches outlined in the row's colour; hovering its element says which entries
// sent it there, with what scale.
import { unravel } from '../../common/shape.mjs';
import { fmtNum, unitHue } from './dom.mjs';
import { FORMS } from './bag-ops.mjs';
import { renderStrip } from './bag-strip.mjs';
import { segmentView } from './segment-view.mjs';

const at = (flat, shape) => `[${unravel(flat, shape).join(', ')}]`;
const HOVER_LIST = 6; // outputs named in a hover text, the rest counted

/**
 * The view of one call: { specs (grid options, and the list of bags' render()), hover(role, flat),
 * outputRow(flat): the bag of an output element, reached: [[table row, its gradient row]] when
 * grad ({ row, result }, lib/bag-grad.mjs) is given }.
 */
export function bagView(call, output, map, names, grad = null) {
  if (call.op === 'segmentReduce') return segmentView(call, output, map, names);
  const { data, indices, attrs } = call;
  const b = attrs.bag;
  const { bags, rowOf, padding, padRow, dim, winner } = map;
  const bagOf = new Int32Array(rowOf.length);
  bags.forEach(([s, e], i) => bagOf.fill(i, s, e));
  const weights = b.weights && Array.from(b.weights, Number);
  const counted = (i) => { const [s, e] = bags[i]; let n = 0; for (let k = s; k < e; k++) if (!padding(k)) n++; return n; };
  const usesOf = new Map(); // table row -> its entries (padding left out)
  rowOf.forEach((r, k) => { if (r >= 0 && !padding(k)) push(usesOf, r, k); });
  const hue = (i) => unitHue(i);
  const key = FORMS.embeddingBag[b.form]; // 'offsets', 'segmentIds' or null
  const segValues = key && Int32Array.from(b.segments);
  // the table rows the picked output row's gradient reaches (any element not 0), in row order
  const reachedRows = new Map();
  if (grad) {
    for (let r = 0; r < grad.result.shape[0]; r++) {
      const row = grad.result.data.subarray(r * dim, (r + 1) * dim);
      if (row.some((v) => v !== 0)) reachedRows.set(r, Array.from(row));
    }
  }

  // ---- grids
  const table = {
    values: data.data, shape: data.shape, role: 'data', label: names.data,
    paint: (d) => {
      const uses = usesOf.get(Math.floor(d / dim));
      return uses ? { hue: hue(bagOf[uses[0]]), count: d % dim === 0 ? uses.length : 1 } : null;
    },
    decorate: (cell, d) => {
      if (Math.floor(d / dim) === padRow) cell.classList.add('padding-row');
      if (reachedRows.has(Math.floor(d / dim))) {
        cell.classList.add('grad-reached');
        cell.style.setProperty('--gh', hue(grad.row).toFixed(1));
      }
    },
  };
  const entryPaint = (k) => (rowOf[k] < 0 ? { zero: true } : padding(k) ? null : { hue: hue(bagOf[k]) });
  const skipped = (cell, k) => { if (padding(k)) cell.classList.add('skipped'); };
  const index = { values: indices.data, shape: indices.shape, role: 'indices', label: names.indices, sign: '+', paint: entryPaint, decorate: skipped };
  const segments = key && {
    values: segValues, shape: [segValues.length], role: 'segments', label: `opts.${key}`, sign: '+',
    paint: key === 'offsets' ? (i) => (i < bags.length ? { hue: hue(i) } : null) : (k) => ({ hue: hue(bagOf[k]) }),
  };
  const weightGrid = weights && {
    values: weights, shape: indices.shape, role: 'weights', label: 'opts.perSampleWeights', sign: '×',
    paint: (k) => (padding(k) ? null : { hue: hue(bagOf[k]) }), decorate: skipped,
  };
  const strip = {
    values: indices.data, role: 'bags', sign: '→',
    render: () => renderStrip({
      label: 'bags', meta: 'the rows of each, in order',
      rows: bags.map(([s, e], i) => ({
        label: String(i), hue: hue(i),
        chips: range(s, e).map((k) => ({
          flat: k, text: rowOf[k] < 0 ? '0s' : String(rowOf[k]), sub: weights ? `×${fmtNum(weights[k])}` : undefined,
          cls: padding(k) ? 'skipped' : rowOf[k] < 0 ? 'zeroed' : '',
          title: `${entryName(k)}${padding(k) ? ': padding, skipped' : rowOf[k] < 0 ? ': out of range, a row of zeros' : ''}`,
        })),
        note: s === e ? 'empty: zeros' : counted(i) === 0 ? 'only padding: zeros' : undefined,
      })),
    }),
  };
  const out = {
    values: output.data, shape: output.shape, role: 'out', label: 'output', sign: '→',
    paint: (p) => (counted(Math.floor(p / dim)) === 0 ? { zero: true } : { hue: hue(Math.floor(p / dim)) }),
  };
  if (grad) {
    out.decorate = (cell, p) => {
      if (Math.floor(p / dim) !== grad.row) return;
      cell.classList.add('grad-row');
      cell.style.setProperty('--gh', hue(grad.row).toFixed(1));
    };
  }
  const gradGrid = grad && {
    values: grad.result.data, shape: grad.result.shape, role: 'grad', sign: '⇠',
    label: `gradient for ${names.data} of output row ${grad.row}`,
    paint: (d) => (grad.result.data[d] !== 0 ? { hue: hue(grad.row) } : null),
  };
  const maxIdx = output.maxIndices && {
    values: output.maxIndices.data, shape: output.maxIndices.shape, role: 'maxidx', label: 'maxIndices', sign: '+',
    paint: (p) => ({ hue: hue(Math.floor(p / dim)) }),
  };
  const specs = [table, index, segments, weightGrid, strip, out, maxIdx, gradGrid].filter(Boolean);

  // ---- names in the hover texts
  function entryName(k) {
    return `${names.indices}${at(k, indices.shape)} = ${fmtNum(indices.data[k])}`;
  }
  const rowName = (r, e) => (e === undefined ? `${names.data}[${r}, :]` : `${names.data}${at(r * dim + e, data.shape)}`);
  const outName = (p) => `output${at(p, output.shape)}`;
  function bagSource(i) {
    const [s, e] = bags[i];
    if (b.form === 'fixed') return `${names.indices}[${i}, :]`;
    if (b.form === 'ids') return s === e ? `no segment id ${i}` : `segmentIds ${i}: ${names.indices}[${s}..${e})`;
    return `offsets[${i}] = ${segValues[i]}: ${names.indices}[${s}..${e})`;
  }
  // what a bag's sum is divided by
  function tail(i) {
    const [s, e] = bags[i];
    const live = range(s, e).filter((k) => !padding(k));
    if (b.mode === 'sum') return weights ? 'weighted sum' : 'sum';
    if (b.mode === 'max') return 'max';
    if (b.mode === 'mean') {
      return weights ? `weighted sum / the sum of the weights ${fmtNum(Math.fround(live.reduce((a, k) => a + weights[k], 0)))}` : `sum / ${live.length}`;
    }
    return weights ? `weighted sum / √(the sum of the squared weights)` : `sum / √${live.length}`;
  }
  function entryText(k, e, place) {
    if (padding(k)) return `${place}. ${entryName(k)}: padding, skipped`;
    if (rowOf[k] < 0) return `${place}. ${entryName(k)}: out of range, zeros`;
    const x = fmtNum(data.data[rowOf[k] * dim + e]);
    return `${place}. ${weights ? `${fmtNum(weights[k])} × ` : ''}${rowName(rowOf[k], e)} = ${x} (${entryName(k)})`;
  }

  // ---- hover
  /** Output element p: its bag's entries, rows and weights, in order. */
  function atOutput(p) {
    const i = Math.floor(p / dim);
    const e = p % dim;
    const [s, end] = bags[i];
    const marks = [];
    for (let q = i * dim; q < (i + 1) * dim; q++) marks.push({ role: 'out', flat: q, unit: true }, { role: 'maxidx', flat: q, unit: true });
    marks.push({ role: 'out', flat: p }, { role: 'maxidx', flat: p });
    if (key === 'offsets') marks.push({ role: 'segments', flat: i }, { role: 'segments', flat: i + 1 });
    const won = winner(i, e);
    for (let k = s; k < end; k++) {
      const order = String(k - s + 1);
      const skip = padding(k);
      marks.push({ role: 'indices', flat: k, order, skip }, { role: 'weights', flat: k, order, skip }, { role: 'bags', flat: k, order, skip });
      if (key === 'segmentIds') marks.push({ role: 'segments', flat: k });
      if (rowOf[k] < 0) continue;
      for (let c = 0; c < dim; c++) marks.push({ role: 'data', flat: rowOf[k] * dim + c, unit: true });
      marks.push({ role: 'data', flat: rowOf[k] * dim + e, order, skip, won: k === won });
    }
    const head = `${outName(p)} = ${fmtNum(output.data[p])}`;
    if (s === end) return { marks, text: `${head} ← bag ${i} is empty (${bagSource(i)}): zeros` };
    const list = range(s, end).map((k) => entryText(k, e, k - s + 1)).join(', ');
    const result = counted(i) === 0 ? 'no rows left, zeros'
      : b.mode === 'max' && won >= 0 ? `max, from entry ${won - s + 1}` : tail(i);
    return { marks, text: `${head} ← bag ${i} (${bagSource(i)}): ${list}: ${result}` };
  }

  /** Entry k (an index, its weight, its place in the list of bags): its row and its bag. */
  function atEntry(k) {
    const i = bagOf[k];
    const marks = [{ role: 'indices', flat: k }, { role: 'weights', flat: k }, { role: 'bags', flat: k }];
    if (key === 'segmentIds') marks.push({ role: 'segments', flat: k });
    for (let q = i * dim; q < (i + 1) * dim; q++) marks.push({ role: 'out', flat: q, unit: true });
    if (rowOf[k] >= 0) for (let c = 0; c < dim; c++) marks.push({ role: 'data', flat: rowOf[k] * dim + c, skip: padding(k) });
    const place = `entry ${k - bags[i][0] + 1} of bag ${i}`;
    const fate = padding(k) ? `padding (paddingIdx ${b.paddingIdx}), skipped`
      : rowOf[k] < 0 ? 'out of range, a row of zeros' : `${rowName(rowOf[k])}${weights ? ` × ${fmtNum(weights[k])}` : ''} → output[${i}, :]`;
    return { marks, text: `${entryName(k)}: ${place}, ${fate}` };
  }

  /** Table element d: the outputs it went into. */
  function atTable(d) {
    const r = Math.floor(d / dim);
    const e = d % dim;
    const label = `${names.data}${at(d, data.shape)} = ${fmtNum(data.data[d])}`;
    const marks = [{ role: 'data', flat: d }];
    for (let c = 0; c < dim; c++) marks.push({ role: 'data', flat: r * dim + c, unit: true });
    const uses = usesOf.get(r) ?? [];
    for (const k of uses) marks.push({ role: 'indices', flat: k }, { role: 'weights', flat: k }, { role: 'bags', flat: k }, { role: 'out', flat: bagOf[k] * dim + e });
    if (r === padRow) {
      const skippedBy = range(0, rowOf.length).filter((k) => padding(k));
      for (const k of skippedBy) marks.push({ role: 'indices', flat: k, skip: true }, { role: 'bags', flat: k, skip: true });
      return { marks, text: `${label}: the padding row (paddingIdx ${b.paddingIdx}): skipped${skippedBy.length ? ` by ${skippedBy.length} entr${skippedBy.length > 1 ? 'ies' : 'y'}` : ''}` };
    }
    if (!uses.length) return { marks, text: `${label}: in no bag` };
    const where = uses.slice(0, HOVER_LIST).map((k) => `${outName(bagOf[k] * dim + e)} (entry ${k - bags[bagOf[k]][0] + 1} of bag ${bagOf[k]})`);
    return { marks, text: `${label} → ${where.join(', ')}${uses.length > HOVER_LIST ? ` and ${uses.length - HOVER_LIST} more` : ''}` };
  }

  /** The bag an offset starts (or, past the last bag, the end it gives). */
  function atOffset(i) {
    if (i >= bags.length) return { marks: [{ role: 'segments', flat: i }], text: `offsets[${i}] = ${segValues[i]}: the end of the last bag (includeLastOffset)` };
    const { marks } = atOutput(i * dim);
    const [s, e] = bags[i];
    const rows = range(s, e).map((k) => (padding(k) ? `${rowOf[k]} (padding)` : rowOf[k] < 0 ? 'zeros' : String(rowOf[k])));
    return { marks, text: `offsets[${i}] = ${segValues[i]}: bag ${i} is ${names.indices}[${s}..${e})${e > s ? `, rows ${rows.join(', ')}` : ', empty'}` };
  }

  /** Gradient element d: the entries of the picked bag that sent output row's gradient there, and their scales. */
  function atGrad(d) {
    const r = Math.floor(d / dim);
    const e = d % dim;
    const i = grad.row;
    const label = `gradient${at(d, grad.result.shape)} = ${fmtNum(grad.result.data[d])}`;
    const marks = [{ role: 'grad', flat: d }, { role: 'data', flat: d }];
    for (let c = 0; c < dim; c++) marks.push({ role: 'data', flat: r * dim + c, unit: true }, { role: 'out', flat: i * dim + c, unit: true });
    marks.push({ role: 'out', flat: i * dim + e });
    if (b.mode === 'max') {
      const outAt = `output${at(i * dim + e, output.shape)}`;
      if (grad.result.data[d] === 0) return { marks, text: `${label}: ${outAt}'s max did not come from ${names.data} row ${r}` };
      const k = winner(i, e);
      if (k >= 0) marks.push({ role: 'indices', flat: k }, { role: 'bags', flat: k });
      return { marks, text: `${label} ← ${outAt}'s gradient, 1: its max came from ${rowName(r, e)}` +
        `${k >= 0 ? ` (entry ${k - bags[i][0] + 1}, ${entryName(k)})` : ''}` };
    }
    const [s, end] = bags[i];
    const from = range(s, end).filter((k) => rowOf[k] === r);
    for (const k of from) marks.push({ role: 'indices', flat: k, skip: padding(k) }, { role: 'weights', flat: k, skip: padding(k) }, { role: 'bags', flat: k, skip: padding(k) });
    const live = from.filter((k) => !padding(k));
    if (!live.length) {
      return { marks, text: `${label}: bag ${i} ${from.length ? `reads ${names.data} row ${r} only as padding, skipped` : `does not read ${names.data} row ${r}`}` };
    }
    const { over, why } = divisor(i);
    const parts = live.map((k) => `${weights ? fmtNum(weights[k]) : '1'}${over} (entry ${k - s + 1}: ${entryName(k)})`);
    return { marks, text: `${label} ← output${at(i * dim + e, output.shape)}'s gradient 1 × ${parts.join(' + ')}${why}` };
  }
  // what an entry's weight is divided by in bag i's gradient (its mode's divisor), and why
  function divisor(i) {
    if (b.mode === 'sum') return { over: '', why: '' };
    const [s, e] = bags[i];
    const live = range(s, e).filter((k) => !padding(k));
    if (b.mode === 'mean') {
      return weights ? { over: ` / ${fmtNum(Math.fround(live.reduce((a, k) => a + weights[k], 0)))}`, why: "; 'mean' divides by the sum of the weights" }
        : { over: ` / ${live.length}`, why: "; 'mean' divides by the count" };
    }
    return weights ? { over: ' / √(the sum of the squared weights)', why: '' } : { over: ` / √${live.length}`, why: "; 'sqrtn' divides by the count's root" };
  }

  function hover(role, flat) {
    if (role === 'grad') return atGrad(flat);
    if (role === 'out' || role === 'maxidx') return atOutput(flat);
    if (role === 'data') return atTable(flat);
    if (role === 'segments' && key === 'offsets') return atOffset(flat);
    return atEntry(flat);
  }

  return { specs, hover, outputRow: (p) => Math.floor(p / dim), reached: [...reachedRows] };
}

const range = (a, b) => Array.from({ length: Math.max(0, b - a) }, (_, i) => a + i);

function push(map, k, v) {
  const a = map.get(k);
  if (a) a.push(v); else map.set(k, [v]);
}
