// The masks' ops in the smoke suite (tests/package/smoke.mjs), wherever it runs: nonZero,
// booleanMask, compress and maskedScatter on the documents' own examples (cited beside each) and
// cases worked out by hand in the comment beside them (NaN true, -0 false, float16 bits, a rank-0
// x, int64 coordinates, an opts.out longer than the output, resident inputs and outputs, in place,
// and the errors), then seeded random cases against the plain-JS reference
// (common/reference-mask.mjs), bit for bit, some long enough for several chunks (src/stage_mask.c
// cuts a mask into chunks of at least 256 elements) and for the threads. No expected value is
// taken from the library. Portable (no node: imports).
import { sameBytes } from '../../common/bytes.mjs';
import { refMaskOps } from '../../common/reference-mask.mjs';
import { Rng, hashString } from '../lib/rng.mjs';

/** Seeded random cases of each op against common/reference-mask.mjs. */
export const MASK_RANDOM_CASES = 30;

const I32 = Int32Array;
const F32 = Float32Array;
const U8 = Uint8Array;
const t = (Type, values, shape) => ({ data: Type.from(values), shape });

/** [name, (api) => result tensor, expected { data, shape }, what the result's data must be?]. */
const CASES = [
  // ONNX NonZero's example (https://onnx.ai/onnx/operators/onnx__NonZero.html): condition
  // [[1, 0], [1, 1]] gives [[0, 1, 1], [0, 0, 1]] (rows, then columns)
  ['nonZero: ONNX NonZero example',
    (api) => api.nonZero(t(U8, [1, 0, 1, 1], [2, 2])),
    { data: [0, 1, 1, 0, 0, 1], shape: [2, 3] }],
  // torch.nonzero's examples (https://pytorch.org/docs/1.13/generated/torch.nonzero.html), int64 as
  // torch's: [1, 1, 1, 0, 1] gives [[0], [1], [2], [4]]; the 4x4 diagonal (-0.4 too) [[0, 0], ..., [3, 3]]
  ['nonZero: torch.nonzero 1-D example, int64',
    (api) => api.nonZero(t(BigInt64Array, [1n, 1n, 1n, 0n, 1n], [5]), { layout: 'torch', indexType: 'int64' }),
    { data: [0n, 1n, 2n, 4n], shape: [4, 1] }],
  ['nonZero: torch.nonzero 2-D example',
    (api) => api.nonZero(t(F32, [0.6, 0, 0, 0, 0, 0.4, 0, 0, 0, 0, 1.2, 0, 0, 0, 0, -0.4], [4, 4]), { layout: 'torch' }),
    { data: [0, 0, 1, 1, 2, 2, 3, 3], shape: [4, 2] }],
  // tf.where's example (https://www.tensorflow.org/api_docs/python/tf/where): [True, False, False,
  // True] gives [[0], [3]]
  ['nonZero: tf.where example',
    (api) => api.nonZero(t(U8, [1, 0, 0, 1], [4]), { layout: 'torch' }),
    { data: [0, 3], shape: [2, 1] }],
  // NaN is true and -0 false (x != 0); the smallest float32 denormal is true: [[-0, NaN], [0, 1e-45]]
  // gives [0, 1] and [1, 1]
  ['nonZero: NaN true, -0 false, a denormal true',
    (api) => api.nonZero(t(F32, [-0, NaN, 0, 1e-45], [2, 2]), { layout: 'torch' }),
    { data: [0, 1, 1, 1], shape: [2, 2] }],
  // float16 bits [-0 (0x8000), 1 (0x3c00), NaN (0x7e00), 0]: with dtype, 1 and 2; as plain uint16,
  // 0x8000 is not zero: 0, 1, 2
  ['nonZero: float16 bits, opts.dtype',
    (api) => api.nonZero(t(Uint16Array, [0x8000, 0x3c00, 0x7e00, 0], [4]), { dtype: 'float16' }),
    { data: [1, 2], shape: [1, 2] }],
  ['nonZero: the same bits as uint16',
    (api) => api.nonZero(t(Uint16Array, [0x8000, 0x3c00, 0x7e00, 0], [4])),
    { data: [0, 1, 2], shape: [1, 3] }],
  // a rank-0 x of 5: ONNX layout reads it as [1] (as onnxruntime-web): [[0]]; torch's: one
  // coordinate of no components, [1, 0]
  ['nonZero: rank 0, onnx layout',
    (api) => api.nonZero(t(F32, [5], [])),
    { data: [0], shape: [1, 1] }],
  ['nonZero: rank 0, torch layout',
    (api) => api.nonZero(t(F32, [5], []), { layout: 'torch' }),
    { data: [], shape: [1, 0] }],
  // opts.out longer than the output: [0, 7, 0, 9] has 2 non-zeros at 1 and 3; the result is
  // { data: out, shape: [1, 2] } and out's first two elements are the coordinates, the rest as it was
  ['nonZero: opts.out longer than the output',
    (api) => {
      const out = new I32(5).fill(-1);
      const r = api.nonZero(t(I32, [0, 7, 0, 9], [4]), { out });
      return { data: r.data === out ? r.data : [], shape: r.shape };
    },
    { data: [1, 3, -1, -1, -1], shape: [1, 2] }],
  // a resident x and a resident int64 result: [[0, 2], [3, 0]] gives [0, 1] and [1, 0], in torch's layout
  ['nonZero: resident x and result, int64',
    (api) => {
      const x = api.upload(t(Int16Array, [0, 2, 3, 0], [2, 2]));
      try {
        return readResident(api.nonZero(x, { layout: 'torch', indexType: 'int64', resident: true }));
      } finally {
        x.dispose();
      }
    },
    { data: [0n, 1n, 1n, 0n], shape: [2, 2] }],

  // tf.boolean_mask's examples (https://www.tensorflow.org/api_docs/python/tf/boolean_mask): [0, 1,
  // 2, 3] with [True, False, True, False] gives [0, 2]; [[1, 2], [3, 4], [5, 6]] with [True, False,
  // True] gives [[1, 2], [5, 6]]
  ['booleanMask: tf.boolean_mask 1-D example',
    (api) => api.booleanMask(t(I32, [0, 1, 2, 3], [4]), t(U8, [1, 0, 1, 0], [4])),
    { data: [0, 2], shape: [2] }],
  ['booleanMask: tf.boolean_mask 2-D example',
    (api) => api.booleanMask(t(I32, [1, 2, 3, 4, 5, 6], [3, 2]), t(U8, [1, 0, 1], [3])),
    { data: [1, 2, 5, 6], shape: [2, 2] }],
  // axis -1 (the last) of [[1, 2, 3], [4, 5, 6]] with a float mask [NaN, -0, 2]: columns 0 and 2,
  // [[1, 3], [4, 6]]
  ['booleanMask: axis -1, a float mask with NaN and -0',
    (api) => api.booleanMask(t(Float64Array, [1, 2, 3, 4, 5, 6], [2, 3]), t(F32, [NaN, -0, 2], [3]), { axis: -1 }),
    { data: [1, 3, 4, 6], shape: [2, 2] }],
  // a mask of x's whole shape is torch.masked_select: [[1, 2], [3, 4]] with [[0, 1], [1, 0]] gives [2, 3]
  ['booleanMask: a mask of the whole shape (masked_select)',
    (api) => api.booleanMask(t(Int8Array, [1, 2, 3, 4], [2, 2]), t(U8, [0, 1, 1, 0], [2, 2])),
    { data: [2, 3], shape: [2] }],
  // a 2-D mask from axis 1 of x [1, 2, 2, 2] (values 0..7): mask [[1, 0], [0, 1]] keeps [0, 0, :]
  // = [0, 1] and [0, 1, 1, :] = [6, 7]: [1, 2, 2]
  ['booleanMask: a 2-D mask from axis 1, resident x and result',
    (api) => {
      const x = api.upload(t(U8, [0, 1, 2, 3, 4, 5, 6, 7], [1, 2, 2, 2]));
      try {
        return readResident(api.booleanMask(x, t(I32, [1, 0, 0, 1], [2, 2]), { axis: 1, resident: true }));
      } finally {
        x.dispose();
      }
    },
    { data: [0, 1, 6, 7], shape: [1, 2, 2] }],
  // a 0-d mask is refused, as tf.boolean_mask ("0 < dim(mask) = K <= dim(tensor)")
  ['booleanMask: a 0-d mask is refused',
    (api) => api.booleanMask(t(I32, [1, 2], [2]), t(U8, [1], [])),
    RangeError],

  // ONNX Compress's examples (https://onnx.ai/onnx/operators/onnx__Compress.html), input [[1, 2],
  // [3, 4], [5, 6]]: condition [0, 1, 1] on axis 0 gives [[3, 4], [5, 6]]; [0, 1] on axis 1 (and
  // -1) gives [[2], [4], [6]]; [0, 1, 0, 0, 1] with no axis gives [2, 5]
  ['compress: ONNX Compress example, axis 0',
    (api) => api.compress(t(F32, [1, 2, 3, 4, 5, 6], [3, 2]), t(U8, [0, 1, 1], [3]), { axis: 0 }),
    { data: [3, 4, 5, 6], shape: [2, 2] }],
  ['compress: ONNX Compress example, axis 1',
    (api) => api.compress(t(F32, [1, 2, 3, 4, 5, 6], [3, 2]), t(U8, [0, 1], [2]), { axis: 1 }),
    { data: [2, 4, 6], shape: [3, 1] }],
  ['compress: ONNX Compress example, negative axis',
    (api) => api.compress(t(F32, [1, 2, 3, 4, 5, 6], [3, 2]), t(U8, [0, 1], [2]), { axis: -1 }),
    { data: [2, 4, 6], shape: [3, 1] }],
  ['compress: ONNX Compress example, default axis',
    (api) => api.compress(t(F32, [1, 2, 3, 4, 5, 6], [3, 2]), t(U8, [0, 1, 0, 0, 1], [5])),
    { data: [2, 5], shape: [2] }],
  // a condition shorter than the axis selects from its length only (ONNX: "the output is
  // truncated"): [0, 1] on axis 0 keeps row 1, [[3, 4]]; into an opts.out of 4, the rest untouched
  ['compress: a shorter condition, opts.out longer than the output',
    (api) => {
      const out = new I32(4).fill(-1);
      const r = api.compress(t(I32, [1, 2, 3, 4, 5, 6], [3, 2]), t(U8, [0, 1], [2]), { axis: 0, out });
      return { data: r.data === out ? r.data : [], shape: r.shape };
    },
    { data: [3, 4, -1, -1], shape: [1, 2] }],
  // a condition longer than the axis is an error (numpy.compress's rule where a true is past the
  // end; onnxruntime-web ignores the rest)
  ['compress: a condition longer than the axis is refused',
    (api) => api.compress(t(I32, [1, 2, 3, 4, 5, 6], [3, 2]), t(U8, [0, 1, 1], [3]), { axis: 1 }),
    RangeError],

  // torch.Tensor.masked_scatter_'s example (https://pytorch.org/docs/stable/generated/torch.Tensor.masked_scatter_.html):
  // [2, 5] zeros, mask [[0, 0, 0, 1, 1], [1, 1, 0, 1, 1]], source 0..9 (int64, torch's) gives
  // [[0, 0, 0, 0, 1], [2, 3, 0, 4, 5]]
  ['maskedScatter: torch masked_scatter example',
    (api) => api.maskedScatter(t(BigInt64Array, new Array(10).fill(0n), [2, 5]), t(U8, [0, 0, 0, 1, 1, 1, 1, 0, 1, 1], [2, 5]),
      t(BigInt64Array, [0n, 1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n, 9n], [2, 5])),
    { data: [0n, 0n, 0n, 0n, 1n, 2n, 3n, 0n, 4n, 5n], shape: [2, 5] }],
  // in place on a resident x [1, 2, 3, 4], mask [-0, 1, NaN, 0] (float: positions 1 and 2),
  // source [9, 8, 7]: [1, 9, 8, 4], the same tensor returned
  ['maskedScatter: in place, a float mask',
    (api) => {
      const x = api.upload(t(F32, [1, 2, 3, 4], [4]));
      try {
        const r = api.maskedScatter(x, t(Float64Array, [-0, 1, NaN, 0], [4]), t(F32, [9, 8, 7], [3]), { inPlace: true });
        return { data: r === x ? x.read() : [], shape: x.shape };
      } finally {
        x.dispose();
      }
    },
    { data: [1, 9, 8, 4], shape: [4] }],
  // float16 bits of [1, 2] with mask [0, 1]: source's first, 0.5 (0x3800), into position 1
  ['maskedScatter: float16 bits, opts.dtype',
    (api) => api.maskedScatter(t(Uint16Array, [0x3c00, 0x4000], [2]), t(U8, [0, 1], [2]), t(Uint16Array, [0x3800], [1]), { dtype: 'float16' }),
    { data: [0x3c00, 0x3800], shape: [2] }],
  // too short a source: 2 values for 3 true elements is an error (torch's too), and nothing is
  // written into the resident x in place
  ['maskedScatter: too short a source, nothing written',
    (api) => {
      const x = api.upload(t(I32, [1, 2, 3], [3]));
      try {
        api.maskedScatter(x, t(U8, [1, 1, 1], [3]), t(I32, [7, 8], [2]), { inPlace: true });
        return { data: [], shape: ['no error'] };
      } catch (e) {
        return { data: e instanceof RangeError ? x.read() : [], shape: x.shape };
      } finally {
        x.dispose();
      }
    },
    { data: [1, 2, 3], shape: [3] }],
];

// A resident result, read out and freed (its type checked too: a ResidentTensor has read()).
function readResident(r) {
  if (typeof r?.read !== 'function') return { data: [], shape: ['not resident'] };
  try {
    return { data: r.read(), shape: r.shape };
  } finally {
    r.dispose();
  }
}

const same = (a, b) => a.length === b.length && a.every((x, i) => Object.is(x, b[i]));
const values = (data) => Array.from(data);

// --- seeded random cases ---

const DATA_TYPES = [Float32Array, Float64Array, Int8Array, Int16Array, Int32Array, Uint8Array, Uint16Array, Uint32Array,
  Uint8ClampedArray, BigInt64Array, BigUint64Array];
const FLOAT_TRUE = [1, -1, NaN, -NaN, Infinity, -2.5, 1e-40, 5e-324];
const isBig = (Type) => Type === BigInt64Array || Type === BigUint64Array;

// long: one dimension of tens of thousands (the threads share the chunks); else now and then one
// of hundreds or thousands (several chunks)
function randomShape(rng, rank, long) {
  const maxElements = long ? 40000 : 3000;
  const shape = [];
  for (let d = 0; d < rank; d++) shape.push(rng.chance(0.05) && !long ? 0 : rng.int(1, 5));
  if (rank > 0 && (long || rng.chance(0.3))) shape[rng.int(0, rank - 1)] = rng.int(long ? 20000 : 200, maxElements);
  while (shape.reduce((a, b) => a * b, 1) > maxElements) shape[shape.indexOf(Math.max(...shape))] >>= 1;
  return shape;
}
const numel = (shape) => shape.reduce((a, b) => a * b, 1);

// data of random bits (a NaN's payload and -0 included: the ops copy bits)
function randomData(rng, Type, n) {
  const data = new Type(n);
  const bytes = new Uint8Array(data.buffer);
  for (let i = 0; i < bytes.length; i++) bytes[i] = rng.int(0, 255);
  return data;
}

// a mask of Type, true with probability p; floats' trues and falses include NaN, denormals and -0,
// integers' trues the sign bit alone
function randomMask(rng, Type, shape, p = rng.chance(0.05) ? 0 : rng.pick([0.02, 0.1, 0.5, 0.9, 1])) {
  const n = numel(shape);
  const data = new Type(n);
  const float = Type === Float32Array || Type === Float64Array;
  const signOnly = { 1: 0x80, 2: 0x8000, 4: 0x80000000, 8: 1n << 63n }[Type.BYTES_PER_ELEMENT];
  for (let i = 0; i < n; i++) {
    const on = rng.chance(p);
    if (float) data[i] = on ? rng.pick(FLOAT_TRUE) : rng.pick([0, -0]);
    else if (!on) data[i] = isBig(Type) ? 0n : 0;
    else if (rng.chance(0.2)) data[i] = isBig(Type) ? BigInt.asIntN(64, signOnly) : (Type === Uint8ClampedArray ? 255 : signOnly);
    else data[i] = isBig(Type) ? BigInt(rng.int(1, 1000)) : rng.int(1, 100);
  }
  return { data, shape };
}

const tensorOf = (rng, Type, shape) => ({ data: randomData(rng, Type, numel(shape)), shape });

/** One random case of op, seeded by (op, n): [args, opts]. */
function randomCase(op, n) {
  const rng = new Rng(hashString(`smoke-mask ${op} ${n}`));
  const Type = rng.pick(DATA_TYPES);
  const MaskType = rng.pick(DATA_TYPES);
  // one case in ten long enough for the threads (the library's parallel threshold is 32 KiB)
  const big = n % 10 === 9;
  if (op === 'nonZero') {
    const shape = randomShape(rng, rng.int(big ? 1 : 0, 4), big);
    const half = Type === Uint16Array && rng.chance(0.5) ? rng.pick(['float16', 'bfloat16']) : undefined;
    const x = randomMask(rng, Type, shape);
    // float16 / bfloat16 bits: -0 (0x8000) false, NaN (0x7e01) true
    if (half) for (let i = 0; i < x.data.length; i++) if (rng.chance(0.2)) x.data[i] = rng.pick([0x8000, 0x7e01, 0x0001]);
    const opts = { layout: rng.pick(['onnx', 'torch']), indexType: rng.pick(['int32', 'int64']) };
    return { args: [x], opts: half ? { ...opts, dtype: half } : opts, refOpts: half ? { ...opts, dtype: half } : opts };
  }
  if (op === 'booleanMask') {
    const rank = rng.int(1, 4);
    const shape = randomShape(rng, rank, big);
    const k = rng.int(1, rank), axis = rng.int(0, rank - k);
    const opts = { axis: rng.chance(0.3) ? axis - rank : axis };
    return { args: [tensorOf(rng, Type, shape), randomMask(rng, MaskType, shape.slice(axis, axis + k))], opts, refOpts: opts };
  }
  if (op === 'compress') {
    const rank = rng.int(1, 4);
    const shape = randomShape(rng, rank, big);
    const x = tensorOf(rng, Type, shape);
    if (rng.chance(0.3)) {
      const len = rng.int(0, x.data.length);
      return { args: [x, randomMask(rng, MaskType, [len])], opts: {}, refOpts: {} };
    }
    const axis = rng.int(0, rank - 1);
    const len = rng.chance(0.5) ? shape[axis] : rng.int(0, shape[axis]);
    const opts = { axis: rng.chance(0.3) ? axis - rank : axis };
    return { args: [x, randomMask(rng, MaskType, [len])], opts, refOpts: opts };
  }
  // maskedScatter: source of x's type, as many values as the trues or more (now and then fewer:
  // both must refuse it)
  const shape = randomShape(rng, rng.int(big ? 1 : 0, 4), big);
  const mask = randomMask(rng, MaskType, shape);
  const trues = refMaskOps.nonZero(mask).shape[1];
  const len = rng.chance(0.1) && trues > 0 ? trues - 1 : trues + rng.int(0, 3);
  return { args: [tensorOf(rng, Type, shape), mask, tensorOf(rng, Type, [len])], opts: {}, refOpts: {} };
}

const describe = (args, opts) => `${args.map((a) => `${a.data.constructor.name}[${a.shape}]`).join(', ')} ${JSON.stringify(opts)}`;

function runRandom(api, op, n) {
  const { args, opts, refOpts } = randomCase(op, n);
  let want, wantError;
  try {
    want = refMaskOps[op](...args, refOpts);
  } catch (e) {
    wantError = e;
  }
  let got;
  try {
    got = api[op](...args, opts);
  } catch (e) {
    if (wantError && e.constructor === wantError.constructor) return null;
    return `${op} case ${n} (${describe(args, opts)}): threw ${e.name}: ${e.message}${wantError ? '' : '; the reference did not'}`;
  }
  if (wantError) return `${op} case ${n} (${describe(args, opts)}): the reference threw ${wantError.name}: ${wantError.message}; the library did not`;
  if (!same(got.shape, want.shape)) return `${op} case ${n} (${describe(args, opts)}): shape [${got.shape}], the reference's [${want.shape}]`;
  if (!sameBytes(got.data, want.data)) return `${op} case ${n} (${describe(args, opts)}): data differs from the reference's`;
  return null;
}

export const MASK_OPS = ['nonZero', 'booleanMask', 'compress', 'maskedScatter'];

/** Runs the worked cases and the random ones: { passed, total, failures, random: { passed, total } }. */
export function maskSmoke(api) {
  const out = { passed: 0, total: CASES.length, failures: [], random: { passed: 0, total: MASK_OPS.length * MASK_RANDOM_CASES } };
  for (const [name, run, want] of CASES) {
    try {
      const r = run(api);
      if (want === RangeError) out.failures.push(`${name}: no RangeError; got shape [${Array.from(r.shape)}]`);
      else if (same(values(r.data), want.data) && same(Array.from(r.shape), want.shape)) out.passed++;
      else out.failures.push(`${name}: got [${values(r.data)}] of shape [${Array.from(r.shape)}]`);
    } catch (e) {
      if (want === RangeError && e instanceof RangeError) out.passed++;
      else out.failures.push(`${name}: threw ${e.name}: ${e.message}`);
    }
  }
  for (const op of MASK_OPS) {
    for (let n = 0; n < MASK_RANDOM_CASES; n++) {
      const failure = runRandom(api, op, n);
      if (failure) out.failures.push(failure);
      else out.random.passed++;
    }
  }
  return out;
}
