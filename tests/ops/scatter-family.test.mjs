// What every scatter promises beyond its own rules: the same bits at any thread count (1 to 16)
// and in both builds, with indices repeated across the threads' parts (the grouped runs of
// src/stage_scatter.c) and NaNs of several payloads meeting each other, max and min's NaN rule
// on each op and float type, and nothing written by a call that fails, in place included.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dispose, heapStats, indexReduce, init, scatter, scatterND, tensorScatter, upload } from '../lib/tested-api.mjs';
import { Rng } from '../lib/rng.mjs';
import { bytesOf, sameBytes } from '../../common/bytes.mjs';

// Every thread count from 1 to 16 (the parts and chunks a call plans for change with it), on
// this machine's cores whatever their number.
const CONFIGS = [
  { variant: 'simd' },
  { variant: 'simd-threaded', threads: 1 },
  ...Array.from({ length: 15 }, (_, i) => ({ variant: 'simd-threaded', threads: i + 2, parallelThreshold: 0 })),
  { variant: 'simd-threaded', threads: 4 },
];

// Floats of many magnitudes (so that the order of a sum shows in its bits), and few
// destinations (so that every part of the output gets updates from every thread's chunk).
// Short rows of float32 and the like run on one thread (src/stage_scatter.h); the grouped runs
// are those of rows of 64 bytes or more, and of 16-bit floats.
// One value in 200 is a NaN of either sign, quiet or signaling, with one of a few payloads: where
// two meet, max and min keep the update's bits, add and mul the one in place (docs/scatters.md).
const floats = (rng, n) => {
  const a = Float32Array.from({ length: n }, () => (rng.next() - 0.5) * 10 ** rng.int(-3, 6));
  const bits = new Uint32Array(a.buffer);
  for (let i = 0; i < n; ++i) {
    if (rng.int(0, 199) === 0) bits[i] = (rng.int(0, 1) << 31 | 0x7f800000 | rng.int(0, 1) << 22 | rng.int(1, 3)) >>> 0;
  }
  return a;
};
const ints = (rng, n, hi) => Int32Array.from({ length: n }, () => rng.int(0, hi - 1));
// float16 bits of values in ±[0.25, 4): no zero, no infinity, and sums that stay finite, so
// that no update makes a NaN of numbers (whose sign wasm leaves open); one in 200 a NaN of either
// sign and a few payloads
const halves = (rng, n) => Uint16Array.from({ length: n }, () => rng.int(0, 199) === 0
  ? (rng.int(0, 1) << 15) | 0x7c00 | rng.int(0, 1) << 9 | rng.int(1, 3)
  : (rng.int(0, 1) << 15) | (rng.int(13, 16) << 10) | rng.int(0, 1023));

// Each case: [name, fn, args]; big enough for several chunks and parts (src/stage_scatter.h).
function cases() {
  const rng = new Rng(20);
  const out = [];
  for (const reduce of ['none', 'add', 'mul', 'max', 'min', 'mean']) {
    out.push([`scatter ${reduce}`, scatter, [{ data: floats(rng, 3 * 500), shape: [3, 500] }, 1,
      { data: ints(rng, 3 * 40000, 500), shape: [3, 40000] }, { data: floats(rng, 3 * 40000), shape: [3, 40000] }, { reduce }]]);
    out.push([`scatter ${reduce} includeSelf false`, scatter, [{ data: floats(rng, 700), shape: [700] }, 0,
      { data: ints(rng, 90000, 700), shape: [90000] }, { data: floats(rng, 90000), shape: [90000] }, { reduce, includeSelf: false }]]);
    // rows of 16 float32 (64 bytes): long enough to be grouped (src/stage_scatter.h)
    out.push([`indexReduce ${reduce}`, indexReduce, [{ data: floats(rng, 64 * 16), shape: [64, 16] }, 0,
      { data: ints(rng, 20000, 64), shape: [20000] }, { data: floats(rng, 20000 * 16), shape: [20000, 16] }, { reduce }]]);
    // float16 elements: grouped too (each update is converted)
    out.push([`scatter float16 ${reduce}`, scatter, [{ data: halves(rng, 600), shape: [600] }, 0,
      { data: ints(rng, 60000, 600), shape: [60000] }, { data: halves(rng, 60000), shape: [60000] }, { reduce, dtype: 'float16' }]]);
    if (reduce !== 'mean') {
      out.push([`scatterND ${reduce}`, scatterND, [{ data: floats(rng, 40 * 30 * 16), shape: [40, 30, 16] },
        { data: Int32Array.from({ length: 30000 * 2 }, (_, i) => rng.int(0, i % 2 ? 29 : 39)), shape: [30000, 2] },
        { data: floats(rng, 30000 * 16), shape: [30000, 16] }, { reduce }]]);
    }
  }
  // integers wrap; a ring buffer write that wraps around the cache's end
  out.push(['scatter add int32 wraps', scatter, [{ data: ints(rng, 100, 2 ** 31), shape: [100] }, 0,
    { data: ints(rng, 50000, 100), shape: [50000] }, { data: ints(rng, 50000, 2 ** 31), shape: [50000] }, { reduce: 'add' }]]);
  out.push(['tensorScatter circular', tensorScatter, [{ data: floats(rng, 2 * 64 * 16), shape: [2, 64, 16] },
    { data: floats(rng, 2 * 60 * 16), shape: [2, 60, 16] }, { data: [5, 63], shape: [2] }, { mode: 'circular' }]]);
  return out;
}

test('the same bits in both builds at 1 to 16 threads, indices repeated across parts', async () => {
  const all = cases();
  const first = new Map();
  for (const config of CONFIGS) {
    await init(config);
    try {
      for (const [name, fn, args] of all) {
        const got = bytesOf(fn(...args).data);
        if (!first.has(name)) first.set(name, got);
        else assert.ok(sameBytes(got, first.get(name)), `${name}: ${JSON.stringify(config)} differs from ${JSON.stringify(CONFIGS[0])}`);
      }
    } finally {
      dispose();
    }
  }
});

// NaN meets NaN under max and min (torch 1.13's scatter_reduce_ amax / amin): the update's NaN
// wins with its bits, a signaling one's included, over a NaN in place; a NaN in place stays
// against a number. Per type: [a quiet NaN with a payload, a signaling NaN, 1].
const NAN_BITS = {
  float32: [0x7fc11111, 0x7f800001, 0x3f800000],
  float64: [0x7ff8111111111111n, 0x7ff0000000000001n, 0x3ff0000000000000n],
  float16: [0x7e11, 0x7c01, 0x3c00],
  bfloat16: [0x7fd1, 0x7f81, 0x3f80],
};
const fromBits = (dtype, bits) => {
  if (dtype === 'float32') return new Float32Array(Uint32Array.from(bits).buffer);
  if (dtype === 'float64') return new Float64Array(BigUint64Array.from(bits).buffer);
  return Uint16Array.from(bits);
};

test('max and min: a NaN update wins over a NaN in place with its bits, a NaN in place stays against a number', async () => {
  for (const config of [{ variant: 'simd' }, { variant: 'simd-threaded', threads: 2, parallelThreshold: 0 }]) {
    await init(config);
    try {
      for (const [dtype, [inPlace, update, one]] of Object.entries(NAN_BITS)) {
        const data = () => ({ data: fromBits(dtype, [inPlace, inPlace]), shape: [2] });
        const updates = { data: fromBits(dtype, [update, one]), shape: [2] };
        const index = { data: [0, 1], shape: [2] };
        const want = bytesOf(fromBits(dtype, [update, inPlace]));
        for (const reduce of ['max', 'min', 'amax', 'amin']) {
          const opts = { reduce, ...(dtype.endsWith('16') ? { dtype } : {}) };
          const calls = {
            scatter: (x, o) => scatter(x, 0, index, updates, o),
            scatterND: (x, o) => scatterND(x, { data: [0, 1], shape: [2, 1] }, updates, o),
            indexReduce: (x, o) => indexReduce(x, 0, index, updates, o),
          };
          for (const [op, call] of Object.entries(calls)) {
            const what = `${op} ${reduce} ${dtype} ${JSON.stringify(config)}`;
            assert.ok(sameBytes(bytesOf(call(data(), opts).data), want), what);
            const r = upload(data());
            try {
              call(r, { ...opts, inPlace: true });
              assert.ok(sameBytes(bytesOf(r.read()), want), `${what}, in place`);
            } finally {
              r.dispose();
            }
          }
        }
      }
    } finally {
      dispose();
    }
  }
});

test("an 'error' call writes nothing: a resident input in place stays byte-identical, the heap is freed", async () => {
  await init({ variant: 'simd-threaded', threads: 2, parallelThreshold: 0 });
  const rng = new Rng(7);
  const r = upload({ data: floats(rng, 4000), shape: [1000, 4] });
  const cache = upload({ data: floats(rng, 64), shape: [1, 16, 4] });
  const before = [r.read().slice(), cache.read().slice()];
  const heap = heapStats().heapInUse;
  // The bad index comes last, after thousands of good ones: none of them may have been applied.
  const idx = ints(rng, 3000, 1000);
  idx[2999] = 1000;
  const calls = [
    () => scatterND(r, { data: idx, shape: [3000, 1] }, { data: floats(rng, 12000), shape: [3000, 4] }, { inPlace: true, reduce: 'add' }),
    () => indexReduce(r, 0, { data: idx, shape: [3000] }, { data: floats(rng, 12000), shape: [3000, 4] }, { inPlace: true, reduce: 'mean' }),
    () => scatter(r, 0, { data: idx.subarray(2000), shape: [1000, 1] }, 7, { inPlace: true }),
    () => scatter(r, 1, { data: Int32Array.from({ length: 4000 }, (_, i) => (i === 3999 ? -5 : i % 4)), shape: [1000, 4] }, 7,
      { inPlace: true, negativeIndices: 'error' }),
    () => tensorScatter(cache, { data: floats(rng, 8), shape: [1, 2, 4] }, { data: [15], shape: [1] }, { inPlace: true }),
  ];
  for (const call of calls) {
    assert.throws(call, RangeError);
    assert.ok(sameBytes(bytesOf(r.read()), bytesOf(before[0])), 'the resident input changed');
    assert.ok(sameBytes(bytesOf(cache.read()), bytesOf(before[1])), 'the resident cache changed');
    assert.equal(heapStats().heapInUse, heap, 'wasm heap not restored');
  }
  r.dispose();
  cache.dispose();
  dispose();
});
