// The worked examples of the spec documents (common/seed-examples.mjs) of one op: a check that
// common/reference.mjs reproduces the documented results (which validates the reference the
// random suites compare against), then the examples through the library in two configurations.
// Each op's file (tests/ops/) with documented examples calls seedSuite(op).

import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { sameBytes } from '../../common/bytes.mjs';
import { refOps } from '../../common/reference.mjs';
import { seedExamples } from '../../common/seed-examples.mjs';

import api from './tested-api.mjs'; // js/index.mjs, or WG_TEST_API

const CONFIGS = [
  { variant: 'simd', threads: 1 },
  { variant: 'simd-threaded', threads: 2 },
];

const name = (ex) => `${ex.source}: ${ex.title}`;

// Reference results of the shape-only examples, computed once.
const refCache = new Map();
function refOf(ex) {
  if (!refCache.has(ex)) refCache.set(ex, refOps[ex.op](...ex.args, ex.opts));
  return refCache.get(ex);
}

function checkAgainstDoc(res, ex, who) {
  const msg = `${who}: ${name(ex)}`;
  assert.deepEqual(Array.from(res.shape), ex.expected.shape, `${msg}: shape`);
  const data = ex.args[0].data;
  assert.equal(res.data.constructor, data.constructor, `${msg}: output type`);
  if (ex.expected.data) {
    assert.deepEqual(Array.from(res.data), ex.expected.data, `${msg}: data`);
  }
}

/** The documented examples of `op`: against the reference, then through the library. */
export function seedSuite(op) {
  const examples = seedExamples.filter((ex) => ex.op === op);
  assert.ok(examples.length > 0, `common/seed-examples.mjs has no example of ${op}`);

  describe('reference.mjs reproduces the documented examples', () => {
    for (const ex of examples) {
      test(name(ex), () => {
        const res = refOps[ex.op](...ex.args, ex.opts);
        checkAgainstDoc(res, ex, 'reference');
      });
    }
  });

  for (const cfg of CONFIGS) {
    describe(`seed examples: ${cfg.variant} threads=${cfg.threads}`, () => {
      before(async () => {
        const info = await api.init({ ...cfg });
        assert.equal(info.variant, cfg.variant, 'init() reports the variant asked for');
        assert.equal(info.threads, cfg.threads, 'init() reports the thread count asked for');
        assert.equal(info.simd, true, 'init() reports simd');
      });
      after(() => api.dispose());

      for (const ex of examples) {
        test(name(ex), () => {
          const res = api[ex.op](...ex.args, ex.opts);
          checkAgainstDoc(res, ex, `${cfg.variant}/${cfg.threads}`);
          if (ex.checkAgainstReference) {
            const ref = refOf(ex);
            assert.deepEqual(Array.from(res.shape), ref.shape);
            assert.ok(sameBytes(res.data, ref.data), `${name(ex)}: data differs from reference.mjs`);
          }
        });
      }
    });
  }
}
