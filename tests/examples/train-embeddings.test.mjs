// examples/train-embeddings/ as a user runs it, shortened (40 steps, a 2000-word vocabulary): the
// same code path, wasm-gather/tfjs's kernels on tfjs's wasm and cpu backends, so gather's gradient
// (UnsortedSegmentSum) must be served by them on both. Asserts what the example shows: stock wasm
// fails with tfjs's kernel error, stock cpu's step grows with the vocabulary, the loss falls, the
// backends agree, nothing is left behind, and all of it in well under a minute.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const root = fileURLToPath(new URL('../..', import.meta.url));
const script = fileURLToPath(new URL('../../examples/train-embeddings/train.mjs', import.meta.url));
const STEPS = 40;
const LIMIT_MS = 60e3;

test('examples/train-embeddings: stock tfjs fails or crawls, the adapter trains on wasm and cpu alike', async (t) => {
  const start = performance.now();
  const { stdout } = await promisify(execFile)(process.execPath,
    [script, '--steps', String(STEPS), '--vocab', '2000', '--stock-vocabs', '50,100', '--json'],
    { cwd: root, timeout: LIMIT_MS, maxBuffer: 16 << 20 });
  const ms = performance.now() - start;
  const lines = stdout.trimEnd().split('\n');
  const r = JSON.parse(lines.at(-1));
  for (const line of lines.slice(0, -1)) t.diagnostic(line);

  const kernelError = "Kernel 'UnsortedSegmentSum' not registered for backend 'wasm'";
  assert.equal(r.stock.wasmError, kernelError, 'stock tfjs-backend-wasm: no gradient of tf.gather');
  assert.ok(stdout.includes(`wasm: fails: ${kernelError}`), 'the error printed');
  assert.ok(r.stock.cpu.msPerWord > 0, 'stock tfjs-backend-cpu: a step costs more with every word of the vocabulary');
  assert.ok(r.stock.cpu.estimateMs > 10 * r.runs.cpu.stepMs, 'the adapter is faster than stock cpu');

  for (const backend of ['wasm', 'cpu']) {
    const { losses, leaked } = r.runs[backend];
    assert.equal(losses.length, STEPS);
    assert.ok(losses.every(Number.isFinite), `${backend}: finite losses`);
    assert.equal(r.kernels.calls[`${backend}/UnsortedSegmentSum`], STEPS, `${backend}: every gradient served by wasm-gather`);
    assert.ok(r.kernels.calls[`${backend}/GatherV2`] >= STEPS, `${backend}: every gather served by wasm-gather`);
    assert.equal(leaked, 0, `${backend}: no tensor left behind`);
  }
  assert.ok(r.kernels.inPlace >= 2 * STEPS, "on wasm the calls ran in tfjs's memory");
  assert.ok(r.fell, `the loss fell: ${r.runs.wasm.losses[0]} -> ${r.runs.wasm.losses.at(-1)}`);
  assert.ok(r.agree && r.maxDiff <= r.tolerance, `the backends agree: ${r.maxDiff}`);
  assert.ok(r.runs.wasm.losses.at(-1) < 0.75 * r.runs.wasm.losses[0], 'the last loss is under 3/4 of the first');
  t.diagnostic(`${(ms / 1000).toFixed(1)} s`);
  assert.ok(ms < LIMIT_MS / 2, `well under a minute: ${ms.toFixed(0)} ms`);
});
