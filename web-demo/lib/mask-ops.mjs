// One call of a mask op (nonZero, booleanMask, compress, maskedScatter) from the masks section's
// call { op, x, mask, source, attrs: { axis, layout, indexType } }, and the same call as code.

export const MASK_OPS = ['nonZero', 'booleanMask', 'compress', 'maskedScatter'];
export const isMaskOp = (op) => MASK_OPS.includes(op);

/** Each op's tensors, by the names its documents give them ('' : the op has none). */
export const MASK_NAMES = {
  nonZero: { x: 'x', mask: '', source: '' },
  booleanMask: { x: 'x', mask: 'mask', source: '' },
  compress: { x: 'input', mask: 'condition', source: '' },
  maskedScatter: { x: 'x', mask: 'mask', source: 'source' },
};
/** The options each op takes (besides out and resident). */
export const MASK_ATTRS = { nonZero: ['layout', 'indexType'], booleanMask: ['axis'], compress: ['axis'], maskedScatter: [] };

/** The editor's attributes of an example's options. */
export function maskAttrs(opts = {}) {
  return { axis: opts.axis ?? null, layout: opts.layout ?? 'onnx', indexType: opts.indexType ?? 'int32' };
}

/** The call's options: only those the op takes, and for each only a value that is not its default. */
export function maskOpts(op, attrs) {
  const o = {};
  if (op === 'nonZero') {
    if (attrs.layout !== 'onnx') o.layout = attrs.layout;
    if (attrs.indexType !== 'int32') o.indexType = attrs.indexType;
  } else if ((op === 'booleanMask' || op === 'compress') && attrs.axis !== null) {
    if (op === 'compress' || attrs.axis !== 0) o.axis = attrs.axis; // compress: no axis flattens
  }
  return o;
}

/** The call on `api` (the library, or common/reference-mask.mjs's refMaskOps). */
export function callMask(api, { op, x, mask, source, attrs }) {
  const opts = maskOpts(op, attrs);
  if (op === 'nonZero') return api.nonZero(x, opts);
  if (op === 'maskedScatter') return api.maskedScatter(x, mask, source, opts);
  return api[op](x, mask, opts);
}

/** The call as code: nonZero(x, { layout: 'torch' }). */
export function maskText(call) {
  const names = MASK_NAMES[call.op];
  const opts = Object.entries(maskOpts(call.op, call.attrs)).map(([k, v]) => `${k}: ${typeof v === 'string' ? `'${v}'` : v}`);
  const args = [names.x, names.mask, names.source].filter(Boolean);
  return `${call.op}(${args.join(', ')}${opts.length ? `, { ${opts.join(', ')} }` : ''})`;
}
