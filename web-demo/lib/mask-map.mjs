// Who went where in a mask op's call, found by the library itself rather than worked out again in
// JS: the same call once more over a tensor of x's shape whose values are 1 + each element's
// position (booleanMask, compress: each output element then names the element of x it is), or for
// maskedScatter over zeros with a source whose values are 1 + each value's position (each written
// output element names the source value it took); which mask elements are true, by nonZero of the
// mask flattened. nonZero's output is itself coordinates: each column (onnx) or row (torch) names
// an element of x.
import { numel, ravel, unravel } from '../../common/shape.mjs';

const positions = (shape) => ({ data: Int32Array.from({ length: numel(shape) }, (_, i) => i + 1), shape: shape.slice() });

/** The flat positions of t's true (non-zero) elements, in order: the library's nonZero of t flattened. */
export function truePositions(api, t) {
  return Array.from(api.nonZero({ data: t.data, shape: [t.data.length] }, { layout: 'torch' }).data, Number);
}

const norm = (axis, rank) => (axis < 0 ? axis + rank : axis);

/**
 * The map of one call that succeeded, with `output` its result:
 *   units: how many output units there are (slices kept, coordinates, source values written);
 *   unitOfOut(p): output element p's unit (-1: none, maskedScatter's kept elements);
 *   xOfOut(p): the element of x output element p came from, or is the coordinates of, or replaced;
 *   sourceOfOut(p): maskedScatter: the source value p took (-1: none);
 *   outsOfX(f), outOfSource(j): the other way;
 *   maskOfX(f): the mask element that decided x's element f (-1: none: past a short condition,
 *     or nonZero, whose x is its own mask); xOfMask(m): the elements of x it decided;
 *   trueRank(m): mask element m's place among the true ones (-1: false); maskTrue: how many.
 */
export function maskMap(api, call, output) {
  const { op, x, mask, attrs } = call;
  const rank = x.shape.length;
  const n = output.data.length;
  const xOf = new Int32Array(n).fill(-1);
  const unitOf = new Int32Array(n).fill(-1);
  const sourceOf = new Int32Array(n).fill(-1);
  let units = 0;
  let maskOfX = () => -1;
  if (op === 'booleanMask' || op === 'compress') {
    const opts = {};
    if (attrs.axis !== null) opts.axis = attrs.axis;
    const prov = api[op](positions(x.shape), mask, opts);
    const flatten = op === 'compress' && attrs.axis === null;
    const axis = flatten ? 0 : norm(attrs.axis ?? 0, rank);
    const countDim = flatten ? 0 : axis;
    units = prov.shape[countDim] ?? 0;
    for (let p = 0; p < n; p++) {
      xOf[p] = prov.data[p] - 1;
      unitOf[p] = unravel(p, prov.shape)[countDim];
    }
    const len = mask.data.length;
    if (op === 'booleanMask') {
      const K = mask.shape.length;
      maskOfX = (f) => ravel(unravel(f, x.shape).slice(axis, axis + K), mask.shape);
    } else if (flatten) {
      maskOfX = (f) => (f < len ? f : -1);
    } else {
      maskOfX = (f) => { const c = unravel(f, x.shape)[axis]; return c < len ? c : -1; };
    }
  } else if (op === 'nonZero') {
    // onnx: [max(rank, 1), count], a column an element (a scalar read as shape [1]); torch: [count, rank]
    const onnx = attrs.layout !== 'torch';
    const count = onnx ? output.shape[1] : output.shape[0];
    units = count;
    const dims = onnx ? output.shape[0] : rank;
    for (let p = 0; p < n; p++) {
      const k = onnx ? p % count : Math.floor(p / dims);
      const coords = Array.from({ length: rank }, (_, d) => Number(output.data[onnx ? d * count + k : k * dims + d]));
      xOf[p] = ravel(coords, x.shape);
      unitOf[p] = k;
    }
  } else if (op === 'maskedScatter') {
    const S = call.source.data.length;
    const prov = api.maskedScatter({ data: new Int32Array(numel(x.shape)), shape: x.shape.slice() }, mask,
      { data: Int32Array.from({ length: S }, (_, j) => j + 1), shape: [S] });
    for (let p = 0; p < n; p++) {
      xOf[p] = p;
      const j = prov.data[p] - 1;
      sourceOf[p] = j;
      unitOf[p] = j;
      if (j >= 0) units++;
    }
    maskOfX = (f) => f;
  }
  const trues = mask ? truePositions(api, mask) : [];
  const rankOf = new Map(trues.map((m, r) => [m, r]));
  const outsOfX = new Map();
  const outOfSource = new Map();
  const xOfMask = new Map();
  for (let p = 0; p < n; p++) {
    push(outsOfX, xOf[p], p);
    if (sourceOf[p] >= 0) outOfSource.set(sourceOf[p], p);
  }
  if (mask) for (let f = 0; f < numel(x.shape); f++) push(xOfMask, maskOfX(f), f);
  return {
    units,
    unitOfOut: (p) => unitOf[p],
    xOfOut: (p) => xOf[p],
    sourceOfOut: (p) => sourceOf[p],
    outsOfX: (f) => outsOfX.get(f) ?? [],
    outOfSource: (j) => outOfSource.get(j) ?? -1,
    maskOfX,
    xOfMask: (m) => xOfMask.get(m) ?? [],
    trueRank: (m) => rankOf.get(m) ?? -1,
    maskTrue: trues.length,
  };
}

function push(map, k, v) {
  const a = map.get(k);
  if (a) a.push(v); else map.set(k, [v]);
}
