// The PyTorch fixtures' tensors (tests/fixtures/*-torch/cases.json, written by the
// make-fixtures.py beside each): {dtype, shape, hex} of little-endian bytes, so that floats
// round-trip bit for bit; float16 and bfloat16 come back as Uint16Arrays of their bits.
const ARRAYS = {
  float32: Float32Array, float64: Float64Array, float16: Uint16Array, bfloat16: Uint16Array, int8: Int8Array,
  int16: Int16Array, int32: Int32Array, int64: BigInt64Array, uint8: Uint8Array,
};

/** A fixture value as the references take it: a tensor { data, shape }, or the value itself. */
export function decode(x) {
  if (x === null || typeof x !== 'object') return x;
  const bytes = Uint8Array.from(Buffer.from(x.hex, 'hex'));
  return { data: new ARRAYS[x.dtype](bytes.buffer), shape: x.shape };
}
