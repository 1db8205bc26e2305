// The pad / unpad recipe of docs/masks.md (flash-attention's bert_padding.py, unpad_input and
// pad_input: https://github.com/Dao-AILab/flash-attention/blob/main/flash_attn/bert_padding.py)
// against plain JS loops, bit for bit (NaN payloads and -0 kept): compress of the rows of x viewed
// as [batch * seqlen, hidden] by the flattened attention mask, nonZero of that mask for the flat
// positions, and scatterND of the rows back into zeros at them. Seeded random batches (right- and
// left-padded, holes, all real, all padding; masks of 0/1 in several array types; int32 and int64
// indices) at 1, 2 and 4 threads, and one of about a million elements.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import api, { dispose, heapStats, init } from '../lib/tested-api.mjs';
import { Rng, hashString } from '../lib/rng.mjs';

// ---------------------------------------------------------------------------------------------
// The recipe, as the docs show it (wasm-gather's compress, nonZero, scatterND).
const { compress, nonZero, scatterND } = api;

/** unpad_input: hiddenStates [batch, seqlen, hidden], attentionMask [batch, seqlen] of 0/1. */
function unpadInput(hiddenStates, attentionMask, indexType = 'int32') {
  const [batch, seqlen, hidden] = hiddenStates.shape;
  // the same data seen as rows, and the mask flattened: reshapes are free (another shape)
  const x = { data: hiddenStates.data, shape: [batch * seqlen, hidden] };
  const maskFlat = { data: attentionMask.data, shape: [batch * seqlen] };
  const rows = compress(x, maskFlat, { axis: 0 });      // [nnz, hidden]: the real tokens' rows
  const indices = nonZero(maskFlat, { indexType });      // [1, nnz]: its data, their flat positions
  return { rows, indices: indices.data };
}

/** pad_input: the rows written back at their flat positions into zeros [batch, seqlen, hidden]. */
function padInput(rows, indices, batch, seqlen) {
  const hidden = rows.shape[1];
  const zeros = { data: new Float32Array(batch * seqlen * hidden), shape: [batch * seqlen, hidden] };
  const padded = scatterND(zeros, { data: indices, shape: [indices.length, 1] }, rows);
  return { data: padded.data, shape: [batch, seqlen, hidden] };
}
// ---------------------------------------------------------------------------------------------

// The same by plain loops: a token is real where its mask entry is not 0.
function unpadLoop(x, mask) {
  const [batch, seqlen, hidden] = x.shape;
  const src = new Uint32Array(x.data.buffer); // moved by their bits
  const indices = [], words = [];
  for (let b = 0; b < batch; b++) {
    for (let s = 0; s < seqlen; s++) {
      const i = b * seqlen + s;
      if (Number(mask.data[i]) === 0) continue;
      indices.push(i);
      for (let h = 0; h < hidden; h++) words.push(src[i * hidden + h]);
    }
  }
  return { rows: new Float32Array(Uint32Array.from(words).buffer), shape: [indices.length, hidden], indices };
}

function padLoop(rows, indices, batch, seqlen, hidden) {
  const out = new Uint32Array(batch * seqlen * hidden); // +0 where padding
  const src = new Uint32Array(rows.buffer, rows.byteOffset, rows.length);
  indices.forEach((i, k) => out.set(src.subarray(k * hidden, (k + 1) * hidden), i * hidden));
  return new Float32Array(out.buffer);
}

function sameBits(got, want, what) {
  assert.equal(got.length, want.length, `${what}: length`);
  const g = new Uint32Array(got.buffer, got.byteOffset, got.length), w = new Uint32Array(want.buffer, want.byteOffset, want.length);
  const at = g.findIndex((v, i) => v !== w[i]);
  assert.equal(at, -1, `${what}: element ${at}: 0x${g[at]?.toString(16)}, the loop's 0x${w[at]?.toString(16)}`);
}

// A batch: hidden states of random bits (NaNs with payloads, -0, infinities among them) and a
// mask of the given kind, of an array type an attention mask comes in.
function batchCase(rng, k, dims) {
  const [batch, seqlen, hidden] = dims ?? [rng.int(1, 8), rng.int(1, 40), rng.int(1, 70)];
  const bits = Uint32Array.from({ length: batch * seqlen * hidden }, () => {
    const r = rng.next();
    if (r < 0.02) return rng.pick([0x7fc01234, 0xffc00001, 0x7f800001, 0x80000000, 0x7f800000]);
    return Math.floor(rng.next() * 2 ** 32);
  });
  const kind = rng.pick(['right-padded', 'right-padded', 'left-padded', 'holes', 'all real', 'all padding']);
  const flags = new Uint8Array(batch * seqlen);
  for (let b = 0; b < batch; b++) {
    const len = rng.int(0, seqlen);
    for (let s = 0; s < seqlen; s++) {
      flags[b * seqlen + s] = { 'right-padded': s < len, 'left-padded': s >= seqlen - len, holes: rng.chance(0.6), 'all real': true, 'all padding': false }[kind] ? 1 : 0;
    }
  }
  const Type = rng.pick([Uint8Array, Uint8Array, Int32Array, BigInt64Array, Float32Array]);
  const mask = { data: Type === BigInt64Array ? BigInt64Array.from(flags, BigInt) : Type.from(flags), shape: [batch, seqlen] };
  return { name: `#${k} [${batch}, ${seqlen}, ${hidden}] ${kind}, mask ${Type.name}`, x: { data: new Float32Array(bits.buffer), shape: [batch, seqlen, hidden] }, mask };
}

let all;
function cases() {
  if (!all) {
    const rng = new Rng(hashString('pad recipe'));
    all = Array.from({ length: 120 }, (_, k) => batchCase(rng, k));
    all.push(batchCase(rng, 'large', [8, 512, 256])); // 1M elements: many chunks, every thread
  }
  return all;
}

for (const config of [{ variant: 'simd', threads: 1 }, { variant: 'simd-threaded', threads: 2, parallelThreshold: 0 }, { variant: 'simd-threaded', threads: 4 }]) {
  test(`unpad and pad (compress, nonZero, scatterND) match the loops, bit for bit: ${config.variant} threads=${config.threads}`, async (t) => {
    await init(config);
    try {
      const heap = heapStats().heapInUse;
      let real = 0;
      for (const [k, c] of cases().entries()) {
        const [batch, seqlen, hidden] = c.x.shape;
        const want = unpadLoop(c.x, c.mask);
        const indexType = k % 3 === 2 ? 'int64' : 'int32';
        const { rows, indices } = unpadInput(c.x, c.mask, indexType);
        assert.deepEqual(rows.shape, want.shape, `${c.name}: rows' shape`);
        sameBits(rows.data, want.rows, `${c.name}: rows`);
        assert.ok(indices instanceof (indexType === 'int64' ? BigInt64Array : Int32Array), `${c.name}: indices' type`);
        assert.deepEqual(Array.from(indices, Number), want.indices, `${c.name}: indices`);
        const padded = padInput(rows, indices, batch, seqlen);
        assert.deepEqual(padded.shape, c.x.shape, c.name);
        sameBits(padded.data, padLoop(want.rows, want.indices, batch, seqlen, hidden), `${c.name}: padded`);
        real += want.indices.length;
      }
      assert.equal(heapStats().heapInUse, heap, 'wasm heap not restored');
      t.diagnostic(`${cases().length} batches, ${real} real tokens`);
    } finally {
      dispose();
    }
  });
}

test('the cases cover right and left padding, holes, all real, all padding and each mask type', () => {
  const names = cases().map((c) => c.name).join('\n');
  for (const want of ['right-padded', 'left-padded', 'holes', 'all real', 'all padding', 'Uint8Array', 'Int32Array', 'BigInt64Array', 'Float32Array']) {
    assert.ok(names.includes(want), want);
  }
});

test("the docs' worked example: lengths 3 and 2, indices [0, 1, 2, 4, 5]", async () => {
  await init();
  try {
    const batch = 2, seqlen = 4, hidden = 3;
    const x = { data: Float32Array.from({ length: batch * seqlen * hidden }, (_, i) => 10 * Math.floor(i / (seqlen * hidden)) + (Math.floor(i / hidden) % seqlen)), shape: [batch, seqlen, hidden] };
    const mask = { data: new Uint8Array([1, 1, 1, 0, 1, 1, 0, 0]), shape: [batch, seqlen] };
    const { rows, indices } = unpadInput(x, mask);
    assert.deepEqual(Array.from(indices), [0, 1, 2, 4, 5]);
    assert.deepEqual(rows.shape, [5, 3]);
    assert.deepEqual(Array.from(rows.data), [0, 0, 0, 1, 1, 1, 2, 2, 2, 10, 10, 10, 11, 11, 11]);
    const padded = padInput(rows, indices, batch, seqlen);
    assert.deepEqual(Array.from(padded.data), Array.from(x.data, (v, i) => (mask.data[Math.floor(i / hidden)] ? v : 0)));
  } finally {
    dispose();
  }
});
