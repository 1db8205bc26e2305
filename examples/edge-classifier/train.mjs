// Trains the classifier in TensorFlow.js on its wasm backend: the mean of a review's word and
// bigram rows of a [4096, 16] table, a dense layer to two classes, softmax cross-entropy, Adam.
// The mean is tf.sparse.sparseSegmentMean (TensorFlow's fused gather-and-mean), whose kernel
// (SparseSegmentMean) and gradient kernel (SparseSegmentMeanGrad) wasm-gather/tfjs serves with
// embeddingBag and embeddingBagBackward: the op the edge function calls, trained as it serves.
// train({ fused: false }) trains the old way instead, for comparison: tf.gather of every id's row,
// tf.unsortedSegmentSum per review, divided by the count (kernels GatherV2 and
// UnsortedSegmentSum, each the other's gradient). Writes build/model.json for the edge function.
import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { mkdirSync, writeFileSync } from 'node:fs';
import { kernelStats, registerKernels } from 'wasm-gather/tfjs';
import { LABELS, reviews, rng } from './data.mjs';
import { BUCKETS, bagsOf } from './features.mjs';

const DIM = 16;

/**
 * Trains for `steps` steps of `batch` reviews; returns { model (model.json's object), loss,
 * accuracy, served (the kernels wasm-gather/tfjs served in this training: name -> calls), ms
 * (the steps' time), stepMs (a step's, the median) }. fused: false takes the old way (tf.gather
 * and a segment sum).
 */
export async function train({ steps = 300, batch = 64, lr = 0.05, seed = 1, fused = true } = {}) {
  await tf.setBackend('wasm');
  await registerKernels(tf);
  const before = kernelStats().calls;
  const next = rng(seed);
  const init = (n, scale) => Float32Array.from({ length: n }, () => (next() - 0.5) * scale);
  const embedding = tf.variable(tf.tensor2d(init(BUCKETS * DIM, 0.1), [BUCKETS, DIM]));
  const dense = tf.variable(tf.tensor2d(init(DIM * LABELS.length, 0.5), [DIM, LABELS.length]));
  const bias = tf.variable(tf.zeros([LABELS.length]));
  // logits of a batch of texts: the mean of each text's rows (a text's review number is the
  // segment id of each of its ids: sorted, as sparseSegmentMean needs; every text has ids, so the
  // output has a row per text)
  const logits = (texts) => tf.tidy(() => {
    const { ids, offsets } = bagsOf(texts);
    const review = new Int32Array(ids.length);
    offsets.forEach((o, t) => review.fill(t, o));
    const rows = tf.tensor1d(ids, 'int32'), segments = tf.tensor1d(review, 'int32');
    let means;
    if (fused) {
      means = tf.sparse.sparseSegmentMean(embedding, rows, segments);
    } else {
      const counts = tf.tensor2d(texts.map((_, t) => (t + 1 < texts.length ? offsets[t + 1] : ids.length) - offsets[t]), [texts.length, 1]);
      means = tf.div(tf.unsortedSegmentSum(tf.gather(embedding, rows), segments, texts.length), tf.maximum(counts, 1));
    }
    return tf.add(tf.matMul(means, dense), bias);
  });
  const data = reviews(steps * batch, seed), heldOut = reviews(1000, seed + 1);
  const optimizer = tf.train.adam(lr);
  let loss = NaN;
  const times = [];
  const start = performance.now();
  for (let step = 0; step < steps; step++) {
    const t0 = performance.now();
    const part = data.slice(step * batch, (step + 1) * batch);
    const y = tf.oneHot(tf.tensor1d(part.map((r) => r.label), 'int32'), LABELS.length);
    const value = optimizer.minimize(() => tf.losses.softmaxCrossEntropy(y, logits(part.map((r) => r.text))), true);
    loss = (await value.data())[0];
    tf.dispose([y, value]);
    times.push(performance.now() - t0);
  }
  const ms = performance.now() - start;
  const stepMs = times.sort((a, b) => a - b)[times.length >> 1]; // the median: the first steps warm up
  const predicted = await tf.tidy(() => tf.argMax(logits(heldOut.map((r) => r.text)), 1)).data();
  const accuracy = heldOut.filter((r, i) => predicted[i] === r.label).length / heldOut.length;
  const b64 = async (v) => Buffer.from((await v.data()).buffer).toString('base64');
  const model = { buckets: BUCKETS, dim: DIM, labels: LABELS, embedding: await b64(embedding), dense: await b64(dense), bias: Array.from(await bias.data()) };
  const { calls } = kernelStats();
  const served = Object.fromEntries(Object.entries(calls).map(([k, n]) => [k, n - (before[k] ?? 0)]).filter(([, n]) => n > 0));
  tf.dispose([embedding, dense, bias]);
  optimizer.dispose();
  return { model, loss, accuracy, served, ms, stepMs };
}

/** Trains and writes build/model.json beside this file. */
export async function trainAndSave(options) {
  const r = await train(options);
  const dir = new URL('./build/', import.meta.url);
  mkdirSync(dir, { recursive: true });
  writeFileSync(new URL('model.json', dir), JSON.stringify(r.model));
  return r;
}
