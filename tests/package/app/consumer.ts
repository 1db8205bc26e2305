// Type-checked with tsc --noEmit against the installed package: every export, used as documented.
import {
  booleanMask, compress, dispose, gather, gatherBlockQuantized, gatherElements, gatherND, heapStats, indexReduce, init, maskedScatter, nonZero,
  ResidentTensor, scatter, scatterElements, scatterND, take, tensorScatter, upload,
} from 'wasm-gather';
import type { GatherBlockQuantizedOptions, InitInfo, Result, Tensor } from 'wasm-gather';

const info: InitInfo = await init({ variant: 'simd', threads: 1, parallelThreshold: 0 });
const t: Tensor<Int32Array> = { data: new Int32Array([1, 2, 3, 4]), shape: [2, 2] };
const g: Result<Int32Array> = gather(t, 1, { data: new Int32Array([0, 0, 1, 0]), shape: [2, 2] }, { outOfRange: 'clamp' });
const nd: Result<Int32Array> = gatherND(t, { data: [1, 0], shape: [2, 1] }, { batchDims: 0, negativeIndices: 'error' });
const table: ResidentTensor<Float32Array> = upload({ data: new Float32Array(8), shape: [4, 2] });
const kept: ResidentTensor<Float32Array> = take(table, { data: new BigInt64Array([3n, -1n]), dims: [2] }, { resident: true });
const out: Float32Array = kept.read();
const rows: Result<Float32Array> = take(table, { data: [0], shape: [1] }, { axis: 0, out: new Float32Array(2) });
const ge: Result<Int32Array> = gatherElements(t, 0, { data: new Int32Array([1, 0]), shape: [1, 2] });
// A 4-bit table: [2, 32] logical, packed two codes a byte, float16 scales, resident.
const packed: ResidentTensor<Uint8Array> = upload({ data: new Uint8Array(32), shape: [2, 32] }, { quantType: 'int4' });
const qopts: GatherBlockQuantizedOptions<Uint16Array> = { quantType: 'int4', blockSize: 16, scaleType: 'float16', outOfRange: 'zero' };
const halfScales: Tensor<Uint16Array> = { data: new Uint16Array(4), shape: [2, 2] };
const deq: Result<Uint16Array> = gatherBlockQuantized(packed, { data: [1, -1], shape: [2] }, halfScales, qopts);
const deq32: ResidentTensor<Float32Array> = gatherBlockQuantized({ data: new Uint8Array(32), shape: [2, 16] },
  { data: [0], shape: [1] }, { data: new Float32Array(2), shape: [2, 1] }, { bits: 4, blockSize: 32, resident: true });
const isPacked: boolean = packed.packed;
// The scatters: a histogram, last-write-wins, a segment sum, and a KV-cache written in place.
const hist: Result<Int32Array> = scatter({ data: new Int32Array(3), shape: [3] }, 0, { data: [0, 2, 2], shape: [3] }, 1, { reduce: 'add' });
const onnx: Result<Int32Array> = scatterElements(t, 1, { data: [1, 0], shape: [2, 1] }, { data: new Int32Array([5, 6]), shape: [2, 1] });
const ndw: Result<Int32Array> = scatterND(t, { data: [1, 1], shape: [2, 1] }, { data: new Int32Array(4), shape: [2, 2] });
const seg: Result<Float32Array> = indexReduce({ data: new Float32Array(4), shape: [2, 2] }, 0, { data: [0, 1, 0], shape: [3] },
  { data: new Float32Array(6), shape: [3, 2] }, { reduce: 'add' });
const kv: ResidentTensor<Float32Array> = upload({ data: new Float32Array(16), shape: [2, 4, 2] });
const kvOpts = { mode: 'circular', inPlace: true } as const;
const kvSame: ResidentTensor<Float32Array> = tensorScatter(kv, { data: new Float32Array(8), shape: [2, 2, 2] }, { data: [3, 1], shape: [2] }, kvOpts);
// The masks' ops: coordinates (int64: a BigInt64Array), the rows a mask keeps, ONNX Compress, and
// torch's masked_scatter in place on a resident tensor.
const where: Result<BigInt64Array> = nonZero(t, { layout: 'torch', indexType: 'int64' });
const keptRows: Result<Int32Array> = booleanMask(t, { data: new Uint8Array([1, 0]), shape: [2] });
const cols: ResidentTensor<Int32Array> = compress(t, { data: new Uint8Array([0, 1]), shape: [2] }, { axis: 1, resident: true });
const filled: ResidentTensor<Float32Array> = maskedScatter(kv, { data: new Uint8Array(16), shape: [2, 4, 2] }, { data: new Float32Array(16), shape: [16] },
  { inPlace: true });
cols.dispose();
kv.dispose();
deq32.dispose();
packed.dispose();
const { heapInUse, memoryBytes, lastCallBytes }: { heapInUse: number; memoryBytes: number; lastCallBytes: number } = heapStats();
kept.dispose();
table.dispose();
dispose();
export const used: unknown[] = [info.variant, info.threads, g.data, nd.shape, out.length, rows.data, ge.shape, deq.data, isPacked, heapInUse + memoryBytes + lastCallBytes,
  hist.data, onnx.data, ndw.data, seg.shape, kvSame, where.data, keptRows.shape, filled];
