// Finds out what the host can run, picks a variant, compiles or takes the .wasm, and
// instantiates the Emscripten glue. Nothing here touches globals or installs handlers.

const VARIANTS = ['simd-threaded', 'simd'];

// Static import() specifiers, so that bundlers can see every file the library may load.
const GLUES = {
  'simd-threaded': {
    node: () => import('../dist/wasm-gather-simd-threaded.node.cjs'),
    web: () => import('../dist/wasm-gather-simd-threaded.web.mjs'),
  },
  simd: {
    node: () => import('../dist/wasm-gather-simd.node.cjs'),
    web: () => import('../dist/wasm-gather-simd.web.mjs'),
  },
};
const WASM_URLS = {
  'simd-threaded': () => new URL('../dist/wasm-gather-simd-threaded.wasm', import.meta.url),
  simd: () => new URL('../dist/wasm-gather-simd.wasm', import.meta.url),
};

/** What the host is and can do. */
export function detectEnvironment() {
  const g = globalThis;
  const isDeno = typeof g.Deno === 'object';
  const isWorkerd = typeof g.navigator === 'object' && g.navigator.userAgent === 'Cloudflare-Workers';
  // Node and Bun: the CommonJS glue with worker_threads. Deno and workerd also report
  // process.versions.node, but must take the web glue (toolchain-notes.md).
  const isNode = typeof g.process === 'object' && !!g.process.versions?.node && !isDeno && !isWorkerd;
  const hasSAB = typeof g.SharedArrayBuffer === 'function';
  // Browsers only hand SharedArrayBuffer to workers on cross-origin isolated pages.
  const canThread = hasSAB && (isNode || (g.crossOriginIsolated === true && typeof g.Worker === 'function' && !isDeno));
  return { isNode, isDeno, isWorkerd, hasSAB, canThread };
}

// The smallest module that uses a v128 instruction: validates only where SIMD is supported.
const SIMD_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0,
  10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11]);

async function defaultThreads(env) {
  let cores = globalThis.navigator?.hardwareConcurrency;
  if (!cores && env.isNode) {
    const os = await import('node:os');
    cores = os.availableParallelism ? os.availableParallelism() : os.cpus().length;
  }
  return Math.max(1, Math.min(4, cores || 1));
}

/** Resolves init() options into { variant, threads }, or throws saying why not. */
export async function chooseConfig(opts, env) {
  const { variant, threads } = opts;
  if (variant !== undefined && !VARIANTS.includes(variant)) {
    throw new RangeError(`init: opts.variant must be 'simd-threaded' or 'simd', got ${JSON.stringify(variant)}`);
  }
  if (threads !== undefined && !(Number.isInteger(threads) && threads >= 1 && threads <= 64)) {
    throw new RangeError(`init: opts.threads must be an integer from 1 to 64, got ${String(threads)}`);
  }
  if (variant === 'simd-threaded' && !env.hasSAB) {
    throw new Error("init: variant 'simd-threaded' needs SharedArrayBuffer, which this host does not " +
      "provide (a browser page must be cross-origin isolated: COOP same-origin + COEP require-corp); " +
      "use variant 'simd' or leave it unset");
  }
  const chosen = variant ?? (env.canThread && threads !== 1 ? 'simd-threaded' : 'simd');
  let n = chosen === 'simd' ? 1 : (threads ?? await defaultThreads(env));
  if (!env.canThread) n = 1; // a pthreads build with a pool of 0 still runs, on the caller
  return { variant: chosen, threads: n };
}

async function compileWasm(source, variant, env) {
  if (source instanceof WebAssembly.Module) return source;
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) return WebAssembly.compile(source);
  const url = source === undefined ? WASM_URLS[variant]() : source instanceof URL ? source : new URL(String(source), import.meta.url);
  if (env.isNode && url.protocol === 'file:') {
    // Node's fetch() does not read file: URLs.
    const [{ readFile }, { fileURLToPath }] = await Promise.all([import('node:fs/promises'), import('node:url')]);
    return WebAssembly.compile(await readFile(fileURLToPath(url)));
  }
  const response = await fetch(url);
  if (!response.ok) throw new Error(`init: could not fetch ${url} (HTTP ${response.status})`);
  if (WebAssembly.compileStreaming && response.headers.get('content-type') === 'application/wasm') {
    return WebAssembly.compileStreaming(response);
  }
  return WebAssembly.compile(await response.arrayBuffer());
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
  const { variant, threads } = await chooseConfig(opts, env);
  const [glue, wasmModule] = await Promise.all([
    GLUES[variant][env.isNode ? 'node' : 'web'](),
    compileWasm(opts.wasm, variant, env),
  ]);
  const factory = glue.default;
  let memory;
  const moduleArg = {
    wgWorkers: threads - 1,
    // Always instantiate from our compiled Module: the glue's own loading fetches file paths,
    // which fails in Node, and compiling bytes is forbidden in workerd.
    instantiateWasm(imports, receiveInstance) {
      WebAssembly.instantiate(wasmModule, imports).then((instance) => {
        memory = findMemory(instance, imports);
        receiveInstance(instance, wasmModule);
      }, (e) => { failed(e); });
      return {};
    },
  };
  // Without threads nothing else is loaded, and in workerd `new URL(x, import.meta.url)` may fail.
  if (variant === 'simd') moduleArg.locateFile = (p) => p;
  let failed;
  const failure = new Promise((_, reject) => { failed = reject; });
  const module = await Promise.race([factory(moduleArg), failure]);
  return { module, memory, variant, threads };
}
