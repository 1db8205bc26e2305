// The P section of docs/benchmarks.md (bench/lib/report.mjs calls it): thread scaling of W1-W4b,
// S1, S3 and S4 (bench/thread-suite.mjs), each workload's speed-up over 1 thread beside the
// speed-up of a memory.copy of its bytes on the same pool, the medians, the same-bits check, and
// the targets of a 16-core machine, with what this run can say of each.
import { fmtBytes, fmtMs, fmtX } from './report-scatter.mjs';
import { rSortTarget } from './report-sort.mjs';
import { SORT_AT_MOST, SORT_FAMILY } from './sort-names.mjs';

// The rows' families (bench/thread-suite.mjs): the workload, and its copy bound.
const WORKLOAD = 'wasm-gather';
const COPY = 'bound';
const GATHERS = ['W1', 'W2', 'W3', 'W4a', 'W4b'];
const SCATTER_TARGETS = { S1: 8, S3: 5, S4: 6 };
const TARGET_THREADS = 16;
const GATHER_TARGET = 8;
const OF_BOUND = 0.8;
const DOUBLING_SLOWER = 1.1;

function pIndex(report) {
  const rows = report.results.filter((r) => r.suite === 'P');
  const ok = rows.filter((r) => !r.error);
  const time = (family, id, t) => ok.find((r) => r.family === family && r.workload === id && r.threads === t)?.medianMs;
  const speedup = (family, id, t) => time(family, id, 1) / time(family, id, t);
  return { rows, time, speedup, counts: report.pRun?.threads ?? [...new Set(rows.map((r) => r.threads))].sort((a, b) => a - b) };
}

/** The P targets (of a 16-core machine): { name, value, met: true | false | undefined (not measured here) }. */
export function pTargets(report) {
  const { time, speedup, counts } = pIndex(report);
  const ids = report.pWorkloads.map((w) => w.id);
  const top = Math.max(...counts);
  const at16 = counts.includes(TARGET_THREADS);
  const out = [];
  const add = (name, value, met) => out.push({ name, value, met });

  // doubling: every (t, 2t) this run has
  const pairs = counts.filter((t) => counts.includes(2 * t)).map((t) => [t, 2 * t]);
  const steps = ids.flatMap((id) => pairs.map(([a, b]) => ({ id, a, b, x: time(WORKLOAD, id, b) / time(WORKLOAD, id, a) })));
  const worst = steps.reduce((m, s) => (!m || !(s.x <= m.x) ? s : m), undefined);
  add(`doubling the threads never makes a workload more than ${Math.round((DOUBLING_SLOWER - 1) * 100)}% slower (time at 2t / time at t at most ${DOUBLING_SLOWER})`,
    worst ? `worst ${worst.x.toFixed(2)} (${worst.id}, ${worst.a} to ${worst.b} threads; this run: ${pairs.map(([a, b]) => `${a} to ${b}`).join(', ')})` : 'no pair of thread counts',
    worst ? steps.every((s) => s.x <= DOUBLING_SLOWER) : undefined);

  // at 16 threads where the run had them, else at its most
  const n = at16 ? TARGET_THREADS : top;
  const at = (id) => `${fmtX(speedup(WORKLOAD, id, n))} at ${n} threads, ${pct(speedup(WORKLOAD, id, n) / speedup(COPY, id, n))} of the bound's ${fmtX(speedup(COPY, id, n))}`;
  const gathers = GATHERS.filter((id) => ids.includes(id));
  add(`${gathers[0]}-${gathers.at(-1)}: at least ${GATHER_TARGET}x at ${TARGET_THREADS} threads, or a speed-up at least ${pct(OF_BOUND)} of the copy bound's there`,
    gathers.map((id) => `${id} ${at(id)}`).join('; '),
    at16 ? gathers.every((id) => speedup(WORKLOAD, id, n) >= GATHER_TARGET || speedup(WORKLOAD, id, n) >= OF_BOUND * speedup(COPY, id, n)) : undefined);
  for (const [id, want] of Object.entries(SCATTER_TARGETS).filter(([id]) => ids.includes(id))) {
    add(`${id}: at least ${want}x at ${TARGET_THREADS} threads`, at(id), at16 ? speedup(WORKLOAD, id, n) >= want : undefined);
  }
  // measured at 1 thread: any run has it, but runs from before the row; the R suite's then
  const sorted = time(SORT_FAMILY, 'S3', 1), direct = time(WORKLOAD, 'S3', 1), r = rSortTarget(report);
  const name = `S3's sort path forced on 1 thread (into the parts of ${TARGET_THREADS} threads) at most ${SORT_AT_MOST}x its one-applier path there`;
  if (sorted) out.push({ name, value: `${fmtX(sorted / direct)} (${fmtMs(sorted)} vs ${fmtMs(direct)})`, met: sorted / direct <= SORT_AT_MOST });
  else if (r) out.push({ name, value: `no row in this P run (a run from before it); ${r.value}${r.met ? '' : `: ${r.bound}`} ([R](#r-the-scatters-sort-into-parts-on-one-thread))`, met: r.met });
  else out.push({ name, value: 'no row in this run (a run from before it)', met: undefined, unmeasured: 'not in this run' });
  return out;
}

const pct = (x) => (Number.isFinite(x) ? `${Math.round(x * 100)}%` : '–');

/** Appends the P section to the report's lines L. */
export function pMarkdown(report, L) {
  const { rows, time, speedup, counts } = pIndex(report);
  const run = report.pRun ?? {};
  const m = run.machine ?? report.machine;
  const top = Math.max(...counts);
  const date = (report.suiteDates?.P ?? report.date).slice(0, 10);
  L.push('# P: thread scaling', '');
  L.push('The large gathers (W1-W4b) and three scatters (S1, S3, S4) with their data, index and output resident in wasm memory ' +
    '(the output a resident `opts.out`; S1 updates its data in place), so that a call\'s time is its time in wasm: the kernel ' +
    'and the call. The `simd-threaded` build, initialized afresh for each thread count (`init({ threads })`, `dispose()` ' +
    `between), at 1, 2, 4, 8, ... threads up to the machine's cores and at the core count itself; the default parallel ` +
    `threshold (${run.parallelThreshold ? fmtBytes(run.parallelThreshold) : 'WG_PARALLEL_MIN_BYTES'}), which every workload ` +
    'here is above. Each workload\'s output was checked bitwise equal to the reference before it was timed (`bench/thread-suite.mjs`).', '');
  L.push('Beside each workload, measured right after it in the same module: the **copy bound**, a `memory.copy` of the bytes the ' +
    'workload must write, split over the same pool in the tiles its ops use (`wg_pool_copy`, `src/runner.c`, exported for this ' +
    'alone: `bench/lib/parallel-copy.mjs`): the output bytes for a gather; for a scatter the bytes the S suite\'s in-wasm copy ' +
    'bound counts (the updates written, `bench/lib/scatter-bounds.mjs`), plus the output bytes when it writes an `out` (a copy of ' +
    'its data first). How far memory lets this many threads go on those bytes: a speed-up below the bound\'s is the kernel\'s, ' +
    'one at it is the memory\'s.', '');
  const ts = counts.map((t) => `t${t}`);
  L.push(`## Speed-up over 1 thread: ${m.cpu}, ${m.cores} cores, Node ${m.node}`, '');
  L.push(`Median time per call ${date}; speed-up: the time at 1 thread / the time at t threads; *vs bound*: the workload's ` +
    `speed-up at ${top} threads over the copy bound's.`, '');
  L.push(`| workload | op | bound copies | ${ts.join(' | ')} | ${ts.map((t) => `copy ${t}`).join(' | ')} | vs bound | ` +
    `${ts.map((t) => `ms ${t}`).join(' | ')} | ${ts.map((t) => `copy ms ${t}`).join(' | ')} |`,
  `| --- | --- | ---: | ${[...ts, ...ts, 'x', ...ts, ...ts].map(() => '---:').join(' | ')} |`);
  for (const w of report.pWorkloads) {
    const sp = (family) => counts.map((t) => fmtX(speedup(family, w.id, t)));
    const ms = (family) => counts.map((t) => fmtMs(time(family, w.id, t)));
    L.push(`| ${w.id} | ${w.op}${w.output === 'in place' ? ' (in place)' : ''} | ${fmtBytes(w.copyBytes)} | ${sp(WORKLOAD).join(' | ')} | ` +
      `${sp(COPY).join(' | ')} | ${pct(speedup(WORKLOAD, w.id, top) / speedup(COPY, w.id, top))} | ${ms(WORKLOAD).join(' | ')} | ${ms(COPY).join(' | ')} |`);
  }
  // the same bits at every thread count
  const checked = (r) => r.family === WORKLOAD || r.family === SORT_FAMILY; // the sort forced too
  const differ = report.pWorkloads.filter((w) => rows.some((r) => checked(r) && r.workload === w.id && r.outputHash && r.outputHash !== w.outputHash));
  const hashed = rows.filter((r) => checked(r) && r.outputHash).length;
  L.push('', hashed ? (differ.length
    ? `**Outputs differ between thread counts**: ${differ.map((w) => `${w.id} (${rows.filter((r) => checked(r) && r.workload === w.id).map((r) => `${r.impl} ${r.outputHash}`).join(', ')})`).join('; ')}.`
    : `Every checked output (FNV-1a hashed) was the reference's bits at every thread count: ${report.pWorkloads.map((w) => `${w.id} ${w.outputHash}`).join(', ')}.`)
    : 'No output hashed.');
  const errors = rows.filter((r) => r.error);
  if (errors.length) L.push('', 'Errors:', '', ...errors.map((r) => `- ${r.impl}, ${r.workload}: ${r.error}`));
  if (run.workers?.length) workersMarkdown(run.workers, L);
  L.push('', '## Targets (P)', '');
  L.push(`The targets are those of a ${TARGET_THREADS}-core machine: doubling the threads never makes a workload more than 10% ` +
    `slower; the gathers W1-W4b at least ${GATHER_TARGET}x at ${TARGET_THREADS} threads, or a speed-up there at least ` +
    `${pct(OF_BOUND)} of the copy bound's; S1 at least 8x, S3 at least 5x, S4 at least 6x at ${TARGET_THREADS} threads; and, on ` +
    `1 thread, S3's sort path (forced, into the ${TARGET_THREADS} threads' parts) at most ${SORT_AT_MOST}x its one-applier path. ` +
    (counts.includes(TARGET_THREADS) ? `This run had ${TARGET_THREADS} threads: each target is checked there.` : `This run went to ${top} threads (${m.cores} cores), so only ` +
      'the doubling rule is checked, on the counts it had; the rest shows where it stands at its most threads. On a many-core ' +
      'machine: [tests](testing.md#on-a-many-core-machine).'), '');
  L.push('| target | this run | met |', '| --- | --- | --- |');
  for (const t of pTargets(report)) {
    L.push(`| ${t.name} | ${t.value} | ${t.met === undefined ? t.unmeasured ?? `not measured (${top} threads)` : t.met ? 'yes' : '**no**'} |`);
  }
  L.push('');
}

// What each thread count costs to start: pRun.workers (bench/thread-suite.mjs).
function workersMarkdown(workers, L) {
  const one = workers.find((w) => w.threads === 1);
  const mb = (b) => `${(b / 2 ** 20).toFixed(0)} MB`;
  L.push('', '## What the workers cost', '');
  L.push('A fresh Node process per thread count: `init({ threads })` and one op, from nothing loaded (the module compiled, the ' +
    'workers started; `bench/lib/init-time.mjs`), and the process\'s resident memory then, its workers\' included; the median of ' +
    'a few runs. Each worker is a thread with its own JavaScript engine instance (a Node worker, a Web Worker in a browser), ' +
    'started once at `init()` and kept until `dispose()`.', '');
  L.push('| threads | pool | init to first op (ms) | resident memory | more than 1 thread, a worker |', '| ---: | ---: | ---: | ---: | ---: |');
  for (const w of workers) {
    const per = one && w.threads > 1 ? mb((w.rssBytes - one.rssBytes) / (w.threads - 1)) : '–';
    L.push(`| ${w.threads} | ${w.pool} | ${fmtMs(w.initMs)} | ${mb(w.rssBytes)} | ${per} |`);
  }
}
