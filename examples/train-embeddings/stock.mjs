// What stock TensorFlow.js 4.22 (no adapter) does with the same training step:
// - tfjs-backend-wasm has no UnsortedSegmentSum kernel, so the gradient of tf.gather fails;
// - tfjs-backend-cpu's UnsortedSegmentSum makes one masked sum over the whole gradient per segment
//   (a loop over numSegments: https://github.com/tensorflow/tfjs/blob/tfjs-v4.22.0/tfjs-backend-cpu/src/kernels/UnsortedSegmentSum.ts),
//   so one step costs time in proportion to the vocabulary. Timing it at a few small vocabularies
//   and fitting a line gives the time at the real one without waiting minutes.
import { train } from './model.mjs';

/** The error of one training step on stock tfjs-backend-wasm (tf's backend becomes 'wasm'). */
export async function stockWasmError(tf, config) {
  await tf.setBackend('wasm');
  try {
    await train(tf, { ...config, steps: 1 });
  } catch (e) {
    return e;
  }
  return null;
}

/**
 * One training step on stock tfjs-backend-cpu at each of `vocabs` (after one untimed step at the
 * first, which warms the JIT up), and the least-squares line ms = a + b * vocab through them,
 * evaluated at config.vocab.
 */
export async function stockCpuStep(tf, config, vocabs) {
  await tf.setBackend('cpu');
  const step = async (vocab) => (await train(tf, { ...config, vocab, steps: 1 })).firstStepMs;
  await step(vocabs[0]);
  const points = [];
  for (const vocab of vocabs) points.push({ vocab, ms: await step(vocab) });
  const { a, b } = fitLine(points.map((p) => p.vocab), points.map((p) => p.ms));
  return { points, msPerWord: b, fixedMs: a, estimateMs: a + b * config.vocab };
}

// Least squares y = a + b x (https://en.wikipedia.org/wiki/Simple_linear_regression).
function fitLine(xs, ys) {
  const n = xs.length;
  const mx = xs.reduce((s, x) => s + x, 0) / n;
  const my = ys.reduce((s, y) => s + y, 0) / n;
  let sxy = 0, sxx = 0;
  for (let i = 0; i < n; i++) {
    sxy += (xs[i] - mx) * (ys[i] - my);
    sxx += (xs[i] - mx) ** 2;
  }
  const b = sxy / sxx;
  return { a: my - b * mx, b };
}
