// The S suite of npm run bench: the scatters (common/scatter-workloads.mjs) by wasm-gather in
// place, in-wasm and one-shot (bench/lib/scatter-runners.mjs), the copy bounds and plain JS
// loops (bench/lib/scatter-bounds.mjs), onnxruntime-web (bench/peers/ort-scatter.mjs) and
// TensorFlow.js (bench/peers/tfjs-scatter.mjs), each output checked bitwise against the
// reference before it is timed. Then: tf.unsortedSegmentSum fitted over segment counts (S1, S3),
// and the check that wasm-gather's outputs are the same bits at every thread count.
// Called by bench/run.mjs (runGroup: its measuring loop), which writes the rows into results.json.
import { fnv1a } from '../common/workloads.mjs';
import { S_WORKLOADS, formBytes, makeScatterTensors, scatterReference } from '../common/scatter-workloads.mjs';
import { scatterBaselineGroup } from './lib/scatter-bounds.mjs';
import { scatterGroups } from './lib/scatter-runners.mjs';

// About 150 implementation x workload pairs: shorter than W's 250 ms each, and the slow peers
// (16 to 62 MiB copied per call) fewer samples.
const BUDGET = { budgetMs: 150, minSamples: 5, warmUpMs: 100 };
const PEER_BUDGET = { budgetMs: 150, minSamples: 3, warmUpMs: 50 };
const QUICK_BUDGET = { budgetMs: 30, minSamples: 2, warmUpMs: 5 };
// Segment counts tf.unsortedSegmentSum is timed at (each pass reads all of x: S1's costs ~0.5 s).
const FIT_COUNTS = { S1: [1, 2], S3: [1, 2, 4] };

/** A case per (workload, form): S2's scatterND form is S2a-nd, S2b-nd. */
function makeCases(log) {
  log('generating the S workloads and reference outputs');
  return S_WORKLOADS.flatMap((w) => {
    const t = makeScatterTensors(w);
    const expected = scatterReference(w, t);
    return w.forms.map((form, i) => {
      const { indexBytes, updatesBytes } = formBytes(form, t);
      return {
        suite: 'S', w: { ...w, id: i ? `${w.id}-nd` : w.id, base: w.id, form }, t, expected, bytes: indexBytes + updatesBytes,
        row: { id: i ? `${w.id}-nd` : w.id, base: w.id, op: form.op, reduce: w.reduce, rows: t.items.rows.length, title: w.title, dataBytes: t.data.data.byteLength, indexBytes, updatesBytes,
          outputHash: fnv1a(expected) },
      };
    });
  });
}

async function peerGroups(log, quick) {
  const groups = [];
  for (const [file, fn] of [['./peers/ort-scatter.mjs', 'scatterPeers'], ['./peers/tfjs-scatter.mjs', 'tfjsScatterPeers']]) {
    try {
      const runners = await (await import(file))[fn]();
      groups.push({ name: `${file} (S)`, begin() {}, end() {}, runners, budget: PEER_BUDGET });
    } catch (e) {
      log(`${file}: could not load: ${e.message}`);
    }
  }
  return groups;
}

/** Whether each mode's output of wasm-gather has one hash at every build and thread count. */
function threadCheck(rows) {
  const ours = rows.filter((r) => r.family === 'wasm-gather' && r.outputHash);
  const keys = [...new Set(ours.map((r) => `${r.workload}|${r.mode}`))];
  return keys.map((k) => {
    const [workload, mode] = k.split('|');
    const rs = ours.filter((r) => r.workload === workload && r.mode === mode);
    const hashes = Object.fromEntries(rs.map((r) => [`${r.variant} ${r.threads}T`, r.outputHash]));
    return { workload, mode, hashes, same: new Set(Object.values(hashes)).size === 1 };
  });
}

/** Runs the S suite: { results (rows of suite S), sWorkloads, sChecks }. */
export async function runScatterSuite({ cores, quick, runGroup, log }) {
  const cases = makeCases(log);
  const results = [];
  const groups = [scatterBaselineGroup, ...scatterGroups(cores), ...await peerGroups(log, quick)];
  for (const g of groups) await runGroup(g, cases, results, quick ? QUICK_BUDGET : g.budget ?? BUDGET);
  try {
    const { segmentSumFit } = await import('./peers/tfjs-scatter.mjs');
    for (const c of cases.filter((x) => FIT_COUNTS[x.w.id])) {
      const row = { suite: 'S', ...await segmentSumFit(c.w, c.t, quick ? [1, 2] : FIT_COUNTS[c.w.id], { samples: quick ? 1 : 2 }) };
      log(`${row.impl.padEnd(52)} ${c.w.id.padEnd(4)} ${row.medianMs.toFixed(1).padStart(10)} ms (fitted)`);
      results.push(row);
    }
  } catch (e) {
    log(`tf.unsortedSegmentSum fit: ${e.message}`);
    results.push({ suite: 'S', impl: 'tfjs cpu unsortedSegmentSum (fitted)', family: 'peer', mode: 'one-shot', workload: 'S1', error: e.message.split('\n')[0] });
  }
  const sChecks = threadCheck(results);
  for (const c of sChecks.filter((x) => !x.same)) log(`S: ${c.workload} ${c.mode}: outputs differ between thread counts: ${JSON.stringify(c.hashes)}`);
  return { results, sWorkloads: cases.map((c) => c.row), sChecks };
}
