// Writes the seed corpus of the fuzz targets (tests/fuzz/corpus/<op>/), a few hand-made inputs
// per op in the byte layout that tests/fuzz/fuzz_ops.c decodes: each seed starts the fuzzer at
// a kernel or a hostile corner (see the names). Run: node tests/fuzz/make-seeds.mjs
import { mkdirSync, writeFileSync } from 'node:fs';

// header byte f: element width (0-3: 1, 2, 4, 8 bytes) | index type << 2 (I32, U32, I64, U64)
// | mode << 4 (error, zero, clamp, invalid) | 0x40 pool | 0x80 every op split over the pool
const f = ({ elem = 2, itype = 0, mode = 0, pool = 0, split = 0 }) => elem | itype << 2 | mode << 4 | pool << 6 | split << 7;
// byte g: 1 guard zones | misalign << 1 | 0x60 invalid index type | 0x70 element size 16 | 0xf0 size 3
// | 0xe0 invalid negative-index policy; otherwise 0x80 negative indices refused (WG_NEGATIVE_ERROR)
// dims: 0-5 as they are; others from the table in fuzz_ops.c
const T = {
  6: 0, 8: 2, 9: 3, 16: 6, 17: 7, 32: 9, 33: 10, 64: 12, 65: 13, 128: 15, 257: 19, 300: 20, 1000: 24,
  1024: 25, 4097: 28, I64MAX: 38, SMAX: 40,
};
const dim = (d) => (d <= 5 ? d : 0xb0 + T[d]);
// index rank bytes: rank r with 0x40 (shapes made to fit), or 0x80 (gather: a rank of its own)
const fit = (r) => 0x40 + (r + 6) % 7, own = (r) => 0x80 + (r + 5) % 7;
// indices: [0, v] in range, [1, v] negative in range, [0x80 + k] an edge or hostile value k
function seed({ h = {}, g = 0, rank, irank, axis = 0, bd = 0, P, I, hostile = 0, idx = [] }) {
  return Uint8Array.from([f(h), g, rank ?? P.length, irank ?? I.length, axis & 255, bd & 255,
    ...P.map(dim), ...I.map(dim), hostile, ...idx.flat()]);
}
const inRange = (n) => Array.from({ length: n }, (_, i) => [i & 1, i * 7]);

// gather_block_quantized has a layout of its own (fuzz_ops.c, fuzz_gather_block_quantized):
// byte q: quant type (0 uint8, 1 uint4, 2 int4, 3 invalid) | scale type << 2 (f32, f16, bf16,
// invalid) | 0x10 zero points | 0x20 pool | 0x40 split | 0x80 guard zones;
// byte m: index type | mode << 2 | bits << 4 (0: 4, 1: 2, 2: 8, 3: a raw byte next)
// | 0x40 scales' shape perturbed | 0x80 zero points' shape perturbed;
// byte b: block size (0-4: 16 << k, 5: a raw int32 next) | misalign << 3 | 0x40 negative indices
// refused | 0x80 invalid negative-index policy | 0xc0 invalid index type;
// ranks, gather axis, quantize axis (0: the last), dims, perturbation bytes, hostile, indices.
const QT = { uint8: 0, uint4: 1, int4: 2, invalid: 3 };
const ST = { f32: 0, f16: 1, bf16: 2, invalid: 3 };
const BITS = { 4: 0, 2: 1, 8: 2 };
const BLOCK = { 16: 0, 32: 1, 64: 2, 128: 3, 256: 4 };
function gbq({ qt = 'uint8', st = 'f32', zp = 0, pool = 0, split = 0, guard = 0, itype = 0, mode = 0, bits = 4,
  block = 16, misalign = 0, badItype = 0, negative = 0, gaxis = 0, qaxis = 0, P, I, badScales, badZp, hostile = 0, idx = [] }) {
  const rawBits = !(bits in BITS), rawBlock = !(block in BLOCK);
  const m = itype | mode << 2 | (rawBits ? 3 : BITS[bits]) << 4 | (badScales !== undefined) << 6 | (badZp !== undefined) << 7;
  const be32 = (v) => [v >>> 24 & 255, v >>> 16 & 255, v >>> 8 & 255, v & 255, 0, 0, 0, 0];
  return Uint8Array.from([
    QT[qt] | ST[st] << 2 | zp << 4 | pool << 5 | split << 6 | guard << 7, m, ...(rawBits ? [bits & 255] : []),
    (rawBlock ? 5 : BLOCK[block]) | misalign << 3 | (badItype ? 0xc0 : negative << 6), ...(rawBlock ? be32(block) : []),
    P.length, I.length, gaxis & 255, qaxis & 255, ...P.map(dim), ...I.map(dim),
    ...(badScales !== undefined ? [badScales] : []), ...(badZp !== undefined ? [badZp] : []), hostile, ...idx.flat()]);
}
// perturbation bytes: k << 3 | 0 one more dim, 1 one fewer, 2 dim k + 1, 3 dim k - 1, 4 dim k = 0,
// 6 (zero points of uint8) the scales' unpacked shape, 7 dim k doubled
const SEEDS = {
  take: {
    rows: seed({ P: [5, 3], I: [4], idx: inRange(4) }),
    'memcpy-slices-i64-zero': seed({ h: { elem: 0, itype: 2, mode: 1 }, P: [6, 257], I: [9], hostile: 64, idx: [...inRange(5), [0x80], [0x83], [0x8c], [0x8d]] }),
    'batch-dims-u32-clamp': seed({ h: { elem: 1, itype: 1, mode: 2 }, irank: fit(2), axis: 2, bd: 1, P: [3, 4, 5], I: [3, 5], hostile: 32 }),
    'pool-32k': seed({ h: { mode: 1, pool: 1, split: 1 }, P: [1000, 8], I: [1024], hostile: 16 }),
    'guarded-u64': seed({ h: { elem: 3, itype: 3 }, g: 0x07, P: [4], I: [2, 3], idx: [[0, 1], [0x8d], [0x85], [0, 3], [0x8e], [0, 0]] }),
    'empty-huge-dim': seed({ axis: 1, P: [0, 'SMAX'], I: [3], idx: [[1, 0], [0x82], [0x85]] }),
    'invalid-elem-size': seed({ g: 0xf0, P: [4], I: [2] }),
    'rank-17': seed({ rank: 0xf8, P: Array(17).fill(1), I: [1] }),
    'negative-error-rows': seed({ g: 0x80, P: [5, 3], I: [6], idx: [[0, 1], [0, 4], [0, 2], [1, 3], [0, 0], [0x81]] }),
    'negative-error-clamp-pool': seed({ h: { mode: 2, pool: 1, split: 1 }, g: 0x80, P: [1000, 8], I: [1024], hostile: 16 }),
    'invalid-negative-policy': seed({ g: 0xe0, P: [4], I: [2] }),
  },
  gather_nd: {
    pairs: seed({ P: [4, 5], I: [3, 2], idx: inRange(6) }),
    'batch-slices-i64-zero': seed({ h: { elem: 3, itype: 2, mode: 1 }, irank: fit(3), bd: 1, P: [2, 3, 65], I: [2, 4, 1], hostile: 64 }),
    'triples-pool': seed({ h: { pool: 1, split: 1 }, P: [4, 5, 3], I: [1000, 3], hostile: 8 }),
    'k0-whole-slices': seed({ P: [3, 4], I: [5, 0] }),
    'empty-huge-dim-clamp': seed({ h: { mode: 2 }, P: [0, 'SMAX'], I: [3, 2], idx: [[1, 0], [0x8c], [0x82]] }),
    'huge-k': seed({ P: [3], I: [0, 'SMAX'] }),
    'negative-error-triples-zero': seed({ h: { mode: 1 }, g: 0x81, P: [4, 5, 3], I: [8, 3], hostile: 64 }),
    'guarded-u32-edges': seed({ h: { elem: 0, itype: 1, mode: 2 }, g: 0x0b, P: [3, 4, 2], I: [4, 2], idx: [[0x80], [0x81], [0x82], [0x83], [0x88], [0x89], [0x8a], [0x90]] }),
  },
  gather: {
    'last-dim': seed({ irank: fit(2), axis: 1, P: [2, 2], I: [2, 2], idx: inRange(4) }),
    'dim0-strided': seed({ h: { elem: 3, itype: 2 }, irank: fit(2), P: [65, 9], I: [5, 9], hostile: 32 }),
    scalar: seed({ h: { mode: 2 }, P: [], I: [], idx: [[0x81]] }),
    'pool-rows': seed({ h: { elem: 1, mode: 1, pool: 1, split: 1 }, irank: fit(3), axis: 2, P: [3, 5, 1000], I: [3, 5, 300], hostile: 4 }),
    'empty-input-wide': seed({ h: { elem: 3, itype: 2, mode: 1 }, irank: fit(3), P: [0, 5, 'I64MAX'], I: [5, 5, 5] }),
    'negative-dim-u64': seed({ h: { itype: 3, mode: 2 }, g: 0x05, irank: fit(3), axis: -1, P: [3, 4, 5], I: [2, 3, 4], hostile: 128 }),
    'rank-mismatch': seed({ irank: own(2), P: [3, 3, 3], I: [3, 3] }),
    'negative-error-i64': seed({ h: { elem: 2, itype: 2 }, g: 0x80, irank: fit(2), axis: 1, P: [3, 4], I: [3, 2], idx: inRange(6) }),
  },
  gather_block_quantized: {
    'uint8-4bit-rows': gbq({ P: [6, 16], I: [3], idx: inRange(3) }),
    'uint8-2bit-zp-f16-pool': gbq({ bits: 2, st: 'f16', zp: 1, pool: 1, split: 1, P: [65, 8], I: [1000], hostile: 16 }),
    'uint8-8bit-zp-bf16-tail-block': gbq({ bits: 8, st: 'bf16', zp: 1, itype: 2, P: [9, 33], I: [2, 2], idx: [[0x81], [0x83], [0, 2], [1, 1]], hostile: 64 }),
    'uint8-gather-axis-1-clamp': gbq({ mode: 2, itype: 1, gaxis: 1, P: [3, 17], I: [5], hostile: 128 }),
    'int4-axes-differ-zp-i64-zero': gbq({ qt: 'int4', st: 'f16', zp: 1, itype: 2, mode: 1, gaxis: 1, qaxis: 0x88, P: [17, 9], I: [4], hostile: 64 }),
    'uint4-same-axes-u64': gbq({ qt: 'uint4', zp: 1, itype: 3, mode: 2, gaxis: 1, qaxis: 0x89, block: 32, P: [3, 33, 2], I: [2, 3], hostile: 32 }),
    'int4-odd-numel-guarded': gbq({ qt: 'int4', st: 'bf16', zp: 1, guard: 1, misalign: 7, P: [5, 17], I: [3], idx: [[1, 0], [0, 4], [0x81]] }),
    'uint8-block-128-rank3': gbq({ st: 'f16', block: 128, P: [2, 3, 65], I: [2], idx: inRange(2) }),
    'empty-indices': gbq({ qt: 'uint4', P: [4, 32], I: [0] }),
    'scalar-index': gbq({ mode: 2, P: [6, 16], I: [], idx: [[0x81]] }),
    'empty-table-huge-dim': gbq({ qt: 'uint4', gaxis: 0, mode: 1, P: [0, 'SMAX'], I: [2], idx: [[0, 0], [0x85]] }),
    'uint8-last-dim-overflow': gbq({ bits: 2, P: [2, 'SMAX'], I: [1] }),
    'numel-overflow-empty-out': gbq({ qt: 'uint4', mode: 1, P: [2, 'SMAX'], I: [0] }),
    'bad-scales-dim': gbq({ P: [6, 16], I: [2], badScales: 1 << 3 | 2 }),
    'bad-scales-rank': gbq({ qt: 'int4', P: [4, 33], I: [2], badScales: 0 }),
    'bad-zp-unpacked': gbq({ zp: 1, P: [4, 64], I: [2], badZp: 6 }),
    'bad-zp-dim': gbq({ qt: 'uint4', zp: 1, P: [4, 33], I: [2], badZp: 1 << 3 | 3 }),
    'bad-bits': gbq({ bits: 3, P: [4, 16], I: [1] }),
    'bad-block-size': gbq({ block: 24, P: [4, 16], I: [1] }),
    'uint8-quantize-axis-not-last': gbq({ qaxis: 0x88, P: [32, 16], I: [1] }),
    'bad-quantize-axis': gbq({ qt: 'int4', qaxis: 0x8f, P: [32, 16], I: [1] }),
    'invalid-scale-type': gbq({ st: 'invalid', P: [4, 16], I: [1] }),
    'invalid-mode': gbq({ mode: 3, P: [4, 16], I: [1] }),
    'invalid-index-type': gbq({ badItype: 1, P: [4, 16], I: [2] }),
    'negative-error-clamp': gbq({ negative: 1, mode: 2, P: [6, 16], I: [4], idx: [[0, 1], [1, 2], [0x81], [0x83]] }),
    'negative-error': gbq({ negative: 1, itype: 2, P: [6, 16], I: [3], idx: [[0, 1], [0, 5], [1, 2]] }),
    'invalid-negative-policy': gbq({ negative: 2, P: [4, 16], I: [1] }),
    'output-overflow': gbq({ qt: 'uint4', P: [2, 32], I: ['SMAX', 2] }),
  },
};
for (const [op, seeds] of Object.entries(SEEDS)) {
  const dir = new URL(`./corpus/${op}/`, import.meta.url);
  mkdirSync(dir, { recursive: true });
  for (const [name, bytes] of Object.entries(seeds)) writeFileSync(new URL(name, dir), bytes);
}
