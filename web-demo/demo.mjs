// wasm-gather web demo: initialise the library, run every seed example through
// it and show inputs, output, expected result and a pass/fail mark.
//
// For automated checks the final state is put on <body>:
//   data-status = "loading" | "running" | "done" | "error"
//   data-passed, data-total, data-variant, data-threads, data-simd, data-isolated

const $ = (sel) => document.querySelector(sel);

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') node.className = v;
    else node.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue;
    node.append(c instanceof Node ? c : String(c));
  }
  return node;
}

// ---------------------------------------------------------------- formatting

const DTYPES = {
  Float32Array: 'float32', Float64Array: 'float64',
  Int8Array: 'int8', Int16Array: 'int16', Int32Array: 'int32', BigInt64Array: 'int64',
  Uint8Array: 'uint8', Uint8ClampedArray: 'uint8', Uint16Array: 'uint16', Uint32Array: 'uint32',
  BigUint64Array: 'uint64', Array: 'array',
};
const dtypeOf = (data) => (data && DTYPES[data.constructor?.name]) || data?.constructor?.name || typeof data;

function fmtNum(v) {
  if (typeof v === 'bigint') return v.toString();
  if (typeof v !== 'number') return String(v);
  if (Number.isInteger(v)) return Object.is(v, -0) ? '-0' : String(v);
  if (!Number.isFinite(v)) return String(v);
  return String(Number(v.toPrecision(6)));
}

const EDGE = 3;      // elements shown at each end of a long axis
const LONG_AXIS = 10; // axes longer than this are abbreviated with "…"

function axisIndices(n) {
  if (n <= LONG_AXIS) return Array.from({ length: n }, (_, i) => i);
  return [...Array.from({ length: EDGE }, (_, i) => i), null,
    ...Array.from({ length: EDGE }, (_, i) => n - EDGE + i)];
}

/** Nested-array text for a flat buffer with a row-major shape (numpy style). */
export function formatTensor(data, shape) {
  const rank = shape.length;
  if (rank === 0) return fmtNum(data[0]);
  const strides = new Array(rank);
  let s = 1;
  for (let d = rank - 1; d >= 0; d--) { strides[d] = s; s *= shape[d]; }
  const size = s;
  if (data.length < size) return `⚠ ${data.length} values for shape [${shape}]`;

  // Right-align all shown values to a common width.
  const shown = [];
  const collect = (offset, d) => {
    for (const i of axisIndices(shape[d])) {
      if (i === null) continue;
      if (d === rank - 1) shown.push(fmtNum(data[offset + i]));
      else collect(offset + i * strides[d], d + 1);
    }
  };
  collect(0, 0);
  const width = Math.max(0, ...shown.map((t) => t.length));

  const rec = (offset, d) => {
    const idx = axisIndices(shape[d]);
    if (d === rank - 1) {
      return '[' + idx.map((i) => (i === null ? '…' : fmtNum(data[offset + i]).padStart(width))).join(', ') + ']';
    }
    const sep = ',' + '\n'.repeat(rank - d - 1) + ' '.repeat(d + 1);
    return '[' + idx.map((i) => (i === null ? '…' : rec(offset + i * strides[d], d + 1))).join(sep) + ']';
  };
  return rec(0, 0);
}

function isTensor(x) {
  return x && typeof x === 'object' && Array.isArray(x.shape) && x.data !== undefined;
}

function tensorFigure(label, t, extraClass = '') {
  const dtype = isTensor(t) && !Array.isArray(t.data) ? `${dtypeOf(t.data)} ` : '';
  const meta = isTensor(t) ? `${dtype}[${t.shape.join(', ')}]` : '';
  return el('figure', { class: `tensor ${extraClass}`.trim() },
    el('figcaption', {}, `${label} `, el('span', { class: 'meta' }, meta)),
    el('pre', {}, isTensor(t) ? formatTensor(t.data, t.shape) : JSON.stringify(t)));
}

function fmtOpts(opts) {
  if (!opts || Object.keys(opts).length === 0) return '';
  const parts = Object.entries(opts).map(([k, v]) => `${k}: ${JSON.stringify(v)}`);
  return `{ ${parts.join(', ')} }`;
}

function callText(ex) {
  const names = ex.op === 'gather' ? ['input', String(ex.args[1]), 'index'] : ['params', 'indices'];
  const o = fmtOpts(ex.opts);
  return `${ex.op}(${names.join(', ')}${o ? ', ' + o : ''})`;
}

// ---------------------------------------------------------------- checking

function sameValue(a, b) {
  const x = typeof a === 'bigint' ? Number(a) : a;
  const y = typeof b === 'bigint' ? Number(b) : b;
  return x === y || (Number.isNaN(x) && Number.isNaN(y));
}

/** Returns null when `out` matches `expected`, else a description of the mismatch. */
function compare(out, expected) {
  if (!isTensor(out)) return `result is not a tensor: ${String(out)}`;
  const shape = Array.from(out.shape);
  if (shape.length !== expected.shape.length || shape.some((d, i) => d !== expected.shape[i])) {
    return `shape [${shape}] ≠ expected [${expected.shape}]`;
  }
  if (expected.data === undefined || expected.data === null) return null; // shape-only example
  const size = shape.reduce((a, b) => a * b, 1);
  if (out.data.length !== size) return `data has ${out.data.length} values, shape needs ${size}`;
  if (expected.data.length !== size) return `expected data has ${expected.data.length} values, shape needs ${size}`;
  for (let i = 0; i < size; i++) {
    if (!sameValue(out.data[i], expected.data[i])) {
      return `value ${i}: got ${fmtNum(out.data[i])}, expected ${fmtNum(expected.data[i])}`;
    }
  }
  return null;
}

const REF_FN = { gather: 'refGather', gatherND: 'refGatherND', take: 'refTake' };

function runExample(api, ex, ref) {
  const fn = api[ex.op];
  if (typeof fn !== 'function') return { problem: `unknown op "${ex.op}"` };
  const expectsError = ex.expected && (ex.expected.error || ex.expected.throws);
  let out;
  try {
    out = fn(...ex.args, ex.opts);
  } catch (err) {
    if (expectsError) {
      const want = typeof expectsError === 'string' ? expectsError : null;
      const ok = !want || err?.name === want || err?.constructor?.name === want;
      return { error: err, problem: ok ? null : `threw ${err?.name}, expected ${want}` };
    }
    return { error: err, problem: `threw ${err?.name ?? 'error'}: ${err?.message ?? err}` };
  }
  if (expectsError) return { out, problem: 'expected an error, but the call returned' };
  let problem = compare(out, ex.expected);
  if (!problem && ex.checkAgainstReference) {
    // Shape-only example: the doc gives no data, so check the values against the plain-JS
    // reference implementation in tests/reference.mjs.
    const r = ref[REF_FN[ex.op]](...ex.args, ex.opts);
    const p = compare(out, { data: r.data, shape: Array.from(r.shape) });
    if (p) problem = `differs from tests/reference.mjs: ${p}`;
  }
  return { out, problem };
}

function renderExample(ex, res, n) {
  const pass = !res.problem;
  const tensors = el('div', { class: 'tensors' });
  const argLabels = ex.op === 'gather' ? ['input', null, 'index'] : ['params', 'indices'];
  ex.args.forEach((a, i) => { if (isTensor(a)) tensors.append(tensorFigure(argLabels[i] ?? `arg ${i}`, a)); });
  if (res.out) tensors.append(tensorFigure('output', res.out, 'out'));
  if (ex.expected && ex.expected.shape) {
    const exp = ex.expected.data ? { data: ex.expected.data, shape: ex.expected.shape } : null;
    tensors.append(exp
      ? tensorFigure('expected', exp)
      : el('figure', { class: 'tensor' },
        el('figcaption', {}, 'expected ', el('span', { class: 'meta' }, `shape [${ex.expected.shape.join(', ')}]`)),
        el('pre', {}, ex.checkAgainstReference
          ? '(shape-only example;\n values checked against\n tests/reference.mjs)'
          : '(shape-only example)')));
  }
  return el('article', { class: `example ${pass ? 'pass' : 'fail'}`, id: `ex-${n}`, 'data-pass': String(pass) },
    el('div', { class: 'example-head' },
      el('span', { class: 'mark' }, pass ? '✓ pass' : '✗ fail'),
      el('h3', {}, ex.title ?? `example ${n}`),
      ex.source ? el('span', { class: 'source' }, ex.source) : null),
    el('p', { class: 'call' }, callText(ex)),
    tensors,
    res.error && !res.problem ? el('p', { class: 'note' }, `threw ${res.error.name}: ${res.error.message}`) : null,
    res.problem ? el('p', { class: 'problem' }, res.problem) : null);
}

// ---------------------------------------------------------------- main

function showRuntime(rows) {
  const dl = $('#runtime-info');
  dl.replaceChildren(...Object.entries(rows).flatMap(([k, v]) => [el('dt', {}, k), el('dd', {}, String(v))]));
}

function fail(err) {
  const box = $('#error');
  box.hidden = false;
  box.textContent = `Error: ${err?.stack || err}`;
  $('#summary').textContent = 'not run';
  const st = $('#status-text');
  if (st) st.textContent = 'error';
  document.body.dataset.status = 'error';
  console.error(err);
}

async function main() {
  const params = new URLSearchParams(location.search);
  const initOpts = {};
  if (params.get('variant')) initOpts.variant = params.get('variant');
  if (params.get('threads')) initOpts.threads = Number(params.get('threads'));

  const [api, seeds, ref] = await Promise.all([
    import('../js/index.mjs'),
    import('../tests/seed-examples.mjs'),
    import('../tests/reference.mjs'),
  ]);
  const examples = seeds.seedExamples ?? seeds.default;
  if (!Array.isArray(examples)) throw new Error('tests/seed-examples.mjs does not export a seedExamples array');

  const t0 = performance.now();
  const info = await api.init(initOpts);
  const initMs = performance.now() - t0;
  const b = document.body.dataset;
  b.variant = info.variant;
  b.threads = String(info.threads);
  b.simd = String(info.simd);
  b.isolated = String(globalThis.crossOriginIsolated === true);
  showRuntime({
    variant: info.variant,
    threads: info.threads,
    simd: info.simd,
    crossOriginIsolated: globalThis.crossOriginIsolated === true,
    hardwareConcurrency: navigator.hardwareConcurrency ?? '?',
    'init time': `${initMs.toFixed(1)} ms`,
  });
  b.status = 'running';

  const list = $('#examples');
  let passed = 0;
  const results = [];
  const t1 = performance.now();
  examples.forEach((ex, i) => {
    const res = runExample(api, ex, ref);
    if (!res.problem) passed++;
    results.push({ title: ex.title, source: ex.source, op: ex.op, pass: !res.problem, problem: res.problem });
    list.append(renderExample(ex, res, i + 1));
  });
  const runMs = performance.now() - t1;

  const total = examples.length;
  const summary = $('#summary');
  summary.textContent = `${passed}/${total} examples match (${runMs.toFixed(1)} ms)`;
  summary.className = `summary ${passed === total ? 'all-pass' : 'some-fail'}`;
  window.__wasmGatherDemo = { info, passed, total, results };
  b.passed = String(passed);
  b.total = String(total);
  b.status = 'done';
}

main().catch(fail);
