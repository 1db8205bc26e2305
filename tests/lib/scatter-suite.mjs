// The scatters against common/reference-scatter.mjs: seeded random cases (tests/lib/scatter-cases.mjs:
// repeated indices, every dtype, reduction, includeSelf, out-of-range mode, negative policy,
// index type, ranks 0-6, empty tensors) in both builds at 1, 2 and 4 threads, then resident and
// in place, bit for bit; a case the reference refuses must throw here too, an index error at the
// same position. (Not named *.test.mjs: node --test tests/ would run it as a test file.)
import assert from 'node:assert/strict';
import { test } from 'node:test';
import api, { copyPlan, dispose, heapStats, init, upload } from './tested-api.mjs';
import { refScatterOps } from '../../common/reference-scatter.mjs';
import { firstDifference, indexReduceCases, scatterCases, scatterNDCases, tensorScatterCases } from './scatter-cases.mjs';
import { hashString } from './rng.mjs';

const GENERATORS = { scatter: scatterCases, scatterND: scatterNDCases, indexReduce: indexReduceCases, tensorScatter: tensorScatterCases };
// Where each op's index tensor is among its arguments (resident indices are 32- or 64-bit only).
const INDEX_ARG = { scatter: 2, scatterND: 1, indexReduce: 2, tensorScatter: 2 };
const RESIDENT_INDEX = [Int32Array, Uint32Array, BigInt64Array, BigUint64Array];

export const SCATTER_CONFIGS = [
  { variant: 'simd', threads: 1 },
  { variant: 'simd-threaded', threads: 1 },
  { variant: 'simd-threaded', threads: 2, parallelThreshold: 0 },
  { variant: 'simd-threaded', threads: 4, parallelThreshold: 0 },
  { variant: 'simd-threaded', threads: 4 },
  // each path of a one-shot plain write forced (js/copy-plan.mjs: choosePath)
  { variant: 'simd', threads: 1, path: 'js' },
  { variant: 'simd-threaded', threads: 2, parallelThreshold: 0, path: 'kernel' },
];
const label = (c) => `${c.variant} threads=${c.threads}${c.parallelThreshold !== undefined ? ` parallelThreshold=${c.parallelThreshold}` : ''}` +
  (c.path ? ` path=${c.path}` : '');

// What the reference makes of a case: { want } or { error }.
function expected(c) {
  try {
    return { want: refScatterOps[c.op](...c.args, c.opts) };
  } catch (error) {
    return { error };
  }
}

/** Checks one run of case c (run: () => { data, shape }) against the reference's outcome e. */
export function checkCase(c, e, run) {
  if (e.error) {
    assert.throws(run, (err) => {
      assert.ok(err instanceof RangeError || err instanceof TypeError, `${c.name}: ${err}`);
      if (e.error.position !== undefined) {
        assert.ok(err.index, `${c.name}: expected an index error at ${e.error.position}, got: ${err.message}`);
        assert.equal(err.index.position, e.error.position, `${c.name}: ${err.message}`);
      }
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
  const at = firstDifference(e.want.data, got.data, c.dtype, c.opts.reduce);
  assert.equal(at, -1, `${c.name}: element ${at}: reference ${e.want.data[at]}, got ${got.data[at]}`);
}

/** The suites of op `op`: every config, then resident and in place. */
export function scatterSuite(op, n = 250) {
  const fn = api[op];
  const cases = () => GENERATORS[op](hashString(op), n).map((c) => ({ ...c, expect: expected(c) }));
  for (const config of SCATTER_CONFIGS) {
    test(`${op} vs reference: ${label(config)}`, async (t) => {
      const { path, ...opts } = config;
      await init(opts);
      try {
        if (path) copyPlan.forcePath(path);
        const taken = { ...copyPlan?.pathCounts };
        const heap = heapStats().heapInUse;
        for (const c of cases()) checkCase(c, c.expect, () => fn(...c.args, c.opts));
        assert.equal(heapStats().heapInUse, heap, 'wasm heap not restored');
        if (path) {
          const served = copyPlan.pathCounts[path] - taken[path];
          t.diagnostic(`${path} path: ${served} calls`);
          assert.ok(served > 5, `the ${path} path served the plain writes`);
        }
      } finally {
        copyPlan?.forcePath(null);
        dispose();
      }
    });
  }
  test(`${op} vs reference: resident inputs, in place (simd-threaded threads=2 parallelThreshold=0)`, async () => {
    await init({ variant: 'simd-threaded', threads: 2, parallelThreshold: 0 });
    try {
    const heap = heapStats().heapInUse;
    for (const c of cases()) {
      const [first, ...rest] = c.args;
      const data = upload(first);
      // every tensor argument resident that can be (not the value form's number, absent or
      // narrow indices)
      const resident = (a, i) => a && typeof a === 'object' &&
        (i + 1 !== INDEX_ARG[op] || RESIDENT_INDEX.some((T) => a.data instanceof T));
      const others = rest.map((a, i) => (resident(a, i) ? upload(a) : a));
      try {
        checkCase(c, c.expect, () => {
          const r = fn(data, ...others, { ...c.opts, inPlace: true });
          assert.equal(r, data, 'in place returns its first argument');
          return { data: r.read(), shape: r.shape };
        });
        if (c.expect.error) assert.deepEqual(data.read(), first.data, `${c.name}: an error wrote into the resident input`);
      } finally {
        data.dispose();
        for (const o of others) if (o !== undefined && typeof o.dispose === 'function') o.dispose();
      }
    }
    assert.equal(heapStats().heapInUse, heap, 'wasm heap not restored');
    } finally {
      dispose();
    }
  });
}
