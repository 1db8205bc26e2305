import { init, take } from 'wasm-gather';
import wasm from 'wasm-gather/simd.wasm'; // a WebAssembly.Module: compiling is not allowed here

export default {
  async fetch() {
    const info = await init({ wasm }); // instantiated synchronously from the module
    const rows = take({ data: new Float32Array([1, 2, 3, 4, 5, 6]), shape: [3, 2] }, { data: [2, 0], shape: [2] });
    return Response.json({ ...info, rows: Array.from(rows.data) });
  },
};
