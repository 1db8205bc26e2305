// The check behind every error test (the error sections of tests/ops/*.test.mjs, the bad-input
// rows of tests/lib/bad-inputs.mjs): the call throws the right class with the right message, the
// caller's arrays are unchanged, the wasm heap is back where it was, and a valid call right after
// returns the right result.
import assert from 'node:assert/strict';
import { after, before, describe } from 'node:test';
import { dispose, heapStats, init, take } from './tested-api.mjs'; // js/index.mjs, or WG_TEST_API

export const f32 = (n, shape) => ({ data: Float32Array.from({ length: n }, (_, i) => i + 1), shape });
export const i32 = (values, shape) => ({ data: Int32Array.from(values), shape });

// Deep copies of every TypedArray and array reachable from the arguments, to compare after the call.
export function snapshot(args) {
  const out = [];
  const seen = new Set();
  const walk = (x) => {
    if (x === null || typeof x !== 'object' || seen.has(x)) return;
    seen.add(x);
    if (x instanceof DataView) out.push([new Uint8Array(x.buffer, x.byteOffset, x.byteLength), new Uint8Array(x.buffer.slice(x.byteOffset, x.byteOffset + x.byteLength))]);
    else if (ArrayBuffer.isView(x)) out.push([x, x.slice()]);
    else if (Array.isArray(x)) { out.push([x, x.slice()]); x.forEach(walk); }
    else Object.values(x).forEach(walk);
  };
  args.forEach(walk);
  return out;
}

// The valid call made after each error: take of rows 2 and 0 of a [3, 2] tensor.
export function validCallWorks() {
  const r = take(f32(6, [3, 2]), i32([2, 0], [2]));
  assert.deepEqual(Array.from(r.data), [5, 6, 1, 2]);
  assert.deepEqual(r.shape, [2, 2]);
}

// Calls fn(...args), expects an error of class Cls whose message matches re, then checks that
// nothing changed and that a good call still works.
export function expectError(fn, args, Cls, re) {
  const heapBefore = heapStats().heapInUse;
  const snap = snapshot(args);
  assert.throws(() => fn(...args), (e) => {
    assert.ok(e instanceof Cls, `expected ${Cls.name}, got ${e.constructor.name}: ${e.message}`);
    assert.match(e.message, re);
    return true;
  });
  for (const [arr, copy] of snap) assert.deepEqual(arr, copy, 'caller array changed');
  assert.equal(heapStats().heapInUse, heapBefore, 'wasm heap not restored');
  validCallWorks();
}

/** The configurations the error tests run in. */
export const ERROR_CONFIGS = [{ variant: 'simd' }, { variant: 'simd-threaded', threads: 2 }];

/** describe(`${title} (variant)`, body) for each of ERROR_CONFIGS, initialized and warmed up. */
export function describeErrors(title, body) {
  for (const config of ERROR_CONFIGS) {
    describe(`${title} (${config.variant})`, () => {
      before(async () => {
        await init(config);
        validCallWorks(); // warm up: first calls may allocate runtime state
      });
      after(() => dispose());
      body(config);
    });
  }
}
