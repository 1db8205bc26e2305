// The R section of docs/benchmarks.md (bench/lib/report.mjs calls it): S3's sort into parts on
// one thread beside its one-applier path (bench/sort-cost-suite.mjs), with the bounds of what a
// sort adds, and the target the P suite sets for it, which the P report takes from here when its
// own run has no row of it.
import { fmtMs, fmtT, fmtX } from './report-scatter.mjs';
import { PLACING_FAMILY, R_PARTS, SORT_AT_MOST, SORT_FAMILY, SORT_FORCED } from './sort-names.mjs';

function rIndex(report) {
  const rows = report.results.filter((r) => r.suite === 'R' && !r.error && r.medianMs !== undefined);
  const time = (family, parts) => rows.find((r) => r.family === family && r.parts === parts)?.medianMs;
  return { rows, direct: time('wasm-gather', 0), sorted: (parts) => time(SORT_FAMILY, parts), placing: (parts) => time(PLACING_FAMILY, parts),
    copy: time('bound', 0), date: (report.suiteDates?.R ?? report.date).slice(0, 10) };
}

/**
 * The sort target (at most SORT_AT_MOST x the one applier, sorting into SORT_FORCED.parts) as the
 * R suite measured it: { value, met, bound } (bound: why it cannot be met here, when it cannot), or
 * undefined when the report has no R rows.
 */
export function rSortTarget(report) {
  const { direct, sorted, placing, date } = rIndex(report);
  const P = SORT_FORCED.parts, s = sorted(P);
  if (!s || !direct) return undefined;
  const floor = (parts) => (direct + placing(parts)) / direct;
  const beyond = floor(P) > SORT_AT_MOST;
  return {
    value: `${fmtX(s / direct)} (${fmtT(s)} vs ${fmtT(direct)}; the R suite, ${date})`,
    met: s / direct <= SORT_AT_MOST,
    bound: `a sort into parts stores every item into its part besides resolving and applying it, which the one applier does in ` +
      `all of its ${fmtT(direct)}; those stores alone, the places given (one 8-byte store an item), take ` +
      `${R_PARTS.map((parts) => `${fmtT(placing(parts))} into ${parts} parts`).join(', ')}, so a sort path costs at least ` +
      `${R_PARTS.map((parts) => `${fmtX(floor(parts))} (${parts} parts)`).join(', ')} the one applier: ` +
      (beyond ? `the ${SORT_AT_MOST}x target lies beyond that bound; the sort path measured is ${fmtX(s / (direct + placing(P)))} of it`
        : `the ${SORT_AT_MOST}x target lies within it`),
    beyond,
  };
}

/** Appends the R section to the report's lines L. */
export function rMarkdown(report, L) {
  const { direct, sorted, placing, copy, date } = rIndex(report);
  const run = report.rRun ?? {};
  L.push('# R: the scatters\' sort into parts, on one thread', '');
  L.push(`${SORT_FORCED.id} (${run.items} values added into ${run.rows} bins, everything resident, the output a resident \`opts.out\`) ` +
    'in a module of 1 thread, by the plan\'s own path there (one applier: each piece of items resolved on the stack and applied) and ' +
    'with the sort into parts forced (`wg_scatter_force_parts`, `src/op.h`, the benchmark\'s switch; ' +
    `${SORT_FORCED.parts} parts is what 16 threads sort into). What the sort costs an item on one thread is what holds back its ` +
    'speed-up on many (the P section). Beside them, the bounds of what any sort into parts adds: the items stored into their parts ' +
    'alone, each item\'s place given, one 8-byte store an item (a loop assembled in `bench/lib/placing-bound.mjs`, over S3\'s own ' +
    'destinations), and each item\'s 8 bytes written and read once as one `memory.copy`. `bench/sort-cost-suite.mjs`; ' +
    `every output was the reference's bits (${run.outputHash}); ${run.rounds} rounds, each row once a round, the order reversed every other round.`, '');
  L.push(`Median time per call, ${report.machine.cores} cores, Node ${report.machine.node}, ${date}:`, '');
  L.push('| | ms | / one applier |', '| --- | ---: | ---: |');
  const line = (name, ms) => L.push(`| ${name} | ${fmtMs(ms)} | ${fmtX(ms / direct)} |`);
  line('one applier (the plan\'s own path on 1 thread)', direct);
  for (const parts of R_PARTS) line(`the sort forced into ${parts} parts`, sorted(parts));
  for (const parts of R_PARTS) line(`bound: the items stored into ${parts} parts alone, their places given`, placing(parts));
  for (const parts of R_PARTS) line(`bound: one applier + the items stored into ${parts} parts`, direct + placing(parts));
  line('bound: memory.copy of 8 bytes an item (written and read once)', copy);
  const t = rSortTarget(report);
  if (t) {
    L.push('', '| target (R) | measured | met | bound, where missed |', '| --- | --- | --- | --- |');
    L.push(`| ${SORT_FORCED.id}'s sort path forced on 1 thread (into ${SORT_FORCED.parts} parts) at most ${SORT_AT_MOST}x its one-applier path | ` +
      `${t.value} | ${t.met ? 'PASS' : '**MISS**'} | ${t.met ? '' : t.bound} |`);
  }
  L.push('');
}
