// A seeded, coverage-blind mutator for the fuzz harness's inputs (tests/fuzz/fuzz_ops.c decodes
// them), in the manner of libFuzzer's: each new input is a corpus entry with one to four
// mutations stacked: bit flips, random bytes, bytes and words that the decoder treats specially,
// insertions, erasures, duplicated chunks, and splices with another entry.
// https://llvm.org/docs/LibFuzzer.html#mutators

export const MAX_LENGTH = 1024; // the decoder turns bytes past the input into PRNG output

// Bytes the decoder branches on: dims 0-5 below 0xb0 and the dim table from 0xb0; rank 17 from
// 0xf8; axis / batch-dim extremes 0x7f and 0x80; the "shapes that fit" bit 0x40; index edges
// 0x80-0x91 (S, S - 1, -S, -S - 1, ... in decode_index).
const BYTES = [0x00, 0x01, 0x02, 0x05, 0x06, 0x3f, 0x40, 0x41, 0x7f, 0x80, 0x81, 0x82, 0x83, 0x84, 0x85,
  0x8c, 0x8d, 0x91, 0xaf, 0xb0, 0xc4, 0xd8, 0xdb, 0xf7, 0xf8, 0xfe, 0xff];
// Words for the raw 64-bit index values (decode_index's default case reads eight bytes).
const WORDS = [0n, 1n, 2n ** 31n - 1n, 2n ** 31n, 2n ** 32n - 1n, 2n ** 32n, 2n ** 32n + 1n, 2n ** 53n + 1n,
  2n ** 63n - 1n, 2n ** 63n, 2n ** 64n - 1n, 2n ** 64n - 2n];

// rng: an Rng of tests/lib/rng.mjs; input: a Uint8Array; corpus: Uint8Arrays to splice with.
export function mutate(rng, input, corpus) {
  let b = Array.from(input);
  const at = (extra = 0) => rng.int(0, Math.max(0, b.length - 1 + extra));
  const steps = rng.int(1, 4);
  for (let s = 0; s < steps; s++) {
    switch (rng.int(0, 8)) {
      case 0: if (b.length) { const i = at(); b[i] ^= 1 << rng.int(0, 7); } break;
      case 1: if (b.length) b[at()] = rng.int(0, 255); break;
      case 2: if (b.length) b[at()] = rng.pick(BYTES); break;
      case 3: b.splice(at(1), 0, ...Array.from({ length: rng.int(1, 8) }, () => (rng.chance(0.5) ? rng.pick(BYTES) : rng.int(0, 255)))); break;
      case 4: if (b.length > 1) b.splice(at(), rng.int(1, Math.min(8, b.length - 1))); break;
      case 5: { // a word, little or big endian, written over the input or inserted
        let w = rng.pick(WORDS);
        const bytes = Array.from({ length: 8 }, () => { const v = Number(w & 255n); w >>= 8n; return v; });
        if (rng.chance(0.5)) bytes.reverse();
        b.splice(at(1), rng.chance(0.5) ? 8 : 0, ...bytes);
        break;
      }
      case 6: if (b.length) { const from = at(), n = rng.int(1, Math.min(16, b.length - from)); b.splice(at(1), 0, ...b.slice(from, from + n)); } break;
      case 7: { // splice: this input's head, another entry's tail
        const other = rng.pick(corpus);
        b = [...b.slice(0, at(1)), ...other.subarray(rng.int(0, other.length))];
        break;
      }
      default: if (b.length) { const i = at(); b[i] = (b[i] + rng.pick([1, -1, 16, -16])) & 255; }
    }
  }
  return Uint8Array.from(b.slice(0, MAX_LENGTH));
}
