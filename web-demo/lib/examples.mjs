// The examples the editor can load: every seed example of the specifications
// (common/seed-examples.mjs, grouped by op), a few starters for what the seeds do not show
// (they have no tf.gather example, nor out-of-range modes, nor block-quantized tables), the
// scatters' examples (lib/scatter-examples.mjs) and the fused gather-reduce's
// (lib/bag-examples.mjs). A preset is
//   { id, op, title, source, seed: the seed example or null, url?, expected?, byHand?,
//     load(): { data, indices, attrs, scales?, zeroPoints?, updates? } }
// where load() may build large tensors (the shape-only seeds), so it runs only when chosen.
// gatherBlockQuantized's presets also give its scales ({ data, shape }: a Float32Array, or
// float16 / bfloat16 bits as attrs.scaleType says) and zero points (or null); the scatters' their
// updates (scatter's src as a value: a rank-0 tensor), their document's url and the output worked
// out by hand (expected); embeddingBag's and segmentReduce's their bags and reduction as
// attrs.bag (lib/bag-ops.mjs), segmentReduce's indices null, and for max with returnIndices the
// rows worked out by hand (expectedMaxIndices); byHand: from a document that prints no output for
// these values (its table is random, or it gives a formula), so the output was worked out by hand.
import { opNamed } from '../../js/ops/index.mjs';
import { encodeScales } from './quantized.mjs';
import { SCATTER_EXAMPLES } from './scatter-examples.mjs';
import { BAG_EXAMPLES } from './bag-examples.mjs';
import { bagAttrs } from './bag-ops.mjs';
import { REDUCE_ALIASES } from './scatter-ops.mjs';

const I32 = Int32Array;
const copy = (x) => ({ data: x.data.slice(), shape: x.shape.slice() });
const F32 = Float32Array;
const t = (Type, values, shape) => ({ data: Type.from(values), shape });
const iota = (n, from = 1) => Array.from({ length: n }, (_, i) => i + from);

export const OPS = ['gather', 'gatherND', 'take', 'gatherBlockQuantized', 'scatter', 'scatterND', 'indexReduce', 'tensorScatter',
  'embeddingBag', 'segmentReduce'];
export const OP_LABEL = {
  gather: 'gather (torch.gather)', gatherND: 'gatherND (tf.gather_nd)', take: 'take (tf.gather)',
  gatherBlockQuantized: 'gatherBlockQuantized (com.microsoft.GatherBlockQuantized)',
  scatter: 'scatter (torch.scatter, scatter_reduce)', scatterND: 'scatterND (ONNX ScatterND)',
  indexReduce: 'indexReduce (torch.index_add, index_reduce)', tensorScatter: 'tensorScatter (ONNX TensorScatter)',
  embeddingBag: 'embeddingBag (torch.nn.functional.embedding_bag)', segmentReduce: 'segmentReduce (torch.segment_reduce, tf.math.segment_*)',
};

/** Attributes of a call, with the defaults the editor shows (axis: `axis` when given apart). */
function attrsOf(opts = {}, dim, axis) {
  const reduce = opts.reduce ?? 'none';
  return {
    dim: dim ?? 0,
    axis: axis ?? opts.axis ?? 0,
    batchDims: opts.batchDims ?? 0,
    outOfRange: opts.outOfRange ?? 'error',
    // gatherBlockQuantized's (the editor shows them for that op only)
    quantType: opts.quantType ?? 'uint8',
    bits: opts.bits ?? 4,
    blockSize: opts.blockSize ?? 128,
    gatherAxis: opts.gatherAxis ?? 0,
    quantizeAxis: opts.quantizeAxis ?? -1,
    scaleType: opts.scaleType ?? 'float32',
    // the scatters' (torch's reduction names shown as the editor's)
    reduce: REDUCE_ALIASES[reduce] ?? reduce,
    includeSelf: opts.includeSelf ?? true,
    mode: opts.mode ?? 'linear',
  };
}

const copyOrNull = (x) => x && copy(x);

/** A scatter example's call, fresh (scatter's src as a value becomes a rank-0 tensor of the data's type). */
function loadScatter(ex) {
  const updates = typeof ex.updates === 'number' ? { data: ex.data.data.constructor.of(ex.updates), shape: [] } : copy(ex.updates);
  return { data: copy(ex.data), indices: copyOrNull(ex.indices), updates, attrs: attrsOf(ex.opts, ex.dim, ex.axis) };
}

/** A fused gather-reduce example's call, fresh: its outOfRange and axis as the other ops', the rest as attrs.bag. */
function loadBag(ex) {
  const attrs = attrsOf({ outOfRange: ex.opts.outOfRange, axis: ex.opts.axis });
  attrs.bag = bagAttrs(ex.op, ex.opts);
  return { data: copy(ex.data), indices: copyOrNull(ex.indices), attrs };
}

// ---- block-quantized tables, built from their codes ----
/** Codes (flat, row-major, each row of `cols`) packed `8 / bits` a byte along each row, lowest first. */
function packRows(codes, cols, bits) {
  const per = 8 / bits;
  const rowBytes = Math.ceil(cols / per);
  const rows = codes.length / cols;
  const out = new Uint8Array(rows * rowBytes);
  codes.forEach((v, i) => {
    const r = Math.floor(i / cols);
    const c = i % cols;
    out[r * rowBytes + Math.floor(c / per)] |= (v & ((1 << bits) - 1)) << ((c % per) * bits);
  });
  return out;
}
/** 4-bit codes packed two a byte, flat, element 0 in the low nibble (int4 codes as -8..7). */
function packNibbles(codes) {
  const out = new Uint8Array(Math.ceil(codes.length / 2));
  codes.forEach((v, i) => { out[i >> 1] |= (v & 15) << ((i & 1) * 4); });
  return out;
}
const grid = (rows, cols, f) => Array.from({ length: rows * cols }, (_, i) => f(Math.floor(i / cols), i % cols));

const QUANTIZED = [
  {
    title: "4-bit table (6 × 24 codes, blocks of 16): rows 4, -1 and 1, dequantized as they are gathered",
    data: { data: packRows(grid(6, 24, (r, c) => (r * 5 + c * 3 + ((c * c) >> 2)) % 16), 24, 4), shape: [6, 12] },
    indices: t(I32, [4, -1, 1], [3]),
    scales: { values: [0.5, 0.25, 0.25, 1, 1, 0.5, 0.125, 0.5, 0.5, 2, 0.25, 0.125], shape: [6, 2] },
    zeroPoints: null,
    opts: { bits: 4, blockSize: 16 },
  },
  {
    title: 'int4 codes with zero points and float16 scales, a 2-D index tensor',
    data: { data: packNibbles(grid(4, 20, (r, c) => ((r * 7 + c * 5) % 16) - 8)), shape: [4, 20] },
    indices: t(I32, [3, 0, 2, 3], [2, 2]),
    scales: { values: [0.5, 0.25, 0.125, 1, 0.25, 0.5, 2, 0.75], shape: [4, 2] },
    zeroPoints: { data: packNibbles([1, -2, 0, 3, -1, 2, 0, -3]), shape: [4, 2] },
    opts: { quantType: 'int4', blockSize: 16, scaleType: 'float16' },
  },
  {
    title: "2-bit codes with zero points, columns (gatherAxis 1), outOfRange 'zero'",
    data: { data: packRows(grid(3, 20, (r, c) => (r + c * 3 + (c >> 2)) % 4), 20, 2), shape: [3, 5] },
    indices: t(I32, [0, 19, 25, -4], [4]),
    scales: { values: [0.5, 1, 0.25, 2, 1, 0.5], shape: [3, 2] },
    zeroPoints: { data: packRows([1, 2, 2, 1, 3, 0], 2, 2), shape: [3, 1] },
    opts: { bits: 2, blockSize: 16, gatherAxis: 1, outOfRange: 'zero' },
  },
];

/** A quantized preset's tensors, fresh (the editor may keep them). */
function loadQuantized(q) {
  const attrs = attrsOf(q.opts);
  return {
    data: copy(q.data), indices: copy(q.indices), attrs,
    scales: { data: encodeScales(q.scales.values, attrs.scaleType === 'float32' ? 'float32' : attrs.scaleType), shape: q.scales.shape.slice() },
    zeroPoints: q.zeroPoints && copy(q.zeroPoints),
  };
}

const STARTERS = [
  {
    op: 'take', title: 'Rows by index, a negative one counts from the end',
    data: t(I32, iota(9), [3, 3]), indices: t(I32, [2, -3, 1], [3]), opts: { axis: 0 },
  },
  {
    op: 'take', title: 'Columns (axis 1) by a 2-D index tensor',
    data: t(I32, iota(12), [3, 4]), indices: t(I32, [3, 0, 1, 1], [2, 2]), opts: { axis: 1 },
  },
  {
    op: 'take', title: 'batchDims 1: each row picks its own columns',
    data: t(F32, [1.5, 2.5, 3.5, 4.5, 5.5, 6.5], [2, 3]), indices: t(I32, [2, 0, 1, 1], [2, 2]), opts: { axis: 1, batchDims: 1 },
  },
  {
    op: 'take', title: "outOfRange 'clamp': -9 wraps once then clamps, 5 clamps",
    data: t(I32, [10, 20, 30, 40], [4]), indices: t(I32, [5, -1, -9, 2], [4]), opts: { outOfRange: 'clamp' },
  },
  {
    op: 'gatherND', title: "outOfRange 'zero': a bad row index gives a row of zeros",
    data: t(F32, iota(6), [3, 2]), indices: t(I32, [0, 7, -1], [3, 1]), opts: { outOfRange: 'zero' },
  },
  {
    op: 'gather', title: 'gather along dim 0 of a 3-D tensor',
    data: t(I32, iota(12), [2, 3, 2]), indices: t(I32, [1, 0, 0, 1, 1, 1], [1, 3, 2]), dim: 0,
  },
];


/** All presets: seeds first (in their order), then the starters, the quantized tables, the scatters and the fused gather-reduce. */
export function presets(seedExamples) {
  const list = seedExamples.map((ex, i) => ({
    id: `seed-${i}`, op: ex.op, title: ex.title, source: ex.source, seed: ex, seedIndex: i,
    load() {
      // The arguments by their parameter names in the op's descriptor (js/ops/).
      const desc = opNamed(ex.op);
      const arg = (name) => { const i = desc.params.indexOf(name); return i < 0 ? undefined : ex.args[i]; };
      const data = arg(desc.names.data), indices = arg(desc.names.indices), scales = arg('scales');
      // Large shape-only tensors are not copied: the editor never changes them in place.
      const attrs = attrsOf(ex.opts, arg('dim'));
      if (!scales) return { data, indices, attrs };
      if (!(scales.data instanceof Float32Array) && !ex.opts?.scaleType) attrs.scaleType = 'float16';
      return { data, indices, attrs, scales, zeroPoints: ex.opts?.zeroPoints ?? null };
    },
  }));
  STARTERS.forEach((s, i) => list.push({
    id: `starter-${i}`, op: s.op, title: s.title, source: 'demo starter', seed: null,
    load: () => ({ data: copy(s.data), indices: copy(s.indices), attrs: attrsOf(s.opts, s.dim) }),
  }));
  QUANTIZED.forEach((q, i) => list.push({
    id: `quantized-${i}`, op: 'gatherBlockQuantized', title: q.title, source: 'demo starter', seed: null,
    load: () => loadQuantized(q),
  }));
  // ids scatter-<n> for every scatter op's example, in the order of lib/scatter-examples.mjs
  SCATTER_EXAMPLES.forEach((ex, i) => list.push({
    id: `scatter-${i}`, op: ex.op, title: ex.title, source: ex.source, url: ex.url, seed: null, expected: ex.expected,
    load: () => loadScatter(ex),
  }));
  // ids bag-<n> for embeddingBag's and segmentReduce's, in the order of lib/bag-examples.mjs
  BAG_EXAMPLES.forEach((ex, i) => list.push({
    id: `bag-${i}`, op: ex.op, title: ex.title, source: ex.source, url: ex.url, byHand: ex.byHand ?? false, seed: null,
    expected: ex.expected, expectedMaxIndices: ex.expectedMaxIndices, expectedGrad: ex.expectedGrad, load: () => loadBag(ex),
  }));
  return list;
}
