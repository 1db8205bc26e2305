// The masks section's examples: the worked examples of the documents the four mask ops follow
// (ONNX NonZero and Compress, torch.nonzero, torch.masked_select, Tensor.masked_scatter,
// tf.where, tf.boolean_mask) and a few demo starters (what counts as true, a detector's anchors,
// flash-attention's unpad and pad). Each names its source and, from a document, its page.
// `expected` is the output as the document prints it, or worked out by hand from the op's
// definition (byHand), never copied from the library's output: the page's self-check compares
// the library with it, and with common/reference-mask.mjs.
//
// An example: { op, title, source (where it is from), url?, byHand?, x, mask (compress: the
// condition; nonZero: none), src (maskedScatter's source), opts: the call's options, expected:
// { data, shape } }.
// Plain data only: tests/browsers/demo.test.mjs imports it in Node too.
import { E, T } from './scatter-examples.mjs';

const I32 = Int32Array;
const F32 = Float32Array;
const U8 = Uint8Array;
/** An expected float32 output: the printed decimals as float32 rounds them. */
const E32 = (nested) => {
  const e = E(nested);
  return { ...e, data: e.data.map(Math.fround) };
};

const ONNX_NONZERO = { source: 'ONNX NonZero', url: 'https://onnx.ai/onnx/operators/onnx__NonZero.html' };
const TORCH_NONZERO = { source: 'PyTorch torch.nonzero', url: 'https://pytorch.org/docs/stable/generated/torch.nonzero.html' };
const TF_WHERE = { source: 'TensorFlow tf.where', url: 'https://www.tensorflow.org/api_docs/python/tf/where' };
const TF_BOOLEAN_MASK = { source: 'TensorFlow tf.boolean_mask', url: 'https://www.tensorflow.org/api_docs/python/tf/boolean_mask' };
const TORCH_MASKED_SELECT = { source: 'PyTorch torch.masked_select', url: 'https://pytorch.org/docs/stable/generated/torch.masked_select.html' };
const ONNX_COMPRESS = { source: 'ONNX Compress', url: 'https://onnx.ai/onnx/operators/onnx__Compress.html' };
const TORCH_MASKED_SCATTER = { source: 'PyTorch Tensor.masked_scatter_', url: 'https://pytorch.org/docs/stable/generated/torch.Tensor.masked_scatter_.html' };
const BERT_PADDING = { source: "flash-attention's bert_padding.py", url: 'https://github.com/Dao-AILab/flash-attention/blob/main/flash_attn/bert_padding.py', byHand: true };
const STARTER = { source: 'demo starter', byHand: true };

// ONNX Compress's input, shared by its four examples.
const ONNX_INPUT = [[1, 2], [3, 4], [5, 6]];
// torch.masked_select's x (torch.randn(3, 4), as its page prints it) and mask = x.ge(0.5).
const TORCH_X = [[0.3552, -2.3825, -0.8297, 0.3477], [-1.2035, 1.2252, 0.5002, 0.6248], [0.1307, -2.0608, 0.1244, 2.0139]];
// A padded batch of 2 sequences of 4 tokens, hidden size 2 (token t of sequence b: 10b + t, twice);
// the attention mask: 3 tokens, then 2.
const HIDDEN = [[[0, 0.5], [1, 1.5], [2, 2.5], [3, 3.5]], [[10, 10.5], [11, 11.5], [12, 12.5], [13, 13.5]]];
const ATTENTION = [[1, 1, 1, 0], [1, 1, 0, 0]];
const UNPADDED = [[0, 0.5], [1, 1.5], [2, 2.5], [10, 10.5], [11, 11.5]];

export const MASK_EXAMPLES = [
  // ---- nonZero: ONNX NonZero, torch.nonzero, tf.where(x)
  {
    op: 'nonZero', title: 'ONNX layout [rank, count]: a row a dimension, int64', ...ONNX_NONZERO,
    x: T(I32, [[1, 0], [1, 1]]), opts: { indexType: 'int64' },
    expected: E([[0, 1, 1], [0, 0, 1]]),
  },
  {
    op: 'nonZero', title: "torch layout [count, rank]: 1-D", ...TORCH_NONZERO,
    x: T(I32, [1, 1, 1, 0, 1]), opts: { layout: 'torch' },
    expected: E([[0], [1], [2], [4]]),
  },
  {
    op: 'nonZero', title: 'torch layout: the diagonal of a float matrix (-0.4 is not zero)', ...TORCH_NONZERO,
    x: T(F32, [[0.6, 0, 0, 0], [0, 0.4, 0, 0], [0, 0, 1.2, 0], [0, 0, 0, -0.4]]), opts: { layout: 'torch' },
    expected: E([[0, 0], [1, 1], [2, 2], [3, 3]]),
  },
  {
    op: 'nonZero', title: 'tf.where(x) with one argument: the coordinates of the true elements', ...TF_WHERE,
    x: T(U8, [1, 0, 0, 1]), opts: { layout: 'torch' },
    expected: E([[0], [3]]),
  },
  {
    op: 'nonZero', title: 'What counts as true: NaN is, -0 is not', ...STARTER,
    // 0 and -0 are zero; NaN, 1.5 and -2 are not
    x: T(F32, [[0, -0, NaN], [1.5, -2, 0]]), opts: {},
    expected: E([[0, 1, 1], [2, 0, 1]]),
  },
  // ---- booleanMask: tf.boolean_mask, torch.masked_select
  {
    op: 'booleanMask', title: '1-D', ...TF_BOOLEAN_MASK,
    x: T(I32, [0, 1, 2, 3]), mask: T(U8, [1, 0, 1, 0]), opts: {},
    expected: E([0, 2]),
  },
  {
    op: 'booleanMask', title: '2-D tensor, 1-D mask: rows 0 and 2', ...TF_BOOLEAN_MASK,
    x: T(I32, ONNX_INPUT), mask: T(U8, [1, 0, 1]), opts: {},
    expected: E([[1, 2], [5, 6]]),
  },
  {
    op: 'booleanMask', title: 'masked_select: a mask of the whole shape (x ≥ 0.5)', ...TORCH_MASKED_SELECT,
    x: T(F32, TORCH_X), mask: T(U8, [[0, 0, 0, 0], [0, 1, 1, 1], [0, 0, 0, 1]]), opts: {},
    expected: E32([1.2252, 0.5002, 0.6248, 2.0139]),
  },
  {
    op: 'booleanMask', title: 'unpad_input: the real tokens of a padded batch [2, 4, 2] by its attention mask [2, 4]', ...BERT_PADDING,
    x: T(F32, HIDDEN), mask: T(U8, ATTENTION), opts: {},
    expected: E(UNPADDED),
  },
  {
    op: 'booleanMask', title: 'axis 1: the columns where the mask is true, in every row', ...STARTER,
    x: T(I32, [[[0, 1], [2, 3], [4, 5]], [[6, 7], [8, 9], [10, 11]]]), mask: T(U8, [0, 1, 1]), opts: { axis: 1 },
    expected: E([[[2, 3], [4, 5]], [[8, 9], [10, 11]]]),
  },
  // ---- compress: ONNX Compress (its four examples), numpy.compress
  {
    op: 'compress', title: 'axis 0: rows 1 and 2', ...ONNX_COMPRESS,
    x: T(F32, ONNX_INPUT), mask: T(U8, [0, 1, 1]), opts: { axis: 0 },
    expected: E([[3, 4], [5, 6]]),
  },
  {
    op: 'compress', title: 'axis 1: column 1', ...ONNX_COMPRESS,
    x: T(F32, ONNX_INPUT), mask: T(U8, [0, 1]), opts: { axis: 1 },
    expected: E([[2], [4], [6]]),
  },
  {
    op: 'compress', title: 'no axis: the input flattened, a condition shorter than it', ...ONNX_COMPRESS,
    x: T(F32, ONNX_INPUT), mask: T(U8, [0, 1, 0, 0, 1]), opts: {},
    expected: E([2, 5]),
  },
  {
    op: 'compress', title: 'axis -1: counted from the end', ...ONNX_COMPRESS,
    x: T(F32, ONNX_INPUT), mask: T(U8, [0, 1]), opts: { axis: -1 },
    expected: E([[2], [4], [6]]),
  },
  {
    op: 'compress', title: "A detector's anchors over a threshold: [cx, cy, w, h, score] x 8 anchors, axis 1", ...STARTER,
    // the condition is score > 0.5: anchors 1, 4 and 5
    x: T(F32, [
      [10, 20, 30, 40, 50, 60, 70, 80],
      [15, 15, 15, 15, 45, 45, 45, 45],
      [4, 8, 4, 4, 12, 12, 4, 4],
      [4, 8, 4, 4, 16, 16, 4, 4],
      [0.125, 0.75, 0.25, 0.5, 0.875, 0.625, 0.0625, 0.25],
    ]),
    mask: T(U8, [0, 1, 0, 0, 1, 1, 0, 0]), opts: { axis: 1 },
    expected: E([[20, 50, 60], [15, 45, 45], [8, 12, 12], [8, 16, 16], [0.75, 0.875, 0.625]]),
  },
  // ---- maskedScatter: Tensor.masked_scatter
  {
    op: 'maskedScatter', title: "masked_scatter: self [5] expanded to the mask's [2, 5] first", ...TORCH_MASKED_SCATTER,
    x: T(I32, [[0, 0, 0, 0, 0], [0, 0, 0, 0, 0]]), mask: T(U8, [[0, 0, 0, 1, 1], [1, 1, 0, 1, 1]]),
    src: T(I32, [[0, 1, 2, 3, 4], [5, 6, 7, 8, 9]]), opts: {},
    expected: E([[0, 0, 0, 0, 1], [2, 3, 0, 4, 5]]),
  },
  {
    op: 'maskedScatter', title: "pad_input: the unpadded tokens back into zeros [2, 4, 2] (the mask expanded over the hidden size)", ...BERT_PADDING,
    x: T(F32, [[[0, 0], [0, 0], [0, 0], [0, 0]], [[0, 0], [0, 0], [0, 0], [0, 0]]]),
    mask: T(U8, ATTENTION.map((row) => row.map((m) => [m, m]))),
    src: T(F32, UNPADDED), opts: {},
    expected: E([[[0, 0.5], [1, 1.5], [2, 2.5], [0, 0]], [[10, 10.5], [11, 11.5], [0, 0], [0, 0]]]),
  },
  {
    op: 'maskedScatter', title: 'A longer source: only its first values are used, in order', ...STARTER,
    x: T(I32, [1, 2, 3, 4, 5]), mask: T(U8, [0, 1, 0, 1, 0]), src: T(I32, [9, 8, 7, 6]), opts: {},
    expected: E([1, 9, 3, 8, 5]),
  },
];
