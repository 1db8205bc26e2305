// The same C sources built natively with the host compiler (plain CMake, no Emscripten), with
// AddressSanitizer and UBSan where the compiler has them, and the native C test run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const have = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { cwd: root, encoding: 'utf8', timeout: 300000 });
  assert.equal(r.status, 0, `${cmd} ${args.join(' ')} failed:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
};

const missing = ['cmake', 'cc'].filter((c) => !have(c));
test('native build with sanitizers and the C test', { skip: missing.length > 0 && !process.env.CI ? `no ${missing.join(', ')}` : false }, () => {
  const dir = 'build/native-test';
  run('cmake', ['-S', '.', '-B', dir, '-DCMAKE_BUILD_TYPE=Debug', '-DCMAKE_C_FLAGS=-fsanitize=address,undefined -fno-sanitize-recover=all']);
  run('cmake', ['--build', dir, '--parallel', '2']);
  const out = run('ctest', ['--test-dir', dir, '--output-on-failure']);
  assert.match(out, /100% tests passed/);
});
