// Plain JS gathers, as a user would write them without a library: the baseline for call
// overhead (W5) and a sanity line in the table. Valid indices only (no checks beyond JS's own),
// float32 data; each call returns a new array, like the one-shot mode of the libraries.
import { numel } from './shape.mjs';

/** tf.gather along axis (batchDims 0): rows of the inner size copied with set(). */
function take(data, indices, { axis = 0 }) {
  const s = data.shape, outer = numel(s.slice(0, axis)), n = s[axis], inner = numel(s.slice(axis + 1));
  const d = data.data, idx = indices.data, k = idx.length;
  const out = new Float32Array(outer * k * inner);
  for (let o = 0, w = 0; o < outer; o++) {
    for (let i = 0; i < k; i++, w += inner) {
      const from = (o * n + idx[i]) * inner;
      if (inner === 1) out[w] = d[from];
      else out.set(d.subarray(from, from + inner), w);
    }
  }
  return out;
}

/** tf.gather_nd with batchDims: each index tuple picks a slice of its batch. */
function gatherND(data, indices, { batchDims = 0 }) {
  const s = data.shape, is = indices.shape, K = is[is.length - 1];
  const batch = numel(s.slice(0, batchDims)), tuples = numel(is.slice(batchDims, -1));
  const slice = numel(s.slice(batchDims + K)), batchSize = numel(s.slice(batchDims));
  const strides = [];
  for (let c = 0; c < K; c++) strides.push(numel(s.slice(batchDims + c + 1)));
  const d = data.data, idx = indices.data;
  const out = new Float32Array(batch * tuples * slice);
  for (let b = 0, t = 0, w = 0; b < batch; b++) {
    for (let j = 0; j < tuples; j++, t += K, w += slice) {
      let from = b * batchSize;
      for (let c = 0; c < K; c++) from += idx[t + c] * strides[c];
      if (slice === 1) out[w] = d[from];
      else out.set(d.subarray(from, from + slice), w);
    }
  }
  return out;
}

/** torch.gather along the last dim of 2-D tensors (the benchmark's W4 shapes). */
function gather(data, indices, { dim }) {
  const [rows, cols] = data.shape, k = indices.shape[1];
  if (data.shape.length !== 2 || dim !== 1) throw new Error('js loops: gather handles 2-D, dim 1 only');
  const d = data.data, idx = indices.data;
  const out = new Float32Array(rows * k);
  for (let r = 0, w = 0; r < rows; r++) {
    const base = r * cols;
    for (let j = 0; j < k; j++, w++) out[w] = d[base + idx[w]];
  }
  return out;
}

export const jsLoops = { take, gatherND, gather };
