// The scatters' picture in the playground: the data, the index, the updates and the output as
// grids; an update, where it landed and the index that sent it share a colour; the updates that
// meet at one position carry their place in the order the library applied them (data-order
// "1", "2", "3"; with reduce 'none' the last one wins: class winner, the others overwritten), and
// the output cell how many met there (data-count "×3"). Hover goes every way: a destination
// lights the updates that hit it, an update or an index its destinations. Who went where:
// lib/scatter-map.mjs.
import { unravel } from '../../common/shape.mjs';
import { fmtNum, unitHue } from './dom.mjs';
import { srcValue } from './scatter-ops.mjs';

const at = (flat, shape) => (shape.length ? `[${unravel(flat, shape).join(', ')}]` : ''); // '' for a scalar
const HOVER_LIST = 6; // destinations named in a hover text, the rest counted

/** The view of one call: its grids' specs ({ values, shape, role, label, sign, paint, decorate }) and its hover. */
export function scatterView(call, output, map, names) {
  const { dest, hits, order, updateCell, indexCells, key } = map;
  const writes = call.op === 'tensorScatter' || call.attrs.reduce === 'none'; // the last update wins
  const updatesOf = new Map(); // updates grid flat -> [p]
  const indexOf = new Map(); // index grid flat -> [p]
  for (let p = 0; p < dest.length; p++) {
    push(updatesOf, updateCell(p), p);
    for (const e of indexCells(p)) push(indexOf, e, p);
  }
  const hue = (d) => unitHue(key(d));
  const value = srcValue(call);

  /** Paint of an updates or index cell: its first update's colour; striped if all were dropped. */
  const paintOf = (ps) => {
    if (!ps) return null;
    const live = ps.find((p) => dest[p] >= 0);
    return live === undefined ? { zero: true } : { hue: hue(dest[live]) };
  };
  /** Order badge of a cell standing for updates ps: when they all share one place among several. */
  const decorateWith = (of) => (cell, flat) => {
    const live = (of.get(flat) ?? []).filter((p) => dest[p] >= 0);
    if (!live.length) return;
    const k = order(live[0]);
    const m = hits.get(dest[live[0]]).length;
    if (m < 2 || live.some((p) => order(p) !== k || hits.get(dest[p]).length !== m)) return;
    cell.dataset.order = k;
    if (writes) cell.classList.add(k === m ? 'winner' : 'overwritten');
  };

  const data = { values: call.data.data, shape: call.data.shape, role: 'data', label: names.data,
    paint: (d) => (hits.has(d) ? { hue: hue(d) } : null) };
  const index = call.indices && { values: call.indices.data, shape: call.indices.shape, role: 'indices', label: names.indices,
    sign: '+', paint: (e) => paintOf(indexOf.get(e)), decorate: decorateWith(indexOf) };
  const updates = { values: call.updates.data, shape: call.updates.shape, role: 'updates',
    label: value === undefined ? names.updates : `${names.updates} (a value)`, sign: '+',
    paint: (u) => paintOf(updatesOf.get(u)), decorate: value === undefined ? decorateWith(updatesOf) : undefined };
  const out = { values: output.data, shape: output.shape, role: 'out', label: 'output', sign: '→',
    paint: (d) => (hits.has(d) ? { hue: hue(d), count: hits.get(d).length } : null) };
  const specs = [data, index, updates, out].filter(Boolean);

  // ---- hover text
  const updateName = (p) => (value !== undefined ? `${names.updates} = ${fmtNum(value)}`
    : `${names.updates}${at(updateCell(p), call.updates.shape)} = ${fmtNum(call.updates.data[updateCell(p)])}`);
  const indexName = (p) => {
    const cells = indexCells(p);
    if (call.op === 'tensorScatter') return writeName(p);
    const shape = call.indices.shape;
    if (call.op === 'scatterND') {
      const t = Math.floor(cells[0] / shape.at(-1));
      return `${names.indices}[${[...unravel(t, shape.slice(0, -1)), ':'].join(', ')}] = (${cells.map((e) => call.indices.data[e]).join(', ')})`;
    }
    return `${names.indices}${at(cells[0], shape)} = ${call.indices.data[cells[0]]}`;
  };
  // tensorScatter: the write position of update p, writeIndices[b] + s, and where 'circular' wrapped it
  const writeName = (p) => {
    const rank = call.data.shape.length;
    const axis = call.attrs.axis < 0 ? call.attrs.axis + rank : call.attrs.axis;
    const c = unravel(p, map.space);
    const w = call.indices ? Number(call.indices.data[c[0]]) : 0;
    const from = call.indices ? `${names.indices}[${c[0]}] = ${w}` : `no ${names.indices}: 0`;
    const pos = w + c[axis];
    const L = call.data.shape[axis];
    return `${from}, position ${w} + ${c[axis]} = ${pos}${pos >= L ? `, wrapped to ${pos % L}` : ''}`;
  };
  const updateText = (p) => `${updateName(p)} (${indexName(p)})`;
  const fate = (p) => {
    const m = hits.get(dest[p]).length;
    if (m === 1) return '';
    const place = `, update ${order(p)} of ${m} there`;
    if (!writes) return `${place} (reduce '${call.attrs.reduce}')`;
    return `${place}${order(p) === m ? ': the last, it wins' : ': overwritten by a later one'}`;
  };
  const outName = (d) => `output${at(d, output.shape)}`;

  function atDestination(d) {
    const ps = hits.get(d) ?? [];
    const self = `${names.data}${at(d, call.data.shape)} = ${fmtNum(call.data.data[d])}`;
    const head = `${outName(d)} = ${fmtNum(output.data[d])}`;
    if (!ps.length) return `${head}: no update lands here (${self} kept)`;
    const list = ps.map((p, i) => `${ps.length > 1 ? `${i + 1}. ` : ''}${updateText(p)}`).join(', ');
    if (writes) {
      return `${head} ← ${list}` + (ps.length > 1 ? `: written in this order, the last one wins` : '');
    }
    const start = call.attrs.includeSelf ? `${self}, then ` : `(${names.data} left out: includeSelf false) `;
    return `${head} ← ${start}${list}: reduce '${call.attrs.reduce}'${ps.length > 1 ? ' in this order' : ''}`;
  }

  function fromCell(ps, label) {
    if (!ps?.length) return `${label}: not used`;
    const live = ps.filter((p) => dest[p] >= 0);
    if (!live.length) return `${label}: out of range, dropped`;
    if (ps.length === 1) return `${updateText(ps[0])} → ${outName(dest[ps[0]])}${fate(ps[0])}`;
    const where = live.slice(0, HOVER_LIST).map((p) => at(dest[p], output.shape)).join(', ');
    return `${label} → output ${where}${live.length > HOVER_LIST ? ` and ${live.length - HOVER_LIST} more` : ''}` +
      (live.length < ps.length ? ` (${ps.length - live.length} dropped)` : '');
  }

  /** What hovering cell (role, flat) lights ([[role, flat], ...]) and says. */
  function hover(role, flat) {
    const marks = [[role, flat]];
    const follow = (p) => {
      marks.push(['updates', updateCell(p)]);
      for (const e of indexCells(p)) marks.push(['indices', e]);
      if (dest[p] >= 0) marks.push(['out', dest[p]], ['data', dest[p]]);
    };
    if (role === 'out' || role === 'data') {
      marks.push([role === 'out' ? 'data' : 'out', flat]);
      for (const p of hits.get(flat) ?? []) follow(p);
      return { marks, text: atDestination(flat) };
    }
    const spec = role === 'updates' ? updates : index;
    const ps = (role === 'updates' ? updatesOf : indexOf).get(flat);
    for (const p of ps ?? []) follow(p);
    return { marks, text: fromCell(ps, `${spec.label.split(' ')[0]}${at(flat, spec.shape)} = ${fmtNum(spec.values[flat])}`) };
  }

  return { specs, hover };
}

function push(map, k, v) {
  const a = map.get(k);
  if (a) a.push(v); else map.set(k, [v]);
}
