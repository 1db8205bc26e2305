// wasm-gather web demo, the entry point: initialise the library, show the runtime, start the
// playground and the benchmark panel, and check every seed example once.
//
// For tests: <body data-status="loading"|"done"|"error" data-passed data-total data-variant
// data-threads data-isolated>, and window.__wasmGatherDemo = { info, isolated, passed, total,
// quantizedTotal, scatterTotal, bagTotal, gradTotal, results, playground: { presets, select(id),
// state(), call(), gradRow(row) } } (total counts the seeds, the gatherBlockQuantized examples
// checked against their reference, the scatter examples checked against their worked outputs, the
// embeddingBag and segmentReduce examples checked against their worked outputs and
// common/reference-bag.mjs, and the embeddingBag examples' backward, every output row's gradient,
// checked against common/reference-bag-backward.mjs and the rows worked out by hand), and
// maskTotal, masks: { presets, select(id), state(), call() } (the masks section, lib/mask-panel.mjs:
// its examples checked against their documents and common/reference-mask.mjs, in total too).
import { $, el } from './lib/dom.mjs';
import { createPlayground } from './lib/playground.mjs';
import { createBenchPanel } from './lib/bench-panel.mjs';
import { bagCheck, bagGradCheck, quantizedCheck, scatterCheck, selfCheck } from './lib/selfcheck.mjs';
import { callQuantized, quantOpts } from './lib/ops.mjs';
import { callScatter, isScatter } from './lib/scatter-ops.mjs';
import { callBag, isBag } from './lib/bag-ops.mjs';
import { BACKWARD, bagGradient } from './lib/bag-grad.mjs';
import { createMaskPanel, maskCheck } from './lib/mask-panel.mjs';

const DEFAULT_EXAMPLE = 'seed-17'; // OpenVINO example 5: slices with batch_dims = 1

function showRuntime(rows) {
  $('#runtime').replaceChildren(...Object.entries(rows).map(([k, v]) =>
    el('div', {}, el('dt', {}, k), el('dd', {}, String(v)))));
}

function fail(err) {
  const box = $('#error');
  box.hidden = false;
  box.textContent = `Error: ${err?.stack || err}`;
  $('#summary').textContent = 'not run';
  document.body.dataset.status = 'error';
  console.error(err);
}

async function main() {
  const params = new URLSearchParams(location.search);
  const initOpts = {};
  if (params.get('variant')) initOpts.variant = params.get('variant');
  if (params.get('threads')) initOpts.threads = Number(params.get('threads'));

  const [api, seeds, ref, refQuantized, refBag, refBackward, refMask] = await Promise.all([
    import('../js/index.mjs'),
    import('../common/seed-examples.mjs'),
    import('../common/reference.mjs'),
    import('../common/reference-quantized.mjs'),
    import('../common/reference-bag.mjs'),
    import('../common/reference-bag-backward.mjs'),
    import('../common/reference-mask.mjs'),
  ]);
  const examples = seeds.seedExamples;
  const t0 = performance.now();
  const info = await api.init(initOpts);
  const initMs = performance.now() - t0;
  const isolated = globalThis.crossOriginIsolated === true;
  Object.assign(document.body.dataset, { variant: info.variant, threads: info.threads, simd: info.simd, isolated });
  showRuntime({
    variant: info.variant,
    threads: info.threads,
    crossOriginIsolated: isolated ? 'yes' : 'no',
    cores: navigator.hardwareConcurrency ?? '?',
    init: `${initMs.toFixed(1)} ms`,
  });
  $('#bench-runtime').replaceChildren(
    'wasm-gather ', el('strong', {}, info.variant), ' with ', el('strong', {}, `${info.threads} thread${info.threads > 1 ? 's' : ''}`),
    ' · page ', el('strong', {}, isolated ? 'cross-origin isolated' : 'not cross-origin isolated'),
    info.threads > 1 ? '' : isolated ? ' (this engine does not share memory with workers, so one thread)'
      : ' (no SharedArrayBuffer, so no threads)', ` · ${navigator.hardwareConcurrency ?? '?'} cores`);

  const playground = createPlayground(api, examples);
  const masks = createMaskPanel(api);
  const hook = {
    info, isolated,
    playground: { presets: playground.presets.map((p) => p.id), select: playground.select, state: playground.state, call: playground.call, gradRow: playground.gradRow },
    masks: { presets: masks.presets.map((p) => p.id), select: masks.select, state: masks.state, call: masks.call },
  };
  window.__wasmGatherDemo = hook;
  // ?example=mask-3 picks the masks section's example (the playground keeps its default)
  const wanted = params.get('example');
  const maskWanted = wanted?.startsWith('mask-');
  playground.select(maskWanted ? DEFAULT_EXAMPLE : wanted ?? DEFAULT_EXAMPLE);
  masks.select(maskWanted ? wanted : 'mask-0');
  if (maskWanted) $('#masks').scrollIntoView();
  createBenchPanel(api, info);

  // The self-check builds the large shape-only tensors: let the page paint first.
  await new Promise((r) => setTimeout(r, 0));
  const t1 = performance.now();
  const seedResults = selfCheck(api, { ...ref, refGatherBlockQuantized: refQuantized.refGatherBlockQuantized }, examples);
  const quantResults = quantizedCheck(api, refQuantized, playground.presets, callQuantized, quantOpts);
  const scatterResults = scatterCheck(api, playground.presets, isScatter, callScatter);
  const bagResults = bagCheck(api, refBag.refBagOps, playground.presets, isBag, callBag);
  const gradResults = BACKWARD ? bagGradCheck(api, refBackward, playground.presets, callBag, bagGradient) : [];
  const maskResults = maskCheck(api, refMask.refMaskOps);
  const results = [...seedResults, ...quantResults, ...scatterResults, ...bagResults, ...gradResults, ...maskResults];
  const passed = results.filter((r) => r.pass).length;
  const count = (rs) => `${rs.filter((r) => r.pass).length}/${rs.length}`;
  const summary = $('#summary');
  summary.textContent = `${count(seedResults)} seed examples match the documents, ${count(quantResults)} gatherBlockQuantized ` +
    `examples match common/reference-quantized.mjs bit for bit, ${count(scatterResults)} scatter examples match their ` +
    `worked outputs, ${count(bagResults)} embeddingBag and segmentReduce examples match their worked outputs and ` +
    `common/reference-bag.mjs, ${count(gradResults)} embeddingBag examples' gradients match ` +
    `common/reference-bag-backward.mjs, ${count(maskResults)} mask examples match their documents and ` +
    `common/reference-mask.mjs (${(performance.now() - t1).toFixed(0)} ms)`;
  summary.className = `summary ${passed === results.length ? 'all-pass' : 'some-fail'}`;
  summary.title = results.filter((r) => !r.pass).map((r) => `${r.title}: ${r.problem}`).join('\n');
  Object.assign(hook, {
    passed, total: results.length, quantizedTotal: quantResults.length, scatterTotal: scatterResults.length,
    bagTotal: bagResults.length, gradTotal: gradResults.length, maskTotal: maskResults.length, results,
  });
  Object.assign(document.body.dataset, { passed, total: results.length, status: 'done' });
}

main().catch(fail);
