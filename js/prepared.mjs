// A prepared call: an op bound once to its tensors and options, then run many times (as
// onnxruntime's IOBinding), for the hot loops of small calls (an LLM's decode step writes a K and
// a V row per layer). prepare() does everything a call does but the copies and the run, once:
// it checks the arguments, plans the call into a call record of its own (src/call.h), lays out and
// allocates its block; run() checks that its resident tensors are still there, copies in the
// current contents of the arrays it was given, runs the kept plan (wg_call_rerun) and delivers
// the result as the op would. Shapes, types and options are fixed at prepare(): the plan can never
// be stale, and every error of a run (an index out of range) is the op's, in its words, with
// nothing written.
import { allocate, copyIn, deliverResult, failure, planPrepared, prepareCalls } from './call.mjs';
import { typeName } from './describe.mjs';
import { OPS, opNamed } from './ops/index.mjs';
import { ResidentTensor, live } from './resident.mjs';
import { ready } from './state.mjs';

// What a prepared call owns in wasm memory: freed by dispose(), or when it is garbage collected,
// while its module lives (the module's dispose() frees all of its memory at once).
const registry = typeof FinalizationRegistry === 'function'
  ? new FinalizationRegistry(({ owner, blocks }) => { if (!owner.closed) for (const b of blocks) owner.m._free(b); })
  : null;

const internal = new WeakMap(); // PreparedCall -> its state

/** The op an argument names: one of the ops' functions, or its name. */
function opOf(op) {
  const d = typeof op === 'string' ? opNamed(op) : OPS.find((x) => x.fn === op);
  if (!d) {
    throw new TypeError(`prepare: op must be one of wasm-gather's ops or its name (${OPS.map((x) => x.name).join(', ')}), ` +
      `got ${typeof op === 'string' ? JSON.stringify(op) : typeName(op)}`);
  }
  return d;
}

// The resident tensors among the arguments (and opts.out), each with the name its errors use.
function residentsOf(desc, args) {
  const out = [];
  desc.params.forEach((name, i) => { if (args[i] instanceof ResidentTensor) out.push([args[i], name]); });
  const opts = args[desc.params.length - 1];
  if (opts?.out instanceof ResidentTensor) out.push([opts.out, 'opts.out']);
  return out;
}

export class PreparedCall {
  /** Not for callers: use prepare(). */
  constructor(state) {
    internal.set(this, state);
    registry?.register(this, { owner: state.owner, blocks: state.blocks }, this);
  }

  /** The op's name. */
  get op() { return internal.get(this).desc.name; }
  /** True once dispose() was called, or its module was disposed. */
  get disposed() { const r = internal.get(this); return r.blocks.length === 0 || r.owner.closed; }

  /**
   * Runs the call: the arrays it was prepared with are read as they are now, resident tensors
   * must still be alive. Returns what the op returns (its output, or the resident tensor updated).
   */
  run() {
    const r = internal.get(this);
    const op = r.desc.name;
    const s = ready(op);
    if (r.blocks.length === 0) throw disposedError(`${op}: this prepared call was disposed`);
    if (r.owner !== s) throw disposedError(`${op}: this prepared call belongs to a wasm-gather module that was disposed; prepare it again`);
    for (let i = 0; i < r.residents.length; i++) live(r.residents[i][0], op, r.residents[i][1], s);
    for (let i = 0; i < r.arrays.length; i++) {
      const x = r.arrays[i];
      if (x.data.length !== x.length) { // a detached buffer's array has length 0
        throw new TypeError(`${op}: an array this call was prepared with was detached or resized since; prepare it again`);
      }
    }
    s.lastCallBytes = 0; // the block was allocated by prepare()
    const rows = r.js?.resolve?.(); // the rows resolved in JS: no wasm call
    if (rows) return r.js.fn(rows);
    const buffer = s.memory.buffer;
    for (let i = 0; i < r.copies.length; i++) copyIn(buffer, r.copies[i][0], r.copies[i][1]);
    const status = s.m._wg_call_rerun(s.pool, r.p.call);
    if (status !== s.codes.ok) throw failure(r.p, status, r.desc, r.planned.t, r.planned.negative);
    if (r.js) { // the JS path: its copies, from the offsets (a view kept while memory does not grow)
      if (r.js.view?.buffer !== buffer) r.js.view = new Uint32Array(buffer, r.js.offsets, r.js.n);
      return r.js.fn(r.js.view);
    }
    return deliverResult(r.p, r.b, r.planned.Type, r.outPtr, r.planned.opts);
  }

  /** Frees what the call holds in wasm memory; run() throws after. */
  dispose() {
    const r = internal.get(this);
    if (!r.owner.closed) for (const b of r.blocks) r.owner.m._free(b);
    r.blocks.length = 0;
    registry?.unregister(this);
  }
}

function disposedError(message) {
  const e = new Error(message);
  e.code = 'ERR_WG_DISPOSED';
  return e;
}

// A call on the JS path (one-shot, the table in JS) whose blocks are whole rows picked by its
// indices (the op's blocksAreRows), in 'error' mode, its indices a 32-bit integer array: each run
// resolves the rows' byte offsets in JS, by src/index_resolve.c's rule (a negative index counts
// from the end where negativeIndices is 'wrap'; any other index outside [0, rows) is refused), and
// makes no wasm call. An index the rule refuses sends the run to the wasm path, which reports it
// in the op's words. Returns resolve() -> the offsets (a Uint32Array kept for every run), or
// undefined at such an index; null where the call is not such a one.
function rowResolver(desc, planned, n) {
  const { t, opts, mode, negative } = planned;
  const x = t.indices, d = t.data;
  if (!desc.blocksAreRows?.(opts, t) || mode !== 'error' || x.ptr !== undefined || (x.kind !== 'I32' && x.kind !== 'U32') ||
      !ArrayBuffer.isView(x.data) || x.data.length !== n || n === 0 || d.shape[0] === 0 || d.bytes === 0 ||
      d.bytes > 0xffffffff) return null;
  const rows = d.shape[0], rowBytes = d.bytes / rows, wrap = negative === 'wrap';
  const offsets = new Uint32Array(n);
  return () => {
    const ids = x.data;
    for (let j = 0; j < n; j++) {
      let v = ids[j];
      if (v < 0 && wrap) v += rows;
      if (!(v >= 0 && v < rows)) return undefined;
      offsets[j] = v * rowBytes;
    }
    return offsets;
  };
}

/**
 * Binds op (one of the ops, or its name) to its arguments, as the op takes them, for run() to
 * run many times: prepare(op, cache, indices, row, { inPlace: true }).run(). The tensors
 * that are not resident are read at each run as their arrays are then (fill them in place); their
 * shapes, and the options, are the ones given here. Throws what the op would throw for bad
 * arguments, and refuses opts.resident (give opts.out a resident tensor) and plain-array indices.
 */
export function prepare(op, ...args) {
  const desc = opOf(op);
  const s = ready('prepare');
  // Its own record, readied as the module's is, over the module's state (m, memory, abi, pool).
  const p = Object.create(s);
  p.root = s;
  p.call = allocate(s, s.abi.call.size);
  if (!p.call) throw new RangeError(`prepare: ${desc.name}: no wasm memory left for a call record`);
  new Uint8Array(s.memory.buffer, p.call, s.abi.call.size).fill(0);
  const blocks = [p.call];
  try {
    prepareCalls(p);
    const { planned, b, base, outPtr, copies, js, reads = [] } = planPrepared(p, desc, args);
    if (js) js.resolve = rowResolver(desc, planned, js.n);
    if (base) blocks.push(base);
    const arrays = [...copies.map(([, x]) => x), ...reads]; // each checked at each run
    for (const x of arrays) {
      if (!ArrayBuffer.isView(x.data)) {
        const what = x === planned.t.indices ? 'the indices' : x.name ?? 'each index array';
        throw new TypeError(`prepare: ${desc.name}: a prepared call reads its arrays at each run: give ${what} as a TypedArray, not a plain array`);
      }
      x.length = x.data.length;
    }
    return new PreparedCall({ owner: s, desc, p, planned, b, outPtr, copies, js, arrays, blocks, residents: residentsOf(desc, args) });
  } catch (e) {
    for (const block of blocks) s.m._free(block);
    throw e;
  }
}
