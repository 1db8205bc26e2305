// The names of the M suite's rows (bench/mask-suite.mjs), shared by its runners
// (bench/lib/mask-runners.mjs) and its report (bench/lib/report-mask.mjs), which loads no library.

/** The op each workload's targets count: its own. */
export const PRIMARY = { M1: 'compress', M2: 'nonZero + take', M3: 'maskedScatter' };
/** The ops each workload runs. */
export const OPS_OF = { M1: ['compress', 'booleanMask'], M2: ['nonZero + take', 'compress', 'booleanMask'], M3: ['maskedScatter'] };

export const ours = (threads, op, mode) => `wasm-gather simd-threaded ${threads}T, ${op}, ${mode}`;
/** The workload's op, resident, on a mask of no true element (M1, M3). */
export const FLOOR = (n, id) => `${ours(n, PRIMARY[id], 'resident')}, a ${id === 'M1' ? 'condition' : 'mask'} of no true element`;
export const POOL = (n) => `memory.copy of the bound's bytes on the pool, ${n}T (M bound)`;
export const POOL_HALF = (n) => `memory.copy of half the bound's bytes on the pool, ${n}T (the op's traffic)`;
export const BOUND1 = 'memory.copy of the bound\'s bytes (wasm, 1 thread)';
export const ROWS = (n) => `memory.copy of the bound's bytes, the kept rows one by one in order, on the pool, ${n}T`;
/** How the one-shot floor fills its output: with the library's own JS copies, the fastest it knows. */
export const FLOOR_HOW = 'M1, M2: the kept rows copied by js/copy-plan.mjs executePlan, the JS path\'s copy; M3: x copied by its TypedArray constructor';
export const ONE_SHOT_FLOOR = `the output array made and filled in JS, the positions known (${FLOOR_HOW})`;
/** The workload's op, one-shot, on a mask of no true element: one call through JS, nothing to move (M3: x copied to the output). */
export const ONE_SHOT_CALL = (n, id) => `${ours(n, PRIMARY[id], 'one-shot')}, a ${id === 'M1' ? 'condition' : 'mask'} of no true element`;
/** M3: what JS must do with the true elements once x is copied: the source's values written at their positions, known. */
export const VALUES_WRITTEN = 'the source\'s values written in JS at their positions, known, by js/copy-plan.mjs executeScatterPlan, into a copy of x made beforehand (M3)';
