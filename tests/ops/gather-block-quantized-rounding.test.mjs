// gatherBlockQuantized's float16 and bfloat16 rounding in wasm SIMD (src/dequant_kernels.c:
// f16x4, bf16x4 and the per-block tables of 2- and 4-bit codes) against the reference's plain
// rounding (common/reference-quantized.mjs), on products of every float32 exponent: the ranges
// that overflow to Infinity, round to float16 subnormals or to zero, ties, and NaN (a quiet NaN,
// whose sign wasm leaves to the engine: compared sign aside). The native
// test (tests/native/test_dequant.c) checks the scalar rounding on every float32; this checks
// the vector one, which only runs in wasm.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { f16ToF32, f32ToBf16, f32ToF16 } from '../../common/reference-quantized.mjs';
import api from '../tested-api.mjs';
import { Rng } from '../rng.mjs';

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
