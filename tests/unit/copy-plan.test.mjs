// The two paths of a one-shot call (js/copy-plan.mjs): executePlan by itself (every word width,
// each of its three loops, zero blocks, NaN payloads kept bit for bit), the cost model's switch
// (calls just on each side of it take the path it says and give the reference's values), and
// the cases that must not take the JS path (an opts.out that shares memory with the data, resident
// data). tests/lib/random-suite.mjs (each op's file in tests/ops/) runs its seeded cases with each
// path forced. The scatters' plain writes too: executeScatterPlan by itself, and the calls that
// must not take the JS path (tests/lib/scatter-suite.mjs forces each path on the seeded cases).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { refTake } from '../../common/reference.mjs';
import { refScatterND } from '../../common/reference-scatter.mjs';
import { COSTS, LOOP_WORDS, ZERO_BLOCK, addScatterPlan, choosePath, executePlan, executeScatterPlan, forcePath, pathCounts } from '../../js/copy-plan.mjs';
import { dispose, init, scatterND, take, upload } from '../../js/index.mjs';
import { Rng } from '../lib/rng.mjs';

before(() => init());
after(() => { forcePath(null); dispose(); });

const bytesOf = (a) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

test('executePlan: every element size, each loop, zero blocks, views at odd offsets, bitwise', () => {
  const rng = new Rng(0x3c0b7);
  let cases = 0;
  for (const Type of [Uint8Array, Int16Array, Float32Array, Float64Array, BigInt64Array]) {
    const e = Type.BYTES_PER_ELEMENT;
    for (const elems of [1, 2, 9, LOOP_WORDS / 2 + 1, LOOP_WORDS, LOOP_WORDS + 1]) { // blocks: single words, loops (eight words a step and the rest), TypedArray.set
      const bb = elems * e, rows = 9, n = 23;
      // the source: a view at an offset of one element into random bytes (NaN payloads included)
      const backing = new Uint8Array((rows * elems + 1) * e).map(() => rng.int(0, 255));
      const src = new Uint8Array(backing.buffer, e, rows * bb);
      const offsets = Uint32Array.from({ length: n }, () => (rng.chance(0.2) ? ZERO_BLOCK : rng.int(0, rows - 1) * bb));
      for (const zeroed of [true, false]) {
        const out = new Uint8Array(n * bb + 2 * e).fill(zeroed ? 0 : 0xee);
        const dst = new Uint8Array(out.buffer, e, n * bb);
        executePlan(offsets, n, src, dst, bb, e, zeroed);
        for (let j = 0; j < n; j++) {
          const got = dst.subarray(j * bb, (j + 1) * bb);
          const want = offsets[j] === ZERO_BLOCK ? new Uint8Array(bb) : src.subarray(offsets[j], offsets[j] + bb);
          assert.deepEqual(got, want, `${Type.name} block ${j} of ${bb} bytes, zeroed ${zeroed}`);
        }
        assert.deepEqual([...out.subarray(0, e), ...out.subarray(e + n * bb)], new Array(2 * e).fill(zeroed ? 0 : 0xee), 'nothing written around dst');
        cases++;
      }
    }
  }
  assert.equal(cases, 60);
});

test('executePlan: runs of blocks that follow one another in the source (one set a run), broken by zero blocks, gaps and repeats', () => {
  const rng = new Rng(0x7a11);
  let cases = 0;
  for (const Type of [Uint8Array, Float32Array, Float64Array]) {
    const e = Type.BYTES_PER_ELEMENT, elems = LOOP_WORDS + 8, bb = elems * e, rows = 64; // blocks moved by TypedArray.set
    const backing = new Uint8Array((rows * elems + 1) * e).map(() => rng.int(0, 255));
    const src = new Uint8Array(backing.buffer, e, rows * bb);
    // rows in runs: a run's next row, a repeat, a gap, a zero block, the table's last row
    const list = [];
    for (let r = rng.int(0, 3); list.length < 48;) {
      const pick = rng.int(0, 9);
      if (pick < 6 && r + 1 < rows) list.push(++r * bb);
      else if (pick === 6) list.push(r * bb); // the same row again
      else if (pick === 7) list.push(ZERO_BLOCK);
      else list.push((r = rng.int(0, rows - 1)) * bb);
    }
    list.push((rows - 2) * bb, (rows - 1) * bb); // a run that ends with the table
    const offsets = Uint32Array.from(list), n = offsets.length;
    for (const zeroed of [true, false]) {
      const out = new Uint8Array(n * bb + 2 * e).fill(zeroed ? 0 : 0xee);
      const dst = new Uint8Array(out.buffer, e, n * bb);
      executePlan(offsets, n, src, dst, bb, e, zeroed);
      const want = new Uint8Array(n * bb);
      for (let j = 0; j < n; j++) if (offsets[j] !== ZERO_BLOCK) want.set(src.subarray(offsets[j], offsets[j] + bb), j * bb);
      assert.deepEqual(dst, want, `${Type.name}, zeroed ${zeroed}`);
      assert.deepEqual([...out.subarray(0, e), ...out.subarray(e + n * bb)], new Array(2 * e).fill(zeroed ? 0 : 0xee), 'nothing written around dst');
      cases++;
    }
  }
  assert.equal(cases, 6);
});

test('the JS path into a new array of the data\'s own type (blocks set between the two, no word views): the kernel\'s bits', () => {
  const rng = new Rng(0x5e7);
  try {
    for (const Type of [Uint8Array, Int16Array, Float32Array, Float64Array, BigInt64Array]) {
      for (const cols of [3, LOOP_WORDS + 8]) { // a loop of words, and TypedArray.set
        const bytes = new Uint8Array(12 * cols * Type.BYTES_PER_ELEMENT).map(() => rng.int(0, 255)); // NaN payloads too
        const table = { data: new Type(bytes.buffer), shape: [12, cols] };
        const ids = { data: Int32Array.from({ length: 9 }, () => rng.int(-12, 11)), shape: [9] };
        const got = {};
        for (const path of ['js', 'kernel']) {
          forcePath(path);
          const before = pathCounts[path];
          got[path] = take(table, ids);
          assert.ok(pathCounts[path] > before, `${Type.name}: the ${path} path was taken`);
        }
        assert.equal(got.js.data.constructor, Type);
        assert.deepEqual(bytesOf(got.js.data), bytesOf(got.kernel.data), `${Type.name}, rows of ${cols}`);
      }
    }
  } finally {
    forcePath(null);
  }
});

// take of k rows of cols float32 from a [rows, cols] table: the k at which the model starts to
// prefer the kernel (the JS path's cost grows with k, the data copy it saves does not).
function switchPoint(rows, cols) {
  const d = { bytes: rows * cols * 4, ptr: undefined, Type: Float32Array, data: new Float32Array(0) };
  const target = { kind: 'new' };
  let last = null;
  for (let k = 1; k <= rows * 4; k++) {
    forcePath(null);
    const path = choosePath({ data: d }, target, 'copy', k * cols * 4, k);
    if (last === 'js' && path === 'kernel') return k;
    last = path;
  }
  return null;
}

test('the cost model: calls on each side of its switch take the path it chose, and are right', () => {
  for (const [rows, cols] of [[4096, 64], [2048, 1], [512, 64]]) {
    const k = switchPoint(rows, cols);
    assert.ok(k > 1, `[${rows}, ${cols}]: the model switches from js to kernel (at ${k} rows)`);
    const rng = new Rng(rows + cols);
    const data = { data: Float32Array.from({ length: rows * cols }, () => rng.next()), shape: [rows, cols] };
    for (const [n, want] of [[k - 1, 'js'], [k, 'kernel']]) {
      const indices = { data: Int32Array.from({ length: n }, () => rng.int(-rows, rows - 1)), shape: [n] };
      const before = { ...pathCounts };
      const got = take(data, indices);
      assert.equal(pathCounts[want] - before[want], 1, `[${rows}, ${cols}] by ${n}: the ${want} path`);
      assert.deepEqual(got.data, Float32Array.from(refTake(data, indices).data), `[${rows}, ${cols}] by ${n}`);
    }
  }
  // where the model chooses, every size in between as well (W5's shape: a small table)
  const rng = new Rng(5);
  const data = { data: Float32Array.from({ length: 1000 * 64 }, () => rng.next()), shape: [1000, 64] };
  const indices = { data: Int32Array.from({ length: 16 }, () => rng.int(0, 999)), shape: [16] };
  const before = pathCounts.js;
  assert.deepEqual(take(data, indices).data, Float32Array.from(refTake(data, indices).data));
  assert.equal(pathCounts.js - before, 1, 'W5: 16 rows of a 256 KB table move in JS');
});

// A call that fails on both paths forced (call(out): into opts.out, a Float32Array of outLength):
// the same message, matching pattern, and opts.out untouched on each.
function sameErrorOnBothPaths(call, outLength, pattern) {
  const messages = [];
  for (const path of ['kernel', 'js']) {
    forcePath(path);
    const out = new Float32Array(outLength).fill(-1);
    const before = pathCounts[path];
    assert.throws(() => call(out), (e) => {
      messages.push(e.message);
      return e instanceof RangeError;
    });
    assert.equal(pathCounts[path] - before, 1, `${path}: the path was taken`);
    assert.ok(out.every((v) => v === -1), `${path}: opts.out untouched`);
  }
  forcePath(null);
  assert.equal(messages[0], messages[1]);
  assert.match(messages[0], pattern);
}

test('errors are the same on both paths: the first bad index, nothing written to opts.out', () => {
  const data = { data: new Float32Array(64 * 8).map((_, i) => i), shape: [64, 8] };
  const indices = { data: Int32Array.from([3, 64, -65, 1]), shape: [2, 2] }; // two bad ones
  sameErrorOnBothPaths((out) => take(data, indices, { out: { data: out, shape: [2, 2, 8] } }), 2 * 2 * 8, /indices\[0, 1\] = 64/);
});

test('not the JS path: an opts.out sharing memory with the data or with wasm memory, or resident data', () => {
  forcePath('js');
  const buffer = new Float32Array(64);
  for (let i = 0; i < 32; i++) buffer[i] = i;
  const data = { data: buffer.subarray(0, 32), shape: [8, 4] };
  const out = buffer.subarray(16, 32); // overlaps the data's last half
  const indices = { data: Int32Array.from([7, 0, 5, 6]), shape: [4] };
  const original = data.data.slice();
  const want = refTake({ data: original, shape: [8, 4] }, indices).data;
  const before = { ...pathCounts };
  take(data, indices, { out });
  assert.deepEqual(Array.from(out), Array.from(want), 'the kernel read the data before the output overwrote it');
  const table = upload({ data: original, shape: [8, 4] });
  assert.deepEqual(Array.from(take(table, indices).data), Array.from(want));
  // an opts.out in wasm memory (a resident tensor's view), where the JS path's plan would go
  const sink = upload({ data: new Float32Array(16), shape: [4, 4] });
  take({ data: original, shape: [8, 4] }, indices, { out: sink.view() });
  assert.deepEqual(Array.from(sink.read()), Array.from(want));
  sink.dispose();
  table.dispose();
  assert.deepEqual(pathCounts, before, 'no call could take the JS path');
  forcePath(null);
});

test('the cost tables have one entry per block size, in increasing size', () => {
  const { blockBytes, jsPerBlock, kernelPerBlock, scatterJsPerRow, scatterKernelPerRow } = COSTS;
  for (const table of [jsPerBlock, kernelPerBlock, scatterJsPerRow, scatterKernelPerRow]) assert.equal(table.length, blockBytes.length);
  assert.ok(blockBytes.every((b, i) => i === 0 || b > blockBytes[i - 1]));
});

test('executeScatterPlan: every element size, each loop, dropped rows, the last write to a row wins, bitwise', () => {
  const rng = new Rng(0x5ca7);
  let cases = 0;
  for (const Type of [Uint8Array, Int16Array, Float32Array, Float64Array, BigInt64Array]) {
    const e = Type.BYTES_PER_ELEMENT;
    for (const elems of [1, 2, 9, LOOP_WORDS / 2 + 1, LOOP_WORDS, LOOP_WORDS + 1]) { // rows: single words, loops (eight words a step and the rest), TypedArray.set
      const bb = elems * e, rows = 9, n = 23;
      const backing = new Uint8Array(n * bb + e).map(() => rng.int(0, 255)); // NaN payloads included
      const src = new Uint8Array(backing.buffer, e, n * bb);
      const dests = Uint32Array.from({ length: n }, () => (rng.chance(0.2) ? ZERO_BLOCK : rng.int(0, rows - 1)));
      const out = new Uint8Array(rows * bb + 2 * e).fill(0xee);
      const dst = new Uint8Array(out.buffer, e, rows * bb);
      const want = dst.slice();
      for (let j = 0; j < n; j++) if (dests[j] !== ZERO_BLOCK) want.set(src.subarray(j * bb, (j + 1) * bb), dests[j] * bb);
      executeScatterPlan(dests, n, src, dst, bb, e);
      assert.deepEqual(dst, want, `${Type.name}, rows of ${bb} bytes`);
      assert.deepEqual([...out.subarray(0, e), ...out.subarray(e + rows * bb)], new Array(2 * e).fill(0xee), 'nothing written around dst');
      cases++;
    }
  }
  assert.equal(cases, 30);
});

test('scatters: errors are the same on both paths, nothing written to opts.out', () => {
  const data = { data: new Float32Array(64 * 8).map((_, i) => i), shape: [64, 8] };
  const indices = { data: Int32Array.from([3, 64, 1]), shape: [3, 1] };
  const updates = { data: new Float32Array(3 * 8).fill(7), shape: [3, 8] };
  sameErrorOnBothPaths((out) => scatterND(data, indices, updates, { out }), 64 * 8, /indices\[1, 0\] = 64/);
});

test('scatters, not the JS path: an opts.out sharing memory with the data or the updates, resident data, a reduction', () => {
  forcePath('js');
  const buffer = new Float32Array(64);
  for (let i = 0; i < 64; i++) buffer[i] = i;
  const indices = { data: Int32Array.from([3, 0, 3]), shape: [3, 1] };
  const original = buffer.slice();
  const before = { ...pathCounts };
  // the data [4, 4] in buffer[0, 16), the updates [3, 4] in buffer[16, 28)
  const data = { data: buffer.subarray(0, 16), shape: [4, 4] };
  const updates = { data: buffer.subarray(16, 28), shape: [3, 4] };
  const want = refScatterND({ data: original.slice(0, 16), shape: [4, 4] }, indices, { data: original.slice(16, 28), shape: [3, 4] }).data;
  for (const at of [8, 20]) { // an output over the data's second half, then over the updates
    buffer.set(original);
    const out = buffer.subarray(at, at + 16);
    scatterND(data, indices, updates, { out });
    assert.deepEqual(Array.from(out), Array.from(want), `opts.out at ${at}: the kernel read its inputs first`);
  }
  buffer.set(original);
  const table = upload(data);
  assert.deepEqual(Array.from(scatterND(table, indices, updates).data), Array.from(want));
  table.dispose();
  scatterND(data, indices, updates, { reduce: 'add' });
  assert.deepEqual(pathCounts, before, 'no call could take the JS path');
  forcePath(null);
});

test('scatters, the JS path: the data copied into the new array bit for bit (NaN payloads, -0)', () => {
  forcePath('js');
  const bits = Uint32Array.from([0x7fc00001, 0xffa00002, 0x80000000, 0x7f800001, 0x3f800000, 0xff812345, 0x00000001, 0x7fffffff]);
  const data = { data: new Float32Array(bits.buffer), shape: [4, 2] };
  const indices = { data: Int32Array.from([2]), shape: [1, 1] };
  const updates = { data: new Float32Array(new Uint32Array([0x7fc0dead, 0xffc0beef]).buffer), shape: [1, 2] };
  const before = pathCounts.js;
  const got = scatterND(data, indices, updates).data;
  assert.equal(pathCounts.js - before, 1);
  const want = bits.slice();
  want.set([0x7fc0dead, 0xffc0beef], 4);
  assert.deepEqual(new Uint32Array(got.buffer, got.byteOffset, 8), want);
  forcePath(null);
});

test('addScatterPlan: float32 and int32 sums in order, the same bits as the C kernel (NaN, -0, infinities, overflow)', () => {
  const rng = new Rng(0xadd);
  const specials = [NaN, -0, Infinity, -Infinity, 3.4e38, -3.4e38, 1e-45, 16777217];
  for (const [Type, value] of [[Float32Array, () => (rng.chance(0.1) ? specials[rng.int(0, 7)] : (rng.next() - 0.5) * 10 ** rng.int(-8, 8))],
    [Int32Array, () => rng.int(-(2 ** 31), 2 ** 31 - 1)]]) {
    for (const w of [1, 3, 17]) {
      const rows = 7, n = 40; // repeated destinations, some dropped
      const dests = Uint32Array.from({ length: n }, () => (rng.chance(0.1) ? ZERO_BLOCK : rng.int(0, rows - 1)));
      const src = Type.from({ length: n * w }, value);
      const got = new Type(rows * w);
      addScatterPlan(dests, n, src, got, w);
      // the C kernel (the kernel path of scatterND 'add' into zeros) on the rows that are kept
      const kept = [...dests.keys()].filter((j) => dests[j] !== ZERO_BLOCK);
      const updates = new Type(kept.length * w);
      kept.forEach((j, i) => updates.set(src.subarray(j * w, (j + 1) * w), i * w));
      forcePath('kernel');
      const want = scatterND({ data: new Type(rows * w), shape: [rows, w] }, { data: Int32Array.from(kept, (j) => dests[j]), shape: [kept.length, 1] },
        { data: updates, shape: [kept.length, w] }, { reduce: 'add' }).data;
      forcePath(null);
      assert.deepEqual(new Uint32Array(got.buffer), new Uint32Array(want.buffer), `${Type.name}, rows of ${w}`);
    }
  }
});
