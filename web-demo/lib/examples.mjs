// The examples the editor can load: every seed example of the specifications
// (common/seed-examples.mjs, grouped by op) and a few starters for what the seeds do not show
// (they have no tf.gather example, nor out-of-range modes). A preset is
//   { id, op, title, source, seed: the seed example or null, load(): { data, indices, attrs } }
// where load() may build large tensors (the shape-only seeds), so it runs only when chosen.

const I32 = Int32Array;
const F32 = Float32Array;
const t = (Type, values, shape) => ({ data: Type.from(values), shape });
const iota = (n, from = 1) => Array.from({ length: n }, (_, i) => i + from);

export const OPS = ['gather', 'gatherND', 'take'];
export const OP_LABEL = { gather: 'gather (torch.gather)', gatherND: 'gatherND (tf.gather_nd)', take: 'take (tf.gather)' };

/** Attributes of a call, with the defaults the editor shows. */
function attrsOf(opts = {}, dim) {
  return {
    dim: dim ?? 0,
    axis: opts.axis ?? 0,
    batchDims: opts.batchDims ?? 0,
    outOfRange: opts.outOfRange ?? 'error',
  };
}

const STARTERS = [
  {
    op: 'take', title: 'Rows by index, a negative one counts from the end',
    data: t(I32, iota(9), [3, 3]), indices: t(I32, [2, -3, 1], [3]), opts: { axis: 0 },
  },
  {
    op: 'take', title: 'Columns (axis 1) by a 2-D index tensor',
    data: t(I32, iota(12), [3, 4]), indices: t(I32, [3, 0, 1, 1], [2, 2]), opts: { axis: 1 },
  },
  {
    op: 'take', title: 'batchDims 1: each row picks its own columns',
    data: t(F32, [1.5, 2.5, 3.5, 4.5, 5.5, 6.5], [2, 3]), indices: t(I32, [2, 0, 1, 1], [2, 2]), opts: { axis: 1, batchDims: 1 },
  },
  {
    op: 'take', title: "outOfRange 'clamp': -9 wraps once then clamps, 5 clamps",
    data: t(I32, [10, 20, 30, 40], [4]), indices: t(I32, [5, -1, -9, 2], [4]), opts: { outOfRange: 'clamp' },
  },
  {
    op: 'gatherND', title: "outOfRange 'zero': a bad row index gives a row of zeros",
    data: t(F32, iota(6), [3, 2]), indices: t(I32, [0, 7, -1], [3, 1]), opts: { outOfRange: 'zero' },
  },
  {
    op: 'gather', title: 'gather along dim 0 of a 3-D tensor',
    data: t(I32, iota(12), [2, 3, 2]), indices: t(I32, [1, 0, 0, 1, 1, 1], [1, 3, 2]), dim: 0,
  },
];

const copy = (x) => ({ data: x.data.slice(), shape: x.shape.slice() });

/** All presets: seeds first (in their order), then the starters. */
export function presets(seedExamples) {
  const list = seedExamples.map((ex, i) => ({
    id: `seed-${i}`, op: ex.op, title: ex.title, source: ex.source, seed: ex, seedIndex: i,
    load() {
      const [data, a1, a2] = ex.args;
      const indices = ex.op === 'gather' ? a2 : a1;
      // Large shape-only tensors are not copied: the editor never changes them in place.
      return { data, indices, attrs: attrsOf(ex.opts, ex.op === 'gather' ? a1 : undefined) };
    },
  }));
  STARTERS.forEach((s, i) => list.push({
    id: `starter-${i}`, op: s.op, title: s.title, source: 'demo starter', seed: null,
    load: () => ({ data: copy(s.data), indices: copy(s.indices), attrs: attrsOf(s.opts, s.dim) }),
  }));
  return list;
}
