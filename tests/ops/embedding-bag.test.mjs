// embeddingBag: seeded random calls against common/reference-bag.mjs in both builds and at 1, 2
// and 4 threads (tests/lib/bag-suite.mjs), and PyTorch 1.13's own results, bit for bit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { bagSuite } from '../lib/bag-suite.mjs';
import { badInputSuite } from '../lib/bad-inputs.mjs';
import { decode } from '../lib/torch-fixtures.mjs';
import { dispose, embeddingBag, init } from '../lib/tested-api.mjs';

bagSuite('embeddingBag');

// The bits of each element (NaN payloads and signed zeros included).
const hex = (a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('hex');

test('embeddingBag gives PyTorch 1.13 results bit for bit (tests/fixtures/bag-torch)', async (t) => {
  const fixtures = JSON.parse(readFileSync(new URL('../fixtures/bag-torch/cases.json', import.meta.url)));
  await init({ variant: 'simd-threaded', threads: 2, parallelThreshold: 0 });
  try {
    let served = 0;
    for (const c of fixtures.cases.filter((x) => x.op === 'embeddingBag')) {
      const [weight, indices] = c.args.map(decode);
      const opts = Object.fromEntries(Object.entries(c.opts).map(([k, v]) => [k, decode(v)]));
      const run = () => embeddingBag(weight, indices, opts);
      if (c.error) {
        assert.throws(run, RangeError, `${c.name}: torch: ${c.error}`);
        continue;
      }
      const got = run(), want = decode(c.expected);
      assert.deepEqual(got.shape, want.shape, c.name);
      assert.equal(hex(got.data), hex(want.data), c.name);
      if (c.expectedIndices) assert.deepEqual(Array.from(got.maxIndices.data), Array.from(decode(c.expectedIndices).data, Number), `${c.name}: max indices`);
      served++;
    }
    t.diagnostic(`${served} torch results matched`);
    assert.ok(served > 70);
  } finally {
    dispose();
  }
});

// Hostile or malformed arguments (the bad-input table, tests/lib/bad-inputs-bag.mjs).
badInputSuite('embeddingBag');
