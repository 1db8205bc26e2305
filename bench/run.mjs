// The benchmark: every implementation on every workload of common/workloads.mjs
// (W: take/gatherND/gather; Q: gatherBlockQuantized; T: W1-W5 through tf.gather/tf.gatherND with
// tfjs's stock kernels and with wasm-gather/tfjs, and common/tfjs-workloads.mjs's U1-U3: a
// gradient step, tf.scatterND and tf.tensorScatterUpdate, bench/tfjs-u-suite.mjs) and
// common/scatter-workloads.mjs (S: the
// scatters, bench/scatter-suite.mjs), and the thread scaling of W1-W4b, S1, S3 and S4 beside a
// parallel copy bound (P: bench/thread-suite.mjs), and S3's sort into parts on one thread beside the bounds of
// what a sort adds (R: bench/sort-cost-suite.mjs), and what a small call costs through JS, plain
// and prepared, beside a plain JS loop, with where its time goes (C: bench/call-suite.mjs), and
// common/bag-workloads.mjs (E: the fused gather-reduce, embeddingBag and segmentReduce, E1-E4,
// bench/bag-suite.mjs), and common/grad-workloads.mjs (G: the bags' gradient, embeddingBagBackward
// and the TensorFlow.js gradients it and the scatters serve, G1-G3, bench/grad-suite.mjs), and
// common/mask-workloads.mjs (M: the masks' ops, compress, booleanMask, nonZero + take and
// maskedScatter, M1-M3, timed interleaved, bench/mask-suite.mjs), in one run, each output checked equal to the reference before it is timed. Writes bench/results.json, and the report docs/benchmarks.md with
// its chart docs/ratios.svg (bench/lib/report.mjs): the one place the figures are shown.
// Usage: npm run bench [-- --quick]   (--quick: short budgets, for a smoke test of the harness)
//        node bench/run.mjs --only Q    (or BENCH_ONLY=Q; W, T, S, P, R, C, E, G and M likewise): one suite alone; the
//                                       other suites' rows are kept from the last bench/results.json
//        node bench/run.mjs --report-only   (docs/benchmarks.md and docs/ratios.svg again from the
//                                            committed bench/results.json and results-browser.json)
//        npm run bench -- --browser    (W1-W5 in headless Chromium, isolated and not, with the
//                                       in-page peers, and the C rows on the isolated page:
//                                       bench/browser/; bench/results-browser.json; with --only C
//                                       the C rows alone, the W runs kept from the last file)
import { execFile } from 'node:child_process';
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { bytesOf, sameBytes } from '../common/bytes.mjs';
import { jsLoops } from '../common/js-loops.mjs';
import { caller } from '../common/op-caller.mjs';
import { refOps } from '../common/reference.mjs';
import { refGatherBlockQuantized } from '../common/reference-quantized.mjs';
import { memcopyBound, setThenCopyBound } from './lib/memcopy-bound.mjs';
import { measure, median } from '../common/timing.mjs';
import { W4B_BOUND, W4B_RESIDENT_BOUND, writeReport } from './lib/report.mjs';
import { wasmGatherGroups, wasmGatherQuantizedGroups } from './lib/wasm-gather-runners.mjs';
import { buildNative } from './native/build.mjs';
import { Q_WORKLOADS, WORKLOADS, bytesMoved, fnv1a, makeQuantTensors, makeTensors, quantOpts } from '../common/workloads.mjs';
import { runBagSuite } from './bag-suite.mjs';
import { runCallSuite } from './call-suite.mjs';
import { runGradSuite } from './grad-suite.mjs';
import { runMaskSuite } from './mask-suite.mjs';
import { runScatterSuite } from './scatter-suite.mjs';
import { runSortCostSuite } from './sort-cost-suite.mjs';
import { runThreadSuite } from './thread-suite.mjs';
import { runTfjsUSuite } from './tfjs-u-suite.mjs';

const exec = promisify(execFile);
const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const quick = process.argv.includes('--quick');
const budget = quick ? { budgetMs: 40, minSamples: 3, warmUpMs: 10 } : { budgetMs: 250, minSamples: 5, warmUpMs: 100 };
const cores = os.availableParallelism?.() ?? os.cpus().length;
const log = (...a) => console.error(...a);
const SUITES = ['W', 'Q', 'T', 'S', 'P', 'R', 'C', 'E', 'G', 'M'];
const onlyArg = process.argv.find((a, i) => a.startsWith('--only=') || process.argv[i - 1] === '--only');
const only = (onlyArg?.replace('--only=', '') ?? process.env.BENCH_ONLY ?? '').toUpperCase() || undefined;
if (only && !SUITES.includes(only)) throw new Error(`--only ${only}: one of ${SUITES.join(', ')}`);
const runs = (suite) => !only || only === suite;

// ---- the in-process implementations, as groups that share a set-up (one wasm-gather init) ----
async function peerGroups() {
  const groups = [];
  for (const file of ['./peers/ort.mjs', './peers/tfjs.mjs']) {
    try {
      const { peers } = await import(file);
      groups.push({ name: file, begin() {}, end() {}, runners: (await peers()).map((r) => ({ family: 'peer', ...r })) });
    } catch (e) {
      log(`${file}: could not load: ${e.message}`);
    }
  }
  return groups;
}

async function quantizedPeerGroups(workloads) {
  try {
    const { quantizedPeers } = await import('./peers/ort.mjs');
    const runners = (await quantizedPeers(workloads)).map((r) => ({ family: 'peer', ...r }));
    return [{ name: 'onnxruntime-web (Q)', begin() {}, end() {}, runners }];
  } catch (e) {
    log(`./peers/ort.mjs: could not load: ${e.message}`);
    return [];
  }
}

// The bound: copying the output's bytes with memory.copy, for either group of baselines.
// What W4b must move: each index and its data read once, the output written.
const w4bBytes = (w, t) => t.indices.data.byteLength + t.data.data.byteLength + w.outBytes;

const memcopyRunner = {
  impl: 'memory.copy of the output bytes (wasm)', family: 'bound', mode: 'resident',
  setup: (w) => ({ run: memcopyBound(w.outBytes), unchecked: true, dispose() {} }),
};

const quantizedBaselineGroup = {
  name: 'baselines (Q)', begin() {}, end() {},
  runners: [
    memcopyRunner,
    { impl: 'plain JS dequantizing loop', family: 'js', mode: 'resident',
      setup: (w, t) => { const o = quantOpts(w, t); return { run: () => jsLoops.gatherBlockQuantized(t.data, t.indices, t.scales, o), dispose() {} }; } },
  ],
};

const baselineGroup = {
  name: 'baselines', begin() {}, end() {},
  runners: [
    memcopyRunner,
    // W4b (an index an element) reads each index and its data once and writes the output
    { impl: W4B_BOUND, family: 'bound', mode: 'resident', applies: (w) => w.id === 'W4b',
      setup: (w, t) => ({ run: memcopyBound(w4bBytes(w, t)), unchecked: true, dispose() {} }) },
    // and resident, its indices come from JS first
    { impl: W4B_RESIDENT_BOUND, family: 'bound', mode: 'resident', applies: (w) => w.id === 'W4b',
      setup: (w, t) => ({ run: setThenCopyBound(t.indices.data, w4bBytes(w, t)), unchecked: true, dispose() {} }) },
    { impl: 'plain JS loops', family: 'js', mode: 'one-shot',
      setup: (w, t) => ({ run: () => jsLoops[w.op](t.data, t.indices, w.opts), dispose() {} }) },
  ],
};

// A group's runners on every case: row per (runner, case). `b`: the timing budget (the slow S
// peers take a smaller one). A runner instance may bring its own output check (same), and with
// hash: true its checked output's hash is recorded.
async function runGroup(group, cases, results, b = budget) {
  await group.begin();
  try {
    for (const r of group.runners) {
      for (const c of cases) {
        if (r.applies && !r.applies(c.w, c.t)) continue;
        const row = { suite: c.suite, impl: r.impl, family: r.family, mode: r.mode, variant: r.variant, threads: r.threads, peer: r.peer, backend: r.backend, workload: c.w.id };
        let inst;
        try {
          inst = await r.setup(c.w, c.t);
          const inUseBefore = inst.heap?.().heapInUse;
          let out = await inst.run();
          if (inst.check) out = inst.check();
          if (!inst.unchecked && !(inst.same ?? c.same ?? sameBytes)(out, c.expected)) throw new Error('output differs from the reference');
          if (inst.note) row.note = inst.note; // (after the check, which may add to it)
          if (inst.hash) row.outputHash = fnv1a(out);
          if (inst.heap) {
            const h = inst.heap();
            row.peakCallBytes = h.lastCallBytes;
            row.memoryBytes = h.memoryBytes;
            if (c.suite === 'S') row.heapInUse = h.heapInUse;
          }
          if (inst.residentBytes !== undefined) row.residentBytes = inst.residentBytes;
          Object.assign(row, await measure(inst.run, b));
          if (inst.heap) row.heapGrowth = inst.heap().heapInUse - inUseBefore; // over every call of the measurement
          if (inst.paired) Object.assign(row, inst.paired()); // the medians of the calls a sample pairs
          row.gbps = c.bytes / row.medianMs / 1e6;
          log(`${r.impl.padEnd(52)} ${c.w.id.padEnd(4)} ${row.medianMs.toFixed(4).padStart(10)} ms`);
        } catch (e) {
          row.error = e.message.split('\n')[0];
          log(`${r.impl.padEnd(52)} ${c.w.id.padEnd(4)} ERROR ${row.error}`);
        } finally {
          await inst?.dispose?.();
        }
        results.push(row);
      }
    }
  } finally {
    await group.end();
  }
}

// ---- out-of-process measurements ----
async function nativeResults(cases) {
  const bin = await buildNative();
  const { stdout } = await exec(bin, ['--min-ms', quick ? '50' : '300'], { maxBuffer: 1 << 20 });
  return stdout.trim().split('\n').map((line) => {
    const n = JSON.parse(line);
    const c = cases.find((x) => x.w.id === n.workload);
    const row = { impl: 'native C, -O3, 1 thread', family: 'native', mode: 'resident', workload: n.workload };
    if (n.hash !== c.expectedHash) row.error = `output hash ${n.hash} differs from the reference's ${c.expectedHash}`;
    else Object.assign(row, { medianMs: n.medianMs, minMs: n.minMs, samples: n.samples, gbps: c.bytes / n.medianMs / 1e6 });
    return row;
  });
}

async function initTimes() {
  const out = [];
  for (const [variant, threads] of [['simd', 1], ['simd-threaded', 1], ['simd-threaded', 2]]) {
    const ms = [];
    for (let i = 0; i < (quick ? 1 : 5); i++) {
      const { stdout } = await exec(process.execPath, [here('./lib/init-time.mjs'), variant, String(threads)]);
      ms.push(JSON.parse(stdout).ms);
    }
    out.push({ variant, threads, medianMs: median(ms) });
  }
  return out;
}

function sizes() {
  const files = ['dist/wasm-gather-simd.wasm', 'dist/wasm-gather-simd-threaded.wasm', 'dist/wasm-gather-simd.web.mjs',
    'dist/wasm-gather-simd-threaded.web.mjs', 'dist/wasm-gather-simd.node.cjs', 'dist/wasm-gather-simd-threaded.node.cjs',
    // the modules js/index.mjs loads: every one but the TensorFlow.js adapter's
    ...readdirSync(here('../js'), { recursive: true }).filter((f) => f.endsWith('.mjs') && !['tfjs.mjs', 'guest.mjs'].includes(f))
      .sort().map((f) => `js/${f}`)];
  return files.map((f) => {
    const p = here(`../${f}`);
    return { file: f, bytes: statSync(p).size, gzip: gzipSync(readFileSync(p)).length };
  });
}

// ---- main ----
// Where the report goes.
const REPORT_MD = here('../docs/benchmarks.md');
const REPORT_SVG = here('../docs/ratios.svg');
// The browser runs (bench/results-browser.json, from --browser), shown in the report beside Node's.
function withBrowser(report) {
  try {
    report.browser = JSON.parse(readFileSync(here('./results-browser.json'), 'utf8'));
  } catch {
    // no browser run yet
  }
  return report;
}
if (process.argv.includes('--report-only')) { // rewrite the report from the last results.json
  writeReport(withBrowser(JSON.parse(readFileSync(here('./results.json'), 'utf8'))), REPORT_MD, REPORT_SVG);
  process.exit(0);
}
if (process.argv.includes('--browser')) { // the W workloads and the C rows in headless Chromium
  const { runBrowserBench } = await import('./browser/run.mjs');
  if (only && only !== 'W' && only !== 'C') throw new Error(`--browser --only ${only}: the browser runs W (W1-W5) and C only`);
  const t = performance.now();
  const parts = { w: !only || only === 'W', c: !only || only === 'C' };
  const runs = await runBrowserBench({ budgetMs: quick ? 60 : 200, quick, log, ...parts });
  const date = new Date().toISOString().slice(0, 10);
  for (const r of runs) r.page.date = date;
  // A part not run keeps its runs from the last file (a C run is marked suite: 'C').
  let kept = [];
  try { kept = JSON.parse(readFileSync(here('./results-browser.json'), 'utf8')); } catch { kept = []; }
  const kind = (r) => (r.suite === 'C' ? 'c' : 'w');
  kept = kept.filter((r) => !parts[kind(r)]);
  const all = [...runs.filter((r) => kind(r) === 'w'), ...kept.filter((r) => kind(r) === 'w'),
    ...runs.filter((r) => kind(r) === 'c'), ...kept.filter((r) => kind(r) === 'c')];
  writeFileSync(here('./results-browser.json'), JSON.stringify(all, null, 1) + '\n');
  writeReport(withBrowser(JSON.parse(readFileSync(here('./results.json'), 'utf8'))), REPORT_MD, REPORT_SVG);
  log(`wrote bench/results-browser.json and docs/benchmarks.md in ${((performance.now() - t) / 1000).toFixed(0)} s`);
  process.exit(0);
}
// On these VMs the first touch of fresh memory costs about 3 ms per MiB, and whether a new
// output array gets fresh pages or reuses freed ones depends on glibc's heap state, so one-shot
// figures of every implementation swung between, say, 12 and 100 ms for a 32 MiB output. The
// measuring process keeps freed memory for reuse instead (glibc's tunables, set for it alone,
// the same for every implementation): the figures are then the libraries' work.
const MALLOC_ENV = { MALLOC_MMAP_THRESHOLD_: '2147483647', MALLOC_TRIM_THRESHOLD_: '2147483647' };
if (process.env.MALLOC_MMAP_THRESHOLD_ !== MALLOC_ENV.MALLOC_MMAP_THRESHOLD_) {
  const { spawnSync } = await import('node:child_process');
  const r = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)],
    { stdio: 'inherit', env: { ...process.env, ...MALLOC_ENV } });
  process.exit(r.status ?? 1);
}
const t0 = performance.now();
const date = new Date().toISOString();
const results = [];
let workloads, qWorkloads, tWorkloads, uWorkloads, init;
let wCases; // W1-W5 with their reference outputs, made once for the W and T suites
const makeWCases = () => wCases ??= (log('generating workloads and reference outputs'), WORKLOADS.map((w) => {
  const t = makeTensors(w);
  const expected = caller(refOps, w)(t.data, t.indices).data;
  return { suite: 'W', w: { ...w, outBytes: expected.byteLength }, t, expected, expectedHash: fnv1a(expected), bytes: bytesMoved(w, t) };
}));
const workloadRows = (cases) => cases.map((c) => ({ id: c.w.id, title: c.w.title, outBytes: c.w.outBytes, indexBytes: c.t.indices.data.byteLength, dataBytes: c.t.data.data.byteLength, bytesMoved: c.bytes }));

if (runs('W')) {
  const cases = makeWCases();
  const groups = [baselineGroup, ...wasmGatherGroups(cores), ...await peerGroups()];
  for (const g of groups) await runGroup(g, cases, results);
  results.push(...await nativeResults(cases));
  workloads = workloadRows(cases);
  init = await initTimes();
}

if (runs('Q')) {
  // The reference is per output element: it computes the gathered rows only, never the table.
  log('generating the quantized tables (Q) and reference outputs');
  const qCases = Q_WORKLOADS.map((w) => {
    const t = makeQuantTensors(w);
    const expected = refGatherBlockQuantized(t.data, t.indices, t.scales, quantOpts(w, t)).data;
    const same = (out) => out.length === expected.length && sameBytes(bytesOf(out), bytesOf(expected));
    const tableBytes = t.data.data.byteLength + t.scales.data.byteLength + (t.zeroPoints?.data.byteLength ?? 0);
    return {
      suite: 'Q', w: { ...w, outBytes: expected.byteLength }, t, expected, same, expectedHash: fnv1a(expected), tableBytes,
      bytes: expected.byteLength + t.indices.data.byteLength,
    };
  });
  const groups = [quantizedBaselineGroup, ...wasmGatherQuantizedGroups(cores), ...await quantizedPeerGroups(Q_WORKLOADS)];
  for (const g of groups) await runGroup(g, qCases, results);
  qWorkloads = qCases.map((c) => ({ id: c.w.id, title: c.w.title, outBytes: c.w.outBytes, indexBytes: c.t.indices.data.byteLength,
    tableBytes: c.tableBytes, bytesMoved: c.bytes, outputHash: c.expectedHash }));
}

if (runs('T')) {
  // tf.gather / tf.gatherND, stock kernels vs wasm-gather/tfjs, on the W workloads.
  const cases = makeWCases().map((c) => ({ ...c, suite: 'T' }));
  // (imported here: it loads TensorFlow.js from node_modules, which the other suites do without)
  const { tfjsAdapterGroups } = await import('./peers/tfjs-adapter.mjs');
  for (const g of tfjsAdapterGroups()) await runGroup(g, cases, results);
  tWorkloads = workloadRows(cases);
  // and the U workloads: the scatter kernels and gather's gradient, the same way
  const u = await runTfjsUSuite({ quick, runGroup, log });
  results.push(...u.results);
  ({ uWorkloads } = u);
}

let sWorkloads, sChecks;
if (runs('S')) {
  // The scatters: in place, in-wasm and one-shot, against onnxruntime-web, tfjs and plain JS.
  const s = await runScatterSuite({ cores, quick, runGroup, log });
  results.push(...s.results);
  ({ sWorkloads, sChecks } = s);
}

let pWorkloads, pRun;
if (runs('P')) {
  // Thread scaling: W1-W4b, S1, S3, S4 all resident at 1, 2, 4, ... threads, each beside a copy of
  // its bytes split over the same pool.
  const p = await runThreadSuite({ cores, quick, runGroup, log, wCases: makeWCases() });
  results.push(...p.results);
  ({ pWorkloads, pRun } = p);
}

let cCases, cRun;
if (runs('C')) {
  // What a call costs: small calls, plain and prepared, against the plain JS W5 loop, interleaved;
  // and where a plain call's time goes (V8's sampling profiler, a child process per case).
  const c = await runCallSuite({ quick, log });
  results.push(...c.results);
  ({ cCases, cRun } = c);
}

let eWorkloads, eChecks, eRun;
if (runs('E')) {
  // The fused gather-reduce: embeddingBag and segmentReduce resident, in-wasm and one-shot, against
  // onnxruntime-web's Gather + ReduceSum graphs, tfjs's sparse segment ops and plain JS, beside a
  // memory.copy of the bag rows' and the output's bytes.
  const e = await runBagSuite({ cores, quick, runGroup, log });
  results.push(...e.results);
  ({ eWorkloads, eChecks, eRun } = e);
}

let gWorkloads, gChecks, gRun;
if (runs('G')) {
  // The bags' gradient: embeddingBagBackward in place at 1 and 2 threads against take + indexReduce,
  // tfjs's unsortedSegmentSum of the gathered rows and plain JS, beside a memory.copy of the bag
  // rows' bytes; a tfjs SGD step through wasm-gather/tfjs's sparse segment gradient against the
  // gather + mean model; tf.gatherND's gradient, which stock tfjs has not.
  const g = await runGradSuite({ cores, quick, runGroup, log });
  results.push(...g.results);
  ({ gWorkloads, gChecks, gRun } = g);
}

let rRun;
if (runs('R')) {
  // S3's sort into parts on 1 thread beside its one-applier path and the bounds of what a sort adds.
  const r = await runSortCostSuite({ quick, log });
  results.push(...r.results);
  ({ rRun } = r);
}

let mWorkloads, mChecks, mRun;
if (runs('M')) {
  // The masks' ops: compress, booleanMask, nonZero + take and maskedScatter resident, in place and
  // one-shot against onnxruntime-web, tfjs and plain JS, beside a memory.copy of the bytes they read
  // and write, every row of a workload timed in interleaved rounds; M1's and M3's op at 1 and 2
  // threads in alternating phases.
  const m = await runMaskSuite({ cores, quick, log });
  results.push(...m.results);
  ({ mWorkloads, mChecks, mRun } = m);
}

// With --only, the other suite's rows come from the last results.json, with the date of their run.
let previous;
if (only) {
  try { previous = JSON.parse(readFileSync(here('./results.json'), 'utf8')); } catch { previous = undefined; }
}
const prevDate = (suite) => previous?.suiteDates?.[suite] ?? previous?.date;
// The rows in the last file's order, the suite run in place of its old rows (at the end when it had
// none), so that results.json changes where that suite's rows are and nowhere else.
if (only) {
  const ran = results.splice(0);
  for (const r of previous?.results ?? []) {
    const suite = r.suite ?? 'W';
    if (suite !== only) results.push({ ...r, suite });
    else if (ran.length) results.push(...ran.splice(0));
  }
  results.push(...ran);
}
const report = {
  date,
  suiteDates: Object.fromEntries(SUITES.map((s) => [s, runs(s) ? date : prevDate(s)]).filter(([, d]) => d)),
  // The machine of the W, Q, T and S rows (the report's thread counts follow its cores): a P run
  // alone, made on a many-core machine (docs/testing.md), keeps it; P's own is pRun.machine.
  machine: only === 'P' && previous?.machine ? previous.machine
    : { cpu: os.cpus()[0]?.model, cores, node: process.version, platform: `${process.platform} ${process.arch}` },
  quick,
  workloads: workloads ?? previous?.workloads ?? [],
  qWorkloads: qWorkloads ?? previous?.qWorkloads ?? [],
  tWorkloads: tWorkloads ?? previous?.tWorkloads ?? [],
  uWorkloads: uWorkloads ?? previous?.uWorkloads ?? [],
  sWorkloads: sWorkloads ?? previous?.sWorkloads ?? [],
  sChecks: sChecks ?? previous?.sChecks ?? [],
  pWorkloads: pWorkloads ?? previous?.pWorkloads ?? [],
  pRun: pRun ?? previous?.pRun,
  rRun: rRun ?? previous?.rRun,
  cCases: cCases ?? previous?.cCases ?? [],
  cRun: cRun ?? previous?.cRun,
  eWorkloads: eWorkloads ?? previous?.eWorkloads ?? [],
  eChecks: eChecks ?? previous?.eChecks ?? [],
  eRun: eRun ?? previous?.eRun,
  gWorkloads: gWorkloads ?? previous?.gWorkloads ?? [],
  gChecks: gChecks ?? previous?.gChecks ?? [],
  gRun: gRun ?? previous?.gRun,
  mWorkloads: mWorkloads ?? previous?.mWorkloads ?? [],
  mChecks: mChecks ?? previous?.mChecks ?? [],
  mRun: mRun ?? previous?.mRun,
  results,
  init: init ?? previous?.init ?? [],
  sizes: runs('W') || !previous?.sizes ? sizes() : previous.sizes, // (shown in the W section, of W's run)
};
report.seconds = (performance.now() - t0) / 1000;
writeFileSync(here('./results.json'), JSON.stringify(report, null, 1) + '\n');
writeReport(withBrowser(report), REPORT_MD, REPORT_SVG);
log(`wrote bench/results.json, docs/benchmarks.md and docs/ratios.svg in ${report.seconds.toFixed(0)} s`);
