// embeddingBagBackward's plain-JS reference (common/reference-bag-backward.mjs), needing no build:
// against PyTorch 1.13's embedding_bag backward (tests/fixtures/bag-backward-torch, made by
// make-fixtures.py there): bit for bit on the rows whose sum cannot depend on the order of their
// contributions, within a few rounding errors of their terms elsewhere (torch sorts them
// unstably), and the per-sample weights' gradient (torch sums it in float32) likewise; against
// central differences of the forward reference (common/reference-bag.mjs) in float64, every mode
// and form; and hand-computed cases.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { embeddingBagBackward } from '../../common/reference-bag-backward.mjs';
import { embeddingBag } from '../../common/reference-bag.mjs';
import { decode } from '../lib/torch-fixtures.mjs';
import { Rng } from '../lib/rng.mjs';

const fixtures = JSON.parse(readFileSync(new URL('../fixtures/bag-backward-torch/cases.json', import.meta.url)));
const optsOf = (c) => Object.fromEntries(Object.entries(c.opts).map(([k, v]) => [k, decode(v)]));
const abs = (t) => t && { data: t.data.map(Math.abs), shape: t.shape };

/**
 * got against torch's want, element by element: the same bits on the rows in exact, else
 * |got - want| <= 2 (k + 1) u sum|terms| (k terms, u the type's unit roundoff): two orders of the
 * same k terms, each within (k - 1) u sum|terms| of the exact sum (and float64's product rounded
 * or not). absSum and count: per element, the sum of |terms| and their number.
 */
function closeTo(got, want, { exact, absSum, count, what }) {
  assert.deepEqual(got.shape, want.shape, `${what}: shape`);
  assert.equal(got.data.constructor, want.data.constructor, `${what}: type`);
  const u = got.data instanceof Float32Array ? 2 ** -24 : 2 ** -53;
  const width = want.data.length / Math.max(1, want.shape[0]);
  for (let i = 0; i < want.data.length; i++) {
    const [a, b] = [got.data[i], want.data[i]];
    if (exact(Math.floor(i / width))) {
      assert.ok(Object.is(a, b), `${what}: element ${i}: reference ${a}, torch ${b} (order-free: the same bits)`);
    } else {
      const tol = 2 * (count[i] + 1) * u * absSum[i];
      assert.ok(Math.abs(a - b) <= tol, `${what}: element ${i}: reference ${a}, torch ${b}, beyond ${tol}`);
    }
  }
}

describe('(embeddingBagBackward) the reference against PyTorch 1.13', () => {
  test('the fixtures cover what they should', () => {
    assert.match(fixtures.torch, /^1\.13/);
    const names = fixtures.cases.map((c) => c.name);
    for (const dt of ['float32', 'float64']) {
      for (const want of ['sum offsets', 'mean offsets padding_idx', 'max include_last_offset', 'mean 2-D padding_idx',
        'max a bag all padding', 'mean negative padding_idx', 'sum per_sample_weights padding_idx', 'sum each row twice',
        'mean each row once', 'sum per_sample_weights long bags']) assert.ok(names.includes(`${want} ${dt}`), `${want} ${dt}`);
    }
    assert.ok(fixtures.cases.filter((c) => c.orderFree).length >= 12, 'order-free cases');
    assert.ok(fixtures.cases.filter((c) => c.exactRows.length === 0).length >= 4, 'cases checked within tolerance only');
  });

  for (const c of fixtures.cases) {
    test(c.name, () => {
      const [gradOutput, indices] = c.args.map(decode);
      const opts = optsOf(c);
      const got = embeddingBagBackward(gradOutput, indices, opts);
      // per element: the sum of |terms| (the reference on absolute values) and their count
      const absRun = embeddingBagBackward(abs(gradOutput), indices, { ...opts, perSampleWeights: abs(opts.perSampleWeights), weight: abs(opts.weight) });
      const ones = { data: gradOutput.data.map(() => 1), shape: gradOutput.shape };
      const count = embeddingBagBackward(ones, indices, { ...opts, mode: opts.mode === 'max' ? 'max' : 'sum', perSampleWeights: undefined, returnWeightsGrad: false }).data;
      const rows = new Set(c.exactRows);
      assert.equal(c.orderFree, rows.size === opts.numWeights);
      closeTo(got, decode(c.expected), { exact: (r) => rows.has(r), absSum: absRun.data, count, what: 'gradient' });
      if (c.expectedWeightsGrad) {
        const dim = gradOutput.shape[1];
        closeTo(got.weightsGrad, decode(c.expectedWeightsGrad),
          { exact: () => false, absSum: absRun.weightsGrad.data, count: new Array(indices.data.length).fill(dim), what: 'weights gradient' });
      }
    });
  }
});

// A float64 table of distinct values (ties would make max's gradient undefined), 1/16 apart.
function table(rng, rows, dim) {
  const pool = Array.from({ length: 4 * rows * dim }, (_, i) => (i + 1) * (rng.chance(0.5) ? 1 : -1));
  for (let i = pool.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  return { data: Float64Array.from(pool.slice(0, rows * dim), (v) => v / 16), shape: [rows, dim] };
}

// Random float64 calls: every form (offsets ending short of the entries, so some are in no bag,
// with includeLastOffset), weights, padding, indices dropped ('zero') or clamped, empty bags.
function randomCalls(seed, count) {
  const rng = new Rng(seed);
  return Array.from({ length: count }, (_, k) => {
    const mode = ['sum', 'mean', 'sqrtn', 'max'][k % 4];
    const rows = rng.int(2, 6), dim = rng.int(1, 3), n = rng.int(1, 9);
    const form = rng.pick(['offsets', 'last', 'fixed', 'ids']);
    const outOfRange = rng.pick(['error', 'error', 'zero', 'clamp']);
    const ids = Array.from({ length: n }, () => (outOfRange !== 'error' && rng.chance(0.2) ? rows + rng.int(0, 3) : rng.int(-rows, rows - 1)));
    const starts = [0, ...Array.from({ length: rng.int(0, 3) }, () => rng.int(0, n))].sort((a, b) => a - b);
    const opts = { mode, outOfRange };
    let shape = [n];
    if (form === 'offsets') opts.offsets = { data: starts, shape: [starts.length] };
    if (form === 'last') opts.offsets = { data: [...starts, rng.int(starts.at(-1), n)], shape: [starts.length + 1] }, opts.includeLastOffset = true;
    if (form === 'fixed') shape = [1, n];
    if (form === 'ids') {
      const seg = Array.from({ length: n }, (_, i) => starts.filter((s) => s <= i).length - 1);
      opts.segmentIds = { data: seg, shape: [n] }, opts.numSegments = seg[n - 1] + 1 + rng.int(0, 1);
    }
    if (mode !== 'max' && rng.chance(0.5)) opts.perSampleWeights = { data: Float64Array.from({ length: n }, () => rng.int(1, 16) / 4), shape };
    if (rng.chance(0.4)) opts.paddingIdx = rng.int(-rows, rows - 1);
    return { name: `#${k} ${mode} ${form} ${outOfRange}${opts.perSampleWeights ? ' weighted' : ''}${opts.paddingIdx !== undefined ? ' padding' : ''}`,
      weight: table(rng, rows, dim), indices: { data: Int32Array.from(ids), shape }, opts };
  });
}

test('the reference is the gradient of the forward reference: central differences in float64, every mode and form', () => {
  let checked = 0;
  for (const c of randomCalls(2718, 48)) {
    const { weight, indices, opts } = c;
    const forward = (w, o = opts) => embeddingBag(w, indices, { ...o, returnIndices: o.mode === 'max' || undefined });
    const y = forward(weight);
    const rng = new Rng(checked + 1);
    const gradOutput = { data: Float64Array.from(y.data, () => rng.int(-64, 64) / 8), shape: y.shape };
    const loss = (w, o) => forward(w, o).data.reduce((acc, v, i) => acc + v * gradOutput.data[i], 0);
    const bwdOpts = { ...opts, numWeights: weight.shape[0] };
    if (opts.mode === 'max') bwdOpts.maxIndices = y.maxIndices; // the forward's (0 for an empty bag, as torch)
    if (opts.mode === 'sum' && opts.perSampleWeights) Object.assign(bwdOpts, { returnWeightsGrad: true, weight });
    const got = embeddingBagBackward(gradOutput, indices, bwdOpts);
    assert.deepEqual(got.shape, weight.shape, c.name);
    const h = 2 ** -8; // below half the table's spacing, so no maximum changes row
    for (let i = 0; i < weight.data.length; i++) {
      const at = (dx) => ({ data: weight.data.map((v, j) => (j === i ? v + dx : v)), shape: weight.shape });
      const numeric = (loss(at(h), opts) - loss(at(-h), opts)) / (2 * h);
      assert.ok(Math.abs(got.data[i] - numeric) <= 1e-9 * (1 + Math.abs(numeric)), `${c.name}: table element ${i}: ${got.data[i]}, central difference ${numeric}`);
    }
    if (got.weightsGrad) { // sum is linear in each weight
      const ws = opts.perSampleWeights;
      for (let k = 0; k < ws.data.length; k++) {
        const at = (dx) => ({ ...opts, perSampleWeights: { data: ws.data.map((v, j) => (j === k ? v + dx : v)), shape: ws.shape } });
        const numeric = (loss(weight, at(h)) - loss(weight, at(-h))) / (2 * h);
        assert.ok(Math.abs(got.weightsGrad.data[k] - numeric) <= 1e-9 * (1 + Math.abs(numeric)), `${c.name}: weight ${k}: ${got.weightsGrad.data[k]}, central difference ${numeric}`);
      }
    }
    checked++;
  }
  assert.equal(checked, 48);
});

describe('the reference on hand-computed cases', () => {
  const f32 = (values, shape) => ({ data: Float32Array.from(values), shape });
  const f64 = (values, shape) => ({ data: Float64Array.from(values), shape });
  const idx = (values, shape = [values.length]) => ({ data: Int32Array.from(values), shape });
  const check = (got, data, shape) => {
    assert.deepEqual(got.shape, shape);
    assert.deepEqual(Array.from(got.data), data);
  };

  test('sum over offsets: each bag\'s row added to the rows it read', () => {
    // bags {0, 2}, {0}
    check(embeddingBagBackward(f32([1, 2, 3, 4], [2, 2]), idx([0, 2, 0]), { mode: 'sum', offsets: idx([0, 2]), numWeights: 3 }),
      [4, 6, 0, 0, 1, 2], [3, 2]);
  });

  test('mean: over the entries counted, padding not, a dropped one (outOfRange zero) yes', () => {
    // one bag: 1, padding 2, 9 dropped, 1, 3: count 4, scale 1/4
    check(embeddingBagBackward(f32([6, 12], [1, 2]), idx([1, 2, 9, 1, 3]), { offsets: idx([0]), paddingIdx: 2, outOfRange: 'zero', numWeights: 4 }),
      [0, 0, 3, 6, 0, 0, 1.5, 3], [4, 2]);
  });

  test('sqrtn: over the root of the count, or of the weights\' squares\' sum; mean weighted: over their sum', () => {
    check(embeddingBagBackward(f32([2, 4], [1, 2]), idx([0, 1, 1, 0], [1, 4]), { mode: 'sqrtn', numWeights: 2 }), [2, 4, 2, 4], [2, 2]);
    // segment 0: weights 2, 2, 2, 2 (root of 16: 4, scale 1/2); segment 1: weight 5 (root 5, scale 1)
    check(embeddingBagBackward(f32([8, 1], [2, 1]), idx([0, 1, 1, 0, 1]),
      { mode: 'sqrtn', segmentIds: idx([0, 0, 0, 0, 1]), perSampleWeights: f32([2, 2, 2, 2, 5], [5]), numWeights: 2 }), [8, 9], [2, 1]);
    check(embeddingBagBackward(f32([8], [1, 1]), idx([0, 1]), { mode: 'mean', offsets: idx([0]), perSampleWeights: f32([1, 3], [2]), numWeights: 2 }),
      [2, 6], [2, 1]);
  });

  test('max: each element to its max index\'s row, -1 nowhere; an empty bag nowhere though its max indices are 0', () => {
    check(embeddingBagBackward(f32([1, 2, 3, 4, 5, 6], [3, 2]), idx([2, 0, 1, 0, 2]),
      { mode: 'max', offsets: idx([0, 2, 3]), maxIndices: idx([2, 0, 1, 1, -1, 2], [3, 2]), numWeights: 3 }), [0, 2, 3, 4, 1, 6], [3, 2]);
    check(embeddingBagBackward(f32([1, 2, 3, 4], [2, 2]), idx([1]), { mode: 'max', offsets: idx([0, 1]), maxIndices: idx([1, 1, 0, 0], [2, 2]), numWeights: 2 }),
      [0, 0, 1, 2], [2, 2]);
  });

  test('the weights\' gradient: gradOutput[b] . weight[row]; 0 for an entry dropped or in no bag', () => {
    // one bag of entries 0-2 (7 dropped); entry 3 past the last offset
    const got = embeddingBagBackward(f32([1, 1], [1, 2]), idx([1, 0, 7, 1]), { mode: 'sum', offsets: idx([0, 3]), includeLastOffset: true,
      outOfRange: 'zero', perSampleWeights: f32([2, 3, 4, 5], [4]), returnWeightsGrad: true, weight: f32([1, 2, 3, 4], [2, 2]), numWeights: 2 });
    check(got, [3, 3, 2, 2], [2, 2]);
    check(got.weightsGrad, [7, 3, 0, 0], [4]);
  });

  test('float32: one fused multiply-add; float64: the product rounded, then added', () => {
    // (1 - 2^-15)(1 + 2^-15) + 2^24 + 2 lies just below 2^24 + 3: fused 2^24 + 2, not 2^24 + 4
    check(embeddingBagBackward(f32([2 ** 24 + 2, 1 + 2 ** -15], [2, 1]), idx([0, 0]),
      { mode: 'sum', offsets: idx([0, 1]), perSampleWeights: f32([1, 1 - 2 ** -15], [2]), numWeights: 1 }), [16777218], [1, 1]);
    // (1 - 2^-30)(1 + 2^-30) = 1 - 2^-60 rounds to 1: -1 + 1 = 0 (fused: -2^-60)
    check(embeddingBagBackward(f64([-1, 1 + 2 ** -30], [2, 1]), idx([0, 0]),
      { mode: 'sum', offsets: idx([0, 1]), perSampleWeights: f64([1, 1 - 2 ** -30], [2]), numWeights: 1 }), [0], [1, 1]);
  });

  test('in place: added to out\'s values; negative indices wrap, clamp to the nearest row', () => {
    check(embeddingBagBackward(f32([1, 2], [2, 1]), idx([1, 1], [2, 1]), { mode: 'sum', inPlace: true, out: f32([10, 20], [2, 1]) }), [10, 23], [2, 1]);
    check(embeddingBagBackward(f32([1], [1, 1]), idx([-1, 5]), { mode: 'sum', offsets: idx([0]), outOfRange: 'clamp', numWeights: 3 }), [0, 0, 2], [3, 1]);
  });

  test('refused: an index out of range, gradOutput\'s rows not the bags, numSegments not them', () => {
    assert.throws(() => embeddingBagBackward(f32([1], [1, 1]), idx([3]), { offsets: idx([0]), numWeights: 3 }), RangeError);
    assert.throws(() => embeddingBagBackward(f32([1, 2], [2, 1]), idx([0]), { offsets: idx([0]), numWeights: 3 }), RangeError);
    assert.throws(() => embeddingBagBackward(f32([1, 2], [2, 1]), idx([0]), { segmentIds: idx([0]), numSegments: 1, numWeights: 3 }), RangeError);
    assert.throws(() => embeddingBagBackward(f32([1], [1, 1]), idx([0]), { offsets: idx([0]) }), TypeError); // no numWeights
  });
});
