// Packs the repository with `npm pack` (dist/ must be built: npm test's pretest does it) and
// installs the tarball into a fresh scratch app, as a user would. Each test file gets its own
// app directory, so files running in parallel do not share one.
// The app also gets the smoke suite (tests/package/smoke.mjs and what it imports) and
// the app files of tests/package/app/ (README examples and the harness entries), so that every runtime runs the same files.
import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../..', import.meta.url));
// Copied to the same paths in the app, since they import each other by relative paths: the smoke
// suite's files and common/ (the reference and the seed examples it checks against).
const SMOKE_FILES = ['tests/package/smoke.mjs', 'tests/package/smoke-scatter.mjs', 'tests/package/smoke-bag.mjs', 'tests/package/smoke-mask.mjs',
  'tests/lib/random-cases.mjs', 'tests/lib/quantized-cases.mjs', 'tests/lib/rng.mjs'];

const npm = (args, cwd) => execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'],
  { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

/**
 * Packs into a fresh build/package-tests/<name>/ (nothing installed); returns { dir, tarball,
 * packed } (packed: npm pack --json's entry: filename, files, ...).
 */
export function pack(name) {
  const dir = `${root}build/package-tests/${name}`;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  // --ignore-scripts: prepack would rebuild the wasm (--force); pretest has just built it.
  const [packed] = JSON.parse(npm(['pack', '--json', '--ignore-scripts', '--pack-destination', dir], root));
  return { dir, tarball: `${dir}/${packed.filename}`, packed };
}

/** Packs and installs into build/package-tests/<name>/app; resolves to { app, tarball, packed }. */
export function packAndInstall(name) {
  const { dir, tarball, packed } = pack(name);
  for (const d of ['package', 'lib']) mkdirSync(`${dir}/app/tests/${d}`, { recursive: true });
  writeFileSync(`${dir}/app/package.json`, `${JSON.stringify({
    name: 'wasm-gather-consumer', private: true, type: 'module',
    dependencies: { 'wasm-gather': `file:../${packed.filename}` },
  }, null, 2)}\n`);
  npm(['install', '--offline'], `${dir}/app`);
  for (const f of SMOKE_FILES) copyFileSync(`${root}${f}`, `${dir}/app/${f}`);
  cpSync(`${root}common`, `${dir}/app/common`, { recursive: true });
  cpSync(`${root}tests/package/app`, `${dir}/app`, { recursive: true });
  return { app: `${dir}/app`, dir, tarball, packed };
}
