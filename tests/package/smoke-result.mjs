// What a run of the smoke suite (tests/package/smoke.mjs) must report wherever it ran,
// in a runtime (tests/runtimes/runtimes.test.mjs) or a browser (tests/browsers/library.test.mjs): every seed
// example, 300 random cases against the reference, gatherBlockQuantized's cases, every scatter case
// (tests/package/smoke-scatter.mjs, the in-place calls too), every fused gather-reduce case
// (tests/package/smoke-bag.mjs), every case of the masks' ops, worked and seeded
// (tests/package/smoke-mask.mjs), and the error.
import assert from 'node:assert/strict';
import { QUANTIZED_CASES } from './smoke.mjs';
import { MASK_OPS, MASK_RANDOM_CASES } from './smoke-mask.mjs';

export function checkSmokeCounts(out) {
  assert.deepEqual(out.seeds.failures, []);
  assert.ok(out.seeds.total >= 20 && out.seeds.passed === out.seeds.total, JSON.stringify(out.seeds));
  assert.deepEqual(out.random.failures, []);
  assert.equal(out.random.passed, 300);
  assert.deepEqual(out.quantized.failures, []);
  assert.equal(out.quantized.passed, 2 * QUANTIZED_CASES);
  assert.deepEqual(out.scatter.failures, []);
  assert.ok(out.scatter.total >= 14 && out.scatter.passed === out.scatter.total, JSON.stringify(out.scatter));
  assert.deepEqual(out.bag.failures, []);
  assert.ok(out.bag.total >= 9 && out.bag.passed === out.bag.total, JSON.stringify(out.bag));
  assert.deepEqual(out.mask.failures, []);
  assert.ok(out.mask.total >= 20 && out.mask.passed === out.mask.total, JSON.stringify(out.mask));
  assert.deepEqual(out.mask.random, { passed: MASK_OPS.length * MASK_RANDOM_CASES, total: MASK_OPS.length * MASK_RANDOM_CASES });
  assert.match(out.error, /^RangeError: take: indices\[0\] = 3 is out of range for dimension 0 of params, which has size 3/);
}

/** One line for a test's diagnostics: what ran where, and how many cases passed. */
export const smokeSummary = (where, out) => `${where}: ${out.info.variant}, ${out.info.threads} thread(s); ` +
  `seed examples ${out.seeds.passed}/${out.seeds.total}, random ${out.random.passed}, quantized ${out.quantized.passed}, ` +
  `scatter ${out.scatter.passed}/${out.scatter.total}, fused gather-reduce ${out.bag.passed}/${out.bag.total}, ` +
  `masks ${out.mask.passed}/${out.mask.total} + random ${out.mask.random.passed}/${out.mask.random.total}`;
