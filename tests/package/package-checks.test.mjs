// The ecosystem's checks of a package, run offline on the packed tarball (tests/package/install.mjs
// packs it as npm publishes it): publint (package.json fields and exports against the files
// shipped) and @arethetypeswrong/cli, attw (types and code resolved under node10, node16 from
// CommonJS and from ESM, and bundler resolution, entry point by entry point).
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { pack, root } from './install.mjs';

let pkg; // { dir, tarball, packed }
before(() => { pkg = pack('checks'); });

test('publint: no errors, warnings or suggestions on the tarball (strict)', async () => {
  const bytes = readFileSync(pkg.tarball);
  const tarball = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const { messages, pkg: manifest } = await publint({ pack: { tarball }, level: 'suggestion', strict: true });
  assert.deepEqual(messages.map((m) => `${m.type} ${m.code}: ${formatMessage(m, manifest)}`), []);
});

// No problem at all, under any resolution, for any entry point: ./tfjs included, whose require()
// gets js/tfjs.cjs and whose node10 resolution (no "exports") finds tfjs/package.json's main and types.
test('attw: every entry point resolves, code and types, under node10, node16 (CommonJS and ESM) and bundler', () => {
  // JSON to a file: attw exits before a pipe would take all of it.
  const out = `${pkg.dir}/attw.json`;
  const fd = openSync(out, 'w');
  let r;
  try {
    r = spawnSync(`${root}node_modules/.bin/attw`, [pkg.tarball, '--format', 'json'],
      { cwd: pkg.dir, stdio: ['ignore', fd, 'pipe'], encoding: 'utf8', timeout: 120000 });
  } finally {
    closeSync(fd);
  }
  assert.equal(r.error, undefined, String(r.error));
  const report = JSON.parse(readFileSync(out, 'utf8'));
  assert.equal(report.analysis.packageName, 'wasm-gather');
  assert.equal(report.analysis.types.kind, 'included');
  // Every entry point of package.json's exports was analysed (the wildcard ./dist/* aside).
  const exported = Object.keys(JSON.parse(readFileSync(`${root}package.json`, 'utf8')).exports).filter((e) => !e.includes('*'));
  for (const e of exported) assert.ok(report.analysis.entrypoints[e], `attw did not analyse ${e}`);
  const problems = Object.values(report.problems ?? {}).flat();
  const key = ({ kind, entrypoint, resolutionKind }) => `${entrypoint} ${resolutionKind} ${kind}`;
  assert.deepEqual(problems.map(key), [], `attw found problems:\n${JSON.stringify(problems, null, 2)}`);
  assert.equal(r.status, 0, r.stderr);
});
