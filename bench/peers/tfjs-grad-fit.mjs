// Stock tfjs-cpu's U1 (a gradient step of tf.sum(tf.gather(table, ids)): tfjs-adapter-u.mjs),
// fitted over table sizes: gather's gradient is an UnsortedSegmentSum, which tfjs-backend-cpu
// computes with a pass over all of the ids' rows per segment (tfjs-scatter.mjs), so a step on
// U1's 32000-row table takes hours. The step is timed on tables of a few rows (the ids taken
// modulo each: the same 4096 rows gathered, one segment per table row), each point's gradient
// checked equal to the counted one, and time = a + b * rows fitted (least squares): a row as
// bench/run.mjs makes them, its medianMs the fit at U1's rows.
import * as tf from '@tensorflow/tfjs-core';
import { sameBytes } from '../../common/bytes.mjs';
import { embeddingGradient } from '../../common/tfjs-workloads.mjs';
import { median } from '../../common/timing.mjs';
import { unregisterKernels } from '../../js/tfjs.mjs';
import { gradientStep, tableVariable } from './tfjs-adapter-u.mjs';
import { registerGradients } from './tfjs-gradients.mjs';
import { lineFit } from './tfjs-scatter.mjs';

/** U1 on stock tfjs-cpu at `counts` table rows, fitted: { ...row, medianMs, fit }. */
export async function gradientStepFit(w, t, counts, { samples = 2 } = {}) {
  unregisterKernels(tf); // tfjs's own kernels
  await tf.setBackend('cpu');
  await registerGradients(tf);
  const [rows, width] = t.table.shape;
  const points = [];
  for (const n of counts) {
    const ids = t.ids.data.map((v) => v % n);
    const table = tableVariable(t.table.data.subarray(0, n * width), [n, width]);
    const idsT = tf.tensor(ids, t.ids.shape, 'int32');
    try {
      const g = gradientStep(table, idsT);
      const ok = sameBytes(g.dataSync(), embeddingGradient(ids, n, width));
      g.dispose();
      if (!ok) throw new Error(`the gradient on a table of ${n} rows differs from the counted one`);
      const ms = [];
      for (let k = 0; k < samples; k++) {
        const t0 = performance.now();
        gradientStep(table, idsT).dispose();
        ms.push(performance.now() - t0);
      }
      points.push([n, median(ms)]);
    } finally {
      tf.dispose([table, idsT]);
    }
  }
  const [a, b] = lineFit(points);
  return {
    impl: `tfjs ${tf.version_core} cpu, stock kernels (fitted)`, family: 'tfjs-adapter', mode: 'resident', peer: 'tfjs-cpu',
    variant: 'stock', backend: 'cpu', workload: w.id, fitted: true,
    medianMs: a + b * rows, samples: samples * counts.length, fit: { points, interceptMs: a, perRowMs: b, rows },
    note: `fitted: ${a.toFixed(1)} ms + ${b.toFixed(1)} ms per table row (from tables of ${counts.join(', ')} rows), at ${rows} rows`,
  };
}
