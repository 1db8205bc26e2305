// wasm-gather/tfjs on TensorFlow.js's cpu and wasm backends: the out-of-range indices tfjs's own kernels miss, seeded
// random tf.gather / tf.gatherND against the JS reference (common/reference.mjs) for float32,
// int32 and bool with batchDims and empty tensors, unregisterKernels giving the original kernels
// back, and nothing left behind: tf.memory(), the backend's data ids, wasm-gather's heap.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { after, before, describe, test } from 'node:test';
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import { refGatherND, refTake } from '../../common/reference.mjs';
import { heapStats } from '../../js/index.mjs';
import { kernelStats, registerKernels, unregisterKernels } from '../../js/tfjs.mjs';
import { Rng } from '../lib/rng.mjs';

const BACKENDS = ['cpu', 'wasm'];
const DTYPES = ['float32', 'int32', 'bool'];
const KERNELS = ['GatherV2', 'GatherNd', 'ScatterNd', 'TensorScatterUpdate', 'UnsortedSegmentSum', 'SparseSegmentSum', 'SparseSegmentMean'];
const ARRAY = { float32: Float32Array, int32: Int32Array, bool: Uint8Array };

let originals;
before(async () => {
  tf.enableProdMode(); // only silences the "install tfjs-node" advice
  setWasmPaths(`${dirname(createRequire(import.meta.url).resolve('@tensorflow/tfjs-backend-wasm'))}/`);
  originals = new Map(BACKENDS.flatMap((b) => KERNELS.map((k) => [`${b}/${k}`, tf.getKernel(k, b)])));
  const done = await registerKernels(tf);
  assert.equal(done.length, 2 * KERNELS.length, 'every kernel on both backends');
});
after(() => unregisterKernels(tf));

const calls = (key) => kernelStats().calls[key] ?? 0;

function values(dtype, n, rng) {
  const a = new ARRAY[dtype](n);
  for (let i = 0; i < n; i++) {
    a[i] = dtype === 'bool' ? rng.int(0, 1) : dtype === 'int32' ? rng.int(-1000, 1000) : rng.next() * 200 - 100;
  }
  return a;
}
const shapeOf = (rank, rng, maxDim = 4) => Array.from({ length: rank }, () => (rng.chance(0.08) ? 0 : rng.int(1, maxDim)));
const size = (shape) => shape.reduce((a, b) => a * b, 1);

// On 'wasm' twice: run in tfjs's memory by the guest (the default), and through wasm-gather's own
// memory with copies (opts.inPlace false, as where the guest cannot run).
const CONFIGS = [{ backend: 'cpu' }, { backend: 'wasm', inPlace: true }, { backend: 'wasm', inPlace: false }];
for (const { backend, inPlace } of CONFIGS) {
  const label = inPlace === undefined ? '' : inPlace ? ', in place' : ', copying (inPlace: false)';
  describe(`wasm-gather/tfjs on tfjs's ${backend} backend${label}`, () => {
    before(async () => {
      unregisterKernels(tf);
      await registerKernels(tf, inPlace === undefined ? {} : { inPlace });
      await tf.setBackend(backend);
    });
    // How many of n served calls ran in tfjs's memory: all of them in place, else none.
    const inPlaceCalls = (n) => (inPlace ? n : 0);

    test("gather with batchDims: the right values (tfjs-backend-wasm's tfjs#8658)", () => {
      const before = calls(`${backend}/GatherV2`), { inPlace: inPlaceBefore } = kernelStats();
      const x = tf.tensor2d([1, 2, 3, 4, 5, 6, 7, 8], [2, 4]);
      const i = tf.tensor2d([3, 0, 1, 2, 2, 1], [2, 3], 'int32');
      const y = tf.gather(x, i, 1, 1);
      assert.deepEqual(y.shape, [2, 3]);
      assert.deepEqual(Array.from(y.dataSync()), [4, 1, 2, 7, 7, 6]);
      assert.equal(calls(`${backend}/GatherV2`), before + 1);
      assert.equal(kernelStats().inPlace - inPlaceBefore, inPlaceCalls(1));
      tf.dispose([x, i, y]);
    });

    test("bad indices: tfjs's errors, every gatherND component checked against its own dimension", () => {
      const x = tf.tensor2d([1, 11, 2, 22], [2, 2]);
      assert.throws(() => tf.gather(x, tf.tensor1d([0, -1], 'int32')), { message: 'GatherV2: the index value -1 is not in [0, 1]' });
      assert.throws(() => tf.gather(x, tf.tensor1d([1, 100, -1], 'int32')), { message: 'GatherV2: the index value 100 is not in [0, 1]' });
      assert.throws(() => tf.gather(x, tf.tensor1d([0, 2], 'int32'), 1), { message: 'GatherV2: the index value 2 is not in [0, 1]' });
      const p = tf.tensor3d([...Array(12).keys()], [3, 2, 2]);
      // tfjs-backend-cpu checks only the flattened offset: (0, 3) would read row (1, 1).
      assert.throws(() => tf.gatherND(p, tf.tensor2d([0, 3], [1, 2], 'int32')), { message: 'Invalid indices: 0,3 does not index into 3,2,2' });
      // tfjs-backend-wasm checks nothing: an index past the end read its heap.
      assert.throws(() => tf.gatherND(p, tf.tensor2d([1, 0, 7, 0], [2, 2], 'int32')), { message: 'Invalid indices: 7,0 does not index into 3,2,2' });
      assert.throws(() => tf.gatherND(p, tf.tensor2d([1, -1], [1, 2], 'int32')), { message: 'Invalid indices: 1,-1 does not index into 3,2,2' });
      assert.deepEqual(Array.from(tf.gatherND(p, tf.tensor2d([2, 1, 0, 0], [2, 2], 'int32')).dataSync()), [10, 11, 0, 1]);
      tf.disposeVariables();
    });

    for (const dtype of DTYPES) {
      test(`seeded random tf.gather vs refTake, ${dtype}, with batchDims and empty tensors`, () => {
        const rng = new Rng(0x7f1a0 + DTYPES.indexOf(dtype) * 101 + CONFIGS.findIndex((c) => c.backend === backend && c.inPlace === inPlace));
        const before = calls(`${backend}/GatherV2`), { inPlace: inPlaceBefore } = kernelStats();
        let empties = 0;
        let batched = 0;
        for (let n = 0; n < 150; n++) {
          const rank = rng.int(1, 4);
          const shape = shapeOf(rank, rng);
          const axis = rng.int(0, rank - 1);
          const b = rng.int(0, Math.min(axis, 2));
          const iShape = [...shape.slice(0, b), ...shapeOf(rng.int(0, 2), rng)];
          if (shape[axis] === 0 && size(iShape) > 0) iShape.push(0); // no valid index into a 0-sized axis
          const data = values(dtype, size(shape), rng);
          const idx = Int32Array.from({ length: size(iShape) }, () => rng.int(0, shape[axis] - 1));
          const want = refTake({ data, shape }, { data: idx, shape: iShape }, { axis, batchDims: b });
          if (want.data.length === 0) empties++;
          if (b > 0) batched++;
          const x = tf.tensor(data, shape, dtype);
          const i = tf.tensor(idx, iShape, 'int32');
          for (let again = 0; again < 2; again++) { // the second from the cached table
            const y = tf.gather(x, i, axis, b);
            const what = `x ${JSON.stringify(shape)} indices ${JSON.stringify(iShape)} axis ${axis} batchDims ${b}`;
            assert.equal(y.dtype, dtype, what);
            assert.deepEqual(y.shape, want.shape, what);
            assert.deepEqual(Array.from(y.dataSync()), Array.from(want.data), what);
            y.dispose();
          }
          tf.dispose([x, i]);
        }
        assert.ok(empties > 3 && batched > 20, `cases: ${empties} empty, ${batched} with batchDims`);
        assert.equal(calls(`${backend}/GatherV2`), before + 300);
        assert.equal(kernelStats().inPlace - inPlaceBefore, inPlaceCalls(300));
      });

      test(`seeded random tf.gatherND vs refGatherND, ${dtype}, with empty indices`, () => {
        const rng = new Rng(0x9d00 + DTYPES.indexOf(dtype) * 31 + CONFIGS.findIndex((c) => c.backend === backend && c.inPlace === inPlace));
        let empties = 0;
        for (let n = 0; n < 150; n++) {
          const rank = rng.int(1, 4);
          const shape = Array.from({ length: rank }, () => rng.int(1, 4)); // tfjs refuses an empty params
          const k = rng.int(rng.chance(0.1) ? 0 : 1, rank);
          const iShape = [...shapeOf(rng.int(0, 2), rng), k];
          const idx = new Int32Array(size(iShape));
          for (let j = 0; j < idx.length; j++) idx[j] = rng.int(0, shape[j % k] - 1);
          const data = values(dtype, size(shape), rng);
          const want = refGatherND({ data, shape }, { data: idx, shape: iShape });
          if (want.data.length === 0) empties++;
          const x = tf.tensor(data, shape, dtype);
          const i = tf.tensor(idx, iShape, 'int32');
          for (let again = 0; again < 2; again++) {
            const y = tf.gatherND(x, i);
            const what = `params ${JSON.stringify(shape)} indices ${JSON.stringify(iShape)}`;
            assert.equal(y.dtype, dtype, what);
            assert.deepEqual(y.shape, want.shape, what);
            assert.deepEqual(Array.from(y.dataSync()), Array.from(want.data), what);
            y.dispose();
          }
          tf.dispose([x, i]);
        }
        assert.ok(empties > 3, `${empties} empty cases`);
      });
    }

    test(`nothing leaks: tf.memory(), the data ids, and ${inPlace ? 'wasm-gather’s heap, never used' : 'the cached table in wasm-gather’s heap'}`, () => {
      const base = { tensors: tf.memory().numTensors, ids: tf.engine().backend.numDataIds(), heap: heapStats().heapInUse,
        uploads: kernelStats().uploads };
      const table = tf.randomUniform([1000, 64]);
      const i = tf.tensor1d([5, 999, 0, 5], 'int32');
      for (let n = 0; n < 5; n++) tf.gather(table, i).dispose();
      tf.tidy(() => { tf.gatherND(table, tf.tensor2d([3, 7], [2, 1], 'int32')); });
      if (inPlace) { // the op ran on the table where it is: nothing was copied into wasm-gather's memory
        assert.equal(kernelStats().cached, 0);
        assert.equal(kernelStats().uploads, base.uploads);
        assert.equal(heapStats().heapInUse, base.heap, 'wasm-gather’s heap is not used');
      } else {
        assert.ok(kernelStats().cached >= 1);
        assert.ok(heapStats().heapInUse - base.heap >= 1000 * 64 * 4, 'the table is held in wasm-gather’s memory');
      }
      // A failing call leaves nothing either (its output on the wasm backend included).
      const bad = tf.tensor1d([1000], 'int32');
      assert.throws(() => tf.gather(table, bad), /GatherV2: the index value 1000 is not in \[0, 999\]/);
      tf.dispose([table, i, bad]);
      assert.equal(heapStats().heapInUse, base.heap, 'disposing the table frees its copy');
      assert.equal(tf.memory().numTensors, base.tensors);
      assert.equal(tf.engine().backend.numDataIds(), base.ids);
    });
  });
}

test("other dtypes go to the kernel registered before (gatherND of strings on cpu)", async () => {
  await tf.setBackend('cpu');
  const before = kernelStats().fallbacks['cpu/GatherNd'] ?? 0;
  const y = tf.gatherND(tf.tensor1d(['a', 'b', 'c']), tf.tensor2d([2, 0], [2, 1], 'int32'));
  assert.deepEqual(y.dataSync(), ['c', 'a']);
  assert.equal(kernelStats().fallbacks['cpu/GatherNd'], before + 1);
});

test('unregisterKernels gives back the original kernels, and registerKernels works again after', async () => {
  for (const [key, original] of originals) {
    const [b, k] = key.split('/');
    assert.notEqual(tf.getKernel(k, b), original, `${key} is the adapter's`);
  }
  assert.equal(originals.get('wasm/UnsortedSegmentSum'), undefined, 'tfjs-backend-wasm has none of its own');
  const undone = unregisterKernels(tf);
  assert.equal(undone.length, 2 * KERNELS.length);
  for (const [key, original] of originals) {
    const [b, k] = key.split('/');
    assert.equal(tf.getKernel(k, b), original, `${key} is tfjs's again`);
  }
  assert.equal(kernelStats().cached, 0, 'the cached tables are freed');
  await tf.setBackend('cpu');
  const n = calls('cpu/GatherV2');
  tf.tidy(() => tf.gather(tf.tensor1d([1, 2]), tf.tensor1d([1], 'int32')).dataSync());
  assert.equal(calls('cpu/GatherV2'), n, 'tfjs serves gather again');
  assert.equal((await registerKernels(tf, { backends: ['cpu'] })).length, KERNELS.length);
  tf.tidy(() => tf.gather(tf.tensor1d([1, 2]), tf.tensor1d([1], 'int32')).dataSync());
  assert.equal(calls('cpu/GatherV2'), n + 1);
  assert.equal(unregisterKernels(tf).length, KERNELS.length);
  assert.equal(tf.getKernel('GatherV2', 'cpu'), originals.get('cpu/GatherV2'));
});
