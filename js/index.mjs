// wasm-gather: tensor gathers on { data: TypedArray, shape: number[] } tensors.
// This file is the public API and the module's lifecycle (init, dispose, heapStats, upload); each
// op is a descriptor in js/ops/, one call's marshalling is js/call.mjs.
import { readAbi } from './abi.mjs';
import { checkOps } from './ops/index.mjs';
import { allocate, copyIn, prepareCalls } from './call.mjs';
import { TEST_HOOKS, load, warnOnce } from './loader.mjs';
import { ResidentTensor } from './resident.mjs';
import { getState, ready, setState } from './state.mjs';
import { checkOptionNames, codesTensor, dataTensor, describeValue } from './tensor.mjs';

export { ResidentTensor };
// The ops: one export line each.
export { take } from './ops/take.mjs';
export { gatherND } from './ops/gather-nd.mjs';
export { gather, gatherElements } from './ops/gather.mjs';
export { gatherBlockQuantized } from './ops/gather-block-quantized.mjs';
export { scatter, scatterElements } from './ops/scatter.mjs';
export { scatterND } from './ops/scatter-nd.mjs';
export { indexReduce } from './ops/index-reduce.mjs';
export { tensorScatter } from './ops/tensor-scatter.mjs';
export { embeddingBag } from './ops/embedding-bag.mjs';
export { embeddingBagBackward } from './ops/embedding-bag-backward.mjs';
export { segmentReduce } from './ops/segment-reduce.mjs';
export { nonZero } from './ops/non-zero.mjs';
export { booleanMask } from './ops/boolean-mask.mjs';
export { compress } from './ops/compress.mjs';
export { maskedScatter } from './ops/masked-scatter.mjs';
// A call bound once to its arguments and run many times (js/prepared.mjs).
export { prepare, PreparedCall } from './prepared.mjs';

let pending = null; // the init() in flight: { promise, variant, threads } as it was asked

// The option names of init() and upload(); any other throws (checkOptionNames), naming these.
const INIT_OPTIONS = ['variant', 'threads', 'wasm', 'parallelThreshold'];
const UPLOAD_OPTIONS = ['quantType'];

/**
 * Loads the wasm module. opts: { variant?: 'simd-threaded'|'simd', threads?: number,
 * wasm?: WebAssembly.Module | BufferSource | URL | string, parallelThreshold?: number }.
 * Resolves to { variant, threads, simd }, threads being what the pool really has.
 */
export function init(opts = {}) {
  // Checked before anything loads: an error after load() would leave a module and its threads behind.
  if (opts === null || typeof opts !== 'object') return Promise.reject(new TypeError('init: opts must be an object'));
  try {
    checkOptionNames('init', opts, INIT_OPTIONS);
  } catch (e) {
    return Promise.reject(e);
  }
  const t = opts.parallelThreshold;
  if (t !== undefined && !(Number.isInteger(t) && t >= 0)) {
    return Promise.reject(new RangeError(`init: opts.parallelThreshold must be a non-negative integer (bytes), got ${describeValue(t)}`));
  }
  const state = getState();
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
  opts[TEST_HOOKS]?.loaded?.(m, memory); // test-only (tests/unit/init.test.mjs): makes what follows fail
  // Every field of the state from the start (call.mjs's too): one shape for V8 on the hot path.
  const s = { m, memory, pool: 0, call: 0, requestedThreads: opts.threads, lastCallBytes: 0, closed: false,
    abi: null, info: null, fields: null, codes: null, words: null, wordsBuffer: null };
  try {
    s.abi = readAbi(m, memory);
    checkOps(s.abi);
    s.info = { variant, threads: createPool(s, threads, opts.parallelThreshold), simd: true };
  } catch (e) {
    release(s); // nothing of a half-started module may stay: memory, pool, workers
    throw e;
  }
  if (s.info.threads < threads) {
    warnOnce(`wasm-gather: init: running on ${s.info.threads} thread(s) instead of ${threads}: only ` +
      `${s.info.threads - 1} of the ${threads - 1} worker threads could be started`);
  }
  setState(s);
  return s.info;
}

// Allocates the call record and the pool into s; returns the threads the pool really has
// (pthread_create may fail past the preloaded workers, and the pool keeps what it got).
function createPool(s, threads, parallelThreshold) {
  const { m, memory, abi } = s;
  // The call record (js/call.mjs), and after it the word wg_pool_create writes the pool's address to.
  s.call = m._malloc(abi.call.size + 8);
  if (!s.call) throw new Error('init: out of wasm memory');
  const poolSlot = s.call + abi.call.size;
  const status = m._wg_pool_create(threads, poolSlot);
  if (status !== abi.value('WG_OK')) {
    const why = abi.nameOf('WG_ERR_', status) === 'WG_ERR_OUT_OF_MEMORY'
      ? 'its memory, mutex or condition variable could not be had' : `status ${status}`;
    throw new Error(`init: could not create a pool of ${threads} threads (${why})`);
  }
  s.pool = new Uint32Array(memory.buffer, poolSlot, 1)[0];
  prepareCalls(s);
  if (parallelThreshold !== undefined) m._wg_pool_set_parallel_threshold(s.pool, Math.min(parallelThreshold, 0xffffffff));
  return m._wg_pool_threads(s.pool);
}

// Frees a module's pool, call record and worker threads (the workers also when the rest throws).
function release({ m, pool, call }) {
  try {
    m._wg_pool_destroy(pool);
    m._free(call);
  } finally {
    if (m.wgTerminateThreads) m.wgTerminateThreads();
  }
}

/** Frees the module, its memory and its worker threads. init() may be called again after. */
export function dispose() {
  const s = getState();
  if (!s) return;
  setState(null);
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
 * that is garbage collected is freed too. opts.quantType 'uint4' or 'int4': tensor.data is a
 * Uint8Array of two 4-bit codes a byte (ceil(n / 2) bytes for its shape of n elements), for
 * gatherBlockQuantized's data or zero points of that quantType.
 */
export function upload(tensor, opts) {
  const op = 'upload';
  const s = ready(op);
  if (tensor instanceof ResidentTensor) throw new TypeError(`${op}: tensor is already resident`);
  if (opts !== undefined && (opts === null || typeof opts !== 'object')) throw new TypeError(`${op}: opts must be an object`);
  checkOptionNames(op, opts, UPLOAD_OPTIONS);
  const quantType = opts?.quantType;
  if (quantType !== undefined && quantType !== 'uint4' && quantType !== 'int4') {
    throw new RangeError(`${op}: opts.quantType must be 'uint4' or 'int4' (a packed table of 4-bit codes), got ${JSON.stringify(quantType)}`);
  }
  const packed = quantType !== undefined;
  const t = packed ? codesTensor(op, 'tensor', tensor, s, quantType) : dataTensor(op, 'tensor', tensor, s);
  const ptr = allocate(s, t.bytes);
  if (!ptr) throw new RangeError(`${op}: the tensor needs ${t.bytes} bytes, more than wasm memory can hold now`);
  copyIn(s.memory.buffer, ptr, t);
  return new ResidentTensor(s, ptr, t.Type, t.shape, packed);
}
