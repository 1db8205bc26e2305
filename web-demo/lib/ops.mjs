// One call of the chosen op with the editor's attributes, and the same call as code.
import { caller } from '../../common/op-caller.mjs';
import { OPS, opNamed } from '../../js/ops/index.mjs';

/** What each op calls its tensors (its descriptor's names, js/ops/). */
export const NAMES = Object.fromEntries(OPS.map((d) => [d.name, d.names]));

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

// The editor's attributes that are options of some op, and their defaults.
const OPTION_DEFAULTS = { axis: 0, batchDims: 0 };

/** The options object the op takes (only what differs from the defaults). */
function optsOf(op, attrs) {
  const o = {};
  for (const name of opNamed(op).options) {
    if (name in OPTION_DEFAULTS && attrs[name] !== OPTION_DEFAULTS[name]) o[name] = attrs[name];
  }
  if (attrs.outOfRange !== 'error') o.outOfRange = attrs.outOfRange;
  return o;
}

// The op's positional parameters besides opts: its two tensors, and attributes (gather's dim).
const positional = (op) => opNamed(op).params.slice(0, -1);
const isTensor = (op, p) => p === NAMES[op].data || p === NAMES[op].indices;

/** Runs api[op] on data and indices (tensors or resident tensors); extra goes into opts. */
export function callOp(api, op, data, indices, attrs, extra = {}) {
  const opts = optsOf(op, attrs);
  for (const p of positional(op)) if (!isTensor(op, p)) opts[p] = attrs[p];
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
  const args = positional(op).map((p) => (isTensor(op, p) ? p : String(attrs[p])));
  return `${op}(${args.join(', ')}${opts})`;
}
