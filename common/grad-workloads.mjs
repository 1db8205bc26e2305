// The G workloads (the bags' gradient, embeddingBagBackward and the TensorFlow.js gradients that it
// and the adapter's scatters serve), on the tensors of the workloads they are the gradients of:
//   G1: the gradient of E1 (common/bag-workloads.mjs: 4096 bags of 32 ids of a [262144, 128]
//       float32 table, mode sum) for its table, a gradient of the output drawn here;
//   G2: one SGD step of a model of G1's size, E1's table and ids as a sparseSegmentMean, the
//       output's gradient G1's (the loss sum(y * target), whose dL/dy is target exactly);
//   G3: tf.grad through tf.gatherND, W1's table and ids as 4096 index tuples of one.
// Each with the output every implementation is checked against before it is timed: G1's and
// G2's gradient by gradientReference below (or common/reference-bag-backward.mjs, where it exists:
// both are run and must agree), G2's table after the step from it, G3's gradient by counting the ids.
import { E_WORKLOADS, bagIds, makeBagTensors } from './bag-workloads.mjs';
import { embeddingGradient } from './tfjs-workloads.mjs';
import { WORKLOADS, fillRandom, makeTensors } from './workloads.mjs';

const byId = (list, id) => list.find((w) => w.id === id);
const E1 = byId(E_WORKLOADS, 'E1');

export const G_WORKLOADS = [
  { id: 'G1', mode: 'sum', seed: 301,
    title: 'the gradient of E1 (embeddingBag sum, 4096 bags of 32 ids of a [262144, 128] float32 table) for its table, added in place into a resident gradient table' },
  { id: 'G2', mode: 'mean', seed: 301, lr: 1 / 16,
    title: 'one SGD step (learning rate 1/16) of tf.sum(tf.sparse.sparseSegmentMean(table, ids, bags) * target): E1\'s [262144, 128] table and ids, G1\'s gradient as target' },
  { id: 'G3',
    title: 'tf.grad of tf.sum(tf.gatherND(params, tuples)): W1\'s [32000, 512] float32 params, 4096 index tuples of one' },
];

// Float32 values in [0, 1), 24 random bits each (exact in float32), as the E tables'.
function randomFloats(n, seed) {
  const words = fillRandom(new Uint8Array(n * 4), seed);
  const u = new Uint32Array(words.buffer), f = new Float32Array(words.buffer);
  for (let i = 0; i < n; i++) f[i] = (u[i] >>> 8) * 2 ** -24;
  return f;
}

/**
 * The gradient of fixed bags (2-D indices [B, L]) for a table of numWeights rows: each entry's
 * row of gradOutput, times s = fround(1 / L) for 'mean' (1 for 'sum'), added to the row it read, in
 * entry order, one float32 operation an element. The op's rule is a fused multiply-add of s * g
 * (docs/fused-gather-reduce.md); s a power of two here, s * g is exact and the fma one rounding
 * of the sum: fround of the double sum (two float32s summed in a double, then rounded, are rounded
 * once: 53 >= 2 * 24 + 2).
 */
export function gradientReference({ indices, gradOutput, numWeights, mode }) {
  const [B, L] = indices.shape, D = gradOutput.shape[1];
  const s = mode === 'mean' ? Math.fround(1 / L) : 1;
  if (Math.log2(s) % 1 !== 0) throw new Error('gradientReference: the scale must be a power of two (its product exact)');
  const out = new Float32Array(numWeights * D), ids = indices.data, g = gradOutput.data;
  for (let b = 0; b < B; b++) {
    for (let k = 0; k < L; k++) {
      const at = ids[b * L + k] * D;
      for (let d = 0; d < D; d++) out[at + d] += s * g[b * D + d];
    }
  }
  return out;
}

// The shared reference of embeddingBagBackward, where it exists (written beside the op): its
// result for the same call, or undefined.
async function sharedReference(w, t) {
  let mod;
  try {
    mod = await import('./reference-bag-backward.mjs');
  } catch {
    return undefined;
  }
  const fn = mod.embeddingBagBackward ?? mod.default;
  if (typeof fn !== 'function') return undefined;
  const r = await fn(t.gradOutput, t.indices, { mode: w.mode, numWeights: t.numWeights });
  return r.data ?? r;
}

/**
 * A workload's tensors and expected output:
 *   G1, G2: { indices ([4096, 32]), gradOutput ([4096, 128]), segmentIds (the bags as sorted ids),
 *             numWeights, grad (the expected gradient), reference (which computed it) };
 *   G2 also: { table (E1's), lr, expected (the table after one step) };
 *   G3: { params, tuples ([4096, 1]), expected (the gradient) }.
 * expected: what the runners' checked outputs must equal bitwise.
 */
export async function makeGradTensors(w) {
  if (w.id === 'G3') {
    const { data, indices } = makeTensors(byId(WORKLOADS, 'W1'));
    const tuples = { data: indices.data, shape: [indices.shape[0], 1] };
    return { params: data, tuples, expected: embeddingGradient(indices.data, data.shape[0], data.shape[1]), reference: 'the ids counted' };
  }
  const e = makeBagTensors(E1);
  const [rows, D] = e.table.shape;
  const t = {
    indices: e.indices, gradOutput: { data: randomFloats(e.indices.shape[0] * D, w.seed), shape: [e.indices.shape[0], D] },
    segmentIds: bagIds(), numWeights: rows,
  };
  t.grad = gradientReference({ ...t, mode: w.mode });
  t.reference = 'common/grad-workloads.mjs (gradientReference)';
  let shared;
  try {
    shared = await sharedReference(w, t);
  } catch (e) { // said in the workloads' table, the suite run on the local reference
    t.reference += ` (common/reference-bag-backward.mjs failed: ${e.message.split('\n')[0]})`;
  }
  if (shared) {
    const a = new Uint32Array(t.grad.buffer), b = new Uint32Array(shared.buffer, shared.byteOffset, shared.length);
    if (a.length !== b.length || a.some((x, i) => x !== b[i])) throw new Error(`${w.id}: common/reference-bag-backward.mjs and gradientReference differ`);
    t.reference = 'common/reference-bag-backward.mjs, equal to gradientReference';
  }
  if (w.id === 'G1') return { ...t, expected: t.grad };
  // tfjs's SGD: value + (-lr) * grad, each a float32 operation (the product exact: lr a power of two)
  const table = e.table, c = Math.fround(-w.lr);
  const expected = new Float32Array(table.data.length);
  for (let i = 0; i < expected.length; i++) expected[i] = Math.fround(table.data[i] + Math.fround(c * t.grad[i]));
  return { ...t, table, lr: w.lr, expected };
}

/** The bytes of G1's bound: the bag rows' bytes (entries x row), read and written once. */
export const boundBytes = (t) => t.indices.data.length * t.gradOutput.shape[1] * 4;
