// --pre-js of the test-only AddressSanitizer build (CMake WG_WASM_ASAN; Node glues only).
// ASan's reports name each stack frame through the glue's WasmOffsetConverter, which the
// Emscripten 3.1.6 glue builds from the .wasm bytes when it loads them itself. Given
// Module.instantiateWasm (js/loader.mjs and tests/asan-wasm/fuzz.mjs always give it) it takes
// Module.wasmOffsetData instead, which only pthread workers are handed; without it the report's
// stack throws a TypeError and the report ends after its first lines. So on Node's main thread
// build it here from the .wasm next to this glue (the workers get it from the main thread).
if (Module['instantiateWasm'] && !Module['wasmOffsetData'] && typeof __filename === 'string') {
  var wgWasmBytes = require('fs').readFileSync(__filename.replace(/(\.node)?\.cjs$/, '.wasm'));
  Module['wasmOffsetData'] = new WasmOffsetConverter(wgWasmBytes, new WebAssembly.Module(wgWasmBytes));
}
