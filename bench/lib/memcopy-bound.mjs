// The bandwidth limit: one memory.copy of a workload's output bytes inside wasm memory, from a
// module of a few bytes assembled here (no toolchain needed). Nothing can gather faster than it
// copies the same number of bytes.

const leb = (n) => { const b = []; do { let x = n & 0x7f; n >>>= 7; if (n) x |= 0x80; b.push(x); } while (n); return b; };
const section = (id, bytes) => [id, ...leb(bytes.length), ...bytes];
const name = (s) => [s.length, ...[...s].map((c) => c.charCodeAt(0))];

// A module of `pages` pages whose export copy(dst, src, n) is one memory.copy; its memory exported.
function copyModule(pages) {
  const wasm = new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, [1, 0x60, 3, 0x7f, 0x7f, 0x7f, 0]), // type: (i32 dst, i32 src, i32 n) -> ()
    ...section(3, [1, 0]), // one function of type 0
    ...section(5, [1, 0, ...leb(pages)]), // one memory, min pages
    ...section(7, [2, ...name('copy'), 0, 0, ...name('memory'), 2, 0]), // export "copy" = func 0, "memory"
    ...section(10, [1, 12, 0, 0x20, 0, 0x20, 1, 0x20, 2, 0xfc, 0x0a, 0, 0, 0x0b]), // memory.copy
  ]);
  return new WebAssembly.Instance(new WebAssembly.Module(wasm)).exports;
}

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
