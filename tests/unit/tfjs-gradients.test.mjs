// The gradients wasm-gather/tfjs registers (TensorFlow's own, for GatherNd, ScatterNd,
// TensorScatterUpdate, SparseSegmentSum and SparseSegmentMean, which tfjs-core 4.22 has none of),
// on TensorFlow.js's cpu backend and its wasm backend in place and copying: seeded random tf.grads
// (of a sum, and weighted by a random dy) bit for bit against plain-JS references
// (common/reference-scatter.mjs, common/reference.mjs, and the sparse segment gradient written
// below from TensorFlow's kernel), served by the adapter's kernels with nothing handed on; PyTorch
// 1.13's autograd for the same calls (tests/fixtures/tfjs-grad-torch: index_put, embedding_bag
// and segment_reduce backward), equal, or within the rounding of another order of the sums;
// central differences; the same gradients in tfjs ops on a backend the adapter does not serve;
// a gradient registered before left alone; unregisterKernels removing them.
//
// tfjs-core is loaded with its own gradients (tests/lib/tfjs-bundle.mjs): tf.grad of a sum needs
// Sum's.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { refGatherND } from '../../common/reference.mjs';
import { fma32 } from '../../common/reference-bag.mjs';
import { refScatterND } from '../../common/reference-scatter.mjs';
import { kernelStats, registerKernels, unregisterKernels } from '../../js/tfjs.mjs';
import { Rng } from '../lib/rng.mjs';
import { loadTfjs } from '../lib/tfjs-bundle.mjs';
import { decode } from '../lib/torch-fixtures.mjs';

const OPS = ['GatherNd', 'ScatterNd', 'TensorScatterUpdate', 'SparseSegmentSum', 'SparseSegmentMean'];
const size = (shape) => shape.reduce((a, b) => a * b, 1);
const FIXTURES = JSON.parse(readFileSync(new URL('../fixtures/tfjs-grad-torch/cases.json', import.meta.url), 'utf8'));

let tf;
before(async () => {
  tf = await loadTfjs();
});
after(() => tf && unregisterKernels(tf));

// ---------------------------------------------------------------------------------------------
// The calls. A case: { op, inputs: { name: { data, shape } } (int32 indices), attrs, dy }.
// Each op: the tfjs call on tensors (t) and the names of its float inputs, whose gradients are taken.
const CALLS = {
  GatherNd: { wrt: ['params'], f: (t) => (params) => tf.gatherND(params, t.indices) },
  ScatterNd: { wrt: ['updates'], f: (t, attrs) => (updates) => tf.scatterND(t.indices, updates, attrs.shape) },
  TensorScatterUpdate: { wrt: ['tensor', 'updates'], f: (t) => (tensor, updates) => tf.tensorScatterUpdate(tensor, t.indices, updates) },
  SparseSegmentSum: { wrt: ['data'], f: (t) => (data) => tf.sparse.sparseSegmentSum(data, t.indices, t.segmentIds) },
  SparseSegmentMean: { wrt: ['data'], f: (t) => (data) => tf.sparse.sparseSegmentMean(data, t.indices, t.segmentIds) },
};

// The output's shape of a case (its dy's).
function outShape(c) {
  const { inputs: i } = c;
  switch (c.op) {
    case 'GatherNd': {
      const q = i.indices.shape, k = q.at(-1);
      return [...q.slice(0, -1), ...i.params.shape.slice(k)];
    }
    case 'ScatterNd': return c.attrs.shape;
    case 'TensorScatterUpdate': return i.tensor.shape;
    default: {
      const n = i.segmentIds.data.length;
      return [n ? i.segmentIds.data[n - 1] + 1 : 0, ...i.data.shape.slice(1)];
    }
  }
}

// A tfjs tensor of a copy of { data, shape } (tfjs-backend-cpu keeps the array it is given, and
// its own TensorScatterUpdate writes into its input: the case's arrays stay as they are).
const tfTensor = (v) => tf.tensor(v.data.slice(), v.shape, v.data instanceof Int32Array ? 'int32' : 'float32');

// tf.grads of the case's call: of tf.sum(y) (sum: true), or weighted by its dy. Resolves to
// { name: { data, shape } } of each float input's gradient (the tensors freed).
function tfGrads(c, { sum = false } = {}) {
  return tf.tidy(() => {
    const t = Object.fromEntries(Object.entries(c.inputs).map(([k, v]) => [k, tfTensor(v)]));
    const { wrt, f } = CALLS[c.op];
    const fn = f(t, c.attrs);
    const xs = wrt.map((k) => t[k]);
    const g = sum ? tf.grads((...a) => tf.sum(fn(...a)))(xs) : tf.grads(fn)(xs, tfTensor(c.dy));
    return Object.fromEntries(wrt.map((k, j) => {
      assert.equal(g[j].dtype, 'float32');
      return [k, { data: g[j].dataSync().slice(), shape: g[j].shape }];
    }));
  });
}

// ---------------------------------------------------------------------------------------------
// The references: what each gradient is, in plain JS, in index order (float32 throughout).

// tfjs's scatterND / tensorScatterUpdate indices as [n, K] tuples: rank 1 is n tuples of one.
const tupleIndices = (idx) => (idx.shape.length === 1 ? { data: idx.data, shape: [idx.shape[0], 1] } : idx);
const zerosOf = (shape) => ({ data: new Float32Array(size(shape)), shape });

// The sparse segment reductions' gradient for their data (TensorFlow's SparseSegmentSumGrad /
// SparseSegmentMeanGrad, tensorflow/core/kernels/segment_reduction_ops_impl.h): zeros of data's
// shape; for each entry i, in order, dy's row of its segment, times float32(1 / the segment's
// count) for the mean, added to the row indices[i] names, rounded once (a fused multiply-add, as
// wasm-gather's embeddingBagBackward computes it, docs/fused-gather-reduce.md, and torch's axpy).
function refSegmentGrad(mode, data, indices, ids, dy) {
  const inner = size(data.shape.slice(1)), out = new Float32Array(size(data.shape));
  const counts = new Map();
  for (const id of ids.data) counts.set(id, (counts.get(id) ?? 0) + 1);
  for (let i = 0; i < indices.data.length; i++) {
    const r = indices.data[i], b = ids.data[i];
    const s = mode === 'mean' ? Math.fround(1 / counts.get(b)) : 1;
    for (let e = 0; e < inner; e++) out[r * inner + e] = fma32(s, dy.data[b * inner + e], out[r * inner + e]);
  }
  return { data: out, shape: data.shape };
}

// Each float input's gradient, as TensorFlow defines it (tensorflow/python/ops/array_grad.py,
// math_grad.py).
function refGrads(c) {
  const { inputs: i, dy } = c;
  switch (c.op) {
    case 'GatherNd': { // scatterND of dy into zeros of the params' shape, repeated tuples adding up
      const one = i.indices.shape.length === 1; // gatherND's rank-1 indices: one tuple
      const idx = one ? { data: i.indices.data, shape: [1, i.indices.shape[0]] } : i.indices;
      const d = one ? { data: dy.data, shape: [1, ...dy.shape] } : dy;
      return { params: refScatterND(zerosOf(i.params.shape), idx, d, { reduce: 'add' }) };
    }
    case 'ScatterNd': return { updates: refGatherND(dy, tupleIndices(i.indices)) };
    case 'TensorScatterUpdate': {
      const updates = refGatherND(dy, tupleIndices(i.indices));
      return { tensor: refScatterND(dy, tupleIndices(i.indices), zerosOf(updates.shape), { reduce: 'none' }), updates };
    }
    default: return { data: refSegmentGrad(c.op === 'SparseSegmentSum' ? 'sum' : 'mean', i.data, i.indices, i.segmentIds, dy) };
  }
}

// Per element of the one gradient that sums (GatherNd's, the sparse segments'), how many terms
// it sums and the sum of their magnitudes (exact products, in float64): the others copy.
function terms(c) {
  const { inputs: i, dy } = c;
  if (c.op === 'GatherNd') {
    const one = i.indices.shape.length === 1;
    const k = i.indices.shape.at(-1), n = one ? 1 : size(i.indices.shape.slice(0, -1));
    const shape = i.params.shape, slice = size(shape.slice(k));
    const count = new Int32Array(size(shape)), magnitude = new Float64Array(size(shape));
    for (let t = 0; t < n; t++) {
      let base = 0;
      for (let j = 0; j < k; j++) base = base * shape[j] + i.indices.data[t * k + j];
      for (let e = 0; e < slice; e++) {
        count[base * slice + e]++;
        magnitude[base * slice + e] += Math.abs(dy.data[t * slice + e]);
      }
    }
    return { params: { count, magnitude } };
  }
  if (!c.op.startsWith('SparseSegment')) return {};
  const inner = size(i.data.shape.slice(1)), count = new Int32Array(size(i.data.shape)), magnitude = new Float64Array(count.length);
  const counts = new Map();
  for (const id of i.segmentIds.data) counts.set(id, (counts.get(id) ?? 0) + 1);
  i.indices.data.forEach((r, j) => {
    const b = i.segmentIds.data[j], s = c.op === 'SparseSegmentMean' ? 1 / counts.get(b) : 1;
    for (let e = 0; e < inner; e++) {
      count[r * inner + e]++;
      magnitude[r * inner + e] += Math.abs(s * dy.data[b * inner + e]);
    }
  });
  return { data: { count, magnitude } };
}

// The first element whose bits differ (two NaNs agree), or -1.
function firstDifference(a, b) {
  const ai = new Int32Array(a.buffer, a.byteOffset, a.length), bi = new Int32Array(b.buffer, b.byteOffset, b.length);
  for (let k = 0; k < a.length; k++) if (ai[k] !== bi[k] && !(Number.isNaN(a[k]) && Number.isNaN(b[k]))) return k;
  return -1;
}

function assertSameBits(got, want, what) {
  assert.deepEqual(got.shape, want.shape, `${what}: shape`);
  const at = firstDifference(got.data, want.data instanceof Float32Array ? want.data : Float32Array.from(want.data));
  assert.equal(at, -1, `${what}: element ${at}: ${got.data[at]}, expected ${want.data[at]}`);
}

// ---------------------------------------------------------------------------------------------
// Seeded random cases.

// Floats: quarters (exact sums) or any mantissa over a range of exponents (sums round: their order
// shows), sometimes -0.
function anyFloats(rng, n) {
  const a = new Float32Array(n);
  for (let k = 0; k < n; k++) {
    a[k] = rng.chance(0.05) ? -0 : rng.chance(0.5) ? (rng.next() - 0.5) * 2 ** rng.int(-6, 10) : rng.int(-8, 8) / 4;
  }
  return a;
}
const dims = (rng, rank, lo = 1, hi = 4) => Array.from({ length: rank }, () => rng.int(lo, hi));
const tensor = (data, shape) => ({ data, shape });
// n tuples of K components, each within its dimension of shape (small dimensions: repeats).
const tuplesFor = (rng, n, k, shape) => Int32Array.from({ length: n * k }, (_, p) => rng.int(0, shape[p % k] - 1));

function randomCase(rng, op, floats = anyFloats) {
  let c;
  if (op === 'GatherNd') {
    const shape = dims(rng, rng.int(1, 3)), k = rng.int(1, shape.length);
    const batch = rng.chance(0.2) ? null : dims(rng, rng.int(1, 2), 1, 5); // null: rank-1 indices, one tuple
    if (batch && rng.chance(0.1)) batch[0] = 0; // no tuples
    const n = batch ? size(batch) : 1;
    c = { op, inputs: { params: tensor(floats(rng, size(shape)), shape), indices: tensor(tuplesFor(rng, n, k, shape), batch ? [...batch, k] : [k]) } };
  } else if (op === 'ScatterNd' || op === 'TensorScatterUpdate') {
    const shape = dims(rng, rng.int(1, 3));
    const rank1 = rng.chance(0.25); // n tuples of one
    const k = rank1 ? 1 : rng.int(1, shape.length);
    const batch = rank1 ? [rng.int(1, 6)] : dims(rng, rng.int(1, 2), 1, 4);
    if (rng.chance(0.1)) batch[0] = 0; // no tuples
    const indices = tensor(tuplesFor(rng, size(batch), k, shape), rank1 ? batch : [...batch, k]);
    const updShape = [...batch, ...shape.slice(k)];
    c = { op, inputs: { indices, updates: tensor(floats(rng, size(updShape)), updShape) }, attrs: { shape } };
    if (op === 'TensorScatterUpdate') c = { op, inputs: { tensor: tensor(floats(rng, size(shape)), shape), indices, updates: c.inputs.updates } };
  } else {
    const shape = [rng.int(1, 8), ...dims(rng, rng.int(0, 2))];
    const n = rng.chance(0.1) ? 0 : rng.int(1, 16);
    const ids = new Int32Array(n);
    for (let j = 0, id = rng.int(0, 2); j < n; j++, id += rng.chance(0.6) ? 0 : rng.int(1, 2)) ids[j] = id;
    c = { op, inputs: { data: tensor(floats(rng, size(shape)), shape), indices: tensor(Int32Array.from({ length: n }, () => rng.int(0, shape[0] - 1)), [n]),
      segmentIds: tensor(ids, [n]) } };
  }
  c.attrs ??= {};
  const dyShape = outShape(c);
  c.dy = tensor(floats(rng, size(dyShape)), dyShape);
  c.name = `${op} ${JSON.stringify(Object.fromEntries(Object.entries(c.inputs).map(([k, v]) => [k, v.shape])))}` +
    ` indices ${JSON.stringify(Array.from(c.inputs.indices.data))}${c.inputs.segmentIds ? ` ids ${JSON.stringify(Array.from(c.inputs.segmentIds.data))}` : ''}`;
  return c;
}

const CASES = [];
{
  const rng = new Rng(0x96ad);
  for (const op of OPS) for (let k = 0; k < 40; k++) CASES.push(randomCase(rng, op));
}
const ones = (c) => ({ ...c, dy: tensor(new Float32Array(size(c.dy.shape)).fill(1), c.dy.shape) });

test('the random cases cover repeated indices, empty ones, rank-1 indices and rounded sums', () => {
  const count = (f) => CASES.filter(f).length;
  const repeats = (c) => {
    const k = c.inputs.indices.shape.length === 1 && c.op !== 'GatherNd' ? 1 : c.inputs.indices.shape.at(-1);
    const seen = new Set(), d = c.inputs.indices.data;
    for (let p = 0; p + k <= d.length; p += k) {
      const key = String(d.subarray(p, p + k));
      if (seen.has(key)) return true;
      seen.add(key);
    }
    return false;
  };
  const found = {};
  for (const op of OPS) {
    const of = CASES.filter((c) => c.op === op);
    found[`${op} repeats`] = of.filter(repeats).length;
    found[`${op} no index`] = of.filter((c) => c.inputs.indices.data.length === 0).length;
    if (!op.startsWith('Sparse')) found[`${op} rank-1 indices`] = of.filter((c) => c.inputs.indices.shape.length === 1).length;
  }
  // a gradient element that sums three or more terms of any mantissa (its rounding shows the order)
  found.rounded = count((c) => {
    const t = terms(c), [name] = Object.keys(t);
    return name && refGrads(c)[name].data.some((v, e) => t[name].count[e] > 2 && v % 2 ** -6 !== 0);
  });
  for (const [what, n] of Object.entries(found)) assert.ok(n >= 2, `${what}: ${n} cases`);
  assert.ok(count((c) => c.dy.data.some((v) => Object.is(v, -0))) >= 10, '-0 in dy');
});

// ---------------------------------------------------------------------------------------------

test("registerKernels registers the five gradients, which tfjs 4.22 has none of; unregisterKernels removes them and tf.grad fails with tfjs's own error again", async () => {
  unregisterKernels(tf);
  await tf.setBackend('cpu');
  for (const op of OPS) assert.equal(tf.getGradient(op), undefined, `tfjs-core ${tf.version_core} has a gradient for ${op}: leave it, test it, say so`);
  const p = tf.tensor2d([1, 2, 3, 4], [2, 2]);
  const i = tf.tensor2d([[1], [1]], [2, 1], 'int32');
  const grad = () => Array.from(tf.tidy(() => tf.grad((x) => tf.sum(tf.gatherND(x, i)))(p).dataSync()));
  const stock = { message: 'Cannot compute gradient: gradient function not found for GatherNd.' };
  assert.throws(grad, stock);
  await registerKernels(tf, { backends: ['cpu'] });
  for (const op of OPS) assert.equal(tf.getGradient(op)?.kernelName, op);
  assert.deepEqual(grad(), [0, 0, 2, 2]);
  unregisterKernels(tf);
  for (const op of OPS) assert.equal(tf.getGradient(op), undefined, op);
  assert.throws(grad, stock);
  for (const k of ['SparseSegmentSumGrad', 'SparseSegmentMeanGrad']) assert.equal(tf.getKernel(k, 'cpu'), undefined, `${k} removed`);
  tf.dispose([p, i]);
});

test('a gradient registered before is left alone, by registerKernels and by unregisterKernels', async () => {
  unregisterKernels(tf);
  await tf.setBackend('cpu');
  const theirs = { kernelName: 'SparseSegmentMean', inputsToSave: [], gradFunc: (dy) => ({ data: () => tf.fill([3], 7) }) };
  tf.registerGradient(theirs);
  try {
    await registerKernels(tf, { backends: ['cpu'] });
    assert.equal(tf.getGradient('SparseSegmentMean'), theirs);
    assert.notEqual(tf.getGradient('SparseSegmentSum'), undefined);
    const g = tf.tidy(() => Array.from(tf.grad((x) => tf.sparse.sparseSegmentMean(x, tf.tensor1d([0], 'int32'), tf.tensor1d([0], 'int32')))(
      tf.tensor1d([1, 2, 3]), tf.tensor1d([1])).dataSync()));
    assert.deepEqual(g, [7, 7, 7], 'theirs computes it');
    unregisterKernels(tf);
    assert.equal(tf.getGradient('SparseSegmentMean'), theirs, 'still theirs');
    assert.equal(tf.getGradient('SparseSegmentSum'), undefined, 'ours removed');
  } finally {
    tf.unregisterGradient('SparseSegmentMean');
  }
});

// The adapter's kernels a tf.grads of a case calls, forward and back, { kernel: calls }: each
// gradient's through the adapter's kernels (the updates' gradient is zeros, without a gather,
// where there is nothing to gather).
const gathers = (c) => (c.inputs.updates.data.length ? 1 : 0);
const KERNEL_CALLS = {
  GatherNd: () => ({ GatherNd: 1, ScatterNd: 1 }),
  ScatterNd: (c) => ({ ScatterNd: 1, GatherNd: gathers(c) }),
  TensorScatterUpdate: (c) => ({ TensorScatterUpdate: 2, GatherNd: gathers(c) }),
  SparseSegmentSum: () => ({ SparseSegmentSum: 1, SparseSegmentSumGrad: 1 }),
  SparseSegmentMean: () => ({ SparseSegmentMean: 1, SparseSegmentMeanGrad: 1 }),
};

const CONFIGS = [{ backend: 'cpu' }, { backend: 'wasm', inPlace: true }, { backend: 'wasm', inPlace: false }];
for (const { backend, inPlace } of CONFIGS) {
  const label = inPlace === undefined ? '' : inPlace ? ', in place' : ', copying (inPlace: false)';
  describe(`the gradients on tfjs's ${backend} backend${label}`, () => {
    before(async () => {
      unregisterKernels(tf);
      await registerKernels(tf, inPlace === undefined ? {} : { inPlace });
      await tf.setBackend(backend);
    });

    test("seeded random tf.grads, of a sum and weighted by a random dy: the references' bits, through the adapter's kernels", () => {
      const before = kernelStats();
      for (const c of CASES) {
        for (const sum of [true, false]) {
          const got = tfGrads(c, { sum });
          const want = refGrads(sum ? ones(c) : c);
          for (const name of CALLS[c.op].wrt) assertSameBits(got[name], want[name], `${c.name}${sum ? ', sum' : ''}: ${name}`);
        }
      }
      const after = kernelStats();
      assert.deepEqual(after.fallbacks, before.fallbacks, 'nothing handed to tfjs\'s own kernels');
      const want = {};
      for (const c of CASES) {
        for (const [k, n] of Object.entries(KERNEL_CALLS[c.op](c))) want[`${backend}/${k}`] = (want[`${backend}/${k}`] ?? 0) + 2 * n; // of a sum, and weighted
      }
      const got = Object.fromEntries(Object.keys(after.calls).map((k) => [k, after.calls[k] - (before.calls[k] ?? 0)]).filter(([, n]) => n));
      assert.deepEqual(got, want);
      if (inPlace) assert.ok(after.inPlace > before.inPlace);
      else assert.equal(after.inPlace, before.inPlace);
    });

    test("each gradient's kernels run in tfjs's memory when in place; no gradient is cached as a table", () => {
      for (const op of OPS) {
        const c = CASES.find((x) => x.op === op && x.inputs.indices.data.length > 3 && x.dy.data.length && (x.inputs.updates?.data.length ?? 1));
        const before = kernelStats();
        tfGrads(c);
        const after = kernelStats();
        // every kernel call of the case, forward and back, ran the op where tfjs's tensors are
        const calls = Object.values(KERNEL_CALLS[op](c)).reduce((a, n) => a + n, 0);
        assert.equal(after.inPlace - before.inPlace, inPlace ? calls : 0, c.name);
        assert.equal(after.uploads, before.uploads, `${c.name}: uploads`);
      }
    });

    test('torch 1.13 autograd (index_put, embedding_bag, segment_reduce backward): equal, or within another summation order\'s rounding', () => {
      let exact = 0, rounded = 0;
      for (const f of FIXTURES.cases) {
        const c = { op: f.op, inputs: Object.fromEntries(Object.entries(f.inputs).map(([k, v]) => [k, decode(v)])), attrs: f.attrs, dy: decode(f.dy) };
        const got = tfGrads(c);
        const t = terms(c);
        for (const [name, enc] of Object.entries(f.grads)) {
          const want = decode(enc);
          assert.deepEqual(got[name].shape, want.shape, `${f.name}: ${name}`);
          for (let e = 0; e < want.data.length; e++) {
            const a = got[name].data[e], b = want.data[e], what = `${f.name}: ${name}[${e}]: ${a}, torch ${b}`;
            if (Object.is(a, b) || (Number.isNaN(a) && Number.isNaN(b))) {
              exact++;
              continue;
            }
            // Another value only where torch sums in another order (embedding_bag's backward sorts
            // the entries by row, unstably) or rounds each term apart (segment_reduce's mean divides
            // by the count where the others multiply by its float32 inverse): index_put's and
            // index_add's accumulation runs in entry order, as the adapter's; and never for one term.
            const n = t[name]?.count[e] ?? 1;
            const divides = f.via === 'segment_reduce' && f.op === 'SparseSegmentMean';
            assert.ok(f.via === 'embedding_bag' || divides, `${what}: torch adds in entry order, yet another value`);
            assert.ok(n > 1 || divides, `${what}: one term, yet another value`);
            // Each of the two sums of n terms errs by at most (n - 1) 2^-24 of the terms' magnitudes
            // summed; dividing instead of multiplying by the rounded inverse, by under 2^-23 more.
            const bound = (n + 1) * 2 ** -23 * t[name].magnitude[e];
            assert.ok(Math.abs(a - b) <= bound, `${what}: differs by ${Math.abs(a - b)} > ${bound} (${n} terms)`);
            rounded++;
          }
        }
      }
      assert.ok(exact > 1000 && rounded > 10, `${exact} elements equal, ${rounded} within the rounding`);
    });

    test("nothing leaks: tf.memory(), the backend's data ids", () => {
      const base = { tensors: tf.memory().numTensors, ids: tf.engine().backend.numDataIds() };
      for (const c of CASES.filter((_, k) => k % 10 === 0)) tfGrads(c);
      assert.equal(tf.memory().numTensors, base.tensors);
      assert.equal(tf.engine().backend.numDataIds(), base.ids);
    });
  });
}

// Central differences: for f(x) = sum(dy * op(x)), (f(x + h) - f(x - h)) / (the step actually
// taken), each element of each float input, f summed in float64 from tfjs's float32 outputs, with
// x and dy in [-2, 2). The ops are linear in x: what differs is the rounding of their float32 sums
// and means, in the outputs that x's element changes (the others keep their bits): each at most
// 16 terms of at most 32, so under 16 * 32 * 2^-24 at x + h and at x - h, over a step of 1/8:
// 1e-3 for each unit of |dy| there.
const smallFloats = (rng, n) => Float32Array.from({ length: n }, () => (rng.next() - 0.5) * 4);
for (const { backend, inPlace } of CONFIGS.slice(0, 2)) {
  test(`central differences agree with the gradients on ${backend}${inPlace ? ', in place' : ''}`, async () => {
    unregisterKernels(tf);
    await registerKernels(tf);
    await tf.setBackend(backend);
    const rng = new Rng(0xcd);
    let checked = 0, skipped = 0;
    for (const op of OPS) {
      for (let k = 0; k < 6; k++) {
        const c = randomCase(rng, op, smallFloats);
        const grads = tfGrads(c);
        const f = (inputs) => tf.tidy(() => {
          const t = Object.fromEntries(Object.entries(inputs).map(([n, v]) => [n, tfTensor(v)]));
          return CALLS[op].f(t, c.attrs)(...CALLS[op].wrt.map((n) => t[n])).dataSync();
        });
        const weighted = (y) => y.reduce((a, v, e) => a + c.dy.data[e] * v, 0);
        for (const name of CALLS[op].wrt) {
          const x = c.inputs[name];
          const overwritten = op === 'TensorScatterUpdate' && name === 'updates' ? overwrittenElements(c) : new Set();
          for (let e = 0; e < x.data.length; e++) {
            const at = (sign) => {
              const data = x.data.slice();
              data[e] = Math.fround(x.data[e] + sign * 2 ** -4);
              return { y: f({ ...c.inputs, [name]: { data, shape: x.shape } }), step: data[e] };
            };
            const up = at(1), down = at(-1);
            const numeric = (weighted(up.y) - weighted(down.y)) / (up.step - down.step), analytic = grads[name].data[e];
            if (overwritten.has(e)) {
              // An update a later one overwrites changes nothing (numeric 0), yet its gradient is dy
              // at its tuple: TensorFlow's (gather_nd(grad, indices)) and torch's (index_put's).
              assert.equal(numeric, 0, `${c.name}: d/d${name}[${e}]`);
              skipped++;
              continue;
            }
            const changed = up.y.reduce((a, v, o) => a + (v === down.y[o] ? 0 : Math.abs(c.dy.data[o])), 0);
            assert.ok(Math.abs(numeric - analytic) <= 1e-3 * changed + 1e-9, `${c.name}: d/d${name}[${e}]: numeric ${numeric}, gradient ${analytic}`);
            checked++;
          }
        }
      }
    }
    assert.ok(checked > 250 && skipped > 0, `${checked} elements, ${skipped} overwritten updates`);
  });
}

// The elements of a TensorScatterUpdate case's updates that a later update with the same tuple overwrites.
function overwrittenElements(c) {
  const idx = tupleIndices(c.inputs.indices), k = idx.shape.at(-1), n = size(idx.shape.slice(0, -1));
  const slice = size(c.inputs.updates.shape) / Math.max(n, 1), out = new Set();
  for (let t = 0; t < n; t++) {
    const key = String(idx.data.subarray(t * k, (t + 1) * k));
    for (let u = t + 1; u < n; u++) {
      if (String(idx.data.subarray(u * k, (u + 1) * k)) !== key) continue;
      for (let e = 0; e < slice; e++) out.add(t * slice + e);
      break;
    }
  }
  return out;
}

// A backend the adapter does not serve (here cpu, with the adapter on wasm only): the gradients
// are still registered and run there in tfjs's own ops and kernels. tfjs-backend-cpu's
// TensorScatterUpdate writes into its input, dy, which the updates' gradient then reads: the
// tensor's gradient is made without it. The gather and scatter ones keep the references' bits
// (tfjs-backend-cpu adds repeated tuples in order too); the segment ones are gather, multiply and
// unsortedSegmentSum, each rounded: within float32 rounding of the references'.
test('on a backend the adapter does not serve, the same gradients in tfjs ops', async () => {
  unregisterKernels(tf);
  await registerKernels(tf, { backends: ['wasm'] });
  await tf.setBackend('cpu');
  const before = kernelStats();
  for (const c of CASES) {
    const got = tfGrads(c), want = refGrads(c);
    for (const name of CALLS[c.op].wrt) {
      if (!c.op.startsWith('Sparse')) {
        assertSameBits(got[name], want[name], `${c.name}: ${name}`);
        continue;
      }
      assert.deepEqual(got[name].shape, want[name].shape);
      const t = terms(c)[name];
      want[name].data.forEach((v, e) => {
        const bound = (t.count[e] + 1) * 2 ** -23 * t.magnitude[e];
        assert.ok(Math.abs(got[name].data[e] - v) <= bound || (Number.isNaN(v) && Number.isNaN(got[name].data[e])),
          `${c.name}: ${name}[${e}]: ${got[name].data[e]}, reference ${v}`);
      });
    }
  }
  const after = kernelStats();
  assert.deepEqual(Object.keys(after.calls).filter((k) => k.startsWith('cpu/')), Object.keys(before.calls).filter((k) => k.startsWith('cpu/')),
    'nothing served on cpu');
  unregisterKernels(tf);
});
