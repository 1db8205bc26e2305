// Plain-JS references of the fused gather-reduce ops, written from the rules PyTorch 1.13 follows
// on CPU (checked bit for bit against its results: tests/fixtures/bag-torch, made by
// make-fixtures.py there, in tests/ops/bag-reference.test.mjs):
//
// embeddingBag(weight, indices, opts): torch.nn.functional.embedding_bag
// (https://pytorch.org/docs/1.13/generated/torch.nn.functional.embedding_bag.html). Bags are
// the rows of a 2-D indices, or runs of a 1-D one starting at opts.offsets (opts.includeLastOffset:
// offsets has one more entry, the end of the last bag), or given by opts.segmentIds, sorted, one
// an entry (TensorFlow's tf.sparse.segment_sum / segment_mean / segment_sqrt_n: bag s holds the
// entries whose id is s; opts.numSegments bags, by default the last id + 1). opts.mode 'sum' |
// 'mean' | 'max' | 'sqrtn' (default 'mean'; sqrtn: the sum over the square root of the count);
// opts.perSampleWeights (indices' shape) with 'sum', and with 'mean' and 'sqrtn' as
// tf.nn.embedding_lookup_sparse's combiners: the weighted sum over the sum of the weights, or
// over the square root of the sum of their squares (both summed as the rows are); not with
// 'max'. Every index is checked (torch's rule), also one in no bag. opts.paddingIdx: entries
// equal to it are skipped and not counted; opts.returnIndices
// with 'max': also maxIndices, the row each element's maximum came from. An empty bag gives
// zeros. In the order of its entries:
//   - float32: each element summed in float32; with weights and 'sum' (torch's only weighted
//     mode), a fused multiply-add (acc = w * x + acc, rounded once: fbgemm's kernel), except with
//     paddingIdx, where torch takes its own loop: w * x rounded, then added; with 'mean' and
//     'sqrtn' (TensorFlow's combiners: the rows gathered, multiplied by their weights, then
//     segment-summed), w * x rounded, then added, and the weights' squares likewise;
//   - float64: summed in float64, a weighted entry as w * x, then added (two roundings);
//   - float16 (opts.dtype 'float16' over a Uint16Array of bits): summed in float32 and rounded
//     to float16 at the end; a mean is that sum rounded to float16, divided by the count in
//     float32, and rounded to float16 again; bfloat16 (which torch 1.13 has not here) the same;
//   - mean: the sum divided by the count (not multiplied by its inverse);
//   - max: the first entry's row, then an element replaced only by a greater one: a tie keeps
//     the first (-0 before 0), a NaN stays where it comes first and is passed over after.
// segmentReduce(data, opts): torch.segment_reduce
// (https://pytorch.org/docs/1.13/generated/torch.segment_reduce.html): opts.reduce 'sum' |
// 'mean' | 'max' | 'min' | 'prod' over segments of opts.axis (default 0) given by opts.lengths
// or opts.offsets (one more entry than segments), torch's forms, or by opts.segmentIds (sorted,
// one an entry of the axis; opts.numSegments, by default the last id + 1), TensorFlow's
// (https://www.tensorflow.org/api_docs/python/tf/math/segment_sum); opts.initial starts every
// segment. Each starts from initial, or the reduction's identity (sum 0, prod 1, max -Infinity,
// min Infinity); max and min let a NaN through; a mean divides by the length. An empty segment
// keeps its start, except: a mean without initial is NaN (torch), and with segmentIds every
// empty segment is 0 (TensorFlow). float32 and float64, computed in their type.
// Tensors are { data, shape }, as in reference-scatter.mjs; indices any integer TypedArray.
import { getNegative, rawIndex, resolve } from './reference.mjs';
import { dtypeOf, fromHalfBits, toHalfBits } from './reference-scatter.mjs';
import { numel } from './shape.mjs';

const MODES = ['sum', 'mean', 'max', 'sqrtn'];
const REDUCTIONS = ['sum', 'mean', 'max', 'min', 'prod'];

// float32 a * b + c rounded once. The product of two float32s is exact in float64, but the sum
// rounded to float64 and then to float32 may round twice: where the float64 sum lands exactly
// halfway between two float32s, its rounding error (two-sum) says which way the exact sum lies.
export function fma32(a, b, c) {
  const p = a * b, s = p + c;
  const bp = s - c, err = (p - bp) + (c - (s - bp)); // s + err = p + c exactly
  const r = Math.fround(s);
  if (err === 0 || r === s || !Number.isFinite(s)) return r;
  // s rounds as the exact sum unless it lies halfway between two float32s (rounding to float64
  // cannot cross a halfway point, only land on it): then the float64 one step away on either
  // side round apart, and the exact sum lies on err's side
  const up = Math.fround(nextFloat64(s, 1)), down = Math.fround(nextFloat64(s, -1));
  if (up === down) return r;
  return err > 0 ? up : down;
}

const f64 = new Float64Array(1), u64 = new BigUint64Array(f64.buffer);
// The float64 next to x (finite, not 0) towards +Infinity (dir 1) or -Infinity (dir -1).
function nextFloat64(x, dir) {
  f64[0] = x;
  u64[0] += (x > 0) === (dir > 0) ? 1n : -1n;
  return f64[0];
}

// torch's rules for offsets: the first 0, none decreasing, none past the entries.
function checkOffsets(o, n, op) {
  o.forEach((v, k) => {
    if (k === 0 && v !== 0) throw new RangeError(`${op}: the first offset must be 0`);
    if (k > 0 && v < o[k - 1]) throw new RangeError(`${op}: offsets must not decrease`);
    if (v > n) throw new RangeError(`${op}: an offset is past the end`);
  });
}

/** The bags of indices: [start, end) runs of its flat entries, one a bag. */
export function bagsOf(indices, opts) {
  const n = numel(indices.shape);
  if (opts.segmentIds) {
    const ids = Array.from(opts.segmentIds.data, Number);
    if (indices.shape.length !== 1 || ids.length !== n) throw new RangeError('embeddingBag: segmentIds go with 1-D indices, one an entry');
    for (let k = 1; k < n; k++) {
      if (ids[k] < ids[k - 1]) throw new RangeError('embeddingBag: segmentIds must be sorted (for unsorted ids, indexReduce)');
    }
    const count = opts.numSegments ?? (n ? ids[n - 1] + 1 : 0);
    if (n && (ids[0] < 0 || ids[n - 1] >= count)) throw new RangeError(`embeddingBag: a segment id is outside [0, ${count})`);
    const bags = [];
    for (let s = 0, k = 0; s < count; s++) {
      const start = k;
      while (k < n && ids[k] === s) k++;
      bags.push([start, k]);
    }
    return bags;
  }
  if (indices.shape.length === 2) {
    if (opts.offsets) throw new RangeError('embeddingBag: 2-D indices take no offsets');
    const l = indices.shape[1];
    return Array.from({ length: indices.shape[0] }, (_, b) => [b * l, (b + 1) * l]);
  }
  if (indices.shape.length !== 1 || !opts.offsets) throw new RangeError('embeddingBag: 1-D indices need offsets');
  const o = Array.from(opts.offsets.data, Number);
  checkOffsets(o, n, 'embeddingBag');
  const count = opts.includeLastOffset ? o.length - 1 : o.length;
  if (count < 0) throw new RangeError('embeddingBag: includeLastOffset needs at least one offset');
  return Array.from({ length: count }, (_, b) => [o[b], b + 1 < o.length ? o[b + 1] : n]);
}

/** torch.nn.functional.embedding_bag: { data, shape, maxIndices? } (see the top of this file). */
export function embeddingBag(weight, indices, opts = {}) {
  const mode = opts.mode ?? 'mean';
  if (!MODES.includes(mode)) throw new RangeError(`embeddingBag: mode must be one of ${MODES.join(', ')}`);
  const weights = opts.perSampleWeights;
  if (weights && mode === 'max') throw new RangeError('embeddingBag: perSampleWeights do not go with mode max');
  const dtype = dtypeOf(weight.data, opts);
  const half = dtype === 'float16' || dtype === 'bfloat16';
  const value = half ? (b) => fromHalfBits(b, dtype) : (x) => x;
  const [rows, dim] = [weight.shape[0], numel(weight.shape.slice(1))];
  const bags = bagsOf(indices, opts);
  // every index checked, in a bag or not, as torch checks them all
  if ((opts.outOfRange ?? 'error') === 'error') {
    for (let k = 0; k < numel(indices.shape); k++) resolve(rawIndex(indices.data, k), rows, 'error', getNegative(opts));
  }
  const padding = opts.paddingIdx < 0 ? opts.paddingIdx + rows : opts.paddingIdx; // torch's, from the end
  if (opts.paddingIdx !== undefined && !(padding >= 0 && padding < rows)) throw new RangeError('embeddingBag: paddingIdx is out of range');
  const f32 = dtype !== 'float64'; // float16 computes in float32
  const round = f32 ? Math.fround : (x) => x;
  const fused = f32 && opts.paddingIdx === undefined && mode === 'sum';
  const out = new Float64Array(bags.length * dim);
  const maxIndices = mode === 'max' && opts.returnIndices ? new BigInt64Array(bags.length * dim) : undefined;
  bags.forEach(([start, end], b) => {
    const acc = new Float64Array(dim);
    const from = new Array(dim).fill(0);
    let count = 0, wsum = 0, w2sum = 0; // with weights: what mean and sqrtn divide by
    for (let k = start; k < end; k++) {
      // outOfRange 'zero': a row of zeros (-1), counted, its max index -1
      const i = resolve(rawIndex(indices.data, k), rows, opts.outOfRange ?? 'error', getNegative(opts));
      if (opts.paddingIdx !== undefined && i === padding) continue;
      const w = weights ? value(weights.data[k]) : 1;
      if (weights) {
        wsum = round(wsum + w);
        w2sum = fused ? fma32(w, w, w2sum) : round(w2sum + round(w * w));
      }
      for (let e = 0; e < dim; e++) {
        const x = i < 0 ? 0 : value(weight.data[i * dim + e]);
        if (mode === 'max') {
          if (count === 0 || x > acc[e]) { acc[e] = x; from[e] = i; }
        } else if (weights) {
          acc[e] = fused ? fma32(w, x, acc[e]) : round(acc[e] + round(w * x));
        } else {
          acc[e] = round(acc[e] + x);
        }
      }
      count++;
    }
    // what a mean or sqrtn divides by: the count, or with weights their sum or root sum of squares
    const by = mode === 'mean' ? (weights ? wsum : count) : mode === 'sqrtn' ? round(Math.sqrt(weights ? w2sum : count)) : 1;
    for (let e = 0; e < dim; e++) {
      let v = acc[e];
      if ((mode === 'mean' || mode === 'sqrtn') && count > 0) v = half ? Math.fround(fromHalfBits(toHalfBits(v, dtype), dtype) / by) : round(v / by);
      out[b * dim + e] = v;
      if (maxIndices) maxIndices[b * dim + e] = BigInt(from[e]);
    }
  });
  const shape = [bags.length, ...weight.shape.slice(1)];
  const data = half ? Uint16Array.from(out, (x) => toHalfBits(x, dtype)) : dtype === 'float64' ? out : Float32Array.from(out);
  return maxIndices ? { data, shape, maxIndices: { data: maxIndices, shape } } : { data, shape };
}

/** torch.segment_reduce: { data, shape } (see the top of this file). */
export function segmentReduce(data, opts = {}) {
  const reduce = opts.reduce;
  if (!REDUCTIONS.includes(reduce)) throw new RangeError(`segmentReduce: reduce must be one of ${REDUCTIONS.join(', ')}`);
  const rank = data.shape.length, axis = ((opts.axis ?? 0) + rank) % rank; // from the end when negative
  const shape = data.shape, outer = numel(shape.slice(0, axis)), n = shape[axis], inner = numel(shape.slice(axis + 1));
  let starts;
  if (opts.lengths) {
    starts = [0];
    for (const l of opts.lengths.data) {
      if (Number(l) < 0) throw new RangeError('segmentReduce: a length is negative');
      starts.push(starts.at(-1) + Number(l));
    }
  } else if (opts.offsets) {
    starts = Array.from(opts.offsets.data, Number);
    if (!starts.length) throw new RangeError('segmentReduce: offsets need at least one entry');
    checkOffsets(starts, n, 'segmentReduce');
  } else if (opts.segmentIds) {
    const ids = Array.from(opts.segmentIds.data, Number);
    if (ids.length !== n) throw new RangeError(`segmentReduce: segmentIds has ${ids.length} ids for ${n} entries`);
    if (ids.some((v, k) => k > 0 && v < ids[k - 1])) throw new RangeError('segmentReduce: segmentIds must be sorted (for unsorted ids, indexReduce)');
    const count = opts.numSegments ?? (n ? ids[n - 1] + 1 : 0);
    if (n && (ids[0] < 0 || ids[n - 1] >= count)) throw new RangeError(`segmentReduce: a segment id is outside [0, ${count})`);
    starts = [0];
    for (let s = 0, k = 0; s < count; s++) {
      while (k < n && ids[k] === s) k++;
      starts.push(k);
    }
  } else {
    throw new RangeError('segmentReduce: give lengths, offsets or segmentIds');
  }
  if (starts.at(-1) !== n) throw new RangeError(`segmentReduce: the segments cover ${starts.at(-1)} of ${n} entries`);
  const segments = starts.length - 1;
  const round = data.data instanceof Float32Array ? Math.fround : (x) => x;
  const identity = { sum: 0, mean: 0, prod: 1, max: -Infinity, min: Infinity }[reduce];
  const start = opts.initial ?? identity;
  const out = new Float64Array(outer * segments * inner);
  for (let o = 0; o < outer; o++) {
    for (let s = 0; s < segments; s++) {
      for (let e = 0; e < inner; e++) {
        let acc = round(start);
        for (let j = starts[s]; j < starts[s + 1]; j++) {
          const x = data.data[(o * n + j) * inner + e];
          if (reduce === 'sum' || reduce === 'mean') acc = round(acc + x);
          else if (reduce === 'prod') acc = round(acc * x);
          else if (Number.isNaN(x) || (reduce === 'max' ? x > acc : x < acc)) acc = x;
        }
        const len = starts[s + 1] - starts[s];
        if (len === 0 && opts.segmentIds) acc = 0;
        else if (reduce === 'mean') acc = len > 0 ? round(acc / len) : opts.initial !== undefined ? acc : NaN;
        out[(o * segments + s) * inner + e] = acc;
      }
    }
  }
  const outShape = [...shape.slice(0, axis), segments, ...shape.slice(axis + 1)];
  return { data: round === Math.fround ? Float32Array.from(out) : out, shape: outShape };
}

export const refBagOps = { embeddingBag, segmentReduce };
