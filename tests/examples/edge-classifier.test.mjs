// examples/edge-classifier/ as a user runs it: trained in TensorFlow.js through wasm-gather/tfjs,
// served by workerd. Asserts what the example shows: the model is trained with
// tf.sparse.sparseSegmentMean, whose kernel and gradient kernel the adapter served (and no gather
// or segment sum), and once more the old way (tf.gather and tf.unsortedSegmentSum, served too) for
// the comparison of times; the model learnt the negations (held-out accuracy, both ways), the
// edge function's answers are the same model's in Node exactly, and the sample reviews get their
// classes.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const root = fileURLToPath(new URL('../..', import.meta.url));
const script = fileURLToPath(new URL('../../examples/edge-classifier/run.mjs', import.meta.url));
// workerd comes from .ci/run's npm install --no-save; without it the test is skipped locally, and fails under CI
const workerd = existsSync(`${root}node_modules/.bin/workerd`) || process.env.CI ? false : 'workerd not installed (.ci/run installs it)';

test('examples/edge-classifier: trained through the adapter, one embeddingBag a request in workerd', { skip: workerd, timeout: 120e3 }, async (t) => {
  const { stdout } = await promisify(execFile)(process.execPath, [script, '--json'], { cwd: root, timeout: 110e3, maxBuffer: 16 << 20 });
  const r = JSON.parse(stdout.trimEnd().split('\n').at(-1));
  t.diagnostic(`loss ${r.loss}, held-out accuracy ${r.accuracy}, ${r.ms.toFixed(0)} ms (the old way ${r.old.ms.toFixed(0)} ms); ` +
    `${JSON.stringify(r.answers)}`);
  assert.ok(r.served['wasm/SparseSegmentMean'] > 0 && r.served['wasm/SparseSegmentMeanGrad'] > 0,
    `the adapter served tf.sparse.sparseSegmentMean and its gradient: ${JSON.stringify(r.served)}`);
  assert.equal(r.served['wasm/SparseSegmentMeanGrad'], 300, 'every step');
  assert.ok(!r.served['wasm/GatherV2'] && !r.served['wasm/UnsortedSegmentSum'], 'no gather and segment sum: the fused op');
  assert.ok(r.old.served['wasm/GatherV2'] > 0 && r.old.served['wasm/UnsortedSegmentSum'] > 0, 'the old way: the gather and its gradient');
  assert.ok(r.accuracy >= 0.95, `held-out accuracy ${r.accuracy}`);
  assert.ok(r.old.accuracy >= 0.95, `held-out accuracy the old way ${r.old.accuracy}`);
  assert.equal(r.same, true, 'the edge answers what the model answers in Node');
  assert.deepEqual(r.answers.map((a) => a.label), ['positive', 'negative', 'positive', 'negative', 'positive', 'positive', 'negative']);
});
