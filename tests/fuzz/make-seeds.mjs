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
  6: 0, 7: 1, 8: 2, 9: 3, 13: 4, 15: 5, 16: 6, 17: 7, 32: 9, 33: 10, 64: 12, 65: 13, 128: 15, 257: 19, 300: 20,
  1000: 24, 1024: 25, 2047: 26, 4096: 27, 4097: 28, 40000: 31, I64MAX: 38, SMAX: 40,
  255: 17, 256: 18, 511: 21, 512: 22, 513: 23, 8191: 29, 16384: 30, E32: 35, E40: 37, SMAX1: 41, SMAX2: 42,
};
const dim = (d) => {
  if (d > 5 && !(d in T)) throw new Error(`dim ${d} is not in fuzz_ops.c's table (DIM_TABLE)`);
  return d <= 5 ? d : 0xb0 + T[d];
};
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
// The scatters have a layout of their own (fuzz_ops.c, fuzz_scatter):
// byte v: value type (0-11 as wg_value_type; 12-15 invalid) | reduce << 4 (0-5 none, add, mul,
// max, min, mean; 6, 7 invalid; tensor_scatter: 1 circular, 6, 7 an invalid circular) | 0x80
// include_self 0;
// byte m: index type | mode << 2 (error, drop, clamp, invalid) | negative << 4 (wrap, error,
// invalid; tensor_scatter 3: no write indices) | 0x40 pool | 0x80 split;
// byte x: 1 in place | 2 guard zones | misalign << 2 | 0x20 include_self 2 | 0x40 invalid index
// type | 0x80 shapes made to fit (fitted, the updates dims' bytes are: scatter, bit 0 src's
// extra over index; tensor_scatter, the first the update's length);
// ranks (data, index, updates: scatter, fitted, 0x40 + 1 the value form), axis, dims, hostile,
// indices, update values, data values.
// values: [small(v)] v in -4..4, [special(k)] the type's k-th edge (fuzz_ops.c, decode_value),
// 0x80 and up any bits
const VT = { i8: 0, u8: 1, i16: 2, u16: 3, i32: 4, u32: 5, i64: 6, u64: 7, f16: 8, bf16: 9, f32: 10, f64: 11, invalid: 12 };
const RED = { none: 0, add: 1, mul: 2, max: 3, min: 4, mean: 5, invalid: 6, int32min: 7 };
const small = (v) => v + 4, special = (k) => 0x60 + k;
// (scatter, fitted: src's shape is index's plus srcExtra in each dim, or the value form)
function sc({ vt = 'f32', reduce = 'none', noSelf = 0, circular = 0, itype = 0, mode = 0, negative = 0, noIdx = 0, pool = 0,
  split = 0, inPlace = 0, guard = 0, misalign = 0, badSelf = 0, badItype = 0, fit = 1, valueForm = 0, srcExtra, axis = 0,
  P, I = [], U, rawU = srcExtra === undefined ? undefined : I.map(() => srcExtra), hostile = 0, idx = [], upd = [],
  data = [] }) {
  const r = typeof circular === 'string' ? { 2: 6, '-1': 7 }[circular] : circular ? 1 : RED[reduce];
  const v = (VT[vt] ?? vt) | r << 4 | noSelf << 7;
  const m = itype | mode << 2 | (noIdx ? 3 : negative) << 4 | pool << 6 | split << 7;
  const x = inPlace | guard << 1 | misalign << 2 | badSelf << 5 | badItype << 6 | fit << 7;
  const ubytes = rawU ?? (U ?? []).map(dim); // fitted, the updates dims' bytes are raw (above)
  const urank = valueForm ? 0x41 : ubytes.length;
  return Uint8Array.from([v, m, x, P.length, I.length, urank, axis & 255, ...P.map(dim), ...I.map(dim), ...ubytes,
    hostile, ...idx.flat(), ...upd, ...data]);
}
// tensor_scatter: no index dims (one write index a batch row); `len` the update's length
// (fitted: len % (L + 1) for a cache length L <= 8)
const ts = ({ len = 0, P, ...o }) => sc({ ...o, P, rawU: [len, ...P.slice(1).map(() => 0)] });
const dups = (n, s) => Array.from({ length: n }, (_, i) => [0, (i * 5) % s]);
// The fused gather-reduce has a layout of its own (fuzz_ops.c, fuzz_bag):
// byte v: value type (0 f32, 1 f64, 2 f16, 3 bf16; 6 i32 and 7 (12) refused) | reduce << 3 (the
// op's table: embedding_bag sum, mean, max, sqrtn, 6 min and 7 INT32_MIN refused; segment_reduce
// sum, mean, max, min, prod, 6 sqrtn and 7 none refused) | 0x40 pool | 0x80 split;
// byte s: form (embedding_bag: 0 fixed, 1 offsets, 2 bounds, 3 ids, 6 lengths and 7 (-1) refused;
// segment_reduce: 0 lengths, 1 bounds, 2 ids, 6 offsets and 7 fixed refused) | segments' index
// type << 3 | how << 5 (0 valid, 4 one value broken, 5 one more or one fewer, 6 any values, 7 an
// invalid index type);
// byte x: index type | mode << 2 | negative << 4 (wrap, error, invalid) | 0x40 guard zones | 0x80
// an invalid index type;
// byte o: 1 weights (segment_reduce: initial) | 2 padding | 4 max indices | 8 a quantized table
// (embedding_bag) | misalign << 4; 0xff no desc;
// a quantized table's two bytes (QUANT below): quant type | scale type << 2 | 0x10 zero points |
// bits << 5 | 0x80 scales perturbed; block | quantize axis << 3 | 0x20 zero points perturbed (their
// perturbation bytes after the dims);
// data rank, then embedding_bag's index rank (0: the form's; 0x80 + r: r) or segment_reduce's
// axis, dims, the segments' count (a dim; ids: num_segments, NUM_IDS below), padding (PAD),
// hostile, segments (made valid from a step a byte: [step(k)] k on, 0x80 and up any;
// embedding_bag's last bound: [0xc0, step] short of the end; then how 4's position and kind:
// 0 decreasing or the first not 0, 1 -1, 2 the type's minimum, 3 past the end, 4 past it by 2^32,
// 5 2^64 - 2, 6 2^31, 7 one more; how 5's byte: odd one more, even one fewer), indices, weights or
// initial, data values ([mantissa] a random one near 1; raw32(bits) those bits; [any, special(k)]
// decode_value's edges).
const BVT = { f32: 0, f64: 1, f16: 2, bf16: 3, i32: 6, invalid: 7 };
const BAG_RED = { sum: 0, mean: 1, max: 2, sqrtn: 3, min: 6, int32min: 7 };
const SEG_RED = { sum: 0, mean: 1, max: 2, min: 3, prod: 4, sqrtn: 6, none: 7 };
const BAG_FORM = { fixed: 0, offsets: 1, bounds: 2, ids: 3, lengths: 6, invalid: 7 };
const SEG_FORM = { lengths: 0, bounds: 1, ids: 2, offsets: 6, fixed: 7 };
const HOW = { valid: 0, broken: 4, count: 5, any: 6, badType: 7 };
const BROKEN = { decreasing: 0, minusOne: 1, min: 2, pastEnd: 3, pastBy2e32: 4, huge: 5, two31: 6, plusOne: 7 };
const NUM_IDS = [0, 1, 7, 16, 64, 257, 4097, 2 ** 20, 2 ** 29 - 1, 2 ** 29, 2 ** 30 - 2, 2 ** 30 - 1, 2 ** 30, 2 ** 30 + 1,
  2 ** 31 - 1, -1, -(2 ** 31), -2];
const numIds = (n) => {
  if (n >= 0 && n < 8) return n;
  if (!NUM_IDS.includes(n)) throw new Error(`num_segments ${n} is not in fuzz_ops.c's NUM_TABLE`);
  return 0xb0 + NUM_IDS.indexOf(n);
};
const PAD = { rows: 0xf0, belowRows: 0xf1, int32max: 0xf2, int32min: 0xf3 }; // else < 0x80 p % rows, 0x80 + k: -1 - k
const step = (k) => 0x40 + k, mantissa = 0x40, any = 0x80;
// a quantized table: quant type (QT), scale type (ST), bits, block, quantize axis (last, 0, 1,
// rank), the perturbation bytes of the scales' and zero points' shapes
const QBITS = { 4: 0, 2: 1, 8: 2, 3: 3 }, QBLOCK = { 16: 0, 32: 1, 64: 2, 128: 3, 256: 4, 24: 5, 0: 6, 512: 7 };
const QAXIS = { last: 0, 0: 1, 1: 2, rank: 3 };
const quantBytes = ({ qt = 'uint8', st = 'f32', zp = 0, bits = 4, block = 16, qaxis = 'last', badScales, badZp }) => [
  QT[qt] | ST[st] << 2 | zp << 4 | QBITS[bits] << 5 | (badScales !== undefined) << 7,
  QBLOCK[block] | QAXIS[qaxis] << 3 | (badZp !== undefined) << 5];
const quantPerturb = ({ badScales, badZp }) => [...(badScales !== undefined ? [badScales] : []), ...(badZp !== undefined ? [badZp] : [])];
const raw32 = (u) => [0x70, u >>> 24, u >>> 16 & 255, u >>> 8 & 255, u & 255];
const broken = (p, kind) => [p, BROKEN[kind]];
function bag({ seg = false, vt = 'f32', reduce = 'sum', pool = 0, split = 0, form, stype = 0, how = 'valid', itype = 0, mode = 0,
  negative = 0, guard = 0, badItype = 0, weights = 0, initial = 0, padding, maxIndices = 0, misalign = 0, noDesc = 0,
  quant, rank, irank, axis = 0, P, I = [], count = 0, ids, hostile = 0, idx = [], segs = [], values = [] }) {
  const v = BVT[vt] | (seg ? SEG_RED : BAG_RED)[reduce] << 3 | pool << 6 | split << 7;
  const s = (seg ? SEG_FORM : BAG_FORM)[form] | stype << 3 | HOW[how] << 5;
  const x = itype | mode << 2 | negative << 4 | guard << 6 | badItype << 7;
  const o = noDesc ? 0xff : (weights | initial) | (padding !== undefined) << 1 | maxIndices << 2 | !!quant << 3 | misalign << 4;
  const second = seg ? axis & 255 : irank === undefined ? 0 : irank > 16 ? 0xf8 : 0x80 + irank;
  return Uint8Array.from([v, s, x, o, ...(quant ? quantBytes(quant) : []), rank ?? P.length, second, ...P.map(dim),
    ...(seg ? [] : I.map(dim)), ...(quant ? quantPerturb(quant) : []),
    ids !== undefined ? numIds(ids) : dim(count), ...(padding !== undefined ? [PAD[padding] ?? padding] : []), hostile,
    ...segs.flat(), ...idx.flat(), ...values.flat()]);
}
const seg = (o) => bag({ ...o, seg: true });
const f32s = (...xs) => xs.map((k) => [any, special(k)]); // decode_value's edges (FLOATS in fuzz_ops.c)
// embedding_bag_backward has a layout of its own (fuzz_ops.c, fuzz_bag_backward):
// byte v: gradient type (0 f32, 1 f64; 4 f16, 5 bf16, 6 i32, 7 (99) refused) | reduce << 3 (0 sum,
// 1 mean, 2 max, 3 sqrtn; 6 min, 7 INT32_MIN refused) | 0x40 pool | 0x80 split;
// byte s: as the bags' (form, segments' index type, how; how 7: float32 segments);
// byte x: as the bags' (0x80: float32 indices);
// byte o: 1 weights | 2 padding | 4 max indices (without max: given anyway; with max: any values) |
// 8 the weights' gradient (the table given) | 0x10 accumulate | 0x20 a broken shape | misalign << 6;
// gradient rank (GRANK), index rank (0: the form's; 0x80 + r: r), the gradient's row dims (its
// first is the bags'), index dims, the bags (a dim; ids: num_segments, NUM_IDS), num_weights
// (NUMW), the broken shape (BW_BROKEN | dim << 4), padding (PAD, against num_weights), hostile,
// segments, indices, weights, max indices ([m + 1]: -1 or a row m; [0xe0 + k]: one out of range,
// with 4 and max), the gradient's values, out's (accumulate), the table's.
const GRANK = (r) => (r === 0 ? 0xf0 : r > 16 ? 0xf8 : r - 1);
const NUMW_TABLE = [0, 1, 7, 16, 64, 257, 4097, 65536, 2 ** 20, 2 ** 31 - 2, 2 ** 31 - 1, -1, -(2 ** 31), -2];
const numw = (n) => {
  if (n >= 0 && n < 64) return n < 8 ? n : 0x80 + n;
  if (!NUMW_TABLE.includes(n)) throw new Error(`num_weights ${n} is not in fuzz_ops.c's NW_TABLE`);
  return 0xc0 + NUMW_TABLE.indexOf(n);
};
const BW_BROKEN = { gradScalar: 0, gradMore: 1, gradFewer: 2, weightsType: 3, weightsRank: 4, weightsDim: 5, maxIndicesType: 6,
  maxIndicesDim: 7, maxIndicesAbsent: 8, tableType: 9, tableRank: 10, tableRows: 11, tableDim: 12, fixedSegments: 13 };
const BW_VT = { f32: 0, f64: 1, f16: 4, bf16: 5, i32: 6, invalid: 7 };
const BW_RED = { sum: 0, mean: 1, max: 2, sqrtn: 3, min: 6, int32min: 7 };
const raw64 = (hi, lo) => [0x70, hi >>> 24, hi >>> 16 & 255, hi >>> 8 & 255, hi & 255, lo >>> 24, lo >>> 16 & 255, lo >>> 8 & 255, lo & 255];
const mis = (m) => m + 1; // a max index byte for row m (-1: 0)
function bwd({ vt = 'f32', reduce = 'sum', pool = 0, split = 0, form, stype = 0, how = 'valid', itype = 0, mode = 0, negative = 0,
  guard = 0, badItype = 0, weights = 0, padding, maxAny = 0, maxGiven = 0, table = 0, accumulate = 0, broken, brokenDim = 0,
  misalign = 0, grank, irank, G = [], I = [], count = 0, ids, numWeights = 0, hostile = 0, segs = [], idx = [], wts = [], mi = [],
  grad = [], out = [], tab = [] }) {
  const v = BW_VT[vt] | BW_RED[reduce] << 3 | pool << 6 | split << 7;
  const s = BAG_FORM[form] | stype << 3 | HOW[how] << 5;
  const x = itype | mode << 2 | negative << 4 | guard << 6 | badItype << 7;
  const o = weights | (padding !== undefined) << 1 | (maxAny | maxGiven) << 2 | table << 3 | accumulate << 4
    | (broken !== undefined) << 5 | misalign << 6;
  const second = irank === undefined ? 0 : irank > 16 ? 0xf8 : 0x80 + irank;
  return Uint8Array.from([v, s, x, o, GRANK(grank ?? G.length + 1), second, ...G.map(dim), ...I.map(dim),
    ids !== undefined ? numIds(ids) : dim(count), numw(numWeights),
    ...(broken !== undefined ? [BW_BROKEN[broken] | brokenDim << 4] : []), ...(padding !== undefined ? [PAD[padding] ?? padding] : []),
    hostile, ...segs.flat(), ...idx.flat(), ...wts.flat(), ...mi.flat(), ...grad.flat(), ...out.flat(), ...tab.flat()]);
}
const rows = (n, k) => Array.from({ length: n }, (_, i) => [0, (i * 3) % k]);
// The masks' ops have a layout of their own (fuzz_ops.c, fuzz_mask):
// byte t: the mask's type (MDT) | data's << 4 (DDT); non_zero (data is the mask): 0x10 rows first
// (0x90: given as -1), index type << 5 (0 int32, 1 int64, 3 uint32 refused; 0xe0: 7 refused);
// byte o: 1 pool | 2 split | 4 guard zones | 8 count first (a run without an output, then the write)
// | 0x10 a shape query first (runs: wg_call_rerun) | 0x20 the mask changed between count and write |
// 0x40 count first: a second run without an output; masked_scatter: in place | 0x80 misaligned;
// byte x: compress 1 flatten, 2 flatten given as -1; masked_scatter the source (SRC_LEN | shape << 3
// (0 [n], 2 [1, n], 3 [] if n is 1 else [n, 1]) | 0x80 another type); not non_zero: 0x40 the offsets
// mode (no data, source or output: each slice's byte offset, each source value's element), 0x20
// then without a workspace (refused);
// byte m: how the values are made (FILL) | run scale << 2 (runs of a byte times 1 + scale) | 0x20 the
// runs' values a byte each;
// data rank (17: 0xf8), axis (int8; 0x80 INT32_MIN), then (not non_zero) the mask's rank byte: 0x80
// made from data's (boolean_mask: 1 + k % the dims from the axis; compress: k >> 4 0 the axis's
// length, 2 less k & 15, 3 (k & 15) % (length + 1); masked_scatter: data's) | 0x40 perturbed
// (PERTURB, a byte after the dims; compress: one or two more than the axis); else the rank and
// dims of its own; data dims, the mask's own dims, the perturbation byte, the mask's values (MV,
// a byte each; FILL other than bytes: one byte, the density or the value), the source's dim
// byte (length 'dim'), the mutation byte (0x20: 1 every element, 2 any values, 4 true, else false).
const MDT = { u8: 0, i8: 1, u16: 2, i16: 3, u32: 4, i32: 5, u64: 6, i64: 7, f16: 8, bf16: 9, f32: 10, f64: 11, none: 13, u4: 14, unknown: 15 };
const DDT = { ...MDT, none: 14, i4: 13 };
const FILL = { bytes: 0, density: 1, runs: 2, one: 3 };
const SRC_LEN = { count: 0, more: 4, fewer: 5, none: 6, dim: 7 };
const PERTURB = { dimMore: 0, dimZero: 1, rankMore: 2, rankFewer: 3 };
const MV = { zero: 0, one: 0x40, negZero: 0x80, allOnes: 0x81, nan: 0x82, minusOne: 0x83, subnormal: 0x84,
  bit: (k) => 0x85 | k << 4, expTop: 0x86, low80: 0x87, negSubnormal: 0x88, inf: 0x89, negInf: 0x8a, negNan: 0x8b, any: 0x8c };
const signs = [MV.zero, MV.negZero, MV.nan, MV.one, MV.negNan, MV.subnormal, MV.negSubnormal, MV.inf, MV.negInf,
  MV.minusOne, MV.allOnes, MV.expTop, MV.low80, MV.bit(1), MV.bit(6), MV.any];
const INDEX = { int32: 0, int64: 1, uint32: 3, seven: 7 };
function msk({ nz = false, mask = 'u8', data = 'f32', rowsFirst = 0, indexType = 'int32', pool = 0, split = 0, guard = 0,
  countFirst = 0, shapeFirst = 0, hostile = 0, again = 0, inPlace = 0, misalign = 0, flatten = 0, offsets = 0, noWorkspace = 0, src, fill = 'bytes', scale = 0,
  runValues = 0, rank, axis = 0, D, fit, perturb, M, values = [], after = [] }) {
  const it = INDEX[indexType];
  const t = nz ? MDT[mask] | (rowsFirst ? 0x10 : 0) | (rowsFirst === -1 || it === 7 ? 0x80 : 0) | (it & 3) << 5 : MDT[mask] | DDT[data] << 4;
  const o = pool | split << 1 | guard << 2 | countFirst << 3 | shapeFirst << 4 | hostile << 5 | (again | inPlace) << 6 | misalign << 7;
  const x = (src ? SRC_LEN[src.len ?? 'count'] | (src.shape ?? 0) << 3 | (src.otherType ?? 0) << 7 : flatten === -1 ? 3 : flatten)
    | offsets << 6 | noWorkspace << 5;
  const m = FILL[fill] | scale << 2 | runValues << 5;
  const r = rank ?? (D.length > 16 ? 0xf8 : D.length);
  const kb = nz ? [] : fit !== undefined ? [0x80 | (perturb !== undefined ? 0x40 : 0) | fit] : [M.length > 16 ? 0xf8 : M.length];
  const pb = perturb !== undefined && fit !== undefined ? [PERTURB[perturb] ?? perturb] : [];
  return Uint8Array.from([t, o, x, m, r, axis & 255, ...kb, ...D.map(dim), ...(fit === undefined && M ? M.map(dim) : []), ...pb,
    ...values.flat(), ...after]);
}
const nz = (o) => msk({ ...o, nz: true });
const cut = (mode, k = 0) => mode << 4 | k; // compress's condition made from the axis: 0 its length, 2 less k, 3 k % (length + 1)
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
  scatter: {
    'add-dups-f32': sc({ reduce: 'add', P: [4], I: [6], srcExtra: 0, idx: dups(6, 4), upd: [5, 6, 7, 8, 3, 2], data: [4, 5, 6, 7] }),
    'none-last-write-i32-dim1': sc({ vt: 'i32', axis: 1, P: [2, 3], I: [2, 4], srcExtra: 0, idx: dups(8, 3) }),
    'value-form-mul-i16': sc({ vt: 'i16', reduce: 'mul', valueForm: 1, P: [3, 4], I: [2, 4], axis: 1, idx: dups(8, 4), upd: [small(-3)] }),
    'src-larger-max-f16-nan': sc({ vt: 'f16', reduce: 'max', P: [3, 3], I: [2, 2], srcExtra: 1, idx: dups(4, 3), upd: [special(4), special(1), small(2), special(6), special(0)] }),
    'mean-no-self-i8-floor': sc({ vt: 'i8', reduce: 'mean', noSelf: 1, P: [3], I: [5], srcExtra: 0, idx: dups(5, 3), upd: [small(-3), small(-4), small(1), small(-1), small(2)] }),
    'mean-self-u64': sc({ vt: 'u64', reduce: 'mean', itype: 3, P: [4], I: [7], srcExtra: 0, idx: dups(7, 2) }),
    'min-f64-nan-zeros': sc({ vt: 'f64', reduce: 'min', P: [2], I: [6], srcExtra: 0, idx: dups(6, 2), upd: [special(1), special(0), special(4), small(-4), special(7), special(3)], data: [special(0), special(6)] }),
    // a NaN in place met by NaN updates of other payloads and signs, a signaling one among them
    'max-f32-nan-meets-nan': sc({ reduce: 'max', P: [2], I: [6], srcExtra: 0, idx: dups(6, 2), upd: [special(7), special(6), small(1), special(7), special(5), small(-4)], data: [special(6), small(0)] }),
    'max-bf16-ties-no-self': sc({ vt: 'bf16', reduce: 'max', noSelf: 1, P: [3], I: [6], srcExtra: 0, idx: dups(6, 3), upd: [special(0), special(1), special(3), special(5), special(2), special(1)] }),
    'add-f16-rounding': sc({ vt: 'f16', reduce: 'add', P: [1], I: [5], srcExtra: 0, idx: dups(5, 1), upd: [small(1), small(1), small(1), special(13), special(12)], data: [special(14)] }),
    'mul-wrap-u8': sc({ vt: 'u8', reduce: 'mul', P: [2], I: [8], srcExtra: 0, idx: dups(8, 2), upd: Array(8).fill(special(7)), data: [special(9), special(8)] }),
    'pool-split-dups-u32': sc({ vt: 'u32', reduce: 'add', pool: 1, split: 1, P: [1024], I: [4096], srcExtra: 0, hostile: 4 }),
    'pool-split-mean-f32-rank2': sc({ reduce: 'mean', noSelf: 1, pool: 1, split: 1, axis: 1, P: [64, 65], I: [64, 128], srcExtra: 0 }),
    'drop-u64-hostile': sc({ vt: 'i64', itype: 3, mode: 1, reduce: 'add', P: [5, 3], I: [4, 3], srcExtra: 0, hostile: 128 }),
    'clamp-negative-error-i32': sc({ vt: 'i16', mode: 2, negative: 1, reduce: 'min', P: [6], I: [6], srcExtra: 0, idx: [[0, 1], [1, 2], [0x81], [0x83], [0x80], [0x85]] }),
    'error-last-index-in-place': sc({ vt: 'u16', inPlace: 1, reduce: 'add', P: [4], I: [5], srcExtra: 0, idx: [...dups(4, 4), [0x80]] }),
    'error-pool-in-place': sc({ inPlace: 1, pool: 1, split: 1, itype: 2, P: [1000], I: [4096], srcExtra: 0, hostile: 1 }),
    'guarded-misaligned-i64': sc({ vt: 'i64', reduce: 'max', guard: 1, misalign: 5, itype: 2, P: [3, 4], I: [3, 2], srcExtra: 1, axis: -1, idx: dups(6, 4) }),
    scalar: sc({ vt: 'u8', reduce: 'add', P: [], I: [], srcExtra: 0, idx: [[1, 0]] }),
    'empty-huge-dim': sc({ mode: 1, axis: 1, P: [0, 'SMAX'], I: [0, 3], srcExtra: 0 }),
    'empty-dim-bad-index': sc({ axis: 0, P: [0, 2], I: [2, 2], srcExtra: 0, idx: dups(4, 1) }),
    'huge-shape-query': sc({ reduce: 'add', P: ['SMAX', 2], I: [2, 2], srcExtra: 0 }),
    'rank-mismatch': sc({ fit: 0, P: [3, 3], I: [3], U: [3] }),
    'index-larger-than-src': sc({ fit: 0, P: [4], I: [3], U: [2] }),
    'index-larger-than-input': sc({ fit: 0, axis: 1, P: [2, 3], I: [3, 1], U: [3, 1] }),
    'invalid-reduce': sc({ reduce: 'invalid', P: [3], I: [2], srcExtra: 0 }),
    'invalid-reduce-int32-min': sc({ reduce: 'int32min', P: [3], I: [2], srcExtra: 0 }),
    'invalid-value-type': sc({ vt: 'invalid', P: [3], I: [2], srcExtra: 0 }),
    'invalid-include-self': sc({ reduce: 'add', badSelf: 1, P: [3], I: [2], srcExtra: 0 }),
    'invalid-mode': sc({ mode: 3, P: [3], I: [2], srcExtra: 0 }),
    'invalid-index-type': sc({ badItype: 1, P: [3], I: [2], srcExtra: 0 }),
    'invalid-negative-policy': sc({ negative: 2, P: [3], I: [2], srcExtra: 0 }),
    'bad-axis': sc({ axis: 0x7f, P: [3], I: [2], srcExtra: 0 }),
  },
  scatter_nd: {
    'rows-add-f32': sc({ reduce: 'add', P: [5, 3], I: [4, 1], idx: dups(4, 5) }),
    'elements-k2-mul-i32': sc({ vt: 'i32', reduce: 'mul', P: [4, 5], I: [6, 2], hostile: 16 }),
    'k0-whole-max-u8': sc({ vt: 'u8', reduce: 'max', P: [2, 3], I: [3, 0] }),
    'none-last-write-bf16': sc({ vt: 'bf16', P: [3, 2, 2], I: [5, 2], idx: [[0, 1], [0, 0], [0, 1], [0, 0], [1, 2], [1, 1], [0, 1], [0, 0], [0, 2], [0, 1]] }),
    'min-f16-nan-meets-nan': sc({ vt: 'f16', reduce: 'min', P: [2, 2], I: [4, 1], idx: dups(4, 2), upd: [special(7), special(5), special(6), small(-1), small(-4), special(7), special(5), special(4)], data: [special(6), special(4), special(7), small(3)] }),
    'pool-split-dups-f16': sc({ vt: 'f16', reduce: 'add', pool: 1, split: 1, P: [64, 16], I: [1000, 1], hostile: 2 }),
    'pool-split-min-no-self-i64': sc({ vt: 'i64', reduce: 'min', noSelf: 1, pool: 1, split: 1, itype: 2, P: [17, 9], I: [1024, 2] }),
    'drop-u32-edges': sc({ vt: 'u16', mode: 1, itype: 1, reduce: 'add', P: [3, 4], I: [4, 2], idx: [[0x80], [0x81], [0x82], [0x83], [0x88], [0x89], [0x8a], [0x90]] }),
    'clamp-negative-error-i64': sc({ vt: 'f64', mode: 2, negative: 1, itype: 2, reduce: 'max', P: [4, 3], I: [5, 2], hostile: 128 }),
    'error-in-place-guarded': sc({ vt: 'i8', inPlace: 1, guard: 1, misalign: 3, reduce: 'add', P: [4, 2], I: [3, 1], idx: [[0, 1], [0, 3], [0x80]] }),
    'empty-data-bad-index': sc({ P: [0, 3], I: [2, 1], idx: dups(2, 1) }),
    'mean-refused': sc({ reduce: 'mean', P: [3, 2], I: [2, 1] }),
    'depth-too-large': sc({ P: [3], I: [2, 2], fit: 0, U: [2] }),
    'data-scalar': sc({ fit: 0, P: [], I: [1, 0], U: [1] }),
    'indices-scalar': sc({ fit: 0, P: [3], I: [], U: [] }),
    'updates-shape': sc({ fit: 0, P: [3, 2], I: [2, 1], U: [2, 3] }),
    'huge-shape-query': sc({ reduce: 'add', P: ['SMAX', 'SMAX'], I: [2, 1] }),
  },
  index_reduce: {
    'rows-mean-i32': sc({ vt: 'i32', reduce: 'mean', P: [4, 3], I: [6], idx: dups(6, 4), upd: [small(-4), small(-3), small(3)] }),
    'axis1-max-f16': sc({ vt: 'f16', reduce: 'max', axis: 1, P: [2, 5, 3], I: [4], hostile: 8 }),
    'max-bf16-nan-meets-nan': sc({ vt: 'bf16', reduce: 'max', P: [2, 2], I: [4], idx: dups(4, 2), upd: [special(7), special(5), special(6), small(-1), small(-4), special(7), special(5), special(4)], data: [special(6), special(4), special(7), small(3)] }),
    'prod-bf16-rounding': sc({ vt: 'bf16', reduce: 'mul', P: [2], I: [6], idx: dups(6, 2), upd: Array(6).fill(special(11)) }),
    'scalar-index-add-u16': sc({ vt: 'u16', reduce: 'add', axis: -1, P: [3, 4], I: [], idx: [[1, 1]] }),
    'pool-split-dups-i16': sc({ vt: 'i16', reduce: 'add', pool: 1, split: 1, P: [300, 8], I: [2047], hostile: 2 }),
    'pool-split-mean-f64-inner': sc({ vt: 'f64', reduce: 'mean', noSelf: 1, pool: 1, split: 1, axis: 1, P: [4, 16, 33], I: [33] }),
    'min-no-self-u32': sc({ vt: 'u32', reduce: 'min', noSelf: 1, itype: 1, P: [5], I: [4], idx: dups(4, 5) }),
    'drop-negative-error': sc({ vt: 'i64', mode: 1, negative: 1, reduce: 'add', P: [3, 2], I: [5], idx: [[0, 1], [1, 1], [0x81], [0x85], [0, 2]] }),
    'error-in-place': sc({ vt: 'u8', inPlace: 1, reduce: 'add', P: [3, 2], I: [3], idx: [[0, 1], [0, 2], [0x80]] }),
    'empty-inner-bad-index': sc({ P: [3, 0], I: [2], idx: [[0x80], [0, 1]] }),
    'invalid-axis': sc({ axis: 2, P: [3, 2], I: [2] }),
    'data-scalar': sc({ fit: 0, P: [], I: [2], U: [2] }),
    'updates-shape': sc({ fit: 0, P: [3, 2], I: [2], U: [2, 3] }),
    'huge-shape-query': sc({ P: [2, 'SMAX'], I: [3] }),
  },
  tensor_scatter: {
    'linear-f32': ts({ axis: 1, P: [2, 8, 4], len: 3, itype: 0, idx: [[0, 0], [0, 5]] }),
    'linear-kv-axis-minus-2-f16': ts({ vt: 'f16', axis: -2, P: [2, 3, 6, 4], len: 2, itype: 2, idx: [[0, 4], [0, 1]] }),
    'circular-wrap-u8': ts({ vt: 'u8', circular: 1, axis: 1, P: [3, 5, 2], len: 4, itype: 1, idx: [[0, 3], [0, 4], [0x8c]] }),
    'circular-whole-cache-in-place': ts({ vt: 'i32', circular: 1, inPlace: 1, axis: 1, P: [2, 3], len: 3, idx: [[0, 2], [0x8d]] }),
    'update-longer-than-cache-circular': sc({ fit: 0, circular: 1, axis: 1, P: [2, 3], U: [2, 4] }),
    'no-write-indices-bf16': ts({ vt: 'bf16', noIdx: 1, axis: 2, P: [2, 2, 4], len: 3 }),
    'pool-split-u64': ts({ vt: 'u64', pool: 1, split: 1, axis: 1, P: [4, 1024, 2], len: 1, hostile: 1 }),
    'negative-write-index': ts({ axis: 1, itype: 2, P: [2, 4, 2], len: 2, idx: [[0, 1], [0x85]] }),
    'write-past-the-end': ts({ vt: 'i16', axis: 1, P: [2, 4, 2], len: 3, idx: [[0, 1], [0x80]] }),
    'guarded-misaligned-f64': ts({ vt: 'f64', guard: 1, misalign: 7, axis: 1, P: [2, 5, 1], len: 2, idx: [[0, 3], [0, 0]] }),
    'axis-0-refused': ts({ axis: 0, P: [2, 4], len: 1 }),
    'rank-1-refused': ts({ axis: 0, P: [4], len: 1 }),
    'update-too-long-linear': sc({ fit: 0, axis: 1, P: [2, 3], U: [2, 4] }),
    'update-shape': sc({ fit: 0, axis: 1, P: [2, 3, 2], U: [2, 2, 3] }),
    'invalid-circular': ts({ circular: '2', axis: 1, P: [2, 3], len: 1 }),
    'invalid-circular-minus-1': ts({ circular: '-1', axis: 1, P: [2, 3], len: 1 }),
    'invalid-elem-size': ts({ vt: 13, axis: 1, P: [2, 3], len: 1 }),
    'invalid-index-type': ts({ badItype: 1, axis: 1, P: [2, 3], len: 1 }),
    'empty-cache-large-batch': ts({ axis: 1, P: [4097, 0, 2], len: 0, hostile: 16 }),
  },
  embedding_bag: {
    'fixed-sum-f32': bag({ form: 'fixed', P: [6, 4], I: [3, 2], idx: inRange(6) }),
    'offsets-mean-empty-bags': bag({ form: 'offsets', reduce: 'mean', P: [5, 3], I: [7], count: 4, idx: inRange(7), segs: [step(0), step(3), step(0)] }),
    'bounds-bad-index-past-the-last-bound-f64': bag({ vt: 'f64', form: 'bounds', hostile: 255, P: [4, 2], I: [6], count: 2, idx: [...inRange(5), [0x80]], segs: [step(2), 0xc0, step(1)] }),
    'ids-sqrtn-weighted': bag({ form: 'ids', reduce: 'sqrtn', weights: 1, P: [8, 5], I: [9], ids: 4, segs: [0, 0, 1, 0, 1, 1, 0, 0, 0].map(step), idx: inRange(9), values: Array(49).fill(mantissa) }),
    'weighted-sum-fma-rounding': bag({ form: 'fixed', weights: 1, P: [16, 33], I: [8, 4], idx: inRange(32), values: Array(600).fill(mantissa) }),
    // w * x + acc rounded once: (1 + 2^-15)(1 - 2^-15) + 2^24 + 2 is just below a float32 midpoint that
    // float64 rounds onto: 2^24 + 2, not the 2^24 + 4 of a float64 sum rounded again
    'weighted-fma-halfway': bag({ form: 'fixed', weights: 1, P: [3, 1], I: [1, 3], idx: [[0, 0], [0, 1], [0, 2]],
      values: [0x3f800000, 0x3f800000, 0x3f800100, 0x4b800000, 0x40000000, 0x3f7ffe00].map(raw32) }),
    'weighted-mean-padding-unfused': bag({ form: 'offsets', reduce: 'mean', weights: 1, padding: 0, P: [5, 3], I: [9], count: 3, segs: [step(3), step(3)], idx: inRange(9), values: Array(30).fill(mantissa) }),
    'weighted-sqrtn-padding-from-the-end-f64': bag({ vt: 'f64', form: 'ids', reduce: 'sqrtn', weights: 1, padding: 0x80, P: [4, 2], I: [6], ids: 3, segs: [0, 0, 1, 0, 1, 0].map(step), idx: [[1, 0], [0, 3], [0, 1], [1, 1], [0, 0], [0, 3]] }),
    'max-indices-zero-rows-nan': bag({ form: 'fixed', reduce: 'max', maxIndices: 1, mode: 1, P: [3, 2], I: [2, 3], idx: [[0, 1], [0x80], [0, 2], [1, 1], [0, 0], [0x84]], values: f32s(4, 1, 0, 6, 2, 3) }),
    'max-f16-ties-and-signed-zeros': bag({ vt: 'f16', form: 'fixed', reduce: 'max', maxIndices: 1, P: [4, 2], I: [2, 4], idx: [[0, 0], [0, 1], [0, 2], [0, 3], [0, 1], [0, 0], [0, 3], [0, 2]], values: [[any, special(1)], [any, special(0)], [any, special(0)], [any, special(1)], small(1), small(1), [any, special(4)], small(-1)] }),
    'bf16-mean-rounding': bag({ vt: 'bf16', form: 'offsets', reduce: 'mean', P: [6, 9], I: [13], count: 3, segs: [step(4), step(4)], hostile: 8, values: Array(80).fill(mantissa) }),
    'f16-weighted-sqrtn-pool-split': bag({ vt: 'f16', reduce: 'sqrtn', weights: 1, pool: 1, split: 1, form: 'offsets', P: [64, 65], I: [1024], count: 17 }),
    'pool-split-fixed-f32-wide-rows': bag({ pool: 1, split: 1, form: 'fixed', P: [33, 257], I: [64, 3] }),
    'pool-split-max-indices-f64': bag({ vt: 'f64', reduce: 'max', maxIndices: 1, pool: 1, split: 1, form: 'ids', P: [64, 33], I: [1000], ids: 64 }),
    'clamp-negative-error-u64': bag({ form: 'fixed', itype: 3, mode: 2, negative: 1, P: [5, 3], I: [3, 3], hostile: 128 }),
    'guarded-misaligned-i64-weights': bag({ form: 'bounds', guard: 1, misalign: 5, itype: 2, stype: 2, weights: 1, P: [6, 3], I: [8], count: 3 }),
    'weight-inf-times-zero-row': bag({ form: 'fixed', weights: 1, mode: 1, P: [3, 2], I: [2, 2], idx: [[0x80], [0, 1], [0x84], [0, 2]], values: f32s(2, 2, 3, 2) }),
    'bad-index-in-a-bag': bag({ form: 'offsets', hostile: 255, P: [4, 3], I: [5], count: 2, idx: [[0, 1], [0, 2], [0x80], [0, 3], [0x83]], segs: [step(2)] }),
    'bad-index-no-bags': bag({ form: 'offsets', hostile: 255, P: [4, 3], I: [2], count: 0, idx: [[0, 1], [0x80]] }),
    'bad-index-empty-rows': bag({ form: 'fixed', hostile: 255, P: [4, 0], I: [2, 2], idx: [[0, 1], [0x80], [0, 2], [0x81]] }),
    'huge-bags-of-nothing': bag({ form: 'fixed', P: [4, 0], I: ['SMAX', 0] }),
    'huge-empty-table': bag({ form: 'offsets', mode: 1, itype: 3, hostile: 255, P: ['SMAX', 0], I: [4], count: 2, idx: [[0x81], [0x8c], [0x8e], [0x85]] }),
    'offsets-first-not-0': bag({ form: 'offsets', how: 'broken', P: [4, 2], I: [5], count: 3, segs: [step(1), step(1), broken(0, 'decreasing')] }),
    'offsets-decreasing-u32': bag({ form: 'offsets', stype: 1, how: 'broken', P: [4, 2], I: [5], count: 3, segs: [step(2), step(1), broken(2, 'decreasing')] }),
    'offsets-past-end-truncated-i32': bag({ form: 'offsets', how: 'broken', P: [4, 2], I: [5], count: 3, segs: [step(2), step(1), broken(1, 'pastBy2e32')] }),
    'bounds-past-end-i64': bag({ form: 'bounds', stype: 2, how: 'broken', P: [4, 2], I: [5], count: 2, segs: [step(2), 0, broken(2, 'pastEnd')] }),
    'bounds-none': bag({ form: 'bounds', how: 'count', P: [4, 2], I: [5], count: 0, segs: [0] }),
    'ids-decreasing': bag({ form: 'ids', how: 'broken', P: [4, 2], I: [5], ids: 4, segs: [step(0), step(1), step(1), step(1), step(0), broken(3, 'decreasing')] }),
    'ids-negative-i64': bag({ form: 'ids', stype: 2, how: 'broken', P: [4, 2], I: [5], ids: 4, segs: [step(0), step(1), step(0), step(1), step(0), broken(0, 'min')] }),
    'ids-past-num-u64': bag({ form: 'ids', stype: 3, how: 'broken', P: [4, 2], I: [5], ids: 3, segs: [step(0), step(1), step(0), step(1), step(0), broken(4, 'huge')] }),
    'ids-count': bag({ form: 'ids', how: 'count', P: [4, 2], I: [5], ids: 3, segs: [step(0), step(1), step(0), step(1), step(0), 1] }),
    'ids-num-negative': bag({ form: 'ids', P: [4, 2], I: [0], ids: -1 }),
    'ids-num-2e30-empty-rows': bag({ form: 'ids', P: [5, 0], I: [3], ids: 2 ** 30, idx: inRange(3) }),
    'ids-num-int32-max-empty-rows': bag({ form: 'ids', P: [5, 0], I: [3], ids: 2 ** 31 - 1, idx: inRange(3) }),
    'segments-any': bag({ form: 'offsets', how: 'any', itype: 2, stype: 2, P: [5, 2], I: [9], count: 5, hostile: 96 }),
    'segments-invalid-type': bag({ form: 'offsets', how: 'badType', P: [4, 2], I: [5], count: 2 }),
    'lengths-refused': bag({ form: 'lengths', P: [4, 2], I: [5], count: 2 }),
    'invalid-form': bag({ form: 'invalid', P: [4, 2], I: [5], count: 2 }),
    'fixed-with-1d-indices': bag({ form: 'fixed', irank: 1, P: [4, 2], I: [5] }),
    'weights-with-max': bag({ form: 'fixed', reduce: 'max', weights: 1, P: [4, 2], I: [2, 2] }),
    'padding-past-the-rows': bag({ form: 'fixed', padding: 'rows', P: [4, 2], I: [2, 2] }),
    'padding-int32-min': bag({ form: 'fixed', padding: 'int32min', P: [4, 2], I: [2, 2] }),
    'i32-table-refused': bag({ vt: 'i32', form: 'fixed', P: [4, 2], I: [2, 2] }),
    'invalid-value-type': bag({ vt: 'invalid', form: 'fixed', P: [4, 2], I: [2, 2] }),
    'invalid-reduce': bag({ reduce: 'int32min', form: 'fixed', P: [4, 2], I: [2, 2] }),
    'invalid-mode': bag({ mode: 3, form: 'fixed', P: [4, 2], I: [2, 2] }),
    'invalid-negative-policy': bag({ negative: 2, form: 'fixed', P: [4, 2], I: [2, 2] }),
    'invalid-index-type': bag({ badItype: 1, form: 'fixed', P: [4, 2], I: [2, 2] }),
    'no-desc': bag({ noDesc: 1, form: 'fixed', P: [4, 2], I: [2, 2] }),
    'table-scalar': bag({ form: 'fixed', P: [], I: [2, 2] }),
    'rank-17': bag({ form: 'fixed', rank: 0xf8, P: Array(17).fill(1), I: [1, 1] }),
    'output-overflow': bag({ form: 'fixed', P: [0, 'SMAX'], I: [3, 0] }),
    // quantized tables: the fused sum kernels (4- and 8-bit codes, blocks of 16 bytes' worth of
    // columns), the dequantize-first path, and the table's rules
    'quant-uint4-sum-block-32': bag({ quant: { qt: 'uint4', block: 32 }, form: 'fixed', P: [9, 64], I: [4, 3] }),
    'quant-int4-zp-mean-block-64': bag({ quant: { qt: 'int4', zp: 1, block: 64 }, reduce: 'mean', form: 'offsets', P: [17, 128], I: [9], count: 3, segs: [step(4), step(1)] }),
    'quant-uint8-8bit-sqrtn-pool-split': bag({ quant: { bits: 8, zp: 1 }, reduce: 'sqrtn', pool: 1, split: 1, form: 'offsets', P: [65, 32], I: [300], count: 17 }),
    'quant-uint8-4bit-ids-padding': bag({ quant: { block: 32 }, form: 'ids', padding: 0, P: [8, 16], I: [9], ids: 4, segs: [0, 0, 1, 0, 1, 1, 0, 0, 0].map(step), idx: inRange(9) }),
    'quant-uint8-2bit-f16-max-indices': bag({ quant: { bits: 2, st: 'f16', zp: 1 }, reduce: 'max', maxIndices: 1, form: 'fixed', P: [6, 8], I: [3, 2] }),
    'quant-uint4-bf16-weighted-sum': bag({ quant: { qt: 'uint4', st: 'bf16', block: 32 }, weights: 1, form: 'fixed', P: [5, 32], I: [2, 3] }),
    'quant-int4-blocks-down-the-rows': bag({ quant: { qt: 'int4', qaxis: 0, zp: 1 }, form: 'fixed', mode: 1, P: [33, 8], I: [3, 3], hostile: 64 }),
    'quant-uint4-block-256-tail-guarded': bag({ quant: { qt: 'uint4', block: 256, zp: 1 }, guard: 1, misalign: 3, form: 'bounds', P: [7, 300], I: [6], count: 2, segs: [step(3), 0xc0, step(2)] }),
    'quant-uint8-quantize-axis-0-refused': bag({ quant: { qaxis: 0 }, form: 'fixed', P: [32, 16], I: [1, 1] }),
    'quant-bad-scales-dim': bag({ quant: { qt: 'uint4', badScales: 1 << 3 | 2 }, form: 'fixed', P: [4, 32], I: [1, 1] }),
    'quant-bad-zp-unpacked': bag({ quant: { bits: 2, zp: 1, badZp: 6 }, form: 'fixed', P: [4, 16], I: [1, 1] }),
    'quant-bad-bits': bag({ quant: { bits: 3 }, form: 'fixed', P: [4, 16], I: [1, 1] }),
    'quant-bad-block': bag({ quant: { block: 24 }, form: 'fixed', P: [4, 16], I: [1, 1] }),
    'quant-float-table-with-scales': bag({ quant: { qt: 'invalid' }, form: 'fixed', P: [4, 16], I: [1, 1] }),
    'quant-f64-scales': bag({ quant: { st: 'invalid' }, form: 'fixed', P: [4, 16], I: [1, 1] }),
  },
  embedding_bag_backward: {
    'fixed-sum-f32': bwd({ form: 'fixed', G: [3], I: [4, 2], numWeights: 5, idx: rows(8, 5) }),
    'offsets-mean-weights-padding-f32': bwd({ form: 'offsets', reduce: 'mean', weights: 1, padding: 2, G: [4], I: [9], count: 3, numWeights: 6, segs: [step(3), step(4)], idx: rows(9, 6), wts: Array(9).fill(mantissa) }),
    'bounds-past-the-last-sqrtn-f64': bwd({ vt: 'f64', reduce: 'sqrtn', form: 'bounds', G: [2], I: [9], count: 3, numWeights: 4, segs: [step(2), step(3), 0xc0, step(1)], idx: rows(9, 4) }),
    'bounds-weighted-sqrtn-f32-i64': bwd({ reduce: 'sqrtn', weights: 1, form: 'bounds', stype: 2, itype: 2, G: [5], I: [13], count: 4, numWeights: 7, segs: [step(3), step(0), step(4), 0xc0, step(1)], wts: Array(13).fill(mantissa) }),
    'ids-empty-segments-mean-f32': bwd({ reduce: 'mean', form: 'ids', G: [3], I: [8], ids: 5, numWeights: 4, segs: [step(0), step(0), step(2), step(0), step(0), step(1), step(0), step(1)], idx: rows(8, 4) }),
    'ids-weighted-mean-f64-padding': bwd({ vt: 'f64', reduce: 'mean', weights: 1, padding: 0x80, form: 'ids', stype: 3, G: [2], I: [7], ids: 3, numWeights: 3, segs: [step(0), step(1), step(0), step(0), step(1), step(0), step(0)], idx: rows(7, 3) }),
    'max-f32-fixed': bwd({ reduce: 'max', form: 'fixed', G: [3], I: [2, 3], numWeights: 4, idx: rows(6, 4), mi: [mis(0), mis(3), 0, mis(2), mis(2), mis(1)] }),
    'max-f64-ids-pool-split': bwd({ vt: 'f64', reduce: 'max', pool: 1, split: 1, form: 'ids', G: [33], I: [1000], ids: 64, numWeights: 257 }),
    'max-pipeline-pool-split-accumulate': bwd({ reduce: 'max', pool: 1, split: 1, accumulate: 1, form: 'fixed', G: [8], I: [300, 2], numWeights: 7 }),
    'max-indices-out-of-range': bwd({ reduce: 'max', maxAny: 1, form: 'fixed', G: [2], I: [2, 2], numWeights: 3, idx: rows(4, 3), mi: [mis(0), mis(1), 0xe0, mis(2)] }),
    'max-indices-below-minus-one': bwd({ reduce: 'max', maxAny: 1, form: 'offsets', G: [2], I: [4], count: 2, numWeights: 3, segs: [step(2)], idx: rows(4, 3), mi: [mis(0), 0xe1, 0xe2, mis(2)] }),
    'max-indices-wrong-shape': bwd({ reduce: 'max', broken: 'maxIndicesDim', brokenDim: 1, form: 'fixed', G: [2], I: [2, 2], numWeights: 3 }),
    'max-indices-int64': bwd({ reduce: 'max', broken: 'maxIndicesType', brokenDim: 1, form: 'fixed', G: [2], I: [2, 2], numWeights: 3 }),
    'max-indices-absent': bwd({ reduce: 'max', broken: 'maxIndicesAbsent', form: 'fixed', G: [2], I: [2, 2], numWeights: 3 }),
    'max-indices-without-max': bwd({ maxGiven: 1, form: 'fixed', G: [2], I: [2, 2], numWeights: 3 }),
    'max-with-weights': bwd({ reduce: 'max', weights: 1, form: 'fixed', G: [2], I: [2, 2], numWeights: 3 }),
    'max-with-table': bwd({ reduce: 'max', table: 1, form: 'fixed', G: [2], I: [2, 2], numWeights: 3 }),
    'weights-grad-f32-offsets': bwd({ weights: 1, table: 1, form: 'offsets', G: [5], I: [7], count: 2, numWeights: 4, segs: [step(3)], idx: rows(7, 4), wts: Array(7).fill(mantissa) }),
    'weights-grad-f64-zero-mode-padding-bounds': bwd({ vt: 'f64', weights: 1, table: 1, mode: 1, hostile: 128, padding: 1, form: 'bounds', G: [3, 2], I: [9], count: 2, numWeights: 5, segs: [step(3), 0xc0, step(4)] }),
    'weights-grad-without-weights': bwd({ table: 1, form: 'fixed', G: [2], I: [2, 2], numWeights: 3 }),
    'weights-grad-mean-refused': bwd({ reduce: 'mean', weights: 1, table: 1, form: 'fixed', G: [2], I: [2, 2], numWeights: 3 }),
    'table-rows-off-by-one': bwd({ weights: 1, table: 1, broken: 'tableRows', form: 'fixed', G: [2], I: [2, 2], numWeights: 3 }),
    'table-type': bwd({ weights: 1, table: 1, broken: 'tableType', form: 'fixed', G: [2], I: [2, 2], numWeights: 3 }),
    'table-rank': bwd({ vt: 'f64', weights: 1, table: 1, broken: 'tableRank', form: 'fixed', G: [2], I: [2, 2], numWeights: 3 }),
    'table-dim': bwd({ weights: 1, table: 1, broken: 'tableDim', brokenDim: 1, form: 'fixed', G: [2], I: [2, 2], numWeights: 3 }),
    'weights-type': bwd({ weights: 1, broken: 'weightsType', form: 'fixed', G: [2], I: [2, 2], numWeights: 3 }),
    'weights-rank': bwd({ weights: 1, broken: 'weightsRank', form: 'offsets', G: [2], I: [4], count: 1, numWeights: 3 }),
    'weights-dim': bwd({ weights: 1, broken: 'weightsDim', brokenDim: 1, form: 'fixed', G: [2], I: [2, 2], numWeights: 3 }),
    // float32: a fused multiply-add: (1 + 2^-15)(1 - 2^-15) + 2^24 + 2 = 2^24 + 3 - 2^-30 is 2^24 + 2
    // (unfused: 2^24 + 4); (1 + 2^-15)^2 + 2^24 + 2 is 2^24 + 4
    'fma-midpoint-accumulate-f32': bwd({ weights: 1, accumulate: 1, form: 'fixed', G: [2], I: [1, 1], numWeights: 1, idx: [[0, 0]], wts: [raw32(0x3f800100)], grad: [raw32(0x3f7ffe00), raw32(0x3f800100)], out: [raw32(0x4b800001), raw32(0x4b800001)] }),
    // subnormal results: 2^-126 times 0.5, 0.75 + 2^-24 and -1, added to subnormals and 2^-126
    'fma-subnormal-accumulate-f32': bwd({ weights: 1, accumulate: 1, form: 'fixed', G: [3], I: [1, 1], numWeights: 1, idx: [[0, 0]], wts: [raw32(0x00800000)], grad: [raw32(0x3f000000), raw32(0x3f400001), raw32(0xbf800000)], out: [raw32(0x00000001), raw32(0x80000003), raw32(0x00800000)] }),
    // float64: the product rounded, then added: (1 + 2^-30)(1 - 2^-30) is 1, and 2^53 + 2 + 1 a tie, to 2^53 + 4
    'f64-product-then-add': bwd({ vt: 'f64', weights: 1, accumulate: 1, form: 'fixed', G: [1], I: [1, 1], numWeights: 1, idx: [[0, 0]], wts: [raw64(0x3ff00000, 0x00400000)], grad: [raw64(0x3fefffff, 0xff800000)], out: [raw64(0x43400000, 0x00000001)] }),
    'weighted-mean-zero-sum': bwd({ reduce: 'mean', weights: 1, form: 'fixed', G: [2], I: [1, 2], numWeights: 2, idx: [[0, 0], [0, 1]], wts: [small(1), small(-1)], grad: [small(2), small(0)] }),
    'nan-and-infinities-sqrtn-f32': bwd({ reduce: 'sqrtn', weights: 1, accumulate: 1, form: 'fixed', G: [4], I: [2, 2], numWeights: 2, idx: rows(4, 2), wts: f32s(2, 7, 0, 1), grad: f32s(4, 6, 2, 3, 7, 0, 1, 5), out: f32s(6, 1, 0, 5, 2, 3, 4, 7) }),
    'accumulate-bad-index-in-place': bwd({ accumulate: 1, hostile: 255, weights: 1, form: 'offsets', G: [3], I: [5], count: 2, numWeights: 4, segs: [step(2)], idx: [[0, 1], [0, 2], [0, 3], [0, 0], [0x80]] }),
    'bad-index-past-the-last-bound': bwd({ form: 'bounds', hostile: 255, G: [2], I: [5], count: 1, numWeights: 4, segs: [0xc0, step(3)], idx: [[0, 1], [0, 2], [0, 3], [0, 0], [0x84]] }),
    'zero-mode-hostile-u64': bwd({ mode: 1, itype: 3, hostile: 128, weights: 1, form: 'offsets', G: [4], I: [16], count: 4, numWeights: 5 }),
    'clamp-negative-error-i64-mean': bwd({ reduce: 'mean', mode: 2, negative: 1, itype: 2, hostile: 128, weights: 1, form: 'fixed', G: [3], I: [4, 3], numWeights: 5 }),
    'num-weights-0-zero-mode': bwd({ mode: 1, weights: 1, table: 1, form: 'fixed', G: [2], I: [2, 2], numWeights: 0 }),
    'num-weights-0-error': bwd({ form: 'fixed', G: [2], I: [2, 2], numWeights: 0, idx: rows(4, 1) }),
    'num-weights-int32-max-empty-rows': bwd({ form: 'offsets', padding: 0x80, G: [0], I: [6], count: 2, numWeights: 2 ** 31 - 1, hostile: 64, segs: [step(3)] }),
    'num-weights-negative': bwd({ form: 'fixed', G: [2], I: [2, 2], numWeights: -1 }),
    'num-weights-int32-min': bwd({ form: 'fixed', G: [2], I: [2, 2], numWeights: -(2 ** 31) }),
    'grad-rows-more': bwd({ broken: 'gradMore', form: 'offsets', G: [2], I: [4], count: 2, numWeights: 3, segs: [step(1)] }),
    'grad-rows-fewer-ids': bwd({ broken: 'gradFewer', form: 'ids', G: [2], I: [4], ids: 3, numWeights: 3 }),
    'grad-scalar': bwd({ broken: 'gradScalar', form: 'fixed', G: [2], I: [2, 2], numWeights: 3 }),
    'grad-rank-0-byte': bwd({ grank: 0, form: 'fixed', I: [2, 2], numWeights: 3 }),
    'grad-f16-refused': bwd({ vt: 'f16', form: 'fixed', G: [2], I: [2, 2], numWeights: 3 }),
    'grad-bf16-refused': bwd({ vt: 'bf16', form: 'fixed', G: [2], I: [2, 2], numWeights: 3 }),
    'grad-i32-refused': bwd({ vt: 'i32', weights: 1, form: 'fixed', G: [2], I: [2, 2], numWeights: 3 }),
    'grad-invalid-dtype': bwd({ vt: 'invalid', form: 'fixed', G: [2], I: [2, 2], numWeights: 3 }),
    'padding-past-rows': bwd({ padding: 'rows', form: 'fixed', G: [2], I: [2, 2], numWeights: 3 }),
    'padding-below-rows': bwd({ padding: 'belowRows', form: 'fixed', G: [2], I: [2, 2], numWeights: 3 }),
    'padding-int32-max': bwd({ padding: 'int32max', form: 'fixed', G: [2], I: [2, 2], numWeights: 3 }),
    'padding-from-the-end-mean': bwd({ reduce: 'mean', padding: 0x80, form: 'fixed', G: [2], I: [3, 2], numWeights: 3, idx: [[0, 2], [0, 2], [0, 1], [0, 2], [1, 1], [0, 0]] }),
    'offsets-decreasing': bwd({ form: 'offsets', how: 'broken', G: [2], I: [5], count: 3, numWeights: 3, segs: [step(2), step(1), broken(2, 'decreasing')] }),
    'offsets-past-end-truncated': bwd({ form: 'offsets', how: 'broken', G: [2], I: [5], count: 3, numWeights: 3, segs: [step(2), step(1), broken(1, 'pastBy2e32')] }),
    'bounds-none': bwd({ form: 'bounds', how: 'count', G: [2], I: [5], count: 0, numWeights: 3, segs: [0] }),
    'ids-count': bwd({ form: 'ids', how: 'count', G: [2], I: [5], ids: 3, numWeights: 3, segs: [step(0), step(1), step(0), step(1), step(0), 1] }),
    'ids-past-num': bwd({ form: 'ids', how: 'broken', G: [2], I: [5], ids: 3, numWeights: 3, segs: [step(0), step(1), step(0), step(1), step(0), broken(4, 'pastEnd')] }),
    'ids-num-negative': bwd({ form: 'ids', G: [2], I: [0], ids: -1, numWeights: 3 }),
    'ids-num-2e30-empty-rows': bwd({ form: 'ids', G: [0], I: [3], ids: 2 ** 30, numWeights: 5, idx: rows(3, 5) }),
    'segments-any': bwd({ form: 'offsets', how: 'any', itype: 2, stype: 2, G: [2], I: [9], count: 5, numWeights: 5, hostile: 96 }),
    'segments-float32': bwd({ form: 'offsets', how: 'badType', G: [2], I: [5], count: 2, numWeights: 3 }),
    'fixed-with-segments': bwd({ broken: 'fixedSegments', form: 'fixed', G: [2], I: [2, 2], numWeights: 3 }),
    'fixed-with-1d-indices': bwd({ form: 'fixed', irank: 1, G: [2], I: [4], numWeights: 3 }),
    'lengths-refused': bwd({ form: 'lengths', G: [2], I: [5], count: 2, numWeights: 3 }),
    'invalid-form': bwd({ form: 'invalid', G: [2], I: [5], count: 2, numWeights: 3 }),
    'invalid-reduce': bwd({ reduce: 'int32min', form: 'fixed', G: [2], I: [2, 2], numWeights: 3 }),
    'min-refused': bwd({ reduce: 'min', form: 'fixed', G: [2], I: [2, 2], numWeights: 3 }),
    'invalid-mode': bwd({ mode: 3, form: 'fixed', G: [2], I: [2, 2], numWeights: 3 }),
    'invalid-index-type': bwd({ badItype: 1, form: 'fixed', G: [2], I: [2, 2], numWeights: 3 }),
    'invalid-negative-policy': bwd({ negative: 2, form: 'fixed', G: [2], I: [2, 2], numWeights: 3 }),
    // over the pool: many entries, their rows in tiles; one row that every entry adds into
    'pool-split-sorted-wide-mean-f32': bwd({ reduce: 'mean', weights: 1, pool: 1, split: 1, form: 'offsets', G: [32], I: [4096], count: 64, numWeights: 257 }),
    'pool-split-sorted-f64-accumulate-weights-grad': bwd({ vt: 'f64', weights: 1, table: 1, accumulate: 1, pool: 1, split: 1, form: 'bounds', G: [16], I: [2047], count: 33, numWeights: 64 }),
    'pool-split-one-row': bwd({ weights: 1, pool: 1, split: 1, form: 'fixed', G: [4], I: [2047, 2], numWeights: 1 }),
    'guarded-misaligned-i64-weights-grad': bwd({ guard: 1, misalign: 3, itype: 2, stype: 2, weights: 1, table: 1, form: 'bounds', G: [3], I: [8], count: 3, numWeights: 6 }),
    'output-overflow': bwd({ form: 'fixed', G: ['SMAX'], I: [0, 2], numWeights: 4 }),
    'huge-bags-of-nothing': bwd({ form: 'fixed', G: [0], I: ['SMAX', 0], numWeights: 3 }),
    'rank-17': bwd({ grank: 17, form: 'fixed', G: Array(16).fill(1), I: [1, 1], numWeights: 1 }),
  },
  segment_reduce: {
    'lengths-sum-f32': seg({ form: 'lengths', P: [6, 3], count: 3, segs: [step(2), step(0)] }),
    'lengths-mean-empty-is-nan': seg({ form: 'lengths', reduce: 'mean', P: [5, 4], count: 3, segs: [step(0), step(5)], values: Array(20).fill(mantissa) }),
    'bounds-max-nan-passes-f64': seg({ vt: 'f64', form: 'bounds', reduce: 'max', P: [4, 2], count: 2, segs: [step(2)], values: [[any, special(4)], small(1), small(3), [any, special(5)], [any, special(3)], small(0)] }),
    'bounds-min-nan-passes': seg({ form: 'bounds', reduce: 'min', P: [4, 2], count: 2, segs: [step(2)], values: f32s(4, 1, 0, 6, 2, 3, 1, 0) }),
    'ids-empty-segments-are-zero-axis-1': seg({ form: 'ids', reduce: 'min', axis: 1, P: [2, 6, 3], ids: 5, segs: [step(0), step(0), step(2), step(0), step(2), step(0)] }),
    'prod-initial-f64': seg({ vt: 'f64', form: 'lengths', reduce: 'prod', initial: 1, P: [6], count: 3, segs: [step(3), step(0)], values: [[any, special(11)], ...Array(6).fill(mantissa)] }),
    'prod-from-one': seg({ form: 'lengths', reduce: 'prod', axis: 1, P: [2, 5, 2], count: 3, segs: [step(2), step(0)], values: Array(20).fill(mantissa) }),
    'mean-initial-keeps-empty': seg({ form: 'lengths', reduce: 'mean', initial: 1, P: [3, 2], count: 3, segs: [step(0), step(3)] }),
    'max-initial-nan': seg({ form: 'bounds', reduce: 'max', initial: 1, P: [3], count: 2, segs: [step(1)], values: [[any, special(6)], small(2), small(1), small(3)] }),
    'pool-split-lengths': seg({ pool: 1, split: 1, form: 'lengths', P: [33, 257], count: 5 }),
    'pool-split-ids-f64-axis-minus-1': seg({ vt: 'f64', reduce: 'mean', pool: 1, split: 1, form: 'ids', axis: -1, P: [8, 1000], ids: 257 }),
    'guarded-misaligned-i64-segments': seg({ vt: 'f64', guard: 1, misalign: 3, stype: 2, form: 'bounds', axis: 1, P: [3, 5, 2], count: 3 }),
    'huge-axis-of-nothing': seg({ form: 'lengths', stype: 3, axis: 1, P: [0, 'SMAX'], count: 2, segs: [any] }),
    'huge-outer-of-nothing': seg({ form: 'lengths', axis: 1, P: ['SMAX', 0], count: 0 }),
    'lengths-short': seg({ form: 'lengths', how: 'count', P: [6], count: 3, segs: [step(2), step(1), 0] }),
    'lengths-none': seg({ form: 'lengths', P: [6], count: 0 }),
    'lengths-negative': seg({ form: 'lengths', how: 'broken', P: [6], count: 3, segs: [step(2), step(1), broken(1, 'minusOne')] }),
    'lengths-overrun-u64': seg({ form: 'lengths', stype: 3, how: 'broken', P: [6], count: 3, segs: [step(2), step(1), broken(0, 'huge')] }),
    'lengths-past-the-end-u32': seg({ form: 'lengths', stype: 1, how: 'broken', P: [6], count: 3, segs: [step(2), step(1), broken(2, 'two31')] }),
    'bounds-short-of-the-end': seg({ form: 'bounds', how: 'count', P: [6], count: 3, segs: [step(2), step(1), 0] }),
    'bounds-first-not-0': seg({ form: 'bounds', how: 'broken', P: [6], count: 2, segs: [step(2), broken(0, 'decreasing')] }),
    'bounds-past-end': seg({ form: 'bounds', how: 'broken', P: [6], count: 2, segs: [step(2), broken(1, 'pastEnd')] }),
    'bounds-none': seg({ form: 'bounds', how: 'count', P: [6], count: 0, segs: [0] }),
    'ids-decreasing': seg({ form: 'ids', how: 'broken', P: [5], ids: 4, segs: [step(0), step(1), step(1), step(1), step(0), broken(2, 'decreasing')] }),
    'ids-id-range': seg({ form: 'ids', how: 'broken', P: [5], ids: 4, segs: [step(0), step(1), step(1), step(1), step(0), broken(4, 'pastEnd')] }),
    'ids-count': seg({ form: 'ids', how: 'count', P: [5], ids: 4, segs: [step(0), step(1), step(1), step(1), step(0), 1] }),
    'ids-num-negative': seg({ form: 'ids', P: [0], ids: -2 }),
    'ids-num-2e30-empty-rows': seg({ form: 'ids', P: [3, 0], ids: 2 ** 30 }),
    'ids-num-int32-max-empty-rows': seg({ form: 'ids', P: [3, 0], ids: 2 ** 31 - 1 }),
    'segments-any': seg({ form: 'lengths', how: 'any', stype: 2, P: [9, 2], count: 4, hostile: 96 }),
    'segments-invalid-type': seg({ form: 'lengths', how: 'badType', P: [4], count: 2 }),
    'offsets-refused': seg({ form: 'offsets', P: [4], count: 2 }),
    'fixed-refused': seg({ form: 'fixed', P: [4] }),
    'sqrtn-refused': seg({ reduce: 'sqrtn', form: 'lengths', P: [4], count: 2 }),
    'none-refused': seg({ reduce: 'none', form: 'lengths', P: [4], count: 2 }),
    'f16-refused': seg({ vt: 'f16', form: 'lengths', P: [4], count: 2 }),
    'invalid-value-type': seg({ vt: 'invalid', form: 'lengths', P: [4], count: 2 }),
    'axis-int32-min': seg({ axis: 0x80, form: 'lengths', P: [4], count: 2 }),
    'axis-past-the-rank': seg({ axis: 2, form: 'lengths', P: [4, 2], count: 2 }),
    'data-scalar': seg({ form: 'lengths', P: [], count: 1 }),
    'rank-17': seg({ form: 'lengths', rank: 0xf8, P: Array(17).fill(1), count: 1 }),
    'no-desc': seg({ noDesc: 1, form: 'lengths', P: [4], count: 2 }),
  },
  non_zero: {
    'u8-1d-onnx': nz({ D: [17], values: [MV.one, MV.zero, MV.low80, MV.zero, MV.allOnes, MV.bit(3)] }),
    'u8-2d-torch-rows': nz({ rowsFirst: 1, D: [3, 5], values: [MV.zero, MV.one, MV.one, MV.zero, MV.any] }),
    'rows-first-given-as-minus-1': nz({ rowsFirst: -1, indexType: 'int64', D: [2, 3, 2] }),
    'f32-signs-int64': nz({ mask: 'f32', indexType: 'int64', D: [4, 4], values: signs }),
    'f16-signs': nz({ mask: 'f16', D: [16], values: signs }),
    'bf16-signs-rows': nz({ mask: 'bf16', rowsFirst: 1, D: [2, 8], values: signs }),
    'f64-signs': nz({ mask: 'f64', indexType: 'int64', D: [16], values: signs }),
    'i8-sign-bit-is-true': nz({ mask: 'i8', D: [8], values: [MV.negZero, MV.low80, MV.zero, MV.minusOne] }),
    'i16-u32-i64-u64': nz({ mask: 'i16', D: [5, 3], values: [MV.negZero, MV.bit(1), MV.zero] }),
    'u64-high-bits': nz({ mask: 'u64', D: [9], values: [MV.bit(7), MV.negZero, MV.zero, MV.bit(4)] }),
    'scalar-true-onnx-is-1-by-count': nz({ D: [], values: [MV.one] }),
    'scalar-false-onnx': nz({ mask: 'f32', D: [], values: [MV.negZero] }),
    'scalar-torch-no-columns': nz({ rowsFirst: 1, indexType: 'int64', D: [], values: [MV.nan] }),
    'rank-5': nz({ mask: 'i32', D: [2, 3, 1, 4, 2], fill: 'density', values: [0x60] }),
    'zero-dim': nz({ D: [3, 0, 4] }),
    'empty-huge-dim': nz({ rowsFirst: 1, D: [0, 'SMAX'] }),
    'size-overflow': nz({ D: ['SMAX2', 3] }),
    'rank-17': nz({ D: Array(17).fill(1) }),
    'index-type-uint32-refused': nz({ indexType: 'uint32', D: [4] }),
    'index-type-7-refused': nz({ indexType: 'seven', D: [4] }),
    'uint4-refused': nz({ mask: 'u4', D: [4] }),
    'unknown-dtype-refused': nz({ mask: 'unknown', D: [4] }),
    'none-refused': nz({ mask: 'none', D: [4] }),
    'density-many-chunks-pool-split': nz({ pool: 1, split: 1, D: [40000], fill: 'density', values: [0x20] }),
    'sparse-f32-pool': nz({ mask: 'f32', pool: 1, split: 1, D: [16384, 2], fill: 'density', values: [2] }),
    'runs-i64-index-count-first': nz({ mask: 'u16', indexType: 'int64', pool: 1, split: 1, countFirst: 1, shapeFirst: 1, D: [1024, 33], fill: 'runs', scale: 7, values: [] }),
    'all-true-rows-many-chunks': nz({ rowsFirst: 1, pool: 1, split: 1, D: [4096, 16], fill: 'one', values: [MV.one] }),
    'all-false-f64': nz({ mask: 'f64', pool: 1, split: 1, D: [8191], fill: 'one', values: [MV.negZero] }),
    'count-first-run-twice': nz({ countFirst: 1, D: [300], fill: 'density', values: [0x80] }),
    'count-first-second-run-without-output': nz({ countFirst: 1, shapeFirst: 1, again: 1, pool: 1, split: 1, D: [2047, 3], fill: 'density', values: [0x40] }),
    'count-first-empty-second-run': nz({ countFirst: 1, shapeFirst: 1, again: 1, D: [64], fill: 'one', values: [MV.zero] }),
    'mask-changed-after-count': nz({ countFirst: 1, shapeFirst: 1, hostile: 1, pool: 1, split: 1, D: [4097, 4], fill: 'density', values: [0x80], after: [3] }),
    'guarded-misaligned-u16': nz({ mask: 'u16', guard: 1, misalign: 1, shapeFirst: 1, D: [7, 9], fill: 'density', values: [0x70] }),
  },
  boolean_mask: {
    'axis-0-rows': msk({ D: [6, 3], fit: 0, values: [MV.one, MV.zero, MV.one, MV.zero, MV.zero, MV.one] }),
    'axis-1-mask-of-2-dims': msk({ data: 'i16', axis: 1, D: [2, 3, 4, 5], fit: 1, fill: 'density', values: [0x80] }),
    'negative-axis': msk({ data: 'u8', axis: -2, D: [4, 5, 3], fit: 0, fill: 'density', values: [0x60] }),
    'whole-shape-masked-select': msk({ data: 'f64', D: [3, 4, 5], fit: 2, fill: 'density', values: [0x90] }),
    'f32-mask-signs': msk({ mask: 'f32', D: [16, 2], fit: 0, values: signs }),
    'f16-mask-signs': msk({ mask: 'f16', data: 'u64', D: [16], fit: 0, values: signs }),
    'bf16-mask-signs': msk({ mask: 'bf16', data: 'i32', axis: 1, D: [2, 16], fit: 0, values: signs }),
    'f64-mask-signs': msk({ mask: 'f64', data: 'bf16', D: [16, 3], fit: 0, values: signs }),
    'i8-u32-u64-masks': msk({ mask: 'i8', data: 'i8', D: [8, 5], fit: 0, values: [MV.negZero, MV.zero, MV.minusOne, MV.low80] }),
    'u64-mask-high-bit': msk({ mask: 'u64', data: 'f16', D: [9], fit: 0, values: [MV.negZero, MV.bit(7), MV.zero] }),
    'mask-dim-one-more': msk({ axis: 1, D: [2, 3, 4], fit: 1, perturb: 'dimMore' }),
    'mask-rank-more': msk({ D: [2, 3], fit: 1, perturb: 'rankMore' }),
    'mask-scalar-refused': msk({ D: [3, 2], M: [], values: [MV.one] }),
    'mask-rank-past-data': msk({ axis: 1, D: [3, 2], M: [2, 1] }),
    'data-scalar': msk({ D: [], M: [1] }),
    'axis-past-rank': msk({ axis: 2, D: [3, 2], M: [3] }),
    'axis-int32-min': msk({ axis: 0x80, D: [3, 2], M: [3] }),
    'data-int4-refused': msk({ data: 'i4', D: [4], fit: 0 }),
    'data-none-refused': msk({ data: 'none', D: [4], fit: 0 }),
    'mask-uint4-refused': msk({ mask: 'u4', D: [4], fit: 0 }),
    'mask-unknown-refused': msk({ mask: 'unknown', D: [4], fit: 0 }),
    'rank-17': msk({ D: Array(17).fill(1), fit: 0 }),
    'zero-block-dim': msk({ axis: 1, D: [0, 5, 3], fit: 0, values: [MV.one] }),
    'zero-mask-dim': msk({ axis: 1, D: [4, 0, 3], fit: 0 }),
    'empty-slices-of-2e21-blocks': msk({ axis: 2, D: [2047, 1000, 300, 0], fit: 0, fill: 'density', values: [0x80] }),
    'slice-bytes-wrap-empty-output': msk({ data: 'i8', axis: 1, D: [0, 16, 'SMAX1'], fit: 0 }),
    'output-size-overflow': msk({ D: ['SMAX2', 3], fit: 0 }),
    'blocks-by-chunks-pool-split': msk({ data: 'f32', axis: 1, pool: 1, split: 1, D: [16, 4096, 2], fit: 0, fill: 'density', values: [0x50] }),
    'bytes-many-chunks-count-first': msk({ data: 'u8', pool: 1, split: 1, countFirst: 1, shapeFirst: 1, D: [40000], fit: 0, fill: 'runs', scale: 3, values: [] }),
    'wide-slices-chunk-min': msk({ data: 'f64', pool: 1, split: 1, D: [1024, 65], fit: 0, fill: 'density', values: [0xc0] }),
    'count-first-second-run-without-output': msk({ countFirst: 1, shapeFirst: 1, again: 1, axis: 1, D: [3, 300, 2], fit: 0, fill: 'density', values: [0x40] }),
    'count-first-all-false-second-run': msk({ countFirst: 1, shapeFirst: 1, again: 1, D: [300, 2], fit: 0, fill: 'one', values: [MV.zero] }),
    'mask-changed-after-count': msk({ countFirst: 1, shapeFirst: 1, hostile: 1, pool: 1, split: 1, D: [8191, 3], fit: 0, fill: 'density', values: [0x80], after: [1] }),
    'guarded-misaligned': msk({ mask: 'i32', data: 'u16', guard: 1, misalign: 1, axis: -1, D: [5, 7], fit: 0, fill: 'density', values: [0x80] }),
    'offsets-mode-axis-1': msk({ offsets: 1, axis: 1, D: [4, 300, 3], fit: 0, fill: 'density', values: [0x80] }),
    'offsets-mode-many-chunks-pool-split': msk({ data: 'u8', offsets: 1, shapeFirst: 1, pool: 1, split: 1, D: [2, 40000], axis: 1, fit: 0, fill: 'density', values: [0x40] }),
    'offsets-mode-guarded-f64': msk({ data: 'f64', mask: 'f32', offsets: 1, guard: 1, D: [64, 2], fit: 0, values: signs }),
    'offsets-mode-no-workspace': msk({ offsets: 1, noWorkspace: 1, D: [6, 2], fit: 0, values: [MV.one] }),
    // the binding's offsets mode: a count first, then room for exactly the offsets it notes
    'offsets-mode-count-first-axis-1': msk({ offsets: 1, countFirst: 1, shapeFirst: 1, axis: 1, D: [3, 300, 2], fit: 0, fill: 'density', values: [0x40] }),
    'offsets-mode-count-first-none-true': msk({ offsets: 1, countFirst: 1, D: [300, 2], fit: 0, fill: 'one', values: [MV.zero] }),
    'offsets-mode-mask-changed-after-count': msk({ offsets: 1, countFirst: 1, shapeFirst: 1, hostile: 1, pool: 1, split: 1, guard: 1, D: [8191, 3], fit: 0, fill: 'density', values: [0x80], after: [1] }),
  },
  compress: {
    'axis-0': msk({ D: [5, 3], fit: cut(0), values: [MV.one, MV.zero, MV.one, MV.one, MV.zero] }),
    'axis-1-shorter': msk({ data: 'i16', axis: 1, D: [3, 6], fit: cut(3, 4), values: [MV.zero, MV.one, MV.one, MV.zero] }),
    'axis-1-less-3': msk({ data: 'u64', axis: 1, D: [2, 9, 2], fit: cut(2, 3), fill: 'density', values: [0x80] }),
    'negative-axis': msk({ data: 'u8', axis: -1, D: [4, 7], fit: cut(0), fill: 'density', values: [0x80] }),
    'flatten': msk({ flatten: 1, D: [2, 3, 4], fit: cut(0), fill: 'density', values: [0x80] }),
    'flatten-shorter': msk({ data: 'f64', flatten: 1, D: [4, 5], fit: cut(3, 7) }),
    'flatten-given-as-minus-1': msk({ flatten: -1, axis: 5, D: [3, 3], fit: cut(0) }),
    'flatten-scalar': msk({ flatten: 1, D: [], fit: cut(0), values: [MV.one] }),
    'empty-condition': msk({ D: [4, 2], M: [0] }),
    'condition-longer': msk({ D: [3, 2], fit: 0, perturb: 0 }),
    'condition-2-longer-flatten': msk({ flatten: 1, D: [3, 2], fit: 1, perturb: 0 }),
    'condition-2d-refused': msk({ D: [3, 2], M: [3, 1] }),
    'condition-scalar-refused': msk({ D: [3, 2], M: [], values: [MV.one] }),
    'data-scalar-with-axis': msk({ D: [], M: [1] }),
    'axis-past-rank': msk({ axis: 2, D: [3, 2], M: [2] }),
    'axis-int32-min': msk({ axis: 0x80, D: [3, 2], M: [2] }),
    'f32-condition-signs': msk({ mask: 'f32', D: [16, 2], fit: cut(0), values: signs }),
    'f16-condition-signs': msk({ mask: 'f16', data: 'i32', D: [16], fit: cut(0), values: signs }),
    'bf16-condition-signs': msk({ mask: 'bf16', data: 'f16', D: [16], fit: cut(0), values: signs }),
    'f64-i64-conditions': msk({ mask: 'f64', data: 'i8', D: [16], fit: cut(0), values: signs }),
    'i64-condition': msk({ mask: 'i64', D: [6], fit: cut(0), values: [MV.negZero, MV.zero, MV.bit(7), MV.minusOne] }),
    'data-int4-refused': msk({ data: 'i4', D: [4], fit: cut(0) }),
    'condition-uint4-refused': msk({ mask: 'u4', D: [4], fit: cut(0) }),
    'condition-none-refused': msk({ mask: 'none', D: [4], fit: cut(0) }),
    'rank-17': msk({ axis: 16, D: Array(17).fill(2), fit: cut(0) }),
    'size-overflow-flatten': msk({ flatten: 1, D: ['SMAX2', 3], M: [4] }),
    'zero-block-dim': msk({ axis: 1, D: [0, 5, 3], fit: cut(0), values: [MV.one] }),
    'empty-slices-of-2e21-blocks': msk({ axis: 2, D: [2047, 1000, 300, 0], fit: cut(0), fill: 'density', values: [0x80] }),
    'slice-bytes-wrap-empty-output': msk({ data: 'i8', axis: 1, D: [0, 16, 'SMAX1'], fit: cut(0) }),
    'many-chunks-pool-split': msk({ data: 'f32', pool: 1, split: 1, D: [40000, 2], fit: cut(0), fill: 'density', values: [0x50] }),
    'blocks-by-chunks-axis-1': msk({ data: 'u16', axis: 1, pool: 1, split: 1, D: [64, 4096], fit: cut(2, 9), fill: 'runs', scale: 5, values: [] }),
    'flatten-bytes-count-first': msk({ data: 'u8', flatten: 1, pool: 1, split: 1, countFirst: 1, shapeFirst: 1, D: [256, 255], fit: cut(0), fill: 'density', values: [0x10] }),
    'count-first-second-run-without-output': msk({ countFirst: 1, shapeFirst: 1, again: 1, D: [1000, 3], fit: cut(0), fill: 'density', values: [0x40] }),
    'mask-changed-after-count': msk({ countFirst: 1, shapeFirst: 1, hostile: 1, pool: 1, split: 1, flatten: 1, D: [4096, 8], fit: cut(0), fill: 'density', values: [0x80], after: [7] }),
    'guarded-misaligned': msk({ mask: 'u16', data: 'f64', guard: 1, misalign: 1, axis: 1, D: [5, 7, 3], fit: cut(0), fill: 'density', values: [0x80] }),
    'offsets-mode-flatten': msk({ offsets: 1, flatten: 1, D: [5, 7], fit: cut(3, 9), fill: 'density', values: [0x80] }),
    'offsets-mode-axis-1-pool-split': msk({ data: 'i16', offsets: 1, shapeFirst: 1, pool: 1, split: 1, axis: 1, D: [3, 16384, 2], fit: cut(2, 5), fill: 'runs', scale: 2, values: [] }),
    'offsets-mode-no-workspace': msk({ offsets: 1, noWorkspace: 1, D: [6], fit: cut(0), values: [MV.one] }),
    'offsets-mode-count-first-pool-split': msk({ data: 'u8', offsets: 1, countFirst: 1, shapeFirst: 1, pool: 1, split: 1, axis: 1, D: [2, 40000], fit: cut(0), fill: 'density', values: [0x20] }),
    'offsets-mode-count-first-mask-changed': msk({ offsets: 1, countFirst: 1, shapeFirst: 1, hostile: 1, guard: 1, D: [4096, 2], fit: cut(0), fill: 'density', values: [0x80], after: [3] }),
  },
  masked_scatter: {
    'f32': msk({ D: [3, 4], fit: 0, src: {}, values: [MV.one, MV.zero, MV.one, MV.zero, MV.one] }),
    'source-longer': msk({ data: 'i32', D: [6], fit: 0, src: { len: 'more' }, fill: 'density', values: [0x80] }),
    'source-one-fewer': msk({ D: [5, 2], fit: 0, src: { len: 'fewer' }, fill: 'one', values: [MV.one] }),
    'source-empty': msk({ data: 'u8', D: [4], fit: 0, src: { len: 'none' }, values: [MV.zero, MV.nan] }),
    'source-empty-mask-false': msk({ mask: 'f32', data: 'u8', D: [4], fit: 0, src: { len: 'none' }, fill: 'one', values: [MV.negZero] }),
    'source-of-40000': msk({ data: 'f64', D: [9], fit: 0, src: { len: 'dim' }, fill: 'density', values: [0x80], after: [dim(40000)] }),
    'source-of-size-max': msk({ D: [9], fit: 0, src: { len: 'dim' }, fill: 'density', values: [0x80], after: [dim('SMAX')] }),
    'source-2d': msk({ data: 'u16', D: [7], fit: 0, src: { shape: 2 }, fill: 'density', values: [0x80] }),
    'source-scalar': msk({ data: 'i64', D: [3], fit: 0, src: { shape: 3 }, values: [MV.zero, MV.one, MV.zero] }),
    'source-type-refused': msk({ D: [4], fit: 0, src: { otherType: 1 } }),
    'in-place': msk({ data: 'bf16', inPlace: 1, D: [4, 4], fit: 0, src: {}, fill: 'density', values: [0x80] }),
    'in-place-source-short': msk({ data: 'f32', inPlace: 1, D: [8], fit: 0, src: { len: 'fewer' }, fill: 'one', values: [MV.nan] }),
    'mask-dim-differs': msk({ D: [3, 4], fit: 0, perturb: 'dimMore', src: {} }),
    'mask-dim-zero': msk({ D: [3, 4], fit: 0, perturb: 'dimZero', src: {} }),
    'mask-rank-fewer': msk({ D: [3, 4], fit: 0, perturb: 'rankFewer', src: {} }),
    'scalar': msk({ data: 'f64', D: [], fit: 0, src: {}, values: [MV.one] }),
    'scalar-false': msk({ mask: 'f16', D: [], fit: 0, src: { len: 'none' }, values: [MV.negZero] }),
    'zero-dim': msk({ D: [3, 0], fit: 0, src: { len: 'none' } }),
    'f32-mask-signs': msk({ mask: 'f32', data: 'u64', D: [16], fit: 0, src: {}, values: signs }),
    'f16-mask-signs': msk({ mask: 'f16', data: 'i8', D: [16], fit: 0, src: {}, values: signs }),
    'bf16-mask-signs': msk({ mask: 'bf16', data: 'f16', D: [16], fit: 0, src: {}, values: signs }),
    'f64-mask-signs': msk({ mask: 'f64', data: 'i16', D: [16], fit: 0, src: {}, values: signs }),
    'i8-mask-sign-bit-true': msk({ mask: 'i8', D: [8], fit: 0, src: {}, values: [MV.negZero, MV.zero, MV.low80] }),
    'data-int4-refused': msk({ data: 'i4', D: [4], fit: 0, src: {} }),
    'data-none-refused': msk({ data: 'none', D: [4], fit: 0, src: {} }),
    'mask-uint4-refused': msk({ mask: 'u4', D: [4], fit: 0, src: {} }),
    'mask-unknown-refused': msk({ mask: 'unknown', D: [4], fit: 0, src: {} }),
    'rank-17': msk({ D: Array(17).fill(1), fit: 0, src: {} }),
    'size-overflow': msk({ D: ['SMAX2', 3], fit: 0, src: {} }),
    'many-chunks-pool-split': msk({ data: 'u8', pool: 1, split: 1, D: [40000], fit: 0, src: {}, fill: 'density', values: [0x30] }),
    'many-chunks-f64-runs': msk({ data: 'f64', pool: 1, split: 1, D: [128, 257], fit: 0, src: { len: 'more' }, fill: 'runs', scale: 4, values: [] }),
    'in-place-pool-split': msk({ data: 'u32', inPlace: 1, pool: 1, split: 1, D: [16384], fit: 0, src: {}, fill: 'density', values: [0xf0] }),
    'guarded-misaligned': msk({ mask: 'u16', data: 'i16', guard: 1, misalign: 1, shapeFirst: 1, D: [9, 7], fit: 0, src: { len: 'more' }, fill: 'density', values: [0x80] }),
    'offsets-mode': msk({ offsets: 1, D: [5, 6], fit: 0, src: {}, fill: 'density', values: [0x80] }),
    'offsets-mode-source-short': msk({ offsets: 1, shapeFirst: 1, D: [9], fit: 0, src: { len: 'fewer' }, fill: 'one', values: [MV.one] }),
    'offsets-mode-many-chunks-pool-split': msk({ data: 'f64', offsets: 1, pool: 1, split: 1, D: [40000], fit: 0, src: { len: 'more' }, fill: 'density', values: [0x60] }),
    'offsets-mode-no-workspace': msk({ offsets: 1, noWorkspace: 1, shapeFirst: 1, D: [4], fit: 0, src: {}, values: [MV.one, MV.zero, MV.one, MV.one] }),
    'offsets-mode-count-first-source-short': msk({ offsets: 1, countFirst: 1, shapeFirst: 1, D: [9], fit: 0, src: { len: 'fewer' }, fill: 'one', values: [MV.one] }),
    'offsets-mode-count-first-mask-changed': msk({ offsets: 1, countFirst: 1, shapeFirst: 1, hostile: 1, pool: 1, split: 1, guard: 1, D: [40000], fit: 0, src: { len: 'more' }, fill: 'density', values: [0x60], after: [1] }),
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
