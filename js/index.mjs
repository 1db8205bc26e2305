// wasm-gather: gather, gatherND and take on { data: TypedArray, shape: number[] } tensors.
// This file owns the module's state and marshals each call: validate, copy the inputs into one
// wasm allocation, run the C op, copy the result out, free (on every path, errors included).
import { load } from './loader.mjs';
import { statusError } from './errors.mjs';
import {
  MAX_RANK, commonOptions, dataTensor, indexTensor, integerArg, outputArray,
} from './tensor.mjs';

let state = null; // { m, memory, pool, scratch, info }
let pending = null; // the init() in flight

// Layout of the per-module scratch block (one malloc at init): three shapes of MAX_RANK size_t
// (uint32 on wasm32), the output rank, and a wg_error_info (five int64).
const SHAPE_BYTES = MAX_RANK * 4;
const SCRATCH = { dataShape: 0, indexShape: SHAPE_BYTES, outShape: 2 * SHAPE_BYTES, outRank: 3 * SHAPE_BYTES,
  err: 3 * SHAPE_BYTES + 8, pool: 3 * SHAPE_BYTES + 48, size: 3 * SHAPE_BYTES + 64 };
const MAX_CALL_BYTES = 2 ** 32 - 2 ** 16; // what one wasm32 malloc can possibly return

/**
 * Loads the wasm module. opts: { variant?: 'simd-threaded'|'simd', threads?: number,
 * wasm?: WebAssembly.Module | BufferSource | URL | string, parallelThreshold?: number }.
 * Resolves to { variant, threads, simd }.
 */
export function init(opts = {}) {
  if (state) {
    const same = (opts.variant === undefined || opts.variant === state.info.variant) &&
      (opts.threads === undefined || opts.threads === state.requestedThreads);
    if (!same) {
      return Promise.reject(new Error(`init: already initialized as ${state.info.variant} with ` +
        `${state.info.threads} thread(s); call dispose() before init() with other options`));
    }
    return Promise.resolve({ ...state.info });
  }
  if (!pending) {
    pending = start(opts).finally(() => { pending = null; });
  }
  return pending.then((info) => ({ ...info }));
}

async function start(opts) {
  if (opts === null || typeof opts !== 'object') throw new TypeError('init: opts must be an object');
  const { module: m, memory, variant, threads } = await load(opts);
  const scratch = m._malloc(SCRATCH.size);
  if (!scratch) throw new Error('init: out of wasm memory');
  const status = m._wg_pool_create(threads, scratch + SCRATCH.pool);
  const pool = status === 0 ? new Uint32Array(memory.buffer, scratch + SCRATCH.pool, 1)[0] : 0;
  if (opts.parallelThreshold !== undefined) {
    if (!Number.isInteger(opts.parallelThreshold) || opts.parallelThreshold < 0) {
      throw new RangeError(`init: opts.parallelThreshold must be a non-negative integer (bytes), got ${opts.parallelThreshold}`);
    }
    m._wg_pool_set_parallel_threshold(pool, Math.min(opts.parallelThreshold, 0xffffffff));
  }
  const info = { variant, threads: m._wg_pool_threads(pool), simd: true };
  state = { m, memory, pool, scratch, info, requestedThreads: opts.threads, lastCallBytes: 0 };
  return info;
}

/** Frees the module, its memory and its worker threads. init() may be called again after. */
export function dispose() {
  if (!state) return;
  const { m, pool, scratch } = state;
  state = null;
  m._wg_pool_destroy(pool);
  m._free(scratch);
  if (m.wgTerminateThreads) m.wgTerminateThreads();
}

/**
 * Bytes of wasm heap in use, the size of wasm memory, and the bytes the last op allocated on top
 * of heapInUse while it ran (its peak: inputs and output, each rounded up to 16 bytes).
 */
export function heapStats() {
  const s = ready('heapStats');
  return { heapInUse: s.m._wg_heap_in_use() >>> 0, memoryBytes: s.memory.buffer.byteLength, lastCallBytes: s.lastCallBytes };
}

function ready(op) {
  if (!state) throw new Error(`${op}: wasm-gather is not initialized; call 'await init()' first`);
  return state;
}

const align16 = (n) => Math.ceil(n / 16) * 16;

// Runs one op. spec: { op, names, data, index, mode, out, shapeFn(p), execFn(p) } where p holds
// the wasm addresses of the shapes, tensors, output and error record.
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
    return statusError(status, err, { op, names: spec.names, dataShape: data.shape, indexShape: index.shape, indexData: index.data });
  };
  let status = spec.shapeFn(p);
  if (status !== 0) throw fail(status);
  buffer = memory.buffer;
  const outRank = new Uint32Array(buffer, p.outRank, 1)[0];
  const outShape = Array.from(new Uint32Array(buffer, p.outShape, outRank));
  const Type = data.data.constructor;
  const elem = Type.BYTES_PER_ELEMENT;
  const dataBytes = data.data.length * elem;
  const outBytes = outShape.reduce((a, b) => a * b, 1) * elem;
  const total = align16(dataBytes) + align16(index.bytes) + align16(outBytes);
  if (total > MAX_CALL_BYTES) { // checked before the output is allocated in JS too
    throw new RangeError(`${op}: the output [${outShape.join(', ')}] with the inputs needs ${total} bytes, more than wasm memory can hold (4 GiB)`);
  }
  const result = outputArray(op, spec.out, Type, outShape);
  s.lastCallBytes = total;
  const base = m._malloc(Math.max(total, 1)) >>> 0;
  if (!base) {
    throw new RangeError(`${op}: the output [${outShape.join(', ')}] with the inputs needs ${total} bytes, more than wasm memory can hold now`);
  }
  try {
    p.data = base;
    p.index = base + align16(dataBytes);
    p.out = p.index + align16(index.bytes);
    buffer = memory.buffer; // fresh: malloc may have grown memory
    if (dataBytes) new Uint8Array(buffer, p.data, dataBytes).set(new Uint8Array(data.data.buffer, data.data.byteOffset, dataBytes));
    index.write(buffer, p.index);
    status = spec.execFn(p);
    if (status !== 0) throw fail(status);
    if (outBytes) result.set(new Type(memory.buffer, p.out, result.length));
  } finally {
    m._free(base);
  }
  return { data: result, shape: outShape };
}

/**
 * torch.gather: out[i][j][k] = input[i][index[i][j][k]][k] for dim 1, and so on.
 * opts: { outOfRange?: 'error'|'zero'|'clamp', out? }
 */
export function gather(input, dim, index, opts) {
  const op = 'gather';
  const s = ready(op);
  const data = dataTensor(op, 'input', input);
  const idx = indexTensor(op, 'index', index);
  if (dim === undefined) throw new TypeError(`${op}: dim is required (the axis to gather along)`);
  dim = integerArg(op, 'dim', dim);
  const { opts: o, mode } = commonOptions(op, opts);
  const { m, pool } = s;
  const elem = data.data.BYTES_PER_ELEMENT;
  return run(s, {
    op, names: { data: 'input', indices: 'index', axis: 'dim' }, data, index: idx, out: o.out,
    shapeFn: (p) => m._wg_gather_shape(p.dataShape, data.shape.length, p.indexShape, idx.shape.length, dim, p.outShape, p.outRank, p.err),
    execFn: (p) => m._wg_gather(pool, p.data, p.dataShape, data.shape.length, dim, p.index, idx.type, p.indexShape,
      idx.shape.length, elem, mode, p.out, p.err),
  });
}

/**
 * tf.gather_nd: output = indices.shape[:-1] + params.shape[batchDims + indices.shape[-1]:].
 * opts: { batchDims?: number, outOfRange?, out? }
 */
export function gatherND(params, indices, opts) {
  const op = 'gatherND';
  const s = ready(op);
  const data = dataTensor(op, 'params', params);
  const idx = indexTensor(op, 'indices', indices);
  const { opts: o, mode } = commonOptions(op, opts);
  const batchDims = integerArg(op, 'opts.batchDims', o.batchDims, 0);
  const { m, pool } = s;
  const elem = data.data.BYTES_PER_ELEMENT;
  return run(s, {
    op, names: { data: 'params', indices: 'indices', axis: 'axis' }, data, index: idx, out: o.out,
    shapeFn: (p) => m._wg_gather_nd_shape(p.dataShape, data.shape.length, p.indexShape, idx.shape.length, batchDims, p.outShape, p.outRank, p.err),
    execFn: (p) => m._wg_gather_nd(pool, p.data, p.dataShape, data.shape.length, p.index, idx.type, p.indexShape,
      idx.shape.length, batchDims, elem, mode, p.out, p.err),
  });
}

/**
 * tf.gather: output = params.shape[:axis] + indices.shape[batchDims:] + params.shape[axis+1:].
 * opts: { axis?: number, batchDims?: number, outOfRange?, out? }
 */
export function take(params, indices, opts) {
  const op = 'take';
  const s = ready(op);
  const data = dataTensor(op, 'params', params);
  const idx = indexTensor(op, 'indices', indices);
  const { opts: o, mode } = commonOptions(op, opts);
  const axis = integerArg(op, 'opts.axis', o.axis, 0);
  const batchDims = integerArg(op, 'opts.batchDims', o.batchDims, 0);
  const { m, pool } = s;
  const elem = data.data.BYTES_PER_ELEMENT;
  return run(s, {
    op, names: { data: 'params', indices: 'indices', axis: 'axis' }, data, index: idx, out: o.out,
    shapeFn: (p) => m._wg_take_shape(p.dataShape, data.shape.length, p.indexShape, idx.shape.length, axis, batchDims, p.outShape, p.outRank, p.err),
    execFn: (p) => m._wg_take(pool, p.data, p.dataShape, data.shape.length, p.index, idx.type, p.indexShape,
      idx.shape.length, axis, batchDims, elem, mode, p.out, p.err),
  });
}

