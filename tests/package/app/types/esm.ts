// Type tests (tests/package/types.test.mjs: tsc --noEmit against the installed package, under nodenext
// and bundler resolution): what a new user wrote and the types got wrong. Each
// `@ts-expect-error` is a line that must not compile.
import {
  booleanMask, compress, embeddingBag, embeddingBagBackward, gather, gatherBlockQuantized, gatherND, indexReduce, init, maskedScatter, nonZero, scatter,
  scatterElements, scatterND, segmentReduce, take, tensorScatter, upload,
} from 'wasm-gather';
import type {
  BooleanMaskOptions, ErrorCode, GatherBlockQuantizedOptions, GatherNDOptions, MaskedScatterOptions, MaskOptions, MaskResult, NonZeroOptions, Reduce,
  ResidentTensor, Result, ScatterOptions, ScatterOutOfRange, Shape, TakeOptions, WasmGatherError,
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

// 5c: the masks' ops. nonZero's coordinates are of opts.indexType; { resident: true } (inline, or
// `as const`) gives a ResidentTensor, `resident` in a variable the union; a resident opts.out comes
// back as the result's data (the shape says how much of it holds the output); maskedScatter's
// { inPlace: true } gives back the resident x it updated.
const cond = { data: new Uint8Array([1, 0, 1, 1]), shape: [2, 2] };
const coords: Result<Int32Array> = nonZero(cond);
const coords64: Result<BigInt64Array> = nonZero(cond, { indexType: 'int64', layout: 'torch' });
const big64: BigInt64Array = coords64.data;
// @ts-expect-error: int64 coordinates are bigints
const notInt32: Int32Array = nonZero(cond, { indexType: 'int64' }).data;
const coords32: Int32Array = nonZero(cond, { indexType: 'int32' }).data;
const keptCoords: ResidentTensor<BigInt64Array> = nonZero(cond, { indexType: 'int64', resident: true });
const keptCoordsConst: ResidentTensor<Int32Array> = nonZero(cond, { resident: true } as const);
const halfCoords: Result<Int32Array> = nonZero({ data: new Uint16Array(4), shape: new Int32Array([4]) }, { dtype: 'bfloat16' });
const fromResident: Result<Int32Array> = nonZero(cache);
const coordsInto: Int32Array = nonZero(cond, { out: new Int32Array(8) }).data;
const coordsIntoResident: ResidentTensor<Int32Array> = nonZero(cond, { out: upload({ data: new Int32Array(8), shape: [8] }) }).data;
// @ts-expect-error: not a layout
nonZero(cond, { layout: 'tf' });
// @ts-expect-error: not an index type
nonZero(cond, { indexType: 'int16' });
const mask3 = { data: new Uint8Array([1, 0, 1]), shape: [3] };
const masked: Result<Float32Array> = booleanMask(params, mask3, { axis: -2 });
const maskedKept: ResidentTensor<Float32Array> = booleanMask(params, { data: new Float64Array(3), shape: [3] }, { resident: true });
const maskedInto: Float32Array = booleanMask(params, mask3, { out: new Float32Array(6) }).data;
const maskedIntoResident: ResidentTensor<Float32Array> = booleanMask(params, mask3, { out: cache }).data;
const maskedShape: number[] = booleanMask(params, mask3, { out: cache }).shape;
const maskFlag = { resident: true };
const maskEither: Result<Float32Array> | ResidentTensor<Float32Array> = booleanMask(params, mask3, maskFlag);
// @ts-expect-error: it may be a ResidentTensor
const maskNotSurely: Result<Float32Array> = booleanMask(params, mask3, maskFlag);
// @ts-expect-error: it may be a Result
const maskNotSurelyResident: ResidentTensor<Float32Array> = booleanMask(params, mask3, maskFlag);
// @ts-expect-error: out of another type than x's
booleanMask(params, mask3, { out: new Int32Array(6) });
// @ts-expect-error: a misspelt option (it throws at run time too)
booleanMask(params, mask3, { axes: 1 });
const compressed: Result<Float32Array> = compress(params, { data: new Uint8Array([0, 1]), shape: [2] }, { axis: 1 });
const flat: Result<BigInt64Array> = compress({ data: new BigInt64Array(4), shape: [2, 2] }, { data: new Int8Array(3), shape: [3] });
const compressedKept: ResidentTensor<Float32Array> = compress(params, mask3, { axis: 0, resident: true });
// @ts-expect-error: the condition is a tensor, not a bare array
compress(params, [0, 1]);
const mask6 = { data: new Uint8Array(6), shape: [3, 2] };
const scattered: Result<Float32Array> = maskedScatter(params, mask6, { data: new Float32Array(6), shape: [6] });
const scatteredInPlace: ResidentTensor<Float32Array> = maskedScatter(cache, { data: new Uint8Array(16), shape: [2, 4, 2] },
  { data: new Float32Array(16), shape: [16] }, { inPlace: true });
const scatteredKept: ResidentTensor<Float32Array> = maskedScatter(params, mask6, { data: new Float32Array(6), shape: [6] }, { resident: true });
const scatteredHalf: Result<Uint16Array> = maskedScatter({ data: new Uint16Array(2), shape: [2] }, { data: new Uint8Array(2), shape: [2] },
  { data: new Uint16Array(1), shape: [1] }, { dtype: 'float16' });
const inPlaceFlag = { inPlace: true };
// @ts-expect-error: it may be the resident x
const scatteredNotSurely: Result<Float32Array> = maskedScatter(cache, mask6, { data: new Float32Array(6), shape: [6] }, inPlaceFlag);
// @ts-expect-error: source of another type than x's
maskedScatter(params, mask6, { data: new Int32Array(6), shape: [6] });
// @ts-expect-error: maskedScatter takes no axis
maskedScatter(params, mask6, { data: new Float32Array(6), shape: [6] }, { axis: 0 });
// options typed by their interfaces
const maskOpts: MaskOptions<Float32Array> = { out: new Float32Array(6) };
const viaMaskOpts: Result<Float32Array> = compress(params, mask3, maskOpts);
const bmOpts: BooleanMaskOptions<Float32Array> = { axis: 1 };
const viaBmOpts: Result<Float32Array> = booleanMask(params, { data: new Uint8Array(2), shape: [2] }, bmOpts);
const nzOpts: NonZeroOptions = { layout: 'torch' };
const viaNzOpts: Result<Int32Array> = nonZero(cond, nzOpts);
const msOpts: MaskedScatterOptions<Float32Array> = { resident: false };
const viaMsOpts: Result<Float32Array> = maskedScatter(params, mask6, { data: new Float32Array(6), shape: [6] }, msOpts);
const named: MaskResult<Int32Array, { resident: true }> = keptCoordsConst;

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
  bag, fromRow, bagQ, seg, coords, big64, notInt32, coords32, keptCoords, halfCoords, fromResident, coordsInto, coordsIntoResident, masked,
  maskedKept, maskedInto, maskedIntoResident, maskedShape, maskEither, maskNotSurely, maskNotSurelyResident, compressed, flat, compressedKept,
  scattered, scatteredInPlace, scatteredKept, scatteredHalf, scatteredNotSurely, viaMaskOpts, viaBmOpts, viaNzOpts, viaMsOpts, named];
