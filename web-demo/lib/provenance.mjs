// Where each output element came from, computed by the library itself: the same call on an
// "iota" tensor of the data's shape whose values are the flat positions plus one (Uint32, so
// exact up to 4G elements). Output value v > 0 came from data element v - 1; v = 0 was zeroed
// (outOfRange 'zero', or 'clamp' into an empty dimension). Negative indices, batch dims and
// 'clamp' need no code of their own here: the library resolves them exactly as in the real call.
//
// The index elements that chose each output element follow from the op's definition (which
// block of the output a given index tuple fills), in indexElements() below.
import { numel, ravel, unravel } from '../../common/shape.mjs';
import { callOp } from './ops.mjs';

const RESIDENT_ABOVE = 1 << 20; // iota tensors larger than this are kept in wasm memory

let cached = null; // { key, iota: ResidentTensor }

/** The iota tensor for a data shape (a resident one, kept, for large shapes). */
function iotaFor(api, shape) {
  const n = numel(shape);
  const make = () => {
    const a = new Uint32Array(n);
    for (let i = 0; i < n; i++) a[i] = i + 1;
    return { data: a, shape };
  };
  if (n <= RESIDENT_ABOVE) {
    releaseIota(); // a large one kept from before is not needed now
    return make();
  }
  const key = shape.join(',');
  if (cached?.key !== key || cached.iota.disposed) {
    cached?.iota.dispose();
    cached = { key, iota: api.upload(make()) };
  }
  return cached.iota;
}

/** Frees the kept iota tensor. */
function releaseIota() {
  if (cached && !cached.iota.disposed) cached.iota.dispose();
  cached = null;
}

/**
 * Provenance of `call` (op, data shape, indices tensor, attrs) whose output has outShape.
 * Returns { src: Int32Array (data flat position or -1 for zeroed), block, unitOf(p),
 * indexElements(p): flat positions in indices, describe(p): text }.
 */
export function provenance(api, op, dataShape, indices, attrs, outShape) {
  const out = callOp(api, op, iotaFor(api, dataShape), indices, attrs);
  const src = new Int32Array(out.data.length);
  for (let p = 0; p < src.length; p++) src[p] = out.data[p] - 1;
  const is = indices.shape;
  const idx = indices.data;
  let block = 1;
  let indexElements;
  let chosen; // p -> { text, dims: the data dimensions the index values address }
  if (op === 'gather') {
    const dim = attrs.dim < 0 ? attrs.dim + dataShape.length : attrs.dim;
    indexElements = (p) => [p];
    chosen = (p) => ({ text: `index[${unravel(p, is).join(', ')}] = ${idx[p]}`, dims: [dim] });
  } else if (op === 'gatherND') {
    const K = is[is.length - 1];
    const lead = is.slice(0, -1);
    const bd = attrs.batchDims;
    block = numel(dataShape.slice(bd + K));
    indexElements = (p) => {
      const t = Math.floor(p / block);
      return Array.from({ length: K }, (_, c) => t * K + c);
    };
    chosen = (p) => {
      const t = Math.floor(p / block);
      const tuple = Array.from({ length: K }, (_, c) => String(idx[t * K + c]));
      const where = [...unravel(t, lead), ':'].join(', ');
      return {
        text: `indices[${where}] = (${tuple.join(', ')})` + (bd ? `, batch (${unravel(t, lead).slice(0, bd).join(', ')})` : ''),
        dims: Array.from({ length: K }, (_, c) => bd + c),
      };
    };
  } else {
    const r = dataShape.length;
    const axis = attrs.axis < 0 ? attrs.axis + r : attrs.axis;
    const bd = attrs.batchDims < 0 ? attrs.batchDims + is.length : attrs.batchDims;
    block = numel(dataShape.slice(axis + 1));
    const at = (p) => {
      const c = unravel(p, outShape);
      return [...c.slice(0, bd), ...c.slice(axis, axis + is.length - bd)];
    };
    indexElements = (p) => [ravel(at(p), is)];
    chosen = (p) => {
      const c = at(p);
      return { text: `indices[${c.join(', ')}] = ${idx[ravel(c, is)]} (axis ${axis})`, dims: [axis] };
    };
  }
  return {
    src,
    block,
    unitOf: (p) => Math.floor(p / block),
    indexElements,
    describe(p, names) {
      const { text, dims } = chosen(p);
      if (src[p] < 0) return `output[${unravel(p, outShape).join(', ')}] = 0: zeros, index out of range, chosen by ${text}`;
      const from = unravel(src[p], dataShape);
      // Where 'clamp' moved an index, say so: the index as written (wrapped once) vs the one used.
      const raw = indexElements(p).map((e) => Number(idx[e]));
      const wrapped = raw.map((v, i) => (v < 0 ? v + dataShape[dims[i]] : v));
      const used = dims.map((d) => from[d]);
      const clamped = used.some((u, i) => u !== wrapped[i]) ? `, clamped to (${used.join(', ')})` : '';
      return `output[${unravel(p, outShape).join(', ')}] ← ${names.data}[${from.join(', ')}], chosen by ${text}${clamped}`;
    },
  };
}
