// This checkout's kernels against another checkout's, side by side in one process: the
// benchmark's workloads in its in-wasm mode (data, indices and output resident: the kernel and
// the call alone), both libraries loaded at once, timed in alternating rounds so that both see
// the same machine. Each output is checked bitwise against the other library's first.
// Usage: node bench/compare-builds.mjs <other checkout, built> [--rounds 5]
// For a refactor: `git worktree add /tmp/base <commit> && (cd /tmp/base && npm ci && npm run build)`.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sameBytes } from '../common/bytes.mjs';
import { caller } from '../common/op-caller.mjs';
import { numel } from '../common/shape.mjs';
import { measure, median } from '../common/timing.mjs';
import { WORKLOADS, makeTensors } from '../common/workloads.mjs';

const other = process.argv[2];
if (!other) throw new Error('usage: node bench/compare-builds.mjs <other checkout> [--rounds N]');
const roundsAt = process.argv.indexOf('--rounds');
const ROUNDS = roundsAt > 0 ? Number(process.argv[roundsAt + 1]) : 5;
const CONFIGS = [{ variant: 'simd', threads: 1 }, { variant: 'simd-threaded', threads: 2 }];

const libs = {
  this: await import('../js/index.mjs'),
  other: await import(pathToFileURL(resolve(other, 'js/index.mjs')).href),
};

// The in-wasm runner of a workload on one library: everything uploaded once.
function inWasm(lib, w, t) {
  const data = lib.upload(t.data), indices = lib.upload(t.indices);
  const out = lib.upload({ data: new Float32Array(numel(w.outShape)), shape: w.outShape });
  const call = caller(lib, w, { out });
  const run = () => call(data, indices);
  return { run, read: () => out.read(), dispose() { data.dispose(); indices.dispose(); out.dispose(); } };
}

const rows = [];
for (const cfg of CONFIGS) {
  for (const lib of Object.values(libs)) await lib.init(cfg);
  for (const w of WORKLOADS) {
    const t = makeTensors(w);
    const runners = Object.fromEntries(Object.entries(libs).map(([k, lib]) => [k, inWasm(lib, w, t)]));
    runners.this.run();
    runners.other.run();
    const a = runners.this.read(), b = runners.other.read();
    if (!sameBytes(a, b)) throw new Error(`${w.id}: outputs differ`);
    const ms = { this: [], other: [] };
    for (let r = 0; r < ROUNDS; r++) {
      for (const k of r % 2 ? ['other', 'this'] : ['this', 'other']) ms[k].push((await measure(runners[k].run, { budgetMs: 200 })).medianMs);
    }
    for (const r of Object.values(runners)) r.dispose();
    rows.push({ config: `${cfg.variant} ${cfg.threads}T`, id: w.id, this: median(ms.this), other: median(ms.other) });
  }
  for (const lib of Object.values(libs)) lib.dispose();
}

console.log(`in-wasm median ms per call, ${ROUNDS} alternating rounds; this = ${resolve('.')}, other = ${resolve(other)}`);
console.log('| build | workload | this | other | this / other |\n| --- | --- | ---: | ---: | ---: |');
for (const r of rows) {
  console.log(`| ${r.config} | ${r.id} | ${r.this.toFixed(4)} | ${r.other.toFixed(4)} | ${(r.this / r.other).toFixed(2)} |`);
}
