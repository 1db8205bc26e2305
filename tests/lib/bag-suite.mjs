// The fused gather-reduce ops against common/reference-bag.mjs and PyTorch 1.13: the seeded random calls of
// tests/lib/bag-cases.mjs in both builds at 1, 2 and 4 threads (every call parallel at 2 and 4:
// parallelThreshold 0), bit for bit (any NaN for a NaN: wasm does not fix a NaN's sign), then
// with resident inputs; a call the reference refuses must throw here too, an index error at the
// same position; the heap is as it was after every suite. (Not named *.test.mjs.)
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import api, { dispose, heapStats, init, upload } from './tested-api.mjs';
import { bagCases, segmentCases } from './bag-cases.mjs';
import { checkCase } from './scatter-suite.mjs';
import { decode } from './torch-fixtures.mjs';
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

/**
 * Checks run() (the op's result) against the reference's outcome e of case c: the scatters'
 * check (scatter-suite.mjs: an error where the reference throws, else the shape and the bits,
 * any NaN for a NaN as in a sum), and max's rows.
 */
export function checkBagCase(c, e, run) {
  let got;
  checkCase({ ...c, opts: { reduce: 'sum' } }, e, () => (got = run()));
  if (e.want?.maxIndices) {
    assert.deepEqual(Array.from(got.maxIndices.data), Array.from(e.want.maxIndices.data, Number), `${c.name}: max indices`);
  }
}

/**
 * op against PyTorch 1.13's own results (tests/fixtures/bag-torch, made by make-fixtures.py
 * there), bit for bit, max's rows too; torch's errors are errors here. At least `least` served.
 */
export function torchFixtureSuite(op, least) {
  test(`${op} gives PyTorch 1.13 results bit for bit (tests/fixtures/bag-torch)`, async (t) => {
    const fixtures = JSON.parse(readFileSync(new URL('../fixtures/bag-torch/cases.json', import.meta.url)));
    await init({ variant: 'simd-threaded', threads: 2, parallelThreshold: 0 });
    try {
      let served = 0;
      for (const c of fixtures.cases.filter((x) => x.op === op)) {
        const args = c.args.map(decode);
        const opts = Object.fromEntries(Object.entries(c.opts).map(([k, v]) => [k, decode(v)]));
        const run = () => api[op](...args, opts);
        if (c.error) {
          assert.throws(run, RangeError, `${c.name}: torch: ${c.error}`);
          continue;
        }
        const got = run(), want = decode(c.expected);
        assert.deepEqual(got.shape, want.shape, c.name);
        assert.equal(hex(got.data), hex(want.data), c.name);
        if (c.expectedIndices) assert.deepEqual(Array.from(got.maxIndices.data), Array.from(decode(c.expectedIndices).data, Number), `${c.name}: max indices`);
        served++;
      }
      t.diagnostic(`${served} torch results matched`);
      assert.ok(served >= least, `${served} served`);
    } finally {
      dispose();
    }
  });
}

// The bits of each element (NaN payloads and signed zeros included).
const hex = (a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('hex');

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
