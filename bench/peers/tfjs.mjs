// @tensorflow/tfjs runners for the benchmark: tfjs-core with the 'cpu' and the 'wasm' backend
// (SIMD, no threads in Node).
//   one-shot: both tensors are made from the TypedArrays on every call, and all are disposed.
//   resident: the data tensor is made once at setup; per call only the indices tensor.
// setup() selects the runner's backend; run() refuses to run if another runner switched it since,
// because tfjs would otherwise move the resident data between backends inside the timed call.
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import { freshInitMs } from './init-ms.mjs';
import { planFor } from './tfjs-plan.mjs';

const BACKENDS = ['cpu', 'wasm'];
/** How tfjs computes a workload on a backend (bench/peers/tfjs-plan.mjs), with this tfjs. */
export const plan = (backend, w, t) => planFor(tf, backend, w, t);
// Node needs the directory of the backend's .wasm files given explicitly.
export const wasmDir = `${dirname(createRequire(import.meta.url).resolve('@tensorflow/tfjs-backend-wasm'))}/`;

function runner(backend, initMs, mode) {
  const resident = mode === 'resident';
  return {
    impl: `tfjs ${tf.version_core} ${backend} (${resident ? 'data tensor resident' : 'tensors made per call'})`,
    peer: `tfjs-${backend}`,
    mode,
    initMs,
    async setup(w, t) {
      await tf.setBackend(backend);
      const { fn, shape, prep = (a) => a, note } = plan(backend, w, t);
      const data = resident ? tf.tensor(t.data.data, t.data.shape, 'float32') : null;
      return {
        note,
        run() {
          if (tf.getBackend() !== backend) throw new Error(`the tfjs backend is ${tf.getBackend()}: call setup again`);
          const x = data ?? tf.tensor(t.data.data, t.data.shape, 'float32');
          const i = tf.tensor(prep(t.indices.data), shape, 'int32');
          const out = tf.tidy(() => fn(x, i));
          const values = out.dataSync(); // in Node no slower than await out.data() (measured)
          tf.dispose(data ? [i, out] : [x, i, out]);
          return values;
        },
        dispose: () => data?.dispose(),
      };
    },
  };
}

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
    return [runner(backend, initMs, 'one-shot'), runner(backend, initMs, 'resident')];
  });
}
