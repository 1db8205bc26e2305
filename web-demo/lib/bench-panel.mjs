// The benchmark panel: runs the workloads of common/workloads.mjs in this page, wasm-gather
// (resident and one-shot) against plain JS loops (common/js-loops.mjs), after checking that
// their outputs are bitwise identical, and plots the medians. Runs on a button press only.
import { sameBytes } from '../../common/bytes.mjs';
import { jsLoops } from '../../common/js-loops.mjs';
import { caller } from '../../common/op-caller.mjs';
import { numel } from '../../common/shape.mjs';
import { measure } from '../../common/timing.mjs';
import { $, el, fmtMs } from './dom.mjs';
import { workloads } from './bench-workloads.mjs';
import { barChart } from './bars.mjs';

const pause = () => new Promise((r) => setTimeout(r, 0));

export function createBenchPanel(api, info) {
  const root = $('#bench');
  const form = $('#bench-form');
  const status = $('#bench-status');
  const out = $('#bench-results');
  const ids = workloads('small').map((w) => w.id);
  const boxes = $('#bench-workloads');
  for (const w of workloads('small')) {
    boxes.append(el('label', { class: 'check' },
      el('input', { type: 'checkbox', name: 'w', value: w.id, checked: true }), ` ${w.id}`));
  }
  root.dataset.status = 'idle';
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const chosen = [...form.querySelectorAll('input[name=w]:checked')].map((x) => x.value);
    run(chosen, form.elements.scale.value).catch((err) => {
      status.textContent = `${err.name}: ${err.message}`;
      root.dataset.status = 'error';
      console.error(err);
    });
  });

  async function run(chosen, scale) {
    const button = form.querySelector('button');
    button.disabled = true;
    root.dataset.status = 'running';
    const rows = [];
    const table = el('tbody');
    out.replaceChildren(el('table', { class: 'bench-table' },
      el('thead', {}, el('tr', {}, ['workload', 'wasm-gather resident', 'wasm-gather one-shot', 'plain JS', 'speed-up (resident vs JS)', 'check'].map((h) => el('th', { scope: 'col' }, h)))),
      table));
    const chartBox = el('div', { class: 'chart' });
    out.append(chartBox);
    try {
      for (const w of workloads(scale).filter((x) => chosen.includes(x.id))) {
        status.textContent = `${w.id}: generating ${(w.bytes / 2 ** 20).toFixed(1)} MB of data…`;
        await pause();
        const t = w.make();
        status.textContent = `${w.id}: timing…`;
        await pause();
        const r = await timeWorkload(api, w, t);
        const speedup = r.js / r.resident;
        table.append(el('tr', { 'data-workload': w.id },
          el('th', { scope: 'row', title: w.title }, w.id),
          el('td', { class: 'num', 'data-ms': r.resident }, fmtMs(r.resident)),
          el('td', { class: 'num', 'data-ms': r.oneShot }, fmtMs(r.oneShot)),
          el('td', { class: 'num', 'data-ms': r.js }, fmtMs(r.js)),
          el('td', { class: 'num' }, `${speedup.toFixed(2)}×`),
          el('td', {}, r.identical ? '✓ identical' : '✗ differs')));
        const groupTitle = `${w.id} · ${w.title}`;
        rows.push(
          { group: w.id, groupTitle, impl: 'wasm-gather, resident', ms: r.resident, cls: 'resident', note: `${speedup.toFixed(1)}× JS` },
          { group: w.id, groupTitle, impl: 'wasm-gather, one-shot', ms: r.oneShot, cls: 'oneshot', note: `${(r.js / r.oneShot).toFixed(1)}× JS` },
          { group: w.id, groupTitle, impl: 'plain JS loops', ms: r.js, cls: 'js' },
        );
        chartBox.replaceChildren(barChart(rows, { title: `Median time per call (${info.variant}, ${info.threads} thread${info.threads > 1 ? 's' : ''}); shorter is faster` }));
        await pause();
      }
      status.textContent = `done: ${chosen.length} workload${chosen.length === 1 ? '' : 's'}, ${scale} size, ${info.variant} with ${info.threads} thread${info.threads > 1 ? 's' : ''}`;
      root.dataset.status = 'done';
    } finally {
      button.disabled = false;
    }
  }
  return { ids };
}

// The page's clock may be coarse (not cross-origin isolated): samples of at least 2 ms.
const TIMING = { budgetMs: 250, maxSamples: 200, minSampleMs: 2 };

/** Medians (ms per call) for the three implementations, after checking the outputs agree. */
async function timeWorkload(api, w, t) {
  const js = () => jsLoops[w.op](t.data, t.indices, w.opts);
  const oneShotCall = caller(api, w);
  const oneShot = () => oneShotCall(t.data, t.indices).data;
  const resident = api.upload(t.data);
  const outArray = new Float32Array(numel(w.outShape));
  const residentCall = caller(api, w, { out: outArray });
  const residentRun = () => residentCall(resident, t.indices).data;
  try {
    const ref = js();
    const identical = sameBytes(ref, oneShot()) && sameBytes(ref, residentRun());
    return {
      identical,
      resident: (await measure(residentRun, TIMING)).medianMs,
      oneShot: (await measure(oneShot, TIMING)).medianMs,
      js: (await measure(js, TIMING)).medianMs,
    };
  } finally {
    resident.dispose();
  }
}
