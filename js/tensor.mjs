// Validation of the tensors and options the caller passes, before anything touches wasm memory.
// Each failure is a TypeError (wrong kind of thing) or RangeError (wrong value) that names the
// op, the argument and the rule. Wherever a tensor is accepted, a ResidentTensor (already in
// wasm memory) is accepted too: its descriptor then carries ptr instead of data.
import { describeValue, typeName } from './describe.mjs';
import { ResidentTensor, live } from './resident.mjs';

export { describeValue, typeName }; // where they were: the op descriptors import typeName from here

const MAX_DIM = 0xffffffff; // shapes are passed to wasm32 as size_t

// Each array type the ops accept and its element type (src/record.h's WG_DTYPES, by name).
const DTYPES = new Map([[Float32Array, 'F32'], [Float64Array, 'F64'], [Int8Array, 'I8'], [Int16Array, 'I16'],
  [Int32Array, 'I32'], [Uint8Array, 'U8'], [Uint16Array, 'U16'], [Uint32Array, 'U32'], [Uint8ClampedArray, 'U8'],
  [BigInt64Array, 'I64'], [BigUint64Array, 'U64']]);
if (typeof globalThis.Float16Array === 'function') DTYPES.set(globalThis.Float16Array, 'F16');
const DATA_TYPES = [...DTYPES.keys()].filter((T) => T.name !== 'Float16Array');
// Index kinds the C API reads directly (wg_index_type WG_INDEX_<kind>), by their arrays, and the
// narrow arrays widened to int32 on the copy into wasm memory.
const INDEX_VIEWS = { I32: Int32Array, U32: Uint32Array, I64: BigInt64Array, U64: BigUint64Array };
const INDEX_KINDS = new Map([[Int32Array, 'I32'], [Uint32Array, 'U32'], [BigInt64Array, 'I64'],
  [BigUint64Array, 'U64'], [Int8Array, 'I32'], [Int16Array, 'I32'], [Uint8Array, 'I32'], [Uint16Array, 'I32']]);
const INT64_MAX = 2n ** 63n - 1n;

/** The gathers' opts.outOfRange values (an op's descriptor may have its own: js/call.mjs). */
export const OOB_MODES = Object.freeze(['error', 'zero', 'clamp']);
const NEGATIVE_POLICIES = ['wrap', 'error'];

export function product(shape) {
  let n = 1;
  for (const d of shape) n *= d;
  return n;
}

// A shape: a plain array or a TypedArray (not a DataView, which has no elements).
function checkShape(op, name, shape, maxRank) {
  if (!Array.isArray(shape) && !(ArrayBuffer.isView(shape) && !(shape instanceof DataView))) {
    throw new TypeError(`${op}: ${name}.shape must be an array of non-negative integers, got ${typeName(shape)}`);
  }
  if (shape.length > maxRank) {
    throw new RangeError(`${op}: ${name} has rank ${shape.length}, more than the ${maxRank} dimensions wasm-gather supports`);
  }
  const out = [];
  for (let d = 0; d < shape.length; d++) {
    const s = Number(shape[d]);
    if (!Number.isInteger(s)) {
      throw new TypeError(`${op}: ${name}.shape[${d}] must be an integer, got ${describeValue(shape[d])}`);
    }
    if (s < 0 || s > MAX_DIM) {
      throw new RangeError(`${op}: ${name}.shape[${d}] must be between 0 and ${MAX_DIM}, got ${s}`);
    }
    out.push(s);
  }
  return out;
}

function checkTensorObject(op, name, t, owner) {
  if (t === null || typeof t !== 'object' || ArrayBuffer.isView(t) || Array.isArray(t)) {
    throw new TypeError(`${op}: ${name} must be a tensor { data, shape }, got ${typeName(t)}`);
  }
  const shape = checkShape(op, name, t.shape ?? t.dims, owner.abi.maxRank); // ONNX Runtime calls it dims
  return shape;
}

// data.length against what the shape needs (n: its element count unless packed; note: why).
function checkLength(op, name, length, shape, n = product(shape), note = '') {
  if (length !== n) {
    throw new RangeError(`${op}: ${name}.data has ${length} elements but ${name}.shape [${shape.join(', ')}] needs ${n}${note}`);
  }
}

/**
 * A data tensor: any numeric TypedArray, or a resident tensor of `owner` (the current module).
 * Returns { shape, Type, bytes } plus data (the caller's TypedArray) or ptr (its wasm address).
 */
export function dataTensor(op, name, t, owner, Types = DATA_TYPES) {
  return typedTensor(op, name, t, owner, { Types, what: 'a TypedArray (Float32Array, Int32Array, BigInt64Array, ...)' });
}

/** Every data array type and, where the runtime has one, Float16Array (float16 for the scatters). */
export const DATA_TYPES_F16 = [...DTYPES.keys()];

/**
 * A tensor whose data is one of `Types` (`what` names them in messages) and holds
 * `length(shape)` elements (default: the shape's element count), or a resident tensor of `owner`
 * of one of those types, packed (two 4-bit codes a byte) exactly when `packed`. Returns what
 * dataTensor returns (dtype: the array's element type, src/record.h's name).
 */
export function typedTensor(op, name, t, owner, { Types, what, length = product, packed = false }) {
  if (t instanceof ResidentTensor) {
    const r = live(t, op, name, owner, packed);
    if (!Types.includes(r.Type)) throw new TypeError(`${op}: ${name} is a resident ${r.Type.name}; it must hold ${what}`);
    return { shape: t.shape, Type: r.Type, dtype: DTYPES.get(r.Type), bytes: t.byteLength, ptr: r.ptr };
  }
  const shape = checkTensorObject(op, name, t, owner);
  const data = t.data;
  // The array's own constructor first (no closure, no scan); a subclass (Node's Buffer) by instanceof.
  if (!(data != null && Types.includes(data.constructor)) && !Types.some((T) => data instanceof T)) {
    throw new TypeError(`${op}: ${name}.data must be ${what}, got ${typeName(data)}`);
  }
  checkLength(op, name, data.length, shape, length(shape), packed ? ' (two 4-bit codes a byte, rounded up)' : '');
  return { data, shape, Type: data.constructor, dtype: DTYPES.get(data.constructor), bytes: data.byteLength };
}

const halfRoundedUp = (shape) => Math.ceil(product(shape) / 2);

/**
 * Codes of a quantized table (or its zero points) of `quantType`: a Uint8Array, its shape the
 * stored one for 'uint8' (one byte an element), else holding two 4-bit codes a byte of its
 * shape; a resident one must be packed the same way (upload(t, { quantType: 'int4' })).
 */
export function codesTensor(op, name, t, owner, quantType) {
  const packed = quantType !== 'uint8';
  return typedTensor(op, name, t, owner, packed
    ? { Types: [Uint8Array], what: 'a Uint8Array of 4-bit codes, two a byte', length: halfRoundedUp, packed }
    : { Types: [Uint8Array], what: 'a Uint8Array' });
}

/**
 * An index tensor. Returns { shape, kind, dtype, bytes } plus data (the caller's array) or ptr and Type
 * (a resident one of `owner`), where kind names the wg_index_type the C side reads
 * (WG_INDEX_<kind>; dtype names the same, src/record.h) and bytes its size in wasm memory. writeIndices() copies it into wasm memory
 * (widening narrow integer arrays, converting plain arrays), indexValues() gives its values (for
 * error messages). (No closures: this runs on every call.)
 */
export function indexTensor(op, name, t, owner) {
  if (t instanceof ResidentTensor) {
    const r = live(t, op, name, owner);
    const kind = INDEX_KINDS.get(r.Type);
    if (INDEX_VIEWS[kind] !== r.Type) {
      throw new TypeError(`${op}: ${name} is a resident ${r.Type.name}; resident indices must be Int32Array, ` +
        'Uint32Array, BigInt64Array or BigUint64Array');
    }
    return { shape: t.shape, kind, dtype: kind, bytes: t.byteLength, ptr: r.ptr, Type: r.Type, length: r.length };
  }
  const shape = checkTensorObject(op, name, t, owner);
  const data = t.data;
  let kind = ArrayBuffer.isView(data) ? INDEX_KINDS.get(data.constructor) : undefined;
  if (Array.isArray(data)) {
    kind = plainArrayKind(op, name, data);
  } else if (kind === undefined) {
    throw new TypeError(`${op}: ${name}.data must hold integers (Int32Array, Uint32Array, BigInt64Array, ` +
      `BigUint64Array or an array of integers), got ${typeName(data)}`);
  }
  checkLength(op, name, data.length, shape);
  return { shape, kind, dtype: kind, bytes: data.length * INDEX_VIEWS[kind].BYTES_PER_ELEMENT, data };
}

/** Copies the indices of indexTensor's descriptor `x` (not resident) into wasm memory at ptr. */
export function writeIndices(buffer, ptr, x) {
  const { data, kind } = x;
  const n = data.length;
  if (n === 0) return;
  if (kind === 'I64' && Array.isArray(data)) {
    const view = new BigInt64Array(buffer, ptr, n);
    for (let i = 0; i < n; i++) view[i] = clampToInt64(data[i]);
    return;
  }
  new INDEX_VIEWS[kind](buffer, ptr, n).set(data);
}

/** The index values of indexTensor's descriptor `x`, resident ones read from `buffer`. */
export const indexValues = (x, buffer) => (x.ptr === undefined ? x.data : new x.Type(buffer, x.ptr, x.length));

function clampToInt64(v) {
  const b = BigInt(v);
  return b > INT64_MAX ? INT64_MAX : b < -INT64_MAX - 1n ? -INT64_MAX - 1n : b;
}

// A plain array of integers: int32 when every value fits, int64 otherwise (values beyond int64
// are saturated; they are out of range for any tensor either way).
function plainArrayKind(op, name, data) {
  let wide = false;
  for (let i = 0; i < data.length; i++) {
    const v = data[i];
    if (typeof v === 'bigint') { wide = true; continue; }
    if (typeof v !== 'number' || !Number.isInteger(v)) {
      throw new TypeError(`${op}: ${name}.data[${i}] must be an integer, got ${describeValue(v)}`);
    }
    if (v < -2147483648 || v > 2147483647) wide = true;
  }
  return wide ? 'I64' : 'I32';
}

export function integerArg(op, name, value, fallback) {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value)) throw new TypeError(`${op}: ${name} must be an integer, got ${describeValue(value)}`);
  if (value < -(2 ** 31) || value >= 2 ** 31) throw new RangeError(`${op}: ${name} ${value} is out of range`);
  return value;
}

/** The options every op takes (commonOptions checks them; each op's descriptor, js/ops/, lists its own). */
export const COMMON_OPTIONS = Object.freeze(['outOfRange', 'negativeIndices', 'out', 'resident']);

/** The Set of option names an op with its own options `own` takes (commonOptions' `known`), and
 * `common` of COMMON_OPTIONS (all by default). */
export const optionNames = (own, common = COMMON_OPTIONS) => new Set([...own, ...common]);

// A name compared loosely, for the did-you-mean hint: case, '_' and '-' ignored (batch_dims: batchDims).
const loose = (name) => name.toLowerCase().replace(/[_-]/g, '');

/**
 * Throws a TypeError naming `op`, the first own enumerable string key of `opts` that is not in
 * `known` (an array of option names) and the valid ones, with a did-you-mean hint where one of
 * them differs only in case or by '_' / '-'. A typo in an option name is an error: ignored, it
 * would leave the default in force without a word. Symbol keys are not options and pass.
 */
export function checkOptionNames(op, opts, known) {
  if (opts === undefined || opts === null) return;
  for (const key of Object.keys(opts)) {
    if (known.includes(key)) continue;
    const near = known.find((k) => loose(k) === loose(key));
    const valid = known.length ? known.join(', ') : 'none';
    throw new TypeError(`${op}: unknown option '${key}'${near ? ` (did you mean '${near}'?)` : ''} (valid options: ${valid})`);
  }
}

/**
 * Validates opts; returns { opts, mode, negative } with mode one of `modes` (default 'error', 'zero'
 * or 'clamp': wg_oob_mode WG_OOB_<MODE>; the scatters' 'drop' is WG_OOB_ZERO) and negative 'wrap' or 'error' (wg_negative_mode WG_NEGATIVE_<POLICY>). With
 * `known` (a Set of every option name the op takes: its own, js/ops/<op>.mjs, and COMMON_OPTIONS:
 * optionNames), any other name throws (checkOptionNames).
 */
export function commonOptions(op, opts, known, modes = OOB_MODES) {
  if (opts === undefined || opts === null) opts = {};
  if (typeof opts !== 'object') throw new TypeError(`${op}: opts must be an object, got ${typeName(opts)}`);
  if (known) {
    // Every call passes here: no array is made unless a name is unknown.
    for (const key in opts) {
      if (!known.has(key) && Object.hasOwn(opts, key)) checkOptionNames(op, opts, [...known]);
    }
  }
  const oob = opts.outOfRange ?? 'error';
  if (!modes.includes(oob)) {
    throw new RangeError(`${op}: opts.outOfRange must be ${modes.map((m) => `'${m}'`).join(', ').replace(/, ([^,]*)$/, ' or $1')}, got ${JSON.stringify(oob)}`);
  }
  const negative = opts.negativeIndices ?? 'wrap';
  if (!NEGATIVE_POLICIES.includes(negative)) {
    const Err = typeof negative === 'string' ? RangeError : TypeError;
    throw new Err(`${op}: opts.negativeIndices must be 'wrap' or 'error', got ${typeof negative === 'string' ? JSON.stringify(negative) : typeName(negative)}`);
  }
  return { opts, mode: oob, negative };
}

const TARGET_NEW = Object.freeze({ kind: 'new' });
const TARGET_RESIDENT = Object.freeze({ kind: 'resident' });

/**
 * Where the output goes, from opts.out and opts.resident, as { kind }: 'new' (a new TypedArray),
 * 'array' (into opts.out's TypedArray: { array }), 'resident' (a new resident tensor) or
 * 'in-place' (opts.out is a resident tensor of `owner`: { ptr }). Checks type, size and shape;
 * `inputs` are the descriptors of the op's tensors (undefined: absent), which a resident out
 * must not be.
 */
export function outputTarget(op, opts, Type, shape, owner, inputs, like = 'the data') {
  const { out, resident } = opts;
  const n = product(shape);
  if (resident !== undefined && typeof resident !== 'boolean') {
    throw new TypeError(`${op}: opts.resident must be true or false, got ${typeName(resident)}`);
  }
  if (out === undefined || out === null) return resident ? TARGET_RESIDENT : TARGET_NEW;
  if (resident) throw new TypeError(`${op}: give opts.out or opts.resident, not both`);
  if (out instanceof ResidentTensor) {
    const r = live(out, op, 'opts.out', owner);
    checkOut(op, r.Type, r.length, out.shape, Type, shape, like);
    if (inputs.some((t) => t !== undefined && t.ptr === r.ptr)) {
      throw new RangeError(`${op}: opts.out must not be one of the op's inputs (the output would overwrite what it reads)`);
    }
    return { kind: 'in-place', ptr: r.ptr };
  }
  if (ArrayBuffer.isView(out)) {
    checkOut(op, out.constructor, out.length, undefined, Type, shape, like);
    return { kind: 'array', array: out };
  }
  if (typeof out !== 'object') {
    throw new TypeError(`${op}: opts.out must be a ${Type.name}, { data, shape } or a resident tensor, got ${typeName(out)}`);
  }
  const s = out.shape ?? out.dims;
  const given = s === undefined ? undefined : checkShape(op, 'opts.out', s, owner.abi.maxRank);
  checkOut(op, out.data?.constructor, out.data?.length, given, Type, shape, like);
  return { kind: 'array', array: out.data };
}

/** Whether two shapes are equal, dimension by dimension. */
export function sameShape(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function checkOut(op, GivenType, length, givenShape, Type, shape, like) {
  if (GivenType !== Type) {
    throw new TypeError(`${op}: opts.out must be a ${Type.name} like ${like}, got ${GivenType?.name ?? 'no TypedArray'}`);
  }
  if (givenShape && !sameShape(givenShape, shape)) {
    throw new RangeError(`${op}: opts.out.shape [${givenShape.join(', ')}] must be the output shape [${shape.join(', ')}]`);
  }
  const n = product(shape);
  if (length !== n) {
    throw new RangeError(`${op}: opts.out has ${length} elements but the output [${shape.join(', ')}] has ${n}`);
  }
}
