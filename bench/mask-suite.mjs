// The M suite of npm run bench: the masks' ops (common/mask-workloads.mjs: M1 compress of
// YOLO-shaped scores, M2 the unpadding of a batch by its attention mask, nonZero then take, M3
// maskedScatter) by wasm-gather resident, in place and one-shot (bench/lib/mask-runners.mjs), the
// copy bounds and plain JS loops, onnxruntime-web and TensorFlow.js (bench/lib/mask-peers.mjs),
// each output checked bitwise against the reference before it is timed, then every row of a
// workload timed in interleaved rounds (bench/lib/mask-timing.mjs) in one module of the default
// thread count. Then, for M1 and M3, the thread phases: the workload's op resident and the pool's
// copy bound at 1 thread and at 2, a module initialized for each, the two alternating over several
// phases, their samples pooled; each phase's output checked and hashed, so the report can show the
// same bits at both thread counts.
// Called by bench/run.mjs, which writes the rows into results.json (suite M).
import os from 'node:os';
import * as api from '../js/index.mjs';
import { sameBytes } from '../common/bytes.mjs';
import { M_WORKLOADS, boundBytes, makeMaskTensors, maskReference } from '../common/mask-workloads.mjs';
import { fnv1a } from '../common/workloads.mjs';
import { maskPeers } from './lib/mask-peers.mjs';
import { PRIMARY, boundRunners, disposeCache, floorRunners, jsRunner, oneShotCallRunners, oneShotFloorRunner, ourRunners, rowsBoundRunner, valuesWrittenRunner } from './lib/mask-runners.mjs';
import { interleave, summarize } from './lib/mask-timing.mjs';

// Rounds of the main phase (every row a sample each round, but the peers' calls of seconds:
// mask-timing.mjs), and of each thread phase (a module at 1 thread then one at 2, 8 times, the
// order reversed every other time: 1T, 2T, 2T, 1T, 1T, ...).
const TIMING = {
  M1: { rounds: 61, sampleMs: 3, warmUpMs: 150 },
  M2: { rounds: 13, sampleMs: 3, warmUpMs: 100 },
  M3: { rounds: 19, sampleMs: 3, warmUpMs: 100 },
};
const THREAD_TIMING = { M1: { rounds: 15, sampleMs: 5, warmUpMs: 100 }, M3: { rounds: 9, sampleMs: 5, warmUpMs: 50 } };
const THREAD_PHASES = 8;
const QUICK = { rounds: 2, sampleMs: 1, warmUpMs: 5 };
const QUICK_PHASES = 2;

function makeCases(log) {
  log('generating the M workloads and reference outputs');
  return M_WORKLOADS.map((w) => {
    const t = makeMaskTensors(w);
    const expected = maskReference(w, t);
    const { read, written } = boundBytes(w, t, expected.byteLength);
    const mask = t.condition ?? t.mask;
    return {
      w, t, expected, boundBytes: read + written,
      row: { id: w.id, op: w.op, title: w.title, xBytes: t.x.data.byteLength, maskElements: mask.data.length, trues: t.count,
        outBytes: expected.byteLength, boundRead: read, boundWritten: written, outputHash: fnv1a(expected) },
    };
  });
}

// A runner set up on a case and its output checked: { row, inst } (inst undefined on an error,
// the row then carrying it).
async function ready(r, c, phase, log) {
  const row = { suite: 'M', impl: r.impl, family: r.family, mode: r.mode, op: r.op, variant: r.variant, threads: r.threads, peer: r.peer,
    backend: r.backend, workload: c.w.id, phase };
  let inst;
  try {
    inst = await r.setup(c.t, c);
    await inst.enter?.();
    const t0 = performance.now();
    const first = inst.run();
    const isAsync = typeof first?.then === 'function';
    let out = await first;
    const firstMs = performance.now() - t0;
    if (inst.check) out = inst.check();
    if (!inst.unchecked && !(inst.same ?? sameBytes)(out, c.expected)) throw new Error('output differs from the reference');
    if (inst.note) row.note = inst.note;
    if (inst.hash) row.outputHash = fnv1a(out);
    if (inst.heap) {
      const h = inst.heap();
      row.peakCallBytes = h.lastCallBytes;
      row.memoryBytes = h.memoryBytes;
    }
    return { row, inst, firstMs, isAsync };
  } catch (e) {
    row.error = e.message.split('\n')[0];
    log(`${r.impl.padEnd(60)} ${c.w.id} ERROR ${row.error}`);
    await inst?.dispose?.();
    return { row };
  }
}

// Runners set up, checked and timed together in one module: rows (with their samples) into `out`.
async function phase(runners, c, phaseName, timing, seed, out, log) {
  const set = [];
  for (const r of runners) set.push(await ready(r, c, phaseName, log));
  try {
    const timed = set.filter((x) => x.inst).map(({ row, inst, firstMs, isAsync }) => ({ key: `${row.impl}|${phaseName}`, run: inst.run, enter: inst.enter, firstMs, isAsync }));
    await interleave(timed, out.samples, { ...timing, seed });
  } finally {
    for (const { inst } of set) await inst?.dispose?.();
  }
  for (const { row } of set) {
    const key = `${row.impl}|${phaseName}`;
    const prev = out.rows.get(key);
    if (!prev) out.rows.set(key, { ...row, outputHashes: row.outputHash ? [row.outputHash] : undefined });
    else if (row.outputHash) prev.outputHashes.push(row.outputHash);
    else if (row.error && !prev.error) prev.error = row.error;
  }
}

/** Runs the M suite: { results (rows of suite M), mWorkloads, mChecks, mRun }. */
export async function runMaskSuite({ cores, quick, log }) {
  const loadBefore = os.loadavg();
  const T = Math.min(4, cores); // as init() sets it up here
  const cases = makeCases(log);
  const peers = await maskPeers(log);
  api.dispose(); // (a module another suite left)
  const results = [];
  for (const c of cases) {
    const out = { samples: new Map(), rows: new Map() };
    // the main phase: everything, in the module of the default thread count
    log(`M: ${c.w.id}: every implementation, interleaved`);
    await api.init({ variant: 'simd-threaded', threads: T });
    const cache = new Map();
    try {
      const runners = [...ourRunners(c.w, T, cache), ...floorRunners(T, c.w), ...oneShotCallRunners(T, c.w), ...boundRunners(T), rowsBoundRunner(T), oneShotFloorRunner, valuesWrittenRunner, jsRunner, ...peers]
        .filter((r) => !r.applies || r.applies(c.w));
      await phase(runners, c, 'main', quick ? QUICK : TIMING[c.w.id], 11, out, log);
    } finally {
      disposeCache(cache);
      api.dispose();
    }
    // the thread phases: the workload's op resident and the pool's copy, at 1 and 2 threads in turn
    if (THREAD_TIMING[c.w.id]) {
      log(`M: ${c.w.id}: ${PRIMARY[c.w.id]} resident at 1 and 2 threads, alternating`);
      const phases = quick ? QUICK_PHASES : THREAD_PHASES;
      for (let p = 0; p < phases; p++) {
        for (const n of p % 2 ? [2, 1] : [1, 2]) {
          await api.init({ variant: 'simd-threaded', threads: n });
          const tc = new Map();
          try {
            const runners = [...ourRunners(c.w, n, tc, [[PRIMARY[c.w.id], 'resident']]), ...floorRunners(n, c.w), ...boundRunners(n, { half: false, withModule: false })];
            await phase(runners, c, 'threads', quick ? QUICK : THREAD_TIMING[c.w.id], 100 + p, out, log);
          } finally {
            disposeCache(tc);
            api.dispose();
          }
        }
      }
    }
    for (const [key, row] of out.rows) {
      const xs = out.samples.get(key);
      const r = { ...row };
      if (r.outputHashes) r.sameHashes = new Set(r.outputHashes).size === 1;
      if (!r.error && xs?.length) Object.assign(r, summarize(xs));
      if (r.medianMs !== undefined) log(`${r.impl.padEnd(60)} ${c.w.id} ${r.phase.padEnd(7)} ${r.medianMs.toFixed(4).padStart(10)} ms`);
      results.push(r);
    }
  }
  const mChecks = threadCheck(results);
  for (const k of mChecks.filter((x) => !x.same)) log(`M: ${k.workload}: outputs differ between thread counts: ${JSON.stringify(k.hashes)}`);
  return { results, mWorkloads: cases.map((c) => c.row), mChecks, mRun: { loadBefore, loadAfter: os.loadavg(), threads: T } };
}

/** Per workload: whether every checked output of wasm-gather (every op, mode, thread count and phase) has one hash. */
function threadCheck(rows) {
  const ours = rows.filter((r) => r.family === 'wasm-gather' && r.outputHashes);
  return [...new Set(ours.map((r) => r.workload))].map((workload) => {
    const hashes = {};
    for (const r of ours.filter((x) => x.workload === workload)) {
      hashes[`${r.op}, ${r.mode}, ${r.threads}T${r.phase === 'threads' ? ' (thread phases)' : ''}`] = [...new Set(r.outputHashes)].join(' ');
    }
    return { workload, hashes, same: new Set(Object.values(hashes)).size === 1 && !Object.values(hashes).some((h) => h.includes(' ')) };
  });
}
