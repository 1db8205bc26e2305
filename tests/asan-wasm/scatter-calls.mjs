// Random hostile calls of the library's four scatters (scatter, scatterND, indexReduce,
// tensorScatter: js/ops/), for the sanitized wasm build, where AddressSanitizer watches every
// access the C side makes (tests/asan-wasm/fuzz.mjs runs them after the C harness). Shapes that
// fit the op and shapes that do not, every array type and opts.dtype, index arrays of every kind
// with values in range, at the edges, negative and huge, every option value and some invalid
// ones, and the ways a result can be had: a new array, opts.out, a resident output, in place on
// a resident tensor (opts.inPlace), with resident indices and updates.
// Each call must return, or throw a RangeError or TypeError of the op's own (its message starts
// with the op's name); the caller's arrays, and on an error a resident tensor it would update,
// stay as they were; a call that succeeded gives the same bits when made again another way (in
// place on an uploaded copy, or into a new array); the wasm heap is back where it was.
// Each call has its own seed (seed, number), so `callOnce` replays one.
import { Rng, hashString } from '../lib/rng.mjs';

const OPS = ['scatter', 'scatterND', 'indexReduce', 'tensorScatter'];
const TYPES = [Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array,
  BigInt64Array, BigUint64Array, Float32Array, Float64Array];
const INDEX_TYPES = [Int32Array, Uint32Array, BigInt64Array, BigUint64Array, Int16Array, Uint8Array];
const REDUCES = ['none', 'add', 'sum', 'mul', 'prod', 'max', 'amax', 'min', 'amin', 'mean'];

const sometimes = (rng, p, bad, good) => (rng.chance(p) ? bad() : good());
const dim = (rng) => (rng.chance(0.9) ? rng.int(0, 5) : rng.pick([0, 7, 17, 64, 300]));
const shapeOf = (rng, rank) => Array.from({ length: rank }, () => dim(rng));
const numel = (shape) => shape.reduce((a, b) => a * b, 1);
const bytesOf = (a) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/** A tensor of Type and shape with any bits (NaNs, infinities and -0 included). */
function randomTensor(rng, Type, shape) {
  const data = new Type(Math.min(numel(shape), 1 << 16));
  const b = bytesOf(data);
  for (let i = 0; i < b.length; i++) b[i] = rng.chance(0.7) ? rng.int(0, 3) * 0x40 : rng.int(0, 255);
  return { data, shape };
}

/** An index value for a dimension of size s: in range (of either sign unless `positive`), an edge, or huge. */
function indexValue(rng, s, big, positive) {
  if (rng.chance(0.85)) return s ? rng.int(positive ? 0 : -s, s - 1) : 0;
  const v = rng.pick([s, -s - 1, s + 1, -1, 2 ** 31 - 1, -(2 ** 31), 2 ** 32 - 1, 2 ** 32 + 1, 2 ** 53 + 1, -(2 ** 53)]);
  return big && rng.chance(0.3) ? rng.pick([2n ** 63n - 1n, -(2n ** 63n), 2n ** 64n - 1n, 2n ** 32n + BigInt(s)]) : v;
}

/** Indices of shape with values for the dims sizes[p % sizes.length]; some arrays plain, some invalid. */
function randomIndices(rng, shape, sizes, positive = false) {
  const Type = rng.chance(0.1) ? Array : rng.pick(INDEX_TYPES);
  const big = Type === BigInt64Array || Type === BigUint64Array;
  const n = Math.min(numel(shape), 1 << 14);
  const values = Array.from({ length: n }, (_, p) => indexValue(rng, sizes[p % sizes.length] ?? 0, big, positive));
  let data;
  if (Type === Array) {
    data = values.map((v) => (typeof v === 'bigint' ? Number(v) : v));
    if (n && rng.chance(0.1)) data[rng.int(0, n - 1)] = rng.pick([1.5, NaN, '1', undefined]);
  } else {
    data = new Type(n);
    // values out of a narrow type's range wrap on the store (BigInt.asIntN for the 64-bit arrays)
    for (let p = 0; p < n; p++) data[p] = big ? BigInt.asUintN(64, BigInt(values[p])) : Number(values[p]);
    if (Type === BigInt64Array) for (let p = 0; p < n; p++) data[p] = BigInt.asIntN(64, BigInt(values[p]));
  }
  return { data, shape };
}

/** The op's arguments, mostly fitting its rules: [args (opts last), the data tensor]. */
function randomArgs(rng, op, Type) {
  const fit = rng.chance(0.85);
  const rankOf = (lo, hi) => (rng.chance(0.97) ? rng.int(lo, hi) : 17);
  const r = op === 'tensorScatter' ? rankOf(2, 4) : rankOf(op === 'scatter' ? 0 : 1, 3);
  const P = r > 16 ? Array(r).fill(1) : shapeOf(rng, r);
  const data = randomTensor(rng, Type, P);
  const anyShape = () => shapeOf(rng, rng.int(0, 3));
  const axis = sometimes(rng, 0.05, () => rng.pick([r, -r - 1, 0.5, 2 ** 31, '1']), () => (r ? rng.int(-r, r - 1) : 0));
  const a = typeof axis === 'number' && Number.isInteger(axis) ? (axis < 0 ? axis + Math.max(r, 1) : axis) : 0;
  if (op === 'scatter') {
    const I = P.map((p, d) => (d === a ? dim(rng) : rng.int(0, p)));
    const index = randomIndices(rng, fit ? I : anyShape(), [r ? P[a] : 1]);
    const src = rng.chance(0.15) && I.length ? rng.pick([2.5, -1, 7n, NaN, 65504]) // the value form
      : randomTensor(rng, Type, fit ? I.map((d) => d + (rng.chance(0.2) ? 1 : 0)) : anyShape());
    return [[data, axis, index, src, {}], data];
  }
  if (op === 'scatterND') {
    const K = rng.int(0, r);
    const lead = shapeOf(rng, rng.int(0, 2));
    const indices = randomIndices(rng, fit ? [...lead, K] : anyShape(), P.slice(0, K));
    return [[data, indices, randomTensor(rng, Type, fit ? [...lead, ...P.slice(K)] : anyShape()), {}], data];
  }
  if (op === 'indexReduce') {
    const I = shapeOf(rng, rng.int(0, 2));
    const index = randomIndices(rng, I, [P[a] ?? 0]);
    const S = [...P.slice(0, a), ...I, ...P.slice(a + 1)];
    return [[data, axis, index, randomTensor(rng, Type, fit ? S : anyShape()), {}], data];
  }
  // tensorScatter: along an axis in [1, r - 1], the update at most as long as the cache
  const circular = rng.chance(0.4);
  const ax = rng.chance(0.95) && r > 1 ? rng.int(1, r - 1) : 0;
  const U = [...P];
  if (r > 1) U[ax] = rng.int(0, P[ax] + (fit ? 0 : 1));
  const L = P[ax] ?? 0, room = Math.max(L - (U[ax] ?? 0), 0);
  const write = rng.chance(0.2) ? null : randomIndices(rng, fit ? [P[0] ?? 0] : anyShape(), [circular ? 1000 : room + 1], true);
  const opts = { mode: sometimes(rng, 0.03, () => 'ring', () => (circular ? 'circular' : rng.pick(['linear', undefined]))) };
  if (rng.chance(0.8)) opts.axis = rng.chance(0.5) ? ax : ax - r;
  return [[data, randomTensor(rng, Type, fit ? U : anyShape()), write, opts], data];
}

/** The options of the call: mostly valid, sometimes not. */
function addOptions(rng, op, opts, data) {
  if (op !== 'tensorScatter') {
    opts.reduce = sometimes(rng, 0.03, () => rng.pick(['avg', 3, null]), () => rng.pick([...REDUCES, undefined]));
    opts.includeSelf = sometimes(rng, 0.02, () => 'no', () => rng.pick([true, false, undefined]));
    opts.outOfRange = sometimes(rng, 0.02, () => 'zero', () => rng.pick(['error', 'drop', 'clamp', undefined]));
    opts.negativeIndices = sometimes(rng, 0.02, () => 'neg', () => rng.pick(['wrap', 'error', undefined]));
  }
  if (data.data instanceof Uint16Array ? rng.chance(0.6) : rng.chance(0.02)) opts.dtype = rng.pick(['float16', 'bfloat16']);
  if (rng.chance(0.01)) opts.reduction = 'add'; // a misspelt option
  for (const k of Object.keys(opts)) if (opts[k] === undefined) delete opts[k];
  return opts;
}

/** What the call's tensors hold now: the caller's arrays, copied. */
function snapshot(args) {
  return args.map((x) => (x && ArrayBuffer.isView(x.data) ? bytesOf(x.data).slice()
    : x && Array.isArray(x.data) ? [...x.data] : null));
}

function sameBytes(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function unchanged(args, before) {
  return args.every((x, k) => before[k] === null
    || (Array.isArray(before[k]) ? before[k].every((v, i) => Object.is(v, x.data[i])) : sameBytes(before[k], bytesOf(x.data))));
}

/** A line about the call, for a failure's message. */
function describe(op, args) {
  const part = (x) => (x && typeof x === 'object' && 'data' in x
    ? `${x.data?.constructor?.name ?? typeof x.data}[${x.shape}]`
    : typeof x === 'bigint' ? `${x}n` : JSON.stringify(x));
  return `${op}(${args.map(part).join(', ')})`;
}

const resultBytes = (res) => bytesOf(res.data ?? res.read());

// NaN tests by element type, on an element's bits (the float16 and bfloat16 bits of opts.dtype).
const NAN = {
  Float32Array: (b, i) => (new DataView(b.buffer, b.byteOffset).getUint32(i * 4, true) & 0x7fffffff) > 0x7f800000,
  Float64Array: (b, i) => Number.isNaN(new DataView(b.buffer, b.byteOffset).getFloat64(i * 8, true)),
  float16: (b, i) => (new DataView(b.buffer, b.byteOffset).getUint16(i * 2, true) & 0x7fff) > 0x7c00,
  bfloat16: (b, i) => (new DataView(b.buffer, b.byteOffset).getUint16(i * 2, true) & 0x7fff) > 0x7f80,
};

/**
 * The same result: bit for bit, except that a NaN an add, mul or mean made may have any sign and
 * payload (wasm leaves them to the engine, whose two tiers may order a commutative op's operands
 * differently: https://webassembly.github.io/spec/core/exec/numerics.html#nan-propagation).
 */
function sameResult(a, b, Type, opts) {
  if (sameBytes(a, b)) return true;
  const isNaN = NAN[opts.dtype ?? Type.name];
  const arithmetic = ['add', 'sum', 'mul', 'prod', 'mean'].includes(opts.reduce);
  if (!isNaN || !arithmetic || a.length !== b.length) return false;
  const w = opts.dtype ? 2 : Type.BYTES_PER_ELEMENT;
  for (let i = 0; i < a.length / w; i++) {
    if (!sameBytes(a.subarray(i * w, i * w + w), b.subarray(i * w, i * w + w)) && !(isNaN(a, i) && isNaN(b, i))) return false;
  }
  return true;
}

/**
 * One call (number k of seed): throws an Error saying what went wrong, or returns 'ok' or the
 * class of the error the library threw.
 */
export function callOnce(api, seed, k) {
  const rng = new Rng(hashString(`${seed}:${k}`));
  const op = rng.pick(OPS);
  const Type = rng.pick(TYPES);
  const [args, data] = randomArgs(rng, op, Type);
  const opts = addOptions(rng, op, args[args.length - 1], data);
  const how = rng.pick(['new', 'new', 'out', 'resident', 'inPlace', 'residentInputs']);
  const fail = (why) => new Error(`${why}\n  call ${seed}:${k}: ${describe(op, args)} opts ${JSON.stringify(opts, (_, v) => (typeof v === 'bigint' ? `${v}n` : v))} (${how})`);
  const heap = api.heapStats().heapInUse;
  const before = snapshot(args);
  const owned = []; // resident tensors this call made
  const upload = (t) => {
    const r = api.upload(t);
    owned.push(r);
    return r;
  };
  let result, outcome = 'ok';
  const callArgs = [...args];
  try {
    try {
      if (how === 'inPlace' || how === 'residentInputs') {
        callArgs[0] = upload(data);
        if (how === 'inPlace') opts.inPlace = true;
      }
      if (how === 'residentInputs') {
        for (let i = 1; i < args.length - 1; i++) {
          const x = args[i];
          if (x && ArrayBuffer.isView(x.data) && x.data.length === numel(x.shape) && rng.chance(0.5)) callArgs[i] = upload(x);
        }
      }
      if (how === 'out') opts.out = new (rng.chance(0.9) ? Type : Float32Array)(rng.chance(0.9) ? numel(data.shape) : 1);
      if (how === 'resident') opts.resident = true;
    } catch (e) {
      if (!(e instanceof RangeError || e instanceof TypeError) || !e.message.startsWith('upload:')) throw fail(`upload threw ${e}`);
      return 'upload refused';
    }
    try {
      result = api[op](...callArgs);
    } catch (e) {
      if (!((e instanceof RangeError || e instanceof TypeError) && e.message.startsWith(`${op}:`))) {
        throw fail(`threw ${e?.constructor?.name}: ${e?.message ?? e}`);
      }
      outcome = e.constructor.name;
      if (how === 'inPlace' && !sameBytes(bytesOf(callArgs[0].read()), before[0])) throw fail('a call that failed changed the tensor in place');
    }
    if (!unchanged(args, before)) throw fail('the caller\'s arrays changed');
    if (outcome === 'ok') {
      const got = resultBytes(result);
      if (result !== callArgs[0] && result.dispose) owned.push(result);
      // the same call again another way: a new array from the caller's arrays, or in place
      const again = { ...opts };
      delete again.out;
      delete again.resident;
      delete again.inPlace;
      const second = [...args.slice(0, -1), again];
      if (how !== 'inPlace') {
        second[0] = upload(data);
        again.inPlace = true;
      }
      const want = resultBytes(api[op](...second));
      if (!sameResult(got, want, Type, opts)) throw fail(`${how === 'inPlace' ? 'in place' : how} and ${how === 'inPlace' ? 'a new array' : 'in place'} differ`);
    }
  } finally {
    for (const r of owned) r.dispose();
  }
  const after = api.heapStats().heapInUse;
  if (after !== heap) throw fail(`the heap holds ${after} bytes after the call, ${heap} before`);
  return outcome;
}
