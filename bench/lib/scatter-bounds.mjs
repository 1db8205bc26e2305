// The bounds of the S workloads, measured beside them: TypedArray.set of the bytes a call of
// each mode cannot avoid moving (contiguous copies, so a lower bound of a scatter's scattered
// writes), and the plain JS loops (common/scatter-js-loops.mjs) in place and on a copy. The
// call-overhead bound (one scatter call through the binding) is a wasm-gather runner
// (scatter-runners.mjs: mode 'call').
import { jsScatter } from '../../common/scatter-js-loops.mjs';

const u8 = (a) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
const fmt = (b) => `${(b / 2 ** 20).toFixed(2)} MiB`;

// Each: the copies of mode `bounds` (its name), from the data (d), index (x) and updates (u)
// bytes, into buffers allocated at setup (the stand-ins of wasm memory).
const COPIES = {
  // the index and updates carried into wasm memory, then the updates written to their rows
  'in-place': (d, x, u) => {
    const stage = new Uint8Array(x.length + u.length), sink = new Uint8Array(u.length);
    return { bytes: x.length + 2 * u.length, run() { stage.set(x); stage.set(u, x.length); sink.set(u); } };
  },
  // the updates written to their rows
  'in-wasm': (d, x, u) => {
    const sink = new Uint8Array(u.length);
    return { bytes: u.length, run() { sink.set(u); } };
  },
  // the data copied into wasm memory and out again, into a new array as a one-shot call returns
  // one (allocated and filled by the TypedArray constructor: js/call.mjs, deliver), the index and
  // updates carried in and the updates written
  'one-shot': (d, x, u) => {
    const mem = new Uint8Array(d.length);
    const stage = new Uint8Array(x.length + u.length), sink = new Uint8Array(u.length);
    return {
      bytes: 2 * d.length + x.length + 2 * u.length,
      run() { mem.set(d); stage.set(x); stage.set(u, x.length); sink.set(u); return new Uint8Array(mem); },
    };
  },
  // in JS: one copy of the data and the updates written
  'one-shot in JS': (d, x, u) => {
    const out = new Uint8Array(d.length), sink = new Uint8Array(u.length);
    return { bytes: d.length + u.length, run() { out.set(d); sink.set(u); } };
  },
  // the same into a new array, as a one-shot call returns one: allocated and filled (by the
  // TypedArray constructor, the fastest way here: js/call.mjs, deliver)
  'one-shot, new array': (d, x, u) => {
    const sink = new Uint8Array(u.length);
    return { bytes: d.length + u.length, run() { sink.set(u); return new Uint8Array(d); } };
  },
};

const copyRunner = (mode) => ({
  impl: `copy bound (TypedArray.set), ${mode}`, family: 'bound', mode, bounds: mode.replace(/ in JS|, new array/, ''),
  applies: (w) => w.form === w.forms[0],
  setup(w, t) {
    const { indices, updates } = w.form.pick(t);
    const { bytes, run } = COPIES[mode](u8(t.data.data), u8(indices.data), u8(updates.data));
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
