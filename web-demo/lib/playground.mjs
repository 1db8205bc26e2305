// The editor: a preset or an op, editable data / indices / attributes, the output recomputed on
// every edit, and the picture (data, indices and output grids coloured by which index tuple
// moved what where, with hover in every direction). gatherBlockQuantized also has scales and
// zero points, and its table is drawn as codes, zero points, scales and dequantized values
// (lib/quantized.mjs), the rows it gathered coloured like the rest. The scatters also have
// updates, and their picture shows where each update landed and in which order
// (lib/scatter-view.mjs). embeddingBag and segmentReduce have their bags (segments) and how each is
// reduced (lib/bag-editor.mjs), and their picture shows which rows each output row reduced, in
// order, with their weights and padding (lib/bag-view.mjs, lib/segment-view.mjs); for
// embeddingBag, picking an output row (the select, or a click on the row) draws the gradient of
// that row for the table, by the library's backward op (lib/bag-grad.mjs).
import { numel, unravel } from '../../common/shape.mjs';
import { $, el, fmtNum, fmtShape, unitHue } from './dom.mjs';
import { DATA_TYPES, INDEX_TYPES, ParseError, dtypeName, formatNested, parseShape, parseValues } from './parse.mjs';
import { OPS, OP_LABEL, presets } from './examples.mjs';
import { NAMES, QUANTIZED, callOp, callQuantized, callText, quantOpts } from './ops.mjs';
import { provenance } from './provenance.mjs';
import { renderGrid } from './grid.mjs';
import { compare } from './selfcheck.mjs';
import { fillTensorFieldset } from './tensor-fields.mjs';
import { SCALE_TYPES, decodeScales, encodeScales, quantPicture, scaleTypeOf } from './quantized.mjs';
import { REDUCES, callScatter, isScatter, scatterText } from './scatter-ops.mjs';
import { scatterMap } from './scatter-map.mjs';
import { scatterView } from './scatter-view.mjs';
import { bagText, callBag, isBag } from './bag-ops.mjs';
import { createBagEditor } from './bag-editor.mjs';
import { bagMap } from './bag-map.mjs';
import { bagView } from './bag-view.mjs';
import { BACKWARD, bagGradient } from './bag-grad.mjs';

const EDITABLE_MAX = 20000;     // tensors with more values are shown as a summary, not as text
const RESIDENT_ABOVE = 1 << 20; // fixed (preset) data tensors larger than this are uploaded once
const QUANT_COLS = 32;          // gatherBlockQuantized's grids show this many columns (two blocks of 16)
const REDUCING = ['scatter', 'scatterND', 'indexReduce'];
const ATTR_OPS = { // which op has which
  dim: ['gather', 'scatter'], axis: ['take', 'indexReduce', 'tensorScatter', 'segmentReduce'], batchDims: ['take', 'gatherND'],
  bits: [QUANTIZED], blockSize: [QUANTIZED], gatherAxis: [QUANTIZED], quantizeAxis: [QUANTIZED], quantType: [QUANTIZED],
  reduce: REDUCING, includeSelf: REDUCING, mode: ['tensorScatter'],
  // tensorScatter's write indices have no policy; segmentReduce has no indices
  outOfRange: OPS.filter((op) => op !== 'tensorScatter' && op !== 'segmentReduce'),
};
// outOfRange's choices: the gathers zero what is out of range, the scatters drop it.
const OUT_OF_RANGE = { gathers: ['error', 'zero', 'clamp'], scatters: ['error', 'drop', 'clamp'] };

export function createPlayground(api, seedExamples) {
  const list = presets(seedExamples);
  for (const fieldset of document.querySelectorAll('#editor fieldset[data-tensor]')) fillTensorFieldset(fieldset);
  const f = {
    example: $('#example'), op: $('#op'),
    dataValues: $('#data-values'), dataShape: $('#data-shape'), dataType: $('#data-type'),
    indValues: $('#indices-values'), indShape: $('#indices-shape'), indType: $('#indices-type'),
    updValues: $('#updates-values'), updShape: $('#updates-shape'), updType: $('#updates-type'),
    dim: $('#attr-dim'), axis: $('#attr-axis'), batchDims: $('#attr-batchdims'), outOfRange: $('#attr-oor'),
    scalesValues: $('#scales-values'), scalesShape: $('#scales-shape'), scalesType: $('#scales-type'),
    zpValues: $('#zp-values'), zpShape: $('#zp-shape'), zpType: $('#zp-type'),
    quantType: $('#attr-quanttype'), bits: $('#attr-bits'), blockSize: $('#attr-blocksize'),
    gatherAxis: $('#attr-gatheraxis'), quantizeAxis: $('#attr-quantizeaxis'),
    reduce: $('#attr-reduce'), includeSelf: $('#attr-includeself'), mode: $('#attr-mode'),
  };
  const view = { call: $('#call'), error: $('#op-error'), picture: $('#picture'), info: $('#hover-info'), outText: $('#out-text'), root: $('#playground') };
  // embeddingBag's backward: which output row's gradient is drawn ('' none), and what it reached
  const grads = { pick: $('#bag-grad-row'), call: $('#grad-call'), info: $('#grad-info') };
  if (!BACKWARD) $('#grad-pick').remove(); // a library without the backward op
  // Tensors too large to edit as text (shape-only seeds): kept as they are, fields read-only.
  let fixed = { data: null, indices: null, updates: null };
  let resident = null; // { tensor, rt } for a large fixed data tensor
  let current = { output: null, error: null, presetId: null };
  let links = null;
  let lastCall = null; // the parsed call shown now: { op, data, indices, attrs, updates? }
  let preset = null; // the chosen example, and whether the fields were edited since
  let edited = false;

  fillSelects();
  const bagEditor = createBagEditor(schedule);
  for (const input of Object.values(f)) {
    if (input === f.example) continue;
    input.addEventListener('input', schedule);
  }
  f.example.addEventListener('change', () => select(f.example.value));
  view.picture.addEventListener('pointerover', (e) => hover(e.target.closest?.('.cell')));
  view.picture.addEventListener('focusin', (e) => hover(e.target.closest?.('.cell')));
  view.picture.addEventListener('pointerleave', () => hover(null));
  grads.pick.addEventListener('input', () => recompute());
  // A click on an output element of embeddingBag picks its row's gradient (again: none).
  view.picture.addEventListener('click', (e) => {
    const cell = e.target.closest?.('.cell');
    if (!BACKWARD || !links?.bag || f.op.value !== 'embeddingBag' || !['out', 'maxidx'].includes(cell?.dataset.role)) return;
    const row = String(links.bag.outputRow(Number(cell.dataset.flat)));
    pickGradRow(grads.pick.value === row ? null : Number(row));
  });

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
    for (const k of Object.keys(DATA_TYPES)) f.updType.append(el('option', { value: k }, k));
    for (const k of REDUCES) f.reduce.append(el('option', { value: k }, k));
    for (const k of Object.keys(INDEX_TYPES)) f.indType.append(el('option', { value: k }, k));
    for (const k of Object.keys(SCALE_TYPES)) f.scalesType.append(el('option', { value: k }, k));
    f.zpType.append(el('option', { value: 'uint8' }, 'uint8 (packed)'));
  }

  /** gatherBlockQuantized's scales (shown as numbers) and zero points (null: an empty field). */
  function setQuantTensors(scales, zeroPoints, scaleType) {
    const type = scales ? scaleTypeOf(scales.data, { scaleType }) : 'float32';
    f.scalesValues.value = scales ? formatNested(decodeScales(scales.data, type), scales.shape) : '';
    f.scalesShape.value = scales ? scales.shape.join(', ') : '';
    f.scalesType.value = type;
    f.zpValues.value = zeroPoints ? formatValues(zeroPoints) : '';
    f.zpShape.value = zeroPoints ? zeroPoints.shape.join(', ') : '';
    f.zpType.value = 'uint8';
    for (const v of [f.scalesValues, f.zpValues]) v.rows = Math.min(8, Math.max(2, v.value.split('\n').length));
  }

  /** outOfRange's choices for the op (a value the op lacks becomes 'error'). */
  function setOutOfRangeChoices(op) {
    const choices = OUT_OF_RANGE[isScatter(op) ? 'scatters' : 'gathers'];
    const now = [...f.outOfRange.options].map((o) => o.value);
    if (now.join() === choices.join()) return;
    const value = f.outOfRange.value;
    f.outOfRange.replaceChildren(...choices.map((c) => el('option', { value: c }, c)));
    f.outOfRange.value = choices.includes(value) ? value : 'error';
  }

  const FIELDS = {
    data: () => [f.dataValues, f.dataShape, f.dataType], indices: () => [f.indValues, f.indShape, f.indType],
    updates: () => [f.updValues, f.updShape, f.updType],
  };

  /** A tensor into its fields; null empties them (the op has no such tensor, or it is left out). */
  function setTensor(kind, t) {
    const [values, shape, type] = FIELDS[kind]();
    if (!t) {
      fixed[kind] = null;
      values.value = '';
      shape.value = '';
      for (const x of [values, shape, type]) x.disabled = false;
      values.rows = 3;
      return;
    }
    const n = t.data.length;
    const big = n > EDITABLE_MAX;
    fixed[kind] = big ? t : null;
    if (kind === 'data' && resident && resident.tensor !== t) { // free a large uploaded one
      resident.rt.dispose();
      resident = null;
    }
    values.value = big ? `(${n.toLocaleString('en')} generated values: too many to edit here; ` +
      `the picture shows the first ones)` : formatValues(t);
    shape.value = t.shape.join(', ');
    type.value = dtypeName(t.data);
    for (const x of [values, shape, type]) x.disabled = big;
    values.rows = Math.min(12, Math.max(3, values.value.split('\n').length));
  }

  /** Loads preset `id` into the fields and recomputes. */
  function select(id) {
    const p = list.find((x) => x.id === id) ?? list[0];
    const { data, indices, attrs, scales, zeroPoints, updates } = p.load();
    f.example.value = p.id;
    f.op.value = p.op;
    setOutOfRangeChoices(p.op);
    setTensor('data', data);
    setTensor('indices', indices);
    setTensor('updates', updates ?? null);
    setQuantTensors(scales, zeroPoints, attrs.scaleType);
    if (attrs.bag) {
      bagEditor.sync(p.op);
      bagEditor.set(attrs.bag);
    }
    for (const k of ['dim', 'axis', 'batchDims', 'outOfRange', 'quantType', 'bits', 'blockSize', 'gatherAxis', 'quantizeAxis', 'reduce', 'mode']) {
      f[k].value = attrs[k];
    }
    f.includeSelf.value = String(attrs.includeSelf);
    current.presetId = p.id;
    preset = p;
    edited = false;
    grads.pick.value = '';
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
    // tensorScatter's writeIndices may be left out: an empty field; segmentReduce has none
    const absent = op === 'segmentReduce'
      || (op === 'tensorScatter' && !fixed.indices && f.indValues.value.trim() === '' && f.indShape.value.trim() === '');
    const indices = absent ? null : fixed.indices ?? {
      data: parseValues('indices', f.indValues.value, INDEX_TYPES[f.indType.value]),
      shape: parseShape('indices shape', f.indShape.value),
    };
    // Only the op's own attributes are read (the others are hidden, and default to 0).
    const own = (name) => (ATTR_OPS[name].includes(op) ? intField(name, f[name]) : 0);
    const attrs = {
      dim: own('dim'), axis: own('axis'), batchDims: own('batchDims'),
      outOfRange: f.outOfRange.value,
    };
    if (isBag(op)) return { op, data, indices, attrs: { ...attrs, bag: bagEditor.read() } };
    if (isScatter(op)) {
      Object.assign(attrs, { reduce: f.reduce.value, includeSelf: f.includeSelf.value === 'true', mode: f.mode.value });
      const updates = fixed.updates ?? {
        data: parseValues(NAMES[op].updates, f.updValues.value, DATA_TYPES[f.updType.value]),
        shape: parseShape(`${NAMES[op].updates} shape`, f.updShape.value),
      };
      return { op, data, indices, updates, attrs };
    }
    if (op !== QUANTIZED) return { op, data, indices, attrs };
    Object.assign(attrs, {
      quantType: f.quantType.value, bits: own('bits'), blockSize: own('blockSize'),
      gatherAxis: own('gatherAxis'), quantizeAxis: own('quantizeAxis'), scaleType: f.scalesType.value,
    });
    const scales = {
      data: encodeScales(parseValues('scales', f.scalesValues.value, Float64Array), attrs.scaleType),
      shape: parseShape('scales shape', f.scalesShape.value),
    };
    const zeroPoints = f.zpValues.value.trim() === '' ? null : {
      data: parseValues('zero points', f.zpValues.value, Uint8Array),
      shape: parseShape('zero points shape', f.zpShape.value),
    };
    return { op, data, indices, attrs, scales, zeroPoints };
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
    setOutOfRangeChoices(op);
    for (const [name, ops] of Object.entries(ATTR_OPS)) f[name].closest('.attr').hidden = !ops.includes(op);
    for (const x of document.querySelectorAll('#playground [data-op]')) x.hidden = !x.dataset.op.split(' ').includes(op);
    $('#data-label').textContent = NAMES[op].data;
    $('#indices-label').textContent = NAMES[op].indices ?? '';
    if (isBag(op)) bagEditor.sync(op);
    $('#updates-label').textContent = NAMES[op].updates ?? '';
    let call;
    lastCall = null;
    try {
      call = lastCall = read();
    } catch (err) {
      return show({ error: err });
    }
    view.call.textContent = isScatter(op) ? scatterText(call) : isBag(op) ? bagText(call) : callText(op, call.attrs, call.zeroPoints);
    let output;
    try {
      output = op === QUANTIZED ? callQuantized(api, call) : isScatter(op) ? callScatter(api, call)
        : isBag(op) ? callBag(api, call) : callOp(api, op, dataArg(call.data), call.indices, call.attrs);
    } catch (err) {
      return show({ error: err, call });
    }
    if (isBag(op)) {
      let bag;
      let grad = null;
      let gradError = null;
      try {
        const row = gradRows(op, output);
        if (row !== null) {
          try {
            grad = bagGradient(api, api, call, output, row);
          } catch (err) { // said under the picker, the forward's picture still drawn
            gradError = err;
          }
        }
        bag = bagView(call, output, bagMap(api, call, output), NAMES[op], grad);
      } catch (err) { // the call was accepted, so this is the page's own failure: say so
        return show({ error: err, call });
      }
      return show({ call, output, bag, grad, gradError });
    }
    if (isScatter(op)) {
      let scatter;
      try {
        scatter = scatterView(call, output, scatterMap(api, call), NAMES[op]);
      } catch (err) { // the call was accepted, so this is the page's own failure: say so
        return show({ error: err, call });
      }
      return show({ call, output, scatter });
    }
    if (op === QUANTIZED) {
      // The table's picture, and where each output element came from: take along the gather
      // axis over the logical table (the same index rules), as for the other ops.
      let quant;
      let prov;
      try {
        quant = quantPicture(api, call, quantOpts(call.attrs, call.zeroPoints));
        const takeAttrs = { dim: 0, axis: quant.gatherAxis, batchDims: 0, outOfRange: call.attrs.outOfRange };
        prov = provenance(api, 'take', quant.shape, call.indices, takeAttrs, output.shape);
      } catch (err) { // the call was accepted, so this is the page's own failure: say so
        return show({ error: err, call });
      }
      return show({ call, output, prov, quant });
    }
    const prov = provenance(api, op, call.data.shape, call.indices, call.attrs, output.shape);
    return show({ call, output, prov });
  }

  /** The grids of a call, each with the sign before it: { grid options..., sign }. */
  function gridsOf(call, output, quant) {
    const names = NAMES[call.op];
    if (!quant) { // (a scatter's grids come from lib/scatter-view.mjs; here, when its call failed)
      return [
        { values: call.data.data, shape: call.data.shape, role: 'data', label: names.data },
        call.indices && { values: call.indices.data, shape: call.indices.shape, role: 'indices', label: names.indices, sign: '+' },
        call.updates && { values: call.updates.data, shape: call.updates.shape, role: 'updates', label: names.updates, sign: '+' },
        output && { values: output.data, shape: output.shape, role: 'out', label: 'output', sign: '→' },
      ].filter(Boolean);
    }
    const wide = { maxCols: QUANT_COLS, marked: (p) => quant.blockStart(p) };
    const zpLabel = call.zeroPoints ? 'zero points' : null;
    return [
      { values: quant.codes, shape: quant.shape, role: 'data', label: `${names.data} as codes`, name: 'codes', ...wide },
      zpLabel && { values: quant.zeroPoints, shape: quant.scaleShape, role: 'zp', label: zpLabel, sign: '−', maxCols: QUANT_COLS },
      { values: quant.scales, shape: quant.scaleShape, role: 'scales', label: `scales (${quant.scaleType})`, name: 'scales', sign: '×', maxCols: QUANT_COLS },
      { values: quant.table, shape: quant.shape, role: 'table', label: 'dequantized table', name: 'dequantized', sign: '=', ...wide },
      { values: call.indices.data, shape: call.indices.shape, role: 'indices', label: names.indices, sign: '+' },
      { values: decodeScales(output.data, quant.scaleType), shape: output.shape, role: 'out', label: 'output', sign: '→',
        maxCols: QUANT_COLS, marked: (p) => quant.blockStart(p, true) },
    ].filter(Boolean);
  }

  /**
   * The output rows in the gradient picker (none, then one a bag), keeping the one picked while it
   * exists; returns it (null: none, or not embeddingBag).
   */
  function gradRows(op, output) {
    if (!BACKWARD || op !== 'embeddingBag') return null;
    const rows = output.shape[0] ?? 0;
    const keep = grads.pick.value;
    if (grads.pick.options.length !== rows + 1) {
      grads.pick.replaceChildren(el('option', { value: '' }, 'none'),
        ...Array.from({ length: rows }, (_, r) => el('option', { value: String(r) }, `output row ${r}`)));
    }
    grads.pick.value = keep !== '' && Number(keep) < rows ? keep : '';
    return grads.pick.value === '' ? null : Number(grads.pick.value);
  }

  /** Picks output row `row`'s gradient (null: none) and redraws. */
  function pickGradRow(row) {
    grads.pick.value = row === null ? '' : String(row);
    recompute();
  }

  /** Under the picker: the backward call, and the table rows it reached with their gradient (the scale). */
  function showGrad(grad, gradError, names) {
    grads.call.textContent = grad ? grad.text : '';
    grads.call.parentElement.hidden = !grad;
    if (gradError) {
      grads.info.replaceChildren(el('span', { class: 'bad' }, `${gradError.name}: ${gradError.message}`));
      return;
    }
    if (!grad) {
      grads.info.textContent = BACKWARD ? 'Pick an output row (or click one) to see which table rows its gradient reaches.' : '';
      return;
    }
    const rows = links.bag.reached;
    const fmtRow = (values) => (values.every((v) => v === values[0]) ? `×${fmtNum(values[0])}` : `×[${values.map(fmtNum).join(', ')}]`);
    grads.info.textContent = !rows.length ? `The gradient of output row ${grad.row} reaches no row of ${names.data}.`
      : `The gradient of output row ${grad.row} reaches ${names.data} row${rows.length > 1 ? 's' : ''} ` +
        `${rows.map(([r, values]) => `${r} (${fmtRow(values)})`).join(', ')}.`;
  }

  function show({ error, call, output, prov, quant, scatter, bag, grad = null, gradError = null }) {
    current = { ...current, output: output ?? null, grad, error: error ? `${error.name}: ${error.message}` : null };
    view.error.hidden = !error;
    view.error.replaceChildren(...(error ? [el('strong', {}, error.name), ' ', error.message] : []));
    view.root.dataset.state = error ? 'error' : 'ok';
    note(output, error);
    view.info.textContent = error ? '' : 'Hover (or focus) a cell to see where it came from.';
    links = null;
    const specs = !call ? [] : scatter ? scatter.specs : bag ? bag.specs : gridsOf(call, output, quant);
    const names = call && NAMES[call.op];
    links = prov ? link(call, output, prov, names, quant) : scatter ? { scatter, paint: {} } : bag ? { bag, paint: {} } : null;
    // (the list of bags draws itself: lib/bag-strip.mjs)
    const figs = specs.map((g) => ({ sign: g.sign, role: g.role, ...(g.render ? g.render() : renderGrid({ ...g, paint: g.paint ?? links?.paint[g.role] })) }));
    if (links) {
      links.cells = Object.fromEntries(figs.map((g) => [g.role, g.cells]));
      links.grids = Object.fromEntries(specs.map((g) => [g.role, g]));
    }
    showGrad(bag ? grad : null, bag ? gradError : null, names);
    // Small tensors get bigger cells; a quantized table's grids smaller ones.
    const sizes = specs.map((g) => g.values.length);
    view.picture.classList.toggle('roomy', !quant && sizes.length > 0 && Math.max(...sizes) <= 48);
    view.picture.classList.toggle('quant', Boolean(quant));
    // Each grid after the first keeps its operator sign (+, →, ×, ...) with it when the row wraps.
    view.picture.replaceChildren(...figs.map((g) => (!g.sign ? g.node
      : el('div', { class: 'operand' }, el('span', { class: 'arrow', 'aria-hidden': 'true' }, g.sign), g.node))));
    const n = output?.data.length ?? 0;
    // float16 / bfloat16 outputs are Uint16Arrays of bits: their values, then the bits.
    const shown = quant && quant.scaleType !== 'float32' ? decodeScales(output.data, quant.scaleType) : output?.data;
    const type = quant && quant.scaleType !== 'float32' ? `${quant.scaleType} (a Uint16Array of its bits)` : output && dtypeName(output.data);
    const maxIndices = output?.maxIndices;
    view.outText.textContent = !output ? ''
      : n > 2000 ? `${type} ${fmtShape(output.shape)}: ${n.toLocaleString('en')} values (see the picture)`
      : `${type} ${fmtShape(output.shape)}\n${formatNested(shown, output.shape)}` +
        (shown !== output.data ? `\n\nbits:\n${formatNested(output.data, output.shape)}` : '') +
        (maxIndices ? `\n\nmaxIndices: int32 ${fmtShape(maxIndices.shape)}\n${formatNested(maxIndices.data, maxIndices.shape)}` : '');
  }

  /** Under the example picker: where it is from, and whether the output is the documented one. */
  function note(output, error) {
    const box = $('#example-note');
    if (!preset) return;
    const url = preset.seed?.url ?? preset.url;
    const from = url
      ? ['From ', el('a', { href: url, target: '_blank', rel: 'noopener' }, preset.source)]
      : ['A demo starter (not from the specifications)'];
    if (edited) {
      box.replaceChildren(...from, ', edited.');
      return;
    }
    const exp = preset.seed?.expected ?? preset.expected;
    if (!exp) {
      box.replaceChildren(...from, '.');
      return;
    }
    const problem = error ? 'the call failed' : compare(output, exp);
    const what = !exp.data ? `the documented shape ${fmtShape(exp.shape)} (values checked against common/reference.mjs on load)`
      : preset.seed || (url && !preset.byHand) ? 'the documented output' : 'the output worked out by hand';
    box.replaceChildren(...from, ': ', el('span', { class: problem ? 'bad' : 'good' },
      problem ? `✗ differs from ${what}: ${problem}` : `✓ matches ${what}`));
  }

  /**
   * Which data and index cells each output cell came from, and the colours. With a quantized
   * table, the grids drawn from it (the dequantized table: the same positions as the codes; the
   * scales and zero points: each code's block) are linked through the code each output read.
   */
  function link(call, output, prov, names, quant) {
    const { src, unitOf, indexElements } = prov;
    // role -> (data flat -> that grid's flat): the grids that follow the data's positions
    const via = { data: (d) => d };
    if (quant) Object.assign(via, { table: (d) => d, scales: quant.blockOf, zp: quant.blockOf });
    const outsOf = Object.fromEntries(Object.keys(via).map((r) => [r, new Map()])); // role -> flat -> output positions
    outsOf.indices = new Map();
    for (let p = 0; p < src.length; p++) {
      if (src[p] >= 0) for (const [r, f] of Object.entries(via)) push(outsOf[r], f(src[p]), p);
      for (const e of indexElements(p)) push(outsOf.indices, e, p);
    }
    const paintFrom = (outs) => {
      if (!outs) return null;
      const units = new Set(outs.map(unitOf));
      return { hue: unitHue(unitOf(outs[0])), count: units.size };
    };
    const paint = {
      out: (p) => (src[p] < 0 ? { zero: true } : { hue: unitHue(unitOf(p)) }),
      indices: (e) => {
        const outs = outsOf.indices.get(e);
        return outs ? { hue: unitHue(unitOf(outs[0])) } : null;
      },
    };
    for (const r of Object.keys(via)) paint[r] = (d) => paintFrom(outsOf[r].get(d));
    return { call, output, prov, names, quant, via, outsOf, paint, cells: null, grids: null };
  }

  /** The hover text of output element p of a quantized call: its value, worked out. */
  function quantText(p) {
    const { prov, quant, grids } = links;
    const where = prov.describe(p, { data: 'codes' });
    const d = prov.src[p];
    if (d < 0) return where;
    const s = quant.blockOf(d);
    const zp = quant.zeroPoints ? quant.zeroPoints[s] : quant.defaultZp;
    const value = fmtNum(grids.out.values[p]);
    return `${where}: (q ${quant.codes[d]} − zero point ${zp}${quant.zeroPoints ? '' : ' (default)'}) × scale ${fmtNum(quant.scales[s])} = ${value}` +
      ` (block [${unravel(s, quant.scaleShape).join(', ')}])`;
  }

  let lit = [];
  let numbered = []; // cells a bag's hover numbered (data-order), to clear
  function hover(cell) {
    for (const c of lit) c.classList.remove('hl', 'hl-self', 'unit', 'won', 'skip-mark');
    for (const c of numbered) delete c.dataset.order;
    lit = [];
    numbered = [];
    view.picture.classList.toggle('hovering', Boolean(cell && links));
    const counts = { data: 0, indices: 0, out: 0 };
    if (!cell || !links) {
      Object.assign(view.picture.dataset, { hlData: 0, hlIndices: 0, hlOut: 0, hlScales: 0, hlZp: 0, hlTable: 0, hlUpdates: 0, ...NO_BAG_MARKS });
      return;
    }
    const role = cell.dataset.role;
    const flat = Number(cell.dataset.flat);
    if (links.scatter) return hoverScatter(cell, role, flat);
    if (links.bag) return hoverBag(cell, role, flat);
    const { prov, cells, grids, via } = links;
    let outs;
    let text;
    if (role === 'out') {
      outs = [flat];
      text = links.quant ? quantText(flat) : prov.describe(flat, links.names);
    } else {
      outs = links.outsOf[role]?.get(flat) ?? [];
      const g = grids[role];
      const label = `${g.name ?? g.label}[${unravel(flat, g.shape).join(', ')}] = ${fmtNum(g.values[flat])}`;
      const where = outs.slice(0, 6).map((p) => `[${unravel(p, links.output.shape).join(', ')}]`).join(', ');
      text = outs.length ? `${label} → output ${where}${outs.length > 6 ? ` and ${outs.length - 6} more` : ''}` : `${label}: not gathered`;
    }
    const mark = (kind, f) => {
      const c = cells[kind]?.get(f);
      if (c && !c.classList.contains('hl')) { c.classList.add('hl'); lit.push(c); counts[kind] = (counts[kind] ?? 0) + 1; }
    };
    if (role === 'out') { // the rest of the block (slice) this output element belongs to
      const u = prov.unitOf(flat);
      for (let q = u * prov.block; q < (u + 1) * prov.block && q < prov.src.length; q++) {
        const from = prov.src[q] >= 0 ? Object.entries(via).map(([r, f]) => cells[r]?.get(f(prov.src[q]))) : [];
        for (const c of [cells.out.get(q), ...from]) {
          if (c && !c.classList.contains('unit')) { c.classList.add('unit'); lit.push(c); }
        }
      }
    }
    for (const p of outs) {
      mark('out', p);
      if (prov.src[p] >= 0) for (const [r, f] of Object.entries(via)) mark(r, f(prov.src[p]));
      for (const e of prov.indexElements(p)) mark('indices', e);
    }
    cell.classList.add('hl', 'hl-self');
    if (!lit.includes(cell)) lit.push(cell);
    view.info.textContent = text;
    Object.assign(view.picture.dataset, {
      hlData: counts.data, hlIndices: counts.indices, hlOut: counts.out,
      hlScales: counts.scales ?? 0, hlZp: counts.zp ?? 0, hlTable: counts.table ?? 0, hlUpdates: 0, ...NO_BAG_MARKS,
    });
  }

  /**
   * A fused gather-reduce's hover: what lib/bag-view.mjs says the cell lights (its bag's rows as
   * 'unit', the elements reduced as 'hl'), each reduced entry numbered in the order it was reduced
   * (a row read twice carries both numbers), padding marked skipped, max's winner marked; 'hl'
   * counted by grid.
   */
  function hoverBag(cell, role, flat) {
    const { marks, text } = links.bag.hover(role, flat);
    const counts = { data: 0, indices: 0, out: 0, weights: 0, segments: 0, bags: 0, maxidx: 0, grad: 0 };
    for (const m of marks) {
      const c = links.cells[m.role]?.get(m.flat);
      if (!c) continue;
      if (!lit.includes(c)) lit.push(c);
      if (m.unit) { c.classList.add('unit'); continue; }
      if (!c.classList.contains('hl')) { c.classList.add('hl'); counts[m.role]++; }
      if (m.skip) c.classList.add('skip-mark');
      if (m.won) c.classList.add('won');
      if (m.order) {
        c.dataset.order = c.dataset.order ? `${c.dataset.order},${m.order}` : m.order;
        numbered.push(c);
      }
    }
    cell.classList.add('hl-self');
    if (!lit.includes(cell)) lit.push(cell);
    view.info.textContent = text;
    Object.assign(view.picture.dataset, {
      hlData: counts.data, hlIndices: counts.indices, hlOut: counts.out, hlUpdates: 0, hlScales: 0, hlZp: 0, hlTable: 0,
      hlWeights: counts.weights, hlSegments: counts.segments, hlBags: counts.bags, hlMaxidx: counts.maxidx, hlGrad: counts.grad,
    });
  }

  /** A scatter's hover: what lib/scatter-view.mjs says the cell lights, counted by grid. */
  function hoverScatter(cell, role, flat) {
    const { marks, text } = links.scatter.hover(role, flat);
    const counts = { data: 0, indices: 0, updates: 0, out: 0 };
    for (const [r, at] of marks) {
      const c = links.cells[r]?.get(at);
      if (c && !c.classList.contains('hl')) { c.classList.add('hl'); lit.push(c); counts[r]++; }
    }
    cell.classList.add('hl-self');
    view.info.textContent = text;
    Object.assign(view.picture.dataset, {
      hlData: counts.data, hlIndices: counts.indices, hlOut: counts.out, hlUpdates: counts.updates, hlScales: 0, hlZp: 0, hlTable: 0,
      ...NO_BAG_MARKS,
    });
  }

  return {
    presets: list,
    select,
    /** The call shown now (tensors as the op got them), or null after a parse error. */
    call: () => lastCall,
    /** embeddingBag: picks output row `row`'s gradient (null: none), as the picker does. */
    gradRow: (row) => pickGradRow(row),
    /** What the page shows now, for tests: the output's values as numbers. */
    state: () => ({
      presetId: current.presetId,
      error: current.error,
      output: current.output && { data: Array.from(current.output.data, Number), shape: current.output.shape.slice() },
      // embeddingBag's with returnIndices
      maxIndices: current.output?.maxIndices
        ? { data: Array.from(current.output.maxIndices.data, Number), shape: current.output.maxIndices.shape.slice() } : null,
      // embeddingBag's backward for the picked output row: the gradient for the table
      gradient: current.grad
        ? { row: current.grad.row, data: Array.from(current.grad.result.data), shape: current.grad.result.shape.slice() } : null,
    }),
  };
}

/** A tensor's values as text: nested by its shape, or a flat list when the array holds packed
 * 4-bit codes (two a byte, so fewer values than the shape has elements). */
function formatValues(t) {
  return t.data.length === numel(t.shape) ? formatNested(t.data, t.shape) : formatNested(t.data, [t.data.length]);
}

// The hover counts only a fused gather-reduce's picture has.
const NO_BAG_MARKS = { hlWeights: 0, hlSegments: 0, hlBags: 0, hlMaxidx: 0, hlGrad: 0 };

function push(map, k, v) {
  const a = map.get(k);
  if (a) a.push(v); else map.set(k, [v]);
}
