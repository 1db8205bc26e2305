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
import { S_WORKLOADS, makeScatterTensors, scatterCaller, scatterReference } from '../common/scatter-workloads.mjs';
import { fnv1a } from '../common/workloads.mjs';
import { parallelCopy } from './lib/parallel-copy.mjs';

const i = process.argv.indexOf('--rounds');
const rounds = i > 0 ? Number(process.argv[i + 1]) : 41;
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

await api.init({ variant: 'simd-threaded', threads: 1 });
const s = getState();
const w0 = S_WORKLOADS.find((x) => x.id === 'S3'), w = { ...w0, form: w0.forms[0] };
const t = makeScatterTensors(w), p = w.form.pick(t), want = fnv1a(scatterReference(w, t));
const data = api.upload(t.data), indices = api.upload(p.indices), updates = api.upload(p.updates);
const out = api.upload({ data: new Float32Array(t.data.data.length), shape: t.data.shape });
const call = scatterCaller(api, w.form, { out });
const forced = (parts) => () => {
  s.m._wg_scatter_force_parts(parts);
  try {
    call(data, indices, updates);
  } finally {
    s.m._wg_scatter_force_parts(0);
  }
};
const copy = parallelCopy(s, p.indices.data.length * 8);
const rows = [
  ['one applier (the plan\'s own path on 1 thread)', () => call(data, indices, updates)],
  ['the sort forced, 16 parts', forced(16)],
  ['the sort forced, 64 parts', forced(64)],
  ['memory.copy of 8 bytes an item (the bound of a sort\'s extra traffic)', copy.run],
];
for (const [name, run] of rows.slice(0, 3)) {
  run();
  const got = fnv1a(out.read());
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
for (const x of [data, indices, updates, out]) x.dispose();
api.dispose();
