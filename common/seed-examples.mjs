// Every worked example of the specifications the library implements, as data. Each example
// names its document (`source`) and the document's public page (`url`).
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
// Letter mapping (the tf.gather_nd page uses strings as data):
//   'a' -> 1, 'b' -> 2, 'c' -> 3, 'd' -> 4
//   a letter with a digit suffix n -> 10 * (n + 1) + letter:
//   'a0' -> 11, 'b0' -> 12, 'c0' -> 13, 'd0' -> 14,  'a1' -> 21, 'b1' -> 22, 'c1' -> 23, 'd1' -> 24
//
// Plain data and common/shape.mjs only: the web demo imports it too.
import { numel } from './shape.mjs';

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

// The documents. The tf.gather_nd examples are those of TensorFlow's page up to version 2.7
// (later versions of the page show others).
const TF = { source: 'TensorFlow tf.gather_nd', url: 'https://www.tensorflow.org/versions/r2.7/api_docs/python/tf/gather_nd' };
const OV = {
  source: 'OpenVINO GatherND-8',
  url: 'https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/movement/gather-nd-8.html',
};
const TORCH = { source: 'PyTorch torch.gather', url: 'https://pytorch.org/docs/stable/generated/torch.gather.html' };
const DML = {
  source: 'DirectML DML_GATHER_ND1_OPERATOR_DESC',
  url: 'https://learn.microsoft.com/en-us/windows/win32/api/directml/ns-directml-dml_gather_nd1_operator_desc',
};

/** Deterministic valid data for a shape-only gatherND example (lazy). */
function shapeOnlyGatherND(doc, title, dataShape, indicesShape, batchDims, outShape) {
  let built = null;
  const build = () => {
    const n = numel(dataShape);
    const data = new Float32Array(n);
    for (let i = 0; i < n; i++) data[i] = i % 65521; // exact in float32
    const m = numel(indicesShape);
    const K = indicesShape[indicesShape.length - 1];
    const ind = new Int32Array(m);
    for (let i = 0; i < m; i++) {
      const s = dataShape[batchDims + (i % K)];
      ind[i] = (i * 7 + 3) % s; // valid: 0 <= ind < s
    }
    return [{ data, shape: dataShape.slice() }, { data: ind, shape: indicesShape.slice() }];
  };
  return {
    ...doc,
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
  // ---------------------------------------------------------------- TensorFlow tf.gather_nd
  {
    ...TF, title: 'Simple indexing into a matrix', op: 'gatherND',
    args: [T(F32, TF_M), T(I32, [[0, 0], [1, 1]])], opts: {},
    expected: E(['a', 'd']),
  },
  {
    ...TF, title: 'Slice indexing into a matrix', op: 'gatherND',
    args: [T(F32, TF_M), T(I32, [[1], [0]])], opts: {},
    expected: E([['c', 'd'], ['a', 'b']]),
  },
  {
    ...TF, title: 'Indexing into a 3-tensor (#1)', op: 'gatherND',
    args: [T(F32, TF_3), T(I32, [[1]])], opts: {},
    expected: E([[['a1', 'b1'], ['c1', 'd1']]]),
  },
  {
    ...TF, title: 'Indexing into a 3-tensor (#2)', op: 'gatherND',
    args: [T(F32, TF_3), T(I32, [[0, 1], [1, 0]])], opts: {},
    expected: E([['c0', 'd0'], ['a1', 'b1']]),
  },
  {
    ...TF, title: 'Indexing into a 3-tensor (#3)', op: 'gatherND',
    args: [T(F32, TF_3), T(I32, [[0, 0, 1], [1, 0, 1]])], opts: {},
    expected: E(['b0', 'b1']),
  },
  {
    ...TF, title: 'Batched indexing into a matrix', op: 'gatherND',
    args: [T(F32, TF_M), T(I32, [[[0, 0]], [[0, 1]]])], opts: {},
    expected: E([['a'], ['b']]),
  },
  {
    ...TF, title: 'Batched slice indexing into a matrix', op: 'gatherND',
    args: [T(F32, TF_M), T(I32, [[[1]], [[0]]])], opts: {},
    expected: E([[['c', 'd']], [['a', 'b']]]),
  },
  {
    ...TF, title: 'Batched indexing into a 3-tensor (#1)', op: 'gatherND',
    args: [T(F32, TF_3), T(I32, [[[1]], [[0]]])], opts: {},
    expected: E([[[['a1', 'b1'], ['c1', 'd1']]],
                 [[['a0', 'b0'], ['c0', 'd0']]]]),
  },
  {
    ...TF, title: 'Batched indexing into a 3-tensor (#2)', op: 'gatherND',
    args: [T(F32, TF_3), T(I32, [[[0, 1], [1, 0]], [[0, 0], [1, 1]]])], opts: {},
    expected: E([[['c0', 'd0'], ['a1', 'b1']],
                 [['a0', 'b0'], ['c1', 'd1']]]),
  },
  {
    ...TF, title: 'Batched indexing into a 3-tensor (#3)', op: 'gatherND',
    args: [T(F32, TF_3), T(I32, [[[0, 0, 1], [1, 0, 1]], [[0, 1, 1], [1, 1, 0]]])], opts: {},
    expected: E([['b0', 'b1'], ['d0', 'c1']]),
  },
  {
    ...TF, title: 'Batched params and indices, batch_dims = 1 (#1)', op: 'gatherND',
    args: [T(F32, TF_3), T(I32, [[1], [0]])], opts: { batchDims: 1 },
    expected: E([['c0', 'd0'], ['a1', 'b1']]),
  },
  {
    ...TF, title: 'Batched params and indices, batch_dims = 1 (#2)', op: 'gatherND',
    args: [T(F32, TF_3), T(I32, [[[1]], [[0]]])], opts: { batchDims: 1 },
    expected: E([[['c0', 'd0']], [['a1', 'b1']]]),
  },
  {
    ...TF, title: 'Batched params and indices, batch_dims = 1 (#3)', op: 'gatherND',
    args: [T(F32, TF_3), T(I32, [[[1, 0]], [[0, 1]]])], opts: { batchDims: 1 },
    expected: E([['c0'], ['b1']]),
  },

  // ---------------------------------------------------------------- OpenVINO GatherND-8
  {
    ...OV, title: 'Example 1: gathering elements', op: 'gatherND',
    args: [T(I32, [[1, 2], [3, 4]]), T(I32, [[0, 0], [1, 0]])], opts: {},
    expected: E([1, 3]),
  },
  {
    ...OV, title: 'Example 2: gathering slices', op: 'gatherND',
    args: [T(I32, [[1, 2], [3, 4]]), T(I32, [[1], [0]])], opts: {},
    expected: E([[3, 4], [1, 2]]),
  },
  {
    ...OV, title: 'Example 3: indices with leading dimensions', op: 'gatherND',
    args: [T(I32, [[1, 2], [3, 4]]), T(I32, [[[1]], [[0]]])], opts: {},
    expected: E([[[3, 4]], [[1, 2]]]),
  },
  {
    ...OV, title: 'Example 4: elements with batch_dims = 1', op: 'gatherND',
    args: [T(I32, [[1, 2], [3, 4]]), T(I32, [[1], [0]])], opts: { batchDims: 1 },
    expected: E([2, 3], [2]),
  },
  {
    ...OV, title: 'Example 5: slices with batch_dims = 1', op: 'gatherND',
    args: [
      T(I32, [[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]],
              [[13, 14, 15, 16], [17, 18, 19, 20], [21, 22, 23, 24]]]),
      T(I32, [[1], [0]]),
    ],
    opts: { batchDims: 1 },
    expected: E([[5, 6, 7, 8], [13, 14, 15, 16]], [2, 4]),
  },
  {
    ...OV, title: 'Example 6: batch_dims = 2 with leading dimensions', op: 'gatherND',
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
    ...OV, title: 'Example 7: batch_dims = 3', op: 'gatherND',
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

  // ---------------------------------------------------------------- PyTorch torch.gather
  {
    ...TORCH, title: 'torch.gather(t, 1, [[0, 0], [1, 0]])', op: 'gather',
    args: [T(I32, [[1, 2], [3, 4]]), 1, T(I32, [[0, 0], [1, 0]])], opts: {},
    expected: E([[1, 1], [4, 3]]),
  },

  // ---------------------------------------------------------------- DirectML GATHER_ND1
  // DirectML pads tensors with leading 1 dims to a common DimensionCount; here tensors use only
  // the meaningful dims (the last InputDimensionCount / IndicesDimensionCount dims), and the
  // expected output shape is the output's Sizes without the padding leading 1s.
  {
    ...DML, title: 'Example 1. 1D remapping', op: 'gatherND',
    args: [T(F32, [[0, 1], [2, 3]]), T(U32, [[1], [0]])], opts: { batchDims: 0 },
    expected: E([[2, 3], [0, 1]]),
  },
  {
    // InputTensor Sizes {1,3,2,2} with InputDimensionCount 3 -> {3,2,2}; IndicesTensor
    // {1,3,2,2} with IndicesDimensionCount 3 -> {3,2,2}; OutputTensor {1,1,3,2} -> {3,2}.
    ...DML, title: 'Example 2. 2D remapping with batch count', op: 'gatherND',
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
