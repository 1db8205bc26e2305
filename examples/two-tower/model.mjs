// The two-tower model: a user tower and an item tower, each one table resident in wasm memory and
// one embeddingBag (the mean of the rows of the user's or item's feature ids); the score of a
// user and an item is the dot product of their two vectors. Trained with an in-batch sampled
// softmax, its gradient worked out in plain JS on the small [batch, dim] outputs, sent back into
// each table's gradient by embeddingBagBackward, and applied with a sparse Adagrad step.
import { embeddingBag, embeddingBagBackward, upload } from 'wasm-gather';
import { ITEMS, ITEM_FEATURES, ITEM_ROWS, USER_ROWS, itemBags, rng, userBags } from './data.mjs';

/** n floats from N(0, std²) by Box-Muller (https://en.wikipedia.org/wiki/Box%E2%80%93Muller_transform). */
function normals(next, n, std) {
  const out = new Float32Array(n);
  for (let i = 0; i < n; i += 2) {
    const r = Math.sqrt(-2 * Math.log(1 - next())) * std;
    const theta = 2 * Math.PI * next();
    out[i] = r * Math.cos(theta);
    if (i + 1 < n) out[i + 1] = r * Math.sin(theta);
  }
  return out;
}

/** One tower: its table and its gradient accumulator (both resident), and Adagrad's sums (in JS). */
function tower(rows, dim, next) {
  return {
    table: upload({ data: normals(next, rows * dim, 0.1), shape: [rows, dim] }),
    grad: upload({ data: new Float32Array(rows * dim), shape: [rows, dim] }), // zeros
    sums: new Float32Array(rows * dim), // Adagrad's sums of squared gradients, from 0 (as torch.optim.Adagrad)
    touched: new Uint8Array(rows), // rows already updated this step (an id can come more than once)
  };
}

/**
 * Sparse Adagrad (Duchi, Hazan and Singer, https://jmlr.org/papers/v12/duchi11a.html) on the rows
 * that `ids` read: sum += g², w -= lr * g / (√sum + 1e-10) (torch.optim.Adagrad's defaults,
 * https://pytorch.org/docs/stable/generated/torch.optim.Adagrad.html), then the row's gradient
 * back to zero.
 *
 * Done in plain JS on the tables' view() (their bytes in wasm memory, no copy), for two reasons:
 * a step touches only the rows that the batch's ids read (here about 700 of the user table's 2,016
 * rows and 220 of the item table's 2,216), so its cost follows the batch, not the table (a dense
 * update of every row would cost millions of rows a step in a real catalogue); and it is a few
 * lines a user can change (plain SGD, momentum, clipping) without waiting for an op: the library
 * has no optimizer op. Zeroing those rows leaves the accumulator all zeros for the next step's
 * in-place embeddingBagBackward (cheaper than `out` without `inPlace`, which writes every row).
 */
function adagrad(t, ids, dim, lr) {
  // view() after the step's last op: an op may grow wasm memory, which detaches older views.
  const w = t.table.view();
  const g = t.grad.view();
  for (const r of ids) {
    if (t.touched[r]) continue;
    t.touched[r] = 1;
    for (let k = r * dim, end = k + dim; k < end; k++) {
      t.sums[k] += g[k] * g[k];
      w[k] -= lr * g[k] / (Math.sqrt(t.sums[k]) + 1e-10);
      g[k] = 0;
    }
  }
  for (const r of ids) t.touched[r] = 0;
}

/**
 * The model, its tables made from `seed`: { step(users, items) -> loss, userVectors(users),
 * itemVectors(items), dispose(), time }. catalogue: the items' { genre, creator } (data.mjs).
 * logQ: each item's log frequency among the training positives, for the sampling correction.
 */
export function makeModel(catalogue, { dim = 32, lr = 0.05, seed = 1, logQ }) {
  const next = rng(seed ^ 0x7e57);
  const users = tower(USER_ROWS, dim, next);
  const items = tower(ITEM_ROWS, dim, next);
  const time = { calls: 0, update: 0 }; // ms in wasm-gather's calls and in Adagrad, for the printout

  const userInput = (list) => {
    const { ids, offsets } = userBags(list);
    return { indices: { data: ids, shape: [ids.length] }, opts: { offsets, mode: 'mean' } };
  };
  const itemInput = (list) => ({ indices: { data: itemBags(catalogue, list), shape: [list.length, ITEM_FEATURES] }, opts: { mode: 'mean' } });

  /** Users' vectors [n, dim]: the mean of their age's, region's and history items' rows. */
  const userVectors = (list) => { const u = userInput(list); return embeddingBag(users.table, u.indices, u.opts); };
  /** Items' vectors [n, dim]: the mean of their id's, genre's and creator's rows. */
  const itemVectors = (list) => { const v = itemInput(list); return embeddingBag(items.table, v.indices, v.opts); };

  /**
   * One training step on a batch of (user, positive item) pairs: each user's positive against the
   * batch's other items (in-batch negatives), a softmax over z[i][j] = u_i . v_j - log q_j (the
   * logQ correction of Yi et al., "Sampling-Bias-Corrected Neural Modeling for Large Corpus Item
   * Recommendations", RecSys 2019: in-batch negatives come as often as items are consumed, and
   * would push popular items down; as KerasRS's SamplingProbabilityCorrection,
   * https://keras.io/keras_rs/api/retrieval_layers/sampling_probability_correction).
   * Returns the batch's mean cross-entropy before the step.
   */
  function step(batchUsers, batchItems) {
    const B = batchUsers.length;
    const u = userInput(batchUsers);
    const v = itemInput(batchItems);
    // Forward: two embeddingBag calls, [B, dim] each.
    let t0 = performance.now();
    const U = embeddingBag(users.table, u.indices, u.opts).data;
    const V = embeddingBag(items.table, v.indices, v.opts).data;
    time.calls += performance.now() - t0;
    // The loss and its gradient for U and V, in plain JS: B x B dot products of dim, then the
    // gradient dz = (softmax - identity) / B of the scores, and dU = dz V, dV = dz' U.
    const dz = new Float64Array(B * B);
    const shift = Float64Array.from(batchItems, (j) => -logQ[j]);
    let loss = 0;
    for (let i = 0; i < B; i++) {
      const row = dz.subarray(i * B, (i + 1) * B);
      let top = -Infinity;
      for (let j = 0; j < B; j++) {
        let s = shift[j];
        for (let k = 0, a = i * dim, b = j * dim; k < dim; k++) s += U[a + k] * V[b + k];
        row[j] = s;
        if (s > top) top = s;
      }
      let sum = 0;
      for (let j = 0; j < B; j++) sum += (row[j] = Math.exp(row[j] - top));
      loss -= Math.log(row[i] / sum);
      for (let j = 0; j < B; j++) row[j] = (row[j] / sum - (i === j ? 1 : 0)) / B;
    }
    const dU = new Float64Array(B * dim);
    const dV = new Float64Array(B * dim);
    for (let i = 0; i < B; i++) {
      for (let j = 0; j < B; j++) {
        const g = dz[i * B + j];
        for (let k = 0, a = i * dim, b = j * dim; k < dim; k++) {
          dU[a + k] += g * V[b + k];
          dV[b + k] += g * U[a + k];
        }
      }
    }
    // Backward: each tower's output gradient added into its table's gradient, where it lives.
    t0 = performance.now();
    embeddingBagBackward({ data: Float32Array.from(dU), shape: [B, dim] }, u.indices, { ...u.opts, out: users.grad, inPlace: true });
    embeddingBagBackward({ data: Float32Array.from(dV), shape: [B, dim] }, v.indices, { ...v.opts, out: items.grad, inPlace: true });
    time.calls += performance.now() - t0;
    t0 = performance.now();
    adagrad(users, u.indices.data, dim, lr);
    adagrad(items, v.indices.data, dim, lr);
    time.update += performance.now() - t0;
    return loss / B;
  }

  const dispose = () => { for (const t of [users, items]) { t.table.dispose(); t.grad.dispose(); } };
  return { step, userVectors, itemVectors, dispose, dim, time };
}

/** The k best items for each user (vectors U [n, dim] against all items' V [ITEMS, dim]), leaving out `exclude(u)`. */
export function topK(U, V, dim, k, exclude) {
  const n = U.length / dim;
  const out = [];
  const scores = new Float64Array(ITEMS);
  for (let u = 0; u < n; u++) {
    for (let j = 0; j < ITEMS; j++) {
      let s = 0;
      for (let d = 0; d < dim; d++) s += U[u * dim + d] * V[j * dim + d];
      scores[j] = s;
    }
    for (const j of exclude(u)) scores[j] = -Infinity;
    out.push(best(scores, k));
  }
  return out;
}

/** The indices of the k largest scores, best first (ties: the lower index). */
export function best(scores, k) {
  const top = [];
  for (let j = 0; j < scores.length; j++) {
    if (top.length === k && scores[j] <= scores[top[k - 1]]) continue;
    if (top.length === k) top.pop();
    let p = top.length;
    while (p > 0 && scores[top[p - 1]] < scores[j]) p--;
    top.splice(p, 0, j);
  }
  return top;
}
