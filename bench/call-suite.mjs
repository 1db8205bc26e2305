// The C suite of npm run bench: what a call costs through JS. Small calls (W5's take, S2a's
// decode write in both forms, S5's scatterND; bench/lib/call-cost.mjs's cases), with more or less
// of their tensors resident, each as the plain call and prepared (prepare(op, ...args).run()),
// on the single-threaded simd build, beside the plain JS W5 loop, the unit of every ratio: each
// row's batches interleaved with the JS loop's (A, B, A, B...), medians per call from one run.
// Every row's output is checked against the reference (after a reset of what it writes) before it
// is timed. Then, per plain row, where its time goes: a child process (bench/lib/call-profile.mjs)
// samples it with V8's CPU profiler and sorts the self time into categories (validation, options,
// layout and call record, the wasm calls, copies, result objects and GC, other).
// Called by bench/run.mjs, which writes the rows into results.json (suite C).
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import * as api from '../js/index.mjs';
import { C_CASES, C_INIT, allocationProbe, jsRow, measureInterleaved, setUpRows } from './lib/call-cost.mjs';

const exec = promisify(execFile);
const PROFILER = fileURLToPath(new URL('./lib/call-profile.mjs', import.meta.url));
const TIMING = { rounds: 61, batchMs: 3, minCalls: 2000, maxCalls: 20000, warmUpMs: 500 };
const QUICK_TIMING = { rounds: 5, batchMs: 1, minCalls: 200, maxCalls: 2000, warmUpMs: 50 };
const PROFILE_MS = 2500, QUICK_PROFILE_MS = 300;

// The case descriptions the report shows.
const caseRows = () => C_CASES.map(({ id, title, target, forms, workload, bound }) => ({ id, title, target, forms, workload, bound }));

/** Runs the C suite: { results (rows of suite C: the JS loop's, then each case's forms), cCases, cRun }. */
export async function runCallSuite({ quick, log }) {
  const timing = quick ? QUICK_TIMING : TIMING;
  api.dispose(); // (a module another suite left: C runs on its own build)
  const info = await api.init(C_INIT);
  log(`C: ${info.variant}, ${info.threads} thread(s): checking every row against the reference, then ${timing.rounds} interleaved rounds`);
  let measured, allocUs;
  const set = setUpRows(api);
  try {
    measured = measureInterleaved(jsRow(set.fx), set.rows, timing);
    allocUs = allocationProbe();
  } finally {
    set.dispose();
    api.dispose();
  }
  const base = { suite: 'C', variant: info.variant, threads: info.threads };
  const { js } = measured;
  const results = [{ ...base, impl: js.impl, family: 'js', mode: 'js', workload: 'js', medianMs: js.medianMs, minMs: js.minMs,
    batches: js.batches, callsPerBatch: js.calls, ratio: 1 }];
  log(`${'t_js: plain JS W5 loop'.padEnd(40)} ${(js.medianMs * 1000).toFixed(3).padStart(8)} µs`);
  for (const r of measured.rows) {
    const c = C_CASES.find((x) => x.id === r.id);
    results.push({ ...base, impl: `${r.id} ${r.form}`, family: r.form === 'bound' ? 'bound' : 'wasm-gather', mode: r.form, workload: r.id, target: c.target,
      medianMs: r.medianMs, minMs: r.minMs, batches: r.batches, callsPerBatch: r.calls, ratio: r.ratio, pairedRatio: r.pairedRatio });
    log(`${`${r.id} ${r.form}`.padEnd(40)} ${(r.medianMs * 1000).toFixed(3).padStart(8)} µs  ${r.ratio.toFixed(3)} of t_js`);
  }
  // where each plain call's time goes, a child process each (a profile of its own, nothing else run)
  const profileMs = quick ? QUICK_PROFILE_MS : PROFILE_MS;
  for (const row of results.filter((r) => r.mode === 'plain')) {
    try {
      const { stdout } = await exec(process.execPath, [PROFILER, row.workload, String(profileMs)], { maxBuffer: 1 << 20 });
      const b = JSON.parse(stdout.trim().split('\n').at(-1));
      row.breakdown = { samples: b.samples, profiledUsPerCall: b.profiledUsPerCall, categories: b.categories, wasm: b.wasm, top: b.top };
      log(`C: ${row.workload} plain, profiled: ${Object.entries(b.categories).map(([k, v]) => `${k} ${(v * 100).toFixed(0)}%`).join(', ')}`);
    } catch (e) {
      row.breakdownError = e.message.split('\n')[0];
      log(`C: ${row.workload} plain, profile failed: ${row.breakdownError}`);
    }
  }
  return { results, cCases: caseRows(), cRun: { ...timing, profileMs, profileIntervalUs: 25, allocUs } };
}
