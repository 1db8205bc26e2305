// A Float16Array, where the runtime has one (Node 20 has none), is float16 data for the scatters
// without opts.dtype. This file stands one in before the library loads: a Uint16Array by another
// name, holding bits, which is what the library reads of a real one (its memory).
import { test } from 'node:test';
import assert from 'node:assert/strict';

test('scatter: a Float16Array is float16 (computed in float32, rounded), with no opts.dtype', async (t) => {
  if (typeof globalThis.Float16Array === 'function') {
    t.diagnostic('this runtime has its own Float16Array: the stand-in is not needed');
  } else {
    globalThis.Float16Array = class Float16Array extends Uint16Array {};
  }
  const { init, scatter, dispose } = await import('../../js/index.mjs');
  await init({ variant: 'simd' });
  try {
    const F16 = globalThis.Float16Array;
    const bits = (a) => Array.from(new Uint16Array(a.buffer, a.byteOffset, a.length));
    // 1 + 2 = 3 (0x3c00 + 0x4000 = 0x4200); 2048 + 1 + 1 = 2048 rounded after each update
    const make = (v) => { const a = new F16(v.length); new Uint16Array(a.buffer).set(v); return a; };
    const r = scatter({ data: make([0x3c00, 0x6800]), shape: [2] }, 0, { data: [0, 1, 1], shape: [3] },
      { data: make([0x4000, 0x3c00, 0x3c00]), shape: [3] }, { reduce: 'add' });
    assert.ok(r.data instanceof F16);
    assert.deepEqual(bits(r.data), [0x4200, 0x6800]);
    // the same bits as a Uint16Array with opts.dtype 'float16'
    const u = scatter({ data: Uint16Array.of(0x3c00, 0x6800), shape: [2] }, 0, { data: [0, 1, 1], shape: [3] },
      { data: Uint16Array.of(0x4000, 0x3c00, 0x3c00), shape: [3] }, { reduce: 'add', dtype: 'float16' });
    assert.deepEqual(Array.from(u.data), [0x4200, 0x6800]);
  } finally {
    dispose();
  }
});
