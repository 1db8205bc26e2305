// The same C sources built natively with the host compiler (plain CMake, no Emscripten) and the
// native C tests run by CTest (tests/native/: the unit tests, the hostile inputs the fuzzers found,
// the fuzz corpus replayed, and the thread pool under forced and random interleavings):
// - with AddressSanitizer and UBSan, under the default compiler;
// - with ThreadSanitizer, under clang: any data race fails the test (TSan exits 66);
// and every native target built in Release with gcc, whose optimizer warns (-Werror) where a
// Debug build does not.
// Outside CI a missing toolchain skips; in CI (CI set) it fails.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const have = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
const run = (cmd, args, env) => {
  const r = spawnSync(cmd, args, { cwd: root, encoding: 'utf8', timeout: 600000, env: { ...process.env, ...env } });
  assert.equal(r.status, 0, `${cmd} ${args.join(' ')} failed:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
};
const skipUnless = (tools) => {
  const missing = tools.filter((c) => !have(c));
  return missing.length > 0 && !process.env.CI ? `no ${missing.join(', ')}` : false;
};

// Configures, builds and runs every CTest test of build/<dir>; returns CTest's output.
function buildAndTest(dir, cmakeArgs, env = {}) {
  const build = `build/${dir}`;
  run('cmake', ['-S', '.', '-B', build, '-DCMAKE_BUILD_TYPE=Debug', ...cmakeArgs]);
  run('cmake', ['--build', build, '--parallel', '2']);
  // setarch -R: no address-space randomization, which TSan's fixed shadow layout needs on kernels
  // with high mmap entropy (https://github.com/google/sanitizers/issues/1716).
  // two at a time, as the build (the TSan run: 102 -> 72 s on 2 cores, the pool stress the longest)
  const ctest = ['ctest', '--test-dir', build, '--output-on-failure', '--parallel', '2'];
  const out = have('setarch') ? run('setarch', [process.arch === 'arm64' ? 'aarch64' : 'x86_64', '-R', ...ctest], env)
    : run(ctest[0], ctest.slice(1), env);
  assert.match(out, /100% tests passed/);
  return out;
}

test('native build with ASan + UBSan: the C tests', { skip: skipUnless(['cmake', 'cc']) }, () => {
  buildAndTest('native-test', ['-DCMAKE_C_FLAGS=-fsanitize=address,undefined -fno-sanitize-recover=all']);
});

test('native build with ThreadSanitizer: the C tests and the pool stress, no report', { skip: skipUnless(['cmake', 'clang']) }, () => {
  const out = buildAndTest('native-tsan', ['-DCMAKE_C_COMPILER=clang', '-DCMAKE_C_FLAGS=-fsanitize=thread -O1 -g'],
    { TSAN_OPTIONS: 'second_deadlock_stack=1' });
  assert.doesNotMatch(out, /ThreadSanitizer/);
});

// The plain native build (docs/architecture.md#building-from-source: Release unless asked): gcc's
// -O2 and above run the flow analysis behind warnings such as -Walloc-size-larger-than, which
// -Werror makes errors. Every target: ALL (the libraries, the C tests, fuzz_replay_<op>; the
// libFuzzer targets need clang and are not configured) and bench_native (bench/run.mjs builds it
// in Release). Built only, in a scratch folder: the builds above run the tests.
test('native Release build with gcc: every target compiles', { skip: skipUnless(['cmake', 'gcc']) }, () => {
  const build = mkdtempSync(join(tmpdir(), 'wg-release-gcc-'));
  try {
    run('cmake', ['-S', '.', '-B', build, '-DCMAKE_BUILD_TYPE=Release', '-DCMAKE_C_COMPILER=gcc']);
    run('cmake', ['--build', build, '--parallel', '2', '--target', 'all', 'bench_native']);
  } finally {
    rmSync(build, { recursive: true, force: true });
  }
});
