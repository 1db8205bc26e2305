// embeddingBag: seeded random calls against common/reference-bag.mjs in both builds and at 1, 2
// and 4 threads (tests/lib/bag-suite.mjs), and PyTorch 1.13's own results, bit for bit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bagSuite, torchFixtureSuite } from '../lib/bag-suite.mjs';
import { badInputSuite } from '../lib/bad-inputs.mjs';
import { dispose, embeddingBag, heapStats, init, prepare, upload } from '../lib/tested-api.mjs';
import { embeddingBag as refBag } from '../../common/reference-bag.mjs';
import { refGatherBlockQuantized } from '../../common/reference-quantized.mjs';
import { Rng } from '../lib/rng.mjs';

bagSuite('embeddingBag');
torchFixtureSuite('embeddingBag', 70);

// Hostile or malformed arguments (the bad-input table, tests/lib/bad-inputs-bag.mjs).
badInputSuite('embeddingBag');

test('a prepared embeddingBag reads its ids and offsets at each run, and checks them each time', async () => {
  await init();
  try {
    const weight = upload({ data: Float32Array.from({ length: 20 }, (_, i) => i), shape: [10, 2] }); // row r: [2r, 2r + 1]
    const ids = Int32Array.of(1, 2, 3, 4), offsets = Int32Array.of(0, 2), out = new Float32Array(4);
    const heap = heapStats().heapInUse;
    const p = prepare(embeddingBag, weight, { data: ids, shape: [4] }, { offsets, mode: 'sum', out });
    assert.deepEqual(Array.from(p.run().data), [6, 8, 14, 16]); // rows 1 + 2, 3 + 4
    ids.set([9, 9, 0, 0]);
    assert.deepEqual(Array.from(p.run().data), [36, 38, 0, 2]);
    offsets[1] = 5;
    assert.throws(() => p.run(), /^RangeError: embeddingBag: opts\.offsets\[1\] = 5 is past the end of the entries \(4\)/);
    offsets[1] = 1; // bags {9}, {9, 0, 0}
    assert.deepEqual(Array.from(p.run().data), [18, 19, 18, 21]);
    p.dispose();
    assert.throws(() => prepare(embeddingBag, weight, { data: ids, shape: [4] }, { offsets, mode: 'max', returnIndices: true }),
      /cannot be prepared/);
    assert.equal(heapStats().heapInUse, heap);
    weight.dispose();
  } finally {
    dispose();
  }
});

// The sums of a block-quantized table's rows as they are dequantized (src/dequant_kernels.c,
// wg_dequant_sum_*), against the reference's rows dequantized first, bit for bit: every kind of
// codes, with and without zero points, blocks of 16 (for 4-bit codes the dequantize-first path), 32 and
// more (16 bytes a step), 512 (a chunk of 256 columns starting inside a block), rows whose last
// block is short (the loops' tails), scales that are zero, subnormal, infinite or NaN, and bags
// with a row of zeros (outOfRange 'zero': the group dequantized first instead).
test('embeddingBag over a quantized table: its sum kernels, every kind of codes, block and tail', async () => {
  const KINDS = [['uint8', 2], ['uint8', 4], ['uint8', 8], ['uint4', 4], ['int4', 4]];
  const SHAPES = [[16, 16], [32, 48], [32, 128], [64, 128], [128, 384], [512, 544], [16, 40]];
  for (const variant of ['simd', 'simd-threaded']) {
    await init({ variant, threads: 1 });
    try {
      const heap = heapStats().heapInUse;
      const rng = new Rng(8008);
      let calls = 0;
      for (const [quantType, bits] of KINDS) {
        for (const [blockSize, dim] of SHAPES) {
          for (const zp of [false, true]) {
            const rows = 9, per = quantType === 'uint8' ? 8 / bits : 1, nblk = Math.ceil(dim / blockSize);
            const stored = quantType === 'uint8' ? [rows, dim / per] : [rows, dim];
            const codes = Uint8Array.from({ length: quantType === 'uint8' ? rows * dim / per : Math.ceil(rows * dim / 2) }, () => rng.int(0, 255));
            const special = [0, -0, 1e-40, -3e-39, Infinity, NaN];
            const scales = { data: Float32Array.from({ length: rows * nblk }, () => (rng.chance(0.08) ? rng.pick(special) : (rng.next() - 0.5) * 2 ** rng.int(-20, 20))), shape: [rows, nblk] };
            const opts = { quantType, bits, blockSize, scales };
            if (zp) {
              const zpRow = quantType === 'uint8' ? Math.ceil(nblk / per) : nblk;
              opts.zeroPoints = { data: Uint8Array.from({ length: quantType === 'uint8' ? rows * zpRow : Math.ceil(rows * nblk / 2) }, () => rng.int(0, 255)), shape: [rows, zpRow] };
            }
            const weight = { data: codes, shape: stored };
            const table = refGatherBlockQuantized(weight, { data: Int32Array.from({ length: rows }, (_, i) => i), shape: [rows] }, scales, opts);
            for (const mode of ['sum', 'mean', 'sqrtn']) {
              for (const outOfRange of ['error', 'zero']) {
                const ids = Int32Array.from({ length: 40 }, () => (outOfRange === 'zero' && rng.chance(0.1) ? rows + 3 : rng.int(0, rows - 1)));
                const offsets = Int32Array.of(0, 3, 3, 11, 20, 21, 37); // empty, short, 8 and more
                const o = { mode, offsets, outOfRange };
                const got = embeddingBag(weight, { data: ids, shape: [ids.length] }, { ...opts, ...o });
                const want = refBag(table, { data: ids, shape: [ids.length] }, { ...o, offsets: { data: offsets, shape: [offsets.length] } });
                const name = `${variant} ${quantType} bits ${bits} block ${blockSize} dim ${dim}${zp ? ' zero points' : ''} ${mode} ${outOfRange}`;
                assert.deepEqual(got.shape, want.shape, name);
                for (let k = 0; k < want.data.length; k++) {
                  const a = got.data[k], b = want.data[k];
                  if (!(Object.is(a, b) || (Number.isNaN(a) && Number.isNaN(b)))) assert.fail(`${name}: element ${k}: ${a}, want ${b}`);
                }
                calls++;
              }
            }
          }
        }
      }
      assert.equal(calls, 2 * KINDS.length * SHAPES.length * 6);
      assert.equal(heapStats().heapInUse, heap, 'wasm heap not restored');
    } finally {
      dispose();
    }
  }
});
