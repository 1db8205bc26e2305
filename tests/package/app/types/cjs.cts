// The type tests of esm.ts through require('wasm-gather') (js/index.d.cts) and
// require('wasm-gather/simd.wasm') (js/wasm.d.cts), under nodenext and node16 (tests/package/types.test.mjs).
import wg = require('wasm-gather');
import simd = require('wasm-gather/simd.wasm');
import simdThreaded = require('wasm-gather/simd-threaded.wasm');

async function main(): Promise<void> {
  try {
    wg.take({ data: new Float32Array(2), shape: [2] }, { data: [0], shape: [1] });
  } catch (e) {
    const code: wg.ErrorCode = (e as wg.WasmGatherError).code; // 'ERR_WG_NOT_INITIALIZED' before init()
    console.log(code);
  }
  await wg.init({ wasm: simd });
  const built: WebAssembly.Module | BufferSource | URL | string = simdThreaded;
  const params = { data: new Float32Array(6), shape: new Int32Array([3, 2]) };
  const idx = { data: [2, 0], shape: [2] };
  const o = { resident: true };
  const either: wg.Result<Float32Array> | wg.ResidentTensor<Float32Array> = wg.take(params, idx, o);
  // @ts-expect-error: it may be a Result
  const notSurelyResident: wg.ResidentTensor<Float32Array> = wg.take(params, idx, o);
  const kept: wg.ResidentTensor<Float32Array> = wg.take(params, idx, { resident: true });
  const opts: wg.TakeOptions<Float32Array> = { axis: 0, out: new Float32Array(4) };
  const r: wg.Result<Float32Array> = wg.take(params, idx, opts);
  // @ts-expect-error: an option name take does not take
  wg.take(params, idx, { outofRange: 'zero' });
  kept.dispose();
  wg.dispose();
  console.log(built, either, notSurelyResident, r.data.length);
}
main();
