// One op call, whatever the op: validate the tensors and options, fill the module's call record
// (src/wasm_exports.c, wg_call: its layout and every number come from js/abi.mjs), ask C for the
// output shape, copy what is not resident yet into one wasm allocation, run, copy the result out,
// and free on every path, errors included.
import { choosePath, executePlan } from './copy-plan.mjs';
import { statusError } from './errors.mjs';
import { ResidentTensor } from './resident.mjs';
import { commonOptions, dataTensor, indexTensor, indexValues, outputTarget, writeIndices } from './tensor.mjs';

export const MAX_CALL_BYTES = 2 ** 32 - 2 ** 16; // what one wasm32 malloc can possibly return
const align16 = (n) => Math.ceil(n / 16) * 16;

/** malloc of at least one byte (so that an empty tensor still has its own address), or 0. */
export function allocate(s, bytes) {
  return bytes > MAX_CALL_BYTES ? 0 : s.m._malloc(Math.max(bytes, 1)) >>> 0;
}

/**
 * Readies a loaded module's call record (s.call, laid out as s.abi says) for callOp: the index
 * of each field in a Uint32Array of wasm memory, and the codes callOp writes, looked up once.
 */
export function prepareCalls(s) {
  const { abi } = s;
  s.sharedMemory = typeof SharedArrayBuffer === 'function' && s.memory.buffer instanceof SharedArrayBuffer;
  // Built in one go: an object filled key by key goes to V8's slow dictionary mode past a few
  // dozen keys, and every call looks up some 25 of them.
  s.fields = Object.fromEntries(Object.entries(abi.call).map(([name, offset]) => [name, (s.call + offset) >>> 2]));
  s.codes = { ok: abi.value('WG_OK'), index: {}, mode: {} };
  for (const kind of ['I32', 'U32', 'I64', 'U64']) s.codes.index[kind] = abi.value(`WG_INDEX_${kind}`);
  for (const mode of ['error', 'zero', 'clamp']) s.codes.mode[mode] = abi.value(`WG_OOB_${mode.toUpperCase()}`);
  s.codes.negative = { wrap: abi.value('WG_NEGATIVE_WRAP'), error: abi.value('WG_NEGATIVE_ERROR') };
  s.codes.quant = { uint8: abi.value('WG_QUANT_UINT8'), uint4: abi.value('WG_QUANT_UINT4'), int4: abi.value('WG_QUANT_INT4') };
  s.codes.scale = { float32: abi.value('WG_SCALE_F32'), float16: abi.value('WG_SCALE_F16'), bfloat16: abi.value('WG_SCALE_BF16') };
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

/**
 * Writes a call's op and arguments into the record (after prepareCalls): c the op's name in
 * src/ops.def, the two shapes, axis and batchDims, the element size, the index kind ('I32',
 * 'U32', 'I64', 'U64'), the out-of-range mode ('error', 'zero', 'clamp') and the negative-index
 * policy ('wrap', the default, or 'error'). The tensors'
 * addresses are written by writeTensors once they are in wasm memory. Returns the Uint32Array
 * of wasm memory it wrote through (valid until memory grows).
 */
export function writeCall(s, { c, dataShape, indexShape, axis = 0, batchDims = 0, elemSize, indexKind, mode, negative = 'wrap', quant }) {
  const { fields: F, codes } = s;
  const w = words(s);
  w[F.op] = s.abi.ops[c];
  w[F['args.data_rank']] = dataShape.length;
  w[F['args.index_rank']] = indexShape.length;
  w[F['args.axis']] = axis;
  w[F['args.batch_dims']] = batchDims;
  w[F['args.elem_size']] = elemSize;
  w[F['args.index_type']] = codes.index[indexKind];
  w[F['args.mode']] = codes.mode[mode];
  w[F['args.negative_indices']] = codes.negative[negative];
  setShape(w, F.data_shape, dataShape);
  setShape(w, F.index_shape, indexShape);
  if (quant) writeQuant(s, w, quant);
  return w;
}

// A shape into the record (a loop: TypedArray.set from a short array costs more).
function setShape(w, at, shape) {
  for (let i = 0; i < shape.length; i++) w[at + i] = shape[i];
}

// gatherBlockQuantized's description of its table (wg_quant_desc), from quantAttrs (js/quantized.mjs).
function writeQuant({ fields: F, codes }, w, q) {
  w[F['args.quant.quant_type']] = codes.quant[q.quantType];
  w[F['args.quant.scale_type']] = codes.scale[q.scaleType];
  w[F['args.quant.bits']] = q.bits;
  w[F['args.quant.block_size']] = q.blockSize;
  w[F['args.quant.quantize_axis']] = q.quantizeAxis;
  w[F['args.quant.has_zero_points']] = q.zpShape ? 1 : 0;
  w[F['args.quant.scale_rank']] = q.scaleShape.length;
  w[F['args.quant.zp_rank']] = q.zpShape?.length ?? 0;
  setShape(w, F.scale_shape, q.scaleShape);
  if (q.zpShape) setShape(w, F.zp_shape, q.zpShape);
}

/**
 * Writes the wasm addresses of a call's data, indices and output into the record, and of
 * gatherBlockQuantized's scales and zero points (0 when there are none).
 */
export function writeTensors(s, data, indices, out, scales = 0, zeroPoints = 0, offsets = 0) {
  const { fields: F } = s;
  const w = words(s);
  w[F['args.data']] = data;
  w[F['args.indices']] = indices;
  w[F['args.out']] = out;
  w[F['args.scales']] = scales;
  w[F['args.zero_points']] = zeroPoints;
  w[F['args.offsets']] = offsets; // 0: the run copies (js/copy-plan.mjs when set)
}

// The error record of a failed call, as Numbers.
function errorInfo(s) {
  const i64 = (field) => Number(new BigInt64Array(s.memory.buffer, s.call + s.abi.call[field], 1)[0]);
  return { arg: i64('err.arg'), dim: i64('err.dim'), value: i64('err.value'), limit: i64('err.limit'),
    position: i64('err.position') };
}

/**
 * Runs op `spec.op` (its name in the API) as C op `spec.c` (its name in src/ops.def) on `data`
 * and `index` (the caller's tensors, or resident ones). spec: { op, c, names: { data, indices,
 * axis }, opts, options (the op's own option names, js/ops.mjs: any other but the common ones
 * throws), attrs(opts, data, owner) -> the op's own attributes, checked after the tensors and
 * the common options: { axis?, batchDims?, quant?, extra?, Type?, outLike? }, data?(op, name, t,
 * owner) } (both called as methods of spec, which may carry what they need).
 * For gatherBlockQuantized: `data` checks its codes, `quant` describes the table (writeCall),
 * `extra` are its scales and zero points, `Type` the output's array type (default: the data's)
 * and `outLike` what has that type, for messages.
 */
export function callOp(s, spec, data, index) {
  const { op, names } = spec;
  const { opts, mode, negative } = commonOptions(op, spec.opts, spec.options); // first: a misspelt option explains the rest
  const d = spec.data ? spec.data(op, names.data, data, s) : dataTensor(op, names.data, data, s);
  const x = indexTensor(op, names.indices, index, s);
  const { axis = 0, batchDims = 0, quant, extra = [], Type = d.Type, outLike } = spec.attrs(opts, d, s);
  const w = writeCall(s, { c: spec.c, dataShape: d.shape, indexShape: x.shape, axis, batchDims,
    elemSize: Type.BYTES_PER_ELEMENT, indexKind: x.kind, mode, negative, quant });
  const { m, fields: F, codes } = s;
  let status = m._wg_call_shape(s.call);
  if (status !== codes.ok) throw failure(s, status, op, names, d, x, negative);
  const outShape = readOutShape(s, w);
  let outLength = 1;
  for (let i = 0; i < outShape.length; i++) outLength *= outShape[i];
  const outBytes = outLength * Type.BYTES_PER_ELEMENT;
  // The transient block: each input that is not resident, rounded up to 16 bytes, in order.
  const inputs = extra.length ? [d, x, ...extra] : [d, x];
  let inPart = 0;
  for (let i = 0; i < inputs.length; i++) if (inputs[i].ptr === undefined) inPart += align16(inputs[i].bytes);
  const total = inPart + align16(outBytes);
  if (total > MAX_CALL_BYTES) { // checked before anything is allocated
    throw new RangeError(`${op}: the output [${outShape.join(', ')}] with the inputs needs ${total} bytes, more than wasm memory can hold (4 GiB)`);
  }
  const target = outputTarget(op, opts, Type, outShape, s, inputs, outLike);
  const nblocks = w[F.out_blocks];
  if (choosePath(d, target, outBytes, nblocks) === 'js') {
    return runPlanInJs(s, { op, names, negative }, d, x, target, Type, outLength, outBytes, outShape, nblocks);
  }
  // The output is part of the transient block unless it is resident (in place, or a new one).
  const outPart = target.kind === 'new' || target.kind === 'array' ? align16(outBytes) : 0;
  s.lastCallBytes = total - (target.kind === 'in-place' ? align16(outBytes) : 0);
  // Allocated whenever some part lives in it, even of 0 bytes: the C API takes no NULL tensors.
  const needsBase = inputs.some((t) => t.ptr === undefined) || target.kind === 'new' || target.kind === 'array';
  const base = needsBase ? allocate(s, inPart + outPart) : 0;
  // A new resident output is a block of its own, which outlives the call.
  const outPtr = target.kind === 'in-place' ? target.ptr
    : target.kind === 'resident' ? allocate(s, outBytes) : base + inPart;
  if ((needsBase && !base) || !outPtr) {
    if (base) m._free(base);
    if (outPtr && target.kind === 'resident') m._free(outPtr);
    throw new RangeError(`${op}: the output [${outShape.join(', ')}] with the inputs needs ${total} bytes, more than wasm memory can hold now`);
  }
  let result;
  try {
    const buffer = s.memory.buffer; // fresh: malloc may have grown memory
    const ptrs = [0, 0, 0, 0]; // data, indices, scales, zero points
    for (let i = 0, at = base; i < inputs.length; i++) {
      const t = inputs[i];
      if (t.ptr !== undefined) {
        ptrs[i] = t.ptr;
      } else {
        ptrs[i] = at;
        copyIn(buffer, at, t);
        at += align16(t.bytes);
      }
    }
    writeTensors(s, ptrs[0], ptrs[1], outPtr, ptrs[2], ptrs[3]);
    status = m._wg_call_run(s.pool, s.call);
    if (status !== codes.ok) throw failure(s, status, op, names, d, x, negative);
    result = deliver(s, target, Type, outPtr, outLength, outShape, opts);
  } finally {
    if (base) m._free(base);
    if (!result && target.kind === 'resident') m._free(outPtr);
  }
  return result;
}

// The call resolved in C into its blocks' sources, and the bytes moved by JS from the caller's
// data array into the output array (js/copy-plan.mjs). Only the indices (unless resident) and
// the offsets go into wasm memory; the data does not.
function runPlanInJs(s, call, d, x, target, Type, outLength, outBytes, outShape, nblocks) {
  const { m, codes } = s;
  const indexPart = x.ptr === undefined ? align16(x.bytes) : 0;
  const base = allocate(s, indexPart + nblocks * 4);
  if (!base) {
    throw new RangeError(`${call.op}: the indices and the plan of the output [${outShape.join(', ')}] need ${indexPart + nblocks * 4} bytes, more than wasm memory can hold now`);
  }
  try {
    if (x.ptr === undefined) copyIn(s.memory.buffer, base, x);
    const offsets = base + indexPart;
    // No data, no output: the plan only (every call writes args.offsets: the next one copies).
    writeTensors(s, 0, x.ptr ?? base, 0, 0, 0, offsets);
    const status = m._wg_call_run(s.pool, s.call);
    if (status !== codes.ok) throw failure(s, status, call.op, call.names, d, x, call.negative);
    const src = new Uint8Array(d.data.buffer, d.data.byteOffset, d.bytes);
    const out = target.kind === 'array' ? target.array : new Type(outLength);
    // nblocks > 0 (choosePath): blocks of outBytes / nblocks bytes
    executePlan(new Uint32Array(s.memory.buffer, offsets, nblocks), nblocks, src,
      new Uint8Array(out.buffer, out.byteOffset, outBytes), outBytes / nblocks, Type.BYTES_PER_ELEMENT, target.kind !== 'array');
    s.lastCallBytes = indexPart + nblocks * 4;
    return { data: out, shape: outShape };
  } finally {
    m._free(base);
  }
}

/** The output shape the shape query wrote into the record (w: writeCall's view of memory). */
export function readOutShape({ fields: F }, w) {
  const shape = new Array(w[F.out_rank]);
  for (let i = 0; i < shape.length; i++) shape[i] = w[F.out_shape + i];
  return shape;
}

/**
 * The error of a failed call, in the words of js/errors.mjs: d and x are the data and index
 * descriptors (dataTensor's, indexTensor's: { shape } and { shape, data } or { shape, ptr, Type,
 * length }, the indices read from s's memory).
 */
export function failure(s, status, op, names, d, x, negative) {
  return statusError(status, errorInfo(s), { op, abi: s.abi, names, dataShape: d.shape, indexShape: x.shape,
    indexData: indexValues(x, s.memory.buffer), negative });
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
  if (target.kind === 'in-place') return opts.out;
  const view = new Type(s.memory.buffer, outPtr, outLength);
  if (target.kind === 'array') {
    target.array.set(view);
    return { data: target.array, shape: outShape };
  }
  if (!s.sharedMemory) return { data: view.slice(), shape: outShape }; // allocates and copies in one pass
  // From shared memory (the threaded build) slice() takes a slower path: a new array and set().
  const data = new Type(outLength);
  data.set(view);
  return { data, shape: outShape };
}
