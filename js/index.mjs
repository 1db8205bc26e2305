// wasm-gather: gather, gatherND and take on { data: TypedArray, shape: number[] } tensors.
// This file is the public API and the module's lifecycle (init, dispose, heapStats, upload); the
// ops are in js/ops.mjs, one call's marshalling in js/call.mjs.
import { readAbi } from './abi.mjs';
import { allocate } from './call.mjs';
import { load } from './loader.mjs';
import { ResidentTensor } from './resident.mjs';
import { getState, ready, setState } from './state.mjs';
import { dataTensor } from './tensor.mjs';

export { ResidentTensor };
export { gather, gatherElements, gatherND, take } from './ops.mjs';

let pending = null; // the init() in flight

/**
 * Loads the wasm module. opts: { variant?: 'simd-threaded'|'simd', threads?: number,
 * wasm?: WebAssembly.Module | BufferSource | URL | string, parallelThreshold?: number }.
 * Resolves to { variant, threads, simd }.
 */
export function init(opts = {}) {
  // Checked before anything loads: an error after load() would leave a module and its threads behind.
  if (opts === null || typeof opts !== 'object') return Promise.reject(new TypeError('init: opts must be an object'));
  const t = opts.parallelThreshold;
  if (t !== undefined && !(Number.isInteger(t) && t >= 0)) {
    return Promise.reject(new RangeError(`init: opts.parallelThreshold must be a non-negative integer (bytes), got ${t}`));
  }
  const state = getState();
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
  const { module: m, memory, variant, threads } = await load(opts);
  const abi = readAbi(m, memory);
  // The call record, and after it the word wg_pool_create writes the pool's address to.
  const call = m._malloc(abi.call.size + 8);
  if (!call) throw new Error('init: out of wasm memory');
  const poolSlot = call + abi.call.size;
  const status = m._wg_pool_create(threads, poolSlot);
  const pool = status === abi.value('WG_OK') ? new Uint32Array(memory.buffer, poolSlot, 1)[0] : 0;
  if (opts.parallelThreshold !== undefined) {
    m._wg_pool_set_parallel_threshold(pool, Math.min(opts.parallelThreshold, 0xffffffff));
  }
  const info = { variant, threads: m._wg_pool_threads(pool), simd: true };
  setState({ m, memory, abi, pool, call, info, requestedThreads: opts.threads, lastCallBytes: 0, closed: false });
  return info;
}

/** Frees the module, its memory and its worker threads. init() may be called again after. */
export function dispose() {
  const s = getState();
  if (!s) return;
  const { m, pool, call } = s;
  setState(null);
  s.closed = true; // its resident tensors are gone with its memory
  m._wg_pool_destroy(pool);
  m._free(call);
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

