// onnxruntime-web runners for the benchmark: the wasm execution provider in Node, one session
// per (workload, mode) holding a one-node model (bench/peers/onnx-model.mjs).
//   one-shot: data and indices are both graph inputs, fed on every run.
//   resident: data is an initializer of the model, so it is copied into ORT once, at setup.
// Each mode runs with 1 and with 2 threads.
// quantizedPeers(): com.microsoft.GatherBlockQuantized (the Q workloads), the table, scales
// and zero points as initializers, the indices the only input: resident mode only.
import { createRequire, register } from 'node:module';
import { pathToFileURL } from 'node:url';
import { freshInitMs } from './init-ms.mjs';
import { gatherBlockQuantizedModel } from './onnx-model.mjs';
import { ortRunner as runner } from './ort-ops.mjs';

const THREADS = [1, 2];
const ortURL = pathToFileURL(createRequire(import.meta.url).resolve('onnxruntime-web')).href.replace(/\.js$/, '.mjs');

// ORT fixes its thread count when its wasm starts, once per instance of its modules, and keeps
// its backend registry in onnxruntime-common. Two thread counts in one process need two copies
// of both: this resolve hook passes the importer's `?ortcopy=` tag on to every onnxruntime-*
// module it imports, so each tagged URL of onnxruntime-web loads a separate instance.
const COPY_HOOK = `export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  const tag = context.parentURL?.match(/[?&](ortcopy=\\w+)/)?.[1];
  return tag && r.url.includes('/node_modules/onnxruntime-') ? { ...r, url: r.url + '?' + tag } : r;
}`;

let hooked = false;

export async function loadOrt(threads) {
  if (!hooked) register(`data:text/javascript,${encodeURIComponent(COPY_HOOK)}`);
  hooked = true;
  const ort = await import(`${ortURL}?ortcopy=t${threads}`);
  ort.env.wasm.numThreads = threads;
  return ort;
}

// From nothing loaded to a first tiny Gather run, with this thread count.
const initSource = (threads) => `
const { gatherModel } = await import('./onnx-model.mjs');
const model = gatherModel({ opType: 'Gather', dataShape: [2], indicesShape: [1], indicesType: 'int32', outShape: [1] });
const t0 = performance.now();
const ort = await import('onnxruntime-web');
ort.env.wasm.numThreads = ${threads};
const session = await ort.InferenceSession.create(model, { executionProviders: ['wasm'] });
await session.run({ data: new ort.Tensor(new Float32Array(2), [2]), indices: new ort.Tensor(new Int32Array(1), [1]) });
console.log('INIT_MS', performance.now() - t0);
await session.release();
`;

export async function peers() {
  const out = [];
  for (const threads of THREADS) {
    const initMs = freshInitMs(initSource(threads));
    const ort = await loadOrt(threads);
    out.push(runner(ort, threads, initMs, 'one-shot'), runner(ort, threads, initMs, 'resident'));
  }
  return out;
}

// GatherBlockQuantized: one session per (table, thread count), shared by the workloads that use
// the same table (Q1 and Q2), created on first use and released after the last of them.
function quantizedRunner(ort, threads, workloads) {
  const sessions = new Map(); // table key -> { promise, users }
  const users = (key) => workloads.filter((w) => w.table === key).length;
  return {
    impl: `onnxruntime-web ${ort.env.versions.web} (table as initializer${threads > 1 ? `, ${threads} threads` : ''})`,
    peer: 'onnxruntime-web',
    mode: 'resident',
    threads,
    async setup(w, t) {
      if (!sessions.has(w.table)) {
        const { quantType, bits, blockSize } = w.opts;
        const rank = t.data.shape.length;
        const model = gatherBlockQuantizedModel({
          dataType: quantType, data: t.data.data, dataShape: t.data.shape,
          scaleType: t.scales.data instanceof Float32Array ? 'float32' : 'float16', scales: t.scales.data, scalesShape: t.scales.shape,
          zeroPoints: t.zeroPoints?.data, zeroPointsShape: t.zeroPoints?.shape, indicesType: 'int32',
          attrs: { gather_axis: 0, quantize_axis: rank - 1, block_size: blockSize, bits: bits ?? 4 },
        });
        sessions.set(w.table, { promise: ort.InferenceSession.create(model, { executionProviders: ['wasm'] }), users: users(w.table) });
      }
      const entry = sessions.get(w.table);
      const session = await entry.promise;
      return {
        async run() {
          const { out } = await session.run({ indices: new ort.Tensor('int32', t.indices.data, t.indices.shape) });
          const data = out.data; // float32: Float32Array; float16: Uint16Array of bits (Node 20 has no Float16Array)
          out.dispose();
          return data;
        },
        async dispose() {
          if (--entry.users === 0) {
            sessions.delete(w.table);
            await session.release();
          }
        },
      };
    },
  };
}

/** The onnxruntime-web runners for the Q workloads (1 and 2 threads). */
export async function quantizedPeers(workloads) {
  const out = [];
  for (const threads of THREADS) out.push(quantizedRunner(await loadOrt(threads), threads, workloads));
  return out;
}
