// A newcomer's first run: `npm test` on a fresh clone without `npm ci` stops at once,
// before building anything, with one line naming the command to run (scripts/check-deps.mjs,
// the pretest step). Run here on a copy of the package without node_modules.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

test('without its dependencies, npm test stops at once with the command to run', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wg-fresh-'));
  try {
    mkdirSync(join(dir, 'scripts'));
    copyFileSync(join(root, 'package.json'), join(dir, 'package.json'));
    copyFileSync(join(root, 'scripts', 'check-deps.mjs'), join(dir, 'scripts', 'check-deps.mjs'));
    const r = spawnSync(process.execPath, ['scripts/check-deps.mjs'], { cwd: dir, encoding: 'utf8', timeout: 30000 });
    assert.equal(r.status, 1);
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 1, r.stderr);
    assert.match(lines[0], /the test dependencies are not installed \(.*esbuild.*\): run `npm ci` first, then `npm test`/);
    assert.equal(r.stdout, '');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  // and with them (this checkout), it says nothing and lets the build go on
  const ok = spawnSync(process.execPath, ['scripts/check-deps.mjs'], { cwd: root, encoding: 'utf8' });
  assert.equal(ok.status, 0, ok.stderr);
  assert.equal(ok.stderr + ok.stdout, '');
});
