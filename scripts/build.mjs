#!/usr/bin/env node
// Builds the wasm variants into dist/ when they are missing or out of date (or with --force).
// Needs Emscripten; on Debian as root it installs it with apt (emscripten 3.1.6 + binaryen).
// Usage: node scripts/build.mjs [--force]
import { createHash } from 'node:crypto';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const buildDir = join(root, 'build', 'wasm');
const stampFile = join(dist, '.build-stamp');

// Everything the build reads: a change to any of these rebuilds.
function inputs() {
  const files = [join(root, 'CMakeLists.txt'), fileURLToPath(import.meta.url)];
  for (const dir of ['src', 'js/glue']) {
    for (const f of readdirSync(join(root, dir)).sort()) {
      const p = join(root, dir, f);
      if (statSync(p).isFile()) files.push(p);
    }
  }
  return files;
}

function stamp() {
  const h = createHash('sha256');
  for (const f of inputs()) h.update(relative(root, f)).update('\0').update(readFileSync(f));
  return h.digest('hex');
}

// The artifacts: one .wasm per variant, and its Node (CommonJS) and web (ES module) glues.
const VARIANTS = [
  { name: 'simd-threaded', threads: true },
  { name: 'simd', threads: false },
];
function artifacts() {
  const list = [];
  for (const v of VARIANTS) {
    const base = `wasm-gather-${v.name}`;
    list.push([`${base}.node.wasm`, `${base}.wasm`], [`${base}.node.cjs`], [`${base}.web.mjs`]);
    if (v.threads) list.push([`${base}.node.worker.js`], [`${base}.web.worker.js`]);
  }
  return list.map(([from, to = from]) => ({ from, to }));
}

function upToDate(s) {
  if (!existsSync(stampFile) || readFileSync(stampFile, 'utf8') !== s) return false;
  return artifacts().every(({ to }) => existsSync(join(dist, to)));
}

function have(cmd) {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
}

function ensureToolchain() {
  const missing = [];
  if (!have('emcc') || !have('emcmake')) missing.push('emscripten', 'binaryen');
  if (!have('cmake')) missing.push('cmake');
  if (!missing.length) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot || !have('apt-get')) {
    console.error(
      `wasm-gather: ${missing.join(', ')} missing, so the wasm cannot be built.\n` +
        '  On Debian/Ubuntu: sudo apt-get install -y emscripten binaryen cmake\n' +
        '  Elsewhere: install emsdk (https://emscripten.org) and put emcc on PATH.');
    process.exit(1);
  }
  console.log(`wasm-gather: installing ${missing.join(' ')} with apt-get...`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-q'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-q', ...missing], { stdio: 'inherit', env });
}

// Post-link fixes to the pthreads glues of Emscripten 3.1.6, each applied to every glue whose
// text has the anchor (and at least one glue must have it, or the build fails loudly).
const GLUE_PATCHES = [
  {
    // With a pool of 0 workers (threads: 1, or no Worker at all) the ready promise never
    // resolves, because only a loaded worker removes the run dependency.
    why: 'pool of 0 never resolves',
    anchor: 'var numWorkersToLoad=PThread.unusedWorkers.length;',
    replace: (a) => `${a}if(!numWorkersToLoad)removeRunDependency("wasm-instantiate");`,
  },
  {
    // The Node glue assigns the global Worker; a library must not add globals to its host.
    why: 'global.Worker',
    anchor: 'global.Worker=nodeWorkerThreads.Worker',
    replace: () => 'var Worker=nodeWorkerThreads.Worker',
  },
  {
    // On a page's main thread the glue warns once that blocking there is dangerous. The pool's
    // caller only ever waits a few microseconds for tiles it handed out (never for a worker to
    // start), and a library must not write to its host's console for nothing.
    why: 'main-thread blocking warning',
    anchor: 'function _emscripten_check_blocking_allowed(){if(ENVIRONMENT_IS_WORKER)return;warnOnce(',
    replace: () => 'function _emscripten_check_blocking_allowed(){return;(',
  },
];

function patchGlues(files) {
  for (const patch of GLUE_PATCHES) {
    let applied = 0;
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      if (!text.includes(patch.anchor)) continue;
      writeFileSync(file, text.split(patch.anchor).join(patch.replace(patch.anchor)));
      applied++;
    }
    if (!applied) throw new Error(`build: glue patch '${patch.why}' found no anchor; check the Emscripten version`);
  }
}

function build() {
  ensureToolchain();
  // Debian's emcc runs its JS tools (acorn, terser) from the system node_modules.
  const env = { ...process.env, NODE_PATH: [process.env.NODE_PATH, '/usr/share/nodejs'].filter(Boolean).join(':') };
  const run = (cmd, args) => execFileSync(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'], cwd: root, env });
  run('emcmake', ['cmake', '-S', '.', '-B', buildDir, '-DCMAKE_BUILD_TYPE=Release']);
  run('cmake', ['--build', buildDir, '--parallel', '2']);
  rmSync(dist, { recursive: true, force: true });
  mkdirSync(dist, { recursive: true });
  for (const { from, to } of artifacts()) copyFileSync(join(buildDir, from), join(dist, to));
  patchGlues(VARIANTS.filter((v) => v.threads).flatMap((v) => ['node.cjs', 'web.mjs'].map((g) => join(dist, `wasm-gather-${v.name}.${g}`))));
  // The Node worker glue is CommonJS in a .js file; the package itself is "type": "module".
  writeFileSync(join(dist, 'package.json'), '{ "type": "commonjs" }\n');
}

const s = stamp();
if (process.argv.includes('--force') || !upToDate(s)) {
  build();
  writeFileSync(stampFile, s);
  console.log(`wasm-gather: built ${relative(process.cwd(), dist) || '.'}/`);
}
