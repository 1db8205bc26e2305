// The seeded random cases of gatherBlockQuantized and their check against the reference
// (common/reference-quantized.mjs), bit for bit, for tests/ops/gather-block-quantized.test.mjs:
// the case makers (opCase, largeCase and the large-table list), runCase (the library's call, with
// resident inputs and opts.out by case number, checked against the reference), and small helpers.
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
//
// Node only (WG_QUANTIZED_STACKS=1: allOf reports stacks); the portable cases shared with the
// runtimes and onnxruntime-web are tests/lib/quantized-cases.mjs.
import assert from 'node:assert/strict';
import { bytesOf, sameBytes } from '../../common/bytes.mjs';
import { rawIndex } from '../../common/reference.mjs';
import { refGatherBlockQuantized } from '../../common/reference-quantized.mjs';
import { numel } from '../../common/shape.mjs';
import { randomBytes, randomScales, reference } from './quantized-cases.mjs';
import { INDEX_LIMITS } from './random-cases.mjs';
import { Rng, hashString } from './rng.mjs';
import api from './tested-api.mjs'; // js/index.mjs, or WG_TEST_API

export const OP = 'gatherBlockQuantized';
export const gbq = (...args) => api.gatherBlockQuantized(...args);

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

export function indexArray(vals, itype) {
  if (itype === 'Array') return vals.map(Number);
  if (itype === 'BigInt64Array' || itype === 'BigUint64Array') return globalThis[itype].from(vals);
  return globalThis[itype].from(vals.map(Number));
}

/**
 * Indices of `shape` into a dimension of size s: for 'zero' and 'clamp' a share `rate` out of range
 * (default random), for 'error' (unless `rate` is 0) one out of range three times in ten.
 */
export function makeIndices(R, shape, s, itype, mode, rate) {
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
export function makeTable(R, { quantType, bits, shape, blockSize, quantizeAxis, scaleType, withZp }) {
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
export const LARGE = [
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
export const LARGE_RANDOM = 16;
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

export function largeCase(k) {
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

export function firstDifference(got, want) {
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

export const stats = { cases: 0, errors: 0, resident: 0 };

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

export const runOpCase = (n, cfg) => runCase(opCase(n), refResult(() => opCase(n), n), cfg);
export const runLargeCase = (k, cfg) => runCase(largeCase(k), refResult(() => largeCase(k), 10000 + k), cfg);

/** Runs fn and returns how much the wasm heap in use grew. */
export function heapGrowth(fn) {
  const before = api.heapStats().heapInUse;
  fn();
  return api.heapStats().heapInUse - before;
}

/** Collects the failures of calling check(i) for i < count into one assertion. */
export function allOf(count, check) {
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
export const idx = (...v) => ({ data: Int32Array.from(v), shape: [v.length] });
export function table8() { // uint8 bits 8, [3, 32], block 16, float16 scales, zero points
  const R = new Rng(7);
  return makeTable(R, { quantType: 'uint8', bits: 8, shape: [3, 32], blockSize: 16, quantizeAxis: 1, scaleType: 'float16', withZp: true });
}
export const opts8 = (t, extra) => ({ bits: 8, blockSize: 16, zeroPoints: t.zeroPoints, ...extra });

export function expectSame(got, want, what) {
  assert.deepEqual(Array.from(got.shape), want.shape, `${what}: shape`);
  assert.equal(got.data.constructor, want.data.constructor, `${what}: type`);
  assert.ok(sameBytes(got.data, want.data), `${what}: ${firstDifference(got.data, want.data)}`);
}

// ---------------------------------------------------------------------------------------------
