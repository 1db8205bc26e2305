// A module of one function and one memory, assembled from its bytes (no toolchain needed): the
// benchmark's bounds that must run in wasm (memcopy-bound.mjs, placing-bound.mjs).
// The binary format: https://webassembly.github.io/spec/core/binary/modules.html

const leb = (n) => { const b = []; do { let x = n & 0x7f; n >>>= 7; if (n) x |= 0x80; b.push(x); } while (n); return b; };
const section = (id, bytes) => [id, ...leb(bytes.length), ...bytes];
const name = (s) => [s.length, ...[...s].map((c) => c.charCodeAt(0))];
const I32 = 0x7f;

/**
 * Instantiates a module whose one function, exported as `fn`, takes `params` i32 arguments and
 * returns nothing, with `body` as its code (its local declarations first, its end last), and whose
 * memory of `pages` 64 KiB pages is exported as "memory". Returns the instance's exports.
 */
export function oneFunctionModule(fn, params, body, pages) {
  const wasm = new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, [1, 0x60, params, ...new Array(params).fill(I32), 0]), // type: (i32 x params) -> ()
    ...section(3, [1, 0]), // one function of type 0
    ...section(5, [1, 0, ...leb(pages)]), // one memory, min pages
    ...section(7, [2, ...name(fn), 0, 0, ...name('memory'), 2, 0]), // export fn = func 0, "memory"
    ...section(10, [1, ...leb(body.length), ...body]),
  ]);
  return new WebAssembly.Instance(new WebAssembly.Module(wasm)).exports;
}
