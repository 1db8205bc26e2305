// Builds the native benchmark driver (bench/native/bench_native.c over the library's C sources,
// the bench_native target of the top-level CMakeLists.txt) into build/bench-native/, only when
// the binary is missing or older than a source.
//   import { buildNative } from './native/build.mjs';
//   const bin = await buildNative(); // path of the bench_native binary
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const exec = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const buildDir = join(root, 'build', 'bench-native');
const binary = join(buildDir, process.platform === 'win32' ? 'bench_native.exe' : 'bench_native');

// Newest modification time of the files (not subdirectories) in dir that pass keep.
function newest(dir, keep = () => true) {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isFile() && keep(e.name)) t = Math.max(t, statSync(join(dir, e.name)).mtimeMs);
  }
  return t;
}

function isStale() {
  if (!existsSync(binary)) return true;
  const sources = Math.max(
    newest(join(root, 'src'), (n) => n.endsWith('.c') || n.endsWith('.h')),
    newest(join(root, 'bench', 'native')),
    statSync(join(root, 'CMakeLists.txt')).mtimeMs,
  );
  return statSync(binary).mtimeMs < sources;
}

// Runs a command in the repository root; a failure becomes an Error carrying its output.
async function run(cmd, args) {
  try {
    await exec(cmd, args, { cwd: root, maxBuffer: 16 << 20 });
  } catch (e) {
    if (e.code === 'ENOENT') {
      throw new Error(`bench-native: ${cmd} not found; install CMake (>= 3.13) to build the native baseline`);
    }
    const output = `${e.stdout ?? ''}${e.stderr ?? ''}`;
    throw new Error(`bench-native: ${cmd} ${args.join(' ')} failed:\n${output}`);
  }
}

async function haveCompiler() {
  const candidates = [process.env.CC, 'cc', 'gcc', 'clang'].filter(Boolean);
  for (const cc of candidates) {
    try {
      await exec(cc, ['--version']);
      return true;
    } catch {}
  }
  return false;
}

/** Builds the driver if needed; resolves to the path of the bench_native binary. */
export async function buildNative() {
  if (!isStale()) return binary;
  // Checked up front so that a missing tool gives one clear line, not a CMake log.
  await run('cmake', ['--version']);
  if (!(await haveCompiler())) {
    throw new Error('bench-native: no C compiler found (tried $CC, cc, gcc, clang); install gcc or clang');
  }
  await run('cmake', ['-S', '.', '-B', 'build/bench-native', '-DCMAKE_BUILD_TYPE=Release']);
  await run('cmake', ['--build', 'build/bench-native', '--target', 'bench_native', '--parallel', '2']);
  if (!existsSync(binary)) throw new Error(`bench-native: the build finished but ${binary} is missing`);
  return binary;
}
