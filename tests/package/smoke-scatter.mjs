// The scatters in the smoke suite (tests/package/smoke.mjs), wherever it runs: one call or more of
// scatter (and its alias scatterElements), scatterND, indexReduce and tensorScatter, with
// repeated destinations, a value as src, int64 indices, 'drop', float16 bits, and two calls in
// place on a resident tensor. Every expected value is worked out by hand in the comment beside it
// (the documents' own examples are cited), not taken from the library.
// Portable (no node: imports).

const I32 = Int32Array;
const F32 = Float32Array;
const t = (Type, values, shape) => ({ data: Type.from(values), shape });

/** [name, () => result tensor, expected { data, shape }], run in this order. */
const CASES = [
  // A histogram: bins 0..4 of 0, 2, 2, 4, 2, 1, 0 (src a value, reduce 'add').
  ['scatter: histogram, src a number, reduce add',
    (api) => api.scatter(t(I32, [0, 0, 0, 0, 0], [5]), 0, t(I32, [0, 2, 2, 4, 2, 1, 0], [7]), 1, { reduce: 'add' }),
    { data: [2, 1, 3, 0, 1], shape: [5] }],
  // dim 1, int64 index: row 0 writes column 2 twice (1, then 2: the last wins); row 1 columns 0, 1.
  ['scatter: repeated destination, last write wins, int64 index',
    (api) => api.scatter(t(F32, [0, 0, 0, 0, 0, 0], [2, 3]), 1, { data: new BigInt64Array([2n, 2n, 0n, 1n]), shape: [2, 2] },
      t(F32, [1, 2, 3, 4], [2, 2])),
    { data: [0, 0, 2, 3, 4, 0], shape: [2, 3] }],
  // PyTorch torch.Tensor.scatter_reduce_'s example: 1 + 1 + 3, 2 + 2 + 4 + 6, 3 + 5, 4.
  ['scatter: torch scatter_reduce sum example',
    (api) => api.scatter(t(F32, [1, 2, 3, 4], [4]), 0, t(I32, [0, 1, 0, 1, 2, 1], [6]), t(F32, [1, 2, 3, 4, 5, 6], [6]), { reduce: 'sum' }),
    { data: [5, 14, 8, 4], shape: [4] }],
  // ONNX ScatterElements' example 2 (axis 1), in float64 so that 1.1 and 2.1 compare exactly.
  ['scatterElements: ONNX example 2',
    (api) => api.scatterElements(t(Float64Array, [1, 2, 3, 4, 5], [1, 5]), 1, t(I32, [1, 3], [1, 2]), t(Float64Array, [1.1, 2.1], [1, 2])),
    { data: [1, 1.1, 3, 2.1, 5], shape: [1, 5] }],
  // 'drop': index 5 is past the end and skipped, -1 wraps to 2.
  ['scatter: outOfRange drop',
    (api) => api.scatter(t(I32, [0, 0, 0], [3]), 0, t(I32, [0, 5, -1], [3]), t(I32, [1, 2, 3], [3]), { outOfRange: 'drop' }),
    { data: [1, 0, 3], shape: [3] }],
  // float16 bits: 1 + 0.5 + 0.5 = 2 (0x4000) at 0, 0 + 2 = 2 at 1; 0.5 is 0x3800, 1 is 0x3c00.
  ['scatter: float16 bits, reduce add',
    (api) => api.scatter(t(Uint16Array, [0x3c00, 0], [2]), 0, t(I32, [0, 0, 1], [3]), t(Uint16Array, [0x3800, 0x3800, 0x4000], [3]),
      { reduce: 'add', dtype: 'float16' }),
    { data: [0x4000, 0x4000], shape: [2] }],
  // Element updates, reduce 'none': position 1 gets 7, then 9 (the last wins); -1 is position 3.
  ['scatterND: repeated index, last write wins',
    (api) => api.scatterND(t(I32, [10, 20, 30, 40], [4]), t(I32, [1, -1, 1], [3, 1]), t(I32, [7, 8, 9], [3])),
    { data: [10, 9, 30, 8], shape: [4] }],
  // Row slices, reduce 'add': row 3 gets 1 + 10 + 50, 1 + 20 + 60; row 0 gets 1 + 30, 1 + 40.
  ['scatterND: slices, reduce add',
    (api) => api.scatterND(t(I32, [1, 1, 1, 1, 1, 1, 1, 1], [4, 2]), t(I32, [3, 0, 3], [3, 1]), t(I32, [10, 20, 30, 40, 50, 60], [3, 2]),
      { reduce: 'add' }),
    { data: [31, 41, 1, 1, 1, 1, 61, 81], shape: [4, 2] }],
  // TensorFlow tf.math.unsorted_segment_sum's example: rows 0 and 2 into segment 0, row 1 into 1.
  ['indexReduce: segment sum',
    (api) => api.indexReduce(t(I32, [0, 0, 0, 0, 0, 0, 0, 0], [2, 4]), 0, t(I32, [0, 1, 0], [3]),
      t(I32, [1, 2, 3, 4, 5, 6, 7, 8, 4, 3, 2, 1], [3, 4]), { reduce: 'add' }),
    { data: [5, 5, 5, 5, 5, 6, 7, 8], shape: [2, 4] }],
  // max without the input's values: row 2 = max(1, 7), max(9, 3); row 0 = 4, 4; row 1 keeps 5, 5.
  ['indexReduce: max, includeSelf false',
    (api) => api.indexReduce(t(F32, [5, 5, 5, 5, 5, 5], [3, 2]), 0, t(I32, [2, 0, 2], [3]), t(F32, [1, 9, 4, 4, 7, 3], [3, 2]),
      { reduce: 'max', includeSelf: false }),
    { data: [4, 4, 5, 5, 7, 9], shape: [3, 2] }],
  // axis 1, a [2, 2] index (source [2, 2, 2]): row 0: column 0 += 1, column 2 += 2 + 3 + 4;
  // row 1: column 0 += 5, column 2 += 6 + 7 + 8.
  ['indexReduce: axis 1, 2-D index',
    (api) => api.indexReduce(t(I32, [0, 0, 0, 0, 0, 0], [2, 3]), 1, t(I32, [0, 2, 2, 2], [2, 2]), t(I32, [1, 2, 3, 4, 5, 6, 7, 8], [2, 2, 2]),
      { reduce: 'add' }),
    { data: [1, 0, 9, 5, 0, 21], shape: [2, 3] }],
  // The KV-cache write, 'circular': batch 0 from position 3 (then 0), batch 1 at 1 and 2.
  ['tensorScatter: circular',
    (api) => api.tensorScatter(t(I32, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16], [2, 4, 2]),
      t(I32, [101, 102, 103, 104, 105, 106, 107, 108], [2, 2, 2]), t(I32, [3, 1], [2]), { mode: 'circular' }),
    { data: [103, 104, 3, 4, 5, 6, 101, 102, 9, 10, 105, 106, 107, 108, 15, 16], shape: [2, 4, 2] }],
  // No writeIndices: from position 0, along the default axis -2.
  ['tensorScatter: no writeIndices',
    (api) => api.tensorScatter(t(F32, [0, 0, 0, 0, 0, 0], [1, 3, 2]), t(F32, [1, 2, 3, 4], [1, 2, 2])),
    { data: [1, 2, 3, 4, 0, 0], shape: [1, 3, 2] }],
];

const same = (a, b) => a.length === b.length && a.every((x, i) => Object.is(x, b[i]));
const values = (data) => Array.from(data, Number);

/** Runs the cases and the in-place calls; { passed, total, failures }. */
export function scatterSmoke(api) {
  const out = { passed: 0, total: CASES.length + 1, failures: [] };
  for (const [name, run, want] of CASES) {
    try {
      const r = run(api);
      if (same(values(r.data), want.data) && same(Array.from(r.shape), want.shape)) out.passed++;
      else out.failures.push(`${name}: got [${values(r.data)}] of shape [${Array.from(r.shape)}]`);
    } catch (e) {
      out.failures.push(`${name}: threw ${e.name}: ${e.message}`);
    }
  }
  // In place on a resident tensor: each call returns that tensor itself, updated where it lives.
  let rt;
  try {
    rt = api.upload(t(I32, [0, 0, 0, 0, 0, 0], [2, 3]));
    // 5 at [0, 0] and [1, 2]
    const a = api.scatter(rt, 1, t(I32, [0, 2], [2, 1]), 5, { inPlace: true });
    // then row 1 += 1 + 10, 2 + 20, 3 + 30 (index 1 twice): [[5, 0, 0], [11, 22, 38]]
    const b = api.indexReduce(rt, 0, t(I32, [1, 1], [2]), t(I32, [1, 2, 3, 10, 20, 30], [2, 3]), { reduce: 'add', inPlace: true });
    const got = values(rt.read());
    if (a === rt && b === rt && same(got, [5, 0, 0, 11, 22, 38])) out.passed++;
    else out.failures.push(`in place: ${a === rt && b === rt ? `got [${got}]` : 'did not return the resident tensor'}`);
  } catch (e) {
    out.failures.push(`in place: threw ${e.name}: ${e.message}`);
  } finally {
    rt?.dispose(); // workerd has no FinalizationRegistry to free it
  }
  return out;
}
