// onnxruntime-web on the E workloads (common/bag-workloads.mjs): ONNX has no embedding bag, so
// the graph a converter makes of one, built in-process (onnx-model.mjs: graphModel), on the wasm
// execution provider at 1 and 2 threads (ort.mjs: loadOrt):
//   E1: Gather(table, indices [4096, 32]), ReduceSum over axis 1;
//   E2: Gather, Mul by the weights as [4096, 32, 1], ReduceMean over axis 1 (the same as the
//       weighted mean: every bag's weights sum to 32, bag-workloads.mjs);
//   E3: com.microsoft.GatherBlockQuantized, ReduceSum over axis 1.
// Modes: resident (the table an initializer, the indices and weights fed) and, for E1 and E2,
// one-shot (the table fed per run as well). Each run materializes the gathered rows, [4096, 32,
// 128] floats, before reducing them. ReduceSum need not add in the bag's order, and E2's Mul
// rounds each product before ReduceMean adds it where the reference fuses the two, so the outputs
// are checked within a tolerance (bench/lib/close-check.mjs), each checked run's note saying
// whether it was bitwise all the same.
import { closeTo } from '../lib/close-check.mjs';
import { graphModel } from './onnx-model.mjs';
import { loadOrt } from './ort.mjs';

const THREADS = [1, 2];
const AXES = { name: 'axes', data: new BigInt64Array([1n]), shape: [1], dtype: 'int64' };
const REORDERS = 'ReduceSum need not add a bag\'s rows in their order';
const ROUNDS = 'Mul rounds each product before ReduceMean adds it, where the reference fuses the two';

// The graph of a workload: its nodes, and the inputs fed besides the indices (the table when not
// resident) as [name, dtype, shape].
function graphOf(w, t, resident) {
  const rows = { opType: 'Gather', inputs: ['table', 'indices'], outputs: ['rows'], attrs: { axis: 0 } };
  const reduce = (opType, from) => ({ opType, inputs: [from, 'axes'], outputs: ['out'], attrs: { keepdims: 0 } });
  const table = { name: 'table', data: t.table.data, shape: t.table.shape, dtype: t.scales ? 'uint8' : 'float32' };
  const inits = resident ? [table, AXES] : [AXES];
  const fed = resident ? [] : [['table', 'float32', t.table.shape]];
  if (t.scales) {
    const { bits, blockSize } = w.opts;
    return {
      nodes: [{ opType: 'GatherBlockQuantized', domain: 'com.microsoft', inputs: ['table', 'indices', 'scales'], outputs: ['rows'],
        attrs: { gather_axis: 0, quantize_axis: 1, block_size: blockSize, bits } }, reduce('ReduceSum', 'rows')],
      inits: [...inits, { name: 'scales', data: t.scales.data, shape: t.scales.shape, dtype: 'float32' }], fed,
    };
  }
  if (t.weights) {
    return {
      nodes: [rows, { opType: 'Mul', inputs: ['rows', 'weights'], outputs: ['scaled'] }, reduce('ReduceMean', 'scaled')],
      inits, fed: [...fed, ['weights', 'float32', [...t.weights.shape, 1]]],
    };
  }
  return { nodes: [rows, reduce('ReduceSum', 'rows')], inits, fed };
}

function runner(ort, threads, mode) {
  const resident = mode === 'resident';
  return {
    impl: `onnxruntime-web ${ort.env.versions.web} (${resident ? 'table as initializer' : 'inputs fed per run'}${threads > 1 ? `, ${threads} threads` : ''})`,
    family: 'peer', peer: 'onnxruntime-web', mode, threads,
    applies: (w, t) => w.op === 'embeddingBag' && (resident || !t.scales),
    async setup(w, t) {
      const g = graphOf(w, t, resident);
      const model = graphModel({
        nodes: g.nodes, initializers: g.inits,
        inputs: [['indices', 'int32', t.indices.shape], ...g.fed],
        outputs: [['out', 'float32']],
        // ReduceMean takes its axes as an input from opset 18; GatherBlockQuantized is com.microsoft 1
        opsets: [['', 21], ...(t.scales ? [['com.microsoft', 1]] : [])],
      });
      const session = await ort.InferenceSession.create(model, { executionProviders: ['wasm'] });
      const inst = {
        async run() {
          const feeds = { indices: new ort.Tensor('int32', t.indices.data, t.indices.shape) };
          if (!resident) feeds.table = new ort.Tensor('float32', t.table.data, t.table.shape);
          if (t.weights) feeds.weights = new ort.Tensor('float32', t.weights.data, [...t.weights.shape, 1]);
          const { out } = await session.run(feeds);
          const data = out.data;
          out.dispose();
          return data;
        },
        dispose: () => session.release(),
      };
      inst.same = closeTo(inst, w.outShape.at(-1), t.weights ? ROUNDS : REORDERS);
      return inst;
    },
  };
}

/** The onnxruntime-web runners of the E workloads: resident and fed, 1 and 2 threads. */
export async function bagPeers() {
  const out = [];
  for (const threads of THREADS) {
    const ort = await loadOrt(threads);
    out.push(runner(ort, threads, 'resident'), runner(ort, threads, 'one-shot'));
  }
  return out;
}
