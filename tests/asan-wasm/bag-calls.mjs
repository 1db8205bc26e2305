// Random hostile calls of the fused gather-reduce (embeddingBag, its gradient embeddingBagBackward,
// segmentReduce: js/ops/) for the
// sanitized wasm build, where AddressSanitizer watches every access the C side makes, as
// scatter-calls.mjs calls the scatters (tests/asan-wasm/fuzz.mjs runs both). Every form of the
// bags and segments (2-D indices, offsets with and without the last, segment ids with and without
// numSegments, lengths; none, two at once), segments that break a rule (decreasing, negative, past
// the end, huge, a numSegments past what wasm memory holds), index and segment arrays of every
// kind, shapes that fit and shapes that do not, float32, float64, float16 and bfloat16 tables,
// quantized ones (uint4, int4, and uint8 codes of 8 or 4 bits), refused types, every option value
// and some invalid ones, and the ways a result can be had: a new array, opts.out, a resident
// output, resident inputs; for the gradient, its rows' types and counts right or not, max indices
// in range or not, the weights' gradient, and adding into a resident output in place.
// Each call must return, or throw a RangeError or TypeError of the op's own (its message starts
// with the op's name); the caller's arrays stay as they were; a call that succeeded gives the same
// bits when made again another way (resident inputs and output, or plain ones), and those of
// common/reference-bag.mjs where the reference accepts it too (any NaN for a NaN); the wasm heap
// is back where it was. Each call has its own seed (seed, number), so `callOnce` replays one.
import { embeddingBagBackward as refBackward } from '../../common/reference-bag-backward.mjs';
import { bagsOf, embeddingBag as refBag, segmentReduce as refSegment } from '../../common/reference-bag.mjs';
import { f32ToBf16, f32ToF16 } from '../../common/reference-quantized.mjs';
import { Rng, hashString } from '../lib/rng.mjs';
import { firstDifference } from '../lib/scatter-cases.mjs';

const OPS = ['embeddingBag', 'embeddingBagBackward', 'segmentReduce'];
// The options that hold arrays of the caller's, which no call may change.
const ARRAY_OPTIONS = ['offsets', 'segmentIds', 'lengths', 'perSampleWeights', 'maxIndices', 'weight'];
const INDEX_TYPES = [Int32Array, Uint32Array, BigInt64Array, BigUint64Array, Int16Array, Uint8Array, Array];
const numel = (shape) => shape.reduce((a, b) => a * b, 1);
const bytesOf = (a) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
const dim = (rng) => (rng.chance(0.9) ? rng.int(0, 6) : rng.pick([0, 17, 64, 257, 300]));

/**
 * n values of dtype (at most 2^16: a larger shape gets too short an array), mostly small floats,
 * now and then a NaN, a signed zero, an infinity or any bits.
 */
function values(rng, dtype, n) {
  const xs = Array.from({ length: Math.min(n, 1 << 16) }, () => {
    const r = rng.next();
    if (r < 0.02) return NaN;
    if (r < 0.04) return rng.chance(0.5) ? -0 : 0;
    if (r < 0.05) return rng.chance(0.5) ? Infinity : -Infinity;
    return (rng.next() - 0.5) * 2 ** rng.int(-3, 5);
  });
  const T = { float32: Float32Array, float64: Float64Array, int32: Int32Array }[dtype];
  const data = T ? T.from(xs, (x) => (T === Int32Array ? x | 0 : x)) : Uint16Array.from(xs, dtype === 'float16' ? f32ToF16 : f32ToBf16);
  if (rng.chance(0.1)) { const b = bytesOf(data); for (let i = 0; i < b.length; i++) if (rng.chance(0.2)) b[i] = rng.int(0, 255); }
  return data;
}

/** An index array of `vals` (numbers) of any kind; some entries made hostile. */
function indexArray(rng, vals, hostile) {
  const Type = rng.pick(INDEX_TYPES);
  const v = vals.map((x) => (rng.chance(hostile) ? rng.pick([-1, 2 ** 31 - 1, -(2 ** 31), 2 ** 32 + x, 2 ** 53 + 1, x + 1, x - 1]) : x));
  if (Type === Array) {
    if (v.length && rng.chance(0.1)) v[rng.int(0, v.length - 1)] = rng.pick([1.5, NaN, '1', undefined]);
    return v;
  }
  if (Type === BigInt64Array || Type === BigUint64Array) {
    const a = new Type(v.length);
    for (let i = 0; i < v.length; i++) a[i] = (Type === BigInt64Array ? BigInt.asIntN : BigInt.asUintN)(64, BigInt(v[i]));
    return a;
  }
  return Type.from(v); // a narrow type wraps on the store
}

/** Bag lengths (some empty) adding up to n, and their starts (one more). */
function bagStarts(rng, bags, n) {
  const cuts = Array.from({ length: Math.max(bags - 1, 0) }, () => rng.int(0, n)).sort((a, b) => a - b);
  return [0, ...cuts, ...(bags ? [n] : [])];
}
const idsOf = (starts) => starts.slice(1).flatMap((e, b) => new Array(e - starts[b]).fill(b));

/** The op's arguments and what the reference is given: [args (opts last), ref args or null]. */
function randomArgs(rng, op) {
  const fit = rng.chance(0.85), hostile = fit ? 0.01 : 0.2;
  const bags = rng.chance(0.95) ? rng.int(0, 7) : rng.pick([17, 300]);
  if (op === 'embeddingBag') {
    const rows = dim(rng), inner = Array.from({ length: rng.int(0, 2) }, () => dim(rng));
    const dtype = rng.chance(0.03) ? 'int32' : rng.pick(['float32', 'float32', 'float64', 'float16', 'bfloat16']);
    const quantized = rng.chance(0.08);
    const form = rng.pick(['fixed', 'offsets', 'offsets', 'last', 'ids', ...(fit ? [] : ['none', 'both'])]);
    const fixedLen = rng.int(0, 5), n = form === 'fixed' ? bags * fixedLen : rng.int(0, 24);
    const ids = Array.from({ length: n }, () => (rows && rng.chance(0.95) ? rng.int(-rows, rows - 1) : rng.pick([rows, -rows - 1, 2 ** 31 - 1])));
    const indices = { data: indexArray(rng, ids, hostile), shape: form === 'fixed' ? [bags, fixedLen] : [n] };
    if (!fit && rng.chance(0.3)) indices.shape = rng.pick([[n, 1], [], [n + 1]]);
    const starts = bagStarts(rng, bags, n), opts = {};
    if (form === 'offsets' || form === 'both') opts.offsets = indexArray(rng, starts.slice(0, -1), hostile);
    if (form === 'last') opts.offsets = indexArray(rng, rng.chance(0.7) ? starts : starts.slice(0, -1), hostile), opts.includeLastOffset = true;
    if (form === 'ids' || form === 'both') opts.segmentIds = indexArray(rng, idsOf(starts), hostile);
    if (opts.segmentIds && rng.chance(0.6)) opts.numSegments = rng.chance(0.9) ? bags + rng.int(0, 2) : rng.pick([-1, 2 ** 30, 2 ** 31 - 1, 2 ** 31, 1.5]);
    opts.mode = rng.chance(0.97) ? rng.pick(['sum', 'mean', 'max', 'sqrtn', undefined]) : rng.pick(['avg', 3, null]);
    let weight;
    if (quantized) { // 4- or 8-bit codes in blocks of 16 to 64 along the rows (the fused sums' and the others'), shapes right or not
      const cols = rng.pick([16, 32, 48, 64, 128]), scaleType = rng.pick(['float32', 'float16']);
      const quantType = rng.pick(['uint4', 'int4', 'uint8']), bits = quantType === 'uint8' ? rng.pick([8, 4]) : 4;
      const stored = quantType === 'uint8' ? cols * bits / 8 : cols, blockSize = fit ? rng.pick([16, 32, 64]) : rng.pick([16, 32, 24]);
      const bytes = quantType === 'uint8' ? rows * stored : Math.ceil(rows * cols / 2);
      weight = { data: Uint8Array.from({ length: bytes }, () => rng.int(0, 255)), shape: [rows, stored] };
      const scaleShape = fit ? [rows, Math.ceil(cols / blockSize)] : [rows, rng.int(0, 4)];
      Object.assign(opts, { quantType, bits, blockSize,
        scales: { data: values(rng, scaleType, numel(scaleShape)), shape: scaleShape }, scaleType });
    } else {
      weight = { data: values(rng, dtype, rows * numel(inner)), shape: [rows, ...inner] };
      if (dtype === 'float16' || dtype === 'bfloat16') opts.dtype = dtype;
      else if (rng.chance(0.02)) opts.dtype = 'float16'; // of a float32 table: refused
    }
    const outType = quantized ? (opts.scaleType === 'float32' ? 'float32' : 'float16') : dtype;
    if (opts.mode !== 'max' ? rng.chance(0.35) : rng.chance(0.05)) {
      const wShape = fit ? indices.shape : [n + 1];
      opts.perSampleWeights = { data: values(rng, rng.chance(0.95) ? outType : 'float64', numel(wShape)), shape: wShape };
    }
    if (rng.chance(0.25)) opts.paddingIdx = rng.chance(0.9) && rows ? rng.int(-rows, rows - 1) : rng.pick([rows, -rows - 1, 1.5, 2 ** 31]);
    if (opts.mode === 'max' ? rng.chance(0.6) : rng.chance(0.03)) opts.returnIndices = true;
    if (rng.chance(0.3)) opts.outOfRange = rng.chance(0.95) ? rng.pick(['error', 'zero', 'clamp']) : 'drop';
    if (rng.chance(0.2)) opts.negativeIndices = rng.chance(0.95) ? rng.pick(['wrap', 'error']) : 'neg';
    for (const k of Object.keys(opts)) if (opts[k] === undefined) delete opts[k];
    return [[weight, indices, opts], quantized || typeof opts.mode !== 'string' && opts.mode !== undefined ? null : [weight, indices]];
  }
  if (op === 'embeddingBagBackward') return backwardArgs(rng, fit);
  // segmentReduce
  const rank = rng.chance(0.97) ? rng.int(1, 3) : rng.pick([0, 17]);
  const shape = rank > 16 ? Array(rank).fill(1) : Array.from({ length: rank }, () => dim(rng));
  const axis = rng.chance(0.95) ? (rank ? rng.int(-rank, rank - 1) : 0) : rng.pick([rank, -rank - 1, 0.5, '0']);
  const a = Number.isInteger(axis) ? (axis < 0 ? axis + rank : axis) : 0;
  const n = shape[a] ?? 0, starts = bagStarts(rng, bags || (n ? 1 : 0), n);
  const dtype = rng.chance(0.96) ? rng.pick(['float32', 'float64']) : rng.pick(['int32', 'float16']);
  const data = { data: values(rng, dtype, numel(shape)), shape };
  const opts = { axis, reduce: rng.chance(0.97) ? rng.pick(['sum', 'mean', 'max', 'min', 'prod']) : rng.pick(['sqrtn', undefined, 'avg']) };
  const form = rng.pick(['lengths', 'offsets', 'segmentIds', ...(fit ? [] : ['none', 'both'])]);
  if (form === 'lengths' || form === 'both') opts.lengths = indexArray(rng, starts.slice(1).map((e, b) => e - starts[b]), hostile);
  if (form === 'offsets') opts.offsets = indexArray(rng, starts, hostile);
  if (form === 'segmentIds' || form === 'both') opts.segmentIds = indexArray(rng, idsOf(starts), hostile);
  if (opts.segmentIds && rng.chance(0.5)) opts.numSegments = rng.chance(0.9) ? starts.length - 1 + rng.int(0, 2) : rng.pick([-1, 2 ** 30, 2 ** 31 - 1]);
  if (rng.chance(0.3)) opts.initial = rng.chance(0.95) ? rng.pick([0, 1.5, -2, Infinity, NaN]) : rng.pick(['1', 2n]);
  if (dtype === 'float16') opts.dtype = 'float16';
  if (rng.chance(0.05)) opts.axis = undefined;
  for (const k of Object.keys(opts)) if (opts[k] === undefined) delete opts[k];
  return [[data, opts], [data]];
}

// A plain-number copy of an index array option (for bagsOf and the references).
const numeric = (v) => (ArrayBuffer.isView(v) || Array.isArray(v) ? { data: Array.from(v, Number), shape: [v.length] } : v);

/** The gradient's arguments: the forward's indices and bags, its rows' gradient ([bags, ...row]) and its own options. */
function backwardArgs(rng, fit) {
  const [[weight, indices, f]] = randomArgs(rng, 'embeddingBag');
  const opts = {};
  for (const k of ['offsets', 'includeLastOffset', 'segmentIds', 'numSegments', 'mode', 'paddingIdx', 'outOfRange', 'negativeIndices']) {
    if (f[k] !== undefined) opts[k] = f[k];
  }
  const rows = weight.shape[0], inner = f.scales ? [rng.int(0, 3)] : weight.shape.slice(1);
  const dtype = rng.chance(0.97) ? rng.pick(['float32', 'float64']) : rng.pick(['int32', 'float16']);
  let bags;
  try {
    if (!(Math.abs(opts.numSegments ?? 0) < 1e5)) throw new RangeError('too many bags to list'); // (hostile counts)
    bags = bagsOf({ data: Array.from(indices.data, Number), shape: indices.shape }, { ...opts, offsets: numeric(opts.offsets), segmentIds: numeric(opts.segmentIds) }).length;
  } catch {
    bags = rng.int(0, 5);
  }
  if (!fit && rng.chance(0.3)) bags = Math.max(0, bags + rng.pick([-1, 1]));
  const gradOutput = { data: values(rng, dtype, bags * numel(inner)), shape: [bags, ...inner] };
  if (opts.segmentIds && opts.numSegments !== undefined && rng.chance(0.8)) opts.numSegments = bags;
  if (f.perSampleWeights) opts.perSampleWeights = { data: values(rng, rng.chance(0.95) ? dtype : 'float64', numel(f.perSampleWeights.shape)), shape: f.perSampleWeights.shape };
  opts.numWeights = fit || rng.chance(0.5) ? rows : rng.pick([0, rows + 1, -1, 2 ** 31, 1.5]);
  if (opts.mode === 'max' || rng.chance(0.02)) {
    const shape = fit ? gradOutput.shape : [bags + 1];
    opts.maxIndices = { data: Int32Array.from({ length: numel(shape) }, () => (rng.chance(fit ? 0.98 : 0.8) ? rng.int(-1, rows - 1) : rng.pick([rows, -2, 2 ** 31 - 1]))), shape };
  }
  if (opts.perSampleWeights && (opts.mode === 'sum' ? rng.chance(0.5) : rng.chance(0.05))) {
    opts.returnWeightsGrad = true;
    const shape = fit ? [rows, ...inner] : [rows + 1, ...inner];
    opts.weight = { data: values(rng, rng.chance(0.95) ? dtype : 'float32', numel(shape)), shape };
  }
  // (the reference refuses what the op does, but only after making a table of numWeights rows)
  const refused = (typeof opts.mode !== 'string' && opts.mode !== undefined) || !(opts.numWeights >= 0 && opts.numWeights < 1e5);
  return [[gradOutput, indices, opts], refused ? null : [gradOutput, indices]];
}

/**
 * The reference's result for the call (its index arrays as plain numbers), or null where it
 * refuses the call or would build more segments than the library could (huge ids or counts).
 */
function reference(op, refArgs, opts) {
  if (!refArgs || opts.numSegments > 1e5) return null;
  const o = { ...opts };
  for (const k of ['offsets', 'segmentIds', 'lengths']) {
    if (o[k] && (ArrayBuffer.isView(o[k]) || Array.isArray(o[k]))) o[k] = { data: Array.from(o[k], Number), shape: [o[k].length] };
    if (o[k]?.data?.some((v) => !(Math.abs(v) < 1e5))) return null;
  }
  if (op === 'segmentReduce' && Number.isInteger(o.axis) && o.axis < 0) o.axis += refArgs[0].shape.length;
  try {
    if (op === 'embeddingBagBackward') return refBackward(...refArgs, o);
    return op === 'embeddingBag' ? refBag(...refArgs, o) : refSegment(...refArgs, o);
  } catch {
    return null;
  }
}

function snapshot(args) {
  return args.map((x) => (x && ArrayBuffer.isView(x.data) ? bytesOf(x.data).slice() : null));
}
const sameBytes = (a, b) => a.length === b.length && a.every((v, i) => v === b[i]);

/**
 * One call (number k of seed): throws an Error saying what went wrong, or returns 'ok' or the
 * class of the error the library threw.
 */
export function callOnce(api, seed, k) {
  const rng = new Rng(hashString(`bag ${seed}:${k}`));
  const op = rng.pick(OPS);
  const [args, refArgs] = randomArgs(rng, op);
  const opts = args[args.length - 1];
  const how = rng.pick(['new', 'new', 'out', 'resident', 'residentInputs', ...(op === 'embeddingBagBackward' ? ['inPlace'] : [])]);
  const fail = (why) => new Error(`${why}\n  call bag ${seed}:${k}: ${op}(${args.slice(0, -1).map((x) => `${x.data?.constructor?.name}[${x.shape}]`).join(', ')}) ` +
    `opts ${JSON.stringify(opts, (_, v) => (typeof v === 'bigint' ? `${v}n` : ArrayBuffer.isView(v) ? `${v.constructor.name}(${Array.from(v).join(',')})` : v))} (${how})`);
  const heap = api.heapStats().heapInUse;
  const before = snapshot(args);
  const arrayOf = (o) => (ArrayBuffer.isView(opts[o]) ? opts[o] : ArrayBuffer.isView(opts[o]?.data) ? opts[o].data : null);
  const optBefore = ARRAY_OPTIONS.map((o) => (arrayOf(o) ? bytesOf(arrayOf(o)).slice() : null));
  const owned = [];
  const upload = (t) => {
    const r = api.upload(t, t === args[0] && /^u?int4$/.test(opts.quantType) ? { quantType: opts.quantType } : undefined); // uint8 codes: bytes as they are
    owned.push(r);
    return r;
  };
  const read = (res) => ({ data: res.data ?? res.read(), maxIndices: res.maxIndices, weightsGrad: res.weightsGrad });
  let outcome = 'ok';
  try {
    const callArgs = [...args.slice(0, -1)], callOpts = { ...opts };
    try {
      if (how === 'residentInputs') {
        callArgs[0] = upload(args[0]);
        if (op === 'embeddingBag' && ArrayBuffer.isView(args[1].data) && !(args[1].data instanceof Uint8Array) &&
          args[1].data.length === numel(args[1].shape) && rng.chance(0.7)) callArgs[1] = upload(args[1]);
      }
    } catch (e) {
      if (!(e instanceof RangeError || e instanceof TypeError) || !e.message.startsWith('upload:')) throw fail(`upload threw ${e}`);
      return 'upload refused';
    }
    let ref = reference(op, refArgs, opts);
    let start; // in place: what the resident output held before the call
    if (how === 'inPlace') { // the gradient added into a resident output of the right size, or not
      const rows = Number.isInteger(opts.numWeights) && opts.numWeights >= 0 && opts.numWeights < 1e5 ? opts.numWeights : 0;
      let shape = [rng.chance(0.9) ? rows : rows + 1, ...args[0].shape.slice(1)];
      if (numel(shape) > 1 << 16) shape = [0, ...shape.slice(1)]; // (values() makes at most 2^16)
      start = { data: values(rng, args[0].data.constructor === Float64Array ? 'float64' : 'float32', numel(shape)), shape };
      callOpts.out = upload(start);
      callOpts.inPlace = true;
      ref = ref && reference(op, refArgs, { ...opts, inPlace: true, out: start });
    }
    if (how === 'out') { // mostly the output's size
      const T = opts.scales ? opts.scales.data.constructor : args[0].data.constructor;
      callOpts.out = new T(ref && rng.chance(0.9) ? ref.data.length : rng.int(0, 60));
    }
    if (how === 'resident') callOpts.resident = true;
    let result;
    try {
      result = api[op](...callArgs, callOpts);
    } catch (e) {
      if (!((e instanceof RangeError || e instanceof TypeError) && e.message.startsWith(`${op}:`))) {
        throw fail(`threw ${e?.constructor?.name}: ${e?.message ?? e}`);
      }
      outcome = e.constructor.name;
    }
    if (!args.every((x, i) => before[i] === null || sameBytes(before[i], bytesOf(x.data)))) throw fail('the caller\'s arrays changed');
    if (!ARRAY_OPTIONS.every((o, i) => optBefore[i] === null || sameBytes(optBefore[i], bytesOf(arrayOf(o))))) {
      throw fail('the caller\'s option arrays changed');
    }
    if (how === 'inPlace' && outcome !== 'ok' && !sameBytes(bytesOf(callOpts.out.read()), bytesOf(start.data))) {
      throw fail('a refused call changed its resident output');
    }
    if (outcome === 'ok' && how === 'inPlace') { // against the reference alone (the call changed its output)
      const got = read(result);
      const dtype = got.data.constructor === Float64Array ? 'float64' : 'float32';
      if (ref && firstDifference(ref.data, got.data, dtype, 'sum') !== -1) throw fail('in place differs from the reference');
    } else if (outcome === 'ok') {
      if (result.dispose) owned.push(result);
      const got = read(result);
      // the same call again the other way: plain arrays into a new one, or resident in and out
      const again = how === 'new' ? api[op](upload(args[0]), ...args.slice(1, -1), { ...opts, resident: true }) : api[op](...args.slice(0, -1), opts);
      if (again.dispose) owned.push(again);
      const want = read(again);
      const dtype = opts.dtype ?? (opts.scales ? opts.scaleType : got.data.constructor === Float64Array ? 'float64' : 'float32');
      if (firstDifference(want.data, got.data, dtype, 'sum') !== -1) throw fail(`${how} and ${how === 'new' ? 'resident' : 'new'} differ`);
      if (got.maxIndices && !sameBytes(bytesOf(got.maxIndices.data), bytesOf(want.maxIndices.data))) throw fail('max indices differ');
      if (got.weightsGrad && firstDifference(want.weightsGrad.data, got.weightsGrad.data, dtype, 'sum') !== -1) throw fail('the weights\' gradients differ');
      if (ref) { // the reference, where it accepts the call
        const at = firstDifference(ref.data, got.data, dtype, 'sum');
        if (at !== -1) throw fail(`element ${at}: ${got.data[at]}, the reference ${ref.data[at]}`);
        if (got.maxIndices && !ref.maxIndices.data.every((v, i) => Number(v) === got.maxIndices.data[i])) throw fail('max indices differ from the reference');
        if (got.weightsGrad && firstDifference(ref.weightsGrad.data, got.weightsGrad.data, dtype, 'sum') !== -1) throw fail('the weights\' gradient differs from the reference');
      }
    }
  } finally {
    for (const r of owned) r.dispose();
  }
  const after = api.heapStats().heapInUse;
  if (after !== heap) throw fail(`the heap holds ${after} bytes after the call, ${heap} before`);
  return outcome;
}
