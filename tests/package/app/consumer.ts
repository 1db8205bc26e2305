// Type-checked with tsc --noEmit against the installed package: every export, used as documented.
import { dispose, gather, gatherND, heapStats, init, ResidentTensor, take, upload } from 'wasm-gather';
import type { InitInfo, Result, Tensor } from 'wasm-gather';

const info: InitInfo = await init({ variant: 'simd', threads: 1, parallelThreshold: 0 });
const t: Tensor<Int32Array> = { data: new Int32Array([1, 2, 3, 4]), shape: [2, 2] };
const g: Result<Int32Array> = gather(t, 1, { data: new Int32Array([0, 0, 1, 0]), shape: [2, 2] }, { outOfRange: 'clamp' });
const nd: Result<Int32Array> = gatherND(t, { data: [1, 0], shape: [2, 1] }, { batchDims: 0 });
const table: ResidentTensor<Float32Array> = upload({ data: new Float32Array(8), shape: [4, 2] });
const kept: ResidentTensor<Float32Array> = take(table, { data: new BigInt64Array([3n, -1n]), dims: [2] }, { resident: true });
const out: Float32Array = kept.read();
const rows: Result<Float32Array> = take(table, { data: [0], shape: [1] }, { axis: 0, out: new Float32Array(2) });
const { heapInUse, memoryBytes, lastCallBytes }: { heapInUse: number; memoryBytes: number; lastCallBytes: number } = heapStats();
kept.dispose();
table.dispose();
dispose();
export const used: unknown[] = [info.variant, info.threads, g.data, nd.shape, out.length, rows.data, heapInUse + memoryBytes + lastCallBytes];
