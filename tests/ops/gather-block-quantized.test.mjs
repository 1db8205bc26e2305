// gatherBlockQuantized (ONNX GatherBlockQuantized) against the plain-JS reference (common/reference-quantized.mjs)
// bit for bit, on seeded random cases, large tables, edge cases and resident tensors, in both
// variants at 1, 2 and 4 threads; and against onnxruntime-web's default wasm build, bit for bit,
// on cases it accepts (tests/lib/quantized-cases.mjs).
//
// WG_TEST_API=<module path> swaps the module under test (tests/tested-api.mjs), so the suite runs
// against the ASan build too; WG_QUANTIZED_CASES sets the random cases per configuration.
//
// Random case n: quantType, uint8 bits and scale type cycle through all 27 combinations
// (float32, float16, bfloat16); the index array type cycles through 11 entries (coprime with 27);
// block sizes 16..256; quantize-axis lengths mostly not a multiple of the block size (odd ones for
// int4/uint4, so rows start on odd nibbles); rank 1-4 with any gather axis (uint8 included, beyond
// onnxruntime) and any quantize axis (last for uint8); zero points in half; negative axes; index
// rank 0-3, empty ones, negative and out-of-range values (huge 64-bit ones) in every outOfRange
// mode; inputs as views at odd offsets; opts.out (TypedArray, { data, shape }, a view in a larger
// buffer); a quarter each with resident data, scales, zero points, indices, opts.resident and a
// resident opts.out. Every case checks the caller's arrays are untouched; every test that the
// wasm heap did not grow.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { bytesOf, sameBytes } from '../../common/bytes.mjs';
import { rawIndex, refTake } from '../../common/reference.mjs';
import { refGatherBlockQuantized } from '../../common/reference-quantized.mjs';
import { numel } from '../../common/shape.mjs';
import { describeCase, randomBytes, randomCase, randomScales, reference, refOpts } from '../lib/quantized-cases.mjs';
import { runOrt, session } from '../lib/quantized-ort.mjs';
import { INDEX_LIMITS } from '../lib/random-cases.mjs';
import { Rng, hashString } from '../rng.mjs';
import api from '../tested-api.mjs';
import { describeErrors, expectError, i32 } from '../lib/expect-error.mjs';
import { badInputSuite } from '../lib/bad-inputs.mjs';

const OP = 'gatherBlockQuantized';
const gbq = (...args) => api.gatherBlockQuantized(...args);
const CASES = Number(process.env.WG_QUANTIZED_CASES ?? 300);

const CONFIGS = [
  { variant: 'simd', threads: 1 },
  { variant: 'simd-threaded', threads: 1 },
  // parallelThreshold 0: every call, however small, is split over the pool.
  { variant: 'simd-threaded', threads: 2, parallelThreshold: 0 },
  { variant: 'simd-threaded', threads: 4, parallelThreshold: 0 },
  // the default threshold: small calls on the caller's thread, the large tables split
  { variant: 'simd-threaded', threads: 4 },
];
const cfgName = (c) => `${c.variant} threads=${c.threads}${c.parallelThreshold !== undefined ? ` parallelThreshold=${c.parallelThreshold}` : ''}`;

const QUANT_TYPES = ['uint8', 'uint4', 'int4'];
const SCALE_TYPES = ['float32', 'float16', 'bfloat16'];
const INDEX_TYPES = [
  'Int32Array', 'Uint32Array', 'BigInt64Array', 'BigUint64Array', 'Array', 'Int8Array',
  'Int16Array', 'Uint8Array', 'Uint16Array', 'Int32Array', 'BigInt64Array',
];
const RESIDENT_INDEX_TYPES = ['Int32Array', 'Uint32Array', 'BigInt64Array', 'BigUint64Array'];
// Out-of-range values that are dangerous if truncated or sign-confused, and the types' extremes.
const HUGE = [2n ** 31n - 1n, -(2n ** 31n), 2n ** 32n - 1n, 2n ** 32n, 2n ** 32n + 1n, 2n ** 40n, -(2n ** 40n),
  2n ** 53n - 1n, 2n ** 63n - 1n, -(2n ** 63n), 2n ** 64n - 1n, 127n, -128n, 255n, 32767n, 65535n];

// ---------------------------------------------------------------------------------------------
// Generators

const isTyped = (a) => ArrayBuffer.isView(a);

/** An index value (BigInt) for a dimension of size s, representable in itype; out of range if oor. */
function indexValue(R, s, itype, oor) {
  const [lo, hi] = INDEX_LIMITS[itype];
  const S = BigInt(s);
  if (!oor && s > 0) {
    let v = BigInt(R.int(0, s - 1));
    if (lo < 0n && R.chance(0.35)) v -= S;
    if (v >= lo && v <= hi) return v;
    return BigInt(R.int(0, Math.min(s - 1, Number(hi))));
  }
  const cands = [S, S + 1n, S + BigInt(R.int(2, 100)), -S - 1n, -S - BigInt(R.int(2, 100)), lo, hi, ...HUGE];
  const ok = cands.filter((v) => v >= lo && v <= hi && (v < -S || v >= S));
  return ok.length ? R.pick(ok) : indexValue(R, s, itype, false); // (an Int8Array cannot reach past 127)
}

function indexArray(vals, itype) {
  if (itype === 'Array') return vals.map(Number);
  if (itype === 'BigInt64Array' || itype === 'BigUint64Array') return globalThis[itype].from(vals);
  return globalThis[itype].from(vals.map(Number));
}

/**
 * Indices of `shape` into a dimension of size s: for 'zero' and 'clamp' a share `rate` out of range
 * (default random), for 'error' (unless `rate` is 0) one out of range three times in ten.
 */
function makeIndices(R, shape, s, itype, mode, rate) {
  const n = numel(shape);
  const share = rate ?? (mode === 'error' ? 0 : R.pick([0, 0.05, 0.2, 0.5]));
  const vals = Array.from({ length: n }, () => indexValue(R, s, itype, s === 0 || R.chance(share)));
  if (mode === 'error' && rate === undefined && n > 0 && R.chance(0.3)) {
    const i = R.int(0, n - 1);
    vals[i] = indexValue(R, s, itype, true);
  }
  return { data: indexArray(vals, itype), shape };
}

/** A view of `a` at an offset of 1-3 elements into a larger array of random bytes. */
function offsetView(R, a) {
  const pad = R.int(1, 3);
  const big = new a.constructor(a.length + pad + R.int(0, 3));
  new Uint8Array(big.buffer).set(randomBytes(R, big.byteLength));
  big.set(a, pad);
  return big.subarray(pad, pad + a.length);
}

/** The pieces of a table: logical shape -> { data, scales, zeroPoints? } (zp when withZp). */
function makeTable(R, { quantType, bits, shape, blockSize, quantizeAxis, scaleType, withZp }) {
  const packed = quantType === 'uint8';
  const per = packed ? 8 / bits : 1;
  const rank = shape.length;
  const n = numel(shape);
  const stored = shape.slice();
  if (packed) stored[rank - 1] /= per;
  const data = { data: randomBytes(R, packed ? n / per : Math.ceil(n / 2)), shape: packed ? stored : shape.slice() };
  const scalesShape = shape.slice();
  scalesShape[quantizeAxis] = Math.ceil(shape[quantizeAxis] / blockSize);
  const ns = numel(scalesShape);
  const scales = { data: randomScales(R, scaleType, ns), shape: scalesShape };
  let zeroPoints;
  if (withZp) {
    const zpShape = scalesShape.slice();
    if (packed) zpShape[rank - 1] = Math.ceil(zpShape[rank - 1] / per);
    zeroPoints = { data: randomBytes(R, packed ? numel(zpShape) : Math.ceil(ns / 2)), shape: zpShape };
  }
  return { data, scales, zeroPoints };
}

/** Random case n (see the file comment). Fully determined by n. */
function opCase(n) {
  const seed = hashString(`wasm-gather gatherBlockQuantized #${n}`);
  const R = new Rng(seed);
  const quantType = QUANT_TYPES[n % 3];
  const packed = quantType === 'uint8';
  const bits = packed ? [2, 4, 8][Math.floor(n / 3) % 3] : 4;
  const scaleType = SCALE_TYPES[Math.floor(n / 9) % 3];
  const itype = INDEX_TYPES[n % INDEX_TYPES.length];
  const mode = R.pick(['error', 'error', 'zero', 'clamp']);
  const blockSize = R.pick([16, 32, 64, 128, 256]);
  const rank = R.pick([1, 2, 2, 2, 3, 3, 4]);
  const per = packed ? 8 / bits : 1;
  const gatherAxis = R.int(0, rank - 1);
  const quantizeAxis = packed ? rank - 1 : R.int(0, rank - 1);
  const shape = Array.from({ length: rank }, () => R.int(1, 4));
  // The quantize axis: whole blocks plus a remainder; a whole number of blocks one time in ten.
  let q = R.chance(0.1) ? blockSize * R.int(1, 2) : blockSize * R.int(0, 2) + R.int(1, blockSize - 1);
  if (packed) q = Math.ceil(q / per) * per;
  shape[quantizeAxis] = q;
  if (gatherAxis !== quantizeAxis) shape[gatherAxis] = R.int(1, 9);
  for (let d = 0; d < rank && numel(shape) > 8192; d++) if (d !== quantizeAxis && d !== gatherAxis) shape[d] = 1;
  if (R.chance(0.03)) shape[R.int(0, rank - 1)] = 0; // an empty table
  const table = makeTable(R, { quantType, bits, shape, blockSize, quantizeAxis, scaleType, withZp: R.chance(0.5) });

  const ishape = Array.from({ length: R.pick([0, 1, 1, 1, 2, 2, 3]) }, () => (R.chance(0.06) ? 0 : R.int(1, 6)));
  const s = shape[gatherAxis];
  const inner = s === 0 ? 0 : numel(shape) / s;
  while (inner * numel(ishape) > 20000 && ishape.length) ishape[ishape.indexOf(Math.max(...ishape))] >>= 1;
  const indices = makeIndices(R, ishape, s, itype, mode);

  // Options, defaults sometimes left out, axes sometimes negative.
  const opts = {};
  if (!packed || R.chance(0.5)) opts.quantType = quantType;
  if (packed ? bits !== 4 || R.chance(0.5) : R.chance(0.3)) opts.bits = bits;
  if (scaleType === 'bfloat16' || (scaleType === 'float16' && R.chance(0.5)) || (scaleType === 'float32' && R.chance(0.2))) opts.scaleType = scaleType;
  if (gatherAxis !== 0 || R.chance(0.5)) opts.gatherAxis = R.chance(0.25) ? gatherAxis - rank : gatherAxis;
  if (quantizeAxis !== rank - 1 || R.chance(0.5)) opts.quantizeAxis = R.chance(0.25) ? quantizeAxis - rank : quantizeAxis;
  if (blockSize !== 128 || R.chance(0.5)) opts.blockSize = blockSize;
  if (table.zeroPoints) opts.zeroPoints = table.zeroPoints;
  if (mode !== 'error' || R.chance(0.3)) opts.outOfRange = mode;

  // Some inputs are views at an offset into a larger buffer (odd byte offsets for bytes).
  for (const t of [table.data, table.scales, table.zeroPoints, indices]) {
    if (t && isTyped(t.data) && R.chance(0.15)) t.data = offsetView(R, t.data);
  }
  const outKind = R.chance(0.3) ? R.int(1, 2) : 0; // 1: a TypedArray, 2: { data, shape }
  const outPad = outKind && R.chance(0.3) ? R.int(1, 3) : 0;
  return {
    n, seed, quantType, bits, scaleType, blockSize, gatherAxis, quantizeAxis, shape, itype, mode,
    data: table.data, scales: table.scales, zeroPoints: table.zeroPoints, indices, opts, outKind, outPad, outSeed: R.int(0, 2 ** 31),
  };
}

// Large tables, where the SIMD paths run: [quantType, bits, data shape (stored for uint8), blockSize,
// scaleType, zero points, gatherAxis, quantizeAxis, indices, index type, mode].
const LARGE = [
  ['uint8', 4, [3000, 64], 32, 'float32', false, 0, 1, 600, 'Int32Array', 'error'],
  ['uint8', 4, [4096, 24], 16, 'float16', true, 0, 1, 1000, 'BigInt64Array', 'error'],
  ['uint8', 2, [2048, 16], 32, 'bfloat16', true, 0, 1, 500, 'Uint32Array', 'clamp'],
  ['uint8', 8, [2500, 200], 64, 'float16', true, 0, 1, 400, 'Uint32Array', 'zero'],
  ['uint8', 4, [3000, 9], 16, 'float16', true, 0, 1, 700, 'Int32Array', 'error'], // rows of 18 codes
  ['int4', 4, [3001, 129], 32, 'float32', true, 0, 1, 700, 'Int32Array', 'error'], // odd rows: odd nibbles
  ['int4', 4, [2000, 77], 16, 'float16', false, 0, 1, 500, 'BigInt64Array', 'clamp'],
  ['uint4', 4, [2999, 255], 128, 'bfloat16', true, 0, 1, 300, 'Int32Array', 'error'],
  ['uint4', 4, [1500, 33], 16, 'float32', true, 0, 1, 800, 'Array', 'zero'],
  ['int4', 4, [5000, 16], 16, 'float16', true, 0, 1, 2000, 'Int32Array', 'error'],
  ['int4', 4, [600, 40], 64, 'float16', true, 0, 0, 300, 'Int32Array', 'error'], // blocks down the columns
  ['int4', 4, [97, 1001], 32, 'float32', true, 1, 1, 900, 'Int32Array', 'error'], // single codes
  ['uint8', 4, [50, 512], 32, 'float32', true, 1, 1, 2000, 'Int16Array', 'error'], // uint8, gather axis 1
  ['uint8', 8, [4, 500, 96], 32, 'bfloat16', false, 1, 2, 300, 'Int32Array', 'error'],
  ['uint4', 4, [4, 700, 65], 16, 'float16', true, 1, 2, 200, 'BigUint64Array', 'error'],
];

// And seeded random ones: 300-3000 rows of 16-600 codes, any quantType, bits, scale type, block
// size, zero points or not, gathered along axis 0 (quantized along the last) or, for int4/uint4,
// sometimes quantized along axis 0.
const LARGE_RANDOM = 16;
for (let k = 0; k < LARGE_RANDOM; k++) {
  const R = new Rng(hashString(`wasm-gather gatherBlockQuantized large random #${k}`));
  const quantType = QUANT_TYPES[k % 3];
  const bits = quantType === 'uint8' ? [2, 4, 8][Math.floor(k / 3) % 3] : 4;
  const per = quantType === 'uint8' ? 8 / bits : 1;
  const rows = R.int(300, 3000);
  const row = Math.ceil(R.int(16, 600) / per) * per;
  const quantizeAxis = quantType !== 'uint8' && R.chance(0.3) ? 0 : 1;
  const nIdx = Math.max(1, Math.min(R.int(1, 1500), Math.floor(60000 / row)));
  LARGE.push([quantType, bits, [rows, row / per], R.pick([16, 32, 64, 128, 256]), SCALE_TYPES[k % 3], R.chance(0.6), 0, quantizeAxis,
    nIdx, R.pick(['Int32Array', 'BigInt64Array', 'Uint32Array']), R.pick(['error', 'error', 'zero', 'clamp'])]);
}

function largeCase(k) {
  const [quantType, bits, dataShape, blockSize, scaleType, withZp, gatherAxis, quantizeAxis, nIdx, itype, mode] = LARGE[k];
  const R = new Rng(hashString(`wasm-gather gatherBlockQuantized large #${k}`));
  const packed = quantType === 'uint8';
  const shape = dataShape.slice();
  if (packed) shape[shape.length - 1] *= 8 / bits;
  const table = makeTable(R, { quantType, bits, shape, blockSize, quantizeAxis, scaleType, withZp });
  const indices = makeIndices(new Rng(R.int(0, 2 ** 31)), [nIdx], shape[gatherAxis], itype, mode, mode === 'error' ? 0 : 0.1);
  const opts = { quantType, bits, scaleType: scaleType === 'float32' ? undefined : scaleType, gatherAxis, quantizeAxis, blockSize, outOfRange: mode };
  if (table.zeroPoints) opts.zeroPoints = table.zeroPoints;
  return { n: 10000 + k, large: true, quantType, bits, scaleType, blockSize, gatherAxis, quantizeAxis, shape, itype, mode,
    data: table.data, scales: table.scales, zeroPoints: table.zeroPoints, indices, opts, outKind: k % 3 === 2 ? 1 : 0, outPad: 0, outSeed: k };
}

const describeOpCase = (c) => {
  const t = (x) => (x ? `${x.data.constructor.name}[${x.shape}]${x.data.length <= 16 ? ` = ${Array.from(x.data, String)}` : ''}` : '-');
  const { zeroPoints, ...o } = c.opts;
  return `case #${c.n} seed=${c.seed ?? '-'} data ${t(c.data)} indices ${t(c.indices)} scales ${t(c.scales)} zeroPoints ${t(zeroPoints)} ` +
    `opts ${JSON.stringify(o)}${c.outKind ? ` out=${c.outKind === 1 ? 'TypedArray' : '{data,shape}'}${c.outPad ? ` at +${c.outPad}` : ''}` : ''}`;
};

// ---------------------------------------------------------------------------------------------
// The reference result of a case (from its own freshly generated copy), and the library's check

const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const coordinates = (p, shape) => {
  const c = new Array(shape.length);
  for (let d = shape.length - 1; d >= 0; d--) { c[d] = p % shape[d]; p = Math.floor(p / shape[d]); }
  return `[${c.join(', ')}]`;
};

/** The message the op must throw for the first out-of-range index of c, in 'error' mode. */
function indexErrorPattern(c) {
  const s = c.shape[c.gatherAxis];
  const S = BigInt(s);
  for (let i = 0; i < c.indices.data.length; i++) {
    const v = rawIndex(c.indices.data, i);
    if (v < -S || v >= S) {
      return new RegExp(`^${OP}: indices${esc(coordinates(i, c.indices.shape))} = ${v} is out of range for dimension ` +
        `${c.gatherAxis} of data, which has size ${s} \\(valid indices: ${-s} <= i < ${s}`);
    }
  }
  throw new Error('generator: no out-of-range index');
}

const refCache = new Map();
function refResult(make, n) {
  if (refCache.has(n)) return refCache.get(n);
  const c = make(); // its own copy: the reference never sees the library's arrays
  let r;
  try {
    const res = refGatherBlockQuantized(c.data, c.indices, c.scales, c.opts);
    r = { threw: false, shape: res.shape, data: res.data };
  } catch (e) {
    if (!(e instanceof RangeError) || c.mode !== 'error') throw e; // a generator bug
    const res = refGatherBlockQuantized(c.data, c.indices, c.scales, { ...c.opts, outOfRange: 'zero' });
    r = { threw: true, error: e, pattern: indexErrorPattern(c), shape: res.shape, data: res.data };
  }
  refCache.set(n, r);
  return r;
}

/** Copies of every array reachable from the case's tensors, to compare after the call. */
function snapshotCase(c) {
  return [c.data, c.scales, c.zeroPoints, c.indices].filter(Boolean).map((t) => ({
    t, data: t.data, shape: t.shape, shapeCopy: t.shape.slice(),
    bytes: isTyped(t.data) ? bytesOf(t.data).slice() : t.data.slice(),
  }));
}

function checkUntouched(snaps, msg) {
  for (const s of snaps) {
    assert.ok(s.t.data === s.data && s.t.shape === s.shape, `${msg}: an input's data or shape object was replaced`);
    assert.deepEqual(s.t.shape, s.shapeCopy, `${msg}: an input's shape changed`);
    if (isTyped(s.data)) assert.ok(sameBytes(bytesOf(s.data), s.bytes), `${msg}: an input's ${s.data.constructor.name} changed`);
    else assert.deepEqual(s.data, s.bytes, `${msg}: an input's plain array changed`);
  }
}

function firstDifference(got, want) {
  const g = bytesOf(got);
  const w = bytesOf(want);
  const bpe = want.BYTES_PER_ELEMENT;
  let i = 0;
  while (i < g.length && g[i] === w[i]) i++;
  const e = Math.floor(i / bpe);
  let bad = 0;
  for (let k = 0; k < want.length; k++) if (!sameBytes(g.subarray(k * bpe, (k + 1) * bpe), w.subarray(k * bpe, (k + 1) * bpe))) bad++;
  const hex = (a) => (a instanceof Uint16Array ? `0x${a[e]?.toString(16)}` : String(a[e]));
  return `element ${e}: got ${hex(got)}, expected ${hex(want)}; ${bad} of ${want.length} differ`;
}

const stats = { cases: 0, errors: 0, resident: 0 };

/**
 * Runs case c through the library and checks it against ref. Resident paths by c.n % 4: 1: data
 * (and for n % 8 == 1 the scales) uploaded; 2: data, scales, zero points and indices uploaded,
 * opts.resident; 3: zero points and indices uploaded, the output written into a resident opts.out.
 */
function runCase(c, ref, cfg) {
  const msg = `[${cfg}] ${describeOpCase(c)}`;
  const snaps = snapshotCase(c);
  const opts = { ...c.opts };
  const kind = c.n % 4;
  const handles = [];
  const up = (t, o) => { const h = api.upload(t, o); handles.push(h); return h; };
  const packedOpt = c.quantType === 'uint8' ? undefined : { quantType: c.quantType };
  let { data, scales, indices } = c;
  let outObj = null;
  let backing = null;
  let backingCopy = null;
  let res;
  let err = null;
  try {
    if (kind === 1 || kind === 2) data = up(c.data, packedOpt);
    if (kind === 2 || (kind === 1 && c.n % 8 === 1)) scales = up(c.scales);
    if ((kind === 2 || kind === 3) && opts.zeroPoints) opts.zeroPoints = up(opts.zeroPoints, packedOpt);
    if ((kind === 2 || kind === 3) && RESIDENT_INDEX_TYPES.includes(c.itype)) indices = up(c.indices);
    if (kind === 2) opts.resident = true;
    const Type = c.scales.data.constructor;
    const n = numel(ref.shape);
    if (kind === 3 && !ref.threw) {
      opts.out = up({ data: new Type(new Uint8Array(randomBytes(new Rng(c.outSeed), n * Type.BYTES_PER_ELEMENT)).buffer), shape: ref.shape.slice() });
    } else if (kind !== 2 && c.outKind) {
      // garbage to overwrite; with outPad, a view into a larger buffer whose rest must stay intact
      backing = new Type(new Uint8Array(randomBytes(new Rng(c.outSeed), (n + 2 * c.outPad) * Type.BYTES_PER_ELEMENT)).buffer);
      backingCopy = bytesOf(backing).slice();
      outObj = backing.subarray(c.outPad, c.outPad + n);
      opts.out = c.outKind === 1 ? outObj : { data: outObj, shape: ref.shape.slice() };
    }
    if (handles.length) stats.resident++;
    try {
      res = gbq(data, indices, scales, opts);
      if (res instanceof api.ResidentTensor) {
        assert.ok(opts.resident || res === opts.out, `${msg}: a resident result that was not asked for`);
        if (res !== opts.out) handles.push(res);
        res = { data: res.read(), shape: res.shape };
      }
    } catch (e) {
      err = e;
    }
  } finally {
    for (const h of handles) h.dispose();
  }
  checkUntouched(snaps, msg);
  stats.cases++;
  if (ref.threw) {
    stats.errors++;
    assert.ok(err, `${msg}: expected a RangeError (${ref.error.message}), but the call returned`);
    assert.ok(err instanceof RangeError, `${msg}: expected a RangeError, got ${err.name}: ${err.message}`);
    assert.match(err.message, ref.pattern, msg);
    if (backing) assert.ok(sameBytes(bytesOf(backing), backingCopy), `${msg}: opts.out written although the call failed`);
    return;
  }
  if (err) assert.fail(`${msg}: unexpected ${err.name}: ${err.message}\n${err.stack}`);
  assert.deepEqual(Array.from(res.shape), ref.shape, `${msg}: shape`);
  assert.equal(res.data.constructor, c.scales.data.constructor, `${msg}: output type`);
  if (outObj) assert.ok(res.data === outObj, `${msg}: result.data is not opts.out`);
  if (!sameBytes(res.data, ref.data)) assert.fail(`${msg}: ${firstDifference(res.data, ref.data)}`);
  if (backing && c.outPad) {
    const all = bytesOf(backing);
    const head = c.outPad * backing.BYTES_PER_ELEMENT;
    const tail = all.length - head;
    assert.ok(sameBytes(all.subarray(0, head), backingCopy.subarray(0, head)) && sameBytes(all.subarray(tail), backingCopy.subarray(tail)),
      `${msg}: wrote outside the opts.out view`);
  }
}

const runOpCase = (n, cfg) => runCase(opCase(n), refResult(() => opCase(n), n), cfg);
const runLargeCase = (k, cfg) => runCase(largeCase(k), refResult(() => largeCase(k), 10000 + k), cfg);

/** Runs fn and returns how much the wasm heap in use grew. */
function heapGrowth(fn) {
  const before = api.heapStats().heapInUse;
  fn();
  return api.heapStats().heapInUse - before;
}

/** Collects the failures of calling check(i) for i < count into one assertion. */
function allOf(count, check) {
  const failures = [];
  for (let i = 0; i < count; i++) {
    try {
      check(i);
    } catch (e) {
      failures.push(process.env.WG_QUANTIZED_STACKS ? e?.stack : e?.message ?? String(e));
    }
  }
  if (failures.length) assert.fail(`${failures.length} of ${count} failed; the first ones:\n${failures.slice(0, 5).join('\n')}`);
}

// Small fixed tables for the hand-made tests.
const idx = (...v) => ({ data: Int32Array.from(v), shape: [v.length] });
function table8() { // uint8 bits 8, [3, 32], block 16, float16 scales, zero points
  const R = new Rng(7);
  return makeTable(R, { quantType: 'uint8', bits: 8, shape: [3, 32], blockSize: 16, quantizeAxis: 1, scaleType: 'float16', withZp: true });
}
const opts8 = (t, extra) => ({ bits: 8, blockSize: 16, zeroPoints: t.zeroPoints, ...extra });

function expectSame(got, want, what) {
  assert.deepEqual(Array.from(got.shape), want.shape, `${what}: shape`);
  assert.equal(got.data.constructor, want.data.constructor, `${what}: type`);
  assert.ok(sameBytes(got.data, want.data), `${what}: ${firstDifference(got.data, want.data)}`);
}

// ---------------------------------------------------------------------------------------------

for (const cfg of CONFIGS) {
  const name = cfgName(cfg);
  describe(`${OP} vs reference: ${name}`, () => {
    before(async () => {
      const info = await api.init({ ...cfg });
      assert.equal(info.variant, cfg.variant);
      assert.equal(info.threads, cfg.threads);
    });
    after(() => api.dispose());

    test(`${CASES} seeded random cases, bit for bit`, (t) => {
      const before = { ...stats };
      const grown = heapGrowth(() => allOf(CASES, (n) => runOpCase(n, name)));
      // A little slack: the pool's threads make a few one-time allocations on first use.
      assert.ok(grown <= 1024, `wasm heap in use grew by ${grown} bytes over ${CASES} calls`);
      assert.ok(stats.resident - before.resident >= CASES / 2, 'resident cases');
      t.diagnostic(`${stats.cases - before.cases} cases, ${stats.errors - before.errors} expected errors, ${stats.resident - before.resident} with resident tensors`);
    });

    test(`large tables (${LARGE.length}: up to 5000 rows, 16+ codes a block, odd int4 rows, ${LARGE_RANDOM} random), bit for bit`, () => {
      const grown = heapGrowth(() => allOf(LARGE.length, (k) => runLargeCase(k, name)));
      assert.ok(grown <= 1024, `wasm heap in use grew by ${grown} bytes`);
    });

    test('a large call with bad indices reports the first one in row-major order, whatever the split', () => {
      const c = largeCase(5); // int4 [3001, 129]
      const data = new Int32Array(4000).map((_, i) => (i * 37) % 3001);
      data[3999] = 3001;
      data[2345] = -3002;
      const heap = api.heapStats().heapInUse;
      assert.throws(() => gbq(c.data, { data, shape: [4000] }, c.scales, { ...c.opts, outOfRange: undefined }), (e) => {
        assert.ok(e instanceof RangeError, `${e.name}: ${e.message}`);
        assert.match(e.message, /^gatherBlockQuantized: indices\[2345\] = -3002 is out of range for dimension 0 of data, which has size 3001/);
        return true;
      });
      assert.equal(api.heapStats().heapInUse, heap, 'heap after the error');
    });

    test('empty indices, rank-0 indices, empty tables', () => {
      const t = table8();
      const o = opts8(t);
      for (const indices of [{ data: new Int32Array(0), shape: [0] }, { data: [], shape: [2, 0] },
        { data: new BigInt64Array(0), shape: [0, 3] }, { data: Int32Array.of(-1), shape: [] }, { data: [2], shape: [] },
        { data: new Uint16Array([1]), shape: [] }]) {
        for (const outOfRange of ['error', 'zero', 'clamp']) {
          const want = refGatherBlockQuantized(t.data, indices, t.scales, { ...o, outOfRange });
          expectSame(gbq(t.data, indices, t.scales, { ...o, outOfRange }), want, `indices [${indices.shape}] ${outOfRange}`);
        }
      }
      assert.deepEqual(gbq(t.data, { data: [0], shape: [] }, t.scales, o).shape, [32]);
      assert.deepEqual(gbq(t.data, { data: [], shape: [0, 2] }, t.scales, o).shape, [0, 2, 32]);
      // A table with no rows: every index is out of range ('zero' and 'clamp' give zeros), none is fine.
      const empty = { data: new Uint8Array(0), shape: [0, 32] };
      const escales = { data: new Float32Array(0), shape: [0, 2] };
      const eo = { bits: 8, blockSize: 16 };
      expectSame(gbq(empty, idx(), escales, eo), refGatherBlockQuantized(empty, idx(), escales, eo), 'no rows, no indices');
      for (const outOfRange of ['zero', 'clamp']) {
        expectSame(gbq(empty, idx(0, -1, 5), escales, { ...eo, outOfRange }), refGatherBlockQuantized(empty, idx(0, -1, 5), escales, { ...eo, outOfRange }), outOfRange);
      }
      assert.throws(() => gbq(empty, idx(0), escales, eo), /^RangeError: gatherBlockQuantized: indices\[0\] = 0 is out of range for dimension 0 of data, which has size 0/);
    });

    test('every index array type, negative and out-of-range values, every outOfRange mode', () => {
      const t = table8(); // 3 rows
      const values = [2, 0, -1, -3, 1];
      const bad = [3, -4, 7];
      const types = ['Int32Array', 'Uint32Array', 'BigInt64Array', 'BigUint64Array', 'Int8Array', 'Int16Array', 'Uint8Array', 'Uint16Array', 'Array'];
      for (const type of types) {
        const signed = INDEX_LIMITS[type][0] < 0n;
        const vals = [...(signed ? values : values.filter((v) => v >= 0)), ...(signed ? bad : bad.filter((v) => v >= 0))].map(BigInt);
        const indices = { data: indexArray(vals, type), shape: [vals.length] };
        for (const outOfRange of ['zero', 'clamp']) {
          const o = opts8(t, { outOfRange });
          expectSame(gbq(t.data, indices, t.scales, o), refGatherBlockQuantized(t.data, indices, t.scales, o), `${type} ${outOfRange}`);
        }
        const firstBad = vals.findIndex((v) => v < -3n || v >= 3n);
        assert.throws(() => gbq(t.data, indices, t.scales, opts8(t)), (e) => e instanceof RangeError &&
          new RegExp(`^${OP}: indices\\[${firstBad}\\] = ${vals[firstBad]} is out of range for dimension 0 of data, which has size 3`).test(e.message), type);
        const good = { data: indexArray(vals.slice(0, firstBad), type), shape: [firstBad] };
        expectSame(gbq(t.data, good, t.scales, opts8(t)), refGatherBlockQuantized(t.data, good, t.scales, opts8(t)), `${type} in range`);
      }
      // a plain array of BigInts, and values 64-bit indices must not truncate
      const huge = { data: [1n, 2n ** 32n + 1n, -(2n ** 40n), 2n ** 64n - 1n], shape: [2, 2] };
      for (const outOfRange of ['zero', 'clamp']) {
        const o = opts8(t, { outOfRange });
        expectSame(gbq(t.data, huge, t.scales, o), refGatherBlockQuantized(t.data, huge, t.scales, o), `plain BigInts ${outOfRange}`);
      }
      assert.throws(() => gbq(t.data, { data: new BigUint64Array([0n, 2n ** 64n - 1n]), shape: [1, 2] }, t.scales, opts8(t)),
        /^RangeError: gatherBlockQuantized: indices\[0, 1\] = 18446744073709551615 is out of range/);
    });

    test('uint8 gathered along any axis (beyond onnxruntime): the dequantized table taken along it', () => {
      const R = new Rng(11);
      const shape = [3, 5, 64]; // logical; stored [3, 5, 32] at 4 bits
      const tbl = makeTable(R, { quantType: 'uint8', bits: 4, shape, blockSize: 16, quantizeAxis: 2, scaleType: 'bfloat16', withZp: true });
      const o = { blockSize: 16, scaleType: 'bfloat16', zeroPoints: tbl.zeroPoints };
      const whole = refGatherBlockQuantized(tbl.data, idx(0, 1, 2), tbl.scales, o); // the dequantized table
      for (const [gatherAxis, indices] of [[1, idx(4, -5, 2)], [2, { data: [63, -64, 31, 32, 0], shape: [5] }], [-1, { data: [17], shape: [] }], [-2, idx(0, 0)]]) {
        const got = gbq(tbl.data, indices, tbl.scales, { ...o, gatherAxis });
        expectSame(got, refTake(whole, indices, { axis: gatherAxis }), `gatherAxis ${gatherAxis}`);
      }
      // an index of the logical last dim (64) is out of range, and the message says 64
      assert.throws(() => gbq(tbl.data, idx(64), tbl.scales, { ...o, gatherAxis: 2 }),
        /^RangeError: gatherBlockQuantized: indices\[0\] = 64 is out of range for dimension 2 of data, which has size 64/);
    });

    test('resident tables: uint8, packed int4/uint4 (upload with quantType), scales, zero points; opts.out, opts.resident', () => {
      const heap = api.heapStats().heapInUse;
      for (const [quantType, bits] of [['uint8', 2], ['uint8', 4], ['uint8', 8], ['int4', 4], ['uint4', 4]]) {
        const R = new Rng(hashString(`resident ${quantType} ${bits}`));
        const shape = quantType === 'uint8' ? [300, 96] : [301, 67]; // int4: 67 codes a row, rows start on odd nibbles
        const tbl = makeTable(R, { quantType, bits, shape, blockSize: 32, quantizeAxis: 1, scaleType: 'float16', withZp: true });
        const o = { quantType, bits, blockSize: 32, zeroPoints: tbl.zeroPoints };
        const packed = quantType === 'uint8' ? undefined : { quantType };
        const rData = api.upload(tbl.data, packed);
        const rScales = api.upload(tbl.scales);
        const rZp = api.upload(tbl.zeroPoints, packed);
        const ro = { ...o, zeroPoints: rZp };
        for (let call = 0; call < 5; call++) {
          const indices = makeIndices(R, [R.int(1, 40)], shape[0], 'Int32Array', 'zero', 0.1);
          const want = refGatherBlockQuantized(tbl.data, indices, tbl.scales, { ...o, outOfRange: 'zero' });
          const what = `${quantType} bits ${bits} call ${call}`;
          expectSame(gbq(rData, indices, rScales, { ...ro, outOfRange: 'zero' }), want, `${what} all resident`);
          expectSame(gbq(rData, indices, tbl.scales, { ...o, outOfRange: 'zero' }), want, `${what} resident data`);
          // opts.resident: the result stays in wasm memory, and is the next op's input
          const rIdx = api.upload(indices);
          const kept = gbq(rData, rIdx, rScales, { ...ro, outOfRange: 'zero', resident: true });
          assert.ok(kept instanceof api.ResidentTensor);
          assert.equal(kept.arrayType, Uint16Array);
          assert.deepEqual([...kept.shape], want.shape);
          expectSame({ data: kept.read(), shape: kept.shape }, want, `${what} opts.resident`);
          const cols = { data: [0, -1, 31, 32], shape: [4] };
          expectSame(api.take(kept, cols, { axis: 1 }), refTake(want, cols, { axis: 1 }), `${what} take of the resident result`);
          // opts.out: resident, a TypedArray, { data, shape }
          const out = api.upload({ data: new Uint16Array(want.data.length).fill(0xffff), shape: want.shape });
          assert.equal(gbq(rData, rIdx, rScales, { ...ro, outOfRange: 'zero', out }), out);
          expectSame({ data: out.read(), shape: out.shape }, want, `${what} resident opts.out`);
          const arr = new Uint16Array(want.data.length).fill(0x7e00);
          assert.equal(gbq(rData, indices, rScales, { ...ro, outOfRange: 'zero', out: arr }).data, arr);
          expectSame({ data: arr, shape: want.shape }, want, `${what} opts.out TypedArray`);
          const obj = { data: new Uint16Array(want.data.length), shape: want.shape.slice() };
          expectSame(gbq(tbl.data, rIdx, tbl.scales, { ...o, outOfRange: 'zero', out: obj }), want, `${what} opts.out { data, shape }`);
          for (const h of [rIdx, kept, out]) h.dispose();
        }
        for (const h of [rData, rScales, rZp]) h.dispose();
      }
      assert.equal(api.heapStats().heapInUse, heap, 'heap after the resident tables were disposed');
    });

    test('the heap does not grow across calls (errors included) and caller arrays stay untouched', () => {
      const N = 48;
      allOf(N, (n) => runOpCase(n, name)); // warm up: one-time allocations of the runtime and the pool
      const grown = heapGrowth(() => {
        for (let rep = 0; rep < 3; rep++) allOf(N, (n) => runOpCase(n, name));
        allOf(4, (k) => runLargeCase(k, name));
      });
      assert.equal(grown, 0, `wasm heap in use grew by ${grown} bytes over ${3 * N + 4} calls`);
    });
  });
}

// ---------------------------------------------------------------------------------------------

describe(`${OP} vs onnxruntime-web (default wasm build, wasm EP, one thread), bit for bit`, () => {
  before(async () => { await api.init({ variant: 'simd-threaded', threads: 2, parallelThreshold: 0 }); });
  after(() => api.dispose());

  test('24 seeded cases onnxruntime accepts, two index tensors each (one all negative)', async () => {
    const seen = new Set();
    for (let i = 48; i < 72; i++) { // randomCase's next seeds after the reference test's 48
      const c = randomCase(i);
      seen.add(`${c.quantType}/${c.bits}/${c.scaleType}`);
      const s = await session(c);
      try {
        for (const indices of c.indexSets) {
          const want = await runOrt(s, c, indices);
          const what = `case ${i}: ${describeCase(c)}, indices [${indices.data}]`;
          const got = gbq(c.data, indices, c.scales, refOpts(c));
          assert.deepEqual(Array.from(got.shape), want.shape, what);
          assert.ok(sameBytes(got.data, want.data), `${what}: ${sameBytes(want.data, reference(c, indices).data) ? '' : '(the reference differs from onnxruntime too) '}` +
            firstDifference(got.data, want.data));
        }
      } finally {
        await s.release();
      }
    }
    assert.equal(seen.size, 10, 'every quantType, uint8 bits and scale type (float32, float16)');
  });

  test('non-finite scales (Inf and NaN of either sign, NaN payloads; Inf times 0): the op equals onnxruntime and the reference', async () => {
    // A NaN scale's sign comes through the multiply in onnxruntime and here (V8 keeps the NaN
    // operand; wasm itself leaves the sign unspecified).
    const codes = Uint8Array.from({ length: 96 }, (_, i) => 120 + (i % 16)); // q - zp = -8..7, 0 included
    const f32Bits = Uint32Array.of(0x7f800000, 0xff800000, 0x7fc00001, 0xffc00000, 0xff800001, 0x7f7fffff);
    for (const [scaleType, scales] of [
      ['float16', Uint16Array.of(0x7c00, 0xfc00, 0x7e01, 0xfe00, 0xfd00, 0x7bff)],
      ['float32', new Float32Array(f32Bits.buffer)],
    ]) {
      const c = { quantType: 'uint8', bits: 8, scaleType, blockSize: 16, gatherAxis: 0, quantizeAxis: 1, indicesType: 'int32',
        data: { data: codes, shape: [6, 16] }, scales: { data: scales, shape: [6, 1] } };
      const indices = { data: Int32Array.of(5, 0, 1, 2, 3, 4), shape: [6] };
      const s = await session(c);
      const want = await runOrt(s, c, indices);
      await s.release();
      const got = gbq(c.data, indices, c.scales, refOpts(c));
      assert.ok(sameBytes(got.data, want.data), `${scaleType}: ${firstDifference(got.data, want.data)}`);
      const ref = reference(c, indices).data;
      assert.ok(sameBytes(ref, want.data), `${scaleType}, the reference: ${firstDifference(ref, want.data)}`);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// The documented error messages: class, message, and nothing lost (tests/lib/expect-error.mjs).

const gatherBlockQuantized = (...args) => api.gatherBlockQuantized(...args);
// uint8 4 bits, stored [3, 8] = logical [3, 16], blockSize 16: scales [3, 1]
const q8 = () => ({ data: new Uint8Array(24), shape: [3, 8] });
const q4 = () => ({ data: new Uint8Array(24), shape: [3, 16] }); // int4/uint4 logical [3, 16]
const qs = (shape = [3, 1]) => ({ data: new Float32Array(shape.reduce((a, b) => a * b, 1)).fill(1), shape });

describeErrors('errors', () => {
  test("opts.negativeIndices 'error': a negative index is refused as negative, the first bad index in row-major order", () => {
    const neg = { negativeIndices: 'error' };
    expectError(gatherBlockQuantized, [q8(), i32([0, -3], [2]), qs(), { blockSize: 16, ...neg }], RangeError,
      /^gatherBlockQuantized: indices\[1\] = -3 is negative, and opts\.negativeIndices is 'error' \(valid indices: 0 <= i < 3\)$/);
  });

  test('gatherBlockQuantized rules', () => {
    const G = gatherBlockQuantized;
    expectError(G, [q8(), i32([0], [1]), qs(), { blockSize: 16, bits: 3 }], RangeError,
      /^gatherBlockQuantized: opts\.bits 3 is not valid for quantType 'uint8' \(uint8 codes have 2, 4 or 8 bits; uint4 and int4 codes have 4\)$/);
    expectError(G, [q4(), i32([0], [1]), qs(), { blockSize: 16, quantType: 'int4', bits: 8 }], RangeError,
      /^gatherBlockQuantized: opts\.bits 8 is not valid for quantType 'int4'/);
    expectError(G, [q8(), i32([0], [1]), qs([3, 1]), { blockSize: 24 }], RangeError,
      /^gatherBlockQuantized: opts\.blockSize 24 must be a power of 2, at least 16$/);
    expectError(G, [q8(), i32([0], [1]), qs([1, 16]), { blockSize: 16, quantizeAxis: 0 }], RangeError,
      /^gatherBlockQuantized: opts\.quantizeAxis 0 must be the last axis \(1\) for quantType 'uint8', whose codes are packed along it$/);
    expectError(G, [q4(), i32([0], [1]), qs(), { blockSize: 16, quantType: 'uint4', quantizeAxis: 2 }], RangeError,
      /^gatherBlockQuantized: opts\.quantizeAxis 2 is out of range for data of rank 2 \(expected -2 <= opts\.quantizeAxis < 2\)$/);
    expectError(G, [q8(), i32([0], [1]), qs([3, 2]), { blockSize: 16 }], RangeError,
      /^gatherBlockQuantized: scales\.shape\[1\] is 2 but must be 1 \(the data's logical shape with dimension quantizeAxis divided by blockSize, rounded up\)$/);
    expectError(G, [q4(), i32([0], [1]), qs([3, 16]), { blockSize: 16, quantType: 'int4', quantizeAxis: 0 }], RangeError,
      /^gatherBlockQuantized: scales\.shape\[0\] is 3 but must be 1 \(the data's logical shape/);
    expectError(G, [q8(), i32([0], [1]), qs([3]), { blockSize: 16 }], RangeError,
      /^gatherBlockQuantized: scales has rank 1 but must have the data's rank, 2$/);
    expectError(G, [{ data: new Uint8Array(3 * 32), shape: [3, 32] }, i32([0], [1]), qs([3, 4]), { blockSize: 16, zeroPoints: { data: new Uint8Array(12), shape: [3, 4] } }], RangeError,
      /^gatherBlockQuantized: opts\.zeroPoints\.shape\[1\] is 4 but must be 2 \(the scales' shape, with the last dimension divided by the codes a byte holds \(8 \/ bits\), rounded up, for quantType 'uint8' of 2 or 4 bits\)$/);
    expectError(G, [q8(), i32([0], [1]), qs(), { blockSize: 16, zeroPoints: { data: new Uint8Array(3), shape: [1, 3] } }], RangeError,
      /^gatherBlockQuantized: opts\.zeroPoints\.shape\[0\] is 1 but must be 3/);
    expectError(G, [{ data: new Uint8Array(24), shape: [3, 15] }, i32([0], [1]), qs(), { blockSize: 16, quantType: 'int4' }], RangeError,
      /^gatherBlockQuantized: data\.data has 24 elements but data\.shape \[3, 15\] needs 23 \(two 4-bit codes a byte, rounded up\)$/);
    expectError(G, [q4(), i32([0], [1]), qs(), { blockSize: 16, quantType: 'uint4', zeroPoints: { data: new Uint8Array(3), shape: [3, 1] } }], RangeError,
      /^gatherBlockQuantized: opts\.zeroPoints\.data has 3 elements but opts\.zeroPoints\.shape \[3, 1\] needs 2 \(two 4-bit codes a byte, rounded up\)$/);
    expectError(G, [q8(), i32([0], [1]), qs(), { blockSize: 16, gatherAxis: 2 }], RangeError,
      /^gatherBlockQuantized: opts\.gatherAxis 2 is out of range for data of rank 2 \(expected -2 <= opts\.gatherAxis < 2\)$/);
    expectError(G, [q8(), i32([0], [1]), qs(), { blockSize: 16, scaleType: 'bfloat16' }], TypeError,
      /^gatherBlockQuantized: opts\.scaleType 'bfloat16' does not match scales\.data, a Float32Array \(float32 scales are a Float32Array; float16 or bfloat16 bits a Uint16Array\)$/);
    expectError(G, [{ data: new Int8Array(24), shape: [3, 8] }, i32([0], [1]), qs(), { blockSize: 16 }], TypeError,
      /^gatherBlockQuantized: data\.data must be a Uint8Array/);
    expectError(G, [q8(), i32([0, 1, 2, 3], [2, 2]), qs(), { blockSize: 16 }], RangeError,
      /^gatherBlockQuantized: indices\[1, 1\] = 3 is out of range for dimension 0 of data, which has size 3 \(valid indices: -3 <= i < 3; opts\.outOfRange 'zero' or 'clamp' accept it\)$/);
    expectError(G, [q8(), { data: new BigInt64Array([0n, -(2n ** 40n)]), shape: [2] }, qs(), { blockSize: 16, gatherAxis: 1 }], RangeError,
      /^gatherBlockQuantized: indices\[1\] = -1099511627776 is out of range for dimension 1 of data, which has size 16/);
    expectError(G, [q8(), { data: [5], shape: [] }, qs(), { blockSize: 16 }], RangeError,
      /^gatherBlockQuantized: indices\[\] = 5 is out of range for dimension 0 of data, which has size 3/); // a scalar index, as take says it
  });

  test('gatherBlockQuantized: opts.out of the wrong type names the scales, whose type the output has', () => {
    // The output's type is the scales' (the data is a Uint8Array): "like the data" would mislead.
    expectError(gatherBlockQuantized, [q8(), i32([0], [1]), qs(), { blockSize: 16, out: new Uint16Array(16) }], TypeError,
      /^gatherBlockQuantized: opts\.out must be a Float32Array like the scales, got Uint16Array/);
  });

  test('gatherBlockQuantized: a logical last dim past 2^32 - 1 (uint8 of 2 or 4 bits) is refused naming the op', () => {
    // stored [0, 2^31] at 2 bits is logical [0, 2^33]: more than a dimension can hold
    expectError(gatherBlockQuantized, [{ data: new Uint8Array(0), shape: [0, 2 ** 31] }, i32([], [0]), { data: new Float32Array(0), shape: [0, 2 ** 29] }, { bits: 2, blockSize: 16 }],
      RangeError, /^gatherBlockQuantized: /);
    expectError(gatherBlockQuantized, [{ data: new Uint8Array(0), shape: [0, 2 ** 31] }, i32([], [0]), { data: new Float32Array(0), shape: [0, 2 ** 28] }, { bits: 4, blockSize: 16 }],
      RangeError, /^gatherBlockQuantized: /);
  });

  test('results larger than wasm memory', () => {
    expectError(gatherBlockQuantized, [{ data: new Uint8Array(65536), shape: [1, 65536] }, { data: new Int32Array(65536), shape: [65536] }, qs([1, 4096]), { bits: 8, blockSize: 16 }],
      RangeError, /^gatherBlockQuantized: the output \[65536, 65536\] with the inputs needs \d+ bytes, more than wasm memory can hold/);
    expectError(gatherBlockQuantized, [{ data: new Uint8Array(0), shape: [0, 2 ** 30] }, i32([0, 1], [2]), { data: new Uint16Array(0), shape: [0, 2 ** 26] }, { quantType: 'int4', blockSize: 16, outOfRange: 'clamp' }],
      RangeError, /^gatherBlockQuantized: the output \[2, 1073741824\] with the inputs needs/);
  });
});

// Hostile or malformed arguments (the bad-input table, tests/lib/bad-inputs.mjs).
badInputSuite('gatherBlockQuantized');
