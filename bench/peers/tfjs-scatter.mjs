// TensorFlow.js on the S workloads, cpu and wasm backends, through what tfjs has for each:
//   - an add into zeros (S1, S3): tf.scatterND(indices as [n, 1] tuples, updates, shape), which
//     sums duplicates, made per call (it takes no data: mode one-shot);
//   - a write (S2, S4, S5): tf.tensorScatterUpdate(data, index tuples, updates), the data tensor
//     kept (resident) or made per call (one-shot); torch.scatter's form (S4) as (row, column)
//     tuples built per call. On cpu it writes into its input (below): mode in-place.
// And, on cpu only, tf.unsortedSegmentSum (S1, S3), tfjs's own name for the embedding gradient:
// its cpu kernel loops over the segments, each pass over all of x (tfjs-backend-cpu's
// UnsortedSegmentSum: equal, cast, multiply, sum per segment), so a call at the workloads'
// 32000 or 65536 segments would take hours: segmentSumFit() times it at a few segment counts and
// fits time = a + b * segments (least squares).
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import { median } from '../../common/timing.mjs';
import { numel } from '../../common/shape.mjs';
import { wasmDir } from './tfjs.mjs';

// (row, column) tuples of a 2-D torch.scatter index (dim 1): tensorScatterUpdate's indices.
function rowColumnPairs(idx, k) {
  const out = new Int32Array(idx.length * 2);
  for (let q = 0; q < idx.length; q++) {
    out[2 * q] = (q / k) | 0;
    out[2 * q + 1] = idx[q];
  }
  return out;
}

/** How tfjs computes a form: { fn(data tensor | null, indices tensor, updates tensor), indices, iShape, uShape, usesData, note }. */
function planFor(w, t) {
  const { form } = w;
  const { indices, updates } = form.pick(t);
  const add = form.opts.reduce === 'add';
  if (add) {
    if (t.data.data.some((v) => v !== 0)) throw new Error('tf.scatterND starts from zeros: this workload\'s data is not');
    if (!((form.op === 'indexReduce' && form.axis === 0) || (form.op === 'scatter' && t.data.shape.length === 1))) throw new Error('no tfjs form');
    return { fn: (x, i, u) => tf.scatterND(i, u, t.data.shape), prep: (a) => a, iShape: [...indices.shape, 1], uShape: updates.shape,
      usesData: false, note: 'tf.scatterND(indices as [n, 1], updates, shape): duplicates summed, into zeros' };
  }
  if (form.op === 'tensorScatter') throw new Error('the scatterND form of this workload is the same tfjs call');
  if (form.op === 'scatterND') {
    return { fn: (x, i, u) => tf.tensorScatterUpdate(x, i, u), prep: (a) => a, iShape: indices.shape, uShape: updates.shape, usesData: true };
  }
  if (form.op === 'scatter' && t.data.shape.length === 2 && form.axis === 1) {
    const k = indices.shape[1];
    return { fn: (x, i, u) => tf.tensorScatterUpdate(x, i, u), prep: (a) => rowColumnPairs(a, k), iShape: [numel(indices.shape), 2],
      uShape: [numel(updates.shape)], usesData: true, note: 'tf.tensorScatterUpdate on (row, column) tuples built in run()' };
  }
  throw new Error('no tfjs form');
}

// tfjs-backend-cpu 4.22's TensorScatterUpdate writes into its input tensor's own array (its
// scatterImpl updates the buffer bufferSync returns, which is the tensor's values) and returns
// that array; and tf.tensor on cpu keeps the caller's TypedArray rather than a copy, so it is the
// caller's array that changes. On cpu it is therefore an update in place, and runs as one here
// (mode in-place, the data tensor kept), on a copy of the workload's data.
export const CPU_WRITES_INPUT = 'tf.tensorScatterUpdate on cpu writes into its input tensor\'s array (the caller\'s own TypedArray, which tf.tensor keeps) and returns it (tfjs-backend-cpu 4.22): an update in place';

// Runners: cpu adds into zeros (tf.scatterND, one-shot) or writes in place (tensorScatterUpdate);
// wasm does both one-shot, and writes with the data tensor kept (resident).
const RUNNERS = [
  ['cpu', 'one-shot', (p) => !p.usesData, 'tensors made per call'],
  ['cpu', 'in-place', (p) => p.usesData, 'data tensor kept, written in place'],
  ['wasm', 'one-shot', () => true, 'tensors made per call'],
  ['wasm', 'resident', (p) => p.usesData, 'data tensor resident'],
];

function runner([backend, mode, fits, how]) {
  return {
    impl: `tfjs ${tf.version_core} ${backend} (${how})`,
    family: 'peer', peer: `tfjs-${backend}`, mode, backend,
    applies(w, t) {
      try { return fits(planFor(w, t)); } catch { return false; }
    },
    async setup(w, t) {
      await tf.setBackend(backend);
      const { fn, prep, iShape, uShape, usesData, note } = planFor(w, t);
      const { indices, updates } = w.form.pick(t);
      const own = usesData ? t.data.data.slice() : null;
      const data = mode !== 'one-shot' ? tf.tensor(own, t.data.shape, 'float32') : null;
      return {
        note: [note, mode === 'in-place' ? CPU_WRITES_INPUT : undefined].filter(Boolean).join('; ') || undefined,
        run() {
          if (tf.getBackend() !== backend) throw new Error(`the tfjs backend is ${tf.getBackend()}: call setup again`);
          const x = usesData ? (data ?? tf.tensor(own, t.data.shape, 'float32')) : null;
          const i = tf.tensor(prep(indices.data), iShape, 'int32');
          const u = tf.tensor(updates.data, uShape, 'float32');
          const out = tf.tidy(() => fn(x, i, u));
          const values = out.dataSync();
          tf.dispose(data || !x ? [i, u, out] : [x, i, u, out]);
          return values;
        },
        dispose: () => data?.dispose(),
      };
    },
  };
}

/** The tfjs runners of the S workloads. */
export function tfjsScatterPeers() {
  tf.enableProdMode(); // only silences tfjs's "install tfjs-node" advice
  setWasmPaths(wasmDir);
  return RUNNERS.map(runner);
}

/**
 * tf.unsortedSegmentSum on cpu for an add workload (S1, S3), timed at `counts` segment counts
 * (the index taken modulo each; a pass costs the same whatever the index) and fitted: a row as
 * bench/run.mjs makes them, its medianMs the fit at the workload's segment count. Each point's
 * first call (untimed) is checked against the segment sums within one float32 rounding: tfjs's
 * sum adds in a double and rounds once, where a scatter adds in float32 one update at a time.
 */
export async function segmentSumFit(w, t, counts, { samples = 2 } = {}) {
  tfjsScatterPeers();
  await tf.setBackend('cpu');
  const { indices, updates } = w.form.pick(t);
  const segments = t.data.shape[0];
  const row = { impl: `tfjs ${tf.version_core} cpu unsortedSegmentSum (fitted)`, family: 'peer', peer: 'tfjs-cpu', mode: 'one-shot',
    backend: 'cpu', workload: w.id, fitted: true };
  const points = [];
  for (const n of counts) {
    const ids = indices.data.map((v) => v % n);
    const run = () => {
      const x = tf.tensor(updates.data, updates.shape, 'float32'), i = tf.tensor(ids, indices.shape, 'int32');
      const out = tf.unsortedSegmentSum(x, i, n);
      const values = out.dataSync();
      tf.dispose([x, i, out]);
      return values;
    };
    const bad = closeTo(run(), segmentSums(updates, ids, n));
    if (bad) throw new Error(`unsortedSegmentSum with ${n} segments: ${bad}`);
    const ms = [];
    for (let k = 0; k < samples; k++) {
      const t0 = performance.now();
      run();
      ms.push(performance.now() - t0);
    }
    points.push([n, median(ms)]);
  }
  const [a, b] = lineFit(points);
  return { ...row, medianMs: a + b * segments, samples: samples * counts.length, fit: { points, interceptMs: a, perSegmentMs: b, segments },
    note: `fitted: ${a.toFixed(1)} ms + ${b.toFixed(1)} ms per segment (from ${counts.join(', ')} segments), at ${segments} segments` };
}

/** Least squares of y = a + b x over points [x, y]: [a, b]. */
export function lineFit(points) {
  const n = points.length, sx = points.reduce((s, [x]) => s + x, 0), sy = points.reduce((s, [, y]) => s + y, 0);
  const sxx = points.reduce((s, [x]) => s + x * x, 0), sxy = points.reduce((s, [x, y]) => s + x * y, 0);
  const b = (n * sxy - sx * sy) / (n * sxx - sx * sx);
  return [(sy - b * sx) / n, b];
}

// Segment sums of the rows of `updates` by segment id, each added in a double, rounded once.
function segmentSums(updates, ids, n) {
  const D = updates.data.length / ids.length, acc = new Float64Array(n * D);
  for (let q = 0; q < ids.length; q++) for (let e = 0; e < D; e++) acc[ids[q] * D + e] += updates.data[q * D + e];
  return Float32Array.from(acc);
}

// Why a differs from b by more than about one float32 rounding (2^-22 relative), or ''.
function closeTo(a, b) {
  if (a.length !== b.length) return `${a.length} values, expected ${b.length}`;
  for (let i = 0; i < a.length; i++) {
    if (!(Math.abs(a[i] - b[i]) <= 2 ** -22 * Math.abs(b[i]))) return `value ${i} is ${a[i]}, expected ${b[i]}`;
  }
  return '';
}
