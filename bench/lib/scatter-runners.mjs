// wasm-gather on the S workloads (common/scatter-workloads.mjs): one group per build and thread
// count (the module is initialized once per group). Modes:
//   in-place: the data uploaded once (a resident tensor, as a KV cache or a gradient lives);
//             per call the index and updates go in from JS and the data is updated where it is
//             (opts.inPlace); nothing comes out.
//   in-wasm:  index and updates resident too: the kernel and the call alone.
//   one-shot: TypedArrays in, a new TypedArray out; everything copied per call.
//   call:     (call-overhead workloads) scatterND of one element in place into a resident [1]:
//             what any scatter call costs through the binding, the bound of S2a and S5.
// Every runner's first call is checked against the reference by bench/run.mjs, and its output
// hashed (hash: true), so that the suite can show the 2-thread results equal the 1-thread ones.
import * as api from '../../js/index.mjs';
import { scatterCaller } from '../../common/scatter-workloads.mjs';

const { dispose, heapStats, init, upload } = api;

const RUNNERS = {
  'in-place': (label) => ({
    impl: `wasm-gather ${label}, in place`, mode: 'in-place',
    setup(w, t) {
      const { indices, updates } = w.form.pick(t);
      const data = upload(t.data);
      const call = scatterCaller(api, w.form, { inPlace: true });
      return { run: () => call(data, indices, updates), check: () => data.read(), hash: true, heap: heapStats, dispose: () => data.dispose() };
    },
  }),
  'in-wasm': (label) => ({
    impl: `wasm-gather ${label}, in-wasm`, mode: 'in-wasm',
    setup(w, t) {
      const p = w.form.pick(t);
      const data = upload(t.data), indices = upload(p.indices), updates = upload(p.updates);
      const call = scatterCaller(api, w.form, { inPlace: true });
      return {
        run: () => call(data, indices, updates), check: () => data.read(), hash: true, heap: heapStats,
        dispose() { data.dispose(); indices.dispose(); updates.dispose(); },
      };
    },
  }),
  'one-shot': (label) => ({
    impl: `wasm-gather ${label}, one-shot`, mode: 'one-shot',
    setup(w, t) {
      const { indices, updates } = w.form.pick(t);
      const call = scatterCaller(api, w.form);
      return { run: () => call(t.data, indices, updates).data, hash: true, heap: heapStats, dispose() {} };
    },
  }),
  call: (label) => ({
    impl: `wasm-gather ${label}, one element in place (a call's cost)`, mode: 'call',
    applies: (w) => w.callBound && w.form === w.forms[0],
    setup() {
      const data = upload({ data: new Float32Array(1), shape: [1] });
      const index = { data: new Int32Array(1), shape: [1, 1] }, value = { data: new Float32Array([1]), shape: [1] };
      const opts = { inPlace: true };
      return { run: () => api.scatterND(data, index, value, opts), unchecked: true, heap: heapStats, dispose: () => data.dispose() };
    },
  }),
};

// Which modes each build and thread count runs: the 1-thread threaded build only for the
// thread ratio (in-wasm, and in place).
const CONFIGS = [
  { variant: 'simd', threads: 1, modes: ['in-place', 'in-wasm', 'one-shot', 'call'] },
  { variant: 'simd-threaded', threads: 1, modes: ['in-place', 'in-wasm'] },
  { variant: 'simd-threaded', threads: 2, modes: ['in-place', 'in-wasm', 'one-shot', 'call'] },
];

/** The S groups: simd 1T, simd-threaded 1T and 2T, and 4T with 4 cores. */
export function scatterGroups(cores) {
  const configs = [...CONFIGS];
  if (cores >= 4) configs.push({ ...CONFIGS[2], threads: 4 });
  return configs.map(({ modes, ...cfg }) => ({
    name: `wasm-gather ${cfg.variant} ${cfg.threads}T (S)`,
    begin: () => init(cfg),
    end: () => dispose(),
    runners: modes.map((m) => ({ family: 'wasm-gather', ...RUNNERS[m](`${cfg.variant} ${cfg.threads}T`), ...cfg })),
  }));
}
