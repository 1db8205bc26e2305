// Soak and concurrency: 100,000 mixed calls with the wasm heap checked for growth;
// calls interleaved from async code and from worker_threads that each run their own instance;
// sizes around the thread threshold and the kernels' switch points, bitwise equal at 1, 2 and 4
// threads; and a request larger than wasm memory can give. Every result is compared with
// common/reference.mjs (calls from tests/soak/cases.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import * as api from '../../js/index.mjs';
import { refGather, refGatherND, refTake } from '../../common/reference.mjs';
import { Rng } from '../lib/rng.mjs';
import { checkCall, randomCall } from './cases.mjs';
import { validCallWorks } from '../lib/expect-error.mjs';

const CALLS = Number(process.env.WG_SOAK_CALLS ?? 100000);
// Slack for one-time allocations of the pool's threads on first use (tens of bytes).
const HEAP_SLACK = 1024;

test(`${CALLS} mixed calls: every result right, some failing on purpose, no heap growth`, async (t) => {
  await api.init({ variant: 'simd-threaded', threads: 2 });
  try {
    checkCall(api, randomCall(new Rng(1)));
    const before = api.heapStats().heapInUse;
    const R = new Rng(0x50a4);
    const counts = { ok: 0, error: 0 };
    for (let i = 0; i < CALLS; i++) counts[checkCall(api, randomCall(R))]++;
    const grown = api.heapStats().heapInUse - before;
    t.diagnostic(`${counts.ok} results checked, ${counts.error} expected errors; heap in use grew by ${grown} bytes`);
    assert.ok(counts.error > CALLS / 50, 'too few failing calls');
    assert.ok(grown <= HEAP_SLACK, `wasm heap grew by ${grown} bytes`);
  } finally {
    api.dispose();
  }
});

test('calls interleaved from async tasks and from worker_threads, each worker with its own instance', async (t) => {
  const configs = [
    { variant: 'simd' },
    { variant: 'simd-threaded', threads: 2 },
    { variant: 'simd-threaded', threads: 2, parallelThreshold: 0 }, // every call split over the pool
  ];
  const workers = configs.map((config, k) => new Promise((resolve, reject) => {
    const w = new Worker(new URL('./worker.mjs', import.meta.url), { workerData: { config, seed: 1000 + k, calls: 3000 } });
    w.once('message', resolve);
    w.once('error', reject);
    w.once('exit', (code) => code && reject(new Error(`worker exited with ${code}`)));
  }));
  // Meanwhile, on this thread: async tasks that each hold a resident table across awaits.
  await api.init({ variant: 'simd-threaded', threads: 2 });
  try {
    const before = api.heapStats().heapInUse;
    const task = async (k) => {
      const table = { data: Float32Array.from({ length: 64 * 8 }, (_, i) => i * (k + 1)), shape: [64, 8] };
      const resident = api.upload(table);
      const R = new Rng(k);
      let n = 0;
      try {
        for (let i = 0; i < 300; i++) {
          const rows = { data: Int32Array.from({ length: R.int(1, 20) }, () => R.int(-64, 63)), shape: [0] };
          rows.shape = [rows.data.length];
          const got = api.take(resident, rows);
          assert.deepEqual(got.data, refTake(table, rows).data, `task ${k} call ${i}`);
          checkCall(api, randomCall(R));
          n += 2;
          await new Promise((r) => (i % 2 ? setImmediate(r) : queueMicrotask(r)));
        }
      } finally {
        resident.dispose();
      }
      return n;
    };
    const done = await Promise.all(Array.from({ length: 8 }, (_, k) => task(k)));
    assert.ok(api.heapStats().heapInUse - before <= HEAP_SLACK, 'heap grew');
    t.diagnostic(`main thread: ${done.reduce((a, b) => a + b)} calls from 8 async tasks`);
  } finally {
    api.dispose();
  }
  for (const [k, r] of (await Promise.all(workers)).entries()) {
    assert.deepEqual(r.failures, [], `worker ${k} (${JSON.stringify(configs[k])})`);
    assert.equal(r.counts.ok + r.counts.error, 3000);
    assert.ok(r.grown <= HEAP_SLACK, `worker ${k}: heap grew by ${r.grown}`);
    t.diagnostic(`worker ${k} (${r.info.variant}, ${r.info.threads} threads): ${r.counts.ok} results, ${r.counts.error} expected errors`);
  }
});

// Sizes either side of the switch points: the 32 KiB thread threshold (WG_PARALLEL_MIN_BYTES),
// the 16 KiB tile, the 256-byte memcpy switch for slices, the 256-block segment of the general
// path, the fused element widths; each output compared with the reference and across configs.
function switchCases() {
  const R = new Rng(77);
  const fill = (T, n) => T.from({ length: n }, () => R.int(0, 250));
  const rows = (n, s, bad = -1) => Int32Array.from({ length: n }, (_, i) => (i === bad ? s : R.int(-s, s - 1)));
  const cases = [];
  for (const bytes of [16 * 1024 - 4, 16 * 1024, 32 * 1024 - 4, 32 * 1024, 32 * 1024 + 4, 64 * 1024 + 12]) {
    const n = bytes / 4; // take of 4-byte elements (fused row kernel): n indices
    const params = { data: fill(Float32Array, 1000), shape: [1000] };
    cases.push([`take, ${bytes} B of float32 elements`, refTake, 'take', [params, { data: rows(n, 1000), shape: [n] }], {}]);
    const g = { data: fill(Uint16Array, n * 2), shape: [n, 2] }; // gather dim 0: strided (a ramp), 2-byte elements
    cases.push([`gather dim 0, ${bytes} B of uint16`, (x, i, o) => refGather(x, 0, i, o), 'gather0', [g, { data: rows(n * 2, n, n), shape: [n, 2] }], { outOfRange: 'clamp' }]);
  }
  for (const slice of [15, 16, 17, 255, 256, 257, 4095, 4097]) { // slice bytes around copy switches
    const params = { data: fill(Uint8Array, 40 * slice), shape: [40, slice] };
    const n = Math.ceil((40 * 1024) / slice); // some of them past the thread threshold
    cases.push([`take slices of ${slice} B`, refTake, 'take', [params, { data: rows(n, 40, n >> 1), shape: [n] }], { outOfRange: 'zero' }]);
  }
  for (const blocks of [255, 256, 257, 8191, 8192, 8193]) { // gatherND triples; 8192 x 4 B = 32 KiB
    const params = { data: fill(Int32Array, 5 * 6 * 7), shape: [5, 6, 7] };
    const idx = Int32Array.from({ length: blocks * 3 }, (_, i) => R.int(-[5, 6, 7][i % 3], [5, 6, 7][i % 3] - 1));
    cases.push([`gatherND ${blocks} triples`, refGatherND, 'gatherND', [params, { data: idx, shape: [blocks, 3] }], {}]);
    const wide = { data: fill(Float64Array, 9 * 5), shape: [9, 5] };
    cases.push([`gatherND ${blocks} rows of 40 B, int64 indices`, refGatherND, 'gatherND', [wide, { data: BigInt64Array.from({ length: blocks }, () => BigInt(R.int(-9, 9))), shape: [blocks, 1] }], { outOfRange: 'clamp' }]);
  }
  return cases;
}

test('sizes around the thread threshold and the kernel switch points: bitwise equal at 1, 2 and 4 threads', async (t) => {
  const cases = switchCases();
  const want = cases.map(([, ref, , args, opts]) => ref(...args, opts));
  const configs = [{ variant: 'simd' }, { variant: 'simd-threaded', threads: 1 }, { variant: 'simd-threaded', threads: 2 },
    { variant: 'simd-threaded', threads: 4 }, { variant: 'simd-threaded', threads: 4, parallelThreshold: 0 }];
  for (const config of configs) {
    await api.init(config);
    try {
      cases.forEach(([name, , op, args, opts], k) => {
        const got = op === 'gather0' ? api.gather(args[0], 0, args[1], opts) : api[op](...args, opts);
        const what = `${name} (${JSON.stringify(config)})`;
        assert.deepEqual(got.shape, want[k].shape, what);
        assert.ok(Buffer.from(got.data.buffer).equals(Buffer.from(want[k].data.buffer)), `${what}: bytes differ`);
      });
    } finally {
      api.dispose();
    }
  }
  t.diagnostic(`${cases.length} cases x ${configs.length} configurations`);
});

test('memory pressure: a request larger than wasm memory can give is a RangeError and the module keeps working', async () => {
  await api.init({ variant: 'simd-threaded', threads: 2 });
  try {
    validCallWorks();
    const before = api.heapStats().heapInUse;
    // 4094 rows of 1 MiB: within what one wasm32 allocation may ask for (4 GiB - 64 KiB), but
    // not what is left of 4 GiB once the stack and static data have their part. Nothing is
    // written: malloc fails before the op runs.
    const params = { data: new Uint8Array(2 ** 20), shape: [1, 2 ** 20] };
    const idx = { data: new Int32Array(4094), shape: [4094] };
    assert.throws(() => api.take(params, idx, { axis: 0 }), (e) => e instanceof RangeError &&
      /^take: the output \[4094, 1048576\] with the inputs needs \d+ bytes, more than wasm memory can hold now$/.test(e.message));
    assert.throws(() => api.take(params, idx, { resident: true }), /^RangeError: take: .*more than wasm memory can hold now/);
    assert.equal(api.heapStats().heapInUse, before, 'heap restored');
    for (let i = 0; i < 3; i++) validCallWorks();
    const r = api.take(params, { data: new Int32Array([0, 0]), shape: [2] }); // a large valid call still fits
    assert.equal(r.data.length, 2 * 2 ** 20);
  } finally {
    api.dispose();
  }
});
