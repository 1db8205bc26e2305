// Every worked example in the spec documents (/work/shared/seeds), as data.
// Call as  api[ex.op](...ex.args, ex.opts)  and compare with ex.expected.
//   gather:   args = [input, dim, index]
//   gatherND: args = [params, indices]          (opts.batchDims)
//   take:     args = [params, indices]          (opts.axis, opts.batchDims)
// Expected values are transcribed from the documents, not computed.
//
// Shape-only examples (the DirectML output-size example and the three OpenVINO XML layers) have
// no data in the documents: their data/indices are filled deterministically (all indices valid),
// `expected` holds only the documented shape, and `checkAgainstReference: true` asks the test to
// compare the data with common/reference.mjs. Their `args` are built lazily on first access (the
// first OpenVINO layer has a 1000x256x10x15 float32 input, 154 MB).
//
// Letter mapping (tf-gather_nd.txt uses strings as data):
//   'a' -> 1, 'b' -> 2, 'c' -> 3, 'd' -> 4
//   a letter with a digit suffix n -> 10 * (n + 1) + letter:
//   'a0' -> 11, 'b0' -> 12, 'c0' -> 13, 'd0' -> 14,  'a1' -> 21, 'b1' -> 22, 'c1' -> 23, 'd1' -> 24
//
// This module is data only (no imports): the web demo imports it too.

const LETTERS = {
  a: 1, b: 2, c: 3, d: 4,
  a0: 11, b0: 12, c0: 13, d0: 14,
  a1: 21, b1: 22, c1: 23, d1: 24,
};

function shapeOf(nested) {
  const shape = [];
  let x = nested;
  while (Array.isArray(x)) {
    shape.push(x.length);
    x = x[0];
  }
  return shape;
}

function flat(nested) {
  if (Array.isArray(nested)) return nested.flatMap(flat);
  if (typeof nested === 'string') {
    if (!(nested in LETTERS)) throw new Error(`no mapping for letter ${nested}`);
    return [LETTERS[nested]];
  }
  return [nested];
}

/** Tensor from a nested array literal (letters mapped to numbers). */
const T = (Type, nested) => ({ data: Type.from(flat(nested)), shape: shapeOf(nested) });
/** Expected result from a nested array literal; `shape` given explicitly when the doc states it. */
const E = (nested, shape = shapeOf(nested)) => ({ data: flat(nested), shape });

const F32 = Float32Array;
const I32 = Int32Array;
const U32 = Uint32Array;

// tf.gather_nd examples share these params.
const TF_M = [['a', 'b'], ['c', 'd']];
const TF_3 = [[['a0', 'b0'], ['c0', 'd0']],
              [['a1', 'b1'], ['c1', 'd1']]];

const TF = 'tf-gather_nd.txt';
const OV = 'openvino-GatherND-8.rst';
const TORCH = 'torch-gather.md';
const DML = 'directml-GATHER_ND1.md';

/** Deterministic valid data for a shape-only gatherND example (lazy). */
function shapeOnlyGatherND(source, title, dataShape, indicesShape, batchDims, outShape) {
  let built = null;
  const build = () => {
    const n = dataShape.reduce((a, b) => a * b, 1);
    const data = new Float32Array(n);
    for (let i = 0; i < n; i++) data[i] = i % 65521; // exact in float32
    const m = indicesShape.reduce((a, b) => a * b, 1);
    const K = indicesShape[indicesShape.length - 1];
    const ind = new Int32Array(m);
    for (let i = 0; i < m; i++) {
      const s = dataShape[batchDims + (i % K)];
      ind[i] = (i * 7 + 3) % s; // valid: 0 <= ind < s
    }
    return [{ data, shape: dataShape.slice() }, { data: ind, shape: indicesShape.slice() }];
  };
  return {
    source,
    title,
    op: 'gatherND',
    get args() {
      if (!built) built = build();
      return built;
    },
    opts: { batchDims },
    expected: { shape: outShape },
    checkAgainstReference: true,
  };
}

export const seedExamples = [
  // ---------------------------------------------------------------- tf-gather_nd.txt
  {
    source: TF, title: 'Simple indexing into a matrix', op: 'gatherND',
    args: [T(F32, TF_M), T(I32, [[0, 0], [1, 1]])], opts: {},
    expected: E(['a', 'd']),
  },
  {
    source: TF, title: 'Slice indexing into a matrix', op: 'gatherND',
    args: [T(F32, TF_M), T(I32, [[1], [0]])], opts: {},
    expected: E([['c', 'd'], ['a', 'b']]),
  },
  {
    source: TF, title: 'Indexing into a 3-tensor (#1)', op: 'gatherND',
    args: [T(F32, TF_3), T(I32, [[1]])], opts: {},
    expected: E([[['a1', 'b1'], ['c1', 'd1']]]),
  },
  {
    source: TF, title: 'Indexing into a 3-tensor (#2)', op: 'gatherND',
    args: [T(F32, TF_3), T(I32, [[0, 1], [1, 0]])], opts: {},
    expected: E([['c0', 'd0'], ['a1', 'b1']]),
  },
  {
    source: TF, title: 'Indexing into a 3-tensor (#3)', op: 'gatherND',
    args: [T(F32, TF_3), T(I32, [[0, 0, 1], [1, 0, 1]])], opts: {},
    expected: E(['b0', 'b1']),
  },
  {
    source: TF, title: 'Batched indexing into a matrix', op: 'gatherND',
    args: [T(F32, TF_M), T(I32, [[[0, 0]], [[0, 1]]])], opts: {},
    expected: E([['a'], ['b']]),
  },
  {
    source: TF, title: 'Batched slice indexing into a matrix', op: 'gatherND',
    args: [T(F32, TF_M), T(I32, [[[1]], [[0]]])], opts: {},
    expected: E([[['c', 'd']], [['a', 'b']]]),
  },
  {
    source: TF, title: 'Batched indexing into a 3-tensor (#1)', op: 'gatherND',
    args: [T(F32, TF_3), T(I32, [[[1]], [[0]]])], opts: {},
    expected: E([[[['a1', 'b1'], ['c1', 'd1']]],
                 [[['a0', 'b0'], ['c0', 'd0']]]]),
  },
  {
    source: TF, title: 'Batched indexing into a 3-tensor (#2)', op: 'gatherND',
    args: [T(F32, TF_3), T(I32, [[[0, 1], [1, 0]], [[0, 0], [1, 1]]])], opts: {},
    expected: E([[['c0', 'd0'], ['a1', 'b1']],
                 [['a0', 'b0'], ['c1', 'd1']]]),
  },
  {
    source: TF, title: 'Batched indexing into a 3-tensor (#3)', op: 'gatherND',
    args: [T(F32, TF_3), T(I32, [[[0, 0, 1], [1, 0, 1]], [[0, 1, 1], [1, 1, 0]]])], opts: {},
    expected: E([['b0', 'b1'], ['d0', 'c1']]),
  },
  {
    source: TF, title: 'Batched params and indices, batch_dims = 1 (#1)', op: 'gatherND',
    args: [T(F32, TF_3), T(I32, [[1], [0]])], opts: { batchDims: 1 },
    expected: E([['c0', 'd0'], ['a1', 'b1']]),
  },
  {
    source: TF, title: 'Batched params and indices, batch_dims = 1 (#2)', op: 'gatherND',
    args: [T(F32, TF_3), T(I32, [[[1]], [[0]]])], opts: { batchDims: 1 },
    expected: E([[['c0', 'd0']], [['a1', 'b1']]]),
  },
  {
    source: TF, title: 'Batched params and indices, batch_dims = 1 (#3)', op: 'gatherND',
    args: [T(F32, TF_3), T(I32, [[[1, 0]], [[0, 1]]])], opts: { batchDims: 1 },
    expected: E([['c0'], ['b1']]),
  },

  // ---------------------------------------------------------------- openvino-GatherND-8.rst
  {
    source: OV, title: 'Example 1: gathering elements', op: 'gatherND',
    args: [T(I32, [[1, 2], [3, 4]]), T(I32, [[0, 0], [1, 0]])], opts: {},
    expected: E([1, 3]),
  },
  {
    source: OV, title: 'Example 2: gathering slices', op: 'gatherND',
    args: [T(I32, [[1, 2], [3, 4]]), T(I32, [[1], [0]])], opts: {},
    expected: E([[3, 4], [1, 2]]),
  },
  {
    source: OV, title: 'Example 3: indices with leading dimensions', op: 'gatherND',
    args: [T(I32, [[1, 2], [3, 4]]), T(I32, [[[1]], [[0]]])], opts: {},
    expected: E([[[3, 4]], [[1, 2]]]),
  },
  {
    source: OV, title: 'Example 4: elements with batch_dims = 1', op: 'gatherND',
    args: [T(I32, [[1, 2], [3, 4]]), T(I32, [[1], [0]])], opts: { batchDims: 1 },
    expected: E([2, 3], [2]),
  },
  {
    source: OV, title: 'Example 5: slices with batch_dims = 1', op: 'gatherND',
    args: [
      T(I32, [[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]],
              [[13, 14, 15, 16], [17, 18, 19, 20], [21, 22, 23, 24]]]),
      T(I32, [[1], [0]]),
    ],
    opts: { batchDims: 1 },
    expected: E([[5, 6, 7, 8], [13, 14, 15, 16]], [2, 4]),
  },
  {
    source: OV, title: 'Example 6: batch_dims = 2 with leading dimensions', op: 'gatherND',
    args: [
      T(I32, [[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]],
              [[13, 14, 15, 16], [17, 18, 19, 20], [21, 22, 23, 24]]]),
      T(I32, [[[[1]], [[0]], [[2]]],
              [[[0]], [[2]], [[2]]]]), // shape (2, 3, 1, 1)
    ],
    opts: { batchDims: 2 },
    expected: E([[[2], [5], [11]], [[13], [19], [23]]], [2, 3, 1]),
  },
  {
    source: OV, title: 'Example 7: batch_dims = 3', op: 'gatherND',
    args: [
      T(I32, [[[[1, 2, 3, 4], [5, 6, 7, 8]],
               [[9, 10, 11, 12], [13, 14, 15, 16]]]]), // shape (1, 2, 2, 4)
      T(I32, [[[[1], [0]], [[3], [2]]]]),           // shape (1, 2, 2, 1)
    ],
    opts: { batchDims: 3 },
    expected: E([[[2, 5], [12, 15]]], [1, 2, 2]),
  },
  shapeOnlyGatherND(OV, 'XML layer, batch_dims = 0 (shape only)',
    [1000, 256, 10, 15], [25, 125, 3], 0, [25, 125, 15]),
  shapeOnlyGatherND(OV, 'XML layer, batch_dims = 2 (shape only)',
    [30, 2, 100, 35], [30, 2, 3, 1], 2, [30, 2, 3, 35]),
  shapeOnlyGatherND(OV, 'XML layer, batch_dims = 3 (shape only)',
    [1, 64, 64, 320], [1, 64, 64, 1, 1], 3, [1, 64, 64, 1]),

  // ---------------------------------------------------------------- torch-gather.md
  // The document shows this example twice (Chinese and English versions); it is one example.
  {
    source: TORCH, title: 'torch.gather(t, 1, [[0, 0], [1, 0]])', op: 'gather',
    args: [T(I32, [[1, 2], [3, 4]]), 1, T(I32, [[0, 0], [1, 0]])], opts: {},
    expected: E([[1, 1], [4, 3]]),
  },

  // ---------------------------------------------------------------- directml-GATHER_ND1.md
  // DirectML pads tensors with leading 1 dims to a common DimensionCount; here tensors use only
  // the meaningful dims (the last InputDimensionCount / IndicesDimensionCount dims), and the
  // expected output shape is the output's Sizes without the padding leading 1s.
  {
    source: DML, title: 'Example 1. 1D remapping', op: 'gatherND',
    args: [T(F32, [[0, 1], [2, 3]]), T(U32, [[1], [0]])], opts: { batchDims: 0 },
    expected: E([[2, 3], [0, 1]]),
  },
  {
    // InputTensor Sizes {1,3,2,2} with InputDimensionCount 3 -> {3,2,2}; IndicesTensor
    // {1,3,2,2} with IndicesDimensionCount 3 -> {3,2,2}; OutputTensor {1,1,3,2} -> {3,2}.
    source: DML, title: 'Example 2. 2D remapping with batch count', op: 'gatherND',
    args: [
      T(F32, [[[0, 1], [2, 3]], [[4, 5], [6, 7]], [[8, 9], [10, 11]]]),
      T(U32, [[[0, 0], [1, 1]], [[1, 1], [0, 0]], [[0, 1], [1, 0]]]),
    ],
    opts: { batchDims: 1 },
    expected: E([[0, 3], [7, 4], [9, 10]], [3, 2]),
  },
  // Output-size example: InputTensor {3,4,5,6,7} (InputDimensionCount 5), IndicesTensor
  // {1,1,1,2,3} with IndicesDimensionCount 3 -> meaningful {1,2,3}; OutputTensor {1,1,2,6,7}
  // -> meaningful {1,2,6,7} (indices.shape[:-1] + input.shape[3:]).
  shapeOnlyGatherND(DML, 'OutputTensor.Sizes example (shape only)',
    [3, 4, 5, 6, 7], [1, 2, 3], 0, [1, 2, 6, 7]),
];

export default seedExamples;
