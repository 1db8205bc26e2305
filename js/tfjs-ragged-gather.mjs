// wasm-gather/tfjs's RaggedGather kernel (tf.raggedGather), registered by js/tfjs.mjs on 'cpu'
// (in place of tfjs-backend-cpu's) and on 'wasm' (where tfjs-backend-wasm 4.22 has none:
// "Kernel 'RaggedGather' not registered for backend 'wasm'").
//
// Inputs paramsNestedSplits (the params' row splits, outermost first), paramsDenseValues (their
// flat values: rows of any shape) and indices (int32, any rank, into the params' outermost rows);
// attr outputRaggedRank. Outputs [...outputNestedSplits, outputDenseValues]: the rows the indices
// name, each with all its nested rows, as a ragged tensor of ragged rank
// indices.rank + paramsNestedSplits.length - 1 (the first indices.rank - 1 splits the indices'
// own dense dimensions, the others the selected rows' splits, renumbered).
//
// The splits (small int32 arrays) are computed here, in JS; the dense values' rows are copied by
// the op that serves GatherV2 (js/tfjs.mjs passes its descriptor), rows along axis 0 at the
// selected ranges' row numbers: on 'wasm' in tfjs's own memory (the guest, js/guest.mjs), bytes as
// they are (NaN payloads kept), on 'cpu' from the TypedArray as it is.
//
// Its checks are tfjs-backend-cpu's, in its order and with its messages (tfjs-core's own specs
// assert them word for word): indices in [0, the number of params rows), the params' rank, and each
// splits tensor non-empty, from 0 up, sorted and not past the values it splits. Where tfjs checks
// nothing and reads wrongly it is refused, with TensorFlow's rules (its RaggedGather op's shape
// function): outputRaggedRank must be indices.rank + paramsNestedSplits.length - 1 (tfjs-backend-cpu
// ignores it, so the count of splits returned was not the one asked for), and every splits tensor a
// vector (tfjs-backend-cpu checks the first is not a scalar and reads the others flattened).
// tfjs-core: https://github.com/tensorflow/tfjs/blob/tfjs-v4.22.0/tfjs-core/src/ops/ragged_gather.ts
// tfjs-backend-cpu: https://github.com/tensorflow/tfjs/blob/tfjs-v4.22.0/tfjs-backend-cpu/src/kernels/RaggedGather_impl.ts
// TensorFlow: https://github.com/tensorflow/tensorflow/blob/master/tensorflow/core/ops/ragged_array_ops.cc
// and tensorflow/core/kernels/ragged_gather_op.cc

const KERNEL = 'RaggedGather';

/**
 * The kernel's maker, of js/tfjs.mjs's form (tf, backendName, original, desc) => kernelFunc, given
 * what it needs of the adapter: adapter.access(backend) (a backend's io: view, empty, fromValues,
 * run), adapter.unserved and adapter.fallback (the calls not served and the kernel registered
 * before), adapter.served(key) (counts a served call).
 */
export function raggedGatherKernel(adapter) {
  return (tf, backendName, original, desc) => {
    const key = `${backendName}/${KERNEL}`;
    const { util } = tf;
    return (args) => {
      const { inputs: { paramsNestedSplits: splits = [], paramsDenseValues: values, indices }, backend, attrs = {} } = args;
      // dtypes: the values' as GatherV2's (float32, int32, bool), int32 indices and splits
      const badSplits = splits.findIndex((s) => s.dtype !== 'int32');
      const why = adapter.unserved(backend, values.dtype, indices) || (badSplits >= 0 ? 'splits' : '');
      if (why === 'splits' && !original) {
        throw new TypeError(`${KERNEL}: paramsNestedSplits[${badSplits}] must be int32, got ${splits[badSplits].dtype}: ` +
          `wasm-gather serves int32 splits, and tfjs's ${backendName} backend has no ${KERNEL} kernel of its own`);
      }
      if (why) return adapter.fallback(original, key, args, KERNEL, backendName, values.dtype, indices, why);

      checkShapes(splits, indices, attrs.outputRaggedRank);
      const io = adapter.access(backend);
      const idx = io.view(indices);
      const numParams = splits[0].shape[0] - 1;
      for (let i = 0; i < idx.length; i++) {
        if (idx[i] < 0 || idx[i] >= numParams) {
          const at = util.indexToLoc(i, indices.shape.length, util.computeStrides(indices.shape)).join(',');
          throw new Error(`indices[${at}] = ${idx[i]} is not in [0, ${numParams})`);
        }
      }
      if (values.shape.length === 0) throw new Error('params.rank must be nonzero');
      const splitValues = splits.map((s) => io.view(s));
      checkSplits(splitValues, values.shape[0]);

      const { outSplits, rows } = raggedRows(idx, indices.shape, splitValues);
      const outShape = [rows.length, ...values.shape.slice(1)];
      adapter.served(key);
      // The dense values first (the call that can fail), then the splits, made from their arrays.
      let dense;
      if (rows.length === 0 || outShape.includes(0)) {
        dense = io.empty(outShape, values.dtype);
      } else {
        const rowIndices = io.fromValues([rows.length], 'int32', rows);
        try {
          dense = io.run(desc, values, rowIndices, outShape, { axis: 0, batchDims: 0 });
        } finally {
          backend.disposeData(rowIndices.dataId);
        }
      }
      return [...outSplits.map((s) => io.fromValues([s.length], 'int32', s)), dense];
    };
  };
}

// The checks before the indices are read: tfjs-backend-cpu's on the first splits tensor, then
// TensorFlow's ranks (every splits tensor a vector, outputRaggedRank the output's ragged rank).
function checkShapes(splits, indices, outputRaggedRank) {
  if (splits.length === 0) throw new Error('paramsNestedSplits must be non empty');
  if (splits[0].shape.length === 0) throw new Error('Split tensors must not be scalars');
  splits.forEach((s, i) => {
    if (s.shape.length !== 1) {
      throw new Error(`${KERNEL}: paramsNestedSplits[${i}] must be a vector (rank 1), got shape [${s.shape}]`);
    }
  });
  const rank = indices.shape.length + splits.length - 1;
  if (outputRaggedRank !== rank) {
    throw new Error(`${KERNEL}: outputRaggedRank must be indices.rank + paramsNestedSplits.length - 1 = ` +
      `${indices.shape.length} + ${splits.length} - 1 = ${rank}, got ${outputRaggedRank}`);
  }
}

// tfjs-backend-cpu's checks of the splits, outermost first, each in its order: not empty, from 0
// up, its last not past what it splits (the next splits tensor's rows, or the values' rows), sorted.
function checkSplits(splitValues, valueRows) {
  splitValues.forEach((s, dim) => {
    const end = dim === splitValues.length - 1 ? valueRows : splitValues[dim + 1].length;
    if (s.length === 0) throw new Error('Ragged splits may not be empty');
    if (s[0] < 0) throw new Error('Ragged splits must be non-negative');
    if (s[s.length - 1] > end) throw new Error('Ragged splits must not point past values');
    for (let i = 1; i < s.length; i++) {
      if (s[i - 1] > s[i]) throw new Error('Ragged splits must be sorted in ascending order');
    }
  });
}

// The output's splits (Int32Arrays, outermost first) and the numbers of the values' rows to copy,
// in order (an Int32Array). The indices' dense dimensions but the last give uniform splits (for
// shape [2, 3, 4]: [0, 3, 6] and [0, 4, 8, ..., 24]); each index then adds its row's splits at
// every nested level, shifted to follow the rows already there, and the range of values its
// innermost rows span. The splits wrap to int32 when stored, as tfjs-backend-cpu's do.
function raggedRows(idx, indexShape, splitValues) {
  const dense = indexShape.length - 1; // splits of the indices' own dimensions (-1: scalar indices)
  const outSplits = [];
  for (let dim = 0, outer = 1; dim < dense; dim++) {
    outer *= indexShape[dim];
    const s = new Int32Array(outer + 1);
    for (let i = 1; i <= outer; i++) s[i] = i * indexShape[dim + 1];
    outSplits.push(s);
  }
  // the nested levels: the lengths first (each level's total is known only after the walk)
  const levels = splitValues.map((_, dim) => (dim + dense >= 0 ? [0] : null));
  const ranges = [];
  let count = 0;
  for (let i = 0; i < idx.length; i++) {
    let start = idx[i], limit = start + 1;
    splitValues.forEach((s, dim) => {
      const out = levels[dim];
      if (out) {
        const shift = out[out.length - 1] - s[start];
        for (let j = start; j < limit; j++) out.push(s[j + 1] + shift);
      }
      start = s[start];
      limit = s[limit];
    });
    if (limit !== start) {
      ranges.push(start, limit);
      count += limit - start;
    }
  }
  for (const out of levels) if (out) outSplits.push(Int32Array.from(out));
  const rows = new Int32Array(count);
  for (let r = 0, k = 0; r < ranges.length; r += 2) for (let v = ranges[r]; v < ranges[r + 1]; v++) rows[k++] = v;
  return { outSplits, rows };
}
