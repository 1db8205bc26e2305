// Plain JS scatters, as a user would write them without a library: the baseline of the S
// workloads, float32, valid indices only. Each writes into `out` (the data array itself for an
// update in place, or a copy of it: jsScatter's `copy`). They are functions of their arrays, as
// an application's would be: V8 runs a closure over one fixed set of arrays up to 3x faster
// (S3: 0.9 ms instead of 2.7) while it is the only closure of its code, which no application
// calling its scatter on various arrays would see.
import { numel } from './shape.mjs';

const loops = {
  /** torch.index_add along axis 0: row index[k] += source row k. */
  indexReduce(out, { axis, opts }, idx, src, shape) {
    if (axis !== 0 || opts.reduce !== 'add') throw new Error('js loops: indexReduce handles add along axis 0 only');
    const D = numel(shape.slice(1)), x = idx.data, s = src.data;
    for (let k = 0; k < x.length; k++) {
      const o = x[k] * D, i = k * D;
      for (let j = 0; j < D; j++) out[o + j] += s[i + j];
    }
  },
  /** torch.scatter / scatter_add of a 1-D tensor, or along dim 1 of a 2-D one. */
  scatter(out, { axis, opts }, idx, src, shape) {
    const x = idx.data, s = src.data, add = opts.reduce === 'add';
    if (shape.length === 1) {
      if (add) for (let q = 0; q < x.length; q++) out[x[q]] += s[q];
      else for (let q = 0; q < x.length; q++) out[x[q]] = s[q];
      return;
    }
    if (shape.length !== 2 || axis !== 1 || add) throw new Error('js loops: scatter handles 1-D, or 2-D along dim 1 without a reduction');
    const cols = shape[1], k = idx.shape[1];
    for (let r = 0, q = 0; r < idx.shape[0]; r++) {
      const base = r * cols;
      for (let j = 0; j < k; j++, q++) out[base + x[q]] = s[q];
    }
  },
  /** ONNX ScatterND without a reduction: the slice at each index tuple replaced. */
  scatterND(out, form, idx, upd, shape) {
    const K = idx.shape.at(-1), slice = numel(shape.slice(K)), x = idx.data, u = upd.data;
    for (let t = 0, q = 0; q < x.length; t++, q += K) {
      let off = 0;
      for (let c = 0; c < K; c++) off = off * shape[c] + x[q + c];
      if (slice === 1) out[off] = u[t];
      else out.set(u.subarray(t * slice, (t + 1) * slice), off * slice);
    }
  },
  /** ONNX TensorScatter along axis -2: each batch's update rows written from its write index. */
  tensorScatter(out, form, writeIndices, update, shape) {
    if (shape.length !== 3) throw new Error('js loops: tensorScatter handles [batch, positions, features] only');
    const [B, T, C] = shape, rows = update.shape[1] * C;
    for (let b = 0; b < B; b++) out.set(update.data.subarray(b * rows, (b + 1) * rows), (b * T + writeIndices.data[b]) * C);
  },
};

/**
 * A form's plain JS loop on a workload's tensors: run() updates `data` in place, or with copy a
 * new array (data.slice()) and returns it.
 */
export function jsScatter(form, t, copy) {
  const { indices, updates } = form.pick(t);
  const loop = loops[form.op], data = t.data.data, shape = t.data.shape;
  if (copy) {
    return () => {
      const out = data.slice();
      loop(out, form, indices, updates, shape);
      return out;
    };
  }
  return () => {
    loop(data, form, indices, updates, shape);
    return data;
  };
}
