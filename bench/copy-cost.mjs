// Measures the constants of the cost model in js/copy-plan.mjs (COSTS): per output block, what
// each path costs at a given block size, and per byte what copying data into wasm memory costs.
// Each path is forced (forcePath) on a resident [rows, bb/4] float32 table and take of rows
// (output to a new array, 4 MiB per call), so the data copy is left out; copyInPerByte times
// one-shot calls against resident ones on the same data. wasm-gather as init() sets it up.
// Usage: node bench/copy-cost.mjs   (prints the table to paste into js/copy-plan.mjs)
import { init, take, upload } from '../js/index.mjs';
import { forcePath } from '../js/copy-plan.mjs';
import { measure } from '../common/timing.mjs';

const info = await init();
const OUT = 4 << 20;
const BLOCKS = [4, 16, 64, 256, 1024, 4096, 16384];
const rows = (bb) => Math.max(64, Math.min(1 << 20, (32 << 20) / bb)); // a 32 MiB table at most
function xorshift(seed) { let x = seed; return () => { x ^= x << 13; x ^= x >>> 17; x ^= x << 5; return x >>> 0; }; }
const perBlock = { js: [], kernel: [] };
for (const bb of BLOCKS) {
  const n = OUT / bb, r = rows(bb), next = xorshift(bb);
  const data = { data: new Float32Array(r * (bb / 4)).map(() => next() / 2 ** 32), shape: [r, bb / 4] };
  const table = upload(data);
  const idx = { data: Int32Array.from({ length: n }, () => next() % r), shape: [n] };
  const t = {};
  for (let rep = 0; rep < 3; rep++) {
    for (const path of ['kernel', 'js']) {
      forcePath(path);
      const ms = (await measure(() => take(table, idx), { budgetMs: 300 })).medianMs;
      t[path] = Math.min(t[path] ?? Infinity, ms);
    }
  }
  table.dispose();
  for (const path of ['kernel', 'js']) perBlock[path].push(+(t[path] * 1e6 / n).toFixed(2));
  console.error(`bb ${bb}: kernel ${t.kernel.toFixed(3)} ms, js ${t.js.toFixed(3)} ms (${n} blocks)`);
}
// Copying the data in: one-shot minus resident, kernel path, per data byte (a 32 MiB table, 4 KiB read).
forcePath('kernel');
const next = xorshift(7);
const big = { data: new Float32Array(8 << 20).map(() => next()), shape: [8 << 10, 1024] };
const r = upload(big);
const few = { data: Int32Array.from([1, 5, 9, 100]), shape: [4] };
let oneShot = Infinity, resident = Infinity;
for (let rep = 0; rep < 3; rep++) {
  oneShot = Math.min(oneShot, (await measure(() => take(big, few), { budgetMs: 400 })).medianMs);
  resident = Math.min(resident, (await measure(() => take(r, few), { budgetMs: 200 })).medianMs);
}
r.dispose();
forcePath(null);
const copyInPerByte = +(((oneShot - resident) * 1e6) / big.data.byteLength).toFixed(3);
console.log(`// node bench/copy-cost.mjs, ${new Date().toISOString().slice(0, 10)}, wasm-gather ${info.variant} ${info.threads} thread(s), ns:`);
console.log(JSON.stringify({ blockBytes: BLOCKS, kernelPerBlock: perBlock.kernel, jsPerBlock: perBlock.js, copyInPerByte }));
