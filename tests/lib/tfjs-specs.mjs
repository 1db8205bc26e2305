// TensorFlow.js's own specs (the compiled dist/ops/*_test.js of @tensorflow/tfjs-core), run with
// jasmine through its jasmine_util's setTestEnvs on the backends asked for, and the checks of
// their results. Used by tests/unit/tfjs-specs.test.mjs and tests/unit/tfjs-ragged-gather.test.mjs.
//
// The specs are ES modules written for a bundler (extensionless imports, require of
// jasmine-core), so they are bundled with esbuild (tests/lib/tfjs-bundle.mjs), together with
// tfjs-core, its gradients and both backends: one copy of tfjs-core for all of them.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { coreDist, loadTfjs } from './tfjs-bundle.mjs';

const require = createRequire(import.meta.url);

/** A result's spec name without its environment: '<suite> <spec>'. */
export const specName = (r) => r.fullName.replace(/ (cpu|wasm) \{[^}]*\}/, '');
/** The backend ('cpu' or 'wasm') a result ran on. */
export const backendOf = (r) => / (cpu|wasm) \{/.exec(r.fullName)?.[1];

/**
 * Loads tfjs with the spec files (paths under tfjs-core's dist/, e.g. 'ops/gather_test.js'),
 * their suites defined for each of backends, calls register(tf) (registering the kernels under
 * test), runs every spec (no filter, in order) and resolves to { tf, results: jasmine's specDone
 * results }. Defines jasmine's globals: once a process.
 */
export async function runTfjsSpecs({ files, backends, register }) {
  // jasmine, with its globals, before the bundle defines the suites.
  const jasmineRequire = require('jasmine-core/lib/jasmine-core/jasmine.js');
  const jasmine = jasmineRequire.core(jasmineRequire);
  const env = jasmine.getEnv();
  Object.assign(globalThis, jasmineRequire.interface(jasmine, env));
  env.configure({ random: false, stopOnSpecFailure: false });
  const results = [];
  env.addReporter({ specDone: (r) => results.push(r) });

  const tf = await loadTfjs({
    // First in the bundle: the test environments, set before the specs' describeWithFlags runs.
    prelude: `import { setTestEnvs } from ${JSON.stringify(`${coreDist}/jasmine_util.js`)};
setTestEnvs(${JSON.stringify(backends.map((b) => ({ name: b, backendName: b, isDataSync: true })))});\n`,
    imports: files.map((f) => `${coreDist}/${f}`),
  });
  await register(tf);
  await env.execute();
  return { tf, results };
}

/**
 * Checks one backend's results: no spec skipped or excluded; exactly the specs of expected
 * ({ '<suite> <spec>': { backends, reason, message: RegExp } }) on this backend fail, each only
 * with its message; every suite of specs ([{ suite: its describeWithFlags name, specs: how many
 * it holds }]) ran all its specs. Returns { failed: the failed results, counts: '<suite> passed/ran' }.
 */
export function checkSpecResults(results, backend, specs, expected = {}) {
  const all = results.filter((r) => backendOf(r) === backend);
  assert.deepEqual(all.filter((r) => r.status !== 'passed' && r.status !== 'failed').map((r) => `${r.fullName}: ${r.status}`), [],
    'no spec is skipped or excluded');
  const failed = all.filter((r) => r.status === 'failed');
  const names = Object.entries(expected).filter(([, e]) => e.backends.includes(backend)).map(([n]) => n);
  const why = (r) => r.failedExpectations.map((e) => e.message).join('; ');
  assert.deepEqual(failed.map((r) => `${specName(r)}: ${why(r)}`).filter((s) => !names.some((n) => s.startsWith(`${n}: `))), [],
    'no other spec fails');
  for (const name of names) {
    const r = failed.find((f) => specName(f) === name);
    assert.ok(r, `${name} passes on ${backend}: drop it from the expected-to-differ list`);
    for (const e of r.failedExpectations) assert.match(e.message, expected[name].message, `${name}: ${expected[name].reason}`);
  }
  const counts = specs.map(({ suite, specs: n }) => {
    const mine = all.filter((r) => r.fullName.startsWith(`${suite} ${backend} {`));
    const passed = mine.filter((r) => r.status === 'passed').length;
    assert.equal(mine.length, n, `${suite}: ${mine.length} specs found, ${n} expected`);
    return `${suite.trim()} ${passed}/${mine.length}`;
  });
  return { failed, counts };
}
