// Random hostile calls of the masks' ops (nonZero, booleanMask, compress, maskedScatter: js/ops/)
// for the sanitized wasm build, where AddressSanitizer watches every access the C side makes
// (src/stage_mask.c: the v128 count and find of the true lanes run only in wasm), as
// scatter-calls.mjs calls the scatters (tests/asan-wasm/fuzz.mjs runs them all). Every array type
// for x and for the mask (float masks with -0 and NaNs among their values, integer masks with only
// the sign bit set), dense, sparse, all-false and all-true masks, now and then long ones (many
// chunks), shapes that fit the op and shapes that do not (0-d masks, masks one dim off, conditions
// longer than their axis, sources one short, of another type), ranks 0 to 4 and 17, zero-size
// dims, every option value and some invalid ones, and the ways a result can be had: a new array,
// opts.out larger than the output or too short or of another type, a resident opts.out, a
// resident output, resident inputs, in place on a resident x (maskedScatter). Each of the first
// three ops' calls is two runs in C (js/call.mjs, callCounted): one without an output that only
// counts, then the write into an output of that count.
// Each call must return, or throw a RangeError or TypeError of the op's own (its message starts
// with the op's name); the caller's arrays stay as they were (opts.out too on an error, and a
// resident x that a refused in-place call would update); where common/reference-mask.mjs accepts
// the call and nothing the library alone checks is broken, the call must succeed, with the
// reference's shape and bits (opts.out: its elements past the output untouched); the wasm heap is
// back where it was. Each call has its own seed (seed, number), so `callOnce` replays one.
import { refMaskOps } from '../../common/reference-mask.mjs';
import { Rng, hashString } from '../lib/rng.mjs';

const OPS = ['nonZero', 'booleanMask', 'compress', 'maskedScatter'];
const TYPES = [Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array,
  BigInt64Array, BigUint64Array, Float32Array, Float64Array];
const numel = (shape) => shape.reduce((a, b) => a * b, 1);
const bytesOf = (a) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
const dim = (rng) => (rng.chance(0.9) ? rng.int(0, 5) : rng.pick([0, 7, 16, 17, 33, 64, 300]));
const shapeOf = (rng, rank) => (rank > 16 ? Array(rank).fill(1) : Array.from({ length: rank }, () => dim(rng)));
const rankOf = (rng, lo, hi) => (rng.chance(0.97) ? rng.int(lo, hi) : 17);

/**
 * A tensor of Type and shape (at most 2^17 elements: a larger shape gets too short an array): each
 * element zero with probability `zeros` (a float's -0 now and then: the sign bit alone, which an
 * integer mask counts as true), else any bits, mostly sparse ones (NaNs, subnormals, infinities).
 */
function randomTensor(rng, Type, shape, zeros) {
  const n = Math.min(numel(shape), 1 << 17), w = Type.BYTES_PER_ELEMENT;
  const data = new Type(n), b = bytesOf(data);
  for (let i = 0; i < n; i++) {
    if (rng.next() < zeros) {
      if (rng.chance(0.2)) b[i * w + w - 1] = 0x80;
      continue;
    }
    for (let k = 0; k < w; k++) b[i * w + k] = rng.chance(0.6) ? 0 : rng.int(0, 255);
    if (rng.chance(0.1)) b[i * w + w - 1] |= 0x7f; // an exponent of all ones: infinities and NaNs
  }
  return { data, shape };
}

/** A mask's zeros: all, none, or a density (dense and sparse ones alike). */
const zerosOf = (rng) => rng.pick([0, 1, 0.5, 0.9, 0.1, rng.next()]);

/** x's shape: mostly small; now and then a long axis (tens of chunks). */
function xShape(rng, lo) {
  const r = rankOf(rng, lo, 4);
  const shape = shapeOf(rng, r);
  if (r && r <= 16 && rng.chance(0.05)) shape[rng.int(0, r - 1)] = rng.pick([4096, 40000, 70000]);
  return numel(shape) > 1 << 17 ? shape.map(() => 2) : shape;
}

/**
 * The op's arguments, mostly fitting its rules: [args (opts last), what is invalid for the library
 * alone (the reference does not check it), or ''].
 */
function randomArgs(rng, op) {
  const fit = rng.chance(0.85);
  const Type = rng.pick(TYPES), MaskType = rng.chance(0.3) ? Uint8Array : rng.pick(TYPES);
  const opts = {};
  let libOnly = '';
  if (op === 'nonZero') {
    const x = randomTensor(rng, Type, xShape(rng, 0), zerosOf(rng));
    if (rng.chance(0.8)) opts.layout = rng.chance(0.97) ? rng.pick(['onnx', 'torch']) : rng.pick(['numpy', 1]);
    if (rng.chance(0.8)) opts.indexType = rng.chance(0.97) ? rng.pick(['int32', 'int64']) : rng.pick(['uint32', 'int16']);
    if (Type === Uint16Array ? rng.chance(0.5) : rng.chance(0.02)) {
      opts.dtype = rng.chance(0.97) ? rng.pick(['float16', 'bfloat16']) : 'float32';
      if (Type !== Uint16Array || opts.dtype === 'float32') libOnly = 'opts.dtype';
    }
    return [[x, opts], libOnly];
  }
  const shape = xShape(rng, op === 'maskedScatter' ? 0 : 1), r = shape.length;
  const x = randomTensor(rng, Type, shape, 0.3);
  if (op === 'booleanMask') {
    const axis = rng.chance(0.05) ? rng.pick([r, -r - 1, 1.5, '0']) : r ? rng.int(-r, r - 1) : 0;
    const a = Number.isInteger(axis) ? (axis < 0 ? axis + r : axis) : 0;
    const k = rng.int(1, Math.max(r - a, 1));
    let M = shape.slice(a, a + k);
    if (!fit) M = rng.pick([[], [...M, 1], M.map((d, j) => (j === 0 ? d + 1 : d)), shapeOf(rng, rng.int(0, 3))]);
    const mask = randomTensor(rng, MaskType, M, zerosOf(rng));
    if (axis !== 0 || rng.chance(0.5)) opts.axis = axis;
    return [[x, mask, opts], ''];
  }
  if (op === 'compress') {
    const flatten = rng.chance(0.3);
    const axis = rng.chance(0.05) ? rng.pick([r, -r - 1, 1.5]) : r ? rng.int(-r, r - 1) : 0;
    const a = Number.isInteger(axis) ? (axis < 0 ? axis + r : axis) : 0;
    const along = flatten ? Math.min(numel(shape), 1 << 17) : shape[a] ?? 0;
    let C = [rng.chance(0.6) ? along : rng.int(0, along)];
    if (!fit) C = rng.pick([[along + 1], [], [along, 1], [0]]);
    if (!flatten) opts.axis = axis;
    else if (rng.chance(0.2)) opts.axis = rng.pick([undefined, null]);
    return [[x, randomTensor(rng, MaskType, C, zerosOf(rng)), opts], ''];
  }
  // maskedScatter: the mask of x's shape; source of x's type, the count or more (or one short)
  let M = shape;
  if (!fit) M = rng.pick([[...shape, 1], shape.slice(1), shape.map((d, j) => (j === 0 ? d + 1 : d)), []]);
  const mask = randomTensor(rng, MaskType, M, zerosOf(rng));
  const trues = mask.data.length === numel(M) ? countTrue(mask.data) : 0;
  const len = fit ? Math.max(trues + rng.pick([0, 0, 0, 1, 5, -1]), 0) : rng.int(0, 8);
  const source = randomTensor(rng, rng.chance(0.95) ? Type : rng.pick(TYPES), rng.chance(0.8) ? [len] : [1, len], 0.2);
  if (Type === Uint16Array ? rng.chance(0.5) : rng.chance(0.02)) {
    opts.dtype = rng.chance(0.97) ? rng.pick(['float16', 'bfloat16']) : 'int16';
    if (Type !== Uint16Array || opts.dtype === 'int16') libOnly = 'opts.dtype';
  }
  return [[x, mask, source, opts], libOnly];
}

/** The true elements of a mask array, as the reference counts them (a float's -0 is false). */
function countTrue(data) {
  const f = data instanceof Float32Array || data instanceof Float64Array;
  let n = 0;
  for (const v of data) n += f ? v !== 0 : v !== 0 && v !== 0n;
  return n;
}

/** The reference's result, or null where it refuses the call. */
function reference(op, args) {
  const opts = args[args.length - 1];
  try {
    if (op === 'nonZero') return refMaskOps.nonZero(args[0], { layout: opts.layout, indexType: opts.indexType, dtype: opts.dtype });
    if (op === 'booleanMask') return refMaskOps.booleanMask(args[0], args[1], { axis: opts.axis });
    if (op === 'compress') return refMaskOps.compress(args[0], args[1], { axis: opts.axis ?? undefined });
    return refMaskOps.maskedScatter(args[0], args[1], args[2]);
  } catch (e) {
    if (!(e instanceof RangeError || e instanceof TypeError)) throw e;
    return null;
  }
}

const sameBytes = (a, b) => a.length === b.length && a.every((v, i) => v === b[i]);
const PATTERN = 0x5a;

/**
 * One call (number k of seed): throws an Error saying what went wrong, or returns 'ok' or the
 * class of the error the library threw.
 */
export function callOnce(api, seed, k) {
  const rng = new Rng(hashString(`mask ${seed}:${k}`));
  const op = rng.pick(OPS);
  const [args, libOnlyArg] = randomArgs(rng, op);
  let libOnly = libOnlyArg || (args.slice(0, -1).some((x) => x.shape.length > 16) ? 'rank 17' : ''); // the library's most is 16
  const opts = args[args.length - 1], tensors = args.slice(0, -1);
  const how = rng.pick(['new', 'new', 'out', 'out', 'outResident', 'resident', 'residentInputs', ...(op === 'maskedScatter' ? ['inPlace', 'inPlace'] : [])]);
  const ref = reference(op, args);
  const fail = (why) => new Error(`${why}\n  call mask ${seed}:${k}: ${op}(${tensors.map((x) => `${x.data.constructor.name}[${x.shape}]`).join(', ')}) ` +
    `opts ${JSON.stringify(opts, (_, v) => (ArrayBuffer.isView(v) ? `${v.constructor.name}(${v.length})` : v?.constructor?.name === 'ResidentTensor' ? 'resident' : v))} (${how})`);
  const heap = api.heapStats().heapInUse;
  const before = tensors.map((x) => bytesOf(x.data).slice());
  const owned = [];
  const upload = (t) => {
    const res = api.upload(t);
    owned.push(res);
    return res;
  };
  // the output's array type: the coordinates' (nonZero), else x's
  const OutType = op === 'nonZero' ? (opts.indexType === 'int64' ? BigInt64Array : Int32Array) : args[0].data.constructor;
  const want = ref ? ref.data.length : 0;
  let outcome = 'ok', result, out = null, outBefore = null, start = null;
  try {
    const callArgs = [...tensors], callOpts = { ...opts };
    try {
      if (how === 'residentInputs') {
        for (let i = 0; i < callArgs.length; i++) {
          if (callArgs[i].data.length === numel(callArgs[i].shape) && rng.chance(0.7)) callArgs[i] = upload(callArgs[i]);
        }
      }
      if (how === 'inPlace') { // a resident x of the right size, updated in place
        if (args[0].data.length !== numel(args[0].shape)) return 'upload refused';
        start = bytesOf(args[0].data).slice();
        callArgs[0] = upload(args[0]);
        callOpts.inPlace = true;
      }
      if (how === 'out' || how === 'outResident') { // mostly at least the output's length, now and then too short or of another type
        const short = rng.chance(0.1) && want > 0, other = rng.chance(0.05);
        const length = short ? rng.int(0, want - 1) : want + (op === 'maskedScatter' ? 0 : rng.pick([0, 0, 1, 7]));
        const T = other ? (OutType === Float64Array ? Int8Array : Float64Array) : OutType;
        const array = new T(length);
        bytesOf(array).fill(PATTERN);
        if (!ref || short || other) libOnly ||= 'opts.out';
        if (how === 'out') out = array, outBefore = bytesOf(array).slice();
        // a resident one: of x's shape for maskedScatter (it must be), else 1-D
        const shape = op === 'maskedScatter' && !short && !other ? args[0].shape : [length];
        callOpts.out = how === 'out' ? array : upload({ data: array, shape });
      }
      if (how === 'resident') callOpts.resident = rng.chance(0.97) ? true : 'yes';
      if (callOpts.resident === 'yes') libOnly ||= 'opts.resident';
    } catch (e) {
      if (!(e instanceof RangeError || e instanceof TypeError) || !e.message.startsWith('upload:')) throw fail(`upload threw ${e}`);
      return 'upload refused';
    }
    try {
      result = api[op](...callArgs, callOpts);
    } catch (e) {
      if (!((e instanceof RangeError || e instanceof TypeError) && e.message.startsWith(`${op}:`))) {
        throw fail(`threw ${e?.constructor?.name}: ${e?.message ?? e}`);
      }
      outcome = e.constructor.name;
      if (ref && !libOnly) throw fail(`threw ${e.constructor.name} (${e.message}), the reference accepts the call`);
    }
    if (!tensors.every((x, i) => sameBytes(before[i], bytesOf(x.data)))) throw fail('the caller\'s arrays changed');
    if (outcome !== 'ok') {
      if (out && !sameBytes(outBefore, bytesOf(out))) throw fail('a refused call changed opts.out');
      if (how === 'inPlace' && !sameBytes(bytesOf(callArgs[0].read()), start)) throw fail('a refused call changed x in place');
      if (how === 'outResident' && !bytesOf(callOpts.out.read()).every((b) => b === PATTERN)) throw fail('a refused call changed a resident opts.out');
    } else {
      if (!ref) throw fail('returned where the reference refuses the call');
      if (result !== callArgs[0] && result.dispose && !owned.includes(result)) owned.push(result);
      if (!Array.isArray(result.shape) || result.shape.length !== ref.shape.length || result.shape.some((d, j) => d !== ref.shape[j])) {
        throw fail(`shape [${result.shape}], the reference's [${ref.shape}]`);
      }
      if (how === 'out' && result.data !== out) throw fail('the result is not opts.out');
      if (how === 'inPlace' && result !== callArgs[0]) throw fail('in place: the result is not the resident x');
      const data = ArrayBuffer.isView(result.data) ? result.data : result.data?.read ? result.data.read() : result.read();
      if (data.constructor !== ref.data.constructor) throw fail(`a ${data.constructor.name}, the reference's ${ref.data.constructor.name}`);
      if (data.length < want) throw fail(`${data.length} elements, fewer than the output's ${want}`);
      const got = bytesOf(data), w = data.BYTES_PER_ELEMENT, expect = bytesOf(ref.data);
      for (let i = 0; i < expect.length; i++) {
        if (got[i] !== expect[i]) throw fail(`byte ${i} (element ${Math.floor(i / w)}) is ${got[i]}, the reference's ${expect[i]}`);
      }
      for (let i = expect.length; (how === 'out' || how === 'outResident') && i < got.length; i++) {
        if (got[i] !== PATTERN) throw fail(`opts.out's byte ${i}, past the output's ${expect.length}, was written`);
      }
    }
  } finally {
    for (const res of owned) res.dispose();
  }
  const after = api.heapStats().heapInUse;
  if (after !== heap) throw fail(`the heap holds ${after} bytes after the call, ${heap} before`);
  return outcome;
}
