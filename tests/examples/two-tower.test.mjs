// examples/two-tower/ as a user runs it, shortened (2 epochs over 2000 users): embeddingBag and
// embeddingBagBackward on resident tables, Adagrad on their views. Asserts what the example shows:
// the loss falls, recall@10 for held-out users is well above the popularity baseline's (and the
// random one's), and the run is the same, number for number, on one thread of the simd build and
// on the default build: the example's output depends only on its seed.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const root = fileURLToPath(new URL('../..', import.meta.url));
const script = fileURLToPath(new URL('../../examples/two-tower/train.mjs', import.meta.url));
const LIMIT_MS = 60e3;

const run = async (...extra) => {
  const { stdout } = await promisify(execFile)(process.execPath, [script, '--epochs', '2', '--users', '2000', '--json', ...extra],
    { cwd: root, timeout: LIMIT_MS, maxBuffer: 16 << 20 });
  const lines = stdout.trimEnd().split('\n');
  return { lines, r: JSON.parse(lines.at(-1)) };
};

test('examples/two-tower: the loss falls, recall@10 beats popularity, the same numbers on any build', async (t) => {
  const start = performance.now();
  const { lines, r } = await run();
  for (const line of lines.slice(0, -1)) t.diagnostic(line);
  assert.ok(r.losses.length > 50 && r.losses.every(Number.isFinite), `${r.losses.length} finite losses`);
  assert.ok(r.fell, `the loss fell: ${r.losses[0]} -> ${r.losses.at(-1)}`);
  assert.ok(r.epochLoss[1] < r.epochLoss[0], `epoch 2's loss under epoch 1's: ${r.epochLoss}`);
  assert.ok(r.modelRecall > 2 * r.popularRecall && r.beats, `recall@10 ${r.modelRecall}, popularity's ${r.popularRecall}`);
  assert.ok(r.popularRecall > r.randomRecall, 'popularity beats random (the baseline is not a straw man)');
  assert.ok(r.modelRecall > 0.1, `recall@10 ${r.modelRecall}`);
  assert.ok(r.shown.top.length === 10 && r.shown.top.every((j) => !r.shown.history.includes(j)), 'the top 10 leave the history out');

  const one = await run('--threads', '1');
  assert.equal(one.r.info.threads, 1);
  assert.deepEqual(one.r.losses, r.losses, 'the same losses on one thread');
  assert.deepEqual([one.r.modelRecall, one.r.popularRecall, one.r.shown], [r.modelRecall, r.popularRecall, r.shown]);
  const ms = performance.now() - start;
  t.diagnostic(`${(ms / 1000).toFixed(1)} s (two runs)`);
  assert.ok(ms < LIMIT_MS / 2, `well under a minute: ${ms.toFixed(0)} ms`);
});
