// What a new user tripped over, at run time: a misspelt option name (ignored silently before),
// shapes given as TypedArrays, the codes of the "not initialized" and "was disposed" errors
// (from import and from require), and messages that showed a string as if it were a number.
// The types of the same are tests/package/types.test.mjs's.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import api, { dispose, gather, gatherND, heapStats, init, take, upload } from '../lib/tested-api.mjs';
import { expectError, f32, i32 } from '../lib/expect-error.mjs';
import { checkOptionNames } from '../../js/tensor.mjs';

const gatherBlockQuantized = (...args) => api.gatherBlockQuantized(...args);
const COMMON = 'outOfRange, negativeIndices, out, resident';
const q8 = () => ({ data: new Uint8Array(24), shape: [3, 8] }); // uint8, 4 bits: logical [3, 16]
const qs = () => ({ data: new Float32Array(3).fill(1), shape: [3, 1] });
const hasCode = (code, re) => (e) => {
  assert.match(e.message, re);
  assert.equal(e.code, code, `code of: ${e.message}`);
  assert.equal(e.constructor, Error);
  return true;
};

test('checkOptionNames: names the op, the unknown option and the valid ones, with a did-you-mean hint', () => {
  const known = ['axis', 'batchDims', 'outOfRange'];
  assert.doesNotThrow(() => checkOptionNames('take', { axis: 1, outOfRange: 'zero' }, known));
  assert.doesNotThrow(() => checkOptionNames('take', undefined, known));
  assert.doesNotThrow(() => checkOptionNames('take', { [Symbol('hook')]: 1 }, known), 'symbol keys are not options');
  assert.doesNotThrow(() => checkOptionNames('take', Object.create({ inherited: 1 }), known), 'only own names');
  assert.throws(() => checkOptionNames('take', { axes: 1 }, known),
    { name: 'TypeError', message: "take: unknown option 'axes' (valid options: axis, batchDims, outOfRange)" });
  assert.throws(() => checkOptionNames('take', { outofrange: 'zero' }, known),
    { name: 'TypeError', message: "take: unknown option 'outofrange' (did you mean 'outOfRange'?) (valid options: axis, batchDims, outOfRange)" });
  assert.throws(() => checkOptionNames('take', { batch_dims: 1 }, known), /\(did you mean 'batchDims'\?\)/);
  assert.throws(() => checkOptionNames('op', { x: 1 }, []), { message: "op: unknown option 'x' (valid options: none)" });
});

test('an op called before init(): Error with code ERR_WG_NOT_INITIALIZED', () => {
  const re = /wasm-gather is not initialized; call 'await init\(\)' first/;
  assert.throws(() => take(f32(3, [3]), i32([0], [1])), hasCode('ERR_WG_NOT_INITIALIZED', /^take: /));
  assert.throws(() => gather(f32(3, [3]), 0, i32([0], [1])), hasCode('ERR_WG_NOT_INITIALIZED', re));
  assert.throws(() => gatherND(f32(3, [3]), i32([0], [1, 1])), hasCode('ERR_WG_NOT_INITIALIZED', re));
  assert.throws(() => gatherBlockQuantized(q8(), i32([0], [1]), qs()), hasCode('ERR_WG_NOT_INITIALIZED', re));
  assert.throws(() => upload(f32(3, [3])), hasCode('ERR_WG_NOT_INITIALIZED', /^upload: /));
  assert.throws(() => heapStats(), hasCode('ERR_WG_NOT_INITIALIZED', /^heapStats: /));
});

test('the CommonJS entry: the same error and code before its init() and after dispose()', async () => {
  const cjs = createRequire(import.meta.url)('../../js/index.cjs');
  const re = /^take: wasm-gather is not initialized; call 'await init\(\)' first$/;
  assert.throws(() => cjs.take(f32(3, [3]), i32([0], [1])), hasCode('ERR_WG_NOT_INITIALIZED', re)); // the shim's own
  assert.throws(() => cjs.heapStats(), hasCode('ERR_WG_NOT_INITIALIZED', /^heapStats: /));
  await cjs.init({ variant: 'simd' });
  const kept = cjs.upload(f32(3, [3]));
  cjs.dispose();
  assert.throws(() => cjs.take(f32(3, [3]), i32([0], [1])), hasCode('ERR_WG_NOT_INITIALIZED', re)); // the module's (ready())
  assert.throws(() => kept.read(), hasCode('ERR_WG_DISPOSED', /^read: this is a resident tensor of a wasm-gather module that was disposed/));
});

test('a resident tensor used after dispose(): Error with code ERR_WG_DISPOSED', async () => {
  await init({ variant: 'simd' });
  try {
    const gone = upload(f32(6, [3, 2]));
    gone.dispose();
    assert.throws(() => take(gone, i32([0], [1])), hasCode('ERR_WG_DISPOSED', /^take: params is a resident tensor that was disposed$/));
    assert.throws(() => gone.view(), hasCode('ERR_WG_DISPOSED', /^view: this is a resident tensor that was disposed$/));
    const out = upload(f32(2, [1, 2]));
    out.dispose();
    assert.throws(() => take(f32(6, [3, 2]), i32([0], [1]), { out }), hasCode('ERR_WG_DISPOSED', /^take: opts\.out is a resident/));
    const kept = upload(f32(6, [3, 2]));
    dispose();
    await init({ variant: 'simd' });
    assert.throws(() => take(kept, i32([0], [1])),
      hasCode('ERR_WG_DISPOSED', /^take: params is a resident tensor of a wasm-gather module that was disposed; upload it again$/));
  } finally {
    dispose();
  }
});

test('init() rejects an unknown option, naming the valid ones, before loading anything', async () => {
  await assert.rejects(init({ thread: 2 }), {
    name: 'TypeError',
    message: "init: unknown option 'thread' (valid options: variant, threads, wasm, parallelThreshold)",
  });
  await assert.rejects(init({ Variant: 'simd' }), /^TypeError: init: unknown option 'Variant' \(did you mean 'variant'\?\)/);
  await assert.rejects(init({ parallelthreshold: 0 }), /did you mean 'parallelThreshold'\?/);
  await assert.rejects(init({ threads: '2' }), { name: 'RangeError', message: 'init: opts.threads must be an integer from 1 to 64, got "2" (a string)' });
  await assert.rejects(init({ parallelThreshold: '0' }), /^RangeError: init: opts\.parallelThreshold must be a non-negative integer \(bytes\), got "0" \(a string\)$/);
  await assert.rejects(init({ variant: 1 }), /^RangeError: init: opts\.variant must be 'simd-threaded' or 'simd', got 1$/);
});

for (const config of [{ variant: 'simd' }, { variant: 'simd-threaded', threads: 2 }]) {
  describe(`options and messages (${config.variant})`, () => {
    before(async () => {
      await init(config);
      take(f32(6, [3, 2]), i32([0], [1])); // warm up: first calls may allocate runtime state
    });
    after(() => dispose());

    test('an unknown option throws a TypeError naming the op, the option and the valid ones', () => {
      expectError(take, [f32(6, [3, 2]), i32([0], [1]), { outofRange: 'zero' }], TypeError,
        new RegExp(`^take: unknown option 'outofRange' \\(did you mean 'outOfRange'\\?\\) \\(valid options: axis, batchDims, ${COMMON}\\)$`));
      expectError(take, [f32(6, [3, 2]), i32([0], [1]), { axis: 0, dim: 1 }], TypeError,
        new RegExp(`^take: unknown option 'dim' \\(valid options: axis, batchDims, ${COMMON}\\)$`));
      expectError(gatherND, [f32(6, [3, 2]), i32([0], [1, 1]), { axis: 0 }], TypeError,
        new RegExp(`^gatherND: unknown option 'axis' \\(valid options: batchDims, ${COMMON}\\)$`));
      expectError(gatherND, [f32(6, [3, 2]), i32([0], [1, 1]), { batch_dims: 0 }], TypeError, /^gatherND: unknown option 'batch_dims' \(did you mean 'batchDims'\?\)/);
      expectError(gather, [f32(6, [3, 2]), 0, i32([0, 0], [1, 2]), { axis: 1 }], TypeError,
        new RegExp(`^gather: unknown option 'axis' \\(valid options: ${COMMON}\\)$`));
      expectError(gather, [f32(6, [3, 2]), 0, i32([0, 0], [1, 2]), { Resident: true }], TypeError, /did you mean 'resident'\?/);
      expectError(gatherBlockQuantized, [q8(), i32([0], [1]), qs(), { blockSize: 16, blocksize: 16 }], TypeError,
        new RegExp("^gatherBlockQuantized: unknown option 'blocksize' \\(did you mean 'blockSize'\\?\\) \\(valid options: quantType, bits, " +
          `scaleType, zeroPoints, quantizeAxis, blockSize, gatherAxis, ${COMMON}\\)$`));
      // Named before the tensors are checked: a misspelt quantType would otherwise show as a length error.
      expectError(gatherBlockQuantized, [{ data: new Uint8Array(24), shape: [3, 16] }, i32([0], [1]), qs(), { quanttype: 'int4', blockSize: 16 }],
        TypeError, /^gatherBlockQuantized: unknown option 'quanttype' \(did you mean 'quantType'\?\)/);
      expectError(upload, [f32(6, [3, 2]), { quant: 'int4' }], TypeError, /^upload: unknown option 'quant' \(valid options: quantType\)$/);
    });

    test('every documented option is accepted, and an option set to undefined is still checked by name', () => {
      const r = take(f32(6, [3, 2]), i32([2, 0], [2]), { axis: 0, batchDims: 0, outOfRange: 'error', negativeIndices: 'wrap', out: undefined, resident: false });
      assert.deepEqual(Array.from(r.data), [5, 6, 1, 2]);
      const nd = gatherND(f32(6, [3, 2]), i32([1], [1, 1]), { batchDims: 0, outOfRange: 'zero', negativeIndices: 'error', out: new Float32Array(2), resident: undefined });
      assert.deepEqual(Array.from(nd.data), [3, 4]);
      const g = gather(f32(6, [3, 2]), 1, i32([1, 0], [1, 2]), { outOfRange: 'clamp', negativeIndices: 'wrap', resident: true });
      assert.deepEqual(Array.from(g.read()), [2, 1]);
      g.dispose();
      const q = gatherBlockQuantized(q8(), i32([0], [1]), qs(), { quantType: 'uint8', bits: 4, scaleType: 'float32', zeroPoints: undefined,
        gatherAxis: 0, quantizeAxis: -1, blockSize: 16, outOfRange: 'error', negativeIndices: 'wrap' });
      assert.deepEqual(q.shape, [1, 16]);
      expectError(take, [f32(6, [3, 2]), i32([0], [1]), { outofRange: undefined }], TypeError, /^take: unknown option 'outofRange'/);
    });

    test('shapes as TypedArrays: data, indices, out, scales and zero points', () => {
      const r = take({ data: Float32Array.from([1, 2, 3, 4, 5, 6]), shape: new Int32Array([3, 2]) },
        { data: new Int32Array([2, 0]), dims: new Uint32Array([2]) },
        { out: { data: new Float32Array(4), shape: new Uint8Array([2, 2]) } });
      assert.deepEqual(Array.from(r.data), [5, 6, 1, 2]);
      assert.deepEqual(r.shape, [2, 2]);
      assert.ok(Array.isArray(r.shape), 'results have plain arrays');
      const table = upload({ data: Float32Array.from([1, 2, 3, 4]), shape: new Float64Array([2, 2]) });
      assert.deepEqual(table.shape, [2, 2]);
      assert.ok(Array.isArray(table.shape));
      assert.deepEqual(Array.from(gatherND(table, { data: [1, 0], shape: new Uint16Array([1, 2]) }).data), [3]);
      table.dispose();
      // uint8, 4 bits: stored [2, 8] = logical [2, 16], blocks of 16, zero points two a byte: [2, 1]
      const codes = { data: new Uint8Array(16).fill(0x33), shape: new Int32Array([2, 8]) };
      const scales = { data: Float32Array.from([1, 2]), shape: new Uint32Array([2, 1]) };
      const zp = { data: Uint8Array.from([1, 1]), shape: new Int16Array([2, 1]) };
      const q = gatherBlockQuantized(codes, i32([1], [1]), scales, { bits: 4, blockSize: 16, zeroPoints: zp });
      assert.deepEqual(q.shape, [1, 16]);
      assert.deepEqual(Array.from(q.data), new Array(16).fill((3 - 1) * 2));
      expectError(take, [{ data: new Float32Array(6), shape: new DataView(new ArrayBuffer(8)) }, i32([0], [1])], TypeError,
        /^take: params\.shape must be an array of non-negative integers, got DataView$/);
      expectError(take, [{ data: new Float32Array(6), shape: Float32Array.from([3, 2.5]) }, i32([0], [1])], TypeError,
        /^take: params\.shape\[1\] must be an integer, got 2\.5$/);
    });

    test('integer arguments say when they were given a string, a bigint or a boolean', () => {
      const p = () => f32(6, [3, 2]);
      expectError(gather, [p(), '1', i32([0, 0], [1, 2])], TypeError, /^gather: dim must be an integer, got "1" \(a string\)$/);
      expectError(gather, [p(), 1n, i32([0, 0], [1, 2])], TypeError, /^gather: dim must be an integer, got 1n \(a bigint\)$/);
      expectError(gather, [p(), true, i32([0, 0], [1, 2])], TypeError, /^gather: dim must be an integer, got true \(a boolean\)$/);
      expectError(gather, [p(), [1], i32([0, 0], [1, 2])], TypeError, /^gather: dim must be an integer, got Array$/);
      expectError(gather, [p(), 1.5, i32([0, 0], [1, 2])], TypeError, /^gather: dim must be an integer, got 1\.5$/);
      expectError(take, [p(), i32([0], [1]), { axis: '0' }], TypeError, /^take: opts\.axis must be an integer, got "0" \(a string\)$/);
      expectError(take, [p(), i32([0], [1]), { batchDims: '' }], TypeError, /^take: opts\.batchDims must be an integer, got "" \(a string\)$/);
      expectError(gatherND, [p(), i32([0], [1, 1]), { batchDims: null }], TypeError, /^gatherND: opts\.batchDims must be an integer, got null$/);
      expectError(gatherBlockQuantized, [q8(), i32([0], [1]), qs(), { blockSize: '16' }], TypeError,
        /^gatherBlockQuantized: opts\.blockSize must be an integer, got "16" \(a string\)$/);
      expectError(gatherBlockQuantized, [q8(), i32([0], [1]), qs(), { blockSize: 16, gatherAxis: '0' }], TypeError,
        /^gatherBlockQuantized: opts\.gatherAxis must be an integer, got "0" \(a string\)$/);
      expectError(take, [p(), { data: ['1'], shape: [1] }], TypeError, /^take: indices\.data\[0\] must be an integer, got "1" \(a string\)$/);
      expectError(take, [{ data: new Float32Array(6), shape: ['x', 2] }, i32([0], [1])], TypeError,
        /^take: params\.shape\[0\] must be an integer, got "x" \(a string\)$/);
      const t = upload(p());
      try {
        assert.throws(() => t.read('out'), { name: 'TypeError', message: 'read: out must be a Float32Array of 6 elements, got "out" (a string)' });
        assert.throws(() => t.read([0, 0, 0, 0, 0, 0]), { name: 'TypeError', message: 'read: out must be a Float32Array of 6 elements, got Array' });
        assert.throws(() => t.read(new Float32Array(2)), { name: 'TypeError', message: 'read: out must be a Float32Array of 6 elements, got Float32Array(2)' });
      } finally {
        t.dispose();
      }
    });
  });
}
