// The G suite of npm run bench: the bags' gradient (common/grad-workloads.mjs). G1, E1's gradient
// for its table added in place into a resident table, by embeddingBagBackward at 1 and 2 threads
// (bench/lib/grad-runners.mjs, with torch's take + indexReduce composition through this library and
// the pool copy bound), against tfjs's tf.unsortedSegmentSum(tf.gather(dy, bags), ids) (wasm: the
// adapter's UnsortedSegmentSum; cpu: fitted) and a plain JS loop, beside a memory.copy of the bag
// rows' bytes; G2, one SGD step of a sparseSegmentMean model through wasm-gather/tfjs against the
// same model as tf.gather + tf.mean; G3, tf.grad through tf.gatherND, which stock tfjs cannot
// (bench/peers/tfjs-grad-peers.mjs). Each output checked bitwise against the reference before it
// is timed (stock tfjs-cpu's fitted points within a rounding); then the check that wasm-gather's
// G1 outputs are the same bits at every build and thread count.
// Called by bench/run.mjs (runGroup: its measuring loop), which writes the rows into results.json.
import os from 'node:os';
import { G_WORKLOADS, boundBytes, makeGradTensors } from '../common/grad-workloads.mjs';
import { fnv1a } from '../common/workloads.mjs';
import { gradGroups, jsGradLoop } from './lib/grad-runners.mjs';
import { memcopyBound } from './lib/memcopy-bound.mjs';

// wasm-gather's and the bounds' calls (5 to 150 ms): 7 samples at least (their ratios are the
// targets); the peers' (G2's steps take a second on cpu) 3.
const BUDGET = { budgetMs: 300, minSamples: 7, warmUpMs: 100 };
const PEER_BUDGET = { budgetMs: 200, minSamples: 3, warmUpMs: 50 };
const QUICK_BUDGET = { budgetMs: 30, minSamples: 2, warmUpMs: 5 };
// Table rows stock tfjs-cpu's G1 and G2 (gather model) are timed at, then fitted (a pass over the
// 64 MiB of gathered rows per row: about 0.25 s each).
const FIT_ROWS = [1, 2];

async function makeCases(log) {
  log('generating the G workloads and reference outputs');
  const cases = [];
  for (const w of G_WORKLOADS) {
    const t = await makeGradTensors(w);
    const ids = (t.indices ?? t.tuples).data;
    const bound = t.gradOutput ? boundBytes(t) : undefined;
    cases.push({
      suite: 'G', w: { ...w, boundBytes: bound }, t, expected: t.expected, bytes: bound ? 2 * bound : t.expected.byteLength,
      row: { id: w.id, title: w.title, entries: ids.length, distinct: new Set(ids).size, outBytes: t.expected.byteLength,
        boundBytes: bound, reference: t.reference, outputHash: fnv1a(t.expected), gradHash: t.grad ? fnv1a(t.grad) : undefined },
    });
  }
  return cases;
}

// The baselines of G1: one memory.copy of the bag rows' bytes (1 thread, a module of its own) and
// the plain JS loop.
const baselineGroup = {
  name: 'baselines (G)', begin() {}, end() {},
  runners: [
    { impl: 'memory.copy of the bag rows\' bytes (wasm, 1 thread)', family: 'bound', mode: 'bound', applies: (w) => w.id === 'G1',
      setup: (w) => ({ run: memcopyBound(w.boundBytes), unchecked: true, dispose() {} }) },
    { impl: 'plain JS loop (in place)', family: 'js', mode: 'resident', applies: (w) => w.id === 'G1', setup: jsGradLoop },
  ],
  budget: PEER_BUDGET,
};

/** Whether each mode's G1 output of wasm-gather has one hash at every build and thread count. */
function threadCheck(rows) {
  const ours = rows.filter((r) => r.family === 'wasm-gather' && r.outputHash);
  return [...new Set(ours.map((r) => `${r.workload}|${r.mode}`))].map((k) => {
    const [workload, mode] = k.split('|');
    const hashes = Object.fromEntries(ours.filter((r) => r.workload === workload && r.mode === mode).map((r) => [`${r.variant} ${r.threads}T`, r.outputHash]));
    return { workload, mode, hashes, same: new Set(Object.values(hashes)).size === 1 };
  });
}

async function fitRow(c, what, log) {
  try {
    const { fittedCpu } = await import('./peers/tfjs-grad-peers.mjs');
    const row = { suite: 'G', ...await fittedCpu(c.w, c.t, what, FIT_ROWS) };
    log(`${row.impl.slice(0, 52).padEnd(52)} ${c.w.id.padEnd(4)} ${row.medianMs.toFixed(1).padStart(10)} ms (fitted)`);
    return row;
  } catch (e) {
    log(`G ${what} cpu fit: ${e.message}`);
    return { suite: 'G', impl: `tfjs cpu, stock kernels (${what}, fitted)`, family: 'peer', mode: 'resident', backend: 'cpu', model: what,
      workload: c.w.id, fitted: true, error: e.message.split('\n')[0] };
  }
}

/** Runs the G suite: { results (rows of suite G), gWorkloads, gChecks, gRun }. */
export async function runGradSuite({ cores, quick, runGroup, log }) {
  // the load average, before and after: on shared cores, what else ran beside the thread ratio
  const loadBefore = os.loadavg();
  const cases = await makeCases(log);
  const results = [];
  const groups = [baselineGroup, ...gradGroups(cores)];
  try {
    const { tfjsGradGroups } = await import('./peers/tfjs-grad-peers.mjs');
    groups.push(...tfjsGradGroups().map((g) => ({ ...g, budget: PEER_BUDGET })));
  } catch (e) {
    log(`./peers/tfjs-grad-peers.mjs: could not load: ${e.message}`);
  }
  for (const g of groups) await runGroup(g, cases, results, quick ? QUICK_BUDGET : g.budget ?? BUDGET);
  const byId = (id) => cases.find((c) => c.w.id === id);
  results.push(await fitRow(byId('G1'), 'uss', log), await fitRow(byId('G2'), 'gm', log));
  const gChecks = threadCheck(results);
  for (const c of gChecks.filter((x) => !x.same)) log(`G: ${c.workload} ${c.mode}: outputs differ between builds or thread counts: ${JSON.stringify(c.hashes)}`);
  return { results, gWorkloads: cases.map((c) => c.row), gChecks, gRun: { loadBefore, loadAfter: os.loadavg() } };
}
