// TensorFlow.js on the G workloads (common/grad-workloads.mjs), 'cpu' and 'wasm', with three kernel
// sets: tfjs's own ('stock'); tfjs's own but for the adapter's UnsortedSegmentSum ('uss': stock
// tfjs-wasm has none, so neither tf.unsortedSegmentSum nor tf.gather's gradient runs there
// without it); and every kernel and gradient of wasm-gather/tfjs ('adapter': registerKernels).
//   G1: tf.unsortedSegmentSum(tf.gather(dy, bags), ids, rows): the bags' gradient as tfjs composes
//       it (a new gradient tensor, not added into one: the peer does less than the kernel here);
//   G2: one SGD step, tf.grad of the loss and tf.train.sgd's update, of the sparseSegmentMean model
//       ('ssm': its gradient is SparseSegmentMeanGrad, which tfjs-core lacks: the adapter
//       registers it) and of the same model written as tf.gather then tf.mean over each bag ('gm');
//   G3: tf.grad through tf.gatherND (its gradient a ScatterNd, which tfjs-core lacks too), and
//       beside it on wasm tf.grad through tf.gather of the same rows.
// As a training step runs them: the table (or params) and the fixed bags' ids are tensors kept;
// per call the batch (ids, and dy or the target) is made into tensors from its arrays, the step or
// gradient runs, and its output is disposed unread (G2: the table variable updated), every tensor
// made in the call disposed. Each runner's first call is checked to be served by the intended
// kernels (kernelStats(): the adapter's calls counted, no fallback) and its output checked bitwise
// against the reference (G2: the gradient, and the table after the step); one call is profiled
// (tf.profile: time by kernel, peak tensor bytes). Where tfjs has no gradient, the error is the
// row. Stock tfjs-cpu's UnsortedSegmentSum makes a pass over all of its rows per segment (hours at
// 262144 segments): G1 and G2's gather model on cpu are timed on tables of a few rows and fitted
// (fittedCpu below), as tfjs-grad-fit.mjs fits U1.
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import { sameBytes } from '../../common/bytes.mjs';
import { median } from '../../common/timing.mjs';
import { dispose, init } from '../../js/index.mjs';
import { OPS } from '../../js/ops/index.mjs';
import { kernelStats, registerKernels, unregisterKernels } from '../../js/tfjs.mjs';
import { registerGradients } from './tfjs-gradients.mjs';
import { wasmDir } from './tfjs.mjs';
import { lineFit } from './tfjs-scatter.mjs';

// Every kernel registerKernels registers (the ops' and TensorFlow's two sparse segment gradients').
const ADAPTER_KERNELS = [...OPS.flatMap((d) => d.tfjs ?? []), 'SparseSegmentSumGrad', 'SparseSegmentMeanGrad'];
const V = tf.version_core;

const flatIds = (t) => tf.tensor1d(t.indices.data, 'int32');
const dyTensor = (t) => tf.tensor2d(t.gradOutput.data, t.gradOutput.shape);

// The G2 models' losses: sum(y * target), y the bags' means of the table's rows.
const LOSS = {
  ssm: (ids, seg, target) => (x) => tf.sum(tf.mul(tf.sparse.sparseSegmentMean(x, ids, seg), target)),
  gm: (ids, seg, target, [B, L, D]) => (x) => tf.sum(tf.mul(tf.mean(tf.reshape(tf.gather(x, ids), [B, L, D]), 1), target)),
};

// Per model: what it applies to, the adapter's kernel calls of one call (by kernel set), and
// setup(t, backend) -> { run, check, reset?, dispose } (run: one call, its output disposed).
const MODELS = {
  uss: {
    workload: 'G1', what: 'tf.unsortedSegmentSum(tf.gather(dy, bags), ids, rows)',
    calls: { uss: { UnsortedSegmentSum: 1 } },
    setup(t) {
      const seg = tf.tensor1d(t.segmentIds.data, 'int32');
      const call = () => {
        const ids = flatIds(t), dy = dyTensor(t);
        const out = tf.tidy(() => tf.unsortedSegmentSum(tf.gather(dy, seg), ids, t.numWeights));
        tf.dispose([ids, dy]);
        return out;
      };
      return { run: () => call().dispose(), check: () => { const o = call(); const v = o.dataSync(); o.dispose(); return v; }, call,
        dispose: () => seg.dispose() };
    },
  },
  // what every step of G2 does beside its gradient: the table's update by a gradient kept (the reference's)
  update: {
    workload: 'G2', what: 'the SGD update alone (tf.train.sgd of a gradient kept)',
    setup(t, backend) {
      const s = sgdStep(t, backend, null), g = tf.tensor(t.grad, t.table.shape, 'float32');
      return { ...s, run: () => s.update(g), check: () => s.table().dataSync(), dispose: () => { g.dispose(); s.dispose(); } };
    },
  },
  ssm: { workload: 'G2', what: 'tf.sparse.sparseSegmentMean model, one SGD step', calls: { adapter: { SparseSegmentMean: 1, SparseSegmentMeanGrad: 1 } } },
  gm: { workload: 'G2', what: 'tf.gather + tf.mean model, one SGD step', calls: { uss: { UnsortedSegmentSum: 1 }, adapter: { GatherV2: 1, UnsortedSegmentSum: 1 } } },
  gatherND: {
    workload: 'G3', what: 'tf.grad through tf.gatherND', calls: { adapter: { GatherNd: 1, ScatterNd: 1 } },
    setup: (t, backend) => paramsGrad(t, backend, (p, i) => tf.gatherND(p, i), t.tuples.shape),
  },
  gather: {
    workload: 'G3', what: 'tf.grad through tf.gather of the same rows (its gradient UnsortedSegmentSum)', calls: { adapter: { GatherV2: 1, UnsortedSegmentSum: 1 } },
    setup: (t, backend) => paramsGrad(t, backend, (p, i) => tf.gather(p, i), [t.tuples.shape[0]]),
  },
};
for (const m of ['ssm', 'gm']) MODELS[m].setup = (t, backend) => sgdStep(t, backend, LOSS[m]);

// G3: the gradient of tf.sum(op(params, ids)) for params (a tensor kept), ids made per call.
function paramsGrad(t, backend, op, idShape) {
  const params = tf.tensor(backend === 'cpu' ? t.params.data.slice() : t.params.data, t.params.shape, 'float32');
  const call = () => {
    const ids = tf.tensor(t.tuples.data, idShape, 'int32');
    const g = tf.grad((p) => tf.sum(op(p, ids)))(params);
    ids.dispose();
    return g;
  };
  return { run: () => call().dispose(), check: () => { const g = call(); const v = g.dataSync(); g.dispose(); return v; }, dispose: () => params.dispose() };
}

// G2: one step, tf.grad of the loss for the table variable, then tf.train.sgd's update of it
// (value + (-lr) * grad, assigned); the batch (ids, target) made per call. check() (after the
// first call) reads the table, and checks the gradient once more (the loss is linear in the
// table: its gradient is the same at every step) against the reference.
function sgdStep(t, backend, loss) {
  const [B, L] = t.indices.shape, D = t.gradOutput.shape[1];
  const seg = tf.tensor1d(t.segmentIds.data, 'int32');
  const opt = tf.train.sgd(t.lr);
  let table;
  const fresh = () => {
    table?.dispose();
    const init0 = tf.tensor(backend === 'cpu' ? t.table.data.slice() : t.table.data, t.table.shape, 'float32');
    table = tf.variable(init0);
    init0.dispose();
  };
  fresh();
  const grad = (ids, target) => tf.grad(loss(ids, seg, target, [B, L, D]))(table);
  const batch = () => [flatIds(t), dyTensor(t)];
  const update = (g) => opt.applyGradients({ [table.name]: g });
  // one step; keep: its gradient returned (else disposed)
  const step = (keep) => {
    const [ids, target] = batch();
    const g = grad(ids, target);
    update(g);
    tf.dispose(keep ? [ids, target] : [ids, target, g]);
    return keep ? g : undefined;
  };
  const run = () => step(false);
  const check = () => {
    const [ids, target] = batch();
    const g = grad(ids, target);
    const same = sameBytes(g.dataSync(), t.grad);
    tf.dispose([ids, target, g]);
    if (!same) throw new Error('its gradient differs from the reference');
    return table.dataSync();
  };
  return { run, check, step, update, table: () => table, reset: fresh, dispose: () => { tf.dispose([seg, table]); opt.dispose(); } };
}

// One call under tf.profile: its kernels' times by kernel (the largest first) and the peak bytes of
// tensors above those held before it.
async function profile(run) {
  const before = tf.memory().numBytes;
  const { kernels, peakBytes } = await tf.profile(run);
  const ms = new Map();
  for (const k of kernels) ms.set(k.name, (ms.get(k.name) ?? 0) + Number(k.kernelTimeMs));
  const top = [...ms].sort((a, b) => b[1] - a[1]).filter(([, x]) => x >= 0.05);
  return { peak: peakBytes - before, kernels: `one call profiled (tf.profile, ms per kernel): ${top.map(([k, x]) => `${k} ${x.toFixed(1)}`).join(', ')}` };
}

// The adapter's kernel calls that `run` made, by kernel ({ name: count }), and whether it ran in
// tfjs's memory (on wasm) and handed none to a stock kernel.
function served(run) {
  const before = kernelStats();
  run();
  const after = kernelStats(), calls = {};
  for (const [k, n] of Object.entries(after.calls)) if (n !== (before.calls[k] ?? 0)) calls[k.split('/')[1]] = n - (before.calls[k] ?? 0);
  const total = Object.values(calls).reduce((a, b) => a + b, 0);
  const fell = Object.values(after.fallbacks).reduce((a, b) => a + b, 0) - Object.values(before.fallbacks).reduce((a, b) => a + b, 0);
  return { calls, fell, inPlace: after.inPlace - before.inPlace === total && total > 0 };
}

const KERNEL_WORDS = { stock: 'stock kernels', uss: 'stock kernels and the adapter\'s UnsortedSegmentSum', adapter: 'wasm-gather/tfjs' };

function runner(backend, kernels, model) {
  const m = MODELS[model];
  return {
    impl: `tfjs ${V} ${backend}, ${KERNEL_WORDS[kernels]}: ${m.what}`,
    family: model === 'update' ? 'bound' : kernels === 'adapter' && model !== 'gather' ? 'tfjs-adapter' : 'peer', mode: 'resident', peer: `tfjs-${backend}`,
    variant: kernels, backend, model,
    applies: (w) => w.id === m.workload,
    async setup(w, t) {
      await tf.setBackend(backend);
      await registerGradients(tf);
      const inst = m.setup(t, backend);
      try {
        const expect = m.calls?.[kernels] ?? {};
        // (not under tf.profile: a call that throws there leaves tfjs profiling every later kernel)
        let how;
        try {
          how = served(inst.run);
        } catch (e) {
          if (/gradient function not found/.test(e.message)) throw new Error(`no gradient: ${e.message}`);
          throw e;
        }
        if (how.fell) throw new Error('the adapter handed a call to the stock kernel (fallback)');
        const key = (o) => JSON.stringify(Object.entries(o).sort());
        if (key(how.calls) !== key(expect)) {
          throw new Error(`the adapter served ${JSON.stringify(how.calls)}, expected ${JSON.stringify(expect)}`);
        }
        if (backend === 'wasm' && Object.keys(expect).length && !how.inPlace) throw new Error('the adapter did not run in tfjs\'s memory on wasm');
        const p = await profile(inst.run);
        inst.reset?.(); // (G2: the table as it was, for the checked first call)
        const mem = () => ({ lastCallBytes: p.peak, heapInUse: tf.memory().numBytes,
          memoryBytes: backend === 'wasm' ? tf.backend().wasm.HEAPU8.byteLength : undefined });
        const words = Object.keys(expect).length ? `served: ${Object.entries(expect).map(([k, n]) => `${k} x${n}`).join(', ')} by the adapter` +
          (backend === 'wasm' ? ' in tfjs\'s memory' : '') : undefined;
        return { ...inst, heap: mem, note: [words, p.kernels].filter(Boolean).join('; ') };
      } catch (e) {
        inst.dispose();
        throw e;
      }
    },
  };
}

// Registers the adapter's UnsortedSegmentSum alone on `backend`: registerKernels, then every other
// kernel it replaced given back (unregisterKernels restores them all at the group's end).
async function registerSegmentSumOnly(backend) {
  const before = Object.fromEntries(ADAPTER_KERNELS.map((k) => [k, tf.getKernel(k, backend)]));
  await registerKernels(tf, { backends: [backend] });
  for (const k of ADAPTER_KERNELS.filter((x) => x !== 'UnsortedSegmentSum')) {
    if (tf.getKernel(k, backend)) tf.unregisterKernel(k, backend);
    if (before[k]) tf.registerKernel(before[k]);
  }
}

/**
 * The tfjs groups of the G suite: per backend, the stock kernels (G2's ssm and G3: no gradient;
 * on wasm G2's gather model: no UnsortedSegmentSum; and the SGD update alone), on wasm the
 * adapter's UnsortedSegmentSum alone (G1, G2's gather model), and wasm-gather/tfjs (on wasm G2's
 * ssm and G3, on cpu G3).
 */
export function tfjsGradGroups() {
  tf.enableProdMode(); // only silences tfjs's "install tfjs-node" advice
  setWasmPaths(wasmDir);
  const adapterGroup = (backend, kernels, models, register) => ({
    name: `tfjs ${backend}, ${KERNEL_WORDS[kernels]} (G)`,
    async begin() {
      unregisterKernels(tf);
      if (register) { await init(); await register(); }
    },
    end() { unregisterKernels(tf); if (register) dispose(); },
    runners: models.map((m) => runner(backend, kernels, m)),
  });
  return [
    adapterGroup('wasm', 'stock', ['ssm', 'gm', 'gatherND', 'update']),
    adapterGroup('wasm', 'uss', ['uss', 'gm'], () => registerSegmentSumOnly('wasm')),
    adapterGroup('wasm', 'adapter', ['ssm', 'gatherND', 'gather'], () => registerKernels(tf, { backends: ['wasm'] })),
    adapterGroup('cpu', 'stock', ['ssm', 'gatherND']),
    // (on cpu G3 alone: its other steps spend seconds in tfjs-cpu's own kernels, the dense update's Multiply and Add)
    adapterGroup('cpu', 'adapter', ['gatherND'], () => registerKernels(tf, { backends: ['cpu'] })),
  ];
}

// Within about one float32 rounding of each value (2^-20 relative to its row's largest): stock
// tfjs-cpu sums in another order and precision (its Sum accumulates in a double).
function closeRows(a, b, D) {
  if (a.length !== b.length) return `${a.length} values, expected ${b.length}`;
  for (let r = 0; r < b.length; r += D) {
    let m = 0;
    for (let e = r; e < r + D; e++) m = Math.max(m, Math.abs(b[e]));
    for (let e = r; e < r + D; e++) if (!(Math.abs(a[e] - b[e]) <= 2 ** -20 * m)) return `value ${e} is ${a[e]}, expected ${b[e]}`;
  }
  return '';
}

// The gradient of the bags with ids taken modulo n (n table rows), each row's sum in a double.
function smallGradient(t, n, scale) {
  const [B, L] = t.indices.shape, D = t.gradOutput.shape[1], acc = new Float64Array(n * D), g = t.gradOutput.data;
  for (let q = 0; q < B * L; q++) {
    const at = (t.indices.data[q] % n) * D, b = (q / L) | 0;
    for (let d = 0; d < D; d++) acc[at + d] += scale * g[b * D + d];
  }
  return Float32Array.from(acc);
}

/**
 * Stock tfjs-cpu's G1 (what: 'uss') or G2 gather model ('gm') on tables of `counts` rows (the ids
 * taken modulo each), one call each timed and its gradient then checked within a rounding of the reference, time =
 * a + b * rows fitted: a row as bench/run.mjs makes them, medianMs the fit at the table's rows.
 */
export async function fittedCpu(w, t, what, counts, { samples = 1 } = {}) {
  tf.enableProdMode();
  unregisterKernels(tf);
  await tf.setBackend('cpu');
  await registerGradients(tf);
  const L = t.indices.shape[1], D = t.gradOutput.shape[1], rows = t.numWeights;
  const points = [];
  for (const n of counts) {
    const ids = Int32Array.from(t.indices.data, (x) => x % n);
    const small = { ...t, indices: { data: ids, shape: t.indices.shape }, numWeights: n };
    const inst = what === 'uss' ? MODELS.uss.setup(small)
      : sgdStep({ ...small, table: { data: t.table.data.slice(0, n * D), shape: [n, D] } }, 'cpu', LOSS.gm);
    try {
      // one call each, timed, its gradient kept and checked after it (within a rounding, not
      // bitwise: tfjs-cpu's Sum and UnsortedSegmentSum add in doubles); a miss fails the row
      const ms = [];
      for (let k = 0; k < samples; k++) {
        const t0 = performance.now();
        const g = what === 'uss' ? inst.call() : inst.step(true);
        ms.push(performance.now() - t0);
        const bad = closeRows(g.dataSync(), smallGradient(t, n, what === 'uss' ? 1 : 1 / L), D);
        g.dispose();
        if (bad) throw new Error(`on a table of ${n} rows: ${bad}`);
      }
      points.push([n, median(ms)]);
    } finally {
      inst.dispose();
    }
  }
  const [a, b] = lineFit(points);
  const model = what === 'uss' ? MODELS.uss : MODELS.gm;
  return {
    impl: `tfjs ${V} cpu, stock kernels: ${model.what} (fitted)`, family: 'peer', mode: 'resident', peer: 'tfjs-cpu', variant: 'stock',
    backend: 'cpu', model: what, workload: w.id, fitted: true, medianMs: a + b * rows, samples: samples * counts.length,
    fit: { points, interceptMs: a, perRowMs: b, rows },
    note: `fitted: ${a.toFixed(1)} ms + ${b.toFixed(1)} ms per table row (tables of ${counts.join(', ')} rows, the ids modulo each; ` +
      `each timed call's gradient then checked within 2^-20 of its row's largest value), at ${rows} rows`,
  };
}
