// wasm-gather/tfjs's SparseSegmentSum and SparseSegmentMean on TensorFlow.js's cpu backend and its
// wasm backend, in place (the default) and copying (registerKernels(tf, { inPlace: false })):
// seeded random tf.sparse.sparseSegmentSum / sparseSegmentMean, valid and not, against stock
// tfjs-backend-cpu's kernels on the same inputs: the same dtype, shape and bits (a NaN: any NaN),
// or the same error message. Also: int32 sums that wrap, long segments, what stock
// tfjs-backend-wasm gets wrong, bool handed to the kernel registered before, nothing left behind.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { after, before, describe, test } from 'node:test';
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import { heapStats } from '../../js/index.mjs';
import { kernelStats, registerKernels, unregisterKernels } from '../../js/tfjs.mjs';
import { Rng } from '../lib/rng.mjs';

const ARRAY = { float32: Float32Array, int32: Int32Array };
const OPS = { SparseSegmentSum: (...a) => tf.sparse.sparseSegmentSum(...a), SparseSegmentMean: (...a) => tf.sparse.sparseSegmentMean(...a) };
const size = (shape) => shape.reduce((a, b) => a * b, 1);
const calls = (key) => kernelStats().calls[key] ?? 0;

before(() => {
  tf.enableProdMode(); // only silences the "install tfjs-node" advice
  setWasmPaths(`${dirname(createRequire(import.meta.url).resolve('@tensorflow/tfjs-backend-wasm'))}/`);
});
after(() => unregisterKernels(tf));

// Floats mostly quarters (exact sums), sometimes any mantissa (sums round: the order shows) or
// NaN, ±0, ±Infinity; int32 small, sometimes near its ends (sums wrap).
function values(rng, dtype, n) {
  const a = new ARRAY[dtype](n);
  for (let i = 0; i < n; i++) {
    if (dtype === 'int32') a[i] = rng.chance(0.15) ? rng.pick([-(2 ** 31), -(2 ** 31) + 1, 2 ** 31 - 2, 2 ** 31 - 1]) : rng.int(-9, 9);
    else if (rng.chance(0.03)) a[i] = rng.pick([NaN, 0, -0, Infinity, -Infinity]);
    else a[i] = rng.chance(0.4) ? (rng.next() - 0.5) * 2 ** rng.int(-3, 20) : rng.int(-8, 8) / 4;
  }
  return a;
}

// A call: data [rows, ...inner], n indices, sorted ids from 0-3 on with holes; one in four broken
// one way (tfjs's checks, which throw).
const BREAKS = ['index below 0', 'index past the end', 'ids decrease', 'a negative first id', 'a negative last id', 'sizes differ'];
function segmentCase(rng, kernel, dtype) {
  const rows = rng.chance(0.05) ? 0 : rng.int(1, 12);
  const inner = Array.from({ length: rng.int(0, 2) }, () => (rng.chance(0.05) ? 0 : rng.int(1, 5)));
  const n = rows === 0 ? 0 : rng.int(rng.chance(0.1) ? 0 : 1, 20);
  const idx = Int32Array.from({ length: n }, () => rng.int(0, rows - 1));
  const ids = new Int32Array(n);
  for (let i = 0, id = rng.int(0, 3); i < n; i++, id += rng.chance(0.6) ? 0 : rng.int(1, 3)) ids[i] = id;
  const broken = n > 1 && rng.chance(0.25) ? rng.pick(BREAKS) : undefined;
  let segmentIds = ids;
  if (broken === 'index below 0') idx[rng.int(0, n - 1)] = rng.pick([-1, -(2 ** 31)]);
  if (broken === 'index past the end') idx[rng.int(0, n - 1)] = rng.pick([rows, rows + 3, 2 ** 31 - 1]);
  if (broken === 'ids decrease') ids[rng.int(1, n - 1)] -= rng.int(1, 4);
  if (broken === 'a negative first id') ids[0] = -rng.int(1, 2);
  if (broken === 'a negative last id') ids[n - 1] = -rng.int(1, 2);
  if (broken === 'sizes differ') segmentIds = ids.subarray(0, n - 1);
  const shape = [rows, ...inner];
  return {
    kernel, dtype, broken, shape, data: values(rng, dtype, size(shape)), idx, ids: segmentIds,
    name: `${kernel} ${dtype} data [${shape}] indices ${JSON.stringify(Array.from(idx))} ids ${JSON.stringify(Array.from(segmentIds))}`,
  };
}

// Long segments, of thousands of rows in any order: float32's sums round, in their order.
function longCase(rng, kernel) {
  const shape = [300, 37], n = 5000;
  const ids = Int32Array.from({ length: n }, (_, i) => Math.floor((i * i) / 2e6)); // 0 to 12, longer and longer
  const data = Float32Array.from({ length: size(shape) }, () => (rng.next() - 0.5) * 2 ** rng.int(-4, 12));
  return { kernel, dtype: 'float32', shape, data, idx: Int32Array.from({ length: n }, () => rng.int(0, 299)), ids, name: `${kernel} long` };
}

const CASES = [];
{
  const rng = new Rng(0x5e65);
  for (const kernel of Object.keys(OPS)) {
    for (const dtype of ['float32', 'int32']) for (let k = 0; k < 200; k++) CASES.push(segmentCase(rng, kernel, dtype));
    CASES.push(longCase(rng, kernel));
  }
}

// What a call gives: { dtype, shape, data (a copy) } or { error: its message }, its tensors freed.
function outcome(c) {
  try {
    return tf.tidy(() => {
      const y = OPS[c.kernel](tf.tensor(c.data, c.shape, c.dtype), tf.tensor1d(c.idx, 'int32'), tf.tensor1d(c.ids, 'int32'));
      return { dtype: y.dtype, shape: y.shape, data: y.dataSync().slice() };
    });
  } catch (e) {
    return { error: e.message };
  }
}

// The first element whose bits differ (two NaNs agree), or -1.
function firstDifference(a, b) {
  const ai = new Int32Array(a.buffer, a.byteOffset, a.length), bi = new Int32Array(b.buffer, b.byteOffset, b.length);
  for (let i = 0; i < a.length; i++) if (ai[i] !== bi[i] && !(Number.isNaN(a[i]) && Number.isNaN(b[i]))) return i;
  return -1;
}

let want; // stock tfjs-backend-cpu's outcome of each case
before(async () => {
  unregisterKernels(tf);
  await tf.setBackend('cpu');
  want = CASES.map(outcome);
});

test('the cases cover what they should', () => {
  const count = (f) => CASES.filter((c, i) => f(c, want[i])).length;
  // an int32 segment whose sum passes int32's ends (summed exactly here, in float64)
  const wraps = (c) => {
    const inner = size(c.shape.slice(1)), sums = new Map();
    c.ids.forEach((id, j) => {
      for (let e = 0; e < inner; e++) sums.set(id * inner + e, (sums.get(id * inner + e) ?? 0) + c.data[c.idx[j] * inner + e]);
    });
    return [...sums.values()].some((v) => v !== (v | 0));
  };
  const found = {
    wraps: count((c, w) => c.dtype === 'int32' && !w.error && wraps(c)), holes: count((c) => !c.broken && c.ids.some((id, i) => i > 0 && id > c.ids[i - 1] + 1)),
    empty: count((c, w) => w.data?.length === 0), nan: count((c, w) => w.data?.some(Number.isNaN)),
    ...Object.fromEntries(BREAKS.map((b) => [b, count((c, w) => c.broken === b && w.error)])),
  };
  for (const [what, n] of Object.entries(found)) assert.ok(n >= 4, `${what}: ${n} cases`);
});

const CONFIGS = [{ backend: 'cpu' }, { backend: 'wasm', inPlace: true }, { backend: 'wasm', inPlace: false }];
for (const { backend, inPlace } of CONFIGS) {
  const label = inPlace === undefined ? '' : inPlace ? ', in place' : ', copying (inPlace: false)';
  describe(`SparseSegmentSum and SparseSegmentMean on tfjs's ${backend} backend${label}`, () => {
    before(async () => {
      unregisterKernels(tf);
      await registerKernels(tf, inPlace === undefined ? {} : { inPlace });
      await tf.setBackend(backend);
    });

    test("seeded random calls: stock tfjs-backend-cpu's bits, or its error", () => {
      const before = kernelStats();
      CASES.forEach((c, i) => {
        const got = outcome(c);
        if (want[i].error !== undefined) {
          assert.deepEqual(got, want[i], c.name);
          return;
        }
        assert.deepEqual({ dtype: got.dtype, shape: got.shape }, { dtype: want[i].dtype, shape: want[i].shape }, c.name);
        const at = firstDifference(got.data, want[i].data);
        assert.equal(at, -1, `${c.name}: element ${at}: ${got.data[at]}, tfjs ${want[i].data[at]}`);
      });
      // Served, all of them (but those tfjs's checks refuse before the op: a negative last id,
      // sizes that differ), none handed on; the float32 ones in tfjs's memory when in place.
      const served = CASES.filter((c) => c.broken !== 'a negative last id' && c.broken !== 'sizes differ');
      const after = kernelStats();
      for (const kernel of Object.keys(OPS)) {
        const key = `${backend}/${kernel}`;
        assert.equal((after.calls[key] ?? 0) - (before.calls[key] ?? 0), served.filter((c) => c.kernel === kernel).length, key);
      }
      assert.deepEqual(after.fallbacks, before.fallbacks);
      const ran = CASES.filter((c, i) => c.dtype === 'float32' && want[i].error === undefined).length;
      assert.equal(after.inPlace - before.inPlace, inPlace ? ran : 0, 'in place');
    });

    test('bool data goes to the kernel registered before', () => {
      const before = kernelStats().fallbacks[`${backend}/SparseSegmentSum`] ?? 0;
      tf.tidy(() => tf.sparse.sparseSegmentSum(tf.tensor1d([true, false], 'bool'), tf.tensor1d([0, 1], 'int32'), tf.tensor1d([0, 0], 'int32')));
      assert.equal(kernelStats().fallbacks[`${backend}/SparseSegmentSum`], before + 1);
    });

    test("nothing leaks: tf.memory(), the data ids, wasm-gather's heap, after results and errors", () => {
      const base = { tensors: tf.memory().numTensors, ids: tf.engine().backend.numDataIds() };
      const table = tf.randomUniform([1000, 64]);
      const ints = tf.randomUniform([1000, 8], -100, 100, 'int32');
      const i = tf.tensor1d([5, 999, 0, 5], 'int32');
      const ids = tf.tensor1d([0, 0, 2, 2], 'int32');
      for (let n = 0; n < 3; n++) {
        for (const x of [table, ints]) {
          tf.sparse.sparseSegmentSum(x, i, ids).dispose();
          tf.sparse.sparseSegmentMean(x, i, ids).dispose();
        }
      }
      const heap = heapStats().heapInUse; // with the table cached, where the copying path caches it
      const bad = tf.tensor1d([1000, 0, 0, 0], 'int32');
      for (const x of [table, ints]) {
        assert.throws(() => tf.sparse.sparseSegmentMean(x, bad, ids), { message: 'Bad: indices[0] == 1000 out of range [0, 1000)' });
      }
      assert.equal(heapStats().heapInUse, heap);
      tf.dispose([table, ints, i, ids, bad]);
      assert.equal(tf.memory().numTensors, base.tensors);
      assert.equal(tf.engine().backend.numDataIds(), base.ids);
      assert.equal(kernelStats().cached, 0, 'the cached table freed with its tensor');
    });
  });
}

// Stock tfjs-backend-wasm's kernel (its C++ SparseSegmentReduction) does not check that the
// indices and the ids have one size; the adapter's throws tfjs-backend-cpu's error there too.
test("stock tfjs-backend-wasm does not check the sizes; with the adapter, tfjs-backend-cpu's error", async () => {
  const call = () => outcome({ kernel: 'SparseSegmentSum', dtype: 'float32', data: Float32Array.from([1, 2, 3]), shape: [3],
    idx: Int32Array.from([0, 1]), ids: Int32Array.from([0, 0, 0]) });
  const error = { error: 'segmentIds and indices should have same size.' };
  unregisterKernels(tf);
  await tf.setBackend('wasm');
  assert.notDeepEqual(call(), error, 'stock wasm');
  await registerKernels(tf);
  assert.deepEqual(call(), error);
});
