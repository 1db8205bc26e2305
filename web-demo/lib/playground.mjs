// The editor: a preset or an op, editable data / indices / attributes, the output recomputed on
// every edit, and the picture (data, indices and output grids coloured by which index tuple
// moved what where, with hover in every direction).
import { unravel } from '../../common/shape.mjs';
import { $, el, fmtNum, fmtShape, unitHue } from './dom.mjs';
import { DATA_TYPES, INDEX_TYPES, ParseError, dtypeName, formatNested, parseShape, parseValues } from './parse.mjs';
import { OPS, OP_LABEL, presets } from './examples.mjs';
import { NAMES, callOp, callText } from './ops.mjs';
import { provenance } from './provenance.mjs';
import { renderGrid } from './grid.mjs';
import { compare } from './selfcheck.mjs';
import { fillTensorFieldset } from './tensor-fields.mjs';

const EDITABLE_MAX = 20000;     // tensors with more values are shown as a summary, not as text
const RESIDENT_ABOVE = 1 << 20; // fixed (preset) data tensors larger than this are uploaded once
const ATTR_OPS = { dim: ['gather'], axis: ['take'], batchDims: ['take', 'gatherND'] }; // which op has which

export function createPlayground(api, seedExamples) {
  const list = presets(seedExamples);
  for (const fieldset of document.querySelectorAll('#editor fieldset[data-tensor]')) fillTensorFieldset(fieldset);
  const f = {
    example: $('#example'), op: $('#op'),
    dataValues: $('#data-values'), dataShape: $('#data-shape'), dataType: $('#data-type'),
    indValues: $('#indices-values'), indShape: $('#indices-shape'), indType: $('#indices-type'),
    dim: $('#attr-dim'), axis: $('#attr-axis'), batchDims: $('#attr-batchdims'), outOfRange: $('#attr-oor'),
  };
  const view = { call: $('#call'), error: $('#op-error'), picture: $('#picture'), info: $('#hover-info'), outText: $('#out-text'), root: $('#playground') };
  // Tensors too large to edit as text (shape-only seeds): kept as they are, fields read-only.
  let fixed = { data: null, indices: null };
  let resident = null; // { tensor, rt } for a large fixed data tensor
  let current = { output: null, error: null, presetId: null };
  let links = null;
  let lastCall = null; // the parsed call shown now: { op, data, indices, attrs }
  let preset = null; // the chosen example, and whether the fields were edited since
  let edited = false;

  fillSelects();
  for (const input of Object.values(f)) {
    if (input === f.example) continue;
    input.addEventListener('input', schedule);
  }
  f.example.addEventListener('change', () => select(f.example.value));
  view.picture.addEventListener('pointerover', (e) => hover(e.target.closest?.('.cell')));
  view.picture.addEventListener('focusin', (e) => hover(e.target.closest?.('.cell')));
  view.picture.addEventListener('pointerleave', () => hover(null));

  function fillSelects() {
    for (const op of OPS) {
      const group = el('optgroup', { label: OP_LABEL[op] });
      for (const p of list.filter((x) => x.op === op)) {
        group.append(el('option', { value: p.id }, p.seed ? `${p.title} · ${p.source}` : `★ ${p.title}`));
      }
      if (group.children.length) f.example.append(group);
      f.op.append(el('option', { value: op }, OP_LABEL[op]));
    }
    for (const k of Object.keys(DATA_TYPES)) f.dataType.append(el('option', { value: k }, k));
    for (const k of Object.keys(INDEX_TYPES)) f.indType.append(el('option', { value: k }, k));
  }

  function setTensor(kind, t) {
    const [values, shape, type] = kind === 'data' ? [f.dataValues, f.dataShape, f.dataType] : [f.indValues, f.indShape, f.indType];
    const n = t.data.length;
    const big = n > EDITABLE_MAX;
    fixed[kind] = big ? t : null;
    if (kind === 'data' && resident && resident.tensor !== t) { // free a large uploaded one
      resident.rt.dispose();
      resident = null;
    }
    values.value = big ? `(${n.toLocaleString('en')} generated values: too many to edit here; ` +
      `the picture shows the first ones)` : formatNested(t.data, t.shape);
    shape.value = t.shape.join(', ');
    type.value = dtypeName(t.data);
    for (const x of [values, shape, type]) x.disabled = big;
    values.rows = Math.min(12, Math.max(3, values.value.split('\n').length));
  }

  /** Loads preset `id` into the fields and recomputes. */
  function select(id) {
    const p = list.find((x) => x.id === id) ?? list[0];
    const { data, indices, attrs } = p.load();
    f.example.value = p.id;
    f.op.value = p.op;
    setTensor('data', data);
    setTensor('indices', indices);
    f.dim.value = attrs.dim;
    f.axis.value = attrs.axis;
    f.batchDims.value = attrs.batchDims;
    f.outOfRange.value = attrs.outOfRange;
    current.presetId = p.id;
    preset = p;
    edited = false;
    view.root.dataset.preset = p.id;
    recompute();
  }

  let timer = 0;
  function schedule() {
    clearTimeout(timer);
    edited = true;
    view.root.dataset.state = 'pending';
    timer = setTimeout(recompute, fixed.data ? 150 : 0);
  }

  const intField = (name, input) => {
    const v = Number(input.value);
    if (input.value.trim() === '' || !Number.isInteger(v)) throw new ParseError(`${name}: '${input.value}' is not an integer`);
    return v;
  };

  function read() {
    const op = f.op.value;
    const data = fixed.data ?? {
      data: parseValues('data', f.dataValues.value, DATA_TYPES[f.dataType.value]),
      shape: parseShape('data shape', f.dataShape.value),
    };
    const indices = fixed.indices ?? {
      data: parseValues('indices', f.indValues.value, INDEX_TYPES[f.indType.value]),
      shape: parseShape('indices shape', f.indShape.value),
    };
    // Only the op's own attributes are read (the others are hidden, and default to 0).
    const own = (name) => (ATTR_OPS[name].includes(op) ? intField(name, f[name]) : 0);
    const attrs = {
      dim: own('dim'), axis: own('axis'), batchDims: own('batchDims'),
      outOfRange: f.outOfRange.value,
    };
    return { op, data, indices, attrs };
  }

  function dataArg(data) {
    if (!fixed.data || data.data.length <= RESIDENT_ABOVE) return data;
    if (resident?.tensor !== data || resident.rt.disposed) {
      resident?.rt.dispose();
      resident = { tensor: data, rt: api.upload(data) };
    }
    return resident.rt;
  }

  function recompute() {
    clearTimeout(timer);
    const op = f.op.value;
    view.root.dataset.op = op;
    for (const [name, ops] of Object.entries(ATTR_OPS)) f[name].closest('.attr').hidden = !ops.includes(op);
    $('#data-label').textContent = NAMES[op].data;
    $('#indices-label').textContent = NAMES[op].indices;
    let call;
    lastCall = null;
    try {
      call = lastCall = read();
    } catch (err) {
      return show({ error: err });
    }
    view.call.textContent = callText(op, call.attrs);
    let output;
    try {
      output = callOp(api, op, dataArg(call.data), call.indices, call.attrs);
    } catch (err) {
      return show({ error: err, call });
    }
    const prov = provenance(api, op, call.data.shape, call.indices, call.attrs, output.shape);
    return show({ call, output, prov });
  }

  function show({ error, call, output, prov }) {
    current = { ...current, output: output ?? null, error: error ? `${error.name}: ${error.message}` : null };
    view.error.hidden = !error;
    view.error.replaceChildren(...(error ? [el('strong', {}, error.name), ' ', error.message] : []));
    view.root.dataset.state = error ? 'error' : 'ok';
    note(output, error);
    view.info.textContent = error ? '' : 'Hover (or focus) a cell to see where it came from.';
    links = null;
    const figs = [];
    if (call) {
      const names = NAMES[call.op];
      links = prov ? link(call, output, prov, names) : null;
      figs.push(renderGrid({ values: call.data.data, shape: call.data.shape, role: 'data', label: names.data, paint: links?.paintData }));
      figs.push(renderGrid({ values: call.indices.data, shape: call.indices.shape, role: 'indices', label: names.indices, paint: links?.paintIndices }));
      if (output) figs.push(renderGrid({ values: output.data, shape: output.shape, role: 'out', label: 'output', paint: links?.paintOut }));
      if (links) links.cells = { data: figs[0].cells, indices: figs[1].cells, out: figs[2].cells };
    }
    // Small tensors get bigger cells.
    const sizes = call ? [call.data.data.length, call.indices.data.length, output?.data.length ?? 0] : [];
    view.picture.classList.toggle('roomy', sizes.length > 0 && Math.max(...sizes) <= 48);
    // Each grid after the first keeps its operator sign (+, →) with it when the row wraps.
    view.picture.replaceChildren(...figs.map((g, i) => (i === 0 ? g.node
      : el('div', { class: 'operand' }, el('span', { class: 'arrow', 'aria-hidden': 'true' }, i === 1 ? '+' : '→'), g.node))));
    const n = output?.data.length ?? 0;
    view.outText.textContent = !output ? ''
      : n > 2000 ? `${dtypeName(output.data)} ${fmtShape(output.shape)}: ${n.toLocaleString('en')} values (see the picture)`
      : `${dtypeName(output.data)} ${fmtShape(output.shape)}\n${formatNested(output.data, output.shape)}`;
  }

  /** Under the example picker: where it is from, and whether the output is the documented one. */
  function note(output, error) {
    const box = $('#example-note');
    if (!preset) return;
    const from = preset.seed
      ? ['From ', el('a', { href: preset.seed.url, target: '_blank', rel: 'noopener' }, preset.source)]
      : ['A demo starter (not from the specifications)'];
    if (edited) {
      box.replaceChildren(...from, ', edited.');
      return;
    }
    const exp = preset.seed?.expected;
    if (!exp) {
      box.replaceChildren(...from, '.');
      return;
    }
    const problem = error ? 'the call failed' : compare(output, exp);
    const what = exp.data ? 'the documented output' : `the documented shape ${fmtShape(exp.shape)} (values checked against common/reference.mjs on load)`;
    box.replaceChildren(...from, ': ', el('span', { class: problem ? 'bad' : 'good' },
      problem ? `✗ differs from ${what}: ${problem}` : `✓ matches ${what}`));
  }

  /** Which data and index cells each output cell came from, and the colours. */
  function link(call, output, prov, names) {
    const { src, unitOf, indexElements } = prov;
    const dataOuts = new Map(); // data flat -> output positions
    const indexOuts = new Map(); // index flat -> output positions
    for (let p = 0; p < src.length; p++) {
      if (src[p] >= 0) push(dataOuts, src[p], p);
      for (const e of indexElements(p)) push(indexOuts, e, p);
    }
    const paintFrom = (outs) => {
      if (!outs) return null;
      const units = new Set(outs.map(unitOf));
      return { hue: unitHue(unitOf(outs[0])), count: units.size };
    };
    return {
      call, output, prov, names, dataOuts, indexOuts, cells: null,
      paintOut: (p) => (src[p] < 0 ? { zero: true } : { hue: unitHue(unitOf(p)) }),
      paintData: (d) => paintFrom(dataOuts.get(d)),
      paintIndices: (e) => {
        const outs = indexOuts.get(e);
        return outs ? { hue: unitHue(unitOf(outs[0])) } : null;
      },
    };
  }

  let lit = [];
  function hover(cell) {
    for (const c of lit) c.classList.remove('hl', 'hl-self', 'unit');
    lit = [];
    view.picture.classList.toggle('hovering', Boolean(cell && links));
    const counts = { data: 0, indices: 0, out: 0 };
    if (!cell || !links) {
      Object.assign(view.picture.dataset, { hlData: 0, hlIndices: 0, hlOut: 0 });
      return;
    }
    const role = cell.dataset.role;
    const flat = Number(cell.dataset.flat);
    const { prov, cells, names, call } = links;
    let outs;
    let text;
    if (role === 'out') {
      outs = [flat];
      text = prov.describe(flat, names);
    } else {
      outs = (role === 'data' ? links.dataOuts : links.indexOuts).get(flat) ?? [];
      const t = role === 'data' ? call.data : call.indices;
      const label = `${role === 'data' ? names.data : names.indices}[${unravel(flat, t.shape).join(', ')}] = ${fmtNum(t.data[flat])}`;
      const where = outs.slice(0, 6).map((p) => `[${unravel(p, links.output.shape).join(', ')}]`).join(', ');
      text = outs.length ? `${label} → output ${where}${outs.length > 6 ? ` and ${outs.length - 6} more` : ''}` : `${label}: not gathered`;
    }
    const mark = (kind, f) => {
      const c = cells[kind].get(f);
      if (c && !c.classList.contains('hl')) { c.classList.add('hl'); lit.push(c); counts[kind]++; }
    };
    if (role === 'out') { // the rest of the block (slice) this output element belongs to
      const u = prov.unitOf(flat);
      for (let q = u * prov.block; q < (u + 1) * prov.block && q < prov.src.length; q++) {
        for (const c of [cells.out.get(q), prov.src[q] >= 0 && cells.data.get(prov.src[q])]) {
          if (c && !c.classList.contains('unit')) { c.classList.add('unit'); lit.push(c); }
        }
      }
    }
    for (const p of outs) {
      mark('out', p);
      if (prov.src[p] >= 0) mark('data', prov.src[p]);
      for (const e of prov.indexElements(p)) mark('indices', e);
    }
    cell.classList.add('hl', 'hl-self');
    if (!lit.includes(cell)) lit.push(cell);
    view.info.textContent = text;
    Object.assign(view.picture.dataset, { hlData: counts.data, hlIndices: counts.indices, hlOut: counts.out });
  }

  return {
    presets: list,
    select,
    /** The call shown now (tensors as the op got them), or null after a parse error. */
    call: () => lastCall,
    /** What the page shows now, for tests: the output's values as numbers. */
    state: () => ({
      presetId: current.presetId,
      error: current.error,
      output: current.output && { data: Array.from(current.output.data, Number), shape: current.output.shape.slice() },
    }),
  };
}

function push(map, k, v) {
  const a = map.get(k);
  if (a) a.push(v); else map.set(k, [v]);
}
