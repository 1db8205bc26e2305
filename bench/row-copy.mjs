// The JS path's ways of moving a row (js/copy-plan.mjs), per row, at each row length in 4-byte
// words: the loop copyBlocks runs up to LOOP_WORDS (eight words a step), a loop of one word a step,
// TypedArray.set from a view made by the constructor (what it runs beyond), and set from
// subarray(). 420 random rows of an 8400-row table (M1's shape at 84 words) into one array, the
// rows kept in cache, so that the copy's own cost shows, not the memory's. And one-word rows
// scattered as maskedScatter writes them (1M rows into 4M words), by executeScatterPlan's loop
// and by a loop that tests each row for ZERO_BLOCK. Medians of interleaved rounds.
// Usage: node bench/row-copy.mjs [--rounds 15]
import { median } from '../common/timing.mjs';
import { xorshift32 } from '../common/workloads.mjs';
import { LOOP_WORDS, copyBlocks, executeScatterPlan } from '../js/copy-plan.mjs';

const at = process.argv.indexOf('--rounds');
const ROUNDS = at > 0 ? Number(process.argv[at + 1]) : 15;
const next = xorshift32(11);

// Runs each of fns (name -> fn) `calls` times a sample, a sample of each a round, rounds
// interleaved; returns name -> median µs per call.
function timeInterleaved(fns, calls) {
  const samples = Object.fromEntries(Object.keys(fns).map((k) => [k, []]));
  for (const f of Object.values(fns)) for (let i = 0; i < calls; i++) f(); // warm up
  for (let r = 0; r < ROUNDS; r++) {
    for (const [k, f] of Object.entries(fns)) {
      const t0 = performance.now();
      for (let i = 0; i < calls; i++) f();
      samples[k].push(((performance.now() - t0) * 1000) / calls);
    }
  }
  return Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)]));
}

// The alternatives, every input a parameter (a loop that reads variables of an enclosing scope
// made more than once reloads them at each step, and would time that instead).
function wordLoop(offsets, n, s, d, w) {
  for (let j = 0, to = 0; j < n; j++, to += w) for (let k = 0, from = offsets[j] >>> 2; k < w; k++) d[to + k] = s[from + k];
}
function setOfView(offsets, n, s, d, w) {
  for (let j = 0; j < n; j++) d.set(new Uint32Array(s.buffer, s.byteOffset + offsets[j], w), j * w);
}
function setOfSubarray(offsets, n, s, d, w) {
  for (let j = 0; j < n; j++) d.set(s.subarray(offsets[j] >>> 2, (offsets[j] >>> 2) + w), j * w);
}
function eachRowTested(rows, n, s, d) {
  for (let j = 0; j < n; j++) {
    const r = rows[j];
    if (r !== 0xffffffff) d[r] = s[j];
  }
}

const ROWS = 8400, KEPT = 420;
console.log(`Rows (LOOP_WORDS = ${LOOP_WORDS}): ns per row`);
console.log('| words | copyBlocks | loop, a word a step | set(new view) | set(subarray()) |');
console.log('| ---: | ---: | ---: | ---: | ---: |');
for (const w of [8, 16, 32, 64, 84, 96, 128, 192, 256]) {
  const s = new Uint32Array(ROWS * w).map(() => next());
  const offsets = Uint32Array.from({ length: KEPT }, () => (next() % ROWS) * w * 4);
  const d = new Uint32Array(KEPT * w);
  const t = timeInterleaved({
    copyBlocks: () => copyBlocks(offsets, KEPT, s, d, w * 4, 4, true),
    loop: () => wordLoop(offsets, KEPT, s, d, w),
    view: () => setOfView(offsets, KEPT, s, d, w),
    subarray: () => setOfSubarray(offsets, KEPT, s, d, w),
  }, 200);
  const ns = (k) => ((t[k] * 1000) / KEPT).toFixed(1);
  console.log(`| ${w} | ${ns('copyBlocks')} | ${ns('loop')} | ${ns('view')} | ${ns('subarray')} |`);
}

const N = 4 << 20, K = 1 << 20;
const rows = new Uint32Array(K);
for (let i = 0, k = 0; k < K; i++) if (next() % (N - i) < K - k) rows[k++] = i; // K of N, in order
const src = new Uint8Array(K * 4).map(() => next()), dst = new Uint8Array(N * 4);
const s32 = new Uint32Array(src.buffer), d32 = new Uint32Array(dst.buffer);
const t = timeInterleaved({
  executeScatterPlan: () => executeScatterPlan(rows, K, src, dst, 4, 4),
  tested: () => eachRowTested(rows, K, s32, d32),
}, 3);
console.log(`\nOne-word rows, 1M into 4M words: executeScatterPlan ${(t.executeScatterPlan / 1000).toFixed(2)} ms, ` +
  `each row tested ${(t.tested / 1000).toFixed(2)} ms`);
