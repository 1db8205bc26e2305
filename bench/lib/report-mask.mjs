// The M section of docs/benchmarks.md (bench/lib/report.mjs calls it): the masks' ops' medians,
// peak wasm heap per call, ratios and targets (each with its measured value, PASS or MISS, and for
// a miss what was measured beside it that says how far the target lies: bench/mask-suite.mjs),
// the same-bits check and every row's median.
import { BOUND1, FLOOR, FLOOR_HOW, ONE_SHOT_CALL, ONE_SHOT_FLOOR, OPS_OF, POOL, POOL_HALF, PRIMARY, ROWS, VALUES_WRITTEN, ours } from './mask-names.mjs';
import { fmtBytes, fmtMs, fmtT, fmtX, noteLines } from './report-scatter.mjs';

const geomean = (xs) => Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length);
const RESIDENT_X = 3;
const ONE_SHOT_X = 1.5;
const OF_BOUND = 1.5;
const THREADS_X = 1.6;
const THREAD_TARGET = ['M1', 'M3'];
const JS = 'plain JS loop';

function mIndex(report) {
  const all = report.results.filter((r) => r.suite === 'M');
  const ok = all.filter((r) => !r.error && r.medianMs !== undefined);
  const ids = report.mWorkloads.map((w) => w.id);
  const row = (impl, id, phase = 'main') => all.find((r) => r.impl === impl && r.workload === id && r.phase === phase);
  const time = (impl, id, phase = 'main') => ok.find((r) => r.impl === impl && r.workload === id && r.phase === phase)?.medianMs;
  // The fastest peer on a workload, plain JS included, in the given modes (all when absent): { impl, ms }.
  const fastestPeer = (id, modes) => ok.filter((r) => (r.family === 'peer' || r.family === 'js') && r.workload === id && r.phase === 'main' &&
    (!modes || modes.includes(r.mode))).reduce((best, r) => (!best || r.medianMs < best.ms ? { impl: r.impl, ms: r.medianMs } : best), undefined);
  const n = report.mRun?.threads ?? Math.min(4, report.machine.cores);
  const resident = (id) => time(ours(n, PRIMARY[id], 'resident'), id);
  const oneShot = (id) => time(ours(n, PRIMARY[id], 'one-shot'), id);
  // The bound: the faster copy of the bound's bytes measured beside it (on the pool at n threads,
  // or in one thread of a module of its own): on shared cores the copy on more threads is not
  // always the faster, and the target is set against the least time those bytes took.
  const bound = (id) => {
    const c = [[POOL(n), `on the pool, ${n}T`], [BOUND1, 'in one thread']].map(([impl, how]) => ({ ms: time(impl, id), how }))
      .filter((x) => x.ms !== undefined);
    return c.reduce((a, x) => (!a || x.ms < a.ms ? x : a), undefined) ?? { ms: undefined, how: '' };
  };
  return { all, ok, ids, row, time, fastestPeer, n, resident, oneShot, bound };
}

/** The M targets: { short, name, value, met, detail, bound }. */
export function mTargets(report) {
  const { ids, time, fastestPeer, n, resident, oneShot, bound } = mIndex(report);
  const out = [];
  const add = (short, name, value, met, detail = '', why = '') => out.push({ short, name, value, met, detail, bound: why });
  const list = (xs, f = fmtX) => ids.map((id, i) => `${id} ${f(xs[i])}`).join(', ');
  const ops = ids.map((id) => `${id} ${PRIMARY[id]}`).join(', ');

  // 1. resident over the fastest peer, geometric mean
  const res = ids.map((id) => fastestPeer(id)?.ms / resident(id));
  const atBound = ids.map((id) => fastestPeer(id)?.ms / bound(id).ms);
  add('resident over the fastest peer', `resident (every input uploaded, the output a resident opts.out; ${ops}): geometric mean over ${ids[0]}-${ids.at(-1)} of the speed-ups ` +
    `over the fastest peer (any mode, plain JS included) at least ${RESIDENT_X}x`, fmtX(geomean(res)), geomean(res) >= RESIDENT_X, list(res),
    `at the bound (the faster copy of each workload's bytes) the geometric mean would be ${fmtX(geomean(atBound))} (${list(atBound)})`);

  // 2. one-shot over the fastest one-shot peer, geometric mean
  const one = ids.map((id) => fastestPeer(id, ['one-shot'])?.ms / oneShot(id));
  const floorOne = (id) => time(ONE_SHOT_FLOOR, id);
  const atFloor = ids.map((id) => fastestPeer(id, ['one-shot'])?.ms / floorOne(id));
  // The one-shot bound: one call through JS with nothing to move (the op on a mask of no true
  // element, one-shot), and what JS must then do with the true elements, the positions known
  // (M1, M2: the output made and the kept rows set; M3: the values written into x's copy, which
  // the call already made).
  const jsWrites = (id) => time(PRIMARY[id] === 'maskedScatter' ? VALUES_WRITTEN : ONE_SHOT_FLOOR, id);
  const boundOne = (id) => time(ONE_SHOT_CALL(n, id), id) + jsWrites(id);
  const atBoundOne = ids.map((id) => fastestPeer(id, ['one-shot'])?.ms / boundOne(id));
  add('one-shot over the fastest one-shot peer', `one-shot (arrays in, a new array out): geometric mean over ${ids[0]}-${ids.at(-1)} of the speed-ups over the fastest one-shot peer ` +
    `(plain JS included) at least ${ONE_SHOT_X}x`, fmtX(geomean(one)), geomean(one) >= ONE_SHOT_X, list(one),
    `a one-shot call returns a new array; making it and filling it in JS with the positions already known (${FLOOR_HOW}; ` +
    `M3 before any value is scattered) takes ${ids.map((id) => `${id} ${fmtT(floorOne(id))}`).join(', ')}, ` +
    `the plain JS loop, which also finds the positions, ${ids.map((id) => `${id} ${fmtT(time(JS, id))}`).join(', ')}; at that floor the geometric mean ` +
    `would be ${fmtX(geomean(atFloor))} (${list(atFloor)}). With the cost of one call through JS added (the op one-shot on a mask of no true element: ` +
    `${ids.map((id) => `${id} ${fmtT(time(ONE_SHOT_CALL(n, id), id))}`).join(', ')}, M3's including x's copy) to what JS must do with the true elements ` +
    `(M1, M2 as above; M3 the values written at their known positions into a copy of x: ${fmtT(jsWrites(ids.find((id) => PRIMARY[id] === 'maskedScatter')))}), ` +
    `the one-shot bound is ${ids.map((id) => `${id} ${fmtT(boundOne(id))}`).join(', ')}, and at it the geometric mean would be ${fmtX(geomean(atBoundOne))} ` +
    `(${list(atBoundOne)}); wasm-gather one-shot is ${list(ids.map((id) => oneShot(id) / boundOne(id)))} of it`);

  // 3. resident within OF_BOUND of the bound, every workload
  const of = ids.map((id) => resident(id) / bound(id).ms);
  const worst = Math.max(...of);
  const missed = ids.filter((id, i) => !(of[i] <= OF_BOUND));
  const wl = (id) => report.mWorkloads.find((w) => w.id === id);
  add('resident within the bound', `resident within ${OF_BOUND}x of the bound (a memory.copy of the bytes read and written once: the mask, the kept rows and the output; ` +
    `M3 x, the mask, the source and the output; the faster of the copy on the pool at ${n}T and in one thread) on every workload`,
    `max ${fmtX(worst)} (${ids[of.indexOf(worst)]})`, of.every((x) => x <= OF_BOUND),
    ids.map((id, i) => `${id} ${fmtX(of[i])}: ${fmtT(resident(id))} vs ${fmtT(bound(id).ms)} ${bound(id).how}`).join('; '),
    missed.map((id) => {
      const res = resident(id), b0 = bound(id).ms, half = time(POOL_HALF(n), id), rows = time(ROWS(n), id), floor = time(FLOOR(n, id), id);
      let s = `${id}: the copy of half the bytes (a copy reads and writes each byte: the op's own traffic) takes ${fmtT(half)}`;
      if (rows !== undefined) {
        s += `; the same bytes with the ${wl(id).trues} kept rows copied one memory.copy each take ${fmtT(rows)} (${fmtX(rows / b0)} the bound), ` +
          `the op ${fmtX(res / rows)} that`;
      }
      if (floor !== undefined && id === 'M1') {
        s += `; the call with a condition of no true element (the call and its passes over the condition, nothing copied) takes ` +
          `${fmtT(floor)}, ${fmtX(floor / b0)} the bound by itself`;
      } else if (floor !== undefined) {
        s += `; with a mask of no true element (x copied to the output and the mask read, nothing scattered) the call takes ${fmtT(floor)} ` +
          `(${fmtX(floor / b0)} the bound), so the ${wl(id).trues} values scattered one at a time cost ${fmtT(res - floor)}, ` +
          `${((res - floor) * 1e6 / wl(id).trues).toFixed(1)} ns a value: the element-wise writes, which no copy of the same bytes has`;
      }
      return s;
    }).join('; '));

  // 4. 2 threads over 1 (the thread phases), with the same bits
  for (const id of THREAD_TARGET.filter((x) => ids.includes(x))) {
    const one1 = time(ours(1, PRIMARY[id], 'resident'), id, 'threads'), two = time(ours(2, PRIMARY[id], 'resident'), id, 'threads');
    const check = (report.mChecks ?? []).find((c) => c.workload === id);
    const same = !!check?.same;
    const pool1 = time(POOL(1), id, 'threads'), pool2 = time(POOL(2), id, 'threads');
    const f1 = time(FLOOR(1, id), id, 'threads'), f2 = time(FLOOR(2, id), id, 'threads');
    add(`${id} at 2 threads over 1`, `${id}, ${PRIMARY[id]} resident: 2 threads at least ${THREADS_X}x 1 thread (alternating phases), with the same output bits ` +
      '(every op, mode, thread count and phase)', `${fmtX(one1 / two)}, ${same ? 'same bits' : '**bits differ**'}`, one1 / two >= THREADS_X && same,
      `${fmtT(one1)} vs ${fmtT(two)}`,
      `the bound's copy on the same pool in the same phases, 1 thread / 2 threads: ${fmtX(pool1 / pool2)} (${fmtT(pool1)} vs ${fmtT(pool2)})` +
      (f1 !== undefined ? `; the call on a ${id === 'M1' ? 'condition' : 'mask'} of no true element: ${fmtT(f1)} vs ${fmtT(f2)} (${fmtX(f1 / f2)})` : '') +
      (report.mRun ? `; load average ${report.mRun.loadBefore[0].toFixed(1)} before the suite and ${report.mRun.loadAfter[0].toFixed(1)} after it on ${report.machine.cores} cores` : ''));
  }
  return out;
}

function summary(report) {
  const { ids, row, time, fastestPeer, n, resident, oneShot, bound } = mIndex(report);
  const L = [`Median time per call, ${report.machine.cores} cores, Node ${report.machine.node}, ${(report.suiteDates?.M ?? report.date).slice(0, 10)} ` +
    `(ms unless marked µs; wasm-gather simd-threaded as \`init()\` sets it up here, ${n} threads, unless marked), and in brackets wasm-gather's ` +
    'peak wasm heap of the call (`heapStats().lastCallBytes`: what the call allocates in wasm memory; M2\'s pipeline: the larger of its two calls\'):', ''];
  L.push(`| | ${ids.join(' | ')} |`, `| --- | ${ids.map(() => '---:').join(' | ')} |`);
  const cell = (r) => (!r ? '–' : r.error ? `error: ${r.error}` : `${fmtMs(r.medianMs)}${r.peakCallBytes !== undefined ? ` (${fmtBytes(r.peakCallBytes)})` : ''}`);
  const line = (name, f) => L.push(`| ${name} | ${ids.map((id) => f(id)).join(' | ')} |`);
  const mine = (op, mode, threads = n, phase = 'main') => (id) => (op === 'primary' || OPS_OF[id]?.includes(op) ? cell(row(ours(threads, op === 'primary' ? PRIMARY[id] : op, mode), id, phase)) : '');
  line(`wasm-gather, the workload's op (${ids.map((id) => `${id} ${PRIMARY[id]}`).join(', ')}), resident`, mine('primary', 'resident'));
  line('wasm-gather, the workload\'s op, one-shot', mine('primary', 'one-shot'));
  line('wasm-gather `maskedScatter`, in place (a resident x)', mine('maskedScatter', 'in-place'));
  line('wasm-gather `compress`, resident / one-shot (M2: x as [32768, 768], the mask flattened)', (id) => OPS_OF[id].includes('compress') && PRIMARY[id] !== 'compress'
    ? `${mine('compress', 'resident')(id)} / ${mine('compress', 'one-shot')(id)}` : '');
  line('wasm-gather `booleanMask`, resident / one-shot (M2: x [64, 512, 768], the mask [64, 512])', (id) => OPS_OF[id].includes('booleanMask')
    ? `${mine('booleanMask', 'resident')(id)} / ${mine('booleanMask', 'one-shot')(id)}` : '');
  line('wasm-gather, the workload\'s op, resident, 1 thread (thread phases)', mine('primary', 'resident', 1, 'threads'));
  line('wasm-gather, the workload\'s op, resident, 2 threads (thread phases)', mine('primary', 'resident', 2, 'threads'));
  line('wasm-gather, the workload\'s op, resident, a mask of no true element (M1: the call alone; M3: all but the scattered values)', (id) => cell(row(FLOOR(n, id), id)));
  line('fastest peer, any mode (plain JS included)', (id) => fmtMs(fastestPeer(id)?.ms));
  line('fastest peer, one-shot', (id) => fmtMs(fastestPeer(id, ['one-shot'])?.ms));
  line('plain JS loop', (id) => fmtMs(time(JS, id)));
  line(`bound: memory.copy of the bound's bytes on the pool, ${n}T`, (id) => fmtMs(time(POOL(n), id)));
  line('bound: memory.copy of the bound\'s bytes, 1 thread', (id) => fmtMs(time(BOUND1, id)));
  line(`memory.copy of half the bound's bytes on the pool, ${n}T (the op's traffic)`, (id) => fmtMs(time(POOL_HALF(n), id)));
  line(`the bound's bytes, the kept rows one memory.copy each, on the pool, ${n}T`, (id) => fmtMs(time(ROWS(n), id)));
  line(ONE_SHOT_FLOOR, (id) => fmtMs(time(ONE_SHOT_FLOOR, id)));
  line(VALUES_WRITTEN, (id) => fmtMs(time(VALUES_WRITTEN, id)));
  line('wasm-gather, the workload\'s op, one-shot, a mask of no true element (one call through JS, nothing to move; M3: x copied to the output)', (id) => cell(row(ONE_SHOT_CALL(n, id), id)));
  L.push('');
  L.push(`| ratio | ${ids.join(' | ')} |`, `| --- | ${ids.map(() => '---:').join(' | ')} |`);
  const ratio = (name, f) => L.push(`| ${name} | ${ids.map((id) => fmtX(f(id))).join(' | ')} |`);
  ratio('fastest peer / wasm-gather resident', (id) => fastestPeer(id)?.ms / resident(id));
  ratio('fastest one-shot peer / wasm-gather one-shot', (id) => fastestPeer(id, ['one-shot'])?.ms / oneShot(id));
  ratio('plain JS loop / wasm-gather one-shot', (id) => time(JS, id) / oneShot(id));
  ratio('wasm-gather resident / bound (the faster copy)', (id) => resident(id) / bound(id).ms);
  ratio('wasm-gather resident / the copy of half the bytes (the op\'s traffic)', (id) => resident(id) / time(POOL_HALF(n), id));
  ratio('resident, 1 thread / 2 threads (thread phases)', (id) => time(ours(1, PRIMARY[id], 'resident'), id, 'threads') / time(ours(2, PRIMARY[id], 'resident'), id, 'threads'));
  ratio('the bound\'s copy on the pool, 1 thread / 2 threads (thread phases)', (id) => time(POOL(1), id, 'threads') / time(POOL(2), id, 'threads'));
  L.push('', 'Fastest peer per workload: ' + ids.map((id) => `${id} ${fastestPeer(id)?.impl ?? '–'}, one-shot ${fastestPeer(id, ['one-shot'])?.impl ?? '–'}`).join('; ') + '.');
  L.push('', '| target (M) | measured | met | bound, where missed |', '| --- | --- | --- | --- |');
  const targets = mTargets(report);
  for (const t of targets) {
    L.push(`| ${t.name}${t.detail ? ` (${t.detail})` : ''} | ${t.value} | ${t.met ? 'PASS' : '**MISS**'} | ${t.met ? '' : t.bound} |`);
  }
  const met = targets.filter((t) => t.met).length;
  L.push('', `${met} of ${targets.length} M targets met` + (met < targets.length ? `; missed: ${targets.filter((t) => !t.met).map((t) => t.short).join(', ')}.` : '.'));
  return L.join('\n');
}

/** Appends the M section to the report's lines L. */
export function mMarkdown(report, L) {
  const { all, ok, ids } = mIndex(report);
  L.push('# M: the masks\' ops', '');
  L.push('The workloads of `common/mask-workloads.mjs`: float32 values in [0, 1), uint8 masks with an exact count of true elements ' +
    '(seeded). **M1** YOLOv8\'s detections as one row an anchor, [8400, 84], the rows of a condition of 420 (5%) kept: ONNX ' +
    '`Compress` along axis 0, `tf.boolean_mask`. **M2** the unpadding of a padded batch of token states [64, 512, 768] by its ' +
    'attention mask (a prefix of ones a sequence, 24576 ones, 75%), as flash-attention\'s `unpad_input` does it: the flat ' +
    'positions of the ones (`nonZero` of the flattened mask), then those rows of x as [32768, 768] (`take`); the same rows in one ' +
    'call by `compress` and by `booleanMask` are shown beside. **M3** torch\'s `masked_scatter` of 1M values into [4096, 1024] at ' +
    'a 25% mask. Every output was checked bitwise equal to the reference (`common/reference-mask.mjs`) before it was timed.', '');
  L.push('wasm-gather (`bench/lib/mask-runners.mjs`): **resident**: every input `upload()`ed once, the output a resident `opts.out` ' +
    '(M2\'s `nonZero` a new resident index tensor each call, disposed after the `take`); **in place**: M3 into its resident x; ' +
    '**one-shot**: TypedArrays in, a new TypedArray out. Peers (`bench/lib/mask-peers.mjs`): onnxruntime-web 1.30 (wasm EP, 1 and ' +
    '2 threads; M1 `Compress`, M2 `NonZero`, `Transpose`, `GatherND`, M3 `NonZero`, `Transpose`, `ScatterND`, torch.onnx\'s export ' +
    'of masked_scatter; the mask fed as uint8 and cast to bool in the graph, the bench\'s model writer having no bool type; x an ' +
    'initializer or fed per run), TensorFlow.js 4.22 cpu and wasm (M1 `tf.booleanMaskAsync`, M2 `tf.whereAsync` then `tf.gather`, ' +
    'M3 `tf.whereAsync` then `tf.tensorScatterUpdate`; the tensors kept or made per call, the output read with `dataSync()`; on cpu ' +
    '`tf.tensor` keeps the caller\'s array, so a one-shot call does what a resident one does and M2, seconds a call there, runs ' +
    'resident only; and M3 writes into x\'s own array there, so it runs in place only), and plain JS loops, which count as peers. **The bound**: a ' +
    '`memory.copy` of the bytes the op must read and write once (M1, M2: the mask, the kept rows and the output; M3: x, the mask, ' +
    'the source and the output) on the library\'s own pool (`bench/lib/parallel-copy.mjs`) and in one thread ' +
    '(`bench/lib/memcopy-bound.mjs`); beside it the copy of half those bytes, whose traffic (each byte copied is read and written) ' +
    'is the op\'s own; the bound\'s bytes with the kept rows copied one `memory.copy` each (`wg_pool_copy_rows`), as a gather ' +
    'reads them; the op on a mask of no true element (M1: the call alone; M3: all but the scattered values); and what any one-shot ' +
    'call must do in JS, the output array made and filled with the positions known.', '');
  L.push('Timing (`bench/lib/mask-timing.mjs`): every row of a workload set up, checked, then timed in rounds, one sample of each ' +
    'row a round in an order shuffled each round, so that the machine\'s drift falls on all of them alike; a row\'s time is the median ' +
    'of its samples per call (a peer whose call takes seconds: 3 samples). Then, for M1 and M3, the thread phases: the workload\'s op ' +
    'resident (and on a mask of no true element) and the pool\'s copy, in a module initialized at 1 thread, then in one at 2, ' +
    'eight times, the order reversed every other time (1, 2, 2, 1, 1, 2, ...), the samples of each thread count pooled; each ' +
    'phase\'s output checked and hashed.', '');
  L.push('## Summary (M)', '', summary(report), '');
  L.push('## Workloads (M)', '', '| id | workload | x | mask elements (true) | output | bound: read + written | output hash (FNV-1a) |',
    '| --- | --- | ---: | ---: | ---: | ---: | --- |');
  for (const w of report.mWorkloads) {
    L.push(`| ${w.id} | ${w.title} | ${fmtBytes(w.xBytes)} | ${w.maskElements} (${w.trues}) | ${fmtBytes(w.outBytes)} | ` +
      `${fmtBytes(w.boundRead)} + ${fmtBytes(w.boundWritten)} | ${w.outputHash} |`);
  }
  L.push('', '## Median time per call and peak wasm heap per call (M)', '',
    'Peak heap: wasm-gather\'s `heapStats().lastCallBytes` after the checked call.', '');
  L.push(`| implementation | mode | phase | ${ids.map((id) => `${id} | ${id} heap`).join(' | ')} |`,
    `| --- | --- | --- | ${ids.map(() => '---: | ---:').join(' | ')} |`);
  // the main phase's rows in the order they ran, then the thread phases'
  const keys = ['main', 'threads'].flatMap((p) => [...new Map(all.filter((r) => r.phase === p).map((r) => [r.impl, r])).values()]);
  for (const r of keys) {
    const cells = ids.map((id) => {
      const x = all.find((y) => y.impl === r.impl && y.phase === r.phase && y.workload === id);
      if (!x) return ' | ';
      if (x.error) return `error: ${x.error} | `;
      return `${fmtMs(x.medianMs)} | ${x.peakCallBytes !== undefined ? fmtBytes(x.peakCallBytes) : ''}`;
    });
    L.push(`| ${r.impl} | ${r.mode} | ${r.phase} | ${cells.join(' | ')} |`);
  }
  const notes = noteLines(ok.filter((r) => r.note && r.family !== 'bound'));
  if (notes.length) L.push('', 'Notes from the peers\' runners:', '', ...notes);
  const checks = report.mChecks ?? [];
  if (checks.length) {
    L.push('', '## The same bits at every thread count (M)', '',
      'Each wasm-gather runner\'s checked output hashed (FNV-1a; the thread phases: every phase\'s), compared across ops, modes, thread counts and phases:', '',
      '| workload | reference\'s hash | outputs |', '| --- | --- | --- |');
    for (const w of report.mWorkloads) {
      const k = checks.find((x) => x.workload === w.id);
      if (!k) continue;
      const same = k.same && Object.values(k.hashes).every((h) => h === w.outputHash);
      L.push(`| ${w.id} | ${w.outputHash} | ${same ? `same at ${Object.keys(k.hashes).join('; ')}` : `**differ**: ${Object.entries(k.hashes).map(([b, h]) => `${b} ${h}`).join('; ')}`} |`);
    }
  }
  if (report.mRun) {
    L.push('', `The machine's load average (1 minute) was ${report.mRun.loadBefore[0].toFixed(2)} when the suite began and ` +
      `${report.mRun.loadAfter[0].toFixed(2)} when it ended, on ${report.machine.cores} cores: what else ran beside it, which the ` +
      'thread ratios above are subject to.');
  }
  L.push('');
}
