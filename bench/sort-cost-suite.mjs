// R: what the scatters' sort into parts costs on one thread, where any machine can measure it.
// S3 (common/scatter-workloads.mjs: 1M float32 values added into 65536 bins, everything
// resident, the output a resident opts.out) in a module of 1 thread, by the plan's own path there
// (one applier: each piece of items resolved on the stack and applied) and with the sort forced
// into 16 and into 64 parts (wg_scatter_force_parts, src/op.h: the benchmark's switch; 64 is what
// 16 threads sort into), through thread-suite.mjs's runner of S3. Beside them the bounds of what a
// sort adds: the items stored into their parts alone (bench/lib/placing-bound.mjs: each item's
// place given, one 8-byte store an item, S3's own destinations), and each item's 8 bytes written
// once and read once as one memory.copy (bench/lib/parallel-copy.mjs). Every output is checked
// bitwise against the reference first; rows are timed in rounds, one sample of each a round, in
// an order reversed every other round. The P targets' sort row reads these rows when the P run
// has none of its own (bench/lib/report-sort.mjs).
import os from 'node:os';
import * as api from '../js/index.mjs';
import { getState } from '../js/state.mjs';
import { S_WORKLOADS, makeScatterTensors, scatterReference } from '../common/scatter-workloads.mjs';
import { fnv1a } from '../common/workloads.mjs';
import { parallelCopy } from './lib/parallel-copy.mjs';
import { placingBound } from './lib/placing-bound.mjs';
import { PLACING_FAMILY, R_PARTS, SORT_FAMILY, SORT_FORCED } from './lib/sort-names.mjs';
import { scatterRunner } from './thread-suite.mjs';

const ROUNDS = 41, QUICK_ROUNDS = 7;
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/** Runs the R suite: { results (rows of suite R), rRun }. */
export async function runSortCostSuite({ quick, log }) {
  const rounds = quick ? QUICK_ROUNDS : ROUNDS;
  api.dispose(); // (a module another suite left)
  await api.init({ variant: 'simd-threaded', threads: 1 });
  const loadBefore = os.loadavg();
  const w0 = S_WORKLOADS.find((x) => x.id === SORT_FORCED.id), w = { ...w0, form: w0.forms[0] };
  const t = makeScatterTensors(w), p = w.form.pick(t), want = fnv1a(scatterReference(w, t));
  const items = p.indices.data.length, rows = t.data.shape[0];
  const ours = [0, ...R_PARTS].map((parts) => ({
    impl: parts ? `wasm-gather simd-threaded 1T, the sort forced into ${parts} parts` : 'wasm-gather simd-threaded 1T, the plan\'s own path (one applier)',
    family: parts ? SORT_FAMILY : 'wasm-gather', parts, ...scatterRunner(w, 'out', parts)(t) }));
  const bounds = [
    ...R_PARTS.map((parts) => ({ impl: `the items stored into ${parts} parts alone, their places given (wasm)`, family: PLACING_FAMILY, parts,
      ...placingBound(p.indices.data, rows, parts) })),
    { impl: 'memory.copy of 8 bytes an item', family: 'bound', parts: 0, ...parallelCopy(getState(), items * 8) },
  ];
  const all = [...ours, ...bounds];
  try {
    const hashes = ours.map((r) => {
      r.run();
      const got = fnv1a(r.check());
      if (got !== want) throw new Error(`R: ${r.impl}: output hash ${got}, the reference's ${want}`);
      return got;
    });
    log(`R: ${SORT_FORCED.id} on 1 thread, ${rounds} rounds of ${all.length} rows`);
    const samples = all.map(() => []);
    for (let r = 0; r < rounds; r++) {
      const order = r & 1 ? [...all.keys()].reverse() : [...all.keys()];
      for (const k of order) {
        const t0 = performance.now();
        all[k].run();
        samples[k].push(performance.now() - t0);
      }
    }
    const results = all.map((r, k) => ({ suite: 'R', workload: SORT_FORCED.id, impl: r.impl, family: r.family, parts: r.parts, threads: 1,
      medianMs: median(samples[k]), samples: samples[k].length, ...(k < ours.length ? { outputHash: hashes[k] } : {}) }));
    for (const r of results) log(`${r.impl.padEnd(72)} ${r.medianMs.toFixed(3)} ms`);
    return { results, rRun: { items, rows, outputHash: want, rounds, loadBefore, loadAfter: os.loadavg() } };
  } finally {
    for (const r of all) r.dispose();
    api.dispose();
  }
}
