// gatherBlockQuantized (ONNX GatherBlockQuantized), everything about the op in one place:
// - the reference (common/reference-quantized.mjs) against onnxruntime-web's default wasm build,
//   bit for bit, on seeded random cases, and as asserted facts what onnxruntime-web 1.30 refuses
//   or does differently (docs/gather-block-quantized.md), and the reference's own rules;
// - the library against the reference, bit for bit, on seeded random cases (tests/lib/quantized-random.mjs),
//   large tables, edge cases and resident tensors, in both variants at 1, 2 and 4 threads;
// - the library against onnxruntime-web, bit for bit, on cases it accepts (tests/lib/quantized-cases.mjs);
// - float16 and bfloat16 rounding in wasm SIMD (src/dequant_kernels.c: f16x4, bf16x4 and the
//   per-block tables of 2- and 4-bit codes) against the reference's plain rounding, on products of
//   every float32 exponent: overflow to Infinity, float16 subnormals or zero, ties, and NaN (a
//   quiet NaN, whose sign wasm leaves to the engine: compared sign aside). The native test
//   (tests/native/test_dequant.c) checks the scalar rounding on every float32; this checks the
//   vector one, which only runs in wasm;
// - every error it promises, and the bad-input rows of tests/lib/bad-inputs.mjs.
//
// WG_TEST_API=<module path> swaps the module under test (tests/lib/tested-api.mjs), so the suite runs
// against the ASan build too; WG_QUANTIZED_CASES sets the random cases per configuration.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { bytesOf, sameBytes } from '../../common/bytes.mjs';
import { refTake } from '../../common/reference.mjs';
import { f16ToF32, f32ToBf16, f32ToF16, refGatherBlockQuantized } from '../../common/reference-quantized.mjs';
import { describeCase, randomCase, reference, refOpts } from '../lib/quantized-cases.mjs';
import { INDEX_LIMITS } from '../lib/random-cases.mjs';
import { Rng, hashString } from '../lib/rng.mjs';
import api from '../lib/tested-api.mjs'; // js/index.mjs, or WG_TEST_API
import { runOrt, session } from '../lib/quantized-ort.mjs';
import {
  OP, gbq, LARGE, LARGE_RANDOM, allOf, expectSame, firstDifference, heapGrowth, idx, indexArray, largeCase, makeIndices, makeTable, opts8, runLargeCase, runOpCase, stats, table8,
} from '../lib/quantized-random.mjs';
import { describeErrors, expectError, i32 } from '../lib/expect-error.mjs';
import { badInputSuite } from '../lib/bad-inputs.mjs';

// ---------------------------------------------------------------------------------------------
// The reference against onnxruntime-web, and its own rules.

const REF_CASES = 48;

describe('GatherBlockQuantized: reference vs onnxruntime-web, bit for bit', () => {
  test(`${REF_CASES} seeded random cases, two index tensors each (one all negative)`, async () => {
    const seen = new Set();
    for (let i = 0; i < REF_CASES; i++) {
      const c = randomCase(i);
      seen.add(`${c.quantType}/${c.bits}/${c.scaleType}/${c.gatherAxis}/${!!c.zeroPoints}`);
      const s = await session(c);
      for (const indices of c.indexSets) {
        const want = reference(c, indices);
        const got = await runOrt(s, c, indices);
        assert.deepEqual(got.shape, want.shape, describeCase(c));
        assert.ok(sameBytes(bytesOf(got.data), bytesOf(want.data)), `case ${i}: ${describeCase(c)}, indices [${indices.data}]`);
      }
      await s.release();
    }
    assert.ok(seen.size >= 18, `variety: ${seen.size} combinations`);
  });

  test('float16 rounding at the edges: overflow to Inf, subnormals, ties, -0', async () => {
    // One row of 16 uint8 codes (bits 8) with zero point 128: q - zp from -128 to 127.
    const codes = Uint8Array.from([0, 1, 127, 128, 129, 255, 200, 3, 64, 192, 100, 156, 130, 126, 250, 5]);
    for (const scale of [0x7bff, 0x0001, 0x03ff, 0x3c01, 0x8400, 0x5bff, 0x1400]) {
      const c = {
        quantType: 'uint8', bits: 8, scaleType: 'float16', blockSize: 16, gatherAxis: 0, quantizeAxis: 1,
        data: { data: codes, shape: [1, 16] }, scales: { data: Uint16Array.of(scale), shape: [1, 1] }, indicesType: 'int32',
      };
      const indices = { data: Int32Array.of(0), shape: [1] };
      const s = await session(c);
      const got = await runOrt(s, c, indices);
      await s.release();
      assert.ok(sameBytes(bytesOf(got.data), bytesOf(reference(c, indices).data)), `scale bits 0x${scale.toString(16)}`);
    }
  });

  test('empty indices give an empty output of the right shape', async () => {
    const c = randomCase(1);
    const indices = { data: new Int32Array(0), shape: [2, 0] };
    const s = await session({ ...c, indicesType: 'int32' });
    const got = await runOrt(s, { ...c, indicesType: 'int32' }, indices);
    await s.release();
    const want = reference(c, indices);
    assert.deepEqual(got.shape, want.shape);
    assert.equal(want.data.length, 0);
  });
});

// ---------------------------------------------------------------------------------------------
// What onnxruntime-web 1.30 refuses, and what the reference defines there.

const small = (over = {}) => ({
  quantType: 'uint8', bits: 8, scaleType: 'float32', blockSize: 16, gatherAxis: 0, quantizeAxis: 1, indicesType: 'int32',
  data: { data: Uint8Array.from({ length: 48 }, (_, i) => i * 5), shape: [3, 16] },
  scales: { data: Float32Array.of(0.5, -2, 0.25), shape: [3, 1] },
  ...over,
});

async function ortRefuses(c, indices, pattern) {
  const attempt = async () => {
    const s = await session(c);
    try {
      await runOrt(s, c, indices);
    } finally {
      await s.release();
    }
  };
  await assert.rejects(attempt, pattern);
}

describe('GatherBlockQuantized: where onnxruntime-web 1.30 refuses or differs', () => {
  const idx = (...v) => ({ data: Int32Array.from(v), shape: [v.length] });

  test('out-of-range index: onnxruntime errors; the reference errors, zeros or clamps as asked', async () => {
    const c = small();
    await ortRefuses(c, idx(0, 3), /indices element out of data bounds, idx=3/);
    await ortRefuses(c, idx(-4), /out of data bounds, idx=-4/);
    assert.throws(() => reference(c, idx(0, 3)), /index 3 is out of range for a dimension of size 3/);
    const zero = reference(c, idx(3, 0), { outOfRange: 'zero' }).data;
    assert.ok(zero.subarray(0, 16).every((v) => Object.is(v, 0)));
    assert.deepEqual(zero.subarray(16), reference(c, idx(0)).data);
    assert.deepEqual(reference(c, idx(7, -9), { outOfRange: 'clamp' }).data, reference(c, idx(2, 0)).data);
  });

  test('uint8 with gather axis != 0: refused; the reference gathers the dequantized table', async () => {
    const c = small();
    await ortRefuses({ ...c, gatherAxis: 1 }, idx(0), /For uint8_t data, gather_axis must be 0/);
    const s = await session(c);
    const table = await runOrt(s, c, idx(0, 1, 2)); // the whole table, dequantized by onnxruntime
    await s.release();
    const cols = idx(5, -1, 0);
    assert.deepEqual(reference({ ...c, gatherAxis: 1 }, cols).data, refTake(table, cols, { axis: 1 }).data);
  });

  test('uint8 with the quantize axis not the last: refused by both', async () => {
    const c = small({ quantizeAxis: 0, scales: { data: Float32Array.of(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16), shape: [1, 16] } });
    await ortRefuses(c, idx(0), /quantize_axis must be the last dimension/);
    assert.throws(() => reference(c, idx(0)), /quantizeAxis 0 must be the last axis/);
  });

  test('bfloat16 scales: refused; the reference rounds the float32 product to bfloat16', async () => {
    const bf = Uint16Array.of(0x3f00, 0xc000, 0x3e80); // 0.5, -2, 0.25
    const c = small({ scaleType: 'bfloat16', scales: { data: bf, shape: [3, 1] } });
    await ortRefuses(c, idx(0), /GatherBlockQuantized|BFLOAT16|bfloat16|implementation/i);
    const f32 = reference(small(), idx(2, 0)).data;
    assert.deepEqual(reference(c, idx(2, 0)).data, Uint16Array.from(f32, f32ToBf16));
  });

  test('block size below 16 or not a power of 2, bits 3: refused by both', async () => {
    for (const [over, ortMsg, refMsg] of [
      [{ blockSize: 8, scales: { data: new Float32Array(6), shape: [3, 2] } }, /block_size.*power of 2/, /blockSize 8: a power of 2/],
      [{ blockSize: 24 }, /block_size.*power of 2/, /blockSize 24/],
      [{ bits: 3 }, /bits==2, 4, or 8/, /bad bits 3/],
    ]) {
      const c = small(over);
      await ortRefuses(c, idx(0), ortMsg);
      assert.throws(() => reference(c, idx(0)), refMsg);
    }
  });

  test('int4/uint4 need bits 4, as in onnxruntime', async () => {
    const c = small({ quantType: 'int4', data: { data: new Uint8Array(24), shape: [3, 16] } });
    await ortRefuses({ ...c, bits: 8 }, idx(0), /int4\/uint4 data only supports bits==4/);
    assert.throws(() => reference({ ...c, bits: 8 }, idx(0)), /bad bits 8: 4 for int4/);
  });
});

// ---------------------------------------------------------------------------------------------

describe('GatherBlockQuantized reference: rules and hand-checked values', () => {
  const idx = (...v) => ({ data: Int32Array.from(v), shape: [v.length] });

  test('packing: uint8 2 bits lowest first, int4 signed low nibble first, zero points per row', () => {
    // uint8 bits 2: byte 0b11_10_01_00 = codes 0,1,2,3; default zero point 2; scale 1.
    const d2 = new Uint8Array(4).fill(0b11100100);
    const r2 = refGatherBlockQuantized({ data: d2, shape: [1, 4] }, idx(0), { data: Float32Array.of(1), shape: [1, 1] }, { bits: 2, blockSize: 16 });
    assert.deepEqual([...r2.data.subarray(0, 4)], [-2, -1, 0, 1]);
    // int4 [2, 16]: byte 0x8f = codes -1 (low), -8 (high); zero points -1 for row 0, 7 for row 1.
    const d4 = new Uint8Array(16).fill(0x8f);
    const r4 = refGatherBlockQuantized({ data: d4, shape: [2, 16] }, idx(1, 0), { data: Float32Array.of(1, 1), shape: [2, 1] }, {
      quantType: 'int4', blockSize: 16, zeroPoints: { data: Uint8Array.of(0x7f), shape: [2, 1] },
    });
    assert.deepEqual([...r4.data.subarray(0, 2)], [-8, -15]);
    assert.deepEqual([...r4.data.subarray(16, 18)], [0, -7]);
    // uint8 bits 4 zero points: [2, 3] blocks -> [2, 2] bytes, each row padded to a byte.
    const zp = { data: Uint8Array.of(0x21, 0x03, 0x54, 0x06), shape: [2, 2] };
    const r = refGatherBlockQuantized({ data: new Uint8Array(2 * 24), shape: [2, 24] }, idx(1), { data: new Float32Array(6).fill(1), shape: [2, 3] }, { blockSize: 16, zeroPoints: zp });
    assert.deepEqual([0, 16, 32].map((i) => r.data[i]), [-4, -5, -6]);
    assert.equal(f16ToF32(0x0001), 2 ** -24);
  });

  test('every rule broken names its argument', () => {
    const ok = small();
    const bad = [
      [{ quantType: 'int2' }, /bad quantType int2/],
      [{ data: { data: new Uint8Array(47), shape: [3, 16] } }, /data.data has 47 elements/],
      [{ data: { data: new Int8Array(48), shape: [3, 16] } }, /data.data must be a Uint8Array/],
      [{ gatherAxis: 2 }, /gatherAxis 2 out of range/],
      [{ quantizeAxis: -3 }, /quantizeAxis -3 out of range/],
      [{ scales: { data: new Float32Array(3), shape: [3, 2] } }, /scales.shape is \[3,2\]/],
      [{ scales: { data: new Float32Array(3), shape: [3] } }, /scales.shape is \[3\]/],
      [{ scales: { data: new Float64Array(3), shape: [3, 1] } }, /scales.data must be/],
      [{ scaleType: 'bfloat16' }, /scaleType bfloat16 needs scales.data to be a Uint16Array/],
      [{ zeroPoints: { data: new Uint8Array(2), shape: [2, 1] } }, /zeroPoints.shape is \[2,1\]/],
      [{ zeroPoints: { data: new Uint8Array(2), shape: [3, 1] } }, /zeroPoints.data has 2 elements/],
      [{ data: { data: new Uint8Array(0), shape: [] } }, /data rank must be >= 1/],
    ];
    for (const [over, msg] of bad) {
      const c = { ...ok, ...over };
      assert.throws(() => refGatherBlockQuantized(c.data, idx(0), c.scales, refOpts(c, { scaleType: over.scaleType })), msg);
    }
    assert.throws(() => reference(ok, idx(0), { outOfRange: 'wrap' }), /bad outOfRange wrap/);
    assert.throws(() => reference(ok, { data: new Int32Array(2), shape: [3] }), /indices.data has 2 elements/);
  });
});

// ---------------------------------------------------------------------------------------------
// The library against the reference.

const CASES = Number(process.env.WG_QUANTIZED_CASES ?? 300);

const CONFIGS = [
  { variant: 'simd', threads: 1 },
  { variant: 'simd-threaded', threads: 1 },
  // parallelThreshold 0: every call, however small, is split over the pool.
  { variant: 'simd-threaded', threads: 2, parallelThreshold: 0 },
  { variant: 'simd-threaded', threads: 4, parallelThreshold: 0 },
  // the default threshold: small calls on the caller's thread, the large tables split
  { variant: 'simd-threaded', threads: 4 },
];
const cfgName = (c) => `${c.variant} threads=${c.threads}${c.parallelThreshold !== undefined ? ` parallelThreshold=${c.parallelThreshold}` : ''}`;

for (const cfg of CONFIGS) {
  const name = cfgName(cfg);
  describe(`${OP} vs reference: ${name}`, () => {
    before(async () => {
      const info = await api.init({ ...cfg });
      assert.equal(info.variant, cfg.variant);
      assert.equal(info.threads, cfg.threads);
    });
    after(() => api.dispose());

    test(`${CASES} seeded random cases, bit for bit`, (t) => {
      const before = { ...stats };
      const grown = heapGrowth(() => allOf(CASES, (n) => runOpCase(n, name)));
      // A little slack: the pool's threads make a few one-time allocations on first use.
      assert.ok(grown <= 1024, `wasm heap in use grew by ${grown} bytes over ${CASES} calls`);
      assert.ok(stats.resident - before.resident >= CASES / 2, 'resident cases');
      t.diagnostic(`${stats.cases - before.cases} cases, ${stats.errors - before.errors} expected errors, ${stats.resident - before.resident} with resident tensors`);
    });

    test(`large tables (${LARGE.length}: up to 5000 rows, 16+ codes a block, odd int4 rows, ${LARGE_RANDOM} random), bit for bit`, () => {
      const grown = heapGrowth(() => allOf(LARGE.length, (k) => runLargeCase(k, name)));
      assert.ok(grown <= 1024, `wasm heap in use grew by ${grown} bytes`);
    });

    test('a large call with bad indices reports the first one in row-major order, whatever the split', () => {
      const c = largeCase(5); // int4 [3001, 129]
      const data = new Int32Array(4000).map((_, i) => (i * 37) % 3001);
      data[3999] = 3001;
      data[2345] = -3002;
      const heap = api.heapStats().heapInUse;
      assert.throws(() => gbq(c.data, { data, shape: [4000] }, c.scales, { ...c.opts, outOfRange: undefined }), (e) => {
        assert.ok(e instanceof RangeError, `${e.name}: ${e.message}`);
        assert.match(e.message, /^gatherBlockQuantized: indices\[2345\] = -3002 is out of range for dimension 0 of data, which has size 3001/);
        return true;
      });
      assert.equal(api.heapStats().heapInUse, heap, 'heap after the error');
    });

    test('empty indices, rank-0 indices, empty tables', () => {
      const t = table8();
      const o = opts8(t);
      for (const indices of [{ data: new Int32Array(0), shape: [0] }, { data: [], shape: [2, 0] },
        { data: new BigInt64Array(0), shape: [0, 3] }, { data: Int32Array.of(-1), shape: [] }, { data: [2], shape: [] },
        { data: new Uint16Array([1]), shape: [] }]) {
        for (const outOfRange of ['error', 'zero', 'clamp']) {
          const want = refGatherBlockQuantized(t.data, indices, t.scales, { ...o, outOfRange });
          expectSame(gbq(t.data, indices, t.scales, { ...o, outOfRange }), want, `indices [${indices.shape}] ${outOfRange}`);
        }
      }
      assert.deepEqual(gbq(t.data, { data: [0], shape: [] }, t.scales, o).shape, [32]);
      assert.deepEqual(gbq(t.data, { data: [], shape: [0, 2] }, t.scales, o).shape, [0, 2, 32]);
      // A table with no rows: every index is out of range ('zero' and 'clamp' give zeros), none is fine.
      const empty = { data: new Uint8Array(0), shape: [0, 32] };
      const escales = { data: new Float32Array(0), shape: [0, 2] };
      const eo = { bits: 8, blockSize: 16 };
      expectSame(gbq(empty, idx(), escales, eo), refGatherBlockQuantized(empty, idx(), escales, eo), 'no rows, no indices');
      for (const outOfRange of ['zero', 'clamp']) {
        expectSame(gbq(empty, idx(0, -1, 5), escales, { ...eo, outOfRange }), refGatherBlockQuantized(empty, idx(0, -1, 5), escales, { ...eo, outOfRange }), outOfRange);
      }
      assert.throws(() => gbq(empty, idx(0), escales, eo), /^RangeError: gatherBlockQuantized: indices\[0\] = 0 is out of range for dimension 0 of data, which has size 0/);
    });

    test('every index array type, negative and out-of-range values, every outOfRange mode', () => {
      const t = table8(); // 3 rows
      const values = [2, 0, -1, -3, 1];
      const bad = [3, -4, 7];
      const types = ['Int32Array', 'Uint32Array', 'BigInt64Array', 'BigUint64Array', 'Int8Array', 'Int16Array', 'Uint8Array', 'Uint16Array', 'Array'];
      for (const type of types) {
        const signed = INDEX_LIMITS[type][0] < 0n;
        const vals = [...(signed ? values : values.filter((v) => v >= 0)), ...(signed ? bad : bad.filter((v) => v >= 0))].map(BigInt);
        const indices = { data: indexArray(vals, type), shape: [vals.length] };
        for (const outOfRange of ['zero', 'clamp']) {
          const o = opts8(t, { outOfRange });
          expectSame(gbq(t.data, indices, t.scales, o), refGatherBlockQuantized(t.data, indices, t.scales, o), `${type} ${outOfRange}`);
        }
        const firstBad = vals.findIndex((v) => v < -3n || v >= 3n);
        assert.throws(() => gbq(t.data, indices, t.scales, opts8(t)), (e) => e instanceof RangeError &&
          new RegExp(`^${OP}: indices\\[${firstBad}\\] = ${vals[firstBad]} is out of range for dimension 0 of data, which has size 3`).test(e.message), type);
        const good = { data: indexArray(vals.slice(0, firstBad), type), shape: [firstBad] };
        expectSame(gbq(t.data, good, t.scales, opts8(t)), refGatherBlockQuantized(t.data, good, t.scales, opts8(t)), `${type} in range`);
      }
      // a plain array of BigInts, and values 64-bit indices must not truncate
      const huge = { data: [1n, 2n ** 32n + 1n, -(2n ** 40n), 2n ** 64n - 1n], shape: [2, 2] };
      for (const outOfRange of ['zero', 'clamp']) {
        const o = opts8(t, { outOfRange });
        expectSame(gbq(t.data, huge, t.scales, o), refGatherBlockQuantized(t.data, huge, t.scales, o), `plain BigInts ${outOfRange}`);
      }
      assert.throws(() => gbq(t.data, { data: new BigUint64Array([0n, 2n ** 64n - 1n]), shape: [1, 2] }, t.scales, opts8(t)),
        /^RangeError: gatherBlockQuantized: indices\[0, 1\] = 18446744073709551615 is out of range/);
    });

    test('uint8 gathered along any axis (beyond onnxruntime): the dequantized table taken along it', () => {
      const R = new Rng(11);
      const shape = [3, 5, 64]; // logical; stored [3, 5, 32] at 4 bits
      const tbl = makeTable(R, { quantType: 'uint8', bits: 4, shape, blockSize: 16, quantizeAxis: 2, scaleType: 'bfloat16', withZp: true });
      const o = { blockSize: 16, scaleType: 'bfloat16', zeroPoints: tbl.zeroPoints };
      const whole = refGatherBlockQuantized(tbl.data, idx(0, 1, 2), tbl.scales, o); // the dequantized table
      for (const [gatherAxis, indices] of [[1, idx(4, -5, 2)], [2, { data: [63, -64, 31, 32, 0], shape: [5] }], [-1, { data: [17], shape: [] }], [-2, idx(0, 0)]]) {
        const got = gbq(tbl.data, indices, tbl.scales, { ...o, gatherAxis });
        expectSame(got, refTake(whole, indices, { axis: gatherAxis }), `gatherAxis ${gatherAxis}`);
      }
      // an index of the logical last dim (64) is out of range, and the message says 64
      assert.throws(() => gbq(tbl.data, idx(64), tbl.scales, { ...o, gatherAxis: 2 }),
        /^RangeError: gatherBlockQuantized: indices\[0\] = 64 is out of range for dimension 2 of data, which has size 64/);
    });

    test('resident tables: uint8, packed int4/uint4 (upload with quantType), scales, zero points; opts.out, opts.resident', () => {
      const heap = api.heapStats().heapInUse;
      for (const [quantType, bits] of [['uint8', 2], ['uint8', 4], ['uint8', 8], ['int4', 4], ['uint4', 4]]) {
        const R = new Rng(hashString(`resident ${quantType} ${bits}`));
        const shape = quantType === 'uint8' ? [300, 96] : [301, 67]; // int4: 67 codes a row, rows start on odd nibbles
        const tbl = makeTable(R, { quantType, bits, shape, blockSize: 32, quantizeAxis: 1, scaleType: 'float16', withZp: true });
        const o = { quantType, bits, blockSize: 32, zeroPoints: tbl.zeroPoints };
        const packed = quantType === 'uint8' ? undefined : { quantType };
        const rData = api.upload(tbl.data, packed);
        const rScales = api.upload(tbl.scales);
        const rZp = api.upload(tbl.zeroPoints, packed);
        const ro = { ...o, zeroPoints: rZp };
        for (let call = 0; call < 5; call++) {
          const indices = makeIndices(R, [R.int(1, 40)], shape[0], 'Int32Array', 'zero', 0.1);
          const want = refGatherBlockQuantized(tbl.data, indices, tbl.scales, { ...o, outOfRange: 'zero' });
          const what = `${quantType} bits ${bits} call ${call}`;
          expectSame(gbq(rData, indices, rScales, { ...ro, outOfRange: 'zero' }), want, `${what} all resident`);
          expectSame(gbq(rData, indices, tbl.scales, { ...o, outOfRange: 'zero' }), want, `${what} resident data`);
          // opts.resident: the result stays in wasm memory, and is the next op's input
          const rIdx = api.upload(indices);
          const kept = gbq(rData, rIdx, rScales, { ...ro, outOfRange: 'zero', resident: true });
          assert.ok(kept instanceof api.ResidentTensor);
          assert.equal(kept.arrayType, Uint16Array);
          assert.deepEqual([...kept.shape], want.shape);
          expectSame({ data: kept.read(), shape: kept.shape }, want, `${what} opts.resident`);
          const cols = { data: [0, -1, 31, 32], shape: [4] };
          expectSame(api.take(kept, cols, { axis: 1 }), refTake(want, cols, { axis: 1 }), `${what} take of the resident result`);
          // opts.out: resident, a TypedArray, { data, shape }
          const out = api.upload({ data: new Uint16Array(want.data.length).fill(0xffff), shape: want.shape });
          assert.equal(gbq(rData, rIdx, rScales, { ...ro, outOfRange: 'zero', out }), out);
          expectSame({ data: out.read(), shape: out.shape }, want, `${what} resident opts.out`);
          const arr = new Uint16Array(want.data.length).fill(0x7e00);
          assert.equal(gbq(rData, indices, rScales, { ...ro, outOfRange: 'zero', out: arr }).data, arr);
          expectSame({ data: arr, shape: want.shape }, want, `${what} opts.out TypedArray`);
          const obj = { data: new Uint16Array(want.data.length), shape: want.shape.slice() };
          expectSame(gbq(tbl.data, rIdx, tbl.scales, { ...o, outOfRange: 'zero', out: obj }), want, `${what} opts.out { data, shape }`);
          for (const h of [rIdx, kept, out]) h.dispose();
        }
        for (const h of [rData, rScales, rZp]) h.dispose();
      }
      assert.equal(api.heapStats().heapInUse, heap, 'heap after the resident tables were disposed');
    });

    test('the heap does not grow across calls (errors included) and caller arrays stay untouched', () => {
      const N = 48;
      allOf(N, (n) => runOpCase(n, name)); // warm up: one-time allocations of the runtime and the pool
      const grown = heapGrowth(() => {
        for (let rep = 0; rep < 3; rep++) allOf(N, (n) => runOpCase(n, name));
        allOf(4, (k) => runLargeCase(k, name));
      });
      assert.equal(grown, 0, `wasm heap in use grew by ${grown} bytes over ${3 * N + 4} calls`);
    });
  });
}

// ---------------------------------------------------------------------------------------------

describe(`${OP} vs onnxruntime-web (default wasm build, wasm EP, one thread), bit for bit`, () => {
  before(async () => { await api.init({ variant: 'simd-threaded', threads: 2, parallelThreshold: 0 }); });
  after(() => api.dispose());

  test('24 seeded cases onnxruntime accepts, two index tensors each (one all negative)', async () => {
    const seen = new Set();
    for (let i = 48; i < 72; i++) { // randomCase's next seeds after the reference test's 48
      const c = randomCase(i);
      seen.add(`${c.quantType}/${c.bits}/${c.scaleType}`);
      const s = await session(c);
      try {
        for (const indices of c.indexSets) {
          const want = await runOrt(s, c, indices);
          const what = `case ${i}: ${describeCase(c)}, indices [${indices.data}]`;
          const got = gbq(c.data, indices, c.scales, refOpts(c));
          assert.deepEqual(Array.from(got.shape), want.shape, what);
          assert.ok(sameBytes(got.data, want.data), `${what}: ${sameBytes(want.data, reference(c, indices).data) ? '' : '(the reference differs from onnxruntime too) '}` +
            firstDifference(got.data, want.data));
        }
      } finally {
        await s.release();
      }
    }
    assert.equal(seen.size, 10, 'every quantType, uint8 bits and scale type (float32, float16)');
  });

  test('non-finite scales (Inf and NaN of either sign, NaN payloads; Inf times 0): the op equals onnxruntime and the reference', async () => {
    // A NaN scale's sign comes through the multiply in onnxruntime and here (V8 keeps the NaN
    // operand; wasm itself leaves the sign unspecified).
    const codes = Uint8Array.from({ length: 96 }, (_, i) => 120 + (i % 16)); // q - zp = -8..7, 0 included
    const f32Bits = Uint32Array.of(0x7f800000, 0xff800000, 0x7fc00001, 0xffc00000, 0xff800001, 0x7f7fffff);
    for (const [scaleType, scales] of [
      ['float16', Uint16Array.of(0x7c00, 0xfc00, 0x7e01, 0xfe00, 0xfd00, 0x7bff)],
      ['float32', new Float32Array(f32Bits.buffer)],
    ]) {
      const c = { quantType: 'uint8', bits: 8, scaleType, blockSize: 16, gatherAxis: 0, quantizeAxis: 1, indicesType: 'int32',
        data: { data: codes, shape: [6, 16] }, scales: { data: scales, shape: [6, 1] } };
      const indices = { data: Int32Array.of(5, 0, 1, 2, 3, 4), shape: [6] };
      const s = await session(c);
      const want = await runOrt(s, c, indices);
      await s.release();
      const got = gbq(c.data, indices, c.scales, refOpts(c));
      assert.ok(sameBytes(got.data, want.data), `${scaleType}: ${firstDifference(got.data, want.data)}`);
      const ref = reference(c, indices).data;
      assert.ok(sameBytes(ref, want.data), `${scaleType}, the reference: ${firstDifference(ref, want.data)}`);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// float16 and bfloat16 rounding in wasm SIMD against the reference's plain rounding.

describe('float16 and bfloat16 rounding in wasm SIMD vs the reference', () => {
  const { init, dispose, gatherBlockQuantized } = api;
  before(() => init({ variant: 'simd' }));
  after(() => dispose());

  const f32 = new Float32Array(1);
  const u32 = new Uint32Array(f32.buffer);
  const fromBits = (b) => { u32[0] = b; return f32[0]; };

  // Scales whose products with small codes reach every float32 exponent, and the edges: the
  // float16 overflow threshold (65520), its largest finite, its smallest subnormal and halves of
  // it (ties to even), float32 subnormals, Infinity and NaN.
  function edgeScales(rng, count) {
    const edges = [65504, 65519.99, 65520, 65536, 2 ** -24, 2 ** -25, 3 * 2 ** -26, 2 ** -14, 2 ** -15 * 1.5,
      fromBits(1), fromBits(0x007fffff), Infinity, NaN, 0, 1 + 2 ** -11, 1 + 3 * 2 ** -11, 2 ** 127];
    const out = [];
    for (const e of edges) out.push(e, -e);
    while (out.length < count) out.push(fromBits(rng.int(0, 0xffffffff) >>> 0));
    return Float32Array.from(out);
  }

  // One table row per scale: every code of the type, so each block holds each value once.
  function sweep({ quantType, bits, scaleType, scales, zp }) {
    const per = quantType === 'uint8' ? 8 / bits : 1;
    const levels = quantType === 'uint8' ? 2 ** bits : 16;
    const blockSize = Math.max(32, levels); // two steps of 16 codes at least: the SIMD loops
    const rows = scales.length;
    const logical = [rows, blockSize];
    const codes = new Uint8Array(rows * blockSize);
    for (let i = 0; i < codes.length; i++) codes[i] = i % levels;
    // pack: `8 / bits` codes a byte (uint8), or two a byte (4-bit)
    const codeBits = quantType === 'uint8' ? bits : 4;
    const packedPer = 8 / codeBits;
    const bytes = new Uint8Array(Math.ceil(codes.length / packedPer));
    for (let i = 0; i < codes.length; i++) bytes[Math.floor(i / packedPer)] |= codes[i] << ((i % packedPer) * codeBits);
    const data = { data: bytes, shape: quantType === 'uint8' ? [rows, blockSize / per] : logical };
    const scaleData = scaleType === 'float32' ? scales : Uint16Array.from(scales, (s) => (scaleType === 'bfloat16' ? f32ToBf16(s) : f32ToF16(s)));
    const opts = { quantType, bits, blockSize, scaleType: scaleType === 'float32' ? undefined : scaleType };
    if (zp !== undefined) {
      const zpShape = quantType === 'uint8' ? [rows, 1] : [rows, 1];
      const z = quantType === 'uint8' ? new Uint8Array(rows).fill(zp) : new Uint8Array(Math.ceil(rows / 2)).fill((zp & 15) * 17);
      opts.zeroPoints = { data: z, shape: zpShape };
    }
    const indices = { data: Int32Array.from({ length: rows }, (_, i) => i), shape: [rows] };
    const got = gatherBlockQuantized(data, indices, { data: scaleData, shape: [rows, 1] }, opts);
    return { got: got.data, codes, blockSize, scaleData };
  }

  for (const scaleType of ['float16', 'bfloat16']) {
    const isQuietNaN = (h) => (h & 0x7fff) === (scaleType === 'float16' ? 0x7e00 : 0x7fc0);
    const round = scaleType === 'float16' ? f32ToF16 : f32ToBf16;
    const widen = scaleType === 'float16' ? f16ToF32 : (h) => fromBits(h << 16);
    for (const [quantType, bits] of [['uint8', 8], ['uint8', 4], ['uint8', 2], ['uint4', 4], ['int4', 4]]) {
      test(`${quantType} ${bits} bits -> ${scaleType}: 4096 scales of every exponent, bit for bit`, () => {
        const rng = new Rng(0x5eed + bits + scaleType.length);
        const scales = edgeScales(rng, 4096);
        for (const zp of [undefined, 3]) {
          const { got, codes, blockSize, scaleData } = sweep({ quantType, bits, scaleType, scales, zp });
          const signed = quantType === 'int4';
          const z = zp ?? (quantType === 'uint8' ? 2 ** (bits - 1) : 0);
          const zs = signed && z >= 8 ? z - 16 : z;
          let bad = 0;
          for (let i = 0; i < got.length; i++) {
            const c = signed && codes[i] >= 8 ? codes[i] - 16 : codes[i];
            const want = round(Math.fround((c - zs) * widen(scaleData[Math.floor(i / blockSize)])));
            // A NaN product's sign is the engine's (wasm leaves it unspecified; JS's NaN has none):
            // compared as the quiet NaN, sign aside.
            if (got[i] !== want && !(isQuietNaN(got[i]) && isQuietNaN(want)) && bad++ < 3) {
              assert.fail(`element ${i}: code ${c}, zp ${zs}, scale bits 0x${scaleData[Math.floor(i / blockSize)].toString(16)}: got 0x${got[i].toString(16)}, want 0x${want.toString(16)}`);
            }
          }
        }
      });
    }
  }

  for (const [quantType, bits] of [['uint8', 8], ['uint8', 4], ['uint8', 2], ['uint4', 4], ['int4', 4]]) {
    test(`${quantType} ${bits} bits -> float32: the product itself, also for NaN, Infinity, tiny and subnormal scales`, () => {
      const rng = new Rng(0xf32 + bits);
      const scales = edgeScales(rng, 2048);
      // the 2-bit path scales each lane by 4^-k: scales on either side of where that stops being exact
      for (let e = -130; e <= -110; e++) scales[scales.length - 1 - (e + 130)] = 2 ** e * (1 + 2 ** -23);
      for (const zp of [undefined, 3]) {
        const { got, codes, blockSize } = sweep({ quantType, bits, scaleType: 'float32', scales, zp });
        const signed = quantType === 'int4';
        const z = zp ?? (quantType === 'uint8' ? 2 ** (bits - 1) : 0);
        for (let i = 0; i < got.length; i++) {
          const c = signed && codes[i] >= 8 ? codes[i] - 16 : codes[i];
          const want = Math.fround((c - z) * scales[Math.floor(i / blockSize)]);
          if (!(Object.is(got[i], want) || (Number.isNaN(got[i]) && Number.isNaN(want)))) {
            assert.fail(`element ${i}: code ${c}, zp ${z}, scale ${scales[Math.floor(i / blockSize)]}: got ${got[i]}, want ${want}`);
          }
        }
      }
    });
  }
});

// ---------------------------------------------------------------------------------------------
// The documented error messages: class, message, and nothing lost (tests/lib/expect-error.mjs).

const gatherBlockQuantized = (...args) => api.gatherBlockQuantized(...args);
// uint8 4 bits, stored [3, 8] = logical [3, 16], blockSize 16: scales [3, 1]
const q8 = () => ({ data: new Uint8Array(24), shape: [3, 8] });
const q4 = () => ({ data: new Uint8Array(24), shape: [3, 16] }); // int4/uint4 logical [3, 16]
const qs = (shape = [3, 1]) => ({ data: new Float32Array(shape.reduce((a, b) => a * b, 1)).fill(1), shape });

describeErrors('errors', () => {
  test("opts.negativeIndices 'error': a negative index is refused as negative, the first bad index in row-major order", () => {
    const neg = { negativeIndices: 'error' };
    expectError(gatherBlockQuantized, [q8(), i32([0, -3], [2]), qs(), { blockSize: 16, ...neg }], RangeError,
      /^gatherBlockQuantized: indices\[1\] = -3 is negative, and opts\.negativeIndices is 'error' \(valid indices: 0 <= i < 3\)$/);
  });

  test('gatherBlockQuantized rules', () => {
    const G = gatherBlockQuantized;
    expectError(G, [q8(), i32([0], [1]), qs(), { blockSize: 16, bits: 3 }], RangeError,
      /^gatherBlockQuantized: opts\.bits 3 is not valid for quantType 'uint8' \(uint8 codes have 2, 4 or 8 bits; uint4 and int4 codes have 4\)$/);
    expectError(G, [q4(), i32([0], [1]), qs(), { blockSize: 16, quantType: 'int4', bits: 8 }], RangeError,
      /^gatherBlockQuantized: opts\.bits 8 is not valid for quantType 'int4'/);
    expectError(G, [q8(), i32([0], [1]), qs([3, 1]), { blockSize: 24 }], RangeError,
      /^gatherBlockQuantized: opts\.blockSize 24 must be a power of 2, at least 16$/);
    expectError(G, [q8(), i32([0], [1]), qs([1, 16]), { blockSize: 16, quantizeAxis: 0 }], RangeError,
      /^gatherBlockQuantized: opts\.quantizeAxis 0 must be the last axis \(1\) for quantType 'uint8', whose codes are packed along it$/);
    expectError(G, [q4(), i32([0], [1]), qs(), { blockSize: 16, quantType: 'uint4', quantizeAxis: 2 }], RangeError,
      /^gatherBlockQuantized: opts\.quantizeAxis 2 is out of range for data of rank 2 \(expected -2 <= opts\.quantizeAxis < 2\)$/);
    expectError(G, [q8(), i32([0], [1]), qs([3, 2]), { blockSize: 16 }], RangeError,
      /^gatherBlockQuantized: scales\.shape\[1\] is 2 but must be 1 \(the data's logical shape with dimension quantizeAxis divided by blockSize, rounded up\)$/);
    expectError(G, [q4(), i32([0], [1]), qs([3, 16]), { blockSize: 16, quantType: 'int4', quantizeAxis: 0 }], RangeError,
      /^gatherBlockQuantized: scales\.shape\[0\] is 3 but must be 1 \(the data's logical shape/);
    expectError(G, [q8(), i32([0], [1]), qs([3]), { blockSize: 16 }], RangeError,
      /^gatherBlockQuantized: scales has rank 1 but must have the data's rank, 2$/);
    expectError(G, [{ data: new Uint8Array(3 * 32), shape: [3, 32] }, i32([0], [1]), qs([3, 4]), { blockSize: 16, zeroPoints: { data: new Uint8Array(12), shape: [3, 4] } }], RangeError,
      /^gatherBlockQuantized: opts\.zeroPoints\.shape\[1\] is 4 but must be 2 \(the scales' shape, with the last dimension divided by the codes a byte holds \(8 \/ bits\), rounded up, for quantType 'uint8' of 2 or 4 bits\)$/);
    expectError(G, [q8(), i32([0], [1]), qs(), { blockSize: 16, zeroPoints: { data: new Uint8Array(3), shape: [1, 3] } }], RangeError,
      /^gatherBlockQuantized: opts\.zeroPoints\.shape\[0\] is 1 but must be 3/);
    expectError(G, [{ data: new Uint8Array(24), shape: [3, 15] }, i32([0], [1]), qs(), { blockSize: 16, quantType: 'int4' }], RangeError,
      /^gatherBlockQuantized: data\.data has 24 elements but data\.shape \[3, 15\] needs 23 \(two 4-bit codes a byte, rounded up\)$/);
    expectError(G, [q4(), i32([0], [1]), qs(), { blockSize: 16, quantType: 'uint4', zeroPoints: { data: new Uint8Array(3), shape: [3, 1] } }], RangeError,
      /^gatherBlockQuantized: opts\.zeroPoints\.data has 3 elements but opts\.zeroPoints\.shape \[3, 1\] needs 2 \(two 4-bit codes a byte, rounded up\)$/);
    expectError(G, [q8(), i32([0], [1]), qs(), { blockSize: 16, gatherAxis: 2 }], RangeError,
      /^gatherBlockQuantized: opts\.gatherAxis 2 is out of range for data of rank 2 \(expected -2 <= opts\.gatherAxis < 2\)$/);
    expectError(G, [q8(), i32([0], [1]), qs(), { blockSize: 16, scaleType: 'bfloat16' }], TypeError,
      /^gatherBlockQuantized: opts\.scaleType 'bfloat16' does not match scales\.data, a Float32Array \(float32 scales are a Float32Array; float16 or bfloat16 bits a Uint16Array\)$/);
    expectError(G, [{ data: new Int8Array(24), shape: [3, 8] }, i32([0], [1]), qs(), { blockSize: 16 }], TypeError,
      /^gatherBlockQuantized: data\.data must be a Uint8Array/);
    expectError(G, [q8(), i32([0, 1, 2, 3], [2, 2]), qs(), { blockSize: 16 }], RangeError,
      /^gatherBlockQuantized: indices\[1, 1\] = 3 is out of range for dimension 0 of data, which has size 3 \(valid indices: -3 <= i < 3; opts\.outOfRange 'zero' or 'clamp' accept it\)$/);
    expectError(G, [q8(), { data: new BigInt64Array([0n, -(2n ** 40n)]), shape: [2] }, qs(), { blockSize: 16, gatherAxis: 1 }], RangeError,
      /^gatherBlockQuantized: indices\[1\] = -1099511627776 is out of range for dimension 1 of data, which has size 16/);
    expectError(G, [q8(), { data: [5], shape: [] }, qs(), { blockSize: 16 }], RangeError,
      /^gatherBlockQuantized: indices\[\] = 5 is out of range for dimension 0 of data, which has size 3/); // a scalar index, as take says it
  });

  test('gatherBlockQuantized: opts.out of the wrong type names the scales, whose type the output has', () => {
    // The output's type is the scales' (the data is a Uint8Array): "like the data" would mislead.
    expectError(gatherBlockQuantized, [q8(), i32([0], [1]), qs(), { blockSize: 16, out: new Uint16Array(16) }], TypeError,
      /^gatherBlockQuantized: opts\.out must be a Float32Array like the scales, got Uint16Array/);
  });

  test('gatherBlockQuantized: a logical last dim past 2^32 - 1 (uint8 of 2 or 4 bits) is refused naming the op', () => {
    // stored [0, 2^31] at 2 bits is logical [0, 2^33]: more than a dimension can hold
    expectError(gatherBlockQuantized, [{ data: new Uint8Array(0), shape: [0, 2 ** 31] }, i32([], [0]), { data: new Float32Array(0), shape: [0, 2 ** 29] }, { bits: 2, blockSize: 16 }],
      RangeError, /^gatherBlockQuantized: /);
    expectError(gatherBlockQuantized, [{ data: new Uint8Array(0), shape: [0, 2 ** 31] }, i32([], [0]), { data: new Float32Array(0), shape: [0, 2 ** 28] }, { bits: 4, blockSize: 16 }],
      RangeError, /^gatherBlockQuantized: /);
  });

  test('results larger than wasm memory', () => {
    expectError(gatherBlockQuantized, [{ data: new Uint8Array(65536), shape: [1, 65536] }, { data: new Int32Array(65536), shape: [65536] }, qs([1, 4096]), { bits: 8, blockSize: 16 }],
      RangeError, /^gatherBlockQuantized: the output \[65536, 65536\] with the inputs needs \d+ bytes, more than wasm memory can hold/);
    expectError(gatherBlockQuantized, [{ data: new Uint8Array(0), shape: [0, 2 ** 30] }, i32([0, 1], [2]), { data: new Uint16Array(0), shape: [0, 2 ** 26] }, { quantType: 'int4', blockSize: 16, outOfRange: 'clamp' }],
      RangeError, /^gatherBlockQuantized: the output \[2, 1073741824\] with the inputs needs/);
  });
});

// Hostile or malformed arguments (the bad-input table, tests/lib/bad-inputs.mjs).
badInputSuite('gatherBlockQuantized');
