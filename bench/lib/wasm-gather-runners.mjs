// wasm-gather as the benchmark runs it: one group per build and thread count (the module is
// initialized once per group), each with a one-shot and a resident runner.
//   one-shot: TypedArrays in, a new TypedArray out; everything is copied per call.
//   resident: the data uploaded once; per call the indices go in and the output is written into
//             the caller's buffer (opts.out), one copy out of wasm memory.
//   in-wasm:  data, indices and output all resident (opts.out is a resident tensor): the kernel
//             and the call alone, as the native driver measures it; how ops chain in a framework.
import { dispose, gather, gatherND, heapStats, init, take, upload } from '../../js/index.mjs';

const ops = { take, gatherND, gather };

function call(w, data, indices, extra) {
  if (w.op === 'gather') return gather(data, w.opts.dim, indices, extra);
  return ops[w.op](data, indices, { ...w.opts, ...extra });
}

function runners(label) {
  return [
    {
      impl: `wasm-gather ${label}, one-shot`, family: 'wasm-gather', mode: 'one-shot',
      setup(w, t) {
        return { run: () => call(w, t.data, t.indices).data, heap: () => heapStats(), dispose() {} };
      },
    },
    {
      impl: `wasm-gather ${label}, resident`, family: 'wasm-gather', mode: 'resident',
      setup(w, t) {
        const data = upload(t.data);
        const out = new Float32Array(w.outShape.reduce((a, b) => a * b, 1));
        return { run: () => call(w, data, t.indices, { out }).data, heap: () => heapStats(), dispose: () => data.dispose() };
      },
    },
    {
      impl: `wasm-gather ${label}, in-wasm`, family: 'wasm-gather', mode: 'in-wasm',
      setup(w, t) {
        const data = upload(t.data), indices = upload(t.indices);
        const out = upload({ data: new Float32Array(w.outShape.reduce((a, b) => a * b, 1)), shape: w.outShape });
        return {
          run: () => { call(w, data, indices, { out }); return out; },
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
