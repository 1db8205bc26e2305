// One call of the chosen op with the editor's attributes, and the same call as code.
import { caller } from '../../common/op-caller.mjs';

export const NAMES = {
  gather: { data: 'input', indices: 'index' },
  gatherND: { data: 'params', indices: 'indices' },
  take: { data: 'params', indices: 'indices' },
  gatherBlockQuantized: { data: 'data', indices: 'indices' },
};

export const QUANTIZED = 'gatherBlockQuantized';

/**
 * gatherBlockQuantized's options from the editor's attributes (what differs from the defaults,
 * but blockSize and, for 'uint8', bits always) and the zero points (null: none).
 */
export function quantOpts(attrs, zeroPoints) {
  const o = {};
  if (attrs.quantType !== 'uint8') o.quantType = attrs.quantType;
  if (attrs.quantType === 'uint8' || attrs.bits !== 4) o.bits = attrs.bits;
  o.blockSize = attrs.blockSize;
  if (attrs.gatherAxis !== 0) o.gatherAxis = attrs.gatherAxis;
  if (attrs.quantizeAxis !== -1) o.quantizeAxis = attrs.quantizeAxis;
  if (attrs.scaleType === 'bfloat16') o.scaleType = 'bfloat16';
  if (attrs.outOfRange !== 'error') o.outOfRange = attrs.outOfRange;
  if (zeroPoints) o.zeroPoints = zeroPoints;
  return o;
}

/** Runs gatherBlockQuantized on a call of the editor ({ data, indices, scales, zeroPoints, attrs }). */
export function callQuantized(api, { data, indices, scales, zeroPoints, attrs }) {
  return api.gatherBlockQuantized(data, indices, scales, quantOpts(attrs, zeroPoints));
}

/** The options object the op takes (only what differs from the defaults). */
function optsOf(op, attrs) {
  const o = {};
  if (op === 'take' && attrs.axis !== 0) o.axis = attrs.axis;
  if (op !== 'gather' && attrs.batchDims !== 0) o.batchDims = attrs.batchDims;
  if (attrs.outOfRange !== 'error') o.outOfRange = attrs.outOfRange;
  return o;
}

/** Runs api[op] on data and indices (tensors or resident tensors); extra goes into opts. */
export function callOp(api, op, data, indices, attrs, extra = {}) {
  const opts = op === 'gather' ? { dim: attrs.dim, ...optsOf(op, attrs) } : optsOf(op, attrs);
  return caller(api, { op, opts }, extra)(data, indices);
}

/** `take(params, indices, { axis: 1 })` */
export function callText(op, attrs, zeroPoints = null) {
  const n = NAMES[op];
  if (op === QUANTIZED) {
    const o = quantOpts(attrs, zeroPoints);
    const text = Object.entries(o).map(([k, v]) => (k === 'zeroPoints' ? k : `${k}: ${JSON.stringify(v).replace(/"/g, "'")}`));
    return `${op}(${n.data}, ${n.indices}, scales, { ${text.join(', ')} })`;
  }
  const o = optsOf(op, attrs);
  const opts = Object.keys(o).length
    ? `, { ${Object.entries(o).map(([k, v]) => `${k}: ${JSON.stringify(v).replace(/"/g, "'")}`).join(', ')} }` : '';
  return op === 'gather' ? `gather(${n.data}, ${attrs.dim}, ${n.indices}${opts})` : `${op}(${n.data}, ${n.indices}${opts})`;
}
