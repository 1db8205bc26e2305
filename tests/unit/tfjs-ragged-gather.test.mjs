// wasm-gather/tfjs's RaggedGather kernel (js/tfjs-ragged-gather.mjs) on TensorFlow.js's cpu
// backend and its wasm backend (in place, the default, and copying: registerKernels(tf,
// { inPlace: false })):
// - tfjs-core's own specs for tf.raggedGather (dist/ops/ragged_gather_test.js, upstream
//   tfjs-core/src/ops/ragged_gather_test.ts), all passing on both backends, served by the adapter
//   (run and checked by tests/lib/tfjs-specs.mjs, as tests/unit/tfjs-specs.test.mjs runs the others);
// - stock tfjs-backend-wasm has no RaggedGather kernel, the adapter brings one and takes it away;
// - seeded random tf.raggedGather calls (nested splits of depth 1 to 3, indices of rank 0 to 2, so
//   outputRaggedRank 0 to 4; float32 with NaN payloads, int32, bool; valid and broken) against
//   stock tfjs-backend-cpu's kernel on the same inputs: the same splits, dtype, shape and bits of
//   the dense values, or the same error message. NaN payloads: a quiet NaN's bits are tfjs's; a
//   signalling NaN is copied as it is by the adapter (checked against the input's bits), which
//   tfjs-backend-cpu quiets or not depending on whether V8 has optimised its copy loop;
// - the rules tfjs-backend-cpu does not check, the dtypes it does not serve, nothing leaked.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { heapStats } from '../../js/index.mjs';
import { kernelStats, registerKernels, unregisterKernels } from '../../js/tfjs.mjs';
import { Rng } from '../lib/rng.mjs';
import { checkSpecResults, runTfjsSpecs } from '../lib/tfjs-specs.mjs';

const BACKENDS = ['cpu', 'wasm'];
const KERNEL = 'RaggedGather';
// The spec file, its describeWithFlags name (with tfjs's trailing space) and its specs in tfjs-core 4.22.
const SPECS = [{ file: 'ops/ragged_gather_test.js', suite: 'raggedGather ', specs: 12 }];
// Of those, the specs that call it with valid inputs (the others throw tfjs's errors first).
const SERVED_SPECS = 6;
const ARRAY = { float32: Float32Array, int32: Int32Array, bool: Uint8Array };
const size = (shape) => shape.reduce((a, b) => a * b, 1);
const calls = (key) => kernelStats().calls[key] ?? 0;

let tf;
let results = [];
let stockCpu; // tfjs-backend-cpu's own RaggedGather kernel config
before(async () => {
  ({ tf, results } = await runTfjsSpecs({
    files: SPECS.map((s) => s.file),
    backends: BACKENDS,
    register: async (t) => {
      stockCpu = t.getKernel(KERNEL, 'cpu');
      assert.equal(t.getKernel(KERNEL, 'wasm'), undefined, 'stock tfjs-backend-wasm has none');
      await registerKernels(t, { backends: BACKENDS });
    },
  }));
});
after(() => tf && unregisterKernels(tf));

for (const backend of BACKENDS) {
  test(`tfjs-core's raggedGather specs on ${backend}, served by wasm-gather`, (t) => {
    const { failed, counts } = checkSpecResults(results, backend, SPECS);
    t.diagnostic(`${backend}: ${counts.join(', ')}; ${failed.length} failed`);
    const { fallbacks, inPlace } = kernelStats();
    assert.equal(calls(`${backend}/${KERNEL}`), SERVED_SPECS, `${KERNEL} served by wasm-gather on ${backend}`);
    assert.deepEqual(Object.keys(fallbacks).filter((k) => k.startsWith(`${backend}/`)), [], "none handed to tfjs's own kernel");
    if (backend === 'wasm') assert.equal(inPlace, SERVED_SPECS, "the wasm calls ran in tfjs's memory");
  });
}

test("stock tfjs-backend-wasm has no RaggedGather kernel; registerKernels brings one, unregisterKernels takes it away", async () => {
  const call = () => tf.tidy(() => {
    const r = tf.raggedGather([tf.tensor1d([0, 3, 3, 7, 9], 'int32')], tf.tensor1d([1, 2, 3, 4, 5, 6, 7, 8, 9]), tf.tensor1d([2, 0], 'int32'), 1);
    return [Array.from(r.outputNestedSplits[0].dataSync()), Array.from(r.outputDenseValues.dataSync())];
  });
  const want = [[0, 4, 7], [4, 5, 6, 7, 1, 2, 3]];
  tf.enableProdMode(); // (the specs' runs reset it) only silences the "install tfjs-node" advice
  unregisterKernels(tf);
  assert.equal(tf.getKernel(KERNEL, 'wasm'), undefined);
  assert.equal(tf.getKernel(KERNEL, 'cpu'), stockCpu, "tfjs-backend-cpu's own again");
  await tf.setBackend('wasm');
  assert.throws(call, { message: "Kernel 'RaggedGather' not registered for backend 'wasm'" });
  const done = await registerKernels(tf);
  assert.ok(!done.some((e) => e.kernelName === KERNEL), 'registered beside the listed kernels, not in the list');
  assert.ok(tf.getKernel(KERNEL, 'wasm') && tf.getKernel(KERNEL, 'cpu') !== stockCpu);
  const n = calls(`wasm/${KERNEL}`);
  assert.deepEqual(call(), want);
  assert.equal(calls(`wasm/${KERNEL}`), n + 1);
  unregisterKernels(tf);
  assert.equal(tf.getKernel(KERNEL, 'wasm'), undefined);
  assert.equal(tf.getKernel(KERNEL, 'cpu'), stockCpu);
  assert.throws(call, { message: "Kernel 'RaggedGather' not registered for backend 'wasm'" });
  await tf.setBackend('cpu');
  assert.deepEqual(call(), want, "tfjs-backend-cpu's own");
});

// Values: float32 mostly any bits (NaNs of every payload and sign, quiet and signalling, ±0,
// ±Infinity, subnormals), int32 any bits, bool 0 or 1.
function values(rng, dtype, n) {
  const a = new ARRAY[dtype](n);
  if (dtype === 'bool') return a.map(() => rng.int(0, 1));
  const bits = new Uint32Array(a.buffer);
  for (let i = 0; i < n; i++) {
    const word = (rng.int(0, 0xffff) << 16 | rng.int(0, 0xffff)) >>> 0;
    if (dtype === 'int32' || rng.chance(0.5)) bits[i] = word;
    else if (rng.chance(0.5)) { // a NaN, quiet (bit 22 set) or signalling (clear, another set)
      bits[i] = (word & 0x80000000) | 0x7f800000 | (rng.chance(0.7) ? 0x400000 | (word & 0x3fffff) : (word & 0x3fffff) | 1);
    }
    else a[i] = rng.pick([0, -0, Infinity, -Infinity, 1.5, -2.25, 1e-40]);
  }
  return a;
}

// Splits of `rows` rows (lengths 1 to 3, or 0), usually from 0 and to the end of what they split, sometimes
// from further on or stopping short (tfjs allows both); returns the splits and the next level's rows.
function splitsOf(rng, rows) {
  const s = new Int32Array(rows + 1);
  s[0] = rng.chance(0.1) ? rng.int(1, 2) : 0;
  for (let i = 1; i <= rows; i++) s[i] = s[i - 1] + (rng.chance(0.15) ? 0 : rng.int(1, 3));
  return { s, next: s[rows] + (rng.chance(0.1) ? rng.int(1, 2) : 0) };
}

// A call: nested splits of depth 1 to 3, dense values [rows, ...inner], indices of rank 0 to 2;
// one in five broken one way (tfjs-backend-cpu's checks, which throw).
const BREAKS = ['index below 0', 'index past the end', 'splits not sorted', 'a negative first split',
  'splits past the values', 'empty splits', 'scalar values', 'scalar first splits'];
function raggedCase(rng, dtype) {
  const depth = rng.int(1, 3);
  const splits = [];
  let rows = rng.chance(0.05) ? 0 : rng.int(1, 6);
  const numParams = rows;
  for (let d = 0; d < depth; d++) {
    const { s, next } = splitsOf(rng, rows);
    splits.push(s);
    rows = next;
  }
  const inner = Array.from({ length: rng.int(0, 2) }, () => (rng.chance(0.05) ? 0 : rng.int(1, 3)));
  let valuesShape = [rows, ...inner];
  const rank = numParams === 0 ? rng.int(1, 2) : rng.int(0, 2);
  const indexShape = Array.from({ length: rank }, () => (numParams === 0 || rng.chance(0.05) ? 0 : rng.int(1, 4)));
  const idx = Int32Array.from({ length: size(indexShape) }, () => rng.int(0, numParams - 1));
  let splitShapes = splits.map((s) => [s.length]);
  const broken = rng.chance(0.2) ? rng.pick(BREAKS) : undefined;
  const d = rng.int(0, depth - 1);
  if (broken === 'index below 0' && idx.length) idx[rng.int(0, idx.length - 1)] = rng.pick([-1, -(2 ** 31)]);
  if (broken === 'index past the end' && idx.length) idx[rng.int(0, idx.length - 1)] = rng.pick([numParams, numParams + 2, 2 ** 31 - 1]);
  if (broken === 'splits not sorted' && splits[d].length > 2) splits[d][rng.int(1, splits[d].length - 2)] += 5;
  if (broken === 'a negative first split') splits[d][0] = -rng.int(1, 3);
  if (broken === 'splits past the values') splits[d][splits[d].length - 1] += rng.int(1, 3) + (d === depth - 1 ? valuesShape[0] : splits[d + 1].length);
  if (broken === 'empty splits' && d > 0) {
    splits[d] = new Int32Array(0);
    splitShapes[d] = [0];
  }
  if (broken === 'scalar values') valuesShape = [];
  if (broken === 'scalar first splits') {
    splits[0] = splits[0].subarray(0, 1);
    splitShapes = [[], ...splitShapes.slice(1)];
  }
  return {
    dtype, broken, splits, splitShapes, valuesShape, values: values(rng, dtype, size(valuesShape)), idx, indexShape,
    outputRaggedRank: rank + depth - 1,
    name: `${dtype} splits ${JSON.stringify(splits.map((s) => Array.from(s)))} values [${valuesShape}] indices [${indexShape}] ` +
      `${JSON.stringify(Array.from(idx))}${broken ? ` (${broken})` : ''}`,
  };
}

const CASES = [];
{
  const rng = new Rng(0x7a66ed);
  for (const dtype of ['float32', 'int32', 'bool']) for (let k = 0; k < (dtype === 'bool' ? 60 : 240); k++) CASES.push(raggedCase(rng, dtype));
}

// The call, as tf.raggedGather makes it, on the current backend.
const callOf = (c) => tf.raggedGather(c.splits.map((s, i) => tf.tensor(s, c.splitShapes[i], 'int32')), tf.tensor(c.values, c.valuesShape, c.dtype),
  tf.tensor(c.idx, c.indexShape, 'int32'), c.outputRaggedRank);

// What a call gives: { splits: [arrays], dtype, shape, data (a copy) } or { error: its message }, its tensors freed.
function outcome(c) {
  try {
    return tf.tidy(() => {
      const { outputNestedSplits, outputDenseValues: y } = callOf(c);
      for (const s of outputNestedSplits) assert.equal(s.dtype, 'int32');
      return { splits: outputNestedSplits.map((s) => Array.from(s.dataSync())), dtype: y.dtype, shape: y.shape, data: y.dataSync().slice() };
    });
  } catch (e) {
    if (e.code === 'ERR_ASSERTION') throw e;
    return { error: e.message };
  }
}

// The dense values the call must give, bits as they are: the rows each index spans at the
// innermost level, in order (the splits followed down from [index, index + 1)).
function referenceValues(c) {
  const inner = size(c.valuesShape.slice(1));
  const out = [];
  for (const i of c.idx) {
    let start = i, limit = i + 1;
    for (const s of c.splits) [start, limit] = [s[start], s[limit]];
    for (let e = start * inner; e < limit * inner; e++) out.push(c.values[e]);
  }
  const a = new ARRAY[c.dtype](out.length);
  if (c.dtype === 'float32') { // the bits as they are (a Float32Array's stores may quiet a signalling NaN)
    const from = new Uint32Array(c.values.buffer), to = new Uint32Array(a.buffer);
    let k = 0;
    for (const i of c.idx) {
      let start = i, limit = i + 1;
      for (const s of c.splits) [start, limit] = [s[start], s[limit]];
      for (let e = start * inner; e < limit * inner; e++) to[k++] = from[e];
    }
    return a;
  }
  a.set(out);
  return a;
}

const bitsOf = (a) => (a instanceof Float32Array ? new Uint32Array(a.buffer, a.byteOffset, a.length) : a);
const signalling = (b) => (b & 0x7f800000) === 0x7f800000 && (b & 0x7fffff) !== 0 && (b & 0x400000) === 0;

let want; // stock tfjs-backend-cpu's outcome of each case
describe('seeded random tf.raggedGather', () => {
  before(async () => {
    unregisterKernels(tf);
    assert.equal(tf.getKernel(KERNEL, 'cpu'), stockCpu);
    await tf.setBackend('cpu');
    want = CASES.map(outcome);
  });

  test('the cases cover what they should', (t) => {
    const count = (f) => CASES.filter((c, i) => f(c, want[i])).length;
    const ok = (w) => w.error === undefined;
    const found = {
      ...Object.fromEntries([0, 1, 2, 3].map((r) => [`outputRaggedRank ${r}`, count((c, w) => ok(w) && c.outputRaggedRank === r)])),
      ...Object.fromEntries([1, 2, 3].map((d) => [`depth ${d}`, count((c, w) => ok(w) && c.splits.length === d)])),
      ...Object.fromEntries([0, 1, 2].map((r) => [`indices of rank ${r}`, count((c, w) => ok(w) && c.indexShape.length === r)])),
      'empty values': count((c, w) => ok(w) && w.data.length === 0),
      'quiet NaNs with a payload': count((c, w) => ok(w) && c.dtype === 'float32' && Array.from(bitsOf(w.data)).some((b) => (b & 0x7fffffff) > 0x7fc00000)),
      'signalling NaNs': count((c, w) => ok(w) && c.dtype === 'float32' && Array.from(bitsOf(referenceValues(c))).some(signalling)),
      'negative NaNs': count((c, w) => ok(w) && c.dtype === 'float32' && Array.from(bitsOf(w.data)).some((b) => b > 0xff800000)),
      int32: count((c, w) => ok(w) && c.dtype === 'int32' && w.data.length > 0),
      ...Object.fromEntries(BREAKS.map((b) => [b, count((c, w) => c.broken === b && !ok(w))])),
    };
    t.diagnostic(`${CASES.length} cases, ${count((c, w) => w.error !== undefined)} refused: ${JSON.stringify(found)}`);
    for (const [what, n] of Object.entries(found)) assert.ok(n >= 4, `${what}: ${n} cases`);
  });

  const CONFIGS = [{ backend: 'cpu' }, { backend: 'wasm', inPlace: true }, { backend: 'wasm', inPlace: false }];
  for (const { backend, inPlace } of CONFIGS) {
    const label = inPlace === undefined ? '' : inPlace ? ', in place' : ', copying (inPlace: false)';
    test(`on tfjs's ${backend} backend${label}: stock tfjs-backend-cpu's splits and bits, or its error`, async (t) => {
      unregisterKernels(tf);
      await registerKernels(tf, inPlace === undefined ? {} : { inPlace });
      await tf.setBackend(backend);
      const before = kernelStats();
      let quieted = 0; // signalling NaNs tfjs-backend-cpu's copy quieted
      CASES.forEach((c, i) => {
        const got = outcome(c);
        if (want[i].error !== undefined) {
          assert.deepEqual(got, want[i], c.name);
          return;
        }
        assert.deepEqual({ splits: got.splits, dtype: got.dtype, shape: got.shape },
          { splits: want[i].splits, dtype: want[i].dtype, shape: want[i].shape }, c.name);
        const ours = bitsOf(got.data), theirs = bitsOf(want[i].data), ref = bitsOf(referenceValues(c));
        for (let e = 0; e < ours.length; e++) {
          assert.equal(ours[e], ref[e], `${c.name}: element ${e}: the input's bits`);
          // tfjs-backend-cpu's copy may have quieted a signalling NaN (set its bit 22)
          if (theirs[e] === ours[e]) continue;
          assert.ok(signalling(ours[e]) && theirs[e] === (ours[e] | 0x400000) >>> 0, `${c.name}: element ${e}: tfjs's bits`);
          quieted++;
        }
      });
      t.diagnostic(`${CASES.length} cases; ${quieted} signalling NaNs quieted by tfjs-backend-cpu, kept by wasm-gather`);
      const after = kernelStats();
      const served = want.filter((w) => w.error === undefined);
      assert.equal(calls(`${backend}/${KERNEL}`) - (before.calls[`${backend}/${KERNEL}`] ?? 0), served.length, 'every valid call served');
      assert.deepEqual(after.fallbacks, before.fallbacks, 'none handed on');
      // in tfjs's memory when in place: every call with dense values to copy
      const copied = served.filter((w) => w.data.length > 0).length;
      assert.equal(after.inPlace - before.inPlace, inPlace ? copied : 0, 'in place');
    });
  }
});

describe('what tfjs-backend-cpu does not check, the dtypes not served, nothing left behind', () => {
  const splits = () => [tf.tensor1d([0, 2, 3], 'int32')];
  const dense = () => tf.tensor1d([1, 2, 3]);
  before(async () => {
    unregisterKernels(tf);
    await registerKernels(tf);
  });

  for (const backend of BACKENDS) {
    test(`${backend}: outputRaggedRank must be the output's ragged rank; every splits tensor a vector`, async () => {
      await tf.setBackend(backend);
      // tfjs-backend-cpu ignores outputRaggedRank: asked for 3 splits, it returns 1
      for (const rank of [0, 3, 1.5, undefined]) {
        assert.throws(() => tf.tidy(() => tf.raggedGather(splits(), dense(), tf.tensor1d([1, 0], 'int32'), rank)),
          { message: `RaggedGather: outputRaggedRank must be indices.rank + paramsNestedSplits.length - 1 = 1 + 1 - 1 = 1, got ${rank}` });
      }
      // tfjs-backend-cpu reads a scalar (or a matrix) past the first as a vector
      assert.throws(() => tf.tidy(() => tf.raggedGather([tf.tensor1d([0, 1, 2], 'int32'), tf.scalar(0, 'int32')], dense(),
        tf.tensor1d([1], 'int32'), 1)), { message: 'RaggedGather: paramsNestedSplits[1] must be a vector (rank 1), got shape []' });
      assert.throws(() => tf.tidy(() => tf.raggedGather([tf.tensor2d([0, 1, 2, 3], [2, 2], 'int32')], dense(),
        tf.tensor1d([0], 'int32'), 0)), { message: 'RaggedGather: paramsNestedSplits[0] must be a vector (rank 1), got shape [2,2]' });
      // tfjs's own messages for the rest, as its specs assert them; a bad index's position in the indices' shape
      assert.throws(() => tf.tidy(() => tf.raggedGather(splits(), dense(), tf.tensor2d([0, 1, 2, 0], [2, 2], 'int32'), 2)),
        { message: 'indices[1,0] = 2 is not in [0, 2)' });
      assert.throws(() => tf.tidy(() => tf.raggedGather(splits(), dense(), tf.scalar(-1, 'int32'), 0)), { message: 'indices[] = -1 is not in [0, 2)' });
    });

    test(`${backend}: dtypes not served (reachable through runKernel: tf.raggedGather refuses them)`, async () => {
      await tf.setBackend(backend);
      const run = (inputs) => tf.tidy(() => tf.engine().runKernel(KERNEL, inputs, { outputRaggedRank: 1 }));
      const floatSplits = () => ({ paramsNestedSplits: [tf.tensor1d([0, 2, 3])], paramsDenseValues: dense(), indices: tf.tensor1d([1], 'int32') });
      const floatIndices = () => ({ paramsNestedSplits: splits(), paramsDenseValues: dense(), indices: tf.tensor1d([1]) });
      if (backend === 'cpu') { // handed to tfjs-backend-cpu's kernel
        const before = kernelStats().fallbacks[`cpu/${KERNEL}`] ?? 0;
        run(floatSplits());
        run(floatIndices());
        assert.equal(kernelStats().fallbacks[`cpu/${KERNEL}`], before + 2);
      } else { // no kernel to hand them to: why not served
        assert.throws(() => run(floatSplits()), { message: "RaggedGather: paramsNestedSplits[0] must be int32, got float32: wasm-gather serves int32 splits, and tfjs's wasm backend has no RaggedGather kernel of its own" });
        assert.throws(() => run(floatIndices()), { message: "RaggedGather: no wasm kernel for float32 indices: wasm-gather serves int32 ones, and tfjs's wasm backend has no RaggedGather kernel of its own" });
      }
    });

    test(`${backend}: nothing leaks: tf.memory(), the data ids, wasm-gather's heap, after results and errors`, async () => {
      await tf.setBackend(backend);
      const base = { tensors: tf.memory().numTensors, ids: tf.engine().backend.numDataIds() };
      const s = [tf.tensor1d([0, 2, 2, 5], 'int32'), tf.tensor1d([0, 1, 3, 3, 4, 8], 'int32')];
      const table = tf.randomUniform([8, 16]);
      const i = tf.tensor1d([2, 0, 2, 1], 'int32');
      for (let n = 0; n < 3; n++) { // the table used again: cached where the copying path caches it
        const r = tf.raggedGather(s, table, i, 2);
        assert.deepEqual(r.outputDenseValues.shape, [13, 16]); // rows [3, 8), [0, 3), [3, 8) and none
        tf.dispose([...r.outputNestedSplits, r.outputDenseValues]);
      }
      const heap = heapStats().heapInUse;
      const bad = tf.tensor1d([3], 'int32');
      assert.throws(() => tf.raggedGather(s, table, bad, 2), { message: 'indices[0] = 3 is not in [0, 3)' });
      assert.equal(heapStats().heapInUse, heap);
      tf.dispose([...s, table, i, bad]);
      assert.equal(tf.memory().numTensors, base.tensors);
      assert.equal(tf.engine().backend.numDataIds(), base.ids);
      assert.equal(kernelStats().cached, 0, 'a cached table freed with its tensor');
    });
  }
});
