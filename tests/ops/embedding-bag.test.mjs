// embeddingBag: seeded random calls against common/reference-bag.mjs in both builds and at 1, 2
// and 4 threads (tests/lib/bag-suite.mjs), and PyTorch 1.13's own results, bit for bit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bagSuite, torchFixtureSuite } from '../lib/bag-suite.mjs';
import { badInputSuite } from '../lib/bad-inputs.mjs';
import { dispose, embeddingBag, heapStats, init, prepare, upload } from '../lib/tested-api.mjs';

bagSuite('embeddingBag');
torchFixtureSuite('embeddingBag', 70);

// Hostile or malformed arguments (the bad-input table, tests/lib/bad-inputs-bag.mjs).
badInputSuite('embeddingBag');

test('a prepared embeddingBag reads its ids and offsets at each run, and checks them each time', async () => {
  await init();
  try {
    const weight = upload({ data: Float32Array.from({ length: 20 }, (_, i) => i), shape: [10, 2] }); // row r: [2r, 2r + 1]
    const ids = Int32Array.of(1, 2, 3, 4), offsets = Int32Array.of(0, 2), out = new Float32Array(4);
    const heap = heapStats().heapInUse;
    const p = prepare(embeddingBag, weight, { data: ids, shape: [4] }, { offsets, mode: 'sum', out });
    assert.deepEqual(Array.from(p.run().data), [6, 8, 14, 16]); // rows 1 + 2, 3 + 4
    ids.set([9, 9, 0, 0]);
    assert.deepEqual(Array.from(p.run().data), [36, 38, 0, 2]);
    offsets[1] = 5;
    assert.throws(() => p.run(), /^RangeError: embeddingBag: opts\.offsets\[1\] = 5 is past the end of the entries \(4\)/);
    offsets[1] = 1; // bags {9}, {9, 0, 0}
    assert.deepEqual(Array.from(p.run().data), [18, 19, 18, 21]);
    p.dispose();
    assert.throws(() => prepare(embeddingBag, weight, { data: ids, shape: [4] }, { offsets, mode: 'max', returnIndices: true }),
      /cannot be prepared/);
    assert.equal(heapStats().heapInUse, heap);
    weight.dispose();
  } finally {
    dispose();
  }
});
