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

// What attw may still report, all of the ./tfjs entry point, which is an ES module only (a
// CommonJS entry for it is future work): from require() it is ESM (dynamic import only), and
// node10 resolution, which knows no "exports", finds no file at wasm-gather/tfjs. Anything else
// (another entry point, another kind of problem) fails the test.
const KNOWN = [
  { kind: 'NoResolution', entrypoint: './tfjs', resolutionKind: 'node10' },
  { kind: 'CJSResolvesToESM', entrypoint: './tfjs', resolutionKind: 'node16-cjs' },
];
const key = ({ kind, entrypoint, resolutionKind }) => `${entrypoint} ${resolutionKind} ${kind}`;

test('attw: every entry point has types that resolve, but ./tfjs from CommonJS and node10 (known)', () => {
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
  const unexpected = problems.filter((p) => !KNOWN.some((k) => key(k) === key(p)));
  assert.deepEqual(unexpected.map(key), [], `attw found new problems:\n${JSON.stringify(unexpected, null, 2)}`);
  // Exit code 1 while the known problems remain, 0 once they are fixed; never a crash.
  assert.equal(r.status, problems.length ? 1 : 0, r.stderr);
});
