// The C section of docs/benchmarks.md (bench/lib/report.mjs calls it): what a small call costs
// through JS (bench/call-suite.mjs), plain and prepared, as a ratio to the plain JS W5 loop
// measured in the same run, the targets met or not (and by which form), where each plain call's
// time goes (the profiler's breakdown), and the same rows in Chromium (bench/results-browser.json's
// run marked suite 'C').
import { CATEGORIES } from './call-profile.mjs';
import { C_TARGETS } from './call-cost.mjs';

const us = (ms) => (ms === undefined || !Number.isFinite(ms) ? '–' : `${(ms * 1000).toFixed(ms * 1000 < 10 ? 3 : 1)} µs`);
const x = (r) => (r === undefined || !Number.isFinite(r) ? '–' : r.toFixed(3));
const pct = (f) => `${(f * 100).toFixed(0)}%`;

// What the JS loop's one allocation a call costs where it ran (allocationProbe).
const allocLine = (allocUs, jsMs, where) => (allocUs === undefined ? ''
  : `A new Float32Array(1024) (the JS loop's output, 4 KiB), alone in a loop, cost ${allocUs.toFixed(3)} µs in ${where}: ` +
    `${((allocUs / 1000 / jsMs) * 100).toFixed(0)}% of t_js.`);

// The rows of one run, Node's (results.json) or a page's: { js, row(id, form) }.
function nodeRun(report) {
  const rows = report.results.filter((r) => r.suite === 'C' && !r.error);
  const js = rows.find((r) => r.mode === 'js');
  return { js, row: (id, form) => rows.find((r) => r.workload === id && r.mode === form) };
}
function pageRun(run) {
  return { js: run.js, row: (id, form) => run.rows.find((r) => r.id === id && r.form === form) };
}

/**
 * The C targets of a run ({ js, row }): per case, { id, target, max, plain, prepared, met, by,
 * atBound }: atBound, for a case measured beside its bound (a form 'bound': the least any call of
 * the library must do there), that a form it did not meet the target with is no slower than that.
 */
export function cTargets(cases, run) {
  return cases.filter((c) => C_TARGETS[c.target]).map((c) => {
    const { max } = C_TARGETS[c.target];
    const plain = run.row(c.id, 'plain')?.ratio, prepared = run.row(c.id, 'prepared')?.ratio;
    const bound = run.row(c.id, 'bound')?.ratio;
    const ok = (r) => r !== undefined && r <= max;
    const by = [ok(plain) && 'plain', ok(prepared) && 'prepared'].filter(Boolean);
    const atBound = bound !== undefined && [plain, prepared].some((r) => r !== undefined && r <= bound);
    return { id: c.id, target: c.target, max, plain, prepared, met: by.length > 0, by: by.join(' and '), atBound };
  });
}

const verdict = (tt) => (tt.met ? `met (${tt.by})` : tt.atBound ? 'beyond its bound: no slower than the bound (below)' : '**not met**');

// The table of a run: each case's plain and prepared medians and ratios, its target, met or not.
function table(cases, run, L) {
  L.push('| case | plain, per call | plain / t_js | prepared, per call | prepared / t_js | target (/ t_js) | met |',
    '| --- | ---: | ---: | ---: | ---: | --- | --- |');
  L.push(`| **t_js**: the plain JS W5 loop (\`common/js-loops.mjs\` take, a new array each call) | **${us(run.js?.medianMs)}** | 1 | | | | |`);
  const t = cTargets(cases, run);
  for (const c of cases) {
    const p = run.row(c.id, 'plain'), q = run.row(c.id, 'prepared'), tt = t.find((y) => y.id === c.id);
    L.push(`| ${c.id}: ${c.title} | ${us(p?.medianMs)} | ${x(p?.ratio)} | ${q ? us(q.medianMs) : '–'} | ${q ? x(q.ratio) : '–'} | ` +
      `${tt ? `<= ${tt.max}: ${C_TARGETS[c.target].what}` : ''} | ${tt ? verdict(tt) : ''} |`);
    const bound = run.row(c.id, 'bound');
    if (bound) {
      L.push(`| ${c.id}'s bound: ${c.bound} | ${us(bound.medianMs)} | ${x(bound.ratio)} | | ` +
        `${q ? `prepared / bound: ${x(q.medianMs / bound.medianMs)}` : ''} | | |`);
    }
  }
}

/** Appends the C section to the report's lines L. */
export function cMarkdown(report, L) {
  const cases = report.cCases;
  const run = nodeRun(report);
  const cfg = report.cRun ?? {};
  const date = (report.suiteDates?.C ?? report.date).slice(0, 10);
  L.push('# C: what a call costs', '');
  L.push('Small calls, where a call\'s time is the binding\'s and not the bytes moved (`bench/call-suite.mjs`, its cases in ' +
    '`bench/lib/call-cost.mjs`): W5\'s `take` (common/workloads.mjs), S2a\'s decode write of one row into a resident ' +
    '[1, 4096, 1024] KV cache by `tensorScatter` and by `scatterND` (common/scatter-workloads.mjs), and S5\'s `scatterND`, with ' +
    'more or less of their tensors resident. Each is timed as the plain call and, where it has one, prepared ' +
    '(`prepare(op, ...args)` once, then `.run()`; [api](api.md#prepared-calls)), on the single-threaded `simd` build ' +
    '(`init({ variant: \'simd\' })`). The unit of every ratio is **t_js**, the plain JS W5 loop (take axis 0 of [1000, 64] ' +
    'float32 by 16 ids, a new array each call), measured in the same run: each batch of a row\'s calls beside a batch of the ' +
    'JS loop\'s (the JS batch first in even rounds, the row\'s in odd ones), every row in turn (in an order shuffled each ' +
    'round: a batch pays for what the one before it left to collect) over ' +
    `${cfg.rounds ?? '–'} rounds, batches of ${cfg.minCalls ?? '–'} to ${cfg.maxCalls ?? '–'} calls (about ${cfg.batchMs ?? '–'} ms), ` +
    'each row\'s time the median of its batches per call, its ratio that over the median of all the JS loop\'s batches. Every ' +
    'row\'s output was checked against the reference (common/reference.mjs, the scatter workloads\' own) once, after a reset of ' +
    'what it writes, before it was timed. A target is met when the plain call or the prepared one meets it. A case with a ' +
    '*bound* row is also measured beside the least any call of the library must do there, in the same rounds (C4: the JS loop ' +
    'itself, with the checks of its ids that the library cannot skip, returning a tensor): where the target sits below that ' +
    'bound and a form of the case is no slower than it, the target is beyond its bound.', '');
  L.push(`## The calls (C): ${report.machine.cpu}, Node ${report.machine.node}, ${date}`, '');
  table(cases, run, L);
  L.push('');
  if (cfg.allocUs !== undefined) L.push(allocLine(cfg.allocUs, run.js?.medianMs, 'this process'), '');

  // where a plain call's time goes
  const plain = cases.map((c) => run.row(c.id, 'plain')).filter(Boolean);
  if (plain.some((r) => r.breakdown)) {
    const keys = Object.keys(CATEGORIES);
    L.push('## Where a plain call\'s time goes (C)', '');
    L.push('Each plain row again in a process of its own (`bench/lib/call-profile.mjs`), called for ' +
      `${((cfg.profileMs ?? 0) / 1000).toFixed(1)} s under V8's sampling CPU profiler (node:inspector, a ${cfg.profileIntervalUs ?? '–'} µs ` +
      'interval asked; the profiler slows a call down, so the samples give shares, and the µs are those shares of the row\'s ' +
      'median above). Each sample\'s self time goes to its function\'s category: *validation*: the tensors\' checks ' +
      '(js/tensor.mjs\'s typedTensor, dataTensor, indexTensor, checkShape...; the scatters\' scatterData, updatesTensor; the ' +
      'ops\' read; resident.mjs\'s live); *options*: commonOptions, outputTarget, integerArg, reduceAttrs, inPlaceTarget, the ops\' ' +
      'attrs; *layout and record*: the rest of js/call.mjs (callOp, planCall, writeLayout, words, layoutOf, layOut, ' +
      'allocateBlock, placeInputs, writeTensors, readOutShape, tensorList, withOffsets, runPlanInJs) and copy-plan.mjs\'s ' +
      'choosePath; *wasm*: ' +
      'the module\'s functions (by the export JS called: wg_call_shape plans the call, wg_call_run runs it, malloc, free); ' +
      '*copies*: copyIn, writeIndices, executePlan, executeScatterPlan, copyOf, and the lines of any function that call a ' +
      'TypedArray `set()` (deliver\'s copy out into `opts.out`, with its view of wasm memory), by V8\'s line ticks; *result ' +
      'objects and GC*: the garbage collector, deliver (the result object, a new array copied from wasm memory), the JS path\'s ' +
      'new output array (js/call.mjs\'s anonymous callbacks), ResidentTensor; *other*: the op\'s public function (desc.fn, ' +
      'its rest arguments), ready(), the harness\'s loop. Builtins and js/abi.mjs take their caller\'s category. Inlined ' +
      'functions are reported as V8 reconstructs them.', '');
    L.push(`| case (plain) | per call | ${keys.map((k) => CATEGORIES[k]).join(' | ')} | samples |`,
      `| --- | ---: | ${keys.map(() => '---:').join(' | ')} | ---: |`);
    for (const r of plain) {
      if (!r.breakdown) { L.push(`| ${r.workload} | ${us(r.medianMs)} | ${keys.map(() => '–').join(' | ')} | ${r.breakdownError ?? ''} |`); continue; }
      const b = r.breakdown.categories;
      L.push(`| ${r.workload} | ${us(r.medianMs)} | ${keys.map((k) => `${pct(b[k])} (${us(b[k] * r.medianMs)})`).join(' | ')} | ${r.breakdown.samples} |`);
    }
    L.push('', 'The wasm share by the export JS called, and the functions with the most self time (share of the samples):', '');
    for (const r of plain.filter((y) => y.breakdown)) {
      const w = Object.entries(r.breakdown.wasm).filter(([, v]) => v >= 0.005).sort((a, b) => b[1] - a[1]);
      L.push(`- ${r.workload}: wasm ${w.map(([k, v]) => `${k} ${pct(v)} (${us(v * r.medianMs)})`).join(', ') || '–'}; top: ` +
        `${r.breakdown.top.slice(0, 8).map(([k, v]) => `${k} ${pct(v)}`).join(', ')}.`);
    }
    L.push('');
  }

  // the same rows in Chromium
  const pages = (report.browser ?? []).filter((r) => r.suite === 'C');
  for (const p of pages) {
    const ua = p.page.userAgent.match(/(HeadlessChrome|Chrome)\/[\d.]+/)?.[0] ?? '';
    L.push(`## In Chromium (C): ${p.page.crossOriginIsolated ? 'cross-origin isolated page' : 'plain page (clock steps of 100 µs)'}, ` +
      `wasm-gather ${p.page.variant}, ${p.page.threads} thread(s)`, '');
    L.push(`From \`npm run bench -- --browser\` (\`--only C\`: these rows alone), ${p.page.date ?? ''} ${ua}: the same cases, checks ` +
      `and interleaving as in Node (${p.page.timing?.rounds ?? '–'} rounds), in bench/browser/bench.html, on a fresh page (reloaded ` +
      'after the W run when both ran); no breakdown.', '');
    table(cases, pageRun(p), L);
    L.push('');
    if (p.page.allocUs !== undefined) L.push(allocLine(p.page.allocUs, p.js?.medianMs, 'this page'), '');
    if (p.control) {
      const c = p.control, row = (id, form) => c.rows.find((r) => r.id === id && r.form === form);
      L.push(`The JS loop leaves a 4 KiB array a call for the collector, and freeing them falls on whichever batch the next ` +
        `collection does: the same rows again, ${c.rounds} rounds beside ${c.unit} (${us(c.unitMs)}, nothing allocated) instead ` +
        'of the JS loop:', '');
      L.push('| case | plain, per call | prepared, per call |', '| --- | ---: | ---: |');
      for (const k of cases) {
        const a = row(k.id, 'plain'), b = row(k.id, 'prepared');
        if (a || b) L.push(`| ${k.id} | ${us(a?.medianMs)} | ${us(b?.medianMs)} |`);
      }
      L.push('');
    }
  }
}
