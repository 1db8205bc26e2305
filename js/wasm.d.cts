// Types for require('wasm-gather/simd.wasm') (and 'wasm-gather/simd-threaded.wasm'): the same
// value as an import gives (js/wasm.d.ts says what it is, bundler by bundler), for init({ wasm }).
declare const wasm: WebAssembly.Module | BufferSource | URL | string;
export = wasm;
