// Bitwise comparison of TypedArrays: NaN payloads and -0 count, as the library keeps them.

/** The bytes of a TypedArray (a view, no copy). */
export const bytesOf = (view) => new Uint8Array(view.buffer, view.byteOffset, view.byteLength);

// 4-byte words where both views allow them: outputs of tens of MiB compare 4x faster.
const aligned = (v) => v.byteOffset % 4 === 0 && v.byteLength % 4 === 0;
const words = (v) => new Uint32Array(v.buffer, v.byteOffset, v.byteLength / 4);

/** True when a and b have the same type, the same length and the same bytes. */
export function sameBytes(a, b) {
  if (a.constructor !== b.constructor || a.length !== b.length) return false;
  const [x, y] = aligned(a) && aligned(b) ? [words(a), words(b)] : [bytesOf(a), bytesOf(b)];
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}
