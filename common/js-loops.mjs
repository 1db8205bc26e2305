// Plain JS gathers, as a user would write them without a library: the baseline for call
// overhead (W5) and a sanity line in the table. Valid indices only (no checks beyond JS's own),
// float32 data; each call returns a new array, like the one-shot mode of the libraries.
import { numel } from './shape.mjs';

/** tf.gather along axis (batchDims 0): rows of the inner size copied with set(). */
function take(data, indices, { axis = 0 }) {
  const s = data.shape, outer = numel(s.slice(0, axis)), n = s[axis], inner = numel(s.slice(axis + 1));
  const d = data.data, idx = indices.data, k = idx.length;
  const out = new Float32Array(outer * k * inner);
  for (let o = 0, w = 0; o < outer; o++) {
    for (let i = 0; i < k; i++, w += inner) {
      const from = (o * n + idx[i]) * inner;
      if (inner === 1) out[w] = d[from];
      else out.set(d.subarray(from, from + inner), w);
    }
  }
  return out;
}

/** tf.gather_nd with batchDims: each index tuple picks a slice of its batch. */
function gatherND(data, indices, { batchDims = 0 }) {
  const s = data.shape, is = indices.shape, K = is[is.length - 1];
  const batch = numel(s.slice(0, batchDims)), tuples = numel(is.slice(batchDims, -1));
  const slice = numel(s.slice(batchDims + K)), batchSize = numel(s.slice(batchDims));
  const strides = [];
  for (let c = 0; c < K; c++) strides.push(numel(s.slice(batchDims + c + 1)));
  const d = data.data, idx = indices.data;
  const out = new Float32Array(batch * tuples * slice);
  for (let b = 0, t = 0, w = 0; b < batch; b++) {
    for (let j = 0; j < tuples; j++, t += K, w += slice) {
      let from = b * batchSize;
      for (let c = 0; c < K; c++) from += idx[t + c] * strides[c];
      if (slice === 1) out[w] = d[from];
      else out.set(d.subarray(from, from + slice), w);
    }
  }
  return out;
}

/** torch.gather along the last dim of 2-D tensors (the benchmark's W4 shapes). */
function gather(data, indices, { dim }) {
  const [rows, cols] = data.shape, k = indices.shape[1];
  if (data.shape.length !== 2 || dim !== 1) throw new Error('js loops: gather handles 2-D, dim 1 only');
  const d = data.data, idx = indices.data;
  const out = new Float32Array(rows * k);
  for (let r = 0, w = 0; r < rows; r++) {
    const base = r * cols;
    for (let j = 0; j < k; j++, w++) out[w] = d[base + idx[w]];
  }
  return out;
}

// float32 -> float16 bits, round to nearest even, as a JS user would write it: the integer
// rebias for normals, and for float16 subnormals the double-precision add of 2^52 (which rounds
// |x| * 2^24 to an integer, ties to even). NaN -> quiet NaN 0x7e00, overflow -> Inf, signs kept.
const cvt32 = new Float32Array(1);
const cvtBits = new Uint32Array(cvt32.buffer);
function toHalf(x) {
  cvt32[0] = x;
  const b = cvtBits[0];
  const sign = (b >>> 16) & 0x8000;
  const a = b & 0x7fffffff;
  if (a >= 0x47800000) return sign | (a > 0x7f800000 ? 0x7e00 : 0x7c00); // >= 65536: Inf; NaN
  if (a < 0x38800000) return sign | ((Math.abs(cvt32[0]) * 16777216 + 4503599627370496) - 4503599627370496); // < 2^-14
  return sign | ((a - 0x38000000 + 0xfff + ((a >>> 13) & 1)) >>> 13);
}

// float16 bits -> value, through a table of all 65536.
let halfTable;
function halfValues() {
  if (halfTable) return halfTable;
  halfTable = new Float32Array(65536);
  for (let h = 0; h < 65536; h++) {
    const e = (h >> 10) & 31, m = h & 1023, s = h & 0x8000 ? -1 : 1;
    halfTable[h] = e === 31 ? (m ? NaN : s * Infinity) : e === 0 ? s * m * 2 ** -24 : s * (1024 + m) * 2 ** (e - 25);
  }
  return halfTable;
}

/**
 * onnxruntime's GatherBlockQuantized with gather axis 0 and the quantize axis last (what
 * onnxruntime accepts for 'uint8'; the benchmark's Q workloads), rows dequantized one block at a
 * time: each value (q - zp) * scale in float32, for float16 scales then rounded to float16 bits.
 * quantType 'uint8' (bits 2/4/8, codes lowest bits first along the row, default zero point
 * 2^(bits-1), zero points packed per row) or 'uint4'/'int4' (logical shape, two codes per byte
 * flat, low nibble first, default zero point 0, zero points flat). Float32Array or Uint16Array
 * (float16) scales; the output has their type. Indices in range, negatives counted from the end.
 */
function gatherBlockQuantized(data, indices, scales, opts = {}) {
  const { quantType = 'uint8', blockSize = 128, zeroPoints } = opts;
  const packed = quantType === 'uint8';
  const bits = packed ? opts.bits ?? 4 : 4;
  const per = 8 / bits, mask = (1 << bits) - 1;
  const s = data.shape, rows = s[0];
  const cols = s[s.length - 1] * (packed ? per : 1); // logical length of an inner row
  const inner = numel(s.slice(1, -1)); // inner rows per gathered row
  const nb = Math.ceil(cols / blockSize);
  const zpRowBytes = Math.ceil(nb / per); // uint8 zero points: each row padded to a byte
  const half = !(scales.data instanceof Float32Array);
  const sc = half ? halfValues() : null;
  const d = data.data, z = zeroPoints?.data, idx = indices.data, k = idx.length;
  const signed = quantType === 'int4';
  const defaultZp = packed ? 1 << (bits - 1) : 0;
  const out = new (half ? Uint16Array : Float32Array)(k * inner * cols);
  let w = 0;
  for (let i = 0; i < k; i++) {
    let r = Number(idx[i]);
    if (r < 0) r += rows;
    for (let j = 0; j < inner; j++) {
      const row = r * inner + j; // inner row number in the table
      for (let b = 0; b < nb; b++) {
        const si = row * nb + b;
        const scale = half ? sc[scales.data[si]] : scales.data[si];
        let zp = defaultZp;
        if (z) {
          if (packed) zp = (z[row * zpRowBytes + ((b / per) | 0)] >> ((b % per) * bits)) & mask;
          else {
            zp = (z[si >> 1] >> ((si & 1) * 4)) & 15;
            if (signed) zp = (zp ^ 8) - 8;
          }
        }
        const c0 = b * blockSize, c1 = Math.min(cols, c0 + blockSize);
        const base = row * cols; // logical element number of the row's first code
        for (let c = c0; c < c1; c++) {
          const e = base + c;
          let q;
          if (packed) q = (d[(e / per) | 0] >> ((e % per) * bits)) & mask;
          else {
            q = (d[e >> 1] >> ((e & 1) * 4)) & 15;
            if (signed) q = (q ^ 8) - 8;
          }
          const v = (q - zp) * scale; // exact in a double: an int times a float32
          out[w++] = half ? toHalf(v) : v; // one rounding to float32 (then float16 from it)
        }
      }
    }
  }
  return out;
}

export const jsLoops = { take, gatherND, gather, gatherBlockQuantized };
