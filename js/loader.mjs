// Finds out what the host can run, picks a variant, compiles or accepts the .wasm, and
// instantiates the Emscripten glue. Nothing here touches globals or installs handlers.
import { describeValue } from './describe.mjs';

const VARIANTS = ['simd-threaded', 'simd'];

// The web glues are static import() specifiers, so that bundlers see and include them. The Node
// glues (CommonJS, worker_threads, fs) and node: modules are imported through a computed URL
// that bundlers leave alone: only Node and Bun ever load them, and a browser bundle that
// resolved them would fail on 'fs'.
const WEB_GLUES = {
  'simd-threaded': () => import('../dist/wasm-gather-simd-threaded.web.mjs'),
  simd: () => import('../dist/wasm-gather-simd.web.mjs'),
};
const hostImport = (specifier) => import(/* webpackIgnore: true */ /* @vite-ignore */ specifier);
const nodeGlue = (variant) => hostImport(new URL(/* webpackIgnore: true */ /* @vite-ignore */ `../dist/wasm-gather-${variant}.node.cjs`, import.meta.url).href);
const WASM_URLS = {
  'simd-threaded': () => new URL('../dist/wasm-gather-simd-threaded.wasm', import.meta.url),
  simd: () => new URL('../dist/wasm-gather-simd.wasm', import.meta.url),
};

/**
 * Test-only and undocumented, not part of the API: the opts key (a Symbol, so no caller sets it
 * by chance) through which tests/unit/init.test.mjs makes start-up come up short or fail.
 * { workers: n } preloads n pool workers instead of threads - 1, so that pthread_create really
 * fails past them; { loaded(module, memory) } runs on the Emscripten module before the pool is made.
 */
export const TEST_HOOKS = Symbol('wasm-gather test hooks');

/** What the host is and can do. */
export function detectEnvironment() {
  const g = globalThis;
  const isDeno = typeof g.Deno === 'object';
  const isWorkerd = typeof g.navigator === 'object' && g.navigator.userAgent === 'Cloudflare-Workers';
  const isEdgeLight = typeof g.EdgeRuntime === 'string'; // Vercel Edge and its edge-runtime package
  // Node and Bun: the CommonJS glue with worker_threads. Deno and workerd also report
  // process.versions.node, but must load the web glue (docs/toolchain.md).
  const isNode = typeof g.process === 'object' && !!g.process.versions?.node && !isDeno && !isWorkerd && !isEdgeLight;
  const hasSAB = typeof g.SharedArrayBuffer === 'function';
  const hasWorker = typeof g.Worker === 'function';
  // Node and Bun share memory with worker_threads. A browser may only where shared memory can be
  // posted, as the threaded build posts it to its workers: try that once (postSharedMemory), and
  // only if threads are in question (chooseConfig reads canThread only then).
  let post;
  const probe = () => (post ??= isNode ? { ok: hasSAB } : hasWorker && !isDeno ? postSharedMemory(g) : { ok: false });
  return {
    isNode, isDeno, isWorkerd, isEdgeLight, hasSAB, hasWorker,
    get canThread() { return probe().ok; },
    get postError() { return probe().error; },
  };
}

/**
 * Posts a shared WebAssembly.Memory through a MessagePort of this agent. Browsers refuse
 * (DataCloneError) on pages that are not cross-origin isolated, and WebKitGTK, whose
 * JavaScriptCore leaves useSharedArrayBuffer off, refuses even on isolated ones, where
 * crossOriginIsolated is true. The refusal is the serialization's, whatever the port leads to:
 * https://html.spec.whatwg.org/multipage/structured-data.html#structuredserializeinternal
 * (SharedArrayBuffer step). Not a worker: each `new Worker()` inside a dedicated worker is a
 * chance for Firefox ESR 153's to never return (docs/toolchain.md), and the port makes none.
 */
function postSharedMemory(g) {
  if (typeof g.MessageChannel !== 'function') return { ok: false };
  let memory;
  try {
    memory = new WebAssembly.Memory({ initial: 1, maximum: 1, shared: true });
  } catch (e) {
    return { ok: false, error: e };
  }
  const channel = new g.MessageChannel();
  try {
    channel.port1.postMessage(memory);
    return { ok: true };
  } catch (e) {
    return { ok: false, error: e };
  } finally {
    channel.port1.close();
    channel.port2.close();
  }
}

/** Why this host cannot run the threaded build, in words for a warning. */
function noThreadsReason(env) {
  if (env.isDeno) return "Deno cannot start this build's worker threads";
  if (env.isWorkerd || env.isEdgeLight || !env.hasWorker) return 'this host has no Worker (edge runtimes run one thread)';
  if (globalThis.crossOriginIsolated !== true) {
    return 'the page is not cross-origin isolated (serve it with Cross-Origin-Opener-Policy: same-origin and ' +
      'Cross-Origin-Embedder-Policy: require-corp), so SharedArrayBuffer cannot be shared with workers';
  }
  const why = env.postError ? ` (posting shared memory to a worker throws ${env.postError.name})` : '';
  return `the page is cross-origin isolated, but this engine cannot share memory with workers${why}`;
}

const warned = new Set();
export function warnOnce(message) {
  if (warned.has(message)) return;
  warned.add(message);
  console.warn(message);
}

// The smallest module that uses a v128 instruction: validates only where SIMD is supported.
const SIMD_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0,
  10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11]);

// The threads init() starts when not told (docs/environments.md, "How many threads"). Node and
// Bun: the cores, up to the 16 measured: on 16 cores every doubling of the threads up to 16 sped
// up the P suite's large calls, 1.3-1.9x from 8 to 16, for about 10 MB and a few ms of init a
// worker (docs/benchmarks.md, P). A browser: at most 4, as before; its cores were not measured
// past 2, its hardwareConcurrency counts logical processors, and the page's own thread spins
// while a call runs.
const MOST_THREADS_BY_DEFAULT = { node: 16, browser: 4 };

async function defaultThreads(env) {
  let cores, most;
  if (env.isNode) {
    const os = await hostImport('node:os');
    cores = os.availableParallelism ? os.availableParallelism() : os.cpus().length;
    most = MOST_THREADS_BY_DEFAULT.node;
  } else {
    cores = globalThis.navigator?.hardwareConcurrency;
    most = MOST_THREADS_BY_DEFAULT.browser;
  }
  return Math.max(1, Math.min(most, cores || 1));
}

/** Which build a Module is: the threaded one imports its (shared) memory, the other makes its own. */
export function moduleVariant(module) {
  return WebAssembly.Module.imports(module).some((i) => i.kind === 'memory') ? 'simd-threaded' : 'simd';
}

function checkOptions({ variant, threads }) {
  if (variant !== undefined && !VARIANTS.includes(variant)) {
    throw new RangeError(`init: opts.variant must be 'simd-threaded' or 'simd', got ${typeof variant === 'string' ? JSON.stringify(variant) : describeValue(variant)}`);
  }
  if (threads !== undefined && !(Number.isInteger(threads) && threads >= 1 && threads <= 64)) {
    throw new RangeError(`init: opts.threads must be an integer from 1 to 64, got ${describeValue(threads)}`);
  }
}

// A given Module only runs on the glue of its own build (another glue's imports fail to link).
function checkBuild(variant, built) {
  if (built && variant !== undefined && variant !== built) {
    throw new RangeError(`init: opts.wasm is the ${built} build, but opts.variant is '${variant}'; ` +
      `pass the ${variant} build (wasm-gather/${variant}.wasm) or leave opts.variant out`);
  }
}

// Where threads can't run: one thread, on a given Module's own build (the threaded glue with no
// workers runs single-threaded), else on simd; says why once if threads were asked for.
function oneThread({ variant, threads }, env, built) {
  const run = built ?? 'simd';
  if (run === 'simd-threaded' && !env.hasSAB) {
    throw new Error('init: opts.wasm is the simd-threaded build, whose memory is a SharedArrayBuffer, which this host ' +
      'does not have; pass the simd build (wasm-gather/simd.wasm)');
  }
  if ((variant ?? built) === 'simd-threaded' || (variant === undefined && threads > 1)) {
    warnOnce(`wasm-gather: running on one thread (variant '${run}'): ${noThreadsReason(env)}`);
  }
  return { variant: run, threads: 1 };
}

// The simd build given as opts.wasm, with threads asked for: it has none, so one thread, and
// says so once: the threaded build would have them where the host can run them, else the host is why.
function simdGiven(threads, env) {
  const why = env.canThread
    ? `opts.wasm is the simd build, which has no threads; pass the simd-threaded build (wasm-gather/simd-threaded.wasm) for ${threads} threads`
    : noThreadsReason(env);
  warnOnce(`wasm-gather: running on one thread (variant 'simd'): ${why}`);
}

/**
 * Resolves init() options into { variant, threads }, or throws saying why not. built: the
 * variant of the Module given as opts.wasm (moduleVariant), if one was.
 */
export async function chooseConfig(opts, env, built) {
  checkOptions(opts);
  checkBuild(opts.variant, built);
  const { variant, threads } = opts;
  const chosen = variant ?? built ?? (threads !== 1 ? 'simd-threaded' : 'simd');
  if (chosen === 'simd') {
    if (built === 'simd' && threads > 1) simdGiven(threads, env);
    return { variant: 'simd', threads: 1 };
  }
  if (!env.canThread) return oneThread(opts, env, built);
  return { variant: chosen, threads: threads ?? await defaultThreads(env) };
}

const WASM_MAGIC = [0x00, 0x61, 0x73, 0x6d]; // "\0asm"

// Compiles bytes that came from `url`, or says plainly that they are not wasm (a server that
// answers every path with its HTML page is the usual cause).
function compileFetched(bytes, url, contentType) {
  const head = new Uint8Array(bytes, 0, Math.min(bytes.byteLength, 4));
  if (!WASM_MAGIC.every((b, i) => head[i] === b)) {
    const start = new TextDecoder().decode(new Uint8Array(bytes, 0, Math.min(bytes.byteLength, 40)));
    throw new Error(`init: ${url} is not a WebAssembly module (content-type ${contentType || 'unset'}, ` +
      `it starts with ${JSON.stringify(start)}); the server must serve the package's .wasm file at that URL`);
  }
  return WebAssembly.compile(bytes);
}

// A WebAssembly.Module, also one made in another realm (edge-runtime hands its bindings in
// from the host's realm, where instanceof fails).
const isModule = (x) => x instanceof WebAssembly.Module || Object.prototype.toString.call(x) === '[object WebAssembly.Module]';

async function compileWasm(source, env) {
  if (isModule(source)) return source;
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) return WebAssembly.compile(source);
  const url = source instanceof URL ? source : new URL(/* webpackIgnore: true */ String(source), import.meta.url); // resolved at run time, not by a bundler
  if (env.isNode && url.protocol === 'file:') {
    // Node's fetch() does not read file: URLs.
    const [{ readFile }, { fileURLToPath }] = await Promise.all([hostImport('node:fs/promises'), hostImport('node:url')]);
    const buf = await readFile(fileURLToPath(url));
    return compileFetched(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength), url, '');
  }
  const response = await fetch(url);
  if (!response.ok) throw new Error(`init: could not fetch ${url} (HTTP ${response.status})`);
  const contentType = response.headers.get('content-type') ?? '';
  if (WebAssembly.compileStreaming && contentType === 'application/wasm') {
    return WebAssembly.compileStreaming(response).catch((e) => {
      throw new Error(`init: ${url} did not compile as WebAssembly: ${e.message}`);
    });
  }
  return compileFetched(await response.arrayBuffer(), url, contentType);
}

function findMemory(instance, imports) {
  for (const v of Object.values(instance.exports)) if (v instanceof WebAssembly.Memory) return v;
  for (const ns of Object.values(imports)) {
    for (const v of Object.values(ns)) if (v instanceof WebAssembly.Memory) return v;
  }
  throw new Error('init: the wasm module has no memory');
}

/**
 * Loads a variant. Resolves to { module, memory, variant, threads } where module is the
 * Emscripten module (its exports are the C API) and memory its WebAssembly.Memory.
 */
export async function load(opts = {}) {
  const env = detectEnvironment();
  if (!WebAssembly.validate(SIMD_PROBE)) {
    throw new Error('init: this WebAssembly engine has no SIMD support, which wasm-gather requires');
  }
  checkOptions(opts); // before anything is fetched or compiled
  const precompiled = isModule(opts.wasm);
  // Given wasm (a Module, bytes or a URL) is one build: compiled first, it says which.
  const given = opts.wasm === undefined ? undefined : await compileWasm(opts.wasm, env);
  const { variant, threads } = await chooseConfig(opts, env, given && moduleVariant(given));
  const [glue, wasmModule] = await Promise.all([
    env.isNode ? nodeGlue(variant) : WEB_GLUES[variant](),
    given ?? compileWasm(WASM_URLS[variant](), env),
  ]);
  const factory = glue.default;
  let memory;
  const moduleArg = {
    wgWorkers: opts[TEST_HOOKS]?.workers ?? threads - 1,
    // Always instantiate from our compiled Module: the glue's own loading fetches file paths,
    // which fails in Node, and compiling bytes is forbidden in workerd.
    instantiateWasm(imports, receiveInstance) {
      if (precompiled) {
        // The caller's Module (edge runtimes): instantiate synchronously, nothing to compile.
        try {
          const instance = new WebAssembly.Instance(wasmModule, imports);
          memory = findMemory(instance, imports);
          receiveInstance(instance, wasmModule);
          return instance.exports;
        } catch (e) {
          failed(e); // the glue would only log it and never resolve
          return {};
        }
      }
      WebAssembly.instantiate(wasmModule, imports).then((instance) => {
        memory = findMemory(instance, imports);
        receiveInstance(instance, wasmModule);
      }, (e) => { failed(e); });
      return {};
    },
  };
  // Without workers nothing else is loaded, and in workerd `new URL(x, import.meta.url)` may fail.
  if (moduleArg.wgWorkers === 0) moduleArg.locateFile = (p) => p;
  let failed;
  const failure = new Promise((_, reject) => { failed = reject; });
  const module = await Promise.race([factory(moduleArg), failure]);
  return { module, memory, variant, threads };
}
