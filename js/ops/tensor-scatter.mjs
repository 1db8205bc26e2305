// tensorScatter: ONNX TensorScatter, the KV-cache write (src/op_tensor_scatter.c).
import { defineOp } from '../call.mjs';
import { coordinates } from '../errors.mjs';
import { scatterData, updatesTensor } from '../scatter-options.mjs';
import { indexTensor, integerArg, typeName } from '../tensor.mjs';

const OP = 'tensorScatter';
const MODES = ['linear', 'circular'];

const desc = {
  name: OP,
  c: 'tensor_scatter',
  params: ['cache', 'update', 'writeIndices', 'opts'],
  tensors: { data: 'cache', indices: 'writeIndices', updates: 'update' },
  attributes: ['axis', 'circular'],
  axis: 'opts.axis',
  options: ['axis', 'mode', 'inPlace', 'dtype'],
  common: ['out', 'resident'],
  policy: { mode: 'error', negative: 'error' }, // its write indices' rule is its own (C)
  fromData: true,
  read(s, [cache, update, writeIndices, opts]) {
    const d = scatterData(OP, 'cache', cache, s, opts);
    const t = { data: d, updates: updatesTensor(OP, 'update', update, s, d) };
    // absent: every batch row is written from position 0 (an empty shape for messages)
    t.indices = writeIndices == null ? undefined : indexTensor(OP, 'writeIndices', writeIndices, s);
    return t;
  },
  attrs(o) {
    const mode = o.mode ?? 'linear';
    if (!MODES.includes(mode)) {
      throw new RangeError(`${OP}: opts.mode must be 'linear' or 'circular', got ${typeof mode === 'string' ? JSON.stringify(mode) : typeName(mode)}`);
    }
    return { attrs: [integerArg(OP, 'opts.axis', o.axis, -2), mode === 'circular' ? 1 : 0] };
  },
  messages: {
    WG_ERR_AXIS: (e) => `${OP}: opts.axis ${e.value} is out of range for cache of rank ${e.limit}: once negatives are ` +
      `counted from the end it must be in [1, ${e.limit - 1}] (axis 0 is the batch)`,
    WG_ERR_UPDATES_SHAPE: (e, { dataShape, abi }) => (e.arg === abi.value('WG_ARG_AXIS')
      ? `${OP}: update.shape[${e.dim}] (${e.value}) is longer than the cache (${e.limit}) along opts.axis`
      : `${OP}: update must have cache's shape [${dataShape.join(', ')}] but along opts.axis` +
        (e.dim < 0 ? ` (update has rank ${e.value})` : ` (update.shape[${e.dim}] is ${e.value}, not ${e.limit})`)),
    WG_ERR_RANK_MISMATCH: (e, { dataShape }) => `${OP}: writeIndices must have shape [${dataShape[0]}] (one per batch row), got rank ${e.value}`,
    WG_ERR_INDEX_SHAPE: (e) => `${OP}: writeIndices must have shape [${e.limit}] (one per batch row), got [${e.value}]`,
    WG_ERR_INDEX_OUT_OF_RANGE: (e, { indexShape, indexData, dataShape }) => {
      const v = indexData[e.position], at = `${OP}: writeIndices${coordinates(e.position, indexShape)} = ${v}`;
      if (v < 0) return `${at} is negative (a write position counts from the start of the cache)`;
      return `${at} does not fit: the update's ${dataShape[e.dim] - e.limit + 1} positions from there pass the end of the cache's ` +
        `${dataShape[e.dim]} along axis ${e.dim} (valid: 0 <= i < ${e.limit}; opts.mode 'circular' wraps around)`;
    },
  },
};
export default desc;

/**
 * ONNX TensorScatter: out = cache with update written along opts.axis (default -2) from
 * position writeIndices[b] (0 when absent) of each batch row b, wrapping around in
 * opts.mode 'circular'. opts: { axis?, mode?, inPlace?, dtype?, out?, resident? }
 */
export const tensorScatter = defineOp(desc);
