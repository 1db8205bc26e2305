// One op call, whatever the op: an op is a descriptor (js/ops/<op>.mjs: its names, its tensors
// and attributes, read from the caller's arguments); defineOp makes its public function, and
// callOp does the rest for every op: validate the common options, fill the module's call record
// (src/call.def: its layout and every number come from js/abi.mjs), ask C for the output shape,
// copy what is not resident yet into one wasm allocation, run, copy the result out, and free on
// every path, errors included.
import { choosePath, copiesBySet, copierOf, copyBlocks, executeScatterPlan, overlaps, wordView } from './copy-plan.mjs';
import { statusError } from './errors.mjs';
import { ResidentTensor, live } from './resident.mjs';
import { ready } from './state.mjs';
import { OOB_MODES, commonOptions, indexValues, optionNames, outputTarget, typeName, writeIndices } from './tensor.mjs';

export const MAX_CALL_BYTES = 2 ** 32 - 2 ** 16; // what one wasm32 malloc can possibly return
// The second outputs an op's plan may write (src/call.def), the result's key for each, and its
// array type (undefined: the output's): the bags' max indices, the bag gradient's per-sample weights' gradient.
const SECOND_OUTPUTS = [['out_indices', 'maxIndices', Int32Array], ['out_weights', 'weightsGrad', undefined]];
const align16 = (n) => Math.ceil(n / 16) * 16;

/**
 * The public function of an op descriptor (js/ops/<op>.mjs), as desc.fn. desc: { name (the
 * API's), c (src/ops.def's), params (the function's parameters, opts last), tensors ({ role:
 * argument name }: the roles of src/call.def it takes, data and indices first, and what messages
 * call them), attributes (src/call.def's names of those it sets; the policies are everyone's),
 * axis (what messages call its axis), dataName? (what messages call
 * its data when it has no data tensor), options (its own option names), tfjs? (the TensorFlow.js
 * kernel it serves), messages? (words for its own statuses: js/errors.mjs), read(s, args) ->
 * { role: tensor descriptor } (js/tensor.mjs), attrs(opts, tensors, s, args) -> { attrs: the
 * int32 values of its attributes in their order, Type? (the output's array type; default the
 * data's), outLike? (what has that type, for messages) } (it may add tensors that depend on the
 * options) }. The descriptor of one of the scatters also has fromData (its output starts as data: opts.inPlace
 * writes into a resident data), and may have modes (its opts.outOfRange values; default the gathers'), common (the
 * COMMON_OPTIONS it takes) and policy ({ mode, negative } fixed for every call).
 */
export function defineOp(desc) {
  const { name } = desc;
  desc.names = { data: desc.dataName ?? desc.tensors.data, indices: desc.tensors.indices, updates: desc.tensors.updates, mask: desc.tensors.mask, axis: desc.axis };
  desc.optionNames = optionNames(desc.options, desc.common);
  desc.modes ??= OOB_MODES;
  desc.fn = { [name](...args) { return callOp(ready(name), desc, args); } }[name];
  return desc.fn;
}

/** malloc of at least one byte (so that an empty tensor still has its own address), or 0. */
export function allocate(s, bytes) {
  return bytes > MAX_CALL_BYTES ? 0 : s.m._malloc(Math.max(bytes, 1)) >>> 0;
}

/**
 * Readies a loaded module's call record (s.call, laid out as s.abi says) for callOp: each tensor
 * slot's and attribute's word in a Uint32Array of wasm memory, and the codes callOp writes,
 * looked up once.
 */
export function prepareCalls(s) {
  const { abi } = s;
  const word = (field) => (s.call + abi.call[field]) >>> 2;
  s.fields = { op: word('op') };
  s.slots = abi.tensors.map((role) => ({ role, ptr: word(`${role}.ptr`), dtype: word(`${role}.dtype`),
    rank: word(`${role}.rank`), shape: word(`${role}.shape`) }));
  s.slot = Object.fromEntries(s.slots.map((t) => [t.role, t]));
  // Per op, what a call writes: its input slots (data and indices first: tensorList reads them by
  // name, then the others in slot order), its own attributes' words, and the policies' words.
  const FIRST = ['data', 'indices'];
  s.layouts = Object.fromEntries(Object.entries(abi.ops).map(([c, o]) => [c, {
    number: o.number,
    byName: FIRST.every((r) => o.inputs.includes(r)),
    inputs: [...FIRST.filter((r) => o.inputs.includes(r)), ...o.inputs.filter((r) => !FIRST.includes(r))].map((r) => s.slot[r]),
    attrWords: Object.fromEntries(o.own.map((name) => [name, word(`attrs.${name}`)])),
    mode: o.attrs.has('out_of_range') ? word('attrs.out_of_range') : -1,
    negative: o.attrs.has('negative_indices') ? word('attrs.negative_indices') : -1,
    offsets: o.tensors.has('offsets') ? s.slot.offsets.ptr : -1,
    workspace: o.tensors.has('workspace') ? s.slot.workspace.shape : -1, // its size, from the shape query
    // the second outputs it may write (dtype NONE in the record after the shape query: not this call)
    seconds: SECOND_OUTPUTS.filter(([role]) => o.tensors.has(role)).map(([role, key, Type]) => ({ slot: s.slot[role], key, Type })),
  }]));
  s.descLayouts = new Map(); // descriptor -> its layout, with its attributes' words in its order (layoutOf)
  s.codes = { ok: abi.value('WG_OK'), dtype: new Map(Object.entries(abi.dtypes)),
    mode: { error: abi.value('WG_OOB_ERROR'), zero: abi.value('WG_OOB_ZERO'), clamp: abi.value('WG_OOB_CLAMP'),
      drop: abi.value('WG_OOB_ZERO') }, // the scatters' word: an update out of range is dropped
    negative: { wrap: abi.value('WG_NEGATIVE_WRAP'), error: abi.value('WG_NEGATIVE_ERROR') } };
}

// A Uint32Array of the current wasm memory (which may have grown since the last call). The
// buffer it views is kept beside it: one getter call a check, not two.
function words(s) {
  const buffer = s.memory.buffer;
  if (s.wordsBuffer !== buffer) {
    s.words = new Uint32Array(buffer);
    s.wordsBuffer = buffer;
  }
  return s.words;
}

// An op's layout in s's record (prepareCalls), for its descriptor: attrWords[i] is the word of
// desc.attributes[i].
function layoutOf(s, desc) {
  let L = s.descLayouts.get(desc);
  if (L === undefined) {
    const op = s.layouts[desc.c];
    L = { ...op, attrWords: desc.attributes.map((name) => op.attrWords[name]) };
    s.descLayouts.set(desc, L);
  }
  return L;
}

/**
 * Writes a call of op `desc` (its descriptor, js/ops/) into the record (after prepareCalls):
 * tensors { role: { shape, dtype } } (dtype a name of src/record.h's WG_DTYPES; an input slot of
 * the op that is not there is written absent); attrs the values of desc.attributes, in that
 * order; mode the out-of-range mode ('error', 'zero', 'clamp') and negative the negative-index
 * policy ('wrap', 'error'). The tensors' addresses are written once they are in wasm memory
 * (writeTensors). Returns the Uint32Array of wasm memory it wrote through (valid until memory grows).
 */
export function writeCall(s, desc, tensors, attrs, mode, negative) {
  const L = layoutOf(s, desc);
  return writeLayout(s, L, tensorList(L, tensors), attrs, mode, negative);
}

// The call's tensors in the order of its layout's input slots (undefined where one is absent):
// data and indices by name where the op takes both (monomorphic loads on the hot path), the
// others by role.
function tensorList(L, t) {
  const list = L.byName ? [t.data, t.indices] : [];
  for (let i = list.length; i < L.inputs.length; i++) list.push(t[L.inputs[i].role]);
  return list;
}

// writeCall with the op's layout and its tensors as tensorList gives them.
function writeLayout(s, L, inputs, attrs, mode, negative) {
  const { codes } = s;
  const w = words(s);
  w[s.fields.op] = L.number;
  for (let i = 0; i < L.inputs.length; i++) {
    const slot = L.inputs[i], t = inputs[i];
    if (t === undefined) {
      w[slot.dtype] = codes.dtype.get('NONE');
      w[slot.rank] = 0;
    } else {
      w[slot.dtype] = codes.dtype.get(t.dtype);
      w[slot.rank] = t.shape.length;
      for (let d = 0; d < t.shape.length; d++) w[slot.shape + d] = t.shape[d];
    }
  }
  for (let i = 0; i < L.attrWords.length; i++) w[L.attrWords[i]] = attrs[i];
  if (L.mode >= 0) w[L.mode] = codes.mode[mode];
  if (L.negative >= 0) w[L.negative] = codes.negative[negative];
  return w;
}

/** Writes the wasm address of each tensor slot into the record: ptrs { role: address }, 0 for the rest. */
export function writeTensors(s, ptrs) {
  const { slots } = s;
  const w = words(s);
  for (let i = 0; i < slots.length; i++) w[slots[i].ptr] = ptrs[slots[i].role] ?? 0;
}

// The error record of a failed call, as Numbers: every err.<field> of the record.
function errorInfo(s) {
  const info = {};
  for (const field in s.abi.call) {
    if (field.startsWith('err.')) info[field.slice(4)] = Number(new BigInt64Array(s.memory.buffer, s.call + s.abi.call[field], 1)[0]);
  }
  return info;
}

// A call of op `desc` on the public function's arguments `args` read, checked, written into the
// record and planned (the shape query): { opts, mode, negative, t (the tensor descriptors), Type
// (the output's), outLike, L (the op's layout), inputs (tensorList), w (the record's words) }.
function planCall(s, desc, args) {
  // The options' names first: a misspelt option would otherwise surface as some other error.
  const options = commonOptions(desc.name, args[desc.params.length - 1], desc.optionNames, desc.modes);
  const { opts } = options;
  const { mode, negative } = desc.policy ?? options;
  const t = desc.read(s, args);
  const { attrs, Type = t.data.Type, outLike } = desc.attrs(opts, t, s, args);
  const L = layoutOf(s, desc);
  const inputs = tensorList(L, t);
  const w = writeLayout(s, L, inputs, attrs, mode, negative);
  const status = s.m._wg_call_shape(s.call);
  if (status !== s.codes.ok) throw failure(s, status, desc, t, negative);
  return { opts, mode, negative, t, Type, outLike, L, inputs, w };
}

/**
 * Library-internal (the TensorFlow.js adapter): a plain write of op `desc` (one of the scatters) on `args`
 * resolved, not applied: apply(rows, n) is called with the destination row of each of its n
 * update rows (a Uint32Array of wasm memory, valid during the call; ZERO_BLOCK: dropped), with the
 * op's rules and errors, and its result returned. Throws if the op cannot resolve this call so
 * (a reduction, or updates the op does not read in order).
 */
export function resolveScatterRows(s, desc, args, apply) {
  const { t, negative, L, w } = planCall(s, desc, args);
  const nitems = L.offsets >= 0 ? w[s.slot.offsets.shape] : 0;
  if (!nitems) throw new Error(`${desc.name}: internal error: this call has no destination rows to resolve`);
  return withOffsets(s, desc, t, negative, nitems, apply);
}

// Runs a planned call in the offsets mode (its plan only: the gathers' source offsets,
// src/stage_copy.h; the scatters' destination rows, src/stage_scatter.h): only the indices (unless
// resident) and the n offsets are in wasm memory, no data, no output; fn(offsets, n) is called
// with the offsets (a Uint32Array of wasm memory, valid during the call), and its result returned.
function withOffsets(s, desc, t, negative, n, fn) {
  const { m, codes } = s;
  const { base, offsets, copyIndices } = offsetsBlock(s, desc, t, n);
  try {
    if (copyIndices) copyIn(s.memory.buffer, base, t.indices);
    const status = m._wg_call_run(s.pool, s.call);
    if (status !== codes.ok) throw failure(s, status, desc, t, negative);
    s.lastCallBytes = offsets - base + n * 4;
    return fn(new Uint32Array(s.memory.buffer, offsets, n), n);
  } finally {
    m._free(base);
  }
}

// The block of a call in the offsets mode, allocated and its addresses written into the record:
// the indices unless resident (copyIndices: to copy at base), then the n offsets. Throws when
// wasm memory cannot hold it.
function offsetsBlock(s, desc, t, n) {
  const x = t.indices;
  const indexPart = x && x.ptr === undefined ? align16(x.bytes) : 0;
  const base = allocate(s, indexPart + n * 4);
  if (!base) {
    throw new RangeError(`${desc.name}: the indices and the call's plan of ${n} blocks need ${indexPart + n * 4} bytes, more than wasm memory can hold now`);
  }
  const offsets = base + indexPart;
  // every call writes the offsets address (0 in the others): the next one copies
  writeTensors(s, { indices: x ? x.ptr ?? base : 0, offsets });
  return { base, offsets, copyIndices: indexPart > 0 };
}

/**
 * A planned call (planCall's) and where its bytes go: its output (outShape, outLength, outBytes,
 * into: outputTarget's or opts.inPlace's target) and its transient block, laid out: each input
 * that is not resident, rounded up to 16 bytes, in order (inPart), the workspace the plan asks for
 * (wsBytes, wsPart), then the output unless it is resident (outPart); dataToOut: the data of one of
 * the scatters, not resident, is copied straight to where its output goes and updated there (one
 * copy, not two), unless that is a resident opts.out, which the op fills from the copy.
 */
function layOut(s, desc, args, planned) {
  const op = desc.name;
  const { opts, t, Type, outLike, L, inputs, w } = planned;
  const outShape = readOutShape(s, w);
  let outLength = 1;
  for (let i = 0; i < outShape.length; i++) outLength *= outShape[i];
  const outBytes = outLength * Type.BYTES_PER_ELEMENT;
  const into = (desc.fromData && opts.inPlace !== undefined && inPlaceTarget(op, opts, t, args[0])) ||
    outputTarget(op, opts, Type, outShape, s, inputs, outLike);
  const dataToOut = desc.fromData && t.data.ptr === undefined && into.kind !== 'in-place';
  // the workspace, and the second outputs the plan writes, after it
  const wsBytes = L.workspace >= 0 ? w[L.workspace] : 0;
  const seconds = [];
  let wsPart = align16(wsBytes);
  for (const { slot, key, Type: T } of L.seconds) {
    if (w[slot.dtype] === s.codes.dtype.get('NONE')) continue;
    const shape = Array.from({ length: w[slot.rank] }, (_, d) => w[slot.shape + d]);
    const length = shape.reduce((a, b) => a * b, 1);
    seconds.push({ slot, key, shape, length, Type: T ?? Type, at: wsPart });
    wsPart += align16(length * (T ?? Type).BYTES_PER_ELEMENT);
  }
  // An op that copies out of its data (not one of the writes) reads none of it when its output
  // is empty (the run still checks the indices): the data stays where it is, and the run gets
  // the block's address for it.
  const dataUnread = !desc.fromData && outLength === 0 && seconds.length === 0 && t.data.ptr === undefined;
  let inPart = 0, copied = false;
  for (let i = 0; i < inputs.length; i++) {
    const x = inputs[i];
    if (x !== undefined && x.ptr === undefined && !(dataToOut && x === t.data) && !(dataUnread && x === t.data)) {
      inPart += align16(x.bytes);
      copied = true;
    }
  }
  const total = inPart + wsPart + align16(outBytes);
  if (total > MAX_CALL_BYTES) { // checked before anything is allocated
    throw new RangeError(`${op}: the output [${outShape.join(', ')}] with the inputs needs ${total} bytes, more than wasm memory can hold (4 GiB)`);
  }
  const outPart = into.kind === 'new' || into.kind === 'array' ? align16(outBytes) : 0;
  // Allocated whenever some part lives in it, even of 0 bytes: the C API takes no NULL tensors.
  const needsBase = copied || dataUnread || wsPart > 0 || into.kind === 'new' || into.kind === 'array';
  return { outShape, outLength, outBytes, into, dataToOut, dataUnread, inPart, wsBytes, seconds, wsPart, outPart, total, needsBase, base: 0, outPtr: 0 };
}

/**
 * Allocates the block of a call laid out by layOut (and a new resident output's own block) into
 * b.base and b.outPtr, or throws, with nothing left allocated, when wasm memory cannot hold it.
 */
function allocateBlock(s, op, b) {
  const { m } = s;
  const base = b.needsBase ? allocate(s, b.inPart + b.wsPart + b.outPart) : 0;
  // A new resident output is a block of its own, which outlives the call.
  const outPtr = b.into.kind === 'in-place' ? b.into.ptr
    : b.into.kind === 'resident' ? allocate(s, b.outBytes) : base + b.inPart + b.wsPart;
  if ((b.needsBase && !base) || !outPtr) {
    if (base) m._free(base);
    if (outPtr && b.into.kind === 'resident') m._free(outPtr);
    throw new RangeError(`${op}: the output [${b.outShape.join(', ')}] with the inputs needs ${b.total} bytes, more than wasm memory can hold now`);
  }
  b.base = base;
  b.outPtr = outPtr;
}

/**
 * Writes the addresses of a call laid out by layOut into the record, its block at base and its
 * output at outPtr, and copies its inputs that are not resident there, unless `copies` is given:
 * then it only pushes [address, descriptor] for each (a prepared call copies them at each run).
 */
function placeInputs(s, planned, b, base, outPtr, copies) {
  const { L, inputs, t } = planned;
  const buffer = s.memory.buffer; // fresh: malloc may have grown memory
  const w = words(s);
  let at = base;
  for (let i = 0; i < L.inputs.length; i++) {
    const input = L.inputs[i], x = inputs[i];
    let to = 0;
    if (x === undefined || x.ptr !== undefined) {
      w[input.ptr] = x === undefined ? 0 : x.ptr;
      continue;
    } else if (b.dataToOut && x === t.data) {
      to = outPtr;
    } else if (b.dataUnread && x === t.data) {
      w[input.ptr] = base;
      continue;
    } else {
      to = at;
      at += align16(x.bytes);
    }
    w[input.ptr] = to;
    if (copies) copies.push([to, x]);
    else copyIn(buffer, to, x);
  }
  w[s.slot.out.ptr] = outPtr;
  if (L.offsets >= 0) w[L.offsets] = 0; // the run copies (js/copy-plan.mjs sets it)
  if (L.workspace >= 0) w[s.slot.workspace.ptr] = b.wsBytes ? base + b.inPart : 0;
  for (const { slot } of L.seconds) w[slot.ptr] = 0;
  for (const x of b.seconds) w[x.slot.ptr] = base + b.inPart + x.at;
}


/** Runs op `desc` (a descriptor: defineOp) on the public function's arguments `args`. */
export function callOp(s, desc, args) {
  const op = desc.name;
  const planned = planCall(s, desc, args);
  if (desc.counted) return callCounted(s, desc, planned);
  if (desc.tensors.mask && maskInJs(s, desc, planned)) return countedInJs(s, desc, planned);
  const { opts, negative, t, Type, L, w } = planned;
  const { m, slot, codes } = s;
  const b = layOut(s, desc, args, planned);
  const { into, outShape, outLength, outBytes } = b;
  // (the masks' offsets mode needs its mask in wasm memory: maskInJs, not the gathers' and scatters' path)
  const nblocks = L.offsets >= 0 && !desc.tensors.mask ? w[slot.offsets.shape] : 0;
  if (choosePath(t, into, desc.fromData ? 'write' : 'copy', desc.fromData ? t.updates?.bytes : outBytes, nblocks, s.memory.buffer) === 'js') {
    const run = desc.fromData ? runScatterInJs : runPlanInJs;
    return run(s, desc, t, negative, into, Type, outLength, outBytes, outShape, nblocks);
  }
  s.lastCallBytes = b.total - (into.kind === 'in-place' ? align16(outBytes) : 0);
  allocateBlock(s, op, b);
  const { base, outPtr } = b;
  let result;
  try {
    placeInputs(s, planned, b, base, outPtr);
    const status = m._wg_call_run(s.pool, s.call);
    if (status !== codes.ok) throw failure(s, status, desc, t, negative);
    result = deliver(s, into, Type, outPtr, outLength, outShape, opts);
    for (const x of b.seconds) result[x.key] = { data: new x.Type(s.memory.buffer, base + b.inPart + x.at, x.length).slice(), shape: x.shape };
  } finally {
    if (base) m._free(base);
    if (!result && into.kind === 'resident') m._free(outPtr);
  }
  return result;
}

// A planned call of an op whose output is as long as a mask's true elements (desc.counted:
// src/stage_mask.h), in two runs over one block of its inputs and workspace: the first, with no
// output, only counts (the record's output shape then holds the count); then the output is made
// (or opts.out checked: it need only hold that many) and the second run writes it from the counts
// the first kept. With opts.out the result is { data: opts.out, shape }: shape says how much of it
// holds the output.
function callCounted(s, desc, planned) {
  const op = desc.name;
  const { opts, negative, t, Type, outLike, inputs } = planned;
  const { m, codes } = s;
  if (maskInJs(s, desc, planned)) return countedInJs(s, desc, planned);
  const { base, blockBytes } = maskBlock(s, desc, planned, inputs);
  let outPtr = 0, owned = false, result;
  try {
    let status = m._wg_call_rerun(s.pool, s.call);
    if (status !== codes.ok) throw failure(s, status, desc, t, negative);
    const outShape = readOutShape(s, words(s));
    const outLength = outShape.reduce((a, n) => a * n, 1), outBytes = outLength * Type.BYTES_PER_ELEMENT;
    const into = countedTarget(op, opts, Type, outShape, outLength, s, inputs, outLike);
    owned = into.kind !== 'in-place';
    outPtr = owned ? allocate(s, outBytes) : into.ptr;
    if (!outPtr) throw new RangeError(`${op}: the output [${outShape.join(', ')}] needs ${outBytes} bytes, more than wasm memory can hold now`);
    words(s)[s.slot.out.ptr] = outPtr;
    status = m._wg_call_rerun(s.pool, s.call);
    if (status !== codes.ok) throw failure(s, status, desc, t, negative);
    s.lastCallBytes = blockBytes + (into.kind === 'in-place' ? 0 : align16(outBytes));
    if (into.kind === 'resident') result = new ResidentTensor(s, outPtr, Type, outShape);
    else if (into.kind === 'in-place') result = { data: opts.out, shape: outShape };
    else {
      const view = new Type(s.memory.buffer, outPtr, outLength);
      if (into.kind === 'array') into.array.set(view);
      result = { data: into.kind === 'array' ? into.array : new Type(view), shape: outShape };
    }
  } finally {
    m._free(base);
    if (owned && outPtr && !(result instanceof ResidentTensor)) m._free(outPtr); // a new resident output keeps its block
  }
  return result;
}

// The block of a call of one of the masks' ops, allocated and placed (no output yet): `inputs`
// that are not resident (undefined: not placed), then the workspace. Throws, with nothing
// allocated, when wasm memory cannot hold it.
function maskBlock(s, desc, planned, inputs) {
  let inPart = 0;
  for (const y of inputs) if (y !== undefined && y.ptr === undefined) inPart += align16(y.bytes);
  const b = { dataToOut: false, inPart, wsBytes: planned.w[planned.L.workspace], seconds: [] };
  const blockBytes = inPart + align16(b.wsBytes);
  const base = allocate(s, blockBytes);
  if (!base) throw new RangeError(`${desc.name}: the inputs and the workspace need ${blockBytes} bytes, more than wasm memory can hold now`);
  placeInputs(s, { ...planned, inputs }, b, base, 0);
  return { base, blockBytes };
}

// Whether a call of one of the masks' ops (src/stage_mask.h) takes their offsets mode: its data
// is not in wasm memory (nor a source it writes), and never goes there. C resolves each kept
// slice's offset in data, or each source value's element, and JS copies them from the caller's
// arrays into a new array or opts.out, where the offsets, one a mask element at most (cap), need
// no more room than the data.
function maskInJs(s, desc, { opts, t, L, w }) {
  const cap = L.offsets >= 0 ? w[s.slot.offsets.shape] : 0, x = t.data, out = opts.out;
  return cap > 0 && x.ptr === undefined && cap * 4 <= x.bytes && !opts.resident && !opts.inPlace &&
    (out == null || (ArrayBuffer.isView(out) && out.buffer !== s.memory.buffer && !overlaps(out, x.data) &&
      !(t.updates && t.updates.ptr === undefined && overlaps(out, t.updates.data))));
}

// The offsets mode (maskInJs): the inputs but the data (and a source) and the workspace in one
// block. A first run only counts (no offsets, no output: src/call.c runs the counting stages
// alone, which read the mask, not the data; a source is checked against the count), then the
// offsets get room for as many as the record's offsets shape says (the kept slices of every
// block, or the true elements), not one a mask element: a mask of few true elements leaves wasm
// memory as small as its output. A second run resolves them and JS copies (js/copy-plan.mjs).
function countedInJs(s, desc, planned) {
  const { negative, t, inputs, L } = planned;
  const { m, codes } = s;
  const others = inputs.map((y) => (y === t.data || y === t.updates ? undefined : y));
  const { base, blockBytes } = maskBlock(s, desc, planned, others);
  let offsets = 0;
  try {
    words(s)[L.offsets] = 0;
    const status = m._wg_call_rerun(s.pool, s.call);
    if (status !== codes.ok) throw failure(s, status, desc, t, negative);
    const n = words(s)[s.slot.offsets.shape];
    if (n) {
      offsets = allocate(s, n * 4);
      if (!offsets) throw new RangeError(`${desc.name}: the offsets of ${n} kept ${desc.fromData ? 'elements' : 'slices'} need ${n * 4} bytes, more than wasm memory can hold now`);
      words(s)[L.offsets] = offsets;
    }
    s.lastCallBytes = blockBytes + align16(n * 4);
    return (desc.fromData ? sourceInJs : slicesInJs)(s, desc, planned, n, offsets);
  } finally {
    m._free(base);
    if (offsets) m._free(offsets);
  }
}

// countedInJs's second run for kept slices, then each copied from the caller's data into the
// output (the count's shape: a new array or opts.out).
function slicesInJs(s, desc, { opts, negative, t, Type, outLike, inputs }, n, offsets) {
  const outShape = readOutShape(s, words(s));
  const outLength = outShape.reduce((a, k) => a * k, 1), outBytes = outLength * Type.BYTES_PER_ELEMENT;
  const into = countedTarget(desc.name, opts, Type, outShape, outLength, s, inputs, outLike);
  if (!n || !outBytes) return { data: into.kind === 'array' ? into.array : new Type(outLength), shape: outShape };
  const status = s.m._wg_call_rerun(s.pool, s.call);
  if (status !== s.codes.ok) throw failure(s, status, desc, t, negative);
  return planInJs(s, t, into, Type, outLength, outBytes, outShape, n)(new Uint32Array(s.memory.buffer, offsets, n));
}

// countedInJs's second run for a source written where a mask is true, on a worker while this
// thread makes the new output from the data (wg_call_start, src/call.h): the two are of like
// cost. Then the data into opts.out (written only once the run succeeded), and source value j to
// element rows[j].
function sourceInJs(s, desc, { opts, negative, t, Type, outLike, inputs }, n, offsets) {
  const { data: d, updates: u } = t;
  const size = Type.BYTES_PER_ELEMENT;
  const target = outputTarget(desc.name, opts, Type, d.shape, s, inputs, outLike);
  let out = target.kind === 'array' ? target.array : undefined, status = s.codes.ok;
  if (n) s.m._wg_call_start(s.pool, s.call);
  try {
    out ??= copyOf(d.data, Type, d.bytes / size);
  } finally {
    if (n) status = s.m._wg_call_finish(s.pool, s.call);
  }
  if (status !== s.codes.ok) throw failure(s, status, desc, t, negative);
  const dst = new Uint8Array(out.buffer, out.byteOffset, d.bytes);
  if (target.kind === 'array') dst.set(new Uint8Array(d.data.buffer, d.data.byteOffset, d.bytes));
  const src = u.ptr === undefined ? new Uint8Array(u.data.buffer, u.data.byteOffset, u.bytes) : new Uint8Array(s.memory.buffer, u.ptr, u.bytes);
  if (n) executeScatterPlan(new Uint32Array(s.memory.buffer, offsets, n), n, src, dst, size, size);
  return { data: out, shape: d.shape };
}

// Where a counted output goes: a new array or resident tensor, or opts.out (an array or a
// resident tensor of the output's type holding at least its elements).
function countedTarget(op, opts, Type, shape, length, owner, inputs, like) {
  const out = opts.out;
  if (out === undefined || out === null) return outputTarget(op, opts, Type, shape, owner, inputs, like);
  if (opts.resident !== undefined && opts.resident !== false) return outputTarget(op, opts, Type, shape, owner, inputs, like); // its error
  const r = out instanceof ResidentTensor ? live(out, op, 'opts.out', owner) : undefined;
  const GivenType = r ? r.Type : ArrayBuffer.isView(out) ? out.constructor : undefined;
  if (GivenType !== Type) {
    throw new TypeError(`${op}: opts.out must be ${/^[AEIOU]/.test(Type.name) ? 'an' : 'a'} ${Type.name} (or a resident one) like ${like ?? 'the data'}, got ${r ? `a resident ${r.Type.name}` : typeName(out)}`);
  }
  const has = r ? r.length : out.length;
  if (has < length) {
    throw new RangeError(`${op}: opts.out has ${has} elements but the output [${shape.join(', ')}] has ${length} (it must hold at least that many)`);
  }
  if (r && inputs.some((x) => x !== undefined && x.ptr === r.ptr)) {
    throw new RangeError(`${op}: opts.out must not be one of the op's inputs (the output would overwrite what it reads)`);
  }
  return r ? { kind: 'in-place', ptr: r.ptr } : { kind: 'array', array: out };
}

/**
 * Library-internal (js/prepared.mjs): op `desc` on `args` planned once into its own call record
 * (p: a state object of its own over s, as prepareCalls readies it) and block, for runs that only
 * copy in what is not resident and run the kept plan. Returns { planned, b, base, outPtr, copies,
 * js?, reads? } (copies: [address, descriptor] of each input to copy at each run; js: the JS path
 * a plain call takes for it, { offsets, n, fn(offsets) -> result }, and reads: the descriptors of
 * the arrays it reads where they are); the caller frees base.
 * A new resident output at each run (opts.resident) is refused: give opts.out a resident tensor.
 */
export function planPrepared(p, desc, args) {
  if (desc.counted) throw new TypeError(`prepare: ${desc.name}: its output's length depends on its inputs' values, so its plan cannot be kept; call it`);
  const planned = planCall(p, desc, args);
  const b = layOut(p, desc, args, planned);
  if (b.into.kind === 'resident') {
    throw new TypeError(`prepare: ${desc.name}: opts.resident would make a new tensor at each run; give opts.out a resident tensor to write into`);
  }
  if (b.seconds.length) throw new TypeError(`prepare: ${desc.name}: a call with a second output (opts.returnIndices, opts.returnWeightsGrad) cannot be prepared; call it`);
  // The path a plain call would go: in JS, the run only resolves the offsets, into the block,
  // and js runs the copies from the caller's arrays (which stay out of wasm memory).
  const { t, L, w } = planned;
  const n = L.offsets >= 0 && !desc.tensors.mask ? w[p.slot.offsets.shape] : 0;
  if (choosePath(t, b.into, desc.fromData ? 'write' : 'copy', desc.fromData ? t.updates?.bytes : b.outBytes, n, p.memory.buffer) === 'js') {
    const { base, offsets, copyIndices } = offsetsBlock(p, desc, t, n);
    const make = desc.fromData ? scatterInJs : planInJs;
    const js = { offsets, n, fn: make(p, t, b.into, planned.Type, b.outLength, b.outBytes, b.outShape, n) };
    const reads = [t.data, t.updates].filter((y) => y !== undefined && y.ptr === undefined); // read where they are
    return { planned, b, base, outPtr: 0, copies: copyIndices ? [[base, t.indices]] : [], js, reads };
  }
  allocateBlock(p, desc.name, b);
  const { base, outPtr } = b;
  const copies = [];
  placeInputs(p, planned, b, base, outPtr, copies);
  return { planned, b, base, outPtr, copies };
}

/** Library-internal (js/prepared.mjs): the result of a run, where the caller asked for it. */
export const deliverResult = (s, b, Type, outPtr, opts) => deliver(s, b.into, Type, outPtr, b.outLength, b.outShape, opts);

// opts.inPlace of the scatters: true writes into its first argument, which must be resident (and
// is returned); false is the default.
function inPlaceTarget(op, opts, t, first) {
  if (typeof opts.inPlace !== 'boolean') throw new TypeError(`${op}: opts.inPlace must be true or false, got ${typeName(opts.inPlace)}`);
  if (!opts.inPlace) return null;
  if (t.data.ptr === undefined) {
    throw new TypeError(`${op}: opts.inPlace needs a resident tensor to update (upload() it first); got ${typeName(first)}`);
  }
  if (opts.out != null || opts.resident) throw new TypeError(`${op}: give opts.inPlace or opts.out / opts.resident, not both`);
  if (t.updates?.ptr === t.data.ptr) {
    throw new RangeError(`${op}: in place, the updates must not be the tensor they update (it would change what it reads)`);
  }
  return { kind: 'in-place', ptr: t.data.ptr, result: first };
}

// The call resolved in C into its blocks' sources, and the bytes moved by JS from the caller's
// data array into the output array (js/copy-plan.mjs). Only the indices (unless resident) and
// the offsets go into wasm memory; the data does not.
function runPlanInJs(s, desc, t, negative, target, Type, outLength, outBytes, outShape, nblocks) {
  return withOffsets(s, desc, t, negative, nblocks, planInJs(s, t, target, Type, outLength, outBytes, outShape, nblocks));
}

// What runPlanInJs does with the offsets: fn(offsets) -> the result (a prepared call keeps it,
// and with it the views of the caller's data made here, once).
function planInJs(s, t, target, Type, outLength, outBytes, outShape, nblocks) {
  const d = t.data;
  // nblocks > 0 (choosePath): blocks of outBytes / nblocks bytes
  const bb = outBytes / nblocks;
  const c = copierOf(new Uint8Array(d.data.buffer, d.data.byteOffset, d.bytes),
    target.kind === 'array' ? target.array.byteOffset : 0, bb, Type.BYTES_PER_ELEMENT);
  // long blocks into a new array of the data's own type: set between the two, no word views
  const ofType = target.kind !== 'array' && d.data.constructor === Type && copiesBySet(bb, Type.BYTES_PER_ELEMENT);
  return (offsets) => {
    const out = target.kind === 'array' ? target.array : new Type(outLength);
    if (ofType) copyBlocks(offsets, nblocks, d.data, out, bb, Type.BYTES_PER_ELEMENT, true);
    else copyBlocks(offsets, nblocks, c.words, wordView(out.buffer, out.byteOffset, outBytes, c.width), bb, c.width, target.kind !== 'array');
    return { data: out, shape: outShape };
  };
}

// A plain write of one of the scatters (src/stage_scatter.h's offsets mode): C resolves each
// update row's destination row, with the same rules and errors as a run; then JS copies the
// caller's data into the output array and writes the rows there (js/copy-plan.mjs). Only the
// indices (unless resident) and the rows go into wasm memory; the data and the updates do not.
function runScatterInJs(s, desc, t, negative, target, Type, outLength, outBytes, outShape, nitems) {
  return withOffsets(s, desc, t, negative, nitems, scatterInJs(s, t, target, Type, outLength, outBytes, outShape, nitems));
}

// What runScatterInJs does with the rows: fn(rows) -> the result (a prepared call keeps it).
function scatterInJs(s, t, target, Type, outLength, outBytes, outShape, nitems) {
  const { data: d, updates: u } = t;
  return (rows) => {
    const out = target.kind === 'array' ? target.array : copyOf(d.data, Type, outLength);
    const dst = new Uint8Array(out.buffer, out.byteOffset, outBytes);
    if (target.kind === 'array') dst.set(new Uint8Array(d.data.buffer, d.data.byteOffset, d.bytes));
    const src = u.ptr === undefined ? new Uint8Array(u.data.buffer, u.data.byteOffset, u.bytes)
      : new Uint8Array(s.memory.buffer, u.ptr, u.bytes);
    // nitems > 0 (C offers the mode only then): rows of u.bytes / nitems bytes
    executeScatterPlan(rows, nitems, src, dst, u.bytes / nitems, Type.BYTES_PER_ELEMENT);
    return { data: out, shape: outShape };
  };
}

// A new array of Type holding the bytes of the TypedArray a (of length elements). When a is a
// Type, the constructor copies it, as deliver() does.
function copyOf(a, Type, length) {
  if (a instanceof Type && a.length === length) return new Type(a);
  const out = new Type(length);
  new Uint8Array(out.buffer).set(new Uint8Array(a.buffer, a.byteOffset, length * Type.BYTES_PER_ELEMENT));
  return out;
}

/** The workspace bytes the shape query wrote into the record (w: writeCall's view of memory). */
export function readWorkspaceBytes({ slot }, w) {
  return w[slot.workspace.shape];
}

/** The output shape the shape query wrote into the record (w: writeCall's view of memory). */
export function readOutShape({ slot }, w) {
  const shape = new Array(w[slot.out.rank]);
  for (let i = 0; i < shape.length; i++) shape[i] = w[slot.out.shape + i];
  return shape;
}

/**
 * The error of a failed call of op `desc`, in the words of js/errors.mjs (and the op's own
 * messages): t its tensor descriptors (js/tensor.mjs; the indices read from s's memory when
 * resident), negative the call's opts.negativeIndices.
 */
export function failure(s, status, desc, t, negative) {
  return statusError(status, errorInfo(s), { op: desc.name, abi: s.abi, names: desc.names, messages: desc.messages, modes: desc.modes,
    updatesAtLeast: desc.updatesAtLeast, segmentsName: t.segments?.name, maskRank: desc.maskRank,
    dataShape: t.data.shape, indexShape: t.indices?.shape ?? [], indexData: t.indices ? indexValues(t.indices, s.memory.buffer) : [], negative });
}

/**
 * Copies a tensor descriptor that is not resident (dataTensor's, indexTensor's) into wasm memory
 * at ptr: indices (which have a kind) by writeIndices (which widens narrow arrays), data as its
 * bytes.
 */
export function copyIn(buffer, ptr, t) {
  if (t.kind) writeIndices(buffer, ptr, t);
  else if (t.bytes) new Uint8Array(buffer, ptr, t.bytes).set(new Uint8Array(t.data.buffer, t.data.byteOffset, t.bytes));
}

// The result where the caller asked for it: one copy out of wasm memory, or none.
function deliver(s, target, Type, outPtr, outLength, outShape, opts) {
  if (target.kind === 'resident') return new ResidentTensor(s, outPtr, Type, outShape);
  if (target.kind === 'in-place') return target.result ?? opts.out;
  const view = new Type(s.memory.buffer, outPtr, outLength);
  if (target.kind === 'array') {
    target.array.set(view);
    return { data: target.array, shape: outShape };
  }
  // The constructor copies the bytes (the same element type: ECMA-262's
  // InitializeTypedArrayFromTypedArray clones them, NaN payloads kept) into a new, unshared
  // buffer, in one pass: in Node 20 faster than slice() or a new array and set() (16 MiB from
  // plain or shared memory: 1.6-2.0 against 2.2-2.9 ms, interleaved medians).
  return { data: new Type(view), shape: outShape };
}
