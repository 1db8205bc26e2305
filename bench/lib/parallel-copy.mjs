// The P suite's bound (bench/thread-suite.mjs): a memory.copy of a workload's bytes split over the
// library's own pool, measured in the same group (the same init, threads and wasm memory) as the
// workload. It calls wg_pool_copy (src/runner.c), which the build exports for this alone: memcpy
// (memory.copy) in tiles of WG_TILE_BYTES handed out by wg_parallelize_1d, as an op's stages
// are, under the same parallel threshold. A copy made in JS or in a module of our own
// (bench/lib/memcopy-bound.mjs) could not use the pool's threads; Node worker_threads of our own
// would be other threads, woken another way.

/**
 * { run, dispose }: run() copies n bytes from one block of the module's heap to another on its
 * pool; dispose() frees the blocks. `s`: the loaded module's state (js/state.mjs: getState()).
 */
export function parallelCopy(s, n) {
  const { m, pool } = s;
  const src = m._malloc(n), dst = src && m._malloc(n);
  if (!dst) {
    if (src) m._free(src);
    throw new RangeError(`parallel copy: two blocks of ${n} bytes do not fit in wasm memory`);
  }
  new Uint8Array(s.memory.buffer, src, n).fill(1); // written once, as a workload's inputs are
  return { run: () => m._wg_pool_copy(pool, dst, src, n), dispose() { m._free(src); m._free(dst); } };
}

/**
 * The bound of a gather's reading in its own order: { run, dispose }. run() copies, for each set
 * { rows, rowBytes } (a table's rows; a quantized table's codes and its scales are two sets), the
 * rows that `ids` (an Int32Array) name, in that order, into a small block that stays in cache
 * (wg_pool_copy_rows, src/runner.c: tiles of 64 rows on the pool), then `tailBytes` in order as
 * parallelCopy does (the output's bytes, and any other input read in order). The tables are
 * blocks of the same sizes, written once.
 */
const DST_ROWS = 256; // where the rows are copied: four tiles' worth, reused, in cache

export function parallelCopyRows(s, sets, ids, tailBytes) {
  const { m, pool } = s;
  const blocks = [];
  const alloc = (n) => {
    const p = m._malloc(Math.max(n, 1));
    if (!p) {
      for (const b of blocks) m._free(b);
      throw new RangeError(`parallel copy of rows: a block of ${n} bytes does not fit in wasm memory`);
    }
    blocks.push(p);
    return p;
  };
  const idsPtr = alloc(ids.byteLength);
  new Int32Array(s.memory.buffer, idsPtr, ids.length).set(ids);
  const copies = sets.map(({ rows, rowBytes }) => {
    const src = alloc(rows * rowBytes), dst = alloc(DST_ROWS * rowBytes);
    new Uint8Array(s.memory.buffer, src, rows * rowBytes).fill(1);
    return { src, dst, rowBytes };
  });
  const tail = tailBytes ? parallelCopy(s, tailBytes) : undefined;
  return {
    run() {
      for (const c of copies) m._wg_pool_copy_rows(pool, c.dst, DST_ROWS, c.src, c.rowBytes, idsPtr, ids.length);
      tail?.run();
    },
    dispose() {
      for (const b of blocks) m._free(b);
      tail?.dispose();
    },
  };
}
