// wasm-gather as the benchmark runs it: one group per build and thread count (the module is
// initialized once per group), each with a one-shot and a resident runner.
//   one-shot: TypedArrays in, a new TypedArray out; everything is copied per call.
//   resident: the data uploaded once; per call the indices go in and the output is written into
//             the caller's buffer (opts.out), one copy out of wasm memory.
//   resident-new: the same, but a new output array per call, as the peers return theirs.
//   resident-chained: the same, but the output stays in wasm memory (a resident opts.out), as
//             when a framework chains ops; nothing is copied back to JS.
//   resident-view: the same, the result read where it is (ResidentTensor.view(), no copy).
//   in-wasm:  data, indices and output all resident (opts.out is a resident tensor): the kernel
//             and the call alone, as the native driver measures it; how ops chain in a framework.
import * as api from '../../js/index.mjs';
import { caller } from '../../common/op-caller.mjs';
import { numel } from '../../common/shape.mjs';
import { median } from '../../common/timing.mjs';
import { PAIRED } from './report.mjs';

const { dispose, heapStats, init, upload } = api;
const outputArray = (w) => new Float32Array(numel(w.outShape));

export function wasmGatherRunners(label) {
  return [
    {
      impl: `wasm-gather ${label}, one-shot`, family: 'wasm-gather', mode: 'one-shot',
      setup(w, t) {
        const call = caller(api, w);
        return { run: () => call(t.data, t.indices).data, heap: () => heapStats(), dispose() {} };
      },
    },
    {
      impl: `wasm-gather ${label}, resident`, family: 'wasm-gather', mode: 'resident',
      setup(w, t) {
        const data = upload(t.data);
        const call = caller(api, w, { out: outputArray(w) });
        return { run: () => call(data, t.indices).data, heap: () => heapStats(), dispose: () => data.dispose() };
      },
    },
    {
      impl: `wasm-gather ${label}, resident, new array per call`, family: 'wasm-gather', mode: 'resident-new',
      setup(w, t) {
        const data = upload(t.data);
        const call = caller(api, w);
        return { run: () => call(data, t.indices).data, heap: () => heapStats(), dispose: () => data.dispose() };
      },
    },
    {
      impl: `wasm-gather ${label}, resident, output kept in wasm`, family: 'wasm-gather', mode: 'resident-chained',
      setup(w, t) {
        const data = upload(t.data);
        const out = upload({ data: outputArray(w), shape: w.outShape });
        const call = caller(api, w, { out });
        return {
          run: () => call(data, t.indices),
          check: () => out.read(),
          heap: () => heapStats(),
          dispose() { data.dispose(); out.dispose(); },
        };
      },
    },
    {
      // As a framework that consumes the result where it is: a resident opts.out read with view().
      impl: `wasm-gather ${label}, resident, read with view()`, family: 'wasm-gather', mode: 'resident-view',
      setup(w, t) {
        const data = upload(t.data);
        const out = upload({ data: outputArray(w), shape: w.outShape });
        const call = caller(api, w, { out });
        return {
          run: () => call(data, t.indices).view(),
          heap: () => heapStats(),
          dispose() { data.dispose(); out.dispose(); },
        };
      },
    },
    {
      impl: `wasm-gather ${label}, in-wasm`, family: 'wasm-gather', mode: 'in-wasm',
      setup(w, t) {
        const data = upload(t.data), indices = upload(t.indices);
        const out = upload({ data: outputArray(w), shape: w.outShape });
        const call = caller(api, w, { out });
        return {
          run: () => call(data, indices),
          check: () => out.read(),
          heap: () => heapStats(),
          dispose() { data.dispose(); indices.dispose(); out.dispose(); },
        };
      },
    },
    {
      // torch's x.gather(1, idx.unsqueeze(-1).expand(-1, -1, D)) (top-k hidden states, beam
      // reordering) on W1's rows: x as [1, rows, D], W1's indices each repeated D times along the
      // last axis; the same bytes out as W1's take. Each call is W1's take in-wasm, then the
      // gather, each timed, so that the two see the same machine: the row's time is the pair's,
      // and paired() the median of each over every call the harness made (the report's ratio).
      impl: `wasm-gather ${label}, in-wasm, ${PAIRED}`, family: 'wasm-gather', mode: 'in-wasm-paired',
      applies: (w) => w.id === 'W1',
      setup(w, t) {
        const [rows, D] = t.data.shape, k = t.indices.data.length;
        const expanded = new Int32Array(k * D);
        for (let i = 0; i < k; i++) expanded.fill(t.indices.data[i], i * D, (i + 1) * D);
        const table = upload(t.data), ids = upload(t.indices), taken = upload({ data: outputArray(w), shape: w.outShape });
        const data = upload({ data: t.data.data, shape: [1, rows, D] }), indices = upload({ data: expanded, shape: [1, k, D] });
        const out = upload({ data: outputArray(w), shape: [1, k, D] }), opts = { out }, takeOpts = { ...w.opts, out: taken };
        const takeMs = [], gatherMs = [];
        return {
          run() {
            const t0 = performance.now();
            api.take(table, ids, takeOpts);
            const t1 = performance.now();
            api.gather(data, 1, indices, opts);
            takeMs.push(t1 - t0);
            gatherMs.push(performance.now() - t1);
          },
          check: () => out.read(),
          heap: () => heapStats(),
          paired: () => ({ pairedTakeMs: median(takeMs), pairedGatherMs: median(gatherMs), pairedSamples: takeMs.length }),
          dispose() { for (const x of [table, ids, taken, data, indices, out]) x.dispose(); },
        };
      },
    },
  ];
}

/** The groups to run: simd at 1 thread, simd-threaded at 1, 2 and (with 4 cores) 4 threads. */
export function wasmGatherGroups(cores) {
  const configs = [{ variant: 'simd', threads: 1 }, { variant: 'simd-threaded', threads: 1 }, { variant: 'simd-threaded', threads: 2 }];
  if (cores >= 4) configs.push({ variant: 'simd-threaded', threads: 4 });
  return configs.map((cfg) => ({
    name: `wasm-gather ${cfg.variant} ${cfg.threads}T`,
    config: cfg,
    begin: () => init(cfg),
    end: () => dispose(),
    runners: wasmGatherRunners(`${cfg.variant} ${cfg.threads}T`).map((r) => ({ ...r, ...cfg })),
  }));
}

// ---- gatherBlockQuantized (the Q workloads) ----
// The table, its scales and zero points are uploaded once per group and table (int4/uint4 tables
// and zero points with upload(t, { quantType })), kept until the group ends. Modes:
//   resident-new: indices from JS, a new output array per call (as onnxruntime-web returns its).
//   resident: the same, the output written into a reused JS array (opts.out).
//   resident-chained: indices from JS, the output a resident opts.out (stays in wasm).
//   in-wasm: indices and output resident too: the kernel and the call alone.
// Each runner also reports heapInUse before its first call (after its uploads) for the harness'
// per-call growth check, and residentBytes: what the table's uploads hold.

const outputOf = (w, t) => new (t.scales.data.constructor)(numel(w.outShape));

function residentTable(cache, w, t) {
  if (cache.has(w.table)) return cache.get(w.table);
  const before = heapStats().heapInUse;
  const quant = w.opts.quantType === 'uint8' ? undefined : { quantType: w.opts.quantType };
  const r = {
    data: quant ? upload(t.data, quant) : upload(t.data),
    scales: upload(t.scales),
    zeroPoints: t.zeroPoints ? (quant ? upload(t.zeroPoints, quant) : upload(t.zeroPoints)) : undefined,
  };
  r.bytes = heapStats().heapInUse - before;
  cache.set(w.table, r);
  return r;
}

function quantizedRunners(label, cache) {
  const opts = (w, r, extra) => (r.zeroPoints ? { ...w.opts, zeroPoints: r.zeroPoints, ...extra } : { ...w.opts, ...extra });
  const runner = (mode, name, make) => ({
    impl: `wasm-gather ${label}, ${name}`, family: 'wasm-gather', mode,
    setup(w, t) {
      const r = residentTable(cache, w, t);
      const inst = make(w, t, r);
      return { heap: () => heapStats(), residentBytes: r.bytes, ...inst };
    },
  });
  const gbq = api.gatherBlockQuantized;
  return [
    runner('resident-new', 'resident, new array per call', (w, t, r) => {
      const o = opts(w, r);
      return { run: () => gbq(r.data, t.indices, r.scales, o).data, dispose() {} };
    }),
    runner('resident', 'resident', (w, t, r) => {
      const o = opts(w, r, { out: outputOf(w, t) });
      return { run: () => gbq(r.data, t.indices, r.scales, o).data, dispose() {} };
    }),
    runner('resident-chained', 'resident, output kept in wasm', (w, t, r) => {
      const out = upload({ data: outputOf(w, t), shape: w.outShape });
      const o = opts(w, r, { out });
      return { run: () => gbq(r.data, t.indices, r.scales, o), check: () => out.read(), dispose: () => out.dispose() };
    }),
    runner('in-wasm', 'in-wasm', (w, t, r) => {
      const out = upload({ data: outputOf(w, t), shape: w.outShape });
      const indices = upload(t.indices);
      const o = opts(w, r, { out });
      return { run: () => gbq(r.data, indices, r.scales, o), check: () => out.read(), dispose() { out.dispose(); indices.dispose(); } };
    }),
  ];
}

/** The Q groups: simd at 1 thread, simd-threaded at 1, 2 and (with 4 cores) 4 threads. */
export function wasmGatherQuantizedGroups(cores) {
  const configs = [{ variant: 'simd', threads: 1 }, { variant: 'simd-threaded', threads: 1 }, { variant: 'simd-threaded', threads: 2 }];
  if (cores >= 4) configs.push({ variant: 'simd-threaded', threads: 4 });
  return configs.map((cfg) => {
    const cache = new Map();
    return {
      name: `wasm-gather ${cfg.variant} ${cfg.threads}T (Q)`,
      config: cfg,
      begin: () => init(cfg),
      end() { for (const r of cache.values()) for (const x of [r.data, r.scales, r.zeroPoints]) x?.dispose(); cache.clear(); dispose(); },
      runners: quantizedRunners(`${cfg.variant} ${cfg.threads}T`, cache).map((r) => ({ ...r, ...cfg })),
    };
  });
}
