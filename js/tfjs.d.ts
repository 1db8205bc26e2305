// Types of the ES module entry of wasm-gather/tfjs (js/tfjs.mjs): the same API as the CommonJS
// entry's, whose declarations (tfjs.d.cts) are the one copy.
export * from './tfjs.cjs';
