// Trains the classifier in TensorFlow.js on its wasm backend, with wasm-gather/tfjs serving the
// embedding's gather (GatherV2), the per-review sums (UnsortedSegmentSum) and both their
// gradients: the mean of a review's word and bigram rows of a [4096, 16] table, a dense layer to
// two classes, softmax cross-entropy, Adam. Writes build/model.json for the edge function.
import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { mkdirSync, writeFileSync } from 'node:fs';
import { kernelStats, registerKernels } from 'wasm-gather/tfjs';
import { LABELS, reviews, rng } from './data.mjs';
import { BUCKETS, bagsOf } from './features.mjs';

const DIM = 16;

/** Trains for `steps` steps of `batch` reviews; returns { model (model.json's object), loss, accuracy, served }. */
export async function train({ steps = 300, batch = 64, lr = 0.05, seed = 1 } = {}) {
  await tf.setBackend('wasm');
  await registerKernels(tf);
  const next = rng(seed);
  const init = (n, scale) => Float32Array.from({ length: n }, () => (next() - 0.5) * scale);
  const embedding = tf.variable(tf.tensor2d(init(BUCKETS * DIM, 0.1), [BUCKETS, DIM]));
  const dense = tf.variable(tf.tensor2d(init(DIM * LABELS.length, 0.5), [DIM, LABELS.length]));
  const bias = tf.variable(tf.zeros([LABELS.length]));
  // logits of a batch of texts: the mean of each text's rows (a sum per text over its count)
  const logits = (texts) => tf.tidy(() => {
    const { ids, offsets } = bagsOf(texts);
    const bag = new Int32Array(ids.length);
    offsets.forEach((o, t) => bag.fill(t, o));
    const counts = tf.tensor2d(texts.map((_, t) => (t + 1 < texts.length ? offsets[t + 1] : ids.length) - offsets[t]), [texts.length, 1]);
    const sums = tf.unsortedSegmentSum(tf.gather(embedding, tf.tensor1d(ids, 'int32')), tf.tensor1d(bag, 'int32'), texts.length);
    return tf.add(tf.matMul(tf.div(sums, tf.maximum(counts, 1)), dense), bias);
  });
  const data = reviews(steps * batch, seed), heldOut = reviews(1000, seed + 1);
  const optimizer = tf.train.adam(lr);
  let loss = NaN;
  for (let step = 0; step < steps; step++) {
    const part = data.slice(step * batch, (step + 1) * batch);
    const y = tf.oneHot(tf.tensor1d(part.map((r) => r.label), 'int32'), LABELS.length);
    const value = optimizer.minimize(() => tf.losses.softmaxCrossEntropy(y, logits(part.map((r) => r.text))), true);
    loss = (await value.data())[0];
    tf.dispose([y, value]);
  }
  const predicted = await tf.tidy(() => tf.argMax(logits(heldOut.map((r) => r.text)), 1)).data();
  const accuracy = heldOut.filter((r, i) => predicted[i] === r.label).length / heldOut.length;
  const b64 = async (v) => Buffer.from((await v.data()).buffer).toString('base64');
  const model = { buckets: BUCKETS, dim: DIM, labels: LABELS, embedding: await b64(embedding), dense: await b64(dense), bias: Array.from(await bias.data()) };
  const { calls } = kernelStats();
  tf.dispose([embedding, dense, bias]);
  optimizer.dispose();
  return { model, loss, accuracy, served: calls };
}

/** Trains and writes build/model.json beside this file. */
export async function trainAndSave(options) {
  const r = await train(options);
  const dir = new URL('./build/', import.meta.url);
  mkdirSync(dir, { recursive: true });
  writeFileSync(new URL('model.json', dir), JSON.stringify(r.model));
  return r;
}
