// segmentReduce's picture in the playground: the data, the segments (lengths, offsets or segment
// ids), the list of segments (lib/bag-strip.mjs: the positions along the axis each reduced, in
// order, and what an empty one gives) and the output, as grids; a segment, its slices of the data
// and its output share a colour. Hover: an output element lights the data elements it reduced,
// numbered in order (for max and min, the one that won marked), and their slices; a data element
// lights the output it went into. Which positions each segment holds: lib/bag-map.mjs.
import { unravel } from '../../common/shape.mjs';
import { fmtNum, unitHue } from './dom.mjs';
import { FORMS } from './bag-ops.mjs';
import { renderStrip } from './bag-strip.mjs';

const at = (flat, shape) => `[${unravel(flat, shape).join(', ')}]`;
const IDENTITY = { sum: 0, mean: 0, prod: 1, max: -Infinity, min: Infinity };

/** The view of one call: { specs, hover(role, flat) }, as lib/bag-view.mjs's. */
export function segmentView(call, output, map, names) {
  const { data, attrs } = call;
  const b = attrs.bag;
  const { bags, axis, outer, n, inner, winner } = map;
  const S = bags.length;
  const segOf = new Int32Array(n);
  bags.forEach(([s, e], i) => segOf.fill(i, s, e));
  const key = FORMS.segmentReduce[b.form];
  const segValues = Int32Array.from(b.segments);
  const hue = (s) => unitHue(s);
  // data flat <-> (o, j, e); output flat <-> (o, s, e)
  const split = (d, len) => [Math.floor(d / (len * inner)), Math.floor(d / inner) % len, d % inner];
  const dataAt = (o, j, e) => (o * n + j) * inner + e;
  const outAt = (o, s, e) => (o * S + s) * inner + e;
  // a slice of the data (position j along the axis) as text: data[:, 2]
  const slice = (j) => `${names.data}[${data.shape.map((_, d) => (d === axis ? j : ':')).join(', ')}]`;

  /** What an empty segment gives, and why (docs/fused-gather-reduce.md). */
  function emptyGives() {
    if (key === 'segmentIds') return "0 (TensorFlow's empty segment)";
    if (b.initial !== null) return `initial ${fmtNum(b.initial)}`;
    if (b.reduce === 'mean') return 'NaN (no mean without initial)';
    return `${fmtNum(IDENTITY[b.reduce])} (the identity of ${b.reduce})`;
  }

  // ---- grids
  const dataGrid = {
    values: data.data, shape: data.shape, role: 'data', label: names.data,
    paint: (d) => ({ hue: hue(segOf[split(d, n)[1]]) }),
  };
  const segments = {
    values: segValues, shape: [segValues.length], role: 'segments', label: `opts.${key}`, sign: '+',
    paint: key === 'segmentIds' ? (j) => ({ hue: hue(segOf[j]) }) : (i) => (i < S ? { hue: hue(i) } : null),
  };
  const strip = {
    values: segValues, role: 'bags', sign: '→',
    render: () => renderStrip({
      label: 'segments', meta: `the positions along axis ${axis} of each, in order`,
      rows: bags.map(([s, e], i) => ({
        label: String(i), hue: hue(i),
        chips: range(s, e).map((j) => ({ flat: j, text: String(j), title: slice(j) })),
        note: s === e ? `empty: ${emptyGives()}` : b.initial !== null ? `from initial ${fmtNum(b.initial)}` : undefined,
      })),
    }),
  };
  const out = {
    values: output.data, shape: output.shape, role: 'out', label: 'output', sign: '→',
    paint: (p) => {
      const s = split(p, S)[1];
      return bags[s][0] === bags[s][1] ? { zero: true } : { hue: hue(s) };
    },
  };
  const specs = [dataGrid, segments, strip, out];

  // ---- hover
  /** The marks of segment s's definition: its length, its two offsets, or its entries' ids. */
  function segmentMarks(s) {
    if (key === 'lengths') return [{ role: 'segments', flat: s }];
    if (key === 'offsets') return [{ role: 'segments', flat: s }, { role: 'segments', flat: s + 1 }];
    return range(...bags[s]).map((j) => ({ role: 'segments', flat: j }));
  }
  function segmentSource(s) {
    const [a, z] = bags[s];
    if (key === 'lengths') return `lengths[${s}] = ${segValues[s]}`;
    if (key === 'offsets') return `offsets[${s}] = ${segValues[s]}, offsets[${s + 1}] = ${segValues[s + 1]}`;
    return a === z ? `no segment id ${s}` : `segmentIds ${s}`;
  }

  function atOutput(p) {
    const [o, s, e] = split(p, S);
    const [a, z] = bags[s];
    const marks = [...segmentMarks(s)];
    for (let c = 0; c < inner; c++) marks.push({ role: 'out', flat: outAt(o, s, c), unit: true });
    marks.push({ role: 'out', flat: p });
    const won = winner(o, s, e);
    for (let j = a; j < z; j++) {
      const order = String(j - a + 1);
      for (let c = 0; c < inner; c++) marks.push({ role: 'data', flat: dataAt(o, j, c), unit: true });
      marks.push({ role: 'data', flat: dataAt(o, j, e), order, won: j === won }, { role: 'bags', flat: j, order });
    }
    const head = `output${at(p, output.shape)} = ${fmtNum(output.data[p])}`;
    if (a === z) return { marks, text: `${head} ← segment ${s} is empty (${segmentSource(s)}): ${emptyGives()}` };
    const start = b.initial !== null ? `initial ${fmtNum(b.initial)}, then ` : '';
    const list = range(a, z).map((j) => `${j - a + 1}. ${names.data}${at(dataAt(o, j, e), data.shape)} = ${fmtNum(data.data[dataAt(o, j, e)])}`);
    const how = (b.reduce === 'max' || b.reduce === 'min') && won < 0 ? `${b.reduce}: the initial value` : b.reduce === 'mean'
      ? `sum / ${z - a}` : won >= 0 ? `${b.reduce}, from entry ${won - a + 1}` : b.reduce;
    return { marks, text: `${head} ← segment ${s} (${segmentSource(s)}): ${start}${list.join(', ')}: ${how}` };
  }

  /** Position j along the axis (a segment id, a place in the list): its slices and its segment. */
  function atPosition(j, label) {
    const s = segOf[j];
    const marks = [{ role: 'bags', flat: j }, ...(key === 'segmentIds' ? [{ role: 'segments', flat: j }] : [])];
    for (let o = 0; o < outer; o++) {
      for (let c = 0; c < inner; c++) marks.push({ role: 'data', flat: dataAt(o, j, c) }, { role: 'out', flat: outAt(o, s, c), unit: true });
    }
    return { marks, text: `${label}: entry ${j - bags[s][0] + 1} of segment ${s} → output[${output.shape.map((_, d) => (d === axis ? s : ':')).join(', ')}]` };
  }

  /** A length or an offset: the whole segment. */
  function atSegment(s) {
    const marks = segmentMarks(s);
    if (s >= S) return { marks, text: `offsets[${s}] = ${segValues[s]}: the end of the last segment` };
    const [a, z] = bags[s];
    for (let j = a; j < z; j++) {
      marks.push({ role: 'bags', flat: j });
      for (let o = 0; o < outer; o++) for (let c = 0; c < inner; c++) marks.push({ role: 'data', flat: dataAt(o, j, c) });
    }
    for (let o = 0; o < outer; o++) for (let c = 0; c < inner; c++) marks.push({ role: 'out', flat: outAt(o, s, c) });
    return { marks, text: `${segmentSource(s)}: segment ${s} is positions [${a}, ${z}) along axis ${axis}${a === z ? `, empty: ${emptyGives()}` : ''}` };
  }

  function hover(role, flat) {
    if (role === 'out') return atOutput(flat);
    if (role === 'data') { // its slice, and the output element it went into
      const [o, j, e] = split(flat, n);
      const s = segOf[j];
      const target = outAt(o, s, e);
      const marks = [{ role: 'data', flat }, { role: 'bags', flat: j }, { role: 'out', flat: target }, ...(key === 'segmentIds' ? [{ role: 'segments', flat: j }] : [])];
      for (let c = 0; c < inner; c++) marks.push({ role: 'data', flat: dataAt(o, j, c), unit: true }, { role: 'out', flat: outAt(o, s, c), unit: true });
      const label = `${names.data}${at(flat, data.shape)} = ${fmtNum(data.data[flat])}`;
      return { marks, text: `${label} → output${at(target, output.shape)}, entry ${j - bags[s][0] + 1} of segment ${s}` };
    }
    if (role === 'bags' || key === 'segmentIds') return atPosition(flat, role === 'bags' ? slice(flat) : `segmentIds[${flat}] = ${segValues[flat]}`);
    return atSegment(flat);
  }

  return { specs, hover };
}

const range = (a, b) => Array.from({ length: Math.max(0, b - a) }, (_, i) => a + i);
