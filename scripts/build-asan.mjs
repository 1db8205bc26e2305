#!/usr/bin/env node
// The test-only AddressSanitizer build (never shipped: it is not in dist/ nor in the package's
// files), rebuilt only when something it reads changed (or with --force). CMake option
// WG_WASM_ASAN: the same sources with -fsanitize=address, the Node glues only, laid out like the
// package, so that import('build/asan/js/index.mjs') is the library with sanitized kernels:
//   build/asan/dist/   wasm-gather-simd{,-threaded}.{wasm,node.cjs} (+ the threaded worker file)
//   build/asan/js/     a copy of js/*.mjs (the loader finds ../dist/ next to it)
//   build/asan/fuzz/   wasm-gather-fuzz-simd{,-threaded}.{cjs,wasm}: tests/fuzz/fuzz_ops.c with
//                      entry points wg_fuzz_<op> (tests/asan-wasm/fuzz.mjs feeds them)
// Usage: node scripts/build-asan.mjs [--force]
import { copyFileSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { VARIANTS, artifacts, cmakeBuild, inputs, patchGlues, root, stamp, upToDate } from './wasm-build.mjs';

const out = join(root, 'build', 'asan');
const buildDir = join(root, 'build', 'wasm-asan');
const stampFile = join(out, '.build-stamp');

const LIBRARY = artifacts({ web: false });
const FUZZ = VARIANTS.flatMap((v) => {
  const base = `wasm-gather-fuzz-${v.name}`;
  return [`${base}.cjs`, `${base}.wasm`, ...(v.threads ? [`${base}.worker.js`] : [])];
});
const JS = readdirSync(join(root, 'js'), { recursive: true }).filter((f) => f.endsWith('.mjs')); // js/ops/ too
const outputs = [
  ...LIBRARY.map(({ to }) => join(out, 'dist', to)),
  ...FUZZ.map((f) => join(out, 'fuzz', f)),
  ...JS.map((f) => join(out, 'js', f)),
];

function build() {
  const targets = [...LIBRARY.filter(({ from }) => from.endsWith('.cjs')).map(({ from }) => from),
    ...FUZZ.filter((f) => f.endsWith('.cjs'))];
  cmakeBuild(buildDir, { defines: ['WG_WASM_ASAN=ON'], targets });
  rmSync(out, { recursive: true, force: true });
  for (const dir of ['dist', 'fuzz', 'js']) mkdirSync(join(out, dir), { recursive: true });
  for (const { from, to } of LIBRARY) copyFileSync(join(buildDir, from), join(out, 'dist', to));
  for (const f of FUZZ) copyFileSync(join(buildDir, f), join(out, 'fuzz', f));
  for (const f of JS) {
    mkdirSync(dirname(join(out, 'js', f)), { recursive: true });
    copyFileSync(join(root, 'js', f), join(out, 'js', f));
  }
  patchGlues(VARIANTS.filter((v) => v.threads).map((v) => join(out, 'dist', `wasm-gather-${v.name}.node.cjs`)), { web: false });
  // The worker files are CommonJS in .js files, and the repository is "type": "module".
  for (const dir of ['dist', 'fuzz']) writeFileSync(join(out, dir, 'package.json'), '{ "type": "commonjs" }\n');
}

const s = stamp(inputs([relative(root, fileURLToPath(import.meta.url)), 'js', 'tests/asan-wasm/asan_options.c', 'tests/asan-wasm/offset-converter-pre.js', 'tests/asan-wasm/direct-stderr.js', 'tests/fuzz/fuzz_ops.c']));
if (process.argv.includes('--force') || !upToDate(stampFile, s, outputs)) {
  const t0 = Date.now();
  build();
  writeFileSync(stampFile, s);
  console.log(`wasm-gather: built ${relative(process.cwd(), out) || '.'}/ (AddressSanitizer, ${((Date.now() - t0) / 1000).toFixed(1)} s)`);
}
