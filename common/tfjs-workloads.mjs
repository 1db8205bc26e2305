// The U workloads of the T suite: what wasm-gather/tfjs's scatter kernels serve in a TensorFlow.js
// application, on the tensors of the W and S workloads they mirror (the same generators and
// seeds): U1 an embedding table's gradient step (W1's table and ids), U2 tf.scatterND of
// embedding rows (S1's ids and rows), U3 the KV-cache write by tf.tensorScatterUpdate (S2a's cache,
// as [4096, 1024]). Each with its expected output, computed here without tfjs: U2 and U3 by
// refScatterND (updates applied in index order, one float32 operation at a time), U1's gradient
// by counting the ids.
import { refScatterND } from './reference-scatter.mjs';
import { S_WORKLOADS, makeScatterTensors } from './scatter-workloads.mjs';
import { WORKLOADS, makeTensors } from './workloads.mjs';

const byId = (list, id) => list.find((w) => w.id === id);

/**
 * The gradient of sum(gather(table, ids)) with respect to a table of `rows` rows of `width`: each
 * row the number of times its index occurs in ids (ids taken modulo rows: the smaller tables of
 * the stock kernel's fit).
 */
export function embeddingGradient(ids, rows, width) {
  const counts = new Float32Array(rows);
  for (const i of ids) counts[i % rows]++;
  const g = new Float32Array(rows * width);
  for (let r = 0; r < rows; r++) g.fill(counts[r], r * width, (r + 1) * width);
  return g;
}

export const U_WORKLOADS = [
  {
    id: 'U1', title: 'embedding gradient step: tf.variableGrads of tf.sum(tf.gather(table, ids)), table [32000, 512], 4096 ids',
    make() {
      const { data, indices } = makeTensors(byId(WORKLOADS, 'W1'));
      return { table: data, ids: indices, expected: embeddingGradient(indices.data, data.shape[0], data.shape[1]) };
    },
  },
  {
    id: 'U2', title: 'tf.scatterND of 4096 rows of 512 (random rows, repeats summed) into [32000, 512]',
    make() {
      const t = makeScatterTensors(byId(S_WORKLOADS, 'S1'));
      const indices = { data: t.indices.data, shape: [t.indices.shape[0], 1] };
      return { shape: t.data.shape, indices, updates: t.updates, expected: refScatterND(t.data, indices, t.updates, { reduce: 'add' }).data };
    },
  },
  {
    id: 'U3', title: 'KV-cache write: tf.tensorScatterUpdate of 1 row of 1024 into [4096, 1024] at row 2047',
    make() {
      const t = makeScatterTensors(byId(S_WORKLOADS, 'S2a'));
      const [, L, C] = t.data.shape;
      const data = { data: t.data.data, shape: [L, C] };
      const indices = { data: Int32Array.from(t.writeIndices.data), shape: [1, 1] };
      const updates = { data: t.update.data, shape: [1, C] };
      return { data, indices, updates, expected: refScatterND(data, indices, updates).data };
    },
  },
];
