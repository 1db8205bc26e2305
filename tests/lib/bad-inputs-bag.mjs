// The fused gather-reduce ops' rows of the bad-input matrix (tests/lib/bad-inputs.mjs): [name, fn,
// args, class, message], built after init() so that rows may upload tensors. Every rule of
// docs/fused-gather-reduce.md is here, with the words that say it.
import api from './tested-api.mjs'; // js/index.mjs, or WG_TEST_API
import { f32, i32 } from './expect-error.mjs';

const { embeddingBag, segmentReduce } = api;
const idx = (...v) => i32(v, [v.length]);
const table = () => f32(6, [3, 2]); // rows [1, 2], [3, 4], [5, 6]
const data = () => f32(6, [6, 1]);

export function bagBadCases() {
  return [
    // embeddingBag: the bags
    ['embeddingBag: 1-D indices without bags', embeddingBag, [table(), idx(0, 1)], RangeError, /^embeddingBag: indices \[2\] need opts\.offsets or opts\.segmentIds/],
    ['embeddingBag: offsets with 2-D indices', embeddingBag, [table(), i32([0, 1], [1, 2]), { offsets: [0] }], RangeError, /^embeddingBag: opts\.offsets goes with 1-D indices and must be 1-D itself; got indices \[1, 2\]/],
    ['embeddingBag: offsets and segmentIds', embeddingBag, [table(), idx(0, 1), { offsets: [0], segmentIds: [0, 0] }], TypeError, /^embeddingBag: give one of opts\.offsets and opts\.segmentIds, not both/],
    ['embeddingBag: first offset not 0', embeddingBag, [table(), idx(0, 1), { offsets: [1] }], RangeError, /^embeddingBag: opts\.offsets\[0\] is 1 but must be 0/],
    ['embeddingBag: offsets decreasing', embeddingBag, [table(), idx(0, 1, 2), { offsets: [0, 2, 1] }], RangeError, /^embeddingBag: opts\.offsets\[2\] = 1 is less than the one before it, 2: it must be sorted/],
    ['embeddingBag: an offset past the end', embeddingBag, [table(), idx(0, 1), { offsets: [0, 3] }], RangeError, /^embeddingBag: opts\.offsets\[1\] = 3 is past the end of the entries \(2\)/],
    ['embeddingBag: includeLastOffset with no offsets', embeddingBag, [table(), idx(0, 1), { offsets: [], includeLastOffset: true }], RangeError, /^embeddingBag: opts\.offsets has 0 entries but must have at least 1/],
    ['embeddingBag: includeLastOffset alone', embeddingBag, [table(), i32([0, 1], [1, 2]), { includeLastOffset: true }], TypeError, /^embeddingBag: opts\.includeLastOffset goes with opts\.offsets/],
    ['embeddingBag: offsets of floats', embeddingBag, [table(), idx(0, 1), { offsets: new Float32Array([0]) }], TypeError, /^embeddingBag: opts\.offsets\.data must hold integers/],
    ['embeddingBag: segment ids unsorted', embeddingBag, [table(), idx(0, 1, 2), { segmentIds: [1, 0, 1] }], RangeError,
      /^embeddingBag: opts\.segmentIds\[1\] = 0 is less than the one before it, 1: it must be sorted \(non-decreasing\); for unsorted segment ids, use indexReduce/],
    ['embeddingBag: segment ids unsorted, the last the smaller (the default count is the last + 1)', embeddingBag, [table(), idx(0, 1), { segmentIds: [1, 0] }], RangeError,
      /^embeddingBag: opts\.segmentIds\[1\] = 0 is less than the one before it, 1: it must be sorted/],
    ['embeddingBag: a negative segment id', embeddingBag, [table(), idx(0, 1), { segmentIds: [-1, 0] }], RangeError, /^embeddingBag: opts\.segmentIds\[0\] = -1 must not be negative/],
    ['embeddingBag: a segment id past numSegments', embeddingBag, [table(), idx(0, 1), { segmentIds: [0, 2], numSegments: 2 }], RangeError, /^embeddingBag: opts\.segmentIds\[1\] = 2 is not below opts\.numSegments \(2\)/],
    ['embeddingBag: segment ids of another length', embeddingBag, [table(), idx(0, 1), { segmentIds: [0] }], RangeError, /^embeddingBag: opts\.segmentIds has 1 ids but must have one for each of the 2 entries/],
    ['embeddingBag: numSegments negative', embeddingBag, [table(), idx(0, 1), { segmentIds: [0, 0], numSegments: -1 }], RangeError, /^embeddingBag: opts\.numSegments must be an integer in \[0, 2\^31\), got -1/],
    // embeddingBag: mode, weights, padding, indices, the table
    ['embeddingBag: mode unknown', embeddingBag, [table(), idx(0), { offsets: [0], mode: 'min' }], RangeError, /^embeddingBag: opts\.mode must be one of 'sum', 'mean', 'max', 'sqrtn', got "min"/],
    ['embeddingBag: weights with max', embeddingBag, [table(), idx(0), { offsets: [0], mode: 'max', perSampleWeights: new Float32Array(1) }], RangeError, /^embeddingBag: opts\.perSampleWeights do not go with mode 'max'/],
    ['embeddingBag: weights of another type', embeddingBag, [table(), idx(0), { offsets: [0], perSampleWeights: new Float64Array(1) }], TypeError, /^embeddingBag: opts\.perSampleWeights must be a Float32Array like the output, got a Float64Array/],
    ['embeddingBag: weights of another shape', embeddingBag, [table(), idx(0, 1), { offsets: [0], perSampleWeights: f32(3, [3]) }], RangeError, /^embeddingBag: opts\.perSampleWeights\.shape\[0\] is 3 but must be 2/],
    ['embeddingBag: returnIndices without max', embeddingBag, [table(), idx(0), { offsets: [0], returnIndices: true }], TypeError, /^embeddingBag: opts\.returnIndices goes with mode 'max'/],
    ['embeddingBag: paddingIdx out of range', embeddingBag, [table(), idx(0), { offsets: [0], paddingIdx: 3 }], RangeError, /^embeddingBag: opts\.paddingIdx 3 is out of range for the weight's 3 rows \(expected -3 <= paddingIdx < 3\)/],
    ['embeddingBag: paddingIdx fractional', embeddingBag, [table(), idx(0), { offsets: [0], paddingIdx: 0.5 }], TypeError, /^embeddingBag: opts\.paddingIdx must be an integer, got 0\.5/],
    ['embeddingBag: an index out of range', embeddingBag, [table(), idx(0, 3), { offsets: [0] }], RangeError, /^embeddingBag: indices\[1\] = 3 is out of range for dimension 0 of weight, which has size 3/],
    ['embeddingBag: a negative index refused', embeddingBag, [table(), idx(-1), { offsets: [0], negativeIndices: 'error' }], RangeError, /^embeddingBag: indices\[0\] = -1 is negative, and opts\.negativeIndices is 'error'/],
    ['embeddingBag: an integer table', embeddingBag, [i32([1, 2], [2, 1]), idx(0), { offsets: [0] }], RangeError, /^embeddingBag: weight must hold float32, float64, float16 or bfloat16 \(opts\.dtype\) values, or quantized codes with opts\.scales, got i32 values/],
    ['embeddingBag: a scalar table', embeddingBag, [{ data: new Float32Array(1), shape: [] }, idx(0), { offsets: [0] }], RangeError, /^embeddingBag: weight must have rank at least 1/],
    ['embeddingBag: quantized scales of the wrong shape', embeddingBag, [{ data: new Uint8Array(16), shape: [2, 16] }, idx(0), { offsets: [0], quantType: 'uint4', blockSize: 16, scales: f32(1, [1, 1]) }], RangeError, /^embeddingBag: opts\.scales\.shape\[0\] is 1 but must be 2/],
    ['embeddingBag: unknown option', embeddingBag, [table(), idx(0), { offsets: [0], padding_idx: 0 }], TypeError, /^embeddingBag: unknown option 'padding_idx' \(did you mean 'paddingIdx'\?\)/],
    // segmentReduce
    ['segmentReduce: no segments', segmentReduce, [data(), { reduce: 'sum' }], TypeError, /^segmentReduce: give the segments: opts\.lengths, opts\.offsets or opts\.segmentIds/],
    ['segmentReduce: reduce missing', segmentReduce, [data(), { lengths: [6] }], TypeError, /^segmentReduce: opts\.reduce is required \('sum', 'mean', 'max', 'min', 'prod'\)/],
    ['segmentReduce: lengths short of the axis', segmentReduce, [data(), { reduce: 'sum', lengths: [2, 3] }], RangeError, /^segmentReduce: opts\.lengths make segments that end at entry 5, but they must cover the axis's 6 entries exactly/],
    ['segmentReduce: a negative length', segmentReduce, [data(), { reduce: 'sum', lengths: [-1, 7] }], RangeError, /^segmentReduce: opts\.lengths\[0\] = -1 must not be negative/],
    ['segmentReduce: offsets short of the axis', segmentReduce, [data(), { reduce: 'sum', offsets: [0, 4] }], RangeError, /^segmentReduce: opts\.offsets make segments that end at entry 4/],
    ['segmentReduce: segment ids unsorted', segmentReduce, [data(), { reduce: 'max', segmentIds: [0, 1, 1, 0, 2, 2] }], RangeError, /^segmentReduce: opts\.segmentIds\[3\] = 0 is less than the one before it, 1: .*use indexReduce/],
    ['segmentReduce: an integer tensor', segmentReduce, [i32([1, 2], [2]), { reduce: 'sum', lengths: [2] }], RangeError, /^segmentReduce: data must hold float32 or float64 values, got i32 values/],
    ['segmentReduce: axis out of range', segmentReduce, [data(), { reduce: 'sum', lengths: [6], axis: 2 }], RangeError, /^segmentReduce: opts\.axis 2 is out of range for data of rank 2/],
    ['segmentReduce: initial a string', segmentReduce, [data(), { reduce: 'sum', lengths: [6], initial: '1' }], TypeError, /^segmentReduce: opts\.initial must be a number, got "1" \(a string\)/],
    ['segmentReduce: outOfRange (no indices)', segmentReduce, [data(), { reduce: 'sum', lengths: [6], outOfRange: 'zero' }], TypeError, /^segmentReduce: unknown option 'outOfRange'/],
  ];
}
