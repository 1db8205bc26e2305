// The scatters' rows of the bad-input matrix (tests/lib/bad-inputs.mjs): [name, fn, args, class,
// message], built after init() so that rows may upload tensors.
import api, { upload } from './tested-api.mjs'; // js/index.mjs, or WG_TEST_API
import { f32, i32 } from './expect-error.mjs';

const { scatter, scatterND, indexReduce, tensorScatter } = api;
const idx = (...v) => i32(v, [v.length]);
const d32 = () => f32(6, [3, 2]); // [[1, 2], [3, 4], [5, 6]]

export function scatterBadCases() {
  const resident = upload(d32());
  const cache = upload(f32(8, [1, 4, 2]));
  return [
    // scatter
    ['scatter: input undefined', scatter, [undefined, 0, idx(0), 1], TypeError, /^scatter: input must be a tensor \{ data, shape \}, got undefined/],
    ['scatter: dim missing', scatter, [d32(), undefined, i32([0, 0], [1, 2]), 1], TypeError, /^scatter: dim is required/],
    ['scatter: src a string', scatter, [d32(), 0, i32([0, 0], [1, 2]), 'x'], TypeError, /^scatter: src must be a tensor \{ data, shape \}, got string/],
    ['scatter: src of another type', scatter, [d32(), 0, i32([0, 0], [1, 2]), i32([1, 1], [1, 2])], TypeError, /^scatter: src must be a Float32Array like the tensor it updates, got Int32Array/],
    ['scatter: src a rank-0 tensor', scatter, [d32(), 0, i32([0, 0], [1, 2]), { data: new Float32Array(1), shape: [] }], RangeError, /^scatter: src must have the rank of index \(2\), got rank 0/],
    ['scatter: src smaller than index', scatter, [d32(), 0, i32([0, 0], [1, 2]), f32(1, [1, 1])], RangeError, /^scatter: src\.shape\[1\] is 1 but must be at least 2/],
    ['scatter: src of another rank', scatter, [d32(), 0, i32([0, 0], [1, 2]), f32(2, [2])], RangeError, /^scatter: src must have rank 2/],
    ['scatter: index wider than input off dim', scatter, [d32(), 0, i32([0, 0, 0], [1, 3]), 1], RangeError, /^scatter: index\.shape\[1\] \(3\) must be <= input\.shape\[1\] \(2\)/],
    ['scatter: index of another rank', scatter, [d32(), 0, idx(0), 1], RangeError, /^scatter: index must have the same rank as input/],
    ['scatter: dim 2 of rank 2', scatter, [d32(), 2, i32([0, 0], [1, 2]), 1], RangeError, /^scatter: dim 2 is out of range for input of rank 2/],
    ['scatter: a bigint src for a Float32Array', scatter, [d32(), 0, i32([0, 0], [1, 2]), 1n], TypeError, /^scatter: src must be a number for a Float32Array/],
    ['scatter: a fractional src for a BigInt64Array', scatter, [{ data: new BigInt64Array(2), shape: [2] }, 0, idx(0), 1.5], TypeError, /^scatter: src must be an integer for a BigInt64Array, got 1\.5/],
    ['scatter: index 3 of 3', scatter, [d32(), 0, i32([0, 3], [1, 2]), 1], RangeError,
      /^scatter: index\[0, 1\] = 3 is out of range for dimension 0 of input, which has size 3 \(valid indices: -3 <= i < 3; opts\.outOfRange 'drop' or 'clamp' accept it\)/],
    ['scatter: index -1 refused', scatter, [d32(), 0, i32([0, -1], [1, 2]), 1, { negativeIndices: 'error' }], RangeError, /^scatter: index\[0, 1\] = -1 is negative, and opts\.negativeIndices is 'error'/],
    ['scatter: a 64-bit index beyond 2^53, printed exactly', scatter, [d32(), 0, { data: new BigInt64Array([0n, 2n ** 60n + 1n]), shape: [1, 2] }, 1], RangeError,
      /^scatter: index\[0, 1\] = 1152921504606846977 is out of range/],
    ['scatter: reduce unknown', scatter, [d32(), 0, i32([0, 0], [1, 2]), 1, { reduce: 'avg' }], RangeError, /^scatter: opts\.reduce must be one of 'none', 'add', .*'mean', got "avg"/],
    ['scatter: reduce not a string', scatter, [d32(), 0, i32([0, 0], [1, 2]), 1, { reduce: 1 }], RangeError, /^scatter: opts\.reduce must be one of .*got number/],
    ['scatter: includeSelf 0', scatter, [d32(), 0, i32([0, 0], [1, 2]), 1, { includeSelf: 0 }], TypeError, /^scatter: opts\.includeSelf must be true or false, got number/],
    ["scatter: the gathers' outOfRange 'zero'", scatter, [d32(), 0, i32([0, 0], [1, 2]), 1, { outOfRange: 'zero' }], RangeError, /^scatter: opts\.outOfRange must be 'error', 'drop' or 'clamp', got "zero"/],
    ['scatter: inPlace on a plain tensor', scatter, [d32(), 0, i32([0, 0], [1, 2]), 1, { inPlace: true }], TypeError, /^scatter: opts\.inPlace needs a resident tensor to update \(upload\(\) it first\)/],
    ['scatter: inPlace a string', scatter, [resident, 0, i32([0, 0], [1, 2]), 1, { inPlace: 'yes' }], TypeError, /^scatter: opts\.inPlace must be true or false, got string/],
    ['scatter: inPlace with out', scatter, [resident, 0, i32([0, 0], [1, 2]), 1, { inPlace: true, out: new Float32Array(6) }], TypeError, /^scatter: give opts\.inPlace or opts\.out \/ opts\.resident, not both/],
    ['scatter: inPlace from itself', scatter, [resident, 0, i32([0, 0, 1, 1, 2, 2], [3, 2]), resident, { inPlace: true }], RangeError, /^scatter: in place, the updates must not be the tensor they update/],
    ['scatter: dtype unknown', scatter, [{ data: new Uint16Array(2), shape: [2] }, 0, idx(0), 1, { dtype: 'half' }], RangeError, /^scatter: opts\.dtype must be 'float16' or 'bfloat16'/],
    ['scatter: dtype float16 on a Float32Array', scatter, [d32(), 0, i32([0, 0], [1, 2]), 1, { dtype: 'float16' }], TypeError, /^scatter: opts\.dtype 'float16' needs input to hold its bits in a Uint16Array, got a Float32Array/],
    ['scatter: an option of another op', scatter, [d32(), 0, i32([0, 0], [1, 2]), 1, { axis: 0 }], TypeError, /^scatter: unknown option 'axis'/],
    // scatterND
    ['scatterND: indices a scalar', scatterND, [d32(), { data: [0], shape: [] }, f32(2, [2])], RangeError, /^scatterND: indices must have rank at least 1/],
    ['scatterND: tuples longer than the rank', scatterND, [d32(), i32([0, 0, 0], [1, 3]), f32(1, [1])], RangeError, /^scatterND: indices\.shape\[-1\] \(3\), the length of each index tuple, must be <= data rank \(2\)/],
    ['scatterND: updates of the wrong shape', scatterND, [d32(), i32([0], [1, 1]), f32(3, [1, 3])], RangeError, /^scatterND: updates\.shape\[1\] is 3 but must be 2 \(from data \[3, 2\] and indices \[1, 1\]\)/],
    ['scatterND: updates of the wrong rank', scatterND, [d32(), i32([0], [1, 1]), f32(2, [2])], RangeError, /^scatterND: updates must have rank 2/],
    ['scatterND: data a scalar', scatterND, [{ data: new Float32Array(1), shape: [] }, i32([], [1, 0]), { data: new Float32Array(1), shape: [1] }], RangeError, /^scatterND: data must have rank at least 1/],
    ["scatterND: reduce 'mean'", scatterND, [d32(), i32([0], [1, 1]), f32(2, [1, 2]), { reduce: 'mean' }], RangeError, /^scatterND: opts\.reduce must be one of .*'amin', got "mean"/],
    ['scatterND: index 3 in a tuple', scatterND, [d32(), i32([0, 1, 3, 0], [2, 2]), f32(2, [2])], RangeError, /^scatterND: indices\[1, 0\] = 3 is out of range for dimension 0 of data/],
    ['scatterND: index 2 in the second place', scatterND, [d32(), i32([0, 1, 2, 2], [2, 2]), f32(2, [2])], RangeError, /^scatterND: indices\[1, 1\] = 2 is out of range for dimension 1 of data, which has size 2/],
    ['scatterND: updates undefined', scatterND, [d32(), i32([0], [1, 1])], TypeError, /^scatterND: updates must be a tensor/],
    // indexReduce
    ['indexReduce: axis missing', indexReduce, [d32(), undefined, idx(0), f32(2, [1, 2])], TypeError, /^indexReduce: axis is required/],
    ['indexReduce: axis 2', indexReduce, [d32(), 2, idx(0), f32(2, [1, 2])], RangeError, /^indexReduce: axis 2 is out of range for input of rank 2/],
    ['indexReduce: source of the wrong shape', indexReduce, [d32(), 0, idx(0, 0), f32(2, [1, 2])], RangeError, /^indexReduce: source\.shape\[0\] is 1 but must be 2/],
    ['indexReduce: input a scalar', indexReduce, [{ data: new Float32Array(1), shape: [] }, 0, idx(0), f32(1, [1])], RangeError, /^indexReduce: input must have rank at least 1/],
    ['indexReduce: index 2 on axis 1', indexReduce, [d32(), 1, idx(0, 2), f32(6, [3, 2])], RangeError, /^indexReduce: index\[1\] = 2 is out of range for dimension 1 of input, which has size 2/],
    // tensorScatter
    ['tensorScatter: axis 0 (the batch)', tensorScatter, [cache, f32(4, [1, 2, 2]), null, { axis: 0 }], RangeError, /^tensorScatter: opts\.axis 0 is out of range for cache of rank 3: .*must be in \[1, 2\]/],
    ['tensorScatter: axis -3', tensorScatter, [cache, f32(4, [1, 2, 2]), null, { axis: -3 }], RangeError, /^tensorScatter: opts\.axis -3 is out of range/],
    ['tensorScatter: cache of rank 1', tensorScatter, [f32(4, [4]), f32(2, [2]), null, { axis: 0 }], RangeError, /^tensorScatter: opts\.axis 0 is out of range for cache of rank 1/],
    ['tensorScatter: a negative write index', tensorScatter, [cache, f32(4, [1, 2, 2]), idx(-1)], RangeError, /^tensorScatter: writeIndices\[0\] = -1 is negative/],
    ['tensorScatter: a negative write index, circular', tensorScatter, [cache, f32(4, [1, 2, 2]), idx(-1), { mode: 'circular' }], RangeError, /^tensorScatter: writeIndices\[0\] = -1 is negative/],
    ['tensorScatter: a write past the end', tensorScatter, [cache, f32(4, [1, 2, 2]), idx(3)], RangeError,
      /^tensorScatter: writeIndices\[0\] = 3 does not fit: the update's 2 positions from there pass the end of the cache's 4 along axis 1/],
    ['tensorScatter: an update longer than the cache', tensorScatter, [cache, f32(10, [1, 5, 2]), null, { mode: 'circular' }], RangeError, /^tensorScatter: update\.shape\[1\] \(5\) is longer than the cache \(4\) along opts\.axis/],
    ['tensorScatter: update of another batch', tensorScatter, [cache, f32(8, [2, 2, 2]), null], RangeError, /^tensorScatter: update must have cache's shape \[1, 4, 2\] but along opts\.axis \(update\.shape\[0\] is 2, not 1\)/],
    ['tensorScatter: update of another rank', tensorScatter, [cache, f32(4, [2, 2]), null], RangeError, /^tensorScatter: update must have cache's shape \[1, 4, 2\] but along opts\.axis \(update has rank 2\)/],
    ['tensorScatter: writeIndices of two for one batch row', tensorScatter, [cache, f32(4, [1, 2, 2]), idx(0, 0)], RangeError, /^tensorScatter: writeIndices must have shape \[1\] \(one per batch row\), got \[2\]/],
    ['tensorScatter: writeIndices of rank 2', tensorScatter, [cache, f32(4, [1, 2, 2]), i32([0], [1, 1])], RangeError, /^tensorScatter: writeIndices must have shape \[1\] \(one per batch row\), got rank 2/],
    ['tensorScatter: mode unknown', tensorScatter, [cache, f32(4, [1, 2, 2]), null, { mode: 'ring' }], RangeError, /^tensorScatter: opts\.mode must be 'linear' or 'circular', got "ring"/],
    ['tensorScatter: outOfRange is not its option', tensorScatter, [cache, f32(4, [1, 2, 2]), null, { outOfRange: 'drop' }], TypeError, /^tensorScatter: unknown option 'outOfRange' \(valid options: axis, mode, inPlace, dtype, out, resident\)/],
    ['tensorScatter: update of another type', tensorScatter, [cache, i32([1, 2, 3, 4], [1, 2, 2]), null], TypeError, /^tensorScatter: update must be a Float32Array like the tensor it updates, got Int32Array/],
  ];
}
