// Independent plain-JS reference of the scatter family, written from the public specifications:
//   torch.scatter / scatter_reduce   https://pytorch.org/docs/stable/generated/torch.Tensor.scatter_reduce_.html
//   torch.index_reduce / index_add   https://pytorch.org/docs/stable/generated/torch.Tensor.index_reduce_.html
//   ONNX ScatterElements-18          https://onnx.ai/onnx/operators/onnx__ScatterElements.html
//   ONNX ScatterND-18                https://onnx.ai/onnx/operators/onnx__ScatterND.html
//   ONNX TensorScatter-24            https://onnx.ai/onnx/operators/onnx__TensorScatter.html
//   tf.tensor_scatter_nd_*           https://www.tensorflow.org/api_docs/python/tf/tensor_scatter_nd_update
//   tf.math.unsorted_segment_*       https://www.tensorflow.org/api_docs/python/tf/math/unsorted_segment_sum
// Shares no code with js/. Deliberately simple: each op lists its updates as (destination,
// source) pairs in the decided order, and one loop (applyUpdates) applies them one at a time.
//
//   refScatter(input, dim, index, src, opts)           torch.scatter / scatter_reduce, ONNX ScatterElements
//   refScatterND(data, indices, updates, opts)         ONNX ScatterND, tf.tensor_scatter_nd_*
//   refIndexReduce(input, axis, index, source, opts)   torch.index_copy / index_add / index_reduce,
//                                                      tf.math.unsorted_segment_* over an initial tensor
//   refTensorScatter(cache, update, writeIndices, opts) ONNX TensorScatter-24
//
// Tensors are { data, shape }; data is a TypedArray (float16 / bfloat16: a Uint16Array of bits
// with opts.dtype, or a Float16Array), indices may also be a plain array of integers or bigints.
// The result is { data: a new array of the input's type, shape: the input's shape }.
//
// Options (all ops but tensorScatter):
//   reduce: 'none' (default: the last write wins) | 'add' | 'mul' | 'max' | 'min', and 'mean' for
//     refScatter and refIndexReduce; aliases sum, prod, amax, amin (torch's names).
//   includeSelf (default true): false makes every position an update hits start from the
//     reduction's identity instead of the input's value.
//   outOfRange: 'error' (default) | 'drop' (the update is skipped; scatterND: its whole slice) |
//     'clamp' (WebNN: a negative index wraps once, then is clamped into [0, s-1]; s == 0 drops it).
//   negativeIndices: 'wrap' (default: v < 0 means v + s) | 'error' (every negative is out of range).
// In 'error' mode the first bad index in the index tensor's row-major order throws a RangeError
// with .position (its flat position) and .value (the element as stored), and nothing is written.
import { numel, ravel, unravel } from './shape.mjs';

// ---------------------------------------------------------------------------------------------
// Element types. Integers compute in BigInt (exact, then wrapped to the type); floats in
// numbers; float16 / bfloat16 are stored as bits and compute in float32.

const INT_TYPES = {
  int8: [8, true], int16: [16, true], int32: [32, true], int64: [64, true],
  uint8: [8, false], uint16: [16, false], uint32: [32, false], uint64: [64, false],
};
// Half formats: mantissa bits, exponent bias, the all-ones exponent field, the quiet NaN.
const HALF = {
  float16: { mant: 10, bias: 15, expMax: 31, nan: 0x7e00 },
  bfloat16: { mant: 7, bias: 127, expMax: 255, nan: 0x7fc0 },
};

// The dtype a TypedArray holds. A Uint8ClampedArray is uint8: updates wrap, they never clamp.
function naturalDtype(data) {
  const F16 = globalThis.Float16Array;
  if (F16 && data instanceof F16) return 'float16';
  const byName = {
    Float32Array: 'float32', Float64Array: 'float64', Int8Array: 'int8', Int16Array: 'int16',
    Int32Array: 'int32', BigInt64Array: 'int64', Uint8Array: 'uint8', Uint8ClampedArray: 'uint8',
    Uint16Array: 'uint16', Uint32Array: 'uint32', BigUint64Array: 'uint64',
  };
  const t = ArrayBuffer.isView(data) ? byName[data.constructor.name] : undefined;
  if (!t) throw new TypeError('tensor data must be a numeric TypedArray');
  return t;
}

/** The dtype of a data tensor: its array's, or opts.dtype ('float16' | 'bfloat16') over a Uint16Array. */
export function dtypeOf(data, opts = {}) {
  const natural = naturalDtype(data);
  const asked = opts.dtype;
  if (asked === undefined || asked === natural) return natural;
  if ((asked === 'float16' || asked === 'bfloat16') && natural === 'uint16') return asked;
  throw new TypeError(`opts.dtype ${asked} does not fit a ${data.constructor.name}`);
}

const isInt = (dtype) => dtype in INT_TYPES;

// Round-to-nearest-even of a non-negative number to an integer.
function roundHalfEven(q) {
  const f = Math.floor(q);
  const d = q - f;
  if (d !== 0.5) return d < 0.5 ? f : f + 1;
  return f % 2 === 0 ? f : f + 1;
}

/** Bits of the float16 / bfloat16 nearest to x (any double), ties to even; overflow is Infinity. */
export function toHalfBits(x, dtype) {
  const { mant, bias, expMax, nan } = HALF[dtype];
  if (Number.isNaN(x)) return nan;
  const sign = x < 0 || Object.is(x, -0) ? 0x8000 : 0;
  const a = Math.abs(x);
  if (a === Infinity) return sign | (expMax << mant);
  if (a < 2 ** (1 - bias)) {
    // Subnormal: a count of the smallest step. A count of 2^mant is the smallest normal, whose
    // encoding (exponent field 1, mantissa 0) is that same integer.
    return sign | roundHalfEven(a / 2 ** (1 - bias - mant));
  }
  let e = Math.floor(Math.log2(a));
  if (2 ** e > a) e--; // log2 may land one off near powers of two
  if (2 ** (e + 1) <= a) e++;
  let m = roundHalfEven((a / 2 ** e - 1) * 2 ** mant);
  if (m === 2 ** mant) {
    m = 0;
    e++;
  }
  if (e + bias >= expMax) return sign | (expMax << mant);
  return sign | ((e + bias) << mant) | m;
}

/** The value of float16 / bfloat16 bits. */
export function fromHalfBits(b, dtype) {
  const { mant, bias, expMax } = HALF[dtype];
  const sign = b & 0x8000 ? -1 : 1;
  const E = (b >> mant) & expMax;
  const M = b & (2 ** mant - 1);
  if (E === expMax) return M ? NaN : sign * Infinity;
  if (E === 0) return sign * M * 2 ** (1 - bias - mant);
  return sign * (1 + M / 2 ** mant) * 2 ** (E - bias);
}

// Reads and writes the elements of one array by value and by bits. Copies and the max/min
// winners go by bits, so a NaN's payload and -0 survive; arithmetic goes by value.
function access(data, dtype) {
  if (isInt(dtype)) {
    const big = dtype === 'int64' || dtype === 'uint64';
    return {
      get: (i) => BigInt(data[i]),
      set: (i, v) => { data[i] = big ? v : Number(v); },
      bits: (i) => data[i],
      setBits: (i, b) => { data[i] = b; },
    };
  }
  if (dtype === 'float16' || dtype === 'bfloat16') {
    const u16 = data instanceof Uint16Array ? data : new Uint16Array(data.buffer, data.byteOffset, data.length);
    return {
      get: (i) => fromHalfBits(u16[i], dtype),
      set: (i, v) => { u16[i] = toHalfBits(v, dtype); },
      bits: (i) => u16[i],
      setBits: (i, b) => { u16[i] = b; },
    };
  }
  const Bits = dtype === 'float32' ? Uint32Array : BigUint64Array;
  const bitsView = new Bits(data.buffer, data.byteOffset, data.length);
  return {
    get: (i) => data[i],
    set: (i, v) => { data[i] = v; }, // v is already rounded to the type (float32: Math.fround)
    bits: (i) => bitsView[i],
    setBits: (i, b) => { bitsView[i] = b; },
  };
}

// Two's complement wrap of a BigInt into an integer dtype.
function wrapInt(v, dtype) {
  const [bits, signed] = INT_TYPES[dtype];
  return signed ? BigInt.asIntN(bits, v) : BigInt.asUintN(bits, v);
}

// a + b or a * b in the dtype: integers wrap; float32 and the half formats round to float32
// (the half formats are rounded again to 16 bits when stored); float64 is plain.
function arith(op, a, b, dtype) {
  if (isInt(dtype)) return wrapInt(op === 'mul' ? a * b : a + b, dtype);
  const r = op === 'mul' ? a * b : a + b;
  return dtype === 'float64' ? r : Math.fround(r);
}

// sum / count for 'mean': floats divide in the dtype (halves in float32); integers floor
// (toward -infinity), as torch's div_(count, rounding_mode='floor') in
// aten/src/ATen/native/TensorAdvancedIndexing.cpp (scatter_reduce_two).
function divide(sum, count, dtype) {
  if (!isInt(dtype)) return dtype === 'float64' ? sum / count : Math.fround(sum / count);
  const n = BigInt(count);
  let q = sum / n; // BigInt division truncates toward zero
  if (sum % n !== 0n && sum < 0n) q -= 1n;
  return q;
}

// The value a position starts from when includeSelf is false.
function identity(reduce, dtype) {
  if (reduce === 'add' || reduce === 'mean') return isInt(dtype) ? 0n : 0;
  if (reduce === 'mul') return isInt(dtype) ? 1n : 1;
  if (!isInt(dtype)) return reduce === 'max' ? -Infinity : Infinity;
  const [bits, signed] = INT_TYPES[dtype];
  const lo = signed ? -(2n ** BigInt(bits - 1)) : 0n;
  const hi = signed ? 2n ** BigInt(bits - 1) - 1n : 2n ** BigInt(bits) - 1n;
  return reduce === 'max' ? lo : hi;
}

// Does the update replace the value in place under max / min? A NaN update always wins (a NaN in
// place included, so the last NaN's bits are kept), a NaN in place stays against a number,
// otherwise only a strictly greater (max) / less (min) one wins: a tie (+0 vs -0) keeps the value.
function wins(reduce, cur, upd) {
  if (typeof cur === 'number') {
    if (Number.isNaN(upd)) return true;
    if (Number.isNaN(cur)) return false;
  }
  return reduce === 'max' ? upd > cur : upd < cur;
}

/**
 * A copy of input.data with the updates applied one at a time, in order. updates: [dst, src]
 * pairs of flat positions into input.data and srcData.
 */
function applyUpdates(input, srcData, updates, reduce, includeSelf, dtype) {
  const out = input.data.slice(); // same type: a copy of the bytes
  const o = access(out, dtype);
  const s = access(srcData, dtype);
  if (reduce === 'none') {
    for (const [d, i] of updates) o.setBits(d, s.bits(i));
    return out;
  }
  const hits = new Map(); // destination -> how many updates reach it
  for (const [d] of updates) hits.set(d, (hits.get(d) ?? 0) + 1);
  if (!includeSelf) for (const d of hits.keys()) o.set(d, identity(reduce, dtype));
  for (const [d, i] of updates) {
    if (reduce === 'max' || reduce === 'min') {
      if (wins(reduce, o.get(d), s.get(i))) o.setBits(d, s.bits(i));
    } else {
      o.set(d, arith(reduce === 'mul' ? 'mul' : 'add', o.get(d), s.get(i), dtype));
    }
  }
  if (reduce === 'mean') {
    for (const [d, n] of hits) o.set(d, divide(o.get(d), n + (includeSelf ? 1 : 0), dtype));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Checks and indices.

const REDUCE_ALIASES = { sum: 'add', prod: 'mul', amax: 'max', amin: 'min' };
const OUT_OF_RANGE = new Set(['error', 'drop', 'clamp']);
const COMMON_OPTS = ['reduce', 'includeSelf', 'outOfRange', 'negativeIndices', 'dtype'];

function checkShape(t, name) {
  if (!t || typeof t !== 'object' || !Array.isArray(t.shape) || t.data == null) {
    throw new TypeError(`${name} must be {data, shape}`);
  }
  for (const d of t.shape) if (!Number.isInteger(d) || d < 0) throw new RangeError(`${name}.shape has a bad dim ${d}`);
  if (t.data.length !== numel(t.shape)) {
    throw new RangeError(`${name}.data has ${t.data.length} elements, shape [${t.shape}] needs ${numel(t.shape)}`);
  }
}

function checkData(t, name, opts) {
  checkShape(t, name);
  return dtypeOf(t.data, opts);
}

// An index tensor: an integer TypedArray, or a plain array of integer numbers or bigints.
function checkIndex(t, name) {
  checkShape(t, name);
  const d = t.data;
  if (Array.isArray(d)) {
    for (const v of d) {
      if (typeof v !== 'bigint' && !Number.isInteger(v)) throw new TypeError(`${name} holds a non-integer ${v}`);
    }
  } else if (!ArrayBuffer.isView(d) || !isInt(naturalDtype(d))) {
    throw new TypeError(`${name}.data must be an integer TypedArray or an array of integers`);
  }
}

// The source tensor must hold the same type as the input it is reduced into.
function checkSameType(a, b, nameA, nameB) {
  if (a.data.constructor !== b.data.constructor) {
    throw new TypeError(`${nameB} must be a ${a.data.constructor.name} like ${nameA}, got ${b.data.constructor.name}`);
  }
}

function checkOpts(op, opts, names) {
  for (const k of Object.keys(opts)) if (!names.includes(k)) throw new TypeError(`${op}: unknown option ${k}`);
}

function getReduce(op, opts, allowed) {
  const r = REDUCE_ALIASES[opts.reduce] ?? opts.reduce ?? 'none';
  if (!allowed.includes(r)) throw new TypeError(`${op}: reduce must be one of ${allowed.join(', ')}, got ${opts.reduce}`);
  return r;
}

function getPolicies(op, opts) {
  const outOfRange = opts.outOfRange ?? 'error';
  const negative = opts.negativeIndices ?? 'wrap';
  const includeSelf = opts.includeSelf ?? true;
  if (!OUT_OF_RANGE.has(outOfRange)) throw new TypeError(`${op}: bad outOfRange ${outOfRange}`);
  if (negative !== 'wrap' && negative !== 'error') throw new TypeError(`${op}: bad negativeIndices ${negative}`);
  if (typeof includeSelf !== 'boolean') throw new TypeError(`${op}: includeSelf must be a boolean`);
  return { outOfRange, negative, includeSelf };
}

const big = (v) => (typeof v === 'bigint' ? v : BigInt(v));

// Where index value v (a BigInt) points in a dimension of size s, or -1 when it points nowhere.
function resolveIndex(v, s, outOfRange, negative) {
  const S = BigInt(s);
  let i = v;
  if (i < 0n && negative === 'wrap') i += S;
  if (outOfRange === 'clamp') {
    if (s === 0) return -1;
    return Number(i < 0n ? 0n : i >= S ? S - 1n : i);
  }
  return i >= 0n && i < S ? Number(i) : -1;
}

function indexError(op, position, value, lo, hi) {
  const range = hi < lo ? 'none: the dimension is empty' : `[${lo}, ${hi}]`;
  const e = new RangeError(`${op}: index ${value} at position ${position} of the index tensor is out of range (valid: ${range})`);
  e.position = position;
  e.value = value;
  return e;
}

// 'error' mode: throws for the first index (flat order) that points nowhere. sizeAt(p) is the
// size of the dimension index element p addresses.
function checkEveryIndex(op, indexData, sizeAt, negative) {
  for (let p = 0; p < indexData.length; p++) {
    const s = sizeAt(p);
    if (resolveIndex(big(indexData[p]), s, 'error', negative) < 0) {
      throw indexError(op, p, indexData[p], negative === 'wrap' ? -s : 0, s - 1);
    }
  }
}

// A rank-0 tensor is taken as shape [1] (torch's scatter on 0-d tensors).
const atLeast1 = (shape) => (shape.length ? shape : [1]);

function normAxis(op, axis, rank, what) {
  if (!Number.isInteger(axis) || axis < -rank || axis >= rank) throw new RangeError(`${op}: ${what} ${axis} is out of range for rank ${rank}`);
  return axis < 0 ? axis + rank : axis;
}

// The value form of torch.scatter: every update is src, converted to the input's dtype.
function filledSource(value, n, input, dtype) {
  const out = new input.data.constructor(n);
  if (isInt(dtype)) {
    if (typeof value !== 'bigint' && !Number.isInteger(value)) throw new TypeError('src must be an integer for an integer input');
    const v = wrapInt(big(value), dtype);
    out.fill(dtype === 'int64' || dtype === 'uint64' ? v : Number(v));
  } else if (dtype === 'float16' || dtype === 'bfloat16') {
    access(out, dtype).set(0, Number(value));
    out.fill(out[0]);
  } else {
    out.fill(Number(value));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// torch.scatter(input, dim, index, src) / scatter_reduce, ONNX ScatterElements:
//   out[i with i[dim] := index[i]] (reduce)= src[i], for every multi-index i of index.
// input, index and src have one rank; index.shape[d] <= src.shape[d] for every d and
// <= input.shape[d] for d != dim (torch's rule). src may be a number.
export function refScatter(input, dim, index, src, opts = {}) {
  const op = 'scatter';
  checkOpts(op, opts, COMMON_OPTS);
  const dtype = checkData(input, 'input', opts);
  checkIndex(index, 'index');
  const srcIsValue = typeof src === 'number' || typeof src === 'bigint';
  if (!srcIsValue) {
    checkData(src, 'src', opts);
    checkSameType(input, src, 'input', 'src');
  }
  const reduce = getReduce(op, opts, ['none', 'add', 'mul', 'max', 'min', 'mean']);
  const { outOfRange, negative, includeSelf } = getPolicies(op, opts);
  const r = input.shape.length;
  if (index.shape.length !== r || (!srcIsValue && src.shape.length !== r)) {
    throw new RangeError(`${op}: input, index and src must have the same rank`);
  }
  const inShape = atLeast1(input.shape);
  const idxShape = atLeast1(index.shape);
  const srcShape = srcIsValue ? idxShape : atLeast1(src.shape);
  const d = normAxis(op, dim, inShape.length, 'dim');
  for (let e = 0; e < inShape.length; e++) {
    if (idxShape[e] > srcShape[e]) throw new RangeError(`${op}: index.shape[${e}] must be <= src.shape[${e}]`);
    if (e !== d && idxShape[e] > inShape[e]) throw new RangeError(`${op}: index.shape[${e}] must be <= input.shape[${e}] (dim ${e} is not dim)`);
  }
  const s = inShape[d];
  if (outOfRange === 'error') checkEveryIndex(op, index.data, () => s, negative);

  const srcData = srcIsValue ? filledSource(src, numel(idxShape), input, dtype) : src.data;
  const updates = [];
  for (let p = 0; p < index.data.length; p++) {
    const k = resolveIndex(big(index.data[p]), s, outOfRange, negative);
    if (k < 0) continue;
    const c = unravel(p, idxShape);
    const from = ravel(c, srcShape);
    c[d] = k;
    updates.push([ravel(c, inShape), from]);
  }
  return { data: applyUpdates(input, srcData, updates, reduce, includeSelf, dtype), shape: input.shape.slice() };
}

// ---------------------------------------------------------------------------------------------
// ONNX ScatterND / tf.tensor_scatter_nd_*, K = indices.shape[-1]:
//   out[indices[t, :], ...] (reduce)= updates[t, ...] for every t of indices.shape[:-1]
//   updates.shape == indices.shape[:-1] + data.shape[K:]
export function refScatterND(data, indices, updates, opts = {}) {
  const op = 'scatterND';
  checkOpts(op, opts, COMMON_OPTS);
  const dtype = checkData(data, 'data', opts);
  checkIndex(indices, 'indices');
  checkData(updates, 'updates', opts);
  checkSameType(data, updates, 'data', 'updates');
  const reduce = getReduce(op, opts, ['none', 'add', 'mul', 'max', 'min']);
  const { outOfRange, negative, includeSelf } = getPolicies(op, opts);
  const Q = indices.shape.length;
  // ONNX ScatterND and tf.tensor_scatter_nd_* both want data of rank >= 1
  if (data.shape.length < 1) throw new RangeError(`${op}: data must have rank >= 1`);
  if (Q < 1) throw new RangeError(`${op}: indices must have rank >= 1`);
  const K = indices.shape[Q - 1];
  if (K > data.shape.length) throw new RangeError(`${op}: indices.shape[-1] must be <= the rank of data`);
  const rowShape = indices.shape.slice(0, Q - 1);
  const sliceShape = data.shape.slice(K);
  const want = rowShape.concat(sliceShape);
  if (updates.shape.length !== want.length || updates.shape.some((v, i) => v !== want[i])) {
    throw new RangeError(`${op}: updates.shape must be indices.shape[:-1] + data.shape[K:] = [${want}]`);
  }
  if (outOfRange === 'error') checkEveryIndex(op, indices.data, (p) => data.shape[p % K], negative);

  const rows = numel(rowShape);
  const sliceSize = numel(sliceShape);
  const list = [];
  for (let t = 0; t < rows; t++) {
    const at = [];
    for (let j = 0; j < K; j++) at.push(resolveIndex(big(indices.data[t * K + j]), data.shape[j], outOfRange, negative));
    if (at.some((k) => k < 0)) continue; // the whole slice is dropped
    const base = ravel(at, data.shape.slice(0, K)) * sliceSize;
    for (let e = 0; e < sliceSize; e++) list.push([base + e, t * sliceSize + e]);
  }
  return { data: applyUpdates(data, updates.data, list, reduce, includeSelf, dtype), shape: data.shape.slice() };
}

// ---------------------------------------------------------------------------------------------
// torch.index_reduce (index_copy, index_add) and tf.math.unsorted_segment_* over an initial tensor:
//   out[o, index[i], k] (reduce)= source[o, i, k], i running over the index tensor (any rank)
//   source.shape == input.shape[:axis] + index.shape + input.shape[axis+1:] (tf.gather's output)
// Updates are applied in source's row-major order.
export function refIndexReduce(input, axis, index, source, opts = {}) {
  const op = 'indexReduce';
  checkOpts(op, opts, COMMON_OPTS);
  const dtype = checkData(input, 'input', opts);
  checkIndex(index, 'index');
  checkData(source, 'source', opts);
  checkSameType(input, source, 'input', 'source');
  const reduce = getReduce(op, opts, ['none', 'add', 'mul', 'max', 'min', 'mean']);
  const { outOfRange, negative, includeSelf } = getPolicies(op, opts);
  const r = input.shape.length;
  if (r < 1) throw new RangeError(`${op}: input must have rank >= 1`);
  const a = normAxis(op, axis, r, 'axis');
  const outer = input.shape.slice(0, a);
  const inner = input.shape.slice(a + 1);
  const want = outer.concat(index.shape, inner);
  if (source.shape.length !== want.length || source.shape.some((v, i) => v !== want[i])) {
    throw new RangeError(`${op}: source.shape must be input.shape[:axis] + index.shape + input.shape[axis+1:] = [${want}]`);
  }
  const s = input.shape[a];
  if (outOfRange === 'error') checkEveryIndex(op, index.data, () => s, negative);

  const Q = index.shape.length;
  const list = [];
  for (let q = 0; q < source.data.length; q++) {
    const c = unravel(q, source.shape);
    const i = ravel(c.slice(a, a + Q), index.shape);
    const k = resolveIndex(big(index.data[i]), s, outOfRange, negative);
    if (k < 0) continue;
    list.push([ravel(c.slice(0, a).concat([k], c.slice(a + Q)), input.shape), q]);
  }
  return { data: applyUpdates(input, source.data, list, reduce, includeSelf, dtype), shape: input.shape.slice() };
}

// ---------------------------------------------------------------------------------------------
// ONNX TensorScatter-24 (a KV-cache update): row s of update along opts.axis goes to row
// writeIndices[b] + s of cache ('circular': modulo cache.shape[axis]), b the batch (dim 0).
//   opts.axis (default -2; normalized, in [1, rank-1]), opts.mode 'linear' (default) | 'circular'
// update.shape[axis] > cache.shape[axis] is an error in both modes: the spec's shape rule
// (sequence_length <= max_sequence_length), which onnxruntime enforces before the mode
// (onnxruntime/core/providers/cpu/llm/tensorscatter.cc). A negative write index is an error in
// both modes, as there; 'linear' also refuses writeIndices[b] + update.shape[axis] > cache.shape[axis].
// Every write index is checked, in batch order, before anything is written, also when the cache
// holds no element (as onnxruntime-web 1.30 does).
export function refTensorScatter(cache, update, writeIndices, opts = {}) {
  const op = 'tensorScatter';
  checkOpts(op, opts, ['axis', 'mode', 'dtype']);
  const dtype = checkData(cache, 'cache', opts);
  checkData(update, 'update', opts);
  checkSameType(cache, update, 'cache', 'update');
  const mode = opts.mode ?? 'linear';
  if (mode !== 'linear' && mode !== 'circular') throw new TypeError(`${op}: mode must be linear or circular, got ${mode}`);
  const r = cache.shape.length;
  if (r < 2) throw new RangeError(`${op}: cache must have rank >= 2`);
  if (update.shape.length !== r) throw new RangeError(`${op}: update must have the rank of cache`);
  const axis = opts.axis ?? -2;
  if (!Number.isInteger(axis) || axis < -r || axis >= r) throw new RangeError(`${op}: axis ${axis} is out of range for rank ${r}`);
  const a = axis < 0 ? axis + r : axis;
  if (a < 1) throw new RangeError(`${op}: axis must be in [1, rank-1] after normalizing (dim 0 is the batch)`);
  for (let d = 0; d < r; d++) {
    if (d !== a && update.shape[d] !== cache.shape[d]) throw new RangeError(`${op}: update.shape[${d}] must equal cache.shape[${d}]`);
  }
  const maxSeq = cache.shape[a];
  const seq = update.shape[a];
  if (seq > maxSeq) throw new RangeError(`${op}: update.shape[axis] (${seq}) must be <= cache.shape[axis] (${maxSeq})`);
  const batch = cache.shape[0];
  let wi = writeIndices;
  if (wi == null) wi = { data: new Array(batch).fill(0), shape: [batch] };
  checkIndex(wi, 'writeIndices');
  if (wi.shape.length !== 1 || wi.shape[0] !== batch) throw new RangeError(`${op}: writeIndices must have shape [${batch}]`);
  const hi = mode === 'linear' ? maxSeq - seq : Infinity;
  for (let b = 0; b < batch; b++) {
    const v = big(wi.data[b]);
    if (v < 0n || (mode === 'linear' && v > BigInt(hi))) throw indexError(op, b, wi.data[b], 0, hi);
  }

  const prefix = cache.shape.slice(0, a); // batch and the dims before axis
  const suffix = numel(cache.shape.slice(a + 1));
  const list = [];
  for (let p = 0; p < numel(prefix); p++) {
    const start = big(wi.data[unravel(p, prefix)[0]]);
    for (let s = 0; s < seq; s++) {
      const row = mode === 'linear' ? Number(start) + s : Number((start + BigInt(s)) % BigInt(maxSeq));
      for (let e = 0; e < suffix; e++) list.push([(p * maxSeq + row) * suffix + e, (p * seq + s) * suffix + e]);
    }
  }
  return { data: applyUpdates(cache, update.data, list, 'none', true, dtype), shape: cache.shape.slice() };
}

/** The four references by name: refScatterOps[op](...args, opts). */
export const refScatterOps = {
  scatter: refScatter, scatterND: refScatterND, indexReduce: refIndexReduce, tensorScatter: refTensorScatter,
};
