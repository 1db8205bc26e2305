// onnxruntime-web on the S workloads: a one-node model per (workload, form) (bench/peers/
// onnx-model.mjs: scatterModel), the wasm execution provider, 1 and 2 threads (ort.mjs: loadOrt).
//   one-shot: data, indices and updates fed on every run.
//   resident: the data an initializer of the model; indices and updates fed. Either way a run
//             returns a new tensor: an ONNX session cannot update its input or initializer.
// Each library form maps to the ONNX op computing it: indexReduce along axis 0 is ScatterND on
// [k, 1] tuples, scatter is ScatterElements, tensorScatter is TensorScatter (opset 24).
import { sameBytes } from '../../common/bytes.mjs';
import { scatterModel } from './onnx-model.mjs';
import { toInt64 } from './ort-ops.mjs';
import { loadOrt } from './ort.mjs';

const THREADS = [1, 2];
const QUIET = { logSeverityLevel: 3 }; // TensorScatter warns on every run that it copies its cache

const reduction = (form) => (form.opts.reduce && form.opts.reduce !== 'none' ? { reduction: form.opts.reduce } : {});
const WIDENED = 'takes int64 indices only: int32 widened to BigInt64Array in run()';

/** The ONNX node of a form, its index tensor's type and shape, and the per-call widening. */
export function onnxScatterOp(form, indices) {
  switch (form.op) {
    case 'indexReduce':
      if (form.axis !== 0) throw new Error('indexReduce maps to ScatterND along axis 0 only');
      return { opType: 'ScatterND', attrs: reduction(form), opset: 18, indicesType: 'int64', indicesShape: [...indices.shape, 1],
        convert: toInt64, note: `ScatterND on [k, 1] index tuples; ${WIDENED}` };
    case 'scatterND':
      return { opType: 'ScatterND', attrs: reduction(form), opset: 18, indicesType: 'int64', indicesShape: indices.shape, convert: toInt64,
        note: `ScatterND ${WIDENED}` };
    case 'scatter':
      return { opType: 'ScatterElements', attrs: { axis: form.axis, ...reduction(form) }, opset: 18, indicesType: 'int32', indicesShape: indices.shape };
    case 'tensorScatter':
      return { opType: 'TensorScatter', attrs: {}, opset: 24, indicesType: 'int64', indicesShape: indices.shape, convert: toInt64,
        order: ['updates', 'indices'], note: `TensorScatter ${WIDENED}; it copies its cache on every run (in place only where the runtime can bind the output to the input's buffer)` };
    default: throw new Error(`no ONNX op for ${form.op}`);
  }
}

// With more than one thread onnxruntime-web's ScatterND and ScatterElements with reduction 'add'
// do not always add duplicates in index order: seen here, 1 run in 3 of S1 at 2 threads had the
// rows indexed 3 times 1 ulp off the in-order sums, the next runs not. Such a run is accepted
// within 4 ulp of the in-order result and says how far it was (unordered: no bitwise check).
function unordered(inst) {
  return (out, expected) => {
    if (sameBytes(out, expected)) return true;
    let n = 0, worst = 0;
    for (let i = 0; i < out.length; i++) {
      if (out[i] === expected[i]) continue;
      const ulps = Math.abs(out[i] - expected[i]) / (Math.abs(expected[i]) * 2 ** -23);
      if (!(ulps <= 4)) return false;
      n++;
      worst = Math.max(worst, ulps);
    }
    inst.note = [inst.note, `its checked run added duplicates out of index order: ${n} values off the in-order sums, by up to ${Math.ceil(worst)} ulp`].filter(Boolean).join('; ');
    return true;
  };
}

function runner(ort, threads, mode) {
  const resident = mode === 'resident';
  return {
    impl: `onnxruntime-web ${ort.env.versions.web} (${resident ? 'data as initializer' : 'inputs fed per run'}${threads > 1 ? `, ${threads} threads` : ''})`,
    family: 'peer', peer: 'onnxruntime-web', mode, threads,
    async setup(w, t) {
      const { indices, updates } = w.form.pick(t);
      const { convert = (a) => a, note, ...node } = onnxScatterOp(w.form, indices);
      const model = scatterModel({ ...node, dataShape: t.data.shape, updatesShape: updates.shape, initializer: resident ? t.data.data : undefined });
      const session = await ort.InferenceSession.create(model, { executionProviders: ['wasm'], ...QUIET });
      const inst = {
        note,
        async run() {
          const feeds = {
            indices: new ort.Tensor(node.indicesType, convert(indices.data), node.indicesShape),
            updates: new ort.Tensor('float32', updates.data, updates.shape),
          };
          if (!resident) feeds.data = new ort.Tensor('float32', t.data.data, t.data.shape);
          const { out } = await session.run(feeds, QUIET);
          const data = out.data;
          out.dispose();
          return data;
        },
        dispose: () => session.release(),
      };
      if (threads > 1 && node.attrs.reduction === 'add') inst.same = unordered(inst);
      return inst;
    },
  };
}

/** The onnxruntime-web runners of the S workloads: fed and resident, 1 and 2 threads. */
export async function scatterPeers() {
  const out = [];
  for (const threads of THREADS) {
    const ort = await loadOrt(threads);
    out.push(runner(ort, threads, 'one-shot'), runner(ort, threads, 'resident'));
  }
  return out;
}
