// The playground's scatter examples: worked examples of the documents wasm-gather's scatters
// follow (PyTorch, TensorFlow, ONNX) and a few demo starters (a histogram, a KV-cache write, last
// write wins). Each names its source and, from a document, its page. `expected` is the output
// worked out by hand from the op's definition (for a document's example, as the document prints
// it), never copied from the library's output: the page's self-check compares the library with it.
//
// An example: { op, title, source, url?, data, indices (null: tensorScatter without
// writeIndices), updates (a number: scatter's src as a value), opts: the call's options, and
// dim or axis where the op takes one, expected: { data, shape } }.
// Plain data only: tests/browsers/demo.test.mjs imports it in Node too.

function shapeOf(nested) {
  const shape = [];
  for (let x = nested; Array.isArray(x); x = x[0]) shape.push(x.length);
  return shape;
}
/** A tensor from a nested array literal (the bag examples' too). */
export const T = (Type, nested) => ({ data: Type.from([nested].flat(Infinity)), shape: shapeOf(nested) });
/** An expected output from a nested array literal. */
export const E = (nested) => ({ data: [nested].flat(Infinity), shape: shapeOf(nested) });

const I32 = Int32Array;
const F32 = Float32Array;

const TORCH_SCATTER = { source: 'PyTorch torch.Tensor.scatter_', url: 'https://pytorch.org/docs/stable/generated/torch.Tensor.scatter_.html' };
const TORCH_SCATTER_REDUCE = { source: 'PyTorch torch.Tensor.scatter_reduce_', url: 'https://pytorch.org/docs/stable/generated/torch.Tensor.scatter_reduce_.html' };
const TORCH_INDEX_ADD = { source: 'PyTorch torch.Tensor.index_add_', url: 'https://pytorch.org/docs/stable/generated/torch.Tensor.index_add_.html' };
const TORCH_INDEX_REDUCE = { source: 'PyTorch torch.Tensor.index_reduce_', url: 'https://pytorch.org/docs/stable/generated/torch.Tensor.index_reduce_.html' };
const TF_SEGMENT_SUM = { source: 'TensorFlow tf.math.unsorted_segment_sum', url: 'https://www.tensorflow.org/api_docs/python/tf/math/unsorted_segment_sum' };
const TF_SCATTER_ND_ADD = { source: 'TensorFlow tf.tensor_scatter_nd_add', url: 'https://www.tensorflow.org/api_docs/python/tf/tensor_scatter_nd_add' };
const ONNX_SCATTER_ND = { source: 'ONNX ScatterND', url: 'https://onnx.ai/onnx/operators/onnx__ScatterND.html' };
const STARTER = { source: 'demo starter' };

// torch's src = torch.arange(1, 11).reshape((2, 5)), shared by its two scatter_ examples.
const ARANGE_2x5 = [[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]];
// torch's index_reduce_ example: t and index.
const TORCH_T = [[1, 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12]];

export const SCATTER_EXAMPLES = [
  // ---- scatter: torch.scatter / scatter_reduce, ONNX ScatterElements
  {
    op: 'scatter', title: "Histogram: add 1 at each value (src a number, reduce 'add')", ...STARTER,
    // bins 0..4 of the values 0, 2, 2, 4, 2, 1, 0: bin 0 twice, bin 1 once, bin 2 three times, bin 4 once
    data: T(I32, [0, 0, 0, 0, 0]), indices: T(I32, [0, 2, 2, 4, 2, 1, 0]), updates: 1, dim: 0, opts: { reduce: 'add' },
    expected: E([2, 1, 3, 0, 1]),
  },
  {
    op: 'scatter', title: 'dim 0: src larger than index, only its [1, 4] corner is used', ...TORCH_SCATTER,
    data: T(I32, [[0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0]]), indices: T(I32, [[0, 1, 2, 0]]),
    updates: T(I32, ARANGE_2x5), dim: 0,
    expected: E([[1, 0, 0, 4, 0], [0, 2, 0, 0, 0], [0, 0, 3, 0, 0]]),
  },
  {
    op: 'scatter', title: 'dim 1: each row of src goes to its own columns', ...TORCH_SCATTER,
    data: T(I32, [[0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0]]), indices: T(I32, [[0, 1, 2], [0, 1, 4]]),
    updates: T(I32, ARANGE_2x5), dim: 1,
    expected: E([[1, 2, 3, 0, 0], [6, 7, 0, 0, 8], [0, 0, 0, 0, 0]]),
  },
  {
    op: 'scatter', title: "reduce 'sum' (here 'add') into the input: 1 + 1 + 3, 2 + 2 + 4 + 6, 3 + 5", ...TORCH_SCATTER_REDUCE,
    data: T(F32, [1, 2, 3, 4]), indices: T(I32, [0, 1, 0, 1, 2, 1]), updates: T(F32, [1, 2, 3, 4, 5, 6]), dim: 0,
    opts: { reduce: 'add' },
    expected: E([5, 14, 8, 4]),
  },
  {
    op: 'scatter', title: "reduce 'amax' (here 'max'), includeSelf false: the input's values left out", ...TORCH_SCATTER_REDUCE,
    // position 0: max(1, 3); 1: max(2, 4, 6); 2: 5; 3: not hit, keeps 2
    data: T(F32, [5, 4, 3, 2]), indices: T(I32, [0, 1, 0, 1, 2, 1]), updates: T(F32, [1, 2, 3, 4, 5, 6]), dim: 0,
    opts: { reduce: 'max', includeSelf: false },
    expected: E([3, 6, 5, 2]),
  },

  // ---- scatterND: ONNX ScatterND, tf.tensor_scatter_nd_*
  {
    op: 'scatterND', title: "Repeated indices, reduce 'none': the last write wins", ...STARTER,
    // position 1 is written by updates 0, 2 and 3 (values 1, 3, 4: 4 stays); -1 is position 5
    data: T(I32, [10, 20, 30, 40, 50, 60]), indices: T(I32, [[1], [4], [1], [1], [-1]]), updates: T(I32, [1, 2, 3, 4, 5]),
    expected: E([10, 4, 30, 40, 2, 5]),
  },
  {
    op: 'scatterND', title: 'Example 1: single elements', ...ONNX_SCATTER_ND,
    data: T(I32, [1, 2, 3, 4, 5, 6, 7, 8]), indices: T(I32, [[4], [3], [1], [7]]), updates: T(I32, [9, 10, 11, 12]),
    expected: E([1, 11, 3, 10, 9, 6, 7, 12]),
  },
  {
    op: 'scatterND', title: 'Example 2: whole slices (blocks 0 and 2 of a [4, 4, 4] tensor)', ...ONNX_SCATTER_ND,
    data: T(I32, [
      [[1, 2, 3, 4], [5, 6, 7, 8], [8, 7, 6, 5], [4, 3, 2, 1]],
      [[1, 2, 3, 4], [5, 6, 7, 8], [8, 7, 6, 5], [4, 3, 2, 1]],
      [[8, 7, 6, 5], [4, 3, 2, 1], [1, 2, 3, 4], [5, 6, 7, 8]],
      [[8, 7, 6, 5], [4, 3, 2, 1], [1, 2, 3, 4], [5, 6, 7, 8]]]),
    indices: T(I32, [[0], [2]]),
    updates: T(I32, [
      [[5, 5, 5, 5], [6, 6, 6, 6], [7, 7, 7, 7], [8, 8, 8, 8]],
      [[1, 1, 1, 1], [2, 2, 2, 2], [3, 3, 3, 3], [4, 4, 4, 4]]]),
    expected: E([
      [[5, 5, 5, 5], [6, 6, 6, 6], [7, 7, 7, 7], [8, 8, 8, 8]],
      [[1, 2, 3, 4], [5, 6, 7, 8], [8, 7, 6, 5], [4, 3, 2, 1]],
      [[1, 1, 1, 1], [2, 2, 2, 2], [3, 3, 3, 3], [4, 4, 4, 4]],
      [[8, 7, 6, 5], [4, 3, 2, 1], [1, 2, 3, 4], [5, 6, 7, 8]]]),
  },
  {
    op: 'scatterND', title: "reduce 'add' into ones", ...TF_SCATTER_ND_ADD,
    data: T(I32, [1, 1, 1, 1, 1, 1, 1, 1]), indices: T(I32, [[4], [3], [1], [7]]), updates: T(I32, [9, 10, 11, 12]),
    opts: { reduce: 'add' },
    expected: E([1, 12, 1, 11, 10, 1, 1, 13]),
  },

  // ---- indexReduce: torch.index_add / index_reduce, tf.math.unsorted_segment_*
  {
    op: 'indexReduce', title: "Segment sum: rows 0 and 2 into segment 0, row 1 into segment 1", ...TF_SEGMENT_SUM,
    data: T(I32, [[0, 0, 0, 0], [0, 0, 0, 0]]), indices: T(I32, [0, 1, 0]),
    updates: T(I32, [[1, 2, 3, 4], [5, 6, 7, 8], [4, 3, 2, 1]]), axis: 0, opts: { reduce: 'add' },
    expected: E([[5, 5, 5, 5], [5, 6, 7, 8]]),
  },
  {
    op: 'indexReduce', title: 'index_add_: rows of t added to rows 0, 4 and 2 of ones', ...TORCH_INDEX_ADD,
    data: T(F32, [[1, 1, 1], [1, 1, 1], [1, 1, 1], [1, 1, 1], [1, 1, 1]]), indices: T(I32, [0, 4, 2]),
    updates: T(F32, [[1, 2, 3], [4, 5, 6], [7, 8, 9]]), axis: 0, opts: { reduce: 'add' },
    expected: E([[2, 3, 4], [1, 1, 1], [8, 9, 10], [1, 1, 1], [5, 6, 7]]),
  },
  {
    op: 'indexReduce', title: "reduce 'prod' (here 'mul'): row 0 is 2 × 1 × 10, 2 × 2 × 11, 2 × 3 × 12", ...TORCH_INDEX_REDUCE,
    data: T(F32, [[2, 2, 2], [2, 2, 2], [2, 2, 2], [2, 2, 2], [2, 2, 2]]), indices: T(I32, [0, 4, 2, 0]),
    updates: T(F32, TORCH_T), axis: 0, opts: { reduce: 'mul' },
    expected: E([[20, 44, 72], [2, 2, 2], [14, 16, 18], [2, 2, 2], [8, 10, 12]]),
  },
  {
    op: 'indexReduce', title: "reduce 'amax' (here 'max'), includeSelf false", ...TORCH_INDEX_REDUCE,
    data: T(F32, [[2, 2, 2], [2, 2, 2], [2, 2, 2], [2, 2, 2], [2, 2, 2]]), indices: T(I32, [0, 4, 2, 0]),
    updates: T(F32, TORCH_T), axis: 0, opts: { reduce: 'max', includeSelf: false },
    expected: E([[10, 11, 12], [2, 2, 2], [7, 8, 9], [2, 2, 2], [4, 5, 6]]),
  },
  {
    op: 'indexReduce', title: "Columns (axis 1), reduce 'mean' of the updates only (includeSelf false)", ...STARTER,
    // row 0: column 2 = mean(2, 4, 6) = 4, column 0 = 5; row 1: column 2 = mean(1, 3, 8) = 4, column 0 = 7;
    // column 1 is not indexed and keeps its 9s
    data: T(F32, [[9, 9, 9], [9, 9, 9]]), indices: T(I32, [2, 0, 2, 2]),
    updates: T(F32, [[2, 5, 4, 6], [1, 7, 3, 8]]), axis: 1, opts: { reduce: 'mean', includeSelf: false },
    expected: E([[5, 9, 4], [7, 9, 4]]),
  },

  // ---- tensorScatter: ONNX TensorScatter, the KV-cache write
  {
    op: 'tensorScatter', title: "KV-cache write, mode 'circular': batch 0 writes at 3 and wraps to 0, batch 1 at 1 and 2", ...STARTER,
    // cache [batch 2, max sequence 4, head dim 2]; two new positions per batch row
    data: T(I32, [[[1, 2], [3, 4], [5, 6], [7, 8]], [[9, 10], [11, 12], [13, 14], [15, 16]]]),
    indices: T(I32, [3, 1]),
    updates: T(I32, [[[101, 102], [103, 104]], [[105, 106], [107, 108]]]),
    axis: -2, opts: { mode: 'circular' },
    expected: E([[[103, 104], [3, 4], [5, 6], [101, 102]], [[9, 10], [105, 106], [107, 108], [15, 16]]]),
  },
  {
    op: 'tensorScatter', title: "One new token at position 2 of an attention cache [batch, heads, sequence, head dim]", ...STARTER,
    data: T(F32, [[[[1, 2], [3, 4], [5, 6], [7, 8]], [[9, 10], [11, 12], [13, 14], [15, 16]]]]),
    indices: T(I32, [2]),
    updates: T(F32, [[[[-1, -2]], [[-3, -4]]]]),
    axis: -2,
    expected: E([[[[1, 2], [3, 4], [-1, -2], [7, 8]], [[9, 10], [11, 12], [-3, -4], [15, 16]]]]),
  },
  {
    op: 'tensorScatter', title: 'No writeIndices: every batch row is written from position 0', ...STARTER,
    data: T(I32, [[[0, 0], [0, 0], [0, 0]], [[0, 0], [0, 0], [0, 0]]]), indices: null,
    updates: T(I32, [[[1, 2], [3, 4]], [[5, 6], [7, 8]]]),
    axis: -2,
    expected: E([[[1, 2], [3, 4], [0, 0]], [[5, 6], [7, 8], [0, 0]]]),
  },
];
