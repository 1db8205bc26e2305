// The real peers of the scatter family, on the tensors of common/reference-scatter.mjs
// ({ data, shape }; float16 as a Uint16Array of bits), for tests/ops/scatter-reference.test.mjs:
//   onnxruntime-web (wasm EP, one thread: updates land in order): one-node ScatterElements-18,
//     ScatterND-18 and TensorScatter-24 models;
//   tfjs-core on tfjs-backend-cpu: tf.scatterND, tf.tensorScatterUpdate, tf.unsortedSegmentSum.
// Each runner resolves to (ORT) or returns (tfjs) { data, shape }, or throws the peer's error.
// (Not named *.test.mjs: node --test tests/ would run it as a test file.)
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import * as ort from 'onnxruntime-web';

import { oneNodeModel } from '../../bench/peers/onnx-model.mjs';

export { oneNodeModel, ort, tf };

// ---------------------------------------------------------------------------------------------
// onnxruntime-web

const ORT_TYPES = new Map([
  [Float32Array, 'float32'], [Float64Array, 'float64'], [Int8Array, 'int8'], [Uint8Array, 'uint8'],
  [Int16Array, 'int16'], [Uint16Array, 'uint16'], [Int32Array, 'int32'], [Uint32Array, 'uint32'],
  [BigInt64Array, 'int64'], [BigUint64Array, 'uint64'],
]);

/** The ONNX type of a data array: its TypedArray's, or dtype ('float16') for a Uint16Array of bits. */
export function ortType(data, dtype) {
  if (dtype === 'float16' || dtype === 'bfloat16') return dtype;
  const t = ORT_TYPES.get(data.constructor);
  if (!t) throw new TypeError(`no onnxruntime type for ${data.constructor.name}`);
  return t;
}

// Index arrays as onnxruntime takes them: an Int32Array stays int32 where the op allows it,
// anything else becomes int64.
function ortIndices(t, allowInt32) {
  if (allowInt32 && t.data instanceof Int32Array) return new ort.Tensor('int32', t.data, t.shape);
  return new ort.Tensor('int64', BigInt64Array.from(t.data, (v) => BigInt(v)), t.shape);
}

const sessions = new Map();
function session(key, spec) {
  if (!sessions.has(key)) {
    ort.env.wasm.numThreads = 1; // no worker threads: updates in order, and the process exits
    const options = { executionProviders: ['wasm'], logSeverityLevel: 3 };
    sessions.set(key, ort.InferenceSession.create(oneNodeModel(spec), options));
  }
  return sessions.get(key);
}

async function run(key, spec, feeds) {
  const s = await session(key, spec);
  // Errors only: TensorScatter warns on every run (through the run's logger) that it copies the cache.
  const { out } = await s.run(feeds, { logSeverityLevel: 3 });
  const result = { data: out.data, shape: out.dims.slice() };
  out.dispose();
  return result;
}

const feed = (t, type) => new ort.Tensor(type, t.data, t.shape);

/**
 * ONNX ScatterElements-18: updates has indices' shape. opts: { reduction: 'none' | 'add' |
 * 'mul' | 'max' | 'min', dtype: 'float16' for a Uint16Array of bits }.
 */
export function ortScatterElements(data, axis, indices, updates, opts = {}) {
  const type = ortType(data.data, opts.dtype);
  const idx = ortIndices(indices, true);
  const reduction = opts.reduction ?? 'none';
  const spec = {
    opType: 'ScatterElements', opset: 18, outType: type, attrs: { axis, reduction },
    inputs: [['data', type], ['indices', idx.type], ['updates', type]],
  };
  return run(`SE|${axis}|${reduction}|${type}|${idx.type}`, spec,
    { data: feed(data, type), indices: idx, updates: feed(updates, type) });
}

/** ONNX ScatterND-18 (int64 indices). opts: { reduction, dtype }. */
export function ortScatterND(data, indices, updates, opts = {}) {
  const type = ortType(data.data, opts.dtype);
  const reduction = opts.reduction ?? 'none';
  const spec = {
    opType: 'ScatterND', opset: 18, outType: type, attrs: { reduction },
    inputs: [['data', type], ['indices', 'int64'], ['updates', type]],
  };
  return run(`SND|${reduction}|${type}`, spec,
    { data: feed(data, type), indices: ortIndices(indices, false), updates: feed(updates, type) });
}

/** ONNX TensorScatter-24 (int64 write indices, optional). opts: { axis, mode, dtype }. */
export function ortTensorScatter(cache, update, writeIndices, opts = {}) {
  const type = ortType(cache.data, opts.dtype);
  const attrs = { axis: opts.axis ?? -2, mode: opts.mode ?? 'linear' };
  const withIdx = writeIndices != null;
  const spec = {
    opType: 'TensorScatter', opset: 24, outType: type, attrs,
    inputs: [['past_cache', type], ['update', type], ...(withIdx ? [['write_indices', 'int64']] : [])],
  };
  const feeds = { past_cache: feed(cache, type), update: feed(update, type) };
  if (withIdx) feeds.write_indices = ortIndices(writeIndices, false);
  return run(`TS|${attrs.axis}|${attrs.mode}|${type}|${withIdx}`, spec, feeds);
}

/** True when this onnxruntime-web build runs TensorScatter-24 (1.30's wasm build does). */
export async function ortHasTensorScatter() {
  try {
    const c = { data: new Float32Array(2), shape: [1, 2] };
    await ortTensorScatter(c, { data: new Float32Array([1]), shape: [1, 1] }, undefined, { axis: 1 });
    return true;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------
// TensorFlow.js, cpu backend. tfjs holds float32 and int32 only; indices are int32.

let tfReady;
/** Sets the cpu backend once. */
export function tfInit() {
  tfReady ??= tf.setBackend('cpu').then(() => tf.ready());
  return tfReady;
}

const TF_TYPES = new Map([[Float32Array, 'float32'], [Int32Array, 'int32']]);
function tfTensor(t) {
  const dtype = TF_TYPES.get(t.data.constructor);
  if (!dtype) throw new TypeError(`tfjs holds float32 and int32, not ${t.data.constructor.name}`);
  return tf.tensor(t.data.slice(), t.shape, dtype); // a copy: tf.tensor keeps the array it is given
}
const tfIndices = (t) => tf.tensor(Int32Array.from(t.data, Number), t.shape, 'int32');

// Runs fn on the tfjs tensors, reads the result and frees them all.
function tfRun(fn) {
  return tf.tidy(() => {
    const r = fn();
    return { data: r.dataSync().slice(), shape: r.shape.slice() };
  });
}

/** tf.scatterND(indices, updates, shape): a zero tensor of `shape`, duplicates summed. */
export const tfScatterND = (indices, updates, shape) =>
  tfRun(() => tf.scatterND(tfIndices(indices), tfTensor(updates), shape));

/**
 * tf.tensorScatterUpdate(tensor, indices, updates). Also returns `tensorAfter`: the input
 * tensor's values read back after the call (tfjs-cpu writes into them).
 */
export function tfTensorScatterUpdate(tensor, indices, updates) {
  return tf.tidy(() => {
    const t = tfTensor(tensor);
    const r = tf.tensorScatterUpdate(t, tfIndices(indices), tfTensor(updates));
    return { data: r.dataSync().slice(), shape: r.shape.slice(), tensorAfter: t.dataSync().slice() };
  });
}

/** tf.unsortedSegmentSum(x, segmentIds, numSegments). */
export const tfUnsortedSegmentSum = (x, segmentIds, numSegments) =>
  tfRun(() => tf.unsortedSegmentSum(tfTensor(x), tfIndices(segmentIds), numSegments));
