// gather (torch.gather): the documented examples, seeded random cases and edge cases against
// common/reference.mjs in every configuration, ranks 8 and 16, and every error it promises.
// WG_TEST_API=<module path> swaps the module under test (tests/lib/tested-api.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dispose, gather, heapStats, init } from '../lib/tested-api.mjs'; // js/index.mjs, or WG_TEST_API
import { describeErrors, expectError, f32, i32 } from '../lib/expect-error.mjs';
import { badInputSuite } from '../lib/bad-inputs.mjs';
import { highRankSuite } from '../lib/high-rank-suite.mjs';
import { randomSuite } from '../lib/random-suite.mjs';
import { seedSuite } from '../lib/seed-suite.mjs';

seedSuite('gather');
randomSuite('gather');
highRankSuite('gather');

// The documented error messages: class, message, and nothing lost (tests/lib/expect-error.mjs).
describeErrors('errors', () => {
  test('tensor arguments', () => {
    expectError(gather, [f32(4, [2, 2]), 0, { data: new Int32Array(3), shape: [2, 2] }], RangeError,
      /^gather: index\.data has 3 elements but index\.shape \[2, 2\] needs 4/);
  });

  test('index types', () => {
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

  test('out-of-range indices name the op, the position, the value and the range', () => {
    expectError(gather, [f32(4, [2, 2]), 1, { data: new Uint32Array([0, 1, 2, 0]), shape: [2, 2] }], RangeError,
      /^gather: index\[1, 0\] = 2 is out of range for dimension 1 of input, which has size 2/);
  });

  test("opts.negativeIndices 'error': a negative index is refused as negative, the first bad index in row-major order", () => {
    const neg = { negativeIndices: 'error' };
    expectError(gather, [f32(4, [2, 2]), 1, { data: new BigInt64Array([0n, 1n, -2n, 0n]), shape: [2, 2] }, neg], RangeError,
      /^gather: index\[1, 0\] = -2 is negative, and opts\.negativeIndices is 'error' \(valid indices: 0 <= i < 2\)$/);
  });
});

// Hostile or malformed arguments (the bad-input table, tests/lib/bad-inputs.mjs).
badInputSuite('gather');

test('hostile shapes that are valid: an empty input with huge dims gives zeros', async () => {
  await init({ variant: 'simd-threaded', threads: 2, parallelThreshold: 0 });
  const heap = heapStats().heapInUse;
  // gather from an empty input whose other dims are huge: every index is out of range, so zeros
  const g = gather({ data: new Float64Array(0), shape: [0, 5, 2 ** 31] }, 0, { data: new Int32Array(50), shape: [2, 5, 5] }, { outOfRange: 'zero' });
  assert.deepEqual([g.shape, Array.from(g.data)], [[2, 5, 5], new Array(50).fill(0)]);
  assert.equal(heapStats().heapInUse, heap);
  dispose();
});

// torch's x.gather(1, idx.unsqueeze(-1).expand(-1, -1, D)) (top-k rows, beam reordering): each
// index repeated along the last axis, which the kernel copies a run at a time
// (src/copy_kernels.c): runs whole and broken, a narrower index than input, negative indices,
// every element type and both index types, against the reference; a bad index inside a run is
// named where it is.
test("torch's expanded index: runs of one index along the last axis, against the reference", async () => {
  await init({ variant: 'simd-threaded', threads: 2, parallelThreshold: 0 });
  try {
    const { refGather } = await import('../../common/reference.mjs');
    const [B, S, D, K] = [3, 7, 37, 5];
    let seed = 7;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
    for (const Type of [Uint8Array, Int16Array, Float32Array, Float64Array]) {
      const x = { data: new Type(B * S * D).map(() => next() % 100), shape: [B, S, D] };
      for (const width of [D, 20]) { // the whole last axis, and a narrower index
        for (const IType of [Int32Array, BigInt64Array]) {
          const idx = new IType(B * K * width);
          for (let r = 0; r < B * K; r++) {
            const v = (next() % (2 * S)) - S; // negative ones count from the end
            for (let d = 0; d < width; d++) {
              // mostly the row's index; now and then another one, which breaks the run
              const u = next() % 9 === 0 ? (next() % S) : v;
              idx[r * width + d] = IType === BigInt64Array ? BigInt(u) : u;
            }
          }
          const index = { data: idx, shape: [B, K, width] };
          const got = gather(x, 1, index), want = refGather(x, 1, index);
          assert.deepEqual(got.shape, want.shape);
          assert.deepEqual(Array.from(got.data), Array.from(want.data), `${Type.name}, width ${width}, ${IType.name}`);
        }
      }
    }
    // runs of every length after one another, each of another index (a run that ends where the
    // next, of four or more, begins: counted against its own index, not the next one's)
    const y = { data: Float32Array.from({ length: 6 * 40 }, (_, i) => i), shape: [1, 6, 40] };
    const lengths = [3, 1, 5, 2, 9, 1, 1, 4, 3, 6, 5], row = []; // a row that starts with a run takes the runs path
    lengths.forEach((len, k) => { for (let i = 0; i < len; i++) row.push(k % 6); });
    const runs = { data: Int32Array.from(row), shape: [1, 1, row.length] };
    assert.deepEqual(Array.from(gather(y, 1, runs).data), Array.from(refGather(y, 1, runs).data), 'runs of every length');
    // a bad index in the middle of a run: the error names its position
    const x = { data: new Float32Array(2 * 4 * 8), shape: [2, 4, 8] };
    const idx = new Int32Array(2 * 3 * 8).fill(1);
    idx[1 * 8 + 5] = 4;
    expectError(gather, [x, 1, { data: idx, shape: [2, 3, 8] }], RangeError,
      /^gather: index\[0, 1, 5\] = 4 is out of range for dimension 1 of input, which has size 4/);
  } finally {
    dispose();
  }
});
