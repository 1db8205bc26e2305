// Turns a wg_status and its wg_error_info (src/wasm_gather.h) into an Error whose message names
// the op, the argument and the rule. The rules live in C, one status each; only the words live
// here, keyed by the status's name (the numbers come from the module: js/abi.mjs).

/** Positions in a row-major tensor of the given shape, as "[i, j, k]". */
export function coordinates(position, shape) {
  const idx = new Array(shape.length);
  for (let d = shape.length - 1; d >= 0; d--) {
    idx[d] = position % shape[d];
    position = Math.floor(position / shape[d]);
  }
  return `[${idx.join(', ')}]`;
}

const tooLarge = (e, { op, names: N, abi }) => (e.arg === abi.value('WG_ARG_DATA')
  ? `${op}: ${N.data} has more elements than wasm memory can address (its logical shape: the stored shape with the last dimension times 8 / bits)`
  : e.arg === abi.value('WG_ARG_SEGMENTS')
    ? `${op}: opts.numSegments ${e.value} is more segments than wasm memory can hold the starts of`
    : `${op}: the output is larger than wasm memory can hold`);

// name -> (err, ctx) => message. err: { arg, dim, value, limit, position } as Numbers.
const MESSAGES = {
  WG_ERR_MAX_RANK: (e, { op, names: N, abi }) => (e.arg === abi.value('WG_ARG_OUT')
    ? `${op}: the output would have rank ${e.value}, more than the ${e.limit} dimensions wasm-gather supports`
    : `${op}: ${e.arg === abi.value('WG_ARG_DATA') ? N.data : N.indices} has rank ${e.value}, more than the ${e.limit} dimensions wasm-gather supports`),
  WG_ERR_DATA_SCALAR: (e, { op, names: N }) => `${op}: ${N.data} must have rank at least 1, got a scalar (rank 0)`,
  WG_ERR_INDICES_SCALAR: (e, { op, names: N }) =>
    `${op}: ${N.indices} must have rank at least 1 (its last dimension holds the index tuples), got rank ${e.value}`,
  WG_ERR_RANK_MISMATCH: (e, { op, names: N }) => `${op}: ${N.indices} must have the same rank as ${N.data} ` +
    `(${N.indices} has rank ${e.value}, ${N.data} has rank ${e.limit})`,
  WG_ERR_AXIS: (e, { op, names: N, abi }) => {
    const axis = e.arg === abi.value('WG_ARG_QUANTIZE_AXIS') ? 'opts.quantizeAxis' : N.axis;
    return `${op}: ${axis} ${e.value} is out of range for ${N.data} of rank ${e.limit} (expected ${-e.limit} <= ${axis} < ${e.limit})`;
  },
  WG_ERR_BATCH_DIMS_RANGE: (e, { op, names: N }) => `${op}: batchDims ${e.value} is out of range for ${N.indices} of rank ` +
    `${e.limit} (expected ${-e.limit} <= batchDims <= ${e.limit})`,
  WG_ERR_BATCH_DIMS_AFTER_AXIS: (e, { op }) => `${op}: batchDims (${e.value}) must be <= axis (${e.limit})`,
  WG_ERR_BATCH_DIMS_RANKS: (e, { op, names: N, dataShape, indexShape }) => `${op}: batchDims ${e.value} is out of range ` +
    `(expected 0 <= batchDims <= ${e.limit}: less than the rank of ${N.indices} (${indexShape.length}) and of ${N.data} (${dataShape.length}))`,
  WG_ERR_BATCH_SHAPE: (e, { op, names: N }) => `${op}: batch dimension ${e.dim} differs: ${N.data}.shape[${e.dim}] is ${e.limit} ` +
    `but ${N.indices}.shape[${e.dim}] is ${e.value} (the first batchDims dimensions of both must be equal)`,
  WG_ERR_INDEX_SHAPE: (e, { op, names: N }) => `${op}: ${N.indices}.shape[${e.dim}] (${e.value}) must be <= ` +
    `${N.data}.shape[${e.dim}] (${e.limit}) in every dimension except ${N.axis}`,
  WG_ERR_INDEX_DEPTH: (e, { op, names: N }) => `${op}: ${N.indices}.shape[-1] (${e.value}), the length of each index tuple, ` +
    `must be <= ${N.data} rank - batchDims (${e.limit})`,
  WG_ERR_INDEX_OUT_OF_RANGE: (e, { op, names: N, indexShape, indexData, negative, modes }) => {
    const lenient = modes.filter((m) => m !== 'error').map((m) => `'${m}'`).join(' or '); // the op's other modes
    const at = `${op}: ${N.indices}${coordinates(e.position, indexShape)} = ${indexData[e.position]}`;
    if (negative === 'error') {
      // Under the 'error' policy the valid indices are [0, size); a negative one is refused as such.
      if (indexData[e.position] < 0) {
        return `${at} is negative, and opts.negativeIndices is 'error' (valid indices: 0 <= i < ${e.limit})`;
      }
      return `${at} is out of range for dimension ${e.dim} of ${N.data}, which has size ${e.limit} ` +
        `(valid indices: 0 <= i < ${e.limit}; opts.outOfRange ${lenient} accept it)`;
    }
    return `${at} is out of range for dimension ${e.dim} of ${N.data}, which has size ${e.limit} ` +
      `(valid indices: ${-e.limit} <= i < ${e.limit}; opts.outOfRange ${lenient} accept it)`;
  },
  WG_ERR_UPDATES_SHAPE: (e, { op, names: N, dataShape, indexShape, updatesAtLeast }) => (e.dim < 0
    ? `${op}: ${N.updates} must have rank ${e.limit} (from ${N.data} [${dataShape.join(', ')}] and ${N.indices} [${indexShape.join(', ')}]), got rank ${e.value}`
    : `${op}: ${N.updates}.shape[${e.dim}] is ${e.value} but must be ${updatesAtLeast ? 'at least ' : ''}${e.limit} ` +
      `(from ${N.data} [${dataShape.join(', ')}] and ${N.indices} [${indexShape.join(', ')}])`),
  WG_ERR_UPDATES_TYPE: (e, { op, names: N }) => `${op}: ${N.updates} must have the element type of ${N.data}`,
  WG_ERR_REDUCE: (e, { op }) => `${op}: opts.reduce is not one this op has for its element type`,
  WG_ERR_MASK_SHAPE: (e, { op, names: N, dataShape, maskRank }) => {
    if (e.dim === -3) return `${op}: ${N.mask} must hold elements of whole bytes (any TypedArray)`;
    if (e.dim === -2) return `${op}: ${N.mask} has ${e.value} elements, more than the ${e.limit} it selects from (${N.data} [${dataShape.join(', ')}])`;
    if (e.dim === -1) return `${op}: ${N.mask} has rank ${e.value} but must have rank ${maskRank(e.limit)}`;
    return `${op}: ${N.mask}.shape[${e.dim}] is ${e.value} but must be ${e.limit}, the dimension of ${N.data} [${dataShape.join(', ')}] it covers`;
  },
  WG_ERR_MASK_SOURCE: (e, { op, names: N }) => `${op}: ${N.updates} has ${e.value} element${e.value === 1 ? '' : 's'} but ${N.mask} ` +
    `has ${e.limit} true elements, one for each (nothing was written)`,
  WG_ERR_SIZE_OVERFLOW: tooLarge,
  WG_ERR_OUT_OF_MEMORY: tooLarge,
};

/** The statuses that have a message here (a test checks that every status of C has one here or in an op's messages). */
export const STATUS_NAMES = Object.keys(MESSAGES);

/**
 * ctx: { op, abi, names: { data, indices, axis }, messages?, modes (the op's opts.outOfRange values), dataShape, indexShape, indexData, negative }
 * (messages: the op's own words for its own statuses, as MESSAGES; negative: the
 * opts.negativeIndices policy of the call, 'wrap' or 'error').
 * Shape rules are RangeErrors; a status without words here is an internal error. An index out
 * of range also carries error.index: { position, value, dim, size } (js/index.d.cts: IndexErrorInfo).
 */
export function statusError(status, err, ctx) {
  const name = ctx.abi.nameOf('WG_ERR_', status);
  const message = ctx.messages?.[name] ?? MESSAGES[name];
  if (!message) return new Error(`${ctx.op}: internal error (status ${status}${name ? `, ${name}` : ''})`);
  const error = new RangeError(message(err, ctx));
  // The first bad index as C found it, for callers that word it their own way (wasm-gather/tfjs).
  if (name === 'WG_ERR_INDEX_OUT_OF_RANGE') {
    error.index = { position: err.position, value: ctx.indexData[err.position], dim: err.dim, size: err.limit };
  }
  return error;
}
