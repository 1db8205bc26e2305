// Resident tensors: data that lives in wasm memory between calls, so that a large table is
// copied in once (upload) and an op's result can stay there for the next op. A handle owns one
// malloc'ed block; dispose() frees it, and a FinalizationRegistry frees what callers forget.
import { describeValue } from './describe.mjs';

// The finalizer frees a block only while its module is alive: dispose() of the module drops
// all of its memory at once. Some hosts have no FinalizationRegistry (Cloudflare workerd):
// there only dispose() frees.
const registry = typeof FinalizationRegistry === 'function'
  ? new FinalizationRegistry(({ owner, ptr }) => { if (!owner.closed) owner.m._free(ptr); })
  : null;

const internal = new WeakMap(); // handle -> { owner, ptr, Type, length }

export class ResidentTensor {
  /** Not for callers: use upload() or an op's { resident: true }. */
  constructor(owner, ptr, Type, shape, packed = false) {
    // A packed one (upload(t, { quantType: 'int4' })) holds two 4-bit codes a byte of its shape.
    const n = shape.reduce((a, b) => a * b, 1);
    const length = packed ? Math.ceil(n / 2) : n;
    internal.set(this, { owner, ptr, Type, length, packed });
    this.shape = Object.freeze([...shape]);
    registry?.register(this, { owner, ptr }, this);
  }

  /** The TypedArray constructor of the data: Float32Array, Int32Array, ... */
  get arrayType() { return internal.get(this).Type; }
  /** Elements of arrayType it holds: its shape's element count, or half of it rounded up when packed. */
  get length() { return internal.get(this).length; }
  /** True for a table of two 4-bit codes a byte (uploaded with { quantType: 'uint4' | 'int4' }). */
  get packed() { return internal.get(this).packed; }
  get byteLength() { const r = internal.get(this); return r.length * r.Type.BYTES_PER_ELEMENT; }
  /** True once dispose() was called, or the module it lives in was disposed. */
  get disposed() { const r = internal.get(this); return r.ptr === 0 || r.owner.closed; }

  /** Copies the data out of wasm memory into `out` (a TypedArray of the same type and length) or a new array. */
  read(out) {
    const r = live(this, 'read', 'this');
    // A new array by the constructor: one pass (js/call.mjs: deliver).
    if (out == null) return new r.Type(new r.Type(r.owner.memory.buffer, r.ptr, r.length));
    const dst = out;
    if (!(dst instanceof r.Type) || dst.length !== r.length) {
      throw new TypeError(`read: out must be a ${r.Type.name} of ${r.length} elements, got ${describe(dst)}`);
    }
    if (r.length) dst.set(new r.Type(r.owner.memory.buffer, r.ptr, r.length));
    return dst;
  }

  /**
   * The data where it lives, without a copy: a TypedArray of arrayType on the tensor's bytes in
   * wasm memory (writing into it changes the tensor). Valid until the tensor is disposed; on the
   * `simd` build also only until wasm memory grows (any later upload or op may grow it): the
   * view's buffer is then detached and its length 0, which is how to tell (`view.length !==
   * tensor.length`); call view() again. On `simd-threaded` memory is shared and growing leaves
   * views valid.
   */
  view() {
    const r = live(this, 'view', 'this');
    return new r.Type(r.owner.memory.buffer, r.ptr, r.length);
  }

  /** Frees the wasm memory now. Calling it again does nothing. */
  dispose() {
    const r = internal.get(this);
    if (r.ptr === 0) return;
    if (!r.owner.closed) r.owner.m._free(r.ptr);
    registry?.unregister(this);
    r.ptr = 0;
  }
}

function describe(x) {
  return ArrayBuffer.isView(x) ? `${x.constructor.name}(${x.length})` : describeValue(x);
}

// The error of a resident tensor used after it, or its module, was disposed: code 'ERR_WG_DISPOSED'
// (js/index.d.cts: WasmGatherError).
function disposed(message) {
  const e = new Error(message);
  e.code = 'ERR_WG_DISPOSED';
  return e;
}

/**
 * The wasm block behind a handle, checked to be usable by `owner` (the current module):
 * { owner, ptr, Type, length, packed }. Throws naming the op and the argument otherwise; with
 * `packed` given, also unless the handle's packing is that.
 */
export function live(t, op, name, owner, packed = false) {
  const r = internal.get(t);
  if (r.ptr === 0) throw disposed(`${op}: ${name} is a resident tensor that was disposed`);
  // owner.root: a prepared call's own record is a state object over its module's (js/prepared.mjs)
  if (r.owner.closed || (owner && r.owner !== (owner.root ?? owner))) {
    throw disposed(`${op}: ${name} is a resident tensor of a wasm-gather module that was disposed; upload it again`);
  }
  if (r.packed !== packed && owner) {
    throw new TypeError(packed
      ? `${op}: ${name} must be a packed resident tensor of 4-bit codes: upload it with { quantType: 'uint4' } or { quantType: 'int4' }`
      : `${op}: ${name} is a packed resident tensor of 4-bit codes (uploaded with a quantType), usable only as ` +
        "the codes or zero points of a quantized table of quantType 'uint4' or 'int4'");
  }
  return r;
}
