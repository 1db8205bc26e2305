// The guest module (js/guest.mjs): wasm-gather's ops run in another module's memory. Here the
// host is a WebAssembly.Memory of the test's own with a bump allocator, so that everything around
// the guest's block can be checked: its imports (memory, stack pointer, the two bases, a table:
// no function), its constants table against the library's, seeded random take / gatherND /
// gather cases against the JS reference and the library (values, and the library's error for a
// bad index), the deepest stack it used, nothing written outside its block and the tensors'
// outputs, and its block freed by dispose(). tests/unit/tfjs-adapter.test.mjs runs it in
// TensorFlow.js's memory.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { refGather, refGatherND, refTake } from '../../common/reference.mjs';
import { dispose, gather, gatherND, init, take } from '../../js/index.mjs';
import { GUEST_STACK_BYTES, createGuest, guestModule, plan, run } from '../../js/guest.mjs';
import { opNamed } from '../../js/ops/index.mjs';
import { getState } from '../../js/state.mjs';
import { Rng } from '../lib/rng.mjs';

let module;
before(async () => {
  await init({ threads: 1 });
  module = await guestModule();
});
after(() => dispose());

// A host: a memory of its own, malloc as a bump allocator (16-byte aligned), frees recorded.
function host(pages = 64, shared = false) {
  const memory = new WebAssembly.Memory({ initial: pages, maximum: shared ? pages : undefined, shared });
  let top = 1024;
  const freed = [];
  const blocks = [];
  return {
    memory, freed, blocks,
    malloc(n) { const p = top; top = Math.ceil((top + n) / 16) * 16; blocks.push([p, n]); return p; },
    free(p) { freed.push(p); },
    bytes: () => new Uint8Array(memory.buffer),
    top: () => top,
  };
}

test('the guest imports a memory, a table and three globals, and no function', () => {
  const imports = WebAssembly.Module.imports(module).map((i) => `${i.module}.${i.name}:${i.kind}`).sort();
  assert.deepEqual(imports, ['env.__indirect_function_table:table', 'env.__memory_base:global', 'env.__stack_pointer:global',
    'env.__table_base:global', 'env.memory:memory']);
  const exports = WebAssembly.Module.exports(module).map((e) => e.name).sort();
  for (const name of ['wg_abi_count', 'wg_abi_name', 'wg_abi_value', 'wg_call_run', 'wg_call_shape']) assert.ok(exports.includes(name), name);
});

test("the guest's constants are the library's (one build of one C source)", () => {
  const h = host();
  const g = createGuest(module, h);
  const mine = getState().abi;
  assert.deepEqual(g.abi.call, mine.call);
  assert.deepEqual(g.abi.ops, mine.ops);
  for (const name of ['WG_OK', 'WG_ERR_INDEX_OUT_OF_RANGE', 'WG_INDEX_I32', 'WG_OOB_ERROR', 'WG_NEGATIVE_ERROR', 'WG_MAX_RANK']) {
    assert.equal(g.abi.value(name), mine.value(name), name);
  }
  g.dispose();
  assert.deepEqual(h.freed, [h.blocks[0][0]], 'dispose() frees its one block');
  g.dispose();
  assert.equal(h.freed.length, 1, 'once');
});

test('a shared host memory is refused (this guest imports a plain one) and its block is freed', () => {
  const h = host(64, true);
  assert.throws(() => createGuest(module, h), WebAssembly.LinkError);
  assert.deepEqual(h.freed, [h.blocks[0][0]]);
});

const OPS = {
  take: { ref: (d, i, a) => refTake(d, i, { ...a.opts, axis: a.axis, batchDims: a.batchDims }),
    lib: (d, i, a) => take(d, i, { ...a.opts, axis: a.axis, batchDims: a.batchDims }) },
  gatherND: { ref: (d, i, a) => refGatherND(d, i, { ...a.opts, batchDims: a.batchDims }),
    lib: (d, i, a) => gatherND(d, i, { ...a.opts, batchDims: a.batchDims }) },
  gather: { ref: (d, i, a) => refGather(d, a.axis, i, a.opts), lib: (d, i, a) => gather(d, a.axis, i, a.opts) },
};

// A random valid call of op: float32 data, int32 indices (about one case in eight with a bad one).
function randomCase(op, rng) {
  const rank = rng.int(1, 4);
  const shape = Array.from({ length: rank }, () => (rng.chance(0.05) ? 0 : rng.int(1, 5)));
  const opts = { outOfRange: rng.pick(['error', 'zero', 'clamp']), negativeIndices: rng.pick(['wrap', 'error']) };
  let iShape, axis = 0, batchDims = 0, limits;
  if (op === 'take') {
    axis = rng.int(0, rank - 1);
    batchDims = rng.int(0, axis);
    iShape = [...shape.slice(0, batchDims), ...Array.from({ length: rng.int(0, 2) }, () => rng.int(rng.chance(0.1) ? 0 : 1, 4))];
    limits = () => shape[axis];
  } else if (op === 'gatherND') {
    batchDims = rng.int(0, rank - 1);
    const k = rng.int(1, rank - batchDims);
    iShape = [...shape.slice(0, batchDims), ...Array.from({ length: rng.int(0, 2) }, () => rng.int(rng.chance(0.1) ? 0 : 1, 4)), k];
    limits = (j) => shape[batchDims + (j % k)];
  } else {
    axis = rng.int(0, rank - 1);
    iShape = shape.map((d, j) => (j === axis ? rng.int(1, 4) : rng.int(d ? 1 : 0, d)));
    limits = () => shape[axis];
  }
  const data = Float32Array.from({ length: shape.reduce((a, b) => a * b, 1) }, () => rng.int(-1000, 1000) / 8);
  const n = iShape.reduce((a, b) => a * b, 1);
  const bad = rng.chance(0.125);
  const idx = Int32Array.from({ length: n }, (_, j) => {
    const s = limits(j);
    if (bad && rng.chance(0.3)) return rng.pick([-s - 1, s, s + 3, -1]);
    return s ? rng.int(-s, s - 1) : 0;
  });
  return { data: { data, shape }, indices: { data: idx, shape: iShape }, a: { axis, batchDims, opts } };
}

// The call through the guest, its tensors placed in the host's memory by the test.
function guestCall(g, h, op, { data, indices, a }, outLength) {
  const at = (n) => h.malloc(Math.max(n, 1));
  const dPtr = at(data.data.byteLength), iPtr = at(indices.data.byteLength), oPtr = at(outLength * 4);
  h.bytes().set(new Uint8Array(data.data.buffer), dPtr);
  h.bytes().set(new Uint8Array(indices.data.buffer), iPtr);
  const desc = opNamed(op);
  const values = { axis: a.axis ?? 0, batch_dims: a.batchDims ?? 0 };
  const call = { desc, attrs: desc.attributes.map((name) => values[name]),
    mode: a.opts.outOfRange ?? 'error', negative: a.opts.negativeIndices ?? 'wrap',
    tensors: { data: { shape: data.shape, dtype: 'F32', ptr: dPtr },
      indices: { shape: indices.shape, kind: 'I32', dtype: 'I32', ptr: iPtr, Type: Int32Array, length: indices.data.length } } };
  const shape = plan(g, call);
  run(g, call, oPtr);
  return { shape, data: new Float32Array(h.memory.buffer, oPtr, outLength).slice(), oPtr };
}

test('seeded random take, gatherND and gather in a host memory: the reference and the library, values and errors', (t) => {
  const h = host(256);
  const g = createGuest(module, h);
  const { low, top } = g.stack;
  const CANARY = 0xa5;
  h.bytes().fill(CANARY, low, top);
  const counts = { cases: 0, errors: 0, empty: 0 };
  for (const op of Object.keys(OPS)) {
    const rng = new Rng(0x6e57 + op.length);
    for (let n = 0; n < 400; n++) {
      const c = randomCase(op, rng);
      const what = `${op} #${n} data ${JSON.stringify(c.data.shape)} indices ${JSON.stringify(c.indices.shape)} ${JSON.stringify(c.a)}`;
      let want, wantError;
      try { want = OPS[op].lib(c.data, c.indices, c.a); } catch (e) { wantError = e; }
      let ref;
      try { ref = OPS[op].ref(c.data, c.indices, c.a); } catch { ref = null; }
      assert.equal(ref === null, wantError !== undefined, `${what}: the library and the reference disagree on an error`);
      const outLength = want ? want.data.length : 0;
      if (wantError) {
        assert.throws(() => guestCall(g, h, op, c, outLength), (e) => e.constructor === wantError.constructor &&
          e.message === wantError.message && JSON.stringify(e.index) === JSON.stringify(wantError.index), what);
        counts.errors++;
      } else {
        const got = guestCall(g, h, op, c, outLength);
        assert.deepEqual(got.shape, want.shape, what);
        assert.deepEqual(got.data, want.data, what);
        assert.deepEqual(Array.from(got.data), Array.from(ref.data), what);
        if (!outLength) counts.empty++;
      }
      counts.cases++;
    }
  }
  // The deepest the stack went: the lowest byte that is no longer the canary.
  const bytes = h.bytes();
  let deepest = low;
  while (deepest < top && bytes[deepest] === CANARY) deepest++;
  const used = top - deepest;
  t.diagnostic(`${counts.cases} cases (${counts.errors} errors, ${counts.empty} empty); deepest stack ${used} of ${GUEST_STACK_BYTES} bytes`);
  assert.ok(counts.errors > 50 && counts.empty > 10, JSON.stringify(counts));
  assert.ok(used > 0 && used <= GUEST_STACK_BYTES / 8, `stack used: ${used} bytes`);
  const rest = bytes.subarray(h.top());
  assert.ok(rest.every((b) => b === 0), 'nothing written past the last allocation');
  g.dispose();
});
