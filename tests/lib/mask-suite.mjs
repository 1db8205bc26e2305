// The masks' ops (nonZero, booleanMask, compress, maskedScatter) against their plain-JS reference
// (common/reference-mask.mjs) and their peers, bit for bit (NaN payloads and -0 kept), for the
// thin files tests/ops/non-zero.test.mjs, boolean-mask.test.mjs, compress.test.mjs and
// masked-scatter.test.mjs: seeded random cases (every array type, masks of every type, float masks
// with -0 and NaN, ranks 0 to 6, zero-size dims, empty and all-true masks, negative axes, shorter
// conditions, no axis) and a few of about a million elements (many chunks, every thread), in both
// builds at 1, 2 and 4 threads; PyTorch 1.13's results (tests/fixtures/mask-torch); onnxruntime-web
// live for nonZero and compress (tests/lib/mask-ort.mjs); resident inputs and outputs, opts.out,
// in place, prepare(); and the errors, which name the op, the argument and the rule, change no
// byte of the caller's, keep no heap and leave the next call working.
// (Not named *.test.mjs: node --test tests/ would run it as a test file.)
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import api, { dispose, heapStats, init, prepare, upload } from './tested-api.mjs'; // js/index.mjs, or WG_TEST_API
import { describeErrors, expectError } from './expect-error.mjs';
import { ortCompress, ortNonZero } from './mask-ort.mjs';
import { Rng, hashString } from './rng.mjs';
import { decode } from './torch-fixtures.mjs';
import { refMaskOps, truthOf } from '../../common/reference-mask.mjs';
import { numel } from '../../common/shape.mjs';

const t = (data, shape = [data.length]) => ({ data, shape });

// ---------------------------------------------------------------------------------------------
// Bits

/** A view of an array's elements as unsigned integers of their width (no copy). */
export function bitsOf(data) {
  const Bits = { 1: Uint8Array, 2: Uint16Array, 4: Uint32Array, 8: BigUint64Array }[data.BYTES_PER_ELEMENT];
  return new Bits(data.buffer, data.byteOffset, data.length);
}

const hex = (v, w) => `0x${v.toString(16).padStart(w * 2, '0')}`;

/** got's first `length` elements against want's, by their bits (length: want's, by default). */
export function sameBits(got, want, what, length = want.length) {
  assert.equal(got.constructor, want.constructor, `${what}: array type`);
  const g = bitsOf(got), w = bitsOf(want);
  for (let i = 0; i < length; i++) {
    if (g[i] !== w[i]) assert.fail(`${what}: element ${i} is ${hex(g[i], got.BYTES_PER_ELEMENT)}, the reference's ${hex(w[i], got.BYTES_PER_ELEMENT)}`);
  }
}

/** A result { data, shape } against the reference's, bit for bit. */
export function sameResult(got, want, what) {
  assert.deepEqual([...got.shape], want.shape, `${what}: shape`);
  assert.equal(got.data.length, numel(want.shape), `${what}: length`);
  sameBits(got.data, want.data, what);
}

// ---------------------------------------------------------------------------------------------
// Seeded random tensors: random bit patterns (NaNs with payloads, infinities, subnormals), now and
// then chosen special ones, and zeros at the rate asked (a float's zeros +0 or -0 at random).

const ARRAYS = {
  float32: Float32Array, float64: Float64Array, float16: Uint16Array, bfloat16: Uint16Array, int8: Int8Array, uint8: Uint8Array,
  int16: Int16Array, uint16: Uint16Array, int32: Int32Array, uint32: Uint32Array, int64: BigInt64Array, uint64: BigUint64Array, bool: Uint8Array,
};
const DATA_TYPES = ['float32', 'float64', 'float16', 'bfloat16', 'int8', 'uint8', 'int16', 'uint16', 'int32', 'uint32', 'int64', 'uint64'];
// A Uint16Array mask is read as uint16 (a set sign bit is true): float16 masks come as float32 here.
const MASK_TYPES = ['bool', 'bool', 'bool', 'uint8', 'float32', 'float32', 'float64', 'int8', 'int16', 'uint16', 'int32', 'uint32', 'int64', 'uint64'];
const SPECIAL = {
  float32: [0x7fc01234, 0xffc00000, 0x7f800001, 0xff812345, 0x7f800000, 0xff800000, 1, 0x80000001],
  float64: [0x7ff8000000001234n, 0xfff0000000000001n, 0x7ff0000000000000n, 1n, 0x8000000000000001n],
  float16: [0x7e12, 0xfe00, 0x7c01, 0xfd23, 0x7c00, 0xfc00, 1, 0x8001],
  bfloat16: [0x7fc1, 0xff81, 0x7f80, 0xff80, 1, 0x8001],
};
const SIGN = { float32: 0x80000000, float64: 1n << 63n, float16: 0x8000, bfloat16: 0x8000 };

/** A seeded tensor of `dtype` (a key of ARRAYS), a `zeros` share of its elements zero. */
export function randomTensor(rng, dtype, shape, zeros = 0.1) {
  const n = numel(shape);
  // now and then a view into a larger array, from an element past its start (byteOffset not 0)
  const skip = n > 0 && rng.chance(0.08) ? rng.int(1, 3) : 0;
  const data = new ARRAYS[dtype](n + 2 * skip).subarray(skip, skip + n);
  const bytes = data.BYTES_PER_ELEMENT;
  // 8-byte elements as two 32-bit words, low first (little-endian), so no BigInt per element
  const words = bytes === 8 ? new Uint32Array(data.buffer, data.byteOffset, 2 * n) : bitsOf(data);
  const put = bytes === 8 ? (i, hi, lo) => { words[2 * i] = lo; words[2 * i + 1] = hi; } : (i, hi, lo) => { words[i] = lo; };
  const random = () => Math.floor(rng.next() * 2 ** (Math.min(bytes, 4) * 8));
  const ones = dtype === 'bool' && rng.chance(0.5); // a bool mask of 0 and 1, or of 0 to 3
  const sign = SIGN[dtype], special = SPECIAL[dtype];
  for (let i = 0; i < n; i++) {
    if (rng.chance(zeros)) {
      const neg = sign !== undefined && rng.chance(0.5);
      put(i, neg ? 0x80000000 : 0, neg && bytes < 8 ? sign : 0);
    } else if (dtype === 'bool') put(i, 0, ones ? 1 : rng.int(1, 3));
    else if (special && rng.chance(0.2)) {
      const b = BigInt(rng.pick(special));
      put(i, Number(b >> 32n), Number(b & 0xffffffffn));
    } else put(i, random(), random());
  }
  return t(data, shape);
}

function randomShape(rng, rank) {
  const maxDim = rank <= 2 ? 9 : rank <= 4 ? 5 : 4;
  return Array.from({ length: rank }, () => (rng.chance(0.07) ? 0 : rng.int(1, maxDim)));
}

const maskZeros = (rng) => rng.pick([0, 0.3, 0.5, 0.5, 0.9, 1]);

// A mask: randomTensor's, and in half of the float masks that are neither all true nor all false
// a -0 (false) and a NaN (true) at places of their own.
function randomMask(rng, dtype, shape, zeros = maskZeros(rng)) {
  const mask = randomTensor(rng, dtype, shape, zeros);
  const n = mask.data.length;
  if ((dtype === 'float32' || dtype === 'float64') && zeros > 0 && zeros < 1 && n >= 2 && rng.chance(0.5)) {
    const i = rng.int(0, n - 1), j = (i + rng.int(1, n - 1)) % n;
    mask.data[i] = -0;
    mask.data[j] = NaN;
  }
  return mask;
}
// The elements a mask selects, by the reference's rule (source lengths are made from it).
const trueCount = (mask) => {
  const isTrue = truthOf(mask);
  let n = 0;
  for (let i = 0; i < mask.data.length; i++) if (isTrue(i)) n++;
  return n;
};

// ---------------------------------------------------------------------------------------------
// The random cases: { name, op, dtype, maskType, args, opts, ref: the reference's arguments }

function nonZeroCase(rng, k) {
  const dtype = rng.pick([...DATA_TYPES, 'bool']);
  const x = randomMask(rng, dtype, randomShape(rng, rng.int(0, 6)));
  const opts = {};
  if (rng.chance(0.7)) opts.layout = rng.pick(['onnx', 'torch']);
  if (rng.chance(0.7)) opts.indexType = rng.pick(['int32', 'int64']);
  if ((dtype === 'float16' || dtype === 'bfloat16') && rng.chance(0.75)) opts.dtype = dtype; // else read as uint16
  return { name: `nonZero #${k} ${dtype} [${x.shape}] ${JSON.stringify(opts)}`, op: 'nonZero', dtype, maskType: dtype, args: [x], opts, refOpts: opts };
}

function booleanMaskCase(rng, k) {
  const dtype = rng.pick(DATA_TYPES);
  const rank = rng.int(1, 6);
  const x = randomTensor(rng, dtype, randomShape(rng, rank));
  const at = rng.int(0, rank - 1), kDims = rng.int(1, rank - at);
  let maskShape = x.shape.slice(at, at + kDims);
  const opts = {};
  if (rng.chance(0.3)) opts.axis = at - rank;
  else if (at > 0 || rng.chance(0.5)) opts.axis = at;
  let bad = '';
  if (rng.chance(0.06)) {
    bad = rng.pick(['0-d mask', 'a dim off by one', 'axis out of range', 'rank too high']);
    if (bad === '0-d mask') maskShape = [];
    if (bad === 'a dim off by one') maskShape = maskShape.map((d, j) => (j === maskShape.length - 1 ? d + 1 : d));
    if (bad === 'axis out of range') opts.axis = rng.chance(0.5) ? rank : -rank - 1;
    if (bad === 'rank too high') maskShape = x.shape.slice(at).concat([1]);
  }
  const maskType = rng.pick(MASK_TYPES);
  const mask = randomMask(rng, maskType, maskShape);
  return { name: `booleanMask #${k} ${dtype} [${x.shape}] mask ${maskType} [${maskShape}] axis ${opts.axis}${bad && ` (${bad})`}`,
    op: 'booleanMask', dtype, maskType, args: [x, mask], opts, refOpts: opts };
}

function compressCase(rng, k) {
  const dtype = rng.pick(DATA_TYPES);
  const rank = rng.int(0, 6);
  const x = randomTensor(rng, dtype, randomShape(rng, rank));
  const opts = {};
  if (rank > 0 && rng.chance(0.7)) opts.axis = rng.int(-rank, rank - 1);
  const size = opts.axis === undefined ? numel(x.shape) : x.shape[opts.axis < 0 ? opts.axis + rank : opts.axis];
  let len = rng.chance(0.4) ? rng.int(0, size) : size, bad = '';
  if (rng.chance(0.05)) {
    len = size + rng.int(1, 3);
    bad = ' (too long)';
  }
  const maskType = rng.pick(MASK_TYPES);
  const condition = randomMask(rng, maskType, [len]);
  return { name: `compress #${k} ${dtype} [${x.shape}] axis ${opts.axis} condition ${maskType} [${len}]${bad}`,
    op: 'compress', dtype, maskType, args: [x, condition], opts, refOpts: opts };
}

function maskedScatterCase(rng, k) {
  const dtype = rng.pick(DATA_TYPES);
  const x = randomTensor(rng, dtype, randomShape(rng, rng.int(0, 6)));
  const maskType = rng.pick(MASK_TYPES);
  let maskShape = x.shape, bad = '';
  if (x.shape.length > 0 && rng.chance(0.03)) {
    maskShape = x.shape.map((d, j) => (j === 0 ? d + 1 : d));
    bad = ' (mask of another shape)';
  }
  const mask = randomMask(rng, maskType, maskShape);
  const nnz = trueCount(mask);
  let len = nnz + rng.pick([0, 0, 1, 7]);
  if (nnz > 0 && rng.chance(0.06)) {
    len = rng.int(0, nnz - 1);
    bad = ' (source too short)';
  }
  const source = randomTensor(rng, dtype, rng.chance(0.5) ? [len] : [1, len]);
  const opts = {};
  if ((dtype === 'float16' || dtype === 'bfloat16') && rng.chance(0.5)) opts.dtype = dtype;
  return { name: `maskedScatter #${k} ${dtype} [${x.shape}] mask ${maskType} [${maskShape}] source ${len} of ${nnz}${bad}`,
    op: 'maskedScatter', dtype, maskType, args: [x, mask, source], opts, refOpts: {} };
}

const GENERATORS = { nonZero: nonZeroCase, booleanMask: booleanMaskCase, compress: compressCase, maskedScatter: maskedScatterCase };

// A few of about a million elements (several chunks of src/stage_mask.c's 256 to 65536 mask
// elements; each thread gets some), the masks' density various.
function largeCases(op, seed) {
  const rng = new Rng(seed);
  const big = (dtype, shape, zeros) => randomTensor(rng, dtype, shape, zeros);
  const L = (name, args, opts = {}) => ({ name: `${op} large: ${name}`, op, dtype: name.split(' ')[0], maskType: 'large', args, opts, refOpts: opts, large: true });
  switch (op) {
    case 'nonZero': return [
      L('uint8 [1024, 1024], half of it true', [big('uint8', [1024, 1024], 0.5)]),
      L('float32 [64, 128, 128], a tenth true, torch layout, int64', [big('float32', [64, 128, 128], 0.9)], { layout: 'torch', indexType: 'int64' }),
      L('float16 [1048576] all true but -0s', [big('float16', [1 << 20], 0.02)], { dtype: 'float16' }),
    ];
    case 'booleanMask': return [
      L('float32 [1024, 1024] by a float32 mask of its shape', [big('float32', [1024, 1024], 0), big('float32', [1024, 1024], 0.5)]),
      L('int16 [4096, 256] by a bool mask [4096]', [big('int16', [4096, 256]), big('bool', [4096], 0.3)]),
      L('uint8 [8, 131072] by a mask [131072] on axis -1', [big('uint8', [8, 131072]), big('bool', [131072], 0.7)], { axis: -1 }),
    ];
    case 'compress': return [
      L('float64 [1048576] flattened, a bool condition', [big('float64', [1 << 20], 0), big('bool', [1 << 20], 0.5)]),
      L('int32 [512, 2048], a shorter condition on axis -1', [big('int32', [512, 2048]), big('int32', [1500], 0.4)], { axis: -1 }),
      L('bfloat16 [65536, 16], axis 0, a sparse condition', [big('bfloat16', [65536, 16]), big('float32', [65536], 0.97)], { axis: 0 }),
    ];
    default: {
      const mask1 = big('bool', [1 << 20], 0.5), mask2 = big('int8', [1024, 1024], 0.1);
      return [
        L('float32 [1048576], half of it', [big('float32', [1 << 20]), mask1, big('float32', [trueCount(mask1) + 3])]),
        L('int64 [1024, 1024], nine tenths', [big('int64', [1024, 1024]), mask2, big('int64', [trueCount(mask2)])]),
      ];
    }
  }
}

// The reference's outcome: { want } or { error }.
function outcome(c) {
  try {
    return { want: refMaskOps[c.op](...c.args, c.refOpts) };
  } catch (error) {
    return { error };
  }
}

const cached = new Map();
/** op's random cases (n of them, seeded by its name) and its large ones, each with its expect. */
export function maskCases(op, n) {
  const key = `${op}|${n}`;
  if (!cached.has(key)) {
    const rng = new Rng(hashString(op));
    const cs = Array.from({ length: n }, (_, k) => GENERATORS[op](rng, k));
    cs.push(...largeCases(op, hashString(`${op} large`)));
    for (const c of cs) {
      c.expect = outcome(c);
      if (c.op !== 'nonZero') c.nnz = trueCount(c.args[1]);
    }
    cached.set(key, cs);
  }
  return cached.get(key);
}

/** One call of case c (run: () => result) against the reference: the same bits, or the same class of error. */
export function checkCase(c, run) {
  const e = c.expect;
  if (e.error) {
    assert.throws(run, (err) => {
      assert.equal(err.constructor, e.error.constructor, `${c.name}: the reference throws ${e.error.message}; got ${err.message}`);
      assert.match(err.message, new RegExp(`^${c.op}: `), c.name);
      return true;
    }, `${c.name}: the reference throws ${e.error.message}`);
    return undefined;
  }
  let got;
  try {
    got = run();
  } catch (err) {
    assert.fail(`${c.name}: threw ${err.message}; the reference gives [${e.want.shape}]`);
  }
  sameResult(got, e.want, c.name);
  return got;
}

// ---------------------------------------------------------------------------------------------
// The suite

export const MASK_CONFIGS = [
  { variant: 'simd', threads: 1 },
  { variant: 'simd-threaded', threads: 1 },
  { variant: 'simd-threaded', threads: 2, parallelThreshold: 0 },
  { variant: 'simd-threaded', threads: 4, parallelThreshold: 0 },
  { variant: 'simd-threaded', threads: 4 },
];
const THREADED = MASK_CONFIGS[2];
const label = (c) => `${c.variant} threads=${c.threads}${c.parallelThreshold !== undefined ? ` parallelThreshold=${c.parallelThreshold}` : ''}`;

async function within(config, body) {
  const info = await init(config);
  assert.equal(info.threads, config.threads);
  try {
    await body();
  } finally {
    dispose();
  }
}

// Float16 or bfloat16 bits as float32 bits (exact: the same value, so the same truth, -0 and
// NaN included), for the fixtures' masks of those types: the library reads a Uint16Array mask as
// uint16 (its sign bit true), the reference by a hint the library has no option for.
function float32Of(bits, dtype) {
  const out = new Uint32Array(bits.length);
  bits.forEach((h, i) => {
    if (dtype === 'bfloat16') return void (out[i] = h << 16);
    const s = (h & 0x8000) << 16, e = (h >> 10) & 0x1f, m = h & 0x3ff;
    if (e === 0x1f) out[i] = s | 0x7f800000 | (m << 13);
    else if (e !== 0) out[i] = s | ((e + 112) << 23) | (m << 13);
    else if (m === 0) out[i] = s;
    else { // subnormal: normalize
      let ee = 113, mm = m;
      while (!(mm & 0x400)) { mm <<= 1; ee--; }
      out[i] = s | (ee << 23) | ((mm & 0x3ff) << 13);
    }
  });
  return new Float32Array(out.buffer);
}

/** op's suite: random cases in each configuration, PyTorch's fixtures, the peers, options, errors. */
export function maskSuite(op, { cases: n = 250 } = {}) {
  const fn = api[op];
  const counted = op !== 'maskedScatter';

  test(`${op}: the random cases cover what they should`, () => {
    const cs = maskCases(op, n);
    const has = (what, f, min = 3) => {
      const k = cs.filter(f).length;
      assert.ok(k >= min, `${what}: ${k} cases`);
    };
    const ok = (c) => c.expect.want;
    const x = (c) => c.args[0], m = (c) => c.args[1];
    for (const dtype of DATA_TYPES) has(dtype, (c) => c.dtype === dtype && ok(c), 2);
    const ranks = op === 'booleanMask' ? [1, 2, 3, 4, 5, 6] : [0, 1, 2, 3, 4, 5, 6];
    for (const r of ranks) has(`x of rank ${r}`, (c) => x(c).shape.length === r && ok(c), 2);
    has('zero-size dims', (c) => x(c).shape.includes(0) && ok(c));
    has('views from an element past their buffer\'s start', (c) => c.args.some((a) => a.data.byteOffset > 0) && ok(c));
    has('NaN payloads in x', (c) => c.dtype === 'float32' && !c.large && bitsOf(x(c).data).some((b) => b === 0x7fc01234 || b === 0x7f800001) && ok(c));
    has('a large case', (c) => c.large && ok(c), 2);
    if (op === 'nonZero') {
      has('torch layout', (c) => c.opts.layout === 'torch' && ok(c));
      has('int64 indices', (c) => c.opts.indexType === 'int64' && ok(c));
      has('bool x', (c) => c.dtype === 'bool' && ok(c));
      has('float16 bits with a hint', (c) => c.opts.dtype === 'float16' && ok(c));
      has('bfloat16 bits with a hint', (c) => c.opts.dtype === 'bfloat16' && ok(c));
      has('all zero', (c) => x(c).data.length > 0 && ok(c) && c.expect.want.data.length === 0);
      has('all true', (c) => x(c).data.length > 1 && ok(c) && c.expect.want.shape[c.opts.layout === 'torch' ? 0 : 1] === x(c).data.length);
      return;
    }
    for (const type of new Set(MASK_TYPES)) has(`a ${type} mask`, (c) => c.maskType === type && ok(c), 2);
    has('a float32 mask with -0 and a NaN', (c) => c.maskType === 'float32' && ok(c) &&
      bitsOf(m(c).data).includes(0x80000000) && m(c).data.some(Number.isNaN));
    has('an empty mask', (c) => m(c).data.length > 0 && c.nnz === 0 && ok(c));
    has('an all-true mask', (c) => m(c).data.length > 1 && c.nnz === m(c).data.length && ok(c));
    has('refused by the reference', (c) => c.expect.error, 2);
    if (op === 'booleanMask') {
      has('a negative axis', (c) => c.opts.axis < 0 && ok(c));
      has('a mask of 2 dims or more', (c) => m(c).shape.length >= 2 && ok(c));
      has('a mask in the middle', (c) => c.opts.axis > 0 && c.opts.axis + m(c).shape.length < x(c).shape.length && ok(c));
      has('no axis', (c) => c.opts.axis === undefined && ok(c));
      has('a 0-d mask refused', (c) => m(c).shape.length === 0 && c.expect.error, 1);
    }
    if (op === 'compress') {
      has('a negative axis', (c) => c.opts.axis < 0 && ok(c));
      has('no axis', (c) => c.opts.axis === undefined && ok(c));
      has('a shorter condition', (c) => c.opts.axis !== undefined && m(c).data.length < x(c).shape.at(c.opts.axis) && ok(c));
      has('a shorter condition, no axis', (c) => c.opts.axis === undefined && m(c).data.length < x(c).data.length && ok(c));
      has('a scalar x flattened', (c) => x(c).shape.length === 0 && ok(c));
    }
    if (op === 'maskedScatter') {
      has('a longer source', (c) => c.args[2].data.length > c.nnz && ok(c));
      has('float16 bits with a hint', (c) => c.opts.dtype && ok(c), 2);
      has('source too short', (c) => /too short/.test(c.name) && c.expect.error, 2);
    }
  });

  for (const config of MASK_CONFIGS) {
    test(`${op} vs reference, bit for bit: ${label(config)}`, () => within(config, () => {
      const heap = heapStats().heapInUse;
      for (const c of maskCases(op, n)) checkCase(c, () => fn(...c.args, c.opts));
      assert.equal(heapStats().heapInUse, heap, 'wasm heap not restored');
    }));
  }

  // (the fixtures hold no compress: torch has none; onnxruntime-web is its peer)
  if (op !== 'compress') describe(`${op} and PyTorch 1.13 (tests/fixtures/mask-torch)`, () => {
    const fixtures = JSON.parse(readFileSync(new URL('../fixtures/mask-torch/cases.json', import.meta.url))).cases.filter((f) => f.op === op);
    for (const config of [MASK_CONFIGS[0], THREADED]) {
      test(`every fixture (${label(config)})`, (tc) => within(config, () => {
        let compared = 0, refused = 0, scalars = 0;
        for (const f of fixtures) {
          const args = f.args.map(decode);
          const opts = { ...f.opts };
          // a float16 or bfloat16 mask: the same values as float32 (see float32Of)
          if (opts.maskDtype) args[1] = t(float32Of(args[1].data, opts.maskDtype), args[1].shape);
          delete opts.maskDtype;
          if (op === 'maskedScatter' && /^b?float16$/.test(f.args[0].dtype)) opts.dtype = f.args[0].dtype;
          const run = () => fn(...args, opts);
          if (f.error) {
            assert.throws(run, RangeError, `${f.name}: torch: ${f.error}`);
            refused++;
            continue;
          }
          const want = decode(f.expected);
          if (op === 'booleanMask' && args[1].shape.length === 0) {
            // torch's x[scalar bool] and masked_select take a 0-d mask ([nnz, ...x.shape]);
            // booleanMask refuses it, as tf.boolean_mask (docs/masks.md)
            assert.equal(want.shape.length, args[0].shape.length + 1, f.name);
            assert.throws(run, { name: 'RangeError', message: /^booleanMask: (mask has rank 0|x must have rank at least 1)/ }, f.name);
            refused++;
            continue;
          }
          if (op === 'nonZero' && opts.layout === 'onnx' && args[0].shape.length === 0) {
            // the fixture is torch.nonzero transposed, [0, nnz]; the onnx layout reads a scalar as
            // [1], as onnxruntime-web: [1, nnz] of zeros (tests/ops/mask-reference.test.mjs)
            assert.equal(want.shape[0], 0, f.name);
            sameResult(run(), { data: new BigInt64Array(want.shape[1]), shape: [1, want.shape[1]] }, f.name);
            scalars++;
            continue;
          }
          sameResult(run(), want, f.name);
          compared++;
        }
        tc.diagnostic(`${compared} bit for bit, ${scalars} scalars in the onnx layout, ${refused} refused`);
        assert.ok(compared >= 80, `${compared} compared`);
        if (op === 'booleanMask') assert.equal(refused, 15, '14 0-d masks and the mask torch refuses');
        if (op === 'nonZero') assert.equal(scalars, 30);
      }));
    }
  });

  test(`${op}: resident inputs${op === 'maskedScatter' ? ' (x, mask, source)' : ''}, a resident output${op === 'maskedScatter' ? ', in place' : ''}`, () => within(THREADED, () => {
    const heap = heapStats().heapInUse;
    const cs = maskCases(op, n);
    cs.forEach((c, k) => {
      const made = [];
      const up = (a) => {
        const r = upload(a);
        made.push(r);
        return r;
      };
      try {
        // now all of them resident, now some
        const args = c.args.map((a, i) => (k % 3 === 0 || (k + i) % 2 === 0 ? up(a) : a));
        checkCase({ ...c, name: `${c.name} (resident inputs${k % 3 === 0 ? '' : ', some'})` }, () => fn(...args, c.opts));
        checkCase({ ...c, name: `${c.name} (resident: true)` }, () => {
          const r = fn(...args, { ...c.opts, resident: true });
          made.push(r);
          assert.ok(r instanceof api.ResidentTensor, 'a resident result');
          return { data: r.read(), shape: r.shape };
        });
        if (op === 'maskedScatter') {
          const x = up(c.args[0]);
          checkCase({ ...c, name: `${c.name} (in place)` }, () => {
            const r = fn(x, ...args.slice(1), { ...c.opts, inPlace: true });
            assert.equal(r, x, 'in place returns x');
            return { data: x.read(), shape: x.shape };
          });
          if (c.expect.error) sameBits(x.read(), c.args[0].data, `${c.name}: a refused call wrote into x`);
        }
      } finally {
        for (const r of made) r.dispose();
      }
    });
    assert.equal(heapStats().heapInUse, heap, 'wasm heap not restored');
  }));

  test(`${op}: opts.out ${counted ? '(an array or a resident tensor at least as long; too short or of another type refused, nothing written)' : '(of the output\'s size)'}`, () => within(THREADED, () => {
    const heap = heapStats().heapInUse;
    const rng = new Rng(hashString(`${op} out`));
    let longer = 0, short = 0;
    for (const [k, c] of maskCases(op, n).entries()) {
      if (!c.expect.want) continue;
      const want = c.expect.want, Type = want.data.constructor, len = want.data.length;
      const kind = ['array', 'resident'][k % 2];
      const extra = counted ? rng.pick([0, 1, 5, 100]) : 0;
      // a fill of chosen bits, to see that the elements past the output are not touched
      const fill = Type.from({ length: len + extra }, (_, i) => (Type === BigInt64Array || Type === BigUint64Array ? BigInt(i * 7 + 3) : (i * 7 + 3) % 100));
      const checkOut = (data, what) => {
        sameBits(data, want.data, what, len);
        sameBits(data.subarray(len), fill.subarray(len), `${what}: past the output`);
      };
      if (kind === 'array') {
        const out = fill.slice();
        const r = fn(...c.args, { ...c.opts, out });
        assert.equal(r.data, out, `${c.name}: the result's data is opts.out`);
        assert.deepEqual(r.shape, want.shape, c.name);
        checkOut(out, `${c.name} (opts.out ${len + extra})`);
      } else {
        const out = upload(t(fill.slice(), counted ? [len + extra] : want.shape));
        try {
          const r = fn(...c.args, { ...c.opts, out });
          if (counted) assert.equal(r.data, out, `${c.name}: the result's data is the resident opts.out`);
          else assert.equal(r, out, `${c.name}: a resident opts.out is returned`);
          assert.deepEqual([...r.shape], want.shape, c.name);
          checkOut(out.read(), `${c.name} (resident opts.out ${len + extra})`);
        } finally {
          out.dispose();
        }
      }
      if (extra > 0) longer++;
      if (len > 0 && k % 4 === 0) {
        // one element short (counted ops) or one too many (maskedScatter: its size exactly), and
        // opts.out of another type: refused, nothing written
        const out = new Type(counted ? len - 1 : len + 1);
        out.set(fill.subarray(0, out.length));
        const before = out.slice();
        assert.throws(() => fn(...c.args, { ...c.opts, out }), counted
          ? { name: 'RangeError', message: new RegExp(`^${op}: opts\\.out has ${len - 1} elements but the output \\[${want.shape.join(', ')}\\] has ${len} \\(it must hold at least that many\\)`) }
          : { name: 'RangeError', message: new RegExp(`^${op}: opts\\.out has ${len + 1} elements but the output \\[${want.shape.join(', ')}\\] has ${len}`) }, c.name);
        sameBits(out, before, `${c.name}: a refused opts.out was written`);
        const Other = Type === Float64Array ? Float32Array : Float64Array;
        assert.throws(() => fn(...c.args, { ...c.opts, out: new Other(len + 1) }), { name: 'TypeError', message: new RegExp(`^${op}: opts\\.out must be an? ${Type.name}`) }, c.name);
        short++;
      }
    }
    if (counted) assert.ok(longer > 50 && short > 20, `${longer} longer, ${short} refused`);
    assert.equal(heapStats().heapInUse, heap, 'wasm heap not restored');
  }));

  test(`${op}: prepare() ${counted ? 'refuses it (its output\'s length depends on the values)' : 'keeps it: each run counts the mask as it is then'}`, () => within(THREADED, () => {
    const x = t(Float32Array.of(1, 2, 3, 4, 5, 6), [3, 2]);
    const mask = t(Uint8Array.of(1, 0, 1, 0, 0, 1), [3, 2]);
    if (counted) {
      const args = { nonZero: [x], booleanMask: [x, mask], compress: [x, t(Uint8Array.of(1, 0, 1)), { axis: 0 }] }[op];
      assert.throws(() => prepare(fn, ...args), { name: 'TypeError', message: new RegExp(`^prepare: ${op}: its output's length depends on its inputs' values`) });
      assert.throws(() => prepare(op, ...args), TypeError);
      return;
    }
    // maskedScatter's output is x's shape: prepared, in place; each run reads the mask anew,
    // and a run whose mask has more true elements than the source writes nothing
    const heap = heapStats().heapInUse;
    const rng = new Rng(5);
    const size = 20000;
    const m = t(new Uint8Array(size), [size]);
    const source = randomTensor(rng, 'float32', [3000], 0);
    let want = randomTensor(rng, 'float32', [size], 0);
    const rx = upload(want);
    const p = prepare(fn, rx, m, source, { inPlace: true });
    try {
      for (const density of [0.01, 0.1, 0.2, 0.5, 0.05]) {
        m.data.forEach((_, i, a) => { a[i] = rng.chance(density) ? 1 : 0; });
        const before = rx.read();
        if (trueCount(m) > 3000) {
          assert.throws(() => p.run(), { name: 'RangeError', message: /^maskedScatter: source has 3000 elements but mask has \d+ true elements, one for each \(nothing was written\)/ });
          sameBits(rx.read(), before, `density ${density}: a refused run wrote into x`);
          continue;
        }
        want = refMaskOps.maskedScatter(want, m, source);
        assert.equal(p.run(), rx);
        sameBits(rx.read(), want.data, `density ${density}`);
      }
    } finally {
      p.dispose();
      rx.dispose();
    }
    assert.equal(heapStats().heapInUse, heap, 'wasm heap not restored');
  }));
}

// ---------------------------------------------------------------------------------------------
// onnxruntime-web, live

/** nonZero or compress against onnxruntime-web's NonZero-13 or Compress-13 (run last in a file: its sessions stay). */
export function maskOrtSuite(op) {
  test(`${op} and onnxruntime-web 1.30, live, bit for bit (${label(THREADED)})`, () => within(THREADED, () => (op === 'nonZero' ? ortNonZeroCases() : ortCompressCases())));
}

async function ortNonZeroCases() {
  const rng = new Rng(hashString('nonZero ort'));
  let compared = 0, scalars = 0;
  for (let round = 0; round < 120; round++) {
    // the types onnxruntime-web's NonZero holds
    const dtype = rng.pick(['float32', 'float16', 'bool', 'uint8', 'int32', 'int64']);
    const rank = rng.chance(0.1) ? 0 : rng.int(1, 5);
    const x = randomMask(rng, dtype, randomShape(rng, rank));
    const hint = dtype === 'float16' || dtype === 'bool' ? dtype : undefined;
    const want = await ortNonZero(x, { dtype: hint });
    const what = `round ${round} ${dtype} [${x.shape}]`;
    const dtypeOpt = dtype === 'float16' ? { dtype } : {};
    sameResult(api.nonZero(x, { indexType: 'int64', ...dtypeOpt }), want, `${what} (onnx layout, int64)`);
    // the torch layout and int32: the same coordinates, transposed and narrowed
    if (rank > 0) {
      const [r, nnz] = want.shape;
      const tr = Int32Array.from({ length: r * nnz }, (_, i) => Number(want.data[(i % r) * nnz + Math.floor(i / r)]));
      sameResult(api.nonZero(x, { layout: 'torch', ...dtypeOpt }), { data: tr, shape: [nnz, r] }, `${what} (torch layout, int32)`);
    } else {
      scalars++;
    }
    compared++;
  }
  assert.ok(compared === 120 && scalars >= 5, `${scalars} scalars`);
}

async function ortCompressCases() {
  const rng = new Rng(hashString('compress ort'));
  // every type of x onnxruntime-web's Compress holds (all but bfloat16)
  const types = ['float32', 'float64', 'float16', 'int8', 'uint8', 'int16', 'uint16', 'int32', 'uint32', 'int64', 'uint64'];
  let withAxis = 0, flat = 0, shorter = 0, large = 0;
  for (let round = 0; round < 150; round++) {
    const dtype = rng.pick(types);
    const rank = rng.chance(0.08) ? 0 : rng.int(1, 5);
    const bigOne = round % 30 === 29; // a few of tens of thousands of elements (many chunks)
    const shape = bigOne ? [rng.int(100, 300), rng.int(100, 300)] : randomShape(rng, rank);
    const x = randomTensor(rng, dtype, shape);
    const r = shape.length;
    const axis = r === 0 || rng.chance(0.25) ? undefined : rng.int(-r, r - 1);
    const size = axis === undefined ? numel(shape) : shape[axis < 0 ? axis + r : axis];
    const len = rng.chance(0.4) ? rng.int(0, size) : size;
    // a bool condition (0 to 3 in a Uint8Array), or one of another type (Cast to bool in the model)
    const condType = rng.pick(['bool', 'bool', 'float32', 'int32']);
    const cond = randomMask(rng, condType, [len]);
    const want = await ortCompress(x, cond, { axis, dtype: dtype === 'float16' ? 'float16' : undefined });
    sameResult(api.compress(x, cond, { axis }), want, `round ${round} ${dtype} [${shape}] axis ${axis} condition ${condType} [${len}]`);
    if (axis === undefined) flat++;
    else withAxis++;
    if (len < size) shorter++;
    if (bigOne) large++;
  }
  assert.ok(withAxis > 80 && flat > 25 && shorter > 25 && large >= 4, `${withAxis} with axis, ${flat} without, ${shorter} shorter, ${large} large`);
}

// ---------------------------------------------------------------------------------------------
// The errors

// The bytes of every TypedArray reachable from args, and of every resident tensor among them.
function bytesOfArgs(args) {
  const out = [];
  const seen = new Set();
  const walk = (v) => {
    if (v === null || typeof v !== 'object' || seen.has(v)) return;
    seen.add(v);
    if (v instanceof api.ResidentTensor) out.push([() => (v.disposed ? new Uint8Array(0) : new Uint8Array(v.read().buffer)), null]);
    else if (ArrayBuffer.isView(v)) out.push([() => new Uint8Array(v.buffer, v.byteOffset, v.byteLength).slice(), null]);
    else Object.values(v).forEach(walk);
  };
  args.forEach(walk);
  for (const e of out) e[1] = e[0]();
  return out;
}

// A float32 [3, 2] of NaNs with payloads and signed zeros, so a stray write would show.
const x32 = () => t(new Float32Array(Uint32Array.of(0x7fc01234, 0x80000000, 0x7f800001, 0x3f800000, 0xffc00001, 0).buffer), [3, 2]);
const u8 = (v, shape) => t(Uint8Array.from(v), shape);
const f32 = (v, shape) => t(Float32Array.from(v), shape);

/** The bad-input rows of each op: [name, () => args (made after init: some upload), class, message]. */
function errorRows(op) {
  const x3 = () => f32(Array.from({ length: 24 }, (_, i) => i), [2, 3, 4]);
  const m6 = () => u8([1, 0, 1, 0, 1, 1], [3, 2]);
  switch (op) {
    case 'nonZero': return [
      ['layout unknown', () => [x32(), { layout: 'TORCH' }], RangeError, /^nonZero: opts\.layout must be 'onnx' or 'torch', got "TORCH"/],
      ['layout a number', () => [x32(), { layout: 1 }], RangeError, /^nonZero: opts\.layout must be 'onnx' or 'torch', got 1/],
      ['indexType unknown', () => [x32(), { indexType: 'uint32' }], RangeError, /^nonZero: opts\.indexType must be 'int32' or 'int64', got "uint32"/],
      ['dtype float32', () => [t(Uint16Array.of(1, 0)), { dtype: 'float32' }], RangeError, /^nonZero: opts\.dtype must be 'float16' or 'bfloat16' \(16-bit float bits in a Uint16Array\), got "float32"/],
      ['dtype float16 on a Float32Array', () => [x32(), { dtype: 'float16' }], TypeError, /^nonZero: opts\.dtype 'float16' needs x to hold its bits in a Uint16Array, got a Float32Array/],
      ['out of floats', () => [x32(), { out: new Float32Array(100) }], TypeError, /^nonZero: opts\.out must be an? Int32Array \(or a resident one\) like the coordinates \(opts\.indexType 'int32'\), got Float32Array/],
      ['out a BigInt64Array for int32', () => [x32(), { out: new BigInt64Array(100) }], TypeError, /^nonZero: opts\.out must be an? Int32Array .*got BigInt64Array/],
      ['out an Int32Array for int64', () => [x32(), { indexType: 'int64', out: new Int32Array(100) }], TypeError, /^nonZero: opts\.out must be an? BigInt64Array .*\(opts\.indexType 'int64'\), got Int32Array/],
      ['out one short', () => [x32(), { out: new Int32Array(7) }], RangeError, /^nonZero: opts\.out has 7 elements but the output \[2, 4\] has 8 \(it must hold at least that many\)/],
      ['resident out one short', () => [x32(), { layout: 'torch', out: upload(t(new Int32Array(7))) }], RangeError, /^nonZero: opts\.out has 7 elements but the output \[4, 2\] has 8/],
      ['resident out of floats', () => [x32(), { out: upload(t(new Float32Array(8))) }], TypeError, /^nonZero: opts\.out must be an? Int32Array .*got a resident Float32Array/],
      ['out and resident', () => [x32(), { out: new Int32Array(8), resident: true }], TypeError, /^nonZero: give opts\.out or opts\.resident, not both/],
      ['resident a string', () => [x32(), { resident: 'yes' }], TypeError, /^nonZero: opts\.resident must be true or false, got string/],
      ['an option of another op', () => [x32(), { axis: 0 }], TypeError, /^nonZero: unknown option 'axis' \(valid options: layout, indexType, dtype, out, resident\)/],
      ['x null', () => [null], TypeError, /^nonZero: x must be a tensor \{ data, shape \}, got null/],
      ['x a plain array', () => [t([1, 0])], TypeError, /^nonZero: x\.data must be a TypedArray/],
      ['x shorter than its shape', () => [t(new Float32Array(3), [2, 2])], RangeError, /^nonZero: x\.data has 3 elements but x\.shape \[2, 2\] needs 4/],
    ];
    case 'booleanMask': return [
      ['mask.shape[0] off', () => [x32(), u8([1, 0], [2])], RangeError, /^booleanMask: mask\.shape\[0\] is 2 but must be 3, the dimension of x \[3, 2\] it covers/],
      ['mask.shape[1] off', () => [x32(), u8([1, 0, 1, 0, 1, 0, 1, 1, 1], [3, 3])], RangeError, /^booleanMask: mask\.shape\[1\] is 3 but must be 2, the dimension of x \[3, 2\] it covers/],
      ['mask.shape[0] off at axis 1', () => [x3(), u8([1, 0, 1, 0], [2, 2]), { axis: 1 }], RangeError, /^booleanMask: mask\.shape\[0\] is 2 but must be 3, the dimension of x \[2, 3, 4\] it covers/],
      ['mask.shape[1] off at axis -2', () => [x3(), u8([1, 0, 1, 0, 1, 0], [3, 2]), { axis: -2 }], RangeError, /^booleanMask: mask\.shape\[1\] is 2 but must be 4, the dimension of x \[2, 3, 4\] it covers/],
      ['mask of rank 3 on rank 2', () => [x32(), u8(new Array(12).fill(1), [3, 2, 2])], RangeError, /^booleanMask: mask has rank 3 but must have rank from 1 to 2 \(x's rank less opts\.axis\)/],
      ['mask of rank 2 from axis 1', () => [x32(), m6(), { axis: 1 }], RangeError, /^booleanMask: mask has rank 2 but must have rank 1 \(x's rank less opts\.axis\)/],
      ['a 0-d mask (tf.boolean_mask refuses it)', () => [x32(), u8([1], [])], RangeError, /^booleanMask: mask has rank 0 but must have rank from 1 to 2/],
      ['a 0-d false mask', () => [x32(), u8([0], [])], RangeError, /^booleanMask: mask has rank 0/],
      ['x a scalar', () => [t(Float32Array.of(1), []), u8([1], [])], RangeError, /^booleanMask: x must have rank at least 1, got a scalar/],
      ['axis 2 of rank 2', () => [x32(), u8([1, 0, 1]), { axis: 2 }], RangeError, /^booleanMask: opts\.axis 2 is out of range for x of rank 2 \(expected -2 <= opts\.axis < 2\)/],
      ['axis -3 of rank 2', () => [x32(), u8([1, 0, 1]), { axis: -3 }], RangeError, /^booleanMask: opts\.axis -3 is out of range for x of rank 2/],
      ['axis 1.5', () => [x32(), u8([1, 0, 1]), { axis: 1.5 }], TypeError, /^booleanMask: opts\.axis must be an integer, got 1\.5/],
      ['axis a string', () => [x32(), u8([1, 0, 1]), { axis: '0' }], TypeError, /^booleanMask: opts\.axis must be an integer, got "0"/],
      ['mask null', () => [x32(), null], TypeError, /^booleanMask: mask must be a tensor \{ data, shape \}, got null/],
      ['mask a plain array', () => [x32(), t([1, 0, 1])], TypeError, /^booleanMask: mask\.data must be a TypedArray/],
      ['mask a DataView', () => [x32(), t(new DataView(new ArrayBuffer(3)), [3])], TypeError, /^booleanMask: mask\.data must be a TypedArray/],
      ['mask shorter than its shape', () => [x32(), t(new Uint8Array(2), [3])], RangeError, /^booleanMask: mask\.data has 2 elements but mask\.shape \[3\] needs 3/],
      ['dtype (not its option)', () => [x32(), u8([1, 0, 1]), { dtype: 'float16' }], TypeError, /^booleanMask: unknown option 'dtype' \(valid options: axis, out, resident\)/],
      ['out one short', () => [x32(), u8([1, 0, 1]), { out: new Float32Array(3) }], RangeError, /^booleanMask: opts\.out has 3 elements but the output \[2, 2\] has 4 \(it must hold at least that many\)/],
      ['out of another type', () => [x32(), u8([1, 0, 1]), { out: new Float64Array(4) }], TypeError, /^booleanMask: opts\.out must be an? Float32Array \(or a resident one\) like the data, got Float64Array/],
      ['out the resident x', () => { const x = upload(x32()); return [x, u8([1, 0, 1]), { out: x }]; }, RangeError, /^booleanMask: opts\.out must not be one of the op's inputs/],
    ];
    case 'compress': return [
      ['condition longer than the axis', () => [x32(), u8([1, 0, 1]), { axis: 1 }], RangeError, /^compress: condition has 3 elements, more than the 2 it selects from \(x \[3, 2\]\)/],
      ['condition longer than axis -2', () => [x3(), u8([1, 0, 1, 1]), { axis: -2 }], RangeError, /^compress: condition has 4 elements, more than the 3 it selects from \(x \[2, 3, 4\]\)/],
      ['condition longer than x, no axis', () => [x32(), u8([1, 0, 1, 0, 0, 0, 1])], RangeError, /^compress: condition has 7 elements, more than the 6 it selects from \(x \[3, 2\]\)/],
      ['condition of rank 2', () => [x32(), u8([1, 0], [1, 2]), { axis: 0 }], RangeError, /^compress: condition has rank 2 but must have rank 1/],
      ['condition of rank 0', () => [x32(), u8([1], [])], RangeError, /^compress: condition has rank 0 but must have rank 1/],
      ['axis 2 of rank 2', () => [x32(), u8([1]), { axis: 2 }], RangeError, /^compress: opts\.axis 2 is out of range for x of rank 2 \(expected -2 <= opts\.axis < 2\)/],
      ['axis -3 of rank 2', () => [x32(), u8([1]), { axis: -3 }], RangeError, /^compress: opts\.axis -3 is out of range for x of rank 2/],
      ['an axis of a scalar', () => [t(Float32Array.of(7), []), u8([1]), { axis: 0 }], RangeError, /^compress: x must have rank at least 1, got a scalar/],
      ['axis 0.5', () => [x32(), u8([1]), { axis: 0.5 }], TypeError, /^compress: opts\.axis must be an integer, got 0\.5/],
      ['inPlace (not its option)', () => [x32(), u8([1]), { inPlace: true }], TypeError, /^compress: unknown option 'inPlace' \(valid options: axis, out, resident\)/],
      ['condition missing', () => [x32(), undefined], TypeError, /^compress: condition must be a tensor \{ data, shape \}, got undefined/],
      ['out one short', () => [x32(), u8([1, 1, 0]), { axis: 0, out: new Float32Array(3) }], RangeError, /^compress: opts\.out has 3 elements but the output \[2, 2\] has 4/],
      ['resident out of another type', () => [x32(), u8([1, 1]), { out: upload(t(new Int32Array(4))) }], TypeError, /^compress: opts\.out must be an? Float32Array .*got a resident Int32Array/],
      ['out and resident', () => [x32(), u8([1, 1]), { out: new Float32Array(2), resident: true }], TypeError, /^compress: give opts\.out or opts\.resident, not both/],
    ];
    default: return [
      ['mask.shape[0] off', () => [x32(), u8([1, 0, 1, 0, 1, 0], [2, 3]), f32([1, 2, 3, 4, 5, 6])], RangeError, /^maskedScatter: mask\.shape\[0\] is 2 but must be 3, the dimension of x \[3, 2\] it covers/],
      ['mask.shape[1] off', () => [x32(), u8(new Array(9).fill(1), [3, 3]), f32(new Array(9).fill(1))], RangeError, /^maskedScatter: mask\.shape\[1\] is 3 but must be 2, the dimension of x \[3, 2\] it covers/],
      ['mask.shape[2] off', () => [x3(), u8(new Array(18).fill(1), [2, 3, 3]), f32(new Array(24).fill(1))], RangeError, /^maskedScatter: mask\.shape\[2\] is 3 but must be 4, the dimension of x \[2, 3, 4\] it covers/],
      ['mask of rank 1 (no broadcasting)', () => [x32(), u8([1, 0, 1, 0, 1, 0], [6]), f32([1, 2, 3])], RangeError, /^maskedScatter: mask has rank 1 but must have rank 2, x's/],
      ['mask of rank 0 (no broadcasting)', () => [x32(), u8([1], []), f32([1, 2, 3, 4, 5, 6])], RangeError, /^maskedScatter: mask has rank 0 but must have rank 2, x's/],
      ['source one short', () => [x32(), m6(), f32([9, 8, 7])], RangeError, /^maskedScatter: source has 3 elements but mask has 4 true elements, one for each \(nothing was written\)/],
      ['source empty', () => [x32(), m6(), f32([])], RangeError, /^maskedScatter: source has 0 elements but mask has 4 true elements/],
      ['source of another type', () => [x32(), m6(), t(Int32Array.of(1, 2, 3, 4))], TypeError, /^maskedScatter: source must be a Float32Array like the tensor it updates, got Int32Array/],
      ['source float64 for float32', () => [x32(), m6(), t(Float64Array.of(1, 2, 3, 4))], TypeError, /^maskedScatter: source must be a Float32Array like the tensor it updates, got Float64Array/],
      ['source missing', () => [x32(), m6()], TypeError, /^maskedScatter: source must be a tensor \{ data, shape \}, got undefined/],
      ['inPlace on an array', () => [x32(), m6(), f32([1, 2, 3, 4]), { inPlace: true }], TypeError, /^maskedScatter: opts\.inPlace needs a resident tensor to update \(upload\(\) it first\)/],
      ['inPlace a string', () => [upload(x32()), m6(), f32([1, 2, 3, 4]), { inPlace: 'yes' }], TypeError, /^maskedScatter: opts\.inPlace must be true or false, got string/],
      ['inPlace with out', () => [upload(x32()), m6(), f32([1, 2, 3, 4]), { inPlace: true, out: new Float32Array(6) }], TypeError, /^maskedScatter: give opts\.inPlace or opts\.out \/ opts\.resident, not both/],
      ['in place from itself', () => { const x = upload(x32()); return [x, m6(), x, { inPlace: true }]; }, RangeError, /^maskedScatter: in place, the updates must not be the tensor they update/],
      ['in place, source one short', () => [upload(x32()), m6(), f32([9, 8, 7]), { inPlace: true }], RangeError, /^maskedScatter: source has 3 elements but mask has 4 true elements, one for each \(nothing was written\)/],
      ['out longer than x (its size exactly)', () => [x32(), m6(), f32([1, 2, 3, 4]), { out: new Float32Array(8) }], RangeError, /^maskedScatter: opts\.out has 8 elements but the output \[3, 2\] has 6/],
      ['out of another type', () => [x32(), m6(), f32([1, 2, 3, 4]), { out: new Float64Array(6) }], TypeError, /^maskedScatter: opts\.out must be a Float32Array like the data, got Float64Array/],
      ['dtype bfloat16 on a Float32Array', () => [x32(), m6(), f32([1, 2, 3, 4]), { dtype: 'bfloat16' }], TypeError, /^maskedScatter: opts\.dtype 'bfloat16' needs x to hold its bits in a Uint16Array, got a Float32Array/],
      ['dtype unknown', () => [t(new Uint16Array(6), [3, 2]), m6(), t(new Uint16Array(4)), { dtype: 'half' }], RangeError, /^maskedScatter: opts\.dtype must be 'float16' or 'bfloat16'/],
      ['axis (not its option)', () => [x32(), m6(), f32([1, 2, 3, 4]), { axis: 0 }], TypeError, /^maskedScatter: unknown option 'axis' \(valid options: inPlace, dtype, out, resident\)/],
    ];
  }
}

// A good call of op, against the reference.
function goodCall(op) {
  const x = x32(), m = u8([0, 1, 1, 0, 1, 1], [3, 2]);
  const [args, opts] = { nonZero: [[x], {}], booleanMask: [[x, m], {}], compress: [[x, u8([1, 0, 1])], { axis: 0 }], maskedScatter: [[x, m, f32([9, 8, 7, 6])], {}] }[op];
  const c = { name: `${op}: the call after an error`, op, args, opts, refOpts: opts };
  c.expect = outcome(c);
  assert.ok(c.expect.want, c.name);
  checkCase(c, () => api[op](...args, opts));
}

/** op's errors: the rule in the message, no byte changed, no heap kept, the next calls right. */
export function maskErrorSuite(op) {
  describeErrors(`${op} errors`, () => {
    test('each names the op, the argument and the rule; nothing changed, no heap kept, the next call works', () => {
      const rows = errorRows(op);
      assert.ok(rows.length >= 14, `${rows.length} rows`);
      for (const [name, make, Cls, re] of rows) {
        const heap = heapStats().heapInUse;
        const args = make();
        const residents = args.flatMap((a) => [a, a?.out]).filter((a) => a instanceof api.ResidentTensor);
        const bytes = bytesOfArgs(args);
        try {
          expectError(api[op], args, Cls, re);
          bytes.forEach(([read, before], i) => assert.deepEqual(read(), before, `argument bytes ${i} changed`));
        } catch (e) {
          e.message = `${name}: ${e.message}`;
          throw e;
        } finally {
          for (const r of new Set(residents)) r.dispose();
        }
        goodCall(op);
        assert.equal(heapStats().heapInUse, heap, `${name}: the heap after the next call`);
      }
    });

    if (op !== 'nonZero') {
      test('a refusal found late (the last element of a large mask) writes nothing, in place or not; the heap does not grow over repeated failures', () => {
        const rng = new Rng(hashString(`${op} late`));
        const n = 300000;
        const x = randomTensor(rng, 'float32', [n], 0);
        const mask = randomTensor(rng, 'bool', [n], 0.5);
        const nnz = trueCount(mask);
        const rx = upload(x);
        const out = upload(t(new Float32Array(n).fill(-1)));
        const calls = {
          booleanMask: [
            ['opts.out one short of the count', () => [x, mask, { out: new Float32Array(nnz - 1) }], RangeError],
            ['a resident opts.out one short of the count', () => [rx, mask, { out: upload(t(new Float32Array(nnz - 1))) }], RangeError],
            ['the mask one longer', () => [x, randomTensor(rng, 'bool', [n + 1]), { out }], RangeError],
          ],
          compress: [
            ['opts.out one short of the count', () => [rx, mask, { axis: 0, out: new Float32Array(nnz - 1) }], RangeError],
            ['the condition one longer', () => [x, randomTensor(rng, 'bool', [n + 1]), { axis: -1, out }], RangeError],
          ],
          maskedScatter: [
            ['source one short, in place', () => [rx, mask, t(new Float32Array(nnz - 1)), { inPlace: true }], RangeError],
            ['source one short, into opts.out', () => [rx, mask, t(new Float32Array(nnz - 1)), { out }], RangeError],
            ['source one short, resident', () => [x, upload(mask), upload(t(new Float32Array(nnz - 1))), { resident: true }], RangeError],
          ],
        }[op];
        const same = () => {
          sameBits(rx.read(), x.data, 'the resident x');
          sameBits(out.read(), new Float32Array(n).fill(-1), 'the resident out');
        };
        const heap = heapStats();
        for (let round = 0; round < 5; round++) {
          for (const [name, make, Cls] of calls) {
            const args = make();
            const bytes = bytesOfArgs(args);
            assert.throws(() => api[op](...args), Cls, name);
            bytes.forEach(([read, before], i) => assert.deepEqual(read(), before, `${name}: argument ${i} changed`));
            for (const a of args.flatMap((v) => [v, v?.out])) if (a instanceof api.ResidentTensor && a !== rx && a !== out) a.dispose();
            same();
          }
        }
        assert.equal(heapStats().heapInUse, heap.heapInUse, 'wasm heap in use grew');
        rx.dispose();
        out.dispose();
        goodCall(op);
      });
    }
  });
}
