// A CommonJS consumer (require('wasm-gather'), the js/index.cjs entry), type-checked with tsc
// --noEmit against the installed package under nodenext and node16 (tsconfig*.json): the types of
// the require condition (js/index.d.cts), values and types alike.
import wg = require('wasm-gather');

async function main(): Promise<void> {
  const info: wg.InitInfo = await wg.init({ variant: 'simd', threads: 1 });
  const table: wg.ResidentTensor<Float32Array> = wg.upload({ data: new Float32Array(8), shape: [4, 2] });
  const r: wg.Result<Float32Array> = wg.take(table, { data: new Int32Array([3, 0]), shape: [2] }, { axis: 0 });
  const v: Float32Array = table.view();
  const nd: wg.Result<Int32Array> = wg.gatherND({ data: new Int32Array(4), shape: [2, 2] }, { data: [1, 0], shape: [1, 2] });
  const isResident: boolean = table instanceof wg.ResidentTensor;
  const coords: wg.Result<Int32Array> = wg.nonZero(nd, { layout: 'onnx' });
  const rows: wg.Result<Float32Array> = wg.booleanMask(table, { data: new Uint8Array([1, 0, 0, 1]), shape: [4] });
  const filled: wg.Result<Float32Array> = wg.maskedScatter(table, { data: new Uint8Array(8), shape: [4, 2] }, { data: new Float32Array(8), shape: [8] });
  const picked: wg.ResidentTensor<Float32Array> = wg.compress(table, { data: new Uint8Array([1, 1]), shape: [2] }, { axis: 0, resident: true });
  picked.dispose();
  // @ts-expect-error: take needs its indices
  wg.take(table);
  table.dispose();
  wg.dispose();
  console.log(info.variant, r.data.length, v.length, nd.shape, isResident, coords.shape, rows.data, filled.data);
}
main();
