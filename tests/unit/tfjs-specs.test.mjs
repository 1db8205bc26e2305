// TensorFlow.js's own specs for the ops wasm-gather/tfjs serves (the compiled dist/ops/*_test.js
// of @tensorflow/tfjs-core, run with jasmine through its jasmine_util's setTestEnvs) against its
// cpu backend and its wasm backend, with wasm-gather/tfjs's kernels registered: every spec runs,
// every spec passes but those listed in EXPECTED_TO_DIFFER (each failing for its stated reason),
// and the adapter's kernels must really have served them, none handed to tfjs's own.
//
// The specs are run, bundled with tfjs, and their results checked by tests/lib/tfjs-specs.mjs.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { kernelStats, registerKernels, unregisterKernels } from '../../js/tfjs.mjs';
import { checkSpecResults, runTfjsSpecs, specName } from '../lib/tfjs-specs.mjs';

// Each spec file (upstream: tfjs-core/src/ops/<name>.ts), the name of its describeWithFlags, and
// how many specs it holds in tfjs-core 4.22 (a file missing from the bundle would pass vacuously).
const SPECS = [
  { file: 'ops/gather_test.js', suite: 'gather', specs: 50 },
  { file: 'ops/gather_nd_test.js', suite: 'gatherND', specs: 11 },
  { file: 'ops/scatter_nd_test.js', suite: 'scatterND', specs: 14 },
  { file: 'ops/tensor_scatter_update_test.js', suite: 'tensorScatterUpdate', specs: 13 },
  { file: 'ops/unsorted_segment_sum_test.js', suite: 'unsortedSegmentSum', specs: 12 },
  { file: 'ops/sparse/sparse_segment_sum_test.js', suite: 'sparseSegmentSum', specs: 19 },
  { file: 'ops/sparse/sparse_segment_mean_test.js', suite: 'sparseSegmentMean', specs: 20 },
];
const BACKENDS = ['cpu', 'wasm'];
const KERNELS = ['GatherV2', 'GatherNd', 'ScatterNd', 'TensorScatterUpdate', 'UnsortedSegmentSum', 'SparseSegmentSum', 'SparseSegmentMean'];

// Specs that assert one of stock tfjs's bugs, which the adapter fixes (docs/api.md#tensorflowjs),
// so they must fail, and only with the message given: the spec's full name without its
// environment ('<suite> <spec>') -> { backends, reason, message: RegExp each failure matches }.
// None of tfjs-core 4.22's specs for these ops asserts one: it stays empty unless one appears.
// Nothing is excluded either: tfjs-backend-wasm's own test setup (tfjs-backend-wasm/src/setup_test.ts)
// leaves out gather's gradient specs, for want of an UnsortedSegmentSum kernel there, which the
// adapter brings.
const EXPECTED_TO_DIFFER = {};

let tf;
let results = []; // jasmine's specDone results

before(async () => {
  // No spec filter: every spec runs.
  ({ tf, results } = await runTfjsSpecs({
    files: SPECS.map((s) => s.file),
    backends: BACKENDS,
    register: async (t) => {
      const done = await registerKernels(t, { backends: BACKENDS });
      assert.equal(done.length, BACKENDS.length * KERNELS.length, 'every kernel on both backends');
    },
  }));
});

after(() => {
  if (tf) unregisterKernels(tf);
});

test('the expected-to-differ list names real specs, each with a reason', () => {
  for (const [name, { backends, reason, message }] of Object.entries(EXPECTED_TO_DIFFER)) {
    assert.ok(results.some((r) => specName(r) === name), `${name}: no such spec`);
    assert.ok(backends.every((b) => BACKENDS.includes(b)) && reason && message instanceof RegExp, name);
  }
});

for (const backend of BACKENDS) {
  test(`tfjs-core's gather, gatherND, scatterND, tensorScatterUpdate, unsortedSegmentSum, sparseSegmentSum and sparseSegmentMean specs on ${backend} with wasm-gather's kernels`, (t) => {
    // None skipped, exactly the listed specs fail, each for its reason, every file's specs ran.
    const { failed, counts } = checkSpecResults(results, backend, SPECS, EXPECTED_TO_DIFFER);
    t.diagnostic(`${backend}: ${counts.join(', ')}; ${failed.length} expected to differ`);
    // The adapter served them: every kernel was called on this backend, and handed nothing on.
    const { calls, fallbacks, inPlace } = kernelStats();
    const handedOn = Object.fromEntries(Object.entries(fallbacks).filter(([k]) => k.startsWith(`${backend}/`)));
    t.diagnostic(`${backend}: kernel calls ${KERNELS.map((k) => `${k} ${calls[`${backend}/${k}`] ?? 0}`).join(', ')}; ` +
      `fallbacks ${JSON.stringify(handedOn)}`);
    for (const k of KERNELS) assert.ok(calls[`${backend}/${k}`] > 0, `${k} served by wasm-gather on ${backend}`);
    assert.deepEqual(handedOn, {}, "no call handed to tfjs's own kernels");
    if (backend === 'wasm') { // in tfjs's own memory (js/guest.mjs), not through copies
      t.diagnostic(`wasm: ${inPlace} calls ran in tfjs's memory`);
      assert.ok(inPlace > 0, 'the wasm calls ran in place');
    }
  });
}
