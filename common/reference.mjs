// Independent plain-JS reference implementations of the three gather ops, written from the
// public specifications:
//   torch.gather          https://pytorch.org/docs/stable/generated/torch.gather.html
//   tf.gather_nd          https://www.tensorflow.org/api_docs/python/tf/gather_nd
//   OpenVINO GatherND-8   https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/movement/gather-nd-8.html
//   tf.gather             https://www.tensorflow.org/api_docs/python/tf/gather
// Shares no code with js/. Deliberately simple: every output element is computed from its own
// multi-index, exactly as the spec formulas read. Correctness over speed.
//
//   refGather(input, dim, index, opts)     torch.gather
//   refGatherND(params, indices, opts)     tf.gather_nd, opts.batchDims (default 0)
//   refTake(params, indices, opts)         tf.gather, opts.axis (default 0), opts.batchDims (default 0)
//   refOps                                 the three by the library's op names
//
// Tensors are { data, shape }. Index values may be negative (counting from the end of their
// dimension: valid is -s <= i < s); they are compared as BigInt, so nothing is ever truncated.
// opts.outOfRange: 'error' (default, throws RangeError if ANY index in the index tensor is out
// of range, even when the output is empty), 'zero' (that element / slice is 0), 'clamp' (wrap
// once if negative, then clamp to [0, s-1]; if s == 0 the element / slice is 0).
// opts.negativeIndices: 'wrap' (default, as above) or 'error': a negative index is out of range
// (valid is 0 <= i < s), so opts.outOfRange decides: it throws, is 0, or clamps to 0.
// opts.out: optional TypedArray or {data, shape} to write into; it is returned as result.data.
import { numel, ravel, unravel } from './shape.mjs';

const MODES = new Set(['error', 'zero', 'clamp']);

/** `t` is {data, shape} with whole, non-negative dims; its length is not checked. */
export function checkShape(t, name) {
  if (!t || typeof t !== 'object' || !Array.isArray(t.shape) || t.data == null) {
    throw new TypeError(`${name} must be {data, shape}`);
  }
  for (const d of t.shape) {
    if (!Number.isInteger(d) || d < 0) throw new RangeError(`${name}.shape has a bad dim ${d}`);
  }
}

export function checkTensor(t, name) {
  checkShape(t, name);
  if (t.data.length !== numel(t.shape)) {
    throw new RangeError(`${name}.data has ${t.data.length} elements, shape [${t.shape}] needs ${numel(t.shape)}`);
  }
}

export function getMode(opts) {
  const mode = opts.outOfRange ?? 'error';
  if (!MODES.has(mode)) throw new TypeError(`bad outOfRange ${mode}`);
  return mode;
}

/** opts.negativeIndices: 'wrap' (default) or 'error'. */
export function getNegative(opts) {
  const negative = opts.negativeIndices ?? 'wrap';
  if (negative !== 'wrap' && negative !== 'error') throw new TypeError(`bad negativeIndices ${negative}`);
  return negative;
}

// Index value as an exact BigInt.
export function rawIndex(indexData, i) {
  const v = indexData[i];
  return typeof v === 'bigint' ? v : BigInt(v);
}

function inRange(raw, s, negative) {
  const S = BigInt(s);
  return raw >= (negative === 'error' ? 0n : -S) && raw < S;
}

// Resolve an index into a dimension of size s. Returns the position 0..s-1, or -1 meaning
// "this element / slice is zero". In 'error' mode an out-of-range index throws. negative:
// 'wrap' (default) or 'error' (a negative index is out of range; clamped, it goes to 0).
export function resolve(raw, s, mode, negative = 'wrap') {
  const S = BigInt(s);
  if (mode === 'clamp') {
    if (s === 0) return -1;
    let i = raw;
    if (i < 0n && negative === 'wrap') i += S;
    if (i < 0n) i = 0n;
    if (i > S - 1n) i = S - 1n;
    return Number(i);
  }
  if (!inRange(raw, s, negative)) {
    if (mode === 'zero') return -1;
    throw new RangeError(`index ${raw} is out of range for a dimension of size ${s}`);
  }
  return Number(raw < 0n ? raw + S : raw);
}

export function makeOutput(data, outShape, opts) {
  const n = numel(outShape);
  const out = opts.out;
  if (out == null) return new data.constructor(n);
  const buf = ArrayBuffer.isView(out) ? out : out.data;
  if (!buf || buf.constructor !== data.constructor || buf.length !== n) {
    throw new TypeError('opts.out has the wrong type or size');
  }
  return buf;
}

function zeroOf(data) {
  return typeof data[0] === 'bigint' || data instanceof BigInt64Array || data instanceof BigUint64Array
    ? 0n
    : 0;
}

// The checks gatherND and take open with: both tensors well formed, a known mode, params not a
// scalar. Returns the mode and the ranks P of params and Q of indices.
function checkParamsAndIndices(params, indices, opts) {
  checkTensor(params, 'params');
  checkTensor(indices, 'indices');
  const mode = getMode(opts);
  const negative = getNegative(opts);
  if (params.shape.length < 1) throw new RangeError('params rank must be >= 1');
  return { mode, negative, P: params.shape.length, Q: indices.shape.length };
}

// The first b dims of params and indices are batch dims: they must be equal.
function checkBatchDims(params, indices, b) {
  for (let j = 0; j < b; j++) {
    if (params.shape[j] !== indices.shape[j]) throw new RangeError('batch dims differ');
  }
}

// 'error' mode checks every index before anything is written, also when the output is empty.
// sizeAt(i) is the size of the dimension that index i points into.
export function checkEveryIndex(indexData, sizeAt, mode, negative = 'wrap') {
  if (mode !== 'error') return;
  for (let i = 0; i < indexData.length; i++) resolve(rawIndex(indexData, i), sizeAt(i), mode, negative);
}

// ---------------------------------------------------------------------------------------------
// torch.gather: out[p] = input[p with p[dim] := index[p]]; output shape = index.shape.
export function refGather(input, dim, index, opts = {}) {
  checkTensor(input, 'input');
  checkTensor(index, 'index');
  const mode = getMode(opts);
  const negative = getNegative(opts);
  const r = input.shape.length;
  if (index.shape.length !== r) throw new RangeError('input and index must have the same rank');
  const dimsForAxis = Math.max(r, 1); // rank 0 behaves like a single dim of size 1
  if (!Number.isInteger(dim) || dim < -dimsForAxis || dim >= dimsForAxis) {
    throw new RangeError(`dim ${dim} out of range for rank ${r}`);
  }
  const d = dim < 0 ? dim + dimsForAxis : dim;
  for (let e = 0; e < r; e++) {
    if (e !== d && index.shape[e] > input.shape[e]) {
      throw new RangeError(`index.shape[${e}] > input.shape[${e}]`);
    }
  }
  const s = r === 0 ? 1 : input.shape[d];
  const outShape = index.shape.slice();
  const n = numel(outShape);

  checkEveryIndex(index.data, () => s, mode, negative);

  const out = makeOutput(input.data, outShape, opts);
  const zero = zeroOf(input.data);
  for (let o = 0; o < n; o++) {
    const k = resolve(rawIndex(index.data, o), s, mode, negative);
    if (k < 0) {
      out[o] = zero;
      continue;
    }
    if (r === 0) {
      out[o] = input.data[0];
      continue;
    }
    const c = unravel(o, outShape);
    c[d] = k;
    out[o] = input.data[ravel(c, input.shape)];
  }
  return { data: out, shape: outShape };
}

// ---------------------------------------------------------------------------------------------
// tf.gather_nd with batch_dims b, K = indices.shape[-1]:
//   out[b..., i..., r...] = params[b..., indices[b..., i..., :], r...]
//   output shape = indices.shape[:-1] + params.shape[b+K:]
export function refGatherND(params, indices, opts = {}) {
  const { mode, negative, P, Q } = checkParamsAndIndices(params, indices, opts);
  if (Q < 1) throw new RangeError('indices rank must be >= 1');
  const b = opts.batchDims ?? 0;
  if (!Number.isInteger(b) || b < 0 || b > Q - 1 || b >= P) throw new RangeError(`bad batchDims ${b}`);
  const K = indices.shape[Q - 1];
  if (b + K > P) throw new RangeError('indices.shape[-1] too large');
  checkBatchDims(params, indices, b);
  const tupleShape = indices.shape.slice(0, Q - 1); // b batch dims + the "i..." dims
  const sliceShape = params.shape.slice(b + K);
  const outShape = tupleShape.concat(sliceShape);
  const nTuples = numel(tupleShape);
  const sliceSize = numel(sliceShape);

  checkEveryIndex(indices.data, (i) => params.shape[b + (i % K)], mode, negative);

  const out = makeOutput(params.data, outShape, opts);
  const zero = zeroOf(params.data);
  for (let t = 0; t < nTuples; t++) {
    const tc = unravel(t, tupleShape);
    const pc = tc.slice(0, b); // batch coordinates
    let zeroSlice = false;
    for (let j = 0; j < K; j++) {
      const k = resolve(rawIndex(indices.data, t * K + j), params.shape[b + j], mode, negative);
      if (k < 0) zeroSlice = true;
      pc.push(k);
    }
    for (let e = 0; e < sliceSize; e++) {
      const o = t * sliceSize + e;
      if (zeroSlice) {
        out[o] = zero;
        continue;
      }
      const full = pc.concat(unravel(e, sliceShape));
      out[o] = params.data[ravel(full, params.shape)];
    }
  }
  return { data: out, shape: outShape };
}

// ---------------------------------------------------------------------------------------------
// tf.gather(params, indices, axis, batch_dims):
//   out[b..., o..., i..., r...] = params[b..., o..., indices[b..., i...], r...]
//   output shape = params.shape[:axis] + indices.shape[batch_dims:] + params.shape[axis+1:]
export function refTake(params, indices, opts = {}) {
  const { mode, negative, P, Q } = checkParamsAndIndices(params, indices, opts);
  let axis = opts.axis ?? 0;
  let b = opts.batchDims ?? 0;
  if (!Number.isInteger(axis) || axis < -P || axis >= P) throw new RangeError(`bad axis ${axis}`);
  if (axis < 0) axis += P;
  if (!Number.isInteger(b) || b < -Q || b > Q) throw new RangeError(`bad batchDims ${b}`);
  if (b < 0) b += Q;
  if (b > axis) throw new RangeError('batchDims must be <= axis');
  checkBatchDims(params, indices, b);
  const s = params.shape[axis];
  const idxTail = indices.shape.slice(b);
  const outShape = params.shape.slice(0, axis).concat(idxTail, params.shape.slice(axis + 1));
  const n = numel(outShape);

  checkEveryIndex(indices.data, () => s, mode, negative);

  const out = makeOutput(params.data, outShape, opts);
  const zero = zeroOf(params.data);
  for (let o = 0; o < n; o++) {
    const c = unravel(o, outShape);
    const outer = c.slice(0, axis); // b... then o...
    const ii = c.slice(axis, axis + idxTail.length);
    const inner = c.slice(axis + idxTail.length);
    const idxCoords = outer.slice(0, b).concat(ii);
    const k = resolve(rawIndex(indices.data, ravel(idxCoords, indices.shape)), s, mode, negative);
    if (k < 0) {
      out[o] = zero;
      continue;
    }
    out[o] = params.data[ravel(outer.concat([k], inner), params.shape)];
  }
  return { data: out, shape: outShape };
}

/** The three references by the library's op names: refOps[op](...args, opts). */
export const refOps = { gather: refGather, gatherND: refGatherND, take: refTake };
