// @tensorflow/tfjs runners for the benchmark in Node: tfjs-core with the 'cpu' and the 'wasm'
// backend (SIMD, no threads in Node); the runners themselves are tfjs-plan.mjs's (one-shot and
// resident).
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import { freshInitMs } from './init-ms.mjs';
import { planFor, tfjsRunner } from './tfjs-plan.mjs';

const BACKENDS = ['cpu', 'wasm'];
/** How tfjs computes a workload on a backend (bench/peers/tfjs-plan.mjs), with this tfjs. */
export const plan = (backend, w, t) => planFor(tf, backend, w, t);
// Node needs the directory of the backend's .wasm files given explicitly.
export const wasmDir = `${dirname(createRequire(import.meta.url).resolve('@tensorflow/tfjs-backend-wasm'))}/`;

// From nothing loaded to a first tiny gather on this backend.
const initSource = (backend) => `
const t0 = performance.now();
const tf = await import('@tensorflow/tfjs-core');
${backend === 'wasm'
    ? `(await import('@tensorflow/tfjs-backend-wasm')).setWasmPaths(${JSON.stringify(wasmDir)});`
    : `await import('@tensorflow/tfjs-backend-cpu');`}
tf.enableProdMode();
await tf.setBackend('${backend}');
tf.gather(tf.tensor([1, 2]), tf.tensor([1], [1], 'int32')).dataSync();
console.log('INIT_MS', performance.now() - t0);
`;

export async function peers() {
  tf.enableProdMode(); // only silences tfjs's "install tfjs-node" advice: PROD changes nothing else in 4.22
  setWasmPaths(wasmDir);
  return BACKENDS.flatMap((backend) => {
    const initMs = freshInitMs(initSource(backend));
    return [tfjsRunner(tf, backend, initMs, 'one-shot'), tfjsRunner(tf, backend, initMs, 'resident')];
  });
}
