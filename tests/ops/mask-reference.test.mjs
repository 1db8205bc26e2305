// The mask ops' plain-JS reference (common/reference-mask.mjs: nonZeroRef, booleanMaskRef,
// compressRef, maskedScatterRef) against real peers, bit for bit (NaN payloads and -0 included):
//   (a) PyTorch 1.13 (Debian's python3-torch): tests/fixtures/mask-torch/cases.json, made by
//       make-fixtures.py there: torch.nonzero (its layout and the transpose), masked_select,
//       x[mask] along axis 0 to 3, masked_scatter, in ten dtypes, ranks 0 to 5, zero-size dims;
//   (b) onnxruntime-web 1.30 (wasm, one thread: tests/lib/mask-ort.mjs): NonZero-13 and
//       Compress-13 on seeded random cases;
//   (c) tfjs-core 4.22 on tfjs-backend-cpu: whereAsync and booleanMaskAsync on seeded random cases.
// Where a peer does otherwise than the reference (a rank-0 x in the onnx layout against torch's
// transposed nonzero, a condition longer than the axis in Compress, a 0-d mask in torch's x[mask],
// a negative axis in boolean_mask), a test shows the peer's output or refusal beside the
// reference's.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import {
  booleanMaskRef, compressRef, maskedScatterRef, nonZeroRef, refMaskOps,
} from '../../common/reference-mask.mjs';
import { numel } from '../../common/shape.mjs';
import { ortCompress, ortNonZero } from '../lib/mask-ort.mjs';
import { Rng } from '../lib/rng.mjs';
import { decode } from '../lib/torch-fixtures.mjs';

const t = (data, shape = [data.length]) => ({ data, shape });
const f32 = (a, shape) => t(Float32Array.from(a), shape);
const u8 = (a, shape) => t(Uint8Array.from(a), shape);
const i32 = (a, shape) => t(Int32Array.from(a), shape);
const i64 = (a, shape) => t(BigInt64Array.from(a, BigInt), shape);
// A float32 tensor of these bit patterns.
const f32bits = (bits, shape) => t(new Float32Array(Uint32Array.from(bits).buffer), shape);

// The bits of each element as hex (NaN payloads and signed zeros included).
function bits(data) {
  const b = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  const w = data.BYTES_PER_ELEMENT;
  return Array.from({ length: data.length }, (_, i) => Buffer.from(b.subarray(i * w, (i + 1) * w).reverse()).toString('hex'));
}

function sameBitsAs(got, want, what) {
  assert.deepEqual(got.shape, want.shape, `${what}: shape`);
  assert.equal(got.data.constructor, want.data.constructor, `${what}: type`);
  assert.equal(got.data.length, numel(want.shape), `${what}: length`);
  const g = bits(got.data), w = bits(want.data);
  const at = g.findIndex((x, i) => x !== w[i]);
  assert.equal(at, -1, `${what}: element ${at}: reference ${got.data[at]} (0x${g[at]}), peer ${want.data[at]} (0x${w[at]})`);
}

// ---------------------------------------------------------------------------------------------
// Seeded random tensors: about 40% zeros (floats: +0 or -0), the rest random bit patterns
// (NaNs with payloads, infinities and subnormals among them) or a few chosen special ones.

const SPECIAL = {
  float32: [0x7fc01234, 0xffc00000, 0x7f800001, 0xff812345, 0x7f800000, 0xff800000, 1, 0x80000001],
  float16: [0x7e12, 0xfe00, 0x7c01, 0xfd23, 0x7c00, 0xfc00, 1, 0x8001],
};
const SIGN = { float16: 0x8000, float32: 0x80000000 };
const INT_RANGE = { int8: 8, uint8: 8, int16: 16, uint16: 16, int32: 32, uint32: 32, int64: 64, uint64: 64 };
const ARRAY = {
  float32: Float32Array, float64: Float64Array, float16: Uint16Array, int8: Int8Array, uint8: Uint8Array,
  int16: Int16Array, uint16: Uint16Array, int32: Int32Array, uint32: Uint32Array, int64: BigInt64Array,
  uint64: BigUint64Array, bool: Uint8Array,
};

function randomBits(rng, width) {
  let v = 0n;
  for (let b = 0; b < width; b += 16) v = (v << 16n) | BigInt(rng.int(0, 0xffff));
  return BigInt.asUintN(width, v);
}

function randomTensor(rng, dtype, shape, zeros = 0.4) {
  const n = numel(shape);
  const data = new ARRAY[dtype](n);
  const width = data.BYTES_PER_ELEMENT * 8;
  const Bits = { 8: Uint8Array, 16: Uint16Array, 32: Uint32Array, 64: BigUint64Array }[width];
  const raw = new Bits(data.buffer);
  for (let i = 0; i < n; i++) {
    if (dtype === 'bool') raw[i] = rng.chance(zeros) ? 0 : rng.int(1, 3);
    else if (rng.chance(zeros)) raw[i] = width === 64 ? (dtype === 'float64' && rng.chance(0.5) ? 1n << 63n : 0n) : (SIGN[dtype] && rng.chance(0.5) ? SIGN[dtype] : 0);
    else if (SPECIAL[dtype] && rng.chance(0.3)) raw[i] = rng.pick(SPECIAL[dtype]);
    else {
      const b = randomBits(rng, width);
      raw[i] = width === 64 ? b : Number(b);
    }
  }
  return t(data, shape);
}

function randomShape(rng, rank, maxDim = 4) {
  return Array.from({ length: rank }, () => (rng.chance(0.1) ? 0 : rng.int(1, maxDim)));
}

// ---------------------------------------------------------------------------------------------
describe('the reference by itself', () => {
  test('worked examples of the documentation', () => {
    // ONNX NonZero's example (https://onnx.ai/onnx/operators/onnx__NonZero.html)
    const nz = nonZeroRef(u8([1, 0, 1, 1], [2, 2]), { indexType: 'int64' });
    assert.deepEqual(nz, { data: BigInt64Array.from([0n, 1n, 1n, 0n, 0n, 1n]), shape: [2, 3] });
    // tf.where(x) (https://www.tensorflow.org/api_docs/python/tf/where): [[0], [3]]
    assert.deepEqual(nonZeroRef(u8([1, 0, 0, 1]), { layout: 'torch' }), { data: Int32Array.from([0, 3]), shape: [2, 1] });
    // torch.nonzero's example (https://pytorch.org/docs/1.13/generated/torch.nonzero.html)
    const tn = nonZeroRef(f32([0.6, 0, 0, 0, 0, 0.4, 0, 0, 0, 0, 1.2, 0, 0, 0, 0, -0.4], [4, 4]), { layout: 'torch', indexType: 'int64' });
    assert.deepEqual(tn, { data: BigInt64Array.from([0n, 0n, 1n, 1n, 2n, 2n, 3n, 3n]), shape: [4, 2] });
    // tf.boolean_mask's examples (https://www.tensorflow.org/api_docs/python/tf/boolean_mask)
    assert.deepEqual(booleanMaskRef(i32([0, 1, 2, 3]), u8([1, 0, 1, 0])), { data: Int32Array.from([0, 2]), shape: [2] });
    assert.deepEqual(booleanMaskRef(i32([1, 2, 3, 4, 5, 6], [3, 2]), u8([1, 0, 1])), { data: Int32Array.from([1, 2, 5, 6]), shape: [2, 2] });
    // ONNX Compress's examples (https://onnx.ai/onnx/operators/onnx__Compress.html)
    const x = f32([1, 2, 3, 4, 5, 6], [3, 2]);
    assert.deepEqual(compressRef(x, u8([0, 1, 1]), { axis: 0 }), f32([3, 4, 5, 6], [2, 2]));
    assert.deepEqual(compressRef(x, u8([0, 1]), { axis: 1 }), f32([2, 4, 6], [3, 1]));
    assert.deepEqual(compressRef(x, u8([0, 1, 0, 0, 1])), f32([2, 5], [2]));
    assert.deepEqual(compressRef(x, u8([0, 1]), { axis: -1 }), f32([2, 4, 6], [3, 1]));
    // Tensor.masked_scatter's example (https://pytorch.org/docs/stable/generated/torch.Tensor.masked_scatter_.html)
    const ms = maskedScatterRef(i64([0, 0, 0, 0, 0, 0, 0, 0, 0, 0], [2, 5]), u8([0, 0, 0, 1, 1, 1, 1, 0, 1, 1], [2, 5]),
      i64([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [2, 5]));
    assert.deepEqual(ms, i64([0, 0, 0, 0, 1, 2, 3, 0, 4, 5], [2, 5]));
  });

  test('the zero rule: -0 is zero, every NaN is not, in each float type; integers by their bits', () => {
    const f = f32bits([0, 0x80000000, 0x7fc01234, 0xffc00000, 0x7f800001, 1, 0x80000001, 0xff800000]);
    assert.deepEqual(Array.from(nonZeroRef(f).data), [2, 3, 4, 5, 6, 7]);
    const d = t(new Float64Array(BigUint64Array.from([0n, 1n << 63n, 0x7ff8000000001234n, 1n, 0xfff0000000000001n]).buffer));
    assert.deepEqual(Array.from(nonZeroRef(d).data), [2, 3, 4]);
    for (const dtype of ['float16', 'bfloat16']) {
      const h = t(Uint16Array.from([0, 0x8000, dtype === 'float16' ? 0x7e12 : 0x7fd1, 1, 0x8001]));
      assert.deepEqual(Array.from(nonZeroRef(h, { dtype }).data), [2, 3, 4], dtype);
      assert.deepEqual(Array.from(nonZeroRef(h).data), [1, 2, 3, 4], `${dtype} bits read as uint16: 0x8000 is not zero`);
    }
    if (globalThis.Float16Array) {
      assert.deepEqual(Array.from(nonZeroRef(t(new Float16Array([0, -0, NaN, 1]))).data), [2, 3]);
    }
    assert.deepEqual(Array.from(nonZeroRef(t(Int8Array.from([0, -128, 1, 0]))).data), [1, 2]);
    assert.deepEqual(Array.from(nonZeroRef(t(BigInt64Array.from([0n, -(1n << 63n), 0n]))).data), [1]);
    assert.deepEqual(Array.from(nonZeroRef(t(BigUint64Array.from([0n, 1n << 63n]))).data), [1]);
    // the same rule for masks and conditions
    const x = i32([10, 11, 12, 13, 14, 15, 16, 17]);
    assert.deepEqual(Array.from(booleanMaskRef(x, f).data), [12, 13, 14, 15, 16, 17]);
    assert.deepEqual(Array.from(compressRef(x, f).data), [12, 13, 14, 15, 16, 17]);
    assert.deepEqual(Array.from(maskedScatterRef(x, f, i32([1, 2, 3, 4, 5, 6])).data), [10, 11, 1, 2, 3, 4, 5, 6]);
    const hm = t(Uint16Array.from([0x8000, 0x7e00, 0, 0x3c00, 0x8000, 0, 0, 1]));
    assert.deepEqual(Array.from(booleanMaskRef(x, hm, { maskDtype: 'float16' }).data), [11, 13, 17]);
    assert.deepEqual(Array.from(compressRef(x, hm, { conditionDtype: 'bfloat16' }).data), [11, 13, 17]);
  });

  test('elements are copied by their bits: NaN payloads and -0 kept', () => {
    const x = f32bits([0x7fc01234, 0x80000000, 0x7f800001, 0xffc00001]);
    const all = u8([1, 1, 1, 1]);
    sameBitsAs(booleanMaskRef(x, all), x, 'booleanMask');
    sameBitsAs(compressRef(x, all, { axis: 0 }), x, 'compress');
    sameBitsAs(maskedScatterRef(f32([1, 2, 3, 4]), all, x), x, 'maskedScatter');
    const h = t(Uint16Array.from([0x7e12, 0x8000]));
    sameBitsAs(maskedScatterRef(t(Uint16Array.from([1, 2])), u8([1, 1]), h), h, 'maskedScatter float16 bits');
  });

  test('shapes: rank 0, zero-size dims, index types and layouts', () => {
    // a scalar in the onnx layout is read as shape [1] (onnxruntime-web's NonZero): [1, nnz]
    assert.deepEqual(nonZeroRef(f32([5], [])), { data: new Int32Array(1), shape: [1, 1] });
    assert.deepEqual(nonZeroRef(f32([-0], [])), { data: new Int32Array(0), shape: [1, 0] });
    assert.deepEqual(nonZeroRef(f32([0], []), { layout: 'torch' }), { data: new Int32Array(0), shape: [0, 0] });
    assert.deepEqual(nonZeroRef(f32([5], []), { layout: 'torch', indexType: 'int64' }), { data: new BigInt64Array(0), shape: [1, 0] });
    assert.deepEqual(nonZeroRef(f32([], [2, 0, 3])), { data: new Int32Array(0), shape: [3, 0] });
    assert.deepEqual(nonZeroRef(f32([], [2, 0, 3]), { layout: 'torch' }).shape, [0, 3]);
    assert.deepEqual(booleanMaskRef(f32([], [3, 0, 2]), u8([1, 0, 1])), f32([], [2, 0, 2]));
    assert.deepEqual(booleanMaskRef(f32([1, 2, 3, 4, 5, 6], [2, 3]), u8([1, 0, 1]), { axis: -1 }), f32([1, 3, 4, 6], [2, 2]));
    // compress: a shorter condition, an empty one, a scalar x flattened
    assert.deepEqual(compressRef(f32([1, 2, 3, 4, 5, 6], [2, 3]), u8([1, 1]), { axis: 1 }), f32([1, 2, 4, 5], [2, 2]));
    assert.deepEqual(compressRef(f32([1, 2, 3, 4, 5, 6], [2, 3]), u8([]), { axis: -2 }), f32([], [0, 3]));
    assert.deepEqual(compressRef(f32([7], []), u8([1])), f32([7], [1]));
    assert.deepEqual(maskedScatterRef(f32([7], []), u8([1], []), f32([9, 8])), f32([9], []));
    assert.deepEqual(maskedScatterRef(f32([], [0, 3]), u8([], [0, 3]), f32([])), f32([], [0, 3]));
  });

  test('what each refuses', () => {
    const x = f32([1, 2, 3, 4, 5, 6], [2, 3]);
    assert.throws(() => nonZeroRef(x, { layout: 'tf' }), TypeError);
    assert.throws(() => nonZeroRef(x, { indexType: 'int16' }), TypeError);
    assert.throws(() => nonZeroRef(t(Uint16Array.from([1])), { dtype: 'float32' }), TypeError);
    assert.throws(() => booleanMaskRef(x, u8([1, 0, 1])), RangeError); // not x's leading dims
    // a 0-d mask, whatever its value, x's rank or the axis (tf.boolean_mask's rule; torch takes it)
    for (const [v, xs, axis] of [[1, x, 0], [0, x, 0], [1, x, 1], [1, f32([7], []), 0], [1, f32([1, 2], [2]), -1]]) {
      assert.throws(() => booleanMaskRef(xs, u8([v], []), { axis }), { name: 'RangeError', message: /0-d mask/ });
    }
    assert.throws(() => booleanMaskRef(x, u8([1, 0, 1]), { axis: 2 }), RangeError);
    assert.throws(() => booleanMaskRef(x, u8([1, 0, 1, 1, 0, 1], [2, 3]), { axis: 1 }), RangeError);
    assert.throws(() => booleanMaskRef(x, u8([1, 0, 1]), { axis: -3 }), RangeError);
    assert.throws(() => compressRef(x, u8([1, 0, 1]), { axis: 0 }), RangeError); // longer than the axis
    assert.throws(() => compressRef(x, u8([1, 0, 1, 0, 0, 0, 0])), RangeError); // longer than x
    assert.throws(() => compressRef(x, u8([1, 0], [1, 2]), { axis: 0 }), RangeError); // not 1-D
    assert.throws(() => compressRef(x, u8([1]), { axis: 2 }), RangeError);
    assert.throws(() => compressRef(x, u8([1]), { axis: -3 }), RangeError);
    assert.throws(() => compressRef(f32([7], []), u8([1]), { axis: 0 }), RangeError);
    assert.throws(() => maskedScatterRef(x, u8([1, 1, 1]), f32([1, 2, 3])), RangeError); // mask not of x's shape
    assert.throws(() => maskedScatterRef(x, u8([1, 1, 1, 0, 0, 1], [2, 3]), f32([1, 2])), RangeError); // source too short
    assert.throws(() => maskedScatterRef(x, u8([1, 1, 1, 0, 0, 1], [2, 3]), t(Float64Array.from([1, 2, 3, 4]))), TypeError);
    assert.throws(() => booleanMaskRef(t(Float32Array.from([1, 2])), u8([1, 0], [3])), RangeError); // data does not fit shape
  });
});

// ---------------------------------------------------------------------------------------------
describe('the reference against PyTorch 1.13', () => {
  const fixtures = JSON.parse(readFileSync(new URL('../fixtures/mask-torch/cases.json', import.meta.url)));

  test('the fixtures cover what they should', () => {
    assert.match(fixtures.torch, /^1\.13/);
    const names = fixtures.cases.map((c) => c.name).join('\n');
    for (const want of ['nonzero float32 [] one torch layout', 'nonzero bfloat16 [2,0,3] onnx layout (transposed)',
      'nonzero float16 special bit patterns', 'nonzero float32 [2,2,1,3,2] torch layout', 'masked_select bfloat16 [2,2,1,3,2]',
      'masked_select with a float32 mask (torch: mask != 0)', 'mask [3,4] broadcast', 'x[mask] int64 [4,3,2], mask [4,3]',
      'x[:, :, mask] float32 [2,5,3,2], mask [3,2] (axis -2)', 'x[torch.tensor(True)] float32 scalar x (0-d mask)',
      'masked_scatter float32 special bit patterns', 'masked_scatter bfloat16 empty mask', 'masked_scatter uint8 all-true mask',
      'masked_scatter int64 [2,2,1,3,2]', 'masked_scatter int8 source too short', 'x[mask] mask [3] on [4,3,2] (refused)']) {
      assert.ok(names.includes(want), want);
    }
    for (const dtype of ['float32', 'float64', 'float16', 'bfloat16', 'int8', 'int16', 'int32', 'int64', 'uint8', 'bool']) {
      for (const op of ['nonzero', 'masked_select', 'x[mask]', 'masked_scatter']) assert.ok(names.includes(`${op} ${dtype} `), `${op} ${dtype}`);
    }
  });

  // The two rules where the reference parts from torch on purpose (the top of
  // common/reference-mask.mjs): a rank-0 x in the onnx layout, whose fixture is torch.nonzero
  // transposed ([0, nnz]), where the reference gives onnxruntime-web's [1, nnz] of zeros; and a 0-d
  // mask, which torch's x[mask] and masked_select take and the reference refuses.
  const scalarOnnx = (c) => c.op === 'nonZero' && c.opts.layout === 'onnx' && c.args[0].shape.length === 0;
  const zeroDMask = (c) => c.op === 'booleanMask' && c.args[1].shape.length === 0;

  test('the fixtures where the reference parts from torch: 30 scalar nonzeros in the onnx layout, 14 0-d masks', () => {
    assert.equal(fixtures.cases.filter(scalarOnnx).length, 30);
    assert.equal(fixtures.cases.filter(zeroDMask).length, 14);
  });

  for (const c of fixtures.cases) {
    test(c.name, () => {
      const run = () => refMaskOps[c.op](...c.args.map(decode), c.opts);
      if (c.error) {
        assert.throws(run, RangeError, `torch: ${c.error}`);
        return;
      }
      const want = decode(c.expected);
      if (scalarOnnx(c)) {
        // torch: [0, nnz] (no coordinate); the reference, as onnxruntime-web: [1, nnz], all 0
        assert.equal(want.shape[0], 0);
        sameBitsAs(run(), { data: new BigInt64Array(want.shape[1]), shape: [1, want.shape[1]] }, 'output');
        return;
      }
      if (zeroDMask(c)) {
        // torch takes it ([nnz, ...x.shape]); the reference refuses it, as tf.boolean_mask
        assert.equal(want.shape.length, c.args[0].shape.length + 1, 'torch adds a dim of nnz');
        assert.throws(run, { name: 'RangeError', message: /0-d mask/ });
        return;
      }
      sameBitsAs(run(), want, 'output');
    });
  }
});

// ---------------------------------------------------------------------------------------------
describe('the reference against onnxruntime-web 1.30', () => {
  test('NonZero on seeded random tensors, rank 0 to 5, every type ONNX Runtime holds', async () => {
    const rng = new Rng(41);
    let compared = 0;
    for (let round = 0; round < 150; round++) {
      const dtype = rng.pick(['float32', 'float16', 'bool', 'uint8', 'int32', 'int64']);
      const x = randomTensor(rng, dtype, randomShape(rng, rng.int(rng.chance(0.1) ? 0 : 1, 5)), rng.pick([0, 0.4, 0.9, 1]));
      const hint = dtype === 'float16' || dtype === 'bool' ? dtype : undefined;
      const want = await ortNonZero(x, { dtype: hint });
      sameBitsAs(nonZeroRef(x, { indexType: 'int64', dtype: dtype === 'bool' ? undefined : hint }), want, `round ${round} ${dtype} [${x.shape}]`);
      compared++;
    }
    assert.equal(compared, 150);
  });

  test('NonZero of a rank-0 x: [1, nnz] (a scalar read as [1]), as onnxruntime-web, bit for bit, in each type', async () => {
    const scalars = [['float32', f32bits([0x40400000], [])], ['float32', f32bits([0], [])], ['float32', f32bits([0x80000000], [])],
      ['float32', f32bits([0x7fc01234], [])], ['float16', t(Uint16Array.of(0x8000), [])], ['float16', t(Uint16Array.of(0x7e12), [])],
      ['bool', u8([1], [])], ['bool', u8([0], [])], ['uint8', u8([200], [])], ['int32', i32([0], [])], ['int32', i32([-5], [])],
      ['int64', i64([0], [])], ['int64', i64([1], [])]];
    for (const [dtype, x] of scalars) {
      const hint = dtype === 'float16' || dtype === 'bool' ? dtype : undefined;
      const ort = await ortNonZero(x, { dtype: hint });
      assert.equal(ort.shape[0], 1, `ORT on ${dtype} ${x.data[0]}`);
      sameBitsAs(nonZeroRef(x, { indexType: 'int64', dtype: dtype === 'float16' ? 'float16' : undefined }), ort, `${dtype} ${x.data[0]}`);
    }
  });

  test('Compress on seeded random tensors: axes (negative too), shorter conditions, no axis', async () => {
    const rng = new Rng(42);
    const types = ['float32', 'float64', 'float16', 'int8', 'uint8', 'int16', 'uint16', 'int32', 'uint32', 'int64', 'uint64'];
    let withAxis = 0, shorter = 0, flat = 0;
    for (let round = 0; round < 200; round++) {
      const dtype = rng.pick(types);
      const rank = rng.int(rng.chance(0.1) ? 0 : 1, 5);
      const x = randomTensor(rng, dtype, randomShape(rng, rank), 0.2);
      const noAxis = rank === 0 || rng.chance(0.25);
      const axis = noAxis ? undefined : rng.int(-rank, rank - 1);
      const size = noAxis ? numel(x.shape) : x.shape[axis < 0 ? axis + rank : axis];
      const len = rng.chance(0.4) ? rng.int(0, Math.max(size - 1, 0)) : size;
      // a bool condition (fed as uint8: 0 to 3), or one of another type (Cast to bool in the model)
      const condType = rng.pick(['bool', 'bool', 'float32', 'int32']);
      const cond = randomTensor(rng, condType, [len], rng.pick([0, 0.5, 1]));
      const opts = { axis, dtype: dtype === 'float16' ? 'float16' : undefined };
      const want = await ortCompress(x, cond, opts);
      const got = compressRef(x, cond, { axis, conditionDtype: undefined });
      sameBitsAs(got, want, `round ${round} ${dtype} [${x.shape}] axis ${axis} condition ${condType} [${len}]`);
      if (noAxis) flat++;
      else withAxis++;
      if (len < size) shorter++;
    }
    assert.ok(withAxis > 100 && flat > 30 && shorter > 40, `${withAxis} with axis, ${flat} without, ${shorter} shorter`);
  });

  test('Compress with a condition longer than the axis: onnxruntime-web ignores the extra entries; the reference throws', async () => {
    const x = f32([1, 2, 3, 4, 5, 6], [2, 3]);
    for (const [cond, axis, out] of [[[1, 0, 1, 1], 1, f32([1, 3, 4, 6], [2, 2])], [[0, 1, 1], 0, f32([4, 5, 6], [1, 3])],
      [[1, 0, 0, 0, 0, 1, 1, 1], undefined, f32([1, 6], [2])]]) {
      assert.deepEqual(await ortCompress(x, u8(cond), { axis }), out, `ORT, axis ${axis}`);
      assert.throws(() => compressRef(x, u8(cond), { axis }), RangeError);
    }
    // both refuse an axis outside [-rank, rank), and an axis of a scalar
    await assert.rejects(ortCompress(x, u8([1]), { axis: 2 }));
    await assert.rejects(ortCompress(f32([7], []), u8([1]), { axis: 0 }));
  });
});

// ---------------------------------------------------------------------------------------------
describe('the reference against tfjs-core 4.22 (cpu backend)', () => {
  const ready = tf.setBackend('cpu').then(() => tf.ready());
  const read = async (r) => ({ data: await r.data(), shape: r.shape.slice() });

  test('tf.whereAsync (bool x only): the torch layout, int32, rank 0 to 5', async () => {
    await ready;
    const rng = new Rng(43);
    for (let round = 0; round < 80; round++) {
      const x = randomTensor(rng, 'bool', randomShape(rng, rng.int(0, 5)), rng.pick([0, 0.5, 1]));
      const xt = tf.tensor(x.data.map((v) => (v ? 1 : 0)), x.shape, 'bool');
      const r = await tf.whereAsync(xt);
      const want = await read(r);
      tf.dispose([xt, r]);
      sameBitsAs(nonZeroRef(x, { layout: 'torch' }), want, `round ${round} [${x.shape}]`);
    }
    // a scalar: [nnz, 0], as torch and the reference
    for (const v of [true, false]) {
      const r = await tf.whereAsync(tf.scalar(v, 'bool'));
      assert.deepEqual(r.shape, [v ? 1 : 0, 0]);
      assert.deepEqual(nonZeroRef(u8([v ? 1 : 0], []), { layout: 'torch' }).shape, r.shape);
    }
  });

  // tfjs-cpu moves float32 elements through JavaScript numbers, which quiets a signaling NaN
  // (sets the top mantissa bit; the rest of the payload and the sign are kept): the reference's
  // output is compared with its signaling NaNs so quieted.
  const quieted = (r) => {
    if (!(r.data instanceof Float32Array)) return r;
    const b = new Uint32Array(r.data.buffer, r.data.byteOffset, r.data.length);
    const q = b.map((v) => ((v & 0x7f800000) === 0x7f800000 && (v & 0x7fffff) ? v | 0x400000 : v));
    return { data: new Float32Array(q.buffer), shape: r.shape };
  };

  test('tf.booleanMaskAsync quiets signaling NaNs (float32 through JS numbers); the reference keeps their bits', async () => {
    await ready;
    const x = f32bits([0x7f800001, 0xff812345, 0x7fc01234, 0x80000000]);
    const xt = tf.tensor(x.data, x.shape);
    const mt = tf.tensor([1, 1, 1, 1], [4], 'bool');
    const r = await tf.booleanMaskAsync(xt, mt);
    const want = await read(r);
    tf.dispose([xt, mt, r]);
    sameBitsAs(want, f32bits([0x7fc00001, 0xffc12345, 0x7fc01234, 0x80000000]), 'tfjs');
    sameBitsAs(booleanMaskRef(x, u8([1, 1, 1, 1])), x, 'reference');
  });

  test('tf.booleanMaskAsync (bool masks of 1 to 5 dims, axis >= 0), float32 (NaN payloads, -0) and int32', async () => {
    await ready;
    const rng = new Rng(44);
    for (let round = 0; round < 80; round++) {
      const dtype = rng.pick(['float32', 'int32']);
      const rank = rng.int(1, 5);
      const x = randomTensor(rng, dtype, randomShape(rng, rank), 0.1);
      const k = rng.int(1, rank), axis = rng.int(0, rank - k);
      const mask = randomTensor(rng, 'bool', x.shape.slice(axis, axis + k), rng.pick([0, 0.5, 1]));
      const xt = tf.tensor(x.data, x.shape, dtype);
      const mt = tf.tensor(mask.data.map((v) => (v ? 1 : 0)), mask.shape, 'bool');
      const r = await tf.booleanMaskAsync(xt, mt, axis);
      const want = await read(r);
      tf.dispose([xt, mt, r]);
      sameBitsAs(quieted(booleanMaskRef(x, mask, { axis })), want, `round ${round} ${dtype} [${x.shape}] mask [${mask.shape}] axis ${axis}`);
    }
  });

  test('tf.booleanMaskAsync refuses a 0-d mask, as the reference; and a negative axis, which the reference takes', async () => {
    await ready;
    const x = f32([1, 2, 3, 4, 5, 6], [2, 3]);
    for (const v of [true, false]) {
      await assert.rejects(tf.booleanMaskAsync(tf.tensor(x.data, x.shape), tf.scalar(v, 'bool')), /mask cannot be scalar/);
      assert.throws(() => booleanMaskRef(x, u8([v ? 1 : 0], [])), RangeError);
    }
    await assert.rejects(tf.booleanMaskAsync(tf.tensor(x.data, x.shape), tf.tensor([1, 0, 1], [3], 'bool'), -1), /must match/);
    assert.deepEqual(booleanMaskRef(x, u8([1, 0, 1]), { axis: -1 }), f32([1, 3, 4, 6], [2, 2]));
  });
});
