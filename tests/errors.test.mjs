// Every error the API promises: its class and message, then proof that nothing was lost: the
// caller's arrays are unchanged, the wasm heap is back where it was, and the next call works.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import api, { dispose, gather, gatherND, init, take } from './tested-api.mjs'; // js/index.mjs, or WG_TEST_API (as expect-error.mjs)
import { expectError, f32, i32 } from './lib/expect-error.mjs';

const gatherBlockQuantized = (...args) => api.gatherBlockQuantized(...args);
// uint8 4 bits, stored [3, 8] = logical [3, 16], blockSize 16: scales [3, 1]
const q8 = () => ({ data: new Uint8Array(24), shape: [3, 8] });
const q4 = () => ({ data: new Uint8Array(24), shape: [3, 16] }); // int4/uint4 logical [3, 16]
const qs = (shape = [3, 1]) => ({ data: new Float32Array(shape.reduce((a, b) => a * b, 1)).fill(1), shape });

for (const config of [{ variant: 'simd' }, { variant: 'simd-threaded', threads: 2 }]) {
  describe(`errors (${config.variant})`, () => {
    before(async () => {
      await init(config);
      take(f32(6, [3, 2]), i32([0], [1])); // warm up: first calls may allocate runtime state
    });
    after(() => dispose());

    test('an index out of range also says where as error.index: { position, value, dim, size }', () => {
      const at = (fn) => { try { fn(); } catch (e) { assert.ok(e instanceof RangeError); return e.index; } assert.fail('no error'); };
      assert.deepEqual(at(() => take(f32(6, [3, 2]), i32([0, 2, 3, -9], [2, 2]))), { position: 2, value: 3, dim: 0, size: 3 });
      assert.deepEqual(at(() => gatherND(f32(6, [3, 2]), i32([1, 1, 0, -1], [2, 2]), { negativeIndices: 'error' })),
        { position: 3, value: -1, dim: 1, size: 2 });
      assert.deepEqual(at(() => take(f32(6, [3, 2]), { data: new BigInt64Array([2n ** 40n]), shape: [1] })),
        { position: 0, value: 2n ** 40n, dim: 0, size: 3 });
      assert.equal(at(() => take(f32(6, [3, 2]), i32([0], [1]), { axis: 5 })), undefined, 'other rules carry none');
    });

    test('tensor arguments', () => {
      expectError(take, [{ data: [1, 2, 3], shape: [3] }, i32([0], [1])], TypeError,
        /^take: params\.data must be a TypedArray .*got Array/);
      expectError(take, [new Float32Array(3), i32([0], [1])], TypeError, /^take: params must be a tensor \{ data, shape \}, got Float32Array/);
      expectError(take, [{ data: new Float32Array(3), shape: [1.5, 2] }, i32([0], [1])], TypeError,
        /^take: params\.shape\[0\] must be an integer, got 1\.5/);
      expectError(gatherND, [{ data: new Float32Array(0), shape: [2, -1] }, i32([0], [1])], RangeError,
        /^gatherND: params\.shape\[1\] must be between 0 and 4294967295, got -1/);
      expectError(take, [{ data: new Float32Array(5), shape: [2, 3] }, i32([0], [1])], RangeError,
        /^take: params\.data has 5 elements but params\.shape \[2, 3\] needs 6/);
      expectError(gather, [f32(4, [2, 2]), 0, { data: new Int32Array(3), shape: [2, 2] }], RangeError,
        /^gather: index\.data has 3 elements but index\.shape \[2, 2\] needs 4/);
      expectError(take, [{ data: new Float32Array(1), shape: new Array(17).fill(1) }, i32([0], [1])], RangeError,
        /^take: params has rank 17, more than the 16 dimensions/);
    });

    test('index types', () => {
      expectError(take, [f32(3, [3]), { data: new Float32Array([0]), shape: [1] }], TypeError,
        /^take: indices\.data must hold integers .*got Float32Array/);
      expectError(gatherND, [f32(3, [3]), { data: new Float64Array([0]), shape: [1, 1] }], TypeError,
        /^gatherND: indices\.data must hold integers .*got Float64Array/);
      expectError(take, [f32(3, [3]), { data: [0, 1.5], shape: [2] }], TypeError,
        /^take: indices\.data\[1\] must be an integer, got 1\.5/);
      expectError(gather, [f32(3, [3]), 0, { data: [NaN], shape: [1] }], TypeError,
        /^gather: index\.data\[0\] must be an integer, got NaN/);
    });

    test('gather shape rules', () => {
      expectError(gather, [f32(4, [2, 2]), 0, i32([0, 0], [2])], RangeError,
        /^gather: index must have the same rank as input \(index has rank 1, input has rank 2\)/);
      expectError(gather, [f32(4, [2, 2]), 2, i32([0, 0, 0, 0], [2, 2])], RangeError,
        /^gather: dim 2 is out of range for input of rank 2 \(expected -2 <= dim < 2\)/);
      expectError(gather, [f32(4, [2, 2]), -3, i32([0, 0, 0, 0], [2, 2])], RangeError,
        /^gather: dim -3 is out of range/);
      expectError(gather, [f32(4, [2, 2]), 0, i32([0, 0, 0, 0, 0, 0], [2, 3])], RangeError,
        /^gather: index\.shape\[1\] \(3\) must be <= input\.shape\[1\] \(2\) in every dimension except dim/);
      expectError(gather, [f32(4, [2, 2]), 1.5, i32([0, 0, 0, 0], [2, 2])], TypeError, /^gather: dim must be an integer, got 1\.5/);
      expectError(gather, [f32(4, [2, 2])], TypeError, /^gather: index must be a tensor/);
    });

    test('gatherND shape rules', () => {
      expectError(gatherND, [f32(1, []), i32([], [0])], RangeError, /^gatherND: params must have rank at least 1, got a scalar/);
      expectError(gatherND, [f32(2, [2]), i32([0, 0], [2, 1]), { batchDims: 1 }], RangeError,
        /^gatherND: batchDims 1 is out of range \(expected 0 <= batchDims <= 0: less than the rank of indices \(2\) and of params \(1\)\)/);
      expectError(gatherND, [f32(4, [2, 2]), i32([0], [])], RangeError,
        /^gatherND: indices must have rank at least 1 .*got rank 0/);
      expectError(gatherND, [f32(4, [2, 2]), i32([0, 0, 0], [1, 3])], RangeError,
        /^gatherND: indices\.shape\[-1\] \(3\), the length of each index tuple, must be <= params rank - batchDims \(2\)/);
      expectError(gatherND, [f32(4, [2, 2]), i32([0, 0], [2, 1]), { batchDims: 2 }], RangeError,
        /^gatherND: batchDims 2 is out of range \(expected 0 <= batchDims <= 1/);
      expectError(gatherND, [f32(4, [2, 2]), i32([0, 0], [2, 1]), { batchDims: -1 }], RangeError,
        /^gatherND: batchDims -1 is out of range/);
      expectError(gatherND, [f32(6, [3, 2]), i32([0, 0], [2, 1]), { batchDims: 1 }], RangeError,
        /^gatherND: batch dimension 0 differs: params\.shape\[0\] is 3 but indices\.shape\[0\] is 2/);
      expectError(gatherND, [f32(6, [3, 2]), i32([0, 0], [2, 1]), { batchDims: 0.5 }], TypeError,
        /^gatherND: opts\.batchDims must be an integer, got 0\.5/);
    });

    test('take shape rules', () => {
      expectError(take, [f32(1, []), i32([0], [1])], RangeError, /^take: params must have rank at least 1, got a scalar/);
      expectError(take, [f32(6, [3, 2]), i32([0], [1]), { axis: 2 }], RangeError,
        /^take: axis 2 is out of range for params of rank 2 \(expected -2 <= axis < 2\)/);
      expectError(take, [f32(6, [3, 2]), i32([0, 0, 0], [3, 1]), { axis: 1, batchDims: 3 }], RangeError,
        /^take: batchDims 3 is out of range for indices of rank 2 \(expected -2 <= batchDims <= 2\)/);
      expectError(take, [f32(6, [3, 2]), i32([0, 0, 0], [3, 1]), { axis: 0, batchDims: 1 }], RangeError,
        /^take: batchDims \(1\) must be <= axis \(0\)/);
      expectError(take, [f32(6, [3, 2]), i32([0, 0], [2, 1]), { axis: 1, batchDims: 1 }], RangeError,
        /^take: batch dimension 0 differs: params\.shape\[0\] is 3 but indices\.shape\[0\] is 2/);
      expectError(take, [f32(6, [3, 2]), i32([0], [1]), { outOfRange: 'wrap' }], RangeError,
        /^take: opts\.outOfRange must be 'error', 'zero' or 'clamp', got "wrap"/);
      expectError(take, [f32(6, [3, 2]), i32([0], [1]), 5], TypeError, /^take: opts must be an object, got number/);
    });

    test('out-of-range indices name the op, the position, the value and the range', () => {
      expectError(take, [f32(6, [3, 2]), i32([0, 1, 2, 3], [2, 2])], RangeError,
        /^take: indices\[1, 1\] = 3 is out of range for dimension 0 of params, which has size 3 \(valid indices: -3 <= i < 3/);
      expectError(take, [f32(6, [3, 2]), i32([-4], [1]), { axis: 0 }], RangeError, /^take: indices\[0\] = -4 is out of range/);
      expectError(take, [f32(6, [3, 2]), { data: new BigInt64Array([1n, 2n ** 40n]), shape: [2] }, { axis: 1 }], RangeError,
        /^take: indices\[1\] = 1099511627776 is out of range for dimension 1 of params, which has size 2/);
      expectError(gather, [f32(4, [2, 2]), 1, { data: new Uint32Array([0, 1, 2, 0]), shape: [2, 2] }], RangeError,
        /^gather: index\[1, 0\] = 2 is out of range for dimension 1 of input, which has size 2/);
      expectError(gatherND, [f32(6, [3, 2]), i32([0, 1, 2, 2], [2, 2])], RangeError,
        /^gatherND: indices\[1, 1\] = 2 is out of range for dimension 1 of params, which has size 2/);
      expectError(gatherND, [f32(6, [3, 2]), { data: new BigUint64Array([2n ** 64n - 1n, 0n]), shape: [1, 2] }], RangeError,
        /^gatherND: indices\[0, 0\] = 18446744073709551615 is out of range/);
      // the first bad index in row-major order is reported, also when the output is empty
      expectError(take, [f32(0, [3, 0]), i32([0, 5, 9], [3])], RangeError, /^take: indices\[1\] = 5 is out of range/);
      expectError(take, [f32(0, [0, 3]), i32([0], [1])], RangeError, /^take: indices\[0\] = 0 is out of range for dimension 0 of params, which has size 0/);
    });

    test("opts.negativeIndices 'error': a negative index is refused as negative, the first bad index in row-major order", () => {
      const neg = { negativeIndices: 'error' };
      expectError(take, [f32(3, [3]), i32([0, -1, 2], [3]), neg], RangeError,
        /^take: indices\[1\] = -1 is negative, and opts\.negativeIndices is 'error' \(valid indices: 0 <= i < 3\)$/);
      expectError(take, [f32(6, [3, 2]), i32([0, 5, -1], [3]), neg], RangeError,
        /^take: indices\[1\] = 5 is out of range for dimension 0 of params, which has size 3 \(valid indices: 0 <= i < 3; /);
      expectError(gather, [f32(4, [2, 2]), 1, { data: new BigInt64Array([0n, 1n, -2n, 0n]), shape: [2, 2] }, neg], RangeError,
        /^gather: index\[1, 0\] = -2 is negative, and opts\.negativeIndices is 'error' \(valid indices: 0 <= i < 2\)$/);
      expectError(gatherND, [f32(6, [3, 2]), i32([0, 1, 2, -1], [2, 2]), neg], RangeError,
        /^gatherND: indices\[1, 1\] = -1 is negative, and opts\.negativeIndices is 'error' \(valid indices: 0 <= i < 2\)$/);
      expectError(gatherBlockQuantized, [q8(), i32([0, -3], [2]), qs(), { blockSize: 16, ...neg }], RangeError,
        /^gatherBlockQuantized: indices\[1\] = -3 is negative, and opts\.negativeIndices is 'error' \(valid indices: 0 <= i < 3\)$/);
      // large enough for the pool; the fused kernels step aside under 'error'
      const idx = new Int32Array(20000).map((_, i) => (i * 31) % 4096);
      idx[15000] = 5000;
      idx[12345] = -1;
      expectError(take, [f32(4096 * 64, [4096, 64]), { data: idx, shape: [20000] }, neg], RangeError, /^take: indices\[12345\] = -1 is negative/);
      expectError(take, [f32(4096, [4096]), { data: idx, shape: [20000] }, neg], RangeError, /^take: indices\[12345\] = -1 is negative/);
      // unsigned indices are never negative; 'wrap' (the default) still wraps
      assert.deepEqual(take(f32(3, [3]), { data: new Uint32Array([2]), shape: [1] }, neg).data, new Float32Array([3]));
      assert.deepEqual(take(f32(3, [3]), i32([-1], [1]), { negativeIndices: 'wrap' }).data, new Float32Array([3]));
      expectError(take, [f32(3, [3]), i32([0], [1]), { negativeIndices: 'throw' }], RangeError,
        /^take: opts\.negativeIndices must be 'wrap' or 'error', got "throw"$/);
    });

    test('a large out-of-range job reports the first bad index whatever the thread split', () => {
      const params = f32(4096 * 64, [4096, 64]);
      const idx = new Int32Array(20000).map((_, i) => (i * 31) % 4096);
      idx[19999] = 5000;
      idx[12345] = -5000;
      expectError(take, [params, { data: idx, shape: [20000] }], RangeError, /^take: indices\[12345\] = -5000 is out of range/);
    });

    test('opts.out', () => {
      expectError(take, [f32(6, [3, 2]), i32([0], [1]), { out: new Float64Array(2) }], TypeError,
        /^take: opts\.out must be a Float32Array like the data, got Float64Array/);
      expectError(take, [f32(6, [3, 2]), i32([0], [1]), { out: new Float32Array(3) }], RangeError,
        /^take: opts\.out has 3 elements but the output \[1, 2\] has 2/);
      expectError(take, [f32(6, [3, 2]), i32([0], [1]), { out: { data: new Float32Array(2), shape: [2, 1] } }], RangeError,
        /^take: opts\.out\.shape \[2, 1\] must be the output shape \[1, 2\]/);
      expectError(take, [f32(6, [3, 2]), i32([0], [1]), { out: 'x' }], TypeError, /^take: opts\.out must be a Float32Array/);
    });

    test('gatherBlockQuantized rules', () => {
      const G = gatherBlockQuantized;
      expectError(G, [q8(), i32([0], [1]), qs(), { blockSize: 16, bits: 3 }], RangeError,
        /^gatherBlockQuantized: opts\.bits 3 is not valid for quantType 'uint8' \(uint8 codes have 2, 4 or 8 bits; uint4 and int4 codes have 4\)$/);
      expectError(G, [q4(), i32([0], [1]), qs(), { blockSize: 16, quantType: 'int4', bits: 8 }], RangeError,
        /^gatherBlockQuantized: opts\.bits 8 is not valid for quantType 'int4'/);
      expectError(G, [q8(), i32([0], [1]), qs([3, 1]), { blockSize: 24 }], RangeError,
        /^gatherBlockQuantized: opts\.blockSize 24 must be a power of 2, at least 16$/);
      expectError(G, [q8(), i32([0], [1]), qs([1, 16]), { blockSize: 16, quantizeAxis: 0 }], RangeError,
        /^gatherBlockQuantized: opts\.quantizeAxis 0 must be the last axis \(1\) for quantType 'uint8', whose codes are packed along it$/);
      expectError(G, [q4(), i32([0], [1]), qs(), { blockSize: 16, quantType: 'uint4', quantizeAxis: 2 }], RangeError,
        /^gatherBlockQuantized: opts\.quantizeAxis 2 is out of range for data of rank 2 \(expected -2 <= opts\.quantizeAxis < 2\)$/);
      expectError(G, [q8(), i32([0], [1]), qs([3, 2]), { blockSize: 16 }], RangeError,
        /^gatherBlockQuantized: scales\.shape\[1\] is 2 but must be 1 \(the data's logical shape with dimension quantizeAxis divided by blockSize, rounded up\)$/);
      expectError(G, [q4(), i32([0], [1]), qs([3, 16]), { blockSize: 16, quantType: 'int4', quantizeAxis: 0 }], RangeError,
        /^gatherBlockQuantized: scales\.shape\[0\] is 3 but must be 1 \(the data's logical shape/);
      expectError(G, [q8(), i32([0], [1]), qs([3]), { blockSize: 16 }], RangeError,
        /^gatherBlockQuantized: scales has rank 1 but must have the data's rank, 2$/);
      expectError(G, [{ data: new Uint8Array(3 * 32), shape: [3, 32] }, i32([0], [1]), qs([3, 4]), { blockSize: 16, zeroPoints: { data: new Uint8Array(12), shape: [3, 4] } }], RangeError,
        /^gatherBlockQuantized: opts\.zeroPoints\.shape\[1\] is 4 but must be 2 \(the scales' shape, with the last dimension divided by the codes a byte holds \(8 \/ bits\), rounded up, for quantType 'uint8' of 2 or 4 bits\)$/);
      expectError(G, [q8(), i32([0], [1]), qs(), { blockSize: 16, zeroPoints: { data: new Uint8Array(3), shape: [1, 3] } }], RangeError,
        /^gatherBlockQuantized: opts\.zeroPoints\.shape\[0\] is 1 but must be 3/);
      expectError(G, [{ data: new Uint8Array(24), shape: [3, 15] }, i32([0], [1]), qs(), { blockSize: 16, quantType: 'int4' }], RangeError,
        /^gatherBlockQuantized: data\.data has 24 elements but data\.shape \[3, 15\] needs 23 \(two 4-bit codes a byte, rounded up\)$/);
      expectError(G, [q4(), i32([0], [1]), qs(), { blockSize: 16, quantType: 'uint4', zeroPoints: { data: new Uint8Array(3), shape: [3, 1] } }], RangeError,
        /^gatherBlockQuantized: opts\.zeroPoints\.data has 3 elements but opts\.zeroPoints\.shape \[3, 1\] needs 2 \(two 4-bit codes a byte, rounded up\)$/);
      expectError(G, [q8(), i32([0], [1]), qs(), { blockSize: 16, gatherAxis: 2 }], RangeError,
        /^gatherBlockQuantized: opts\.gatherAxis 2 is out of range for data of rank 2 \(expected -2 <= opts\.gatherAxis < 2\)$/);
      expectError(G, [q8(), i32([0], [1]), qs(), { blockSize: 16, scaleType: 'bfloat16' }], TypeError,
        /^gatherBlockQuantized: opts\.scaleType 'bfloat16' does not match scales\.data, a Float32Array \(float32 scales are a Float32Array; float16 or bfloat16 bits a Uint16Array\)$/);
      expectError(G, [{ data: new Int8Array(24), shape: [3, 8] }, i32([0], [1]), qs(), { blockSize: 16 }], TypeError,
        /^gatherBlockQuantized: data\.data must be a Uint8Array/);
      expectError(G, [q8(), i32([0, 1, 2, 3], [2, 2]), qs(), { blockSize: 16 }], RangeError,
        /^gatherBlockQuantized: indices\[1, 1\] = 3 is out of range for dimension 0 of data, which has size 3 \(valid indices: -3 <= i < 3; opts\.outOfRange 'zero' or 'clamp' accept it\)$/);
      expectError(G, [q8(), { data: new BigInt64Array([0n, -(2n ** 40n)]), shape: [2] }, qs(), { blockSize: 16, gatherAxis: 1 }], RangeError,
        /^gatherBlockQuantized: indices\[1\] = -1099511627776 is out of range for dimension 1 of data, which has size 16/);
      expectError(G, [q8(), { data: [5], shape: [] }, qs(), { blockSize: 16 }], RangeError,
        /^gatherBlockQuantized: indices\[\] = 5 is out of range for dimension 0 of data, which has size 3/); // a scalar index, as take says it
    });

    test('gatherBlockQuantized: opts.out of the wrong type names the scales, whose type the output has', () => {
      // The output's type is the scales' (the data is a Uint8Array): "like the data" would mislead.
      expectError(gatherBlockQuantized, [q8(), i32([0], [1]), qs(), { blockSize: 16, out: new Uint16Array(16) }], TypeError,
        /^gatherBlockQuantized: opts\.out must be a Float32Array like the scales, got Uint16Array/);
    });

    test('gatherBlockQuantized: a logical last dim past 2^32 - 1 (uint8 of 2 or 4 bits) is refused naming the op', () => {
      // stored [0, 2^31] at 2 bits is logical [0, 2^33]: more than a dimension can hold
      expectError(gatherBlockQuantized, [{ data: new Uint8Array(0), shape: [0, 2 ** 31] }, i32([], [0]), { data: new Float32Array(0), shape: [0, 2 ** 29] }, { bits: 2, blockSize: 16 }],
        RangeError, /^gatherBlockQuantized: /);
      expectError(gatherBlockQuantized, [{ data: new Uint8Array(0), shape: [0, 2 ** 31] }, i32([], [0]), { data: new Float32Array(0), shape: [0, 2 ** 28] }, { bits: 4, blockSize: 16 }],
        RangeError, /^gatherBlockQuantized: /);
    });

    test('results larger than wasm memory', () => {
      // 4096 rows of 2^20 float64 = 32 GiB: refused before anything is allocated
      expectError(take, [{ data: new Float64Array(2 ** 20), shape: [1, 2 ** 20] }, { data: new Int32Array(4096), shape: [4096] }],
        RangeError, /^take: the output \[4096, 1048576\] with the inputs needs \d+ bytes, more than wasm memory can hold/);
      expectError(gatherND, [{ data: new Uint8Array(0), shape: [0, 65536] }, { data: new Int32Array(65536), shape: [65536, 1] }, { outOfRange: 'zero' }],
        RangeError, /^gatherND: the output \[65536, 65536\] with the inputs needs/);
      expectError(gatherBlockQuantized, [{ data: new Uint8Array(65536), shape: [1, 65536] }, { data: new Int32Array(65536), shape: [65536] }, qs([1, 4096]), { bits: 8, blockSize: 16 }],
        RangeError, /^gatherBlockQuantized: the output \[65536, 65536\] with the inputs needs \d+ bytes, more than wasm memory can hold/);
      expectError(gatherBlockQuantized, [{ data: new Uint8Array(0), shape: [0, 2 ** 30] }, i32([0, 1], [2]), { data: new Uint16Array(0), shape: [0, 2 ** 26] }, { quantType: 'int4', blockSize: 16, outOfRange: 'clamp' }],
        RangeError, /^gatherBlockQuantized: the output \[2, 1073741824\] with the inputs needs/);
    });
  });
}

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
