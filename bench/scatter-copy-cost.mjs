// Measures the scatters' constants of the cost model in js/copy-plan.mjs (COSTS.scatter*): per
// update row of a one-shot plain write, what each path costs besides the copies of the data,
// at each row size. Each path is forced (forcePath) on scatterND of random rows into an 8 MiB
// float32 JS array ([rows, bb/4], a new array out) with n and n/8 update rows; the per-row cost
// is the slope between the two (the copies of the data, the same at both, drop out).
// Usage: node bench/scatter-copy-cost.mjs   (prints the two lists to paste into js/copy-plan.mjs)
import { init, scatterND } from '../js/index.mjs';
import { COSTS, forcePath } from '../js/copy-plan.mjs';
import { measure } from '../common/timing.mjs';

const info = await init();
const DATA = 8 << 20, UPDATES = 4 << 20; // bytes
function xorshift(seed) { let x = seed; return () => { x ^= x << 13; x ^= x >>> 17; x ^= x << 5; return x >>> 0; }; }

const perRow = { js: [], kernel: [] };
for (const bb of COSTS.blockBytes) {
  const e = bb / 4, rows = DATA / bb, gen = xorshift(bb);
  const data = { data: new Float32Array(DATA / 4).map(() => gen() / 2 ** 32), shape: [rows, e] };
  const call = (n) => {
    const indices = { data: Int32Array.from({ length: n }, () => gen() % rows), shape: [n, 1] };
    const updates = { data: new Float32Array(n * e).map(() => gen() / 2 ** 32), shape: [n, e] };
    return () => scatterND(data, indices, updates);
  };
  const n = Math.max(64, UPDATES / bb), few = n / 8;
  const runs = { many: call(n), few: call(few) };
  for (const path of ['kernel', 'js']) {
    forcePath(path);
    const t = {};
    for (let rep = 0; rep < 3; rep++) {
      for (const k of ['many', 'few']) t[k] = Math.min(t[k] ?? Infinity, (await measure(runs[k], { budgetMs: 300 })).medianMs);
    }
    perRow[path].push(+Math.max(0, ((t.many - t.few) * 1e6) / (n - few)).toFixed(2));
    console.error(`bb ${bb} ${path}: ${t.many.toFixed(3)} ms for ${n} rows, ${t.few.toFixed(3)} ms for ${few}`);
  }
}
forcePath(null);
console.log(`// node bench/scatter-copy-cost.mjs, ${new Date().toISOString().slice(0, 10)}, wasm-gather ${info.variant} ${info.threads} thread(s), ns:`);
console.log(JSON.stringify({ scatterKernelPerRow: perRow.kernel, scatterJsPerRow: perRow.js }));
