// TensorFlow.js's own specs for the ops wasm-gather/tfjs serves (the compiled dist/ops/*_test.js
// of @tensorflow/tfjs-core, run with jasmine through its jasmine_util's setTestEnvs) against its
// cpu backend and its wasm backend, with wasm-gather/tfjs's kernels registered: every spec runs,
// every spec passes but those listed in EXPECTED_TO_DIFFER (each failing for its stated reason),
// and the adapter's kernels must really have served them.
//
// The specs are ES modules written for a bundler (extensionless imports, require of
// jasmine-core), so they are bundled here with esbuild, together with tfjs-core and both
// backends: one copy of tfjs-core for all of them.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { kernelStats, registerKernels, unregisterKernels } from '../../js/tfjs.mjs';

const root = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
const require = createRequire(import.meta.url);
const coreDist = dirname(require.resolve('@tensorflow/tfjs-core/package.json')) + '/dist';
const wasmDir = `${dirname(require.resolve('@tensorflow/tfjs-backend-wasm'))}/`;
// Each spec file (upstream: tfjs-core/src/ops/<name>.ts), the name of its describeWithFlags, and
// how many specs it holds in tfjs-core 4.22 (a file missing from the bundle would pass vacuously).
const SPECS = [
  { file: 'ops/gather_test.js', suite: 'gather', specs: 50 },
  { file: 'ops/gather_nd_test.js', suite: 'gatherND', specs: 11 },
  { file: 'ops/scatter_nd_test.js', suite: 'scatterND', specs: 14 },
  { file: 'ops/tensor_scatter_update_test.js', suite: 'tensorScatterUpdate', specs: 13 },
  { file: 'ops/unsorted_segment_sum_test.js', suite: 'unsortedSegmentSum', specs: 12 },
];
const BACKENDS = ['cpu', 'wasm'];
const KERNELS = ['GatherV2', 'GatherNd', 'ScatterNd', 'TensorScatterUpdate', 'UnsortedSegmentSum'];

// Specs that assert one of stock tfjs's bugs, which the adapter fixes (docs/api.md#tensorflowjs),
// so they must fail, and only with the message given: the spec's full name without its
// environment ('<suite> <spec>') -> { backends, reason, message: RegExp each failure matches }.
// None of tfjs-core 4.22's specs for these ops asserts one: it stays empty unless one appears.
// (The only exclusion tfjs-backend-wasm's own test setup made here, gather's gradient specs for
// want of an UnsortedSegmentSum kernel (tfjs-backend-wasm/src/setup_test.ts), is gone: the
// adapter brings that kernel, and they run and pass.)
const EXPECTED_TO_DIFFER = {};

let dir;
let bundle;
const results = []; // jasmine's specDone results
const specName = (r) => r.fullName.replace(/ (cpu|wasm) \{[^}]*\}/, ''); // '<suite> <spec>'
const backendOf = (r) => / (cpu|wasm) \{/.exec(r.fullName)?.[1];

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wg-tfjs-specs-'));
  // First in the bundle: the test environments, set before the specs' describeWithFlags runs.
  writeFileSync(join(dir, 'envs.js'), `import { setTestEnvs } from ${JSON.stringify(`${coreDist}/jasmine_util.js`)};
setTestEnvs(${JSON.stringify(BACKENDS.map((b) => ({ name: b, backendName: b, isDataSync: true })))});\n`);
  writeFileSync(join(dir, 'entry.js'), [
    "import './envs.js';",
    // What tfjs-core's own test setup imports: the gradients and the chained ops (x.gather(...)).
    `import ${JSON.stringify(`${coreDist}/register_all_gradients.js`)};`,
    `import ${JSON.stringify(`${coreDist}/public/chained_ops/register_all_chained_ops.js`)};`,
    "import '@tensorflow/tfjs-backend-cpu';",
    "export { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';",
    ...SPECS.map((s) => `import ${JSON.stringify(`${coreDist}/${s.file}`)};`),
    "export * as tf from '@tensorflow/tfjs-core';",
  ].join('\n'));
  await build({
    entryPoints: [join(dir, 'entry.js')], bundle: true, platform: 'node', format: 'cjs',
    mainFields: ['module', 'main'], outfile: join(dir, 'bundle.cjs'), logLevel: 'error',
    ignoreAnnotations: true, // tfjs-core says sideEffects: false, which would drop the spec files
    nodePaths: [join(root, 'node_modules')],
  });

  // jasmine, with its globals, before the bundle defines the suites. No spec filter: every spec runs.
  const jasmineRequire = require('jasmine-core/lib/jasmine-core/jasmine.js');
  const jasmine = jasmineRequire.core(jasmineRequire);
  const env = jasmine.getEnv();
  Object.assign(globalThis, jasmineRequire.interface(jasmine, env));
  env.configure({ random: false, stopOnSpecFailure: false });
  env.addReporter({ specDone: (r) => results.push(r) });

  bundle = createRequire(join(dir, 'bundle.cjs'))(join(dir, 'bundle.cjs'));
  bundle.tf.enableProdMode(); // silences the "install tfjs-node" advice only
  bundle.setWasmPaths(wasmDir);
  const done = await registerKernels(bundle.tf, { backends: BACKENDS });
  assert.equal(done.length, BACKENDS.length * KERNELS.length, 'every kernel on both backends');
  await env.execute();
});

after(() => {
  if (bundle) unregisterKernels(bundle.tf);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('the expected-to-differ list names real specs, each with a reason', () => {
  for (const [name, { backends, reason, message }] of Object.entries(EXPECTED_TO_DIFFER)) {
    assert.ok(results.some((r) => specName(r) === name), `${name}: no such spec`);
    assert.ok(backends.every((b) => BACKENDS.includes(b)) && reason && message instanceof RegExp, name);
  }
});

for (const backend of BACKENDS) {
  test(`tfjs-core's gather, gatherND, scatterND, tensorScatterUpdate and unsortedSegmentSum specs on ${backend} with wasm-gather's kernels`, (t) => {
    const all = results.filter((r) => backendOf(r) === backend);
    assert.deepEqual(all.filter((r) => r.status !== 'passed' && r.status !== 'failed').map((r) => `${r.fullName}: ${r.status}`), [],
      'no spec is skipped or excluded');
    // Exactly the listed specs fail, and each for its reason.
    const failed = all.filter((r) => r.status === 'failed');
    const expected = Object.entries(EXPECTED_TO_DIFFER).filter(([, e]) => e.backends.includes(backend)).map(([n]) => n);
    const why = (r) => r.failedExpectations.map((e) => e.message).join('; ');
    assert.deepEqual(failed.map((r) => `${specName(r)}: ${why(r)}`).filter((s) => !expected.some((n) => s.startsWith(`${n}: `))), [],
      'no other spec fails');
    for (const name of expected) {
      const r = failed.find((f) => specName(f) === name);
      assert.ok(r, `${name} passes on ${backend}: drop it from EXPECTED_TO_DIFFER`);
      for (const e of r.failedExpectations) assert.match(e.message, EXPECTED_TO_DIFFER[name].message, `${name}: ${EXPECTED_TO_DIFFER[name].reason}`);
    }
    // Every file's specs ran, all of them.
    const counts = SPECS.map(({ suite, specs }) => {
      const mine = all.filter((r) => r.fullName.startsWith(`${suite} ${backend} {`));
      const passed = mine.filter((r) => r.status === 'passed').length;
      assert.equal(mine.length, specs, `${suite}: ${mine.length} specs found, ${specs} expected`);
      return `${suite} ${passed}/${mine.length}`;
    });
    t.diagnostic(`${backend}: ${counts.join(', ')}; ${failed.length} expected to differ`);
    // The adapter served them: every kernel was called on this backend.
    const { calls, fallbacks, inPlace } = kernelStats();
    t.diagnostic(`${backend}: kernel calls ${KERNELS.map((k) => `${k} ${calls[`${backend}/${k}`] ?? 0}`).join(', ')}; ` +
      `fallbacks ${JSON.stringify(Object.fromEntries(Object.entries(fallbacks).filter(([k]) => k.startsWith(`${backend}/`))))}`);
    for (const k of KERNELS) assert.ok(calls[`${backend}/${k}`] > 0, `${k} served by wasm-gather on ${backend}`);
    if (backend === 'wasm') { // in tfjs's own memory (js/guest.mjs), not through copies
      t.diagnostic(`wasm: ${inPlace} calls ran in tfjs's memory`);
      assert.ok(inPlace > 0, 'the wasm calls ran in place');
    }
  });
}
