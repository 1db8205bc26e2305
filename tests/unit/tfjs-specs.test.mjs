// TensorFlow.js's own specs for tf.gather and tf.gatherND (the compiled dist/ops/gather_test.js
// and gather_nd_test.js of @tensorflow/tfjs-core, run with jasmine through its jasmine_util's
// setTestEnvs) against its cpu backend and its wasm backend, with wasm-gather/tfjs's kernels
// registered: every spec must pass, and the adapter's kernels must really have served them.
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
const SPECS = ['ops/gather_test.js', 'ops/gather_nd_test.js'];
const BACKENDS = ['cpu', 'wasm'];

// tfjs-backend-wasm has no UnsortedSegmentSum kernel, which gather's gradient needs: its own test
// setup (tfjs-backend-wasm/src/setup_test.ts) excludes gather's gradient specs, and so does this
// one. They are counted apart, never as passed. (That setup also excludes 'throws when index is
// out of bound', which passes here with the adapter.)
const wasmExcluded = (name) => name.startsWith('gather wasm ') && name.includes('gradient');

let dir;
let bundle;
const results = []; // jasmine's specDone results

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
    ...SPECS.map((s) => `import ${JSON.stringify(`${coreDist}/${s}`)};`),
    "export * as tf from '@tensorflow/tfjs-core';",
  ].join('\n'));
  await build({
    entryPoints: [join(dir, 'entry.js')], bundle: true, platform: 'node', format: 'cjs',
    mainFields: ['module', 'main'], outfile: join(dir, 'bundle.cjs'), logLevel: 'error',
    ignoreAnnotations: true, // tfjs-core says sideEffects: false, which would drop the spec files
    nodePaths: [join(root, 'node_modules')],
  });

  // jasmine, with its globals, before the bundle defines the suites.
  const jasmineRequire = require('jasmine-core/lib/jasmine-core/jasmine.js');
  const jasmine = jasmineRequire.core(jasmineRequire);
  const env = jasmine.getEnv();
  Object.assign(globalThis, jasmineRequire.interface(jasmine, env));
  env.configure({ random: false, stopOnSpecFailure: false, specFilter: (spec) => !wasmExcluded(spec.getFullName()) });
  env.addReporter({ specDone: (r) => results.push(r) });

  bundle = createRequire(join(dir, 'bundle.cjs'))(join(dir, 'bundle.cjs'));
  bundle.tf.enableProdMode(); // silences the "install tfjs-node" advice only
  bundle.setWasmPaths(wasmDir);
  await registerKernels(bundle.tf, { backends: BACKENDS });
  await env.execute();
});

after(() => {
  if (bundle) unregisterKernels(bundle.tf);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

for (const backend of BACKENDS) {
  test(`tfjs-core's gather and gatherND specs pass on ${backend} with wasm-gather's kernels`, (t) => {
    const all = results.filter((r) => r.fullName.includes(` ${backend} {`));
    const excluded = all.filter((r) => r.status === 'excluded');
    assert.deepEqual(excluded.map((r) => r.fullName), all.map((r) => r.fullName).filter(wasmExcluded));
    const mine = all.filter((r) => r.status !== 'excluded');
    const failed = mine.filter((r) => r.status !== 'passed');
    assert.deepEqual(failed.map((r) => `${r.fullName} (${r.status}): ${r.failedExpectations.map((e) => e.message).join('; ')}`), []);
    const perFile = { gather: mine.filter((r) => r.fullName.startsWith('gather ')).length,
      gatherND: mine.filter((r) => r.fullName.startsWith('gatherND ')).length };
    t.diagnostic(`${backend}: ${mine.length} specs passed (gather ${perFile.gather}, gatherND ${perFile.gatherND}), ` +
      `${excluded.length} excluded (gather's gradient specs, which need tfjs-backend-wasm's missing UnsortedSegmentSum)`);
    assert.ok(perFile.gather >= (backend === 'wasm' ? 25 : 48) && perFile.gatherND >= 11, `specs found: ${JSON.stringify(perFile)}`);
    const { calls } = kernelStats();
    t.diagnostic(`${backend}: kernel calls GatherV2 ${calls[`${backend}/GatherV2`]}, GatherNd ${calls[`${backend}/GatherNd`]}`);
    assert.ok(calls[`${backend}/GatherV2`] > 0, 'GatherV2 served by wasm-gather');
    assert.ok(calls[`${backend}/GatherNd`] > 0, 'GatherNd served by wasm-gather');
    if (backend === 'wasm') { // in tfjs's own memory (js/guest.mjs), not through copies
      t.diagnostic(`wasm: ${kernelStats().inPlace} calls ran in tfjs's memory`);
      assert.ok(kernelStats().inPlace > 0, 'the wasm calls ran in place');
    }
  });
}
