// What the scatters (js/ops/) share: the
// reduction and includeSelf, the 16-bit float types of opts.dtype, and updates of data's type.
import { DATA_TYPES_F16, dataTensor, describeValue, typeName } from './tensor.mjs';

/** The scatters' opts.outOfRange values: 'drop' skips an update out of range (C's WG_OOB_ZERO). */
export const SCATTER_MODES = Object.freeze(['error', 'drop', 'clamp']);

// opts.reduce's names, torch's aliases included, and their wg_reduce (src/wasm_gather.h).
const REDUCES = { none: 'NONE', add: 'ADD', sum: 'ADD', mul: 'MUL', prod: 'MUL', max: 'MAX', amax: 'MAX',
  min: 'MIN', amin: 'MIN', mean: 'MEAN' };

/**
 * [reduce, include_self] attribute values from opts.reduce ('none' by default; 'mean' only where
 * `mean`) and opts.includeSelf (true by default).
 */
export function reduceAttrs(op, opts, s, mean) {
  const r = opts.reduce ?? 'none';
  if (!Object.hasOwn(REDUCES, r) || (r === 'mean' && !mean)) {
    const names = Object.keys(REDUCES).filter((n) => mean || n !== 'mean').map((n) => `'${n}'`).join(', ');
    throw new RangeError(`${op}: opts.reduce must be one of ${names}, got ${typeof r === 'string' ? JSON.stringify(r) : typeName(r)}`);
  }
  const self = opts.includeSelf ?? true;
  if (typeof self !== 'boolean') throw new TypeError(`${op}: opts.includeSelf must be true or false, got ${typeName(self)}`);
  return [s.abi.value(`WG_REDUCE_${REDUCES[r]}`), self ? 1 : 0];
}

const HALF_TYPES = { float16: 'F16', bfloat16: 'BF16' };
const Float16 = typeof globalThis.Float16Array === 'function' ? globalThis.Float16Array : undefined;

/**
 * The data tensor of one of the scatters (dataTensor), its dtype the float16 or bfloat16 of opts.dtype when
 * given: bits in a Uint16Array (or a Float16Array, float16 without opts.dtype).
 */
export function scatterData(op, name, value, s, opts) {
  const d = dataTensor(op, name, value, s, DATA_TYPES_F16);
  const dtype = opts !== null && typeof opts === 'object' ? opts.dtype : undefined;
  if (dtype === undefined) return d;
  if (!Object.hasOwn(HALF_TYPES, dtype)) {
    throw new RangeError(`${op}: opts.dtype must be 'float16' or 'bfloat16' (16-bit float bits in a Uint16Array), got ${describeValue(dtype)}`);
  }
  if (d.Type !== Uint16Array && !(dtype === 'float16' && d.Type === Float16)) {
    throw new TypeError(`${op}: opts.dtype '${dtype}' needs ${name} to hold its bits in a Uint16Array, got a ${d.Type.name}`);
  }
  d.dtype = HALF_TYPES[dtype];
  return d;
}

/** The updates (`name`: what the op calls them), of the data's array type and dtype. */
export function updatesTensor(op, name, value, s, data) {
  const u = dataTensor(op, name, value, s, DATA_TYPES_F16);
  if (u.Type !== data.Type) {
    throw new TypeError(`${op}: ${name} must be ${/^[AEIOU]/.test(data.Type.name) ? 'an' : 'a'} ${data.Type.name} like the tensor it updates, got ${u.Type.name}`);
  }
  u.dtype = data.dtype;
  return u;
}

/** torch's value form: a number (or bigint) as a rank-0 tensor of the data's type. */
export function valueTensor(op, name, value, data) {
  if (typeof value !== 'number' && typeof value !== 'bigint') return undefined;
  const Type = data.Type;
  let x = value;
  if (Type === BigInt64Array || Type === BigUint64Array) {
    if (typeof x === 'number' && !Number.isInteger(x)) throw new TypeError(`${op}: ${name} must be an integer for a ${Type.name}, got ${x}`);
    x = BigInt(x);
  } else {
    if (typeof x === 'bigint') throw new TypeError(`${op}: ${name} must be a number for a ${Type.name}, got ${x}n`);
    // bits for a Uint16Array of float16 or bfloat16; a Float16Array converts the number itself
    if (data.dtype === 'F16' && Type !== Float16) x = f16Bits(x);
    else if (data.dtype === 'BF16') x = bf16Bits(x);
  }
  const arr = new Type(1);
  arr[0] = x;
  return { data: arr, shape: [], Type, dtype: data.dtype, bytes: Type.BYTES_PER_ELEMENT };
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** float16 bits of a number, rounded to float32 and then to nearest even (as the C kernels round). */
export function f16Bits(v) {
  f32[0] = v;
  const x = u32[0], sign = (x >>> 16) & 0x8000, m = x & 0x7fffff;
  let e = (x >>> 23) & 0xff;
  if (e === 0xff) return sign | (m ? 0x7e00 : 0x7c00);
  e -= 112; // the exponent of binary16
  if (e >= 0x1f) return sign | 0x7c00;
  const full = e <= 0 ? m | 0x800000 : m, shift = e <= 0 ? 14 - e : 13;
  if (shift > 24) return sign;
  let h = (e <= 0 ? 0 : e << 10) | (full >>> shift);
  const rem = full & ((1 << shift) - 1), half = 1 << (shift - 1);
  if (rem > half || (rem === half && (h & 1))) h++; // a carry moves into the exponent, up to Infinity
  return sign | h;
}

/** bfloat16 bits of a number, rounded to float32 and then to nearest even. */
export function bf16Bits(v) {
  f32[0] = v;
  const x = u32[0];
  if ((x & 0x7fffffff) > 0x7f800000) return ((x >>> 16) & 0x8000) | 0x7fc0;
  return (x + 0x7fff + ((x >>> 16) & 1)) >>> 16;
}
