// common/reference-scatter.mjs proved against real peers, and the library's scatters with it: on
// every case a peer accepts, the reference and the library (simd-threaded, 2 threads, every op
// split over the pool) each give the peer's bits:
//   (a) onnxruntime-web 1.30 (one thread: updates in order): ScatterElements-18, ScatterND-18 and
//       TensorScatter-24 on seeded random cases, bit for bit, every reduction it has;
//   (b) tfjs-core 4.22 on tfjs-backend-cpu: scatterND, tensorScatterUpdate, unsortedSegmentSum;
//   (c) PyTorch 1.13: tests/fixtures/scatter-torch/cases.json (made by make-fixtures.py there).
// Where a peer does otherwise than the rules the reference follows, a test shows the peer's
// output on that case, with the rule we keep.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import api, { dispose, init } from '../lib/tested-api.mjs';
import {
  fromHalfBits, refIndexReduce, refScatter, refScatterND, refScatterOps, refTensorScatter, toHalfBits,
} from '../../common/reference-scatter.mjs';
import {
  firstDifference, indexReduceCases, sameBits, scatterCases, scatterNDCases, tensorScatterCases,
} from '../lib/scatter-cases.mjs';
import {
  ortHasTensorScatter, ortScatterElements, ortScatterND, ortTensorScatter, tfInit, tfScatterND,
  tfTensorScatterUpdate, tfUnsortedSegmentSum,
} from '../lib/scatter-peers.mjs';
import { decode } from '../lib/torch-fixtures.mjs';

const t = (data, shape) => ({ data, shape });
const f32 = (a, shape = [a.length]) => t(Float32Array.from(a), shape);
const i32 = (a, shape = [a.length]) => t(Int32Array.from(a), shape);
const run = (c) => refScatterOps[c.op](...c.args, c.opts);
const ours = (c) => api[c.op](...c.args, c.opts);

before(() => init({ variant: 'simd-threaded', threads: 2, parallelThreshold: 0 }));
after(() => dispose());
const canonical = (r) => ({ none: 'none', add: 'add', sum: 'add', mul: 'mul', prod: 'mul', max: 'max', amax: 'max', min: 'min', amin: 'min', mean: 'mean' })[r ?? 'none'];

// Compares every case's reference result with the peer's, bit for bit (firstDifference), and
// that either both throw or neither does. Returns how many cases ran to a result.
async function againstPeer(cases, peer) {
  let compared = 0;
  for (const c of cases) {
    let want;
    let wantErr;
    try {
      want = run(c);
    } catch (e) {
      wantErr = e;
    }
    let got;
    let gotErr;
    try {
      got = await peer(c);
    } catch (e) {
      gotErr = e;
    }
    if (wantErr || gotErr) {
      assert.ok(wantErr && gotErr, `${c.name}: reference ${wantErr ? `threw ${wantErr.message}` : 'ran'}, peer ${gotErr ? `threw ${gotErr.message}` : 'ran'}`);
      continue;
    }
    assert.deepEqual(got.shape, want.shape, c.name);
    const at = firstDifference(want.data, got.data, c.dtype, c.opts.reduce);
    assert.equal(at, -1, `${c.name}: element ${at}: reference ${want.data[at]}, peer ${got.data[at]}`);
    const mine = ours(c);
    const at2 = firstDifference(mine.data, got.data, c.dtype, c.opts.reduce);
    assert.equal(at2, -1, `${c.name}: element ${at2}: wasm-gather ${mine.data[at2]}, peer ${got.data[at2]}`);
    compared++;
  }
  return compared;
}

// ---------------------------------------------------------------------------------------------
describe('the reference by itself', () => {
  test('worked examples of the specifications', () => {
    // ONNX ScatterElements, examples 1 and 2 (https://onnx.ai/onnx/operators/onnx__ScatterElements.html).
    const ex1 = refScatter(f32(new Array(9).fill(0), [3, 3]), 0, i32([1, 0, 2, 0, 2, 1], [2, 3]),
      f32([1.0, 1.1, 1.2, 2.0, 2.1, 2.2], [2, 3]));
    assert.deepEqual(ex1.data, Float32Array.from([2.0, 1.1, 0.0, 1.0, 0.0, 2.2, 0.0, 2.1, 1.2]));
    const ex2 = refScatter(f32([1, 2, 3, 4, 5], [1, 5]), 1, i32([1, 3], [1, 2]), f32([1.1, 2.1], [1, 2]));
    assert.deepEqual(ex2.data, Float32Array.from([1.0, 1.1, 3.0, 2.1, 5.0]));
    // ONNX ScatterND, example 1 (https://onnx.ai/onnx/operators/onnx__ScatterND.html).
    const nd = refScatterND(f32([1, 2, 3, 4, 5, 6, 7, 8]), i32([4, 3, 1, 7], [4, 1]), f32([9, 10, 11, 12]));
    assert.deepEqual(nd.data, Float32Array.from([1, 11, 3, 10, 9, 6, 7, 12]));
    // torch.Tensor.scatter_reduce_ (https://pytorch.org/docs/stable/generated/torch.Tensor.scatter_reduce_.html).
    const src = f32([1, 2, 3, 4, 5, 6]);
    const index = i32([0, 1, 0, 1, 2, 1]);
    assert.deepEqual(refScatter(f32([1, 2, 3, 4]), 0, index, src, { reduce: 'sum' }).data, Float32Array.from([5, 14, 8, 4]));
    assert.deepEqual(refScatter(f32([1, 2, 3, 4]), 0, index, src, { reduce: 'amax', includeSelf: false }).data,
      Float32Array.from([3, 6, 5, 4]));
    // tf.math.unsorted_segment_sum (https://www.tensorflow.org/api_docs/python/tf/math/unsorted_segment_sum).
    const seg = refIndexReduce(f32(new Array(8).fill(0), [2, 4]), 0, i32([0, 1, 0]),
      f32([1, 2, 3, 4, 5, 6, 7, 8, 4, 3, 2, 1], [3, 4]), { reduce: 'add' });
    assert.deepEqual(seg.data, Float32Array.from([5, 5, 5, 5, 5, 6, 7, 8]));
  });

  test('the first bad index, in the index tensor\'s order, is reported with its position and value; nothing is written', () => {
    const input = f32([1, 2, 3]);
    const before = input.data.slice();
    const err = (fn) => {
      try {
        fn();
      } catch (e) {
        return e;
      }
      assert.fail('no error');
    };
    let e = err(() => refScatter(input, 0, t([0, 5, -9, 7], [4]), f32([0, 0, 0, 0])));
    assert.ok(e instanceof RangeError);
    assert.match(e.message, /^scatter: index 5 at position 1 .*\[-3, 2\]/);
    assert.equal(e.position, 1);
    assert.equal(e.value, 5);
    e = err(() => refScatter(input, 0, t(BigInt64Array.from([0n, -1n]), [2]), f32([0, 0]), { negativeIndices: 'error' }));
    assert.equal(e.position, 1);
    assert.equal(e.value, -1n);
    assert.match(e.message, /\[0, 2\]/);
    e = err(() => refScatterND(f32([0, 0, 0, 0], [2, 2]), t([0, 0, 1, 9], [2, 2]), f32([1, 2])));
    assert.match(e.message, /^scatterND: index 9 at position 3/);
    e = err(() => refIndexReduce(f32([0, 0]), 0, t([1, 2], [2]), f32([5, 6]), { reduce: 'add' }));
    assert.deepEqual([e.position, e.value], [1, 2]);
    e = err(() => refTensorScatter(f32([0, 0, 0, 0], [2, 2]), f32([1, 2], [2, 1]), t([1, 2], [2]), { axis: 1 }));
    assert.match(e.message, /^tensorScatter: index 2 at position 1 .*\[0, 1\]/);
    assert.deepEqual(input.data, before);
  });

  test('the inputs are never modified', () => {
    const all = [
      ...scatterCases(11, 150), ...scatterNDCases(11, 150), ...indexReduceCases(11, 150), ...tensorScatterCases(11, 150),
    ];
    for (const c of all) {
      const copies = c.args.map((a) => (a && typeof a === 'object' ? { data: a.data.slice(), shape: a.shape.slice() } : a));
      try {
        run(c);
      } catch {
        // error cases too
      }
      c.args.forEach((a, k) => {
        if (a && typeof a === 'object') {
          assert.deepEqual(a.shape, copies[k].shape, c.name);
          assert.ok(sameBits(a.data, copies[k].data, c.dtype), c.name);
        }
      });
    }
  });

  test('the reduce aliases, includeSelf with "none", and a Uint8ClampedArray wraps', () => {
    for (const c of scatterCases(12, 200, { aliases: false, outOfRange: ['drop', 'clamp'] })) {
      const r = canonical(c.opts.reduce);
      const alias = { add: 'sum', mul: 'prod', max: 'amax', min: 'amin' }[r];
      if (alias) assert.ok(sameBits(run(c).data, run({ ...c, opts: { ...c.opts, reduce: alias } }).data, c.dtype, r), c.name);
      if (r === 'none') assert.ok(sameBits(run(c).data, run({ ...c, opts: { ...c.opts, includeSelf: !c.opts.includeSelf } }).data, c.dtype), c.name);
    }
    const u8 = refScatter(t(Uint8ClampedArray.from([250, 3]), [2]), 0, t([0, 1], [2]), t(Uint8ClampedArray.from([10, 5]), [2]), { reduce: 'add' });
    assert.deepEqual(u8.data, Uint8ClampedArray.from([4, 8]));
    assert.equal(u8.data.constructor, Uint8ClampedArray);
  });

  test('outOfRange drop and clamp, negativeIndices error', () => {
    const input = f32([0, 0, 0]);
    const src = f32([1, 2, 3, 4, 5]);
    const idx = t([-1, 3, -4, 1, 7], [5]);
    assert.deepEqual(refScatter(input, 0, idx, src, { outOfRange: 'drop', reduce: 'add' }).data, Float32Array.from([0, 4, 1]));
    // clamp: -1 -> 2, 3 -> 2, -4 -> -1 -> 0, 1, 7 -> 2 (WebNN's rule)
    assert.deepEqual(refScatter(input, 0, idx, src, { outOfRange: 'clamp', reduce: 'add' }).data, Float32Array.from([3, 4, 8]));
    // negatives are out of range: dropped, or clamped to 0
    assert.deepEqual(refScatter(input, 0, idx, src, { outOfRange: 'drop', negativeIndices: 'error', reduce: 'add' }).data,
      Float32Array.from([0, 4, 0]));
    assert.deepEqual(refScatter(input, 0, idx, src, { outOfRange: 'clamp', negativeIndices: 'error', reduce: 'add' }).data,
      Float32Array.from([4, 4, 7]));
    // scatterND drops a whole slice when any component is out of range
    const nd = refScatterND(f32([0, 0, 0, 0], [2, 2]), t([1, 0, 0, 5], [2, 2]), f32([1, 2]), { outOfRange: 'drop' });
    assert.deepEqual(nd.data, Float32Array.from([0, 0, 1, 0]));
    // includeSelf false: only positions some kept update reaches start from the identity
    const ni = refScatter(i32([7, 7, 7]), 0, t([0, 9], [2]), i32([-3, 4]), { outOfRange: 'drop', reduce: 'max', includeSelf: false });
    assert.deepEqual(ni.data, Int32Array.from([-3, 7, 7]));
  });

  test('float16 and bfloat16 conversions: every value round-trips, halfway cases go to even', () => {
    for (const dtype of ['float16', 'bfloat16']) {
      const expMask = dtype === 'float16' ? 0x7c00 : 0x7f80;
      const manMask = dtype === 'float16' ? 0x03ff : 0x007f;
      for (let b = 0; b < 0x10000; b++) {
        const v = fromHalfBits(b, dtype);
        if ((b & expMask) === expMask && (b & manMask)) {
          assert.ok(Number.isNaN(v));
          continue;
        }
        assert.equal(toHalfBits(v, dtype), b, `${dtype} ${b.toString(16)}`);
        // the midpoint to the next value up (same sign) rounds to the even one of the two
        const next = b + 1;
        if ((next & 0x7fff) > (expMask | 0) || (b & 0x7fff) === expMask) continue;
        const mid = (v + fromHalfBits(next, dtype)) / 2;
        assert.equal(toHalfBits(mid, dtype), b % 2 === 0 ? b : next, `${dtype} midpoint after ${b.toString(16)}`);
      }
    }
    // overflow past the largest finite value's midpoint is Infinity; NaN stays a NaN
    assert.equal(toHalfBits(65520, 'float16'), 0x7c00);
    assert.equal(toHalfBits(65519.99, 'float16'), 0x7bff);
    assert.equal(toHalfBits(-Infinity, 'bfloat16'), 0xff80);
    assert.ok(Number.isNaN(fromHalfBits(toHalfBits(NaN, 'bfloat16'), 'bfloat16')));
  });

  test('float16 sums round after each update', () => {
    // 1 + 2^-11 is a tie that goes to 1, twice; rounded once, 1 + 2 * 2^-11 would be 1 + 2^-10.
    const h = (a) => t(Uint16Array.from(a.map((v) => toHalfBits(v, 'float16'))), [a.length]);
    const r = refScatter(h([1]), 0, t([0, 0], [2]), h([2 ** -11, 2 ** -11]), { reduce: 'add', dtype: 'float16' });
    assert.equal(fromHalfBits(r.data[0], 'float16'), 1);
  });
});

// ---------------------------------------------------------------------------------------------
// (a) onnxruntime-web. Its data types: every numeric one but bfloat16 (onnxruntime-web has no
// bfloat16 tensor); float16 only where its CPU kernels have it (below).
const ORT_DTYPES = ['float32', 'float64', 'int8', 'int16', 'int32', 'uint8', 'uint16', 'uint32', 'int64', 'uint64'];
// What onnxruntime accepts: no includeSelf, no mean, no policy but its own (negatives wrap, out
// of range is an error), indices of int32 or int64 (the runner widens the others to int64).
const ORT_CASES = {
  includeSelf: [true], outOfRange: ['error'], negativeIndices: ['wrap'], minRank: 1, srcLarger: false, valueForm: false,
  aliases: false, dtypes: ORT_DTYPES,
};

describe('(a) onnxruntime-web, bit for bit', () => {
  // float16: ScatterElements has none, max and min; ScatterND only none
  // (onnxruntime/core/providers/cpu/tensor/scatter.cc and scatter_nd.cc: MLFloat16 not implemented).
  for (const reduce of ['none', 'add', 'mul', 'max', 'min']) {
    // max / min without NaN and -0: onnxruntime's rule differs there (the deviation test below).
    const specials = reduce !== 'max' && reduce !== 'min';
    test(`ScatterElements-18 reduction ${reduce}`, async () => {
      const dtypes = reduce === 'add' || reduce === 'mul' ? ORT_DTYPES : [...ORT_DTYPES, 'float16'];
      const cases = scatterCases(100, 160, { ...ORT_CASES, dtypes, reduces: [reduce], specials });
      const n = await againstPeer(cases, (c) => {
        const [input, dim, index, src] = c.args;
        return ortScatterElements(input, dim, index, src, { reduction: reduce, dtype: c.opts.dtype });
      });
      assert.ok(n > 120, `only ${n} cases compared`);
    });
    test(`ScatterND-18 reduction ${reduce}`, async () => {
      const dtypes = reduce === 'none' ? [...ORT_DTYPES, 'float16'] : ORT_DTYPES;
      const cases = scatterNDCases(200, 160, { ...ORT_CASES, dtypes, reduces: [reduce], specials });
      const n = await againstPeer(cases, (c) => ortScatterND(...c.args, { reduction: reduce, dtype: c.opts.dtype }));
      assert.ok(n > 120, `only ${n} cases compared`);
    });
  }

  test('TensorScatter-24, linear and circular, with and without write indices', async (ctx) => {
    if (!(await ortHasTensorScatter())) {
      ctx.skip('this onnxruntime-web build has no TensorScatter-24');
      return;
    }
    const cases = tensorScatterCases(300, 300, { dtypes: [...ORT_DTYPES, 'float16'] });
    const n = await againstPeer(cases, (c) => ortTensorScatter(...c.args, c.opts));
    assert.ok(n > 220, `only ${n} cases compared`);
  });

  test('TensorScatter-24: update longer than the cache is an error in circular mode too', async () => {
    const args = [f32([0, 0], [1, 2]), f32([1, 2, 3], [1, 3]), t([0], [1])];
    await assert.rejects(ortTensorScatter(...args, { axis: 1, mode: 'circular' }), /sequence_length \(3\) exceeds/);
    assert.throws(() => refTensorScatter(...args, { axis: 1, mode: 'circular' }), /must be <= cache.shape\[axis\]/);
  });

  test('deviation: onnxruntime max/min replace a NaN in place, and a tie writes the update\'s zero', async () => {
    // onnxruntime's Func_Max is `a = a > b ? a : b` (scatter.cc): a NaN in place compares false
    // and is replaced; +0 vs -0 compares false and the update's sign is written. The reference
    // keeps a NaN in place against a number and keeps the value in place on a tie (torch's amax /
    // amin do the same: the torch fixtures below).
    const input = f32([NaN, 1, 0, -0]);
    const index = i32([0, 1, 2, 3]);
    const src = f32([5, NaN, -0, 0]);
    for (const reduce of ['max', 'min']) {
      const ortSE = await ortScatterElements(input, 0, index, src, { reduction: reduce });
      const ortND = await ortScatterND(input, t([0, 1, 2, 3], [4, 1]), src, { reduction: reduce });
      for (const got of [ortSE, ortND]) assert.ok(sameBits(got.data, Float32Array.from([5, NaN, -0, 0]), 'float32'));
      const want = refScatter(input, 0, index, src, { reduce });
      assert.ok(sameBits(want.data, Float32Array.from([NaN, NaN, 0, -0]), 'float32'));
    }
  });
});

// ---------------------------------------------------------------------------------------------
// (b) TensorFlow.js on its cpu backend: float32 and int32, int32 indices, no negative indices
// (tfjs does not wrap them), updates of rank >= 1, no signaling NaNs (tfjs quiets them: the
// deviation below).
const TF_CASES = {
  dtypes: ['float32', 'int32'], indexTypes: ['int32', 'array'], includeSelf: [true], outOfRange: ['error'],
  negativeIndices: ['wrap'], negatives: false, errors: false, minRank: 1, minK: 1, minRowRank: 1, aliases: false,
  signaling: false,
};
const zerosLike = (x) => t(new x.data.constructor(x.data.length), x.shape);

describe('(b) tfjs-backend-cpu', () => {
  before(() => tfInit());

  test('tf.scatterND is scatterND add over zeros, bit for bit', async () => {
    const cases = scatterNDCases(400, 200, { ...TF_CASES, reduces: ['add'] })
      .map((c) => ({ ...c, args: [zerosLike(c.args[0]), c.args[1], c.args[2]] }));
    const n = await againstPeer(cases, (c) => tfScatterND(c.args[1], c.args[2], c.args[0].shape));
    assert.ok(n > 180, `only ${n} cases compared`);
  });

  test('tf.tensorScatterUpdate is scatterND none, bit for bit', async () => {
    const cases = scatterNDCases(500, 200, { ...TF_CASES, reduces: ['none'] });
    const n = await againstPeer(cases, (c) => tfTensorScatterUpdate(...c.args));
    assert.ok(n > 180, `only ${n} cases compared`);
  });

  test('tf.unsortedSegmentSum (1-D ids) is indexReduce add over zeros, ids out of range dropped', async () => {
    // tfjs drops an id < 0 or >= numSegments (its mask never matches): outOfRange 'drop' with
    // negativeIndices 'error'. Exact where every partial sum is a float32 (no rough values):
    // tfjs sums in doubles and rounds once (the deviation below).
    const cases = indexReduceCases(600, 200, {
      dtypes: ['float32'], indexTypes: ['int32', 'array'], reduces: ['add'], includeSelf: [true], outOfRange: ['drop'],
      negativeIndices: ['error'], axis: 0, indexRanks: [1], specials: false, rough: false, empty: false, aliases: false,
    }).map((c) => ({ ...c, args: [zerosLike(c.args[0]), 0, c.args[2], c.args[3]] }));
    const n = await againstPeer(cases, (c) => tfUnsortedSegmentSum(c.args[3], c.args[2], c.args[0].shape[0]));
    assert.ok(n > 180, `only ${n} cases compared`);
  });

  const segRef = (x, ids, numSegments) => refIndexReduce(
    t(new x.data.constructor(numSegments * (x.data.length / Math.max(ids.data.length, 1))), [numSegments, ...x.shape.slice(ids.shape.length)]),
    0, ids, x, { reduce: 'add', outOfRange: 'drop', negativeIndices: 'error' });

  test('deviation: tf.unsortedSegmentSum rounds a float32 sum once, not after each update', () => {
    // tfjs-cpu multiplies x by a 0/1 mask per segment and sums in a JS number (kernels/Sum.js),
    // stored once; the reference rounds to float32 after each update, as scatter add does.
    const x = f32([1, 2 ** -24, 2 ** -24]);
    const ids = i32([0, 0, 0]);
    assert.deepEqual(tfUnsortedSegmentSum(x, ids, 1).data, Float32Array.from([1 + 2 ** -23]));
    assert.deepEqual(segRef(x, ids, 1).data, Float32Array.from([1]));
  });

  test('deviation: a NaN or an Infinity in one segment of tf.unsortedSegmentSum poisons the others', () => {
    // The mask of another segment is 0, and 0 * NaN = 0 * Infinity = NaN enters its sum.
    const ids = i32([0, 1, 2]);
    assert.ok(sameBits(tfUnsortedSegmentSum(f32([1, NaN, 4]), ids, 3).data, Float32Array.from([NaN, NaN, NaN]), 'float32', 'add'));
    assert.ok(sameBits(tfUnsortedSegmentSum(f32([1, Infinity, 4]), ids, 3).data, Float32Array.from([NaN, Infinity, NaN]), 'float32', 'add'));
    assert.ok(sameBits(segRef(f32([1, NaN, 4]), ids, 3).data, Float32Array.from([1, NaN, 4]), 'float32', 'add'));
    assert.ok(sameBits(segRef(f32([1, Infinity, 4]), ids, 3).data, Float32Array.from([1, Infinity, 4]), 'float32', 'add'));
  });

  test('deviation: tf.unsortedSegmentSum of int32 returns float32', () => {
    // The float32 mask makes the product float32: 2^24 + 1 and 2^31 - 1 are rounded.
    const x = i32([2 ** 24 + 1, 2 ** 31 - 1]);
    const got = tfUnsortedSegmentSum(x, i32([0, 1]), 2);
    assert.equal(got.data.constructor, Float32Array);
    assert.deepEqual(got.data, Float32Array.from([16777216, 2147483648]));
    assert.deepEqual(segRef(x, i32([0, 1]), 2).data, Int32Array.from([2 ** 24 + 1, 2 ** 31 - 1]));
  });

  test('deviation: tf.unsortedSegmentSum with segment ids of rank != 1 sums over the first axis only', () => {
    // tf.math.unsorted_segment_sum: output shape [numSegments] + x.shape[ids.rank:]. tfjs-cpu
    // reduces the masked product over axis 0 alone.
    const x = f32([1, 2, 4, 8, 16, 32], [2, 3]);
    const ids = i32([1, 0, 1, 1, 2, 0], [2, 3]);
    const got = tfUnsortedSegmentSum(x, ids, 3);
    assert.deepEqual(got.shape, [3, 3]);
    assert.deepEqual(got.data, Float32Array.from([0, 2, 32, 9, 0, 4, 0, 16, 0]));
    const want = segRef(x, ids, 3);
    assert.deepEqual(want.shape, [3]);
    assert.deepEqual(want.data, Float32Array.from([34, 13, 16]));
    const scalarIds = tfUnsortedSegmentSum(f32([1, 2]), t([1], []), 3);
    assert.deepEqual([scalarIds.shape, scalarIds.data], [[3], Float32Array.from([0, 3, 0])]);
    assert.deepEqual(segRef(f32([1, 2]), t([1], []), 3).data, Float32Array.from([0, 0, 1, 2, 0, 0]));
  });

  test('deviation: tf.scatterND checks only the flat offset of an index tuple', () => {
    // kernels/Scatter_impl.js sums index * stride and checks that against the row count, so a
    // component out of its own range lands in another row, and a negative one counts back.
    const shape = [3, 2];
    const tooBig = tfScatterND(t([0, 3], [1, 2]), f32([5]), shape);
    assert.deepEqual(tooBig.data, Float32Array.from([0, 0, 0, 5, 0, 0])); // written at [1, 1]
    assert.throws(() => refScatterND(f32([0, 0, 0, 0, 0, 0], shape), t([0, 3], [1, 2]), f32([5])),
      (e) => e.position === 1 && e.value === 3);
    const negative = tfScatterND(t([1, -1], [1, 2]), f32([5]), shape);
    assert.deepEqual(negative.data, Float32Array.from([0, 5, 0, 0, 0, 0])); // [0, 1]
    assert.deepEqual(refScatterND(f32([0, 0, 0, 0, 0, 0], shape), t([1, -1], [1, 2]), f32([5])).data,
      Float32Array.from([0, 0, 0, 5, 0, 0])); // -1 wraps to 1: [1, 1]
  });

  test('deviation: tf.scatterND with index tuples of length 0 writes nothing', () => {
    // indices [2, 0]: two empty tuples, each addressing the whole tensor; tf.scatter_nd sums both.
    const got = tfScatterND(t([], [2, 0]), f32([1, 2, 3, 4, 5, 6], [2, 3]), [3]);
    assert.deepEqual(got.data, Float32Array.from([0, 0, 0]));
    const want = refScatterND(f32([0, 0, 0]), t([], [2, 0]), f32([1, 2, 3, 4, 5, 6], [2, 3]), { reduce: 'add' });
    assert.deepEqual(want.data, Float32Array.from([5, 7, 9]));
  });

  test('deviation: tf.tensorScatterUpdate quiets a signaling NaN', () => {
    // tfjs-cpu moves each value through a JS number, and V8's float32 -> float64 conversion sets
    // a signaling NaN's quiet bit (ECMAScript leaves a NaN's bits in a Float32Array to the
    // engine: https://tc39.es/ecma262/#sec-numerictorawbytes). The reference writes the bits.
    const bits = (x) => new Uint32Array(x.data.buffer, x.data.byteOffset, x.data.length);
    const sNaN = t(new Float32Array(Uint32Array.from([0x7f800001, 0xff812345]).buffer), [2, 1]);
    const args = [f32([0, 0], [2, 1]), t([0, 1], [2, 1]), sNaN];
    assert.deepEqual(bits(tfTensorScatterUpdate(...args)), Uint32Array.from([0x7fc00001, 0xffc12345]));
    assert.deepEqual(bits(refScatterND(...args)), Uint32Array.from([0x7f800001, 0xff812345]));
  });

  test('deviation: tf.tensorScatterUpdate writes into its input tensor', () => {
    // kernels/TensorScatterUpdate.js scatters into backend.bufferSync(tensor), the tensor's own
    // values. The reference returns a new array and leaves the input as it was.
    const input = f32([9, 9, 9, 9]);
    const got = tfTensorScatterUpdate(input, t([1, 1, 0], [3, 1]), f32([1, 2, 3]));
    assert.deepEqual(got.data, Float32Array.from([3, 2, 9, 9]));
    assert.deepEqual(got.tensorAfter, Float32Array.from([3, 2, 9, 9])); // the input tensor, changed
    assert.deepEqual(refScatterND(input, t([1, 1, 0], [3, 1]), f32([1, 2, 3])).data, Float32Array.from([3, 2, 9, 9]));
    assert.deepEqual(input.data, Float32Array.from([9, 9, 9, 9]));
  });
});

// ---------------------------------------------------------------------------------------------
// (c) PyTorch 1.13 (Debian's python3-torch), from tests/fixtures/scatter-torch/cases.json.

describe('(c) PyTorch 1.13 fixtures', () => {
  const fixtures = JSON.parse(readFileSync(new URL('../fixtures/scatter-torch/cases.json', import.meta.url)));

  test('the fixtures cover what they should', () => {
    assert.match(fixtures.torch, /^1\.13/);
    const names = fixtures.cases.map((c) => c.name).join('\n');
    for (const want of ['scatter_add', 'scatter_reduce mean include_self=False int32', 'scatter_reduce amax NaN',
      'index_add', 'index_copy', 'index_reduce amin include_self=False', 'scatter_add float16', 'index_add bfloat16',
      'scatter_reduce amax NaN meets NaN include_self=True float32', 'index_reduce amin NaN meets NaN include_self=False bfloat16']) {
      assert.ok(names.includes(want), want);
    }
  });

  // torch 1.13 agrees with every rule the reference follows on these cases: float16 and bfloat16
  // sums round after each update, amax / amin let a NaN update win with its bits (over a NaN in
  // place too), keep a NaN in place against a number and keep the value in place on a tie of
  // zeros, integer means floor. Its only difference is in what it
  // accepts: it refuses negative indices (no wrapping), matched here by negativeIndices 'error'.
  for (const c of fixtures.cases) {
    test(c.name, () => {
      const args = c.args.map(decode);
      if (c.error) {
        assert.throws(() => refScatterOps[c.op](...args, c.opts), RangeError, `torch: ${c.error}`);
        assert.throws(() => api[c.op](...args, c.opts), RangeError, `torch: ${c.error}`);
        return;
      }
      const want = decode(c.expected);
      for (const [who, fn] of [['reference', refScatterOps[c.op]], ['wasm-gather', api[c.op]]]) {
        const got = fn(...args, c.opts);
        assert.deepEqual(got.shape, want.shape);
        const at = firstDifference(got.data, want.data, c.opts.dtype ?? c.expected.dtype, c.opts.reduce);
        assert.equal(at, -1, `element ${at}: ${who} ${got.data[at]}, torch ${want.data[at]}`);
      }
    });
  }
});
