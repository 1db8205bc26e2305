// The browser benchmark's page (bench/browser/run.mjs opens it in headless Chromium, on a
// cross-origin isolated page and on a plain one): W1-W5 with wasm-gather and, in the same page,
// onnxruntime-web (wasm, data as an initializer) and TensorFlow.js's wasm backend (data tensor
// kept), the in-browser peers of issue 13. Each output is checked bitwise against the reference
// (common/reference.mjs) before it is timed; medians from common/timing.mjs, as in Node.
import * as api from '../../js/index.mjs';
import { bytesOf, sameBytes } from '../../common/bytes.mjs';
import { caller } from '../../common/op-caller.mjs';
import { refOps } from '../../common/reference.mjs';
import { measure } from '../../common/timing.mjs';
import { WORKLOADS, makeTensors } from '../../common/workloads.mjs';
import { gatherModel } from '../peers/onnx-model.mjs';
import { onnxOp } from '../peers/ort-ops.mjs';
import { planFor } from '../peers/tfjs-plan.mjs';

const outputArray = (w) => new Float32Array(w.outShape.reduce((a, b) => a * b, 1));

// Each runner: setup(w, t) -> { run() -> output (or a Promise of it), dispose() }.
function runners(peers, threads) {
  const { tf, ort } = peers;
  return [
    { impl: 'wasm-gather, one-shot', mode: 'one-shot', setup(w, t) {
      const call = caller(api, w);
      return { run: () => call(t.data, t.indices).data, dispose() {} };
    } },
    { impl: 'wasm-gather, resident, output to JS', mode: 'resident', setup(w, t) {
      const data = api.upload(t.data);
      const call = caller(api, w, { out: outputArray(w) });
      return { run: () => call(data, t.indices).data, dispose: () => data.dispose() };
    } },
    { impl: 'wasm-gather, resident, read with view()', mode: 'resident-view', setup(w, t) {
      const data = api.upload(t.data);
      const out = api.upload({ data: outputArray(w), shape: w.outShape });
      const call = caller(api, w, { out });
      return { run: () => call(data, t.indices).view(), dispose() { data.dispose(); out.dispose(); } };
    } },
    { impl: `onnxruntime-web ${ort.env.versions.web} (data as initializer, ${threads} thread${threads > 1 ? 's' : ''})`, mode: 'resident', peer: true,
      async setup(w, t) {
        const { convert = (a) => a, note, ...node } = onnxOp(w);
        const model = gatherModel({ ...node, dataShape: t.data.shape, indicesShape: t.indices.shape, outShape: w.outShape, initializer: t.data.data });
        const session = await ort.InferenceSession.create(model, { executionProviders: ['wasm'] });
        return {
          note,
          async run() {
            const { out } = await session.run({ indices: new ort.Tensor(node.indicesType, convert(t.indices.data), t.indices.shape) });
            const data = out.data;
            out.dispose();
            return data;
          },
          dispose: () => session.release(),
        };
      } },
    { impl: `tfjs ${tf.version_core} wasm (data tensor resident)`, mode: 'resident', peer: true, setup(w, t) {
      const { fn, shape, prep = (a) => a, note } = planFor(tf, 'wasm', w, t);
      const data = tf.tensor(t.data.data, t.data.shape, 'float32');
      return {
        note,
        run() {
          const i = tf.tensor(prep(t.indices.data), shape, 'int32');
          const out = tf.tidy(() => fn(data, i));
          const values = out.dataSync();
          tf.dispose([i, out]);
          return values;
        },
        dispose: () => data.dispose(),
      };
    } },
  ];
}

/**
 * Runs every runner on every workload. peersUrl: the module with { tf, setWasmPaths, ort }
 * (bench/browser/run.mjs bundles it). Resolves to { page, rows: [{ impl, mode, peer, workload,
 * medianMs, note?, error? }] }.
 */
export async function runBench({ peersUrl, budgetMs = 200, workloads }) {
  const peers = await import(peersUrl);
  const info = await api.init();
  const threads = info.threads;
  peers.ort.env.wasm.numThreads = threads;
  peers.ort.env.wasm.wasmPaths = new URL('../../node_modules/onnxruntime-web/dist/', import.meta.url).href;
  peers.setWasmPaths(new URL('../../node_modules/@tensorflow/tfjs-backend-wasm/dist/', import.meta.url).href);
  peers.tf.enableProdMode();
  await peers.tf.setBackend('wasm');
  const rows = [];
  for (const w of WORKLOADS.filter((x) => !workloads || workloads.includes(x.id))) {
    const t = makeTensors(w);
    const expected = bytesOf(caller(refOps, w)(t.data, t.indices).data);
    for (const r of runners(peers, threads)) {
      const row = { impl: r.impl, mode: r.mode, peer: !!r.peer, workload: w.id };
      let inst;
      try {
        inst = await r.setup(w, t);
        if (inst.note) row.note = inst.note;
        const first = await inst.run();
        if (!sameBytes(bytesOf(first), expected)) throw new Error('output differs from the reference');
        // Samples of at least 5 ms: a plain page's clock ticks in 100 µs steps (5 µs when isolated).
        row.medianMs = (await measure(inst.run, { budgetMs, minSamples: 5, warmUpMs: 30, minSampleMs: 5 })).medianMs;
      } catch (e) {
        row.error = String(e?.message ?? e);
      } finally {
        await inst?.dispose();
      }
      rows.push(row);
    }
  }
  return { page: { crossOriginIsolated, variant: info.variant, threads, userAgent: navigator.userAgent }, rows };
}
