// One op call, whatever the op: validate the tensors and options, fill the module's call record
// (src/wasm_exports.c, wg_call: its layout and every number come from js/abi.mjs), ask C for the
// output shape, copy what is not resident yet into one wasm allocation, run, copy the result out,
// and free on every path, errors included.
import { statusError } from './errors.mjs';
import { ResidentTensor } from './resident.mjs';
import { commonOptions, dataTensor, indexTensor, outputTarget } from './tensor.mjs';

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
  s.fields = {};
  for (const [name, offset] of Object.entries(abi.call)) s.fields[name] = (s.call + offset) >>> 2;
  s.codes = { ok: abi.value('WG_OK'), index: {}, mode: {} };
  for (const kind of ['I32', 'U32', 'I64', 'U64']) s.codes.index[kind] = abi.value(`WG_INDEX_${kind}`);
  for (const mode of ['error', 'zero', 'clamp']) s.codes.mode[mode] = abi.value(`WG_OOB_${mode.toUpperCase()}`);
}

// A Uint32Array of the current wasm memory (which may have grown since the last call).
function words(s) {
  if (s.words?.buffer !== s.memory.buffer) s.words = new Uint32Array(s.memory.buffer);
  return s.words;
}

/**
 * Writes a call's op and arguments into the record (after prepareCalls): c the op's name in
 * src/ops.def, the two shapes, axis and batchDims, the element size, the index kind ('I32',
 * 'U32', 'I64', 'U64') and the out-of-range mode ('error', 'zero', 'clamp'). The tensors'
 * addresses are written by writeTensors once they are in wasm memory.
 */
export function writeCall(s, { c, dataShape, indexShape, axis = 0, batchDims = 0, elemSize, indexKind, mode }) {
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
  w.set(dataShape, F.data_shape);
  w.set(indexShape, F.index_shape);
}

/** Writes the wasm addresses of a call's data, indices and output into the record. */
export function writeTensors(s, data, indices, out) {
  const { fields: F } = s;
  const w = words(s);
  w[F['args.data']] = data;
  w[F['args.indices']] = indices;
  w[F['args.out']] = out;
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
 * axis }, opts, attrs(opts) -> { axis?, batchDims? } (the op's own attributes, checked after
 * the tensors and the common options) }.
 */
export function callOp(s, spec, data, index) {
  const { op, names } = spec;
  const d = dataTensor(op, names.data, data, s);
  const x = indexTensor(op, names.indices, index, s);
  const { opts, mode } = commonOptions(op, spec.opts);
  const { axis = 0, batchDims = 0 } = spec.attrs(opts);
  writeCall(s, { c: spec.c, dataShape: d.shape, indexShape: x.shape, axis, batchDims,
    elemSize: d.Type.BYTES_PER_ELEMENT, indexKind: x.kind, mode });
  const { m, fields: F, codes } = s;
  const fail = (status) => statusError(status, errorInfo(s), { op, abi: s.abi, names, dataShape: d.shape,
    indexShape: x.shape, indexData: x.values(s.memory.buffer) });
  let status = m._wg_call_shape(s.call);
  if (status !== codes.ok) throw fail(status);
  const w = words(s);
  const outShape = new Array(w[F.out_rank]);
  for (let i = 0; i < outShape.length; i++) outShape[i] = w[F.out_shape + i];
  const Type = d.Type;
  const outLength = outShape.reduce((a, b) => a * b, 1);
  const outBytes = outLength * Type.BYTES_PER_ELEMENT;
  // The transient block: each part that is not resident, rounded up to 16 bytes.
  const dataPart = d.ptr === undefined ? align16(d.bytes) : 0;
  const indexPart = x.ptr === undefined ? align16(x.bytes) : 0;
  const total = dataPart + indexPart + align16(outBytes);
  if (total > MAX_CALL_BYTES) { // checked before anything is allocated
    throw new RangeError(`${op}: the output [${outShape.join(', ')}] with the inputs needs ${total} bytes, more than wasm memory can hold (4 GiB)`);
  }
  const target = outputTarget(op, opts, Type, outShape, s, [d, x]);
  // The output is part of the transient block unless it is resident (in place, or a new one).
  const outPart = target.kind === 'new' || target.kind === 'array' ? align16(outBytes) : 0;
  s.lastCallBytes = total - (target.kind === 'in-place' ? align16(outBytes) : 0);
  // Allocated whenever some part lives in it, even of 0 bytes: the C API takes no NULL tensors.
  const needsBase = d.ptr === undefined || x.ptr === undefined || target.kind === 'new' || target.kind === 'array';
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
    const dataPtr = d.ptr ?? base;
    const indexPtr = x.ptr ?? base + dataPart;
    const buffer = s.memory.buffer; // fresh: malloc may have grown memory
    if (dataPart) new Uint8Array(buffer, dataPtr, d.bytes).set(new Uint8Array(d.data.buffer, d.data.byteOffset, d.bytes));
    if (indexPart) x.write(buffer, indexPtr);
    writeTensors(s, dataPtr, indexPtr, outPtr);
    status = m._wg_call_run(s.pool, s.call);
    if (status !== codes.ok) throw fail(status);
    result = deliver(s, target, Type, outPtr, outLength, outShape, opts);
  } finally {
    if (base) m._free(base);
    if (!result && target.kind === 'resident') m._free(outPtr);
  }
  return result;
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
  return { data: view.slice(), shape: outShape }; // slice(): allocates and copies in one pass
}
