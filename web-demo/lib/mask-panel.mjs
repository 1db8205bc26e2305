// The masks section (index.html's <section id="masks">, filled here): an example or an op of the
// four whose output is as long as a mask's true elements (nonZero, booleanMask, compress,
// maskedScatter), editable x, mask (compress: condition), source and options, the output
// recomputed on every edit, and the picture: the mask drawn over x, and every output element
// pointing back to where it came from (lib/mask-view.mjs; hover, or click to pin). Also the
// self-check of every example against its document (or the output worked out by hand) and
// common/reference-mask.mjs.
//
// For tests: <section id="masks" data-state="ok"|"error"|"pending" data-op data-preset>, the
// picture's data-hl-x, data-hl-mask, data-hl-source, data-hl-out (cells lit), and createMaskPanel's
// { presets, select(id), state(), call() }.
import { $, el, fmtShape } from './dom.mjs';
import { renderGrid } from './grid.mjs';
import { DATA_TYPES, ParseError, dtypeName, formatNested, parseShape, parseValues } from './parse.mjs';
import { compare } from './selfcheck.mjs';
import { fillTensorFieldset } from './tensor-fields.mjs';
import { MASK_EXAMPLES } from './mask-examples.mjs';
import { maskMap } from './mask-map.mjs';
import { MASK_ATTRS, MASK_NAMES, MASK_OPS, callMask, maskAttrs, maskText } from './mask-ops.mjs';
import { maskView } from './mask-view.mjs';

const OP_LABEL = {
  nonZero: 'nonZero (ONNX NonZero, torch.nonzero, tf.where)',
  booleanMask: 'booleanMask (tf.boolean_mask, torch.masked_select)',
  compress: 'compress (ONNX Compress, numpy.compress)',
  maskedScatter: 'maskedScatter (Tensor.masked_scatter)',
};
const ROLES = ['x', 'mask', 'source', 'out'];

// The section's own rules, beside web-demo/style.css's grids (the mask over x; unused source values).
const CSS = `
#masks .cell.mask-true { border-width: 2px; border-color: #39424c; font-weight: 600; }
#masks .cell.mask-false { color: #98a2ad; }
#masks .cell.replaced { text-decoration: line-through; }
#masks .cell.unused { color: #98a2ad; border-style: dashed; }
#masks .cell.pinned { box-shadow: 0 0 0 3px #0b6e99; }
#masks .role-out .cell { cursor: pointer; }
`;

export const maskPresets = () => MASK_EXAMPLES.map((ex, i) => ({ id: `mask-${i}`, ...ex }));

/** The section's markup (index.html holds only the empty section). */
function build(root) {
  const select = (id) => el('select', { id });
  const fs = (kind, name, title, rows, ops) => el('fieldset', { 'data-tensor': kind, 'data-name': name, 'data-title': title, 'data-rows': rows, 'data-mask-op': ops });
  root.replaceChildren(
    el('h2', { id: 'masks-h' }, 'Masks: nonZero, booleanMask, compress, maskedScatter'),
    el('p', { class: 'hint' }, 'The ops whose output is as long as a mask\'s true (non-zero) elements. The mask is drawn over x: ',
      'the elements it keeps (maskedScatter: replaces) outlined, the others grey. Hover an output element to see where it came ',
      'from; click to keep it lit.'),
    el('div', { class: 'workbench' },
      el('form', { id: 'mask-editor', class: 'editor', 'aria-label': 'Mask call', autocomplete: 'off', onsubmit: 'return false' },
        el('label', { class: 'field' }, 'Example ', select('mask-example')),
        el('p', { id: 'mask-example-note', class: 'example-note', 'aria-live': 'polite' }),
        el('label', { class: 'field' }, 'Op ', select('mask-op')),
        fs('mask-x', 'x', 'Tensor', 3, 'nonZero booleanMask compress maskedScatter'),
        fs('mask-m', 'mask', 'Mask', 2, 'booleanMask compress maskedScatter'),
        fs('mask-s', 'source', 'Source', 2, 'maskedScatter'),
        el('fieldset', { 'data-mask-op': 'nonZero booleanMask compress' },
          el('legend', {}, 'Options'),
          el('div', { class: 'row' },
            el('label', { class: 'field', 'data-mask-op': 'booleanMask compress' }, 'axis ',
              el('input', { id: 'mask-axis', type: 'text', spellcheck: 'false' })),
            el('label', { class: 'field', 'data-mask-op': 'nonZero' }, 'layout ', select('mask-layout')),
            el('label', { class: 'field', 'data-mask-op': 'nonZero' }, 'indexType ', select('mask-indextype')))),
        el('p', { class: 'hint' }, 'Values: nested brackets or a flat list; a mask may say true and false. ',
          'compress without an axis flattens its input; booleanMask\'s axis defaults to 0. A source has x\'s type.')),
      el('div', { class: 'view' },
        el('p', { class: 'call' }, el('code', { id: 'mask-call' })),
        el('div', { id: 'mask-error', class: 'op-error', role: 'alert', hidden: true }),
        el('div', { id: 'mask-picture', class: 'picture roomy', 'aria-label': 'x, mask, source and output as grids' }),
        el('p', { id: 'mask-info', class: 'hover-info', 'aria-live': 'polite' }),
        el('p', { class: 'legend' }, 'Outlined in x: the elements the mask keeps (nonZero: the non-zero ones; maskedScatter: ',
          'those it replaces, struck out); grey: the others. A kept slice, a non-zero element\'s coordinates or a source value ',
          'has one colour in every grid. Dashed in the source: values not used (the mask has fewer true elements).'),
        el('p', { class: 'legend' }, 'How the page knows: the library itself. The same call over a tensor of x\'s shape whose ',
          'values are 1 + each element\'s position names the element of x each output element is (maskedScatter: over zeros, ',
          'with a source of 1 + each value\'s position); nonZero of the mask says which of its elements are true.'),
        el('details', { open: true }, el('summary', {}, 'Output as text'), el('pre', { id: 'mask-out-text' })))),
  );
  for (const f of root.querySelectorAll('fieldset[data-tensor]')) fillTensorFieldset(f);
}

/** A float32's shortest decimal that reads back as the same float32 (0.3552, not 0.35519999265670776). */
function short32(v) {
  for (let p = 1; p < 10; p++) {
    const d = Number(v.toPrecision(p));
    if (Math.fround(d) === v) return d;
  }
  return v;
}
/** Values as text: nested by shape, float32 in its shortest form. */
const asText = (t) => formatNested(t.data instanceof Float32Array ? Array.from(t.data, (v) => (Number.isFinite(v) && v !== 0 ? short32(v) : v)) : t.data, t.shape);

/** Mask values may say true and false (as torch and numpy print them). */
const booleans = (text) => text.replace(/\btrue\b/gi, '1').replace(/\bfalse\b/gi, '0');

export function createMaskPanel(api) {
  const root = $('#masks');
  if (!document.querySelector('style[data-masks]')) document.head.append(el('style', { 'data-masks': '' }, CSS));
  build(root);
  const list = maskPresets();
  const f = {
    example: $('#mask-example'), op: $('#mask-op'),
    xValues: $('#mask-x-values'), xShape: $('#mask-x-shape'), xType: $('#mask-x-type'),
    mValues: $('#mask-m-values'), mShape: $('#mask-m-shape'), mType: $('#mask-m-type'),
    sValues: $('#mask-s-values'), sShape: $('#mask-s-shape'), sType: $('#mask-s-type'),
    axis: $('#mask-axis'), layout: $('#mask-layout'), indexType: $('#mask-indextype'),
  };
  const view = { call: $('#mask-call'), error: $('#mask-error'), picture: $('#mask-picture'), info: $('#mask-info'), outText: $('#mask-out-text') };
  for (const op of MASK_OPS) {
    const group = el('optgroup', { label: op });
    for (const p of list.filter((x) => x.op === op)) group.append(el('option', { value: p.id }, `${p.byHand && !p.url ? '★ ' : ''}${p.title} · ${p.source}`));
    f.example.append(group);
    f.op.append(el('option', { value: op }, OP_LABEL[op]));
  }
  for (const k of Object.keys(DATA_TYPES)) {
    f.xType.append(el('option', { value: k }, k));
    f.mType.append(el('option', { value: k }, k));
    f.sType.append(el('option', { value: k }, k));
  }
  f.sType.disabled = true; // the source has x's type
  for (const v of ['onnx', 'torch']) f.layout.append(el('option', { value: v }, v));
  for (const v of ['int32', 'int64']) f.indexType.append(el('option', { value: v }, v));

  let current = { presetId: null, output: null, error: null };
  let lastCall = null;
  let preset = null;
  let edited = false;
  let links = null; // { view, cells } of the picture drawn
  let pinned = null; // the cell a click pinned
  let timer = 0;

  for (const input of Object.values(f)) if (input !== f.example) input.addEventListener('input', schedule);
  f.example.addEventListener('change', () => select(f.example.value));
  view.picture.addEventListener('pointerover', (e) => hover(e.target.closest?.('.cell')));
  view.picture.addEventListener('focusin', (e) => hover(e.target.closest?.('.cell')));
  view.picture.addEventListener('pointerleave', () => hover(pinned));
  view.picture.addEventListener('click', (e) => {
    const cell = e.target.closest?.('.cell');
    pinned?.classList.remove('pinned');
    pinned = cell && cell !== pinned ? cell : null;
    pinned?.classList.add('pinned');
    hover(pinned ?? cell);
  });

  const setTensor = (values, shape, type, t) => {
    values.value = t ? asText(t) : '';
    shape.value = t ? t.shape.join(', ') : '';
    type.value = t ? dtypeName(t.data) : type.value;
    values.rows = Math.min(8, Math.max(2, values.value.split('\n').length));
  };

  function select(id) {
    const p = list.find((x) => x.id === id) ?? list[0];
    f.example.value = p.id;
    f.op.value = p.op;
    setTensor(f.xValues, f.xShape, f.xType, p.x);
    setTensor(f.mValues, f.mShape, f.mType, p.mask);
    setTensor(f.sValues, f.sShape, f.sType, p.src);
    const attrs = maskAttrs(p.opts);
    f.axis.value = attrs.axis === null ? '' : String(attrs.axis);
    f.layout.value = attrs.layout;
    f.indexType.value = attrs.indexType;
    preset = p;
    edited = false;
    current.presetId = p.id;
    root.dataset.preset = p.id;
    recompute();
  }

  function schedule() {
    clearTimeout(timer);
    edited = true;
    root.dataset.state = 'pending';
    timer = setTimeout(recompute, 0);
  }

  function read() {
    const op = f.op.value;
    const names = MASK_NAMES[op];
    const Type = DATA_TYPES[f.xType.value];
    const x = { data: parseValues(names.x, f.xValues.value, Type), shape: parseShape(`${names.x} shape`, f.xShape.value) };
    const mask = names.mask ? {
      data: parseValues(names.mask, booleans(f.mValues.value), DATA_TYPES[f.mType.value]),
      shape: parseShape(`${names.mask} shape`, f.mShape.value),
    } : null;
    f.sType.value = f.xType.value;
    const source = names.source ? {
      data: parseValues(names.source, f.sValues.value, Type), shape: parseShape(`${names.source} shape`, f.sShape.value),
    } : null;
    const text = f.axis.value.trim();
    if (text !== '' && !/^[+-]?\d+$/.test(text)) throw new ParseError(`axis: '${text}' is not an integer`);
    const attrs = { axis: text === '' ? null : Number(text), layout: f.layout.value, indexType: f.indexType.value };
    return { op, x, mask, source, attrs };
  }

  function recompute() {
    clearTimeout(timer);
    const op = f.op.value;
    root.dataset.op = op;
    for (const node of root.querySelectorAll('[data-mask-op]')) node.hidden = !node.dataset.maskOp.split(' ').includes(op);
    $('#mask-x-label').textContent = MASK_NAMES[op].x;
    $('#mask-m-label').textContent = MASK_NAMES[op].mask;
    $('#mask-s-label').textContent = MASK_NAMES[op].source;
    f.axis.placeholder = op === 'compress' ? 'none: flatten' : '0';
    lastCall = null;
    let call;
    try {
      call = lastCall = read();
    } catch (err) {
      return show({ error: err });
    }
    view.call.textContent = maskText(call);
    let output;
    try {
      output = callMask(api, call);
    } catch (err) {
      return show({ error: err, call });
    }
    let mv;
    try {
      mv = maskView(call, output, maskMap(api, call, output));
    } catch (err) { // the call was accepted, so this is the page's own failure: say so
      return show({ error: err, call });
    }
    return show({ call, output, mv });
  }

  function show({ error, call, output, mv }) {
    current = { ...current, output: output ?? null, error: error ? `${error.name}: ${error.message}` : null };
    view.error.hidden = !error;
    view.error.replaceChildren(...(error ? [el('strong', {}, error.name), ' ', error.message] : []));
    root.dataset.state = error ? 'error' : 'ok';
    note(output, error);
    view.info.textContent = error ? '' : 'Hover (or click) a cell to see where it came from or went.';
    pinned = null;
    const figs = mv ? mv.specs.map((g) => ({ sign: g.sign, ...renderGrid(g) })) : [];
    links = mv ? { view: mv, cells: Object.fromEntries(mv.specs.map((g, i) => [g.role, figs[i].cells])) } : null;
    view.picture.replaceChildren(...figs.map((g) => (!g.sign ? g.node
      : el('div', { class: 'operand' }, el('span', { class: 'arrow', 'aria-hidden': 'true' }, g.sign), g.node))));
    hover(null);
    view.outText.textContent = !output ? '' : `${dtypeName(output.data)} ${fmtShape(output.shape)}\n${asText(output)}`;
  }

  /** Under the example picker: where it is from, and whether the output is the documented one. */
  function note(output, error) {
    const box = $('#mask-example-note');
    if (!preset) return;
    const from = preset.url ? ['From ', el('a', { href: preset.url, target: '_blank', rel: 'noopener' }, preset.source)]
      : ['A demo starter (not from the specifications)'];
    if (edited) return box.replaceChildren(...from, ', edited.');
    const problem = error ? 'the call failed' : compare(output, preset.expected);
    const what = preset.byHand ? 'the output worked out by hand' : 'the documented output';
    box.replaceChildren(...from, ': ', el('span', { class: problem ? 'bad' : 'good' },
      problem ? `✗ differs from ${what}: ${problem}` : `✓ matches ${what}`));
  }

  let lit = [];
  function hover(cell) {
    for (const c of lit) c.classList.remove('hl', 'hl-self');
    lit = [];
    const counts = Object.fromEntries(ROLES.map((r) => [r, 0]));
    const active = Boolean(cell && links && view.picture.contains(cell));
    view.picture.classList.toggle('hovering', active);
    if (active) {
      const { marks, text } = links.view.hover(cell.dataset.role, Number(cell.dataset.flat));
      for (const [role, flat] of marks) {
        const c = links.cells[role]?.get(flat);
        if (c && !c.classList.contains('hl')) { c.classList.add('hl'); lit.push(c); counts[role]++; }
      }
      cell.classList.add('hl-self');
      if (!lit.includes(cell)) lit.push(cell);
      view.info.textContent = text;
    }
    Object.assign(view.picture.dataset, { hlX: counts.x, hlMask: counts.mask, hlSource: counts.source, hlOut: counts.out });
  }

  return {
    presets: list,
    select,
    /** The call shown now (tensors as the op got them), or null after a parse error. */
    call: () => lastCall,
    /** What the section shows now, for tests: the output's values as numbers. */
    state: () => ({
      presetId: current.presetId,
      op: f.op.value,
      error: current.error,
      output: current.output && { data: Array.from(current.output.data, Number), shape: current.output.shape.slice() },
      type: current.output && dtypeName(current.output.data),
    }),
  };
}

/**
 * [{ title, source, op, pass, problem }] for every mask example: the library's output against the
 * document's (or the one worked out by hand), and against common/reference-mask.mjs's, value for
 * value and of the same array type.
 */
export function maskCheck(api, refMaskOps) {
  return maskPresets().map((p) => {
    let problem = null;
    try {
      const call = { op: p.op, x: p.x, mask: p.mask ?? null, source: p.src ?? null, attrs: maskAttrs(p.opts) };
      const out = callMask(api, call);
      const r = callMask(refMaskOps, call);
      problem = compare(out, p.expected);
      if (problem) problem = `differs from ${p.byHand ? 'the output worked out by hand' : 'the documented output'}: ${problem}`;
      else if (out.data.constructor !== r.data.constructor) problem = `a ${out.data.constructor.name}, common/reference-mask.mjs a ${r.data.constructor.name}`;
      else {
        const vsRef = compare(out, { data: r.data, shape: Array.from(r.shape) });
        if (vsRef) problem = `differs from common/reference-mask.mjs: ${vsRef}`;
      }
    } catch (err) {
      problem = `threw ${err?.name}: ${err?.message}`;
    }
    return { title: p.title, source: p.source, op: p.op, pass: !problem, problem };
  });
}
