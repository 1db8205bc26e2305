// The seeded random comparison of one op against common/reference.mjs, under node --test, in
// every configuration: each op's file (tests/ops/) calls randomSuite(op). The cases and their
// checks live in tests/lib/random-cases.mjs (shared with the browser page tests/browsers/random.mjs).
//
// WG_TEST_API=<module path> swaps the module under test (tests/lib/tested-api.mjs);
// WG_RANDOM_CASES sets the number of cases per op.

import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { refOps } from '../../common/reference.mjs';
import { runCase, stats } from './random-cases.mjs';
import api, { copyPlan } from './tested-api.mjs';

const isTensor = (x) => x && typeof x === 'object' && Array.isArray(x.shape);

const CONFIGS = [
  { variant: 'simd', threads: 1 },
  { variant: 'simd-threaded', threads: 1 },
  { variant: 'simd-threaded', threads: 2 },
  { variant: 'simd-threaded', threads: 4 },
  // Not part of the required matrix: parallelThreshold 0 (an init option of js/index.mjs) makes
  // even tiny ops split across the pool, so the work partitioning is exercised on every case.
  { variant: 'simd-threaded', threads: 2, parallelThreshold: 0 },
  { variant: 'simd-threaded', threads: 4, parallelThreshold: 0 },
  // The two ways the bytes move (js/copy-plan.mjs), each forced wherever both could serve a call
  // (the configurations above let the cost model choose): C's plan executed by JS, also with the
  // plan resolved on 2 threads, and the kernel in wasm memory.
  { variant: 'simd', threads: 1, path: 'js' },
  { variant: 'simd-threaded', threads: 2, parallelThreshold: 0, path: 'js' },
  { variant: 'simd-threaded', threads: 2, path: 'kernel' },
];
const CASES_PER_OP = Number(process.env.WG_RANDOM_CASES ?? 1500);

// Explicit edge cases (huge 64-bit indices, sign traps, K = 0, scalar indices): [op, args], each
// run in every outOfRange and negativeIndices mode against the reference.
const f = (data, shape) => ({ data, shape });
const p = () => f(new Float32Array([1, 2, 3, 4, 5]), [5]);
const EDGE_CASES = () => [
  ['take', [p(), f(new BigInt64Array([2n ** 40n, -(2n ** 40n), 2n ** 32n + 1n, -1n]), [4])]],
  ['take', [p(), f(new BigUint64Array([2n ** 64n - 1n, 2n ** 63n, 4n]), [3])]],
  ['take', [p(), f(new Uint32Array([0xffffffff, 0x80000000, 2]), [3])]],
  ['take', [p(), f([2 ** 40, -(2 ** 40), 2 ** 53 - 1, -3], [4])]],
  ['take', [p(), f(new Int32Array([-5]), [])]],
  ['gatherND', [f(new Int16Array([1, 2, 3, 4, 5, 6]), [2, 3]), f(new BigInt64Array([1n, 2n ** 40n, -(2n ** 40n), 0n]), [2, 2])]],
  ['gatherND', [f(new Int16Array([1, 2, 3, 4, 5, 6]), [2, 3]), f(new Int32Array([]), [3, 0])]],
  ['gather', [f(new Uint8Array([7, 8, 9, 10]), [2, 2]), 1, f(new BigInt64Array([2n ** 40n, -1n, -(2n ** 40n), 1n]), [2, 2])]],
];

/**
 * For each configuration, a describe that runs CASES_PER_OP seeded cases of `op` and its explicit
 * edge cases; more() may add tests that run in each configuration too.
 */
export function randomSuite(op, more = () => {}) {
  for (const cfg of CONFIGS) {
    const cfgName = `${cfg.variant} threads=${cfg.threads}` +
      (cfg.parallelThreshold !== undefined ? ` parallelThreshold=${cfg.parallelThreshold}` : '') +
      (cfg.path ? ` path=${cfg.path}` : '');
    describe(`random vs reference: ${cfgName}`, () => {
      before(async () => {
        const { path, ...opts } = cfg;
        const info = await api.init(opts);
        assert.equal(info.variant, cfg.variant);
        assert.equal(info.threads, cfg.threads);
        if (path) {
          assert.ok(copyPlan, 'the module under test has js/copy-plan.mjs');
          copyPlan.forcePath(path);
        }
      });
      after(() => {
        copyPlan?.forcePath(null);
        api.dispose();
      });

      test(`${op}: ${CASES_PER_OP} seeded cases`, (t) => {
        const before = { ...stats };
        const paths = copyPlan && { ...copyPlan.pathCounts };
        const heapBefore = api.heapStats ? api.heapStats().heapInUse : 0;
        const failures = [];
        for (let n = 0; n < CASES_PER_OP; n++) {
          try {
            runCase(api, op, n, cfgName);
          } catch (e) {
            failures.push(e?.message ?? String(e));
          }
        }
        if (failures.length) {
          assert.fail(`${failures.length} of ${CASES_PER_OP} cases failed; the first ones:\n` +
            failures.slice(0, 6).join('\n'));
        }
        if (api.heapStats) {
          // Every call (also the ones that threw) must free its wasm allocations. A little slack:
          // the pool's threads make a few one-time allocations (tens of bytes) on first use.
          const grown = api.heapStats().heapInUse - heapBefore;
          assert.ok(grown <= 1024, `wasm heap in use grew by ${grown} bytes over ${CASES_PER_OP} calls (leak)`);
        }
        const resident = stats.residentCases - before.residentCases;
        if (api.upload) assert.ok(resident >= CASES_PER_OP / 2, `only ${resident} cases used resident tensors`);
        const moved = paths && { js: copyPlan.pathCounts.js - paths.js, kernel: copyPlan.pathCounts.kernel - paths.kernel };
        if (cfg.path) { // forced: every call that could take either path took this one
          assert.equal(moved[cfg.path === 'js' ? 'kernel' : 'js'], 0);
          assert.ok(moved[cfg.path] > CASES_PER_OP / 4, `${moved[cfg.path]} calls took the ${cfg.path} path`);
        }
        t.diagnostic(`${stats.cases - before.cases} cases, ${stats.errorsChecked - before.errorsChecked} ` +
          `expected-error cases, ${resident} with resident tensors` + (moved ? `; paths: js ${moved.js}, kernel ${moved.kernel}` : ''));
      });

      test('explicit edge cases (huge 64-bit indices, sign traps, K = 0, scalar indices)', () => {
        for (const [, args] of EDGE_CASES().filter(([caseOp]) => caseOp === op)) {
          for (const [outOfRange, negativeIndices] of ['error', 'zero', 'clamp'].flatMap((m) => [[m, 'wrap'], [m, 'error']])) {
            const opts = { outOfRange, negativeIndices };
            const what = `${op} ${JSON.stringify(args.map((a) => (isTensor(a) ? Array.from(a.data, String) : a)))} ${outOfRange} ${negativeIndices}`;
            let want;
            try {
              want = refOps[op](...args, opts);
            } catch (e) {
              assert.throws(() => api[op](...args, opts), RangeError, what);
              continue;
            }
            const got = api[op](...args, opts);
            assert.deepEqual(Array.from(got.shape), want.shape, what);
            assert.deepEqual(Array.from(got.data), Array.from(want.data), what);
          }
        }
      });

      more();
    });
  }
}
