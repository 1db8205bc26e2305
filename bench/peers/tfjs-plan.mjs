// How TensorFlow.js computes each benchmark workload (tf.gather, tf.gatherND, or gatherND on
// (batch coords, index) tuples where tfjs-backend-wasm's gather with batchDims is wrong), and its
// runner, for a tf namespace given by the caller: Node's runners (tfjs.mjs, tfjs-adapter.mjs) and
// the browser benchmark's page (bench/browser/bench.mjs) share it. No Node imports.
//   one-shot: both tensors are made from the TypedArrays on every call, and all are disposed.
//   resident: the data tensor is made once at setup; per call only the indices tensor.
// setup() selects the runner's backend; run() refuses to run if another runner switched it since,
// because tfjs would otherwise move the resident data between backends inside the timed call.
import { numel } from '../../common/shape.mjs';

/**
 * (row..., col) tuples for gatherND: each index of a batched gather (b batch dims, shape
 * `shape`) prefixed by its batch coordinates. Output shape [...shape, b + 1].
 */
function withBatchCoords(idx, shape, b) {
  const batchShape = shape.slice(0, b);
  const perBatch = numel(shape.slice(b));
  const out = new Int32Array(idx.length * (b + 1));
  for (let i = 0, o = 0; i < idx.length; i++, o += b + 1) {
    let q = Math.floor(i / perBatch);
    for (let d = b - 1; d >= 0; d--) {
      out[o + d] = q % batchShape[d];
      q = Math.floor(q / batchShape[d]);
    }
    out[o + b] = idx[i];
  }
  return out;
}

/**
 * How tfjs computes a workload: fn(x, i) on an indices tensor of shape `shape`, made from
 * prep(int32 indices) when the indices must be rewritten on every call.
 */
export function planFor(tf, backend, w, t) {
  const { op, opts } = w;
  const iShape = t.indices.shape;
  const r = t.data.shape.length;
  if (op === 'take') {
    if (opts.batchDims && backend === 'wasm') throw new Error('tfjs-wasm gather with batchDims > 0 is wrong (tfjs#8658)');
    return { fn: (x, i) => tf.gather(x, i, opts.axis ?? 0, opts.batchDims ?? 0), shape: iShape };
  }
  if (op === 'gatherND' && !opts.batchDims) return { fn: (x, i) => tf.gatherND(x, i), shape: iShape };
  // The rest are batched gathers: b leading dims shared by data and indices, then one index into
  // data axis b. gatherND with batch dims and K = 1 is one; so is torch.gather along the last dim.
  let b, shape;
  if (op === 'gatherND' && iShape.at(-1) === 1) [b, shape] = [opts.batchDims, iShape.slice(0, -1)];
  else if (op === 'gather' && (opts.dim === r - 1 || opts.dim === -1)) [b, shape] = [r - 1, iShape];
  else throw new Error('tfjs has no form of this op: only gatherND with batch dims and K = 1, and gather along the last dim');
  if (shape.slice(0, b).some((d, j) => d !== t.data.shape[j])) throw new Error('batch dims of data and indices differ');
  if (backend === 'cpu') {
    return { fn: (x, i) => tf.gather(x, i, b, b), shape, note: `tf.gather(data, indices, axis ${b}, batchDims ${b})` };
  }
  return {
    fn: (x, i) => tf.gatherND(x, i),
    shape: [...shape, b + 1],
    prep: (idx) => withBatchCoords(idx, shape, b),
    note: 'tf.gatherND on (batch coords, index) tuples built in run() (wasm gather with batchDims is wrong: tfjs#8658)',
  };
}

/** The runner of namespace `tf` on `backend` in `mode`. */
export function tfjsRunner(tf, backend, initMs, mode) {
  const resident = mode === 'resident';
  return {
    impl: `tfjs ${tf.version_core} ${backend} (${resident ? 'data tensor resident' : 'tensors made per call'})`,
    peer: `tfjs-${backend}`,
    mode,
    initMs,
    async setup(w, t) {
      await tf.setBackend(backend);
      const { fn, shape, prep = (a) => a, note } = planFor(tf, backend, w, t);
      const data = resident ? tf.tensor(t.data.data, t.data.shape, 'float32') : null;
      return {
        note,
        run() {
          if (tf.getBackend() !== backend) throw new Error(`the tfjs backend is ${tf.getBackend()}: call setup again`);
          const x = data ?? tf.tensor(t.data.data, t.data.shape, 'float32');
          const i = tf.tensor(prep(t.indices.data), shape, 'int32');
          const out = tf.tidy(() => fn(x, i));
          const values = out.dataSync(); // in Node no slower than await out.data() (measured)
          tf.dispose(data ? [i, out] : [x, i, out]);
          return values;
        },
        dispose: () => data?.dispose(),
      };
    },
  };
}
