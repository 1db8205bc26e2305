// take (tf.gather / numpy.take): seeded random cases and edge cases against common/reference.mjs
// in every configuration, ranks 8 and 16, and every error it promises.
// WG_TEST_API=<module path> swaps the module under test (tests/lib/tested-api.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import api, { dispose, heapStats, init, take } from '../lib/tested-api.mjs'; // js/index.mjs, or WG_TEST_API
import { describeErrors, expectError, f32, i32 } from '../lib/expect-error.mjs';
import { badInputSuite } from '../lib/bad-inputs.mjs';
import { highRankSuite } from '../lib/high-rank-suite.mjs';
import { randomSuite } from '../lib/random-suite.mjs';

randomSuite('take', () => {
  test('library still works after errors (init state intact)', () => {
    const p = { data: new Int32Array([1, 2, 3]), shape: [3] };
    assert.throws(() => api.take(p, { data: new Int32Array([3]), shape: [1] }), RangeError);
    assert.deepEqual(Array.from(api.take(p, { data: new Int32Array([-1, 0]), shape: [2] }).data), [3, 1]);
  });
});
highRankSuite('take');

// The documented error messages: class, message, and nothing lost (tests/lib/expect-error.mjs).
describeErrors('errors', () => {
  test('an index out of range also says where as error.index: { position, value, dim, size }', () => {
    const at = (fn) => { try { fn(); } catch (e) { assert.ok(e instanceof RangeError); return e.index; } assert.fail('no error'); };
    assert.deepEqual(at(() => take(f32(6, [3, 2]), i32([0, 2, 3, -9], [2, 2]))), { position: 2, value: 3, dim: 0, size: 3 });
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
    expectError(take, [{ data: new Float32Array(5), shape: [2, 3] }, i32([0], [1])], RangeError,
      /^take: params\.data has 5 elements but params\.shape \[2, 3\] needs 6/);
    expectError(take, [{ data: new Float32Array(1), shape: new Array(17).fill(1) }, i32([0], [1])], RangeError,
      /^take: params has rank 17, more than the 16 dimensions/);
  });

  test('index types', () => {
    expectError(take, [f32(3, [3]), { data: new Float32Array([0]), shape: [1] }], TypeError,
      /^take: indices\.data must hold integers .*got Float32Array/);
    expectError(take, [f32(3, [3]), { data: [0, 1.5], shape: [2] }], TypeError,
      /^take: indices\.data\[1\] must be an integer, got 1\.5/);
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

  test('results larger than wasm memory', () => {
    // 4096 rows of 2^20 float64 = 32 GiB: refused before anything is allocated
    expectError(take, [{ data: new Float64Array(2 ** 20), shape: [1, 2 ** 20] }, { data: new Int32Array(4096), shape: [4096] }],
      RangeError, /^take: the output \[4096, 1048576\] with the inputs needs \d+ bytes, more than wasm memory can hold/);
  });
});

// Hostile or malformed arguments (the bad-input table, tests/lib/bad-inputs.mjs).
badInputSuite('take');

test('hostile shapes that are valid: an empty table with a dim of 2^32 - 1 gives the right result', async () => {
  await init({ variant: 'simd-threaded', threads: 2, parallelThreshold: 0 });
  const heap = heapStats().heapInUse;
  // -1, 2^32 - 2 and -(2^32 - 1) are valid indices into a dim of 2^32 - 1; 2^32 - 1 is not
  const t = take({ data: new Uint8Array(0), shape: [0, 2 ** 32 - 1] }, { data: [-1, 2 ** 32 - 2, -(2 ** 32 - 1)], shape: [3] }, { axis: 1 });
  assert.deepEqual([t.shape, t.data.length], [[0, 3], 0]);
  expectError(take, [{ data: new Uint8Array(0), shape: [0, 2 ** 32 - 1] }, { data: [0, 2 ** 32 - 1], shape: [2] }, { axis: 1 }], RangeError,
    /^take: indices\[1\] = 4294967295 is out of range for dimension 1 of params, which has size 4294967295/);
  assert.equal(heapStats().heapInUse, heap);
  dispose();
});
