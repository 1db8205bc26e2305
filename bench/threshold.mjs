// Where should the pool start helping? Times the C take kernel alone (inputs already in wasm
// memory, no marshalling) on the simd-threaded build with the parallel threshold forced to 0,
// for 1, 2 and 4 threads, over output sizes from 1 KiB to 4 MiB and two row sizes.
// Prints the median of many runs per size, all thread counts side by side.
// Usage: node bench/threshold.mjs
import { readAbi } from '../js/abi.mjs';
import { prepareCalls, writeCall, writeTensors } from '../js/call.mjs';
import take from '../js/ops/take.mjs';
import { load } from '../js/loader.mjs';
import { median } from '../common/timing.mjs';

const SIZES = [1, 4, 16, 32, 64, 128, 256, 512, 1024, 4096].map((k) => k * 1024); // output bytes
const ROWS = [4, 256]; // bytes per gathered block: single float32 elements, and 64-float rows
const THREADS = [1, 2, 4];
const PARAM_BYTES = 1 << 20;

function timeIt(fn, minMs = 100) {
  for (let i = 0; i < 5; i++) fn();
  const samples = [];
  const start = performance.now();
  while (performance.now() - start < minMs || samples.length < 21) {
    const t0 = performance.now();
    fn();
    samples.push(performance.now() - t0);
  }
  return median(samples) * 1000; // microseconds
}

const results = {}; // results[row][size][threads] = us
for (const threads of THREADS) {
  const { module: m, memory } = await load({ variant: 'simd-threaded', threads });
  const slot = m._malloc(8);
  m._wg_pool_create(threads, slot);
  const pool = new Uint32Array(memory.buffer, slot, 1)[0];
  m._wg_pool_set_parallel_threshold(pool, 0);
  const maxIdx = SIZES.at(-1) / 4;
  const params = m._malloc(PARAM_BYTES), indices = m._malloc(maxIdx * 4), out = m._malloc(SIZES.at(-1));
  // One call record (src/call.def) for take, written by the binding's own code.
  const s = { m, memory, abi: readAbi(m, memory) };
  s.call = m._malloc(s.abi.call.size);
  prepareCalls(s);
  writeTensors(s, { data: params, indices, out });
  for (const row of ROWS) {
    const rows = PARAM_BYTES / row;
    const idx = new Int32Array(memory.buffer, indices, maxIdx);
    for (let i = 0; i < maxIdx; i++) idx[i] = (i * 2654435761) % rows;
    for (const size of SIZES) {
      const n = size / row;
      writeCall(s, take, { data: { shape: [rows, row / 4], dtype: 'F32' }, indices: { shape: [n], dtype: 'I32' } },
        [0, 0], 'error', 'wrap'); // axis, batch_dims
      const run = () => m._wg_call_run(pool, s.call);
      if (run() !== 0) throw new Error('take failed');
      ((results[row] ??= {})[size] ??= {})[threads] = timeIt(run);
    }
  }
  m._wg_pool_destroy(pool);
  m.wgTerminateThreads();
}

for (const row of ROWS) {
  console.log(`\nblocks of ${row} B | ` + THREADS.map((t) => `${t} thread(s) us`).join(' | ') + ' | 2 vs 1 | 4 vs 1');
  for (const size of SIZES) {
    const r = results[row][size];
    console.log(`${String(size).padStart(14)} | ${THREADS.map((t) => r[t].toFixed(1).padStart(14)).join(' | ')} | ` +
      `${(r[1] / r[2]).toFixed(2)}x | ${(r[1] / r[4]).toFixed(2)}x`);
  }
}
