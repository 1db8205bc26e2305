// The fused gather-reduce ops against common/reference-bag.mjs: the seeded random calls of
// tests/lib/bag-cases.mjs in both builds at 1, 2 and 4 threads (every call parallel at 2 and 4:
// parallelThreshold 0), bit for bit (any NaN for a NaN: wasm does not fix a NaN's sign), then
// with resident inputs; a call the reference refuses must throw here too, an index error at the
// same position; the heap is as it was after every suite. (Not named *.test.mjs.)
import assert from 'node:assert/strict';
import { test } from 'node:test';
import api, { dispose, heapStats, init, upload } from './tested-api.mjs';
import { bagCases, segmentCases } from './bag-cases.mjs';
import { firstDifference } from './scatter-cases.mjs';
import { hashString } from './rng.mjs';

export const BAG_CONFIGS = [
  { variant: 'simd', threads: 1 },
  { variant: 'simd-threaded', threads: 1 },
  { variant: 'simd-threaded', threads: 2, parallelThreshold: 0 },
  { variant: 'simd-threaded', threads: 4, parallelThreshold: 0 },
];
const label = (c) => `${c.variant} threads=${c.threads}${c.parallelThreshold !== undefined ? ` parallelThreshold=${c.parallelThreshold}` : ''}`;
const GENERATORS = { embeddingBag: bagCases, segmentReduce: segmentCases };

function expected(c) {
  try {
    return { want: c.ref() };
  } catch (error) {
    return { error };
  }
}

/** Checks run() (the op's result) against the reference's outcome e of case c. */
export function checkBagCase(c, e, run) {
  if (e.error) {
    assert.throws(run, (err) => {
      assert.ok(err instanceof RangeError || err instanceof TypeError, `${c.name}: ${err}`);
      return true;
    }, `${c.name}: the reference throws ${e.error.message}`);
    return;
  }
  let got;
  try {
    got = run();
  } catch (err) {
    assert.fail(`${c.name}: threw ${err.message}; the reference gives [${e.want.shape}]`);
  }
  assert.deepEqual(got.shape, e.want.shape, c.name);
  const at = firstDifference(e.want.data, got.data, c.dtype, 'sum');
  assert.equal(at, -1, `${c.name}: element ${at}: reference ${e.want.data[at]}, got ${got.data[at]}`);
  if (e.want.maxIndices) {
    assert.deepEqual(Array.from(got.maxIndices.data), Array.from(e.want.maxIndices.data, Number), `${c.name}: max indices`);
  }
}

/** The suites of op `op` (embeddingBag or segmentReduce): every config, then resident inputs. */
export function bagSuite(op, n = 300) {
  const fn = api[op];
  const cases = () => GENERATORS[op](hashString(op), n).map((c) => ({ ...c, expect: expected(c) }));
  for (const config of BAG_CONFIGS) {
    test(`${op} vs reference: ${label(config)}`, async (t) => {
      await init(config);
      try {
        const heap = heapStats().heapInUse;
        const all = cases();
        t.diagnostic(`${all.length} calls, ${all.filter((c) => c.expect.error).length} refused by the reference`);
        for (const c of all) checkBagCase(c, c.expect, () => fn(...c.args, c.opts));
        assert.equal(heapStats().heapInUse, heap, 'wasm heap not restored');
      } finally {
        dispose();
      }
    });
  }
  test(`${op} vs reference: resident inputs, resident output (simd-threaded threads=2 parallelThreshold=0)`, async () => {
    await init({ variant: 'simd-threaded', threads: 2, parallelThreshold: 0 });
    try {
      const heap = heapStats().heapInUse;
      for (const c of cases()) {
        if (c.expect.error) continue; // the errors are the other suites'
        const [first, ...rest] = c.args;
        const data = upload(first, c.opts.quantType ? { quantType: c.opts.quantType } : undefined);
        const others = rest.map((a) => (a.data instanceof Int32Array || a.data instanceof BigInt64Array ? upload(a) : a));
        try {
          checkBagCase(c, c.expect, () => {
            const r = fn(data, ...others, { ...c.opts, resident: true });
            try {
              return { data: r.read(), shape: r.shape, maxIndices: r.maxIndices };
            } finally {
              r.dispose();
            }
          });
        } finally {
          data.dispose();
          for (const o of others) if (typeof o.dispose === 'function') o.dispose();
        }
      }
      assert.equal(heapStats().heapInUse, heap, 'wasm heap not restored');
    } finally {
      dispose();
    }
  });
}
