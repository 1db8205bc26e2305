// The C suite's cases and its measuring loop (what a call costs through JS), shared by Node's
// bench/call-suite.mjs, its profiling child bench/lib/call-profile.mjs and the browser page
// bench/browser/bench.mjs: no Node module here.
// Each case is one call of the library on small tensors, where a call's time is the binding's
// (checks, options, the call record, the wasm call, copies, result objects), not the bytes moved:
// W5's take (common/workloads.mjs), S2a's decode write (common/scatter-workloads.mjs, both
// forms) and S5's scatterND, with more or less of it resident. Each is timed as the plain call
// and, where the case has it, prepared (prepare(op, ...args).run()), against the unit of every
// ratio, the plain JS W5 loop (common/js-loops.mjs's take: a new array each call).
// The timing: batches of a few thousand calls of one row, each batch beside a batch of the JS loop
// (A, B, A, B...: the JS loop's first in even rounds, the row's in odd ones), every row in turn
// (in a shuffled order each round), over many rounds; a row's time is the median of its batches
// per call, its ratio that over the median of all the JS loop's batches of the run.
import { bytesOf, sameBytes } from '../../common/bytes.mjs';
import { jsLoops } from '../../common/js-loops.mjs';
import { caller } from '../../common/op-caller.mjs';
import { refOps } from '../../common/reference.mjs';
import { S_WORKLOADS, makeScatterTensors, scatterReference } from '../../common/scatter-workloads.mjs';
import { WORKLOADS, makeTensors, xorshift32 } from '../../common/workloads.mjs';

/** The build the C suite runs on: the single-threaded one (no pool to hand work to). */
export const C_INIT = { variant: 'simd' };

/** The targets, as the ratio to the JS loop a case must stay at or under (plain or prepared). */
export const C_TARGETS = {
  resident: { max: 0.25, what: 'every tensor resident (in place, or out a resident tensor)' },
  decode: { max: 0.4, what: 'the decode write, the row a TypedArray' },
  'take-out': { max: 0.4, what: 'take W5, resident table, out a reused TypedArray' },
  'one-shot': { max: 1.0, what: 'one-shot: never slower than the plain JS loop' },
};

// Fixtures: W5's table and ids with their reference output, S2a's cache, row and indices in both
// forms with the cache as the reference leaves it, S5's tensors with its reference.
function fixtures() {
  const w5 = WORKLOADS.find((w) => w.id === 'W5');
  const t5 = makeTensors(w5);
  const s2 = S_WORKLOADS.find((w) => w.id === 'S2a');
  const t2 = makeScatterTensors(s2);
  const s5 = S_WORKLOADS.find((w) => w.id === 'S5');
  const t5s = makeScatterTensors(s5);
  return {
    w5, t5, w5Expected: caller(refOps, w5)(t5.data, t5.indices).data,
    t2, s2Expected: scatterReference(s2, t2), rowAt: t2.items.rows[0] * t2.items.rowElems, rowElems: t2.items.rowElems,
    t5s, s5Expected: scatterReference(s5, t5s),
  };
}

// The cases. make(api, fx) -> { fn, args (as the op takes them), result(out) (the bytes to check
// after one call, out being what it returned), reset() (undoes a call's effect, so that the check
// sees this form's write), dispose() }. target: which of C_TARGETS it counts for; forms: the
// forms timed (the target is met when either is).
export const C_CASES = [
  {
    id: 'C1', target: 'decode', forms: ['plain', 'prepared'], workload: 'S2a',
    title: 'decode write, tensorScatter in place: cache [1, 4096, 1024] resident, row [1, 1, 1024] a TypedArray tensor, writeIndices [1] (2047)',
    make: (api, fx) => decodeWrite(api, fx, api.tensorScatter, [fx.t2.update, fx.t2.writeIndices]),
  },
  {
    id: 'C2', target: 'decode', forms: ['plain', 'prepared'], workload: 'S2a-nd',
    title: 'decode write, scatterND in place: the same cache resident, row [1, 1024] a TypedArray tensor, indices [[0, 2047]]',
    make: (api, fx) => decodeWrite(api, fx, api.scatterND, [fx.t2.ndIndices, fx.t2.ndUpdates]),
  },
  {
    id: 'C3', target: 'resident', forms: ['plain', 'prepared'], workload: 'S2a-nd',
    title: 'scatterND in place, everything resident: the cache, indices [[0, 2047]] and row [1, 1024]',
    make(api, fx) {
      const cache = api.upload(fx.t2.data), idx = api.upload(fx.t2.ndIndices), row = api.upload(fx.t2.ndUpdates);
      return { fn: api.scatterND, args: [cache, idx, row, { inPlace: true }],
        result: () => cache.read(), expected: fx.s2Expected, reset: () => zeroRow(cache, fx),
        dispose() { cache.dispose(); idx.dispose(); row.dispose(); } };
    },
  },
  {
    id: 'C4', target: 'one-shot', forms: ['plain', 'prepared', 'bound'], workload: 'W5',
    title: 'take W5 one-shot: table [1000, 64] and ids [16] TypedArray tensors, a new array out',
    bound: 'the JS loop, its ids checked, returning { data, shape }: the least a checked call that makes a new array does',
    make(api, fx) {
      return { fn: api.take, args: [fx.t5.data, fx.t5.indices, { axis: 0 }], result: (out) => out.data, expected: fx.w5Expected,
        bound: [checkedTake, [fx.t5.data, fx.t5.indices]], reset() {}, dispose() {} };
    },
  },
  {
    id: 'C5', target: 'take-out', forms: ['plain', 'prepared'], workload: 'W5',
    title: 'take W5, resident table, ids a TypedArray tensor, out a reused Float32Array',
    make(api, fx) {
      const table = api.upload(fx.t5.data), out = new Float32Array(fx.w5Expected.length);
      return { fn: api.take, args: [table, fx.t5.indices, { axis: 0, out }], result: () => out, expected: fx.w5Expected,
        reset: () => out.fill(0), dispose: () => table.dispose() };
    },
  },
  {
    id: 'C6', target: 'resident', forms: ['plain', 'prepared'], workload: 'W5',
    title: 'take W5, everything resident: table, ids and out (a ResidentTensor)',
    make(api, fx) {
      const table = api.upload(fx.t5.data), ids = api.upload(fx.t5.indices);
      const out = api.upload({ data: new Float32Array(fx.w5Expected.length), shape: fx.w5.outShape });
      return { fn: api.take, args: [table, ids, { axis: 0, out }], result: () => out.read(), expected: fx.w5Expected,
        reset: () => out.view().fill(0), dispose() { table.dispose(); ids.dispose(); out.dispose(); } };
    },
  },
  {
    id: 'C7', target: 'one-shot', forms: ['plain', 'prepared'], workload: 'S5',
    title: 'scatterND S5 one-shot: 8 values into [64], data, indices [8, 1] and updates TypedArray tensors, a new array out',
    make(api, fx) {
      return { fn: api.scatterND, args: [fx.t5s.data, fx.t5s.indices, fx.t5s.updates, {}], result: (out) => out.data,
        expected: fx.s5Expected, reset() {}, dispose() {} };
    },
  },
];

// C4's bound: the JS loop itself (common/js-loops.mjs take: a new array, a row set at a time),
// with what no call of the library may skip: every id checked, and the result a tensor. (W5's ids
// are not negative; the loop would not count a negative one from the end.)
function checkedTake(data, indices) {
  const rows = data.shape[0], ids = indices.data;
  for (let i = 0; i < ids.length; i++) {
    if (!(ids[i] >= 0 && ids[i] < rows)) throw new RangeError(`take: index ${ids[i]} out of range`);
  }
  return { data: jsLoops.take(data, indices, { axis: 0 }), shape: [ids.length, ...data.shape.slice(1)] };
}

// S2a's decode write as a case: fn(cache, ...rest, { inPlace: true }) on a resident copy of the
// cache, the row given as a TypedArray tensor.
function decodeWrite(api, fx, fn, rest) {
  const cache = api.upload(fx.t2.data);
  return { fn, args: [cache, ...rest, { inPlace: true }], result: () => cache.read(), expected: fx.s2Expected,
    reset: () => zeroRow(cache, fx), dispose: () => cache.dispose() };
}

// The cache's row the decode writes, zeroed through a view (valid until memory grows: nothing
// runs between).
function zeroRow(cache, fx) {
  cache.view().fill(0, fx.rowAt, fx.rowAt + fx.rowElems);
}

let sink; // every batch's last result, so that nothing is dead code

// A batch loop of its own per row (new Function: its own feedback, so each row's call site stays
// monomorphic, as in a caller's hot loop), calling f(a0, ..., ak) or p.run() n times.
function batchOf(f, args) {
  const names = args.map((_, i) => `a${i}`);
  const make = new Function('f', ...names, `return function batch(n) { let x; for (let i = 0; i < n; i++) x = f(${names.join(', ')}); return x; };`);
  return make(f, ...args);
}
function preparedBatchOf(p) {
  return new Function('p', 'return function batch(n) { let x; for (let i = 0; i < n; i++) x = p.run(); return x; };')(p);
}

/** The JS loop of the unit: take axis 0 of W5 by its ids, a new array each call. */
export function jsRow(fx = fixtures()) {
  const { t5, w5 } = fx;
  const first = jsLoops.take(t5.data, t5.indices, w5.opts);
  if (!sameBytes(bytesOf(first), bytesOf(fx.w5Expected))) throw new Error('C: the JS loop differs from the reference');
  return { id: 'js', impl: 'plain JS loop (common/js-loops.mjs take, W5, a new array each call)', batch: batchOf(jsLoops.take, [t5.data, t5.indices, w5.opts]) };
}

/**
 * Sets up the rows of the cases (ids: those to set up; all by default) on api (the library,
 * initialized): [{ id, form, impl, target, batch(n), dispose() }], each checked against its
 * reference once, after a reset, before anything is timed. Throws if a check fails.
 */
export function setUpRows(api, { ids, fx = fixtures(), forms } = {}) {
  const rows = [];
  const disposers = [];
  try {
    for (const c of C_CASES.filter((x) => !ids || ids.includes(x.id))) {
      const inst = c.make(api, fx);
      disposers.push(() => inst.dispose());
      for (const form of c.forms.filter((f) => !forms || forms.includes(f))) {
        let batch, p;
        if (form === 'prepared') {
          p = api.prepare(inst.fn, ...inst.args);
          disposers.push(() => p.dispose());
          batch = preparedBatchOf(p);
        } else if (form === 'bound') {
          batch = batchOf(...inst.bound);
        } else {
          batch = batchOf(inst.fn, inst.args);
        }
        inst.reset();
        const out = batch(1);
        const got = inst.result(out);
        if (!sameBytes(bytesOf(got), bytesOf(inst.expected))) throw new Error(`C: ${c.id} ${form}: output differs from the reference`);
        rows.push({ id: c.id, form, target: c.target, workload: c.workload, impl: `${c.id} ${form}`, batch });
      }
    }
  } catch (e) {
    for (const d of disposers.reverse()) d();
    throw e;
  }
  return { rows, fx, dispose() { for (const d of disposers.reverse()) d(); } };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** Calls of a batch that last about ms, from a short trial, within [min, max]. */
function callsFor(batch, ms, min, max) {
  let n = 256, dt = 0;
  while (dt < 2 && n < 1 << 20) {
    const t0 = performance.now();
    batch(n);
    dt = performance.now() - t0;
    if (dt < 2) n *= 4;
  }
  return Math.max(min, Math.min(max, Math.round((ms * n) / dt / 100) * 100));
}

/**
 * Times the rows against the JS loop js, interleaved: per round, for each row (in an order shuffled
 * each round), a batch of the JS loop and a batch of the row (in even rounds the JS loop's first,
 * in odd ones the row's). Returns
 * { js: { medianMs, minMs, batches, calls }, rows: [{ ...row fields, medianMs, minMs, batches,
 * calls, ratio, pairedRatio }] }: medians per call in ms; ratio: the row's median over the JS
 * loop's; pairedRatio: the median of each batch's ratio to the JS batch right before it.
 * Options: rounds, batchMs (the time a batch aims at), minCalls / maxCalls (per batch),
 * warmUpMs (calls of everything, interleaved, before the first timed round).
 */
export function measureInterleaved(js, rows, { rounds = 31, batchMs = 3, minCalls = 2000, maxCalls = 20000, warmUpMs = 300 } = {}) {
  const all = [js, ...rows];
  // warm up: every batch in turn (each tiers up, and the JIT sees them as they will run)
  const start = performance.now();
  while (performance.now() - start < warmUpMs) for (const r of all) r.batch(200);
  const calls = new Map(all.map((r) => [r, callsFor(r.batch, batchMs, minCalls, maxCalls)]));
  const time = (r) => {
    const n = calls.get(r);
    const t0 = performance.now();
    sink = r.batch(n);
    return (performance.now() - t0) / n;
  };
  const jsTimes = [], times = new Map(rows.map((r) => [r, []])), paired = new Map(rows.map((r) => [r, []]));
  // the rows in a new order each round (seeded): a batch pays for what the batch before it left
  // to collect, so no row may always follow the same one
  const next = xorshift32(7);
  const order = rows.map((_, i) => i);
  for (let round = 0; round < rounds; round++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = next() % (i + 1);
      [order[i], order[j]] = [order[j], order[i]];
    }
    for (let k = 0; k < rows.length; k++) {
      const r = rows[order[k]];
      // the JS batch first in even rounds, the row's first in odd ones: what one batch leaves
      // behind (garbage to collect) falls on either side alike
      let a, b;
      if (round % 2 === 0) { a = time(js); b = time(r); } else { b = time(r); a = time(js); }
      jsTimes.push(a);
      times.get(r).push(b);
      paired.get(r).push(b / a);
    }
  }
  const jsMs = median(jsTimes);
  return {
    js: { id: js.id, impl: js.impl, medianMs: jsMs, minMs: Math.min(...jsTimes), batches: jsTimes.length, calls: calls.get(js) },
    rows: rows.map((r) => {
      const ts = times.get(r);
      const { batch, ...fields } = r;
      return { ...fields, medianMs: median(ts), minMs: Math.min(...ts), batches: ts.length, calls: calls.get(r),
        ratio: median(ts) / jsMs, pairedRatio: median(paired.get(r)) };
    }),
  };
}

/**
 * What a new Float32Array of W5's output (1024 elements, 4 KiB) costs here, the JS loop's one
 * allocation per call: the median per array of batches of `calls` (µs).
 */
export function allocationProbe({ batches = 15, calls = 2000 } = {}) {
  const make = new Function('n', 'let x; for (let i = 0; i < n; i++) x = new Float32Array(1024); return x;');
  make(200);
  const ts = [];
  for (let b = 0; b < batches; b++) {
    const t0 = performance.now();
    sink = make(calls);
    ts.push(((performance.now() - t0) * 1000) / calls);
  }
  return median(ts);
}

export { fixtures as callFixtures };
