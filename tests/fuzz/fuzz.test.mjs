// The libFuzzer targets (tests/fuzz/fuzz_ops.c: fuzz_<op> for each folder of tests/fuzz/corpus/), built
// with clang, ASan and UBSan, each run for a short time from the seed corpus in
// tests/fuzz/corpus/ (new inputs go to a temporary directory; the repo's corpus is not touched).
// Any crash, sanitizer report or mismatch with the fuzzer's reference fails the test.
// WG_FUZZ_SECONDS sets the time per target (default 20). Skipped without clang's libFuzzer
// outside CI; in CI (CI set) a missing toolchain fails.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
// The fuzz targets: one per folder of the seed corpus (as CMakeLists.txt builds them).
const OPS = readdirSync(join(root, 'tests', 'fuzz', 'corpus')).sort();
const SECONDS = Number(process.env.WG_FUZZ_SECONDS ?? 20);

function libFuzzerMissing() {
  const clang = spawnSync('clang', ['-print-resource-dir'], { encoding: 'utf8' });
  if (clang.status !== 0) return 'no clang';
  const arch = { x64: 'x86_64', arm64: 'aarch64' }[process.arch] ?? process.arch;
  const lib = join(clang.stdout.trim(), 'lib', 'linux', `libclang_rt.fuzzer-${arch}.a`);
  if (!existsSync(lib)) return `no libFuzzer (${lib}; Debian: libclang-rt-14-dev)`;
  if (spawnSync('sh', ['-c', 'command -v cmake']).status !== 0) return 'no cmake';
  return null;
}
const missing = libFuzzerMissing();

const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { cwd: root, encoding: 'utf8', timeout: 300000 });
  assert.equal(r.status, 0, `${cmd} ${args.join(' ')} failed:\n${r.stdout}\n${r.stderr}`);
};

// Runs one fuzzer; resolves to { status, log }.
function fuzz(op, dir) {
  const work = mkdtempSync(join(dir, `${op}-`));
  const args = [`-max_total_time=${SECONDS}`, '-timeout=10', '-rss_limit_mb=2048', '-print_final_stats=1',
    `-artifact_prefix=${work}/`, work, join(root, 'tests', 'fuzz', 'corpus', op)];
  return new Promise((resolve) => {
    const p = spawn(join(root, 'build', 'fuzz', `fuzz_${op}`), args, { cwd: work });
    let log = '';
    p.stderr.on('data', (d) => { log += d; });
    p.stdout.on('data', (d) => { log += d; });
    p.on('close', (status) => resolve({ status, log }));
  });
}

test('libFuzzer targets of every op (ASan + UBSan): no crash, no mismatch', {
  skip: missing && !process.env.CI ? missing : false, timeout: (SECONDS * 3 + 300) * 1000,
}, async (t) => {
  assert.equal(missing, null, missing ?? '');
  const build = 'build/fuzz';
  run('cmake', ['-S', '.', '-B', build, '-DCMAKE_C_COMPILER=clang', '-DWG_FUZZ=ON', '-DCMAKE_BUILD_TYPE=Debug']);
  run('cmake', ['--build', build, '--parallel', '2', '--target', ...OPS.map((op) => `fuzz_${op}`)]);
  const dir = mkdtempSync(join(tmpdir(), 'wg-fuzz-'));
  try {
    // All at once: SECONDS of wall time whatever the cores (each gets a share of them).
    const done = await Promise.all(OPS.map((op) => fuzz(op, dir)));
    const results = Object.fromEntries(OPS.map((op, k) => [op, done[k]]));
    for (const op of OPS) {
      const { status, log } = results[op];
      const tail = log.split('\n').slice(-60).join('\n');
      assert.equal(status, 0, `fuzz_${op} found a problem (exit ${status}):\n${tail}`);
      const runs = /Done (\d+) runs in (\d+) second/.exec(log);
      const last = [...log.matchAll(/^#\d+\s+\w+\s+cov: (\d+) ft: (\d+) corp: (\d+)/gm)].pop();
      assert.ok(runs && Number(runs[1]) > 1000, `fuzz_${op} ran too few inputs:\n${tail}`);
      t.diagnostic(`fuzz_${op}: ${runs[1]} runs in ${runs[2]} s, cov ${last?.[1]} ft ${last?.[2]} corpus ${last?.[3]}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
