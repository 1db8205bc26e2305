// The U part of docs/benchmarks.md's T section (bench/lib/report.mjs calls it): U1-U3 (a gradient
// step, tf.scatterND, the KV-cache write by tf.tensorScatterUpdate) with tfjs's stock kernels and
// with wasm-gather/tfjs on 'cpu' and 'wasm', from the T rows of those workloads: the medians, the
// speed-ups, the bounds measured beside them, and the targets, each with its measured value, met
// or not, and for a miss the bound that explains it where one does.
import { fmtBytes, fmtMs, fmtT, fmtX } from './report-scatter.mjs';

const BACKENDS = ['cpu', 'wasm'];
// A stock row whose note says it wrote into its input (bench/peers/tfjs-scatter.mjs: CPU_WRITES_INPUT).
const WRITES_INPUT = /writes into its input/;
const FIT_TARGET = 1000; // U1: wasm-gather/tfjs over stock tfjs-cpu's (fitted) gradient step
const NEAR = 1.25; // within this of a bound, a time is at it (these runs vary by about as much)
// Ratios of thousands as whole numbers, of thousandths with two significant digits.
const fmtR = (x) => (!Number.isFinite(x) ? fmtX(x) : x >= 100 ? `${Math.round(x).toLocaleString('en-US')}x`
  : x < 0.1 ? `${x.toPrecision(2)}x` : fmtX(x));

function uIndex(report) {
  const ids = report.uWorkloads.map((w) => w.id);
  const rows = report.results.filter((r) => r.suite === 'T' && ids.includes(r.workload));
  const row = (backend, variant, id) => rows.find((r) => r.family === 'tfjs-adapter' && r.backend === backend && r.variant === variant && r.workload === id);
  const time = (backend, variant, id) => { const r = row(backend, variant, id); return r && !r.error ? r.medianMs : undefined; };
  const bounds = (backend, variant, id) => rows.filter((r) => r.family === 'bound' && r.backend === backend && r.variant === variant && r.workload === id && !r.error);
  const bound = (...a) => bounds(...a)[0];
  const ratio = (backend, id) => time(backend, 'stock', id) / time(backend, 'adapter', id);
  return { ids, rows, row, time, bound, bounds, ratio };
}

// Why wasm-gather/tfjs is not faster than stock on (backend, id), from the bounds: the least a
// correct result takes, and on cpu the costs the adapter's path adds, each measured alone.
function missBound(ix, backend, id) {
  const s = ix.time(backend, 'stock', id), a = ix.time(backend, 'adapter', id);
  const result = ix.bound(backend, 'result', id), path = ix.bounds(backend, 'adapter path', id);
  if (!result) return 'no bound measured';
  const b = result.medianMs;
  const out = [s < b
    ? `stock's ${fmtT(s)} is below the least a correct result takes, ${fmtT(b)} (${result.impl}): it does not make one ` +
      `(${WRITES_INPUT.test(ix.row(backend, 'stock', id)?.note ?? '') ? '³' : 'its note'}), ` +
      `so the target lies beyond that bound; wasm-gather/tfjs takes ${fmtX(a / b)} of it`
    : `a correct result takes at least ${fmtT(b)} (${result.impl}): stock at ${fmtX(s / b)} of that bound, wasm-gather/tfjs at ${fmtX(a / b)}` +
      (a <= NEAR * b ? ': both at the bound, which is the copy a correct result makes' : '')];
  if (path.length) {
    const sum = path.reduce((t, r) => t + r.medianMs, 0);
    out.push(`wasm-gather/tfjs's ${backend} path adds, measured alone: ${path.map((r) => `${r.impl} ${fmtT(r.medianMs)}`).join(', ')} ` +
      `(together ${fmtX(sum / a)} of its time, ${fmtX(sum / s)} of stock's)`);
  }
  return out.join('; ');
}

/** The U targets: { name, value, met, detail, bound }. */
export function uTargets(report) {
  const ix = uIndex(report);
  const out = [];
  const add = (name, value, met, detail = '', bound = '') => out.push({ name, value, met, detail, bound });
  const stockCpu = ix.time('cpu', 'stock', 'U1');
  for (const backend of BACKENDS) {
    const a = ix.time(backend, 'adapter', 'U1'), x = stockCpu / a;
    add(`U1: wasm-gather/tfjs on ${backend} at least ${FIT_TARGET}x stock tfjs-cpu (fitted)${backend === 'wasm' ? '; stock tfjs-wasm has no UnsortedSegmentSum kernel' : ''}`,
      fmtR(x), x >= FIT_TARGET, `${fmtT(a)} vs ${fmtT(stockCpu)}`);
  }
  for (const id of ['U2', 'U3']) {
    for (const backend of BACKENDS) {
      const x = ix.ratio(backend, id);
      add(`${id} on ${backend}: wasm-gather/tfjs faster than stock`, fmtR(x), x > 1,
        `${fmtT(ix.time(backend, 'adapter', id))} vs ${fmtT(ix.time(backend, 'stock', id))}`, x > 1 ? '' : missBound(ix, backend, id));
    }
  }
  // every workload with a stock time on that backend (U1 on wasm has none: its stock kernel is missing)
  const all = BACKENDS.flatMap((b) => ix.ids.map((id) => [b, id, ix.ratio(b, id)])).filter(([, , x]) => !Number.isNaN(x));
  const worst = all.reduce((m, e) => (!(e[2] >= m[2]) ? e : m), all[0]);
  const slower = all.filter(([, , x]) => !(x >= 1));
  add('no U workload slower than stock (either backend)', worst ? `min ${fmtR(worst[2])} (${worst[1]} on ${worst[0]})` : '–',
    all.length > 0 && slower.length === 0, all.map(([b, id, x]) => `${id} ${b} ${fmtR(x)}`).join(', '),
    slower.map(([b, id]) => `${id} on ${b}: ${missBound(ix, b, id)}`).join('. '));
  return out;
}

function summary(report) {
  const ix = uIndex(report);
  const { ids } = ix;
  const L = [`Median time per call, ${report.machine.cores} cores, Node ${report.machine.node}, ${(report.suiteDates?.T ?? report.date).slice(0, 10)} ` +
    '(ms unless marked):', ''];
  L.push(`| | ${ids.join(' | ')} |`, `| --- | ${ids.map(() => '---:').join(' | ')} |`);
  const line = (name, f) => L.push(`| ${name} | ${ids.map(f).join(' | ')} |`);
  const cell = (backend, variant) => (id) => {
    const r = ix.row(backend, variant, id);
    if (!r) return '–';
    if (r.error) return /not registered/.test(r.error) ? 'no kernel (²)' : `error: ${r.error}`;
    return `${fmtMs(r.medianMs)}${r.fitted ? ' (¹)' : ''}${WRITES_INPUT.test(r.note ?? '') ? ' (³)' : ''}`;
  };
  for (const b of BACKENDS) {
    line(`tfjs-${b}, stock kernels`, cell(b, 'stock'));
    line(`tfjs-${b}, wasm-gather/tfjs`, cell(b, 'adapter'));
    line(`**speed-up on ${b}** (stock / wasm-gather/tfjs)`, (id) => `**${fmtR(ix.ratio(b, id))}**`);
  }
  line('speed-up of wasm-gather/tfjs on wasm over stock tfjs-cpu', (id) => (id === 'U1' ? fmtR(ix.time('cpu', 'stock', id) / ix.time('wasm', 'adapter', id)) : '–'));
  const bounds = [...new Map(ix.rows.filter((r) => r.family === 'bound').map((r) => [r.impl, r])).values()];
  for (const r of bounds) {
    line(r.variant === 'adapter path' ? `a cost on wasm-gather/tfjs's ${r.backend} path, alone: ${r.impl}` : `bound on ${r.backend}: ${r.impl}`,
      (id) => fmtMs(ix.rows.find((x) => x.impl === r.impl && x.workload === id && !x.error)?.medianMs));
  }
  const fit = ix.row('cpu', 'stock', 'U1')?.fit;
  const err = ix.row('wasm', 'stock', 'U1')?.error;
  L.push('', `(¹) Fitted (\`bench/peers/tfjs-grad-fit.mjs\`): stock tfjs-cpu's gather gradient is an UnsortedSegmentSum that makes a pass ` +
    'over all of the ids\' rows per segment (a table row), so the step was timed on tables of a few rows' +
    (fit ? ` (${fit.points.map(([n, ms]) => `${n} rows ${fmtT(ms)}`).join(', ')}) and fitted: ${fmtT(fit.interceptMs)} + ` +
      `${fmtT(fit.perRowMs)} per row, at ${fit.rows} rows` : '') + '.');
  if (err) L.push('', `(²) Stock tfjs-wasm has no UnsortedSegmentSum kernel, which gather's gradient calls: "${err}". With wasm-gather/tfjs it has one.`);
  if (ix.rows.some((r) => WRITES_INPUT.test(r.note ?? ''))) {
    L.push('', '(³) Stock tfjs-cpu\'s TensorScatterUpdate writes into its input tensor\'s array and returns it: no new tensor, so none of ' +
      'the copy a correct result needs (its bound above); wasm-gather/tfjs returns a new tensor and leaves the input as it was.');
  }
  L.push('', '| target (U) | measured | met | bound, where missed |', '| --- | --- | --- | --- |');
  for (const t of uTargets(report)) L.push(`| ${t.name}${t.detail ? ` (${t.detail})` : ''} | ${t.value} | ${t.met ? 'yes' : '**no**'} | ${t.bound} |`);
  return L.join('\n');
}

/** Appends the U part to L. */
export function uMarkdown(report, L) {
  const ix = uIndex(report);
  L.push('## Summary (U): the scatter kernels and gather\'s gradient', '');
  L.push('wasm-gather/tfjs also replaces ScatterNd, TensorScatterUpdate and UnsortedSegmentSum (new on wasm, which has none; ' +
    'gather\'s gradient calls it). U1-U3 (`common/tfjs-workloads.mjs`, on the tensors of W1, S1 and S2a) run as a model runs them: ' +
    'the inputs are tensors made once (a table variable and its ids, rows an earlier op computed, a KV cache); per call the op ' +
    'runs (U1: a whole step, `tf.variableGrads` of `tf.sum(tf.gather(table, ids))`, forward and backward, with tfjs-core\'s ' +
    'gradients: `bench/peers/tfjs-gradients.mjs`) and its output is disposed unread, left on the backend as the next op would take ' +
    'it. Each output was read and checked once before timing: U2 and U3 bitwise against `refScatterND` ' +
    '(`common/reference-scatter.mjs`: the updates applied in index order), U1\'s gradient against the ids counted. Bounds ' +
    '(`bench/tfjs-u-suite.mjs`): the least a correct result takes (its new tensor\'s bytes written once).', '');
  L.push(summary(report), '');
  L.push('| id | workload | output |', '| --- | --- | ---: |');
  for (const w of report.uWorkloads) L.push(`| ${w.id} | ${w.title} | ${fmtBytes(w.outBytes)} |`);
  L.push('');
  const notes = [...new Set(ix.rows.filter((r) => r.note && !r.error && r.family !== 'bound').map((r) => `${r.impl} (${r.workload}): ${r.note}`))];
  if (notes.length) L.push('Notes (U):', '', ...notes.map((n) => `- ${n}`), '');
  const errors = ix.rows.filter((r) => r.error);
  if (errors.length) L.push('Errors (U):', '', ...errors.map((r) => `- ${r.impl} ${r.workload}: ${r.error}`), '');
}
