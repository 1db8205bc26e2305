#!/usr/bin/env node
// Builds the wasm variants into dist/ when they are missing or out of date (or with --force).
// Needs Emscripten; on Debian as root it installs it with apt (emscripten 3.1.6 + binaryen).
// The steps are shared with the test-only ASan build (scripts/wasm-build.mjs).
// Usage: node scripts/build.mjs [--force]
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { VARIANTS, artifacts, cmakeBuild, inputs, patchGlues, root, stamp, upToDate } from './wasm-build.mjs';

const dist = join(root, 'dist');
const buildDir = join(root, 'build', 'wasm');
const stampFile = join(dist, '.build-stamp');

function build() {
  cmakeBuild(buildDir);
  rmSync(dist, { recursive: true, force: true });
  mkdirSync(dist, { recursive: true });
  for (const { from, to } of artifacts()) copyFileSync(join(buildDir, from), join(dist, to));
  patchGlues(VARIANTS.filter((v) => v.threads).flatMap((v) => ['node.cjs', 'web.mjs'].map((g) => join(dist, `wasm-gather-${v.name}.${g}`))));
  // The Node worker glue is CommonJS in a .js file; the package itself is "type": "module".
  writeFileSync(join(dist, 'package.json'), '{ "type": "commonjs" }\n');
}

const s = stamp(inputs([relative(root, fileURLToPath(import.meta.url))]));
if (process.argv.includes('--force') || !upToDate(stampFile, s, artifacts().map(({ to }) => join(dist, to)))) {
  build();
  writeFileSync(stampFile, s);
  console.log(`wasm-gather: built ${relative(process.cwd(), dist) || '.'}/`);
}
