// gatherND (tf.gather_nd): the documented examples, seeded random cases and edge cases against
// common/reference.mjs in every configuration, ranks 8 and 16, and every error it promises.
// WG_TEST_API=<module path> swaps the module under test (tests/lib/tested-api.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gatherND } from '../lib/tested-api.mjs'; // js/index.mjs, or WG_TEST_API
import { describeErrors, expectError, f32, i32 } from '../lib/expect-error.mjs';
import { badInputSuite } from '../lib/bad-inputs.mjs';
import { highRankSuite } from '../lib/high-rank-suite.mjs';
import { randomSuite } from '../lib/random-suite.mjs';
import { seedSuite } from '../lib/seed-suite.mjs';

seedSuite('gatherND');
randomSuite('gatherND');
highRankSuite('gatherND');

// The documented error messages: class, message, and nothing lost (tests/lib/expect-error.mjs).
describeErrors('errors', () => {
  test('an index out of range also says where as error.index: { position, value, dim, size }', () => {
    const at = (fn) => { try { fn(); } catch (e) { assert.ok(e instanceof RangeError); return e.index; } assert.fail('no error'); };
    assert.deepEqual(at(() => gatherND(f32(6, [3, 2]), i32([1, 1, 0, -1], [2, 2]), { negativeIndices: 'error' })),
      { position: 3, value: -1, dim: 1, size: 2 });
  });

  test('tensor arguments', () => {
    expectError(gatherND, [{ data: new Float32Array(0), shape: [2, -1] }, i32([0], [1])], RangeError,
      /^gatherND: params\.shape\[1\] must be between 0 and 4294967295, got -1/);
  });

  test('index types', () => {
    expectError(gatherND, [f32(3, [3]), { data: new Float64Array([0]), shape: [1, 1] }], TypeError,
      /^gatherND: indices\.data must hold integers .*got Float64Array/);
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

  test('out-of-range indices name the op, the position, the value and the range', () => {
    expectError(gatherND, [f32(6, [3, 2]), i32([0, 1, 2, 2], [2, 2])], RangeError,
      /^gatherND: indices\[1, 1\] = 2 is out of range for dimension 1 of params, which has size 2/);
    expectError(gatherND, [f32(6, [3, 2]), { data: new BigUint64Array([2n ** 64n - 1n, 0n]), shape: [1, 2] }], RangeError,
      /^gatherND: indices\[0, 0\] = 18446744073709551615 is out of range/);
  });

  test("opts.negativeIndices 'error': a negative index is refused as negative, the first bad index in row-major order", () => {
    const neg = { negativeIndices: 'error' };
    expectError(gatherND, [f32(6, [3, 2]), i32([0, 1, 2, -1], [2, 2]), neg], RangeError,
      /^gatherND: indices\[1, 1\] = -1 is negative, and opts\.negativeIndices is 'error' \(valid indices: 0 <= i < 2\)$/);
  });

  test('results larger than wasm memory', () => {
    expectError(gatherND, [{ data: new Uint8Array(0), shape: [0, 65536] }, { data: new Int32Array(65536), shape: [65536, 1] }, { outOfRange: 'zero' }],
      RangeError, /^gatherND: the output \[65536, 65536\] with the inputs needs/);
  });
});

// Hostile or malformed arguments (the bad-input table, tests/lib/bad-inputs.mjs).
badInputSuite('gatherND');
