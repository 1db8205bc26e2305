// The editor's fields of the fused gather-reduce (index.html's #bag-fields): the bags' (segments')
// form and values, numSegments, and how they are reduced: embeddingBag's mode, per-sample weights,
// padding and returnIndices, segmentReduce's reduction and initial value (its axis is the
// Attributes' axis). Empty optional fields are options left out.
import { $, el } from './dom.mjs';
import { ParseError, parseValues } from './parse.mjs';
import { FORMS, FORM_LABEL, MODES, REDUCTIONS, bagAttrs } from './bag-ops.mjs';

const SEGMENTS_NAME = { offsets: 'offsets', 'offsets+last': 'offsets', lengths: 'lengths', ids: 'segmentIds' };

/** Wires the fields; onInput runs on every edit. Returns { set(attrs.bag), read() -> attrs.bag, sync(op) }. */
export function createBagEditor(onInput) {
  const f = {
    form: $('#bag-form'), segments: $('#bag-segments'), numSegments: $('#bag-numsegments'),
    mode: $('#bag-mode'), weights: $('#bag-weights'), paddingIdx: $('#bag-padding'), returnIndices: $('#bag-returnindices'),
    reduce: $('#bag-reduce'), initial: $('#bag-initial'),
  };
  for (const m of MODES) f.mode.append(el('option', { value: m }, m));
  for (const r of REDUCTIONS) f.reduce.append(el('option', { value: r }, r));
  for (const input of Object.values(f)) input.addEventListener('input', onInput);
  // the form changes which fields apply: show them at once
  f.form.addEventListener('input', () => showForm());
  let op = null;

  /** The forms of `op` in the form select (keeping the chosen one where the op has it). */
  function sync(newOp) {
    if (newOp === op) return showForm();
    op = newOp;
    const forms = Object.keys(FORMS[op] ?? {});
    const value = f.form.value;
    f.form.replaceChildren(...forms.map((k) => el('option', { value: k }, FORM_LABEL[k])));
    if (forms.includes(value)) f.form.value = value;
    $('#bag-legend').textContent = op === 'segmentReduce' ? 'Segments' : 'Bags';
    showForm();
  }

  function showForm() {
    const form = f.form.value;
    $('#bag-segments-label').textContent = SEGMENTS_NAME[form] ?? '';
    f.segments.closest('.field').hidden = form === 'fixed';
    f.numSegments.closest('.field').hidden = form !== 'ids';
  }

  function set(b) {
    f.form.value = b.form;
    f.segments.value = b.segments.join(', ');
    f.numSegments.value = b.numSegments ?? '';
    f.mode.value = b.mode;
    f.weights.value = b.weights ? b.weights.join(', ') : '';
    f.paddingIdx.value = b.paddingIdx ?? '';
    f.returnIndices.value = String(b.returnIndices);
    f.reduce.value = b.reduce;
    f.initial.value = b.initial ?? '';
    showForm();
  }

  // An optional integer (or number) field: null when empty.
  const optional = (name, input, integer = true) => {
    const text = input.value.trim();
    if (text === '') return null;
    const v = Number(text);
    if (text !== 'NaN' && Number.isNaN(v)) throw new ParseError(`${name}: '${text}' is not a number`);
    if (integer && !Number.isInteger(v)) throw new ParseError(`${name}: '${text}' is not an integer`);
    return v;
  };

  function read() {
    const form = f.form.value;
    const weights = f.weights.value.trim() === '' ? null : Array.from(parseValues('perSampleWeights', f.weights.value, Float64Array));
    return {
      form,
      segments: form === 'fixed' ? [] : Array.from(parseValues(SEGMENTS_NAME[form], f.segments.value, Int32Array)),
      numSegments: form === 'ids' ? optional('numSegments', f.numSegments) : null,
      mode: f.mode.value,
      weights: op === 'embeddingBag' ? weights : null,
      paddingIdx: op === 'embeddingBag' ? optional('paddingIdx', f.paddingIdx) : null,
      returnIndices: op === 'embeddingBag' && f.returnIndices.value === 'true',
      reduce: f.reduce.value,
      initial: op === 'segmentReduce' ? optional('initial', f.initial, false) : null,
    };
  }

  // the ops' defaults (mode 'mean', as torch), until an example sets them
  sync('embeddingBag');
  set(bagAttrs('embeddingBag'));
  return { set, read, sync };
}
