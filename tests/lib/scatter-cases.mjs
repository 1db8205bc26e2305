// Seeded random cases of the scatter family, for the reference against its peers
// (tests/ops/scatter-reference.test.mjs) and the library against the reference:
//   scatterCases, scatterNDCases, indexReduceCases, tensorScatterCases (seed, n, opts)
// each give n cases { op, args, opts, name }: args in the order the public function takes them
// (refScatterOps[op](...args, opts) runs one). Duplicate indices are the rule (small dims,
// indices drawn from them), every dtype, reduction, index type, policy, rank 0-6 and empty
// tensors come up, and float values are small multiples of 1/4, with NaNs (of several signs and
// payloads, some signaling), ±0 and ±Infinity sometimes. opts narrows a draw to what a peer
// accepts (the DEFAULTS below list the keys). sameBits compares two results.
// (Not named *.test.mjs: node --test tests/ would run it as a test file.)
import { toHalfBits } from '../../common/reference-scatter.mjs';
import { numel } from '../../common/shape.mjs';
import { Rng } from './rng.mjs';

export const DTYPES = [
  'float32', 'float64', 'float16', 'bfloat16', 'int8', 'int16', 'int32', 'uint8', 'uint8clamped',
  'uint16', 'uint32', 'int64', 'uint64',
];
export const INDEX_TYPES = ['int32', 'uint32', 'int64', 'uint64', 'int8', 'int16', 'uint8', 'array', 'bigarray'];
export const REDUCES = {
  scatter: ['none', 'add', 'mul', 'max', 'min', 'mean'],
  scatterND: ['none', 'add', 'mul', 'max', 'min'],
  indexReduce: ['none', 'add', 'mul', 'max', 'min', 'mean'],
};
const ALIASES = { add: 'sum', mul: 'prod', max: 'amax', min: 'amin' };

/** What a draw may use; each key narrows it. */
export const DEFAULTS = {
  dtypes: DTYPES,
  indexTypes: INDEX_TYPES,
  reduces: null, // null: every reduction of the op
  includeSelf: [true, false],
  outOfRange: ['error', 'drop', 'clamp'],
  negativeIndices: ['wrap', 'error'],
  minRank: 0, // scatter, scatterND: data rank; indexReduce: at least 1; tensorScatter: at least 2
  maxRank: 6,
  minK: 0, // scatterND: the least indices.shape[-1]
  minRowRank: 0, // scatterND: the least rank of indices.shape[:-1]
  axis: null, // indexReduce: a fixed axis (null: any)
  indexRanks: [0, 1, 2], // indexReduce: the index's rank
  errors: true, // some 'error'-mode cases hold a bad index (they throw)
  negatives: true, // in-range negative indices (valid under 'wrap')
  specials: true, // NaNs, ±0, ±Infinity among float values
  signaling: true, // signaling NaNs among those NaNs
  rough: true, // float values with every mantissa bit in use, so that sums and products round
  empty: true, // zero dims in data and in indices
  srcLarger: true, // scatter: src larger than index
  valueForm: true, // scatter: src a number
  aliases: true, // reduce named sum / prod / amax / amin sometimes
  absentWriteIndices: true, // tensorScatter: writeIndices sometimes left out (zeros)
};

// ---------------------------------------------------------------------------------------------
// Values

const INT_RANGE = {
  int8: [-128, 127], int16: [-32768, 32767], int32: [-(2 ** 31), 2 ** 31 - 1], uint8: [0, 255],
  uint8clamped: [0, 255], uint16: [0, 65535], uint32: [0, 2 ** 32 - 1],
  int64: [-(2n ** 63n), 2n ** 63n - 1n], uint64: [0n, 2n ** 64n - 1n],
};
const ARRAYS = {
  float32: Float32Array, float64: Float64Array, float16: Uint16Array, bfloat16: Uint16Array, int8: Int8Array,
  int16: Int16Array, int32: Int32Array, uint8: Uint8Array, uint8clamped: Uint8ClampedArray, uint16: Uint16Array,
  uint32: Uint32Array, int64: BigInt64Array, uint64: BigUint64Array,
};
const isHalf = (dtype) => dtype === 'float16' || dtype === 'bfloat16';
const isFloat = (dtype) => dtype.startsWith('float') || dtype === 'bfloat16';

// One value: floats mostly small multiples of 1/4 (sums and products stay exact for a while),
// sometimes rough (any mantissa: they round) or special; integers small, or near the type's
// ends so that sums and products wrap.
function randomValue(rng, dtype, o) {
  if (isFloat(dtype)) {
    if (o.specials && rng.chance(0.12)) return rng.pick([NaN, 0, -0, Infinity, -Infinity]);
    if (o.rough && rng.chance(0.2)) return (rng.next() - 0.5) * 2 ** rng.int(-3, 6);
    return rng.int(-8, 8) * rng.pick([1, 0.5, 0.25]);
  }
  const [lo, hi] = INT_RANGE[dtype];
  const big = typeof lo === 'bigint';
  const one = big ? 1n : 1;
  if (rng.chance(0.15)) return rng.pick([lo, lo + one, hi - one, hi]);
  const v = lo < 0 ? rng.int(-6, 6) : rng.int(0, 9);
  return big ? BigInt(v) : v;
}

// NaNs as bits, of either sign, with several payloads, quiet then signaling: max and min move a
// NaN's bits, so where a NaN meets a NaN of other bits the result shows which one won.
const NAN_BITS = {
  float32: [[0x7fc00000, 0xffc00000, 0x7fc11111], [0x7f800001, 0xff812345]],
  float64: [[0x7ff8000000000000n, 0xfff8000000000000n, 0x7ff8111111111111n], [0x7ff0000000000001n, 0xfff0000012345678n]],
  float16: [[0x7e00, 0xfe00, 0x7e11], [0x7c01, 0xfd23]],
  bfloat16: [[0x7fc0, 0xffc0, 0x7fd1], [0x7f81, 0xffa3]],
};
const BITS_ARRAYS = { float32: Uint32Array, float64: BigUint64Array };

function randomData(rng, dtype, n, o) {
  const values = Array.from({ length: n }, () => (o.nans && rng.chance(o.nans) ? NaN : randomValue(rng, dtype, o)));
  const data = ARRAYS[dtype].from(values, (v) => (isHalf(dtype) ? toHalfBits(v, dtype) : v));
  if (NAN_BITS[dtype]) {
    const [quiet, signaling] = NAN_BITS[dtype];
    const nans = o.signaling ? [...quiet, ...signaling] : quiet;
    const bits = isHalf(dtype) ? data : new BITS_ARRAYS[dtype](data.buffer);
    values.forEach((v, i) => {
      if (Number.isNaN(v)) bits[i] = rng.pick(nans);
    });
  }
  return data;
}

// ---------------------------------------------------------------------------------------------
// Shapes and indices

// Dims small enough that rank 6 stays a few hundred elements; sometimes one dim is 0.
function randomShape(rng, rank, o, pZero = 0.06) {
  const top = rank <= 2 ? 5 : rank <= 4 ? 3 : 2;
  const shape = Array.from({ length: rank }, () => rng.int(1, top));
  if (o.empty && rank > 0 && rng.chance(pZero)) shape[rng.int(0, rank - 1)] = 0;
  return shape;
}

// The index policy of one case: its options and whether it may hold bad indices.
function policy(rng, o) {
  const outOfRange = rng.pick(o.outOfRange);
  const negativeIndices = rng.pick(o.negativeIndices);
  const bad = outOfRange !== 'error' ? rng.chance(0.7) : o.errors && rng.chance(0.15);
  return { outOfRange, negativeIndices, bad };
}

// One index into a dimension of size s: mostly in range (duplicates, as s is small), some
// in-range negatives, and for a bad-index case some out of range either way.
function randomIndex(rng, s, p, o, unsigned) {
  const negOk = o.negatives && !unsigned && (p.negativeIndices === 'wrap' || p.bad);
  if (p.bad && rng.chance(0.2)) {
    if (!unsigned && rng.chance(0.5)) return p.negativeIndices === 'error' && s > 0 ? rng.int(-s, -1) : rng.int(-s - 3, -s - 1);
    return s + rng.int(0, 2);
  }
  if (s === 0) return p.bad ? rng.int(0, 2) : null; // null: no valid index exists
  if (negOk && rng.chance(0.3)) return rng.int(-s, -1);
  return rng.int(0, s - 1);
}

const UNSIGNED_INDEX = new Set(['uint32', 'uint64', 'uint8']);
const INDEX_ARRAYS = {
  int32: Int32Array, uint32: Uint32Array, int64: BigInt64Array, uint64: BigUint64Array, int8: Int8Array,
  int16: Int16Array, uint8: Uint8Array,
};

function indexArray(values, type) {
  if (type === 'array') return values;
  if (type === 'bigarray') return values.map(BigInt);
  const A = INDEX_ARRAYS[type];
  return A === BigInt64Array || A === BigUint64Array ? A.from(values, BigInt) : A.from(values);
}

// An index tensor of `shape` whose element p addresses a dimension of size sizeAt(p). When some
// element has no valid value (an empty dimension, no bad indices wanted), the tensor is emptied
// (its first dim made 0; a rank-0 tensor becomes shape [0]).
function randomIndexTensor(rng, shape, sizeAt, p, o) {
  const type = rng.pick(o.indexTypes);
  const unsigned = UNSIGNED_INDEX.has(type);
  let values = Array.from({ length: numel(shape) }, (_, i) => randomIndex(rng, sizeAt(i), p, o, unsigned));
  if (values.includes(null)) {
    shape = shape.slice();
    shape[0] = 0;
    values = [];
  }
  return { data: indexArray(values, type), shape, type };
}

function reduceOpts(rng, op, o) {
  const reduce = rng.pick(o.reduces ?? REDUCES[op]);
  const named = o.aliases && ALIASES[reduce] && rng.chance(0.2) ? ALIASES[reduce] : reduce;
  return { reduce: named, includeSelf: rng.pick(o.includeSelf) };
}

const dtypeOpt = (dtype) => (isHalf(dtype) ? { dtype } : {});
// The draw's options for one case: in some float cases every tensor is half NaNs, so that under
// max and min NaNs of different bits meet (the NaN update wins, bits and all).
const caseOpts = (rng, dtype, o) => (NAN_BITS[dtype] && o.specials && rng.chance(0.3) ? { ...o, nans: 0.5 } : o);
const tensor = (rng, dtype, shape, o) => ({ data: randomData(rng, dtype, numel(shape), o), shape });
const caseRng = (seed, i) => new Rng((Math.imul(seed, 0x9e3779b1) + i * 7919) >>> 0);
const describe = (parts) => parts.filter((x) => x !== undefined && x !== '').join(' ');
const optsText = (opts) => Object.entries(opts).filter(([k]) => k !== 'dtype').map(([k, v]) => `${k}=${v}`).join(' ');

// ---------------------------------------------------------------------------------------------
// The four ops

/** Cases of refScatter(input, dim, index, src, opts). */
export function scatterCases(seed, n, opts = {}) {
  const o = { ...DEFAULTS, ...opts };
  return Array.from({ length: n }, (_, i) => {
    const rng = caseRng(seed, i);
    const dtype = rng.pick(o.dtypes);
    const r = rng.int(o.minRank, o.maxRank);
    const inShape = randomShape(rng, r, o);
    const r1 = Math.max(r, 1);
    const dim = rng.int(-r1, r1 - 1);
    const d = dim < 0 ? dim + r1 : dim;
    // index.shape[e] <= input.shape[e] off dim; along dim any length (duplicates).
    const idxShape = r === 0 ? [] : inShape.map((s, e) => (e === d ? rng.int(1, 4) : rng.int(Math.min(1, s), s)));
    if (o.empty && r > 0 && rng.chance(0.05)) idxShape[rng.int(0, r - 1)] = 0;
    const p = policy(rng, o);
    const s = r === 0 ? 1 : inShape[d];
    const index = randomIndexTensor(rng, idxShape, () => s, p, o);
    const srcShape = index.shape.map((k) => k + (o.srcLarger && rng.chance(0.25) ? rng.int(1, 2) : 0));
    const v = caseOpts(rng, dtype, o);
    const input = tensor(rng, dtype, inShape, v);
    const valueForm = o.valueForm && rng.chance(0.08);
    const src = valueForm ? randomValue(rng, dtype === 'uint8clamped' ? 'uint8' : dtype, { ...o, specials: false }) : tensor(rng, dtype, srcShape, v);
    const copts = { ...reduceOpts(rng, 'scatter', o), outOfRange: p.outOfRange, negativeIndices: p.negativeIndices, ...dtypeOpt(dtype) };
    const name = describe([`scatter#${i}`, dtype, `[${inShape}]`, `dim=${dim}`, `index ${index.type}[${index.shape}]`,
      valueForm ? `src=${src}` : `src[${srcShape}]`, optsText(copts)]);
    return { op: 'scatter', args: [input, dim, { data: index.data, shape: index.shape }, src], opts: copts, name, dtype };
  });
}

/** Cases of refScatterND(data, indices, updates, opts). */
export function scatterNDCases(seed, n, opts = {}) {
  const o = { ...DEFAULTS, ...opts };
  return Array.from({ length: n }, (_, i) => {
    const rng = caseRng(seed ^ 0x5d, i);
    const dtype = rng.pick(o.dtypes);
    const r = rng.int(o.minRank, o.maxRank);
    const dataShape = randomShape(rng, r, o);
    const K = rng.int(Math.min(o.minK, r), r);
    let rowShape = randomShape(rng, rng.int(o.minRowRank, 2), o, 0.05);
    const p = policy(rng, o);
    // An empty dim among the first K has no valid index: no rows then, unless bad ones are wanted.
    if (!p.bad && dataShape.slice(0, K).includes(0)) rowShape = [0].concat(rowShape.slice(1));
    const index = randomIndexTensor(rng, rowShape.concat([K]), (q) => dataShape[q % K], p, o);
    const rows = index.shape.slice(0, -1);
    const v = caseOpts(rng, dtype, o);
    const data = tensor(rng, dtype, dataShape, v);
    const updates = tensor(rng, dtype, rows.concat(dataShape.slice(K)), v);
    const copts = { ...reduceOpts(rng, 'scatterND', o), outOfRange: p.outOfRange, negativeIndices: p.negativeIndices, ...dtypeOpt(dtype) };
    const name = describe([`scatterND#${i}`, dtype, `[${dataShape}]`, `indices ${index.type}[${index.shape}]`, optsText(copts)]);
    return { op: 'scatterND', args: [data, { data: index.data, shape: index.shape }, updates], opts: copts, name, dtype };
  });
}

/** Cases of refIndexReduce(input, axis, index, source, opts). */
export function indexReduceCases(seed, n, opts = {}) {
  const o = { ...DEFAULTS, ...opts };
  return Array.from({ length: n }, (_, i) => {
    const rng = caseRng(seed ^ 0x3a7, i);
    const dtype = rng.pick(o.dtypes);
    const r = rng.int(Math.max(o.minRank, 1), o.maxRank);
    const inShape = randomShape(rng, r, o);
    const axis = o.axis ?? rng.int(-r, r - 1);
    const a = axis < 0 ? axis + r : axis;
    const p = policy(rng, o);
    const index = randomIndexTensor(rng, randomShape(rng, rng.pick(o.indexRanks), o, 0.05), () => inShape[a], p, o);
    const v = caseOpts(rng, dtype, o);
    const input = tensor(rng, dtype, inShape, v);
    const source = tensor(rng, dtype, inShape.slice(0, a).concat(index.shape, inShape.slice(a + 1)), v);
    const copts = { ...reduceOpts(rng, 'indexReduce', o), outOfRange: p.outOfRange, negativeIndices: p.negativeIndices, ...dtypeOpt(dtype) };
    const name = describe([`indexReduce#${i}`, dtype, `[${inShape}]`, `axis=${axis}`, `index ${index.type}[${index.shape}]`, optsText(copts)]);
    return { op: 'indexReduce', args: [input, axis, { data: index.data, shape: index.shape }, source], opts: copts, name, dtype };
  });
}

/** Cases of refTensorScatter(cache, update, writeIndices, opts). */
export function tensorScatterCases(seed, n, opts = {}) {
  const o = { ...DEFAULTS, ...opts };
  return Array.from({ length: n }, (_, i) => {
    const rng = caseRng(seed ^ 0x7e1, i);
    const dtype = rng.pick(o.dtypes);
    const r = rng.int(Math.max(o.minRank, 2), o.maxRank);
    const cacheShape = randomShape(rng, r, o);
    const a = rng.int(1, r - 1);
    const maxSeq = cacheShape[a];
    const seq = rng.int(0, maxSeq);
    const updShape = cacheShape.slice();
    updShape[a] = seq;
    const mode = rng.pick(['linear', 'circular']);
    const bad = o.errors && rng.chance(0.12);
    const type = rng.pick(o.indexTypes);
    const unsigned = UNSIGNED_INDEX.has(type);
    const one = () => {
      if (bad && rng.chance(0.4)) return !unsigned && (mode === 'circular' || rng.chance(0.5)) ? rng.int(-3, -1) : maxSeq - seq + rng.int(1, 2);
      return mode === 'linear' ? rng.int(0, maxSeq - seq) : rng.int(0, 2 * maxSeq + 1);
    };
    const given = !o.absentWriteIndices || rng.chance(0.8);
    const writeIndices = given ? { data: indexArray(Array.from({ length: cacheShape[0] }, one), type), shape: [cacheShape[0]] } : undefined;
    const axisForm = rng.pick(['positive', 'negative', 'default']);
    const copts = { mode, ...dtypeOpt(dtype) };
    if (axisForm === 'positive' || (axisForm === 'default' && a !== r - 2)) copts.axis = a;
    else if (axisForm === 'negative') copts.axis = a - r;
    const name = describe([`tensorScatter#${i}`, dtype, `cache[${cacheShape}]`, `update[${updShape}]`,
      given ? `writeIndices ${type}` : 'no writeIndices', optsText(copts)]);
    return {
      op: 'tensorScatter', args: [tensor(rng, dtype, cacheShape, o), tensor(rng, dtype, updShape, o), writeIndices],
      opts: copts, name, dtype,
    };
  });
}

// ---------------------------------------------------------------------------------------------
// Comparison

// Is element i of a float array a NaN? Halves are judged on their bits.
function isNaNAt(a, i, dtype) {
  if (dtype === 'float16') return (a[i] & 0x7c00) === 0x7c00 && (a[i] & 0x03ff) !== 0;
  if (dtype === 'bfloat16') return (a[i] & 0x7f80) === 0x7f80 && (a[i] & 0x007f) !== 0;
  return Number.isNaN(a[i]);
}

const bytes = (v) => new Uint8Array(v.buffer, v.byteOffset, v.byteLength);

/**
 * The first element where a and b differ, or -1. Bit for bit (NaN payloads, -0), except that
 * with reduce 'add', 'mul' or 'mean' (or their aliases) any NaN equals any NaN: a NaN made by
 * arithmetic has no defined payload (JS engines and C compilers each pick theirs), whereas
 * 'none', 'max' and 'min' move an input's bits, which must survive. dtype is the case's
 * ('float16' / 'bfloat16' for a Uint16Array of bits).
 */
export function firstDifference(a, b, dtype, reduce = 'none') {
  if (a.length !== b.length) return 0;
  const size = a.BYTES_PER_ELEMENT;
  if (size !== b.BYTES_PER_ELEMENT) return 0;
  const anyNaN = isFloat(dtype) && ['add', 'sum', 'mul', 'prod', 'mean'].includes(reduce);
  const x = bytes(a);
  const y = bytes(b);
  for (let i = 0; i < a.length; i++) {
    if (anyNaN && isNaNAt(a, i, dtype) && isNaNAt(b, i, dtype)) continue;
    for (let k = i * size; k < (i + 1) * size; k++) if (x[k] !== y[k]) return i;
  }
  return -1;
}

/** True when a and b are the same bits (see firstDifference for NaN). */
export const sameBits = (a, b, dtype, reduce) => firstDifference(a, b, dtype, reduce) === -1;
