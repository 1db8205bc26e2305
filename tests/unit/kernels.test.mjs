// Every kernel variant the engine picks (src/copy_kernels.c: fused loops per element width and
// index type, the v128 row and triple loops that take four blocks at a time, the general path
// for slices below and above the memcpy switch) against common/reference.mjs, with a bad index
// placed at each position of a group of four, in every out-of-range mode, at 1 and 2 threads.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { dispose, gather, gatherND, init, take } from '../lib/tested-api.mjs'; // js/index.mjs, or WG_TEST_API
import { refGather, refGatherND, refTake } from '../../common/reference.mjs';
import { numel } from '../../common/shape.mjs';
import { Rng } from '../lib/rng.mjs';

const WIDTHS = [Uint8Array, Uint16Array, Float32Array, Float64Array];
const INDEX_TYPES = [Int32Array, BigInt64Array, Uint32Array, BigUint64Array];
const MODES = ['error', 'zero', 'clamp'];

function tensor(T, shape, rng) {
  const n = numel(shape);
  const a = new T(n);
  for (let i = 0; i < n; i++) a[i] = T === Float32Array || T === Float64Array ? rng.next() * 100 - 50 : rng.int(0, 255);
  return { data: a, shape };
}

// Index tensors whose component c is drawn from [-s, s) for limits[c] = s (negatives included),
// with the value at flat position badAt (if any) replaced by bad(s), s its component's limit.
function indices(I, shape, limits, rng, badAt, bad) {
  const n = numel(shape);
  const vals = Array.from({ length: n }, (_, i) => {
    const s = limits[i % limits.length];
    const v = rng.int(-s, s - 1);
    return I === Uint32Array || I === BigUint64Array ? (v < 0 ? v + s : v) : v;
  });
  if (badAt >= 0 && badAt < n) vals[badAt] = bad(limits[badAt % limits.length]);
  const big = I === BigInt64Array || I === BigUint64Array;
  return { data: I.from(vals, (v) => (big ? BigInt(v) : v)), shape };
}

// The cases: [name, build(T, I, rng, badAt, bad) -> [fn, ref, args]]. Shapes are chosen so that
// segments hold more than 4 blocks and lengths that are not multiples of 4.
const CASES = [
  ['take, one element per index (row kernel)', (T, I, r, p, b) => {
    const d = tensor(T, [37], r), i = indices(I, [23], [37], r, p, b);
    return [take, refTake, [d, i]];
  }],
  ['gather along the last dim (row kernel, several rows)', (T, I, r, p, b) => {
    const d = tensor(T, [3, 19], r), i = indices(I, [3, 13], [19], r, p, b);
    return [(x, y, o) => gather(x, 1, y, o), (x, y, o) => refGather(x, 1, y, o), [d, i]];
  }],
  ['gather along dim 0 (strided, ramp)', (T, I, r, p, b) => {
    const d = tensor(T, [11, 9], r), i = indices(I, [6, 9], [11], r, p, b);
    return [(x, y, o) => gather(x, 0, y, o), (x, y, o) => refGather(x, 0, y, o), [d, i]];
  }],
  ...[2, 3, 4].map((K) => [`gatherND elements, K = ${K} (tuple kernels)`, (T, I, r, p, b) => {
    const shape = [5, 7, 3, 4].slice(0, K);
    const d = tensor(T, shape, r), i = indices(I, [13, K], shape, r, p, b);
    return [gatherND, refGatherND, [d, i]];
  }]),
  ...[3, 4, 33, 64, 65].map((inner) => [`take slices of ${inner} elements (v128 / memcpy)`, (T, I, r, p, b) => {
    const d = tensor(T, [9, inner], r), i = indices(I, [10], [9], r, p, b);
    return [take, refTake, [d, i]];
  }]),
];
// Where the bad index goes: none, each lane of the first group of four, the next group, the end.
const BAD_AT = [-1, 0, 1, 2, 3, 4, 7, 22];
// Out-of-range values: just past either end (the off-by-one a compare could get wrong), far
// past, and the int32 extremes. Unsigned index types get s + 1 for the negative ones.
const BAD_VALUES = [(s) => s, (s) => -s - 1, (s) => s + 1000, () => 2 ** 31 - 1, () => -(2 ** 31)];

for (const config of [{ variant: 'simd' }, { variant: 'simd-threaded', threads: 2, parallelThreshold: 0 }]) {
  describe(`kernel variants (${config.variant}${config.threads ? `, ${config.threads} threads, every op split` : ''})`, () => {
    after(() => dispose());
    for (const [name, build] of CASES) {
      test(name, async () => {
        await init(config);
        const rng = new Rng(name.length * 7919);
        let checked = 0;
        for (const T of WIDTHS) {
          for (const I of INDEX_TYPES) {
            for (const badAt of BAD_AT) {
              const badValue = BAD_VALUES[(badAt + 1 + WIDTHS.indexOf(T)) % BAD_VALUES.length];
              const unsigned = I === Uint32Array || I === BigUint64Array;
              const bad = (lim) => (unsigned && badValue(lim) < 0 ? lim + 1 : badValue(lim));
              const [fn, ref, args] = build(T, I, rng, badAt, bad);
              for (const outOfRange of MODES) {
                const what = `${name}: ${T.name} data, ${I.name} indices, bad index at ${badAt}, ${outOfRange}`;
                let want;
                try {
                  want = ref(...args, { outOfRange });
                } catch {
                  assert.throws(() => fn(...args, { outOfRange }), RangeError, what);
                  checked++;
                  continue;
                }
                const got = fn(...args, { outOfRange });
                assert.deepEqual(got.shape, want.shape, what);
                assert.deepEqual(new Uint8Array(got.data.buffer), new Uint8Array(want.data.buffer), what);
                checked++;
              }
            }
          }
        }
        assert.equal(checked, WIDTHS.length * INDEX_TYPES.length * BAD_AT.length * MODES.length);
      });
    }
  });
}
