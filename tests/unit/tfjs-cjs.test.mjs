// require('wasm-gather/tfjs'): the CommonJS shim (js/tfjs.cjs) against the ES module it loads
// (js/tfjs.mjs). Its names are the module's; before registerKernels() has loaded the module, its
// synchronous functions answer as the module does with nothing registered; after, both are one adapter.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { dispose } from '../../js/index.mjs';
import * as esm from '../../js/tfjs.mjs';

const cjs = createRequire(import.meta.url)('../../js/tfjs.cjs');

test('tfjs.cjs exports what tfjs.mjs does', () => {
  assert.deepEqual(Object.keys(cjs).sort(), Object.keys(esm).sort());
});

test('before registerKernels: kernelStats() all zero, unregisterKernels() [] or the same TypeError', () => {
  // Nothing registered in this process yet: the module's own answers are the ones to give.
  assert.deepEqual(cjs.kernelStats(), esm.kernelStats());
  assert.deepEqual(cjs.kernelStats(), { calls: {}, fallbacks: {}, inPlace: 0, uploads: 0, cached: 0 });
  assert.deepEqual(cjs.unregisterKernels(tf), esm.unregisterKernels(tf));
  assert.deepEqual(cjs.unregisterKernels(tf), []);
  for (const bad of [undefined, {}, { registerKernel() {} }]) {
    const thrown = (f) => { try { f(bad); } catch (e) { return `${e.name}: ${e.message}`; } return 'nothing thrown'; };
    assert.equal(thrown(cjs.unregisterKernels), thrown(esm.unregisterKernels));
  }
});

test('registerKernels loads the ES module: one adapter, whichever entry is asked', async () => {
  tf.enableProdMode(); // only silences the "install tfjs-node" advice
  await tf.setBackend('cpu');
  const original = tf.getKernel('GatherV2', 'cpu');
  const done = await cjs.registerKernels(tf, { backends: ['cpu'], init: { variant: 'simd' } });
  assert.deepEqual(done.map((e) => `${e.backendName}/${e.kernelName}`).sort(),
    ['cpu/GatherNd', 'cpu/GatherV2', 'cpu/ScatterNd', 'cpu/SparseSegmentMean', 'cpu/SparseSegmentSum', 'cpu/TensorScatterUpdate',
      'cpu/UnsortedSegmentSum']);
  const y = tf.tidy(() => Array.from(tf.gather(tf.tensor1d([5, 6, 7], 'int32'), tf.tensor1d([2, 0], 'int32')).dataSync()));
  assert.deepEqual(y, [7, 5]);
  assert.equal(cjs.kernelStats().calls['cpu/GatherV2'], 1);
  assert.deepEqual(cjs.kernelStats(), esm.kernelStats());
  assert.equal(cjs.unregisterKernels(tf).length, done.length);
  assert.equal(tf.getKernel('GatherV2', 'cpu'), original, 'the original kernel is back');
  assert.deepEqual(esm.unregisterKernels(tf), [], 'undone for the ES module too');
  dispose();
});
