// The playground's fused gather-reduce examples: embeddingBag (torch.nn.functional.embedding_bag,
// TensorFlow's sparse segments and tf.nn.embedding_lookup_sparse) and segmentReduce
// (torch.segment_reduce, tf.math.segment_*). Each names its source and, from a document, its page;
// `expected` is the output worked out by hand from the op's definition (the comment beside it says
// how; for a document's example, as the document prints it), never copied from the library's
// output: the page's self-check compares the library with it, and with common/reference-bag.mjs.
// torch's embedding_bag examples draw their table with torch.rand, so here the table is
// arange(1, 31).reshape(10, 3), whose sums can be worked out by hand; the indices, offsets and
// options are the page's, and the output is marked as worked out by hand (byHand), not printed there.
//
// An example: { op, title, source, url?, byHand?, data (the weight or the data), indices
// (embeddingBag's; null for segmentReduce), opts: the call's options with plain arrays for
// offsets, lengths, segmentIds and perSampleWeights, expected: { data, shape }, expectedMaxIndices?,
// expectedGrad? (embeddingBag: output row `row`'s gradient for the table, embeddingBagBackward with
// ones in that row, worked out by hand: { row, data, shape }) }.
// Plain data only: tests/browsers/demo.test.mjs imports it in Node too.

import { E, T } from './scatter-examples.mjs';

const f32 = Math.fround; // a quotient as float32 rounds it (the weight is float32)

/**
 * Output row `row`'s gradient for a [rows, dim] table, worked out by hand: { table row: its
 * gradient, one number for every column or a list }, every other row 0.
 */
const G = (row, rows, dim, reached) => ({
  row, shape: [rows, dim],
  data: Array.from({ length: rows }, (_, r) => [reached[r] ?? 0].flat()).flatMap((v) => (v.length === dim ? v : Array(dim).fill(v[0]))),
});

const I32 = Int32Array;
const F32 = Float32Array;

// (torch's tables are random: these outputs are worked out by hand over arange's)
const TORCH_BAG = { source: 'PyTorch torch.nn.functional.embedding_bag', url: 'https://pytorch.org/docs/stable/generated/torch.nn.functional.embedding_bag.html', byHand: true };
const TORCH_EMBEDDING_BAG = { source: 'PyTorch torch.nn.EmbeddingBag', url: 'https://pytorch.org/docs/stable/generated/torch.nn.EmbeddingBag.html', byHand: true };
const TF_SPARSE_SUM = { source: 'TensorFlow tf.sparse.segment_sum', url: 'https://www.tensorflow.org/api_docs/python/tf/sparse/segment_sum' };
const TF_LOOKUP_SPARSE = { source: 'TensorFlow tf.nn.embedding_lookup_sparse', url: 'https://www.tensorflow.org/api_docs/python/tf/nn/embedding_lookup_sparse' };
const TORCH_SEGMENT = { source: 'PyTorch torch.segment_reduce', url: 'https://pytorch.org/docs/stable/generated/torch.segment_reduce.html' };
const tfSegment = (name) => ({ source: `TensorFlow tf.math.segment_${name}`, url: `https://www.tensorflow.org/api_docs/python/tf/math/segment_${name}` });
const STARTER = { source: 'demo starter' };

// torch's table: row r is [3r + 1, 3r + 2, 3r + 3].
const ARANGE_10x3 = Array.from({ length: 10 }, (_, r) => [3 * r + 1, 3 * r + 2, 3 * r + 3]);
// tf.sparse.segment_sum's c, and tf.math.segment_*'s.
const TF_SPARSE_C = [[1, 2, 3, 4], [-1, -2, -3, -4], [5, 6, 7, 8]];
const TF_SEGMENT_C = [[1, 2, 3, 4], [4, 3, 2, 1], [5, 6, 7, 8]];
// tf.nn.embedding_lookup_sparse's params.
const TF_PARAMS = [[1, 2], [3, 4], [5, 6], [7, 8]];

export const BAG_EXAMPLES = [
  // ---- embeddingBag
  {
    op: 'embeddingBag', title: "Two bags of 4 by offsets [0, 4], mode 'mean' (the default)", ...TORCH_BAG,
    // bag 0: rows 1, 2, 4, 5 = [4, 5, 6] + [7, 8, 9] + [13, 14, 15] + [16, 17, 18] = [40, 44, 48], / 4;
    // bag 1: rows 4, 3, 2, 9 = [13, 14, 15] + [10, 11, 12] + [7, 8, 9] + [28, 29, 30] = [58, 62, 66], / 4
    data: T(F32, ARANGE_10x3), indices: T(I32, [1, 2, 4, 5, 4, 3, 2, 9]), opts: { mode: 'mean', offsets: [0, 4] },
    expected: E([[10, 11, 12], [14.5, 15.5, 16.5]]),
    // bag 1 reads rows 4, 3, 2, 9, each divided by 4
    expectedGrad: G(1, 10, 3, { 4: 0.25, 3: 0.25, 2: 0.25, 9: 0.25 }),
  },
  {
    op: 'embeddingBag', title: "paddingIdx 2, mode 'sum': bag 0 is all padding, bag 1 skips its 2", ...TORCH_BAG,
    // bag 0: four 2s, all skipped: zeros; bag 1: rows 4, 3, (2 skipped), 9 = [13 + 10 + 28, 14 + 11 + 29, 15 + 12 + 30]
    data: T(F32, ARANGE_10x3), indices: T(I32, [2, 2, 2, 2, 4, 3, 2, 9]), opts: { mode: 'sum', offsets: [0, 4], paddingIdx: 2 },
    expected: E([[0, 0, 0], [51, 54, 57]]),
    // bag 1: rows 4, 3 and 9 once each; its 2 is padding, so row 2 gets nothing
    expectedGrad: G(1, 10, 3, { 4: 1, 3: 1, 9: 1 }),
  },
  {
    op: 'embeddingBag', title: "2-D input: a bag a row, of fixed length 4, mode 'sum'", ...TORCH_EMBEDDING_BAG,
    // the bags of the first example, as rows: [40, 44, 48] and [58, 62, 66] (summed above)
    data: T(F32, ARANGE_10x3), indices: T(I32, [[1, 2, 4, 5], [4, 3, 2, 9]]), opts: { mode: 'sum' },
    expected: E([[40, 44, 48], [58, 62, 66]]),
  },
  {
    op: 'embeddingBag', title: 'segmentIds [0, 0, 1]: rows 0 and 1 cancel, row 2 alone', ...TF_SPARSE_SUM,
    // "Select all rows, two segments": [1, 2, 3, 4] + [-1, -2, -3, -4] = 0; [5, 6, 7, 8]
    data: T(F32, TF_SPARSE_C), indices: T(I32, [0, 1, 2]), opts: { mode: 'sum', segmentIds: [0, 0, 1] },
    expected: E([[0, 0, 0, 0], [5, 6, 7, 8]]),
  },
  {
    op: 'embeddingBag', title: 'Missing segment ids, numSegments 4: bags 1 and 3 are empty, zeros', ...TF_SPARSE_SUM,
    data: T(F32, TF_SPARSE_C), indices: T(I32, [0, 1]), opts: { mode: 'sum', segmentIds: [0, 2], numSegments: 4 },
    expected: E([[1, 2, 3, 4], [0, 0, 0, 0], [-1, -2, -3, -4], [0, 0, 0, 0]]),
  },
  {
    op: 'embeddingBag', title: "combiner 'sum': sp_ids rows [0, 1], [3], [2] as segment ids", ...TF_LOOKUP_SPARSE,
    // [1, 2] + [3, 4] = [4, 6]; [7, 8]; [5, 6]
    data: T(F32, TF_PARAMS), indices: T(I32, [0, 1, 3, 2]), opts: { mode: 'sum', segmentIds: [0, 0, 1, 2] },
    expected: E([[4, 6], [7, 8], [5, 6]]),
  },
  {
    op: 'embeddingBag', title: "combiner 'mean' with weights: (params[1] × 2 + params[3] × 0.5) / (2 + 0.5)", ...TF_LOOKUP_SPARSE, byHand: true,
    // the page's ids 1, 3 | 0 | 1 with weights 2, 0.5 | 1 | 3, over its params:
    // ([3, 4] × 2 + [7, 8] × 0.5) / 2.5 = [9.5, 12] / 2.5; [1, 2] × 1 / 1; [3, 4] × 3 / 3
    data: T(F32, TF_PARAMS), indices: T(I32, [1, 3, 0, 1]),
    opts: { mode: 'mean', segmentIds: [0, 0, 1, 2], perSampleWeights: [2, 0.5, 1, 3] },
    expected: E([[f32(9.5 / 2.5), f32(12 / 2.5)], [1, 2], [3, 4]]),
    // bag 0: row 1 with weight 2 and row 3 with 0.5, each over the weights' sum 2.5
    expectedGrad: G(0, 4, 2, { 1: f32(2 / 2.5), 3: f32(0.5 / 2.5) }),
  },
  {
    op: 'embeddingBag', title: "mode 'max' with returnIndices: each element's maximum, and the row it came from", ...STARTER,
    // bag 0 = rows 0, 1, 2: max(1, 7, 3) = 7 (row 1), max(9, 2, 8) = 9 (row 0), max(4, 5, 6) = 6 (row 2);
    // bag 1 = rows 3, 4, 1: max(5, 0, 7) = 7 (row 1), max(5, 1, 2) = 5 (row 3), max(5, 9, 5) = 9 (row 4)
    data: T(F32, [[1, 9, 4], [7, 2, 5], [3, 8, 6], [5, 5, 5], [0, 1, 9]]), indices: T(I32, [[0, 1, 2], [3, 4, 1]]),
    opts: { mode: 'max', returnIndices: true },
    expected: E([[7, 9, 6], [7, 5, 9]]),
    expectedMaxIndices: E([[1, 0, 2], [1, 3, 4]]),
    // bag 1's maxima came from rows 1, 3, 4 (one column each)
    expectedGrad: G(1, 5, 3, { 1: [1, 0, 0], 3: [0, 1, 0], 4: [0, 0, 1] }),
  },
  {
    op: 'embeddingBag', title: "Weighted sum, includeLastOffset, paddingIdx 3: the padding entry's weight 4 is not used", ...STARTER,
    // offsets [0, 3, 5] with the last offset the end: bags [0, 3) and [3, 5);
    // bag 0: 0.5 × [1, 2] + 2 × [5, 6] + (row 3 skipped) = [10.5, 13]; bag 1: 1 × [3, 4] − 1 × [5, 6] = [-2, -2]
    data: T(F32, TF_PARAMS), indices: T(I32, [0, 2, 3, 1, 2]),
    opts: { mode: 'sum', offsets: [0, 3, 5], includeLastOffset: true, perSampleWeights: [0.5, 2, 4, 1, -1], paddingIdx: 3 },
    expected: E([[10.5, 13], [-2, -2]]),
    // bag 0: row 0 × 0.5, row 2 × 2; row 3 is padding
    expectedGrad: G(0, 4, 2, { 0: 0.5, 2: 2 }),
  },
  {
    op: 'embeddingBag', title: "mode 'sqrtn' (TensorFlow's combiner): the sum over √count; bag 1 empty", ...STARTER,
    // bag 0: all four rows, [16, 20] / √4; bag 1: no ids, zeros; bag 2: row 1 alone, [3, 4] / √1
    data: T(F32, TF_PARAMS), indices: T(I32, [0, 1, 2, 3, 1]), opts: { mode: 'sqrtn', segmentIds: [0, 0, 0, 0, 2] },
    expected: E([[8, 10], [0, 0], [3, 4]]),
    // bag 0: rows 0 to 3, each over √4
    expectedGrad: G(0, 4, 2, { 0: 0.5, 1: 0.5, 2: 0.5, 3: 0.5 }),
  },

  // ---- segmentReduce
  {
    op: 'segmentReduce', title: "lengths [2, 1], reduce 'max'", ...TORCH_SEGMENT,
    data: T(F32, [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]), opts: { reduce: 'max', lengths: [2, 1] },
    expected: E([[5, 6, 7, 8], [9, 10, 11, 12]]),
  },
  {
    op: 'segmentReduce', title: 'segmentIds [0, 0, 1]: rows 0 and 1 summed', ...tfSegment('sum'),
    data: T(F32, TF_SEGMENT_C), opts: { reduce: 'sum', segmentIds: [0, 0, 1] },
    expected: E([[5, 5, 5, 5], [5, 6, 7, 8]]),
  },
  {
    op: 'segmentReduce', title: 'segmentIds [0, 0, 1], mean', ...tfSegment('mean'),
    data: T(F32, TF_SEGMENT_C), opts: { reduce: 'mean', segmentIds: [0, 0, 1] },
    expected: E([[2.5, 2.5, 2.5, 2.5], [5, 6, 7, 8]]),
  },
  {
    op: 'segmentReduce', title: 'segmentIds [0, 0, 1], min', ...tfSegment('min'),
    data: T(F32, TF_SEGMENT_C), opts: { reduce: 'min', segmentIds: [0, 0, 1] },
    expected: E([[1, 2, 2, 1], [5, 6, 7, 8]]),
  },
  {
    op: 'segmentReduce', title: 'segmentIds [0, 0, 1], prod', ...tfSegment('prod'),
    data: T(F32, TF_SEGMENT_C), opts: { reduce: 'prod', segmentIds: [0, 0, 1] },
    expected: E([[4, 6, 6, 4], [5, 6, 7, 8]]),
  },
  {
    op: 'segmentReduce', title: "axis 1, offsets [0, 2, 2, 5], initial 0.5: the empty segment keeps its start", ...STARTER,
    // row 0: 0.5 + 1 + 2, 0.5 (empty), 0.5 + 3 + 4 + 5; row 1: 0.5 + 6 + 7, 0.5, 0.5 + 8 + 9 + 10
    data: T(F32, [[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]]), opts: { reduce: 'sum', offsets: [0, 2, 2, 5], initial: 0.5, axis: 1 },
    expected: E([[3.5, 0.5, 12.5], [13.5, 0.5, 27.5]]),
  },
  {
    op: 'segmentReduce', title: "mean over lengths [2, 0, 3]: torch's empty segment has no mean (NaN)", ...STARTER,
    // (2 + 4) / 2; nothing to divide; (6 + 8 + 10) / 3
    data: T(F32, [2, 4, 6, 8, 10]), opts: { reduce: 'mean', lengths: [2, 0, 3] },
    expected: E([3, NaN, 8]),
  },
  {
    op: 'segmentReduce', title: "segmentIds [0, 0, 2], max: TensorFlow's empty segment 1 is 0", ...STARTER,
    // max([1, 2], [3, 4]) = [3, 4]; segment 1 has no rows: 0; [5, 6]
    data: T(F32, [[1, 2], [3, 4], [5, 6]]), opts: { reduce: 'max', segmentIds: [0, 0, 2] },
    expected: E([[3, 4], [0, 0], [5, 6]]),
  },
];
