// nonZero (ONNX NonZero, torch.nonzero, tf.where) against common/reference-mask.mjs, bit for bit,
// through tests/lib/mask-suite.mjs: seeded random cases (every array type, float16 and bfloat16
// bits by opts.dtype, both layouts and index types, ranks 0 to 6, a million elements) in both
// builds at 1, 2 and 4 threads; PyTorch 1.13's fixtures (a rank-0 x in the onnx layout gives
// onnxruntime-web's [1, nnz], not torch's transposed [0, nnz]); resident tensors, opts.out,
// prepare() refused; its errors; onnxruntime-web's NonZero live; a sparse mask whose largest
// output would not fit in wasm memory.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import api from '../lib/tested-api.mjs'; // js/index.mjs, or WG_TEST_API
import { maskErrorSuite, maskOrtSuite, maskSuite } from '../lib/mask-suite.mjs';

maskSuite('nonZero');
maskErrorSuite('nonZero');
maskOrtSuite('nonZero');

// A sparse mask whose largest output ([n, 8] int64 coordinates of 2^26 elements: 4 GiB) is more
// than wasm32 can address: until counted, the output's shape is that largest one, and the count
// decides what the output needs (src/runner.c), one-shot and resident alike; a dense one is
// refused by the size of its true output, and the next call works.
test('nonZero of a large sparse mask: sized by its count, not by the most it could hold', async () => {
  const n = 1 << 26, shape = [n, 1, 1, 1, 1, 1, 1, 1], opts = { indexType: 'int64', layout: 'torch' };
  const mask = new Uint8Array(n);
  mask[5] = 1;
  mask[n - 1] = 1;
  const want = [5n, 0n, 0n, 0n, 0n, 0n, 0n, 0n, BigInt(n - 1), 0n, 0n, 0n, 0n, 0n, 0n, 0n];
  await api.init({ variant: 'simd-threaded', threads: 2 });
  try {
    const got = api.nonZero({ data: mask, shape }, opts);
    assert.deepEqual(got.shape, [2, 8]);
    assert.deepEqual([...got.data], want);
    const m = api.upload({ data: mask, shape });
    const r = api.nonZero(m, { ...opts, resident: true });
    assert.deepEqual([...r.read()], want);
    r.dispose();
    m.dispose();
    mask.fill(1);
    assert.throws(() => api.nonZero({ data: mask, shape }, opts), /^RangeError: nonZero: the output \[67108864, 8\] needs 4294967296 bytes/);
    assert.deepEqual(api.nonZero({ data: new Uint8Array([0, 1]), shape: [2] }).data, new Int32Array([1]));
  } finally {
    api.dispose();
  }
});
