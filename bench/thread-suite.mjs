// The P suite of npm run bench: thread scaling. The large gathers (W1-W4b of
// common/workloads.mjs) and three scatters (S1, S3, S4 of common/scatter-workloads.mjs), each with
// its data, index and output resident (the output a resident opts.out; S1 in place), so that a
// call's time is its time in wasm, on the simd-threaded build at every thread count of
// threadCounts(): a fresh init({ threads }) per count, dispose() between. Beside each workload,
// in the same group and right after it: the parallel copy bound, a memory.copy of the bytes the
// workload must write, split over the same pool (bench/lib/parallel-copy.mjs). Each workload's
// output is checked bitwise against the reference before it is timed, and hashed, so the report
// can show the same bits at every thread count.
// Called by bench/run.mjs (runGroup: its measuring loop), which writes the rows into results.json.
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import * as api from '../js/index.mjs';
import { getState } from '../js/state.mjs';
import { caller } from '../common/op-caller.mjs';
import { numel } from '../common/shape.mjs';
import { fnv1a } from '../common/workloads.mjs';
import { S_WORKLOADS, formBytes, makeScatterTensors, scatterCaller, scatterReference } from '../common/scatter-workloads.mjs';
import { parallelCopy } from './lib/parallel-copy.mjs';
import { COPY_BYTES } from './lib/scatter-bounds.mjs';
import { SORT_FAMILY, SORT_FORCED } from './lib/sort-names.mjs';

const { dispose, init, upload } = api;
export const P_GATHERS = ['W1', 'W2', 'W3', 'W4a', 'W4b'];
// The scatters, and which are in place (the others write a resident opts.out, a copy of the data
// the updates are applied to, as a scatter that is not in place does).
export const P_SCATTERS = { S1: 'in place', S3: 'out', S4: 'out' };
const BUDGET = { budgetMs: 300, minSamples: 7, warmUpMs: 100 };
const QUICK_BUDGET = { budgetMs: 30, minSamples: 3, warmUpMs: 5 };

/** 1, 2, 4, 8 and every power of two up to the cores, and the cores themselves: 1, 2 on 2 cores. */
export function threadCounts(cores) {
  const out = [];
  for (let t = 1; t <= cores; t *= 2) out.push(t);
  if (out.at(-1) !== cores) out.push(cores);
  return out;
}

// ---- the cases: { suite, w, t, expected, bytes (what the copy bound copies), row } ----

function gatherCases(wCases) {
  return P_GATHERS.map((id) => {
    const c = wCases.find((x) => x.w.id === id);
    return { ...c, suite: 'P', bytes: c.w.outBytes,
      row: { id, title: c.w.title, op: c.w.op, output: 'out', copyBytes: c.w.outBytes, copies: 'the output bytes', outputHash: c.expectedHash } };
  });
}

function scatterCases(log) {
  log('generating the P suite\'s scatters (S1, S3, S4) and reference outputs');
  return Object.entries(P_SCATTERS).map(([id, output]) => {
    const w0 = S_WORKLOADS.find((x) => x.id === id);
    const w = { ...w0, form: w0.forms[0] };
    const t = makeScatterTensors(w);
    const expected = scatterReference(w, t);
    const { indexBytes, updatesBytes } = formBytes(w.form, t);
    // scatter-bounds.mjs's count of the in-wasm mode (the updates written), and for a call that
    // is not in place the output it first makes of the data
    const outBytes = output === 'out' ? expected.byteLength : 0;
    const bytes = outBytes + COPY_BYTES['in-wasm'](t.data.data.byteLength, indexBytes, updatesBytes);
    return { suite: 'P', w, t, expected, bytes,
      row: { id, title: w.title, op: w.form.op, output, copyBytes: bytes,
        copies: output === 'out' ? 'the output bytes and the updates\' bytes' : 'the updates\' bytes', outputHash: fnv1a(expected) } };
  });
}

// ---- the runners: the workload, everything resident, and its copy bound ----

function gatherRunner(w) {
  const outputArray = () => new Float32Array(numel(w.outShape));
  return (t) => {
    const data = upload(t.data), indices = upload(t.indices);
    const out = upload({ data: outputArray(), shape: w.outShape });
    const call = caller(api, w, { out });
    return { run: () => call(data, indices), check: () => out.read(), hash: true,
      dispose() { data.dispose(); indices.dispose(); out.dispose(); } };
  };
}

// forceParts: the sort into that many parts forced (wg_scatter_force_parts, src/op.h), for this
// runner's calls alone (bench/sort-cost-suite.mjs too).
export function scatterRunner(w, output, forceParts = 0) {
  return (t) => {
    const p = w.form.pick(t);
    const data = upload(t.data), indices = upload(p.indices), updates = upload(p.updates);
    const out = output === 'out' ? upload({ data: new Float32Array(t.data.data.length), shape: t.data.shape }) : undefined;
    const call = scatterCaller(api, w.form, out ? { out } : { inPlace: true });
    const result = out ?? data;
    const { m } = getState();
    const run = forceParts ? () => {
      m._wg_scatter_force_parts(forceParts);
      try {
        call(data, indices, updates);
      } finally {
        m._wg_scatter_force_parts(0);
      }
    } : () => call(data, indices, updates);
    return { run, check: () => result.read(), hash: true, dispose() { for (const x of [data, indices, updates, out]) x?.dispose(); } };
  };
}

// S3's sort path on 1 thread, forced into as many parts as 16 threads sort into (SORT_FORCED),
// beside the plan's own path there (one applier): the sort's cost per item, which any machine can
// measure (its 16-thread speed-up follows from it; the R suite measures it alone, with its bounds).

// Per workload a runner that applies to it alone, and its bound's right after it: runGroup goes
// runner by runner, so each pair is measured back to back. The report tells them by family.
function runners(cases, threads) {
  return cases.flatMap((c) => {
    const id = c.w.id, applies = (w) => w.id === id;
    const make = P_GATHERS.includes(id) ? gatherRunner(c.w) : scatterRunner(c.w, c.row.output);
    return [
      // (not the W suite's name of its in-wasm runner: the W report looks rows up by name)
      { impl: `wasm-gather simd-threaded ${threads}T, all resident (P)`, family: 'wasm-gather', mode: 'in-wasm', applies, setup: (w, t) => make(t) },
      { impl: `memory.copy on the pool, ${threads}T (P bound)`, family: 'bound', mode: 'bound', applies,
        setup: () => ({ ...parallelCopy(getState(), c.bytes), unchecked: true }) },
      ...(id === SORT_FORCED.id && threads === 1 ? [{
        impl: `wasm-gather simd-threaded 1T, the sort forced into ${SORT_FORCED.parts} parts (P)`, family: SORT_FAMILY, mode: 'in-wasm',
        applies, setup: (w, t) => scatterRunner(c.w, c.row.output, SORT_FORCED.parts)(t),
      }] : []),
    ];
  });
}

// What the workers cost: from nothing loaded to the first op run, and the process's resident
// memory then, in a fresh process at each thread count (bench/lib/init-time.mjs), the median of a
// few. The P report sets them beside the speed-ups, which is what the default thread count
// (js/loader.mjs) is chosen from.
const INIT_RUNS = 5;
function workerCosts(counts, quick) {
  const script = fileURLToPath(new URL('./lib/init-time.mjs', import.meta.url));
  const median = (xs) => xs.sort((a, b) => a - b)[xs.length >> 1];
  return counts.map((threads) => {
    const runs = Array.from({ length: quick ? 1 : INIT_RUNS }, () =>
      JSON.parse(execFileSync(process.execPath, [script, 'simd-threaded', String(threads)], { encoding: 'utf8' })));
    return { threads, pool: runs[0].threads, initMs: median(runs.map((r) => r.ms)), rssBytes: median(runs.map((r) => r.rssBytes)) };
  });
}

/** Runs the P suite: { results (rows of suite P), pWorkloads, pRun }. */
export async function runThreadSuite({ cores, quick, runGroup, log, wCases }) {
  const cases = [...gatherCases(wCases), ...scatterCases(log)];
  const counts = threadCounts(cores);
  const results = [];
  let threshold;
  for (const threads of counts) {
    const cfg = { variant: 'simd-threaded', threads };
    const group = {
      name: `wasm-gather simd-threaded ${threads}T (P)`,
      async begin() {
        const info = await init(cfg);
        threshold = getState().abi.value('WG_PARALLEL_MIN_BYTES');
        if (info.threads !== threads) log(`P: asked for ${threads} threads, the pool has ${info.threads}`);
      },
      end: () => dispose(),
      runners: runners(cases, threads).map((r) => ({ ...r, ...cfg })),
    };
    const rows = [];
    await runGroup(group, cases, rows, quick ? QUICK_BUDGET : BUDGET);
    results.push(...rows.map((r) => ({ ...r, suite: 'P' })));
  }
  const cpu = os.cpus()[0]?.model;
  return {
    results,
    pWorkloads: cases.map((c) => c.row),
    pRun: { machine: { cpu, cores, node: process.version }, threads: counts, parallelThreshold: threshold,
      workers: workerCosts(counts, quick) },
  };
}
