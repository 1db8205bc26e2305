'use strict';
// CommonJS entry of wasm-gather/tfjs. The adapter is an ES module: registerKernels() loads it and
// hands over; until then nothing can have been registered through this entry, so the synchronous
// functions answer for an adapter with nothing registered and nothing counted.
let api = null;

exports.registerKernels = async function registerKernels(tf, opts) {
  if (!api) api = await import('./tfjs.mjs');
  return api.registerKernels(tf, opts);
};

exports.unregisterKernels = function unregisterKernels(tf) {
  if (api) return api.unregisterKernels(tf);
  // As js/tfjs.mjs's checkNamespace throws it (tests/unit/tfjs-cjs.test.mjs checks they match).
  if (!tf || typeof tf.registerKernel !== 'function' || typeof tf.getKernel !== 'function') {
    throw new TypeError("unregisterKernels: pass the @tensorflow/tfjs-core namespace (import * as tf from '@tensorflow/tfjs-core')");
  }
  return [];
};

// The counters of js/tfjs.mjs's kernelStats() at zero (the test checks the shape).
exports.kernelStats = function kernelStats() {
  if (api) return api.kernelStats();
  return { calls: {}, fallbacks: {}, inPlace: 0, uploads: 0, cached: 0 };
};
