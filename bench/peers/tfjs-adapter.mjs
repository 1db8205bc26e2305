// The T suite: tf.gather / tf.gatherND on W1-W5 through TensorFlow.js's
// stock kernels and through wasm-gather/tfjs (js/tfjs.mjs: registerKernels), on tfjs's 'cpu' and
// 'wasm' backends. The same application code in both: the data tensor is made once and kept (an
// embedding table), per call the indices tensor is made from the int32 array, the op runs, the
// output is read back with dataSync() and the indices and output tensors are disposed. The calls
// are those of the tfjs peer (bench/peers/tfjs.mjs: plan), including, on 'wasm', the gatherND on
// (batch coords, index) tuples built per call that works around tfjs#8658 for W2, W4a and W4b.
// On 'wasm' the adapter also runs them as tf.gather(x, i, b, b), which it makes right (one more
// runner, batched workloads only).
// One group per backend and kernel set (adapterGroups, which the U workloads' groups share:
// tfjs-adapter-u.mjs): the adapter's groups register the kernels for that backend in begin() and
// unregister them, and dispose of wasm-gather, in end().
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import { dispose, init } from '../../js/index.mjs';
import { OPS } from '../../js/ops/index.mjs';
import { kernelStats, registerKernels, unregisterKernels } from '../../js/tfjs.mjs';
import { plan, wasmDir } from './tfjs.mjs';

const BACKENDS = ['cpu', 'wasm'];
// The kernels registerKernels replaces (the ops' descriptors name them).
const KERNELS = OPS.flatMap((d) => d.tfjs ?? []);
const servedCalls = () => Object.values(kernelStats().calls).reduce((a, b) => a + b, 0);
const fallbacks = () => Object.values(kernelStats().fallbacks).reduce((a, b) => a + b, 0);

/**
 * Runs `run` once and checks which kernels served it: with the adapter (`adapter`), its own
 * (counted by kernelStats: `calls` of them, no fallback; on 'wasm' run in tfjs's memory), else
 * tfjs's alone. Returns how the adapter ran, for the notes (undefined for the stock kernels).
 */
export function checkServed(run, { adapter, backend, calls = 1, info }) {
  const [served, fell, inPlace] = [servedCalls(), fallbacks(), kernelStats().inPlace];
  run();
  const used = servedCalls() - served;
  // On 'wasm' the adapter runs in tfjs's memory (its guest module): one thread, nothing copied.
  const ranInPlace = kernelStats().inPlace - inPlace === used && used > 0;
  if (adapter && backend === 'wasm' && !ranInPlace) throw new Error('the adapter did not run in tfjs\'s memory on wasm');
  if (fallbacks() !== fell) throw new Error('the adapter handed the call to the stock kernel (fallback)');
  if (adapter && used !== calls) throw new Error(`the adapter served ${used} kernel calls of ${calls}`);
  if (!adapter && used !== 0) throw new Error('the adapter served a call meant for the stock kernels');
  if (!adapter) return undefined;
  return ranInPlace ? 'in tfjs\'s memory (wasm-gather\'s guest module, the calling thread)' : `wasm-gather ${info?.variant}, ${info?.threads} thread(s)`;
}

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
      const how = checkServed(run, { adapter, backend, info });
      return { run, note: [note, how].filter(Boolean).join('; ') || undefined, dispose: () => data.dispose() };
    },
  };
}

/**
 * Per backend, a group with tfjs's stock kernels, then one with wasm-gather/tfjs's (init() as
 * registerKernels would make it, every kernel it replaces registered): runners(backend, kernels
 * ('stock' | 'adapter'), info (the adapter's init() result, filled in begin())) gives their runners.
 */
export function adapterGroups(runners) {
  tf.enableProdMode(); // only silences tfjs's "install tfjs-node" advice
  setWasmPaths(wasmDir);
  const groups = [];
  for (const backend of BACKENDS) {
    groups.push({ name: `tfjs ${backend}, stock kernels`, begin() { unregisterKernels(tf); }, end() {}, runners: runners(backend, 'stock') });
    const info = {};
    groups.push({
      name: `tfjs ${backend}, wasm-gather/tfjs`,
      async begin() {
        Object.assign(info, await init()); // init()'s default configuration, as registerKernels would make it
        const done = (await registerKernels(tf, { backends: [backend] })).map((d) => d.kernelName);
        const missing = KERNELS.filter((k) => !done.includes(k));
        if (missing.length) throw new Error(`registerKernels did not register ${missing.join(', ')} on ${backend}`);
      },
      end() { unregisterKernels(tf); dispose(); },
      runners: runners(backend, 'adapter', info),
    });
  }
  return groups;
}

/** The T groups: per backend, the stock kernels, then wasm-gather/tfjs (on wasm also tf.gather with batchDims). */
export function tfjsAdapterGroups() {
  return adapterGroups((backend, kernels, info) => [runner(backend, kernels, { info }),
    ...(kernels === 'adapter' && backend === 'wasm' ? [runner(backend, kernels, { direct: true, info })] : [])]);
}
