// wasm-gather/tfjs: TensorFlow.js's GatherV2, GatherNd, ScatterNd, TensorScatterUpdate,
// UnsortedSegmentSum, SparseSegmentSum and SparseSegmentMean kernels for its 'cpu' and 'wasm'
// backends, served by wasm-gather (UnsortedSegmentSum is new on 'wasm', which has none: with it,
// tf.gather's gradient runs there). The application passes its own tfjs-core namespace: this
// module imports nothing of TensorFlow.js (an optional peer dependency, never bundled).
//
// Semantics are TensorFlow.js's: its shape checks (called from the namespace, so its messages),
// its messages for bad indices, and where its backends are wrong the right answer or its error:
// GatherV2 with batchDims on wasm, GatherNd's, ScatterNd's and TensorScatterUpdate's unchecked or
// flattened-only index checks, TensorScatterUpdate writing into its input on cpu, and on cpu
// UnsortedSegmentSum's float32 result for int32 input and its masked sum, where one NaN or
// Infinity in x makes every segment NaN, and on wasm the sparse segment kernels' unchecked sizes
// (docs/api.md#tensorflowjs lists them).
//
// RaggedGather (tf.raggedGather) too, on both backends (tfjs-backend-wasm has none): its splits
// computed in JS, its dense values' rows copied by GatherV2's op (js/tfjs-ragged-gather.mjs).
//
// Gradients: registerKernels also registers TensorFlow's own gradients of GatherNd, ScatterNd,
// TensorScatterUpdate, SparseSegmentSum and SparseSegmentMean (tfjs-core 4.22 has none of them;
// one that tfjs has is left alone), written in tfjs ops so that they run on any backend, and
// through the adapter's kernels where it serves the backend (gradientConfigs below); for the sparse
// segment ones, TensorFlow's SparseSegmentSumGrad and SparseSegmentMeanGrad kernels, served by the
// bags' gradient op on the backends the adapter serves.
//
// Data movement: on 'cpu' the tensors' values are TypedArrays (backend.data), passed as they are
// and the result handed over without another copy; a tensor gathered from a second time (an
// embedding table) is copied into wasm-gather's memory once and freed when tfjs disposes its data.
// On 'wasm' they live in tfjs's own wasm heap, another memory than wasm-gather's: the op runs
// there, in wasm-gather's guest module (js/guest.mjs) instantiated against tfjs's memory, reading
// the tensors where they are and writing into an output made by backend.makeOutput: nothing is
// copied. Where the guest cannot run (a shared memory: tfjs's threaded build; opts.inPlace false),
// the indices are copied into wasm-gather's memory, the output out of it, and tables are cached
// as on 'cpu'.
import { resolveScatterRows } from './call.mjs';
import { addScatterPlan } from './copy-plan.mjs';
import { guestModule, createGuest, plan, run } from './guest.mjs';
import { init, upload } from './index.mjs';
import { OPS } from './ops/index.mjs';
import { getState } from './state.mjs';
import { checkOptionNames, sameShape } from './tensor.mjs';
import { raggedGatherKernel } from './tfjs-ragged-gather.mjs';

// The ops that serve tfjs kernels (their descriptors' `tfjs`), by the kernel's name; and the
// kernels served by another kernel's op: RaggedGather's dense values are rows copied by GatherV2's.
const SERVES = Object.fromEntries(OPS.flatMap((d) => (d.tfjs ?? []).map((k) => [k, d])));
SERVES.RaggedGather = SERVES.GatherV2;
// Kernels registered beside the others but not listed in what registerKernels and
// unregisterKernels return (the first seven, GatherV2 to SparseSegmentMean: a list callers
// count): TensorFlow's kernels of the sparse segment reductions' gradients, which tfjs does
// not have (for the adapter's gradients), and RaggedGather.
const UNLISTED = ['SparseSegmentSumGrad', 'SparseSegmentMeanGrad', 'RaggedGather'];
const KERNELS = Object.keys(SERVES);
const BACKENDS = ['cpu', 'wasm'];
// The dtypes each kernel serves; the others go to the kernel registered before. (Sums of bools are
// not served: tfjs adds them as numbers.)
const DTYPES = new Set(['float32', 'int32', 'bool']);
const NUMERIC = new Set(['float32', 'int32']);
const FLOAT32 = new Set(['float32']);
const ARRAY_TYPES = { float32: Float32Array, int32: Int32Array, bool: Uint8Array };
const ELEMENT_TYPES = { float32: 'F32', int32: 'I32', bool: 'U8' }; // src/record.h's names
// What a served call asks of wasm-gather: tfjs's rules (an out-of-range or negative index is an error).
const POLICY = { outOfRange: 'error', negativeIndices: 'error' };
// backend instance -> its access object (access()), made once rather than on every call.
const ios = new Map();

// tf namespace -> { entries: [{ kernelName, backendName, original }], gradients: [the gradient
// configs it registered] }
const registered = new WeakMap();
// The kernel functions registered by this module (a registry's kernel is the adapter's when its
// kernelFunc is one of them).
const ours = new WeakSet();
// backend instance -> { resident: Map dataId -> ResidentTensor, seen: WeakSet of dataIds, disposeData, own }
const caches = new Map();
const stats = { calls: {}, fallbacks: {}, uploads: 0, inPlace: 0 };
// The compiled guest module once registerKernels has loaded it for 'wasm' (null: the copying path).
let guest = null;
// backend instance -> its guest instance (js/guest.mjs: createGuest), or null where it cannot run.
const guests = new Map();

/**
 * Registers wasm-gather's kernels (KERNELS) for the given backends (default: those of 'cpu'
 * and 'wasm' that are registered with tf), after init() of wasm-gather if it is not initialised.
 * Resolves to [{ kernelName, backendName }] of what it registered (but the UNLISTED kernels).
 */
export async function registerKernels(tf, opts = {}) {
  checkNamespace(tf, 'registerKernels');
  if (opts === null || typeof opts !== 'object') throw new TypeError('registerKernels: opts must be an object');
  checkOptionNames('registerKernels', opts, ['backends', 'inPlace', 'init']);
  const backends = opts.backends ?? BACKENDS.filter((b) => tf.findBackendFactory(b) != null);
  if (!Array.isArray(backends) || backends.some((b) => !BACKENDS.includes(b))) {
    throw new TypeError(`registerKernels: opts.backends must be an array of 'cpu' and 'wasm', got ${JSON.stringify(backends)}`);
  }
  if (opts.inPlace !== undefined && typeof opts.inPlace !== 'boolean') {
    throw new TypeError(`registerKernels: opts.inPlace must be a boolean, got ${JSON.stringify(opts.inPlace)}`);
  }
  if (!getState()) await init(opts.init ?? {});
  if (backends.includes('wasm')) guest = opts.inPlace === false ? null : await guestModule();
  ios.clear(); // made again for the guest module now loaded (or none)
  let state = registered.get(tf);
  if (!state) registered.set(tf, state = { entries: [], gradients: [] });
  const done = [];
  for (const backendName of backends) {
    for (const kernelName of KERNELS) {
      if (state.entries.some((e) => e.kernelName === kernelName && e.backendName === backendName)) continue;
      const original = tf.getKernel(kernelName, backendName);
      if (original) tf.unregisterKernel(kernelName, backendName);
      const kernelFunc = KERNEL_FUNCS[kernelName](tf, backendName, original, SERVES[kernelName]);
      ours.add(kernelFunc);
      tf.registerKernel({
        kernelName,
        backendName,
        kernelFunc,
        // The original's setup (the wasm backend's cwrap of its own kernel) serves the fallback.
        setupFunc: original?.setupFunc,
        disposeFunc: (backend) => {
          freeCache(backend);
          freeGuest(backend);
          original?.disposeFunc?.(backend);
        },
      });
      state.entries.push({ kernelName, backendName, original });
      if (!UNLISTED.includes(kernelName)) done.push({ kernelName, backendName });
    }
  }
  registerGradients(tf, state);
  return done;
}

/**
 * Restores the kernels that were registered before registerKernels, removes the gradients it
 * registered, and frees the table cache.
 */
export function unregisterKernels(tf) {
  checkNamespace(tf, 'unregisterKernels');
  const state = registered.get(tf);
  if (!state) return [];
  registered.delete(tf);
  const undone = [];
  for (const { kernelName, backendName, original } of state.entries) {
    if (tf.getKernel(kernelName, backendName)) tf.unregisterKernel(kernelName, backendName);
    if (original) tf.registerKernel(original);
    if (!UNLISTED.includes(kernelName)) undone.push({ kernelName, backendName });
  }
  // The gradients it registered, where they are still the registered ones (tfjs's registry of
  // gradients is global: one registered since by someone else is theirs, and stays).
  for (const config of state.gradients) {
    if (tf.getGradient(config.kernelName) === config) tf.unregisterGradient(config.kernelName);
  }
  for (const backend of [...caches.keys()]) freeCache(backend);
  for (const backend of [...guests.keys()]) freeGuest(backend);
  guest = null;
  ios.clear();
  return undone;
}

/**
 * Counters: { calls: { 'cpu/GatherV2': n, ... } served by wasm-gather, fallbacks: { ... } handed
 * to the kernel registered before, inPlace: calls run in tfjs's wasm memory by the guest, uploads:
 * tables copied into wasm-gather's memory, cached: tables held now }.
 */
export function kernelStats() {
  let cached = 0;
  for (const c of caches.values()) cached += c.resident.size;
  return { calls: { ...stats.calls }, fallbacks: { ...stats.fallbacks }, inPlace: stats.inPlace, uploads: stats.uploads, cached };
}

function checkNamespace(tf, fn) {
  if (!tf || typeof tf.registerKernel !== 'function' || typeof tf.getKernel !== 'function') {
    throw new TypeError(`${fn}: pass the @tensorflow/tfjs-core namespace (import * as tf from '@tensorflow/tfjs-core')`);
  }
}

const count = (table, key) => { table[key] = (table[key] ?? 0) + 1; };

// Why wasm-gather does not serve this call ('dtype', 'indices', 'disposed' or 'backend', the first
// that holds), or '' when it does; otherwise the original kernel does (or an error says why not).
function unserved(backend, dtype, indices, dtypes = DTYPES) {
  if (!dtypes.has(dtype)) return 'dtype';
  if (indices.dtype !== 'int32') return 'indices';
  if (getState() === null) return 'disposed';
  if (typeof backend.typedArrayFromHeap !== 'function' && backend.data?.get === undefined) return 'backend';
  return '';
}

// Hands a call wasm-gather does not serve to the kernel registered before; where there was none
// (UnsortedSegmentSum on 'wasm'), throws saying why wasm-gather did not serve it.
function fallback(original, key, args, kernelName, backendName, dtype, indices, why, dtypes = DTYPES) {
  count(stats.fallbacks, key);
  if (!original) throw new Error(notServed(kernelName, backendName, dtype, indices, why, dtypes));
  return original.kernelFunc(args);
}

// The words of unserved()'s reason, for a call no other kernel takes.
function notServed(kernelName, backendName, dtype, indices, why, dtypes) {
  const none = `tfjs's ${backendName} backend has no ${kernelName} kernel of its own`;
  switch (why) {
    case 'dtype': return `${kernelName}: no ${backendName} kernel for dtype ${dtype}: wasm-gather serves ${[...dtypes].join(', ').replace(/, ([^,]*)$/, ' and $1')}, and ${none}`;
    case 'indices': return `${kernelName}: no ${backendName} kernel for ${indices.dtype} indices: wasm-gather serves int32 ones, and ${none}`;
    case 'disposed': return `${kernelName}: wasm-gather was disposed (dispose()), and ${none}; call init() or registerKernels(tf) again`;
    default: return `${kernelName}: wasm-gather cannot read this ${backendName} backend's tensors (it serves tfjs-backend-cpu's and tfjs-backend-wasm's), and ${none}`;
  }
}

function gatherV2Kernel(tf, backendName, original, desc) {
  const key = `${backendName}/GatherV2`;
  const { util, backend_util: bu } = tf;
  return (args) => {
    const { inputs: { x, indices }, backend, attrs: { axis, batchDims } } = args;
    const why = unserved(backend, x.dtype, indices);
    if (why) return fallback(original, key, args, 'GatherV2', backendName, x.dtype, indices, why);
    const parsedAxis = util.parseAxisParam(axis, x.shape)[0];
    const io = access(backend);
    let b = batchDims ?? 0;
    const info = bu.segment_util.collectGatherOpShapeInfo(x, indices, parsedAxis, b);
    if (b < 0) b += indices.shape.length;
    const outShape = info.outputShape;
    count(stats.calls, key);
    try {
      return io.run(desc, x, indices, outShape, { axis: parsedAxis, batchDims: b });
    } catch (e) {
      // wasm-gather's first bad index (error.index), in tfjs's words (tfjs-backend-cpu's GatherV2)
      if (!e.index) throw e;
      throw new Error(`GatherV2: the index value ${e.index.value} is not in [0, ${e.index.size - 1}]`);
    }
  };
}

function gatherNdKernel(tf, backendName, original, desc) {
  const key = `${backendName}/GatherNd`;
  const prepareAndValidate = tf.backend_util.prepareAndValidate ?? tf.gather_util.prepareAndValidate;
  return (args) => {
    const { inputs: { params, indices }, backend } = args;
    const why = unserved(backend, params.dtype, indices);
    if (why) return fallback(original, key, args, 'GatherNd', backendName, params.dtype, indices, why);
    const [resultShape, numSlices] = prepareAndValidate(params, indices);
    const io = access(backend);
    count(stats.calls, key);
    if (numSlices === 0) return io.empty(resultShape, params.dtype);
    try {
      return io.run(desc, params, indices, resultShape, {});
    } catch (e) {
      // the tuple that holds wasm-gather's first bad index, in tfjs's words (its gatherNdImpl)
      if (!e.index) throw e;
      const k = indices.shape[indices.shape.length - 1];
      const start = e.index.position - (e.index.position % k);
      throw new Error(`Invalid indices: ${Array.from(io.view(indices).subarray(start, start + k))} does not index into ${params.shape}`);
    }
  };
}

// tfjs's indices of tf.scatterND and tf.tensorScatterUpdate: [..., K] tuples, but a
// rank-1 tensor holds n tuples of one (backend_util.calculateShapes): wasm-gather's [n, 1].
const tupleShape = (indices) => (indices.shape.length === 1 ? [indices.shape[0], 1] : indices.shape);

// A bad index of those two, in tfjs's words (tfjs-backend-cpu's scatterImpl): the tuple that holds it.
function scatterIndexError(io, e, indices, shape) {
  if (!e.index) return e;
  const k = tupleShape(indices).at(-1);
  const start = e.index.position - (e.index.position % k);
  return new Error(`Invalid indices: ${Array.from(io.view(indices).subarray(start, start + k))} does not index into ${shape}`);
}

// The kernels of the scatters on index tuples (SERVES: the op behind them): ScatterNd (tf.scatterND), zeros of
// `shape` with the updates summed at their tuples, in order; TensorScatterUpdate
// (tf.tensorScatterUpdate), a new tensor, the input's values with the slices at the tuples
// replaced, in order (the last write wins; the input is not written). read(inputs, attrs): the
// data tensor (null: zeros), the output's shape and dtype.
function tupleScatterKernel(kernelName, reduce, dtypes, read) {
  return (tf, backendName, original, desc) => {
    const key = `${backendName}/${kernelName}`;
    return (args) => {
      const { inputs, backend, attrs } = args;
      const { data, shape, dtype } = read(inputs, attrs);
      const why = unserved(backend, dtype, inputs.indices, dtypes);
      if (why) return fallback(original, key, args, kernelName, backendName, dtype, inputs.indices, why, dtypes);
      const io = access(backend);
      count(stats.calls, key);
      try {
        return io.update(desc, { data, shape, dtype, indices: inputs.indices, indexShape: tupleShape(inputs.indices),
          updates: inputs.updates, opts: { reduce, ...POLICY } });
      } catch (e) {
        throw scatterIndexError(io, e, inputs.indices, shape);
      }
    };
  };
}
const scatterNdKernel = tupleScatterKernel('ScatterNd', 'add', NUMERIC,
  ({ updates }, { shape }) => ({ data: null, shape, dtype: updates.dtype }));
const tensorScatterUpdateKernel = tupleScatterKernel('TensorScatterUpdate', 'none', DTYPES,
  ({ tensor }) => ({ data: tensor, shape: tensor.shape, dtype: tensor.dtype }));

// UnsortedSegmentSum (tf.unsortedSegmentSum, and tf.gather's gradient): [numSegments,
// ...x.shape[ids.rank:]] zeros with each row of x added to the segment its id names, in order, in
// x's dtype. One pass over x, whatever numSegments. Ids out of [0, numSegments) are dropped:
// TensorFlow drops negative ones, and on GPU the ones above too (its CPU kernel throws for them);
// dropping both keeps tfjs's behaviour, whose cpu kernel drops them, and a gradient never fails.
// https://www.tensorflow.org/api_docs/python/tf/math/unsorted_segment_sum
function unsortedSegmentSumKernel(tf, backendName, original, desc) {
  const key = `${backendName}/UnsortedSegmentSum`;
  return (args) => {
    const { inputs: { x, segmentIds }, backend, attrs: { numSegments } } = args;
    const why = unserved(backend, x.dtype, segmentIds, NUMERIC);
    if (why) return fallback(original, key, args, 'UnsortedSegmentSum', backendName, x.dtype, segmentIds, why, NUMERIC);
    // tfjs-core checks only that it is an integer: a negative one is refused here, in its words
    if (numSegments < 0) throw new RangeError(`UnsortedSegmentSum: numSegments must not be negative, got ${numSegments}`);
    const io = access(backend);
    count(stats.calls, key);
    const shape = [numSegments, ...x.shape.slice(segmentIds.shape.length)];
    return io.update(desc, { data: null, shape, dtype: x.dtype, indices: segmentIds, indexShape: segmentIds.shape, updates: x,
      axis: 0, opts: { reduce: 'add', outOfRange: 'drop', negativeIndices: 'error' } });
  };
}

// SparseSegmentSum and SparseSegmentMean (tf.sparse.sparseSegmentSum / sparseSegmentMean):
// [lastId + 1, ...data.shape.slice(1)], each segment the rows of data that its indices select
// (segmentIds: sorted, one an index), summed or averaged; an empty segment is 0. As tfjs-backend-cpu's
// sparseSegmentReductionImpl computes them, which the wasm backend's kernel is replaced by too:
// float32 added in order from 0, a mean that sum divided by the count (in float64, then rounded:
// the float32 quotient); int32 summed in an Int32Array, so wrapping, a mean truncated
// (int32Segments); its checks, in its order, with its messages.
// https://github.com/tensorflow/tfjs/blob/tfjs-v4.22.0/tfjs-backend-cpu/src/kernels/SparseSegmentReduction_impl.ts
function sparseSegmentKernel(kernelName, mode) {
  return (tf, backendName, original, desc) => {
    const key = `${backendName}/${kernelName}`;
    const bu = tf.backend_util;
    return (args) => {
      const { inputs: { data, indices, segmentIds }, backend } = args;
      const index = indices.dtype === 'int32' ? segmentIds : indices; // both must be int32
      const why = unserved(backend, data.dtype, index, NUMERIC);
      if (why) return fallback(original, key, args, kernelName, backendName, data.dtype, index, why, NUMERIC);
      checkSegmentShapes(data, indices, segmentIds);
      const io = access(backend);
      const n = indices.shape[0];
      const rows = n ? io.view(segmentIds)[n - 1] + 1 : 0; // tfjs's: the last id + 1
      if (n && rows <= 0) throw new Error(bu.getSparseSegmentReductionNegativeSegmentIdsErrorMessage());
      const shape = [rows, ...data.shape.slice(1)];
      const opts = { mode, numSegments: rows };
      count(stats.calls, key);
      try {
        if (data.dtype === 'int32') return int32Segments(bu, io, desc, data, indices, segmentIds, shape, opts);
        return io.run(desc, data, indices, shape, opts, segmentIds);
      } catch (e) {
        // the op refused the segments: tfjs's first error, found as its loop finds it
        const message = sparseSegmentError(bu, io.view(indices), io.view(segmentIds), rows, data.shape[0]);
        throw message ? new Error(message) : e;
      }
    };
  };
}
const sparseSegmentSumKernel = sparseSegmentKernel('SparseSegmentSum', 'sum');
const sparseSegmentMeanKernel = sparseSegmentKernel('SparseSegmentMean', 'mean');

// SparseSegmentSumGrad and SparseSegmentMeanGrad, TensorFlow's kernels of those names (inputs
// grad, indices, segment_ids, output_dim0; here inputs { grad, indices, segmentIds } and attrs
// { outputDim0 }), which the gradients below call: the gradient of SparseSegmentSum / Mean for its
// data, [outputDim0, ...grad.shape.slice(1)] zeros with each entry's row of grad (its segment's),
// for the mean times float32(1 / the segment's count), added to the row its index names, in entry
// order: the bags' gradient op with the segment ids (float32: one fused multiply-add an element).
// float32 only (gradients are float32 in tfjs). TensorFlow's CPU kernel: SparseSegmentGradOpBase in
// https://github.com/tensorflow/tensorflow/blob/master/tensorflow/core/kernels/segment_reduction_ops_impl.h
function sparseSegmentGradKernel(kernelName, mode) {
  return (tf, backendName, original, desc) => {
    const key = `${backendName}/${kernelName}`;
    return (args) => {
      const { inputs: { grad, indices, segmentIds }, backend, attrs: { outputDim0 } } = args;
      const index = indices.dtype === 'int32' ? segmentIds : indices; // both must be int32
      const why = unserved(backend, grad.dtype, index, FLOAT32);
      if (why) return fallback(original, key, args, kernelName, backendName, grad.dtype, index, why, FLOAT32);
      if (grad.shape.length < 1) throw new Error(`${kernelName}: grad must be at least 1 dimensional, got a scalar`);
      if (indices.shape.length !== 1 || segmentIds.shape.length !== 1 || indices.shape[0] !== segmentIds.shape[0]) {
        throw new Error(`${kernelName}: indices and segmentIds must be vectors of one size, got shapes [${indices.shape}] and [${segmentIds.shape}]`);
      }
      if (!Number.isInteger(outputDim0) || outputDim0 < 0) throw new Error(`${kernelName}: outputDim0 must be a non-negative integer, got ${outputDim0}`);
      const io = access(backend);
      count(stats.calls, key);
      // grad is read once: not cached as a table is
      return io.run(desc, grad, indices, [outputDim0, ...grad.shape.slice(1)], { mode, numWeights: outputDim0 }, segmentIds, false);
    };
  };
}
const sparseSegmentSumGradKernel = sparseSegmentGradKernel('SparseSegmentSumGrad', 'sum');
const sparseSegmentMeanGradKernel = sparseSegmentGradKernel('SparseSegmentMeanGrad', 'mean');

// tfjs-backend-cpu's own checks (tfjs-core's functions check the ranks first, with their words).
function checkSegmentShapes(data, indices, segmentIds) {
  if (data.shape.length < 1) throw new Error('Data should be at least 1 dimensional but received scalar');
  if (indices.shape.length !== 1) throw new Error(`Indices should be a vector but received shape ${indices.shape}`);
  if (segmentIds.shape.length !== 1) throw new Error(`Segment ids should be a vector but received shape ${segmentIds.shape}`);
  if (indices.shape[0] !== segmentIds.shape[0]) throw new Error('segmentIds and indices should have same size.');
}

// tfjs-backend-cpu's error for these segments (sparseSegmentReductionImpl's checks in its order:
// a segment's next id, its own id, its indices, then the next segment), or '' for none.
function sparseSegmentError(bu, indices, ids, rows, dataRows) {
  for (let start = 0, end = 1; end <= ids.length; start = end++) {
    const id = ids[start];
    while (end < ids.length && ids[end] === id) end++;
    if (end < ids.length && id > ids[end]) return bu.getSparseSegmentReductionNonIncreasingSegmentIdsErrorMessage();
    if (id < 0 || id >= rows) return bu.getSparseSegmentReductionSegmentIdOutOfRangeErrorMessage(id, rows);
    for (let i = start; i < end; i++) {
      if (indices[i] < 0 || indices[i] >= dataRows) return bu.getSparseSegmentReductionIndicesOutOfRangeErrorMessage(i, indices[i], dataRows);
    }
  }
  return '';
}

// int32 data, with tfjs-backend-cpu's bits: it adds into an Int32Array (each sum wrapped to int32)
// and divides there (a mean truncated). The op has no int32: it is given the rows the indices
// select (checked first), in their order, as their 16-bit halves (each int32 two uint16s, little
// end first, as typed arrays hold them here) in float64, whose sums are exact for any number of
// indices; joined modulo 2^32 they are what the wrapped additions give (a high half read unsigned
// differs by 2^16, which vanishes there). The rows are copied, not the table: what tfjs reads.
function int32Segments(bu, io, desc, data, indices, segmentIds, shape, opts) {
  const v = io.view(data), idx = io.view(indices), ids = io.view(segmentIds);
  const error = sparseSegmentError(bu, idx, ids, shape[0], data.shape[0]);
  if (error) throw new Error(error);
  const inner = sizeOf(shape.slice(1)), n = idx.length;
  const halves = new Float64Array(2 * n * inner), u16 = new Uint16Array(v.buffer, v.byteOffset, 2 * v.length);
  for (let i = 0; i < n; i++) halves.set(u16.subarray(2 * idx[i] * inner, 2 * (idx[i] + 1) * inner), 2 * i * inner);
  const { data: sums } = desc.fn({ data: halves, shape: [n, 2 * inner] }, { data: Int32Array.from(idx, (_, i) => i), shape: [n] },
    { ...opts, mode: 'sum', segmentIds: { data: ids, shape: [n] }, ...POLICY });
  const out = new Int32Array(sizeOf(shape)); // its stores wrap, as tfjs's output's do
  for (let q = 0; q < out.length; q++) out[q] = (sums[2 * q + 1] % 65536) * 65536 + sums[2 * q];
  if (opts.mode === 'mean') {
    for (let i = 0, end; i < n; i = end) {
      for (end = i + 1; end < n && ids[end] === ids[i];) end++;
      for (let q = ids[i] * inner; q < (ids[i] + 1) * inner; q++) out[q] /= end - i;
    }
  }
  return io.fromValues(shape, 'int32', out);
}

// Each kernel wasm-gather serves, by its name (SERVES: the op behind it).
const KERNEL_FUNCS = {
  GatherV2: gatherV2Kernel, GatherNd: gatherNdKernel, ScatterNd: scatterNdKernel,
  TensorScatterUpdate: tensorScatterUpdateKernel, UnsortedSegmentSum: unsortedSegmentSumKernel,
  SparseSegmentSum: sparseSegmentSumKernel, SparseSegmentMean: sparseSegmentMeanKernel,
  SparseSegmentSumGrad: sparseSegmentSumGradKernel, SparseSegmentMeanGrad: sparseSegmentMeanGradKernel,
  RaggedGather: raggedGatherKernel({ access, unserved, fallback, served: (key) => count(stats.calls, key) }),
};

// Whether the kernel registered for kernelName on the current backend is the adapter's and can
// serve (wasm-gather not disposed).
function served(tf, kernelName) {
  const k = tf.getKernel(kernelName, tf.getBackend());
  return k != null && ours.has(k.kernelFunc) && getState() !== null;
}

// TensorFlow's gradients of the kernels the adapter serves that tfjs has none for, written in tfjs
// ops (so they run on any backend; on the adapter's, through its kernels, in tfjs's memory on wasm).
// An integer input's gradient is zeros, as tfjs's OneHot gradient gives it (TensorFlow's None).
// https://github.com/tensorflow/tensorflow/blob/master/tensorflow/python/ops/array_grad.py
// (_GatherNdGrad, _ScatterNdGrad, _TensorScatterUpdateGrad) and tensorflow/python/ops/math_grad.py
// (_SparseSegmentSumGrad, _SparseSegmentMeanGrad).
function gradientConfigs(tf) {
  const noGrad = (t) => () => tf.zeros(t.shape, 'float32');
  // tfjs's rank-1 indices of tf.scatterND and tf.tensorScatterUpdate are n tuples of one (as the
  // kernels above read them: tupleShape), where tf.gatherND reads one tuple of n: given to it as [n, 1].
  const tuples = (indices) => (indices.shape.length === 1 ? tf.reshape(indices, [indices.shape[0], 1]) : indices);
  // tf.gatherND(dy, tuples): the rows of dy at the tuples, the updates' shape (an empty one as
  // zeros: tf.gatherND refuses an empty dy, even for no tuples).
  const gatherRows = (dy, indices) => {
    const t = tuples(indices);
    const shape = [...t.shape.slice(0, -1), ...dy.shape.slice(t.shape.at(-1))];
    return sizeOf(shape) === 0 || dy.size === 0 ? tf.zeros(shape, 'float32') : tf.gatherND(dy, t);
  };
  // The sparse segment reductions' gradient for their data: the kernel above where the adapter
  // serves this backend; elsewhere the same in tfjs ops (TensorFlow's graph before its fused kernel:
  // the rows of dy at the ids, scaled by 1 / max(count, 1) for the mean, summed into the rows the
  // indices name; the mean's product rounded apart from the sum).
  const segmentGrad = (mode, dy, indices, segmentIds, outputDim0) => {
    const kernelName = mode === 'sum' ? 'SparseSegmentSumGrad' : 'SparseSegmentMeanGrad';
    if (dy.dtype === 'float32' && served(tf, kernelName)) {
      return tf.engine().runKernel(kernelName, { grad: dy, indices, segmentIds }, { outputDim0 });
    }
    // (tfjs-backend-cpu's UnsortedSegmentSum fails on no ids at all)
    if (segmentIds.shape[0] === 0) return tf.zeros([outputDim0, ...dy.shape.slice(1)], 'float32');
    let rows = tf.gather(tf.cast(dy, 'float32'), segmentIds);
    if (mode === 'mean') {
      const counts = tf.unsortedSegmentSum(tf.ones(segmentIds.shape, 'float32'), segmentIds, dy.shape[0]);
      const scale = tf.gather(tf.div(1, tf.maximum(counts, 1)), segmentIds);
      rows = tf.mul(rows, tf.reshape(scale, [segmentIds.shape[0], ...dy.shape.slice(1).map(() => 1)]));
    }
    return tf.unsortedSegmentSum(rows, indices, outputDim0);
  };
  return [
    {
      // tf.scatterND of dy into the params' shape: repeated tuples add up (ScatterNd adds)
      kernelName: 'GatherNd',
      inputsToSave: ['params', 'indices'],
      gradFunc: (dy, [params, indices]) => ({
        params: () => {
          // one tuple of K (tf.gatherND's rank-1 indices): tf.scatterND would read K tuples of one
          if (indices.shape.length > 1) return tf.scatterND(indices, dy, params.shape);
          return tf.scatterND(tf.reshape(indices, [1, indices.shape[0]]), tf.reshape(dy, [1, ...dy.shape]), params.shape);
        },
        indices: noGrad(indices),
      }),
    },
    {
      kernelName: 'ScatterNd',
      inputsToSave: ['indices'],
      gradFunc: (dy, [indices]) => ({ updates: () => gatherRows(dy, indices), indices: noGrad(indices) }),
    },
    {
      // for the tensor: dy with the updated positions zeroed; for the updates: dy at them
      kernelName: 'TensorScatterUpdate',
      inputsToSave: ['indices'],
      gradFunc: (dy, [indices]) => ({
        tensor: () => {
          const t = tuples(indices);
          const updateShape = [...t.shape.slice(0, -1), ...dy.shape.slice(t.shape.at(-1))];
          // The adapter's kernel makes a new tensor; tfjs-backend-cpu's writes into its input (dy,
          // which the updates' gradient still reads): there, dy where no update lands, else 0.
          if (served(tf, 'TensorScatterUpdate')) return tf.tensorScatterUpdate(dy, indices, tf.zeros(updateShape, dy.dtype));
          const hit = tf.scatterND(indices, tf.ones(updateShape, 'float32'), dy.shape);
          return tf.where(tf.cast(hit, 'bool'), tf.zerosLike(dy), dy);
        },
        indices: noGrad(indices),
        updates: () => gatherRows(dy, indices),
      }),
    },
    ...[['SparseSegmentSum', 'sum'], ['SparseSegmentMean', 'mean']].map(([kernelName, mode]) => ({
      kernelName,
      inputsToSave: ['data', 'indices', 'segmentIds'],
      gradFunc: (dy, [data, indices, segmentIds]) => ({
        data: () => segmentGrad(mode, dy, indices, segmentIds, data.shape[0]),
        indices: noGrad(indices),
        segmentIds: noGrad(segmentIds),
      }),
    })),
  ];
}

// Registers the gradients of gradientConfigs that tf has none of (tfjs-core 4.22 has none of
// them), once per namespace; they are recorded in state.gradients for unregisterKernels. Where tf
// cannot register and remove gradients (a namespace without registerGradient, getGradient and
// unregisterGradient), it registers none.
function registerGradients(tf, state) {
  if (![tf.registerGradient, tf.getGradient, tf.unregisterGradient].every((f) => typeof f === 'function')) return;
  for (const config of gradientConfigs(tf)) {
    if (state.gradients.some((g) => g.kernelName === config.kernelName) || tf.getGradient(config.kernelName)) continue;
    tf.registerGradient(config);
    state.gradients.push(config);
  }
}

// The call of the public function (desc.fn) of one of the scatters: data, the index (after an
// axis, spec.axis, for the op that takes one), the updates, the options.
const callScatter = (desc, spec, data, indices, updates, opts) =>
  (spec.axis === undefined ? desc.fn(data, indices, updates, opts) : desc.fn(data, spec.axis, indices, updates, opts));
const sizeOf = (shape) => shape.reduce((a, b) => a * b, 1);

// How a backend's tensors are read and its outputs made, and an op run on them: run(desc, x,
// indices, outShape, opts, segmentIds?, cache?) with desc the op's descriptor (js/ops/), opts its
// options (axis, batchDims; mode, numSegments, numWeights), segmentIds a tensor of segment ids,
// read where it is run, cache false for an x read once (a gradient: never copied into
// wasm-gather's memory to be kept, as a table read a second time is).
function access(backend) {
  let io = ios.get(backend);
  if (!io) {
    const g = typeof backend.typedArrayFromHeap === 'function' ? guestFor(backend) : undefined;
    io = g === undefined ? cpuAccess(backend) : g ? inPlaceAccess(backend, g) : wasmAccess(backend);
    ios.set(backend, io);
  }
  return io;
}

const indexTensor = (io, indices) => ({ data: io.view(indices), shape: indices.shape });
// The option of the segment ids, when a call has them.
const segmentOpts = (io, ids) => (ids ? { segmentIds: indexTensor(io, ids) } : {});

function cpuAccess(backend) {
  const io = {
    view: (t) => backend.data.get(t.dataId).values,
    empty: (shape, dtype) => backend.makeTensorInfo(shape, dtype, new ARRAY_TYPES[dtype](0)),
    fromValues: (shape, dtype, values) => backend.makeTensorInfo(shape, dtype, values),
    run(desc, x, indices, outShape, attrs, ids, cache = true) {
      const values = backend.data.get(x.dataId).values;
      if (!(values instanceof ARRAY_TYPES[x.dtype])) throw new TypeError(`wasm-gather/tfjs: ${x.dtype} values stored as ${values?.constructor?.name}`);
      const table = cache ? tableFor(backend, x, values) : { data: values, shape: x.shape };
      const { data } = desc.fn(table, indexTensor(io, indices), { ...attrs, ...segmentOpts(io, ids), ...POLICY });
      return backend.makeTensorInfo(outShape, x.dtype, data); // wasm-gather's fresh array, not copied again
    },
    // spec: { data (a tensor, or null: zeros), shape, dtype, indices, indexShape, updates, axis?, opts }
    update(desc, spec) {
      const updates = { data: io.view(spec.updates), shape: spec.updates.shape };
      const indices = { data: io.view(spec.indices), shape: spec.indexShape };
      let out;
      if (spec.data) { // a new array (the input's values are only read)
        out = callScatter(desc, spec, { data: io.view(spec.data), shape: spec.shape }, indices, updates, spec.opts).data;
      } else {
        // Zeros with the update rows added: C resolves each row's destination (every index checked
        // with the op's rules), JS adds the rows into a new array of zeros (js/copy-plan.mjs:
        // addScatterPlan, the C kernels' bits). Only the rows written are touched: tfjs's own
        // output, a new array too, maps its pages of zeros as they are first written, and copying
        // 62.5 MiB of zeros into wasm memory and out again cost more than the whole stock kernel
        // (tf.scatterND of 4096 rows into [32000, 512]).
        out = new ARRAY_TYPES[spec.dtype](sizeOf(spec.shape));
        const zeros = { data: out, shape: spec.shape };
        if (!out.length || !updates.data.length) { // nothing to add (the op still checks the indices)
          callScatter(desc, spec, zeros, indices, updates, { ...spec.opts, out });
        } else {
          const opts = { ...spec.opts, reduce: 'none' }; // the same destinations, resolved only
          const args = spec.axis === undefined ? [zeros, indices, updates, opts] : [zeros, spec.axis, indices, updates, opts];
          resolveScatterRows(getState(), desc, args, (rows, n) => addScatterPlan(rows, n, updates.data, out, updates.data.length / n));
        }
      }
      return backend.makeTensorInfo(spec.shape, spec.dtype, out);
    },
  };
  return io;
}

// tfjs's wasm backend without the guest: its heap seen through views, copied in and out.
function wasmAccess(backend) {
  const io = {
    view: (t) => backend.typedArrayFromHeap(t), // a view of tfjs's heap: valid until it grows
    empty: (shape, dtype) => backend.makeOutput(shape, dtype),
    fromValues(shape, dtype, values) {
      const out = backend.makeOutput(shape, dtype);
      io.view(out).set(values);
      return out;
    },
    run(desc, x, indices, outShape, attrs, ids, cache = true) {
      const out = backend.makeOutput(outShape, x.dtype); // may grow tfjs's heap: views are made after
      try {
        const table = cache ? tableFor(backend, x, io.view(x)) : { data: io.view(x), shape: x.shape };
        desc.fn(table, indexTensor(io, indices), { ...attrs, ...segmentOpts(io, ids), ...POLICY, out: io.view(out) });
      } catch (e) {
        backend.disposeData(out.dataId);
        throw e;
      }
      return out;
    },
    update(desc, spec) {
      const out = backend.makeOutput(spec.shape, spec.dtype); // may grow tfjs's heap: views are made after
      try {
        const o = io.view(out);
        if (!spec.data) o.fill(0);
        const data = { data: spec.data ? io.view(spec.data) : o, shape: spec.shape };
        callScatter(desc, spec, data, { data: io.view(spec.indices), shape: spec.indexShape },
          { data: io.view(spec.updates), shape: spec.updates.shape }, { ...spec.opts, out: o });
      } catch (e) {
        backend.disposeData(out.dataId);
        throw e;
      }
      return out;
    },
  };
  return io;
}

// tfjs's wasm backend with the guest: the op runs in tfjs's memory, on the tensors' own bytes.
function inPlaceAccess(backend, g) {
  // A tensor's address in tfjs's heap; an empty one's may be anything, so it gets one that is
  // valid and never touched (the C API takes no NULL tensor).
  const address = (t) => (t.shape.includes(0) ? g.stack.low : backend.dataIdMap.get(t.dataId).memoryOffset);
  // The tensors as js/tensor.mjs describes resident ones, at their addresses in tfjs's heap.
  const tensorAt = (t) => ({ shape: t.shape, dtype: ELEMENT_TYPES[t.dtype], ptr: address(t) });
  const indexAt = (t, shape) => ({ shape, kind: 'I32', dtype: 'I32', ptr: address(t), Type: Int32Array, length: sizeOf(shape) });
  // Plans the call, checks it makes tfjs's shape, and runs it into out (disposed if it fails).
  const runInto = (call, outShape, out) => {
    try {
      const shape = plan(g, call);
      if (!sameShape(shape, outShape)) throw new Error(`wasm-gather/tfjs: internal error: output [${shape}] where tfjs makes [${outShape}]`);
      run(g, call, address(out));
    } catch (e) {
      backend.disposeData(out.dataId);
      throw e;
    }
    stats.inPlace++;
    return out;
  };
  const io = wasmAccess(backend);
  io.run = (desc, x, indices, outShape, opts, ids) => {
    // x: the op's data, or, for an op without one (the bags' gradient), its updates (the gradient rows)
    const tensors = { [desc.tensors.data ? 'data' : 'updates']: tensorAt(x), indices: indexAt(indices, indices.shape) };
    if (ids) { // the segments, as the descriptor's read() gives them from opts.segmentIds
      tensors.segments = { ...indexAt(ids, ids.shape), name: 'opts.segmentIds' };
      tensors.form = 'IDS';
    }
    const call = { desc, tensors, attrs: desc.attrs(opts, tensors, g, []).attrs, mode: POLICY.outOfRange,
      negative: POLICY.negativeIndices };
    return runInto(call, outShape, backend.makeOutput(outShape, x.dtype)); // may grow tfjs's heap: addresses stay
  };
  io.update = (desc, spec) => {
    const out = backend.makeOutput(spec.shape, spec.dtype);
    if (!spec.data) io.view(out).fill(0); // the zeros, updated where they are
    const tensors = {
      data: spec.data ? tensorAt(spec.data) : { shape: spec.shape, dtype: ELEMENT_TYPES[spec.dtype], ptr: address(out) },
      indices: indexAt(spec.indices, spec.indexShape),
      updates: tensorAt(spec.updates),
    };
    const call = { desc, tensors, attrs: desc.attrs(spec.opts, tensors, g, [null, spec.axis]).attrs,
      mode: spec.opts.outOfRange, negative: spec.opts.negativeIndices };
    return runInto(call, spec.shape, out);
  };
  return io;
}

// The backend's guest: made on its first call (tfjs's memory is known only then), or null where
// it cannot run (no guest loaded, a shared memory, no malloc): then the copying path serves it.
function guestFor(backend) {
  if (!guest) return null;
  let g = guests.get(backend);
  if (g !== undefined) return g;
  g = null;
  const memory = tfjsMemory(backend);
  const { _malloc: malloc, _free: free } = backend.wasm ?? {};
  if (memory && typeof malloc === 'function' && typeof free === 'function') {
    try {
      g = createGuest(guest, { memory, malloc, free });
    } catch {
      g = null; // e.g. a LinkError: the guest imports a non-shared memory
    }
  }
  guests.set(backend, g);
  return g;
}

// tfjs-backend-wasm's WebAssembly.Memory: an export of its module (Emscripten's Module.asm, or
// wasmExports in newer builds), checked to be the memory its tensors are read from.
function tfjsMemory(backend) {
  const exports = backend.wasm?.asm ?? backend.wasm?.wasmExports ?? {};
  const memory = Object.values(exports).find((v) => v instanceof WebAssembly.Memory);
  return memory && backend.wasm.HEAPU8?.buffer === memory.buffer ? memory : null;
}

function freeGuest(backend) {
  const g = guests.get(backend);
  guests.delete(backend);
  ios.delete(backend); // its access object used that guest
  g?.dispose();
}

// The table cache: the data of a tensor gathered from a second time is uploaded into
// wasm-gather's memory and kept until tfjs disposes the data (backend.disposeData, wrapped).
function cacheOf(backend) {
  let c = caches.get(backend);
  if (!c) {
    const store = backend.dataIdMap ?? backend.data;
    const own = Object.prototype.hasOwnProperty.call(backend, 'disposeData');
    const disposeData = backend.disposeData;
    c = { resident: new Map(), seen: new WeakSet(), disposeData, own };
    backend.disposeData = function wasmGatherDisposeData(dataId, force) {
      const result = disposeData.call(this, dataId, force);
      if (!store.has(dataId)) drop(c, dataId);
      return result;
    };
    caches.set(backend, c);
  }
  return c;
}

function drop(c, dataId) {
  const r = c.resident.get(dataId);
  if (r) {
    c.resident.delete(dataId);
    r.dispose();
  }
}

// Frees a backend's cached tables and gives its disposeData back.
function freeCache(backend) {
  const c = caches.get(backend);
  if (!c) return;
  caches.delete(backend);
  for (const r of c.resident.values()) r.dispose();
  c.resident.clear();
  if (c.own) backend.disposeData = c.disposeData;
  else delete backend.disposeData;
}

// What to read from: the cached resident copy of x, a new one on x's second use, or x's values.
function tableFor(backend, x, values) {
  const c = cacheOf(backend);
  const r = c.resident.get(x.dataId);
  if (r && !r.disposed && r.arrayType === values.constructor && sameShape(r.shape, x.shape)) return r;
  if (r) drop(c, x.dataId); // its module was disposed, or the data is seen through another shape
  if (!c.seen.has(x.dataId)) {
    c.seen.add(x.dataId);
    return { data: values, shape: x.shape };
  }
  const resident = upload({ data: values, shape: x.shape });
  stats.uploads++;
  c.resident.set(x.dataId, resident);
  return resident;
}


