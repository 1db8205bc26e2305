// segmentReduce: seeded random calls against common/reference-bag.mjs in both builds and at 1, 2
// and 4 threads (tests/lib/bag-suite.mjs), PyTorch 1.13's torch.segment_reduce results and
// TensorFlow's documented examples, bit for bit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { bagSuite } from '../lib/bag-suite.mjs';
import { badInputSuite } from '../lib/bad-inputs.mjs';
import { decode } from '../lib/torch-fixtures.mjs';
import { dispose, init, segmentReduce } from '../lib/tested-api.mjs';

bagSuite('segmentReduce');

const hex = (a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('hex');

test('segmentReduce gives PyTorch 1.13 results bit for bit (tests/fixtures/bag-torch)', async (t) => {
  const fixtures = JSON.parse(readFileSync(new URL('../fixtures/bag-torch/cases.json', import.meta.url)));
  await init({ variant: 'simd-threaded', threads: 2, parallelThreshold: 0 });
  try {
    let served = 0;
    for (const c of fixtures.cases.filter((x) => x.op === 'segmentReduce')) {
      const [data] = c.args.map(decode);
      const opts = Object.fromEntries(Object.entries(c.opts).map(([k, v]) => [k, decode(v)]));
      const run = () => segmentReduce(data, opts);
      if (c.error) {
        assert.throws(run, RangeError, `${c.name}: torch: ${c.error}`);
        continue;
      }
      const got = run(), want = decode(c.expected);
      assert.deepEqual(got.shape, want.shape, c.name);
      assert.equal(hex(got.data), hex(want.data), c.name);
      served++;
    }
    t.diagnostic(`${served} torch results matched`);
    assert.ok(served > 10);
  } finally {
    dispose();
  }
});

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
