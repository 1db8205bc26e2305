// The type tests of esm.ts through require('wasm-gather') (js/index.d.cts), require('wasm-gather/tfjs')
// (js/tfjs.d.cts) and require('wasm-gather/simd.wasm') (js/wasm.d.cts), under nodenext and node16
// (tests/package/types.test.mjs).
import wg = require('wasm-gather');
import tfjs = require('wasm-gather/tfjs');
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
  // the scatters: { inPlace: true } gives back the resident tensor it updated
  const rows: wg.ResidentTensor<Int32Array> = wg.upload({ data: new Int32Array(6), shape: [2, 3] });
  const same: wg.ResidentTensor<Int32Array> = wg.scatter(rows, 1, { data: [0, 2], shape: [2, 1] }, 5, { inPlace: true });
  const sums: wg.Result<Int32Array> = wg.indexReduce(rows, 0, { data: [1], shape: [1] }, { data: new Int32Array(3), shape: [1, 3] },
    { reduce: 'add' });
  const cache: wg.Result<Int32Array> = wg.tensorScatter(rows, { data: new Int32Array(2), shape: [2, 1] }, null, { axis: 1, mode: 'circular' });
  const sOpts: wg.ScatterOptions<Int32Array> = { reduce: 'max', includeSelf: false };
  // @ts-expect-error: in place it is the resident tensor, not a Result
  const notR: wg.Result<Int32Array> = wg.scatterND(rows, { data: [1], shape: [1, 1] }, { data: new Int32Array(3), shape: [1, 3] }, { inPlace: true });
  // the masks' ops: int64 coordinates are a BigInt64Array; { resident: true } a ResidentTensor; a
  // resident opts.out the result's data; maskedScatter in place the resident x
  const coords: wg.Result<BigInt64Array> = wg.nonZero(rows, { indexType: 'int64', layout: 'torch' });
  // @ts-expect-error: int64 coordinates are bigints
  const notInt32: Int32Array = wg.nonZero(rows, { indexType: 'int64' }).data;
  const nzOpts: wg.NonZeroOptions = { layout: 'onnx', indexType: 'int32' };
  const keptCoords: wg.ResidentTensor<Int32Array> = wg.nonZero(rows, { resident: true });
  const selected: wg.Result<Int32Array> = wg.booleanMask(rows, { data: new Uint8Array([1, 0]), shape: [2] });
  const selectedInto: wg.ResidentTensor<Int32Array> = wg.booleanMask(rows, { data: new Uint8Array(6), shape: [2, 3] }, { out: rows }).data;
  const bmOpts: wg.BooleanMaskOptions<Int32Array> = { axis: -1 };
  const kept3: wg.ResidentTensor<Int32Array> = wg.compress(rows, { data: new Uint8Array([1, 0, 1]), shape: [3] }, { axis: 1, resident: true });
  const mOpts: wg.MaskOptions<Int32Array> = { out: new Int32Array(6) };
  const res: wg.MaskResult<Int32Array, {}> = wg.compress(rows, { data: new Uint8Array([1, 0, 1]), shape: [3] }, mOpts);
  const written: wg.ResidentTensor<Int32Array> = wg.maskedScatter(rows, { data: new Uint8Array(6), shape: [2, 3] },
    { data: new Int32Array(6), shape: [6] }, { inPlace: true });
  const msOpts: wg.MaskedScatterOptions<Int32Array> = { resident: false };
  // @ts-expect-error: in place it is the resident tensor, not a Result
  const notW: wg.Result<Int32Array> = wg.maskedScatter(rows, { data: new Uint8Array(6), shape: [2, 3] }, { data: new Int32Array(6), shape: [6] },
    { inPlace: true });
  keptCoords.dispose();
  kept3.dispose();
  rows.dispose();
  kept.dispose();
  wg.dispose();
  console.log(built, either, notSurelyResident, r.data.length, same, sums, cache, sOpts, notR, coords, notInt32, nzOpts, selected, selectedInto,
    bmOpts, res, written, msOpts, notW);
}
main();

// tf: require('@tensorflow/tfjs-core'), an optional peer not installed here.
async function adapter(tf: tfjs.TfjsCoreNamespace): Promise<void> {
  const before: tfjs.KernelStats = tfjs.kernelStats(); // all zero until registerKernels
  const done: tfjs.KernelEntry[] = await tfjs.registerKernels(tf, { backends: ['cpu'], init: { variant: 'simd' } });
  // @ts-expect-error: a backend the adapter does not serve
  await tfjs.registerKernels(tf, { backends: ['webgl'] });
  const undone: tfjs.KernelEntry[] = tfjs.unregisterKernels(tf);
  console.log(before.calls, done, undone);
}
