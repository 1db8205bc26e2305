// The wasm SIMD kernels under AddressSanitizer. The native fuzzers and sanitizer runs
// (tests/fuzz/fuzz.test.mjs, tests/native/native.test.mjs) compile without __wasm_simd128__, so the v128 row
// and triple kernels are only ever run as wasm: scripts/build-asan.mjs builds the same sources
// with -msimd128 -fsanitize=address into build/asan/ (test-only, never shipped), both variants,
// and the fuzz harness tests/fuzz/fuzz_ops.c as wasm programs. Against that build, each in a
// child process: each op's suite of tests/ops/ (worked examples, seeded random cases, errors and
// the bad-input matrix), the library-wide errors and the kernel lane tests (the library at build/asan/js/index.mjs through WG_TEST_API,
// tests/lib/tested-api.mjs), then the fuzz corpus replayed and mutated for a while, and random
// hostile calls of the scatters, the fused gather-reduce and the masks' ops from JS (tests/asan-wasm/fuzz.mjs). Any sanitizer text in a child's output fails the test with the
// report, whatever the child's exit status (ASan prints its report through stderr, then ends
// the process; a report from a pool worker leaves the process hanging, so it is killed).
//
// WG_WASM_FUZZ_SECONDS: the random fuzz loop's time per variant (default 20; both run at once);
// WG_WASM_FUZZ_JS_SECONDS: then the calls from JS (default 5); WG_WASM_FUZZ_SEED (default 1); WG_ASAN_RANDOM_CASES: random cases per op and config (default
// 400). Skipped without Emscripten or CMake outside CI; in CI (CI set) a missing toolchain fails.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runNode } from './child.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const API = join(root, 'build', 'asan', 'js', 'index.mjs');
const SECONDS = Number(process.env.WG_WASM_FUZZ_SECONDS ?? 20);
const JS_SECONDS = Number(process.env.WG_WASM_FUZZ_JS_SECONDS ?? 5);
const SEED = process.env.WG_WASM_FUZZ_SEED ?? '1';
const RANDOM_CASES = process.env.WG_ASAN_RANDOM_CASES ?? '400';

const have = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
const missing = ['emcc', 'emcmake', 'cmake'].filter((c) => !have(c));
const skip = missing.length && !process.env.CI ? `no ${missing.join(', ')}` : false;

const tail = (text, n = 40) => text.trimEnd().split('\n').slice(-n).join('\n');

// Children [what, result] that printed no sanitizer report and exited 0; otherwise one failure
// whose message holds each report, and the rest of that child's last output around it.
function assertClean(...children) {
  const problems = children.map(([what, r]) => {
    const exit = `exit ${r.status}${r.signal ? `, killed by ${r.signal}` : ''}, after ${r.seconds} s`;
    if (r.report) return `${what}: sanitizer report (${exit}):\n${r.report}\n--- its other output, the last lines ---\n${tail(r.output.replace(r.report, '[the report]'), 20)}`;
    if (r.status !== 0) return `${what} failed (${exit}):\n${tail(r.output, 80)}`;
    return null;
  }).filter(Boolean);
  assert.ok(problems.length === 0, problems.join('\n\n'));
}

test('the AddressSanitizer build (scripts/build-asan.mjs)', { skip, timeout: 600000 }, (t) => {
  assert.deepEqual(missing, []);
  const t0 = Date.now();
  const r = spawnSync(process.execPath, ['scripts/build-asan.mjs'], { cwd: root, encoding: 'utf8', timeout: 600000 });
  assert.equal(r.status, 0, `build failed:\n${tail(r.stdout)}\n${tail(r.stderr)}`);
  for (const dir of ['dist', 'fuzz']) {
    for (const f of readdirSync(join(root, 'build', 'asan', dir)).filter((n) => n.endsWith('.wasm'))) {
      // Instrumented: the checks call ASan's report functions (named by --profiling-funcs).
      assert.ok(readFileSync(join(root, 'build', 'asan', dir, f)).includes('__asan_report_load'), `${dir}/${f} is not built with ASan`);
    }
  }
  t.diagnostic(`build: ${((Date.now() - t0) / 1000).toFixed(1)} s (0 when up to date)`);
});

// The suites, each a file of tests/ run against the sanitized library: each op's (its examples,
// random cases and errors), the library-wide errors, the kernel lane tests.
const SUITES = [
  ['tests/ops/gather.test.mjs', { WG_RANDOM_CASES: RANDOM_CASES }],
  ['tests/ops/gather-nd.test.mjs', { WG_RANDOM_CASES: RANDOM_CASES }],
  ['tests/ops/take.test.mjs', { WG_RANDOM_CASES: RANDOM_CASES }],
  ['tests/ops/gather-block-quantized.test.mjs', { WG_QUANTIZED_CASES: RANDOM_CASES }],
  // the fused gather-reduce: its seeded calls at 1, 2 and 4 threads, resident, and torch's results
  ['tests/ops/embedding-bag.test.mjs', {}],
  ['tests/ops/segment-reduce.test.mjs', {}],
  // the masks' ops: seeded cases (a few of a million elements: many chunks) at 1, 2 and 4 threads,
  // PyTorch's results, resident and opts.out, their errors
  ['tests/ops/non-zero.test.mjs', {}],
  ['tests/ops/boolean-mask.test.mjs', {}],
  ['tests/ops/compress.test.mjs', {}],
  ['tests/ops/masked-scatter.test.mjs', {}],
  ['tests/unit/api-errors.test.mjs', {}],
  ['tests/unit/kernels.test.mjs', {}],
];
for (const [file, env] of SUITES) {
  test(`${file} against the sanitized wasm build`, { skip, timeout: 600000 }, async (t) => {
    const r = await runNode(['--test-reporter=tap', file], { cwd: root, env: { ...env, WG_TEST_API: API }, timeout: 300000 });
    assertClean([file, r]);
    assert.ok(r.output.includes(`# api under test: ${pathToFileURL(API).href}`), `${file} did not load ${API}:\n${tail(r.output)}`);
    const count = (name) => Number(new RegExp(`^# ${name} (\\d+)$`, 'm').exec(r.output)?.[1]);
    assert.ok(count('pass') > 0 && count('fail') === 0, `${file}: no passing tests?\n${tail(r.output)}`);
    for (const name of ['skipped', 'todo', 'cancelled']) assert.equal(count(name), 0, `${file}: ${name} tests`);
    t.diagnostic(`${count('pass')} tests passed in ${r.seconds} s`);
  });
}

test(`fuzz corpus replayed, then ${SECONDS} s of mutated inputs, through the sanitized harness, then ${JS_SECONDS} s of scatter, bag and mask calls from JS (simd, simd-threaded at once)`, {
  skip, timeout: (SECONDS + JS_SECONDS + 300) * 1000,
}, async (t) => {
  const corpusDir = join(root, 'tests', 'fuzz', 'corpus');
  const corpus = readdirSync(corpusDir).reduce((n, op) => n + readdirSync(join(corpusDir, op)).length, 0);
  const variants = ['simd', 'simd-threaded'];
  const runs = await Promise.all(variants.map((variant) => runNode(['tests/asan-wasm/fuzz.mjs', '--variant', variant,
    '--seconds', String(SECONDS), '--js-seconds', String(JS_SECONDS), '--seed', SEED], { cwd: root, timeout: (SECONDS + JS_SECONDS + 240) * 1000 })));
  // A failed run leaves the input it was running in build/asan/fuzz/<variant>.last: shown with the report.
  const last = (variant) => join(root, 'build', 'asan', 'fuzz', `${variant}.last`);
  for (const [k, variant] of variants.entries()) {
    if (runs[k].status !== 0 && existsSync(last(variant))) {
      runs[k].output += `\nthe input it was running (op, hex): ${readFileSync(last(variant), 'utf8').trim()}\n` +
        `replay: node tests/asan-wasm/fuzz.mjs --variant ${variant} --replay $(cat ${last(variant)})\n`;
    }
  }
  assertClean(...variants.map((variant, k) => [`fuzz.mjs --variant ${variant}`, runs[k]]));
  variants.forEach((variant, k) => {
    const summary = JSON.parse(runs[k].output.trim().split('\n').pop());
    assert.equal(summary.corpus, corpus, `${variant}: replayed ${summary.corpus} corpus entries of ${corpus}`);
    assert.ok(summary.executions >= 50 * SECONDS, `${variant}: only ${summary.executions} executions in ${summary.seconds} s`);
    // calls from JS: enough of them, and both results and refusals among them
    const js = summary.jsOutcomes;
    assert.ok(!JS_SECONDS || (summary.jsCalls >= 20 * JS_SECONDS && js.ok > summary.jsCalls / 5 && js.RangeError && js.TypeError),
      `${variant}: ${summary.jsCalls} calls from JS in ${summary.jsSeconds} s: ${JSON.stringify(js)}`);
    t.diagnostic(`${variant}: ${summary.corpus} corpus entries, then ${summary.executions} mutated inputs in ` +
      `${summary.seconds} s (${JSON.stringify(summary.perOp)}), then ${summary.jsCalls} scatter, bag and mask calls from JS in ` +
      `${summary.jsSeconds} s (${JSON.stringify(js)}), seed ${summary.seed}`);
  });
});
