// The bad-input matrix: hostile or malformed arguments to the ops, upload() and opts.out, as one
// table of [name, fn, args, class, message]. Each op's file (tests/ops/) runs the rows of its op,
// tests/unit/api-errors.test.mjs the rows of upload() and read(). Each row is checked with
// expectError (tests/lib/expect-error.mjs): error class and message, the caller's arrays
// unchanged, the wasm heap back where it was, and a valid call right after that returns the
// right result. (The ops' files also hold the documented messages; these are the inputs an
// untrusted request could make.)
import assert from 'node:assert/strict';
import { test } from 'node:test';
import api, { gather, gatherND, take, upload } from './tested-api.mjs'; // js/index.mjs, or WG_TEST_API
import { describeErrors, expectError, f32, i32 } from './expect-error.mjs';
import { bytesOf, sameBytes } from '../../common/bytes.mjs';
import { refGatherBlockQuantized } from '../../common/reference-quantized.mjs';
import { scatterBadCases } from './bad-inputs-scatter.mjs';
import { bagBadCases } from './bad-inputs-bag.mjs';

const p32 = () => f32(6, [3, 2]); // [[1, 2], [3, 4], [5, 6]]
const idx = (...v) => i32(v, [v.length]);
const withShape = (shape, n = 6) => ({ data: new Float32Array(n), shape });

// gatherBlockQuantized: a valid table, uint8 4 bits (the defaults), stored [3, 8] = logical [3, 16],
// one block of 16 a row; the same codes as int4 (logical [3, 16], 24 bytes); scales [3, 1].
const gatherBlockQuantized = (...args) => api.gatherBlockQuantized(...args);
const qData = () => ({ data: Uint8Array.from({ length: 24 }, (_, i) => (i * 37) & 255), shape: [3, 8] });
const q4Data = () => ({ data: Uint8Array.from({ length: 24 }, (_, i) => (i * 37) & 255), shape: [3, 16] });
const qScales = () => ({ data: Float32Array.of(0.5, -2, 0.25), shape: [3, 1] });
const h16Scales = () => ({ data: Uint16Array.of(0x3800, 0xc000, 0x3400), shape: [3, 1] }); // float16 0.5, -2, 0.25
const q16 = (extra) => ({ blockSize: 16, ...extra });
const gbqArgs = (over = {}) => ['data' in over ? over.data : qData(), over.indices ?? idx(0), 'scales' in over ? over.scales : qScales(), q16(over.opts)];

// The valid call made after each gatherBlockQuantized error (besides expectError's take): rows 2
// and 0 of the int4 table with zero points, float16 scales, against the reference.
function validQuantizedCallWorks() {
  const opts = q16({ quantType: 'int4', zeroPoints: { data: Uint8Array.of(0x9f, 0x07), shape: [3, 1] } });
  const got = gatherBlockQuantized(q4Data(), idx(2, 0), h16Scales(), opts);
  const want = refGatherBlockQuantized(q4Data(), idx(2, 0), h16Scales(), opts);
  assert.deepEqual(got.shape, want.shape);
  assert.ok(sameBytes(bytesOf(got.data), bytesOf(want.data)) && got.data instanceof Uint16Array, 'gatherBlockQuantized after the error');
}

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
    ['index value a numeric string', take, [p32(), { data: ['1'], shape: [1] }], TypeError, /^take: indices\.data\[0\] must be an integer, got "1" \(a string\)/],
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
    ['dim not a number', take, [withShape(['x', 2]), idx(0)], TypeError, /^take: params\.shape\[0\] must be an integer, got "x" \(a string\)/],
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
    ['batchDims a string', gatherND, [p32(), i32([0, 0, 0], [3, 1]), { batchDims: '1' }], TypeError, /^gatherND: opts\.batchDims must be an integer, got "1" \(a string\)/],
    ['batch dims mismatched in dim 1', gatherND, [f32(12, [2, 3, 2]), i32([0, 0, 0, 0], [2, 2, 1]), { batchDims: 2 }], RangeError, /^gatherND: batch dimension 1 differs: params\.shape\[1\] is 3 but indices\.shape\[1\] is 2/],
    ['axis below -rank', take, [p32(), idx(0), { axis: -3 }], RangeError, /^take: axis -3 is out of range for params of rank 2 \(expected -2 <= axis < 2\)/],
    ['axis 2^40', take, [p32(), idx(0), { axis: 2 ** 40 }], RangeError, /^take: opts\.axis 1099511627776 is out of range/],
    ['dim null', gather, [p32(), null, i32([0, 0], [1, 2])], TypeError, /^gather: dim must be an integer, got null/],
    ['dim a BigInt', gather, [p32(), 1n, i32([0, 0], [1, 2])], TypeError, /^gather: dim must be an integer, got 1n \(a bigint\)/],
    ['negativeIndices unknown', take, [p32(), idx(0), { negativeIndices: 'clamp' }], RangeError, /^take: opts\.negativeIndices must be 'wrap' or 'error', got "clamp"/],
    ['negativeIndices a boolean', gatherND, [p32(), i32([0, 0], [1, 2]), { negativeIndices: true }], TypeError, /^gatherND: opts\.negativeIndices must be 'wrap' or 'error', got boolean/],
    ['take: negative index refused', take, [p32(), idx(0, -1), { negativeIndices: 'error' }], RangeError, /^take: indices\[1\] = -1 is negative, and opts\.negativeIndices is 'error'/],
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
    ...quantizedCases(),
    ...scatterBadCases(),
    ...bagBadCases(),
  ];
}

// gatherBlockQuantized's bad inputs: [name, fn, args, class, message], as above.
function quantizedCases() {
  const G = gatherBlockQuantized;
  const gbq = (name, over, Cls, re) => [`gatherBlockQuantized: ${name}`, G, gbqArgs(over), Cls, re];
  const packedInt4 = upload(q4Data(), { quantType: 'int4' });
  const plainBytes = upload({ data: new Uint8Array(48), shape: [3, 16] }); // one code a byte: not a packed int4 table
  const plainTable = upload(qData());
  const packedZp = upload({ data: Uint8Array.of(0x21, 0x03), shape: [3, 1] }, { quantType: 'uint4' });
  const f32Table = upload({ data: new Float32Array(24), shape: [3, 8] });
  const intScales = upload({ data: new Int32Array(3), shape: [3, 1] });
  const goneInt4 = upload(q4Data(), { quantType: 'int4' });
  goneInt4.dispose();
  // int4 [16, 1] quantized along axis 0: scales [1, 1], the output of one index [1, 1] too
  const colData = () => ({ data: new Uint8Array(8), shape: [16, 1] });
  const colScales = upload({ data: Float32Array.of(2), shape: [1, 1] });
  return [
    // block size, bits, quantType, scaleType
    gbq('blockSize 8', { scales: { data: new Float32Array(6), shape: [3, 2] }, opts: { blockSize: 8 } }, RangeError, /^gatherBlockQuantized: opts\.blockSize 8 must be a power of 2, at least 16/),
    gbq('blockSize 24', { opts: { blockSize: 24 } }, RangeError, /^gatherBlockQuantized: opts\.blockSize 24 must be a power of 2, at least 16/),
    gbq('blockSize 0', { opts: { blockSize: 0 } }, RangeError, /^gatherBlockQuantized: opts\.blockSize 0 must be a power of 2, at least 16/),
    gbq('blockSize -16', { opts: { blockSize: -16 } }, RangeError, /^gatherBlockQuantized: opts\.blockSize -16 must be a power of 2, at least 16/),
    gbq('blockSize 2^32 + 16', { opts: { blockSize: 2 ** 32 + 16 } }, RangeError, /^gatherBlockQuantized: opts\.blockSize 4294967312 (is out of range|must be a power of 2)/),
    gbq('blockSize 16.5', { opts: { blockSize: 16.5 } }, TypeError, /^gatherBlockQuantized: opts\.blockSize must be an integer, got 16\.5/),
    gbq('blockSize a string', { opts: { blockSize: '16' } }, TypeError, /^gatherBlockQuantized: opts\.blockSize must be an integer, got "16" \(a string\)/),
    gbq('bits 3 for uint8', { opts: { bits: 3 } }, RangeError, /^gatherBlockQuantized: opts\.bits 3 is not valid for quantType 'uint8' \(uint8 codes have 2, 4 or 8 bits/),
    gbq('bits 0 for uint8', { opts: { bits: 0 } }, RangeError, /^gatherBlockQuantized: opts\.bits 0 is not valid for quantType 'uint8'/),
    gbq('bits 8 for int4', { data: q4Data(), opts: { quantType: 'int4', bits: 8 } }, RangeError, /^gatherBlockQuantized: opts\.bits 8 is not valid for quantType 'int4' \(.*uint4 and int4 codes have 4\)/),
    gbq('bits 2 for uint4', { data: q4Data(), opts: { quantType: 'uint4', bits: 2 } }, RangeError, /^gatherBlockQuantized: opts\.bits 2 is not valid for quantType 'uint4'/),
    gbq('bits 4.5', { opts: { bits: 4.5 } }, TypeError, /^gatherBlockQuantized: opts\.bits must be an integer, got 4\.5/),
    gbq('quantType unknown', { opts: { quantType: 'int2' } }, RangeError, /^gatherBlockQuantized: opts\.quantType must be 'uint8', 'uint4' or 'int4', got "int2"/),
    gbq('quantType upper case', { data: q4Data(), opts: { quantType: 'INT4' } }, RangeError, /^gatherBlockQuantized: opts\.quantType must be .*got "INT4"/),
    gbq('scaleType unknown', { scales: h16Scales(), opts: { scaleType: 'float64' } }, RangeError, /^gatherBlockQuantized: opts\.scaleType must be .*got "float64"/),
    gbq('scaleType bfloat16 with a Float32Array', { opts: { scaleType: 'bfloat16' } }, TypeError, /^gatherBlockQuantized: opts\.scaleType 'bfloat16' does not match scales\.data, a Float32Array \(float32 scales are a Float32Array; float16 or bfloat16 bits a Uint16Array\)/),
    gbq('scaleType float16 with a Float32Array', { opts: { scaleType: 'float16' } }, TypeError, /^gatherBlockQuantized: opts\.scaleType 'float16' does not match scales\.data, a Float32Array/),
    gbq('scaleType float32 with a Uint16Array', { scales: h16Scales(), opts: { scaleType: 'float32' } }, TypeError, /^gatherBlockQuantized: opts\.scaleType 'float32' does not match scales\.data, a Uint16Array/),
    // scales and zero points against the data
    gbq('scales of rank 1', { scales: { data: new Float32Array(3), shape: [3] } }, RangeError, /^gatherBlockQuantized: scales has rank 1 but must have the data's rank, 2/),
    gbq('scales of rank 3', { scales: { data: new Float32Array(3), shape: [3, 1, 1] } }, RangeError, /^gatherBlockQuantized: scales has rank 3 but must have the data's rank, 2/),
    gbq('scales one block too many', { scales: { data: new Float32Array(6), shape: [3, 2] } }, RangeError, /^gatherBlockQuantized: scales\.shape\[1\] is 2 but must be 1 \(the data's logical shape with dimension quantizeAxis divided by blockSize, rounded up\)/),
    gbq('scales counted on the stored dim', { data: { data: new Uint8Array(3 * 16), shape: [3, 16] }, scales: { data: new Float32Array(3), shape: [3, 1] } }, RangeError, /^gatherBlockQuantized: scales\.shape\[1\] is 1 but must be 2/),
    gbq('scales rows mismatched', { scales: { data: new Float32Array(2), shape: [2, 1] } }, RangeError, /^gatherBlockQuantized: scales\.shape\[0\] is 2 but must be 3/),
    gbq('scales.data shorter than its shape', { scales: { data: new Float32Array(2), shape: [3, 1] } }, RangeError, /^gatherBlockQuantized: scales\.data has 2 elements but scales\.shape \[3, 1\] needs 3/),
    gbq('zero points of rank 1', { opts: { zeroPoints: { data: new Uint8Array(3), shape: [3] } } }, RangeError, /^gatherBlockQuantized: opts\.zeroPoints has rank 1 but must have the data's rank, 2/),
    gbq('zero points unpacked for 4 bits', { data: { data: new Uint8Array(3 * 32), shape: [3, 32] }, scales: { data: new Float32Array(12), shape: [3, 4] }, opts: { zeroPoints: { data: new Uint8Array(12), shape: [3, 4] } } },
      RangeError, /^gatherBlockQuantized: opts\.zeroPoints\.shape\[1\] is 4 but must be 2 \(the scales' shape, with the last dimension divided by the codes a byte holds/),
    gbq('zero points rows mismatched', { data: q4Data(), opts: { quantType: 'int4', zeroPoints: { data: new Uint8Array(2), shape: [4, 1] } } }, RangeError, /^gatherBlockQuantized: opts\.zeroPoints\.shape\[0\] is 4 but must be 3/),
    // packed lengths
    gbq('uint8 data shorter than its stored shape', { data: { data: new Uint8Array(23), shape: [3, 8] } }, RangeError, /^gatherBlockQuantized: data\.data has 23 elements but data\.shape \[3, 8\] needs 24/),
    gbq('int4 data one byte long', { data: { data: new Uint8Array(24), shape: [3, 15] }, opts: { quantType: 'int4' } }, RangeError, /^gatherBlockQuantized: data\.data has 24 elements but data\.shape \[3, 15\] needs 23 \(two 4-bit codes a byte, rounded up\)/),
    gbq('int4 data unpacked', { data: { data: new Uint8Array(48), shape: [3, 16] }, opts: { quantType: 'int4' } }, RangeError, /^gatherBlockQuantized: data\.data has 48 elements but data\.shape \[3, 16\] needs 24 \(two 4-bit codes a byte/),
    gbq('uint4 data one byte short', { data: { data: new Uint8Array(23), shape: [3, 16] }, opts: { quantType: 'uint4' } }, RangeError, /^gatherBlockQuantized: data\.data has 23 elements but data\.shape \[3, 16\] needs 24 \(two 4-bit codes a byte/),
    gbq('uint8 zero points short', { data: { data: new Uint8Array(48), shape: [3, 16] }, opts: { bits: 8, zeroPoints: { data: new Uint8Array(2), shape: [3, 1] } } },
      RangeError, /^gatherBlockQuantized: opts\.zeroPoints\.data has 2 elements but opts\.zeroPoints\.shape \[3, 1\] needs 3/),
    gbq('int4 zero points unpacked', { data: q4Data(), opts: { quantType: 'int4', zeroPoints: { data: new Uint8Array(3), shape: [3, 1] } } }, RangeError, /^gatherBlockQuantized: opts\.zeroPoints\.data has 3 elements but opts\.zeroPoints\.shape \[3, 1\] needs 2 \(two 4-bit codes a byte/),
    // axes
    gbq('gatherAxis 2', { opts: { gatherAxis: 2 } }, RangeError, /^gatherBlockQuantized: opts\.gatherAxis 2 is out of range for data of rank 2 \(expected -2 <= opts\.gatherAxis < 2\)/),
    gbq('gatherAxis -3', { opts: { gatherAxis: -3 } }, RangeError, /^gatherBlockQuantized: opts\.gatherAxis -3 is out of range for data of rank 2/),
    gbq('gatherAxis 1.5', { opts: { gatherAxis: 1.5 } }, TypeError, /^gatherBlockQuantized: opts\.gatherAxis must be an integer, got 1\.5/),
    gbq('quantizeAxis 2', { data: q4Data(), opts: { quantType: 'uint4', quantizeAxis: 2 } }, RangeError, /^gatherBlockQuantized: opts\.quantizeAxis 2 is out of range for data of rank 2 \(expected -2 <= opts\.quantizeAxis < 2\)/),
    gbq('quantizeAxis -3', { opts: { quantizeAxis: -3 } }, RangeError, /^gatherBlockQuantized: opts\.quantizeAxis -3 is out of range for data of rank 2/),
    gbq('uint8 quantizeAxis not the last', { scales: { data: new Float32Array(16), shape: [1, 16] }, opts: { quantizeAxis: 0 } }, RangeError,
      /^gatherBlockQuantized: opts\.quantizeAxis 0 must be the last axis \(1\) for quantType 'uint8', whose codes are packed along it/),
    gbq('uint8 quantizeAxis -2', { scales: { data: new Float32Array(16), shape: [1, 16] }, opts: { quantizeAxis: -2 } }, RangeError, /^gatherBlockQuantized: opts\.quantizeAxis -2 must be the last axis/),
    gbq('data a scalar', { data: { data: new Uint8Array(1), shape: [] }, scales: { data: new Float32Array(1), shape: [] } }, RangeError, /^gatherBlockQuantized: data must have rank at least 1, got a scalar/),
    // wrong types
    gbq('data an Int8Array', { data: { data: new Int8Array(24), shape: [3, 8] } }, TypeError, /^gatherBlockQuantized: data\.data must be a Uint8Array.*got Int8Array/),
    gbq('data a Float32Array', { data: { data: new Float32Array(24), shape: [3, 8] } }, TypeError, /^gatherBlockQuantized: data\.data must be a Uint8Array.*got Float32Array/),
    gbq('data a Uint8ClampedArray', { data: { data: new Uint8ClampedArray(24), shape: [3, 8] } }, TypeError, /^gatherBlockQuantized: data\.data must be a Uint8Array.*got Uint8ClampedArray/),
    gbq('data a plain array', { data: { data: new Array(24).fill(0), shape: [3, 8] } }, TypeError, /^gatherBlockQuantized: data\.data must be a (Uint8Array|TypedArray).*got Array/),
    gbq('data null', { data: null }, TypeError, /^gatherBlockQuantized: data must be a tensor \{ data, shape \}, got null/),
    gbq('scales missing', { scales: null }, TypeError, /^gatherBlockQuantized: scales must be a tensor \{ data, shape \}, got null/),
    gbq('scales an Int32Array', { scales: { data: new Int32Array(3), shape: [3, 1] } }, TypeError, /^gatherBlockQuantized: scales\.data must be a Float32Array.*Uint16Array.*got Int32Array/),
    gbq('scales a Float64Array', { scales: { data: new Float64Array(3), shape: [3, 1] } }, TypeError, /^gatherBlockQuantized: scales\.data must be a Float32Array.*got Float64Array/),
    gbq('zero points an Int8Array', { opts: { zeroPoints: { data: new Int8Array(3), shape: [3, 1] } } }, TypeError, /^gatherBlockQuantized: opts\.zeroPoints\.data must be a Uint8Array.*got Int8Array/),
    gbq('zero points a number', { opts: { zeroPoints: 8 } }, TypeError, /^gatherBlockQuantized: opts\.zeroPoints must be a tensor \{ data, shape \}, got number/),
    gbq('indices Float32Array', { indices: { data: new Float32Array(1), shape: [1] } }, TypeError, /^gatherBlockQuantized: indices\.data must hold integers .*got Float32Array/),
    // resident tensors of the wrong kind
    gbq('packed int4 resident as uint8 data', { data: packedInt4 }, TypeError,
      /^gatherBlockQuantized: data is a packed resident tensor of 4-bit codes \(uploaded with a quantType\), usable only as the codes or zero points of a quantized table of quantType 'uint4' or 'int4'/),
    gbq('packed int4 resident as uint8 bits-8 data', { data: packedInt4, scales: { data: new Float32Array(3), shape: [3, 1] }, opts: { bits: 8 } }, TypeError,
      /^gatherBlockQuantized: data is a packed resident tensor of 4-bit codes/),
    gbq('unpacked resident as int4 data', { data: plainBytes, opts: { quantType: 'int4' } }, TypeError,
      /^gatherBlockQuantized: data must be a packed resident tensor of 4-bit codes: upload it with \{ quantType: 'uint4' \} or \{ quantType: 'int4' \}/),
    gbq('packed resident as uint8 zero points', { opts: { zeroPoints: packedZp } }, TypeError, /^gatherBlockQuantized: opts\.zeroPoints is a packed resident tensor of 4-bit codes/),
    gbq('unpacked resident as uint4 zero points', { data: q4Data(), opts: { quantType: 'uint4', zeroPoints: plainTable } }, TypeError,
      /^gatherBlockQuantized: opts\.zeroPoints must be a packed resident tensor of 4-bit codes: upload it with/),
    gbq('disposed packed resident data', { data: goneInt4, opts: { quantType: 'int4' } }, Error, /^gatherBlockQuantized: data is a resident tensor that was disposed/),
    gbq('resident scales as opts.out', { data: colData(), scales: colScales, opts: { quantType: 'int4', quantizeAxis: 0, out: colScales } }, RangeError,
      /^gatherBlockQuantized: opts\.out must not be one of the op's inputs/),
    gbq('packed resident zero points as opts.out', { data: q4Data(), opts: { quantType: 'int4', zeroPoints: packedZp, out: packedZp } }, TypeError,
      /^gatherBlockQuantized: opts\.out is a packed resident tensor of 4-bit codes/),
    gbq('resident Float32Array as data', { data: f32Table }, TypeError, /^gatherBlockQuantized: data is a resident Float32Array.*Uint8Array/),
    gbq('resident Int32Array as scales', { scales: intScales }, TypeError, /^gatherBlockQuantized: scales is a resident Int32Array.*Float32Array.*Uint16Array/),
    ['upload of int4 with the unpacked length', upload, [{ data: new Uint8Array(48), shape: [3, 16] }, { quantType: 'int4' }], RangeError, /^upload: tensor\.data has 48 elements but tensor\.shape \[3, 16\] needs 24 \(two 4-bit codes a byte/],
    ['upload of a packed Float32Array', upload, [{ data: new Float32Array(24), shape: [3, 16] }, { quantType: 'uint4' }], TypeError, /^upload: tensor\.data must be a Uint8Array.*got Float32Array/],
    ['upload with quantType int8', upload, [q4Data(), { quantType: 'int8' }], RangeError, /^upload: opts\.quantType must be 'uint4' or 'int4'/],
    // opts.out, opts.resident, index out of range
    gbq('out a Uint16Array for float32 scales', { opts: { out: new Uint16Array(16) } }, TypeError, /^gatherBlockQuantized: opts\.out must be a Float32Array .*got Uint16Array/),
    gbq('out a Float32Array for float16 scales', { scales: h16Scales(), opts: { out: new Float32Array(16) } }, TypeError, /^gatherBlockQuantized: opts\.out must be a Uint16Array .*got Float32Array/),
    gbq('out a Uint8Array (the data\'s type)', { opts: { out: new Uint8Array(16) } }, TypeError, /^gatherBlockQuantized: opts\.out must be a Float32Array .*got Uint8Array/),
    gbq('out of the stored size', { opts: { out: new Float32Array(8) } }, RangeError, /^gatherBlockQuantized: opts\.out has 8 elements but the output \[1, 16\] has 16/),
    gbq('out resident of the wrong shape', { opts: { out: upload({ data: new Float32Array(16), shape: [16] }) } }, RangeError, /^gatherBlockQuantized: opts\.out\.shape \[16\] must be the output shape \[1, 16\]/),
    gbq('out and resident', { opts: { out: new Float32Array(16), resident: true } }, TypeError, /^gatherBlockQuantized: give opts\.out or opts\.resident, not both/),
    gbq('negativeIndices unknown', { opts: { negativeIndices: 'Error' } }, RangeError, /^gatherBlockQuantized: opts\.negativeIndices must be 'wrap' or 'error', got "Error"/),
    gbq('outOfRange unknown', { opts: { outOfRange: 'wrap' } }, RangeError, /^gatherBlockQuantized: opts\.outOfRange must be 'error', 'zero' or 'clamp', got "wrap"/),
    gbq('index 3 of 3 rows', { indices: idx(0, 3) }, RangeError, /^gatherBlockQuantized: indices\[1\] = 3 is out of range for dimension 0 of data, which has size 3 \(valid indices: -3 <= i < 3/),
    gbq('index -4 of 3 rows', { indices: idx(-4) }, RangeError, /^gatherBlockQuantized: indices\[0\] = -4 is out of range for dimension 0 of data/),
    gbq('index 2^40 on the logical axis', { indices: { data: new BigInt64Array([16n, 2n ** 40n]), shape: [2] }, opts: { gatherAxis: 1 } }, RangeError,
      /^gatherBlockQuantized: indices\[0\] = 16 is out of range for dimension 1 of data, which has size 16/),
  ];
}

// Which rows a suite runs: an op's name, or 'api' for upload() and read().
function rowOp(fn) {
  if (fn === take) return 'take';
  if (fn === gather) return 'gather';
  if (fn === gatherND) return 'gatherND';
  if (fn === gatherBlockQuantized) return 'gatherBlockQuantized';
  for (const op of ['scatter', 'scatterND', 'indexReduce', 'tensorScatter', 'embeddingBag', 'segmentReduce']) if (fn === api[op]) return op;
  return 'api';
}

/** The bad-input rows of `op` (an op's name, or 'api') in each configuration. */
export function badInputSuite(op) {
  describeErrors('bad inputs', () => {
    test('each bad input: its error, arrays unchanged, heap restored, next call right', () => {
      const all = cases();
      assert.ok(new Set(all.map((c) => c[0])).size === all.length && all.length >= 120, `${all.length} cases`);
      const mine = all.filter((c) => rowOp(c[1]) === op);
      assert.ok(mine.length > 0, `no bad-input rows for ${op}`);
      for (const [name, fn, args, Cls, re] of mine) {
        try {
          expectError(fn, args, Cls, re);
          if (fn === gatherBlockQuantized) validQuantizedCallWorks();
        } catch (e) {
          e.message = `${name}: ${e.message}`;
          throw e;
        }
      }
    });
  });
}
