// The E section of docs/benchmarks.md (bench/lib/report.mjs calls it): the fused gather-reduce's
// medians, ratios and targets (each with its measured value, PASS or MISS, and for a miss the
// bound measured beside it that says how far the target lies: bench/bag-suite.mjs), the
// same-bits check and every row's median.
import { fmtBytes, fmtMs, fmtT, fmtX, noteLines } from './report-scatter.mjs';

const geomean = (xs) => Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length);
const RESIDENT_X = 3;
const ONE_SHOT_X = 1.5;
const OF_BOUND = 1.5;
const THREADS_X = 1.6;
const THREAD_TARGET = ['E1', 'E3'];
const BOUND1 = 'memory.copy of the bound\'s bytes (wasm, 1 thread)';
const POOL = (n) => `memory.copy on the pool, ${n}T (E bound)`;
const ROWS = (n) => `memory.copy of the bag rows in the bags' order on the pool, ${n}T (E bound)`;
const TAKE = 'take of the bag rows (in-wasm)';
const CACHED = 'rows in cache (in-wasm)';
const TABLE_COPY = 'copy of the table into wasm memory (TypedArray.set)';
const JS = 'plain JS loop';

function eIndex(report) {
  const ok = report.results.filter((r) => r.suite === 'E' && !r.error);
  const ids = report.eWorkloads.map((w) => w.id);
  const row = (impl, id) => ok.find((r) => r.impl === impl && r.workload === id);
  const time = (impl, id) => row(impl, id)?.medianMs;
  const ours = (variant, threads, mode) => `wasm-gather ${variant} ${threads}T, ${mode}`;
  // The fastest peer on a workload, plain JS included, in the given modes (all when absent),
  // timed rows only (not a fitted one): { impl, ms }.
  const fastestPeer = (id, modes) => ok.filter((r) => (r.family === 'peer' || r.family === 'js') && !r.fitted && r.workload === id &&
    (!modes || modes.includes(r.mode))).reduce((best, r) => (!best || r.medianMs < best.ms ? { impl: r.impl, ms: r.medianMs } : best), undefined);
  return { ok, ids, row, time, ours, fastestPeer };
}

// wasm-gather as init() sets it up on this machine: simd-threaded, cores up to 4.
const T = (report) => Math.min(4, report.machine.cores);

/** The E targets: { name, value, met, detail, bound }. */
export function eTargets(report) {
  const { ids, time, ours, fastestPeer } = eIndex(report);
  const n = T(report);
  const out = [];
  const add = (name, value, met, detail = '', bound = '') => out.push({ name, value, met, detail, bound });
  const list = (xs, f = fmtX) => ids.map((id, i) => `${id} ${f(xs[i])}`).join(', ');
  const inWasm = (id) => time(ours('simd-threaded', n, 'in-wasm'), id);
  const pool = (id) => time(POOL(n), id);

  // 1. resident over the fastest peer, geometric mean over E1-E4
  const res = ids.map((id) => fastestPeer(id)?.ms / time(ours('simd-threaded', n, 'resident'), id));
  const atBound = ids.map((id) => fastestPeer(id)?.ms / pool(id));
  add(`table resident: geometric mean over ${ids[0]}-${ids.at(-1)} of the speed-ups over the fastest peer (any mode, plain JS included) at least ${RESIDENT_X}x`,
    fmtX(geomean(res)), geomean(res) >= RESIDENT_X, list(res),
    `at the bound (its bytes copied on the pool, ${n}T) the geometric mean would be ${fmtX(geomean(atBound))} (${list(atBound)}); ` +
    `at the time of the same rows read by take (in-wasm; E4, which reads its data in order, at its bound) ` +
    fmtX(geomean(ids.map((id) => fastestPeer(id)?.ms / (time(ours('simd-threaded', n, TAKE), id) ?? pool(id))))));

  // 2. one-shot over the fastest one-shot peer
  const one = ids.map((id) => fastestPeer(id, ['one-shot'])?.ms / time(ours('simd-threaded', n, 'one-shot'), id));
  const oneBound = (id) => time(TABLE_COPY, id) + inWasm(id);
  const atOneBound = ids.map((id) => fastestPeer(id, ['one-shot'])?.ms / oneBound(id));
  add(`one-shot (the table copied in per call): geometric mean over ${ids[0]}-${ids.at(-1)} of the speed-ups over the fastest one-shot peer (plain JS included) at least ${ONE_SHOT_X}x`,
    fmtX(geomean(one)), geomean(one) >= ONE_SHOT_X, list(one),
    `a one-shot call copies its table into wasm memory (TypedArray.set: ${ids.map((id) => `${id} ${fmtT(time(TABLE_COPY, id))}`).join(', ')}) ` +
    `and then runs as in-wasm; at that bound the geometric mean would be ${fmtX(geomean(atOneBound))} (${list(atOneBound)})`);

  // Where the rows' own order costs more than OF_BOUND times the in-order bound, that target lies
  // beyond a bound measured here: said, with how far each bag is from the measured one.
  const beyond = (missed) => {
    const rows = (id) => time(ROWS(n), id);
    const over = missed.filter((id) => rows(id) > OF_BOUND * pool(id));
    if (!over.length) return '';
    return `. So for ${over.join(', ')} the target lies beyond a bound measured here: copying the same bytes with the rows in the ` +
      `bags' order already takes ${over.map((id) => `${id} ${fmtX(rows(id) / pool(id))}`).join(', ')} the in-order bound, and the bags ` +
      `take ${over.map((id) => `${id} ${fmtX(inWasm(id) / rows(id))}`).join(', ')} that copy` +
      (over.length < missed.length ? `; ${missed.filter((id) => !over.includes(id)).join(', ')} missed it with no such bound` : '');
  };

  // 3. in-wasm within OF_BOUND of the bound, every workload; where missed, the bound of the rows
  // read in the bags' order, and the time with the rows in cache (what the arithmetic costs)
  const of = ids.map((id) => inWasm(id) / pool(id));
  const worst = Math.max(...of);
  add(`in-wasm within ${OF_BOUND}x of the bound (a memory.copy of the bag rows' bytes and the output's, on the pool, ${n}T) on every workload`,
    `max ${fmtX(worst)} (${ids[of.indexOf(worst)]})`, of.every((x) => x <= OF_BOUND), list(of),
    ids.filter((id, i) => !(of[i] <= OF_BOUND)).map((id) => {
      const rows = time(ROWS(n), id), cached = time(ours('simd-threaded', n, CACHED), id);
      return `${id} ${fmtT(inWasm(id))} against the bound's ${fmtT(pool(id))}` +
        (rows ? `; the same bytes with the rows copied in the bags' order take ${fmtT(rows)} (${fmtX(rows / pool(id))} the bound), the bag ${fmtX(inWasm(id) / rows)} that` : '') +
        (cached ? `; with its rows in cache (ids modulo 64) the bag takes ${fmtT(cached)}` : '');
    }).join('; ') + '. The bound copies its bytes in order; the bags read rows of 512 B (E3: 64 B of codes and 16 B of scales) at ' +
    'random over a table of 128 MiB (E3: 16 + 4 MiB), which memory.copy itself does not read at the speed of an in-order copy; ' +
    'and E3\'s rows in cache say what dequantizing 128 values a row costs, whatever the memory does' + beyond(ids.filter((id, i) => !(of[i] <= OF_BOUND))));

  // 4. 2 threads over 1, in-wasm, with the same bits
  const pool1 = (id) => time(POOL(1), id), pool2 = (id) => time(POOL(2), id);
  for (const id of THREAD_TARGET) {
    const one1 = time(ours('simd-threaded', 1, 'in-wasm'), id), two = time(ours('simd-threaded', 2, 'in-wasm'), id);
    const checks = (report.eChecks ?? []).filter((c) => c.workload === id);
    const same = checks.length > 0 && checks.every((c) => c.same);
    add(`${id}, in-wasm: 2 threads at least ${THREADS_X}x 1 thread, with the same output bits (every mode, build and thread count)`,
      `${fmtX(one1 / two)}, ${same ? 'same bits' : '**bits differ**'}`, one1 / two >= THREADS_X && same, `${fmtT(one1)} vs ${fmtT(two)}`,
      `the bound's copy on the same pool, 1 thread / 2 threads: ${fmtX(pool1(id) / pool2(id))} (${fmtT(pool1(id))} vs ${fmtT(pool2(id))})` +
      (report.eRun ? `; load average ${report.eRun.loadBefore[0].toFixed(1)} before the suite and ${report.eRun.loadAfter[0].toFixed(1)} after it on ${report.machine.cores} cores` : ''));
  }
  return out;
}

function summary(report) {
  const { ids, time, ours, fastestPeer } = eIndex(report);
  const n = T(report);
  const L = [`Median time per call, ${report.machine.cores} cores, Node ${report.machine.node}, ${(report.suiteDates?.E ?? report.date).slice(0, 10)} ` +
    `(ms unless marked µs; wasm-gather simd-threaded as \`init()\` sets it up here, ${n} threads, unless marked):`, ''];
  L.push(`| | ${ids.join(' | ')} |`, `| --- | ${ids.map(() => '---:').join(' | ')} |`);
  const line = (name, f) => L.push(`| ${name} | ${ids.map((id) => fmtMs(f(id))).join(' | ')} |`);
  line('wasm-gather, resident (output to a new array)', (id) => time(ours('simd-threaded', n, 'resident'), id));
  line('wasm-gather, in-wasm (kernel + call)', (id) => time(ours('simd-threaded', n, 'in-wasm'), id));
  line('wasm-gather, one-shot', (id) => time(ours('simd-threaded', n, 'one-shot'), id));
  line('wasm-gather simd-threaded, 1 thread, in-wasm', (id) => time(ours('simd-threaded', 1, 'in-wasm'), id));
  line('wasm-gather simd, 1 thread, resident', (id) => time(ours('simd', 1, 'resident'), id));
  line('fastest peer, any mode', (id) => fastestPeer(id)?.ms);
  line('fastest peer, one-shot', (id) => fastestPeer(id, ['one-shot'])?.ms);
  line('plain JS loop', (id) => time(JS, id));
  line(`bound: memory.copy of its bytes on the pool, ${n}T`, (id) => time(POOL(n), id));
  line('bound: memory.copy of its bytes, 1 thread', (id) => time(BOUND1, id));
  line('the table copied into wasm memory (TypedArray.set)', (id) => time(TABLE_COPY, id));
  line(`bound: the bag rows copied in the bags' order, and the rest, on the pool, ${n}T`, (id) => time(ROWS(n), id));
  line('the bag rows read by take (in-wasm)', (id) => time(ours('simd-threaded', n, TAKE), id));
  line('wasm-gather, in-wasm, its rows in cache (ids modulo 64)', (id) => time(ours('simd-threaded', n, CACHED), id));
  L.push('');
  L.push(`| ratio | ${ids.join(' | ')} |`, `| --- | ${ids.map(() => '---:').join(' | ')} |`);
  const ratio = (name, f) => L.push(`| ${name} | ${ids.map((id) => fmtX(f(id))).join(' | ')} |`);
  ratio('fastest peer / wasm-gather resident', (id) => fastestPeer(id)?.ms / time(ours('simd-threaded', n, 'resident'), id));
  ratio('fastest one-shot peer / wasm-gather one-shot', (id) => fastestPeer(id, ['one-shot'])?.ms / time(ours('simd-threaded', n, 'one-shot'), id));
  ratio('plain JS loop / wasm-gather resident', (id) => time(JS, id) / time(ours('simd-threaded', n, 'resident'), id));
  ratio(`wasm-gather in-wasm / bound (pool, ${n}T)`, (id) => time(ours('simd-threaded', n, 'in-wasm'), id) / time(POOL(n), id));
  ratio('wasm-gather in-wasm / bound with the rows in the bags\' order', (id) => time(ours('simd-threaded', n, 'in-wasm'), id) / time(ROWS(n), id));
  ratio('wasm-gather in-wasm / take of the same rows', (id) => time(ours('simd-threaded', n, 'in-wasm'), id) / time(ours('simd-threaded', n, TAKE), id));
  ratio('in-wasm: 1 thread / 2 threads', (id) => time(ours('simd-threaded', 1, 'in-wasm'), id) / time(ours('simd-threaded', 2, 'in-wasm'), id));
  ratio('the bound\'s copy on the pool: 1 thread / 2 threads', (id) => time(POOL(1), id) / time(POOL(2), id));
  L.push('', 'Fastest peer per workload: ' + ids.map((id) => `${id} ${fastestPeer(id)?.impl ?? '–'}, one-shot ${fastestPeer(id, ['one-shot'])?.impl ?? '–'}`).join('; ') + '.');
  L.push('', '| target (E) | measured | met | bound, where missed |', '| --- | --- | --- | --- |');
  for (const t of eTargets(report)) {
    L.push(`| ${t.name}${t.detail ? ` (${t.detail})` : ''} | ${t.value} | ${t.met ? 'PASS' : '**MISS**'} | ${t.met ? '' : t.bound} |`);
  }
  return L.join('\n');
}

/** Appends the E section to the report's lines L. */
export function eMarkdown(report, L) {
  const { ok, ids } = eIndex(report);
  L.push('# E: the fused gather-reduce (embeddingBag, segmentReduce)', '');
  L.push('The workloads of `common/bag-workloads.mjs`: float32 tables in [0, 1), int32 ids drawn uniformly with replacement over ' +
    'the rows, 4096 bags of 32 ids as 2-D indices (torch\'s fixed bags; the same bags as sorted segment ids for tfjs), and for ' +
    'E4 sorted segment ids, one per row of the data. E2\'s weights come in pairs 1 + r and 1 - r, so every bag\'s weights sum to ' +
    'exactly 32: the weighted mean (the weighted sum over the weights\' sum, TensorFlow\'s combiner, which wasm-gather computes) ' +
    'is then also what onnxruntime\'s Gather, Mul, ReduceMean and tfjs\'s mean of pre-scaled rows compute. Every output was ' +
    'checked against the reference (`common/reference-bag.mjs`; for E3 the rows dequantized by `common/reference-quantized.mjs` ' +
    'first) before it was timed: bitwise, except the peers that reduce in an order or a rounding of their own (onnxruntime\'s ' +
    'ReduceSum and ReduceMean, tfjs\'s mean of pre-scaled rows), checked within 64 units in the last place of their output ' +
    'row\'s largest value (`bench/lib/close-check.mjs`; their notes below say what each checked run gave).', '');
  L.push('wasm-gather (`bench/lib/bag-runners.mjs`): **resident**: the table `upload()`ed once; per call the indices (and weights, ' +
    'or segment ids) from JS and a new output array, as the peers return theirs; **in-wasm**: those resident too, and the output ' +
    'a resident `opts.out` (the kernel and the call); **one-shot**: the table passed as a TypedArray and copied into wasm memory ' +
    'on every call. Peers: onnxruntime-web 1.30 (wasm EP, 1 and 2 threads; ONNX has no embedding bag, so the graph a converter ' +
    'makes of one: Gather then ReduceSum for E1, Gather, Mul by the weights as [4096, 32, 1], ReduceMean for E2, ' +
    '`com.microsoft.GatherBlockQuantized` then ReduceSum for E3, each materializing the 64 MiB of gathered rows; the table an ' +
    'initializer or fed per run), TensorFlow.js 4.22 cpu and wasm (`tf.sparse.sparseSegmentSum` for E1 and, with the ids ' +
    '0..n-1, for E4; for E2 `tf.sparse.sparseSegmentMean` of the rows gathered and scaled first by `tf.gather` and `tf.mul`, ' +
    '**the pre-scaling timed** with the rest, since the weights come with each call; the table a tensor kept or made per call; ' +
    'nothing for E3, tfjs having no quantized gather; and for E4 `tf.unsortedSegmentSum` on cpu, timed at 1 and 2 segments and ' +
    'fitted, its cost growing with the segments), and plain JS loops (`common/bag-js-loops.mjs`), which count as peers here. ' +
    '**The bound**: a `memory.copy` of the bag rows\' bytes read once and the output\'s written once (E2: and the weights; E3: ' +
    'a row\'s 64 bytes of codes and its 4 scales), on the library\'s own pool at the same thread count (`bench/lib/parallel-copy.mjs`) ' +
    'and, beside it, in one thread (`bench/lib/memcopy-bound.mjs`). To say what reading those rows in their random order costs: ' +
    'the same bytes with the bag rows copied by `memory.copy` one by one in the bags\' order into a small block that stays in ' +
    'cache (`wg_pool_copy_rows`, `src/runner.c`, on the same pool), the rest in order; and the same rows gathered by `take` ' +
    '(`gatherBlockQuantized` for E3) into a resident output. And what the arithmetic costs: the same call with the ids taken ' +
    'modulo 64, its rows in cache.', '');
  L.push('## Summary (E)', '', summary(report), '');
  L.push('## Workloads (E)', '', '| id | workload | table | entries (distinct) | output | bound: read + written | output hash (FNV-1a) |',
    '| --- | --- | ---: | ---: | ---: | ---: | --- |');
  for (const w of report.eWorkloads) {
    L.push(`| ${w.id} | ${w.title} | ${fmtBytes(w.tableBytes)} | ${w.entries} (${w.distinct}) | ${fmtBytes(w.outBytes)} | ` +
      `${fmtBytes(w.boundRead)} + ${fmtBytes(w.boundWritten)} | ${w.outputHash} |`);
  }
  L.push('', '## Median time per call (E)', '');
  L.push(`| implementation | mode | ${ids.join(' | ')} |`, `| --- | --- | ${ids.map(() => '---:').join(' | ')} |`);
  const rows = report.results.filter((r) => r.suite === 'E');
  for (const r of [...new Map(rows.map((x) => [x.impl, x])).values()]) {
    const cells = ids.map((id) => {
      const x = rows.find((y) => y.impl === r.impl && y.workload === id);
      if (!x) return '';
      return x.error ? `error: ${x.error}` : `${fmtMs(x.medianMs)}${x.fitted ? ' (fitted)' : ''}`;
    });
    L.push(`| ${r.impl} | ${r.mode} | ${cells.join(' | ')} |`);
  }
  const notes = noteLines(ok.filter((r) => r.note && r.family !== 'bound'));
  if (notes.length) L.push('', 'Notes from the peers\' adapters and checks:', '', ...notes);
  const checks = report.eChecks ?? [];
  if (checks.length) {
    const modes = [...new Set(checks.map((c) => c.mode))];
    L.push('', '## The same bits at every thread count (E)', '',
      'Each wasm-gather runner\'s checked output hashed (FNV-1a), compared across the builds and thread counts that ran the mode:', '',
      `| workload | reference's hash | ${modes.join(' | ')} |`, `| --- | --- | ${modes.map(() => '---').join(' | ')} |`);
    for (const w of report.eWorkloads) {
      L.push(`| ${w.id} | ${w.outputHash} | ${modes.map((m) => {
        const k = checks.find((x) => x.workload === w.id && x.mode === m);
        if (!k) return '';
        const same = Object.values(k.hashes).every((h) => h === w.outputHash);
        return same ? `same at ${Object.keys(k.hashes).join(', ')}` : `**differ**: ${Object.entries(k.hashes).map(([b, h]) => `${b} ${h}`).join(', ')}`;
      }).join(' | ')} |`);
    }
  }
  if (report.eRun) {
    L.push('', `The machine's load average (1 minute) was ${report.eRun.loadBefore[0].toFixed(2)} when the suite began and ` +
      `${report.eRun.loadAfter[0].toFixed(2)} when it ended, on ${report.machine.cores} cores: what else ran beside it, which the ` +
      'thread ratios above are subject to.');
  }
  L.push('');
}
