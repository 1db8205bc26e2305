// wasm-gather on G1 (common/grad-workloads.mjs: E1's gradient for its table): one group per build
// and thread count (the module initialized once per group), the gradient table (128 MiB) resident
// and zeroed at each runner's setup, then added into in place by every call
// (embeddingBagBackward(gradOutput, indices, { mode: 'sum', out, inPlace: true })). Modes:
//   resident: per call the output's gradient and the ids go in from JS (as a training step has
//             them), the sum added into the resident table;
//   in-wasm:  those resident too: the kernel and the call, what the bound is set beside and the
//             thread ratio taken of.
// Beside them in each threaded group: the same gradient as torch composes it (take of the
// gradient's rows by bag, then indexReduce 'add' of them into the table, in place: torch's
// embedding_bag dense backward is index_select then index_add_), a peer through this library; the
// kernel with its rows in cache (ids modulo 64: what the arithmetic and the sort cost); and the
// bounds, measured in the same module after the group's other runners: a memory.copy of the bag
// rows' bytes (read and written once) on the pool (parallel-copy.mjs), and the rows read alone in
// the order the kernel visits them (sorted by destination, wg_pool_copy_rows). Every checked
// output is hashed (hash: true), so the suite can show the same bits at every build and thread
// count; the peak wasm heap of a call is heapStats().lastCallBytes.
import * as api from '../../js/index.mjs';
import { getState } from '../../js/state.mjs';
import { parallelCopy, parallelCopyRows } from './parallel-copy.mjs';

const { dispose, heapStats, init, upload } = api;

// The group's gradient table, made once and zeroed for each runner (its first call is checked).
function gradTable(cache, t) {
  if (!cache.table) cache.table = upload({ data: new Float32Array(t.numWeights * t.gradOutput.shape[1]), shape: [t.numWeights, t.gradOutput.shape[1]] });
  cache.table.view().fill(0);
  return cache.table;
}

const RUNNERS = {
  resident: (label, cache) => ({
    impl: `wasm-gather ${label}, resident`, mode: 'resident',
    setup(w, t) {
      const out = gradTable(cache, t), opts = { mode: w.mode, out, inPlace: true };
      return { run: () => api.embeddingBagBackward(t.gradOutput, t.indices, opts), check: () => out.read(), hash: true, heap: heapStats, dispose() {} };
    },
  }),
  'in-wasm': (label, cache) => ({
    impl: `wasm-gather ${label}, in-wasm`, mode: 'in-wasm',
    setup(w, t) {
      const out = gradTable(cache, t), opts = { mode: w.mode, out, inPlace: true };
      const dy = upload(t.gradOutput), ids = upload(t.indices);
      return { run: () => api.embeddingBagBackward(dy, ids, opts), check: () => out.read(), hash: true, heap: heapStats,
        dispose() { dy.dispose(); ids.dispose(); } };
    },
  }),
};

// torch's composition through this library: take(gradOutput, the entries' bags) into a resident
// [entries, D] block, then indexReduce of it into the table at the ids, 'add', in place.
const takeIndexReduceRunner = (label, cache) => ({
  impl: `wasm-gather ${label}: take + indexReduce 'add' (torch's composition), resident`, family: 'peer', mode: 'resident',
  setup(w, t) {
    const out = gradTable(cache, t), n = t.indices.data.length, D = t.gradOutput.shape[1];
    const rows = upload({ data: new Float32Array(n * D), shape: [n, D] });
    const ids = { data: t.indices.data, shape: [n] };
    const run = () => {
      api.take(t.gradOutput, t.segmentIds, { axis: 0, out: rows });
      api.indexReduce(out, 0, ids, rows, { reduce: 'add', inPlace: true });
    };
    return { run, check: () => out.read(), heap: heapStats, dispose() { rows.dispose(); } };
  },
});

// The kernel with its rows in cache: the ids taken modulo 64, in-wasm. Unchecked (another gradient).
const cachedRunner = (label, cache) => ({
  impl: `wasm-gather ${label}, rows in cache (in-wasm)`, mode: 'cached',
  setup(w, t) {
    const indices = { data: Int32Array.from(t.indices.data, (x) => x % 64), shape: t.indices.shape };
    return { ...RUNNERS['in-wasm'](label, cache).setup(w, { ...t, indices }), unchecked: true };
  },
});

const boundRunner = (threads) => ({
  impl: `memory.copy of the bag rows' bytes on the pool, ${threads}T (G bound)`, family: 'bound', mode: 'bound',
  setup: (w) => ({ ...parallelCopy(getState(), w.boundBytes), unchecked: true }),
});

// The bag rows read in the order the kernel visits them (sorted by row: it sorts the entries by
// destination), copied into a block that stays in cache; nothing written back. Unchecked.
const sortedRowsRunner = (threads) => ({
  impl: `memory.copy of the bag rows read in sorted order on the pool, ${threads}T (reading alone)`, family: 'bound', mode: 'bound',
  setup(w, t) {
    const D = t.gradOutput.shape[1];
    const ids = Int32Array.from(t.indices.data).sort();
    return { ...parallelCopyRows(getState(), [{ rows: t.numWeights, rowBytes: D * 4 }], ids, 0), unchecked: true };
  },
});

// Which modes each build and thread count runs: the 1-thread threaded build for the thread ratio.
const CONFIGS = [
  { variant: 'simd', threads: 1, modes: ['resident'] },
  { variant: 'simd-threaded', threads: 1, modes: ['resident', 'in-wasm'] },
  { variant: 'simd-threaded', threads: 2, modes: ['resident', 'in-wasm'] },
];

/** The G1 groups: simd 1T, simd-threaded 1T and 2T, and 4T with 4 cores. */
export function gradGroups(cores) {
  const configs = [...CONFIGS];
  if (cores >= 4) configs.push({ ...CONFIGS[2], threads: 4 });
  return configs.map(({ modes, ...cfg }) => {
    const cache = {};
    const label = `${cfg.variant} ${cfg.threads}T`;
    const applies = (w) => w.id === 'G1';
    const runners = modes.map((m) => ({ family: 'wasm-gather', applies, ...RUNNERS[m](label, cache), ...cfg }));
    if (cfg.variant === 'simd-threaded') {
      runners.push({ ...takeIndexReduceRunner(label, cache), applies, ...cfg },
        { family: 'wasm-gather', applies, ...cachedRunner(label, cache), ...cfg },
        { applies, ...boundRunner(cfg.threads), ...cfg }, { applies, ...sortedRowsRunner(cfg.threads), ...cfg });
    }
    return {
      name: `wasm-gather ${label} (G)`,
      begin: () => init(cfg),
      end() {
        cache.table?.dispose();
        cache.table = undefined;
        dispose();
      },
      runners,
    };
  });
}

/** The plain JS loop of G1: each entry's gradient row added into a Float32Array table, in place. */
export function jsGradLoop(w, t) {
  const [B, L] = t.indices.shape, D = t.gradOutput.shape[1];
  const table = new Float32Array(t.numWeights * D), ids = t.indices.data, g = t.gradOutput.data;
  const run = () => {
    for (let b = 0; b < B; b++) {
      const gb = b * D;
      for (let k = 0; k < L; k++) {
        const at = ids[b * L + k] * D;
        for (let d = 0; d < D; d++) table[at + d] += g[gb + d];
      }
    }
  };
  return { run, check: () => table, dispose() {} };
}
