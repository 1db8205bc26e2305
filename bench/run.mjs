// The benchmark (issue 3): every implementation on every workload of common/workloads.mjs, in one
// run, each output checked equal to the reference before it is timed. Writes bench/results.json,
// bench/RESULTS.md and bench/ratios.svg, nothing outside bench/.
// Usage: npm run bench [-- --quick]   (--quick: short budgets, for a smoke test of the harness)
//        node bench/run.mjs --report-only   (the report again from bench/results.json)
import { execFile } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { sameBytes } from '../common/bytes.mjs';
import { jsLoops } from '../common/js-loops.mjs';
import { caller } from '../common/op-caller.mjs';
import { refOps } from '../common/reference.mjs';
import { memcopyBound } from './lib/memcopy-bound.mjs';
import { measure, median } from '../common/timing.mjs';
import { writeReport } from './lib/report.mjs';
import { wasmGatherGroups } from './lib/wasm-gather-runners.mjs';
import { buildNative } from './native/build.mjs';
import { WORKLOADS, bytesMoved, fnv1a, makeTensors } from '../common/workloads.mjs';

const exec = promisify(execFile);
const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const quick = process.argv.includes('--quick');
const budget = quick ? { budgetMs: 40, minSamples: 3 } : { budgetMs: 250, minSamples: 5 };
const cores = os.availableParallelism?.() ?? os.cpus().length;
const log = (...a) => console.error(...a);

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

const baselineGroup = {
  name: 'baselines', begin() {}, end() {},
  runners: [
    { impl: 'memory.copy of the output bytes (wasm)', family: 'bound', mode: 'resident',
      setup: (w) => { const copy = memcopyBound(w.outBytes); return { run: copy, unchecked: true, dispose() {} }; } },
    { impl: 'plain JS loops', family: 'js', mode: 'one-shot',
      setup: (w, t) => ({ run: () => jsLoops[w.op](t.data, t.indices, w.opts), dispose() {} }) },
  ],
};

async function runGroup(group, cases, results) {
  await group.begin();
  try {
    for (const r of group.runners) {
      for (const c of cases) {
        const row = { impl: r.impl, family: r.family, mode: r.mode, variant: r.variant, threads: r.threads, peer: r.peer, workload: c.w.id };
        let inst;
        try {
          inst = await r.setup(c.w, c.t);
          if (inst.note) row.note = inst.note;
          let out = await inst.run();
          if (inst.check) out = inst.check();
          if (!inst.unchecked && !sameBytes(out, c.expected)) throw new Error('output differs from the reference');
          if (inst.heap) {
            const h = inst.heap();
            row.peakCallBytes = h.lastCallBytes;
            row.memoryBytes = h.memoryBytes;
          }
          Object.assign(row, await measure(inst.run, budget));
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
    ...['index', 'loader', 'abi', 'call', 'ops', 'state', 'tensor', 'resident', 'errors'].map((f) => `js/${f}.mjs`)];
  return files.map((f) => {
    const p = here(`../${f}`);
    return { file: f, bytes: statSync(p).size, gzip: gzipSync(readFileSync(p)).length };
  });
}

// ---- main ----
if (process.argv.includes('--report-only')) { // rewrite the report from the last results.json
  writeReport(JSON.parse(readFileSync(here('./results.json'), 'utf8')), here('./RESULTS.md'), here('./ratios.svg'));
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
log('generating workloads and reference outputs');
const cases = WORKLOADS.map((w) => {
  const t = makeTensors(w);
  const expected = caller(refOps, w)(t.data, t.indices).data;
  return { w: { ...w, outBytes: expected.byteLength }, t, expected, expectedHash: fnv1a(expected), bytes: bytesMoved(w, t) };
});

const results = [];
const groups = [baselineGroup, ...wasmGatherGroups(cores), ...await peerGroups()];
for (const g of groups) await runGroup(g, cases, results);
results.push(...await nativeResults(cases));
const report = {
  date: new Date().toISOString(),
  machine: { cpu: os.cpus()[0]?.model, cores, node: process.version, platform: `${process.platform} ${process.arch}` },
  quick,
  workloads: cases.map((c) => ({ id: c.w.id, title: c.w.title, outBytes: c.w.outBytes, indexBytes: c.t.indices.data.byteLength, dataBytes: c.t.data.data.byteLength, bytesMoved: c.bytes })),
  results,
  init: await initTimes(),
  sizes: sizes(),
};
report.seconds = (performance.now() - t0) / 1000;
writeFileSync(here('./results.json'), JSON.stringify(report, null, 1) + '\n');
writeReport(report, here('./RESULTS.md'), here('./ratios.svg'));
log(`wrote bench/results.json, bench/RESULTS.md and bench/ratios.svg in ${report.seconds.toFixed(0)} s`);
