// The bounds of the S workloads, measured beside them: TypedArray.set of the bytes a call of
// each mode cannot avoid moving (contiguous copies, so a lower bound of a scatter's scattered
// writes), and the plain JS loops (common/scatter-js-loops.mjs) in place and on a copy. The
// call-overhead bound (one scatter call through the binding) is a wasm-gather runner
// (scatter-runners.mjs: mode 'call').
import { jsScatter } from '../../common/scatter-js-loops.mjs';

const u8 = (a) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
const fmt = (b) => `${(b / 2 ** 20).toFixed(2)} MiB`;

// The bytes each mode's copies below move, from the byte counts of the data (d), index (x) and
// updates (u); also the P suite's count (bench/thread-suite.mjs).
export const COPY_BYTES = {
  'in-place': (d, x, u) => x + 2 * u,
  'in-wasm': (d, x, u) => u,
  'one-shot': (d, x, u) => 2 * d + x + 2 * u,
  'one-shot in JS': (d, x, u) => d + u,
  'one-shot, new array': (d, x, u) => d + u,
};

// Each: the copies of mode `bounds` (its name), from the data (d), index (x) and updates (u)
// bytes, into buffers allocated at setup (the stand-ins of wasm memory).
const COPIES = {
  // the index and updates carried into wasm memory, then the updates written to their rows
  'in-place': (d, x, u) => {
    const stage = new Uint8Array(x.length + u.length), sink = new Uint8Array(u.length);
    return { run() { stage.set(x); stage.set(u, x.length); sink.set(u); } };
  },
  // the updates written to their rows
  'in-wasm': (d, x, u) => {
    const sink = new Uint8Array(u.length);
    return { run() { sink.set(u); } };
  },
  // the data copied into wasm memory and out again, into a new array as a one-shot call returns
  // one (allocated and filled by the TypedArray constructor: js/call.mjs, deliver), the index and
  // updates carried in and the updates written
  'one-shot': (d, x, u) => {
    const mem = new Uint8Array(d.length);
    const stage = new Uint8Array(x.length + u.length), sink = new Uint8Array(u.length);
    return {
      run() { mem.set(d); stage.set(x); stage.set(u, x.length); sink.set(u); return new Uint8Array(mem); },
    };
  },
  // in JS: one copy of the data and the updates written
  'one-shot in JS': (d, x, u) => {
    const out = new Uint8Array(d.length), sink = new Uint8Array(u.length);
    return { run() { out.set(d); sink.set(u); } };
  },
  // the same into a new array, as a one-shot call returns one: allocated and filled (by the
  // TypedArray constructor, the fastest way here: js/call.mjs, deliver)
  'one-shot, new array': (d, x, u) => {
    const sink = new Uint8Array(u.length);
    return { run() { sink.set(u); return new Uint8Array(d); } };
  },
};

const copyRunner = (mode) => ({
  impl: `copy bound (TypedArray.set), ${mode}`, family: 'bound', mode, bounds: mode.replace(/ in JS|, new array/, ''),
  applies: (w) => w.form === w.forms[0],
  setup(w, t) {
    const { indices, updates } = w.form.pick(t);
    const [d, x, u] = [t.data.data, indices.data, updates.data].map(u8);
    const { run } = COPIES[mode](d, x, u);
    const bytes = COPY_BYTES[mode](d.length, x.length, u.length);
    return { run, unchecked: true, note: `${fmt(bytes)} moved`, dispose() {} };
  },
});

export const scatterBaselineGroup = {
  name: 'baselines (S)', begin() {}, end() {},
  runners: [
    ...Object.keys(COPIES).map(copyRunner),
    {
      impl: 'plain JS loop, in place', family: 'js', mode: 'in-place',
      setup(w, t) { // on its own copy of the data: the workload's tensors stay as made
        const own = { ...t, data: { data: t.data.data.slice(), shape: t.data.shape } };
        return { run: jsScatter(w.form, own, false), dispose() {} };
      },
    },
    { impl: 'plain JS loop, new array', family: 'js', mode: 'one-shot', setup: (w, t) => ({ run: jsScatter(w.form, t, true), dispose() {} }) },
  ],
};
