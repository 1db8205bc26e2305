// Type tests (tests/package/types.test.mjs: tsc --noEmit against the installed package, under nodenext
// and bundler resolution): what a new user wrote and the types got wrong. Each
// `@ts-expect-error` is a line that must not compile.
import {
  embeddingBag, embeddingBagBackward, gather, gatherBlockQuantized, gatherND, indexReduce, init, scatter, scatterElements, scatterND, segmentReduce, take,
  tensorScatter, upload,
} from 'wasm-gather';
import type {
  ErrorCode, GatherBlockQuantizedOptions, GatherNDOptions, Reduce, ResidentTensor, Result, ScatterOptions, ScatterOutOfRange, Shape, TakeOptions,
  WasmGatherError,
} from 'wasm-gather';
import { kernelStats, registerKernels, unregisterKernels } from 'wasm-gather/tfjs';
import type { KernelEntry, KernelStats, TfjsCoreNamespace } from 'wasm-gather/tfjs';
import simd from 'wasm-gather/simd.wasm';
import simdThreaded from 'wasm-gather/simd-threaded.wasm';

// 1c: the builds as imports, accepted by init({ wasm }) whatever a bundler makes of them.
await init({ wasm: simd });
await init({ wasm: simdThreaded, variant: 'simd-threaded' });
const built: WebAssembly.Module | BufferSource | URL | string = simd;
// @ts-expect-error: not a number
const notNumber: number = simdThreaded;

const params = { data: new Float32Array(6), shape: [3, 2] };
const idx = { data: [2, 0], shape: [2] };

// 1a: options held in a variable. A widened `resident: boolean` gives the union.
const o = { resident: true };
const either = take(params, idx, o);
const eitherOk: Result<Float32Array> | ResidentTensor<Float32Array> = either;
// @ts-expect-error: it may be a Result
const notSurelyResident: ResidentTensor<Float32Array> = either;
// @ts-expect-error: it may be a ResidentTensor
const notSurelyResult: Result<Float32Array> = either;
if (either instanceof Object && 'dispose' in either) either.dispose();
// ... a literal (inline, or `as const`) gives the one it is.
const kept: ResidentTensor<Float32Array> = take(params, idx, { resident: true });
const keptConst: ResidentTensor<Float32Array> = take(params, idx, { resident: true } as const);
const plain: Result<Float32Array> = take(params, idx, { resident: false });
const none: Result<Float32Array> = take(params, idx);
const axisOnly = { axis: 1 };
const axisResult: Result<Float32Array> = take(params, idx, axisOnly);
// ... a resident out gives it back, a TypedArray out a Result, either of them the union.
const inPlace: ResidentTensor<Float32Array> = take(params, idx, { out: kept });
const into: Result<Float32Array> = take(params, idx, { out: new Float32Array(4) });
const someOut = Math.random() < 0.5 ? kept : new Float32Array(4);
// @ts-expect-error: out may be resident
const maybeInPlace: Result<Float32Array> = take(params, idx, { out: someOut });
const flag = Math.random() < 0.5;
const byFlag: Result<Int32Array> | ResidentTensor<Int32Array> = gather({ data: new Int32Array(4), shape: [2, 2] }, 1,
  { data: [0, 1, 1, 0], shape: [2, 2] }, { resident: flag });

// 1b: option types named with the bare TypedArray (any buffer, TypeScript 5.7+), passed on.
const takeOpts: TakeOptions<Float32Array> = { axis: 0, out: new Float32Array(4) };
const viaTakeOpts: Result<Float32Array> = take(params, idx, takeOpts);
const ndOpts: GatherNDOptions<Int32Array> = { batchDims: 0, outOfRange: 'zero' };
const nd: Result<Int32Array> = gatherND({ data: new Int32Array(4), shape: [2, 2] }, { data: [1], shape: [1, 1] }, ndOpts);
const qOpts: GatherBlockQuantizedOptions<Float32Array> = { bits: 4, blockSize: 16 };
const deq: Result<Float32Array> = gatherBlockQuantized({ data: new Uint8Array(16), shape: [2, 8] }, idx,
  { data: new Float32Array(2), shape: [2, 1] }, qOpts);
// A shared buffer on either side.
const shared = new Float32Array(new SharedArrayBuffer(16));
const intoShared: Result<Float32Array> = take(params, idx, { out: shared });
const fromShared: Result<Float32Array> = take({ data: shared, shape: [4] }, idx, { out: new Float32Array(2) });
const view: Float32Array = kept.view();
// @ts-expect-error: out must have the data's type
take(params, idx, { out: new Int32Array(4) });
// @ts-expect-error: TakeOptions of another type
take(params, idx, { axis: 0, out: new Float64Array(4) } as TakeOptions<Float64Array>);
// @ts-expect-error: an option name the op does not take (it throws at run time too)
take(params, idx, { outofRange: 'zero' });
// @ts-expect-error: gatherND has no axis
gatherND(params, { data: [1], shape: [1, 1] }, { axis: 0 });

// 3: shapes as TypedArrays, wherever a shape is given.
const i32Shape: Shape = new Int32Array([3, 2]);
const fromTyped: Result<Float32Array> = take({ data: new Float32Array(6), shape: new Int32Array([3, 2]) },
  { data: new Int32Array([1]), dims: new Uint32Array([1]) }, { out: { data: new Float32Array(2), shape: new Uint32Array([1, 2]) } });
const up: ResidentTensor<Float64Array> = upload({ data: new Float64Array(4), shape: new Float64Array([2, 2]) });
const deqTyped: Result<Uint16Array> = gatherBlockQuantized({ data: new Uint8Array(16), shape: new Int32Array([2, 8]) }, idx,
  { data: new Uint16Array(2), shape: new Uint8Array([2, 1]) },
  { bits: 4, blockSize: 16, zeroPoints: { data: new Uint8Array(1), shape: new Uint16Array([2, 1]) } });
// @ts-expect-error: bigints are not a shape
take({ data: new Float32Array(6), shape: new BigInt64Array(2) }, idx);
// @ts-expect-error: nor is a string
take({ data: new Float32Array(6), shape: '3,2' }, idx);

// 5: the scatters: results as the gathers', and { inPlace: true } (inline, or `as const`) gives back
// the resident tensor it updated.
const bins: Result<Int32Array> = scatter({ data: new Int32Array(5), shape: [5] }, 0, { data: [0, 2, 2], shape: [3] }, 1, { reduce: 'add' });
const cache: ResidentTensor<Float32Array> = upload({ data: new Float32Array(16), shape: [2, 4, 2] });
const newRows = { data: new Float32Array(8), shape: [2, 2, 2] };
const written: ResidentTensor<Float32Array> = tensorScatter(cache, newRows, { data: [3, 1], shape: [2] }, { mode: 'circular', inPlace: true });
const writtenConst: ResidentTensor<Float32Array> = tensorScatter(cache, newRows, null, { inPlace: true } as const);
const copied: Result<Float32Array> = tensorScatter(cache, newRows);
const summed: ResidentTensor<Float32Array> = indexReduce(cache, 1, { data: new BigInt64Array([0n, 0n]), shape: [2] }, newRows,
  { reduce: 'sum', inPlace: true });
const segments: Result<Float64Array> = indexReduce({ data: new Float64Array(8), shape: [2, 4] }, 0, { data: [0, 1, 0], shape: [3] },
  { data: new Float64Array(12), shape: [3, 4] }, { reduce: 'mean', includeSelf: false, outOfRange: 'drop' });
const kept2: ResidentTensor<Int32Array> = scatterND({ data: new Int32Array(4), shape: [4] }, { data: [1], shape: [1, 1] },
  { data: new Int32Array(1), shape: [1] }, { resident: true });
const intoOut: Result<Float64Array> = scatterElements({ data: new Float64Array(5), shape: [1, 5] }, 1, { data: [1, 3], shape: [1, 2] },
  { data: new Float64Array(2), shape: [1, 2] }, { out: new Float64Array(5), negativeIndices: 'error' });
const half: Result<Uint16Array> = scatter({ data: new Uint16Array(2), shape: [2] }, 0, { data: [0], shape: [1] }, 0.5,
  { reduce: 'add', dtype: 'float16' });
const big: Result<BigInt64Array> = scatter({ data: new BigInt64Array(2), shape: [2] }, 0, { data: [1], shape: [1] }, 7n);
const reduce: Reduce = 'amax';
const oor: ScatterOutOfRange = 'clamp';
// @ts-expect-error: in place it is the resident tensor, not a Result
const notResult: Result<Float32Array> = scatter(cache, 2, { data: [0], shape: [1, 1, 1] }, 0, { inPlace: true });
// options typed by their interface (TypeScript 5.7+: Float32Array<ArrayBufferLike> against <ArrayBuffer>)
const typedOpts: ScatterOptions<Float32Array> = { reduce: 'add' };
const viaScatterOpts: Result<Float32Array> = scatter({ data: new Float32Array(4), shape: [4] }, 0, idx, 1, typedOpts);
// inPlace held in a variable is a boolean: either a Result or the resident tensor, not surely a Result
const flagOpts = { inPlace: true };
// @ts-expect-error: it may be the resident tensor
const notSurelyScattered: Result<Float32Array> = scatter(cache, 2, { data: [0], shape: [1, 1, 1] }, 0, flagOpts);
// @ts-expect-error: not a reduction
scatter({ data: new Float32Array(4), shape: [4] }, 0, idx, 1, { reduce: 'average' });
// @ts-expect-error: 'zero' is the gathers' (a scatter drops)
scatterND({ data: new Float32Array(4), shape: [4] }, { data: [1], shape: [1, 1] }, { data: new Float32Array(1), shape: [1] }, { outOfRange: 'zero' });
// @ts-expect-error: tensorScatter does not reduce
tensorScatter(cache, newRows, null, { reduce: 'add' });
// @ts-expect-error: src of another type than the input's
scatter({ data: new Float32Array(4), shape: [4] }, 0, idx, { data: new Int32Array(2), shape: [2] });
// @ts-expect-error: a misspelt option (it throws at run time too)
scatter({ data: new Float32Array(4), shape: [4] }, 0, idx, 1, { inplace: true });
// @ts-expect-error: scatter needs its src
scatter({ data: new Float32Array(4), shape: [4] }, 0, idx);

// 4: the error codes.
try {
  take(params, idx);
} catch (e) {
  const code: ErrorCode = (e as WasmGatherError).code;
  if (code === 'ERR_WG_NOT_INITIALIZED' || code === 'ERR_WG_DISPOSED') console.log(code);
  // @ts-expect-error: not one of the codes
  const other: ErrorCode = 'ERR_WG_OTHER';
}

// 5b: the fused gather-reduce: a bag's result, max indices with returnIndices, a quantized table's
// scales' type, the segments bare or as tensors.
const table = { data: new Float32Array(12), shape: [4, 3] };
const bag: Result<Float32Array> = embeddingBag(table, { data: [0, 1, 3], shape: [3] }, { offsets: [0, 2], mode: 'sum' });
const bagMax = embeddingBag(table, { data: new Int32Array(4), shape: [2, 2] }, { mode: 'max', returnIndices: true });
const fromRow: Int32Array = bagMax.maxIndices.data;
const bagQ: Result<Uint16Array> = embeddingBag({ data: new Uint8Array(8), shape: [1, 16] }, { data: [0], shape: [1] },
  { segmentIds: new Int32Array([0]), scales: { data: new Uint16Array(1), shape: [1, 1] }, quantType: 'uint4', blockSize: 16 });
// @ts-expect-error: not a mode
embeddingBag(table, { data: [0], shape: [1] }, { offsets: [0], mode: 'min' });
// the bags' gradient: the table's, and with returnWeightsGrad the weights' too
const dTable: Result<Float32Array> = embeddingBagBackward({ data: new Float32Array(6), shape: [2, 3] }, { data: [0, 1, 3], shape: [3] },
  { offsets: [0, 2], mode: 'mean', numWeights: 4 });
const dBoth = embeddingBagBackward({ data: new Float32Array(6), shape: [2, 3] }, { data: [0, 1, 3], shape: [3] },
  { offsets: [0, 2], mode: 'sum', numWeights: 4, perSampleWeights: new Float32Array(3), returnWeightsGrad: true, weight: table });
const dWeights: Float32Array = dBoth.weightsGrad.data;
// @ts-expect-error: an integer gradient
embeddingBagBackward({ data: new Int32Array(6), shape: [2, 3] }, { data: [0, 1, 3], shape: [3] }, { offsets: [0, 2], numWeights: 4 });
const seg: Result<Float64Array> = segmentReduce({ data: new Float64Array(6), shape: [3, 2] }, { reduce: 'max', lengths: [1, 2] });
// @ts-expect-error: reduce is required
segmentReduce({ data: new Float64Array(6), shape: [3, 2] }, { lengths: [1, 2] });

// 6: wasm-gather/tfjs (js/tfjs.d.ts, which re-exports js/tfjs.d.cts). tf: import * as tf from
// '@tensorflow/tfjs-core', an optional peer not installed here.
async function adapter(tf: TfjsCoreNamespace): Promise<KernelEntry[]> {
  const done: KernelEntry[] = await registerKernels(tf, { inPlace: false });
  const stats: KernelStats = kernelStats();
  // @ts-expect-error: a backend the adapter does not serve
  await registerKernels(tf, { backends: ['webgl'] });
  const sparse: KernelEntry['kernelName'][] = ['SparseSegmentSum', 'SparseSegmentMean'];
  console.log(stats.calls['cpu/GatherV2'], done, sparse);
  return unregisterKernels(tf);
}

export const used: unknown[] = [adapter, viaScatterOpts, notSurelyScattered, built, notNumber, eitherOk, notSurelyResident, notSurelyResult, kept, keptConst, plain,
  none, axisResult, inPlace, into, maybeInPlace, byFlag, viaTakeOpts, nd, deq, intoShared, fromShared, view, i32Shape,
  fromTyped, up, deqTyped, bins, written, writtenConst, copied, summed, segments, kept2, intoOut, half, big, reduce, oor, notResult,
  bag, fromRow, bagQ, seg];
