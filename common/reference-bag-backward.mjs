// Plain-JS reference of embeddingBagBackward(gradOutput, indices, opts): the gradient of
// embeddingBag (reference-bag.mjs) for its table, as torch 1.13's dense CPU backward computes it
// (https://github.com/pytorch/pytorch/blob/v1.13.0/aten/src/ATen/native/EmbeddingBag.cpp:
// _embedding_bag_dense_backward_cpu_sum_mean, _embedding_bag_dense_backward_cpu_max,
// _embedding_bag_per_sample_weights_backward_cpu), but in entry order (torch first sorts the
// entries by row, unstably). Checked against torch and against central differences of the
// forward in tests/ops/bag-backward-reference.test.mjs. Tensors are { data, shape }.
//
// opts: the forward's bags (offsets + includeLastOffset, 2-D indices, segmentIds: the bags are
// gradOutput's rows, numSegments if given must be their count), mode (default 'mean'),
// perSampleWeights, paddingIdx, outOfRange, negativeIndices; numWeights (or opts.out's first
// dim); maxIndices with 'max'; returnWeightsGrad with opts.weight; inPlace: the gradient is added
// to opts.out's values (a copy is returned: the reference writes none of its arguments).
//   - each entry, in order, of a bag, not padding, not dropped ('zero'), adds s * gradOutput[b] to
//     its row: float32 one fused multiply-add (fma32), float64 the product rounded, then added;
//     s = w / D (float64, then rounded to the type), D the forward's divisor, computed as it does;
//   - 'max': gradOutput[b, d] added to row maxIndices[b, d] (-1: none), bag after bag; a bag with
//     no entry counted (empty, or all padding) gives a constant 0, so nothing, whatever its max
//     indices say (the forward and torch give 0 there; torch skips such bags by their size);
//   - weightsGrad[k] = gradOutput[b] . weight[row], summed in float64, rounded once (0 for an
//     entry in no bag, on padding or dropped).
import { bagsOf, fma32 } from './reference-bag.mjs';
import { getNegative, rawIndex, resolve } from './reference.mjs';
import { numel } from './shape.mjs';

const MODES = ['sum', 'mean', 'max', 'sqrtn'];
const OP = 'embeddingBagBackward';

/** The gradient for the table: { data, shape, weightsGrad? } (see the top of this file). */
export function embeddingBagBackward(gradOutput, indices, opts = {}) {
  const mode = opts.mode ?? 'mean';
  if (!MODES.includes(mode)) throw new RangeError(`${OP}: mode must be one of ${MODES.join(', ')}`);
  const Type = gradOutput.data.constructor;
  if (Type !== Float32Array && Type !== Float64Array) throw new TypeError(`${OP}: gradOutput must be float32 or float64`);
  const f32 = Type === Float32Array, round = f32 ? Math.fround : (x) => x;
  if (gradOutput.shape.length < 1) throw new RangeError(`${OP}: gradOutput needs a row a bag`);
  const [B, dim, n] = [gradOutput.shape[0], numel(gradOutput.shape.slice(1)), numel(indices.shape)];
  const rows = opts.numWeights ?? opts.out?.shape[0];
  if (!Number.isInteger(rows) || rows < 0) throw new TypeError(`${OP}: numWeights is required`);
  if (opts.segmentIds && (opts.numSegments ?? B) !== B) throw new RangeError(`${OP}: numSegments must be gradOutput's rows`);
  const bags = bagsOf(indices, opts.segmentIds ? { ...opts, numSegments: B } : opts);
  if (bags.length !== B) throw new RangeError(`${OP}: gradOutput has ${B} rows for ${bags.length} bags`);
  const weights = ArrayBuffer.isView(opts.perSampleWeights) ? opts.perSampleWeights : opts.perSampleWeights?.data;
  if (weights && (mode === 'max' || weights.constructor !== Type || weights.length !== n)) throw new RangeError(`${OP}: bad perSampleWeights`);
  if (opts.returnWeightsGrad && !(weights && mode === 'sum' && opts.weight?.data.constructor === Type)) {
    throw new TypeError(`${OP}: returnWeightsGrad needs perSampleWeights, mode sum and the table`);
  }
  // every index resolved, so checked, in a bag or not (as the forward); -1: dropped ('zero')
  const rowOf = Array.from({ length: n }, (_, k) => resolve(rawIndex(indices.data, k), rows, opts.outOfRange ?? 'error', getNegative(opts)));
  const padding = opts.paddingIdx < 0 ? opts.paddingIdx + rows : opts.paddingIdx;
  if (opts.paddingIdx !== undefined && !(padding >= 0 && padding < rows)) throw new RangeError(`${OP}: paddingIdx is out of range`);
  const maxIndices = mode === 'max' ? Array.from(opts.maxIndices?.data ?? [], Number) : undefined;
  if (maxIndices && (maxIndices.length !== B * dim || maxIndices.some((r) => !(r >= -1 && r < rows)))) throw new RangeError(`${OP}: bad maxIndices`);
  if (opts.inPlace && opts.out?.data.length !== rows * dim) throw new TypeError(`${OP}: inPlace needs out`);

  const grad = opts.inPlace ? Float64Array.from(opts.out.data) : new Float64Array(rows * dim);
  const weightsGrad = opts.returnWeightsGrad ? new Float64Array(n) : undefined;
  bags.forEach(([start, end], b) => {
    const g = gradOutput.data.subarray(b * dim, (b + 1) * dim);
    const kept = []; // the entries the forward counts: not padding (a dropped one is counted)
    for (let k = start; k < end; k++) if (opts.paddingIdx === undefined || rowOf[k] !== padding) kept.push(k);
    if (mode === 'max') {
      if (kept.length === 0) return; // torch: only the bags of nonzero size (_embedding_bag_dense_backward_cpu_max)
      g.forEach((x, d) => {
        const r = maxIndices[b * dim + d];
        if (r >= 0) grad[r * dim + d] = round(grad[r * dim + d] + x);
      });
      return;
    }
    // the forward's divisor: mean the count or the weights' sum; sqrtn the root of the count or
    // of the weights' squares' sum
    let wsum = 0, w2sum = 0;
    for (const k of kept) {
      const w = weights ? weights[k] : 1;
      wsum = round(wsum + w);
      w2sum = round(w2sum + round(w * w));
    }
    const by = mode === 'mean' ? (weights ? wsum : kept.length) : mode === 'sqrtn' ? round(Math.sqrt(weights ? w2sum : kept.length)) : 1;
    for (const k of kept) {
      const r = rowOf[k];
      if (r < 0) continue;
      const s = round((weights ? weights[k] : 1) / by);
      for (let d = 0; d < dim; d++) grad[r * dim + d] = f32 ? fma32(s, g[d], grad[r * dim + d]) : grad[r * dim + d] + s * g[d];
      if (weightsGrad) {
        let acc = 0;
        for (let d = 0; d < dim; d++) acc += g[d] * opts.weight.data[r * dim + d];
        weightsGrad[k] = round(acc);
      }
    }
  });
  const result = { data: f32 ? Float32Array.from(grad) : grad, shape: [rows, ...gradOutput.shape.slice(1)] };
  if (weightsGrad) result.weightsGrad = { data: f32 ? Float32Array.from(weightsGrad) : weightsGrad, shape: [...indices.shape] };
  return result;
}
