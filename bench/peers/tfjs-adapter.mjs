// The T suite: tf.gather / tf.gatherND on W1-W5 through TensorFlow.js's
// stock kernels and through wasm-gather/tfjs (js/tfjs.mjs: registerKernels), on tfjs's 'cpu' and
// 'wasm' backends. The same application code in both: the data tensor is made once and kept (an
// embedding table), per call the indices tensor is made from the int32 array, the op runs, the
// output is read back with dataSync() and the indices and output tensors are disposed. The calls
// are those of the tfjs peer (bench/peers/tfjs.mjs: plan), including, on 'wasm', the gatherND on
// (batch coords, index) tuples built per call that works around tfjs#8658 for W2, W4a and W4b.
// On 'wasm' the adapter also runs them as tf.gather(x, i, b, b), which it makes right (one more
// runner, batched workloads only).
// One group per backend and kernel set: the adapter's groups register the kernels for that backend
// in begin() and unregister them, and dispose of wasm-gather, in end().
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import { dispose, init } from '../../js/index.mjs';
import { kernelStats, registerKernels, unregisterKernels } from '../../js/tfjs.mjs';
import { plan, wasmDir } from './tfjs.mjs';

const BACKENDS = ['cpu', 'wasm'];
const servedCalls = () => Object.values(kernelStats().calls).reduce((a, b) => a + b, 0);
const fallbacks = () => Object.values(kernelStats().fallbacks).reduce((a, b) => a + b, 0);

function runner(backend, kernels, { direct = false, info } = {}) {
  const adapter = kernels === 'adapter';
  return {
    impl: `tfjs ${tf.version_core} ${backend}, ${adapter ? 'wasm-gather/tfjs' : 'stock kernels'}${direct ? ', tf.gather with batchDims' : ''}`,
    family: 'tfjs-adapter', mode: 'resident', peer: `tfjs-${backend}`, variant: kernels, backend, direct,
    // The direct runner: only where the plan works around tfjs#8658 (the batched workloads).
    applies: direct ? (w, t) => plan('wasm', w, t).prep !== undefined : undefined,
    async setup(w, t) {
      await tf.setBackend(backend);
      let { fn, shape, prep = (a) => a, note } = plan(backend, w, t);
      if (direct) { // plan's tuples have shape [...indices shape, b + 1]: gather the indices themselves
        const b = shape.at(-1) - 1;
        ({ fn, shape, prep, note } = { fn: (x, i) => tf.gather(x, i, b, b), shape: shape.slice(0, -1), prep: (a) => a,
          note: `tf.gather(data, indices, axis ${b}, batchDims ${b}): right with the adapter, wrong with the stock wasm kernel (tfjs#8658)` });
      }
      const data = tf.tensor(t.data.data, t.data.shape, 'float32'); // kept across calls
      const run = () => {
        if (tf.getBackend() !== backend) throw new Error(`the tfjs backend is ${tf.getBackend()}: call setup again`);
        const i = tf.tensor(prep(t.indices.data), shape, 'int32');
        const out = tf.tidy(() => fn(data, i));
        const values = out.dataSync();
        tf.dispose([i, out]);
        return values;
      };
      // Which kernels served the call: the adapter's (counted by kernelStats) or tfjs's own.
      const [served, fell, inPlace] = [servedCalls(), fallbacks(), kernelStats().inPlace];
      run();
      const used = servedCalls() - served;
      // On 'wasm' the adapter runs in tfjs's memory (its guest module): one thread, nothing copied.
      const ranInPlace = kernelStats().inPlace - inPlace === used && used > 0;
      if (adapter && backend === 'wasm' && !ranInPlace) throw new Error('the adapter did not run in tfjs\'s memory on wasm');
      if (fallbacks() !== fell) throw new Error('the adapter handed the call to the stock kernel (fallback)');
      if (adapter && used !== 1) throw new Error(`the adapter served ${used} kernel calls of 1`);
      if (!adapter && used !== 0) throw new Error('the adapter served a call meant for the stock kernels');
      const how = ranInPlace ? 'in tfjs\'s memory (wasm-gather\'s guest module, the calling thread)' : `wasm-gather ${info?.variant}, ${info?.threads} thread(s)`;
      return { run, note: [note, adapter ? how : undefined].filter(Boolean).join('; ') || undefined,
        dispose: () => data.dispose() };
    },
  };
}

/** The T groups: per backend, the stock kernels, then wasm-gather/tfjs. */
export async function tfjsAdapterGroups() {
  tf.enableProdMode(); // only silences tfjs's "install tfjs-node" advice
  setWasmPaths(wasmDir);
  const groups = [];
  for (const backend of BACKENDS) {
    groups.push({ name: `tfjs ${backend}, stock kernels`, begin() { unregisterKernels(tf); }, end() {}, runners: [runner(backend, 'stock')] });
    const info = {};
    const adapterRunners = [runner(backend, 'adapter', { info })];
    if (backend === 'wasm') adapterRunners.push(runner(backend, 'adapter', { direct: true, info }));
    groups.push({
      name: `tfjs ${backend}, wasm-gather/tfjs`,
      async begin() {
        Object.assign(info, await init()); // init()'s default configuration, as registerKernels would make it
        const done = await registerKernels(tf, { backends: [backend] });
        if (done.length !== 2) throw new Error(`registerKernels registered ${done.length} kernels of 2`);
      },
      end() { unregisterKernels(tf); dispose(); },
      runners: adapterRunners,
    });
  }
  return groups;
}
