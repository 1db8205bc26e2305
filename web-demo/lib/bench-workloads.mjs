// The benchmark workloads of common/workloads.mjs, full size or scaled down (same ops, options,
// generator and seeds; smaller leading dimensions) so that a run takes seconds and little memory.
import { numel } from '../../common/shape.mjs';
import { WORKLOADS, makeTensors, randomIndices, rowPermutations } from '../../common/workloads.mjs';

// Small versions: data of 1-8 MB instead of up to 65 MB.
const SMALL = {
  W1: { dataShape: [4000, 512], outShape: [512, 512], indices: (n) => randomIndices(n, [512], [4000]) },
  W2: { dataShape: [8, 1024, 256], outShape: [8, 512, 256], indices: (n) => randomIndices(n, [8, 512, 1], [1024]) },
  W3: { dataShape: [128, 128, 16], outShape: [32768], indices: (n) => randomIndices(n, [32768, 3], [128, 128, 16]) },
  W4a: { dataShape: [32, 32000], outShape: [32, 64], indices: (n) => randomIndices(n, [32, 64], [32000]) },
  W4b: { dataShape: [512, 1024], outShape: [512, 1024], indices: (n) => rowPermutations(n, 512, 1024) },
  W5: {},
};

const shapeText = (s) => `[${s.join(', ')}]`;

/** The workloads at scale 'small' or 'full': [{ id, title, op, opts, dataShape, outShape, make() }]. */
export function workloads(scale) {
  return WORKLOADS.map((w) => {
    const s = scale === 'full' ? {} : SMALL[w.id] ?? {};
    const v = { ...w, ...s };
    if (s.dataShape) {
      const idxShape = s.indices(() => 0).shape;
      v.title = `${w.title.split(':')[0]}: ${shapeText(s.dataShape)} by ${shapeText(idxShape)}`;
    }
    v.make = () => makeTensors(v);
    v.bytes = numel(v.dataShape) * 4;
    return v;
  });
}
