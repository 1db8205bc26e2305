// The seeded random cases of the library-vs-reference comparison, and the checks of one case.
// Portable ES module (no node: imports): tests/lib/random-suite.mjs runs it under node --test and
// tests/browsers/random.mjs runs the same cases in Chromium.
//
// Every case is generated from a fixed seed derived from (op, case number), so a failure names
// the seed and the case can be regenerated with genCase(op, n). The reference result of a case
// is computed once and shared by every configuration.
//
// Covers: all data types, index types (Int32/Uint32/BigInt64/plain Array, a few Int8/Uint8/
// Int16/Uint16/BigUint64), ranks (take: params 1..6, indices 0..4; gatherND: params 1..6,
// indices 1..5; gather: 0..6), batchDims > 0, negative axis/dim/batchDims, negative indices,
// zero-size dims, odd sizes, tiny and > 4 KB inner slices, large outputs, the three outOfRange
// modes (with huge 64-bit indices), opts.negativeIndices 'error' in about a quarter of the
// cases (any mode: its indices are non-negative but for the bad ones, which are negative or too
// large), opts.out, and inputs left unchanged. In 'error' mode the
// library must throw a RangeError whenever the reference does (also when the output is empty:
// every index is checked) and match it otherwise.

import { bytesOf, sameBytes } from '../../common/bytes.mjs';
import { refOps } from '../../common/reference.mjs';
import { numel } from '../../common/shape.mjs';
import { Rng, hashString } from './rng.mjs';

export const OPS = ['gather', 'gatherND', 'take'];

// A minimal assert (node:assert is not in browsers): each check throws an Error with the message.
const assert = {
  ok(cond, msg) { if (!cond) throw new Error(msg); },
  equal(a, b, msg) { if (a !== b) throw new Error(`${msg}: ${String(a)} !== ${String(b)}`); },
  deepEqual(a, b, msg) {
    const same = a.length === b.length && a.every((x, i) => x === b[i]);
    if (!same) throw new Error(`${msg}: [${Array.from(a, String)}] != [${Array.from(b, String)}]`);
  },
  fail(msg) { throw new Error(msg); },
};

const DATA_TYPES = [
  Float32Array, Float64Array, Int8Array, Int16Array, Int32Array, Uint8Array, Uint16Array,
  Uint32Array, Uint8ClampedArray, BigInt64Array, BigUint64Array,
];
// Index types cycle through this list (13 entries, coprime with the 11 data types, so the first
// 143 cases of each op cover every (data type, index type) pair).
const INDEX_CYCLE = [
  'Int32Array', 'Uint32Array', 'BigInt64Array', 'Array', 'Int32Array', 'BigInt64Array', 'Array',
  'Uint32Array', 'Int16Array', 'BigUint64Array', 'Int8Array', 'Uint8Array', 'Uint16Array',
];
/** Each index array type's range of values (also tests/ops/gather-block-quantized.test.mjs's). */
export const INDEX_LIMITS = {
  Int8Array: [-(2n ** 7n), 2n ** 7n - 1n],
  Uint8Array: [0n, 2n ** 8n - 1n],
  Int16Array: [-(2n ** 15n), 2n ** 15n - 1n],
  Uint16Array: [0n, 2n ** 16n - 1n],
  Int32Array: [-(2n ** 31n), 2n ** 31n - 1n],
  Uint32Array: [0n, 2n ** 32n - 1n],
  BigInt64Array: [-(2n ** 63n), 2n ** 63n - 1n],
  BigUint64Array: [0n, 2n ** 64n - 1n],
  Array: [-(2n ** 53n - 1n), 2n ** 53n - 1n],
};
// Out-of-range values that are dangerous if truncated / sign-confused (e.g. 2^32 + 1 -> 1,
// 2^32 - 1 -> -1, 2^64 - 1 -> -1), plus the type extremes.
const HUGE = [
  2n ** 31n - 1n, -(2n ** 31n), 2n ** 31n, 2n ** 32n - 1n, 2n ** 32n, 2n ** 32n + 1n,
  -(2n ** 32n) + 1n, 2n ** 40n, -(2n ** 40n), 2n ** 53n - 1n, -(2n ** 53n - 1n),
  2n ** 63n - 1n, -(2n ** 63n), 2n ** 64n - 1n, 2n ** 64n - 2n, 32767n, -32768n, 65535n, 127n, -128n, 255n,
];
const TAIL_DIMS = [15, 16, 17, 31, 33, 63, 65, 100];

const isTensor = (x) => x && typeof x === 'object' && Array.isArray(x.shape);
const caseSeed = (op, n) => hashString(`wasm-gather random ${op} #${n}`);

// ------------------------------------------------------------------------------- generators

function dimVal(R) {
  const u = R.next();
  if (u < 0.2) return 1;
  if (u < 0.8) return R.int(2, 5);
  if (u < 0.95) return R.int(6, 12);
  return R.int(13, 40);
}

function fillData(R, Type, n) {
  const a = new Type(n);
  if (Type === Float32Array || Type === Float64Array) {
    for (let i = 0; i < n; i++) {
      const u = R.next();
      if (u < 0.85) a[i] = R.int(-4000, 4000) / 4;
      else if (u < 0.89) a[i] = -0;
      else if (u < 0.92) a[i] = NaN;
      else if (u < 0.94) a[i] = R.chance(0.5) ? Infinity : -Infinity;
      else a[i] = R.int(-1e6, 1e6) * 2 ** R.int(-60, 60);
    }
  } else {
    // Integer types: random bytes (covers the full bit range, also for BigInt arrays).
    const b = new Uint8Array(a.buffer);
    for (let i = 0; i < b.length; i++) b[i] = R.int(0, 255);
  }
  return a;
}

function randomBytes(R, Type, n) {
  const a = new Type(n);
  const b = new Uint8Array(a.buffer);
  for (let i = 0; i < b.length; i++) b[i] = R.int(0, 255);
  return a;
}

/**
 * An index value (BigInt) for a dimension of size s, representable in itype. negative: the
 * case's opts.negativeIndices; under 'error' the valid values are [0, s) and every negative one
 * is out of range.
 */
function indexValue(R, s, itype, oor, negative) {
  const [lo, hi] = INDEX_LIMITS[itype];
  const S = BigInt(s);
  const signed = lo < 0n;
  if (negative === 'error') {
    if (!oor && s > 0) return BigInt(R.int(0, s - 1));
    const cands = [S, S + 1n, S + BigInt(R.int(2, 100)), -1n, -BigInt(R.int(1, Math.max(s, 1))), -S - 1n, lo, hi, ...HUGE];
    return R.pick(cands.filter((v) => v >= lo && v <= hi && (v < 0n || v >= S)));
  }
  if (!oor && s > 0) {
    let v = BigInt(R.int(0, s - 1));
    if (signed && R.chance(0.35)) v -= S; // negative index, counts from the end
    if (v >= lo && v <= hi) return v;
  }
  const cands = [S, S + 1n, S + BigInt(R.int(2, 100)), -S - 1n, -S - BigInt(R.int(2, 100)), lo, hi, ...HUGE];
  const ok = cands.filter((v) => v >= lo && v <= hi && (v < -S || v >= S));
  return R.pick(ok);
}

/** Index tensor of `shape`; sizeAt(i) is the dimension size the i-th value indexes. */
function makeIndices(R, shape, sizeAt, itype, mode, negative) {
  const n = numel(shape);
  let oorRate = 0;
  let injectOne = false;
  if (mode === 'error') injectOne = n > 0 && R.chance(0.3);
  else oorRate = R.pick([0, 0.05, 0.2, 0.5]);
  const vals = [];
  for (let i = 0; i < n; i++) vals.push(indexValue(R, sizeAt(i), itype, R.chance(oorRate), negative));
  if (injectOne) {
    const i = R.int(0, n - 1);
    vals[i] = indexValue(R, sizeAt(i), itype, true, negative);
  }
  let data;
  if (itype === 'Array') data = vals.map(Number);
  else if (itype === 'BigInt64Array') data = BigInt64Array.from(vals);
  else if (itype === 'BigUint64Array') data = BigUint64Array.from(vals);
  else data = globalThis[itype].from(vals.map(Number));
  return { data, shape };
}

/** Pick one entry from `choices` (array of closures that set a dim to 0) and apply it. */
function injectEmpty(R, choices) {
  if (choices.length) R.pick(choices)();
}

/**
 * One case in ten of take and gatherND gets a zero-size dim: a batch dim (in both shapes), a
 * dim of params, or one of the first indexDims dims of indices (not gatherND's tuple size).
 */
function maybeEmpty(R, pshape, ishape, b, indexDims) {
  if (!R.chance(0.1)) return;
  const ch = [];
  for (let d = 0; d < pshape.length; d++) {
    if (d < b) ch.push(() => { pshape[d] = 0; ishape[d] = 0; });
    else ch.push(() => { pshape[d] = 0; });
  }
  for (let d = b; d < indexDims; d++) ch.push(() => { ishape[d] = 0; });
  injectEmpty(R, ch);
}

/** The size of an inner slice of more than 4 KB, in elements of dtype. */
const wideInner = (R, dtype) => Math.ceil(4100 / dtype.BYTES_PER_ELEMENT) + R.int(0, 300);

// Dim sizes for a generator's attempt number `tries`: 1 to 3 once 30 attempts came out too large.
const dimsFor = (tries) => (tries < 30 ? dimVal : (r) => r.int(1, 3));

/** A shape of `rank` dims drawn by dv; the last one is sometimes a tail size (TAIL_DIMS). */
function randomShape(R, rank, dv) {
  const shape = Array.from({ length: rank }, () => dv(R));
  if (rank > 0 && R.chance(0.15)) shape[rank - 1] = R.pick(TAIL_DIMS);
  return shape;
}

function genTake(R, dtype, itype, mode, large, negative) {
  let P, Q, axis, b, pshape, ishape;
  if (large) {
    if (R.chance(0.5)) {
      const inner = wideInner(R, dtype);
      pshape = R.chance(0.5) ? [R.int(2, 8), inner] : [R.int(1, 3), R.int(2, 8), inner];
      axis = pshape.length - 2;
      b = 0;
      ishape = [R.int(1, 12)];
      if (axis === 1 && R.chance(0.5)) { b = 1; ishape = [pshape[0], R.int(1, 6)]; }
    } else {
      // many tiny slices (large output, big index count)
      pshape = [R.int(100, 1000), R.pick([1, 2, 3, 5])];
      axis = 0;
      b = 0;
      ishape = [R.int(8000, 20000)];
    }
    P = pshape.length;
    Q = ishape.length;
  } else {
    for (let tries = 0; ; tries++) {
      P = R.int(1, 6);
      Q = R.int(0, 4);
      axis = R.int(0, P - 1);
      b = Math.min(axis, Q) > 0 && R.chance(0.4) ? R.int(1, Math.min(axis, Q)) : 0;
      const dv = dimsFor(tries);
      pshape = randomShape(R, P, dv);
      ishape = pshape.slice(0, b).concat(Array.from({ length: Q - b }, () => dv(R)));
      const outN = (numel(pshape) / pshape[axis]) * numel(ishape.slice(b));
      if (numel(pshape) <= 6000 && outN <= 8000 && numel(ishape) <= 3000) break;
    }
    maybeEmpty(R, pshape, ishape, b, Q);
  }
  const params = { data: fillData(R, dtype, numel(pshape)), shape: pshape };
  const s = pshape[axis];
  const indices = makeIndices(R, ishape, () => s, itype, mode, negative);
  const opts = {};
  if (axis !== 0 || R.chance(0.5)) opts.axis = R.chance(0.4) ? axis - P : axis;
  if (b !== 0 || R.chance(0.5)) opts.batchDims = R.chance(0.3) ? b - Q : b;
  return { args: [params, indices], opts };
}

function genGatherND(R, dtype, itype, mode, large, negative) {
  let P, Q, b, K, pshape, ishape;
  if (large) {
    if (R.chance(0.5)) {
      const inner = wideInner(R, dtype);
      b = R.chance(0.4) ? 1 : 0;
      pshape = b ? [R.int(2, 3), R.int(2, 4), R.int(1, 3), inner] : [R.int(2, 4), R.int(1, 3), inner];
      K = R.int(1, pshape.length - 1 - b);
      ishape = pshape.slice(0, b).concat([R.int(1, 6), K]);
    } else {
      pshape = [R.int(20, 60), R.int(20, 60), R.pick([1, 3, 4])];
      b = 0;
      K = 2;
      ishape = [R.int(3000, 8000), K];
    }
    P = pshape.length;
    Q = ishape.length;
  } else {
    for (let tries = 0; ; tries++) {
      P = R.int(1, 6);
      b = R.chance(0.4) ? R.int(0, Math.min(P - 1, 4)) : 0;
      Q = R.int(b + 1, 5);
      K = R.int(0, P - b);
      if (K === 0 && R.chance(0.6)) K = R.int(0, P - b);
      const dv = dimsFor(tries);
      pshape = randomShape(R, P, dv);
      ishape = pshape.slice(0, b).concat(Array.from({ length: Q - 1 - b }, () => dv(R)), [K]);
      const outN = numel(ishape.slice(0, Q - 1)) * numel(pshape.slice(b + K));
      if (numel(pshape) <= 6000 && outN <= 8000 && numel(ishape) <= 3000) break;
    }
    maybeEmpty(R, pshape, ishape, b, Q - 1);
  }
  const params = { data: fillData(R, dtype, numel(pshape)), shape: pshape };
  const indices = makeIndices(R, ishape, (i) => pshape[b + (i % K)], itype, mode, negative);
  const opts = {};
  if (b !== 0 || R.chance(0.5)) opts.batchDims = b;
  return { args: [params, indices], opts };
}

function genGather(R, dtype, itype, mode, large, negative) {
  let r, d, ishape, xshape;
  if (large) {
    xshape = [R.int(2, 3), R.int(3, 7), R.int(700, 1500)];
    r = 3;
    d = R.int(0, 2);
    ishape = xshape.map((v, e) => (e === d ? R.int(1, 9) : v));
  } else {
    for (let tries = 0; ; tries++) {
      r = R.chance(0.04) ? 0 : R.int(1, 6);
      d = r === 0 ? 0 : R.int(0, r - 1);
      const dv = dimsFor(tries);
      xshape = randomShape(R, r, dv);
      ishape = xshape.map((v, e) => (e === d ? dv(R) : R.chance(0.6) ? v : R.int(1, v)));
      if (numel(xshape) <= 6000 && numel(ishape) <= 6000) break;
    }
    if (r > 0 && R.chance(0.1)) {
      const ch = [];
      for (let e = 0; e < r; e++) {
        if (e !== d) ch.push(() => { xshape[e] = 0; ishape[e] = 0; });
        else ch.push(() => { xshape[e] = 0; }); // every index is out of range
        ch.push(() => { ishape[e] = 0; });
      }
      injectEmpty(R, ch);
    }
  }
  const input = { data: fillData(R, dtype, numel(xshape)), shape: xshape };
  const s = r === 0 ? 1 : xshape[d];
  const index = makeIndices(R, ishape, () => s, itype, mode, negative);
  const dimsForAxis = Math.max(r, 1);
  const dimArg = R.chance(0.5) ? d - dimsForAxis : d;
  return { args: [input, dimArg, index], opts: {} };
}

const GEN = { take: genTake, gatherND: genGatherND, gather: genGather };

/** Generate case `n` of `op` (fully determined by its seed). */
export function genCase(op, n) {
  const seed = caseSeed(op, n);
  const R = new Rng(seed);
  const dtype = DATA_TYPES[n % DATA_TYPES.length];
  const large = n % 20 === 19;
  let itype = INDEX_CYCLE[Math.floor(n / DATA_TYPES.length) % INDEX_CYCLE.length];
  if (large && ['Int8Array', 'Uint8Array', 'Uint16Array', 'Int16Array'].includes(itype)) itype = 'Int32Array';
  const mode = R.pick(['error', 'error', 'zero', 'clamp']);
  // drawn from a generator of its own, so that the 'wrap' cases are those of before the option
  const negR = new Rng(seed ^ 0x6e656721);
  const negative = negR.chance(0.25) ? 'error' : 'wrap';
  const c = GEN[op](R, dtype, itype, mode, large, negative);
  if (mode !== 'error' || R.chance(0.3)) c.opts.outOfRange = mode;
  if (negative === 'error' || negR.chance(0.1)) c.opts.negativeIndices = negative;
  // opts.out: 0 none, 1 TypedArray, 2 {data, shape}
  // Some tensors are views at an offset into a larger buffer (odd byte offsets for 1-byte types).
  const views = [];
  for (const a of c.args) {
    if (isTensor(a) && ArrayBuffer.isView(a.data) && R.chance(0.15)) {
      const pad = R.int(1, 3);
      const big = randomBytes(R, a.data.constructor, a.data.length + pad + R.int(0, 3));
      big.set(a.data, pad);
      a.data = big.subarray(pad, pad + a.data.length);
      views.push(pad);
    }
  }
  const outKind = R.chance(0.25) ? R.int(1, 2) : 0;
  const outPad = outKind && R.chance(0.3) ? R.int(1, 3) : 0; // opts.out as a view at an offset
  return { op, n, seed, dtype, itype, mode, large, outKind, outPad, views, outSeed: R.int(0, 2 ** 31), ...c };
}

function describeCase(c) {
  const shapes = c.args.map((a) =>
    isTensor(a)
      ? `${a.data.constructor.name}[${a.shape}]${a.data.length <= 24 ? ' = ' + Array.from(a.data, String).join(',') : ''}`
      : String(a));
  const opts = JSON.stringify(c.opts);
  return `${c.op} case #${c.n} seed=${c.seed} args=(${shapes.join('; ')}) opts=${opts}` +
    (c.outKind ? ` out=${c.outKind === 1 ? 'TypedArray' : '{data,shape}'}` : '') +
    (c.outPad ? ` (view at element offset ${c.outPad})` : '') +
    (c.views.length ? ` (${c.views.length} input(s) are views at an offset)` : '');
}

// ------------------------------------------------------------------------------- reference cache

const refCache = new Map();
function refResult(c) {
  const key = `${c.op}#${c.n}`;
  let r = refCache.get(key);
  if (r) return r;
  const fresh = genCase(c.op, c.n); // own copy: the reference never sees the library's arrays
  const fn = refOps[c.op];
  try {
    const res = fn(...fresh.args, fresh.opts);
    r = { threw: false, shape: res.shape, data: res.data };
  } catch (e) {
    if (!(e instanceof RangeError)) throw e; // generator bug
    const res = fn(...fresh.args, { ...fresh.opts, outOfRange: 'zero' });
    r = { threw: true, error: e, shape: res.shape, data: res.data };
  }
  refCache.set(key, r);
  return r;
}

// ------------------------------------------------------------------------------- checks

function snapshot(t) {
  const data = ArrayBuffer.isView(t.data)
    ? new Uint8Array(t.data.buffer.slice(t.data.byteOffset, t.data.byteOffset + t.data.byteLength))
    : t.data.slice();
  return { ctor: t.data.constructor, data, shape: t.shape.slice(), dataRef: t.data, shapeRef: t.shape };
}

function checkUnchanged(snap, t, msg) {
  assert.ok(t.data === snap.dataRef, `${msg}: input data object replaced`);
  assert.ok(t.shape === snap.shapeRef, `${msg}: input shape object replaced`);
  assert.deepEqual(t.shape, snap.shape, `${msg}: input shape modified`);
  if (ArrayBuffer.isView(t.data)) {
    const now = new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength);
    assert.ok(sameBytes(now, snap.data), `${msg}: input data modified`);
  } else {
    assert.deepEqual(t.data, snap.data, `${msg}: input data (plain array) modified`);
  }
}

function checkResult(res, ref, c, outObj, msg) {
  assert.ok(res && typeof res === 'object', `${msg}: no result object`);
  assert.deepEqual(Array.from(res.shape), ref.shape, `${msg}: shape`);
  assert.ok(res.data?.constructor === c.dtype, `${msg}: output type ${res.data?.constructor?.name}`);
  assert.equal(res.data.length, numel(ref.shape), `${msg}: output length`);
  if (outObj) assert.ok(res.data === outObj, `${msg}: result.data is not opts.out`);
  const got = bytesOf(res.data);
  const want = bytesOf(ref.data);
  if (!sameBytes(got, want)) {
    const bpe = c.dtype.BYTES_PER_ELEMENT;
    let i = 0;
    while (got[i] === want[i]) i++;
    const e = Math.floor(i / bpe);
    let bad = 0;
    for (let k = 0; k < res.data.length; k++) {
      if (!sameBytes(got.subarray(k * bpe, (k + 1) * bpe), want.subarray(k * bpe, (k + 1) * bpe))) bad++;
    }
    assert.fail(`${msg}: data differs at element ${e} (got ${res.data[e]}, expected ${ref.data[e]}); ` +
      `${bad} of ${res.data.length} elements differ`);
  }
}

export const stats = { cases: 0, errorsChecked: 0, residentCases: 0 };

// Where the library supports resident tensors, every fourth case takes each of these paths:
// 1: data uploaded; 2: data and indices uploaded, result as a new resident tensor (opts.resident);
// 3: indices uploaded, output written into a resident opts.out. Tensors the library refuses to
// upload (invalid ones, which the case expects an error for) stay plain.
const RESIDENT_INDEX_TYPES = ['Int32Array', 'Uint32Array', 'BigInt64Array', 'BigUint64Array'];
function residentArgs(api, c, ref, opts) {
  const kind = api.upload ? c.n % 4 : 0;
  const args = [...c.args];
  const handles = [];
  const tensorAt = args.map((a, i) => (isTensor(a) ? i : -1)).filter((i) => i >= 0);
  const tryUpload = (i) => {
    try {
      handles.push(args[i] = api.upload(args[i]));
    } catch {
      // not a valid tensor: the plain one goes in, and the op reports the problem
    }
  };
  const dataAt = tensorAt[0], indexAt = tensorAt[tensorAt.length - 1];
  const indexOk = RESIDENT_INDEX_TYPES.includes(args[indexAt]?.data?.constructor?.name);
  if (kind === 1 || kind === 2) tryUpload(dataAt);
  if ((kind === 2 || kind === 3) && indexOk) tryUpload(indexAt);
  if (kind === 2) {
    delete opts.out;
    opts.resident = true;
  }
  if (kind === 3 && !ref.threw) {
    const n = numel(ref.shape);
    handles.push(opts.out = api.upload({ data: randomBytes(new Rng(c.outSeed), c.dtype, n), shape: ref.shape.slice() }));
  }
  if (handles.length) stats.residentCases++;
  return { args, dispose: (result) => { for (const h of [...handles, result]) h?.dispose(); } };
}

/** Runs case n of op through api and checks it; throws an Error saying what differs. */
export function runCase(api, op, n, cfgName) {
  const c = genCase(op, n);
  const ref = refResult(c);
  const msg = `[${cfgName}] ${describeCase(c)}`;
  const snaps = c.args.filter(isTensor).map(snapshot);
  let outObj = null;
  const opts = { ...c.opts };
  let outBacking = null;
  let outBackingCopy = null;
  if (c.outKind) {
    // garbage to overwrite; with outPad, a view into a larger buffer whose rest must stay intact
    const n = numel(ref.shape);
    outBacking = randomBytes(new Rng(c.outSeed), c.dtype, n + 2 * c.outPad);
    outBackingCopy = bytesOf(outBacking).slice();
    outObj = outBacking.subarray(c.outPad, c.outPad + n);
    opts.out = c.outKind === 1 ? outObj : { data: outObj, shape: ref.shape.slice() };
  }
  const resident = residentArgs(api, c, ref, opts);
  if (opts.out !== outObj && opts.out?.data !== outObj) outObj = null; // replaced by a resident output
  let res;
  let err = null;
  try {
    res = api[op](...resident.args, opts);
    if (res instanceof api.ResidentTensor) res = { data: res.read(), shape: res.shape, handle: res };
    else if (opts.out instanceof api.ResidentTensor) res = { data: opts.out.read(), shape: opts.out.shape };
  } catch (e) {
    err = e;
  } finally {
    resident.dispose(res?.handle);
  }
  c.args.filter(isTensor).forEach((t, i) => checkUnchanged(snaps[i], t, msg));
  if (c.outPad && !err) {
    const bpe = c.dtype.BYTES_PER_ELEMENT;
    const all = bytesOf(outBacking);
    const head = c.outPad * bpe;
    const tail = all.length - c.outPad * bpe;
    assert.ok(sameBytes(all.subarray(0, head), outBackingCopy.subarray(0, head)) &&
      sameBytes(all.subarray(tail), outBackingCopy.subarray(tail)),
      `${msg}: wrote outside the opts.out view`);
  }
  stats.cases++;
  if (ref.threw) {
    stats.errorsChecked++;
    if (err) {
      assert.ok(err instanceof RangeError,
        `${msg}: expected RangeError (${ref.error.message}), got ${err?.name}: ${err?.message}`);
      return;
    }
    assert.fail(`${msg}: expected RangeError (${ref.error.message}), but the call returned`);
  }
  if (err) {
    assert.fail(`${msg}: unexpected ${err?.name}: ${err?.message}\n${err?.stack ?? ''}`);
  }
  checkResult(res, ref, c, outObj, msg);
}
