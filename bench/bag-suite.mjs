// The E suite of npm run bench: the fused gather-reduce (common/bag-workloads.mjs: embeddingBag
// sum, weighted mean and on a 4-bit table, and segmentReduce sum) by wasm-gather resident, in-wasm
// and one-shot at 1 and 2 threads (bench/lib/bag-runners.mjs, with the pool copy bound), against
// onnxruntime-web (bench/peers/ort-bag.mjs), TensorFlow.js (bench/peers/tfjs-bag.mjs, and
// tf.unsortedSegmentSum fitted for E4: tfjs-scatter.mjs) and plain JS loops
// (common/bag-js-loops.mjs), beside a memory.copy of the bound's bytes, each output checked
// against the reference before it is timed (bitwise; the peers that reduce in another order within
// a tolerance: bench/lib/close-check.mjs). Then the check that wasm-gather's outputs are the same
// bits at every build and thread count.
// Called by bench/run.mjs (runGroup: its measuring loop), which writes the rows into results.json.
import os from 'node:os';
import { jsBagLoop } from '../common/bag-js-loops.mjs';
import { E_WORKLOADS, bagReference, boundBytes, makeBagTensors } from '../common/bag-workloads.mjs';
import { fnv1a } from '../common/workloads.mjs';
import { bagGroups } from './lib/bag-runners.mjs';
import { memcopyBound } from './lib/memcopy-bound.mjs';

// Calls of 5 to 300 ms: wasm-gather's and the bounds' 7 samples at least (their ratios are the
// targets), the peers' 3.
const BUDGET = { budgetMs: 300, minSamples: 7, warmUpMs: 100 };
const PEER_BUDGET = { budgetMs: 200, minSamples: 3, warmUpMs: 50 };
const QUICK_BUDGET = { budgetMs: 30, minSamples: 2, warmUpMs: 5 };
// Segment counts tf.unsortedSegmentSum is timed at, once each: each segment is a pass over all of
// E4's 64 MiB, seconds on cpu.
const FIT_COUNTS = [1, 2];

const u8 = (a) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

function makeCases(log) {
  log('generating the E workloads and reference outputs');
  return E_WORKLOADS.map((w) => {
    const t = makeBagTensors(w);
    const expected = bagReference(w, t);
    const dim = w.op === 'segmentReduce' ? t.table.shape[1] : expected.length / t.indices.shape[0];
    const outShape = [expected.length / dim, dim];
    const { read, written } = boundBytes(w, t, expected.byteLength);
    const tableBytes = t.table.data.byteLength + (t.scales?.data.byteLength ?? 0);
    const entries = (t.indices ?? t.segmentIds).data.length;
    return {
      suite: 'E', w: { ...w, outShape, boundBytes: read + written }, t, expected, bytes: read + written,
      row: { id: w.id, op: w.op, title: w.title, tableBytes, entries, distinct: new Set((t.indices ?? t.segmentIds).data).size,
        outBytes: expected.byteLength, boundRead: read, boundWritten: written, outputHash: fnv1a(expected) },
    };
  });
}

// The baselines: one memory.copy of the bound's bytes (1 thread, a module of its own), the copy a
// one-shot call cannot avoid (the table's bytes into wasm memory), and the plain JS loops.
const baselineGroup = {
  name: 'baselines (E)', begin() {}, end() {},
  runners: [
    { impl: 'memory.copy of the bound\'s bytes (wasm, 1 thread)', family: 'bound', mode: 'bound',
      setup: (w) => ({ run: memcopyBound(w.boundBytes), unchecked: true, dispose() {} }) },
    { impl: 'copy of the table into wasm memory (TypedArray.set)', family: 'bound', mode: 'one-shot',
      setup(w, t) {
        const parts = [t.table.data, t.scales?.data].filter(Boolean).map(u8);
        const mem = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
        return { run() { let at = 0; for (const p of parts) { mem.set(p, at); at += p.length; } }, unchecked: true, dispose() {} };
      } },
    { impl: 'plain JS loop', family: 'js', mode: 'one-shot', setup: (w, t) => ({ run: jsBagLoop(w, t), dispose() {} }) },
  ],
};

async function peerGroups(log) {
  const groups = [];
  for (const [file, fn] of [['./peers/ort-bag.mjs', 'bagPeers'], ['./peers/tfjs-bag.mjs', 'bagTfjsPeers']]) {
    try {
      const runners = await (await import(file))[fn]();
      groups.push({ name: `${file} (E)`, begin() {}, end() {}, runners, budget: PEER_BUDGET });
    } catch (e) {
      log(`${file}: could not load: ${e.message}`);
    }
  }
  return groups;
}

// tf.unsortedSegmentSum on cpu for E4 (tfjs-scatter.mjs: timed at a few segment counts, fitted),
// in the shape of an S workload: the data as the updates, the segment ids as the index.
async function segmentSumRow(c, log) {
  try {
    const { segmentSumFit } = await import('./peers/tfjs-scatter.mjs');
    const w = { id: c.w.id, form: { pick: (t) => ({ indices: t.segmentIds, updates: t.table }) } };
    const t = { ...c.t, data: { shape: c.w.outShape } };
    const row = { suite: 'E', ...await segmentSumFit(w, t, FIT_COUNTS, { samples: 1 }) };
    log(`${row.impl.padEnd(52)} ${c.w.id.padEnd(4)} ${row.medianMs.toFixed(1).padStart(10)} ms (fitted)`);
    return row;
  } catch (e) {
    log(`tf.unsortedSegmentSum fit: ${e.message}`);
    return { suite: 'E', impl: 'tfjs cpu unsortedSegmentSum (fitted)', family: 'peer', mode: 'one-shot', workload: c.w.id, error: e.message.split('\n')[0] };
  }
}

/** Whether each mode's output of wasm-gather has one hash at every build and thread count. */
function threadCheck(rows) {
  const ours = rows.filter((r) => r.family === 'wasm-gather' && r.outputHash);
  return [...new Set(ours.map((r) => `${r.workload}|${r.mode}`))].map((k) => {
    const [workload, mode] = k.split('|');
    const hashes = Object.fromEntries(ours.filter((r) => r.workload === workload && r.mode === mode).map((r) => [`${r.variant} ${r.threads}T`, r.outputHash]));
    return { workload, mode, hashes, same: new Set(Object.values(hashes)).size === 1 };
  });
}

/** Runs the E suite: { results (rows of suite E), eWorkloads, eChecks, eRun }. */
export async function runBagSuite({ cores, quick, runGroup, log }) {
  // the load average, before and after: on shared cores, what else ran beside the thread ratios
  const loadBefore = os.loadavg();
  const cases = makeCases(log);
  const results = [];
  for (const g of [baselineGroup, ...bagGroups(cores), ...await peerGroups(log)]) {
    await runGroup(g, cases, results, quick ? QUICK_BUDGET : g.budget ?? BUDGET);
  }
  // (not in a quick run: its six passes over E4's data take seconds each)
  if (!quick) results.push(await segmentSumRow(cases.find((c) => c.w.op === 'segmentReduce'), log));
  const eChecks = threadCheck(results);
  for (const c of eChecks.filter((x) => !x.same)) log(`E: ${c.workload} ${c.mode}: outputs differ between builds or thread counts: ${JSON.stringify(c.hashes)}`);
  return { results, eWorkloads: cases.map((c) => c.row), eChecks, eRun: { loadBefore, loadAfter: os.loadavg() } };
}
