// init/dispose, variants and thread counts, and good manners toward the host: no globals, no
// process handlers, and a Node process that uses the library exits by itself.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import os from 'node:os';
import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { booleanMask, compress, dispose, gather, gatherND, heapStats, init, maskedScatter, take } from '../../js/index.mjs';
import { forcePath } from '../../js/copy-plan.mjs';

const fixture = fileURLToPath(new URL('../fixtures/exit-without-dispose.mjs', import.meta.url));

for (const variant of ['simd-threaded', 'simd']) {
  test(`a process using ${variant} without dispose() exits by itself, with no globals or handlers added`, () => {
    const r = spawnSync(process.execPath, [fixture, variant], { encoding: 'utf8', timeout: 30000 });
    assert.equal(r.error, undefined, `the process did not exit by itself: ${r.error}`);
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.info.variant, variant);
    assert.equal(out.info.threads, variant === 'simd' ? 1 : 2);
    assert.equal(out.first, 4095 * 256);
    assert.equal(out.sameGlobals, true, 'globals changed');
    assert.equal(out.sameListeners, true, 'process listeners changed');
  });
}

test('init() reports the variant and thread count; dispose() allows another init()', async () => {
  for (const [opts, want] of [
    [{ variant: 'simd' }, { variant: 'simd', threads: 1 }],
    [{ variant: 'simd-threaded', threads: 1 }, { variant: 'simd-threaded', threads: 1 }],
    [{ variant: 'simd-threaded', threads: 4 }, { variant: 'simd-threaded', threads: 4 }],
    [{ threads: 1 }, { variant: 'simd', threads: 1 }],
  ]) {
    const info = await init(opts);
    assert.deepEqual(info, { ...want, simd: true });
    assert.deepEqual(await init(opts), info, 'a second init() with the same options returns the same module');
    const r = take({ data: new Int16Array([1, 2, 3]), shape: [3] }, { data: [2, -3], shape: [2] });
    assert.deepEqual(Array.from(r.data), [3, 1]);
    dispose();
  }
  const info = await init(); // defaults: threaded in Node, the machine's cores up to 16 (docs/environments.md)
  assert.equal(info.variant, 'simd-threaded');
  assert.equal(info.threads, Math.min(os.availableParallelism(), 16));
  await assert.rejects(init({ variant: 'simd' }), /init: already initialized as simd-threaded .* call dispose\(\) before init\(\) with other options/);
  dispose();
  dispose(); // twice is harmless
});

const distWasm = (variant) => new URL(`../../dist/wasm-gather-${variant}.wasm`, import.meta.url);
const compileDist = async (variant) => WebAssembly.compile(await readFile(distWasm(variant)));
const rowsWork = () => assert.deepEqual(Array.from(take({ data: new Uint8Array([7, 8]), shape: [2] }, { data: [1], shape: [1] }).data), [8]);

test('init() accepts a precompiled WebAssembly.Module, bytes or a URL', async () => {
  const url = distWasm('simd');
  const bytes = await readFile(url);
  for (const wasm of [await WebAssembly.compile(bytes), bytes, url]) {
    const info = await init({ variant: 'simd', wasm });
    assert.equal(info.variant, 'simd');
    rowsWork();
    dispose();
  }
});

test('init: a given Module (or its bytes) runs on its own build at any thread count, or is refused naming the build', async () => {
  const threaded = await compileDist('simd-threaded');
  const simd = await compileDist('simd');
  for (const [opts, want] of [
    [{ wasm: threaded, threads: 1 }, { variant: 'simd-threaded', threads: 1 }],
    [{ wasm: await readFile(distWasm('simd-threaded')), threads: 1 }, { variant: 'simd-threaded', threads: 1 }],
    [{ wasm: threaded, threads: 2 }, { variant: 'simd-threaded', threads: 2 }],
    [{ wasm: simd }, { variant: 'simd', threads: 1 }],
  ]) {
    assert.deepEqual(await init(opts), { ...want, simd: true }, `threads: ${opts.threads}`);
    rowsWork();
    dispose();
  }
  const refused = (variant, built) => new RegExp(`^RangeError: init: opts\\.wasm is the ${built} build, but opts\\.variant is '${variant}'; ` +
    `pass the ${variant} build \\(wasm-gather/${variant}\\.wasm\\) or leave opts\\.variant out$`);
  await assert.rejects(init({ wasm: threaded, variant: 'simd' }), refused('simd', 'simd-threaded'));
  await assert.rejects(init({ wasm: simd, variant: 'simd-threaded' }), refused('simd-threaded', 'simd'));
  // A host without SharedArrayBuffer (a page that is not cross-origin isolated) cannot make its memory.
  const { SharedArrayBuffer } = globalThis;
  globalThis.SharedArrayBuffer = undefined;
  try {
    await assert.rejects(init({ wasm: threaded }), /^Error: init: opts\.wasm is the simd-threaded build, whose memory is a SharedArrayBuffer, which this host does not have; pass the simd build \(wasm-gather\/simd\.wasm\)$/);
  } finally {
    globalThis.SharedArrayBuffer = SharedArrayBuffer;
  }
  assert.deepEqual(await init({ wasm: threaded, threads: 1 }), { variant: 'simd-threaded', threads: 1, simd: true }, 'init works after the errors');
  dispose();
});

test('init: concurrent calls with other options get the sequential error; with the same options they share one module', async () => {
  const [first, second] = await Promise.allSettled([init({ variant: 'simd' }), init({ variant: 'simd-threaded', threads: 2 })]);
  assert.deepEqual(first, { status: 'fulfilled', value: { variant: 'simd', threads: 1, simd: true } });
  assert.equal(second.status, 'rejected');
  assert.equal(String(second.reason), 'Error: init: already initialized as simd with 1 thread(s); call dispose() before init() with other options');
  rowsWork();
  dispose();
  // The first fails: the other options load, as they would right after it.
  const [bad, other] = await Promise.allSettled([init({ variant: 'simd', wasm: new Uint8Array([1, 2, 3]) }), init({ variant: 'simd-threaded', threads: 2 })]);
  assert.ok(bad.reason instanceof WebAssembly.CompileError, String(bad.reason));
  assert.deepEqual(other, { status: 'fulfilled', value: { variant: 'simd-threaded', threads: 2, simd: true } });
  dispose();
  const { instantiate } = WebAssembly;
  let instances = 0;
  WebAssembly.instantiate = (...args) => { instances++; return instantiate(...args); };
  try {
    const infos = await Promise.all([init({ variant: 'simd' }), init({ variant: 'simd' }), init({})]);
    assert.deepEqual(infos, Array(3).fill({ variant: 'simd', threads: 1, simd: true }));
    assert.equal(instances, 1, 'one module for all three');
  } finally {
    WebAssembly.instantiate = instantiate;
    dispose();
  }
});

test('repeated calls do not grow the wasm heap', async () => {
  await init({ variant: 'simd-threaded', threads: 2 });
  try {
    const params = { data: new Float64Array(300000), shape: [1000, 300] };
    const indices = { data: new Int32Array(500).map((_, i) => i % 1000), shape: [500] };
    // Each path of a one-shot call (js/copy-plan.mjs), and the cost model's choice.
    for (const path of ['kernel', 'js', null]) {
      forcePath(path);
      take(params, indices);
      const before = heapStats().heapInUse;
      for (let i = 0; i < 20; i++) take(params, indices);
      assert.equal(heapStats().heapInUse, before, `path ${path}`);
      // the call's peak: the kernel path's is its inputs and output, nothing more (2.4 MB + 2 KB
      // + 1.2 MB); the JS path's the indices and one offset a block (2 KB + 2 KB)
      const peak = path === 'kernel' ? 300000 * 8 + 500 * 4 + 500 * 300 * 8 : 500 * 4 + 500 * 4;
      if (path) assert.equal(heapStats().lastCallBytes, peak, `path ${path}`);
    }
  } finally {
    forcePath(null);
    dispose();
  }
});

test('the masks\' offsets mode counts first: wasm memory holds the mask and the kept slices\' offsets, not one for every mask element', async () => {
  await init({ variant: 'simd-threaded', threads: 2 });
  try {
    const n = 100000, kept = 1000, cols = 4;
    const x = { data: Float32Array.from({ length: n * cols }, (_, i) => i), shape: [n, cols] };
    const mask = { data: new Uint8Array(n), shape: [n] };
    for (let i = 0; i < kept; i++) mask.data[i * 97] = 1;
    const want = new Float32Array(kept * cols);
    for (let i = 0, k = 0; i < n; i++) if (mask.data[i]) want.set(x.data.subarray(i * cols, (i + 1) * cols), cols * k++);
    const source = { data: Float32Array.from({ length: kept }, (_, i) => -i), shape: [kept] };
    const xs = { data: new Float32Array(n), shape: [n] };
    const cases = [
      ['compress', () => compress(x, mask, { axis: 0 }), want],
      ['booleanMask', () => booleanMask(x, mask), want],
      ['maskedScatter', () => maskedScatter(xs, mask, source), null],
    ];
    for (const [name, call, expected] of cases) {
      const before = heapStats().heapInUse;
      const r = call();
      if (expected) assert.deepEqual(r.data, expected, name);
      else for (let i = 0, k = 0; i < n; i++) assert.equal(r.data[i], mask.data[i] ? -k++ : 0, `${name} element ${i}`);
      // the mask (100 000 bytes), the workspace's counts and 1000 offsets (4000 bytes): one offset a
      // mask element would be 400 000 bytes more
      const bytes = heapStats().lastCallBytes;
      assert.ok(bytes >= n + kept * 4 && bytes < n + kept * 4 + 8192, `${name}: ${bytes} bytes of wasm memory`);
      assert.equal(heapStats().heapInUse, before, `${name}: the heap after the call`);
    }
  } finally {
    dispose();
  }
});

test('a gather with nothing to write copies no data into wasm memory, and still checks its indices', async () => {
  await init({ variant: 'simd-threaded', threads: 2 });
  try {
    const params = { data: new Float32Array(1 << 20).fill(1), shape: [1 << 14, 64] }; // 4 MiB
    const cases = [
      ['take of no index', () => take(params, { data: new Int32Array(0), shape: [0] }), [0, 64]],
      ['gather along an index of no element a row', () => gather(params, 1, { data: new Int32Array(0), shape: [1 << 14, 0] }), [1 << 14, 0]],
      ['gatherND of no index', () => gatherND(params, { data: new Int32Array(0), shape: [0, 1] }), [0, 64]],
    ];
    for (const [name, call, shape] of cases) {
      const r = call();
      assert.deepEqual(r.shape, shape, name);
      assert.equal(r.data.length, 0, name);
      assert.ok(heapStats().lastCallBytes < 1024, `${name}: ${heapStats().lastCallBytes} bytes of wasm memory, the data's 4 MiB not among them`);
    }
    // an empty output whose indices are still read: the first bad one is an error, as with data
    const empty = { data: new Float32Array(0), shape: [5, 0] };
    assert.throws(() => take(empty, { data: Int32Array.from([2, 7]), shape: [2] }), /take: indices\[1\] = 7 is out of range for dimension 0/);
    assert.deepEqual(take(empty, { data: Int32Array.from([2, -1]), shape: [2] }).shape, [2, 0]);
  } finally {
    dispose();
  }
});

test('ONNX Runtime style { data, dims } tensors are accepted', async () => {
  await init({ variant: 'simd' });
  const r = take({ data: new Float32Array([1, 2, 3, 4]), dims: [2, 2] }, { data: new BigInt64Array([1n]), dims: [1] }, { axis: 1 });
  assert.deepEqual(r.shape, [2, 1]);
  assert.deepEqual(Array.from(r.data), [2, 4]);
  dispose();
});

test('CommonJS: require() gives the same API', async () => {
  const { createRequire } = await import('node:module');
  const cjs = createRequire(import.meta.url)('../../js/index.cjs');
  assert.throws(() => cjs.take({ data: new Float32Array(1), shape: [1] }, { data: [0], shape: [1] }), /take: wasm-gather is not initialized/);
  const info = await cjs.init({ variant: 'simd' });
  assert.equal(info.variant, 'simd');
  assert.deepEqual(Array.from(cjs.gatherND({ data: new Uint16Array([5, 6, 7, 8]), shape: [2, 2] }, { data: [1, 0], shape: [1, 2] }).data), [7]);
  const esm = await import('../../js/index.mjs');
  assert.deepEqual(Object.keys(cjs).sort(), Object.keys(esm).sort(), 'index.cjs exports what index.mjs does');
  cjs.dispose();
});
