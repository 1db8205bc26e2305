// The peers of the M workloads (common/mask-workloads.mjs), for bench/mask-suite.mjs: each resolves
// to the output as a new TypedArray, checked bitwise against the reference before it is timed.
//
// onnxruntime-web (wasm EP, 1 and 2 threads: bench/peers/ort.mjs loadOrt), a graph per workload
// written by bench/peers/onnx-model.mjs (graphModel, opset 18). That writer has no bool element
// type, so the mask is fed as uint8 and made bool by a Cast node (Cast's rule is x != 0:
// https://onnx.ai/onnx/operators/onnx__Cast.html), a pass over the mask's bytes:
//   M1: Compress(x, condition, axis 0);
//   M2: GatherND(x, Transpose(NonZero(mask))): NonZero gives [rank, nnz], GatherND wants
//       [nnz, rank] (Transpose with no perm reverses the dims);
//   M3: ScatterND(x, Transpose(NonZero(mask)), source): torch.onnx's export of masked_scatter
//       (symbolic_opset11.py: masked_scatter, its Slice of the source left out, the source
//       being exactly as long as the mask's true elements here).
// Modes: one-shot (every input fed per run) and resident (x an initializer of the model, the
// mask and source fed: an input fed to a session cannot stay in its memory, and a model of
// initializers only would be folded to a constant at load).
//
// TensorFlow.js 4.22, cpu and wasm backends (SIMD, no threads in Node):
//   M1: tf.booleanMaskAsync(x, mask, 0);
//   M2: tf.gather(x as [32768, 768], tf.whereAsync(the flattened mask) as [nnz]): the positions,
//       then the rows, as the other M2 rows do;
//   M3: tf.tensorScatterUpdate(x, tf.whereAsync(mask), source).
// Modes: resident (every input a tensor kept across calls; per call the op runs and its output is
// read with dataSync()) and one-shot (the tensors made from the arrays per call; on cpu tf.tensor
// keeps the caller's array, on wasm it copies it into the backend's memory). On cpu a one-shot call
// therefore does what a resident one does, so M2, whose calls take seconds there, runs resident
// only on cpu; and tf.tensorScatterUpdate writes into its input's own array (tfjs-scatter.mjs:
// CPU_WRITES_INPUT), so M3 runs there in place only, on a copy of x, as the S suite's does.
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import { graphModel } from '../peers/onnx-model.mjs';
import { loadOrt } from '../peers/ort.mjs';
import { CPU_WRITES_INPUT } from '../peers/tfjs-scatter.mjs';
import { wasmDir } from '../peers/tfjs.mjs';

const BOOL = 9; // TensorProto.DataType BOOL
const ORT_THREADS = [1, 2];

// ---- onnxruntime-web ----

// The graph of a workload: { nodes, feeds (graph input names, beside x) , about }.
function ortGraph(w) {
  const cast = (name) => ({ opType: 'Cast', inputs: [name], outputs: [`${name}_bool`], attrs: { to: BOOL } });
  if (w.op === 'compress') {
    return { inputs: [['condition', 'uint8']], nodes: [cast('condition'), { opType: 'Compress', inputs: ['x', 'condition_bool'], outputs: ['out'], attrs: { axis: 0 } }],
      about: 'Cast + Compress(axis 0)' };
  }
  const coords = [cast('mask'), { opType: 'NonZero', inputs: ['mask_bool'], outputs: ['nz'] }, { opType: 'Transpose', inputs: ['nz'], outputs: ['coords'] }];
  if (w.op === 'unpad') {
    return { inputs: [['mask', 'uint8']], nodes: [...coords, { opType: 'GatherND', inputs: ['x', 'coords'], outputs: ['out'] }],
      about: 'Cast + NonZero + Transpose + GatherND' };
  }
  return { inputs: [['mask', 'uint8'], ['source', 'float32']], nodes: [...coords, { opType: 'ScatterND', inputs: ['x', 'coords', 'source'], outputs: ['out'] }],
    about: 'Cast + NonZero + Transpose + ScatterND (torch.onnx\'s masked_scatter)' };
}

function ortRunner(ort, threads, mode) {
  const resident = mode === 'resident';
  return {
    impl: `onnxruntime-web ${ort.env.versions.web} (${resident ? 'x an initializer' : 'inputs fed per run'}${threads > 1 ? `, ${threads} threads` : ''})`,
    family: 'peer', peer: 'onnxruntime-web', mode, threads,
    async setup(t, c) {
      const g = ortGraph(c.w);
      const x = { name: 'x', data: t.x.data, shape: t.x.shape, dtype: 'float32' };
      const model = graphModel({
        nodes: g.nodes, initializers: resident ? [x] : [],
        inputs: [...(resident ? [] : [['x', 'float32', t.x.shape]]), ...g.inputs.map(([n, type]) => [n, type, (n === 'source' ? t.source : t.condition ?? t.mask).shape])],
        outputs: [['out', 'float32']], opsets: [['', 18]],
      });
      const session = await ort.InferenceSession.create(model, { executionProviders: ['wasm'] });
      const mask = t.condition ?? t.mask;
      const name = g.inputs[0][0];
      return {
        note: `${g.about}; the mask fed as uint8 and cast to bool in the graph`,
        async run() {
          const feeds = { [name]: new ort.Tensor('uint8', mask.data, mask.shape) };
          if (t.source) feeds.source = new ort.Tensor('float32', t.source.data, t.source.shape);
          if (!resident) feeds.x = new ort.Tensor('float32', t.x.data, t.x.shape);
          const { out } = await session.run(feeds); // the output is already copied out of the wasm heap
          const data = out.data;
          out.dispose();
          return data;
        },
        dispose: () => session.release(),
      };
    },
  };
}

// ---- TensorFlow.js ----

// How tfjs computes a workload: { inputs(t): [data, shape, dtype] of each tensor, call(tensors) ->
// a promise of the output tensor (intermediates disposed) }.
function tfjsPlan(w, t) {
  if (w.op === 'compress') {
    return { inputs: [[t.x.data, t.x.shape, 'float32'], [t.condition.data, t.condition.shape, 'bool']], call: ([x, m]) => tf.booleanMaskAsync(x, m, 0) };
  }
  if (w.op === 'unpad') {
    const n = t.mask.data.length;
    return {
      inputs: [[t.x.data, [n, t.x.data.length / n], 'float32'], [t.mask.data, [n], 'bool']],
      async call([x, m]) {
        const coords = await tf.whereAsync(m);
        const out = tf.tidy(() => tf.gather(x, tf.reshape(coords, [-1])));
        coords.dispose();
        return out;
      },
    };
  }
  return {
    inputs: [[t.x.data, t.x.shape, 'float32'], [t.mask.data, t.mask.shape, 'bool'], [t.source.data, t.source.shape, 'float32']],
    async call([x, m, s]) {
      const coords = await tf.whereAsync(m);
      const out = tf.tensorScatterUpdate(x, coords, s);
      coords.dispose();
      return out;
    },
  };
}

// [backend, mode, what the mode keeps, which workloads]
const TFJS_RUNNERS = [
  ['cpu', 'resident', 'tensors kept', (w) => w.op !== 'maskedScatter'],
  ['cpu', 'one-shot', 'tensors made per call', (w) => w.op === 'compress'],
  ['cpu', 'in-place', 'tensors kept, x written in place', (w) => w.op === 'maskedScatter'],
  ['wasm', 'resident', 'tensors kept', () => true],
  ['wasm', 'one-shot', 'tensors made per call', () => true],
];

function tfjsRunner([backend, mode, how, fits]) {
  return {
    impl: `tfjs ${tf.version_core} ${backend} (${how})`,
    family: 'peer', peer: `tfjs-${backend}`, mode, backend,
    applies: (w) => fits(w),
    async setup(t, c) {
      await tf.setBackend(backend);
      const plan = tfjsPlan(c.w, t);
      // in place: x's own copy, which the op overwrites (with the same values at every call)
      const inputs = mode === 'in-place' ? plan.inputs.map(([d, s, type], i) => [i === 0 ? d.slice() : d, s, type]) : plan.inputs;
      const make = () => inputs.map(([d, s, type]) => tf.tensor(d, s, type));
      const kept = mode === 'one-shot' ? null : make();
      return {
        note: mode === 'in-place' ? CPU_WRITES_INPUT : undefined,
        enter: () => tf.setBackend(backend), // (a tensor is served by the backend it was made on)
        async run() {
          const ts = kept ?? make();
          const out = await plan.call(ts);
          const values = out.dataSync();
          tf.dispose(kept ? [out] : [...ts, out]);
          return values;
        },
        dispose: () => tf.dispose(kept ?? []),
      };
    },
  };
}

/** The peers' runners: onnxruntime-web at 1 and 2 threads, one-shot and resident; tfjs cpu and wasm. */
export async function maskPeers(log) {
  const out = [];
  for (const threads of ORT_THREADS) {
    try {
      const ort = await loadOrt(threads);
      out.push(ortRunner(ort, threads, 'one-shot'), ortRunner(ort, threads, 'resident'));
    } catch (e) {
      log(`onnxruntime-web (${threads} threads): could not load: ${e.message}`);
    }
  }
  tf.enableProdMode(); // only silences tfjs's "install tfjs-node" advice
  setWasmPaths(wasmDir);
  out.push(...TFJS_RUNNERS.map(tfjsRunner));
  return out;
}
