// A bag-of-embeddings classifier in tfjs-core ops: the mean of a sentence's word embeddings
// (tf.gather, whose gradient is tf.unsortedSegmentSum over the whole vocabulary), a dense layer,
// softmax cross-entropy. Trained with tf.train.adam through optimizer.minimize.
import { initialWeights, makeCorpus } from './data.mjs';

/** The model's tf.variables, made on tf's current backend from the seeded initial weights. */
export function makeModel(tf, { vocab, dim, classes, seed }) {
  const w = initialWeights({ vocab, dim, classes, seed });
  // In tidy: a variable keeps its initial value's data, but the initial tensor itself is dropped.
  const [embedding, dense, bias] = tf.tidy(() => [
    tf.variable(tf.tensor2d(w.embedding, [vocab, dim])),
    tf.variable(tf.tensor2d(w.dense, [dim, classes])),
    tf.variable(tf.tensor1d(w.bias)),
  ]);

  /** Logits [batch, classes] of ids [batch, length]. */
  const logits = (ids) => tf.add(tf.matMul(tf.mean(tf.gather(embedding, ids), 1), dense), bias);
  const loss = (ids, labels, classes) => tf.losses.softmaxCrossEntropy(tf.oneHot(labels, classes), logits(ids));
  const dispose = () => tf.dispose([embedding, dense, bias]);
  return { logits, loss, dispose, variables: [embedding, dense, bias] };
}

/**
 * Trains a fresh model on tf's current backend for `steps` steps of `batch` sentences, the same
 * batches for the same seed. Calls onStep(step, loss) after each step; resolves to the losses,
 * the time per step (the first, which compiles and warms up, apart) and the accuracy on held-out
 * sentences. Everything it makes is disposed.
 */
export async function train(tf, config, onStep = () => {}) {
  const { vocab, dim, classes, length, batch, steps, lr, seed } = config;
  const corpus = makeCorpus({ vocab, classes, length, seed });
  const model = makeModel(tf, { vocab, dim, classes, seed });
  const optimizer = tf.train.adam(lr);
  const losses = [];
  const times = [];
  try {
    for (let step = 0; step < steps; step++) {
      const { ids, labels } = corpus.batch(batch);
      const start = performance.now();
      const value = tf.tidy(() => {
        const x = tf.tensor2d(ids, [batch, length], 'int32');
        const y = tf.tensor1d(labels, 'int32');
        return optimizer.minimize(() => model.loss(x, y, classes), true, model.variables);
      });
      losses.push((await value.data())[0]);
      value.dispose();
      times.push(performance.now() - start);
      onStep(step, losses[step]);
    }
    const accuracy = heldOutAccuracy(tf, model, corpus, config);
    const later = times.slice(1);
    return { losses, firstStepMs: times[0], stepMs: later.reduce((a, b) => a + b, 0) / Math.max(1, later.length), accuracy };
  } finally {
    optimizer.dispose();
    model.dispose();
  }
}

// The share of 512 new sentences whose highest logit is their class.
function heldOutAccuracy(tf, model, corpus, { classes, length }) {
  const n = 512;
  const { ids, labels } = corpus.batch(n);
  const predicted = tf.tidy(() => tf.argMax(model.logits(tf.tensor2d(ids, [n, length], 'int32')), 1).dataSync());
  let right = 0;
  for (let i = 0; i < n; i++) right += predicted[i] === labels[i] ? 1 : 0;
  return right / n;
}
