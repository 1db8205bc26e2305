// The bad-input matrix of issue 5: hostile or malformed arguments to the three ops, upload(),
// init() and opts.out. Each is checked with expectError (tests/expect-error.mjs): error class and
// message, the caller's arrays unchanged, the wasm heap back where it was, and a valid call right
// after that returns the right result. (tests/errors.test.mjs holds the documented messages;
// these are the inputs an untrusted request could make.)
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { dispose, gather, gatherND, heapStats, init, take, upload } from './tested-api.mjs'; // js/index.mjs, or WG_TEST_API
import { expectError, f32, i32, snapshot, validCallWorks } from './expect-error.mjs';

const p32 = () => f32(6, [3, 2]); // [[1, 2], [3, 4], [5, 6]]
const idx = (...v) => i32(v, [v.length]);
const withShape = (shape, n = 6) => ({ data: new Float32Array(n), shape });

// [name, fn, args, class, message]. Built after init() so that cases may upload tensors.
function cases() {
  const gone = upload(p32());
  gone.dispose();
  const goneIdx = upload(idx(0));
  goneIdx.dispose();
  const goneOut = upload({ data: new Float32Array(2), shape: [1, 2] });
  goneOut.dispose();
  return [
    // wrong types
    ['params undefined', take, [undefined, idx(0)], TypeError, /^take: params must be a tensor \{ data, shape \}, got undefined/],
    ['params a string', gatherND, ['abc', i32([0], [1, 1])], TypeError, /^gatherND: params must be a tensor .*got string/],
    ['params an array', gather, [[1, 2], 0, idx(0)], TypeError, /^gather: input must be a tensor .*got Array/],
    ['data a DataView', take, [{ data: new DataView(new ArrayBuffer(12)), shape: [3] }, idx(0)], TypeError, /^take: params\.data must be a TypedArray .*got DataView/],
    ['data an array-like object', take, [{ data: { length: 3, 0: 1 }, shape: [3] }, idx(0)], TypeError, /^take: params\.data must be a TypedArray .*got Object/],
    ['shape missing', take, [{ data: new Float32Array(3) }, idx(0)], TypeError, /^take: params\.shape must be an array of non-negative integers, got undefined/],
    ['shape a string', take, [{ data: new Float32Array(3), shape: '3' }, idx(0)], TypeError, /^take: params\.shape must be an array .*got string/],
    ['index tensor null', take, [p32(), null], TypeError, /^take: indices must be a tensor .*got null/],
    // wrong TypedArray (or values) for indices
    ['indices Float32Array', gather, [p32(), 0, { data: new Float32Array(6), shape: [3, 2] }], TypeError, /^gather: index\.data must hold integers .*got Float32Array/],
    ['indices Uint8ClampedArray', take, [p32(), { data: new Uint8ClampedArray([0]), shape: [1] }], TypeError, /^take: indices\.data must hold integers .*got Uint8ClampedArray/],
    ['indices a string', take, [p32(), { data: '01', shape: [2] }], TypeError, /^take: indices\.data must hold integers .*got string/],
    ['index value a numeric string', take, [p32(), { data: ['1'], shape: [1] }], TypeError, /^take: indices\.data\[0\] must be an integer, got string/],
    ['index value Infinity', gatherND, [p32(), { data: [0, Infinity], shape: [1, 2] }], TypeError, /^gatherND: indices\.data\[1\] must be an integer, got Infinity/],
    ['index value a hole', take, [p32(), { data: [0, , 1], shape: [3] }], TypeError, /^take: indices\.data\[1\] must be an integer, got undefined/], // eslint-disable-line no-sparse-arrays
    ['resident Float64 indices', take, [p32(), upload({ data: new Float64Array([0]), shape: [1] })], TypeError, /^take: indices is a resident Float64Array; resident indices must be/],
    // shapes against data lengths, bad dims
    ['data longer than shape', take, [withShape([2, 2]), idx(0)], RangeError, /^take: params\.data has 6 elements but params\.shape \[2, 2\] needs 4/],
    ['indices shorter than shape', gatherND, [p32(), i32([0, 1], [2, 2])], RangeError, /^gatherND: indices\.data has 2 elements but indices\.shape \[2, 2\] needs 4/],
    ['dim NaN', take, [withShape([NaN, 2]), idx(0)], TypeError, /^take: params\.shape\[0\] must be an integer, got NaN/],
    ['dim Infinity', gather, [p32(), 0, { data: new Int32Array(2), shape: [Infinity, 2] }], TypeError, /^gather: index\.shape\[0\] must be an integer, got Infinity/],
    ['dim 2.5', gatherND, [withShape([3, 2.5]), i32([0], [1, 1])], TypeError, /^gatherND: params\.shape\[1\] must be an integer, got 2\.5/],
    ['dim negative', take, [withShape([-3, -2]), idx(0)], RangeError, /^take: params\.shape\[0\] must be between 0 and 4294967295, got -3/],
    ['dim 2^32', take, [p32(), { data: new Int32Array(0), shape: [2 ** 32, 0] }], RangeError, /^take: indices\.shape\[0\] must be between 0 and 4294967295, got 4294967296/],
    ['dim not a number', take, [withShape(['x', 2]), idx(0)], TypeError, /^take: params\.shape\[0\] must be an integer, got x/],
    // ranks
    ['gather rank mismatch (3 vs 2)', gather, [p32(), 1, { data: new Int32Array(2), shape: [1, 1, 2] }], RangeError, /^gather: index must have the same rank as input \(index has rank 3, input has rank 2\)/],
    ['indices of rank 17', take, [p32(), { data: new Int32Array(1), shape: new Array(17).fill(1) }], RangeError, /^take: indices has rank 17, more than the 16 dimensions/],
    ['output of rank 17', take, [{ data: new Float32Array(1), shape: new Array(16).fill(1) }, i32([0, 0], [1, 2])], RangeError, /^take: the output would have rank 17, more than the 16 dimensions/],
    ['gatherND scalar indices', gatherND, [p32(), { data: [0], shape: [] }], RangeError, /^gatherND: indices must have rank at least 1/],
    // K, batch dims, axis / dim
    ['K too large with batch dims', gatherND, [p32(), i32([0, 0, 0, 0, 0, 0], [3, 2]), { batchDims: 1 }], RangeError, /^gatherND: indices\.shape\[-1\] \(2\), the length of each index tuple, must be <= params rank - batchDims \(1\)/],
    ['batchDims equal to the rank', gatherND, [p32(), i32([0, 0, 0], [3, 1]), { batchDims: 2 }], RangeError, /^gatherND: batchDims 2 is out of range/],
    ['take batchDims below -rank', take, [p32(), i32([0, 0, 0], [3, 1]), { axis: 1, batchDims: -3 }], RangeError, /^take: batchDims -3 is out of range for indices of rank 2 \(expected -2 <= batchDims <= 2\)/],
    ['batchDims 2^31', take, [p32(), idx(0), { batchDims: 2 ** 31 }], RangeError, /^take: opts\.batchDims 2147483648 is out of range/],
    ['batchDims a string', gatherND, [p32(), i32([0, 0, 0], [3, 1]), { batchDims: '1' }], TypeError, /^gatherND: opts\.batchDims must be an integer, got 1/],
    ['batch dims mismatched in dim 1', gatherND, [f32(12, [2, 3, 2]), i32([0, 0, 0, 0], [2, 2, 1]), { batchDims: 2 }], RangeError, /^gatherND: batch dimension 1 differs: params\.shape\[1\] is 3 but indices\.shape\[1\] is 2/],
    ['axis below -rank', take, [p32(), idx(0), { axis: -3 }], RangeError, /^take: axis -3 is out of range for params of rank 2 \(expected -2 <= axis < 2\)/],
    ['axis 2^40', take, [p32(), idx(0), { axis: 2 ** 40 }], RangeError, /^take: opts\.axis 1099511627776 is out of range/],
    ['dim null', gather, [p32(), null, i32([0, 0], [1, 2])], TypeError, /^gather: dim must be an integer, got null/],
    ['dim a BigInt', gather, [p32(), 1n, i32([0, 0], [1, 2])], TypeError, /^gather: dim must be an integer/],
    ['outOfRange unknown', gather, [p32(), 0, i32([0, 0], [1, 2]), { outOfRange: 'ZERO' }], RangeError, /^gather: opts\.outOfRange must be 'error', 'zero' or 'clamp', got "ZERO"/],
    // indices out of range at the first, a middle and the last position
    ['take: first index bad', take, [p32(), idx(3, 0, 1, 2)], RangeError, /^take: indices\[0\] = 3 is out of range for dimension 0 of params, which has size 3/],
    ['take: middle index bad', take, [p32(), idx(0, 1, -4, 2)], RangeError, /^take: indices\[2\] = -4 is out of range/],
    ['take: last index bad', take, [p32(), idx(0, 1, 2, 1e9)], RangeError, /^take: indices\[3\] = 1000000000 is out of range/],
    ['gatherND: first tuple bad', gatherND, [p32(), i32([3, 0, 0, 0], [2, 2])], RangeError, /^gatherND: indices\[0, 0\] = 3 is out of range for dimension 0 of params, which has size 3/],
    ['gatherND: last component bad', gatherND, [p32(), i32([0, 0, 1, 1, 2, -3], [3, 2])], RangeError, /^gatherND: indices\[2, 1\] = -3 is out of range for dimension 1 of params, which has size 2/],
    ['gather: middle index bad', gather, [p32(), 1, i32([0, 1, 2, 0, 1, 0], [3, 2])], RangeError, /^gather: index\[1, 0\] = 2 is out of range for dimension 1 of input, which has size 2/],
    // BigInt indices beyond 2^53, printed exactly
    ['BigInt64 2^53 + 1', take, [p32(), { data: new BigInt64Array([0n, 2n ** 53n + 1n]), shape: [2] }], RangeError, /^take: indices\[1\] = 9007199254740993 is out of range/],
    ['BigInt64 -(2^62) + 1', gatherND, [p32(), { data: new BigInt64Array([0n, -(2n ** 62n) + 1n]), shape: [1, 2] }], RangeError, /^gatherND: indices\[0, 1\] = -4611686018427387903 is out of range/],
    ['BigUint64 2^63', gather, [p32(), 0, { data: new BigUint64Array([2n ** 63n, 0n]), shape: [1, 2] }], RangeError, /^gather: index\[0, 0\] = 9223372036854775808 is out of range/],
    ['plain BigInt 2^70', take, [p32(), { data: [1, 2n ** 70n], shape: [2] }], RangeError, /^take: indices\[1\] = 1180591620717411303424 is out of range/],
    ['plain number 2^60', take, [p32(), { data: [2 ** 60], shape: [1] }], RangeError, /^take: indices\[0\] = 1152921504606847000 is out of range/],
    // outputs too large for wasm memory
    ['K = 0 slices of 8 MiB, 1024 times', gatherND, [{ data: new Float64Array(2 ** 20), shape: [2 ** 20] }, { data: new Int32Array(0), shape: [1024, 0] }], RangeError, /^gatherND: the output \[1024, 1048576\] with the inputs needs \d+ bytes, more than wasm memory can hold/],
    ['empty params, huge zero output', take, [{ data: new Uint8Array(0), shape: [4294967295, 0] }, idx(0, 1), { axis: 1, outOfRange: 'zero' }], RangeError, /^take: the output \[4294967295, 2\] with the inputs needs/],
    // opts.out
    ['out an Int32Array for float data', take, [p32(), idx(0), { out: new Int32Array(2) }], TypeError, /^take: opts\.out must be a Float32Array like the data, got Int32Array/],
    ['out too large', take, [p32(), idx(0), { out: new Float32Array(4) }], RangeError, /^take: opts\.out has 4 elements but the output \[1, 2\] has 2/],
    ['out a plain array', take, [p32(), idx(0), { out: [0, 0] }], TypeError, /^take: opts\.out must be a Float32Array like the data, got no TypedArray/],
    ['out a number', take, [p32(), idx(0), { out: 2 }], TypeError, /^take: opts\.out must be a Float32Array, \{ data, shape \} or a resident tensor, got number/],
    ['out resident of the wrong size', take, [p32(), idx(0), { out: upload({ data: new Float32Array(3), shape: [3] }) }], RangeError, /^take: opts\.out\.shape \[3\] must be the output shape \[1, 2\]/],
    ['opts.resident a string', take, [p32(), idx(0), { resident: 'yes' }], TypeError, /^take: opts\.resident must be true or false, got string/],
    // resident tensors used after they were disposed
    ['disposed resident params', take, [gone, idx(0)], Error, /^take: params is a resident tensor that was disposed/],
    ['disposed resident indices', gatherND, [p32(), goneIdx], Error, /^gatherND: indices is a resident tensor that was disposed/],
    ['disposed resident out', gather, [p32(), 1, i32([0, 1], [1, 2]), { out: goneOut }], Error, /^gather: opts\.out is a resident tensor that was disposed/],
    ['read() of a disposed resident', () => gone.read(), [], Error, /^read: this is a resident tensor that was disposed/],
    // upload
    ['upload(null)', upload, [null], TypeError, /^upload: tensor must be a tensor \{ data, shape \}, got null/],
    ['upload of a shape with NaN', upload, [withShape([2, NaN])], TypeError, /^upload: tensor\.shape\[1\] must be an integer, got NaN/],
  ];
}

for (const config of [{ variant: 'simd' }, { variant: 'simd-threaded', threads: 2 }]) {
  describe(`bad inputs (${config.variant})`, () => {
    before(async () => {
      await init(config);
      validCallWorks(); // warm up: first calls may allocate runtime state
    });
    after(() => dispose());

    test('each bad input: its error, arrays unchanged, heap restored, next call right', () => {
      const all = cases();
      assert.ok(new Set(all.map((c) => c[0])).size === all.length && all.length >= 60, `${all.length} cases`);
      for (const [name, fn, args, Cls, re] of all) {
        try {
          expectError(fn, args, Cls, re);
        } catch (e) {
          e.message = `${name}: ${e.message}`;
          throw e;
        }
      }
    });
  });
}

test('calls after dispose() say to call init(), touch nothing, and init() again works', async () => {
  await init({ variant: 'simd' });
  const kept = upload(p32());
  dispose();
  const calls = [
    [take, [p32(), idx(0)], /^take: wasm-gather is not initialized; call 'await init\(\)' first/],
    [gather, [p32(), 0, i32([0, 0], [1, 2])], /^gather: wasm-gather is not initialized/],
    [gatherND, [p32(), i32([0], [1, 1])], /^gatherND: wasm-gather is not initialized/],
    [upload, [p32()], /^upload: wasm-gather is not initialized/],
    [heapStats, [], /^heapStats: wasm-gather is not initialized/],
  ];
  for (const [fn, args, re] of calls) {
    const snap = snapshot(args);
    assert.throws(() => fn(...args), (e) => e.constructor === Error && re.test(e.message), re.source);
    for (const [arr, copy] of snap) assert.deepEqual(arr, copy, 'caller array changed');
  }
  assert.throws(() => kept.read(), /^Error: read: this is a resident tensor of a wasm-gather module that was disposed; upload it again/);
  await init({ variant: 'simd-threaded', threads: 2 });
  expectError(take, [kept, idx(0)], Error, /^take: params is a resident tensor of a wasm-gather module that was disposed; upload it again/);
  dispose();
});

test('init() with bad options rejects before loading anything, also when already initialized', async () => {
  await assert.rejects(init(null), /^TypeError: init: opts must be an object/);
  await assert.rejects(init({ parallelThreshold: -1 }), /^RangeError: init: opts\.parallelThreshold must be a non-negative integer \(bytes\), got -1/);
  await assert.rejects(init({ threads: 2.5 }), /^RangeError: init: opts\.threads must be an integer from 1 to 64, got 2\.5/);
  await init({ variant: 'simd' });
  const heap = heapStats().heapInUse;
  await assert.rejects(init(null), /^TypeError: init: opts must be an object/);
  await assert.rejects(init({ parallelThreshold: 1.5 }), /^RangeError: init: opts\.parallelThreshold must be/);
  await assert.rejects(init({ variant: 'simd-threaded' }), /^Error: init: already initialized as simd/);
  assert.equal(heapStats().heapInUse, heap);
  validCallWorks();
  dispose();
});

test('hostile shapes that are valid: empty tensors with huge dims give the right result', async () => {
  await init({ variant: 'simd-threaded', threads: 2, parallelThreshold: 0 });
  const heap = heapStats().heapInUse;
  // gather from an empty input whose other dims are huge: every index is out of range, so zeros
  const g = gather({ data: new Float64Array(0), shape: [0, 5, 2 ** 31] }, 0, { data: new Int32Array(50), shape: [2, 5, 5] }, { outOfRange: 'zero' });
  assert.deepEqual([g.shape, Array.from(g.data)], [[2, 5, 5], new Array(50).fill(0)]);
  // -1, 2^32 - 2 and -(2^32 - 1) are valid indices into a dim of 2^32 - 1; 2^32 - 1 is not
  const t = take({ data: new Uint8Array(0), shape: [0, 2 ** 32 - 1] }, { data: [-1, 2 ** 32 - 2, -(2 ** 32 - 1)], shape: [3] }, { axis: 1 });
  assert.deepEqual([t.shape, t.data.length], [[0, 3], 0]);
  expectError(take, [{ data: new Uint8Array(0), shape: [0, 2 ** 32 - 1] }, { data: [0, 2 ** 32 - 1], shape: [2] }, { axis: 1 }], RangeError,
    /^take: indices\[1\] = 4294967295 is out of range for dimension 1 of params, which has size 4294967295/);
  assert.equal(heapStats().heapInUse, heap);
  dispose();
});
