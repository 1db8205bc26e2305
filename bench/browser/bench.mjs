// The browser benchmark's page (bench/browser/run.mjs opens it in headless Chromium, on a
// cross-origin isolated page and on a plain one): W1-W5 with wasm-gather and, in the same page,
// onnxruntime-web (wasm, data as an initializer) and TensorFlow.js's wasm backend (data tensor
// kept), the in-browser peers. Each output is checked bitwise against the reference
// (common/reference.mjs) before it is timed; medians from common/timing.mjs, as in Node.
// runCallBench: the C suite's rows (bench/lib/call-cost.mjs: what a small call costs, plain and
// prepared, beside the plain JS W5 loop, interleaved) on the simd build, as Node runs them.
import * as api from '../../js/index.mjs';
import { bytesOf, sameBytes } from '../../common/bytes.mjs';
import { caller } from '../../common/op-caller.mjs';
import { refOps } from '../../common/reference.mjs';
import { measure } from '../../common/timing.mjs';
import { WORKLOADS, makeTensors } from '../../common/workloads.mjs';
import { C_INIT, allocationProbe, jsRow, measureInterleaved, setUpRows } from '../lib/call-cost.mjs';
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

/**
 * The C rows in this page: wasm-gather re-initialized as the C suite runs it (simd, 1 thread),
 * each row checked, then timed interleaved with the JS loop (timing: measureInterleaved's
 * options). Resolves to { suite: 'C', page, js, rows, control } (js and rows as measureInterleaved's;
 * control: each row's median beside C6 prepared, which allocates nothing, instead of the JS loop).
 */
export async function runCallBench(timing = {}) {
  api.dispose();
  const info = await api.init(C_INIT);
  const set = setUpRows(api);
  let measured, allocUs, control;
  try {
    measured = measureInterleaved(jsRow(set.fx), set.rows, timing);
    allocUs = allocationProbe();
    // The same rows beside a row that allocates nothing (C6 prepared) instead of the JS loop,
    // whose garbage (a new 4 KiB array a call) the next collection frees, in whichever batch
    // it falls: what a row costs here without the JS loop's allocations around it.
    const unit = set.rows.find((r) => r.id === 'C6' && r.form === 'prepared');
    const m = measureInterleaved(unit, set.rows.filter((r) => r !== unit), { ...timing, rounds: Math.max(5, Math.round((timing.rounds ?? 31) / 3)) });
    control = { unit: `${unit.id} ${unit.form}`, unitMs: m.js.medianMs, rounds: Math.max(5, Math.round((timing.rounds ?? 31) / 3)),
      rows: m.rows.map((r) => ({ id: r.id, form: r.form, medianMs: r.medianMs })) };
  } finally {
    set.dispose();
    api.dispose();
  }
  return { suite: 'C', page: { crossOriginIsolated, variant: info.variant, threads: info.threads, userAgent: navigator.userAgent, timing, allocUs },
    js: measured.js, rows: measured.rows, control };
}
