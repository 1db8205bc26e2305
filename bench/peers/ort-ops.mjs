// onnxruntime-web on a benchmark workload: the ONNX node that computes it, the conversion of its
// indices, and the runner (one-shot: data and indices fed per run; resident: the data an
// initializer of the model). Node's peers (ort.mjs, which loads onnxruntime-web once per thread
// count) and the browser benchmark's page (bench/browser/bench.mjs) share it. No Node imports.
import { gatherModel } from './onnx-model.mjs';

/** The ONNX node for a workload, and the per-call conversion of its int32 indices, if any. */
export function onnxOp(w) {
  const { op, opts } = w;
  if (op === 'take') {
    if (opts.batchDims) throw new Error('ONNX Gather has no batch_dims');
    return { opType: 'Gather', attrs: { axis: opts.axis ?? 0 }, indicesType: 'int32' };
  }
  if (op === 'gather') return { opType: 'GatherElements', attrs: { axis: opts.dim }, indicesType: 'int32' };
  return {
    opType: 'GatherND', attrs: { batch_dims: opts.batchDims ?? 0 }, indicesType: 'int64', convert: toInt64,
    note: 'GatherND takes int64 indices only: int32 widened to BigInt64Array in run()',
  };
}

/** int32 -> int64 by sign extension, writing both halves through an Int32Array view (little-endian). */
export function toInt64(a) {
  const out = new BigInt64Array(a.length);
  const halves = new Int32Array(out.buffer);
  for (let i = 0; i < a.length; i++) {
    halves[2 * i] = a[i];
    halves[2 * i + 1] = a[i] >> 31;
  }
  return out;
}

/** The runner of `ort` (an onnxruntime-web module set to `threads` threads) in `mode`. */
export function ortRunner(ort, threads, initMs, mode) {
  const resident = mode === 'resident';
  const how = resident ? 'data as initializer' : 'inputs fed per run';
  return {
    impl: `onnxruntime-web ${ort.env.versions.web} (${how}${threads > 1 ? `, ${threads} threads` : ''})`,
    peer: 'onnxruntime-web',
    mode,
    threads,
    initMs,
    async setup(w, t) {
      const { convert = (a) => a, note, ...node } = onnxOp(w);
      const model = gatherModel({
        ...node, dataShape: t.data.shape, indicesShape: t.indices.shape, outShape: w.outShape,
        initializer: resident ? t.data.data : undefined,
      });
      const session = await ort.InferenceSession.create(model, { executionProviders: ['wasm'] });
      return {
        note,
        async run() {
          const feeds = { indices: new ort.Tensor(node.indicesType, convert(t.indices.data), t.indices.shape) };
          if (!resident) feeds.data = new ort.Tensor('float32', t.data.data, t.data.shape);
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
