// wasm-gather/tfjs's ScatterNd, TensorScatterUpdate and UnsortedSegmentSum kernels on
// TensorFlow.js's cpu backend and its wasm backend, in place (the default) and copying
// (registerKernels(tf, { inPlace: false })):
//   (a) the stock kernels' bugs: each case's right answer from the adapter, and stock tfjs's
//       wrong one, run with the adapter unregistered;
//   (b) seeded random tf.scatterND, tf.tensorScatterUpdate and tf.unsortedSegmentSum against
//       common/reference-scatter.mjs (refScatterND, refIndexReduce), bit for bit;
//   (c) gather's gradient, which runs through UnsortedSegmentSum (on wasm, only the adapter's);
//   (d) nothing left behind: tf.memory(), the backend's data ids, wasm-gather's heap;
//   (e) unregisterKernels putting back exactly what was there, and what a call with no kernel to
//       take it says after wasm-gather's dispose().
//
// tf is tests/lib/tfjs-bundle.mjs's bundle, not `import * as tf from '@tensorflow/tfjs-core'`:
// tf.grad needs tfjs-core's gradients, which Node's import of tfjs-core does not register, and
// registering them from tfjs-core's ES module files needs a bundler anyway (extensionless imports).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { refIndexReduce, refScatterND } from '../../common/reference-scatter.mjs';
import { dispose, heapStats, init } from '../../js/index.mjs';
import { kernelStats, registerKernels, unregisterKernels } from '../../js/tfjs.mjs';
import { Rng } from '../lib/rng.mjs';
import { firstDifference } from '../lib/scatter-cases.mjs';
import { loadTfjs } from '../lib/tfjs-bundle.mjs';

const BACKENDS = ['cpu', 'wasm'];
const KERNELS = ['GatherV2', 'GatherNd', 'ScatterNd', 'TensorScatterUpdate', 'UnsortedSegmentSum', 'SparseSegmentSum', 'SparseSegmentMean'];
const ARRAY = { float32: Float32Array, int32: Int32Array, bool: Uint8Array };
const NOT_ON_WASM = "Kernel 'UnsortedSegmentSum' not registered for backend 'wasm'";

let tf;
let originals; // 'backend/Kernel' -> the kernel config there before the adapter's
before(async () => {
  tf = await loadTfjs();
  originals = new Map(BACKENDS.flatMap((b) => KERNELS.map((k) => [`${b}/${k}`, tf.getKernel(k, b)])));
});
after(() => unregisterKernels(tf));

const calls = (backend, kernel) => kernelStats().calls[`${backend}/${kernel}`] ?? 0;
const size = (shape) => shape.reduce((a, b) => a * b, 1);

// What a call gives, { dtype, shape, data } or { error: its message }, with every tensor it made freed.
function outcome(f) {
  try {
    return tf.tidy(() => {
      const y = f();
      return { dtype: y.dtype, shape: y.shape, data: Array.from(y.dataSync()) };
    });
  } catch (e) {
    return { error: e.message };
  }
}

// f run on stock tfjs: the adapter unregistered for it, then registered again with opts.
async function stock(f, opts) {
  unregisterKernels(tf);
  try {
    return f();
  } finally {
    await registerKernels(tf, opts);
  }
}

const value = (dtype, shape, data) => ({ dtype, shape, data });
const both = (v) => ({ cpu: v, wasm: v });

// (a) Each bug: the call, the kernel that serves it, the adapter's answer on every backend,
// and stock tfjs's on each (the same as ours where stock is right there).
const BUGS = [
  {
    name: 'scatterND checks each index component: [0, 5] does not index into [2, 3]',
    // tfjs-backend-cpu's Scatter_impl.js checks only the flat offset 0 * 3 + 5 < 6, as does
    // tfjs-backend-wasm's ScatterNd, and both write element [1, 2].
    kernel: 'ScatterNd',
    call: () => tf.scatterND(tf.tensor2d([0, 5], [1, 2], 'int32'), tf.tensor1d([7]), [2, 3]),
    ours: { error: 'Invalid indices: 0,5 does not index into 2,3' },
    stock: both(value('float32', [2, 3], [0, 0, 0, 0, 0, 7])),
  },
  {
    name: 'scatterND: a negative component is out of range, [-1, 4] into [2, 3]',
    // -1 * 3 + 4 = 1: stock writes element [0, 1].
    kernel: 'ScatterNd',
    call: () => tf.scatterND(tf.tensor2d([-1, 4], [1, 2], 'int32'), tf.tensor1d([7]), [2, 3]),
    ours: { error: 'Invalid indices: -1,4 does not index into 2,3' },
    stock: both(value('float32', [2, 3], [0, 7, 0, 0, 0, 0])),
  },
  {
    name: 'tensorScatterUpdate checks each index component: [0, 5] does not index into [2, 3]',
    kernel: 'TensorScatterUpdate',
    call: () => tf.tensorScatterUpdate(tf.ones([2, 3]), tf.tensor2d([0, 5], [1, 2], 'int32'), tf.tensor1d([7])),
    ours: { error: 'Invalid indices: 0,5 does not index into 2,3' },
    stock: both(value('float32', [2, 3], [1, 1, 1, 1, 1, 7])),
  },
  {
    name: 'tensorScatterUpdate leaves its input tensor as it was',
    // tfjs-backend-cpu's TensorScatterUpdate.js scatters into backend.bufferSync(tensor), the
    // input's own values. Row 0: the input read after the call; row 1: the result.
    kernel: 'TensorScatterUpdate',
    call: () => {
      const x = tf.tensor1d([1, 2, 3]);
      const y = tf.tensorScatterUpdate(x, tf.tensor2d([0], [1, 1], 'int32'), tf.tensor1d([9]));
      return tf.stack([x, y]);
    },
    ours: value('float32', [2, 3], [1, 2, 3, 9, 2, 3]),
    stock: { cpu: value('float32', [2, 3], [9, 2, 3, 9, 2, 3]), wasm: value('float32', [2, 3], [1, 2, 3, 9, 2, 3]) },
  },
  {
    name: "unsortedSegmentSum returns x's dtype: int32 sums stay int32",
    // tfjs-backend-cpu's UnsortedSegmentSum.js multiplies x by a float32 mask: the sum is
    // float32, and 2^24 + 1 is rounded.
    kernel: 'UnsortedSegmentSum',
    call: () => tf.unsortedSegmentSum(tf.tensor1d([2 ** 24 + 1, 2, 3], 'int32'), tf.tensor1d([0, 1, 1], 'int32'), 2),
    ours: value('int32', [2], [2 ** 24 + 1, 5]),
    stock: { cpu: value('float32', [2], [2 ** 24, 5]), wasm: { error: NOT_ON_WASM } },
  },
  {
    name: 'unsortedSegmentSum: a NaN in one segment stays there',
    // Stock cpu's mask of another segment is 0, and 0 * NaN = NaN enters that segment's sum.
    kernel: 'UnsortedSegmentSum',
    call: () => tf.unsortedSegmentSum(tf.tensor1d([1, NaN, 3]), tf.tensor1d([0, 1, 0], 'int32'), 2),
    ours: value('float32', [2], [4, NaN]),
    stock: { cpu: value('float32', [2], [NaN, NaN]), wasm: { error: NOT_ON_WASM } },
  },
  {
    name: 'unsortedSegmentSum: an Infinity in one segment stays there',
    kernel: 'UnsortedSegmentSum',
    call: () => tf.unsortedSegmentSum(tf.tensor1d([1, Infinity, 3]), tf.tensor1d([0, 1, 0], 'int32'), 2),
    ours: value('float32', [2], [4, Infinity]),
    stock: { cpu: value('float32', [2], [NaN, Infinity]), wasm: { error: NOT_ON_WASM } },
  },
  {
    name: 'unsortedSegmentSum with ids of rank 2: [numSegments] + x.shape[ids.rank:]',
    // https://www.tensorflow.org/api_docs/python/tf/math/unsorted_segment_sum; stock cpu sums the
    // masked product over axis 0 only, and its shape is [numSegments] + x.shape[1:].
    kernel: 'UnsortedSegmentSum',
    call: () => tf.unsortedSegmentSum(tf.tensor2d([1, 2, 4, 8], [2, 2]), tf.tensor2d([0, 1, 1, 0], [2, 2], 'int32'), 2),
    ours: value('float32', [2], [9, 6]),
    stock: { cpu: value('float32', [2, 2], [1, 8, 4, 2]), wasm: { error: NOT_ON_WASM } },
  },
  {
    name: 'unsortedSegmentSum adds in float32, one update at a time, in order',
    // As TensorFlow's CPU kernel (tensorflow/core/kernels/segment_reduction_ops_impl.h) and
    // scatterND's sums: 1 + 2^-24 rounds back to 1, twice. Stock cpu sums in a JS number and
    // rounds once.
    kernel: 'UnsortedSegmentSum',
    call: () => tf.unsortedSegmentSum(tf.tensor1d([1, 2 ** -24, 2 ** -24]), tf.tensor1d([0, 0, 0], 'int32'), 1),
    ours: value('float32', [1], [1]),
    stock: { cpu: value('float32', [1], [1 + 2 ** -23]), wasm: { error: NOT_ON_WASM } },
  },
];

// (b)'s ops, each with the features its random cases must show (their makers are below).
const SCATTER_FEATURES = ['rank-1 indices', 'K = 0', 'a repeated tuple', 'empty'];
const RANDOM = [
  { op: 'scatterND', kernel: 'ScatterNd', dtypes: ['float32', 'int32'], make: scatterNDCase, features: SCATTER_FEATURES },
  { op: 'tensorScatterUpdate', kernel: 'TensorScatterUpdate', dtypes: ['float32', 'int32', 'bool'], make: tensorScatterUpdateCase,
    features: SCATTER_FEATURES },
  { op: 'unsortedSegmentSum', kernel: 'UnsortedSegmentSum', dtypes: ['float32', 'int32'], make: unsortedSegmentSumCase,
    features: ['ids of rank 0', 'ids of rank 2', 'a negative id', 'an id >= numSegments', 'a repeated id', 'empty'] },
];

// On 'wasm' twice: in tfjs's memory by the guest (the default), and through wasm-gather's own
// memory with copies (inPlace false, as where the guest cannot run).
const CONFIGS = [{ backend: 'cpu', opts: {} }, { backend: 'wasm', opts: {}, inPlace: true }, { backend: 'wasm', opts: { inPlace: false } }];
for (const [c, { backend, opts, inPlace }] of CONFIGS.entries()) {
  const label = backend === 'cpu' ? '' : inPlace ? ', in place' : ', copying (inPlace: false)';
  describe(`tfjs scatters on ${backend}${label}`, () => {
    before(async () => {
      unregisterKernels(tf);
      await registerKernels(tf, opts);
      await tf.setBackend(backend);
    });

    for (const bug of BUGS) {
      test(`(a) ${bug.name}`, async () => {
        const n = calls(backend, bug.kernel);
        assert.deepEqual(outcome(bug.call), bug.ours, 'the adapter');
        assert.equal(calls(backend, bug.kernel), n + 1, 'served by the adapter');
        assert.deepEqual(await stock(() => outcome(bug.call), opts), bug.stock[backend], 'stock tfjs');
        assert.equal(calls(backend, bug.kernel), n + 1, 'stock ran without the adapter');
      });
    }

    test('(a) scatterND: [2, 0] into [2, 3] is an error (stock wasm writes past the end of its output)', async () => {
      // The flat offset 6 is past the end. Stock cpu throws; stock tfjs-backend-wasm's ScatterNd
      // checks nothing and adds 7 to the float32 just past its output, in tfjs's heap (there, the
      // header of the next block of its malloc, which later calls then crash on). To show it
      // and go on, the 4 bytes after the output are saved as its C++ gets the output, read when
      // it returns, and put back.
      const error = { error: 'Invalid indices: 2,0 does not index into 2,3' };
      let spy = null;
      const call = () => {
        const y = tf.scatterND(tf.tensor2d([2, 0], [1, 2], 'int32'), tf.tensor1d([7]), [2, 3]);
        if (spy?.at) {
          const heap = tf.engine().backend.wasm.HEAPU8;
          spy.past = heap.slice(spy.at, spy.at + 4);
          heap.set(spy.saved, spy.at);
        }
        return y;
      };
      assert.deepEqual(outcome(call), error);
      if (backend === 'cpu') {
        assert.deepEqual(await stock(() => outcome(call), opts), error);
        return;
      }
      const b = tf.engine().backend;
      spy = {};
      const got = await stock(() => {
        b.makeOutput = function spiedMakeOutput(shape, dtype, ...rest) {
          const out = Object.getPrototypeOf(this).makeOutput.call(this, shape, dtype, ...rest);
          spy.at = this.dataIdMap.get(out.dataId).memoryOffset + size(shape) * 4;
          spy.saved = this.wasm.HEAPU8.slice(spy.at, spy.at + 4);
          return out;
        };
        try {
          return outcome(call);
        } finally {
          delete b.makeOutput; // the prototype's again
        }
      }, opts);
      assert.deepEqual(got, value('float32', [2, 3], [0, 0, 0, 0, 0, 0]), 'stock wasm: nothing in the output');
      const f32 = (bytes) => new Float32Array(bytes.buffer)[0];
      assert.equal(f32(spy.past), Math.fround(f32(spy.saved) + 7), 'stock wasm: 7 added past the end');
    });

    test('(a) unsortedSegmentSum: one output whatever numSegments (stock cpu: a pass and tensors per segment)', async () => {
      // The tensors a call writes into the backend (backend.write: cpu's makeTensorInfo and
      // wasm's makeOutput both call it): the adapter's output alone; stock cpu's masked sum,
      // four a segment (tfjs-backend-cpu's UnsortedSegmentSum.js), then their stack.
      const numSegments = 300;
      const writes = (f) => tf.tidy(() => {
        const x = tf.tensor1d([1, 2, 3, 4]);
        const ids = tf.tensor1d([0, 299, 7, 0], 'int32');
        const b = tf.engine().backend;
        let n = 0;
        const write = b.write;
        b.write = function countedWrite(...args) { n++; return write.apply(this, args); };
        try {
          const y = f(x, ids);
          assert.deepEqual(Array.from(y.dataSync().subarray(0, 8)), [5, 0, 0, 0, 0, 0, 0, 3]);
        } finally {
          delete b.write; // the prototype's again
        }
        return n;
      });
      const sum = (x, ids) => tf.unsortedSegmentSum(x, ids, numSegments);
      assert.equal(writes(sum), 1, 'the adapter: the output only');
      if (backend === 'cpu') assert.equal(await stock(() => writes(sum), opts), 4 * numSegments + 1, 'stock cpu');
      else await assert.rejects(stock(async () => writes(sum), opts), { message: NOT_ON_WASM });
    });

    test('(a) index tuples of length 0 (indices [n, 0]): each update is the whole tensor', async () => {
      // ONNX ScatterND's reading (an empty tuple addresses the whole tensor), the library's and
      // common/reference-scatter.mjs's. Stock tfjs applies no update at all (its calculateShapes
      // counts indices.size / 1 = 0 of them), and none of tfjs-core's specs holds such indices.
      // TensorFlow's current kernel refuses them (tensorflow/core/kernels/scatter_nd_op.cc: the
      // case indices.shape[-1] == 0 is disabled there).
      const sn = () => tf.scatterND(tf.zeros([2, 0], 'int32'), tf.tensor2d([1, 2, 3, 10, 20, 30], [2, 3]), [3]);
      const tsu = () => tf.tensorScatterUpdate(tf.tensor1d([5, 6, 7]), tf.zeros([2, 0], 'int32'), tf.tensor2d([1, 2, 3, 10, 20, 30], [2, 3]));
      assert.deepEqual(outcome(sn), value('float32', [3], [11, 22, 33]), 'summed');
      assert.deepEqual(outcome(tsu), value('float32', [3], [10, 20, 30]), 'the last one wins');
      assert.deepEqual(await stock(() => [outcome(sn), outcome(tsu)], opts),
        [value('float32', [3], [0, 0, 0]), value('float32', [3], [5, 6, 7])], 'stock tfjs writes nothing');
    });

    // (b) seeded random cases against the reference (their makers below)
    for (const [o, { op, kernel, dtypes, make, features }] of RANDOM.entries()) {
      for (const [d, dtype] of dtypes.entries()) {
        test(`(b) seeded random tf.${op}, ${dtype}, against the reference, bit for bit`, (t) => {
          const rng = new Rng(0x5ca7 + 1009 * o + 101 * d + 7 * c);
          const n0 = calls(backend, kernel), inPlace0 = kernelStats().inPlace;
          const seen = Object.fromEntries(features.map((f) => [f, 0]));
          const N = 150;
          for (let i = 0; i < N; i++) {
            const k = make(rng, dtype);
            for (const f of k.features) seen[f]++;
            tf.tidy(() => {
              // copies: tfjs keeps the very array it is given, and the inputs are checked after
              const inputs = k.inputs.map((x) => tf.tensor(x.data.slice(), x.shape, x.dtype));
              const y = k.call(...inputs);
              const what = `tf.${op} #${i}: ${k.name}`;
              assert.equal(y.dtype, dtype, what);
              assert.deepEqual(y.shape, k.want.shape, what);
              const got = y.dataSync();
              const at = firstDifference(got, k.want.data, dtype, k.reduce);
              assert.equal(at, -1, `${what}: element ${at} is ${got[at]}, the reference's ${k.want.data[at]}`);
              inputs.forEach((x, j) => assert.equal(firstDifference(x.dataSync(), k.inputs[j].data, x.dtype), -1, `${what}: input ${j} as it was`));
            });
          }
          t.diagnostic(`${N} cases: ${JSON.stringify(seen)}`);
          for (const f of features) assert.ok(seen[f] >= 3, `only ${seen[f]} cases with ${f}`);
          assert.equal(calls(backend, kernel), n0 + N, 'every call served by the adapter');
          assert.equal(kernelStats().inPlace - inPlace0, inPlace ? N : 0, "on wasm by default, in tfjs's memory");
        });
      }
    }

    test('(b) large calls against the reference: long rows, and short rows repeated many times', () => {
      // Sizes where the library splits the work (over its threads on cpu) and sorts repeated
      // destinations, which the small cases above never reach.
      const rng = new Rng(0xb16 + c);
      for (const [rows, width, n] of [[4096, 64, 2000], [1000, 3, 50000]]) {
        const shape = [rows, width];
        const idx = Int32Array.from({ length: n }, () => rng.int(0, rows - 1));
        const upd = values(rng, 'float32', n * width);
        const data = values(rng, 'float32', rows * width);
        const zeros = { data: new Float32Array(rows * width), shape };
        const at = { data: idx, shape: [n, 1] }, u = { data: upd, shape: [n, width] };
        const want = {
          scatterND: refScatterND(zeros, at, u, { reduce: 'add' }).data,
          tensorScatterUpdate: refScatterND({ data, shape }, at, u).data,
          unsortedSegmentSum: refIndexReduce(zeros, 0, { data: idx, shape: [n] }, u, { reduce: 'add' }).data,
        };
        tf.tidy(() => {
          const i = tf.tensor2d(idx, [n, 1], 'int32'), ut = tf.tensor2d(upd, [n, width]);
          const got = {
            scatterND: tf.scatterND(i, ut, shape),
            tensorScatterUpdate: tf.tensorScatterUpdate(tf.tensor2d(data, shape), i, ut),
            unsortedSegmentSum: tf.unsortedSegmentSum(ut, tf.tensor1d(idx, 'int32'), rows),
          };
          for (const op in got) {
            const d = firstDifference(got[op].dataSync(), want[op], 'float32', op === 'tensorScatterUpdate' ? 'none' : 'add');
            assert.equal(d, -1, `tf.${op} of ${n} rows of ${width} into ${rows}: element ${d}`);
          }
        });
      }
    });

    test('(c) gather gradient: tf.grad of sum(gather(table, ids, axis)) and of a weighted sum, rows used twice summed', () => {
      // By hand first: d/dtable sum(gather(table, [1, 3, 1])) for a [4, 2] table counts each row's uses.
      const first = tf.tidy(() => Array.from(tf.grad((x) => tf.sum(tf.gather(x, tf.tensor1d([1, 3, 1], 'int32'))))(tf.zeros([4, 2])).dataSync()));
      assert.deepEqual(first, [0, 0, 2, 2, 0, 0, 1, 1]);
      for (const { shape, axis, ids, idsShape } of GRADIENTS) {
        const outShape = [...shape.slice(0, axis), ...idsShape, ...shape.slice(axis + 1)];
        const w = Float32Array.from({ length: size(outShape) }, (_, i) => (((i * 5) % 9) - 4) / 4); // quarters: every sum exact
        const n0 = calls(backend, 'UnsortedSegmentSum'), g0 = calls(backend, 'GatherV2');
        const [plain, weighted] = tf.tidy(() => {
          const table = tf.zeros(shape); // the gradient does not depend on the table's values
          const i = tf.tensor(ids, idsShape, 'int32');
          const wt = tf.tensor(w, outShape);
          return [
            tf.grad((x) => tf.sum(tf.gather(x, i, axis)))(table),
            tf.grad((x) => tf.sum(tf.mul(tf.gather(x, i, axis), wt)))(table),
          ].map((g) => value(g.dtype, g.shape, Array.from(g.dataSync())));
        });
        const what = `table [${shape}], ids ${JSON.stringify(ids)} [${idsShape}], axis ${axis}`;
        assert.deepEqual(plain, value('float32', shape, gatherGradient(shape, axis, ids, null)), what);
        assert.deepEqual(weighted, value('float32', shape, gatherGradient(shape, axis, ids, w)), `${what}, weighted`);
        assert.equal(calls(backend, 'UnsortedSegmentSum'), n0 + 2, `${what}: the gradients' segment sums served by the adapter`);
        assert.equal(calls(backend, 'GatherV2'), g0 + 2, `${what}: the gathers too`);
      }
    });

    test(`(d) nothing leaks: tf.memory(), the data ids and wasm-gather's heap, after calls and after errors`, () => {
      const b = tf.engine().backend;
      const base = { tensors: tf.memory().numTensors, ids: b.numDataIds(), heap: heapStats().heapInUse };
      for (let n = 0; n < 3; n++) {
        tf.tidy(() => {
          const idx = tf.tensor2d([0, 1, 2, 1, 0, 1], [3, 2], 'int32'); // [0, 1] twice
          tf.scatterND(idx, tf.ones([3, 64]), [4, 2, 64]).dataSync();
          tf.tensorScatterUpdate(tf.zeros([4, 2, 64]), idx, tf.ones([3, 64])).dataSync();
          const ids = tf.tensor1d(Int32Array.from({ length: 1000 }, (_, i) => ((i * 7) % 13) - 1), 'int32'); // some dropped
          tf.unsortedSegmentSum(tf.ones([1000, 16]), ids, 10).dataSync();
          tf.grad((x) => tf.sum(tf.gather(x, tf.tensor1d([3, 3, 1], 'int32'))))(tf.ones([4, 8])).dataSync();
        });
      }
      // A failing call frees what it made (on wasm, the output made before the indices are checked).
      tf.tidy(() => {
        assert.throws(() => tf.scatterND(tf.tensor2d([0, 5], [1, 2], 'int32'), tf.ones([1, 64]), [2, 3, 64]),
          { message: 'Invalid indices: 0,5 does not index into 2,3,64' });
        assert.throws(() => tf.tensorScatterUpdate(tf.zeros([2, 3]), tf.tensor2d([1, 9], [2, 1], 'int32'), tf.ones([2, 3])),
          { message: 'Invalid indices: 9 does not index into 2,3' });
        // ids that are not a prefix of x's shape: wasm-gather's shape error (tfjs-core checks nothing)
        assert.throws(() => tf.unsortedSegmentSum(tf.ones([3]), tf.tensor1d([0, 1], 'int32'), 2), { message: /^indexReduce: source\.shape/ });
        // tfjs-core checks only that numSegments is an integer (on cpu a negative one leaked the
        // block allocated for the zeros, whose array then could not be made)
        assert.throws(() => tf.unsortedSegmentSum(tf.ones([2]), tf.tensor1d([0, 0], 'int32'), -1),
          { message: 'UnsortedSegmentSum: numSegments must not be negative, got -1' });
      });
      assert.equal(tf.memory().numTensors, base.tensors, 'tensors');
      assert.equal(b.numDataIds(), base.ids, "the backend's data ids");
      assert.equal(heapStats().heapInUse, base.heap, "wasm-gather's heap");
    });
  });
}

test("(e) unregisterKernels puts back exactly the kernels there before: on wasm, no UnsortedSegmentSum again", async () => {
  await registerKernels(tf);
  for (const [key, original] of originals) {
    const [b, k] = key.split('/');
    assert.notEqual(tf.getKernel(k, b), original, `${key} is the adapter's`);
  }
  assert.equal(unregisterKernels(tf).length, BACKENDS.length * KERNELS.length);
  for (const [key, original] of originals) {
    const [b, k] = key.split('/');
    assert.equal(tf.getKernel(k, b), original, `${key} is tfjs's again`);
  }
  assert.equal(originals.get('wasm/UnsortedSegmentSum'), undefined, 'tfjs-backend-wasm has none');
  const before = kernelStats().calls;
  await tf.setBackend('wasm');
  const segmentSum = () => tf.unsortedSegmentSum(tf.tensor1d([1, 2, 3], 'int32'), tf.tensor1d([1, 0, 1], 'int32'), 2);
  assert.deepEqual(outcome(segmentSum), { error: NOT_ON_WASM });
  assert.deepEqual(outcome(() => tf.grad((x) => tf.sum(tf.gather(x, tf.tensor1d([0], 'int32'))))(tf.ones([2, 2]))), { error: NOT_ON_WASM },
    "gather's gradient fails on wasm without the adapter");
  assert.deepEqual(outcome(() => tf.scatterND(tf.tensor1d([1], 'int32'), tf.tensor1d([5]), [2])), value('float32', [2], [0, 5]));
  await tf.setBackend('cpu');
  assert.deepEqual(outcome(segmentSum), value('float32', [2], [2, 4]), "stock cpu's (float32 for int32)");
  assert.deepEqual(kernelStats().calls, before, 'nothing served by the adapter');
  // and once more
  await registerKernels(tf);
  await tf.setBackend('wasm');
  assert.deepEqual(outcome(segmentSum), value('int32', [2], [2, 4]));
  unregisterKernels(tf);
  assert.equal(tf.getKernel('UnsortedSegmentSum', 'wasm'), undefined);
  assert.deepEqual(outcome(segmentSum), { error: NOT_ON_WASM });
});

test("(e) after wasm-gather's dispose(), UnsortedSegmentSum on wasm says it was disposed and tfjs has none; init() serves it again", async () => {
  await registerKernels(tf);
  try {
    await tf.setBackend('wasm');
    const segmentSum = (dtype) => () => tf.unsortedSegmentSum(tf.tensor1d([1, 2, 3], dtype), tf.tensor1d([1, 0, 1], 'int32'), 2);
    assert.deepEqual(outcome(segmentSum('float32')), value('float32', [2], [2, 4]));
    dispose();
    const fallbacks = kernelStats().fallbacks['wasm/UnsortedSegmentSum'] ?? 0;
    const disposed = "UnsortedSegmentSum: wasm-gather was disposed (dispose()), and tfjs's wasm backend has no " +
      'UnsortedSegmentSum kernel of its own; call init() or registerKernels(tf) again';
    for (const dtype of ['float32', 'int32']) assert.deepEqual(outcome(segmentSum(dtype)), { error: disposed }, dtype);
    assert.deepEqual(outcome(() => tf.grad((x) => tf.sum(tf.gather(x, tf.tensor1d([0], 'int32'))))(tf.ones([2, 2]))), { error: disposed },
      "gather's gradient, the same");
    assert.equal(kernelStats().fallbacks['wasm/UnsortedSegmentSum'], fallbacks + 3);
    // The other kernels go to tfjs's own, which the wasm backend has.
    assert.deepEqual(outcome(() => tf.scatterND(tf.tensor1d([1], 'int32'), tf.tensor1d([5]), [2])), value('float32', [2], [0, 5]));
    await tf.setBackend('cpu');
    assert.deepEqual(outcome(segmentSum('int32')), value('float32', [2], [2, 4]), "stock cpu's (float32 for int32)");
    await init();
    await tf.setBackend('wasm');
    const served = calls('wasm', 'UnsortedSegmentSum');
    assert.deepEqual(outcome(segmentSum('float32')), value('float32', [2], [2, 4]), 'served again after init()');
    assert.equal(calls('wasm', 'UnsortedSegmentSum'), served + 1);
  } finally {
    unregisterKernels(tf);
  }
});

// ---------------------------------------------------------------------------------------------
// (b)'s cases: { name, features, inputs: [{ data, shape, dtype }] (tensors made of copies),
// call(...tensors), want (the reference's result), reduce (how firstDifference treats NaNs) }.

// Values: floats mostly quarters (exact sums), sometimes any mantissa (sums round: the order of
// the updates shows) or NaN, ±0, ±Infinity; int32 small, sometimes near its ends (sums wrap);
// bool 0 or 1.
function values(rng, dtype, n) {
  const a = new ARRAY[dtype](n);
  for (let i = 0; i < n; i++) {
    if (dtype === 'bool') a[i] = rng.int(0, 1);
    else if (dtype === 'int32') a[i] = rng.chance(0.1) ? rng.pick([-(2 ** 31), 2 ** 31 - 2, 2 ** 31 - 1]) : rng.int(-6, 6);
    else if (rng.chance(0.04)) a[i] = rng.pick([NaN, 0, -0, Infinity, -Infinity]);
    else a[i] = rng.chance(0.25) ? (rng.next() - 0.5) * 2 ** rng.int(-3, 6) : rng.int(-8, 8) / 4;
  }
  return a;
}
// Dims of 1 to top, sometimes 0.
const dims = (rng, rank, top = 4) => Array.from({ length: rank }, () => (rng.chance(0.07) ? 0 : rng.int(1, top)));

// A scatter's shapes and indices: data of rank 1-4, tuples of K = 0..rank components (rank-1
// indices: n tuples of one, as tfjs reads them), in range, often repeated.
function scatterShapes(rng) {
  const shape = dims(rng, rng.int(1, 4));
  const rank1 = rng.chance(0.25);
  const K = rank1 ? 1 : rng.int(rng.chance(0.2) ? 0 : 1, shape.length);
  const rows = rank1 ? [rng.int(0, 6)] : dims(rng, rng.int(1, 2), 6);
  if (shape.slice(0, K).includes(0)) rows[0] = 0; // no tuple indexes an empty dimension
  const n = size(rows);
  const idx = new Int32Array(n * K);
  for (let t = 0; t < n; t++) {
    if (t > 0 && rng.chance(0.3)) idx.copyWithin(t * K, rng.int(0, t - 1) * K, rng.int(0, t - 1) * K + K);
    else for (let j = 0; j < K; j++) idx[t * K + j] = rng.int(0, shape[j] - 1);
  }
  const tuples = Array.from({ length: n }, (_, t) => idx.subarray(t * K, t * K + K).join());
  const features = [rank1 && 'rank-1 indices', K === 0 && 'K = 0', new Set(tuples).size < n && 'a repeated tuple',
    (n === 0 || size(shape) === 0) && 'empty'].filter(Boolean);
  const updShape = [...rows, ...shape.slice(K)];
  const name = `shape [${shape}] indices [${rank1 ? rows : [...rows, K]}] updates [${updShape}]`;
  return { shape, idx, iShape: rank1 ? rows : [...rows, K], tupleShape: [...rows, K], updShape, features, name };
}

function scatterNDCase(rng, dtype) {
  const s = scatterShapes(rng);
  const upd = values(rng, dtype, size(s.updShape));
  const want = refScatterND({ data: new ARRAY[dtype](size(s.shape)), shape: s.shape }, { data: s.idx, shape: s.tupleShape },
    { data: upd, shape: s.updShape }, { reduce: 'add' });
  return {
    name: s.name, features: s.features, reduce: 'add', want, call: (i, u) => tf.scatterND(i, u, s.shape),
    inputs: [{ data: s.idx, shape: s.iShape, dtype: 'int32' }, { data: upd, shape: s.updShape, dtype }],
  };
}

function tensorScatterUpdateCase(rng, dtype) {
  const s = scatterShapes(rng);
  const data = values(rng, dtype, size(s.shape));
  const upd = values(rng, dtype, size(s.updShape));
  const want = refScatterND({ data, shape: s.shape }, { data: s.idx, shape: s.tupleShape }, { data: upd, shape: s.updShape });
  return {
    name: s.name, features: s.features, reduce: 'none', want, call: (x, i, u) => tf.tensorScatterUpdate(x, i, u),
    inputs: [{ data, shape: s.shape, dtype }, { data: s.idx, shape: s.iShape, dtype: 'int32' }, { data: upd, shape: s.updShape, dtype }],
  };
}

// Ids of rank 0-2 (x: ids.shape + rows of rank 0-2), numSegments 0-5, ids from -2 to
// numSegments + 1: the ones out of [0, numSegments) dropped.
function unsortedSegmentSumCase(rng, dtype) {
  const idsShape = dims(rng, rng.pick([0, 1, 1, 1, 2]), 6);
  const inner = dims(rng, rng.int(0, 2));
  const numSegments = rng.int(0, 5);
  const ids = Int32Array.from({ length: size(idsShape) }, () => rng.int(-2, numSegments + 1));
  const xShape = [...idsShape, ...inner];
  const x = values(rng, dtype, size(xShape));
  const outShape = [numSegments, ...inner];
  const want = refIndexReduce({ data: new ARRAY[dtype](size(outShape)), shape: outShape }, 0, { data: ids, shape: idsShape },
    { data: x, shape: xShape }, { reduce: 'add', outOfRange: 'drop', negativeIndices: 'error' });
  const features = [idsShape.length === 0 && 'ids of rank 0', idsShape.length === 2 && 'ids of rank 2',
    ids.some((v) => v < 0) && 'a negative id', ids.some((v) => v >= numSegments) && 'an id >= numSegments',
    new Set(ids).size < ids.length && 'a repeated id', (ids.length === 0 || size(outShape) === 0) && 'empty'].filter(Boolean);
  return {
    name: `x [${xShape}] ids [${idsShape}] ${JSON.stringify(Array.from(ids))} numSegments ${numSegments}`, features, reduce: 'add', want,
    call: (t, i) => tf.unsortedSegmentSum(t, i, numSegments),
    inputs: [{ data: x, shape: xShape, dtype }, { data: ids, shape: idsShape, dtype: 'int32' }],
  };
}

// (c)'s cases, and their gradient by hand: every element gather reads adds its weight (1 without
// w) to the table element it came from, so a row used twice gets both.
const GRADIENTS = [
  { shape: [5, 3], axis: 0, ids: [1, 3, 1, 0, 1], idsShape: [5] },
  { shape: [5, 3], axis: 0, ids: [4, 4, 0, 2, 4, 4], idsShape: [2, 3] },
  { shape: [2, 5], axis: 1, ids: [3, 3, 0, 4], idsShape: [4] },
  { shape: [2, 4, 3], axis: 1, ids: [2, 0, 2], idsShape: [3] },
];
function gatherGradient(shape, axis, ids, w) {
  const outer = size(shape.slice(0, axis)), rows = shape[axis], inner = size(shape.slice(axis + 1)), n = ids.length;
  const g = new Array(size(shape)).fill(0);
  for (let o = 0; o < outer; o++) {
    for (let j = 0; j < n; j++) {
      for (let k = 0; k < inner; k++) g[(o * rows + ids[j]) * inner + k] += w ? w[(o * n + j) * inner + k] : 1;
    }
  }
  return g;
}
