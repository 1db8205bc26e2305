// The S section of docs/benchmarks.md (bench/lib/report.mjs calls it): the scatters' medians,
// ratios, targets (each with its measured value, PASS or MISS, and for a miss the bound that
// explains it, from the bound rows measured beside it: bench/lib/scatter-bounds.mjs), the
// thread check and the peak wasm heap per call.

import { COSTS, perBlock } from '../../js/copy-plan.mjs';

const geomean = (xs) => Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length);
export const fmtMs = (ms) => (ms === undefined || !Number.isFinite(ms) ? '–' : ms >= 3.6e6 ? `${(ms / 3.6e6).toFixed(1)} h`
  : ms >= 6e4 ? `${(ms / 6e4).toFixed(0)} min` : ms >= 10 ? ms.toFixed(1) : ms >= 0.1 ? ms.toFixed(3) : `${(ms * 1000).toFixed(2)} µs`);
// fmtMs in prose: with its unit.
export const fmtT = (ms) => { const x = fmtMs(ms); return /[µhn–]/.test(x) ? x : `${x} ms`; };
export const fmtX = (x) => (x === undefined || !Number.isFinite(x) ? '–' : `${x.toFixed(2)}x`);
export const fmtBytes = (b) => (b >= 2 ** 20 ? `${(b / 2 ** 20).toFixed(2)} MiB` : b >= 1024 ? `${(b / 1024).toFixed(1)} KiB` : `${b} B`);

// The workloads the targets name: the first form of each (S2: tensorScatter).
const RESIDENT_TARGET = ['S1', 'S2a', 'S2b', 'S3', 'S4'];
const ONE_SHOT_TARGET = ['S1', 'S2a', 'S2b', 'S3', 'S4', 'S5'];
const MODE = { 'in-place': 'in place', 'in-wasm': 'in-wasm', 'one-shot': 'one-shot', call: 'one element in place (a call\'s cost)' };
const BOUND = (mode) => `copy bound (TypedArray.set), ${mode}`;
const JS_IN_PLACE = 'plain JS loop, in place';
const JS_NEW = 'plain JS loop, new array';

function sIndex(report) {
  const ok = report.results.filter((r) => r.suite === 'S' && !r.error);
  const cases = report.sWorkloads;
  const baseOf = (id) => cases.find((c) => c.id === id)?.base ?? id;
  const row = (impl, id) => ok.find((r) => r.impl === impl && r.workload === id);
  const time = (impl, id) => row(impl, id)?.medianMs;
  const ours = (variant, threads, mode) => `wasm-gather ${variant} ${threads}T, ${MODE[mode]}`;
  // The fastest peer on a workload (either form: S2's peers compute it by TensorScatter or
  // ScatterND), in the given modes (all when absent): { impl, ms, workload }.
  const fastestPeer = (id, modes) => ok.filter((r) => r.family === 'peer' && baseOf(r.workload) === baseOf(id) && (!modes || modes.includes(r.mode)))
    .reduce((best, r) => (!best || r.medianMs < best.ms ? { impl: r.impl, ms: r.medianMs, workload: r.workload } : best), undefined);
  return { ok, cases, row, time, ours, fastestPeer, baseOf };
}

const T = (report) => Math.min(4, report.machine.cores);

// How far a time is from its bound (a copy bound: the bytes a call must move, or a one-shot
// call's: those copies and its kernel), and what that says: near it (within 2x), the bound is the
// limit; far from it, the per-update work is.
function versusBound(ms, bound, what = 'copy bound') {
  const x = ms / bound;
  const why = what === 'copy bound' ? 'the bytes moved' : 'the bound';
  return `${fmtT(ms)}, ${fmtX(x)} its ${what} of ${fmtT(bound)}: ${x <= 2 ? why : 'the per-update work, not the bytes moved'}`;
}

/** The S targets: { name, value, met, detail, bound }. */
export function sTargets(report) {
  const { time, ours, fastestPeer } = sIndex(report);
  const n = T(report);
  const out = [];
  const add = (name, value, met, detail = '', bound = '') => out.push({ name, value, met, detail, bound });
  const list = (ids, f) => ids.map((id) => `${id} ${f(id)}`).join(', ');
  const bound = (mode, id) => time(BOUND(mode), id);
  const call = time(ours('simd-threaded', n, 'call'), 'S2a');
  // The least a one-shot call can take, by the path it can take (js/copy-plan.mjs): in wasm, the
  // copies (the data in, the result out, the index and updates in) and the kernel itself (its
  // in-wasm time); a plain write may instead move its data once, in JS, into the new array (a new
  // array of the data, allocated and filled) and write its update rows there (each at the cost
  // bench/scatter-copy-cost.mjs measured, COSTS.scatterJsPerRow). S5: one call's cost.
  const wl = (id) => report.sWorkloads.find((c) => c.id === id);
  const plain = (id) => wl(id)?.reduce === 'none';
  const inWasm = (id) => time(ours('simd-threaded', n, 'in-wasm'), id);
  const jsWrites = (id) => (wl(id).rows * perBlock(COSTS.scatterJsPerRow, wl(id).updatesBytes / wl(id).rows)) / 1e6;
  const oneShotBound = (id) => (id === 'S5' ? call
    : Math.min(bound('one-shot', id) + inWasm(id), plain(id) ? bound('one-shot, new array', id) + jsWrites(id) : Infinity));

  // 1. resident and in place over the fastest peer, S1-S4
  const inPlace = (id) => time(ours('simd-threaded', n, 'in-place'), id);
  const x = RESIDENT_TARGET.map((id) => fastestPeer(id)?.ms / inPlace(id));
  const atBound = RESIDENT_TARGET.map((id) => fastestPeer(id)?.ms / bound('in-place', id));
  add('resident and in place, S1-S4: geometric mean of speed-ups over the fastest peer (any mode) at least 5x',
    fmtX(geomean(x)), geomean(x) >= 5, list(RESIDENT_TARGET, (id) => fmtX(x[RESIDENT_TARGET.indexOf(id)])),
    `at the copy bound of an in-place call (index and updates carried in, updates written) the geometric mean would be ${fmtX(geomean(atBound))}; ` +
    `below 5x: ${RESIDENT_TARGET.filter((id, i) => !(x[i] >= 5)).map((id) => `${id} ${versusBound(inPlace(id), bound('in-place', id))}`).join('; ')}`);

  // 2. S2 decode under 5 µs, both forms
  for (const id of ['S2a', 'S2a-nd']) {
    const ms = inPlace(id);
    add(`S2 decode, resident and in place (${id === 'S2a' ? 'tensorScatter' : 'scatterND'}): under 5 µs per call`, fmtT(ms), ms < 5e-3, '',
      `one scatter call through the binding (scatterND of one element in place) takes ${fmtT(call)}`);
  }

  // 3. one-shot over the fastest one-shot peer, every S
  const oneShot = (id) => time(ours('simd-threaded', n, 'one-shot'), id);
  const o = ONE_SHOT_TARGET.map((id) => fastestPeer(id, ['one-shot'])?.ms / oneShot(id));
  const worst = Math.min(...o);
  add('one-shot: at least 1.5x the fastest one-shot peer on every S workload', `min ${fmtX(worst)} (${ONE_SHOT_TARGET[o.indexOf(worst)]})`,
    worst >= 1.5, list(ONE_SHOT_TARGET, (id) => fmtX(o[ONE_SHOT_TARGET.indexOf(id)])),
    'below 1.5x: ' + ONE_SHOT_TARGET.filter((id, i) => !(o[i] >= 1.5)).map((id) => `${id} ${versusBound(oneShot(id), oneShotBound(id), 'bound')}` +
      ` (at that bound ${fmtX(fastestPeer(id, ['one-shot'])?.ms / oneShotBound(id))})`).join('; ') +
      '. The bound of a one-shot call: the copies a call in wasm makes (the data in, the result out, the index and updates in) ' +
      'and its in-wasm time, or for a plain write, if less, what it does in JS: a new array of the data (allocated and ' +
      'filled) and its update rows written (at the cost per row `node bench/scatter-copy-cost.mjs` measured); ' +
      'S5\'s bound is one call\'s cost');

  // 4. one-shot never slower than the plain JS loop on a new array, S1-S4
  const j = RESIDENT_TARGET.map((id) => time(JS_NEW, id) / oneShot(id));
  const worstJ = Math.min(...j);
  add('one-shot: never slower than the plain JS loop (on a new array), S1-S4', `min ${fmtX(worstJ)} (${RESIDENT_TARGET[j.indexOf(worstJ)]})`,
    worstJ >= 1, list(RESIDENT_TARGET, (id) => fmtX(j[RESIDENT_TARGET.indexOf(id)])),
    'below 1x: ' + RESIDENT_TARGET.filter((id, i) => !(j[i] >= 1)).map((id) => {
      const b = oneShotBound(id), js = time(JS_NEW, id);
      return js < b * 1.05 ? `${id} out of reach: a one-shot call takes at least ${fmtT(b)} (its bound, above), the whole JS loop ` +
        `${fmtT(js)} (${fmtX(js / b)} of it: within the 5% these runs vary by, or less)`
        : `${id} ${versusBound(oneShot(id), b, 'bound')}, the JS loop ${fmtX(js / b)} of that bound`;
    }).join('; '));

  // 5. 2 threads over 1, in-wasm, S1 and S3
  const w1 = report.results.filter((r) => (r.suite ?? 'W') === 'W' && !r.error && r.workload === 'W1');
  const w1x = w1.find((r) => r.impl === 'wasm-gather simd-threaded 1T, in-wasm')?.medianMs / w1.find((r) => r.impl === 'wasm-gather simd-threaded 2T, in-wasm')?.medianMs;
  for (const id of ['S1', 'S3']) {
    const one = time(ours('simd-threaded', 1, 'in-wasm'), id), two = time(ours('simd-threaded', 2, 'in-wasm'), id);
    add(`${id}, in-wasm: 2 threads at least 1.4x faster than 1`, fmtX(one / two), one / two >= 1.4, `${fmtT(one)} vs ${fmtT(two)}`,
      `no bandwidth bound: 1 thread takes ${fmtX(one / bound('in-wasm', id))} the time of writing the updates' bytes once` +
      (Number.isFinite(w1x) ? `, and memory here gives 2 threads ${fmtX(w1x)} (W1, in-wasm)` : ''));
  }

  // 6. the same bits at every thread count
  const checks = report.sChecks ?? [];
  const same = checks.filter((c) => c.same).length;
  add('wasm-gather\'s outputs bit-identical at every build and thread count (each checked run hashed)', `${same} of ${checks.length}`,
    checks.length > 0 && same === checks.length, checks.filter((c) => !c.same).map((c) => `${c.workload} ${c.mode} differ`).join(', '));
  return out;
}

function summary(report) {
  const { cases, time, ours, fastestPeer } = sIndex(report);
  const n = T(report);
  const ids = cases.map((c) => c.id);
  const L = [`Median time per call, ${report.machine.cores} cores, Node ${report.machine.node}, ${(report.suiteDates?.S ?? report.date).slice(0, 10)} ` +
    `(ms unless marked µs; wasm-gather simd-threaded as \`init()\` sets it up here, ${n} threads, unless marked):`, ''];
  L.push(`| | ${ids.join(' | ')} |`, `| --- | ${ids.map(() => '---:').join(' | ')} |`);
  const line = (name, f) => L.push(`| ${name} | ${ids.map((id) => fmtMs(f(id))).join(' | ')} |`);
  line('wasm-gather, in place (resident)', (id) => time(ours('simd-threaded', n, 'in-place'), id));
  line('wasm-gather simd, 1 thread, in place', (id) => time(ours('simd', 1, 'in-place'), id));
  line('wasm-gather, in-wasm (kernel + call)', (id) => time(ours('simd-threaded', n, 'in-wasm'), id));
  line('wasm-gather simd-threaded, 1 thread, in-wasm', (id) => time(ours('simd-threaded', 1, 'in-wasm'), id));
  line('wasm-gather, one-shot', (id) => time(ours('simd-threaded', n, 'one-shot'), id));
  line('wasm-gather simd, 1 thread, one-shot', (id) => time(ours('simd', 1, 'one-shot'), id));
  line('fastest peer, any mode', (id) => fastestPeer(id)?.ms);
  line('fastest peer, one-shot', (id) => fastestPeer(id, ['one-shot'])?.ms);
  line('plain JS loop, in place', (id) => time(JS_IN_PLACE, id));
  line('plain JS loop, new array', (id) => time(JS_NEW, id));
  for (const m of ['in-place', 'in-wasm', 'one-shot', 'one-shot in JS', 'one-shot, new array']) line(`copy bound, ${m}`, (id) => time(BOUND(m), id));
  line('one scatter call (one element in place)', (id) => time(ours('simd-threaded', n, 'call'), id));
  L.push('');
  L.push(`| ratio | ${ids.join(' | ')} |`, `| --- | ${ids.map(() => '---:').join(' | ')} |`);
  const ratio = (name, f) => L.push(`| ${name} | ${ids.map((id) => fmtX(f(id))).join(' | ')} |`);
  ratio('fastest peer / wasm-gather in place', (id) => fastestPeer(id)?.ms / time(ours('simd-threaded', n, 'in-place'), id));
  ratio('fastest peer / wasm-gather simd 1T in place', (id) => fastestPeer(id)?.ms / time(ours('simd', 1, 'in-place'), id));
  ratio('fastest one-shot peer / wasm-gather one-shot', (id) => fastestPeer(id, ['one-shot'])?.ms / time(ours('simd-threaded', n, 'one-shot'), id));
  ratio('plain JS loop, new array / wasm-gather one-shot', (id) => time(JS_NEW, id) / time(ours('simd-threaded', n, 'one-shot'), id));
  ratio('plain JS loop, in place / wasm-gather in place', (id) => time(JS_IN_PLACE, id) / time(ours('simd-threaded', n, 'in-place'), id));
  ratio('in-wasm: 1 thread / 2 threads (simd-threaded)', (id) => time(ours('simd-threaded', 1, 'in-wasm'), id) / time(ours('simd-threaded', 2, 'in-wasm'), id));
  ratio('in place: 1 thread / 2 threads (simd-threaded)', (id) => time(ours('simd-threaded', 1, 'in-place'), id) / time(ours('simd-threaded', 2, 'in-place'), id));
  ratio('wasm-gather in place / its copy bound', (id) => time(ours('simd-threaded', n, 'in-place'), id) / time(BOUND('in-place'), id));
  L.push('', 'Fastest peer per workload: ' + [...new Set(cases.map((c) => c.base))].map((b) => `${b} ${fastestPeer(b)?.impl ?? '–'}` +
    ` on ${fastestPeer(b)?.workload ?? '–'}, one-shot ${fastestPeer(b, ['one-shot'])?.impl ?? '–'}`).join('; ') + '.');
  L.push('', '| target (S) | measured | met | bound, where missed |', '| --- | --- | --- | --- |');
  for (const t of sTargets(report)) {
    L.push(`| ${t.name}${t.detail ? ` (${t.detail})` : ''} | ${t.value} | ${t.met ? 'PASS' : '**MISS**'} | ${t.met ? '' : t.bound} |`);
  }
  return L.join('\n');
}

// The rows' notes, each part ('; ' between) once, with the runners and workloads it is about;
// several runners of one peer named once ("onnxruntime-web 1.30.0, 4 runners"). (Also the E
// section's: report-bag.mjs.)
export function noteLines(rows) {
  const parts = new Map();
  for (const r of rows) {
    for (const p of r.note.split('; ')) {
      const e = parts.get(p) ?? { impls: new Set(), ids: new Set() };
      e.impls.add(r.impl);
      e.ids.add(r.workload);
      parts.set(p, e);
    }
  }
  const who = (impls) => {
    const byPeer = new Map();
    for (const i of impls) {
      const k = i.replace(/ \(.*$/, '');
      byPeer.set(k, [...(byPeer.get(k) ?? []), i]);
    }
    return [...byPeer].map(([k, is]) => (is.length > 1 ? `${k}, ${is.length} runners` : is[0])).join('; ');
  };
  return [...parts].map(([p, { impls, ids }]) => `- ${who(impls)} (${[...ids].join(', ')}): ${p}`);
}

/** Appends the S section to the report's lines L. */
export function sMarkdown(report, L) {
  const { ok, cases, row, ours } = sIndex(report);
  const n = T(report);
  const ids = cases.map((c) => c.id);
  L.push('# S: scatter, scatterND, indexReduce, tensorScatter', '');
  L.push('Float32 data and updates in [0, 1), int32 indices (`common/scatter-workloads.mjs`). Every output was checked bitwise ' +
    'equal to the reference before it was timed: the updates applied to each destination in index order, one float32 ' +
    'operation at a time, which is what wasm-gather gives at any thread count (its checked outputs are also hashed and ' +
    'compared across builds and thread counts). The S2 workloads run twice: by `tensorScatter` (S2a, S2b) and by ' +
    '`scatterND` on (batch, position) tuples (S2a-nd, S2b-nd); the peers\' figures of a workload are the faster of either form.', '');
  L.push('wasm-gather modes: **in place**: the data uploaded once (a resident KV cache, gradient or histogram), per call the index ' +
    'and updates from JS, `opts.inPlace` (nothing comes out); **in-wasm**: index and updates resident too (the kernel and the ' +
    'call); **one-shot**: TypedArrays in, a new array out. Peers: onnxruntime-web 1.30 (wasm EP, a one-node model per op built by ' +
    '`bench/peers/onnx-model.mjs`: ScatterND with reduction \'add\' for S1, TensorScatter (opset 24, in this build) and ScatterND ' +
    'for S2, ScatterElements for S3 and S4, ScatterND for S5; the data fed per run or an initializer; 1 and 2 threads; a run ' +
    'always returns a new tensor) and TensorFlow.js 4.22 cpu and wasm (`tf.scatterND` into zeros for S1 and S3, ' +
    '`tf.tensorScatterUpdate` for S2, S4, S5; tensors made per call, or the data tensor kept; on cpu also ' +
    '`tf.unsortedSegmentSum`, timed at a few segment counts and fitted, since its cost grows with the number of segments). ' +
    'Bounds: TypedArray.set of the bytes a call of each mode must move (`bench/lib/scatter-bounds.mjs`), and the cost of one ' +
    'scatter call (one element in place).', '');
  L.push('## Summary (S)', '', summary(report), '');
  L.push('## Workloads (S)', '', '| id | workload | op | data | index | updates | output hash (FNV-1a) |', '| --- | --- | --- | ---: | ---: | ---: | --- |');
  for (const c of cases) L.push(`| ${c.id} | ${c.title} | ${c.op} | ${fmtBytes(c.dataBytes)} | ${fmtBytes(c.indexBytes)} | ${fmtBytes(c.updatesBytes)} | ${c.outputHash} |`);
  L.push('', '## Median time per call (S)', '');
  L.push(`| implementation | mode | ${ids.join(' | ')} |`, `| --- | --- | ${ids.map(() => '---:').join(' | ')} |`);
  const rows = report.results.filter((r) => r.suite === 'S');
  for (const r of [...new Map(rows.map((x) => [x.impl, x])).values()]) {
    const cells = ids.map((id) => {
      const x = rows.find((y) => y.impl === r.impl && y.workload === id);
      if (!x) return '';
      return x.error ? `error: ${x.error}` : fmtMs(x.medianMs);
    });
    L.push(`| ${r.impl} | ${r.mode} | ${cells.join(' | ')} |`);
  }
  const notes = noteLines(ok.filter((r) => r.note && r.family !== 'bound'));
  if (notes.length) L.push('', 'Notes from the peers\' adapters:', '', ...notes);
  const checks = report.sChecks ?? [];
  if (checks.length) {
    const modes = [...new Set(checks.map((c) => c.mode))];
    L.push('', '## The same bits at every thread count (S)', '',
      'Each wasm-gather runner\'s checked output hashed (FNV-1a), compared across the builds and thread counts that ran the mode:', '',
      `| workload | reference's hash | ${modes.join(' | ')} |`, `| --- | --- | ${modes.map(() => '---').join(' | ')} |`);
    for (const c of cases) {
      L.push(`| ${c.id} | ${c.outputHash} | ${modes.map((m) => {
        const k = checks.find((x) => x.workload === c.id && x.mode === m);
        if (!k) return '';
        const same = Object.values(k.hashes).every((h) => h === c.outputHash);
        return same ? `same at ${Object.keys(k.hashes).join(', ')}` : `**differ**: ${Object.entries(k.hashes).map(([b, h]) => `${b} ${h}`).join(', ')}`;
      }).join(' | ')} |`);
    }
  }
  L.push('', `## Peak wasm heap per call (S)`, '',
    `wasm-gather simd-threaded ${n}T (simd 1T where it differs, after a slash): \`heapStats().lastCallBytes\` after the checked call, what the call ` +
    'allocated on top of the heap in use: the copies of what is not resident, and the plan\'s workspace (in-wasm, where nothing ' +
    'is copied, it is the workspace alone); `heapInUse` after the in-place call (the resident data and what the group keeps); and the ' +
    'most the heap in use grew over any mode\'s timed calls.', '',
    '| workload | data | index + updates | in place | in-wasm (workspace) | one-shot | heap in use, in place | growth |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const c of cases) {
    const cell = (mode, f) => {
      const [a, b] = [row(ours('simd-threaded', n, mode), c.id), row(ours('simd', 1, mode), c.id)].map((r) => (r ? f(r) : undefined));
      return a === b || b === undefined ? a ?? '–' : `${a ?? '–'} / ${b}`;
    };
    const growth = Math.max(...['in-place', 'in-wasm', 'one-shot'].flatMap((m) => [row(ours('simd-threaded', n, m), c.id), row(ours('simd', 1, m), c.id)])
      .filter(Boolean).map((r) => r.heapGrowth));
    L.push(`| ${c.id} | ${fmtBytes(c.dataBytes)} | ${fmtBytes(c.indexBytes + c.updatesBytes)} | ${cell('in-place', (r) => fmtBytes(r.peakCallBytes))} | ` +
      `${cell('in-wasm', (r) => fmtBytes(r.peakCallBytes))} | ${cell('one-shot', (r) => fmtBytes(r.peakCallBytes))} | ` +
      `${cell('in-place', (r) => fmtBytes(r.heapInUse))} | ${fmtBytes(growth)} |`);
  }
  L.push('');
}
