// The benchmark workloads (issue 3), generated from a fixed seed. bench/native/bench_native.c
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
