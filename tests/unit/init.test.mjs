// init() when start-up comes up short or fails after the module has loaded. Both are made real
// through the loader's test-only hook (TEST_HOOKS in js/loader.mjs): fewer preloaded workers, so
// that pthread_create fails past them, or a step of start() failing. Every worker thread an
// init() started must be gone when it has failed or been disposed. Also the warning of threads
// asked of the simd build given as opts.wasm, which runs on one thread.
import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { dispose, init, take } from '../../js/index.mjs';
import { readAbi } from '../../js/abi.mjs';
import { TEST_HOOKS } from '../../js/loader.mjs';

const live = new Set(); // worker threads started and not yet exited (Node's process 'worker' event)
const onWorker = (w) => { live.add(w); w.once('exit', () => live.delete(w)); };
process.on('worker', onWorker);
afterEach(() => dispose());
test.after(() => process.off('worker', onWorker));

async function allWorkersGone() {
  for (let i = 0; i < 100 && live.size; i++) await new Promise((r) => setTimeout(r, 20));
  assert.equal(live.size, 0, `${live.size} worker thread(s) still running`);
}

// A gather large enough for the pool (parallelThreshold 0), checked element by element.
function gatherWorks() {
  const rows = 256;
  const r = take({ data: Int32Array.from({ length: rows * 64 }, (_, i) => i), shape: [rows, 64] },
    { data: Int32Array.from({ length: rows }, (_, i) => rows - 1 - i), shape: [rows] });
  assert.ok(r.data.every((v, i) => v === (rows - 1 - Math.floor(i / 64)) * 64 + (i % 64)));
}

async function warningsOf(fn) {
  const warnings = [];
  const { warn } = console;
  console.warn = (...args) => warnings.push(args.join(' '));
  try {
    await fn();
  } finally {
    console.warn = warn;
  }
  return warnings;
}

test('init: a pool that comes up short resolves { threads } to the threads it has and warns once, naming both', async () => {
  for (const [threads, workers, got] of [[3, 1, 2], [2, 0, 1]]) {
    const opts = { variant: 'simd-threaded', threads, parallelThreshold: 0, [TEST_HOOKS]: { workers } };
    const warnings = await warningsOf(async () => {
      assert.deepEqual(await init(opts), { variant: 'simd-threaded', threads: got, simd: true });
      gatherWorks();
      assert.deepEqual(await init({ variant: 'simd-threaded', threads }), { variant: 'simd-threaded', threads: got, simd: true },
        'the same options again: the same module');
      dispose();
      await init(opts); // a second start-up as short as the first: no second warning
    });
    assert.deepEqual(warnings, [`wasm-gather: init: running on ${got} thread(s) instead of ${threads}: ` +
      `only ${got - 1} of the ${threads - 1} worker threads could be started`]);
    dispose();
    await allWorkersGone();
  }
});

test('init: the simd build given as opts.wasm with threads asked for runs on one thread and warns once, saying to pass the threaded build', async () => {
  const bytes = await readFile(new URL('../../dist/wasm-gather-simd.wasm', import.meta.url));
  const module = await WebAssembly.compile(bytes);
  const warnings = await warningsOf(async () => {
    for (const [wasm, threads] of [[bytes, 2], [module, 2], [module, 1], [module, undefined]]) {
      assert.deepEqual(await init({ wasm, threads }), { variant: 'simd', threads: 1, simd: true }, `threads: ${threads}`);
      gatherWorks();
      dispose();
    }
  });
  assert.deepEqual(warnings, ["wasm-gather: running on one thread (variant 'simd'): opts.wasm is the simd build, which has no " +
    'threads; pass the simd-threaded build (wasm-gather/simd-threaded.wasm) for 2 threads'], 'once, and only where threads were asked for');
  // Where the host has no threads either, the threaded build would not help: the host's reason, as without opts.wasm.
  const { SharedArrayBuffer } = globalThis;
  globalThis.SharedArrayBuffer = undefined;
  try {
    const [warning, ...more] = await warningsOf(async () => {
      assert.deepEqual(await init({ wasm: module, threads: 3 }), { variant: 'simd', threads: 1, simd: true });
      dispose();
    });
    assert.deepEqual(more, []);
    assert.match(warning, /^wasm-gather: running on one thread \(variant 'simd'\): /);
    assert.doesNotMatch(warning, /simd-threaded/);
  } finally {
    globalThis.SharedArrayBuffer = SharedArrayBuffer;
  }
  await allWorkersGone();
});

// Each failure is made in the module that load() returned, before start() goes on with it; the
// frees start() does on the way out are recorded.
const FAILURES = [
  ["the call record's malloc returns 0", (m) => { m._malloc = () => 0; }, /^Error: init: out of wasm memory$/, []],
  ['_wg_pool_create fails', (m, memory) => { const oom = readAbi(m, memory).value('WG_ERR_OUT_OF_MEMORY'); m._wg_pool_create = () => oom; },
    /^Error: init: could not create a pool of 2 threads \(its memory, mutex or condition variable could not be had\)$/, ['_free']],
  ['a call after the pool is made traps', (m) => { m._wg_pool_threads = () => { throw new WebAssembly.RuntimeError('unreachable'); }; },
    /^RuntimeError: unreachable$/, ['_wg_pool_destroy', '_free']],
];

for (const [what, fail, message, frees] of FAILURES) {
  test(`init: when ${what} after loading, start() frees the pool, call record and workers, and init() works again`, async () => {
    const freed = [];
    const loaded = (m, memory) => {
      for (const name of ['_wg_pool_destroy', '_free']) {
        const f = m[name];
        m[name] = (ptr) => { if (ptr) freed.push(name); return f(ptr); };
      }
      fail(m, memory);
    };
    await assert.rejects(init({ variant: 'simd-threaded', threads: 2, [TEST_HOOKS]: { loaded } }), (e) => {
      assert.match(String(e), message);
      return true;
    });
    assert.deepEqual(freed, frees);
    await allWorkersGone();
    assert.deepEqual(await init({ variant: 'simd-threaded', threads: 2, parallelThreshold: 0 }), { variant: 'simd-threaded', threads: 2, simd: true });
    gatherWorks();
    dispose();
    await allWorkersGone();
  });
}
