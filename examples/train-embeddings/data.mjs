// The example's data and initial weights, all from one seeded generator: no download, and the
// same numbers on every backend and every run (tf.randomNormal would draw from tfjs's own
// generator, another stream per backend call order).

/** mulberry32: uniform floats in [0, 1) from a 32-bit seed (https://gist.github.com/tommyettinger/46a874533244883189143505d203312c). */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** n floats from N(0, std²) by Box-Muller (https://en.wikipedia.org/wiki/Box%E2%80%93Muller_transform). */
export function normals(next, n, std) {
  const out = new Float32Array(n);
  for (let i = 0; i < n; i += 2) {
    const r = Math.sqrt(-2 * Math.log(1 - next())) * std; // 1 - u: never log(0)
    const theta = 2 * Math.PI * next();
    out[i] = r * Math.cos(theta);
    if (i + 1 < n) out[i + 1] = r * Math.sin(theta);
  }
  return out;
}

// Samples 0..n-1 with weight 1/(rank+1) (Zipf's law, as word frequencies roughly follow), by
// binary search in the cumulative weights.
function zipf(n) {
  const cdf = new Float64Array(n);
  let total = 0;
  for (let r = 0; r < n; r++) cdf[r] = total += 1 / (r + 1);
  return (next) => {
    const u = next() * total;
    let lo = 0, hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cdf[mid] < u) lo = mid + 1; else hi = mid;
    }
    return lo;
  };
}

/**
 * A corpus of "sentences" in `classes` classes. Every word is drawn from a Zipf distribution over
 * the whole vocabulary (common words, no use for the class) or, with probability `topical`, from
 * its class's own `topicWords` words (a Zipf distribution too): a bag of embeddings can learn the
 * class from them, so the loss can fall. Topic words are spread over the whole vocabulary, so a
 * gradient touches rows everywhere in the embedding table.
 */
export function makeCorpus({ vocab, classes, length, seed, topicWords = 100, topical = 0.3 }) {
  const next = mulberry32(seed);
  // Which word id has each frequency rank: a shuffled vocabulary (Fisher-Yates).
  const byRank = Int32Array.from({ length: vocab }, (_, i) => i);
  for (let i = vocab - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [byRank[i], byRank[j]] = [byRank[j], byRank[i]];
  }
  const topics = Array.from({ length: classes }, () => Int32Array.from({ length: topicWords }, () => Math.floor(next() * vocab)));
  const common = zipf(vocab);
  const topic = zipf(topicWords);

  /** A batch of `size` sentences: ids [size * length] (row-major [size, length]) and labels [size]. */
  function batch(size) {
    const ids = new Int32Array(size * length);
    const labels = new Int32Array(size);
    for (let s = 0; s < size; s++) {
      const c = labels[s] = Math.floor(next() * classes);
      for (let w = 0; w < length; w++) {
        ids[s * length + w] = next() < topical ? topics[c][topic(next)] : byRank[common(next)];
      }
    }
    return { ids, labels };
  }
  return { batch };
}

/** The model's initial weights: embedding [vocab, dim], dense [dim, classes] and its bias. */
export function initialWeights({ vocab, dim, classes, seed }) {
  const next = mulberry32(seed ^ 0x5eed);
  return {
    embedding: normals(next, vocab * dim, 0.1),
    dense: normals(next, dim * classes, 1 / Math.sqrt(dim)), // keeps the first logits near 0
    bias: new Float32Array(classes),
  };
}
