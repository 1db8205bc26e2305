// The package's types as a consumer sees them: tsc --noEmit on tests/package/app/types/ against
// the packed and installed package (tests/package/install.mjs), ESM and CommonJS, under the
// resolutions a consumer may use (nodenext, node16, bundler). Covers what the types got wrong:
// options in a variable ({ resident: boolean } gives the union), option types named with a bare
// TypedArray (TypeScript 5.7+ made them generic over their buffer), the .wasm subpaths, shapes
// as TypedArrays, the error codes, wasm-gather/tfjs from import and require. Each
// `@ts-expect-error` there is a line that must not compile.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { packAndInstall, root } from './install.mjs';

let pkg; // { app, dir, tarball, packed }
before(() => { pkg = packAndInstall('types'); });

const CONFIGS = ['tsconfig.json', 'tsconfig.node16.json', 'tsconfig.bundler.json'];

function tsc(bin, config) {
  const r = spawnSync(process.execPath, [bin, '--noEmit', '-p', config], { cwd: `${pkg.app}/types`, encoding: 'utf8', timeout: 120000 });
  assert.equal(r.error, undefined, String(r.error));
  assert.equal(r.status, 0, `tsc -p types/${config}:\n${r.stdout}${r.stderr}`);
}

test('types: tsc (the devDependency) on ESM and CommonJS consumers, nodenext, node16 and bundler resolution', () => {
  for (const config of CONFIGS) tsc(`${root}node_modules/typescript/bin/tsc`, config);
});

// TypeScript before 5.7, whose TypedArrays are not generic: the one @arethetypeswrong/core pins
// (a devDependency's dependency, so skipped where npm placed it elsewhere).
const OLD_TSC = `${root}node_modules/@arethetypeswrong/core/node_modules/typescript/bin/tsc`;
test('types: the same consumers under TypeScript 5.6 (TypedArrays not generic)', { skip: !existsSync(OLD_TSC) && 'no TypeScript 5.6 installed' }, () => {
  for (const config of CONFIGS) tsc(OLD_TSC, config);
});
