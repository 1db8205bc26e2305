// The M workloads (the masks' ops: compress, booleanMask, nonZero then take, maskedScatter),
// generated from fixed seeds: float32 values in [0, 1) with 24 random bits each (W's generator),
// uint8 masks (1 true, 0 false) with an exact count of true elements, so every run and every
// implementation has the same output length. Each has a reference (maskReference:
// common/reference-mask.mjs), the output every implementation here is checked against, bit for
// bit, before it is timed.
//   M1: YOLOv8's detection head output transposed to one row an anchor, [8400, 84] (4 box values
//       and 80 class scores; https://docs.ultralytics.com/modes/predict/), the rows of a
//       5% condition kept: ONNX Compress along axis 0, tf.boolean_mask.
//   M2: the unpadding of a padded batch of token states, [64, 512, 768], by its attention mask
//       (a prefix of ones a sequence, 75% ones in all): the flat positions of the ones, then those
//       rows gathered, as flash-attention's unpad_input does it (nonzero of the flattened mask,
//       then index_first_axis:
//       https://github.com/Dao-AILab/flash-attention/blob/main/flash_attn/bert_padding.py).
//   M3: torch's masked_scatter of 1M values into a [4096, 1024] tensor at a 25% mask.
import { booleanMaskRef, compressRef, maskedScatterRef } from './reference-mask.mjs';
import { numel } from './shape.mjs';
import { fillRandom, xorshift32 } from './workloads.mjs';

export const M_WORKLOADS = [
  { id: 'M1', op: 'compress', seed: 301, shape: [8400, 84], trues: 420,
    title: 'compress of YOLO-shaped scores: [8400, 84] float32, a condition of 420 rows (5%) true, axis 0' },
  { id: 'M2', op: 'unpad', seed: 302, shape: [64, 512, 768], meanLength: 384,
    title: 'unpadding: nonZero of a [64, 512] attention mask (a prefix of ones a sequence, 256 to 512 long: 24576 ones, 75%), ' +
      'then take of those rows of [64, 512, 768] float32 (as [32768, 768])' },
  { id: 'M3', op: 'maskedScatter', seed: 303, shape: [4096, 1024], trues: 1 << 20,
    title: 'maskedScatter of 1M float32 values into [4096, 1024] float32 (4M elements) at a mask of 25% true' },
];

// Float32 values in [0, 1) with 24 random bits each (exact in float32), as the E tables'.
function randomFloats(n, seed) {
  const words = fillRandom(new Uint8Array(n * 4), seed);
  const u = new Uint32Array(words.buffer), f = new Float32Array(words.buffer);
  for (let i = 0; i < n; i++) f[i] = (u[i] >>> 8) * 2 ** -24;
  return f;
}

// Exactly k of n true, each k-subset alike (selection sampling: Knuth, TAOCP vol. 2, 3.4.2,
// Algorithm S), one draw an element.
function exactMask(next, n, k) {
  const m = new Uint8Array(n);
  for (let i = 0, left = k; i < n && left; i++) {
    if (next() % (n - i) < left) {
      m[i] = 1;
      left--;
    }
  }
  return m;
}

// An attention mask of `batch` sequences padded to `len`: sequence b's first L_b positions are
// ones. Lengths in pairs mean + d and mean - d (d uniform in [0, len - mean]), so they sum to
// exactly batch * mean.
function attentionMask(next, batch, len, mean) {
  const m = new Uint8Array(batch * len), half = batch / 2, spread = len - mean;
  for (let b = 0; b < half; b++) {
    const d = next() % (spread + 1);
    m.fill(1, b * len, b * len + mean + d);
    m.fill(1, (b + half) * len, (b + half) * len + mean - d);
  }
  return m;
}

const cache = new Map();

/**
 * A workload's tensors, made once: M1 { x, condition ([8400]) }, M2 { x ([64, 512, 768]), mask
 * ([64, 512]) }, M3 { x, mask (x's shape), source ([trues]) }; and `count`, the true elements.
 */
export function makeMaskTensors(w) {
  if (cache.has(w.id)) return cache.get(w.id);
  const next = xorshift32(w.seed);
  const x = { data: randomFloats(numel(w.shape), w.seed + 1000), shape: w.shape };
  let t;
  if (w.op === 'compress') {
    t = { x, condition: { data: exactMask(next, w.shape[0], w.trues), shape: [w.shape[0]] }, count: w.trues };
  } else if (w.op === 'unpad') {
    const [batch, len] = w.shape;
    t = { x, mask: { data: attentionMask(next, batch, len, w.meanLength), shape: [batch, len] }, count: batch * w.meanLength };
  } else {
    const source = randomFloats(w.trues, w.seed + 2000);
    for (let i = 0; i < source.length; i++) source[i] += 1; // in [1, 2): told apart from x's values
    t = { x, mask: { data: exactMask(next, numel(w.shape), w.trues), shape: w.shape }, source: { data: source, shape: [w.trues] }, count: w.trues };
  }
  cache.set(w.id, t);
  return t;
}

/** The reference output (a Float32Array): the kept rows (M1, M2) or x with the source scattered in (M3). */
export function maskReference(w, t) {
  if (w.op === 'compress') return compressRef(t.x, t.condition, { axis: 0 }).data;
  if (w.op === 'unpad') return booleanMaskRef(t.x, t.mask).data;
  return maskedScatterRef(t.x, t.mask, t.source).data;
}

/**
 * The bytes of the bound: { read, written }. M1, M2: the mask (or condition) and the kept rows
 * read, the output written; M3: x, the mask and the source read, the output written.
 */
export function boundBytes(w, t, outBytes) {
  if (w.op === 'maskedScatter') return { read: t.x.data.byteLength + t.mask.data.byteLength + t.source.data.byteLength, written: outBytes };
  const mask = t.condition ?? t.mask;
  return { read: mask.data.byteLength + outBytes, written: outBytes };
}
