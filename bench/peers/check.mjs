// Runs every peer runner on every workload and checks the output is bitwise equal to the plain-JS
// reference. Two calls each: both are checked, the second (warm) one is timed. For tfjs it also
// checks that no tensor outlives a call or the runner. Prints one row per (runner, workload).
// Usage: node bench/peers/check.mjs
import * as tf from '@tensorflow/tfjs-core';
import { sameBytes } from '../../common/bytes.mjs';
import { caller } from '../../common/op-caller.mjs';
import { refOps } from '../../common/reference.mjs';
import { WORKLOADS, makeTensors } from '../../common/workloads.mjs';
import * as ort from './ort.mjs';
import * as tfjs from './tfjs.mjs';

const runners = [...(await ort.peers()), ...(await tfjs.peers())];
await tf.ready(); // tf.memory() needs a backend
console.log('impl | mode | initMs');
for (const r of runners) console.log(`${r.impl} | ${r.mode} | ${r.initMs.toFixed(0)}`);

console.log('\nimpl | mode | workload | result | ms of one call | note');
let failures = 0;
for (const w of WORKLOADS) {
  const t = makeTensors(w);
  const expected = caller(refOps, w)(t.data, t.indices).data;
  for (const r of runners) {
    const tensorsBefore = tf.memory().numTensors;
    let result;
    let ms = '';
    let note = '';
    let handle;
    try {
      handle = await r.setup(w, t);
      note = handle.note ?? '';
      const tensorsSetUp = tf.memory().numTensors;
      const first = await handle.run();
      const t0 = performance.now();
      const second = await handle.run();
      ms = (performance.now() - t0).toFixed(2);
      const leaked = tf.memory().numTensors !== tensorsSetUp;
      result = !sameBytes(first, expected) || !sameBytes(second, expected) ? 'WRONG' : leaked ? 'LEAK' : 'ok';
    } catch (e) {
      result = `err: ${e.message.split('\n')[0]}`;
    }
    await handle?.dispose();
    if (tf.memory().numTensors !== tensorsBefore) result += ' (tensors left after dispose)';
    if (result !== 'ok') failures++;
    console.log(`${r.impl} | ${r.mode} | ${w.id} | ${result} | ${ms} | ${note}`);
  }
}
console.log(`\n${failures} of ${WORKLOADS.length * runners.length} not ok; rss ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB`);
