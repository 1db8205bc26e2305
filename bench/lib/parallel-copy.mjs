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
