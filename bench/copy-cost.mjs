// Measures the constants of the cost model in js/copy-plan.mjs (COSTS): per output block, what
// each path of a one-shot call costs at a given block size, and per byte what copying the data
// into wasm memory costs. Each path is forced (forcePath) on take of random rows of a [rows,
// bb/4] float32 JS array of 32 MiB (output to a new array, 4 MiB per call); the kernel path's
// per-block cost is its time less the copy of the data in (copyInPerByte: one-shot calls against
// resident ones on the same data). wasm-gather as init() sets it up.
// Usage: node bench/copy-cost.mjs   (prints the table to paste into js/copy-plan.mjs)
import { init, take, upload } from '../js/index.mjs';
import { forcePath } from '../js/copy-plan.mjs';
import { measure } from '../common/timing.mjs';

const info = await init();
const OUT = 4 << 20;
const BLOCKS = [4, 16, 64, 256, 1024, 4096, 16384];
const rows = (bb) => Math.max(64, Math.min(1 << 20, (32 << 20) / bb)); // a 32 MiB table at most
function xorshift(seed) { let x = seed; return () => { x ^= x << 13; x ^= x >>> 17; x ^= x << 5; return x >>> 0; }; }
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
const copyInPerByte = ((oneShot - resident) * 1e6) / big.data.byteLength;

const perBlock = { js: [], kernel: [] };
for (const bb of BLOCKS) {
  const n = OUT / bb, rws = rows(bb), gen = xorshift(bb);
  const data = { data: new Float32Array(rws * (bb / 4)).map(() => gen() / 2 ** 32), shape: [rws, bb / 4] };
  const idx = { data: Int32Array.from({ length: n }, () => gen() % rws), shape: [n] };
  const t = {};
  for (let rep = 0; rep < 3; rep++) {
    for (const path of ['kernel', 'js']) {
      forcePath(path);
      const ms = (await measure(() => take(data, idx), { budgetMs: 300 })).medianMs;
      t[path] = Math.min(t[path] ?? Infinity, ms);
    }
  }
  const dataIn = data.data.byteLength * copyInPerByte / 1e6; // ms
  perBlock.kernel.push(+(((t.kernel - dataIn) * 1e6) / n).toFixed(2));
  perBlock.js.push(+((t.js * 1e6) / n).toFixed(2));
  console.error(`bb ${bb}: kernel ${t.kernel.toFixed(3)} ms (of which copying the data in ${dataIn.toFixed(3)}), js ${t.js.toFixed(3)} ms (${n} blocks)`);
}
forcePath(null);
console.log(`// node bench/copy-cost.mjs, ${new Date().toISOString().slice(0, 10)}, wasm-gather ${info.variant} ${info.threads} thread(s), ns:`);
console.log(JSON.stringify({ blockBytes: BLOCKS, kernelPerBlock: perBlock.kernel, jsPerBlock: perBlock.js, copyInPerByte: +copyInPerByte.toFixed(3) }));
