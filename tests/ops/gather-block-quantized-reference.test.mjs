// The GatherBlockQuantized reference (common/reference-quantized.mjs) against onnxruntime-web's
// default wasm build, bit for bit, on seeded random cases; and, as asserted facts, what
// onnxruntime-web 1.30 refuses or does differently (docs/gather-block-quantized.md).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { bytesOf, sameBytes } from '../../common/bytes.mjs';
import { refTake } from '../../common/reference.mjs';
import { f16ToF32, f32ToBf16, refGatherBlockQuantized } from '../../common/reference-quantized.mjs';
import { describeCase, randomCase, reference, refOpts } from '../lib/quantized-cases.mjs';
import { runOrt, session } from '../lib/quantized-ort.mjs';

const CASES = 48;

// ---------------------------------------------------------------------------------------------

describe('GatherBlockQuantized: reference vs onnxruntime-web, bit for bit', () => {
  test(`${CASES} seeded random cases, two index tensors each (one all negative)`, async () => {
    const seen = new Set();
    for (let i = 0; i < CASES; i++) {
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
