// Independent plain-JS reference of the data-dependent mask ops, written from the public docs:
//   ONNX NonZero-13          https://onnx.ai/onnx/operators/onnx__NonZero.html
//   torch.nonzero            https://pytorch.org/docs/1.13/generated/torch.nonzero.html
//   tf.where (one argument)  https://www.tensorflow.org/api_docs/python/tf/where
//   tf.boolean_mask          https://www.tensorflow.org/api_docs/python/tf/boolean_mask
//   torch.masked_select      https://pytorch.org/docs/1.13/generated/torch.masked_select.html
//   ONNX Compress-11         https://onnx.ai/onnx/operators/onnx__Compress.html
//   numpy.compress           https://numpy.org/doc/stable/reference/generated/numpy.compress.html
//   Tensor.masked_scatter_   https://pytorch.org/docs/1.13/generated/torch.Tensor.masked_scatter_.html
// Shares no code with js/. Deliberately simple: one pass over the mask in row-major order, and
// every element copied by its bytes (so a NaN's payload and -0 are kept, whatever the type).
// Checked bit for bit against PyTorch 1.13 (tests/fixtures/mask-torch), onnxruntime-web's
// NonZero and Compress and tfjs-core's whereAsync and booleanMaskAsync in
// tests/ops/mask-reference.test.mjs.
//
//   nonZeroRef(x, opts)                   ONNX NonZero, torch.nonzero, tf.where(x)
//   booleanMaskRef(x, mask, opts)         tf.boolean_mask, torch's x[mask] and masked_select
//   compressRef(x, condition, opts)       ONNX Compress, numpy.compress
//   maskedScatterRef(x, mask, source)     torch.Tensor.masked_scatter
//
// Tensors are { data, shape }; data any numeric TypedArray, booleans a Uint8Array, float16 and
// bfloat16 a Uint16Array of their bits with a dtype hint (nonZero: opts.dtype; the masks:
// opts.maskDtype, compress's condition: opts.conditionDtype), or a Float16Array. Results are
// { data: a new array, shape }.
//
// What is non-zero (every mask, condition and nonZero's x): an integer with any bit set; a float
// with any bit set but the sign bit, so -0 is zero and every NaN is non-zero (x != 0, as numpy,
// torch and ONNX Runtime test it). Non-zero counts as true.
//
// Choices where the peers differ (tests/ops/mask-reference.test.mjs shows each peer's output):
//   - nonZero of a rank-0 x: coordinates of no component, shape [nnz, 0] (torch, tf.where); in the
//     onnx layout the scalar is read as shape [1], [1, nnz], as onnxruntime-web (and numpy.nonzero's
//     old 0-d rule) do.
//   - booleanMask with a 0-d mask (K = 0) throws, as tf.boolean_mask ("mask cannot be scalar");
//     torch's x[torch.tensor(True)] takes it ([nnz, ...x.shape]). A negative axis counts from the
//     end (axis + rank); tf.boolean_mask has none.
//   - compress with a condition longer than the axis (or than x without axis) throws; numpy
//     throws only where a true entry is past the end, onnxruntime-web ignores the extra entries.
import { dtypeOf } from './reference-scatter.mjs';
import { numel, unravel } from './shape.mjs';

const FLOAT_SIGN = { float16: 0x7fff, bfloat16: 0x7fff, float32: 0x7fffffff, float64: 0x7fffffffffffffffn };

// A tensor's bits, one unsigned integer an element (a view: no copy).
function bitsOf(data) {
  const Bits = { 1: Uint8Array, 2: Uint16Array, 4: Uint32Array, 8: BigUint64Array }[data.BYTES_PER_ELEMENT];
  return new Bits(data.buffer, data.byteOffset, data.length);
}

/** isTrue(i): whether element i of t is non-zero (see the top of this file); dtype: the hint. */
export function truthOf(t, dtype) {
  const type = dtypeOf(t.data, { dtype });
  const bits = bitsOf(t.data);
  const keep = FLOAT_SIGN[type]; // floats: all the bits but the sign's
  if (keep === undefined) return (i) => bits[i] !== 0 && bits[i] !== 0n;
  return (i) => (bits[i] & keep) !== 0 && (bits[i] & keep) !== 0n;
}

function checkTensor(t, what) {
  if (!t || !ArrayBuffer.isView(t.data) || !Array.isArray(t.shape)) throw new TypeError(`${what} must be { data: TypedArray, shape }`);
  if (t.shape.some((d) => !Number.isInteger(d) || d < 0)) throw new RangeError(`${what}: bad shape [${t.shape}]`);
  if (t.data.length !== numel(t.shape)) throw new RangeError(`${what}: ${t.data.length} elements for shape [${t.shape}]`);
}

// A new array of data's type holding, one after another, the slices of `item` elements that
// start at the flat positions `starts`, copied by their bits.
function copyElements(data, starts, item) {
  const out = new data.constructor(starts.length * item);
  const src = bitsOf(data), dst = bitsOf(out);
  starts.forEach((s, k) => {
    for (let e = 0; e < item; e++) dst[k * item + e] = src[s + e];
  });
  return out;
}

/**
 * ONNX NonZero / torch.nonzero / tf.where(x): the coordinates of x's non-zero elements in
 * row-major order. opts.layout 'onnx' (default): shape [rank, nnz], one row a dimension;
 * 'torch': [nnz, rank], one row an element (tf.where's too). opts.indexType 'int32' (default,
 * an Int32Array) | 'int64' (a BigInt64Array). opts.dtype: 'float16' | 'bfloat16' for bits.
 */
export function nonZeroRef(x, opts = {}) {
  checkTensor(x, 'nonZero: x');
  const layout = opts.layout ?? 'onnx', indexType = opts.indexType ?? 'int32';
  if (layout !== 'onnx' && layout !== 'torch') throw new TypeError(`nonZero: layout must be 'onnx' or 'torch', not ${layout}`);
  if (indexType !== 'int32' && indexType !== 'int64') throw new TypeError(`nonZero: indexType must be 'int32' or 'int64', not ${indexType}`);
  const isTrue = truthOf(x, opts.dtype);
  // a scalar in the onnx layout: as shape [1] (onnxruntime-web's NonZero), so [1, nnz]
  const shape = x.shape.length === 0 && layout === 'onnx' ? [1] : x.shape;
  const coords = [];
  for (let i = 0; i < x.data.length; i++) if (isTrue(i)) coords.push(unravel(i, shape));
  const rank = shape.length, nnz = coords.length;
  const Out = indexType === 'int64' ? BigInt64Array : Int32Array;
  const out = new Out(rank * nnz);
  const cast = indexType === 'int64' ? BigInt : Number;
  coords.forEach((c, k) => {
    for (let d = 0; d < rank; d++) out[layout === 'onnx' ? d * nnz + k : k * rank + d] = cast(c[d]);
  });
  return { data: out, shape: layout === 'onnx' ? [rank, nnz] : [nnz, rank] };
}

/**
 * tf.boolean_mask(x, mask, axis): mask's K >= 1 dims are x.shape[axis .. axis + K); the output is
 * [...x.shape[:axis], nnz, ...x.shape[axis + K:]]: for each index of the dims before axis, the
 * slices at mask's true positions, in row-major order. opts.axis (default 0; negative: from the
 * end), opts.maskDtype: 'float16' | 'bfloat16' for a mask of bits.
 */
export function booleanMaskRef(x, mask, opts = {}) {
  checkTensor(x, 'booleanMask: x');
  checkTensor(mask, 'booleanMask: mask');
  const rank = x.shape.length, k = mask.shape.length;
  // tf.boolean_mask's rule: "0 < dim(mask) = K <= dim(tensor)" (https://www.tensorflow.org/api_docs/python/tf/boolean_mask)
  if (k === 0) throw new RangeError('booleanMask: mask must have rank at least 1 (a 0-d mask is refused, as tf.boolean_mask)');
  let axis = opts.axis ?? 0;
  if (!Number.isInteger(axis)) throw new TypeError('booleanMask: axis must be an integer');
  if (axis < 0) axis += rank;
  if (axis < 0 || axis + k > rank) throw new RangeError(`booleanMask: a mask of ${k} dims from axis ${opts.axis ?? 0} does not fit rank ${rank}`);
  const masked = x.shape.slice(axis, axis + k);
  if (masked.some((d, j) => d !== mask.shape[j])) throw new RangeError(`booleanMask: mask shape [${mask.shape}] is not x's [${masked}] from axis ${axis}`);
  const isTrue = truthOf(mask, opts.maskDtype);
  const outer = numel(x.shape.slice(0, axis)), m = mask.data.length, inner = numel(x.shape.slice(axis + k));
  const kept = [];
  for (let j = 0; j < m; j++) if (isTrue(j)) kept.push(j);
  const starts = [];
  for (let o = 0; o < outer; o++) for (const j of kept) starts.push((o * m + j) * inner);
  return { data: copyElements(x.data, starts, inner), shape: [...x.shape.slice(0, axis), kept.length, ...x.shape.slice(axis + k)] };
}

/**
 * ONNX Compress(x, condition, axis): condition 1-D. With opts.axis (negative: from the end), the
 * slices of x along axis where condition is true; a condition shorter than the axis decides only
 * its first slices (the rest are dropped). Without axis, x flattened: the output is [nnz].
 * A condition longer than the axis (or than x's size) throws. opts.conditionDtype for bits.
 */
export function compressRef(x, condition, opts = {}) {
  checkTensor(x, 'compress: x');
  checkTensor(condition, 'compress: condition');
  if (condition.shape.length !== 1) throw new RangeError(`compress: condition must be 1-D, not [${condition.shape}]`);
  const isTrue = truthOf(condition, opts.conditionDtype);
  const n = condition.data.length;
  if (opts.axis === undefined || opts.axis === null) {
    if (n > x.data.length) throw new RangeError(`compress: condition of ${n} is longer than x's ${x.data.length} elements`);
    const starts = [];
    for (let i = 0; i < n; i++) if (isTrue(i)) starts.push(i);
    return { data: copyElements(x.data, starts, 1), shape: [starts.length] };
  }
  const rank = x.shape.length;
  if (!Number.isInteger(opts.axis) || opts.axis < -rank || opts.axis >= rank) throw new RangeError(`compress: axis ${opts.axis} is outside [${-rank}, ${rank})`);
  const axis = opts.axis < 0 ? opts.axis + rank : opts.axis;
  const size = x.shape[axis];
  if (n > size) throw new RangeError(`compress: condition of ${n} is longer than axis ${axis} (${size})`);
  const outer = numel(x.shape.slice(0, axis)), inner = numel(x.shape.slice(axis + 1));
  const kept = [];
  for (let i = 0; i < n; i++) if (isTrue(i)) kept.push(i);
  const starts = [];
  for (let o = 0; o < outer; o++) for (const i of kept) starts.push((o * size + i) * inner);
  return { data: copyElements(x.data, starts, inner), shape: x.shape.map((d, j) => (j === axis ? kept.length : d)) };
}

/**
 * torch.Tensor.masked_scatter(mask, source), mask of x's shape: x, with its elements at mask's
 * true positions (row-major) replaced by source's first nnz elements (source read flat, of x's
 * array type, at least nnz of them). opts.maskDtype for a mask of bits.
 */
export function maskedScatterRef(x, mask, source, opts = {}) {
  checkTensor(x, 'maskedScatter: x');
  checkTensor(mask, 'maskedScatter: mask');
  checkTensor(source, 'maskedScatter: source');
  if (mask.shape.length !== x.shape.length || mask.shape.some((d, j) => d !== x.shape[j])) {
    throw new RangeError(`maskedScatter: mask shape [${mask.shape}] is not x's [${x.shape}]`);
  }
  if (source.data.constructor !== x.data.constructor) throw new TypeError(`maskedScatter: source is a ${source.data.constructor.name}, x a ${x.data.constructor.name}`);
  const isTrue = truthOf(mask, opts.maskDtype);
  const out = x.data.slice();
  const dst = bitsOf(out), src = bitsOf(source.data);
  let k = 0;
  for (let i = 0; i < out.length; i++) {
    if (!isTrue(i)) continue;
    if (k >= src.length) throw new RangeError(`maskedScatter: source has ${src.length} elements, fewer than the mask's true ones`);
    dst[i] = src[k++];
  }
  return { data: out, shape: x.shape.slice() };
}

/** The four by the library's op names. */
export const refMaskOps = { nonZero: nonZeroRef, booleanMask: booleanMaskRef, compress: compressRef, maskedScatter: maskedScatterRef };
