// wasm-gather on the E workloads (common/bag-workloads.mjs): one group per build and thread count
// (the module initialized once per group), the tables uploaded once per group and table and kept
// until it ends (E1 and E2 share theirs). Modes:
//   resident: the table resident (upload()); per call the indices (and weights or segment ids)
//             go in from JS and a new output array comes out, as the peers return theirs.
//   in-wasm:  indices, weights, segment ids and output resident too: the kernel and the call,
//             what the bound (below) is set beside and the thread ratio is taken of.
//   one-shot: the table passed as a TypedArray, copied into wasm memory on every call.
// And in each threaded group, the same rows gathered by take (takeRunner), and the bound: a
// memory.copy of the bound's bytes (the bag rows read once and the output written once:
// bag-workloads.mjs, boundBytes) split over the same pool (parallel-copy.mjs), measured in the
// same module, after the group's other runners. Every mode's output is checked against the reference by bench/run.mjs and hashed (hash:
// true), so the suite can show the same bits at every build and thread count.
import * as api from '../../js/index.mjs';
import { getState } from '../../js/state.mjs';
import { parallelCopy, parallelCopyRows } from './parallel-copy.mjs';

const { dispose, init, upload } = api;

// The call of a workload: `table` (and `scales`) resident or arrays, `per` its per-call tensors,
// `out` an opts.out or undefined; the options object made once.
function callOf(w, { table, scales }, per, out) {
  const opts = { ...w.opts, ...(out ? { out } : {}) };
  if (w.op === 'segmentReduce') {
    opts.segmentIds = per.segmentIds;
    return () => api.segmentReduce(table, opts);
  }
  if (scales) opts.scales = scales;
  if (per.weights) opts.perSampleWeights = per.weights;
  return () => api.embeddingBag(table, per.indices, opts);
}

// The per-call tensors of a workload's tensors t: { indices, weights } or { segmentIds }.
const perCall = (t) => (t.segmentIds ? { segmentIds: t.segmentIds } : { indices: t.indices, weights: t.weights });

function residentTable(cache, w, t) {
  if (!cache.has(w.table)) cache.set(w.table, { table: upload(t.table), scales: t.scales && upload(t.scales) });
  return cache.get(w.table);
}

const RUNNERS = {
  resident: (label, cache) => ({
    impl: `wasm-gather ${label}, resident`, mode: 'resident',
    setup(w, t) {
      const call = callOf(w, residentTable(cache, w, t), perCall(t));
      return { run: () => call().data, hash: true, dispose() {} };
    },
  }),
  'in-wasm': (label, cache) => ({
    impl: `wasm-gather ${label}, in-wasm`, mode: 'in-wasm',
    setup(w, t) {
      const per = Object.fromEntries(Object.entries(perCall(t)).filter(([, v]) => v).map(([k, v]) => [k, upload(v)]));
      const out = upload({ data: new Float32Array(w.outShape.reduce((a, b) => a * b)), shape: w.outShape });
      const call = callOf(w, residentTable(cache, w, t), per, out);
      return { run: call, check: () => out.read(), hash: true, dispose() { for (const x of [...Object.values(per), out]) x.dispose(); } };
    },
  }),
  'one-shot': (label) => ({
    impl: `wasm-gather ${label}, one-shot`, mode: 'one-shot',
    setup(w, t) {
      const call = callOf(w, t, perCall(t));
      return { run: () => call().data, hash: true, dispose() {} };
    },
  }),
};

// The bag rows gathered by the library's own gather (take, or gatherBlockQuantized for a
// quantized table) into a resident output, in-wasm: what reading the same rows in the same
// random order costs (with 64 MiB written besides), beside which the bag kernel's reading can be
// judged. Unchecked: its output is the rows, not the reduction.
const takeRunner = (label, cache) => ({
  impl: `wasm-gather ${label}, take of the bag rows (in-wasm)`, mode: 'take',
  applies: (w) => w.op === 'embeddingBag',
  setup(w, t) {
    const { table, scales } = residentTable(cache, w, t);
    const n = t.indices.data.length, dim = w.outShape[1];
    const ids = upload({ data: t.indices.data, shape: [n] });
    const out = upload({ data: new Float32Array(n * dim), shape: [n, dim] });
    const { quantType, bits, blockSize } = w.opts;
    const run = scales ? () => api.gatherBlockQuantized(table, ids, scales, { quantType, bits, blockSize, out })
      : () => api.take(table, ids, { axis: 0, out });
    return { run, unchecked: true, dispose() { ids.dispose(); out.dispose(); } };
  },
});

const boundRunner = (threads) => ({
  impl: `memory.copy on the pool, ${threads}T (E bound)`, family: 'bound', mode: 'bound',
  setup: (w) => ({ ...parallelCopy(getState(), w.boundBytes), unchecked: true }),
});

// The bag's own work with its rows in cache: the same call on indices taken modulo 64 (64 rows of
// the table), in-wasm. What the arithmetic costs, the reading of rows at random aside.
// Unchecked: its output is another reduction.
const cachedRunner = (label, cache) => ({
  impl: `wasm-gather ${label}, rows in cache (in-wasm)`, mode: 'cached',
  applies: (w) => w.op === 'embeddingBag',
  setup(w, t) {
    const indices = { data: Int32Array.from(t.indices.data, (x) => x % 64), shape: t.indices.shape };
    return { ...RUNNERS['in-wasm'](label, cache).setup(w, { ...t, indices }), unchecked: true };
  },
});

// The bound with the bag rows read in the bags' order: the same bytes as boundRunner's, the rows
// (a quantized table's codes, then its scales) copied row by row in the order of the indices, the
// rest (the output, E2's weights) in order. What reading rows at random costs, measured without a
// kernel of the library's.
const rowsBoundRunner = (threads) => ({
  impl: `memory.copy of the bag rows in the bags' order on the pool, ${threads}T (E bound)`, family: 'bound', mode: 'bound',
  applies: (w) => w.op === 'embeddingBag',
  setup(w, t) {
    const rows = t.table.shape[0];
    const sets = t.scales ? [{ rows, rowBytes: t.table.data.byteLength / rows }, { rows, rowBytes: t.scales.data.byteLength / rows }]
      : [{ rows, rowBytes: t.table.data.byteLength / rows }];
    const ids = Int32Array.from(t.indices.data);
    const rowsBytes = sets.reduce((a, x) => a + x.rowBytes, 0) * ids.length;
    return { ...parallelCopyRows(getState(), sets, ids, w.boundBytes - rowsBytes), unchecked: true };
  },
});

// Which modes each build and thread count runs: the 1-thread threaded build for the thread ratio.
const CONFIGS = [
  { variant: 'simd', threads: 1, modes: ['resident', 'one-shot'] },
  { variant: 'simd-threaded', threads: 1, modes: ['resident', 'in-wasm'] },
  { variant: 'simd-threaded', threads: 2, modes: ['resident', 'in-wasm', 'one-shot'] },
];

/** The E groups: simd 1T, simd-threaded 1T and 2T, and 4T with 4 cores. */
export function bagGroups(cores) {
  const configs = [...CONFIGS];
  if (cores >= 4) configs.push({ ...CONFIGS[2], threads: 4 });
  return configs.map(({ modes, ...cfg }) => {
    const cache = new Map();
    const label = `${cfg.variant} ${cfg.threads}T`;
    const runners = modes.map((m) => ({ family: 'wasm-gather', ...RUNNERS[m](label, cache), ...cfg }));
    if (cfg.variant === 'simd-threaded') {
      runners.push({ family: 'wasm-gather', ...takeRunner(label, cache), ...cfg }, { family: 'wasm-gather', ...cachedRunner(label, cache), ...cfg },
        { ...boundRunner(cfg.threads), ...cfg },
        { ...rowsBoundRunner(cfg.threads), ...cfg });
    }
    return {
      name: `wasm-gather ${label} (E)`,
      begin: () => init(cfg),
      end() {
        for (const r of cache.values()) for (const x of [r.table, r.scales]) x?.dispose();
        cache.clear();
        dispose();
      },
      runners,
    };
  });
}
