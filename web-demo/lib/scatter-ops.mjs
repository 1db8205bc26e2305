// One call of a scatter (scatter, scatterND, indexReduce, tensorScatter) from the editor's call
// { op, data, indices, updates, attrs }, and the same call as code. The arguments go where the
// op's descriptor (js/ops/) puts its parameters, so the page follows the API's own order.
import { opNamed } from '../../js/ops/index.mjs';
import { fmtNum } from './dom.mjs';

export const SCATTERS = ['scatter', 'scatterND', 'indexReduce', 'tensorScatter'];
export const isScatter = (op) => SCATTERS.includes(op);

/** The reductions the editor offers (the API also takes torch's names: sum, prod, amax, amin). */
export const REDUCES = ['none', 'add', 'mul', 'max', 'min', 'mean'];
/** torch's names, as the editor shows them. */
export const REDUCE_ALIASES = { sum: 'add', prod: 'mul', amax: 'max', amin: 'min' };

/** The options that differ from the op's defaults (tensorScatter's axis defaults to -2). */
export function scatterOpts(op, attrs) {
  const o = {};
  if (op === 'tensorScatter') {
    if (attrs.axis !== -2) o.axis = attrs.axis;
    if (attrs.mode !== 'linear') o.mode = attrs.mode;
    return o;
  }
  if (attrs.reduce !== 'none') o.reduce = attrs.reduce;
  if (attrs.includeSelf === false) o.includeSelf = false;
  if (attrs.outOfRange !== 'error') o.outOfRange = attrs.outOfRange;
  return o;
}

/** scatter's src given as a value (torch's scatter_(dim, index, value)): a rank-0 updates tensor. */
export const srcValue = (call) => (call.op === 'scatter' && call.updates.shape.length === 0 ? call.updates.data[0] : undefined);

/** The op's arguments before opts, by its parameter names. */
function args(call) {
  const desc = opNamed(call.op);
  const { data, indices, updates } = desc.tensors;
  const value = srcValue(call);
  return desc.params.slice(0, -1).map((p) => (p === data ? call.data : p === indices ? call.indices
    : p === updates ? value ?? call.updates : call.attrs[p]));
}

/** Runs the scatter; extra goes into its options. */
export function callScatter(api, call, extra = {}) {
  return api[call.op](...args(call), { ...scatterOpts(call.op, call.attrs), ...extra });
}

/** `scatter(input, 0, index, 1, { reduce: 'add' })` */
export function scatterText(call) {
  const desc = opNamed(call.op);
  const { data, indices, updates } = desc.tensors;
  const value = srcValue(call);
  const o = scatterOpts(call.op, call.attrs);
  const text = Object.entries(o).map(([k, v]) => `${k}: ${typeof v === 'string' ? `'${v}'` : v}`);
  const list = desc.params.slice(0, -1).map((p) => (p === indices && !call.indices ? 'null'
    : p === updates && value !== undefined ? fmtNum(value)
      : p === data || p === indices || p === updates ? p : String(call.attrs[p])));
  // tensorScatter without writeIndices and options: the optional argument left out
  if (list.at(-1) === 'null' && !text.length) list.pop();
  return `${call.op}(${list.join(', ')}${text.length ? `, { ${text.join(', ')} }` : ''})`;
}
