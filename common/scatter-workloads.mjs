// The S workloads (the scatters: indexReduce, tensorScatter, scatterND, scatter), generated from
// a fixed seed with W's generator: float32 data and updates in [0, 1), int32 indices. Each has
// one or two forms (S2 writes its cache with tensorScatter and with scatterND), each form an op
// of the library with its index and updates tensors, and every workload has a reference
// (scatterReference): the updates applied to each destination in index order, which is the
// result every implementation here promises (wasm-gather's at any thread count).
import { numel } from './shape.mjs';
import { randomIndices, xorshift32 } from './workloads.mjs';

const random = (next, shape) => {
  const a = new Float32Array(numel(shape));
  for (let i = 0; i < a.length; i++) a[i] = (next() >>> 8) * 2 ** -24;
  return { data: a, shape };
};
const zeros = (shape) => ({ data: new Float32Array(numel(shape)), shape });

// A KV cache [1, 4096, 1024]: `rows` new positions written from `at` (S2).
const CACHE = [1, 4096, 1024];
function kvWrite(next, rows, at) {
  const C = CACHE[2];
  const update = random(next, [1, rows, C]);
  const pairs = new Int32Array(rows * 2); // scatterND's (batch, position) tuples
  for (let i = 0; i < rows; i++) pairs[2 * i + 1] = at + i;
  return {
    data: random(next, CACHE),
    writeIndices: { data: new Int32Array([at]), shape: [1] },
    update,
    ndIndices: { data: pairs, shape: [rows, 2] },
    ndUpdates: { data: update.data, shape: [rows, C] },
    // reference: cache row at + s from update row s
    items: { rows: Int32Array.from({ length: rows }, (_, s) => at + s), src: Int32Array.from({ length: rows }, (_, s) => s * C), rowElems: C },
  };
}

const kvForms = [
  { op: 'tensorScatter', opts: {}, pick: (t) => ({ indices: t.writeIndices, updates: t.update }) },
  { op: 'scatterND', opts: {}, pick: (t) => ({ indices: t.ndIndices, updates: t.ndUpdates }) },
];

/** k distinct values of [0, n) for each of `rows` rows, in random order (a partial Fisher-Yates each). */
function distinctPerRow(next, rows, k, n) {
  const a = new Int32Array(rows * k), p = new Int32Array(n);
  for (let r = 0; r < rows; r++) {
    for (let i = 0; i < n; i++) p[i] = i;
    for (let i = 0; i < k; i++) {
      const j = i + (next() % (n - i));
      const x = p[i]; p[i] = p[j]; p[j] = x;
      a[r * k + i] = p[i];
    }
  }
  return { data: a, shape: [rows, k] };
}

// Each workload: make(next) -> { data, ...its forms' tensors, items } where items says, per
// update item in index order, its destination row of the flat data (rows of rowElems elements)
// and the first element of its source in the updates; forms: how the library computes it
// ({ op, axis?, opts, pick(t) -> { indices, updates } }). reduce: how an item combines with
// its destination. callBound: a call-overhead workload (its bound is the cost of one call).
export const S_WORKLOADS = [
  {
    id: 'S1', seed: 21, title: 'embedding gradient: indexReduce add of [4096, 512] rows into [32000, 512] zeros, random rows',
    reduce: 'add', dataShape: [32000, 512],
    forms: [{ op: 'indexReduce', axis: 0, opts: { reduce: 'add' }, pick: (t) => ({ indices: t.indices, updates: t.updates }) }],
    make(next) {
      const indices = randomIndices(next, [4096], [32000]);
      return { data: zeros([32000, 512]), indices, updates: random(next, [4096, 512]),
        items: { rows: indices.data, src: Int32Array.from({ length: 4096 }, (_, k) => k * 512), rowElems: 512 } };
    },
  },
  {
    id: 'S2a', seed: 22, title: 'KV-cache write, decode: 1 row of 1024 into a [1, 4096, 1024] cache at position 2047',
    reduce: 'none', dataShape: CACHE, forms: kvForms, callBound: true, make: (next) => kvWrite(next, 1, 2047),
  },
  {
    id: 'S2b', seed: 23, title: 'KV-cache write, prefill: 512 rows of 1024 into a [1, 4096, 1024] cache from position 0',
    reduce: 'none', dataShape: CACHE, forms: kvForms, make: (next) => kvWrite(next, 512, 0),
  },
  {
    id: 'S3', seed: 24, title: 'histogram: scatter add of 1M values into 65536 zero bins, random bins',
    reduce: 'add', dataShape: [65536],
    forms: [{ op: 'scatter', axis: 0, opts: { reduce: 'add' }, pick: (t) => ({ indices: t.indices, updates: t.updates }) }],
    make(next) {
      const M = 1 << 20;
      const indices = randomIndices(next, [M], [65536]);
      return { data: zeros([65536]), indices, updates: random(next, [M]),
        items: { rows: indices.data, src: Int32Array.from({ length: M }, (_, q) => q), rowElems: 1 } };
    },
  },
  {
    id: 'S4', seed: 25, title: 'scatter along dim 1: [2048, 2048] by [2048, 256] (256 distinct columns a row)',
    reduce: 'none', dataShape: [2048, 2048],
    forms: [{ op: 'scatter', axis: 1, opts: {}, pick: (t) => ({ indices: t.indices, updates: t.updates }) }],
    make(next) {
      const data = random(next, [2048, 2048]);
      const indices = distinctPerRow(next, 2048, 256, 2048);
      const rows = Int32Array.from(indices.data, (c, q) => (q >> 8) * 2048 + c);
      return { data, indices, updates: random(next, [2048, 256]), items: { rows, src: Int32Array.from({ length: rows.length }, (_, q) => q), rowElems: 1 } };
    },
  },
  {
    id: 'S5', seed: 26, title: 'call overhead: scatterND of 8 values into [64]',
    reduce: 'none', dataShape: [64], callBound: true,
    forms: [{ op: 'scatterND', opts: {}, pick: (t) => ({ indices: t.indices, updates: t.updates }) }],
    make(next) {
      const data = random(next, [64]);
      const cols = distinctPerRow(next, 1, 8, 64).data;
      return { data, indices: { data: cols, shape: [8, 1] }, updates: random(next, [8]),
        items: { rows: cols, src: Int32Array.from({ length: 8 }, (_, q) => q), rowElems: 1 } };
    },
  },
];

/** A workload's tensors (seeded by its number). */
export const makeScatterTensors = (w) => w.make(xorshift32(w.seed));

/**
 * The reference output: for each destination row, its items in index order, combined one at a
 * time in float32 (Math.fround: an add rounded once, as float32 arithmetic does), starting from
 * the data. Written per destination, unlike the in-place loops it checks.
 */
export function scatterReference(w, t) {
  const out = Float32Array.from(t.data.data);
  const { rows, src, rowElems } = t.items;
  const upd = (w.forms[0].pick(t)).updates.data;
  const byRow = new Map();
  for (let q = 0; q < rows.length; q++) {
    const list = byRow.get(rows[q]);
    if (list) list.push(q); else byRow.set(rows[q], [q]);
  }
  for (const [r, items] of byRow) {
    for (let e = 0; e < rowElems; e++) {
      let v = out[r * rowElems + e];
      for (const q of items) v = w.reduce === 'add' ? Math.fround(v + upd[src[q] + e]) : upd[src[q] + e];
      out[r * rowElems + e] = v;
    }
  }
  return out;
}

/** Bytes of a form's index and updates tensors (what a call carries besides the data). */
export function formBytes(form, t) {
  const { indices, updates } = form.pick(t);
  return { indexBytes: indices.data.byteLength, updatesBytes: updates.data.byteLength };
}

/**
 * (data, indices, updates) => the library's call of a form, with `extra` options (inPlace, out):
 * the arguments and options object built once, as common/op-caller.mjs does for the gathers.
 */
export function scatterCaller(api, form, extra = {}) {
  const opts = { ...form.opts, ...extra };
  const fn = api[form.op];
  switch (form.op) {
    case 'scatter': case 'indexReduce': return (d, i, u) => fn(d, form.axis, i, u, opts);
    case 'scatterND': return (d, i, u) => fn(d, i, u, opts);
    case 'tensorScatter': return (d, i, u) => fn(d, u, i, opts);
    default: throw new TypeError(`unknown scatter ${form.op}`);
  }
}
