// Plain JS bag and segment reductions, as a user would write them without a library: the E
// workloads' baseline. Float32 tables, valid indices only, each call a new output array. The sums
// accumulate in the Float32Array output itself, so each add is rounded to float32 as the
// reference's are; a weighted mean's row is acc += fround(w * x) (TensorFlow's combiner: the
// product rounded, then added, as the reference computes it).
// Functions of their arrays, as an application's would be (common/scatter-js-loops.mjs says why).

/** Fixed bags (2-D indices [bags, len]): the sum of each bag's rows. */
function bagSum(table, dim, idx, len) {
  const bags = idx.length / len, out = new Float32Array(bags * dim);
  for (let b = 0; b < bags; b++) {
    const o = b * dim;
    for (let k = b * len; k < (b + 1) * len; k++) {
      const r = idx[k] * dim;
      for (let e = 0; e < dim; e++) out[o + e] += table[r + e];
    }
  }
  return out;
}

/** Fixed bags, weighted mean: the weighted sum over the sum of the bag's weights. */
function bagWeightedMean(table, dim, idx, weights, len) {
  const bags = idx.length / len, out = new Float32Array(bags * dim);
  for (let b = 0; b < bags; b++) {
    const o = b * dim;
    let wsum = 0;
    for (let k = b * len; k < (b + 1) * len; k++) {
      const r = idx[k] * dim, w = weights[k];
      wsum = Math.fround(wsum + w);
      for (let e = 0; e < dim; e++) out[o + e] += Math.fround(w * table[r + e]);
    }
    for (let e = 0; e < dim; e++) out[o + e] /= wsum;
  }
  return out;
}

/**
 * Fixed bags of a uint8 table of two 4-bit codes a byte (low nibble first), blocks of `block`
 * columns with float32 scales, zero point 8: each value (q - 8) * scale rounded to float32, then
 * summed.
 */
function bagSumQ4(codes, scales, dim, block, idx, len) {
  const bags = idx.length / len, out = new Float32Array(bags * dim);
  const rowBytes = dim / 2, blocks = dim / block;
  for (let b = 0; b < bags; b++) {
    const o = b * dim;
    for (let k = b * len; k < (b + 1) * len; k++) {
      const r = idx[k] * rowBytes, s = idx[k] * blocks;
      for (let e = 0; e < dim; e += 2) {
        const byte = codes[r + (e >> 1)], scale = scales[s + ((e / block) | 0)];
        out[o + e] += Math.fround(((byte & 15) - 8) * scale);
        out[o + e + 1] += Math.fround(((byte >> 4) - 8) * scale);
      }
    }
  }
  return out;
}

/** Sorted segment ids, one a row of data: the sum of each segment's rows. */
function segmentSum(data, dim, ids, segments) {
  const out = new Float32Array(segments * dim);
  for (let i = 0; i < ids.length; i++) {
    const o = ids[i] * dim, r = i * dim;
    for (let e = 0; e < dim; e++) out[o + e] += data[r + e];
  }
  return out;
}

/** The loop of an E workload (common/bag-workloads.mjs) over its tensors: () => output. */
export function jsBagLoop(w, t) {
  const dim = t.table.shape[1];
  if (w.op === 'segmentReduce') return () => segmentSum(t.table.data, dim, t.segmentIds.data, w.opts.numSegments);
  const len = t.indices.shape[1], idx = t.indices.data;
  if (t.scales) return () => bagSumQ4(t.table.data, t.scales.data, dim * 2, w.opts.blockSize, idx, len);
  if (t.weights) return () => bagWeightedMean(t.table.data, dim, idx, t.weights.data, len);
  return () => bagSum(t.table.data, dim, idx, len);
}
