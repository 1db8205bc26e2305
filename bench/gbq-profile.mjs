// Where a gatherBlockQuantized call's time goes. Each figure is the best of several
// interleaved rounds (a round: the mean of many calls), which resists this machine's noise.
//   1. Q1's call against its parts: in-wasm with 0 indices (the fixed cost: JS wrapper, shape,
//      call), 1 index, a new JS output array; take() of a float32 row of the same size and
//      `new Float32Array(896)` alongside.
//   2. The kernel: in-wasm ns per output value on a [8192, 1024] table, 512 indices, per code
//      type, scale (= output) type and block size (what a block costs, what float16 output costs).
// Usage: node bench/gbq-profile.mjs [variant] [threads]   (default: simd-threaded 2)
import * as api from '../js/index.mjs';
import { Q_WORKLOADS, fillRandom, makeQuantTensors, randomIndices, xorshift32 } from '../common/workloads.mjs';

const variant = process.argv[2] ?? 'simd-threaded';
const threads = Number(process.argv[3] ?? (variant === 'simd' ? 1 : 2));
const { dispose, gatherBlockQuantized: gbq, init, take, upload } = api;
await init({ variant, threads });

/** Best round mean, µs per call, of each function, rounds interleaved. */
function best(fns, { rounds = 15, roundMs = 20 } = {}) {
  const out = {};
  const calls = {};
  for (const [k, f] of Object.entries(fns)) { // calibrate: calls per round of about roundMs
    f();
    const t0 = performance.now();
    let n = 0;
    while (performance.now() - t0 < 2) { f(); n++; }
    calls[k] = Math.max(1, Math.round((n * roundMs) / 2));
  }
  for (let r = 0; r < rounds; r++) {
    for (const [k, f] of Object.entries(fns)) {
      const t0 = performance.now();
      for (let i = 0; i < calls[k]; i++) f();
      out[k] = Math.min(out[k] ?? Infinity, ((performance.now() - t0) / calls[k]) * 1000);
    }
  }
  return out;
}

// ---- 1. Q1's call ----
const w = Q_WORKLOADS[0];
const t = makeQuantTensors(w);
const cols = w.outShape[1];
const data = upload(t.data), scales = upload(t.scales);
const f32 = upload({ data: new Float32Array(4096 * cols), shape: [4096, cols] });
const one = upload(t.indices), none = upload({ data: new Int32Array(0), shape: [0] });
const oneT = { data: Int32Array.of(7), shape: [1] }, oneTr = upload(oneT);
const out1 = upload({ data: new Float32Array(cols), shape: [1, cols] }), out0 = upload({ data: new Float32Array(0), shape: [0, cols] });
const q1 = best({
  'gbq Q1, output to JS (new array)': () => gbq(data, t.indices, scales, w.opts),
  'gbq Q1, output into a reused JS array': (() => { const o = { ...w.opts, out: new Float32Array(cols) }; return () => gbq(data, t.indices, scales, o); })(),
  'gbq Q1, in-wasm': (() => { const o = { ...w.opts, out: out1 }; return () => gbq(data, one, scales, o); })(),
  'gbq 0 indices, in-wasm (fixed cost)': (() => { const o = { ...w.opts, out: out0 }; return () => gbq(data, none, scales, o); })(),
  'take 1 float32 row, output to JS (new array)': () => take(f32, oneT),
  'take 1 float32 row, in-wasm': () => take(f32, oneTr, { out: out1 }),
  'take 0 rows, in-wasm (fixed cost)': () => take(f32, none, { out: out0 }),
  [`new Float32Array(${cols})`]: () => new Float32Array(cols),
});
console.log(`${variant} ${threads}T\n1. Q1 (µs per call, best of interleaved rounds)`);
for (const [k, v] of Object.entries(q1)) console.log(`  ${k.padEnd(44)} ${v.toFixed(3)}`);
for (const x of [data, scales, f32, one, none, oneTr, out1, out0]) x.dispose();

// ---- 2. the kernel ----
const rows = 8192, n = 1024, k = 512;
const idx = upload(randomIndices(xorshift32(5), [k], [rows]));
console.log(`2. kernel, in-wasm ns per output value, [${rows}, ${n}] logical, ${k} indices`);
console.log('  codes | scales/output | block 16 | block 32 | block 128 | block 1024');
for (const [qt, bits] of [['uint8', 4], ['uint8', 2], ['int4', 4]]) {
  const bytes = fillRandom(new Uint8Array((rows * n * bits) / 8), 9);
  const table = qt === 'uint8' ? upload({ data: bytes, shape: [rows, (n * bits) / 8] }) : upload({ data: bytes, shape: [rows, n] }, { quantType: qt });
  for (const st of ['float32', 'float16']) {
    const fns = {};
    const held = [];
    for (const block of [16, 32, 128, 1024]) {
      const nb = n / block;
      const sc = st === 'float32' ? new Float32Array(rows * nb).fill(0.01) : new Uint16Array(rows * nb).fill(0x2000);
      const s = upload({ data: sc, shape: [rows, nb] });
      const out = upload({ data: new sc.constructor(k * n), shape: [k, n] });
      held.push(s, out);
      const o = { quantType: qt, bits: qt === 'uint8' ? bits : undefined, blockSize: block, out };
      fns[block] = () => gbq(table, idx, s, o);
    }
    const r = best(fns, { rounds: 6, roundMs: 10 });
    console.log(`  ${qt === 'uint8' ? `uint8 ${bits} bits` : qt} | ${st} | ${Object.values(r).map((us) => ((us * 1000) / (k * n)).toFixed(3)).join(' | ')}`);
    for (const x of held) x.dispose();
  }
  table.dispose();
}
dispose();
