// examples/edge-classifier/ as a user runs it: trained in TensorFlow.js through wasm-gather/tfjs,
// served by workerd. Asserts what the example shows: the adapter served the training's kernels,
// the model learnt the negations (held-out accuracy), the edge function's answers are the same
// model's in Node exactly, and the sample reviews get their classes.
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
  t.diagnostic(`loss ${r.loss}, held-out accuracy ${r.accuracy}; ${JSON.stringify(r.answers)}`);
  assert.ok(r.served['wasm/GatherV2'] > 0 && r.served['wasm/UnsortedSegmentSum'] > 0, 'the adapter served the gather and its gradient');
  assert.ok(r.accuracy >= 0.95, `held-out accuracy ${r.accuracy}`);
  assert.equal(r.same, true, 'the edge answers what the model answers in Node');
  assert.deepEqual(r.answers.map((a) => a.label), ['positive', 'negative', 'positive', 'negative', 'positive', 'positive', 'negative']);
});
