// Resident tensors: upload once, use as data or indices, results kept in wasm memory or written
// into a resident opts.out; what each costs in wasm heap; errors; the FinalizationRegistry.
// (Seeded random cases also run through these paths: tests/lib/random-cases.mjs.)
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import {
  ResidentTensor, dispose, gather, gatherND, heapStats, init, take, upload,
} from '../../js/index.mjs';
import { refGather, refTake } from '../../common/reference.mjs';

const DTYPES = [Float32Array, Float64Array, Int8Array, Int16Array, Int32Array, Uint8Array, Uint16Array,
  Uint32Array, Uint8ClampedArray, BigInt64Array, BigUint64Array];
const fill = (T, n) => T.from({ length: n }, (_, i) => (T.name.startsWith('Big') ? BigInt(i * 3 + 1) : (i * 3 + 1) % 120));

for (const config of [{ variant: 'simd' }, { variant: 'simd-threaded', threads: 2 }]) {
  describe(`resident tensors (${config.variant})`, () => {
    before(() => init(config));
    after(() => dispose());

    test('upload and read round-trip every dtype, bit for bit', () => {
      for (const T of DTYPES) {
        const src = fill(T, 37);
        const t = upload({ data: src, shape: [37] });
        assert.ok(t instanceof ResidentTensor);
        assert.equal(t.arrayType, T);
        assert.deepEqual(t.shape, [37]);
        assert.ok(Object.isFrozen(t.shape));
        assert.equal(t.length, 37);
        assert.equal(t.byteLength, 37 * T.BYTES_PER_ELEMENT);
        assert.deepEqual(t.read(), src);
        const into = new T(37);
        assert.equal(t.read(into), into);
        assert.deepEqual(into, src);
        t.dispose();
        assert.equal(t.disposed, true);
        t.dispose(); // twice is fine
      }
      const e = upload({ data: new Float32Array(0), shape: [0, 5] });
      assert.deepEqual(e.read(), new Float32Array(0));
      // empty results from resident inputs, in each output form
      const d = upload({ data: new Float32Array(4), shape: [4] }), none = upload({ data: new Int32Array(0), shape: [0] });
      assert.deepEqual(take(d, none), { data: new Float32Array(0), shape: [0] });
      const r = take(d, none, { resident: true });
      assert.deepEqual([r.shape, r.read()], [[0], new Float32Array(0)]);
      for (const t of [e, d, none, r]) t.dispose();
    });

    test('view(): the data without a copy, every dtype; writes go to the tensor; growth on simd', () => {
      for (const T of DTYPES) {
        const src = fill(T, 21);
        const t = upload({ data: src, shape: [3, 7] });
        const v = t.view();
        assert.ok(v instanceof T);
        assert.equal(v.length, 21);
        assert.deepEqual(v, src);
        v[2] = v[5]; // the tensor's own bytes
        assert.deepEqual(t.read()[2], src[5]);
        t.dispose();
        assert.throws(() => t.view(), /view: this is a resident tensor that was disposed/);
      }
      // an op's resident result, read where it is
      const d = upload({ data: fill(Float32Array, 40), shape: [10, 4] });
      const r = take(d, { data: new Int32Array([9, 0]), shape: [2] }, { resident: true });
      assert.deepEqual(r.view(), r.read());
      const empty = upload({ data: new Float32Array(0), shape: [0] });
      assert.equal(empty.view().length, 0);
      // Growing wasm memory: on simd (not shared) the old view is detached, length 0, and
      // view() gives a live one; on simd-threaded (shared) the old view stays valid.
      const before = r.view();
      const bytes = (s) => s.buffer.byteLength;
      const grown = bytes(before);
      const big = upload({ data: new Float32Array(grown / 4 + (1 << 20)), shape: [grown / 4 + (1 << 20)] });
      if (config.variant === 'simd') {
        assert.equal(before.length, 0, 'a view from before the growth is detached');
      } else {
        assert.equal(before.length, 8, 'shared memory: still valid');
        assert.deepEqual(before, r.read());
      }
      assert.deepEqual(r.view(), r.read(), 'view() again after the growth');
      for (const t of [d, r, empty, big]) t.dispose();
    });

    test('ops chain on resident tensors and give what the plain path gives', () => {
      const table = { data: fill(Float32Array, 50 * 8), shape: [50, 8] };
      const rows = { data: new Int32Array([49, -1, 0, 7, 7]), shape: [5] };
      const cols = { data: new Int32Array([1, 0, 7, -8, 3, 3, 2, 5, 6, 1]), shape: [5, 2] };
      const T = upload(table), R = upload(rows), C = upload(cols);
      const picked = take(T, R, { resident: true }); // [5, 8], stays in wasm memory
      assert.ok(picked instanceof ResidentTensor);
      assert.deepEqual(picked.shape, [5, 8]);
      const both = gather(picked, 1, C); // torch.gather on the resident result
      const want = refGather(refTake(table, rows), 1, cols);
      assert.deepEqual(Array.from(both.data), Array.from(want.data));
      assert.deepEqual(both.shape, want.shape);
      // gatherND with resident params and indices into a resident out, written in place
      const out = upload({ data: new Float32Array(5 * 8), shape: [5, 8] });
      assert.equal(gatherND(T, upload({ data: new Int32Array([49, 49, 0, 7, 7]), shape: [5, 1] }), { out }), out);
      assert.deepEqual(out.read(), picked.read());
      for (const t of [T, R, C, picked, out]) t.dispose();
    });

    test('wasm heap: upload holds the bytes, dispose frees them, a resident call holds only indices and output', () => {
      const base = heapStats().heapInUse;
      const table = upload({ data: new Float32Array(1000 * 64), shape: [1000, 64] });
      assert.ok(heapStats().heapInUse - base >= 1000 * 64 * 4);
      const idx = { data: new Int32Array(16).fill(3), shape: [16] };
      take(table, idx);
      assert.equal(heapStats().lastCallBytes, 16 * 4 + 16 * 64 * 4, 'indices + output, nothing else');
      const ri = upload(idx), ro = upload({ data: new Float32Array(16 * 64), shape: [16, 64] });
      take(table, ri, { out: ro });
      assert.equal(heapStats().lastCallBytes, 0, 'all resident: the call allocates nothing');
      const res = take(table, ri, { resident: true });
      assert.equal(heapStats().lastCallBytes, 16 * 64 * 4, 'a new resident result: its own bytes');
      for (const t of [table, ri, ro, res]) t.dispose();
      assert.equal(heapStats().heapInUse, base);
    });

    test('errors name the op and the argument; nothing leaks and the next call works', () => {
      const base = heapStats().heapInUse;
      const T = upload({ data: fill(Float32Array, 12), shape: [3, 4] });
      const F = upload({ data: new Float32Array([0]), shape: [1] });
      const I = upload({ data: new Int32Array([2]), shape: [1] });
      const gone = upload({ data: new Int32Array([0]), shape: [1] });
      gone.dispose();
      const cases = [
        [() => take(gone, I), Error, /^take: params is a resident tensor that was disposed/],
        [() => take(T, gone), Error, /^take: indices is a resident tensor that was disposed/],
        [() => take(T, I, { out: gone }), Error, /^take: opts\.out is a resident tensor that was disposed/],
        [() => gather(T, 0, F), TypeError, /^gather: index is a resident Float32Array; resident indices must be Int32Array/],
        [() => take(T, I, { out: T }), RangeError, /^take: opts\.out\.shape \[3, 4\] must be the output shape \[1, 4\]/],
        [() => take(T, I, { resident: 1 }), TypeError, /^take: opts\.resident must be true or false, got number/],
        [() => take(T, I, { resident: true, out: new Float32Array(4) }), TypeError, /^take: give opts\.out or opts\.resident, not both/],
        [() => take(T, I, { out: upload({ data: new Int32Array(4), shape: [1, 4] }) }), TypeError, /^take: opts\.out must be a Float32Array like the data, got Int32Array/],
        [() => upload(T), TypeError, /^upload: tensor is already resident/],
        [() => upload({ data: [1, 2], shape: [2] }), TypeError, /^upload: tensor\.data must be a TypedArray/],
        [() => upload({ data: new Float32Array(3), shape: [2] }), RangeError, /^upload: tensor\.data has 3 elements but tensor\.shape \[2\] needs 2/],
        [() => take(T, upload({ data: new Int32Array([7]), shape: [1] })), RangeError, /^take: indices\[0\] = 7 is out of range for dimension 0 of params, which has size 3/],
      ];
      for (const [fn, Cls, re] of cases) {
        const h = heapStats().heapInUse;
        assert.throws(fn, (e) => e instanceof Cls && re.test(e.message), re.source);
        assert.ok(heapStats().heapInUse <= h + 64, `${re.source}: heap grew`); // (a case may upload its own operand)
        assert.deepEqual(Array.from(take(T, I).data), [8, 9, 10, 11].map((k) => fill(Float32Array, 12)[k]));
      }
      // the output aliasing an input is refused (same type and shape, so only the alias rule applies)
      const sq = upload({ data: fill(Float32Array, 4), shape: [4] });
      assert.throws(() => take(sq, { data: [3, 2, 1, 0], shape: [4] }, { out: sq }), /^RangeError: take: opts\.out must not be one of the op's inputs/);
      assert.deepEqual(Array.from(sq.read()), Array.from(fill(Float32Array, 4)), 'the input is untouched');
      for (const t of [T, F, I, sq]) t.dispose();
      assert.ok(heapStats().heapInUse - base <= 64, 'only the few uploads the cases made themselves remain');
    });
  });
}

test('a resident tensor of a disposed module is refused, and says to upload again', async () => {
  await init({ variant: 'simd' });
  const t = upload({ data: new Float32Array(4), shape: [4] });
  dispose();
  await init({ variant: 'simd' });
  assert.equal(t.disposed, true);
  assert.throws(() => take(t, { data: [0], shape: [1] }), /^Error: take: params is a resident tensor of a wasm-gather module that was disposed; upload it again/);
  assert.throws(() => t.read(), /resident tensor of a wasm-gather module that was disposed/);
  t.dispose(); // harmless
  dispose();
});

test('forgotten resident tensors are freed by the garbage collector; the process still exits', () => {
  const fixture = fileURLToPath(new URL('../fixtures/resident-gc.mjs', import.meta.url));
  for (const variant of ['simd', 'simd-threaded']) {
    const r = spawnSync(process.execPath, ['--expose-gc', fixture, variant], { encoding: 'utf8', timeout: 30000 });
    assert.equal(r.error, undefined, `did not exit by itself: ${r.error}`);
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.ok(out.held >= 100 * 4096 * 4, `uploads held ${out.held} bytes`);
    assert.equal(out.freed, true, 'the heap did not return to where it was');
  }
});
