// The benchmark workloads (W1-W5), generated from a fixed seed. bench/native/bench_native.c
// generates the same bytes with the same generator, so native and wasm outputs can be compared
// by hash. float32 data, int32 indices, random valid indices.
import { numel } from './shape.mjs';

/** xorshift32: the same three shifts in C (bench/native/bench_native.c). */
export function xorshift32(seed) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13; x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5; x >>>= 0;
    return x;
  };
}

/** Float32 data in [0, 1) with 24 random bits each (exact in float32). */
function randomData(next, shape) {
  const a = new Float32Array(numel(shape));
  for (let i = 0; i < a.length; i++) a[i] = (next() >>> 8) * 2 ** -24;
  return { data: a, shape };
}

/** Int32 indices; index i is uniform in [0, limits[i % limits.length]). */
export function randomIndices(next, shape, limits) {
  const a = new Int32Array(numel(shape));
  for (let i = 0; i < a.length; i++) a[i] = next() % limits[i % limits.length];
  return { data: a, shape };
}

/** A Fisher-Yates permutation of 0..cols-1 per row. */
export function rowPermutations(next, rows, cols) {
  const a = new Int32Array(rows * cols);
  for (let r = 0; r < rows; r++) {
    const p = a.subarray(r * cols, (r + 1) * cols);
    for (let i = 0; i < cols; i++) p[i] = i;
    for (let i = cols - 1; i > 0; i--) {
      const j = next() % (i + 1);
      const t = p[i]; p[i] = p[j]; p[j] = t;
    }
  }
  return { data: a, shape: [rows, cols] };
}

// Each workload: op and its options as wasm-gather takes them; data and indices are made by
// make() (seeded by the workload's number), data first, then indices, from one generator.
export const WORKLOADS = [
  {
    id: 'W1', seed: 1, title: 'embedding lookup: take axis 0, [32000, 512] by [4096]',
    op: 'take', opts: { axis: 0 }, dataShape: [32000, 512], outShape: [4096, 512],
    indices: (next) => randomIndices(next, [4096], [32000]),
  },
  {
    id: 'W2', seed: 2, title: 'gatherND slices, batchDims 1: [64, 1024, 256] by [64, 512, 1]',
    op: 'gatherND', opts: { batchDims: 1 }, dataShape: [64, 1024, 256], outShape: [64, 512, 256],
    indices: (next) => randomIndices(next, [64, 512, 1], [1024]),
  },
  {
    id: 'W3', seed: 3, title: 'gatherND elements: [512, 512, 16] by [262144, 3]',
    op: 'gatherND', opts: {}, dataShape: [512, 512, 16], outShape: [262144],
    indices: (next) => randomIndices(next, [262144, 3], [512, 512, 16]),
  },
  {
    id: 'W4a', seed: 4, title: 'gather dim 1 (top-k style): [256, 32000] by [256, 64]',
    op: 'gather', opts: { dim: 1 }, dataShape: [256, 32000], outShape: [256, 64],
    indices: (next) => randomIndices(next, [256, 64], [32000]),
  },
  {
    id: 'W4b', seed: 5, title: 'gather dim 1, a permutation per row: [4096, 1024] by [4096, 1024]',
    op: 'gather', opts: { dim: 1 }, dataShape: [4096, 1024], outShape: [4096, 1024],
    indices: (next) => rowPermutations(next, 4096, 1024),
  },
  {
    id: 'W5', seed: 6, title: 'call overhead: take axis 0, [1000, 64] by [16]',
    op: 'take', opts: { axis: 0 }, dataShape: [1000, 64], outShape: [16, 64],
    indices: (next) => randomIndices(next, [16], [1000]),
  },
];

/** Generates a workload's tensors: { data: {data, shape}, indices: {data, shape} }. */
export function makeTensors(w) {
  const next = xorshift32(w.seed);
  const data = randomData(next, w.dataShape);
  return { data, indices: w.indices(next) };
}

/** Bytes that count for GB/s: output plus indices. */
export function bytesMoved(w, t) {
  return numel(w.outShape) * 4 + t.indices.data.byteLength;
}

/** FNV-1a over the bytes of a TypedArray (the native driver prints the same hash). */
export function fnv1a(view) {
  const b = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
  let h = 0x811c9dc5;
  for (let i = 0; i < b.length; i++) h = Math.imul(h ^ b[i], 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}

// ---- Q1-Q4: gatherBlockQuantized on block-quantized embedding tables ----
// Tables are large (Q1/Q2's is 68 MB of codes and 17 MB of scales), so their bytes come from a
// word-at-a-time xorshift32 fill, and a table shared by workloads (Q1 and Q2) is generated once.
// Scales are positive and moderate (no overflow to Inf in float16); zero points are any bytes.

/** Fills a Uint8Array with xorshift32 words from `seed` (little-endian), fast. */
export function fillRandom(bytes, seed) {
  let x = seed >>> 0 || 1;
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >>> 2);
  for (let i = 0; i < words.length; i++) {
    x ^= x << 13; x ^= x >>> 17; x ^= x << 5;
    words[i] = x;
  }
  for (let i = words.length * 4; i < bytes.length; i++) {
    x ^= x << 13; x ^= x >>> 17; x ^= x << 5;
    bytes[i] = x;
  }
  return bytes;
}

// Each Q workload: a table (by key: workloads naming the same table share it) and a count of
// random indices (int32, uniform over the rows, from the workload's seed). `opts` are the
// library's options for the op (the zero points are added at call time); dataShape is the shape
// given with the bytes (stored for 'uint8', logical for 'int4'); outShape the logical output.
export const Q_TABLES = {
  qwen4: { seed: 101, quantType: 'uint8', bits: 4, blockSize: 32, scaleType: 'float32', dataShape: [151936, 448], logicalShape: [151936, 896] },
  gemma2: { seed: 102, quantType: 'uint8', bits: 2, blockSize: 32, scaleType: 'float32', dataShape: [262144, 64], logicalShape: [262144, 256] },
  int4zp: { seed: 103, quantType: 'int4', bits: 4, blockSize: 128, scaleType: 'float16', zeroPoints: true, dataShape: [32000, 4096], logicalShape: [32000, 4096] },
};

const qWorkload = (id, seed, table, count, title) => {
  const T = Q_TABLES[table];
  const opts = { quantType: T.quantType, blockSize: T.blockSize };
  if (T.quantType === 'uint8') opts.bits = T.bits;
  if (T.scaleType !== 'float32') opts.scaleType = T.scaleType;
  return { id, seed, table, title, op: 'gatherBlockQuantized', opts, count, dataShape: T.dataShape, outShape: [count, T.logicalShape[1]] };
};

export const Q_WORKLOADS = [
  qWorkload('Q1', 11, 'qwen4', 1, "decode: uint8 4 bits, block 32, float32 scales, [151936, 448] stored (896 logical), 1 index"),
  qWorkload('Q2', 12, 'qwen4', 512, 'prefill: the same table, 512 indices'),
  qWorkload('Q3', 13, 'gemma2', 256, 'uint8 2 bits, block 32, float32 scales, [262144, 64] stored (256 logical), 256 indices'),
  qWorkload('Q4', 14, 'int4zp', 128, 'int4 with zero points, float16 scales, block 128, [32000, 4096], 128 indices'),
];

const qTableCache = new Map();

/** A Q table: { data, scales, zeroPoints? } as the op takes them, generated once per key. */
export function makeQuantTable(key) {
  if (qTableCache.has(key)) return qTableCache.get(key);
  const T = Q_TABLES[key];
  const packed = T.quantType === 'uint8';
  const n = T.logicalShape[0] * T.logicalShape[1];
  const data = { data: fillRandom(new Uint8Array(packed ? n * T.bits / 8 : Math.ceil(n / 2)), T.seed), shape: T.dataShape };
  const scalesShape = [T.logicalShape[0], Math.ceil(T.logicalShape[1] / T.blockSize)];
  const ns = scalesShape[0] * scalesShape[1];
  const words = new Uint32Array(ns);
  fillRandom(new Uint8Array(words.buffer), T.seed + 1000);
  let scaleData;
  if (T.scaleType === 'float32') { // (1..2^24) * 2^-30: exact float32 values in (0, 2^-6]
    scaleData = new Float32Array(ns);
    for (let i = 0; i < ns; i++) scaleData[i] = ((words[i] >>> 8) + 1) * 2 ** -30;
  } else { // float16 bits, positive, exponents 2^-10 .. 2^-2
    scaleData = new Uint16Array(ns);
    for (let i = 0; i < ns; i++) scaleData[i] = ((5 + (words[i] % 9)) << 10) | ((words[i] >>> 8) & 0x3ff);
  }
  const table = { data, scales: { data: scaleData, shape: scalesShape } };
  if (T.zeroPoints) { // int4/uint4: the scales' shape, two per byte, flat
    table.zeroPoints = { data: fillRandom(new Uint8Array(Math.ceil(ns / 2)), T.seed + 2000), shape: scalesShape };
  }
  qTableCache.set(key, table);
  return table;
}

/** A Q workload's tensors: the (shared) table, and its indices. */
export function makeQuantTensors(w) {
  const table = makeQuantTable(w.table);
  return { ...table, indices: randomIndices(xorshift32(w.seed), [w.count], [w.dataShape[0]]) };
}

/** The op's options for a Q workload with its tensors (zero points included when it has them). */
export function quantOpts(w, t, extra = {}) {
  return t.zeroPoints ? { ...w.opts, zeroPoints: t.zeroPoints, ...extra } : { ...w.opts, ...extra };
}
