// Peak wasm heap per call: what each op allocates while it runs, next to the bytes of its
// inputs and output. A ratio of 1.00 means no copies beyond the one marshalled copy of each.
// gatherBlockQuantized runs on a resident table (uploaded, so not counted): indices + output.
// Usage: node bench/heap.mjs
import * as api from '../js/index.mjs';
import { numel } from '../common/shape.mjs';

const { dispose, gather, gatherBlockQuantized, gatherND, heapStats, init, take, upload } = api;

await init({ variant: 'simd-threaded', threads: 2 });
const f32 = (shape) => ({ data: new Float32Array(numel(shape)), shape });
const i32 = (shape, limit) => ({ data: new Int32Array(numel(shape)).map((_, i) => i % limit), shape });
const cases = [
  ['take 1024x256 f32, 4096 rows', take, [f32([1024, 256]), i32([4096], 1024)]],
  ['take axis 1, 64x1024x16, 512 idx', take, [f32([64, 1024, 16]), i32([512], 1024), { axis: 1 }]],
  ['gatherND 256x256x64 f32, 2000x2', gatherND, [f32([256, 256, 64]), i32([2000, 2], 256)]],
  ['gather dim 1, 512x512 f32', gather, [f32([512, 512]), 1, i32([512, 512], 512)]],
];
if (typeof gatherBlockQuantized === 'function') {
  const table = upload({ data: new Uint8Array(1024 * 64), shape: [1024, 64] }); // 4 bits: 128 logical
  const scales = upload({ data: new Float32Array(1024 * 4).fill(1), shape: [1024, 4] });
  cases.push(['gatherBlockQuantized, resident 4-bit table, 512 idx', gatherBlockQuantized, [table, i32([512], 1024), scales, { bits: 4, blockSize: 32 }]]);
}
console.log('case | inputs+output bytes | peak heap per call | ratio | heap in use after');
for (const [name, op, args] of cases) {
  const r = op(...args);
  const { lastCallBytes, heapInUse } = heapStats();
  const io = args.reduce((n, a) => n + (a?.data?.byteLength ?? 0), r.data.byteLength);
  console.log(`${name} | ${io} | ${lastCallBytes} | ${(lastCallBytes / io).toFixed(4)} | ${heapInUse}`);
}
dispose();
