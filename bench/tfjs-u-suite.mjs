// The U workloads of the T suite (common/tfjs-workloads.mjs: a gradient step, tf.scatterND and the
// KV-cache write through TensorFlow.js) with tfjs's stock kernels and with wasm-gather/tfjs, on
// 'cpu' and 'wasm' (bench/peers/tfjs-adapter-u.mjs), each output checked against the expected one
// before it is timed; stock tfjs-cpu's gradient step fitted over table sizes
// (bench/peers/tfjs-grad-fit.mjs); and the bounds of U2 and U3 (below): a correct
// tf.tensorScatterUpdate returns a new tensor, so it copies the 16 MiB cache, which stock tfjs-cpu
// skips by writing into its input.
// Called by bench/run.mjs (runGroup: its measuring loop), which writes the rows into results.json.
import { U_WORKLOADS } from '../common/tfjs-workloads.mjs';

// Table rows the stock cpu gradient step is timed at (each row a pass over the 8 MiB of dy: ~0.3 s).
const FIT_ROWS = [2, 4, 8];
const QUICK_FIT_ROWS = [1, 2];

// The bounds of U2 and U3, per backend: the least a correct result takes (variant 'result': its
// new tensor's bytes written once: U2's zeros, U3's copy of the cache; U3's on wasm is measured in
// tfjs's own heap, bench/peers/tfjs-adapter-u.mjs). (The report also takes rows of variant
// 'adapter path': a cost wasm-gather/tfjs's path adds, measured alone.)
const bound = (impl, backend, variant, id, make) => ({
  impl, family: 'bound', mode: 'bound', backend, variant, applies: (w) => w.id === id,
  setup: (w, t) => ({ run: make(t), unchecked: true, dispose() {} }),
});
const boundGroup = {
  name: 'bounds (U)', begin() {}, end() {},
  runners: [
    bound('new Float32Array of the output\'s length (a new tensor\'s zeros on cpu)', 'cpu', 'result', 'U2',
      (t) => () => new Float32Array(t.expected.length)),
    bound('fill(0) of the output\'s bytes (zeros written once)', 'wasm', 'result', 'U2',
      (t) => { const a = new Float32Array(t.expected.length); return () => a.fill(0); }),
    bound('new Float32Array filled from the input (a new tensor\'s copy on cpu)', 'cpu', 'result', 'U3',
      (t) => () => new Float32Array(t.data.data)),
  ],
};

/** Runs the U workloads: { results (rows of suite T), uWorkloads }. */
export async function runTfjsUSuite({ quick, runGroup, log }) {
  log('generating the U workloads and expected outputs');
  const cases = U_WORKLOADS.map((w) => {
    const t = w.make();
    return { suite: 'T', w, t, expected: t.expected, bytes: t.expected.byteLength };
  });
  const results = [];
  const { tfjsUGroups } = await import('./peers/tfjs-adapter-u.mjs');
  for (const g of [boundGroup, ...tfjsUGroups()]) await runGroup(g, cases, results);
  const u1 = cases.find((c) => c.w.id === 'U1');
  try {
    const { gradientStepFit } = await import('./peers/tfjs-grad-fit.mjs');
    const row = { suite: 'T', ...await gradientStepFit(u1.w, u1.t, quick ? QUICK_FIT_ROWS : FIT_ROWS, { samples: quick ? 1 : 2 }) };
    log(`${row.impl.padEnd(52)} U1   ${row.medianMs.toFixed(1).padStart(10)} ms (fitted)`);
    results.push(row);
  } catch (e) {
    log(`U1 stock cpu fit: ${e.message}`);
    results.push({ suite: 'T', impl: 'tfjs cpu, stock kernels (fitted)', family: 'tfjs-adapter', variant: 'stock', backend: 'cpu', workload: 'U1',
      fitted: true, error: e.message.split('\n')[0] });
  }
  return { results, uWorkloads: cases.map((c) => ({ id: c.w.id, title: c.w.title, outBytes: c.expected.byteLength })) };
}
