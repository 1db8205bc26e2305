// wasm-gather as the benchmark runs it: one group per build and thread count (the module is
// initialized once per group), each with a one-shot and a resident runner.
//   one-shot: TypedArrays in, a new TypedArray out; everything is copied per call.
//   resident: the data uploaded once; per call the indices go in and the output is written into
//             the caller's buffer (opts.out), one copy out of wasm memory.
//   resident-new: the same, but a new output array per call, as the peers return theirs.
//   resident-chained: the same, but the output stays in wasm memory (a resident opts.out), as
//             when a framework chains ops; nothing is copied back to JS.
//   in-wasm:  data, indices and output all resident (opts.out is a resident tensor): the kernel
//             and the call alone, as the native driver measures it; how ops chain in a framework.
import * as api from '../../js/index.mjs';
import { caller } from '../../common/op-caller.mjs';
import { numel } from '../../common/shape.mjs';

const { dispose, heapStats, init, upload } = api;
const outputArray = (w) => new Float32Array(numel(w.outShape));

function runners(label) {
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
    runners: runners(`${cfg.variant} ${cfg.threads}T`).map((r) => ({ ...r, ...cfg })),
  }));
}
