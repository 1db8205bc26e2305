// Seeded random calls of the fused gather-reduce ops (embeddingBag, segmentReduce) for the suites
// of tests/lib/bag-suite.mjs: every mode and reduction, every form of the bags and segments
// (offsets with and without the last, 2-D, segment ids, lengths), per-sample weights, padding (from
// the end too), float32 / float64 / float16 / bfloat16 and 4-bit quantized tables, every index
// type, negative indices, the out-of-range modes, empty bags and segments, rows wider than the
// kernel's chunk of columns, NaN, signed zeros, and bad segments. Each case: { name, op, args,
// opts, ref: () => the reference's result (or it throws) }. (Not named *.test.mjs.)
import { embeddingBag as refBag, segmentReduce as refSegment } from '../../common/reference-bag.mjs';
import { refGatherBlockQuantized } from '../../common/reference-quantized.mjs';
import { f32ToBf16, f32ToF16 } from '../../common/reference-quantized.mjs';
import { Rng } from './rng.mjs';

// A value: mostly small floats, now and then a NaN, a signed zero or an infinity.
function value(rng) {
  const r = rng.next();
  if (r < 0.01) return NaN;
  if (r < 0.03) return rng.chance(0.5) ? 0 : -0;
  if (r < 0.035) return rng.chance(0.5) ? Infinity : -Infinity;
  return (rng.next() - 0.5) * 2 ** rng.int(-4, 6);
}

// A float array of `dtype` holding n values (16-bit types as bits).
function floats(rng, dtype, n, special = true) {
  const xs = Array.from({ length: n }, () => (special ? value(rng) : (rng.next() - 0.5) * 4));
  if (dtype === 'float64') return Float64Array.from(xs);
  if (dtype === 'float32') return Float32Array.from(xs);
  return Uint16Array.from(xs, dtype === 'float16' ? f32ToF16 : f32ToBf16);
}

const INDEX_ARRAYS = [Int32Array, BigInt64Array, Uint32Array, Array];
function indexArray(rng, values) {
  const T = rng.pick(INDEX_ARRAYS);
  if (T === BigInt64Array) return BigInt64Array.from(values, BigInt);
  if (T === Uint32Array) return Uint32Array.from(values, (v) => (v < 0 ? 0 : v));
  return T === Array ? values : Int32Array.from(values);
}

// Bags of the entries: their lengths, some empty, summing to n.
function lengths(rng, bags, n) {
  const cuts = Array.from({ length: bags - 1 }, () => rng.int(0, n)).sort((a, b) => a - b);
  return [...cuts, n].map((c, i) => c - (i ? cuts[i - 1] : 0));
}

// Tie-prone weights: float32 tables only, one weighted call in three.
const tiesFor = (dtype, rng) => dtype === 'float32' && rng.chance(0.35);

const starts = (ls) => ls.reduce((acc, l) => [...acc, acc.at(-1) + l], [0]);

/** count embeddingBag calls from seed. */
export function bagCases(seed, count) {
  const rng = new Rng(seed);
  const cases = [];
  for (let k = 0; k < count; k++) {
    const quantized = rng.chance(0.12);
    const dtype = quantized ? rng.pick(['float32', 'float16']) : rng.pick(['float32', 'float32', 'float64', 'float16', 'bfloat16']);
    const rows = rng.int(1, 40), inner = [rng.int(0, 6)];
    if (rng.chance(0.15)) inner[0] = rng.int(250, 600); // wider than a chunk of columns
    if (rng.chance(0.15)) inner.push(rng.int(1, 3));
    const dim = inner.reduce((a, b) => a * b, 1);
    const mode = rng.pick(['sum', 'mean', 'max', 'sqrtn']);
    const n = rng.int(0, 30);
    const form = rng.pick(['offsets', 'offsets', 'last', 'fixed', 'ids']);
    const bags = form === 'fixed' ? rng.int(0, 6) : rng.int(1, 8);
    const fixedLen = form === 'fixed' ? rng.int(0, 6) : 0;
    const total = form === 'fixed' ? bags * fixedLen : n;
    const negative = rng.chance(0.2) ? 'error' : 'wrap';
    const outOfRange = rng.chance(0.8) ? 'error' : rng.pick(['zero', 'clamp']);
    const bad = rng.chance(0.08);
    const ids = Array.from({ length: total }, () => {
      let v = rng.int(0, rows - 1);
      if (rng.chance(0.15)) v -= rows; // from the end
      if (bad && rng.chance(0.1)) v = rng.pick([rows, -rows - 1, rows + 7]);
      return v;
    });
    const indices = { data: indexArray(rng, ids), shape: form === 'fixed' ? [bags, fixedLen] : [total] };
    const opts = { mode };
    const ls = lengths(rng, bags, total);
    if (form === 'offsets') opts.offsets = indexArray(rng, starts(ls).slice(0, -1));
    if (form === 'last') opts.offsets = indexArray(rng, starts(ls)), opts.includeLastOffset = true;
    if (form === 'ids') {
      const seg = ls.flatMap((l, b) => new Array(l).fill(b));
      opts.segmentIds = indexArray(rng, seg);
      if (rng.chance(0.5) || !seg.length) opts.numSegments = bags + rng.int(0, 2);
    }
    if (rng.chance(0.05) && opts.offsets) { // bad offsets: a decrease, or not starting at 0
      const o = Array.from(opts.offsets, Number);
      if (o.length > 1) o[rng.int(0, o.length - 1)] += rng.pick([1, -1, 50]);
      opts.offsets = o;
    }
    if (mode !== 'max' && rng.chance(0.4)) {
      // now and then weights and rows of few bits, whose float64 sums land halfway between two
      // float32s (the fused multiply-add's hard case)
      const ties = !quantized && tiesFor(dtype, rng);
      const data = ties ? Float32Array.from({ length: total }, () => 1 + rng.int(-64, 64) * 2 ** -13) : floats(rng, dtype, total, false);
      opts.perSampleWeights = { data, shape: indices.shape };
      if (ties) opts.ties = true;
    }
    if (rng.chance(0.25)) opts.paddingIdx = rng.int(-rows, rows - 1);
    if (mode === 'max' && rng.chance(0.5)) opts.returnIndices = true;
    if (negative !== 'wrap') opts.negativeIndices = negative;
    if (outOfRange !== 'error') opts.outOfRange = outOfRange;
    let weight, ref;
    const ties = opts.ties;
    delete opts.ties;
    const refOpts = { ...opts };
    for (const o of ['offsets', 'segmentIds']) if (refOpts[o]) refOpts[o] = { data: Array.from(refOpts[o], Number), shape: [refOpts[o].length] };
    if (refOpts.segmentIds && refOpts.numSegments === undefined) refOpts.numSegments = undefined;
    if (quantized) {
      // a uint4 table of 16-element blocks along the rows, and the reference on it dequantized
      const logical = [rows, dim ? Math.ceil(dim / 16) * 16 : 16];
      const codes = Uint8Array.from({ length: Math.ceil(logical[0] * logical[1] / 2) }, () => rng.int(0, 255));
      const scales = { data: floats(rng, dtype, logical[0] * logical[1] / 16, false), shape: [logical[0], logical[1] / 16] };
      weight = { data: codes, shape: logical };
      Object.assign(opts, { scales, quantType: 'uint4', bits: 4, blockSize: 16 });
      if (dtype === 'float16') opts.scaleType = 'float16';
      const table = refGatherBlockQuantized(weight, { data: Int32Array.from({ length: rows }, (_, i) => i), shape: [rows] }, scales,
        { quantType: 'uint4', bits: 4, blockSize: 16, scaleType: opts.scaleType });
      ref = () => refBag(table, indices, { ...refOpts, dtype: dtype === 'float16' ? 'float16' : undefined });
    } else {
      weight = { data: ties ? Float32Array.from({ length: rows * dim }, () => rng.int(-(2 ** 12), 2 ** 12) * 2 ** rng.int(-14, 0)) : floats(rng, dtype, rows * dim), shape: [rows, ...inner] };
      if (dtype === 'float16' || dtype === 'bfloat16') opts.dtype = dtype;
      ref = () => refBag(weight, indices, { ...refOpts, dtype: opts.dtype });
    }
    cases.push({ name: `embeddingBag #${k} ${dtype}${quantized ? ' uint4' : ''} ${mode} ${form} rows=${rows} dim=${dim} n=${total}` +
      `${opts.perSampleWeights ? ' weighted' : ''}${opts.paddingIdx !== undefined ? ` padding=${opts.paddingIdx}` : ''}`,
    op: 'embeddingBag', args: [weight, indices], opts, ref, dtype });
  }
  return cases;
}

/** count segmentReduce calls from seed. */
export function segmentCases(seed, count) {
  const rng = new Rng(seed);
  const cases = [];
  for (let k = 0; k < count; k++) {
    const dtype = rng.pick(['float32', 'float64']);
    const rank = rng.int(1, 3);
    const shape = Array.from({ length: rank }, () => rng.int(0, 6));
    if (rng.chance(0.1)) shape[rank - 1] = rng.int(250, 400);
    const axis = rng.int(0, rank - 1);
    const n = shape[axis];
    const segments = rng.int(0, 5);
    const ls = segments ? lengths(rng, segments, n) : [];
    const reduce = rng.pick(['sum', 'mean', 'max', 'min', 'prod']);
    const form = rng.pick(['lengths', 'offsets', 'segmentIds']);
    const opts = { reduce };
    if (axis || rng.chance(0.3)) opts.axis = rng.chance(0.5) || !axis ? axis : axis - rank;
    if (form === 'lengths') opts.lengths = indexArray(rng, ls);
    if (form === 'offsets') opts.offsets = indexArray(rng, starts(ls));
    if (form === 'segmentIds') {
      opts.segmentIds = indexArray(rng, ls.flatMap((l, b) => new Array(l).fill(b)));
      if (rng.chance(0.5)) opts.numSegments = segments + rng.int(0, 2);
    }
    if (rng.chance(0.3)) opts.initial = rng.pick([0, 1.5, -2, Infinity]);
    if (rng.chance(0.06)) { // bad segments
      if (opts.lengths) opts.lengths = [...Array.from(opts.lengths, Number), 1];
      if (opts.offsets) opts.offsets = [1, ...Array.from(opts.offsets, Number)];
      if (opts.segmentIds && n > 1) opts.segmentIds = Array.from(opts.segmentIds, Number).reverse().map((v, i) => (i ? v : v + 1));
    }
    const data = { data: floats(rng, dtype, shape.reduce((a, b) => a * b, 1)), shape };
    const refOpts = { ...opts, axis: opts.axis === undefined ? 0 : (opts.axis + rank) % rank };
    for (const o of ['lengths', 'offsets', 'segmentIds']) if (refOpts[o]) refOpts[o] = { data: Array.from(refOpts[o], Number), shape: [refOpts[o].length] };
    cases.push({ name: `segmentReduce #${k} ${dtype} ${reduce} ${form} [${shape}] axis=${refOpts.axis}${opts.initial !== undefined ? ` initial=${opts.initial}` : ''}`,
      op: 'segmentReduce', args: [data], opts, ref: () => refSegment(data, refOpts), dtype });
  }
  return cases;
}
