// The fused gather-reduce ops' plain-JS references (common/reference-bag.mjs) against PyTorch
// 1.13 (Debian's python3-torch), bit for bit, from tests/fixtures/bag-torch/cases.json (made by
// make-fixtures.py there): embedding_bag in every mode and index form, with padding and
// per-sample weights (float32's fused multiply-add), max's indices, NaN and signed zeros, in
// float32, float64 and float16; segment_reduce with lengths and offsets, initial, along axis 1.
// And the segmentIds form against TensorFlow.js's sparseSegmentSum / sparseSegmentMean (cpu
// backend), bit for bit, on seeded random calls. These references are what the ops' kernels will
// be checked against.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fma32, refBagOps } from '../../common/reference-bag.mjs';
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { decode } from '../lib/torch-fixtures.mjs';
import { Rng } from '../lib/rng.mjs';

// The bits of each element (NaN payloads and signed zeros included).
function bits(data) {
  const b = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  const w = data.BYTES_PER_ELEMENT;
  return Array.from({ length: data.length }, (_, i) => Buffer.from(b.subarray(i * w, (i + 1) * w)).toString('hex'));
}

function sameBitsAs(got, want, what) {
  assert.deepEqual(got.shape, want.shape, `${what}: shape`);
  assert.equal(got.data.constructor, want.data.constructor, `${what}: type`);
  const g = bits(got.data), w = bits(want.data);
  const at = g.findIndex((x, i) => x !== w[i]);
  assert.equal(at, -1, `${what}: element ${at}: reference ${got.data[at]} (${g[at]}), torch ${want.data[at]} (${w[at]})`);
}

test('fma32 rounds once where float64 would round twice', () => {
  // (1 + 2^-15)(1 - 2^-15) = 1 - 2^-30, exact in float64; added to 2^24 + 2 it lands in float64
  // on 2^24 + 3, halfway between two float32s, which ties to 2^24 + 4; the exact sum is below it
  const a = 1 + 2 ** -15, b = 1 - 2 ** -15, c = 2 ** 24 + 2;
  assert.equal(Math.fround(a * b + c), 2 ** 24 + 4);
  assert.equal(fma32(a, b, c), 2 ** 24 + 2);
  assert.equal(fma32(-a, b, -c), -(2 ** 24 + 2));
  // no tie: (1 + 2^-15)^2 = 1 + 2^-14 + 2^-30 from 2^24 lies above the halfway point, and rounds up
  assert.equal(fma32(a, a, 2 ** 24), 2 ** 24 + 2);
  assert.equal(fma32(0.5, 3, 1), 2.5);
  assert.ok(Number.isNaN(fma32(NaN, 1, 1)));
  assert.equal(fma32(Infinity, 1, 1), Infinity);
});

describe('(fused gather-reduce) the references against PyTorch 1.13', () => {
  const fixtures = JSON.parse(readFileSync(new URL('../fixtures/bag-torch/cases.json', import.meta.url)));

  test('the fixtures cover what they should', () => {
    assert.match(fixtures.torch, /^1\.13/);
    const names = fixtures.cases.map((c) => c.name).join('\n');
    for (const want of ['embedding_bag sum per_sample_weights float32 long bags (fused multiply-add)',
      'embedding_bag mean float16 long bags', 'embedding_bag max NaN and signed zeros float32',
      'embedding_bag max 2-D padding_idx float64, returnIndices', 'embedding_bag mean include_last_offset float16',
      'segment_reduce mean initial float32', 'segment_reduce max NaN and signed zeros float64', 'segment_reduce prod axis 1 float64']) {
      assert.ok(names.includes(want), want);
    }
  });

  for (const c of fixtures.cases) {
    test(c.name, () => {
      const args = c.args.map(decode);
      const opts = Object.fromEntries(Object.entries(c.opts).map(([k, v]) => [k, decode(v)]));
      const run = () => refBagOps[c.op](...args, opts);
      if (c.error) {
        assert.throws(run, RangeError, `torch: ${c.error}`);
        return;
      }
      const got = run();
      sameBitsAs(got, decode(c.expected), 'output');
      if (c.expectedIndices) sameBitsAs(got.maxIndices, decode(c.expectedIndices), 'max indices');
    });
  }
});

test('the segmentIds form against tfjs sparseSegmentSum and sparseSegmentMean (cpu), bit for bit', async () => {
  await tf.setBackend('cpu');
  const rng = new Rng(28);
  for (let round = 0; round < 40; round++) {
    const rows = rng.int(1, 30), dim = rng.int(1, 9), n = rng.int(1, 40);
    const weight = { data: Float32Array.from({ length: rows * dim }, () => (rng.int(-4000, 4000) / 37) * 10 ** rng.int(-3, 3)), shape: [rows, dim] };
    const ids = Int32Array.from({ length: n }, () => rng.int(0, rows - 1));
    let s = 0; // sorted, with gaps (empty segments) and repeats
    const seg = Int32Array.from({ length: n }, () => (s += rng.int(0, 2)));
    for (const [mode, fn] of [['sum', tf.sparse.sparseSegmentSum], ['mean', tf.sparse.sparseSegmentMean]]) {
      const want = tf.tidy(() => fn(tf.tensor(weight.data, weight.shape), tf.tensor(ids, [n], 'int32'), tf.tensor(seg, [n], 'int32')).dataSync().slice());
      const got = refBagOps.embeddingBag(weight, { data: ids, shape: [n] }, { mode, segmentIds: { data: seg, shape: [n] } });
      sameBitsAs(got, { data: want, shape: [seg[n - 1] + 1, dim] }, `round ${round} ${mode}`);
    }
  }
});

test('the segmentIds form: unsorted ids are refused, pointing to indexReduce; numSegments adds empty bags', () => {
  const w = { data: Float32Array.from([1, 2, 3]), shape: [3, 1] };
  const ids = { data: Int32Array.from([0, 1, 2]), shape: [3] };
  assert.throws(() => refBagOps.embeddingBag(w, ids, { segmentIds: { data: Int32Array.from([0, 2, 1]), shape: [3] } }), /sorted .*indexReduce/);
  const got = refBagOps.embeddingBag(w, ids, { mode: 'sum', segmentIds: { data: Int32Array.from([1, 1, 3]), shape: [3] }, numSegments: 5 });
  assert.deepEqual(Array.from(got.data), [0, 3, 0, 3, 0]);
  // TensorFlow's combiners with weights: sum w x / sum w, and sum w x / sqrt(sum w^2)
  const wts = { data: Float32Array.from([1, 3, 2]), shape: [3] };
  const mean = refBagOps.embeddingBag(w, ids, { mode: 'mean', perSampleWeights: wts, segmentIds: { data: Int32Array.from([0, 0, 0]), shape: [3] } });
  assert.deepEqual(Array.from(mean.data), [Math.fround((1 + 6 + 6) / 6)]);
  const sqrtn = refBagOps.embeddingBag(w, ids, { mode: 'sqrtn', perSampleWeights: wts, segmentIds: { data: Int32Array.from([0, 0, 0]), shape: [3] } });
  assert.deepEqual(Array.from(sqrtn.data), [Math.fround(13 / Math.fround(Math.sqrt(14)))]);
  assert.throws(() => refBagOps.embeddingBag(w, ids, { mode: 'max', perSampleWeights: wts, offsets: { data: Int32Array.from([0]), shape: [1] } }), /max/);
});

test('segmentReduce with segmentIds: TensorFlow\'s documented examples, and its empty segments (zeros)', () => {
  // https://www.tensorflow.org/api_docs/python/tf/math/segment_sum (and _max, _min, _mean, _prod)
  const c = { data: Float32Array.from([1, 2, 3, 4, 4, 3, 2, 1, 5, 6, 7, 8]), shape: [3, 4] };
  const segmentIds = { data: Int32Array.from([0, 0, 1]), shape: [3] };
  const want = { sum: [5, 5, 5, 5, 5, 6, 7, 8], max: [4, 3, 3, 4, 5, 6, 7, 8], min: [1, 2, 2, 1, 5, 6, 7, 8],
    mean: [2.5, 2.5, 2.5, 2.5, 5, 6, 7, 8], prod: [4, 6, 6, 4, 5, 6, 7, 8] };
  for (const [reduce, values] of Object.entries(want)) {
    const got = refBagOps.segmentReduce(c, { reduce, segmentIds });
    assert.deepEqual(got.shape, [2, 4]);
    assert.deepEqual(Array.from(got.data), values, reduce);
  }
  for (const reduce of ['sum', 'mean', 'max', 'min', 'prod']) { // an empty segment (id 1) and one past the ids
    const got = refBagOps.segmentReduce(c, { reduce, segmentIds: { data: Int32Array.from([0, 2, 2]), shape: [3] }, numSegments: 4 });
    assert.deepEqual(Array.from(got.data.subarray(4, 8)), [0, 0, 0, 0], reduce);
    assert.deepEqual(Array.from(got.data.subarray(12)), [0, 0, 0, 0], reduce);
  }
  assert.throws(() => refBagOps.segmentReduce(c, { reduce: 'sum', segmentIds: { data: Int32Array.from([1, 0, 1]), shape: [3] } }), /sorted .*indexReduce/);
});
