// segmentReduce: seeded random calls against common/reference-bag.mjs in both builds and at 1, 2
// and 4 threads (tests/lib/bag-suite.mjs), PyTorch 1.13's torch.segment_reduce results and
// TensorFlow's documented examples, bit for bit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bagSuite, torchFixtureSuite } from '../lib/bag-suite.mjs';
import { badInputSuite } from '../lib/bad-inputs.mjs';
import { dispose, init, segmentReduce } from '../lib/tested-api.mjs';

bagSuite('segmentReduce');
torchFixtureSuite('segmentReduce', 10);

// https://www.tensorflow.org/api_docs/python/tf/math/segment_sum (and _max, _mean): c =
// [[1,2,3,4],[4,3,2,1],[5,6,7,8]], segment ids [0, 0, 1]; an empty segment is 0 (segment_sum's
// page: "If the sum is empty for a given segment ID i, output[i] = 0").
test("segmentReduce with segmentIds follows TensorFlow's documented examples", async () => {
  await init();
  try {
    const c = { data: Float32Array.from([1, 2, 3, 4, 4, 3, 2, 1, 5, 6, 7, 8]), shape: [3, 4] };
    const ids = Int32Array.from([0, 0, 1]);
    assert.deepEqual(Array.from(segmentReduce(c, { reduce: 'sum', segmentIds: ids }).data), [5, 5, 5, 5, 5, 6, 7, 8]);
    assert.deepEqual(Array.from(segmentReduce(c, { reduce: 'max', segmentIds: ids }).data), [4, 3, 3, 4, 5, 6, 7, 8]);
    assert.deepEqual(Array.from(segmentReduce(c, { reduce: 'mean', segmentIds: ids }).data), [2.5, 2.5, 2.5, 2.5, 5, 6, 7, 8]);
    const empty = segmentReduce(c, { reduce: 'max', segmentIds: Int32Array.from([0, 0, 2]) });
    assert.deepEqual(empty.shape, [3, 4]);
    assert.deepEqual(Array.from(empty.data.subarray(4, 8)), [0, 0, 0, 0]);
  } finally {
    dispose();
  }
});

// Hostile or malformed arguments (the bad-input table, tests/lib/bad-inputs-bag.mjs).
badInputSuite('segmentReduce');
