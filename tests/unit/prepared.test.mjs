// Prepared calls (js/prepared.mjs): prepare(op, ...args).run() gives what op(...args) gives, at
// every run, for gathers and scatters, with each kind of output (a new array, opts.out an array
// or a resident tensor, in place) and inputs resident or not (their arrays read as they are at
// each run); a run's errors are the op's, in its words, with nothing written; what it refuses;
// no wasm memory left behind; the CommonJS entry's prepare.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import {
  PreparedCall, dispose, gatherND, heapStats, indexReduce, init, prepare, scatter, scatterND, take, tensorScatter, upload,
} from '../../js/index.mjs';
import { forcePath, pathCounts } from '../../js/copy-plan.mjs';
import { getState } from '../../js/state.mjs';
import { Rng } from '../lib/rng.mjs';
import { bytesOf, sameBytes } from '../../common/bytes.mjs';

const floats = (rng, n) => Float32Array.from({ length: n }, () => rng.int(-50, 50) / 4);
const ints = (rng, n, hi) => Int32Array.from({ length: n }, () => rng.int(0, hi - 1));
// Fills an array in place with new values (what a caller does between runs).
const refill = (rng, a, hi) => { for (let i = 0; i < a.length; i++) a[i] = hi === undefined ? rng.int(-50, 50) / 4 : rng.int(0, hi - 1); };

for (const config of [{ variant: 'simd' }, { variant: 'simd-threaded', threads: 2, parallelThreshold: 0 }]) {
  describe(`prepared calls (${config.variant})`, () => {
    before(() => init(config));
    after(() => dispose());

    test('each run gives what the plain call gives on the arrays as they are then', () => {
      const rng = new Rng(41);
      const heap = heapStats().heapInUse;
      const table = { data: floats(rng, 500 * 8), shape: [500, 8] };
      const ids = { data: ints(rng, 30, 500), shape: [30] };
      const rt = upload(table);
      const outArray = new Float32Array(30 * 8);
      const outRes = upload({ data: new Float32Array(30 * 8), shape: [30, 8] });
      const nd = { data: Int32Array.from({ length: 20 }, (_, i) => rng.int(0, i % 2 ? 9 : 49)), shape: [10, 2] };
      const cache = { data: floats(rng, 2 * 16 * 4), shape: [2, 16, 4] };
      const row = { data: floats(rng, 2 * 4), shape: [2, 1, 4] };
      const at = { data: new Int32Array([3, 9]), shape: [2] };
      const idx = { data: ints(rng, 40, 16), shape: [40, 1] };
      const upd = { data: floats(rng, 40 * 4), shape: [40, 4] };
      const cases = [
        ['take, a new array', take, [table, ids]],
        ['take, resident table, opts.out an array', take, [rt, ids, { out: outArray }]],
        ['take, resident table, opts.out resident', take, [rt, ids, { out: outRes }]],
        ['gatherND', gatherND, [{ data: table.data, shape: [50, 10, 8] }, nd]],
        ['tensorScatter, a new array', tensorScatter, [cache, row, at]],
        ['scatterND add', scatterND, [{ data: upd.data.subarray(0, 64), shape: [16, 4] }, idx, upd, { reduce: 'add' }]],
        ['indexReduce mean', indexReduce, [{ data: upd.data.subarray(0, 64), shape: [16, 4] }, 0,
          { data: idx.data, shape: [40] }, upd, { reduce: 'mean' }]],
        ['scatter max, includeSelf false', scatter, [{ data: upd.data.subarray(0, 64), shape: [16, 4] }, 0,
          { data: ints(rng, 160, 16), shape: [40, 4] }, upd, { reduce: 'max', includeSelf: false }]],
      ];
      for (const [name, fn, args] of cases) {
        const p = prepare(fn, ...args);
        assert.ok(p instanceof PreparedCall);
        assert.equal(p.op, fn.name);
        for (let r = 0; r < 3; r++) {
          const got = p.run();
          const want = fn(...args);
          const bytes = (x) => bytesOf(x.data ?? x.read());
          assert.ok(sameBytes(bytes(got), bytes(want)), `${name}, run ${r}`);
          if (!('read' in got)) assert.deepEqual(got.shape, want.shape);
          // new values in the same arrays for the next run
          refill(rng, ids.data, 500);
          refill(rng, row.data);
          refill(rng, upd.data);
          refill(rng, idx.data, 16);
        }
        p.dispose();
        assert.equal(p.disposed, true);
      }
      rt.dispose();
      outRes.dispose();
      assert.equal(heapStats().heapInUse, heap, 'wasm heap not restored');
    });

    test('one-shot calls on either path (the kernel, or JS copies from the arrays given): what the plain call gives', () => {
      const rng = new Rng(43);
      const table = { data: floats(rng, 200 * 16), shape: [200, 16] };
      const ids = { data: ints(rng, 12, 200), shape: [12] };
      const data = { data: floats(rng, 64 * 4), shape: [64, 4] };
      const idx = { data: ints(rng, 10, 64), shape: [10, 1] };
      const upd = { data: floats(rng, 40), shape: [10, 4] };
      try {
        for (const path of ['kernel', 'js']) {
          forcePath(path);
          const before = pathCounts[path];
          const cases = [[take, [table, ids]], [scatterND, [data, idx, upd]]];
          for (const [fn, args] of cases) {
            const p = prepare(fn, ...args);
            for (let r = 0; r < 3; r++) {
              const got = p.run();
              const want = fn(...args);
              assert.ok(sameBytes(bytesOf(got.data), bytesOf(want.data)), `${fn.name} on the ${path} path, run ${r}`);
              refill(rng, ids.data, 200);
              refill(rng, table.data);
              refill(rng, idx.data, 64);
              refill(rng, data.data);
            }
            p.dispose();
          }
          assert.ok(pathCounts[path] > before, `the ${path} path was taken`);
        }
        // an array the JS path reads where it is, detached: refused
        forcePath('js');
        const buf = new ArrayBuffer(200 * 16 * 4);
        const p = prepare(take, { data: new Float32Array(buf), shape: [200, 16] }, ids);
        p.run();
        structuredClone(buf, { transfer: [buf] });
        assert.throws(() => p.run(), /^TypeError: take: an array this call was prepared with was detached or resized since/);
        p.dispose();
      } finally {
        forcePath(null);
      }
    });

    test('a one-shot take of rows on the JS path resolves its indices in JS as C does: the same bits, the same errors, no wasm call', () => {
      const rng = new Rng(44);
      // NaNs with payloads (signaling ones too) among the rows: the copies keep every bit
      const table = { data: floats(rng, 300 * 24), shape: [300, 24] };
      const words = new Uint32Array(table.data.buffer);
      for (let i = 0; i < words.length; i += 37) words[i] = [0x7f800001, 0xffc12345, 0x7fc00000][i % 3];
      const vector = { data: table.data.subarray(0, 300), shape: [300] }; // rows of one element
      const m = getState().m, rerun = m._wg_call_rerun;
      let reruns = 0;
      m._wg_call_rerun = (...a) => { reruns++; return rerun(...a); };
      try {
        forcePath('js');
        for (const [Type, lo] of [[Int32Array, -300], [Uint32Array, 0], [Int16Array, -300]]) {
          for (const [data, axis] of [[table, 0], [table, -2], [vector, 0]]) {
            for (const negativeIndices of [undefined, 'wrap', 'error']) {
              const ids = { data: new Type(40), shape: [5, 8] };
              const opts = { axis, ...(negativeIndices && { negativeIndices }) };
              const p = prepare(take, data, ids, opts);
              for (let r = 0; r < 6; r++) {
                for (let i = 0; i < ids.data.length; i++) ids.data[i] = rng.int(lo, 299);
                if (r === 4) ids.data[rng.int(0, 39)] = 300; // out of range: the op's error
                if (r === 5 && lo < 0) ids.data[rng.int(0, 39)] = -301;
                let want, wantError;
                try { want = take(data, ids, opts); } catch (e) { wantError = e; }
                const what = `${Type.name} ids, axis ${axis}, [${data.shape}], negativeIndices ${negativeIndices}, run ${r}`;
                if (wantError) {
                  assert.throws(() => p.run(), (e) => e.constructor === wantError.constructor && e.message === wantError.message, what);
                  continue;
                }
                const before = reruns;
                const got = p.run();
                assert.equal(reruns, before, `${what}: resolved in JS, no wasm call`);
                assert.ok(sameBytes(bytesOf(got.data), bytesOf(want.data)), what);
                assert.deepEqual(got.shape, want.shape, what);
              }
              p.dispose();
            }
          }
        }
        assert.ok(reruns > 0, 'the runs with a bad index went to the wasm path');
      } finally {
        forcePath(null);
        m._wg_call_rerun = rerun;
      }
    });

    test('in place: a resident cache updated at each run (the decode write)', () => {
      const rng = new Rng(42);
      const base = floats(rng, 64 * 8);
      const cache = upload({ data: base, shape: [1, 64, 8] });
      const row = { data: new Float32Array(8), shape: [1, 1, 8] };
      const pos = { data: new Int32Array(1), shape: [1] };
      const write = prepare(tensorScatter, cache, row, pos, { inPlace: true });
      const want = base.slice();
      for (let step = 0; step < 64; step++) {
        refill(rng, row.data);
        pos.data[0] = step;
        assert.equal(write.run(), cache);
        want.set(row.data, step * 8);
      }
      assert.ok(sameBytes(bytesOf(cache.read()), bytesOf(want)));
      write.dispose();
      cache.dispose();
    });

    test("a run's error is the op's, in its words, and writes nothing; the next run works", () => {
      const cache = upload({ data: new Float32Array(16 * 4).fill(1), shape: [16, 4] });
      const idx = { data: new Int32Array([0, 3]), shape: [2, 1] };
      const upd = { data: new Float32Array(8).fill(5), shape: [2, 4] };
      const p = prepare(scatterND, cache, idx, upd, { inPlace: true, reduce: 'add' });
      idx.data[1] = 16;
      const plain = (() => { try { scatterND(cache, idx, upd, { inPlace: true, reduce: 'add' }); } catch (e) { return e; } })();
      assert.ok(plain instanceof RangeError);
      assert.throws(() => p.run(), (e) => e instanceof RangeError && e.message === plain.message);
      assert.ok(cache.read().every((x) => x === 1), 'a failed run wrote');
      idx.data[1] = 3;
      p.run();
      assert.equal(cache.read()[3 * 4], 6);
      p.dispose();
      cache.dispose();
    });

    test('what prepare and run refuse', () => {
      const heap = heapStats().heapInUse;
      const t = upload({ data: new Float32Array(40), shape: [10, 4] });
      const ids = { data: new Int32Array([1, 2]), shape: [2] };
      assert.throws(() => prepare((x) => x, t, ids), /^TypeError: prepare: op must be one of wasm-gather's ops/);
      assert.throws(() => prepare('nope', t, ids), /^TypeError: prepare: op must be one of wasm-gather's ops .*got "nope"/);
      assert.throws(() => prepare(take, t, ids, { resident: true }), /^TypeError: prepare: take: opts.resident would make a new tensor at each run/);
      assert.throws(() => prepare(take, t, { data: [1, 2], shape: [2] }), /^TypeError: prepare: take: a prepared call reads its arrays at each run/);
      // the op's own checks, in its words
      assert.throws(() => prepare(take, t, ids, { axis: 2 }), /^RangeError: take: /);
      assert.throws(() => prepare(take, t, ids, { nope: 1 }), /^TypeError: take: unknown option 'nope'/);
      const p = prepare('take', t, ids);
      assert.deepEqual(Array.from(p.run().data.subarray(0, 4)), [0, 0, 0, 0]);
      // a resident input disposed between runs is refused
      t.dispose();
      assert.throws(() => p.run(), (e) => e.code === 'ERR_WG_DISPOSED' && /^take: params is a resident tensor that was disposed/.test(e.message));
      p.dispose();
      assert.throws(() => p.run(), (e) => e.code === 'ERR_WG_DISPOSED' && /^take: this prepared call was disposed/.test(e.message));
      p.dispose(); // twice is fine
      assert.equal(heapStats().heapInUse, heap, 'the prepared call and the disposed tensor freed');
    });

    test('an array detached since prepare() is refused', () => {
      const t = upload({ data: new Float32Array(40), shape: [10, 4] });
      const buf = new ArrayBuffer(8);
      const ids = { data: new Int32Array(buf), shape: [2] };
      const p = prepare(take, t, ids);
      structuredClone(buf, { transfer: [buf] });
      assert.throws(() => p.run(), /^TypeError: take: an array this call was prepared with was detached or resized since; prepare it again/);
      p.dispose();
      t.dispose();
    });
  });
}

test('a prepared call of a disposed module is refused, also after init() again', async () => {
  await init({ variant: 'simd' });
  const p = prepare(take, { data: new Float32Array(8), shape: [4, 2] }, { data: new Int32Array([1]), shape: [1] });
  dispose();
  assert.throws(() => p.run(), (e) => e.code === 'ERR_WG_NOT_INITIALIZED');
  await init({ variant: 'simd' });
  try {
    assert.throws(() => p.run(), (e) => e.code === 'ERR_WG_DISPOSED' && /belongs to a wasm-gather module that was disposed/.test(e.message));
    assert.equal(p.disposed, true);
  } finally {
    dispose();
  }
});

test('the CommonJS entry: prepare takes its op functions, PreparedCall is the class', async () => {
  const cjs = createRequire(import.meta.url)('../../js/index.cjs');
  await cjs.init({ variant: 'simd' });
  try {
    const p = cjs.prepare(cjs.take, { data: Float32Array.from([1, 2, 3, 4]), shape: [2, 2] }, { data: new Int32Array([1]), shape: [1] });
    assert.ok(p instanceof cjs.PreparedCall);
    assert.deepEqual(Array.from(p.run().data), [3, 4]);
    p.dispose();
  } finally {
    cjs.dispose();
  }
});
