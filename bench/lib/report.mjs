// Turns bench/results.json's object (and bench/results-browser.json's runs) into docs/benchmarks.md
// (how to run the benchmark, a summary, the tables, ratios and the benchmark targets, each marked
// met or missed) and docs/ratios.svg (speed-ups over the fastest peer). That file is the one copy
// of the figures: nothing else (README.md included) holds benchmark tables.
// The suites: W (take, gatherND, gather), Q (gatherBlockQuantized), T (tf.gather/tf.gatherND
// with tfjs's stock kernels and with wasm-gather/tfjs, and its U workloads: report-tfjs-u.mjs),
// S (the scatters: report-scatter.mjs), P (thread scaling: report-threads.mjs), C (what a
// call costs, plain and prepared: report-calls.mjs, with its Chromium rows), E (the fused
// gather-reduce, embeddingBag and segmentReduce: report-bag.mjs), G (the bags' gradient:
// report-grad.mjs) and M (the masks' ops: report-mask.mjs), each with its own tables and
// targets; rows carry `suite` (absent in older results.json: W).
// B: the W workloads in Chromium (results-browser.json's runs; its C run is marked suite: 'C').
import { writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { eMarkdown } from './report-bag.mjs';
import { gMarkdown } from './report-grad.mjs';
import { cMarkdown } from './report-calls.mjs';
import { mMarkdown } from './report-mask.mjs';
import { sMarkdown } from './report-scatter.mjs';
import { rMarkdown } from './report-sort.mjs';
import { pMarkdown } from './report-threads.mjs';
import { uMarkdown } from './report-tfjs-u.mjs';

const LARGE = ['W1', 'W2', 'W3', 'W4b']; // workloads that move megabytes
const PEER_WORKLOADS = ['W1', 'W2', 'W3', 'W4a', 'W4b'];

// The runner name of each mode (wasm-gather-runners.mjs).
const RUNNER = { 'one-shot': 'one-shot', resident: 'resident', 'resident-new': 'resident, new array per call',
  'resident-chained': 'resident, output kept in wasm', 'resident-view': 'resident, read with view()', 'in-wasm': 'in-wasm' };

const geomean = (xs) => Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length);
const fmtMs = (ms) => (ms === undefined ? '–' : ms >= 10 ? ms.toFixed(1) : ms >= 0.1 ? ms.toFixed(3) : `${(ms * 1000).toFixed(2)} µs`);
const fmtX = (x) => (x === undefined || !Number.isFinite(x) ? '–' : `${x.toFixed(2)}x`);
const fmtBytes = (b) => (b >= 2 ** 20 ? `${(b / 2 ** 20).toFixed(2)} MiB` : `${(b / 1024).toFixed(1)} KiB`);

/** Helpers over the result rows. */
function index(report) {
  const ok = report.results.filter((r) => !r.error && (r.suite ?? 'W') === 'W');
  const time = (impl, w) => ok.find((r) => r.impl === impl && r.workload === w)?.medianMs;
  // The fastest peer in a mode on a workload: { impl, ms }.
  const fastestPeer = (mode, w) => ok.filter((r) => r.family === 'peer' && r.mode === mode && r.workload === w)
    .reduce((best, r) => (!best || r.medianMs < best.ms ? { impl: r.impl, ms: r.medianMs } : best), undefined);
  const wg = (variant, threads, mode) => `wasm-gather ${variant} ${threads}T, ${mode}`;
  return { ok, time, fastestPeer, wg };
}

/** W4b's bound row: a memory.copy of the bytes it must move (bench/run.mjs). */
export const W4B_BOUND = 'memory.copy of the indices, data and output bytes (W4b)';
/** W4b's resident bound: its indices copied in from JS (TypedArray.set), then that memory.copy. */
export const W4B_RESIDENT_BOUND = 'the indices set into wasm memory from JS, then memory.copy of the indices, data and output bytes (W4b, resident)';
/** The W row that pairs W1's take with its rows by gather with torch's expanded index (wasm-gather-runners.mjs). */
export const PAIRED = 'W1\'s take, then its rows by gather with torch\'s expanded index (each timed)';

/** Default configuration of init() on this machine: threaded, cores up to 4. */
const defaultThreads = (report) => Math.min(4, report.machine.cores);

/** The W targets (the benchmark's first set): { name, value, met }. */
export function targets(report) {
  const { time, fastestPeer, wg } = index(report);
  const T = defaultThreads(report);
  const out = [];
  const add = (name, value, met, detail = '') => out.push({ name, value, met, detail });

  for (const [mode, label] of [['resident', 'output to JS'], ['resident-chained', 'output kept in wasm']]) {
    const x = PEER_WORKLOADS.map((w) => fastestPeer('resident', w)?.ms / time(wg('simd-threaded', T, RUNNER[mode]), w));
    add(`resident (${label}) W1-W4b: geometric mean of speed-ups over the fastest resident peer >= 3x`, fmtX(geomean(x)), geomean(x) >= 3,
      PEER_WORKLOADS.map((w, i) => `${w} ${fmtX(x[i])}`).join(', '));
    const min = Math.min(...x);
    add(`resident (${label}) W1-W4b: no workload below 1.5x`, `min ${fmtX(min)} (${PEER_WORKLOADS[x.indexOf(min)]})`, min >= 1.5);
  }

  const oneShot = report.workloads.map((w) => [w.id, fastestPeer('one-shot', w.id)?.ms / time(wg('simd-threaded', T, 'one-shot'), w.id)]);
  const worst = oneShot.reduce((a, b) => (b[1] < a[1] ? b : a));
  add('one-shot: no slower than the fastest one-shot peer on any workload', `min ${fmtX(worst[1])} (${worst[0]})`, worst[1] >= 1);

  const vsNative = LARGE.map((w) => [w, time(wg('simd', 1, 'in-wasm'), w) / time('native C, -O3, 1 thread', w)]);
  const worstN = vsNative.reduce((a, b) => (b[1] > a[1] ? b : a));
  add('simd, 1 thread, within 1.3x of native on the large workloads (in-wasm: everything resident, as native)',
    `max ${fmtX(worstN[1])} (${worstN[0]})`, worstN[1] <= 1.3, vsNative.map(([w, x]) => `${w} ${fmtX(x)}`).join(', '));

  // torch.gather with an index an element: against what it must move, and its peers
  const w4b1 = time(wg('simd-threaded', 1, 'in-wasm'), 'W4b'), w4bBound = time(W4B_BOUND, 'W4b');
  if (w4bBound !== undefined) {
    add('W4b, in-wasm, 1 thread: at most 2x its bound (a memory.copy of its indices, data and output bytes)',
      `${fmtX(w4b1 / w4bBound)} (${fmtMs(w4b1)} vs ${fmtMs(w4bBound)})`, w4b1 / w4bBound <= 2);
  }
  const w4bPeerMs = fastestPeer('resident', 'W4b')?.ms, w4bPeer = w4bPeerMs / time(wg('simd-threaded', T, RUNNER['resident-chained']), 'W4b');
  const w4bResBound = time(W4B_RESIDENT_BOUND, 'W4b');
  add('W4b, resident (output kept in wasm): at least 2.5x the fastest resident peer', fmtX(w4bPeer) + (w4bPeer < 2.5 && w4bResBound !== undefined
    ? `; a resident call copies its indices in from JS, then moves the indices, data and output: those copies alone take ${fmtMs(w4bResBound)}, ` +
      `the fastest resident peer ${fmtX(w4bPeerMs / w4bResBound)} that, so the 2.5x target ${w4bPeerMs / w4bResBound < 2.5 ? 'lies beyond that bound' : 'lies within it'}` : ''),
  w4bPeer >= 2.5);

  // torch's expanded index: W1's rows by gather, beside W1's take of the same bytes
  const pair = report.results.find((r) => !r.error && r.impl === wg('simd-threaded', 1, `in-wasm, ${PAIRED}`) && r.workload === 'W1');
  const expanded = pair?.pairedGatherMs, take1 = pair?.pairedTakeMs;
  if (expanded !== undefined) {
    add('W1\'s rows by gather with torch\'s expanded index (x.gather(1, i.unsqueeze(-1).expand(-1, -1, D))), in-wasm, 1 thread: at most 1.5x W1\'s take',
      `${fmtX(expanded / take1)} (${fmtMs(expanded)} vs ${fmtMs(take1)})` + (expanded / take1 > 1.5
        ? '; the gather reads its index, 4 bytes an element like the output, besides the rows take reads and the output both write: ' +
          '1.5x take\'s bytes' : '') + `; each of its ${pair.pairedSamples} calls times both, one after the other`,
      expanded / take1 <= 1.5);
  }

  for (const w of ['W2', 'W4b']) {
    for (const mode of ['in-wasm', 'resident']) {
      const x = time(wg('simd-threaded', 1, mode), w) / time(wg('simd-threaded', 2, mode), w);
      add(`${w}, ${mode}: 2 threads at least 1.5x faster than 1`, fmtX(x), x >= 1.5);
    }
  }
  const w5threads = time(wg('simd-threaded', 1, 'resident'), 'W5') / time(wg('simd-threaded', 2, 'resident'), 'W5');
  add('W5, resident: 2 threads no slower than 1 (within 5% noise)', fmtX(w5threads), w5threads >= 0.95);

  const w5 = time(wg('simd-threaded', T, 'resident'), 'W5');
  const w5js = time('plain JS loops', 'W5');
  add('W5, resident: at most 2x the plain JS loop per call', `${fmtX(w5 / w5js)} of the JS loop (${fmtMs(w5)} vs ${fmtMs(w5js)})`, w5 / w5js <= 2);
  for (const mode of ['resident', 'one-shot']) {
    const ort = report.results.filter((r) => !r.error && r.peer === 'onnxruntime-web' && r.mode === mode && r.workload === 'W5')
      .reduce((m, r) => Math.min(m, r.medianMs), Infinity);
    const x = ort / time(wg('simd-threaded', T, mode), 'W5');
    add(`W5, ${mode}: at least 5x faster than onnxruntime-web (${mode})`, fmtX(x), x >= 5);
  }

  // Peak wasm heap per call, against the bytes the call must hold.
  let heapOk = true;
  const heapDetail = [];
  for (const w of report.workloads) {
    for (const mode of ['one-shot', 'resident']) {
      const r = report.results.find((x) => x.impl === wg('simd-threaded', T, mode) && x.workload === w.id);
      if (!r || r.error) continue;
      const allowed = (mode === 'one-shot' ? w.dataBytes : 0) + w.indexBytes + w.outBytes + 2 ** 20;
      if (r.peakCallBytes > allowed) heapOk = false;
      heapDetail.push(`${w.id} ${mode} ${(r.peakCallBytes / (allowed - 2 ** 20)).toFixed(3)}`);
    }
  }
  add('peak wasm heap per call within inputs + output + 1 MiB (one-shot) / indices + output + 1 MiB (resident)', heapOk ? 'yes' : 'no', heapOk,
    `peak / (bytes the call must hold): ${heapDetail.join(', ')}`);

  for (const { variant, threads, medianMs } of report.init) {
    if (variant === 'simd' || threads === 2) {
      const limit = variant === 'simd' ? 50 : 200;
      add(`init of ${variant} (${threads}T) in Node within ${limit} ms`, `${medianMs.toFixed(1)} ms`, medianMs <= limit);
    }
  }
  return out;
}

// What the benchmark is and how to run it: the fixed text at the top of the report.
const HOW = [
  '# Benchmarks',
  '',
  'This file is written by `npm run bench` (`bench/run.mjs`, through `bench/lib/report.mjs`) from `bench/results.json` and ' +
  '`bench/results-browser.json`: do not edit it by hand. `node bench/run.mjs --report-only` writes it again, with the chart ' +
  '(`ratios.svg` beside it), from those two committed files without measuring anything; run twice, it gives the same bytes.',
  '',
  '## Running it',
  '',
  '- `npm run bench` builds, then runs every implementation on every workload (`common/workloads.mjs`, ' +
  '`common/scatter-workloads.mjs`, `common/bag-workloads.mjs`) in one process, checks each output bitwise against the reference ' +
  '(`common/reference.mjs`, `common/reference-quantized.mjs`, the scatters\' own, `common/reference-bag.mjs`; a peer that ' +
  'reduces in another order within a stated tolerance) before timing it, and writes ' +
  '`bench/results.json`, this file and its chart. `npm run bench -- --quick`: short budgets, a smoke test of the harness.',
  '- `node bench/run.mjs --only Q` (or `W`, `T`, `S`, `P`, `C`, `E`, `G`, `M`; also `BENCH_ONLY=Q`): one suite alone; the other suites\' rows are kept from the ' +
  'last `bench/results.json`, with their dates.',
  '- `npm run bench -- --browser` (`bench/browser/`): W1-W5 in Debian\'s headless Chromium, on a cross-origin isolated page and on ' +
  'a plain one, with onnxruntime-web and TensorFlow.js\'s wasm backend in the same page, then the C rows on the isolated page; ' +
  'writes `bench/results-browser.json`, the B section below and the C section\'s Chromium table (`--browser --only C`: the C ' +
  'rows alone, the W runs kept).',
  '- `node bench/run.mjs --report-only`: this file again from the committed JSON.',
  '',
  'Workloads: W1 embedding lookup (`take`, [32000, 512] by 4096 rows), W2 `gatherND` slices with batch dims, W3 `gatherND` of ' +
  'single elements, W4a/W4b `gather` (torch) along dim 1, W5 a tiny `take` (call overhead); Q1-Q4 `gatherBlockQuantized` on ' +
  'block-quantized embedding tables; T: W1-W5 through TensorFlow.js\'s `tf.gather`/`tf.gatherND`, and U1-U3 through its scatter ' +
  'kernels (`common/tfjs-workloads.mjs`: an embedding table\'s gradient step, `tf.scatterND`, a KV-cache write by ' +
  '`tf.tensorScatterUpdate`); S1-S5 the scatters ' +
  '(`common/scatter-workloads.mjs`): an embedding gradient (`indexReduce`), KV-cache writes (`tensorScatter`, `scatterND`), a ' +
  'histogram and a row-wise write (`scatter`), and a tiny `scatterND` (call overhead); P: W1-W4b, S1, S3 and S4 at 1, 2, 4, ... ' +
  'threads, everything resident, each beside a `memory.copy` of its bytes on the same thread pool (thread scaling); R: S3\'s ' +
  'sort into parts on 1 thread beside its one-applier path and the bounds of what a sort adds (`bench/sort-cost-suite.mjs`); C: small ' +
  'calls (W5, S2a, S5) plain and prepared, each as a ratio to a plain JS loop, and where a plain call\'s time goes; E1-E4 the ' +
  'fused gather-reduce (`common/bag-workloads.mjs`): `embeddingBag` sums, a weighted mean and a sum over a 4-bit table, 4096 ' +
  'bags of 32 rows of a [262144, 128] table, and a `segmentReduce` sum of [1048576, 16] into 65536 segments; G1-G3 the bags\' ' +
  'gradient (`common/grad-workloads.mjs`): `embeddingBagBackward` of E1 in place, a TensorFlow.js SGD step of a ' +
  '`tf.sparse.sparseSegmentMean` model of that size, and `tf.grad` through `tf.gatherND`; M1-M3 the masks\' ops ' +
  '(`common/mask-workloads.mjs`): `compress` of YOLO-shaped scores, the unpadding of a batch by its attention mask (`nonZero` ' +
  'then `take`) and `maskedScatter`, every implementation of a workload timed in interleaved rounds.',
  '',
  'Implementations: wasm-gather `simd` and `simd-threaded` at 1 and 2 threads in several modes (below), the same C compiled ' +
  'natively (`-O3`, one thread, `bench/native/`), one `memory.copy` of the output bytes (the bandwidth bound), plain JS loops, ' +
  'onnxruntime-web (a one-node model per op built by `bench/peers/onnx-model.mjs`; data fed per run or as an initializer; 1 and 2 ' +
  'threads) and TensorFlow.js with the cpu and wasm backends (tensors made per call or the data tensor kept; tfjs-wasm\'s gather ' +
  'with batchDims is wrong, tensorflow/tfjs#8658, so W2 and W4 use `gatherND` on (batch, index) pairs there).',
  '',
  'Other tools, which write nothing here:',
  '',
  '- `node bench/threshold.mjs`: the C kernel alone for 1, 2 and 4 threads with the pool forced on, output sizes 1 KiB to 4 MiB: ' +
  'where threads start to pay ([architecture](architecture.md#threads)).',
  '- `node bench/copy-cost.mjs`: the per-block costs of the two one-shot paths, the table `COSTS` in `js/copy-plan.mjs` ' +
  '([where the bytes move](architecture.md#where-the-bytes-move)).',
  '- `node bench/scatter-copy-cost.mjs`: the same per update row of the scatters\' plain writes (`COSTS.scatter*`).',
  '- `node bench/row-copy.mjs`: how the JS path moves a row, by its length: its loop against `TypedArray.set` (where one gives ' +
  'way to the other: `LOOP_WORDS` in `js/copy-plan.mjs`), and one-word rows scattered as `maskedScatter` writes them.',
  '- `node bench/heap.mjs`: peak wasm heap per call next to the bytes of inputs and output.',
  '- `node bench/gbq-profile.mjs`: where a `gatherBlockQuantized` call\'s time goes.',
  '- `node bench/native/check.mjs` and `node bench/peers/check.mjs`: the native driver\'s and the peers\' outputs against the ' +
  'reference, one call each.',
  '- `node bench/compare-builds.mjs <other checkout>`: this checkout\'s in-wasm times next to another built checkout\'s, both ' +
  'loaded in one process and timed in alternating rounds, outputs compared bitwise.',
  '- `node bench/fresh-output.mjs`: what a new output array costs beside one reused (the same bytes copied into each): on this ' +
  'project\'s 2-core machine (2026-11-29) 0.85-1.18 ms a MiB more for 2-16 MiB, with or without earlier outputs alive, and up to ' +
  'about 2.5 ms a MiB on others. Every one-shot row below pays it for its output; a call into a reused `opts.out` ' +
  '([api](api.md#options-of-the-ops)) does not.',
  '',
];

function markdown(report, chart) {
  const L = [...HOW];
  L.push('## The run below', '');
  const dates = report.suiteDates ?? {};
  const mixed = Object.values(dates).some((d) => d !== report.date);
  L.push(`${report.date}, ${report.machine.cpu}, ${report.machine.cores} cores, Node ${report.machine.node}` +
    `${report.quick ? ' (quick run: short budgets, figures are rough)' : ''}; ${report.seconds.toFixed(0)} s in all. ` +
    'Produced by `npm run bench`. Times are medians per call, each output checked bitwise equal to the reference ' +
    '(`common/reference.mjs`, `common/reference-quantized.mjs`) before it was timed, then called for 100 ms before its ' +
    'samples were taken (a fresh wasm instance and the JS around it tier up meanwhile).' +
    (mixed ? ` This file joins runs of different dates (\`--only\`): ${Object.entries(dates).map(([k, d]) => `${k} workloads ${d}`).join(', ')}.` : ''), '');
  if (report.workloads?.length) wMarkdown(report, L, chart);
  const bRuns = (report.browser ?? []).filter((r) => r.suite !== 'C');
  if (bRuns.length) bMarkdown(bRuns, L);
  if (report.qWorkloads?.length) qMarkdown(report, L);
  if (report.tWorkloads?.length) tMarkdown(report, L);
  if (report.sWorkloads?.length) sMarkdown(report, L);
  if (report.pWorkloads?.length) pMarkdown(report, L);
  if (report.results.some((r) => r.suite === 'R')) rMarkdown(report, L);
  if (report.cCases?.length) cMarkdown(report, L);
  if (report.eWorkloads?.length) eMarkdown(report, L);
  if (report.gWorkloads?.length) gMarkdown(report, L);
  if (report.mWorkloads?.length) mMarkdown(report, L);
  return L.join('\n').trimEnd() + '\n';
}

function wMarkdown(report, L, chart) {
  const { ok, time, fastestPeer, wg } = index(report);
  const W = report.workloads.map((w) => w.id);
  L.push('# W: take, gatherND, gather', '');
  L.push('Float32 data, int32 indices, random valid indices.', '');
  L.push('Modes: **one-shot**: TypedArrays in, a new TypedArray out, everything copied per call (peers: inputs fed per run, ' +
    'tensors created and the output downloaded per call). **resident**: the data is in the library\'s memory ' +
    'beforehand (wasm-gather `upload`; onnxruntime-web: an initializer; tfjs: a kept tensor); per call the indices go in ' +
    'and the output comes out to JS: wasm-gather into a reused `opts.out` buffer (*resident*), or a new array per call as ' +
    'the peers do (*resident, new array per call*; onnxruntime-web accepts a preallocated CPU output tensor but leaves it ' +
    'unwritten, so the peers cannot reuse one), or not at all (*resident, output kept in wasm*: a resident `opts.out`, as ' +
    'when a framework chains ops). **in-wasm**: data, indices and output all resident, as in the native C driver: the ' +
    'kernel and the call alone.', '');
  L.push('The measuring process runs with glibc\'s `MALLOC_MMAP_THRESHOLD_` and `MALLOC_TRIM_THRESHOLD_` raised, for every ' +
    'implementation alike: on these VMs first-touching fresh memory costs about 3 ms per MiB, and whether a new output ' +
    'array got fresh pages depended on the heap\'s history, which made one-shot figures swing up to 8x between runs.', '');
  L.push('## Summary', '', summary(report), '');
  if (chart) L.push(`![Speed-up over the fastest peer in the same mode, per workload](${chart})`, '');
  if (report.qWorkloads?.length) L.push('Q workloads (gatherBlockQuantized): see [the Q summary](#summary-q).', '');
  L.push('## Workloads', '', '| id | workload | output | indices |', '| --- | --- | --- | --- |');
  for (const w of report.workloads) L.push(`| ${w.id} | ${w.title} | ${fmtBytes(w.outBytes)} | ${fmtBytes(w.indexBytes)} |`);
  L.push('', '## Median time per call (ms) and GB/s ((output + index bytes) / time)', '');
  L.push(`| implementation | mode | ${W.join(' | ')} |`, `| --- | --- | ${W.map(() => '---:').join(' | ')} |`);
  const impls = [...new Map(report.results.filter((r) => (r.suite ?? 'W') === 'W').map((r) => [r.impl, r])).values()];
  for (const r of impls) {
    const cells = W.map((w) => {
      const x = report.results.find((y) => y.impl === r.impl && y.workload === w);
      if (!x) return '';
      if (x.error) return `error: ${x.error}`;
      return `${fmtMs(x.medianMs)} (${x.gbps.toFixed(1)})`;
    });
    L.push(`| ${r.impl} | ${r.mode} | ${cells.join(' | ')} |`);
  }
  const notes = [...new Set(ok.filter((r) => r.note).map((r) => `${r.impl}: ${r.note}`))];
  if (notes.length) L.push('', 'Notes from the peers\' adapters:', '', ...notes.map((n) => `- ${n}`));

  const T = defaultThreads(report);
  L.push('', `## Ratios (wasm-gather as init() configures it here: simd-threaded, ${T} threads)`, '');
  L.push(`| ratio | ${W.join(' | ')} |`, `| --- | ${W.map(() => '---:').join(' | ')} |`);
  const row = (name, f) => L.push(`| ${name} | ${W.map((w) => fmtX(f(w))).join(' | ')} |`);
  row('resident, output to JS: fastest resident peer / wasm-gather', (w) => fastestPeer('resident', w)?.ms / time(wg('simd-threaded', T, 'resident'), w));
  row('resident, new array per call: same', (w) => fastestPeer('resident', w)?.ms / time(wg('simd-threaded', T, RUNNER['resident-new']), w));
  row('resident, output kept in wasm: same', (w) => fastestPeer('resident', w)?.ms / time(wg('simd-threaded', T, RUNNER['resident-chained']), w));
  row('one-shot: fastest one-shot peer / wasm-gather', (w) => fastestPeer('one-shot', w)?.ms / time(wg('simd-threaded', T, 'one-shot'), w));
  row('in-wasm, simd 1 thread / native C', (w) => time(wg('simd', 1, 'in-wasm'), w) / time('native C, -O3, 1 thread', w));
  row('in-wasm / memory.copy bound', (w) => time(wg('simd-threaded', T, 'in-wasm'), w) / time('memory.copy of the output bytes (wasm)', w));
  row('in-wasm: 1 thread / 2 threads', (w) => time(wg('simd-threaded', 1, 'in-wasm'), w) / time(wg('simd-threaded', 2, 'in-wasm'), w));
  row('resident: 1 thread / 2 threads', (w) => time(wg('simd-threaded', 1, 'resident'), w) / time(wg('simd-threaded', 2, 'resident'), w));
  L.push('', 'Fastest peer per workload: ' + W.map((w) => `${w} resident ${fastestPeer('resident', w)?.impl ?? '–'}, one-shot ${fastestPeer('one-shot', w)?.impl ?? '–'}`).join('; ') + '.');

  L.push('', '## Targets (W)', '', '| target | measured | met |', '| --- | --- | --- |');
  for (const t of targets(report)) L.push(`| ${t.name}${t.detail ? ` (${t.detail})` : ''} | ${t.value} | ${t.met ? 'yes' : '**no**'} |`);

  L.push('', '## Targets (move each byte once; Node)', '', '| target | measured | met |', '| --- | --- | --- |');
  for (const t of targets13(report)) L.push(`| ${t.name}${t.detail ? ` (${t.detail})` : ''} | ${t.value} | ${t.met ? 'yes' : '**no**'} |`);

  L.push('', '## Peak wasm heap per call (simd-threaded)', '', '| workload | mode | peak allocated by the call | data + indices + output | wasm memory |', '| --- | --- | ---: | ---: | ---: |');
  for (const w of report.workloads) {
    for (const mode of ['one-shot', 'resident', 'resident-chained', 'in-wasm']) {
      const r = report.results.find((x) => x.impl === wg('simd-threaded', T, RUNNER[mode]) && x.workload === w.id);
      if (r && !r.error) L.push(`| ${w.id} | ${mode} | ${fmtBytes(r.peakCallBytes)} | ${fmtBytes(w.dataBytes + w.indexBytes + w.outBytes)} | ${fmtBytes(r.memoryBytes)} |`);
    }
  }
  L.push('', '## Init (until the first op has run, fresh Node process, median of runs)', '', '| variant | threads | ms |', '| --- | ---: | ---: |');
  for (const i of report.init) L.push(`| ${i.variant} | ${i.threads} | ${i.medianMs.toFixed(1)} |`);
  L.push('', '## Sizes', '', '| file | bytes | gzip |', '| --- | ---: | ---: |');
  for (const s of report.sizes) L.push(`| ${s.file} | ${s.bytes} | ${s.gzip} |`);
  L.push('');
}

/** Horizontal bars, log scale: speed-up over the fastest peer in the same mode, per workload. */
function svg(report) {
  const { time, fastestPeer, wg } = index(report);
  const T = defaultThreads(report);
  const series = [
    { name: 'wasm-gather, resident, output kept in wasm', color: '#1a4a80', f: (w) => fastestPeer('resident', w)?.ms / time(wg('simd-threaded', T, RUNNER['resident-chained']), w) },
    { name: 'wasm-gather, resident, output to JS', color: '#2b6cb0', f: (w) => fastestPeer('resident', w)?.ms / time(wg('simd-threaded', T, 'resident'), w) },
    { name: 'wasm-gather, one-shot', color: '#68a0d8', f: (w) => fastestPeer('one-shot', w)?.ms / time(wg('simd-threaded', T, 'one-shot'), w) },
    { name: 'native C, 1 thread, in memory, vs resident peers', color: '#a0a0a0', f: (w) => fastestPeer('resident', w)?.ms / time('native C, -O3, 1 thread', w) },
  ];
  const W = report.workloads.map((w) => w.id);
  const vals = W.flatMap((w) => series.map((s) => s.f(w))).filter((x) => Number.isFinite(x) && x > 0);
  const lo = Math.min(0.5, ...vals), hi = Math.max(2, ...vals);
  const [x0, x1, barH, gap, top] = [70, 660, 12, 14, 50];
  const xOf = (v) => x0 + (Math.log(v) - Math.log(lo)) / (Math.log(hi) - Math.log(lo)) * (x1 - x0);
  const height = top + W.length * (series.length * barH + gap) + 70;
  const e = [];
  e.push(`<svg xmlns="http://www.w3.org/2000/svg" width="700" height="${height}" font-family="sans-serif" font-size="11">`);
  e.push(`<text x="10" y="16" font-size="13">Speed-up over the fastest peer in the same mode (log scale; right of 1x is faster)</text>`);
  e.push(`<text x="10" y="30" fill="#555">peers: onnxruntime-web 1.30 (1 and 2 threads), tfjs 4.22 cpu and wasm; ${report.machine.cores} cores, Node ${report.machine.node}</text>`);
  for (let p = Math.ceil(Math.log2(lo)); p <= Math.floor(Math.log2(hi)); p++) {
    const v = 2 ** p, x = xOf(v);
    e.push(`<line x1="${x}" y1="${top - 6}" x2="${x}" y2="${height - 50}" stroke="${v === 1 ? '#000' : '#ddd'}"/>`);
    e.push(`<text x="${x}" y="${height - 38}" text-anchor="middle">${v >= 1 ? v : v.toFixed(2)}x</text>`);
  }
  W.forEach((w, i) => {
    const y = top + i * (series.length * barH + gap);
    e.push(`<text x="${x0 - 8}" y="${y + series.length * barH / 2 + 4}" text-anchor="end">${w}</text>`);
    series.forEach((s, j) => {
      const v = s.f(w);
      if (!Number.isFinite(v) || v <= 0) return;
      const a = xOf(1), b = xOf(v);
      e.push(`<rect x="${Math.min(a, b)}" y="${y + j * barH}" width="${Math.max(1, Math.abs(b - a))}" height="${barH - 2}" fill="${s.color}"/>`);
      e.push(`<text x="${Math.max(a, b) + 3}" y="${y + j * barH + barH - 3}">${v.toFixed(1)}x</text>`);
    });
  });
  series.forEach((s, j) => {
    const x = 20 + (j % 2) * 340, y = height - 30 + Math.floor(j / 2) * 15;
    e.push(`<rect x="${x}" y="${y - 9}" width="10" height="10" fill="${s.color}"/><text x="${x + 14}" y="${y}">${s.name}</text>`);
  });
  e.push('</svg>');
  return e.join('\n') + '\n';
}

/** The W summary: median ms of the main rows, and the targets. */
function summary(report) {
  const { time, fastestPeer, wg } = index(report);
  const T = defaultThreads(report);
  const W = report.workloads.map((w) => w.id);
  const L = [`Median ms per call, ${report.machine.cores} cores, Node ${report.machine.node}, ${(report.suiteDates?.W ?? report.date).slice(0, 10)}` +
    ` (wasm-gather as \`init()\` sets it up here: simd-threaded, ${T} threads):`, ''];
  L.push(`| | ${W.join(' | ')} |`, `| --- | ${W.map(() => '---:').join(' | ')} |`);
  const line = (name, f) => L.push(`| ${name} | ${W.map((w) => fmtMs(f(w))).join(' | ')} |`);
  line('wasm-gather, one-shot', (w) => time(wg('simd-threaded', T, 'one-shot'), w));
  line('wasm-gather, resident, output to JS', (w) => time(wg('simd-threaded', T, 'resident'), w));
  line('wasm-gather, resident, output kept in wasm', (w) => time(wg('simd-threaded', T, RUNNER['resident-chained']), w));
  line('wasm-gather, resident, read with view()', (w) => time(wg('simd-threaded', T, RUNNER['resident-view']), w));
  line('wasm-gather, in-wasm (kernel + call)', (w) => time(wg('simd-threaded', T, 'in-wasm'), w));
  line('wasm-gather simd, 1 thread, in-wasm', (w) => time(wg('simd', 1, 'in-wasm'), w));
  line('wasm-gather simd-threaded, 1 thread, in-wasm', (w) => time(wg('simd-threaded', 1, 'in-wasm'), w));
  const paired = (w, key) => report.results.find((r) => !r.error && r.impl === wg('simd-threaded', 1, `in-wasm, ${PAIRED}`) && r.workload === w)?.[key];
  line('the same, W1\'s take, timed in turn with the row below', (w) => paired(w, 'pairedTakeMs'));
  line('the same, W1\'s rows by gather with torch\'s expanded index (x.gather(1, i.unsqueeze(-1).expand(-1, -1, D)))', (w) => paired(w, 'pairedGatherMs'));
  line('native C, -O3, 1 thread', (w) => time('native C, -O3, 1 thread', w));
  line('memory.copy of the output (bound)', (w) => time('memory.copy of the output bytes (wasm)', w));
  line('fastest peer, one-shot', (w) => fastestPeer('one-shot', w)?.ms);
  line('fastest peer, resident', (w) => fastestPeer('resident', w)?.ms);
  line('plain JS loops', (w) => time('plain JS loops', w));
  L.push('', '| target (W) | measured | met |', '| --- | --- | --- |');
  for (const t of targets(report)) L.push(`| ${t.name} | ${t.value} | ${t.met ? 'yes' : '**no**'} |`);
  L.push('', '| target (move each byte once) | measured | met |', '| --- | --- | --- |');
  for (const t of targets13(report)) L.push(`| ${t.name} | ${t.value} | ${t.met ? 'yes' : '**no**'} |`);
  return L.join('\n');
}

/** Writes the report to mdPath and its chart to svgPath (linked from the report by a relative path). */
export function writeReport(report, mdPath, svgPath) {
  const chart = report.workloads?.length ? relative(dirname(mdPath), svgPath).split('\\').join('/') : undefined;
  writeFileSync(mdPath, markdown(report, chart));
  if (chart) writeFileSync(svgPath, svg(report));
}

// ---- B: the W workloads in Chromium (bench/browser/) ----

/** Per page kind: the fastest in-page peer's resident time over wasm-gather's, per workload. */
function bRatios(run, mode) {
  const ok = (r, w) => r.workload === w && !r.error;
  const mine = (w) => run.rows.find((r) => !r.peer && r.mode === mode && ok(r, w))?.medianMs;
  const peer = (w) => Math.min(...run.rows.filter((r) => r.peer && ok(r, w)).map((r) => r.medianMs));
  return PEER_WORKLOADS.map((w) => peer(w) / mine(w));
}

/** The move-each-byte-once target in Chromium: { name, value, met, detail }. */
export function bTargets(browser) {
  const isolated = browser.find((r) => r.page.crossOriginIsolated && r.suite !== 'C');
  if (!isolated) return [];
  const x = bRatios(isolated, 'resident');
  return [{ name: `In Chromium (isolated, ${isolated.page.threads} threads): resident (output to JS) geometric mean at least 2x the fastest in-page peer, W1-W4b`,
    value: fmtX(geomean(x)), met: geomean(x) >= 2, detail: PEER_WORKLOADS.map((w, i) => `${w} ${fmtX(x[i])}`).join(', ') }];
}

function bMarkdown(browser, L) {
  const W = [...new Set(browser.flatMap((r) => r.rows.map((x) => x.workload)))];
  L.push('# B: the W workloads in Chromium', '',
    'From `npm run bench -- --browser` (bench/browser/): Debian\'s headless Chromium runs bench/browser/bench.html on a cross-origin ' +
    'isolated page and on a plain one, with onnxruntime-web (wasm, the data as an initializer) and TensorFlow.js\'s wasm backend ' +
    '(the data tensor kept) in the same page. Each output checked bitwise against the reference before timing; medians of samples ' +
    'of at least 5 ms (a plain page\'s clock ticks in 100 µs steps).', '');
  for (const run of browser) {
    const { page } = run;
    L.push(`## ${page.crossOriginIsolated ? 'Cross-origin isolated' : 'Plain'} page: wasm-gather ${page.variant}, ${page.threads} thread(s)`, '',
      `Median ms per call, ${page.date ?? ''} ${page.userAgent.match(/(HeadlessChrome|Chrome)\/[\d.]+/)?.[0] ?? ''}:`, '');
    L.push(`| | ${W.join(' | ')} |`, `| --- | ${W.map(() => '---:').join(' | ')} |`);
    for (const impl of [...new Set(run.rows.map((r) => r.impl))]) {
      L.push(`| ${impl} | ${W.map((w) => { const r = run.rows.find((x) => x.impl === impl && x.workload === w); return r?.error ? `error: ${r.error}` : fmtMs(r?.medianMs); }).join(' | ')} |`);
    }
    for (const mode of ['resident', 'resident-view']) {
      const x = bRatios(run, mode);
      L.push(`| **fastest in-page peer / wasm-gather, ${mode === 'resident' ? 'resident, output to JS' : 'read with view()'}** | ${PEER_WORKLOADS.map((w, i) => `**${fmtX(x[i])}**`).join(' | ')} | |`);
    }
    L.push('');
  }
  const targets = bTargets(browser);
  if (targets.length) {
    L.push('| target (move each byte once, browser) | measured | met |', '| --- | --- | --- |');
    for (const t of targets) L.push(`| ${t.name} (${t.detail}) | ${t.value} | ${t.met ? 'yes' : '**no**'} |`);
    L.push('');
  }
}

// ---- Q: gatherBlockQuantized ----

const round16 = (n) => (n + 15) & ~15;
const MEMCOPY = 'memory.copy of the output bytes (wasm)';
const JS_Q = 'plain JS dequantizing loop';

function qIndex(report) {
  const ok = report.results.filter((r) => !r.error && r.suite === 'Q');
  const row = (impl, w) => ok.find((r) => r.impl === impl && r.workload === w);
  const time = (impl, w) => row(impl, w)?.medianMs;
  const ort = (w, threads) => ok.filter((r) => r.peer === 'onnxruntime-web' && r.workload === w && (!threads || r.threads === threads))
    .reduce((best, r) => (!best || r.medianMs < best.ms ? { impl: r.impl, ms: r.medianMs, threads: r.threads } : best), undefined);
  const wg = (variant, threads, mode) => `wasm-gather ${variant} ${threads}T, ${RUNNER[mode]}`;
  return { ok, row, time, ort, wg };
}

/** The move-each-byte-once targets (Node): { name, value, met, detail }. */
export function targets13(report) {
  const { time, fastestPeer, wg } = index(report);
  const T = defaultThreads(report);
  const out = [];
  const add = (name, value, met, detail = '') => out.push({ name, value, met, detail });
  const W = report.workloads.map((w) => w.id);
  const oneShot = W.map((w) => fastestPeer('one-shot', w)?.ms / time(wg('simd-threaded', T, 'one-shot'), w));
  const worst = Math.min(...oneShot);
  add('one-shot: at least 1.5x the fastest one-shot peer on every workload', `min ${fmtX(worst)} (${W[oneShot.indexOf(worst)]})`, worst >= 1.5,
    W.map((w, i) => `${w} ${fmtX(oneShot[i])}`).join(', '));
  const vsJs = W.map((w) => time('plain JS loops', w) / time(wg('simd-threaded', T, 'one-shot'), w));
  const worstJs = Math.min(...vsJs);
  add('one-shot: never slower than the plain JS loop', `min ${fmtX(worstJs)} (${W[vsJs.indexOf(worstJs)]})`, worstJs >= 1,
    W.map((w, i) => `${w} ${fmtX(vsJs[i])}`).join(', '));
  const ortW5 = time('onnxruntime-web 1.30.0 (inputs fed per run)', 'W5') / time(wg('simd-threaded', T, 'one-shot'), 'W5');
  add('W5 one-shot: at least 5x onnxruntime-web fed per run', fmtX(ortW5), ortW5 >= 5);
  for (const [mode, label, want] of [['resident', 'output to a reused JS array', 2.5], ['resident-view', 'read with view()', 3.5]]) {
    const x = PEER_WORKLOADS.map((w) => fastestPeer('resident', w)?.ms / time(wg('simd-threaded', T, RUNNER[mode]), w));
    const min = Math.min(...x);
    add(`resident, ${label}, W1-W4b: geometric mean over the fastest resident peer at least ${want}x` + (mode === 'resident' ? ', none below 1.5x' : ''),
      `${fmtX(geomean(x))}, min ${fmtX(min)}`, geomean(x) >= want && (mode !== 'resident' || min >= 1.5),
      PEER_WORKLOADS.map((w, i) => `${w} ${fmtX(x[i])}`).join(', '));
  }
  return out;
}

/** The Q targets: { name, value, met, detail }. */
export function qTargets(report) {
  const { time, ort, wg, row } = qIndex(report);
  const T = defaultThreads(report);
  const out = [];
  const add = (name, value, met, detail = '') => out.push({ name, value, met, detail });
  const res = (w) => time(wg('simd-threaded', T, 'resident-new'), w);
  for (const w of ['Q2', 'Q3', 'Q4']) {
    const x = ort(w)?.ms / res(w);
    add(`${w}: resident table, output to JS (a new array per call): at least 3x onnxruntime-web (its faster thread count)`, fmtX(x), x >= 3,
      `${fmtMs(res(w))} vs ${fmtMs(ort(w)?.ms)}`);
  }
  add('Q1: resident table, output to JS: under 3 µs per call', fmtMs(res('Q1')), res('Q1') < 3e-3);
  const x1 = ort('Q1')?.ms / res('Q1');
  add('Q1: resident table, output to JS: at least 5x onnxruntime-web', fmtX(x1), x1 >= 5, `${fmtMs(res('Q1'))} vs ${fmtMs(ort('Q1')?.ms)}`);
  for (const w of report.qWorkloads.map((q) => q.id)) {
    const f = time(MEMCOPY, w) / time(wg('simd-threaded', T, 'in-wasm'), w);
    add(`${w}: in-wasm throughput at least half of the memory.copy bound of the output bytes`, `${fmtX(f)} of the bound`, f >= 0.5,
      `${fmtMs(time(wg('simd-threaded', T, 'in-wasm'), w))} vs ${fmtMs(time(MEMCOPY, w))}`);
  }
  // Peak wasm heap: the table is resident; a call may hold only its indices and its output.
  let heapOk = true;
  const detail = [];
  for (const q of report.qWorkloads) {
    const io = round16(q.indexBytes) + round16(q.outBytes);
    for (const [mode, need] of [['resident-new', io], ['resident', io], ['resident-chained', round16(q.indexBytes)], ['in-wasm', 0]]) {
      const r = row(wg('simd-threaded', T, mode), q.id);
      if (!r) continue;
      const good = r.peakCallBytes <= need && r.heapGrowth === 0;
      heapOk &&= good;
      detail.push(`${q.id} ${mode} ${r.peakCallBytes}/${need}${r.heapGrowth ? ` growth ${r.heapGrowth}` : ''}`);
    }
  }
  if (!detail.length) heapOk = false; // nothing measured
  add('peak wasm heap per call: the indices and the output only (table resident), heap in use unchanged after the calls',
    detail.length ? (heapOk ? 'yes' : 'no') : 'not measured', heapOk,
    `peak bytes / indices + output (each rounded to 16): ${detail.join(', ')}`);
  return out;
}

/** The Q summary: medians, ratios and targets. */
function qSummary(report) {
  const { time, ort, wg } = qIndex(report);
  const T = defaultThreads(report);
  const Q = report.qWorkloads.map((w) => w.id);
  const L = [`Median time per call, ${report.machine.cores} cores, Node ${report.machine.node}, ${(report.suiteDates?.Q ?? report.date).slice(0, 10)}` +
    ` (wasm-gather as \`init()\` sets it up here: simd-threaded, ${T} threads; ms unless marked µs):`, ''];
  L.push(`| | ${Q.join(' | ')} |`, `| --- | ${Q.map(() => '---:').join(' | ')} |`);
  const line = (name, f) => L.push(`| ${name} | ${Q.map((w) => fmtMs(f(w))).join(' | ')} |`);
  line('wasm-gather, resident table, output to JS (new array)', (w) => time(wg('simd-threaded', T, 'resident-new'), w));
  line('wasm-gather, resident table, output into a reused array', (w) => time(wg('simd-threaded', T, 'resident'), w));
  line('wasm-gather, output kept in wasm', (w) => time(wg('simd-threaded', T, 'resident-chained'), w));
  line('wasm-gather, in-wasm (kernel + call)', (w) => time(wg('simd-threaded', T, 'in-wasm'), w));
  line('wasm-gather simd, 1 thread, output to JS (new array)', (w) => time(wg('simd', 1, 'resident-new'), w));
  line('memory.copy of the output (bound)', (w) => time(MEMCOPY, w));
  line('onnxruntime-web 1.30, 1 thread', (w) => ort(w, 1)?.ms);
  line('onnxruntime-web 1.30, 2 threads', (w) => ort(w, 2)?.ms);
  line('plain JS dequantizing loop', (w) => time(JS_Q, w));
  L.push('');
  L.push(`| ratio | ${Q.join(' | ')} |`, `| --- | ${Q.map(() => '---:').join(' | ')} |`);
  const ratio = (name, f) => L.push(`| ${name} | ${Q.map((w) => fmtX(f(w))).join(' | ')} |`);
  ratio('onnxruntime-web (faster of 1/2 threads) / wasm-gather, output to JS (new array)', (w) => ort(w)?.ms / time(wg('simd-threaded', T, 'resident-new'), w));
  ratio('onnxruntime-web / wasm-gather, output kept in wasm', (w) => ort(w)?.ms / time(wg('simd-threaded', T, 'resident-chained'), w));
  ratio('plain JS loop / wasm-gather, output to JS (new array)', (w) => time(JS_Q, w) / time(wg('simd-threaded', T, 'resident-new'), w));
  ratio('in-wasm throughput / memory.copy bound', (w) => time(MEMCOPY, w) / time(wg('simd-threaded', T, 'in-wasm'), w));
  ratio('in-wasm: 1 thread / 2 threads', (w) => time(wg('simd-threaded', 1, 'in-wasm'), w) / time(wg('simd-threaded', 2, 'in-wasm'), w));
  L.push('', '| target (Q) | measured | met |', '| --- | --- | --- |');
  for (const t of qTargets(report)) L.push(`| ${t.name}${t.detail ? ` (${t.detail})` : ''} | ${t.value} | ${t.met ? 'yes' : '**no**'} |`);
  return L.join('\n');
}

function qMarkdown(report, L) {
  const { ok, row, wg } = qIndex(report);
  const T = defaultThreads(report);
  const Q = report.qWorkloads.map((w) => w.id);
  L.push('# Q: gatherBlockQuantized', '');
  L.push('Block-quantized embedding tables (seeded random codes, positive scales, random zero points), int32 indices uniform over ' +
    'the rows. Every output was checked bitwise equal to `refGatherBlockQuantized` (`common/reference-quantized.mjs`, computed ' +
    'for the gathered rows only) before it was timed. Resident table everywhere: wasm-gather `upload()`s the codes, scales and zero ' +
    'points once (int4 with `upload(t, { quantType: \'int4\' })`); onnxruntime-web 1.30 (default wasm build, wasm EP) has them as ' +
    'initializers of a one-node `com.microsoft.GatherBlockQuantized` model, the indices its only input, and returns a new array per ' +
    'run; the plain JS loop (`common/js-loops.mjs`) reads the JS arrays. wasm-gather modes: *resident, new array per call* (as ' +
    'onnxruntime returns its output: the targets\' mode), *resident* (into a reused `opts.out` array), *resident, output kept in ' +
    'wasm* (a resident `opts.out`), *in-wasm* (indices and output resident too: the kernel and the call). GB/s: (output + index ' +
    'bytes) / time.', '');
  L.push('## Summary (Q)', '', qSummary(report), '');
  L.push('## Workloads (Q)', '', '| id | workload | table (codes + scales + zero points) | output | indices | output hash (FNV-1a) |', '| --- | --- | ---: | ---: | ---: | --- |');
  for (const w of report.qWorkloads) L.push(`| ${w.id} | ${w.title} | ${fmtBytes(w.tableBytes)} | ${fmtBytes(w.outBytes)} | ${w.indexBytes} B | ${w.outputHash} |`);
  L.push('', '## Median time per call (ms) and GB/s (Q)', '');
  L.push(`| implementation | mode | ${Q.join(' | ')} |`, `| --- | --- | ${Q.map(() => '---:').join(' | ')} |`);
  const rows = report.results.filter((r) => r.suite === 'Q');
  for (const r of [...new Map(rows.map((x) => [x.impl, x])).values()]) {
    const cells = Q.map((w) => {
      const x = rows.find((y) => y.impl === r.impl && y.workload === w);
      if (!x) return '';
      if (x.error) return `error: ${x.error}`;
      return `${fmtMs(x.medianMs)} (${x.gbps.toFixed(2)})`;
    });
    L.push(`| ${r.impl} | ${r.mode} | ${cells.join(' | ')} |`);
  }
  L.push('', `## Peak wasm heap per call (Q, wasm-gather simd-threaded ${T}T)`, '',
    '| workload | mode | peak allocated by the call | indices + output (each rounded to 16) | heap in use after the timed calls minus before | resident table (uploads) | table bytes | wasm memory |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const q of report.qWorkloads) {
    for (const mode of ['resident-new', 'resident', 'resident-chained', 'in-wasm']) {
      const r = row(wg('simd-threaded', T, mode), q.id);
      if (!r) continue;
      const need = (mode === 'in-wasm' ? 0 : round16(q.indexBytes)) + (mode === 'resident-new' || mode === 'resident' ? round16(q.outBytes) : 0);
      L.push(`| ${q.id} | ${mode} | ${r.peakCallBytes} B | ${need} B | ${r.heapGrowth} B | ${fmtBytes(r.residentBytes)} | ${fmtBytes(q.tableBytes)} | ${fmtBytes(r.memoryBytes)} |`);
    }
  }
  L.push('', '(*resident* writes into a JS `opts.out` array: the output is still allocated in wasm for the call and copied out, as with a new array.)', '');
  if (!ok.length) L.push('No Q results.', '');
}

// ---- T: TensorFlow.js, stock kernels vs wasm-gather/tfjs (the U part: report-tfjs-u.mjs) ----

const T_BACKENDS = ['cpu', 'wasm'];

function tIndex(report) {
  const ok = report.results.filter((r) => !r.error && r.suite === 'T');
  const row = (backend, variant, w, direct = false) => ok.find((r) => r.backend === backend && r.variant === variant &&
    !!r.impl.includes('tf.gather with batchDims') === direct && r.workload === w);
  const time = (...a) => row(...a)?.medianMs;
  const ratio = (backend, w) => time(backend, 'stock', w) / time(backend, 'adapter', w);
  return { ok, row, time, ratio };
}

/** The T targets: { name, value, met, detail }. */
export function tTargets(report) {
  const { ratio } = tIndex(report);
  const W = report.tWorkloads.map((w) => w.id);
  const out = [];
  const add = (name, value, met, detail = '') => out.push({ name, value, met, detail });
  for (const [backend, x] of [['cpu', 20], ['wasm', 10]]) {
    const r = ratio(backend, 'W1');
    add(`W1: wasm-gather/tfjs at least ${x}x faster than stock tfjs-${backend}`, fmtX(r), r >= x);
  }
  const all = T_BACKENDS.flatMap((b) => W.map((w) => [`${b} ${w}`, ratio(b, w)]));
  const worst = all.reduce((a, b) => (!(b[1] >= a[1]) ? b : a));
  add('no workload slower than stock (either backend)', `min ${fmtX(worst[1])} (${worst[0]})`, all.every(([, x]) => x >= 1),
    all.map(([k, x]) => `${k} ${fmtX(x)}`).join(', '));
  return out;
}

function tSummary(report) {
  const { time, ratio } = tIndex(report);
  const W = report.tWorkloads.map((w) => w.id);
  const L = [`Median ms per call, ${report.machine.cores} cores, Node ${report.machine.node}, ${(report.suiteDates?.T ?? report.date).slice(0, 10)}:`, ''];
  L.push(`| | ${W.join(' | ')} |`, `| --- | ${W.map(() => '---:').join(' | ')} |`);
  const line = (name, f) => L.push(`| ${name} | ${W.map((w) => f(w)).join(' | ')} |`);
  for (const b of T_BACKENDS) {
    line(`tfjs-${b}, stock kernels`, (w) => fmtMs(time(b, 'stock', w)));
    line(`tfjs-${b}, wasm-gather/tfjs`, (w) => fmtMs(time(b, 'adapter', w)));
    line(`**speed-up on ${b}** (stock / adapter)`, (w) => `**${fmtX(ratio(b, w))}**`);
  }
  line('tfjs-wasm, wasm-gather/tfjs, tf.gather with batchDims (¹)', (w) => fmtMs(time('wasm', 'adapter', w, true)));
  line('speed-up on wasm, stock (workaround) / adapter (tf.gather with batchDims)', (w) => fmtX(time('wasm', 'stock', w) / time('wasm', 'adapter', w, true)));
  L.push('', '(¹) W2, W4a, W4b only: the adapter makes tf.gather with batchDims right on the wasm backend (tfjs#8658), so an ' +
    'application can drop the gatherND-on-tuples workaround the stock rows need.');
  L.push('', '| target (T) | measured | met |', '| --- | --- | --- |');
  for (const t of tTargets(report)) L.push(`| ${t.name}${t.detail ? ` (${t.detail})` : ''} | ${t.value} | ${t.met ? 'yes' : '**no**'} |`);
  return L.join('\n');
}

function tMarkdown(report, L) {
  const { ok } = tIndex(report);
  L.push('# T: TensorFlow.js, stock kernels vs wasm-gather/tfjs (tf.gather, tf.gatherND; U: the scatters and a gradient)', '');
  L.push('The W workloads through TensorFlow.js 4.22 (`@tensorflow/tfjs-core` with `tfjs-backend-cpu`, and `tfjs-backend-wasm`: ' +
    'SIMD, no threads in Node), once with the backends\' own GatherV2/GatherNd kernels and once after ' +
    '`registerKernels(tf, { backends: [backend] })` of `wasm-gather/tfjs` (wasm-gather as `init()` configures it by default). ' +
    'The same application code in both: the data tensor is made once and kept across calls (an embedding table; on cpu the adapter ' +
    'copies it into wasm-gather\'s memory on its second use, before timing; on wasm the op runs in tfjs\'s own memory, in ' +
    'wasm-gather\'s guest module on the calling thread, and nothing is copied); per call the int32 indices tensor is made, the op runs, ' +
    'the output is read back with `dataSync()`, and the indices and output tensors are disposed. The calls are those of the ' +
    'tfjs peer (`bench/peers/tfjs.mjs`): W2, W4a and W4b are `tf.gather(x, i, b, b)` on cpu and, on wasm, `tf.gatherND` on ' +
    '(batch coords, index) tuples built per call (the stock wasm gather with batchDims is wrong: tfjs#8658). Each runner\'s ' +
    'first call is checked to be served by the intended kernels (`kernelStats()`: no fallback), each output checked bitwise ' +
    'equal to the reference before timing.', '');
  L.push('## Summary (T)', '', tSummary(report), '');
  const W = new Set(report.tWorkloads.map((w) => w.id)); // (the U rows' notes and errors: report-tfjs-u.mjs)
  const notes = [...new Set(ok.filter((r) => r.note && W.has(r.workload)).map((r) => `${r.impl}: ${r.note}`))];
  if (notes.length) L.push('Notes:', '', ...notes.map((n) => `- ${n}`), '');
  const errors = report.results.filter((r) => r.suite === 'T' && r.error && W.has(r.workload));
  if (errors.length) L.push('Errors:', '', ...errors.map((r) => `- ${r.impl} ${r.workload}: ${r.error}`), '');
  if (report.uWorkloads?.length) uMarkdown(report, L);
}
