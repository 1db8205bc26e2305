// The errors of the library as a whole, not of one op: calls before init() and after dispose(),
// init() with bad options, and the bad inputs of upload() and read() (the bad-input table,
// tests/lib/bad-inputs.mjs; each op's rows run in its file in tests/ops/).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import api, { dispose, gather, gatherND, heapStats, init, take, upload } from '../lib/tested-api.mjs'; // js/index.mjs, or WG_TEST_API
import { expectError, f32, i32, snapshot, validCallWorks } from '../lib/expect-error.mjs';
import { badInputSuite } from '../lib/bad-inputs.mjs';

const gatherBlockQuantized = (...args) => api.gatherBlockQuantized(...args);
const q8 = () => ({ data: new Uint8Array(24), shape: [3, 8] }); // uint8 4 bits, logical [3, 16]
const qs = () => ({ data: new Float32Array(3).fill(1), shape: [3, 1] });
const p32 = () => f32(6, [3, 2]); // [[1, 2], [3, 4], [5, 6]]
const idx = (...v) => i32(v, [v.length]);

test('calling an op before init() says to call init()', () => {
  assert.throws(() => take(f32(3, [3]), i32([0], [1])), /^Error: take: wasm-gather is not initialized; call 'await init\(\)' first/);
  assert.throws(() => gather(f32(3, [3]), 0, i32([0], [1])), /gather: wasm-gather is not initialized/);
  assert.throws(() => gatherND(f32(3, [3]), i32([0], [1, 1])), /gatherND: wasm-gather is not initialized/);
  assert.throws(() => gatherBlockQuantized(q8(), i32([0], [1]), qs(), { blockSize: 16 }), /^Error: gatherBlockQuantized: wasm-gather is not initialized/);
});

test('init() rejects bad options', async () => {
  await assert.rejects(init({ variant: 'wasm64' }), /init: opts\.variant must be 'simd-threaded' or 'simd', got "wasm64"/);
  await assert.rejects(init({ threads: 0 }), /init: opts\.threads must be an integer from 1 to 64, got 0/);
  await assert.rejects(init({ variant: 'simd', wasm: new Uint8Array([1, 2, 3]) }), WebAssembly.CompileError);
  const info = await init({ variant: 'simd' }); // and the next init works
  assert.equal(info.variant, 'simd');
  dispose();
});

test('calls after dispose() say to call init(), touch nothing, and init() again works', async () => {
  await init({ variant: 'simd' });
  const kept = upload(p32());
  dispose();
  const calls = [
    [take, [p32(), idx(0)], /^take: wasm-gather is not initialized; call 'await init\(\)' first/],
    [gather, [p32(), 0, i32([0, 0], [1, 2])], /^gather: wasm-gather is not initialized/],
    [gatherND, [p32(), i32([0], [1, 1])], /^gatherND: wasm-gather is not initialized/],
    [upload, [p32()], /^upload: wasm-gather is not initialized/],
    [heapStats, [], /^heapStats: wasm-gather is not initialized/],
  ];
  for (const [fn, args, re] of calls) {
    const snap = snapshot(args);
    assert.throws(() => fn(...args), (e) => e.constructor === Error && re.test(e.message), re.source);
    for (const [arr, copy] of snap) assert.deepEqual(arr, copy, 'caller array changed');
  }
  assert.throws(() => kept.read(), /^Error: read: this is a resident tensor of a wasm-gather module that was disposed; upload it again/);
  await init({ variant: 'simd-threaded', threads: 2 });
  expectError(take, [kept, idx(0)], Error, /^take: params is a resident tensor of a wasm-gather module that was disposed; upload it again/);
  dispose();
});

test('init() with bad options rejects before loading anything, also when already initialized', async () => {
  await assert.rejects(init(null), /^TypeError: init: opts must be an object/);
  await assert.rejects(init({ parallelThreshold: -1 }), /^RangeError: init: opts\.parallelThreshold must be a non-negative integer \(bytes\), got -1/);
  await assert.rejects(init({ threads: 2.5 }), /^RangeError: init: opts\.threads must be an integer from 1 to 64, got 2\.5/);
  await init({ variant: 'simd' });
  const heap = heapStats().heapInUse;
  await assert.rejects(init(null), /^TypeError: init: opts must be an object/);
  await assert.rejects(init({ parallelThreshold: 1.5 }), /^RangeError: init: opts\.parallelThreshold must be/);
  await assert.rejects(init({ variant: 'simd-threaded' }), /^Error: init: already initialized as simd/);
  assert.equal(heapStats().heapInUse, heap);
  validCallWorks();
  dispose();
});

badInputSuite('api');
