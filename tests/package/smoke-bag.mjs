// The fused gather-reduce in the smoke suite (tests/package/smoke.mjs), wherever it runs:
// embeddingBag in each form of its bags and each mode, with weights, padding, max's indices and a
// quantized table on a resident copy, and segmentReduce in each form. Every expected value is
// worked out by hand in the comment beside it (the documents' own examples are cited), not taken
// from the library. Portable (no node: imports).

const I32 = Int32Array;
const F32 = Float32Array;
const t = (Type, values, shape) => ({ data: Type.from(values), shape });
// rows 0..4 of a [5, 2] table: [0, 1], [2, 3], [4, 5], [6, 7], [8, 9]
const table = () => t(F32, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [5, 2]);

/** [name, (api) => result tensor, expected { data, shape }, expected max indices?]. */
const CASES = [
  // offsets [0, 4] as in torch.nn.functional.embedding_bag's example: bags {1, 2, 4, 3} and
  // {2, 1, 0}, mode 'sum': [2+4+8+6, 3+5+9+7], [4+2+0, 5+3+1]
  ['embeddingBag: offsets, sum',
    (api) => api.embeddingBag(table(), t(I32, [1, 2, 4, 3, 2, 1, 0], [7]), { offsets: [0, 4], mode: 'sum' }),
    { data: [20, 24, 6, 9], shape: [2, 2] }],
  // 2-D indices, the default mean: (row 0 + row 4) / 2, (row 1 + row 3) / 2
  ['embeddingBag: 2-D, mean',
    (api) => api.embeddingBag(table(), t(I32, [0, 4, 1, 3], [2, 2])),
    { data: [4, 5, 4, 5], shape: [2, 2] }],
  // segment ids [0, 0, 2] (segment 1 empty: zeros), sqrtn: (row 1 + row 2) / sqrt(2) = [6, 8] /
  // 1.4142135 (float32's sqrt 2): 4.2426405, 5.656854; row 4 / 1
  ['embeddingBag: segment ids, sqrtn, an empty bag',
    (api) => api.embeddingBag(table(), t(I32, [1, 2, 4], [3]), { segmentIds: [0, 0, 2], mode: 'sqrtn' }),
    { data: [Math.fround(6 / Math.fround(Math.SQRT2)), Math.fround(8 / Math.fround(Math.SQRT2)), 0, 0, 8, 9], shape: [3, 2] }],
  // weights 2 and 0.5 on rows 3 and 2, sum: [12 + 2, 14 + 2.5]; padding row 1 skipped in bag 1: row 0
  ['embeddingBag: per-sample weights, padding',
    (api) => api.embeddingBag(table(), t(I32, [3, 2, 1, 0], [4]), { offsets: [0, 2], mode: 'sum', paddingIdx: 1, perSampleWeights: F32.of(2, 0.5, 1, 1) }),
    { data: [14, 16.5, 0, 1], shape: [2, 2] }],
  // max with its rows: bag {1, 4, 2} -> row 4 both elements; bag {3, 0} -> row 3
  ['embeddingBag: max, returnIndices',
    (api) => api.embeddingBag(table(), t(I32, [1, 4, 2, 3, 0], [5]), { offsets: [0, 3], mode: 'max', returnIndices: true }),
    { data: [8, 9, 6, 7], shape: [2, 2] }, [4, 4, 3, 3]],
  // a uint4 table [2, 16], codes 2 (row 0) and 3 (row 1), scale 0.5 a row, no zero point: bag
  // {0, 1, 1} sums 1 + 1.5 + 1.5 = 4 in every column
  ['embeddingBag: a quantized table, resident',
    (api) => {
      const codes = api.upload({ data: new Uint8Array(16).fill(0x22, 0, 8).fill(0x33, 8), shape: [2, 16] }, { quantType: 'uint4' });
      try {
        return api.embeddingBag(codes, t(I32, [0, 1, 1], [3]), { offsets: [0], mode: 'sum', quantType: 'uint4', blockSize: 16,
          scales: t(F32, [0.5, 0.5], [2, 1]) });
      } finally {
        codes.dispose();
      }
    },
    { data: new Array(16).fill(4), shape: [1, 16] }],
  // the gradient of the first case's sum, bags {1, 2, 4, 3} and {2, 1, 0}, gradOutput [[1, 2],
  // [10, 20]]: rows 1 and 2 get both bags' rows, [11, 22]; row 0 bag 1's, [10, 20]; rows 3 and 4
  // bag 0's, [1, 2]
  ['embeddingBagBackward: offsets, sum',
    (api) => api.embeddingBagBackward(t(F32, [1, 2, 10, 20], [2, 2]), t(I32, [1, 2, 4, 3, 2, 1, 0], [7]), { offsets: [0, 4], mode: 'sum', numWeights: 5 }),
    { data: [10, 20, 11, 22, 11, 22, 1, 2, 1, 2], shape: [5, 2] }],
  // the second case's mean, 2-D bags {0, 4} and {1, 3}, gradOutput [[2, 4], [6, 8]]: each row gets
  // its bag's row over 2
  ['embeddingBagBackward: 2-D, mean',
    (api) => api.embeddingBagBackward(t(F32, [2, 4, 6, 8], [2, 2]), t(I32, [0, 4, 1, 3], [2, 2]), { numWeights: 5 }),
    { data: [1, 2, 3, 4, 0, 0, 3, 4, 1, 2], shape: [5, 2] }],
  // lengths [2, 0, 4] of [1, 2, 3, 4, 5, 6], max: max(1, 2) = 2; the empty segment keeps max's
  // identity, -Infinity (torch.segment_reduce without initial); max(3, 4, 5, 6) = 6
  ['segmentReduce: lengths, max, an empty segment',
    (api) => api.segmentReduce(t(F32, [1, 2, 3, 4, 5, 6], [6]), { reduce: 'max', lengths: [2, 0, 4] }),
    { data: [2, -Infinity, 6], shape: [3] }],
  // offsets [0, 1, 3] along axis 1 of [[1, 2, 3], [4, 5, 6]], mean with initial 3:
  // (3 + 1) / 1, (3 + 2 + 3) / 2; (3 + 4) / 1, (3 + 5 + 6) / 2
  ['segmentReduce: offsets, axis 1, mean, initial',
    (api) => api.segmentReduce(t(Float64Array, [1, 2, 3, 4, 5, 6], [2, 3]), { reduce: 'mean', offsets: [0, 1, 3], axis: 1, initial: 3 }),
    { data: [4, 4, 7, 7], shape: [2, 2] }],
  // tf.math.segment_sum's example: c = [[1,2,3,4], [4,3,2,1], [5,6,7,8]], ids [0, 0, 1]
  ['segmentReduce: segment ids, sum (TensorFlow example)',
    (api) => api.segmentReduce(t(F32, [1, 2, 3, 4, 4, 3, 2, 1, 5, 6, 7, 8], [3, 4]), { reduce: 'sum', segmentIds: I32.of(0, 0, 1) }),
    { data: [5, 5, 5, 5, 5, 6, 7, 8], shape: [2, 4] }],
];

const same = (a, b) => a.length === b.length && a.every((x, i) => Object.is(x, b[i]));
const values = (data) => Array.from(data, Number);

/** Runs the cases; { passed, total, failures }. */
export function bagSmoke(api) {
  const out = { passed: 0, total: CASES.length, failures: [] };
  for (const [name, run, want, indices] of CASES) {
    try {
      const r = run(api);
      const rows = indices && values(r.maxIndices?.data ?? []);
      if (same(values(r.data), want.data) && same(Array.from(r.shape), want.shape) && (!indices || same(rows, indices))) out.passed++;
      else out.failures.push(`${name}: got [${values(r.data)}] of shape [${Array.from(r.shape)}]${indices ? `, rows [${rows}]` : ''}`);
    } catch (e) {
      out.failures.push(`${name}: threw ${e.name}: ${e.message}`);
    }
  }
  return out;
}
