// The bandwidth limit: one memory.copy of a workload's output bytes inside wasm memory, from a
// module of a few bytes assembled here (no toolchain needed). Nothing can gather faster than it
// copies the same number of bytes.

import { oneFunctionModule } from './wasm-bytes.mjs';

// copy(dst, src, n): one memory.copy (no locals)
const COPY = [0, 0x20, 0, 0x20, 1, 0x20, 2, 0xfc, 0x0a, 0, 0, 0x0b];
const copyModule = (pages) => oneFunctionModule('copy', 3, COPY, pages);

/** Returns copy(bytes): memory.copy of `bytes` from one half of a fresh memory to the other. */
export function memcopyBound(bytes) {
  const { copy } = copyModule(Math.ceil((2 * bytes + 16) / 65536));
  const dst = (bytes + 15) & ~15;
  copy(dst, 0, bytes); // first touch of the pages is not what we measure
  return () => copy(dst, 0, bytes);
}

/**
 * What a call that takes `input` (a TypedArray) from JS must move at least: the input copied into
 * wasm memory by TypedArray.set, then one memory.copy of `bytes` there. Returns the run.
 */
export function setThenCopyBound(input, bytes) {
  const from = new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  const at = (from.length + 15) & ~15, dst = at + ((bytes + 15) & ~15);
  const { copy, memory } = copyModule(Math.ceil((dst + bytes + 16) / 65536));
  const into = new Uint8Array(memory.buffer, 0, from.length);
  const run = () => { into.set(from); copy(dst, at, bytes); };
  run(); // first touch of the pages is not what we measure
  return run;
}
