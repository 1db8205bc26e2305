// wasm-gather: gather, gatherND and take on { data: TypedArray, shape: number[] } tensors.
// This file owns the module's state and marshals each call: validate, copy the inputs into one
// wasm allocation, run the C op, copy the result out, free (on every path, errors included).
import { TEST_HOOKS, load, warnOnce } from './loader.mjs';
import { STATUS, statusError } from './errors.mjs';
import { ResidentTensor } from './resident.mjs';
import {
  MAX_RANK, commonOptions, dataTensor, indexTensor, integerArg, outputTarget,
} from './tensor.mjs';

export { ResidentTensor };

let state = null; // { m, memory, pool, scratch, info, requestedThreads, lastCallBytes, closed }
let pending = null; // the init() in flight: { promise, variant, threads } as it was asked

// Layout of the per-module scratch block (one malloc at init): three shapes of MAX_RANK size_t
// (uint32 on wasm32), the output rank, and a wg_error_info (five int64).
const SHAPE_BYTES = MAX_RANK * 4;
const SCRATCH = { dataShape: 0, indexShape: SHAPE_BYTES, outShape: 2 * SHAPE_BYTES, outRank: 3 * SHAPE_BYTES,
  err: 3 * SHAPE_BYTES + 8, pool: 3 * SHAPE_BYTES + 48, size: 3 * SHAPE_BYTES + 64 };
const MAX_CALL_BYTES = 2 ** 32 - 2 ** 16; // what one wasm32 malloc can possibly return

/**
 * Loads the wasm module. opts: { variant?: 'simd-threaded'|'simd', threads?: number,
 * wasm?: WebAssembly.Module | BufferSource | URL | string, parallelThreshold?: number }.
 * Resolves to { variant, threads, simd }, threads being what the pool really has.
 */
export function init(opts = {}) {
  // Checked before anything loads: an error after load() would leave a module and its threads behind.
  if (opts === null || typeof opts !== 'object') return Promise.reject(new TypeError('init: opts must be an object'));
  const t = opts.parallelThreshold;
  if (t !== undefined && !(Number.isInteger(t) && t >= 0)) {
    return Promise.reject(new RangeError(`init: opts.parallelThreshold must be a non-negative integer (bytes), got ${t}`));
  }
  if (state) {
    if (!sameOptions(opts, { variant: state.info.variant, threads: state.requestedThreads })) {
      return Promise.reject(new Error(`init: already initialized as ${state.info.variant} with ` +
        `${state.info.threads} thread(s); call dispose() before init() with other options`));
    }
    return Promise.resolve({ ...state.info });
  }
  if (pending && !sameOptions(opts, pending)) {
    // Other options while one loads: answered as if called right after it, loaded or failed.
    const after = () => init(opts);
    return pending.promise.then(after, after);
  }
  if (!pending) {
    pending = { promise: start(opts).finally(() => { pending = null; }), variant: opts.variant, threads: opts.threads };
  }
  return pending.promise.then((info) => ({ ...info }));
}

// Whether init(opts) asks for nothing other than `other` ({ variant, threads }) has.
const sameOptions = (opts, other) => (opts.variant === undefined || opts.variant === other.variant) &&
  (opts.threads === undefined || opts.threads === other.threads);

async function start(opts) {
  const { module: m, memory, variant, threads } = await load(opts);
  opts[TEST_HOOKS]?.loaded?.(m); // test-only (tests/init.test.mjs): makes what follows fail
  const s = { m, memory, pool: 0, scratch: 0, requestedThreads: opts.threads, lastCallBytes: 0, closed: false };
  try {
    s.info = { variant, threads: createPool(s, threads, opts.parallelThreshold), simd: true };
  } catch (e) {
    release(s); // nothing of a half-started module may stay: memory, pool, workers
    throw e;
  }
  if (s.info.threads < threads) {
    warnOnce(`wasm-gather: init: running on ${s.info.threads} thread(s) instead of ${threads}: only ` +
      `${s.info.threads - 1} of the ${threads - 1} worker threads could be started`);
  }
  state = s;
  return s.info;
}

// Allocates the scratch block and the pool into s; returns the threads the pool really has
// (pthread_create may fail past the preloaded workers, and the pool keeps what it got).
function createPool(s, threads, parallelThreshold) {
  const { m, memory } = s;
  s.scratch = m._malloc(SCRATCH.size);
  if (!s.scratch) throw new Error('init: out of wasm memory');
  const status = m._wg_pool_create(threads, s.scratch + SCRATCH.pool);
  if (status !== 0) {
    const why = status === STATUS.OUT_OF_MEMORY ? 'its memory, mutex or condition variable could not be had' : `status ${status}`;
    throw new Error(`init: could not create a pool of ${threads} threads (${why})`);
  }
  s.pool = new Uint32Array(memory.buffer, s.scratch + SCRATCH.pool, 1)[0];
  if (parallelThreshold !== undefined) m._wg_pool_set_parallel_threshold(s.pool, Math.min(parallelThreshold, 0xffffffff));
  return m._wg_pool_threads(s.pool);
}

// Frees a module's pool, scratch block and worker threads (the workers also when the rest throws).
function release({ m, pool, scratch }) {
  try {
    m._wg_pool_destroy(pool);
    m._free(scratch);
  } finally {
    if (m.wgTerminateThreads) m.wgTerminateThreads();
  }
}

/** Frees the module, its memory and its worker threads. init() may be called again after. */
export function dispose() {
  if (!state) return;
  const s = state;
  state = null;
  s.closed = true; // its resident tensors are gone with its memory
  release(s);
}

/**
 * Bytes of wasm heap in use, the size of wasm memory, and the bytes the last op allocated on top
 * of heapInUse while it ran (its peak: inputs and output, each rounded up to 16 bytes).
 */
export function heapStats() {
  const s = ready('heapStats');
  return { heapInUse: s.m._wg_heap_in_use() >>> 0, memoryBytes: s.memory.buffer.byteLength, lastCallBytes: s.lastCallBytes };
}

/**
 * Copies a tensor into wasm memory once and returns a ResidentTensor, usable wherever the ops
 * take a tensor (data or indices) without being copied again. Free it with dispose(); one
 * that is garbage collected is freed too.
 */
export function upload(tensor) {
  const op = 'upload';
  const s = ready(op);
  if (tensor instanceof ResidentTensor) throw new TypeError(`${op}: tensor is already resident`);
  const t = dataTensor(op, 'tensor', tensor, s);
  const ptr = allocate(s, t.bytes);
  if (!ptr) throw new RangeError(`${op}: the tensor needs ${t.bytes} bytes, more than wasm memory can hold now`);
  if (t.bytes) new Uint8Array(s.memory.buffer, ptr, t.bytes).set(new Uint8Array(t.data.buffer, t.data.byteOffset, t.bytes));
  return new ResidentTensor(s, ptr, t.Type, t.shape);
}

// malloc of at least one byte (so that an empty tensor still has its own address), or 0.
function allocate(s, bytes) {
  return bytes > MAX_CALL_BYTES ? 0 : s.m._malloc(Math.max(bytes, 1)) >>> 0;
}

function ready(op) {
  if (!state) throw new Error(`${op}: wasm-gather is not initialized; call 'await init()' first`);
  return state;
}

const align16 = (n) => Math.ceil(n / 16) * 16;

// Runs one op. spec: { op, names, data, index, target, shapeFn(p), execFn(p) } where data and
// index are descriptors from tensor.mjs, target says where the output goes (outputTarget), and p
// holds the wasm addresses of the shapes, tensors, output and error record. Whatever is not
// resident yet (data, indices, output) gets one transient allocation, freed on every path.
function run(s, spec) {
  const { m, memory, scratch } = s;
  const { op, data, index } = spec;
  const p = {
    dataShape: scratch + SCRATCH.dataShape, indexShape: scratch + SCRATCH.indexShape,
    outShape: scratch + SCRATCH.outShape, outRank: scratch + SCRATCH.outRank, err: scratch + SCRATCH.err,
  };
  let buffer = memory.buffer;
  new Uint32Array(buffer, p.dataShape, data.shape.length).set(data.shape);
  new Uint32Array(buffer, p.indexShape, index.shape.length).set(index.shape);
  const fail = (status) => {
    const e = new BigInt64Array(memory.buffer, p.err, 5);
    const err = { arg: Number(e[0]), dim: Number(e[1]), value: Number(e[2]), limit: Number(e[3]), position: Number(e[4]) };
    return statusError(status, err, { op, names: spec.names, dataShape: data.shape, indexShape: index.shape, indexData: index.values(memory.buffer) });
  };
  let status = spec.shapeFn(p);
  if (status !== 0) throw fail(status);
  buffer = memory.buffer;
  const outRank = new Uint32Array(buffer, p.outRank, 1)[0];
  const outShape = Array.from(new Uint32Array(buffer, p.outShape, outRank));
  const Type = data.Type;
  const outLength = outShape.reduce((a, b) => a * b, 1);
  const outBytes = outLength * Type.BYTES_PER_ELEMENT;
  // The transient block: each part that is not resident, rounded up to 16 bytes.
  const dataPart = data.ptr === undefined ? align16(data.bytes) : 0;
  const indexPart = index.ptr === undefined ? align16(index.bytes) : 0;
  const total = dataPart + indexPart + align16(outBytes);
  if (total > MAX_CALL_BYTES) { // checked before anything is allocated
    throw new RangeError(`${op}: the output [${outShape.join(', ')}] with the inputs needs ${total} bytes, more than wasm memory can hold (4 GiB)`);
  }
  const target = outputTarget(op, spec.opts, Type, outShape, s, [data, index]);
  // The output is part of the transient block unless it is resident (in place, or a new one).
  const outPart = target.kind === 'new' || target.kind === 'array' ? align16(outBytes) : 0;
  s.lastCallBytes = total - (target.kind === 'in-place' ? align16(outBytes) : 0);
  // Allocated whenever some part lives in it, even of 0 bytes: the C API takes no NULL tensors.
  const needsBase = data.ptr === undefined || index.ptr === undefined || target.kind === 'new' || target.kind === 'array';
  const base = needsBase ? allocate(s, dataPart + indexPart + outPart) : 0;
  // A new resident output is a block of its own, which outlives the call.
  const outPtr = target.kind === 'in-place' ? target.ptr
    : target.kind === 'resident' ? allocate(s, outBytes) : base + dataPart + indexPart;
  if ((needsBase && !base) || !outPtr) {
    if (base) m._free(base);
    if (outPtr && target.kind === 'resident') m._free(outPtr);
    throw new RangeError(`${op}: the output [${outShape.join(', ')}] with the inputs needs ${total} bytes, more than wasm memory can hold now`);
  }
  let result;
  try {
    p.data = data.ptr ?? base;
    p.index = index.ptr ?? base + dataPart;
    p.out = outPtr;
    buffer = memory.buffer; // fresh: malloc may have grown memory
    if (dataPart) new Uint8Array(buffer, p.data, data.bytes).set(new Uint8Array(data.data.buffer, data.data.byteOffset, data.bytes));
    if (indexPart) index.write(buffer, p.index);
    status = spec.execFn(p);
    if (status !== 0) throw fail(status);
    // One copy out: slice() allocates and copies in one pass (no zero-filling first).
    const view = new Type(memory.buffer, outPtr, outLength);
    if (target.kind === 'new') {
      result = { data: view.slice(), shape: outShape };
    } else if (target.kind === 'array') {
      target.array.set(view);
      result = { data: target.array, shape: outShape };
    } else {
      result = target.kind === 'resident' ? new ResidentTensor(s, outPtr, Type, outShape) : spec.opts.out;
    }
  } finally {
    if (base) m._free(base);
    if (!result && target.kind === 'resident') m._free(outPtr);
  }
  return result;
}

/**
 * torch.gather: out[i][j][k] = input[i][index[i][j][k]][k] for dim 1, and so on.
 * opts: { outOfRange?: 'error'|'zero'|'clamp', out?, resident? }
 */
export function gather(input, dim, index, opts) {
  const op = 'gather';
  const s = ready(op);
  const data = dataTensor(op, 'input', input, s);
  const idx = indexTensor(op, 'index', index, s);
  if (dim === undefined) throw new TypeError(`${op}: dim is required (the axis to gather along)`);
  dim = integerArg(op, 'dim', dim);
  const { opts: o, mode } = commonOptions(op, opts);
  const { m, pool } = s;
  const elem = data.Type.BYTES_PER_ELEMENT;
  return run(s, {
    op, names: { data: 'input', indices: 'index', axis: 'dim' }, data, index: idx, opts: o,
    shapeFn: (p) => m._wg_gather_shape(p.dataShape, data.shape.length, p.indexShape, idx.shape.length, dim, p.outShape, p.outRank, p.err),
    execFn: (p) => m._wg_gather(pool, p.data, p.dataShape, data.shape.length, dim, p.index, idx.type, p.indexShape,
      idx.shape.length, elem, mode, p.out, p.err),
  });
}

/**
 * tf.gather_nd: output = indices.shape[:-1] + params.shape[batchDims + indices.shape[-1]:].
 * opts: { batchDims?: number, outOfRange?, out?, resident? }
 */
export function gatherND(params, indices, opts) {
  const op = 'gatherND';
  const s = ready(op);
  const data = dataTensor(op, 'params', params, s);
  const idx = indexTensor(op, 'indices', indices, s);
  const { opts: o, mode } = commonOptions(op, opts);
  const batchDims = integerArg(op, 'opts.batchDims', o.batchDims, 0);
  const { m, pool } = s;
  const elem = data.Type.BYTES_PER_ELEMENT;
  return run(s, {
    op, names: { data: 'params', indices: 'indices', axis: 'axis' }, data, index: idx, opts: o,
    shapeFn: (p) => m._wg_gather_nd_shape(p.dataShape, data.shape.length, p.indexShape, idx.shape.length, batchDims, p.outShape, p.outRank, p.err),
    execFn: (p) => m._wg_gather_nd(pool, p.data, p.dataShape, data.shape.length, p.index, idx.type, p.indexShape,
      idx.shape.length, batchDims, elem, mode, p.out, p.err),
  });
}

/**
 * tf.gather: output = params.shape[:axis] + indices.shape[batchDims:] + params.shape[axis+1:].
 * opts: { axis?: number, batchDims?: number, outOfRange?, out?, resident? }
 */
export function take(params, indices, opts) {
  const op = 'take';
  const s = ready(op);
  const data = dataTensor(op, 'params', params, s);
  const idx = indexTensor(op, 'indices', indices, s);
  const { opts: o, mode } = commonOptions(op, opts);
  const axis = integerArg(op, 'opts.axis', o.axis, 0);
  const batchDims = integerArg(op, 'opts.batchDims', o.batchDims, 0);
  const { m, pool } = s;
  const elem = data.Type.BYTES_PER_ELEMENT;
  return run(s, {
    op, names: { data: 'params', indices: 'indices', axis: 'axis' }, data, index: idx, opts: o,
    shapeFn: (p) => m._wg_take_shape(p.dataShape, data.shape.length, p.indexShape, idx.shape.length, axis, batchDims, p.outShape, p.outRank, p.err),
    execFn: (p) => m._wg_take(pool, p.data, p.dataShape, data.shape.length, p.index, idx.type, p.indexShape,
      idx.shape.length, axis, batchDims, elem, mode, p.out, p.err),
  });
}

