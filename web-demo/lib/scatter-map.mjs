// Where each update of a scatter landed, and in which order, for the picture. An "update" here is
// one element of the updates (of the index tensor for scatter, whose src may be larger or a
// single value), numbered p in row-major order; the library applies them in index order, which
// for the updates that meet at one position is the order of p.
//
// The destinations come from the library itself, as the gathers' provenance does: each scatter
// addresses the data as the gather it inverts reads it (torch: scatter_ "is the reverse operation
// of the manner described in gather()"), so that gather over an "iota" tensor of the data's shape
// (values 1 + each position; 0 where an index is dropped) names every update's destination with
// the call's own index rules (negative indices, 'clamp', 'drop' as the gathers' 'zero'):
// scatter -> gather along dim, scatterND -> gatherND, indexReduce -> take along axis.
// tensorScatter's positions, writeIndices[b] + s (modulo the cache's length in 'circular' mode),
// are worked out here: its write indices have no policies to resolve, and the call has checked them.
import { numel, ravel, unravel } from '../../common/shape.mjs';

const GATHER_MODE = { error: 'error', drop: 'zero', clamp: 'clamp' };

function iota(shape) {
  const a = new Uint32Array(numel(shape));
  for (let i = 0; i < a.length; i++) a[i] = i + 1;
  return { data: a, shape };
}

/** Destinations (data flat positions, -1: dropped) of every update, by the gather each op inverts. */
function gathered(api, call) {
  const { op, data, indices, attrs } = call;
  const opts = { outOfRange: GATHER_MODE[attrs.outOfRange] };
  const out = op === 'scatter' ? api.gather(iota(data.shape), attrs.dim, indices, opts)
    : op === 'scatterND' ? api.gatherND(iota(data.shape), indices, opts)
      : api.take(iota(data.shape), indices, { ...opts, axis: attrs.axis });
  return Int32Array.from(out.data, (v) => v - 1);
}

/** tensorScatter's destinations: update[..., s, ...] of batch row b to position writeIndices[b] + s. */
function written(call) {
  const { data, indices, updates, attrs } = call;
  const rank = data.shape.length;
  const axis = attrs.axis < 0 ? attrs.axis + rank : attrs.axis;
  const L = data.shape[axis];
  const inner = numel(data.shape.slice(axis + 1));
  const dest = new Int32Array(numel(updates.shape));
  for (let p = 0; p < dest.length; p++) {
    const c = unravel(p, updates.shape);
    const w = indices ? Number(indices.data[c[0]]) : 0;
    const s = attrs.mode === 'circular' ? (w + c[axis]) % L : w + c[axis];
    const outer = Math.floor(p / (updates.shape[axis] * inner)); // the position's prefix, before the axis
    dest[p] = (outer * L + s) * inner + (p % inner);
  }
  return dest;
}

/**
 * The map of a successful call { op, data, indices, updates, attrs }:
 * { dest: Int32Array (p -> output flat position, -1 dropped), space: the updates' shape (index's for
 * scatter), updateCell(p): its flat position in the updates grid, indexCells(p): its positions in
 * the index grid, hits: Map(output flat -> [p, ...] in the order applied), order(p): its place
 * there (1-based), key(d): what shares a colour (an element, a slice, a row along the axis) }.
 */
export function scatterMap(api, call) {
  const { op, data, indices, updates, attrs } = call;
  let dest, space, updateCell, indexCells, key;
  if (op === 'scatter') {
    dest = gathered(api, call);
    space = indices.shape;
    const single = updates.shape.length === 0; // src as a value
    updateCell = single ? () => 0 : (p) => ravel(unravel(p, space), updates.shape);
    indexCells = (p) => [p];
    key = (d) => d;
  } else if (op === 'scatterND') {
    dest = gathered(api, call);
    space = updates.shape;
    const K = indices.shape.at(-1);
    const block = numel(data.shape.slice(K));
    updateCell = (p) => p;
    indexCells = (p) => Array.from({ length: K }, (_, k) => Math.floor(p / block) * K + k);
    key = (d) => Math.floor(d / block);
  } else if (op === 'indexReduce') {
    dest = gathered(api, call);
    space = updates.shape;
    const axis = attrs.axis < 0 ? attrs.axis + data.shape.length : attrs.axis;
    const inner = numel(data.shape.slice(axis + 1));
    const n = numel(indices.shape);
    updateCell = (p) => p;
    indexCells = (p) => [Math.floor(p / inner) % n];
    key = (d) => Math.floor(d / inner) % data.shape[axis];
  } else {
    dest = written(call);
    space = updates.shape;
    const rank = data.shape.length;
    const inner = numel(data.shape.slice((attrs.axis < 0 ? attrs.axis + rank : attrs.axis) + 1));
    updateCell = (p) => p;
    indexCells = indices ? (p) => [unravel(p, space)[0]] : () => [];
    key = (d) => Math.floor(d / inner);
  }
  const hits = new Map();
  const order = new Int32Array(dest.length);
  for (let p = 0; p < dest.length; p++) {
    if (dest[p] < 0) continue;
    const list = hits.get(dest[p]);
    if (list) list.push(p); else hits.set(dest[p], [p]);
    order[p] = hits.get(dest[p]).length;
  }
  return { dest, space, updateCell, indexCells, hits, order: (p) => order[p], key };
}

