// Test harness (not a README example): `require('wasm-gather/tfjs')` (js/tfjs.cjs) in a CommonJS
// file. Before registerKernels nothing is loaded; registerKernels with no backends loads the ES
// module (and init()s wasm-gather) and registers nothing. tf: a stand-in, tfjs-core not being installed here.
const tfjs = require('wasm-gather/tfjs');
const { dispose } = require('wasm-gather');

const tf = { registerKernel() {}, unregisterKernel() {}, getKernel() {}, findBackendFactory() {} };
const out = {
  functions: Object.keys(tfjs).filter((k) => typeof tfjs[k] === 'function').sort(),
  stats: tfjs.kernelStats(),
  undone: tfjs.unregisterKernels(tf),
};
tfjs.registerKernels(tf, { backends: [], init: { variant: 'simd' } }).then((done) => {
  Object.assign(out, { done, statsAfter: tfjs.kernelStats() });
  dispose();
  console.log(JSON.stringify(out));
});
