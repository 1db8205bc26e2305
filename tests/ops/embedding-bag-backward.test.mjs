// embeddingBagBackward against its reference (common/reference-bag-backward.mjs), bit for bit (any
// NaN for a NaN): the forward's seeded random calls (tests/lib/bag-cases.mjs) over float32 and
// float64 tables turned into their backward (every form, mode, weights, padding, out-of-range
// and negative policy, index type, bad indices and offsets; max with the forward's max indices;
// returnWeightsGrad), and long bags of few rows, in both builds at 1 and 2 threads; resident
// inputs; opts.out as an array, { data, shape } and resident; in place twice; PyTorch 1.13's
// results (tests/fixtures/bag-backward-torch); the errors, which write nothing and leak nothing.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import api, { dispose, heapStats, init, upload } from '../lib/tested-api.mjs';
import { bagCases } from '../lib/bag-cases.mjs';
import { checkCase } from '../lib/scatter-suite.mjs';
import { firstDifference } from '../lib/scatter-cases.mjs';
import { describeErrors, expectError, f32, i32 } from '../lib/expect-error.mjs';
import { decode } from '../lib/torch-fixtures.mjs';
import { Rng, hashString } from '../lib/rng.mjs';
import { embeddingBag as refBag } from '../../common/reference-bag.mjs';
import { embeddingBagBackward as refBackward } from '../../common/reference-bag-backward.mjs';
import { numel } from '../../common/shape.mjs';

const { embeddingBagBackward } = api;
const OP = 'embeddingBagBackward';

// A gradient value: small floats of many magnitudes, now and then a NaN, a signed zero or an
// infinity; or (fewBits) one of few bits, whose sums with tie-prone weights land halfway between
// two float32s (the fused multiply-add's hard case).
function gradValue(rng, fewBits) {
  if (fewBits) return rng.int(-(2 ** 12), 2 ** 12) * 2 ** rng.int(-14, 0);
  const r = rng.next();
  if (r < 0.005) return NaN;
  if (r < 0.02) return rng.chance(0.5) ? 0 : -0;
  if (r < 0.025) return rng.chance(0.5) ? Infinity : -Infinity;
  return (rng.next() - 0.5) * 2 ** rng.int(-6, 6);
}

// The reference takes offsets and segment ids as { data, shape }.
const asRef = (o) => {
  const r = { ...o };
  for (const k of ['offsets', 'segmentIds']) if (o[k]) r[k] = { data: Array.from(o[k], Number), shape: [o[k].length] };
  return r;
};

// The bags a form gives, for a call the forward refuses (its gradOutput still needs a shape).
function bagCount(indices, o) {
  if (o.segmentIds) return o.numSegments ?? (o.segmentIds.length ? Number(o.segmentIds[o.segmentIds.length - 1]) + 1 : 0);
  if (o.offsets) return Math.max(0, o.offsets.length - (o.includeLastOffset ? 1 : 0));
  return indices.shape[0];
}

const outcome = (c) => {
  try {
    return { want: c.ref() };
  } catch (error) {
    return { error };
  }
};

/** The forward's random calls (float tables only) as backward calls: { name, dtype, gradOutput, indices, opts, expect }. */
function backwardCases(seed, count) {
  const rng = new Rng(seed);
  const cases = [];
  for (const c of bagCases(seed, count)) {
    if (c.opts.quantType || (c.dtype !== 'float32' && c.dtype !== 'float64')) continue;
    const [weight, indices] = c.args;
    const { returnIndices, ...fwd } = c.opts;
    let y;
    try {
      y = refBag(weight, indices, { ...asRef(fwd), returnIndices: fwd.mode === 'max' || undefined });
    } catch {
      // the forward refuses it: so must the backward
    }
    const shape = [y ? y.shape[0] : bagCount(indices, fwd), ...weight.shape.slice(1)];
    const ties = c.dtype === 'float32' && fwd.perSampleWeights && Array.from(fwd.perSampleWeights.data).every((w) => Number.isInteger((w - 1) * 2 ** 13));
    const gradOutput = { data: weight.data.constructor.from({ length: numel(shape) }, () => gradValue(rng, ties)), shape };
    const opts = { ...fwd, numWeights: weight.shape[0] };
    if (fwd.mode === 'max') {
      opts.maxIndices = { data: y ? Int32Array.from(y.maxIndices.data, Number) : new Int32Array(numel(shape)), shape };
      // now and then some other valid ones: -1 (nowhere) or any row
      if (rng.chance(0.4)) opts.maxIndices.data.forEach((_, i, a) => rng.chance(0.3) && (a[i] = rng.int(-1, weight.shape[0] - 1)));
    }
    if (fwd.perSampleWeights && fwd.mode === 'sum' && rng.chance(0.5)) Object.assign(opts, { returnWeightsGrad: true, weight });
    cases.push({ name: `${c.name.replace('embeddingBag', OP)}${opts.returnWeightsGrad ? ' weightsGrad' : ''}`, dtype: c.dtype, gradOutput, indices, opts });
  }
  return cases;
}

/** Long bags of few rows (hundreds of contributions a row, in entry order at any thread count). */
function longCases(seed) {
  const rng = new Rng(seed);
  const cases = [];
  for (const dtype of ['float32', 'float64']) {
    const Type = dtype === 'float32' ? Float32Array : Float64Array;
    for (const [mode, weighted] of [['sum', false], ['sum', true], ['mean', true], ['sqrtn', false], ['max', false]]) {
      const rows = 30, dim = rng.pick([1, 8, 37]), n = 2500;
      const weight = { data: Type.from({ length: rows * dim }, () => gradValue(rng, true)), shape: [rows, dim] };
      const indices = { data: Int32Array.from({ length: n }, () => rng.int(0, rows - 1)), shape: [n] };
      const offsets = [0, ...Array.from({ length: 11 }, () => rng.int(0, n))].sort((a, b) => a - b);
      const opts = { mode, offsets: Int32Array.from(offsets), numWeights: rows };
      const ties = dtype === 'float32' && weighted; // tie-prone weights, and gradients of few bits
      if (weighted) opts.perSampleWeights = { data: Type.from({ length: n }, () => (ties ? 1 + rng.int(-64, 64) * 2 ** -13 : gradValue(rng, false) || 1)), shape: [n] };
      if (mode === 'sum' && weighted) Object.assign(opts, { returnWeightsGrad: true, weight });
      const y = refBag(weight, indices, { mode, offsets: { data: offsets, shape: [offsets.length] }, perSampleWeights: opts.perSampleWeights, returnIndices: mode === 'max' || undefined });
      if (mode === 'max') opts.maxIndices = { data: Int32Array.from(y.maxIndices.data, Number), shape: y.shape };
      const gradOutput = { data: Type.from({ length: numel(y.shape) }, () => gradValue(rng, ties)), shape: y.shape };
      cases.push({ name: `${OP} long bags ${dtype} ${mode}${weighted ? ' weighted' : ''} dim=${dim}`, dtype, gradOutput, indices, opts });
    }
  }
  return cases;
}

let all;
/** Every random case with the reference's outcome, made once. */
function cases() {
  all ??= [...backwardCases(hashString(OP), 300), ...longCases(hashString(`${OP} long`))]
    .map((c) => ({ ...c, ref: () => refBackward(c.gradOutput, c.indices, asRef(c.opts)) }))
    .map((c) => ({ ...c, expect: outcome(c) }));
  return all;
}

/** run()'s result against the reference's outcome e: the gradient's bits (the scatters' check) and the weights' gradient's. */
function check(c, e, run) {
  let got;
  checkCase({ name: c.name, dtype: c.dtype, opts: { reduce: 'sum' } }, e, () => (got = run()));
  if (e.want?.weightsGrad) {
    assert.ok(got.weightsGrad, `${c.name}: no weightsGrad`);
    assert.deepEqual(got.weightsGrad.shape, e.want.weightsGrad.shape, `${c.name}: weightsGrad shape`);
    const at = firstDifference(e.want.weightsGrad.data, got.weightsGrad.data, c.dtype, 'sum');
    assert.equal(at, -1, `${c.name}: weightsGrad[${at}]: reference ${e.want.weightsGrad.data[at]}, got ${got.weightsGrad.data[at]}`);
  } else if (!e.error) {
    assert.equal(got.weightsGrad, undefined, `${c.name}: a weightsGrad not asked for`);
  }
}

const CONFIGS = [{ variant: 'simd', threads: 1 }, { variant: 'simd-threaded', threads: 1 }, { variant: 'simd-threaded', threads: 2, parallelThreshold: 0 }];
const THREADED = CONFIGS[2];

test('the random calls cover every form, mode, policy and option', () => {
  const cs = cases();
  const has = (what, f) => assert.ok(cs.filter(f).length >= 3, what);
  for (const mode of ['sum', 'mean', 'max', 'sqrtn']) {
    for (const dtype of ['float32', 'float64']) has(`${mode} ${dtype}`, (c) => c.opts.mode === mode && c.dtype === dtype && c.expect.want);
  }
  has('offsets', (c) => c.opts.offsets && !c.opts.includeLastOffset);
  has('includeLastOffset', (c) => c.opts.includeLastOffset);
  has('2-D indices', (c) => c.indices.shape.length === 2);
  has('segment ids', (c) => c.opts.segmentIds);
  has('weighted mean', (c) => c.opts.perSampleWeights && c.opts.mode === 'mean' && c.expect.want);
  has('weighted sqrtn', (c) => c.opts.perSampleWeights && c.opts.mode === 'sqrtn' && c.expect.want);
  has('weightsGrad', (c) => c.opts.returnWeightsGrad && c.expect.want);
  has('padding', (c) => c.opts.paddingIdx !== undefined && c.expect.want);
  has('negative padding', (c) => c.opts.paddingIdx < 0 && c.expect.want);
  has("outOfRange 'zero'", (c) => c.opts.outOfRange === 'zero' && c.expect.want);
  has("outOfRange 'clamp'", (c) => c.opts.outOfRange === 'clamp' && c.expect.want);
  has("negativeIndices 'error'", (c) => c.opts.negativeIndices === 'error');
  has('max index -1', (c) => c.opts.maxIndices?.data.includes(-1) && c.expect.want);
  has('rows of rank 2', (c) => c.gradOutput.shape.length === 3 && c.expect.want);
  has('wide rows', (c) => numel(c.gradOutput.shape.slice(1)) > 256 && c.expect.want);
  has('refused', (c) => c.expect.error);
});

for (const config of CONFIGS) {
  test(`${OP} vs reference: ${config.variant} threads=${config.threads}${config.parallelThreshold === 0 ? ' parallelThreshold=0' : ''}`, async (t) => {
    await init(config);
    try {
      const heap = heapStats().heapInUse;
      const cs = cases();
      t.diagnostic(`${cs.length} calls, ${cs.filter((c) => c.expect.error).length} refused by the reference`);
      for (const c of cs) check(c, c.expect, () => embeddingBagBackward(c.gradOutput, c.indices, c.opts));
      assert.equal(heapStats().heapInUse, heap, 'wasm heap not restored');
    } finally {
      dispose();
    }
  });
}

// Every tensor that can be resident uploaded: gradOutput, 32- and 64-bit indices and offsets,
// the weights, max indices and table.
const residentIndex = (d) => d instanceof Int32Array || d instanceof BigInt64Array;
function uploadAll(c) {
  const made = [];
  const up = (t) => {
    const r = upload(t);
    made.push(r);
    return r;
  };
  const opts = { ...c.opts };
  for (const k of ['perSampleWeights', 'maxIndices', 'weight']) if (opts[k]) opts[k] = up(opts[k]);
  for (const k of ['offsets', 'segmentIds']) if (residentIndex(opts[k])) opts[k] = up({ data: opts[k], shape: [opts[k].length] });
  const indices = residentIndex(c.indices.data) ? up(c.indices) : c.indices;
  return { gradOutput: up(c.gradOutput), indices, opts, free: () => made.forEach((r) => r.dispose()) };
}

test(`${OP} vs reference: resident inputs, resident output`, async () => {
  await init(THREADED);
  try {
    const heap = heapStats().heapInUse;
    for (const c of cases().filter((x) => x.expect.want)) {
      const { gradOutput, indices, opts, free } = uploadAll(c);
      try {
        check(c, c.expect, () => {
          const r = embeddingBagBackward(gradOutput, indices, { ...opts, resident: true });
          try {
            assert.equal(typeof r.read, 'function', `${c.name}: not resident`);
            return { data: r.read(), shape: [...r.shape], weightsGrad: r.weightsGrad };
          } finally {
            r.dispose();
          }
        });
      } finally {
        free();
      }
    }
    assert.equal(heapStats().heapInUse, heap, 'wasm heap not restored');
  } finally {
    dispose();
  }
});

test(`${OP} vs reference: opts.out (an array, { data, shape }, resident; numWeights from it) starts from zeros`, async () => {
  await init(THREADED);
  try {
    const heap = heapStats().heapInUse;
    let k = 0;
    for (const c of cases().filter((x) => x.expect.want)) {
      const { data, shape } = c.expect.want;
      const garbage = () => data.constructor.from(data, (_, i) => (i % 3) - 1.5);
      const { numWeights, ...noRows } = c.opts;
      const kind = ['array', 'tensor', 'resident'][k++ % 3];
      if (kind === 'array') {
        const out = garbage();
        check(c, c.expect, () => {
          const r = embeddingBagBackward(c.gradOutput, c.indices, { ...c.opts, out });
          assert.equal(r.data, out, `${c.name}: the result's data is opts.out`);
          return r;
        });
      } else if (kind === 'tensor') {
        const out = { data: garbage(), shape };
        check(c, c.expect, () => embeddingBagBackward(c.gradOutput, c.indices, { ...noRows, out }));
      } else {
        const out = upload({ data: garbage(), shape });
        try {
          check(c, c.expect, () => {
            const r = embeddingBagBackward(c.gradOutput, c.indices, { ...noRows, out });
            assert.equal(r, out, `${c.name}: a resident out is returned`);
            return { data: r.read(), shape: [...r.shape], weightsGrad: r.weightsGrad };
          });
        } finally {
          out.dispose();
        }
      }
    }
    assert.equal(heapStats().heapInUse, heap, 'wasm heap not restored');
  } finally {
    dispose();
  }
});

test(`${OP} in place, twice in a row: the reference applied twice; a refused call leaves out as it was`, async () => {
  await init(THREADED);
  try {
    const heap = heapStats().heapInUse;
    const rng = new Rng(77);
    let refused = 0;
    for (const c of cases()) {
      const Type = c.gradOutput.data.constructor;
      const shape = [c.opts.numWeights, ...c.gradOutput.shape.slice(1)];
      const start = Type.from({ length: numel(shape) }, () => (rng.next() - 0.5) * 2 ** rng.int(-4, 4));
      const { numWeights, ...opts } = c.opts;
      const out = upload({ data: start, shape });
      try {
        const call = () => embeddingBagBackward(c.gradOutput, c.indices, { ...opts, out, inPlace: true });
        if (c.expect.error) {
          assert.throws(call, (e) => e instanceof RangeError || e instanceof TypeError, c.name);
          assert.equal(firstDifference(out.read(), start, c.dtype), -1, `${c.name}: a refused call wrote into out`);
          refused++;
          continue;
        }
        const refOpts = asRef(c.opts);
        const once = refBackward(c.gradOutput, c.indices, { ...refOpts, inPlace: true, out: { data: start, shape } });
        const twice = refBackward(c.gradOutput, c.indices, { ...refOpts, inPlace: true, out: once });
        check({ ...c, name: `${c.name} (in place, once)` }, { want: once }, () => {
          const r = call();
          assert.equal(r, out, `${c.name}: in place returns opts.out`);
          return { data: out.read(), shape: [...r.shape], weightsGrad: r.weightsGrad };
        });
        check({ ...c, name: `${c.name} (in place, twice)` }, { want: twice }, () => {
          const r = call();
          return { data: out.read(), shape: [...r.shape], weightsGrad: r.weightsGrad };
        });
      } finally {
        out.dispose();
      }
    }
    assert.ok(refused > 3, `${refused} refused calls`);
    assert.equal(heapStats().heapInUse, heap, 'wasm heap not restored');
  } finally {
    dispose();
  }
});

describe(`${OP} and PyTorch 1.13 (tests/fixtures/bag-backward-torch)`, () => {
  const fixtures = JSON.parse(readFileSync(new URL('../fixtures/bag-backward-torch/cases.json', import.meta.url)));
  for (const config of [CONFIGS[0], THREADED]) {
    test(`the reference's bits, and torch's on every order-free row (${config.variant} threads=${config.threads})`, async () => {
      await init(config);
      try {
        for (const f of fixtures.cases) {
          const [gradOutput, indices] = f.args.map(decode);
          const opts = Object.fromEntries(Object.entries(f.opts).map(([k, v]) => [k, decode(v)]));
          const c = { name: f.name, dtype: f.args[0].dtype };
          const want = refBackward(gradOutput, indices, opts);
          let got;
          check(c, { want }, () => (got = embeddingBagBackward(gradOutput, indices, opts)));
          const torch = decode(f.expected), width = numel(torch.shape.slice(1));
          for (const r of f.exactRows) {
            const at = firstDifference(got.data.subarray(r * width, (r + 1) * width), torch.data.subarray(r * width, (r + 1) * width), c.dtype);
            assert.equal(at, -1, `${f.name}: row ${r}, element ${at}: got ${got.data[r * width + at]}, torch ${torch.data[r * width + at]}`);
          }
        }
      } finally {
        dispose();
      }
    });
  }
});

test(`${OP} max: an empty bag (or one all padding) sends its gradient nowhere, as torch, though the forward's max indices say 0`, async () => {
  await init();
  try {
    const weight = { data: Float32Array.of(1, 2, 3, 4, 5, 6), shape: [3, 2] };
    const indices = { data: Int32Array.of(1, 2, 0), shape: [3] };
    const fwd = api.embeddingBag(weight, indices, { offsets: [0, 2, 2], mode: 'max', returnIndices: true, paddingIdx: 0 });
    // bags {1, 2}, {}, {padding}: the forward gives 0 and max index 0 for the last two
    const g = { data: Float32Array.of(1, 10, 100, 1000, 1e4, 1e5), shape: [3, 2] };
    const got = embeddingBagBackward(g, indices, { offsets: [0, 2, 2], mode: 'max', maxIndices: fwd.maxIndices, paddingIdx: 0, numWeights: 3 });
    assert.deepEqual(Array.from(got.data), [0, 0, 0, 0, 1, 10]);
  } finally {
    dispose();
  }
});

// The errors: [name, () => [gradOutput, indices, opts] (made after init: some upload), class, message].
const g2 = () => f32(4, [2, 2]); // two bags of rows of 2
const ids = (...v) => i32(v, [v.length]);
const o2 = (extra) => ({ offsets: [0, 1], mode: 'sum', numWeights: 3, ...extra }); // bags {ids[0]}, {ids[1]}
function errorRows() {
  const w = (n = 2, shape = [n]) => ({ data: new Float32Array(n).fill(1), shape });
  const table = () => f32(6, [3, 2]);
  const mi = (...v) => ({ data: Int32Array.from(v), shape: [2, 2] });
  return [
    ['gradOutput of integers', () => [i32([1, 2, 3, 4], [2, 2]), ids(0, 1), o2()], TypeError, /^embeddingBagBackward: gradOutput.*(float32|Float32Array).*(float64|Float64Array)/],
    ['gradOutput a scalar', () => [{ data: new Float32Array(1), shape: [] }, ids(0), { offsets: [0], numWeights: 3 }], RangeError, /^embeddingBagBackward: gradOutput .*rank/],
    ["gradOutput's rows not the bags", () => [f32(6, [3, 2]), ids(0, 1), o2()], RangeError, /^embeddingBagBackward: gradOutput has 3 rows .*bags .*2/],
    ['2-D indices, gradOutput another count of rows', () => [g2(), i32([0, 1, 2], [3, 1]), { numWeights: 3 }], RangeError, /^embeddingBagBackward: gradOutput has 2 rows .*bags .*3/],
    ['numWeights missing, no out', () => [g2(), ids(0, 1), { offsets: [0, 1] }], TypeError, /^embeddingBagBackward: opts\.numWeights .*required/],
    ['numWeights negative', () => [g2(), ids(0, 1), o2({ numWeights: -1 })], RangeError, /^embeddingBagBackward: opts\.numWeights must be an integer/],
    ['numWeights fractional', () => [g2(), ids(0, 1), o2({ numWeights: 2.5 })], RangeError, /^embeddingBagBackward: opts\.numWeights must be an integer/],
    ['mode unknown', () => [g2(), ids(0, 1), o2({ mode: 'min' })], RangeError, /^embeddingBagBackward: opts\.mode must be one of 'sum', 'mean', 'max', 'sqrtn', got "min"/],
    ['max without maxIndices', () => [g2(), ids(0, 1), o2({ mode: 'max' })], TypeError, /^embeddingBagBackward: mode 'max' needs opts\.maxIndices/],
    ['maxIndices without max', () => [g2(), ids(0, 1), o2({ maxIndices: mi(0, 0, 0, 0) })], TypeError, /^embeddingBagBackward: opts\.maxIndices goes with mode 'max'/],
    ['maxIndices of floats', () => [g2(), ids(0, 1), o2({ mode: 'max', maxIndices: f32(4, [2, 2]) })], TypeError, /^embeddingBagBackward: opts\.maxIndices(\.data)? must be an Int32Array/],
    ['maxIndices of another shape', () => [g2(), ids(0, 1), o2({ mode: 'max', maxIndices: i32([0, 0], [2, 1]) })], RangeError, /^embeddingBagBackward: opts\.maxIndices .*gradOutput's shape/],
    ['a max index past the table', () => [g2(), ids(0, 1), o2({ mode: 'max', maxIndices: mi(0, 1, 2, 3) })], RangeError, /^embeddingBagBackward: opts\.maxIndices\[3\] = 3 is not -1 or a row of the table/],
    ['a max index below -1', () => [g2(), ids(0, 1), o2({ mode: 'max', maxIndices: mi(0, -2, 0, 0) })], RangeError, /^embeddingBagBackward: opts\.maxIndices\[1\] = -2 is not -1 or a row of the table/],
    ['weights with max', () => [g2(), ids(0, 1), o2({ mode: 'max', maxIndices: mi(0, 0, 0, 0), perSampleWeights: w() })], RangeError, /^embeddingBagBackward: opts\.perSampleWeights do not go with mode 'max'/],
    ['weights of another type', () => [g2(), ids(0, 1), o2({ perSampleWeights: new Float64Array(2) })], TypeError, /^embeddingBagBackward: opts\.perSampleWeights must be a Float32Array/],
    ['weights of another shape', () => [g2(), ids(0, 1), o2({ perSampleWeights: w(3) })], RangeError, /^embeddingBagBackward: opts\.perSampleWeights\.shape\[0\] is 3 but must be 2/],
    ['returnWeightsGrad without weights', () => [g2(), ids(0, 1), o2({ returnWeightsGrad: true, weight: table() })], TypeError, /^embeddingBagBackward: opts\.returnWeightsGrad .*opts\.perSampleWeights .*'sum'/],
    ['returnWeightsGrad with mean', () => [g2(), ids(0, 1), o2({ mode: 'mean', perSampleWeights: w(), returnWeightsGrad: true, weight: table() })], TypeError, /^embeddingBagBackward: opts\.returnWeightsGrad .*'sum'/],
    ['returnWeightsGrad without the table', () => [g2(), ids(0, 1), o2({ perSampleWeights: w(), returnWeightsGrad: true })], TypeError, /^embeddingBagBackward: opts\.returnWeightsGrad needs opts\.weight/],
    ['the table of another type', () => [g2(), ids(0, 1), o2({ perSampleWeights: w(), returnWeightsGrad: true, weight: { data: new Float64Array(6), shape: [3, 2] } })], TypeError, /^embeddingBagBackward: opts\.weight must be a Float32Array/],
    ['the table of another width', () => [g2(), ids(0, 1), o2({ perSampleWeights: w(), returnWeightsGrad: true, weight: f32(9, [3, 3]) })], RangeError, /^embeddingBagBackward: opts\.weight\.shape\[1\] is 3 but must be 2/],
    ['the table of other rows', () => [g2(), ids(0, 1), o2({ perSampleWeights: w(), returnWeightsGrad: true, weight: f32(8, [4, 2]) })], RangeError, /^embeddingBagBackward: opts\.weight\.shape\[0\] is 4 but must be 3/],
    ['inPlace into an array', () => [g2(), ids(0, 1), o2({ inPlace: true, out: new Float32Array(6) })], TypeError, /^embeddingBagBackward: opts\.inPlace .*resident/],
    ['inPlace without out', () => [g2(), ids(0, 1), o2({ inPlace: true })], TypeError, /^embeddingBagBackward: opts\.inPlace .*opts\.out/],
    ['out of another type', () => [g2(), ids(0, 1), o2({ out: new Float64Array(6) })], TypeError, /^embeddingBagBackward: opts\.out must be a Float32Array/],
    ['out of another size', () => [g2(), ids(0, 1), o2({ out: new Float32Array(8) })], RangeError, /^embeddingBagBackward: opts\.out has 8 elements but the output \[3, 2\] has 6/],
    ['resident out of another shape, in place', () => [g2(), ids(0, 1), { offsets: [0, 1], mode: 'sum', numWeights: 3, inPlace: true, out: upload(f32(8, [4, 2])) }], RangeError, /^embeddingBagBackward: opts\.out\.shape \[4, 2\] must be the output shape \[3, 2\]/],
    ['an index out of range', () => [g2(), ids(0, 3), o2()], RangeError, /^embeddingBagBackward: indices\[1\] = 3 is out of range .*size 3/],
    ['an index out of range in no bag', () => [g2(), ids(0, 1, 7), { offsets: [0, 1, 2], includeLastOffset: true, numWeights: 3 }], RangeError, /^embeddingBagBackward: indices\[2\] = 7 is out of range/],
    ['a negative index refused', () => [g2(), ids(-1, 0), o2({ negativeIndices: 'error' })], RangeError, /^embeddingBagBackward: indices\[0\] = -1 is negative, and opts\.negativeIndices is 'error'/],
    ['paddingIdx out of range', () => [g2(), ids(0, 1), o2({ paddingIdx: 3 })], RangeError, /^embeddingBagBackward: opts\.paddingIdx 3 is out of range .*3 rows/],
    ['outOfRange unknown', () => [g2(), ids(0, 1), o2({ outOfRange: 'drop' })], RangeError, /^embeddingBagBackward: opts\.outOfRange must be 'error', 'zero' or 'clamp', got "drop"/],
    ['first offset not 0', () => [g2(), ids(0, 1), o2({ offsets: [1, 1] })], RangeError, /^embeddingBagBackward: opts\.offsets\[0\] is 1 but must be 0/],
    ['offsets decreasing', () => [f32(6, [3, 2]), ids(0, 1, 2), o2({ offsets: [0, 2, 1] })], RangeError, /^embeddingBagBackward: opts\.offsets\[2\] = 1 is less than the one before it, 2/],
    ['includeLastOffset alone', () => [g2(), i32([0, 1], [2, 1]), { includeLastOffset: true, numWeights: 3 }], TypeError, /^embeddingBagBackward: opts\.includeLastOffset goes with opts\.offsets/],
    ['1-D indices without bags', () => [g2(), ids(0, 1), { numWeights: 3 }], RangeError, /^embeddingBagBackward: indices \[2\] need opts\.offsets or opts\.segmentIds/],
    ['a segment id past the bags', () => [g2(), ids(0, 1), { segmentIds: [0, 2], numWeights: 3 }], RangeError, /^embeddingBagBackward: .*segment.*2/],
    ['numSegments not the bags', () => [g2(), ids(0, 1), { segmentIds: [0, 1], numSegments: 3, numWeights: 3 }], RangeError, /^embeddingBagBackward: opts\.numSegments 3 must be gradOutput's rows, 2/],
    ['segment ids unsorted', () => [g2(), ids(0, 1), { segmentIds: [1, 0], numWeights: 3 }], RangeError, /^embeddingBagBackward: opts\.segmentIds\[1\] = 0 is less than the one before it, 1: it must be sorted/],
    ['inPlace not a boolean', () => [g2(), ids(0, 1), o2({ inPlace: 'yes' })], TypeError, /^embeddingBagBackward: opts\.inPlace must be true or false/],
    ['unknown option', () => [g2(), ids(0, 1), o2({ num_weights: 3 })], TypeError, /^embeddingBagBackward: unknown option 'num_weights'/],
    ['returnIndices (the forward\'s)', () => [g2(), ids(0, 1), o2({ returnIndices: true })], TypeError, /^embeddingBagBackward: unknown option 'returnIndices'/],
  ];
}

describeErrors(`${OP} errors`, () => {
  test('each names the op, the argument and the rule; nothing changed, no heap kept, the next call works', () => {
    const rows = errorRows();
    assert.ok(rows.length > 40);
    for (const [name, args, Cls, re] of rows) {
      const a = args();
      try {
        expectError(embeddingBagBackward, a, Cls, re);
      } catch (e) {
        e.message = `${name}: ${e.message}`;
        throw e;
      } finally {
        if (typeof a[2]?.out?.dispose === 'function') a[2].out.dispose();
      }
      // and the op itself still works
      const r = embeddingBagBackward(f32(4, [2, 2]), ids(2, 2), { offsets: [0, 1], mode: 'sum', numWeights: 3 });
      assert.deepEqual(Array.from(r.data), [0, 0, 0, 0, 4, 6], name);
    }
  });
});

test(`${OP}: an error writes nothing into a resident out, in place or not, after thousands of good entries; the heap does not grow over repeated failing calls`, async () => {
  await init(THREADED);
  try {
    const rng = new Rng(9);
    const [rows, dim, n] = [50, 4, 3000];
    const start = Float32Array.from({ length: rows * dim }, () => rng.next() - 0.5);
    const out = upload({ data: start, shape: [rows, dim] });
    const good = () => Int32Array.from({ length: n }, () => rng.int(0, rows - 1));
    const bad = (v) => Object.assign(good(), { [n - 1]: v });
    const offsets = Int32Array.from({ length: 30 }, (_, i) => i * 100);
    const g = { data: Float32Array.from({ length: 30 * dim }, () => rng.next()), shape: [30, dim] };
    const maxBad = { data: Int32Array.from({ length: 30 * dim }, (_, i) => (i === 30 * dim - 1 ? rows : i % rows)), shape: [30, dim] };
    const weights = { data: new Float32Array(n).fill(0.5), shape: [n] };
    const calls = [
      ['in place, the last index out of range', () => [g, { data: bad(rows), shape: [n] }, { offsets, mode: 'mean', out, inPlace: true }], RangeError],
      ['out, the last index out of range', () => [g, { data: bad(rows + 9), shape: [n] }, { offsets, mode: 'sum', out }], RangeError],
      ['in place, the last index negative and refused', () => [g, { data: bad(-1), shape: [n] }, { offsets, mode: 'sqrtn', out, inPlace: true, negativeIndices: 'error' }], RangeError],
      ['in place, the last max index past the table', () => [g, { data: good(), shape: [n] }, { offsets, mode: 'max', maxIndices: maxBad, out, inPlace: true }], RangeError],
      ['in place, the last offset decreasing', () => [g, { data: good(), shape: [n] }, { offsets: Object.assign(Int32Array.from(offsets), { 29: 1 }), mode: 'sum', out, inPlace: true }], RangeError],
      ['in place, weightsGrad with a table of another width', () => [g, { data: good(), shape: [n] },
        { offsets, mode: 'sum', perSampleWeights: weights, returnWeightsGrad: true, weight: f32(rows * 5, [rows, 5]), out, inPlace: true }], RangeError],
      ['in place, gradOutput with a row too many', () => [{ data: new Float32Array(31 * dim), shape: [31, dim] }, { data: good(), shape: [n] }, { offsets, out, inPlace: true }], RangeError],
    ];
    const same = () => firstDifference(out.read(), start, 'float32') === -1;
    for (const [name, args, Cls] of calls) {
      assert.throws(() => embeddingBagBackward(...args()), Cls, name);
      assert.ok(same(), `${name}: out changed`);
    }
    const before = heapStats();
    for (let round = 0; round < 20; round++) {
      for (const [name, args, Cls] of calls) assert.throws(() => embeddingBagBackward(...args()), Cls, name);
    }
    const after = heapStats();
    assert.equal(after.heapInUse, before.heapInUse, 'wasm heap in use grew');
    assert.equal(after.memoryBytes, before.memoryBytes, 'wasm memory grew');
    assert.ok(same(), 'out changed');
    // the next call works, in place
    const indices = { data: good(), shape: [n] };
    const r = embeddingBagBackward(g, indices, { offsets, mode: 'mean', out, inPlace: true });
    assert.equal(r, out);
    const want = refBackward(g, indices, { offsets: { data: offsets, shape: [30] }, mode: 'mean', inPlace: true, out: { data: start, shape: [rows, dim] } });
    assert.equal(firstDifference(out.read(), want.data, 'float32', 'sum'), -1, 'the call after the errors');
    out.dispose();
  } finally {
    dispose();
  }
});
