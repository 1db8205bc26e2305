// Writes the seed corpus of the fuzz targets (tests/fuzz/corpus/<op>/), a few hand-made inputs
// per op in the byte layout that tests/fuzz/fuzz_ops.c decodes: each seed starts the fuzzer at
// a kernel or a hostile corner (see the names). Run: node tests/fuzz/make-seeds.mjs
import { mkdirSync, writeFileSync } from 'node:fs';

// header byte f: element width (0-3: 1, 2, 4, 8 bytes) | index type << 2 (I32, U32, I64, U64)
// | mode << 4 (error, zero, clamp, invalid) | 0x40 pool | 0x80 every op split over the pool
const f = ({ elem = 2, itype = 0, mode = 0, pool = 0, split = 0 }) => elem | itype << 2 | mode << 4 | pool << 6 | split << 7;
// byte g: 1 guard zones | misalign << 1 | 0x60 invalid index type | 0x70 element size 16 | 0xf0 size 3
// dims: 0-5 as they are; others from the table in fuzz_ops.c
const T = { 6: 0, 8: 2, 9: 3, 65: 13, 257: 19, 300: 20, 1000: 24, 1024: 25, 4097: 28, I64MAX: 38, SMAX: 40 };
const dim = (d) => (d <= 5 ? d : 0xb0 + T[d]);
// index rank bytes: rank r with 0x40 (shapes made to fit), or 0x80 (gather: a rank of its own)
const fit = (r) => 0x40 + (r + 6) % 7, own = (r) => 0x80 + (r + 5) % 7;
// indices: [0, v] in range, [1, v] negative in range, [0x80 + k] an edge or hostile value k
function seed({ h = {}, g = 0, rank, irank, axis = 0, bd = 0, P, I, hostile = 0, idx = [] }) {
  return Uint8Array.from([f(h), g, rank ?? P.length, irank ?? I.length, axis & 255, bd & 255,
    ...P.map(dim), ...I.map(dim), hostile, ...idx.flat()]);
}
const inRange = (n) => Array.from({ length: n }, (_, i) => [i & 1, i * 7]);
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
  },
  gather_nd: {
    pairs: seed({ P: [4, 5], I: [3, 2], idx: inRange(6) }),
    'batch-slices-i64-zero': seed({ h: { elem: 3, itype: 2, mode: 1 }, irank: fit(3), bd: 1, P: [2, 3, 65], I: [2, 4, 1], hostile: 64 }),
    'triples-pool': seed({ h: { pool: 1, split: 1 }, P: [4, 5, 3], I: [1000, 3], hostile: 8 }),
    'k0-whole-slices': seed({ P: [3, 4], I: [5, 0] }),
    'empty-huge-dim-clamp': seed({ h: { mode: 2 }, P: [0, 'SMAX'], I: [3, 2], idx: [[1, 0], [0x8c], [0x82]] }),
    'huge-k': seed({ P: [3], I: [0, 'SMAX'] }),
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
  },
};
for (const [op, seeds] of Object.entries(SEEDS)) {
  const dir = new URL(`./corpus/${op}/`, import.meta.url);
  mkdirSync(dir, { recursive: true });
  for (const [name, bytes] of Object.entries(seeds)) writeFileSync(new URL(name, dir), bytes);
}
