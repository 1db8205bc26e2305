// The G section of docs/benchmarks.md (bench/lib/report.mjs calls it): the bags' gradient's
// medians, ratios and targets (each with its measured value, PASS or MISS, and for a miss what
// was measured beside it that says how far the target lies: bench/grad-suite.mjs), the same-bits
// check and every row's median.
import { fmtBytes, fmtMs, fmtT, fmtX, noteLines } from './report-scatter.mjs';

const PEER_X = 3;
const OF_BOUND = 2;
const THREADS_X = 1.6;
const STEP_X = 3;
const V = '4.22.0';
const POOL = (n) => `memory.copy of the bag rows' bytes on the pool, ${n}T (G bound)`;
const SORTED = (n) => `memory.copy of the bag rows read in sorted order on the pool, ${n}T (reading alone)`;
const BOUND1 = 'memory.copy of the bag rows\' bytes (wasm, 1 thread)';
const JS = 'plain JS loop (in place)';
const TAKE_IR = (n) => `wasm-gather simd-threaded ${n}T: take + indexReduce 'add' (torch's composition), resident`;
const CACHED = 'rows in cache (in-wasm)';
const TF = (backend, kernels, what) => `tfjs ${V} ${backend}, ${kernels}: ${what}`;
const STOCK = 'stock kernels', USS = 'stock kernels and the adapter\'s UnsortedSegmentSum', ADAPTER = 'wasm-gather/tfjs';
const SSM = 'tf.sparse.sparseSegmentMean model, one SGD step', GM = 'tf.gather + tf.mean model, one SGD step';
const UPDATE = 'the SGD update alone (tf.train.sgd of a gradient kept)';
const G1_TF = 'tf.unsortedSegmentSum(tf.gather(dy, bags), ids, rows)';
const GND = 'tf.grad through tf.gatherND', GATHER = 'tf.grad through tf.gather of the same rows (its gradient UnsortedSegmentSum)';

function gIndex(report) {
  const all = report.results.filter((r) => r.suite === 'G');
  const ok = all.filter((r) => !r.error);
  const row = (impl, id) => all.find((r) => r.impl === impl && r.workload === id);
  const time = (impl, id) => ok.find((r) => r.impl === impl && r.workload === id)?.medianMs;
  const ours = (variant, threads, mode) => `wasm-gather ${variant} ${threads}T, ${mode}`;
  // The fastest peer of G1, plain JS included, timed rows only (not a fitted one): { impl, ms }.
  const fastestPeer = () => ok.filter((r) => (r.family === 'peer' || r.family === 'js') && !r.fitted && r.workload === 'G1')
    .reduce((best, r) => (!best || r.medianMs < best.ms ? { impl: r.impl, ms: r.medianMs } : best), undefined);
  return { all, ok, row, time, ours, fastestPeer };
}

// wasm-gather as init() sets it up on this machine: simd-threaded, cores up to 4.
const T = (report) => Math.min(4, report.machine.cores);

// The bound: the fastest copy of the bag rows' bytes measured (on the pool at n threads or at 1,
// or in one thread of a module of its own): a copy on more threads is not always the faster one
// on shared cores, and the target is set against the least time those bytes were seen to take.
function bound(time, n) {
  const copies = [[POOL(n), `on the pool, ${n}T`], [POOL(1), 'on the pool, 1T'], [BOUND1, 'in one thread']]
    .map(([impl, how]) => ({ ms: time(impl, 'G1'), how })).filter((c) => c.ms !== undefined);
  return copies.reduce((a, c) => (!a || c.ms < a.ms ? c : a), undefined) ?? { ms: undefined, how: '' };
}

/** The G targets: { name, value, met, detail, bound }. */
export function gTargets(report) {
  const { row, time, ours, fastestPeer } = gIndex(report);
  const n = T(report);
  const out = [];
  const add = (name, value, met, detail = '', bound = '') => out.push({ name, value, met, detail, bound });
  const resident = time(ours('simd-threaded', n, 'resident'), 'G1'), inWasm = time(ours('simd-threaded', n, 'in-wasm'), 'G1');
  const sorted = time(SORTED(n), 'G1'), cached = time(ours('simd-threaded', n, CACHED), 'G1');
  const { ms: pool, how: poolHow } = bound(time, n);

  // 1. G1 resident over the fastest peer
  const peer = fastestPeer();
  add(`G1, in place (gradient and ids from JS): at least ${PEER_X}x the fastest peer (plain JS included)`, fmtX(peer?.ms / resident),
    peer?.ms / resident >= PEER_X, `${fmtT(resident)} vs ${peer?.impl ?? '–'} ${fmtT(peer?.ms)}`,
    `in-wasm the kernel takes ${fmtT(inWasm)}; with its rows in cache (ids modulo 64: the sort and the adds, no misses) ${fmtT(cached)}; ` +
    `the peer over the bound's time (${poolHow}): ${fmtX(peer?.ms / pool)}`);

  // 2. G1 in-wasm within OF_BOUND of the bound
  add(`G1, in-wasm: within ${OF_BOUND}x of the bound (a memory.copy of the bag rows' bytes, read and written once: the fastest of the copies measured, on the pool at ${n}T and 1T and in one thread)`,
    fmtX(inWasm / pool), inWasm / pool <= OF_BOUND, `${fmtT(inWasm)} vs ${fmtT(pool)}, ${poolHow}`,
    `the bound copies 64 MiB in order; the kernel sorts 131072 entries by row and adds 512-byte rows into a 128 MiB table at ` +
    `those rows: reading the same rows alone in that sorted order takes ${fmtT(sorted)} (${fmtX(sorted / pool)} the bound), ` +
    `and the kernel with its rows in cache ${fmtT(cached)} (${fmtX(cached / pool)} the bound): what its sort and arithmetic cost ` +
    `whatever the memory does`);

  // 3. 2 threads over 1, in-wasm, with the same bits
  const one = time(ours('simd-threaded', 1, 'in-wasm'), 'G1'), two = time(ours('simd-threaded', 2, 'in-wasm'), 'G1');
  const checks = (report.gChecks ?? []).filter((c) => c.workload === 'G1');
  const same = checks.length > 0 && checks.every((c) => c.same);
  add(`G1, in-wasm: 2 threads at least ${THREADS_X}x 1 thread, with the same output bits (every mode, build and thread count)`,
    `${fmtX(one / two)}, ${same ? 'same bits' : '**bits differ**'}`, one / two >= THREADS_X && same, `${fmtT(one)} vs ${fmtT(two)}`,
    `the bound's copy on the same pool, 1 thread / 2 threads: ${fmtX(time(POOL(1), 'G1') / time(POOL(2), 'G1'))}; with the rows in cache ` +
    `${fmtX(time(ours('simd-threaded', 1, CACHED), 'G1') / time(ours('simd-threaded', 2, CACHED), 'G1'))}` +
    (report.gRun ? `; load average ${report.gRun.loadBefore[0].toFixed(1)} before the suite and ${report.gRun.loadAfter[0].toFixed(1)} after it on ${report.machine.cores} cores` : ''));

  // 4. G2: the sparseSegmentMean step over the gather + mean step, on wasm
  const ssm = time(TF('wasm', ADAPTER, SSM), 'G2'), gm = time(TF('wasm', USS, GM), 'G2'), upd = time(TF('wasm', STOCK, UPDATE), 'G2');
  add(`G2, tfjs wasm: the sparseSegmentMean model's step through wasm-gather/tfjs at least ${STEP_X}x the tf.gather + tf.mean model's ` +
    '(stock kernels and the adapter\'s UnsortedSegmentSum)', fmtX(gm / ssm), gm / ssm >= STEP_X, `${fmtT(ssm)} vs ${fmtT(gm)}`,
    `both steps end in tf.train.sgd's update of the whole 128 MiB table (Multiply, Add and the variable's assign, stock kernels), ` +
    `which alone takes ${fmtT(upd)}: were the sparse model's gradient free, the ratio would be ${fmtX(gm / upd)}; the steps beside ` +
    `their updates: ${fmtT(ssm - upd)} vs ${fmtT(gm - upd)} (${fmtX((gm - upd) / (ssm - upd))})`);

  // 5. G3: what stock tfjs cannot
  const g3 = ['cpu', 'wasm'].map((b) => ({ b, ours: time(TF(b, ADAPTER, GND), 'G3'), stock: row(TF(b, STOCK, GND), 'G3') }));
  const runs = g3.every((x) => x.ours !== undefined), none = g3.every((x) => /no gradient/.test(x.stock?.error ?? ''));
  add('G3: tf.grad through tf.gatherND runs with wasm-gather/tfjs on cpu and wasm (stock tfjs has no GatherNd gradient)',
    g3.map((x) => `${x.b} ${fmtT(x.ours)}`).join(', '), runs && none,
    `stock: ${g3.map((x) => `${x.b} ${x.stock?.error ? 'no gradient' : x.stock ? 'ran' : 'not run'}`).join(', ')}`);
  return out;
}

function summary(report) {
  const { row, time, ours, fastestPeer } = gIndex(report);
  const n = T(report);
  const L = [`Median time per call, ${report.machine.cores} cores, Node ${report.machine.node}, ${(report.suiteDates?.G ?? report.date).slice(0, 10)} ` +
    `(ms unless marked µs; wasm-gather simd-threaded as \`init()\` sets it up here, ${n} threads, unless marked). Peak heap: wasm-gather's ` +
    '`heapStats().lastCallBytes` (its call\'s scratch in wasm memory); tfjs\'s: the peak bytes of tensors above those held before the ' +
    'call (`tf.profile`).', ''];
  const cell = (r) => (!r ? '–' : r.error ? `error: ${r.error}` : `${fmtMs(r.medianMs)}${r.fitted ? ' (fitted)' : ''}`);
  const heap = (r) => (r && !r.error && r.peakCallBytes !== undefined ? fmtBytes(r.peakCallBytes) : '');
  const line = (name, impl, id) => { const r = row(impl, id); L.push(`| ${name} | ${cell(r)} | ${heap(r)} |`); };

  L.push('G1, E1\'s gradient for its table, added in place:', '', '| G1 | median | peak heap per call |', '| --- | ---: | ---: |');
  line('wasm-gather `embeddingBagBackward`, in place, gradient and ids from JS', ours('simd-threaded', n, 'resident'), 'G1');
  line('wasm-gather, in place, in-wasm (kernel + call)', ours('simd-threaded', n, 'in-wasm'), 'G1');
  line('wasm-gather simd-threaded, 1 thread, in-wasm', ours('simd-threaded', 1, 'in-wasm'), 'G1');
  line('wasm-gather simd, 1 thread, gradient and ids from JS', ours('simd', 1, 'resident'), 'G1');
  line(`torch's composition through wasm-gather: take + indexReduce 'add', in place, ${n}T`, TAKE_IR(n), 'G1');
  line('torch\'s composition, 1 thread', TAKE_IR(1), 'G1');
  line(`tfjs wasm, ${G1_TF} (the adapter's UnsortedSegmentSum; a new tensor)`, TF('wasm', USS, G1_TF), 'G1');
  line('tfjs cpu, stock kernels, the same', TF('cpu', STOCK, `${G1_TF} (fitted)`), 'G1');
  line('plain JS loop, in place', JS, 'G1');
  line(`bound: memory.copy of the bag rows' bytes on the pool, ${n}T`, POOL(n), 'G1');
  line('bound: the same, 1 thread', BOUND1, 'G1');
  line(`the bag rows read alone, in sorted order, on the pool, ${n}T`, SORTED(n), 'G1');
  line('wasm-gather, in-wasm, its rows in cache (ids modulo 64)', ours('simd-threaded', n, CACHED), 'G1');
  L.push('');

  L.push('G2, one SGD step of a model of G1\'s size:', '', '| G2 | median | peak tensor bytes per call |', '| --- | ---: | ---: |');
  line('tfjs wasm, wasm-gather/tfjs: `tf.sparse.sparseSegmentMean` model', TF('wasm', ADAPTER, SSM), 'G2');
  line('tfjs wasm, stock + the adapter\'s UnsortedSegmentSum: `tf.gather` + `tf.mean` model', TF('wasm', USS, GM), 'G2');
  line('tfjs cpu, stock kernels: `tf.gather` + `tf.mean` model', TF('cpu', STOCK, `${GM} (fitted)`), 'G2');
  line('tfjs wasm, stock kernels: `tf.sparse.sparseSegmentMean` model', TF('wasm', STOCK, SSM), 'G2');
  line('tfjs cpu, stock kernels: `tf.sparse.sparseSegmentMean` model', TF('cpu', STOCK, SSM), 'G2');
  line('tfjs wasm, stock kernels: `tf.gather` + `tf.mean` model', TF('wasm', STOCK, GM), 'G2');
  line('tfjs wasm: the SGD update alone (both steps\' last part)', TF('wasm', STOCK, UPDATE), 'G2');
  L.push('');

  L.push('G3, `tf.grad` through `tf.gatherND`:', '', '| G3 | median | peak tensor bytes per call |', '| --- | ---: | ---: |');
  for (const b of ['wasm', 'cpu']) line(`tfjs ${b}, wasm-gather/tfjs`, TF(b, ADAPTER, GND), 'G3');
  for (const b of ['wasm', 'cpu']) line(`tfjs ${b}, stock kernels`, TF(b, STOCK, GND), 'G3');
  line('tfjs wasm, wasm-gather/tfjs: `tf.grad` through `tf.gather` of the same rows, for comparison', TF('wasm', ADAPTER, GATHER), 'G3');
  L.push('');

  const peer = fastestPeer();
  const resident = time(ours('simd-threaded', n, 'resident'), 'G1'), inWasm = time(ours('simd-threaded', n, 'in-wasm'), 'G1');
  L.push('| ratio | |', '| --- | ---: |');
  L.push(`| G1: fastest peer (${peer?.impl ?? '–'}) / wasm-gather in place | ${fmtX(peer?.ms / resident)} |`);
  L.push(`| G1: torch's composition (take + indexReduce, ${n}T) / wasm-gather in place | ${fmtX(time(TAKE_IR(n), 'G1') / resident)} |`);
  L.push(`| G1: tfjs wasm (the adapter's UnsortedSegmentSum) / wasm-gather in place | ${fmtX(time(TF('wasm', USS, G1_TF), 'G1') / resident)} |`);
  L.push(`| G1: plain JS loop / wasm-gather in place | ${fmtX(time(JS, 'G1') / resident)} |`);
  const b = bound(time, n);
  L.push(`| G1: wasm-gather in-wasm / bound (the fastest copy: ${b.how}) | ${fmtX(inWasm / b.ms)} |`);
  L.push(`| G1: wasm-gather in-wasm / the rows read alone in sorted order (pool, ${n}T) | ${fmtX(inWasm / time(SORTED(n), 'G1'))} |`);
  L.push(`| G1: in-wasm, 1 thread / 2 threads | ${fmtX(time(ours('simd-threaded', 1, 'in-wasm'), 'G1') / time(ours('simd-threaded', 2, 'in-wasm'), 'G1'))} |`);
  L.push(`| G1: the bound's copy on the pool, 1 thread / 2 threads | ${fmtX(time(POOL(1), 'G1') / time(POOL(2), 'G1'))} |`);
  L.push(`| G2: tfjs wasm, gather + mean step / sparseSegmentMean step | ${fmtX(time(TF('wasm', USS, GM), 'G2') / time(TF('wasm', ADAPTER, SSM), 'G2'))} |`);
  L.push('', '| target (G) | measured | met | what was measured beside it, where missed |', '| --- | --- | --- | --- |');
  for (const t of gTargets(report)) {
    L.push(`| ${t.name}${t.detail ? ` (${t.detail})` : ''} | ${t.value} | ${t.met ? 'PASS' : '**MISS**'} | ${t.met ? '' : t.bound} |`);
  }
  return L.join('\n');
}

/** Appends the G section to the report's lines L. */
export function gMarkdown(report, L) {
  const { all, ok } = gIndex(report);
  const ids = report.gWorkloads.map((w) => w.id);
  L.push('# G: the bags\' gradient', '');
  L.push('The workloads of `common/grad-workloads.mjs`. **G1**: `embeddingBagBackward` of E1 (4096 bags of 32 ids, drawn with ' +
    'replacement over 262144 rows, mode sum) with a gradient of the output of values in [0, 1), added in place into a resident ' +
    '[262144, 128] float32 gradient table (zeroed before each runner\'s first call, which is checked; every later call adds again). ' +
    '**G2**: one SGD step (`tf.grad` of the loss, then `tf.train.sgd(1/16)`\'s update of the table variable) of ' +
    '`tf.sum(tf.sparse.sparseSegmentMean(table, ids, bags) * target)` on E1\'s table and ids, G1\'s output gradient as target ' +
    '(so dL/dy is it exactly); per call the batch (ids, target) is made into tensors. Its gradient, SparseSegmentMeanGrad, is ' +
    'TensorFlow\'s kernel, which tfjs-core lacks: wasm-gather/tfjs registers it, served by `embeddingBagBackward`. The peer is the ' +
    'same model written as `tf.mean(tf.reshape(tf.gather(table, ids), [4096, 32, 128]), 1)`, whose gradient is an ' +
    'UnsortedSegmentSum, which stock tfjs-wasm lacks (the adapter\'s alone is registered for it) and stock tfjs-cpu computes with ' +
    'a pass over all rows per segment (timed on tables of 1 and 2 rows and fitted, hours at 262144). **G3**: `tf.grad` of ' +
    '`tf.sum(tf.gatherND(params, tuples))`, W1\'s [32000, 512] table and ids as 4096 tuples of one: its gradient is a ScatterNd, ' +
    'which wasm-gather/tfjs registers and stock tfjs has not.', '');
  L.push('Every output was checked against the reference before it was timed, bitwise: G1\'s and G2\'s gradient by ' +
    `\`common/grad-workloads.mjs\` (${report.gWorkloads.find((w) => w.id === 'G1')?.reference ?? '–'}: each entry\'s row added in ` +
    'entry order, as the op\'s semantics say), G2\'s table after the first step from it (value + (-1/16) * grad in float32), G3\'s by ' +
    'counting the ids; stock tfjs-cpu\'s fitted points within 2^-20 of their row\'s largest value (it sums in doubles). The tfjs ' +
    'runners\' first calls are checked to be served by the kernels named (`kernelStats()`, no fallback; on wasm in tfjs\'s ' +
    'memory). G1\'s tfjs peers return a new gradient tensor rather than adding into one, and their outputs and G3\'s are disposed ' +
    'unread, as the next op would take them. **The bound**: a `memory.copy` of the bag rows\' bytes (131072 rows of 512 B, 64 MiB), ' +
    'read and written once, on the library\'s own pool at 1 and 2 threads (`bench/lib/parallel-copy.mjs`) and in one thread ' +
    '(`bench/lib/memcopy-bound.mjs`), the fastest of them the target\'s; beside it the same rows read alone in the order the kernel visits them (sorted by row, ' +
    '`wg_pool_copy_rows` into a block that stays in cache), and the kernel with the ids taken modulo 64 (its rows in cache).', '');
  L.push('## Summary (G)', '', summary(report), '');
  L.push('## Workloads (G)', '', '| id | workload | entries (distinct) | expected output | bound: rows read and written | reference | expected output\'s hash (FNV-1a) |',
    '| --- | --- | ---: | ---: | ---: | --- | --- |');
  for (const w of report.gWorkloads) {
    L.push(`| ${w.id} | ${w.title} | ${w.entries} (${w.distinct}) | ${fmtBytes(w.outBytes)} | ${w.boundBytes ? fmtBytes(w.boundBytes) : ''} | ` +
      `${w.reference} | ${w.outputHash}${w.gradHash && w.gradHash !== w.outputHash ? ` (its gradient's: ${w.gradHash})` : ''} |`);
  }
  L.push('', '## Median time per call (G)', '');
  L.push(`| implementation | mode | ${ids.join(' | ')} |`, `| --- | --- | ${ids.map(() => '---:').join(' | ')} |`);
  for (const r of [...new Map(all.map((x) => [x.impl, x])).values()]) {
    const cells = ids.map((id) => {
      const x = all.find((y) => y.impl === r.impl && y.workload === id);
      if (!x) return '';
      return x.error ? `error: ${x.error}` : `${fmtMs(x.medianMs)}${x.fitted ? ' (fitted)' : ''}`;
    });
    L.push(`| ${r.impl} | ${r.mode} | ${cells.join(' | ')} |`);
  }
  const notes = noteLines(ok.filter((r) => r.note && r.family !== 'bound'));
  if (notes.length) L.push('', 'Notes from the runners and checks:', '', ...notes);
  const checks = report.gChecks ?? [];
  if (checks.length) {
    const modes = [...new Set(checks.map((c) => c.mode))];
    const w = report.gWorkloads.find((x) => x.id === 'G1');
    L.push('', '## The same bits at every thread count (G)', '',
      'Each wasm-gather runner\'s checked G1 output hashed (FNV-1a), compared across the builds and thread counts that ran the mode:', '',
      `| workload | reference's hash | ${modes.join(' | ')} |`, `| --- | --- | ${modes.map(() => '---').join(' | ')} |`);
    L.push(`| G1 | ${w?.outputHash} | ${modes.map((m) => {
      const k = checks.find((x) => x.workload === 'G1' && x.mode === m);
      if (!k) return '';
      // (the rows-in-cache runner computes another gradient, the ids modulo 64: its hashes are compared with each other)
      const same = m === 'cached' ? k.same : Object.values(k.hashes).every((h) => h === w?.outputHash);
      const at = `same at ${Object.keys(k.hashes).join(', ')}${m === 'cached' ? ` (${Object.values(k.hashes)[0]}: ids modulo 64)` : ''}`;
      return same ? at : `**differ**: ${Object.entries(k.hashes).map(([b, h]) => `${b} ${h}`).join(', ')}`;
    }).join(' | ')} |`);
  }
  if (report.gRun) {
    L.push('', `The machine's load average (1 minute) was ${report.gRun.loadBefore[0].toFixed(2)} when the suite began and ` +
      `${report.gRun.loadAfter[0].toFixed(2)} when it ended, on ${report.machine.cores} cores: what else ran beside it, which the ` +
      'thread ratio above is subject to.');
  }
  L.push('');
}
