// The U workloads of the T suite (common/tfjs-workloads.mjs) through TensorFlow.js's stock kernels
// and through wasm-gather/tfjs, on 'cpu' and 'wasm': the groups of the W workloads' T runners
// (tfjs-adapter.mjs: adapterGroups), with these runners. As a model runs them: the inputs are
// tensors made once (a table variable and a batch of ids, rows an earlier op computed, a KV
// cache); per call the op runs (U1: a whole gradient step, forward and backward) and its output
// is disposed unread, left on the backend as the next op (an optimizer, the next decode step)
// would take it. Each runner's output is read and checked once, before timing.
// Stock tfjs-cpu's U1 takes hours (its UnsortedSegmentSum makes a pass over all of the rows per
// segment): tfjs-grad-fit.mjs fits it instead, so no runner here. Stock tfjs-wasm has no
// UnsortedSegmentSum kernel: its U1 runner fails, and that error is its row.
import * as tf from '@tensorflow/tfjs-core';
import { adapterGroups, checkServed } from './tfjs-adapter.mjs';
import { registerGradients } from './tfjs-gradients.mjs';
import { CPU_WRITES_INPUT } from './tfjs-scatter.mjs';

/** One gradient step: the gradient of tf.sum(tf.gather(table, ids)) for the variable `table`. */
export function gradientStep(table, ids) {
  const { value, grads } = tf.variableGrads(() => tf.sum(tf.gather(table, ids)), [table]);
  value.dispose();
  return grads[table.name];
}

/** A table variable of `data` (the tensor it is made from, disposed: the variable keeps its data). */
export function tableVariable(data, shape) {
  const t = tf.tensor(data, shape, 'float32');
  const v = tf.variable(t);
  t.dispose();
  return v;
}

// Per workload: its input tensors (made at setup), its call, and how many calls of the
// adapter's kernels a call makes (U1: GatherV2 forward, UnsortedSegmentSum backward).
const PLANS = {
  U1: {
    calls: 2,
    inputs: (t) => ({ table: tableVariable(t.table.data, t.table.shape), ids: tf.tensor(t.ids.data, t.ids.shape, 'int32') }),
    call: ({ table, ids }) => gradientStep(table, ids),
    profiled: true, // the step runs tfjs's own kernels too: where its time goes, in the note
  },
  U2: {
    calls: 1,
    inputs: (t) => ({ i: tf.tensor(t.indices.data, t.indices.shape, 'int32'), u: tf.tensor(t.updates.data, t.updates.shape, 'float32') }),
    call: ({ i, u }, t) => tf.scatterND(i, u, t.shape),
  },
  U3: {
    calls: 1,
    // a copy of the cache: stock tfjs-cpu writes into the array tf.tensor keeps (tfjs-scatter.mjs)
    inputs: (t) => ({ x: tf.tensor(t.data.data.slice(), t.data.shape, 'float32'), i: tf.tensor(t.indices.data, t.indices.shape, 'int32'),
      u: tf.tensor(t.updates.data, t.updates.shape, 'float32') }),
    call: ({ x, i, u }) => tf.tensorScatterUpdate(x, i, u),
    stockNote: { cpu: CPU_WRITES_INPUT },
  },
};

// One call under tf.profile: its kernels' times, summed by kernel, the largest first.
async function kernelTimes(run) {
  const { kernels } = await tf.profile(run);
  const ms = new Map();
  for (const k of kernels) ms.set(k.name, (ms.get(k.name) ?? 0) + Number(k.kernelTimeMs));
  const top = [...ms].sort((a, b) => b[1] - a[1]).filter(([, t]) => t >= 0.05);
  return `one call profiled (tf.profile, ms per kernel): ${top.map(([k, t]) => `${k} ${t.toFixed(1)}`).join(', ')}`;
}

function runner(backend, kernels, info) {
  const adapter = kernels === 'adapter';
  return {
    impl: `tfjs ${tf.version_core} ${backend}, ${adapter ? 'wasm-gather/tfjs' : 'stock kernels'}`,
    family: 'tfjs-adapter', mode: 'resident', peer: `tfjs-${backend}`, variant: kernels, backend,
    applies: (w) => adapter || backend !== 'cpu' || w.id !== 'U1', // stock cpu's U1: fitted (tfjs-grad-fit.mjs)
    async setup(w, t) {
      await tf.setBackend(backend);
      await registerGradients(tf);
      const p = PLANS[w.id];
      const inputs = p.inputs(t);
      const dispose = () => tf.dispose(Object.values(inputs));
      const run = () => {
        if (tf.getBackend() !== backend) throw new Error(`the tfjs backend is ${tf.getBackend()}: call setup again`);
        p.call(inputs, t).dispose();
      };
      const check = () => {
        const out = p.call(inputs, t);
        const values = out.dataSync();
        out.dispose();
        return values;
      };
      try {
        const how = checkServed(run, { adapter, backend, calls: p.calls, info });
        const profile = p.profiled ? await kernelTimes(run) : undefined;
        return { run, check, dispose, note: [adapter ? undefined : p.stockNote?.[backend], how, profile].filter(Boolean).join('; ') || undefined };
      } catch (e) {
        dispose();
        throw e;
      }
    },
  };
}

// U3's bound on wasm, where tfjs keeps its tensors: a new tensor's copy in tfjs's wasm heap, an
// output made by the backend and the cache's bytes copied in by HEAPU8.copyWithin, the memmove
// the stock kernel's memcpy ends in (Emscripten's emscripten_memcpy_big). Both kernels make it.
const tfjsCopyBound = {
  impl: 'makeOutput and HEAPU8.copyWithin of the input (a new tensor\'s copy in tfjs\'s wasm heap)',
  family: 'bound', mode: 'bound', backend: 'wasm', variant: 'result', applies: (w) => w.id === 'U3',
  async setup(w, t) {
    await tf.setBackend('wasm');
    const b = tf.backend(), x = tf.tensor(t.data.data, t.data.shape, 'float32'), bytes = t.data.data.byteLength;
    const at = (id) => b.dataIdMap.get(id).memoryOffset;
    const run = () => {
      const out = b.makeOutput(x.shape, 'float32');
      b.wasm.HEAPU8.copyWithin(at(out.dataId), at(x.dataId), at(x.dataId) + bytes);
      b.disposeData(out.dataId);
    };
    return { run, unchecked: true, dispose: () => x.dispose() };
  },
};

/** The U groups: per backend, tfjs's stock kernels (on wasm with U3's bound), then wasm-gather/tfjs's. */
export const tfjsUGroups = () => adapterGroups((backend, kernels, info) =>
  [runner(backend, kernels, info), ...(backend === 'wasm' && kernels === 'stock' ? [tfjsCopyBound] : [])]);
