// The least a sort into parts adds to a scatter's items, timed in wasm: each item stored once at
// its place in its part, 8 bytes (its destination and its value), the places given, so that
// nothing is counted, resolved or computed: one load of the place, one of the item and one store,
// a loop assembled here (wasm-bytes.mjs, as memcopy-bound.mjs's copy: no toolchain needed). A sort into parts
// stores every item so besides resolving and applying it, as the one-applier path does alone.

import { oneFunctionModule } from './wasm-bytes.mjs';

const I32 = 0x7f;

// place(at, items, dst, n): for i < n, the 8 bytes of items[i] stored at dst[at[i]] (at: uint32).
const PLACE = [1, 1, I32, // one local: i (4)
  0x02, 0x40, 0x20, 3, 0x45, 0x0d, 0, // block; if n == 0 leave it
  0x03, 0x40, // loop
  0x20, 2, 0x20, 0, 0x20, 4, 0x41, 2, 0x74, 0x6a, 0x28, 2, 0, 0x41, 3, 0x74, 0x6a, // dst + at[i] * 8
  0x20, 1, 0x20, 4, 0x41, 3, 0x74, 0x6a, 0x29, 3, 0, // i64.load items + i * 8
  0x37, 3, 0, // i64.store
  0x20, 4, 0x41, 1, 0x6a, 0x22, 4, 0x20, 3, 0x49, 0x0d, 0, // ++i < n: again
  0x0b, 0x0b, 0x0b];

/**
 * dest: each item's destination row (an Int32Array), rows: the rows there are, parts: a power of
 * 2, as the sort's (a part is rows / parts consecutive rows: src/stage_scatter.c). Returns
 * { run, dispose }: run() stores the items, in their order, into their parts' runs.
 */
export function placingBound(dest, rows, parts) {
  const n = dest.length, shift = Math.log2(Math.max(1, rows / parts));
  const at = 0, items = n * 4, dst = items + n * 8;
  const pages = Math.ceil((dst + n * 8) / 65536);
  const { place, memory } = oneFunctionModule('place', 4, PLACE, pages);
  // the places: a counting sort of the items by part (stable), as the sort's count makes them
  const starts = new Uint32Array(parts + 1);
  for (let i = 0; i < n; i++) starts[(dest[i] >>> shift) + 1]++;
  for (let p = 0; p < parts; p++) starts[p + 1] += starts[p];
  const places = new Uint32Array(memory.buffer, at, n);
  for (let i = 0; i < n; i++) places[i] = starts[dest[i] >>> shift]++;
  const words = new Uint32Array(memory.buffer, items, 2 * n);
  for (let i = 0; i < n; i++) { words[2 * i] = dest[i]; words[2 * i + 1] = i; }
  place(at, items, dst, n); // the first touch of the pages is not what is measured
  const placed = new Uint32Array(memory.buffer, dst, 2 * n);
  for (let i = 0; i < n; i++) if (placed[2 * places[i] + 1] !== i) throw new Error(`placingBound: item ${i} not at its place`);
  return { run: () => place(at, items, dst, n), dispose() {} };
}
