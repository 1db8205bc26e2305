// The E workloads (the fused gather-reduce: embeddingBag and segmentReduce), generated from fixed
// seeds with W's generator: float32 tables in [0, 1) with 24 random bits each, int32 ids uniform
// over the rows (drawn with replacement, so ids repeat: about 1 in 5 of E1's), bags of a fixed
// length as 2-D indices (torch's form), with the same bags as TensorFlow's sorted segment ids for
// the peers that take those. Each has a reference (bagReference: common/reference-bag.mjs), the
// result every implementation here is checked against before it is timed.
import { embeddingBag, segmentReduce } from './reference-bag.mjs';
import { refGatherBlockQuantized } from './reference-quantized.mjs';
import { numel } from './shape.mjs';
import { fillRandom, randomIndices, xorshift32 } from './workloads.mjs';

const BAGS = 4096, BAG = 32;

// The tables, by key, generated once (E1 and E2 share theirs: 128 MiB).
export const E_TABLES = {
  f32: { seed: 201, shape: [262144, 128] },
  // uint8 holding two 4-bit codes a byte (stored [262144, 64], logical 128 columns), blocks of 32,
  // float32 scales: onnxruntime's GatherBlockQuantized form, as the Q suite's qwen4 table
  q4: { seed: 202, quantType: 'uint8', bits: 4, blockSize: 32, shape: [262144, 64], logical: [262144, 128] },
  seg: { seed: 203, shape: [1048576, 16] },
};

export const E_WORKLOADS = [
  { id: 'E1', seed: 21, table: 'f32', op: 'embeddingBag', opts: { mode: 'sum' },
    title: `embeddingBag sum: [262144, 128] float32 table, ${BAGS} bags of ${BAG} ids` },
  { id: 'E2', seed: 22, table: 'f32', op: 'embeddingBag', opts: { mode: 'mean' }, weighted: true,
    title: 'E1 as a mean with per-sample weights (the weighted sum over the sum of the weights, TensorFlow\'s combiner)' },
  { id: 'E3', seed: 23, table: 'q4', op: 'embeddingBag', opts: { mode: 'sum', quantType: 'uint8', bits: 4, blockSize: 32 },
    title: `E1 on a 4-bit block-quantized table: uint8 bits 4, block 32, float32 scales, [262144, 64] stored (128 logical), ${BAGS} bags of ${BAG}` },
  { id: 'E4', seed: 24, table: 'seg', op: 'segmentReduce', opts: { reduce: 'sum', numSegments: 65536 },
    title: 'segmentReduce sum: [1048576, 16] float32 into 65536 segments by sorted segment ids' },
];

const cache = new Map();

// Float32 values in [0, 1), 24 random bits each (exact in float32), from word-at-a-time xorshift32.
function randomFloats(n, seed) {
  const words = fillRandom(new Uint8Array(n * 4), seed);
  const u = new Uint32Array(words.buffer), f = new Float32Array(words.buffer);
  for (let i = 0; i < n; i++) f[i] = (u[i] >>> 8) * 2 ** -24;
  return f;
}

/** A table: { table: { data, shape }, scales? }, generated once per key. */
export function makeBagTable(key) {
  if (cache.has(key)) return cache.get(key);
  const T = E_TABLES[key];
  let out;
  if (T.quantType) {
    const data = { data: fillRandom(new Uint8Array(numel(T.shape)), T.seed), shape: T.shape };
    const sShape = [T.logical[0], T.logical[1] / T.blockSize];
    const words = new Uint32Array(numel(sShape));
    fillRandom(new Uint8Array(words.buffer), T.seed + 1000);
    // (1..2^24) * 2^-30: exact float32 values in (0, 2^-6], as the Q tables' scales
    const scales = { data: Float32Array.from(words, (w) => ((w >>> 8) + 1) * 2 ** -30), shape: sShape };
    out = { table: data, scales };
  } else {
    out = { table: { data: randomFloats(numel(T.shape), T.seed), shape: T.shape } };
  }
  cache.set(key, out);
  return out;
}

// Per-sample weights whose sum over every bag is exactly BAG: pairs 1 + r/256 and 1 - r/256
// (r in [0, 128)) at positions k and k + BAG/2 of the bag. Multiples of 2^-8 below 2, so every
// partial sum is exact in float32: the weighted mean (the weighted sum over the weights' sum) is
// then what Gather, Mul and ReduceMean compute, and the mean of pre-scaled rows (tfjs).
function pairedWeights(next) {
  const w = new Float32Array(BAGS * BAG), half = BAG / 2;
  for (let b = 0; b < BAGS; b++) {
    for (let k = 0; k < half; k++) {
      const r = (next() % 128) / 256;
      w[b * BAG + k] = 1 + r;
      w[b * BAG + k + half] = 1 - r;
    }
  }
  return { data: w, shape: [BAGS, BAG] };
}

// Sorted segment ids of `rows` entries into `segments` segments: uniform draws, counted and laid
// out in order (lengths about rows / segments each, a few empty segments possible).
function sortedIds(next, rows, segments) {
  const counts = new Int32Array(segments);
  for (let i = 0; i < rows; i++) counts[next() % segments]++;
  const ids = new Int32Array(rows);
  for (let s = 0, at = 0; s < segments; s++) ids.fill(s, at, at += counts[s]);
  if (ids[rows - 1] !== segments - 1) throw new Error('the last segment is empty: pick another seed');
  return { data: ids, shape: [rows] };
}

/** The segment ids of fixed bags: entry k of the flat indices is in bag floor(k / BAG). */
export const bagIds = () => ({ data: Int32Array.from({ length: BAGS * BAG }, (_, k) => (k / BAG) | 0), shape: [BAGS * BAG] });

/**
 * A workload's tensors: { table, scales?, indices ([BAGS, BAG]) ?, weights? ([BAGS, BAG]),
 * segmentIds? (E4: one an entry of the table) }.
 */
export function makeBagTensors(w) {
  const t = { ...makeBagTable(w.table) };
  const next = xorshift32(w.seed);
  if (w.op === 'segmentReduce') {
    t.segmentIds = sortedIds(next, t.table.shape[0], w.opts.numSegments);
    return t;
  }
  t.indices = randomIndices(next, [BAGS, BAG], [t.table.shape[0]]);
  if (w.weighted) t.weights = pairedWeights(next);
  return t;
}

/** The reference output (a Float32Array); a quantized table's rows dequantized by the Q reference first. */
export function bagReference(w, t) {
  if (w.op === 'segmentReduce') return segmentReduce(t.table, { reduce: w.opts.reduce, segmentIds: t.segmentIds, numSegments: w.opts.numSegments }).data;
  let table = t.table, indices = t.indices;
  if (t.scales) {
    const { quantType, bits, blockSize } = w.opts;
    const flat = { data: t.indices.data, shape: [numel(t.indices.shape)] };
    table = refGatherBlockQuantized(t.table, flat, t.scales, { quantType, bits, blockSize });
    indices = { data: Int32Array.from({ length: flat.shape[0] }, (_, k) => k), shape: t.indices.shape };
  }
  return embeddingBag(table, indices, { mode: w.opts.mode, perSampleWeights: t.weights }).data;
}

/**
 * The bytes of the bound (the bag rows' bytes read once and the output written once; E2's
 * weights read too): { read, written }. A quantized row: its codes and its blocks' scales.
 */
export function boundBytes(w, t, outBytes) {
  if (w.op === 'segmentReduce') return { read: t.table.data.byteLength, written: outBytes };
  const entries = numel(t.indices.shape);
  const rowBytes = t.scales ? t.table.shape[1] + (t.scales.data.byteLength / t.scales.shape[0]) : t.table.data.byteLength / t.table.shape[0];
  return { read: entries * rowBytes + (t.weights ? t.weights.data.byteLength : 0), written: outBytes };
}
