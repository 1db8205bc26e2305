// What the scatters' sort path costs an item beside the one-applier path, on one thread, where
// any machine can measure it: S3 (common/scatter-workloads.mjs: 1M float32 values added into
// 65536 bins, everything resident, the output a resident opts.out) in a module of 1 thread, by
// the plan's own path there (one applier: each piece of items resolved on the stack and applied)
// and with the sort forced into 16 and into 64 parts (wg_scatter_force_parts, src/op.h: the
// benchmark's switch; 64 is what 16 threads sort into). Beside them the bound of the extra
// traffic any sort into parts adds: each item's destination and value (8 bytes) written once
// and read once, as a memory.copy of 8 bytes an item (bench/lib/parallel-copy.mjs). Every
// output is checked bitwise against the reference first; rows are timed in rounds, one sample of
// each a round, in an order reversed every other round.
// Usage: node bench/scatter-sort-cost.mjs [--rounds 41]
import * as api from '../js/index.mjs';
import { getState } from '../js/state.mjs';
import { S_WORKLOADS, makeScatterTensors, scatterReference } from '../common/scatter-workloads.mjs';
import { fnv1a } from '../common/workloads.mjs';
import { parallelCopy } from './lib/parallel-copy.mjs';
import { scatterRunner } from './thread-suite.mjs';

const i = process.argv.indexOf('--rounds');
const rounds = i > 0 ? Number(process.argv[i + 1]) : 41;
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

await api.init({ variant: 'simd-threaded', threads: 1 });
const s = getState();
const w0 = S_WORKLOADS.find((x) => x.id === 'S3'), w = { ...w0, form: w0.forms[0] };
const t = makeScatterTensors(w), p = w.form.pick(t), want = fnv1a(scatterReference(w, t));
// thread-suite.mjs's runner of S3 (all resident, the output a resident opts.out), forced or not
const runners = [0, 16, 64].map((parts) => scatterRunner(w, 'out', parts)(t));
const copy = parallelCopy(s, p.indices.data.length * 8);
const rows = [
  ['one applier (the plan\'s own path on 1 thread)', runners[0]],
  ['the sort forced, 16 parts', runners[1]],
  ['the sort forced, 64 parts', runners[2]],
  ['memory.copy of 8 bytes an item (the bound of a sort\'s extra traffic)', copy],
].map(([name, r]) => [name, r.run, r.check]);
for (const [name, run, check] of rows.slice(0, 3)) {
  run();
  const got = fnv1a(check());
  if (got !== want) throw new Error(`${name}: output hash ${got}, the reference's ${want}`);
}
const samples = rows.map(() => []);
for (let r = 0; r < rounds; r++) {
  const order = r & 1 ? [...rows.keys()].reverse() : [...rows.keys()];
  for (const k of order) {
    const t0 = performance.now();
    rows[k][1]();
    samples[k].push(performance.now() - t0);
  }
}
const ms = samples.map(median);
console.log(`S3 on 1 thread, ${rounds} rounds, median ms (every output the reference's bits, ${want}):`);
for (const [k, [name]] of rows.entries()) console.log(`  ${name}: ${ms[k].toFixed(3)}`);
console.log(`  the sort / one applier: 16 parts ${(ms[1] / ms[0]).toFixed(2)}x, 64 parts ${(ms[2] / ms[0]).toFixed(2)}x;` +
  ` one applier + the bound's copy: ${((ms[0] + ms[3]) / ms[0]).toFixed(2)}x`);
copy.dispose();
for (const r of runners) r.dispose();
api.dispose();
