// The names of S3's sort on one thread, shared by the suites that time it (bench/thread-suite.mjs,
// its P row; bench/sort-cost-suite.mjs, the R suite) and their reports (report-threads.mjs,
// report-sort.mjs), which load no library.

/** S3's sort forced into as many parts as 16 threads sort into (4 a thread: src/stage_scatter.c). */
export const SORT_FORCED = { id: 'S3', parts: 64 };
/** The rows of the sort forced (the workload's own rows: family 'wasm-gather'). */
export const SORT_FAMILY = 'sort-forced';
/** The R suite's bound rows: the items stored into their parts alone. */
export const PLACING_FAMILY = 'placing';
/** The target: the sort path on 1 thread at most this many times its one-applier path. */
export const SORT_AT_MOST = 1.3;
/** The parts the R suite sorts into. */
export const R_PARTS = [16, SORT_FORCED.parts];
