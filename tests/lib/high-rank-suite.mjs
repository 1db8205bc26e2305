// Ranks beyond the random matrix: 8 (the most DirectML allows) and 16 (our WG_MAX_RANK), each
// op against the reference, with negative indices and batch dims. Each op's file (tests/ops/)
// calls highRankSuite(op) for its own tests.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { dispose, gather, gatherND, init, take } from '../../js/index.mjs';
import { refGather, refGatherND, refTake } from '../../common/reference.mjs';
import { numel } from '../../common/shape.mjs';
import { mulberry32 } from './rng.mjs';

function tensor(shape, rand) {
  const n = numel(shape);
  return { data: Float64Array.from({ length: n }, () => Math.floor(rand() * 1e6)), shape };
}
function indices(shape, limit, rand) {
  const n = numel(shape);
  return { data: Int32Array.from({ length: n }, () => Math.floor(rand() * 2 * limit) - limit), shape };
}
function same(actual, expected) {
  assert.deepEqual(actual.shape, expected.shape);
  assert.deepEqual(Array.from(actual.data), Array.from(expected.data));
}

// dims of 1-3 keep rank 16 small: at most a few thousand elements
const shapeOf = (rank, rand) => Array.from({ length: rank }, (_, d) => (d < rank - 6 ? 1 : 1 + Math.floor(rand() * 3)));

// Each op's check at one rank: [title, check(rank)].
const CHECKS = {
  gather: ['gather along several dims', (rank) => {
    const rand = mulberry32(rank);
    for (const dim of [0, rank - 1, -2, 3]) {
      const input = tensor(shapeOf(rank, rand), rand);
      const d = dim < 0 ? dim + rank : dim;
      const ishape = input.shape.map((s, k) => (k === d ? 4 : Math.max(1, s - 1)));
      const index = indices(ishape, input.shape[d], rand);
      same(gather(input, dim, index), refGather(input, dim, index));
    }
  }],
  gatherND: ['gatherND with batch dims', (rank) => {
    const rand = mulberry32(100 + rank);
    for (const batchDims of [0, 2, rank - 8]) {
      const params = tensor(shapeOf(rank, rand), rand);
      const depth = 3;
      const ishape = [...params.shape.slice(0, batchDims), 2, depth];
      const index = indices(ishape, 1, rand); // -1 and 0 are valid in every dim
      same(gatherND(params, index, { batchDims }), refGatherND(params, index, { batchDims }));
    }
  }],
  take: ['take with axis and batch dims', (rank) => {
    const rand = mulberry32(200 + rank);
    for (const [axis, batchDims] of [[0, 0], [rank - 1, 0], [-3, 2], [rank - 2, rank - 2]]) {
      const params = tensor(shapeOf(rank, rand), rand);
      const a = axis < 0 ? axis + rank : axis;
      const ishape = [...params.shape.slice(0, batchDims), 3];
      const index = indices(ishape, params.shape[a], rand);
      same(take(params, index, { axis, batchDims }), refTake(params, index, { axis, batchDims }));
    }
  }],
};

/** `op` at ranks 8 and 16 against the reference (simd-threaded, 2 threads, every call split). */
export function highRankSuite(op) {
  const [title, check] = CHECKS[op];
  describe('ranks 8 and 16', () => {
    before(() => init({ variant: 'simd-threaded', threads: 2, parallelThreshold: 0 }));
    after(() => dispose());
    for (const rank of [8, 16]) test(`rank ${rank}: ${title}`, () => check(rank));
  });
}
