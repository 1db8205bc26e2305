// One call of the chosen op with the editor's attributes, and the same call as code.
import { caller } from '../../common/op-caller.mjs';

export const NAMES = {
  gather: { data: 'input', indices: 'index' },
  gatherND: { data: 'params', indices: 'indices' },
  take: { data: 'params', indices: 'indices' },
};

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
export function callText(op, attrs) {
  const n = NAMES[op];
  const o = optsOf(op, attrs);
  const opts = Object.keys(o).length
    ? `, { ${Object.entries(o).map(([k, v]) => `${k}: ${JSON.stringify(v).replace(/"/g, "'")}`).join(', ')} }` : '';
  return op === 'gather' ? `gather(${n.data}, ${attrs.dim}, ${n.indices}${opts})` : `${op}(${n.data}, ${n.indices}${opts})`;
}
