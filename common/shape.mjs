// Row-major shape arithmetic, written once for the reference, the tests, the benchmark and the
// demo. A shape is an array of dimension sizes; rank 0 ([]) is a scalar of one element.

/** Number of elements of a tensor of this shape (torch.numel): the product of its dims. */
export const numel = (shape) => shape.reduce((a, b) => a * b, 1);

/** Flat row-major position of coordinates `coords` in `shape`. */
export function ravel(coords, shape) {
  let off = 0;
  for (let d = 0; d < shape.length; d++) off = off * shape[d] + coords[d];
  return off;
}

/** Coordinates of flat row-major position `flat` in `shape`. */
export function unravel(flat, shape) {
  const c = new Array(shape.length);
  for (let d = shape.length - 1; d >= 0; d--) {
    c[d] = flat % shape[d];
    flat = Math.floor(flat / shape[d]);
  }
  return c;
}
