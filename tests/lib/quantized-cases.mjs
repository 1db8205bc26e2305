// Shared by the GatherBlockQuantized tests (tests/ops/gather-block-quantized.test.mjs: the
// reference vs onnxruntime-web, the library vs the reference and vs onnxruntime-web):
// the seeded case generator of cases onnxruntime-web 1.30 accepts, the reference's options of a
// case, and random scale and byte makers. Portable (tests/package/smoke.mjs runs its
// cases in Bun, Deno and workerd); the onnxruntime session of a case is in tests/lib/quantized-ort.mjs.
// (Not named *.test.mjs: node --test tests/ would run it as a test file.)
import { refGatherBlockQuantized } from '../../common/reference-quantized.mjs';
import { numel } from '../../common/shape.mjs';
import { Rng } from './rng.mjs';

// ---------------------------------------------------------------------------------------------
// A case: the reference's arguments; the model is built from the same bytes.
//   { quantType, bits, scaleType ('float32' | 'float16' | 'bfloat16'), blockSize, gatherAxis,
//     quantizeAxis, data, scales, zeroPoints?, indicesType ('int32' | 'int64'), indexSets }

/** The case's options for refGatherBlockQuantized (and the library: the same names). */
export const refOpts = (c, extra) => ({
  quantType: c.quantType, bits: c.bits, scaleType: c.scaleType === 'float32' ? undefined : c.scaleType,
  zeroPoints: c.zeroPoints, gatherAxis: c.gatherAxis, quantizeAxis: c.quantizeAxis, blockSize: c.blockSize, ...extra,
});

/** The reference's result for the case and one index tensor. */
export const reference = (c, indices, extra) => refGatherBlockQuantized(c.data, indices, c.scales, refOpts(c, extra));

// Random float16 / bfloat16 bits, finite, any exponent (so products overflow and go subnormal too).
export const randomF16 = (rng) => (rng.int(0, 1) << 15) | (rng.int(0, 30) << 10) | rng.int(0, 1023);
export const randomBf16 = (rng) => (rng.int(0, 1) << 15) | (rng.int(0, 254) << 7) | rng.int(0, 127);
export const randomF32 = (rng) => Math.fround((rng.next() - 0.5) * 2 ** rng.int(-20, 20));
export const randomBytes = (rng, n) => Uint8Array.from({ length: n }, () => rng.int(0, 255));

/** n random scales of the type: a Float32Array for float32, else a Uint16Array of the bits. */
export function randomScales(rng, scaleType, n) {
  if (scaleType === 'float32') return Float32Array.from({ length: n }, () => randomF32(rng));
  return Uint16Array.from({ length: n }, () => (scaleType === 'bfloat16' ? randomBf16(rng) : randomF16(rng)));
}

function randomIndices(rng, s, type, negative) {
  const shape = Array.from({ length: rng.int(0, 2) }, () => rng.int(1, 4));
  const values = Array.from({ length: numel(shape) }, () => (negative ? rng.int(-s, -1) : rng.int(-s, s - 1)));
  return { data: type === 'int64' ? BigInt64Array.from(values, BigInt) : Int32Array.from(values), shape };
}

/**
 * Case `i` (one onnxruntime-web accepts): quantType, bits and scale type cycle through every
 * combination (18 in a row); the rest random. Two index tensors, the second all negative.
 */
export function randomCase(i) {
  const rng = new Rng(0x9b0 + i);
  const quantType = ['uint8', 'uint4', 'int4'][i % 3];
  const packed = quantType === 'uint8';
  const bits = packed ? [2, 4, 8][Math.floor(i / 3) % 3] : undefined;
  const scaleType = Math.floor(i / 9) % 2 ? 'float16' : 'float32';
  const blockSize = rng.pick([16, 32, 64, 128, 256]);
  const rank = rng.int(2, 3);
  const per = packed ? 8 / bits : 1;
  const shape = Array.from({ length: rank }, () => rng.int(1, 5)); // logical
  const gatherAxis = packed ? 0 : rng.int(0, rank - 1);
  const quantizeAxis = packed ? rank - 1 : rng.int(0, rank - 1);
  // The quantize axis: a whole number of blocks plus a remainder, mostly not a multiple.
  const q = blockSize * rng.int(0, 2) + rng.int(1, blockSize) * per;
  shape[quantizeAxis] = packed ? q - (q % per) || per : Math.min(q, 300);
  shape[gatherAxis] = rng.int(1, 7);
  const n = numel(shape);
  const stored = shape.slice();
  if (packed) stored[rank - 1] /= per;
  const data = { data: randomBytes(rng, packed ? n / per : Math.ceil(n / 2)), shape: packed ? stored : shape };
  const scalesShape = shape.slice();
  scalesShape[quantizeAxis] = Math.ceil(shape[quantizeAxis] / blockSize);
  const ns = numel(scalesShape);
  const scales = {
    data: scaleType === 'float16' ? Uint16Array.from({ length: ns }, () => randomF16(rng)) : Float32Array.from({ length: ns }, () => randomF32(rng)),
    shape: scalesShape,
  };
  let zeroPoints;
  if (rng.chance(0.5)) {
    const zpShape = scalesShape.slice();
    if (packed) zpShape[rank - 1] = Math.ceil(zpShape[rank - 1] / per);
    zeroPoints = { data: randomBytes(rng, packed ? numel(zpShape) : Math.ceil(ns / 2)), shape: zpShape };
  }
  const indicesType = rng.pick(['int32', 'int64']);
  const s = shape[gatherAxis];
  const indexSets = [randomIndices(rng, s, indicesType, false), randomIndices(rng, s, indicesType, true)];
  return { quantType, bits, scaleType, blockSize, gatherAxis, quantizeAxis, data, scales, zeroPoints, indicesType, indexSets };
}

export const describeCase = (c) =>
  `${c.quantType}${c.bits ? ` bits ${c.bits}` : ''} [${c.data.shape}] block ${c.blockSize} ${c.scaleType}` +
  `${c.zeroPoints ? ' zp' : ''} gather ${c.gatherAxis} quantize ${c.quantizeAxis} ${c.indicesType}`;
