// TensorFlow.js on the E workloads, cpu and wasm backends, through its sparse segment ops (tfjs
// has no embedding bag; tf.nn.embedding_lookup_sparse is TensorFlow's, which tfjs lacks):
//   E1: tf.sparse.sparseSegmentSum(table, ids, segment ids of the fixed bags);
//   E2: tf.sparse.sparseSegmentMean of the rows gathered and scaled by their weights first
//       (tf.gather, tf.mul), all timed: the weights change with every call. The mean of
//       pre-scaled rows is the weighted mean here (every bag's weights sum to 32,
//       common/bag-workloads.mjs), but rounds each product before adding it where the reference
//       fuses the two: checked within a tolerance (bench/lib/close-check.mjs);
//   E4: tf.sparse.sparseSegmentSum(data, 0..n-1, segment ids): tf.math.segment_sum, which tfjs
//       has not by that name. (tf.unsortedSegmentSum on cpu: segmentSumFit, tfjs-scatter.mjs.)
// Modes: resident (the table a tensor kept across calls) and one-shot (made per call; on cpu
// tf.tensor keeps the caller's array, on wasm it copies it into the backend's memory). On cpu a
// one-shot call therefore does what a resident one does, so E2, whose calls take seconds there,
// runs resident only on cpu. Per call
// the ids (and weights, and E4's segment ids) are made into tensors, the op runs, the output is
// read with dataSync() and every tensor made in the call disposed. The arrays that do not change
// between calls (the fixed bags' segment ids, 0..n-1) are tensors made once, at setup.
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import { bagIds } from '../../common/bag-workloads.mjs';
import { closeTo } from '../lib/close-check.mjs';
import { wasmDir } from './tfjs.mjs';

const PRESCALED = 'tf.sparse.sparseSegmentMean of rows scaled by tf.mul first rounds each product before adding it';

// How tfjs computes a workload: { call(table tensor, per-call tensors, kept tensors), perCall(t),
// kept(t), tolerant } or undefined where it cannot.
function planFor(w, t) {
  if (t.scales) return undefined; // no quantized gather in tfjs
  if (w.op === 'segmentReduce') {
    const n = t.segmentIds.data.length;
    return {
      perCall: () => [tf.tensor1d(t.segmentIds.data, 'int32')],
      kept: () => [tf.range(0, n, 1, 'int32')],
      call: (x, [ids], [all]) => tf.sparse.sparseSegmentSum(x, all, ids),
    };
  }
  const flat = t.indices.data;
  const ids = () => tf.tensor1d(flat, 'int32');
  if (!t.weights) {
    return { perCall: () => [ids()], kept: () => [tf.tensor1d(bagIds().data, 'int32')], call: (x, [i], [seg]) => tf.sparse.sparseSegmentSum(x, i, seg) };
  }
  return {
    perCall: () => [ids(), tf.tensor2d(t.weights.data, [flat.length, 1])],
    kept: () => [tf.tensor1d(bagIds().data, 'int32'), tf.range(0, flat.length, 1, 'int32')],
    call: (x, [i, wts], [seg, all]) => tf.sparse.sparseSegmentMean(tf.mul(tf.gather(x, i), wts), all, seg),
    tolerant: PRESCALED,
  };
}

function runner(backend, mode) {
  const resident = mode === 'resident';
  return {
    impl: `tfjs ${tf.version_core} ${backend} (${resident ? 'table tensor kept' : 'tensors made per call'})`,
    family: 'peer', peer: `tfjs-${backend}`, mode, backend,
    applies: (w, t) => planFor(w, t) !== undefined && (resident || backend !== 'cpu' || !t.weights),
    async setup(w, t) {
      await tf.setBackend(backend);
      const plan = planFor(w, t);
      const table = () => tf.tensor(t.table.data, t.table.shape, 'float32');
      const kept = plan.kept();
      const x = resident ? table() : null;
      const inst = {
        run() {
          if (tf.getBackend() !== backend) throw new Error(`the tfjs backend is ${tf.getBackend()}: call setup again`);
          const own = x ?? table();
          const per = plan.perCall();
          const out = tf.tidy(() => plan.call(own, per, kept));
          const values = out.dataSync();
          tf.dispose([...per, out, ...(x ? [] : [own])]);
          return values;
        },
        dispose: () => tf.dispose([...kept, ...(x ? [x] : [])]),
      };
      if (plan.tolerant) inst.same = closeTo(inst, w.outShape.at(-1), plan.tolerant);
      return inst;
    },
  };
}

/** The tfjs runners of the E workloads: cpu and wasm, the table kept or made per call. */
export function bagTfjsPeers() {
  tf.enableProdMode(); // only silences tfjs's "install tfjs-node" advice
  setWasmPaths(wasmDir);
  return ['cpu', 'wasm'].flatMap((b) => [runner(b, 'resident'), runner(b, 'one-shot')]);
}
