// The steps every wasm build here shares (scripts/build.mjs: the shipped dist/;
// scripts/build-asan.mjs: the test-only AddressSanitizer build): an input stamp, so that a build
// runs only when something it reads changed; the toolchain check; emcmake + cmake; the post-link
// fixes to Emscripten 3.1.6's pthreads glue.
import { createHash } from 'node:crypto';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

// The files every build reads: CMakeLists.txt, this file, the C sources and the glue's --post-js.
// `extra`: more files or folders (relative to the root; a folder means the files directly in it).
export function inputs(extra = []) {
  const files = [];
  for (const entry of ['CMakeLists.txt', relative(root, fileURLToPath(import.meta.url)), 'src', 'js/glue', ...extra]) {
    const p = join(root, entry);
    if (!statSync(p).isDirectory()) files.push(p);
    else for (const f of readdirSync(p, { recursive: true }).sort()) if (statSync(join(p, f)).isFile()) files.push(join(p, f));
  }
  return files;
}

// The compiler's version: a different Emscripten must rebuild even when no file changed.
function toolchainVersion() {
  const r = spawnSync('emcc', ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.split('\n')[0] : 'no emcc';
}

// One hash over the toolchain's version and the names and contents of the files.
export function stamp(files) {
  const h = createHash('sha256').update(toolchainVersion()).update('\0');
  for (const f of files) h.update(relative(root, f)).update('\0').update(readFileSync(f));
  return h.digest('hex');
}

// True when stampFile holds stamp s and every output exists: nothing to build.
export function upToDate(stampFile, s, outputs) {
  if (!existsSync(stampFile) || readFileSync(stampFile, 'utf8') !== s) return false;
  return outputs.every((p) => existsSync(p));
}

// The library's variants and, per variant, its files: one .wasm (linked as <base>.node.wasm), the
// Node (CommonJS) glue, the web (ES module) glue, and the pthread worker files of each glue.
export const VARIANTS = [
  { name: 'simd-threaded', threads: true },
  { name: 'simd', threads: false },
];
export function artifacts({ web = true } = {}) {
  const list = [];
  for (const v of VARIANTS) {
    const base = `wasm-gather-${v.name}`;
    list.push([`${base}.node.wasm`, `${base}.wasm`], [`${base}.node.cjs`]);
    if (v.threads) list.push([`${base}.node.worker.js`]);
    if (web) list.push([`${base}.web.mjs`]);
    if (web && v.threads) list.push([`${base}.web.worker.js`]);
  }
  if (web) list.push(['wasm-gather-guest.wasm']); // js/guest.mjs (not in the test-only builds)
  return list.map(([from, to = from]) => ({ from, to }));
}

function have(cmd) {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
}

// Needs Emscripten and CMake; on Debian as root it installs them with apt (emscripten 3.1.6 + binaryen).
export function ensureToolchain() {
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

// emcmake cmake (with -D definitions) of `source` (default: this repository) in buildDir, then
// cmake --build of the targets (all if none).
export function cmakeBuild(buildDir, { defines = [], targets = [], source = root } = {}) {
  ensureToolchain();
  // Debian's emcc runs its JS tools (acorn, terser) from the system node_modules.
  const env = { ...process.env, NODE_PATH: [process.env.NODE_PATH, '/usr/share/nodejs'].filter(Boolean).join(':') };
  const run = (cmd, args) => execFileSync(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'], cwd: root, env });
  run('emcmake', ['cmake', '-S', source, '-B', buildDir, '-DCMAKE_BUILD_TYPE=Release', ...defines.map((d) => `-D${d}`)]);
  run('cmake', ['--build', buildDir, '--parallel', '2', ...(targets.length ? ['--target', ...targets] : [])]);
}

// Post-link fixes to the glues of Emscripten 3.1.6, each applied to every glue whose
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
    webOnly: true,
  },
  {
    // Each web glue names the .wasm it was linked beside, <name>.web.wasm, in a
    // new URL(..., import.meta.url) that bundlers resolve at build time (webpack fails: no such
    // file). The package ships that module as <name>.wasm, the file js/loader.mjs's own URL names
    // and instantiates (the glue never fetches it): name that one, so that it is one asset.
    why: '.web.wasm URL',
    anchor: /new URL\("(wasm-gather-[a-z-]+)\.web\.wasm",import\.meta\.url\)/g,
    replace: (_, name) => `new URL("${name}.wasm",import.meta.url)`,
    webOnly: true,
  },
];

// Applies the patches to the glues `files` (a string anchor everywhere it occurs, a RegExp one
// through String.replace); `{ web: false }` when no web glue is among them.
export function patchGlues(files, { web = true } = {}) {
  for (const patch of GLUE_PATCHES.filter((p) => web || !p.webOnly)) {
    let applied = 0;
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      if (typeof patch.anchor === 'string') {
        if (!text.includes(patch.anchor)) continue;
        writeFileSync(file, text.split(patch.anchor).join(patch.replace(patch.anchor)));
      } else {
        if (text.search(patch.anchor) < 0) continue;
        writeFileSync(file, text.replace(patch.anchor, patch.replace));
      }
      applied++;
    }
    if (!applied) throw new Error(`build: glue patch '${patch.why}' found no anchor; check the Emscripten version`);
  }
}
