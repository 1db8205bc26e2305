// The browser benchmark's page (bench/browser/run.mjs opens it in headless Chromium, on a
// cross-origin isolated page and on a plain one): W1-W5 with wasm-gather and, in the same page,
// onnxruntime-web (wasm, data as an initializer) and TensorFlow.js's wasm backend (data tensor
// kept), the in-browser peers. Each output is checked bitwise against the reference
// (common/reference.mjs) before it is timed; medians from common/timing.mjs, as in Node.
import * as api from '../../js/index.mjs';
import { bytesOf, sameBytes } from '../../common/bytes.mjs';
import { caller } from '../../common/op-caller.mjs';
import { refOps } from '../../common/reference.mjs';
import { measure } from '../../common/timing.mjs';
import { WORKLOADS, makeTensors } from '../../common/workloads.mjs';
import { wasmGatherRunners } from '../lib/wasm-gather-runners.mjs';
import { ortRunner } from '../peers/ort-ops.mjs';
import { tfjsRunner } from '../peers/tfjs-plan.mjs';

// The page's runners: wasm-gather's one-shot, resident and read-with-view() runners as Node runs
// them, and the two peers' resident runners, all from the modules Node's benchmark uses.
const MODES = ['one-shot', 'resident', 'resident-view'];
function runners(peers, threads, info) {
  return [
    ...wasmGatherRunners(`${info.variant} ${info.threads}T`).filter((r) => MODES.includes(r.mode)),
    { ...ortRunner(peers.ort, threads, undefined, 'resident'), peer: true },
    { ...tfjsRunner(peers.tf, 'wasm', undefined, 'resident'), peer: true },
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
    for (const r of runners(peers, threads, info)) {
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
