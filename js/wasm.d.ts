// Types for `import wasm from 'wasm-gather/simd.wasm'` (and 'wasm-gather/simd-threaded.wasm'):
// the package's builds as files, for init({ wasm }).

/**
 * The build, as the bundler or host that resolves the import hands it over: what a `.wasm`
 * import gives is decided there, not by wasm-gather. Each form is accepted by init({ wasm }) as
 * it is, and the file's build is recognized whatever `variant` says nothing of:
 *
 * - a `WebAssembly.Module` (precompiled; required where compiling at run time is forbidden):
 *   Cloudflare Workers (wrangler's CompiledWasm rule), Vercel Edge (`'wasm-gather/simd.wasm?module'`);
 * - a URL string: webpack 5 (`type: 'asset/resource'`), esbuild (`loader: { '.wasm': 'file' }`),
 *   Vite (`'wasm-gather/simd.wasm?url'`, a specifier typed by `vite/client`, not by this file);
 * - bytes: esbuild's `loader: { '.wasm': 'binary' }` (a Uint8Array).
 *
 * Node and Bun cannot import a .wasm file this way; init() finds the file itself there (or pass
 * `import.meta.resolve('wasm-gather/simd.wasm')`, a file: URL string).
 */
declare const wasm: WebAssembly.Module | BufferSource | URL | string;
export default wasm;
