// wasm-gather on the M workloads (common/mask-workloads.mjs), the bounds and the plain JS loops,
// for bench/mask-suite.mjs. Our runners run in a module the suite initializes (simd-threaded, at
// the thread count of its phase). Modes:
//   resident: every input upload()ed once, the output a resident opts.out made once (the
//             ResidentTensor an op writes when a framework chains ops): the kernel and the call;
//   in-place: (M3) maskedScatter into its resident x (torch's masked_scatter_);
//   one-shot: TypedArrays in, a new TypedArray out: every input copied in per call.
// The ops of each workload: M1 compress (the workload's op) and booleanMask, of the same rows;
// M2 nonZero of the flattened mask then take of those rows (the workload's pipeline, as
// flash-attention's unpad_input: its nonZero a new resident index tensor a call, disposed after
// the take), and the same rows in one call by compress (x as [32768, 768], the mask flattened) and
// by booleanMask (x [64, 512, 768], the mask [64, 512]); M3 maskedScatter.
// Peak wasm heap of a call: heapStats().lastCallBytes after the checked call (for M2's pipeline
// the larger of its two calls').
// Bounds: a memory.copy of the bytes the op must read and write (mask-workloads.mjs: boundBytes)
// on the library's own pool at the phase's thread count (parallel-copy.mjs: wg_pool_copy), and
// of half those bytes (a copy reads and writes each byte it copies: the same traffic as the op's),
// and the whole in one thread of a module of its own (memcopy-bound.mjs).
import { bytesOf } from '../../common/bytes.mjs';
import * as api from '../../js/index.mjs';
import { executePlan, executeScatterPlan } from '../../js/copy-plan.mjs';
import { getState } from '../../js/state.mjs';
import { BOUND1, FLOOR, ONE_SHOT_CALL, ONE_SHOT_FLOOR, OPS_OF, POOL, POOL_HALF, PRIMARY, ROWS, VALUES_WRITTEN, ours } from './mask-names.mjs';
import { memcopyBound } from './memcopy-bound.mjs';
import { parallelCopy, parallelCopyRows } from './parallel-copy.mjs';

export { PRIMARY } from './mask-names.mjs';

const { compress, booleanMask, nonZero, take, maskedScatter, heapStats, upload } = api;

// x as rows along the mask's elements and the mask flattened: M1 as it is, M2 [32768, 768], [32768].
function rowsView(t) {
  const mask = t.condition ?? t.mask, n = mask.data.length;
  return { x: { data: t.x.data, shape: [n, t.x.data.length / n] }, mask: { data: mask.data, shape: [n] } };
}

const zeros = (shape) => ({ data: new Float32Array(shape.reduce((a, b) => a * b, 1)), shape });

// A phase's resident inputs, uploaded once per array and shape and shared by its runners (M2's x
// is 96 MiB); the phase frees them (disposeCache) when it ends.
function resident(cache, tensor) {
  const key = tensor.shape.join(',');
  let byShape = cache.get(tensor.data);
  if (!byShape) cache.set(tensor.data, byShape = new Map());
  if (!byShape.has(key)) byShape.set(key, upload(tensor));
  return byShape.get(key);
}

/** Frees a phase's shared resident inputs. */
export function disposeCache(cache) {
  for (const byShape of cache.values()) for (const r of byShape.values()) r.dispose();
  cache.clear();
}

// An instance with its own resident output (dispose() frees it).
const withOut = (inst, out) => ({ hash: true, heap: heapStats, ...inst, dispose: () => out?.dispose() });

// The ops, by the label the rows carry (which workloads run each: mask-names.mjs OPS_OF):
// { resident(t, cache), oneShot(t), inPlace?(t, cache) }.
export const OPS = {
  compress: {
    resident(t, cache) {
      const v = rowsView(t);
      const x = resident(cache, v.x), m = resident(cache, v.mask), out = upload(zeros([t.count, v.x.shape[1]]));
      const opts = { axis: 0, out };
      return withOut({ run: () => compress(x, m, opts), check: () => out.read() }, out);
    },
    oneShot(t) {
      const v = rowsView(t), opts = { axis: 0 };
      return { run: () => compress(v.x, v.mask, opts).data, hash: true, heap: heapStats };
    },
  },
  booleanMask: {
    resident(t, cache) {
      const mask = t.condition ?? t.mask;
      const x = resident(cache, t.x), m = resident(cache, mask), out = upload(zeros([t.count, ...t.x.shape.slice(mask.shape.length)]));
      const opts = { axis: 0, out };
      return withOut({ run: () => booleanMask(x, m, opts), check: () => out.read() }, out);
    },
    oneShot(t) {
      const mask = t.condition ?? t.mask, opts = { axis: 0 };
      return { run: () => booleanMask(t.x, mask, opts).data, hash: true, heap: heapStats };
    },
  },
  'nonZero + take': {
    resident(t, cache) {
      const v = rowsView(t);
      const x = resident(cache, v.x), m = resident(cache, v.mask), out = upload(zeros([1, t.count, v.x.shape[1]])); // take by a [1, nnz] index
      const nzOpts = { resident: true }, takeOpts = { axis: 0, out };
      const run = () => {
        const i = nonZero(m, nzOpts);
        take(x, i, takeOpts);
        i.dispose();
      };
      const heap = pipelineHeap(() => nonZero(m, nzOpts), (i) => { take(x, i, takeOpts); i.dispose(); });
      return withOut({ run, check: () => out.read(), heap }, out);
    },
    oneShot(t) {
      const v = rowsView(t), takeOpts = { axis: 0 };
      const run = () => take(v.x, nonZero(v.mask), takeOpts).data;
      return { run, hash: true, heap: pipelineHeap(() => nonZero(v.mask), (i) => take(v.x, i, takeOpts)) };
    },
  },
  maskedScatter: {
    resident(t, cache) {
      const x = resident(cache, t.x), m = resident(cache, t.mask), s = resident(cache, t.source), out = upload(zeros(t.x.shape));
      const opts = { out };
      return withOut({ run: () => maskedScatter(x, m, s, opts), check: () => out.read() }, out);
    },
    inPlace(t, cache) {
      const x = upload(t.x), m = resident(cache, t.mask), s = resident(cache, t.source); // an x of its own: it is written
      const opts = { inPlace: true }; // the same values each call: the same x after every one
      return withOut({ run: () => maskedScatter(x, m, s, opts), check: () => x.read() }, x);
    },
    oneShot(t) {
      return { run: () => maskedScatter(t.x, t.mask, t.source).data, hash: true, heap: heapStats };
    },
  },
};

// heap() of a pipeline of two calls: the larger lastCallBytes of the two, from one run of them.
function pipelineHeap(first, second) {
  return () => {
    const i = first();
    const a = heapStats().lastCallBytes;
    second(i);
    const h = heapStats();
    return { ...h, lastCallBytes: Math.max(a, h.lastCallBytes) };
  };
}


/**
 * Our runners at `threads` (the module initialized so) on workload w: every op and mode, or `only`
 * [op, mode] pairs; cache: the phase's (disposeCache when it ends).
 */
export function ourRunners(w, threads, cache, only) {
  const out = [];
  for (const [op, d] of Object.entries(OPS)) {
    if (!OPS_OF[w.id].includes(op)) continue;
    for (const [mode, make] of [['resident', d.resident], ['in-place', d.inPlace], ['one-shot', d.oneShot]]) {
      if (!make || (only && !only.some(([o, m]) => o === op && m === mode))) continue;
      out.push({ impl: ours(threads, op, mode), family: 'wasm-gather', op, mode, variant: 'simd-threaded', threads, setup: (t) => make(t, cache) });
    }
  }
  return out;
}

// The workload's op, resident, with a mask of no true element: M1's compress, what the call and
// its passes over the condition cost, nothing copied; M3's maskedScatter, all of it but the
// scattered values (x copied to the output, the mask read). Unchecked (another output).
const FLOOR_CALLS = {
  M1(t) {
    const x = upload(t.x), m = upload({ data: new Uint8Array(t.condition.data.length), shape: t.condition.shape });
    const out = upload(zeros([1, t.x.shape[1]])), opts = { axis: 0, out };
    return { run: () => compress(x, m, opts), tensors: [x, m, out] };
  },
  M3(t) {
    const x = upload(t.x), m = upload({ data: new Uint8Array(t.mask.data.length), shape: t.mask.shape }), s = upload(t.source);
    const out = upload(zeros(t.x.shape)), opts = { out };
    return { run: () => maskedScatter(x, m, s, opts), tensors: [x, m, s, out] };
  },
};

/** The floor runner of workload w at `threads`: [] where it has none, else [runner]. */
export function floorRunners(threads, w) {
  const make = FLOOR_CALLS[w.id];
  if (!make) return [];
  return [{
    impl: FLOOR(threads, w.id), family: 'wasm-gather', op: PRIMARY[w.id], mode: 'floor', variant: 'simd-threaded', threads,
    setup(t) {
      const { run, tensors } = make(t);
      return { run, unchecked: true, heap: heapStats, dispose() { for (const x of tensors) x.dispose(); } };
    },
  }];
}

// The workload's op one-shot, its one-shot runner itself, on a mask of no true element: what one
// call through JS costs with nothing to move (its options, plan, the mask copied in and counted;
// M2's two calls; M3's x copied to the output, which any one-shot call makes).
function noTrueElement(t) {
  const key = t.condition ? 'condition' : 'mask', mask = t[key];
  return { ...t, [key]: { data: new Uint8Array(mask.data.length), shape: mask.shape } };
}

/** The runner of the one-shot call on a mask of no true element of workload w at `threads`. */
export function oneShotCallRunners(threads, w) {
  return [{
    impl: ONE_SHOT_CALL(threads, w.id), family: 'wasm-gather', op: PRIMARY[w.id], mode: 'floor', variant: 'simd-threaded', threads,
    setup: (t) => ({ ...OPS[PRIMARY[w.id]].oneShot(noTrueElement(t)), unchecked: true, hash: false }),
  }];
}

// M3's values written where the mask is true, in JS, the positions known: a copy of x made once,
// then each call writes the source's values into it by the JS path's own loop (as integers: NaN
// payloads kept), the least a one-shot call must do in JS once x is copied, whatever finds the
// positions.
export const valuesWrittenRunner = {
  impl: VALUES_WRITTEN, family: 'bound', mode: 'one-shot', applies: (w) => w.op === 'maskedScatter',
  setup(t) {
    const m = t.mask.data, at = new Uint32Array(t.count);
    for (let i = 0, k = 0; i < m.length; i++) if (m[i]) at[k++] = i;
    const out = bytesOf(new Float32Array(t.x.data)), s = bytesOf(t.source.data);
    const run = () => {
      executeScatterPlan(at, at.length, s, out, 4, 4);
      return out;
    };
    return { run, unchecked: true, dispose() {} };
  },
};

// The kept rows read as a gather reads them (M1, M2): the same bytes as the bound's, the rows
// copied one memory.copy each in the mask's order into a small block that stays in cache
// (wg_pool_copy_rows, src/runner.c, on the same pool), then the rest (the mask and the output's
// bytes) in order (parallel-copy.mjs). What copying rows one by one costs, measured without a
// kernel of the library's.
export function rowsBoundRunner(threads) {
  return {
    impl: ROWS(threads), family: 'bound', mode: 'bound', threads, applies: (w) => w.op !== 'maskedScatter',
    setup(t, c) {
      const mask = (t.condition ?? t.mask).data, n = mask.length, rowBytes = t.x.data.byteLength / n;
      const ids = new Int32Array(t.count);
      for (let i = 0, k = 0; i < n; i++) if (mask[i]) ids[k++] = i;
      return { ...parallelCopyRows(getState(), [{ rows: n, rowBytes }], ids, c.boundBytes - t.count * rowBytes), unchecked: true };
    },
  };
}

// What any one-shot call must do, in JS, whatever finds the positions: M1, M2 make the output
// array and copy the kept rows into it (the positions known), M3 makes the output as a copy of x,
// before any value of the source is written; by the fastest means the library knows (its JS
// path's copy, x's TypedArray constructor), so that the floor is not a slower copy than its own.
export const oneShotFloorRunner = {
  impl: ONE_SHOT_FLOOR, family: 'bound', mode: 'one-shot',
  setup(t, c) {
    if (c.w.op === 'maskedScatter') return { run: () => new Float32Array(t.x.data), unchecked: true, dispose() {} };
    const v = rowsView(t), m = v.mask.data, bb = v.x.shape[1] * 4, src = bytesOf(v.x.data);
    const at = new Uint32Array(t.count); // byte offsets of the kept rows
    for (let i = 0, k = 0; i < m.length; i++) if (m[i]) at[k++] = i * bb;
    const run = () => {
      const out = new Float32Array(at.length * bb / 4);
      executePlan(at, at.length, src, bytesOf(out), bb, 4, true);
      return out;
    };
    return { run, unchecked: true, dispose() {} };
  },
};

/** The bounds at `threads` (on the module's pool: initialized so), the one-thread module's with withModule. */
export function boundRunners(threads, { half = true, withModule = true } = {}) {
  const pool = (name, f) => ({ impl: name, family: 'bound', mode: 'bound', threads,
    setup: (t, c) => ({ ...parallelCopy(getState(), Math.round(f(c.boundBytes))), unchecked: true }) });
  const out = [pool(POOL(threads), (b) => b)];
  if (half) out.push(pool(POOL_HALF(threads), (b) => b / 2));
  if (withModule) out.push({ impl: BOUND1, family: 'bound', mode: 'bound', threads: 1, setup: (t, c) => ({ run: memcopyBound(c.boundBytes), unchecked: true, dispose() {} }) });
  return out;
}

// ---- plain JS ----

// The rows of x (rows along the mask) where the mask is true, into a new array: counted first, so
// the output is made once at its size; a row copied by TypedArray.set of a subarray (memcpy).
function jsRows(x, mask) {
  const m = mask.data, n = m.length, D = x.data.length / n, src = x.data;
  let count = 0;
  for (let i = 0; i < n; i++) if (m[i] !== 0) count++;
  const out = new Float32Array(count * D);
  for (let i = 0, k = 0; i < n; i++) {
    if (m[i] !== 0) {
      out.set(src.subarray(i * D, i * D + D), k);
      k += D;
    }
  }
  return out;
}

// torch's masked_scatter: x copied, then the source's values in order at the true positions.
function jsMaskedScatter(x, mask, source) {
  const m = mask.data, s = source.data, out = x.data.slice();
  for (let i = 0, k = 0; i < m.length; i++) if (m[i] !== 0) out[i] = s[k++];
  return out;
}

/** The plain JS loop of each workload: one-shot (arrays in, a new array out). */
export const jsRunner = {
  impl: 'plain JS loop', family: 'js', mode: 'one-shot',
  setup(t, c) {
    if (c.w.op === 'maskedScatter') return { run: () => jsMaskedScatter(t.x, t.mask, t.source), dispose() {} };
    const v = rowsView(t);
    return { run: () => jsRows(v.x, v.mask), dispose() {} };
  },
};
