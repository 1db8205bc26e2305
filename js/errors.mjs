// Turns a wg_status and its wg_error_info (src/wasm_gather.h) into an Error whose message names
// the op, the argument and the rule. The rules themselves live in C; only the words live here.

const S = {
  OK: 0, INVALID_ARGUMENT: 1, RANK: 2, AXIS: 3, BATCH_DIMS: 4, BATCH_SHAPE: 5, INDEX_SHAPE: 6,
  INDEX_DEPTH: 7, INDEX_OUT_OF_RANGE: 8, SIZE_OVERFLOW: 9, OUT_OF_MEMORY: 10,
};
const ARG_DATA = 1, ARG_INDICES = 2, ARG_OUT = 5;

/** Positions in a row-major tensor of the given shape, as "[i, j, k]". */
export function coordinates(position, shape) {
  const idx = new Array(shape.length);
  for (let d = shape.length - 1; d >= 0; d--) {
    idx[d] = position % shape[d];
    position = Math.floor(position / shape[d]);
  }
  return `[${idx.join(', ')}]`;
}

/**
 * ctx: { op, names: { data, indices, axis }, dataShape, indexShape, indexData }
 * err: { arg, dim, value, limit, position } as Numbers (value as BigInt too, for indices).
 */
export function statusError(status, err, ctx) {
  const { op, names, dataShape, indexShape } = ctx;
  const N = names;
  switch (status) {
    case S.RANK:
      if (err.arg === ARG_OUT) {
        return new RangeError(`${op}: the output would have rank ${err.value}, more than the ${err.limit} dimensions wasm-gather supports`);
      }
      if (op === 'gather') {
        return new RangeError(`${op}: ${N.indices} must have the same rank as ${N.data} ` +
          `(${N.indices} has rank ${indexShape.length}, ${N.data} has rank ${dataShape.length})`);
      }
      if (err.arg === ARG_DATA) {
        return new RangeError(`${op}: ${N.data} must have rank at least 1, got a scalar (rank 0)`);
      }
      return new RangeError(`${op}: ${N.indices} must have rank at least 1 (its last dimension holds the index tuples), got rank ${indexShape.length}`);
    case S.AXIS:
      return new RangeError(`${op}: ${N.axis} ${err.value} is out of range for ${N.data} of rank ${dataShape.length} ` +
        `(expected ${-err.limit} <= ${N.axis} < ${err.limit})`);
    case S.BATCH_DIMS:
      if (op === 'take' && err.dim >= 0) {
        return new RangeError(`${op}: batchDims (${err.value}) must be <= axis (${err.dim})`);
      }
      if (op === 'take') {
        return new RangeError(`${op}: batchDims ${err.value} is out of range for ${N.indices} of rank ${indexShape.length} ` +
          `(expected ${-err.limit} <= batchDims <= ${err.limit})`);
      }
      return new RangeError(`${op}: batchDims ${err.value} is out of range (expected 0 <= batchDims <= ${err.limit}: ` +
        `less than the rank of ${N.indices} (${indexShape.length}) and of ${N.data} (${dataShape.length}))`);
    case S.BATCH_SHAPE:
      return new RangeError(`${op}: batch dimension ${err.dim} differs: ${N.data}.shape[${err.dim}] is ${err.limit} but ` +
        `${N.indices}.shape[${err.dim}] is ${err.value} (the first batchDims dimensions of both must be equal)`);
    case S.INDEX_SHAPE:
      return new RangeError(`${op}: ${N.indices}.shape[${err.dim}] (${err.value}) must be <= ${N.data}.shape[${err.dim}] ` +
        `(${err.limit}) in every dimension except ${N.axis}`);
    case S.INDEX_DEPTH:
      return new RangeError(`${op}: ${N.indices}.shape[-1] (${err.value}), the length of each index tuple, must be <= ` +
        `${N.data} rank - batchDims (${err.limit})`);
    case S.INDEX_OUT_OF_RANGE: {
      const value = ctx.indexData[err.position];
      const s = err.limit;
      return new RangeError(`${op}: ${N.indices}${coordinates(err.position, indexShape)} = ${value} is out of range ` +
        `for dimension ${err.dim} of ${N.data}, which has size ${s} (valid indices: ${-s} <= i < ${s}; ` +
        `opts.outOfRange 'zero' or 'clamp' accept it)`);
    }
    case S.SIZE_OVERFLOW:
    case S.OUT_OF_MEMORY:
      return new RangeError(`${op}: the output is larger than wasm memory can hold`);
    default:
      return new Error(`${op}: internal error (status ${status})`);
  }
}

export const STATUS = S;
