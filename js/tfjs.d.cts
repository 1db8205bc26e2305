// Types for wasm-gather/tfjs, the one copy: what require() gives (js/tfjs.cjs) and, re-exported by
// tfjs.d.ts, what import gives (js/tfjs.mjs): TensorFlow.js's GatherV2, GatherNd, ScatterNd,
// TensorScatterUpdate, UnsortedSegmentSum, SparseSegmentSum and SparseSegmentMean kernels served
// by wasm-gather, its RaggedGather kernel, and TensorFlow's gradients of GatherNd, ScatterNd,
// TensorScatterUpdate, SparseSegmentSum and SparseSegmentMean.
// @tensorflow/tfjs-core is an optional peer dependency: its namespace is typed here by the few
// members the adapter uses, so these types need nothing of it.

/** What the adapter needs of `import * as tf from '@tensorflow/tfjs-core'`. */
export interface TfjsCoreNamespace {
  registerKernel(config: object): void;
  unregisterKernel(kernelName: string, backendName: string): void;
  getKernel(kernelName: string, backendName: string): object | undefined;
  findBackendFactory(backendName: string): unknown;
  util: object;
  backend_util: object;
  /** With getGradient and unregisterGradient (tfjs-core 3 and later), the gradients are registered too. */
  registerGradient?(config: object): void;
  getGradient?(kernelName: string): object | undefined;
  unregisterGradient?(kernelName: string): void;
}

export type TfjsBackendName = 'cpu' | 'wasm';

export interface RegisterOptions {
  /** Default: those of 'cpu' and 'wasm' that are registered with tf. */
  backends?: TfjsBackendName[];
  /**
   * On 'wasm', run the ops in TensorFlow.js's own wasm memory, where its tensors are (wasm-gather's
   * guest module): nothing copied. Default true; false copies the indices into wasm-gather's memory
   * and the output out of it, as where the guest cannot run (a shared memory: tfjs's threaded build).
   */
  inPlace?: boolean;
  /** Options of wasm-gather's init(), used when it is not initialised yet. */
  init?: { variant?: 'simd-threaded' | 'simd'; threads?: number; parallelThreshold?: number };
}

export interface KernelEntry {
  kernelName: 'GatherV2' | 'GatherNd' | 'ScatterNd' | 'TensorScatterUpdate' | 'UnsortedSegmentSum'
    | 'SparseSegmentSum' | 'SparseSegmentMean';
  backendName: TfjsBackendName;
}

/**
 * Registers wasm-gather's GatherV2, GatherNd and TensorScatterUpdate (float32, int32 and bool),
 * ScatterNd, UnsortedSegmentSum, SparseSegmentSum and SparseSegmentMean (float32 and int32) on the
 * given backends (other dtypes go to the kernels registered before; on 'wasm', UnsortedSegmentSum
 * is new), calling init() first if wasm-gather is not initialised. Resolves to those kernels.
 * Also registers TensorFlow's gradients of GatherNd, ScatterNd, TensorScatterUpdate,
 * SparseSegmentSum and SparseSegmentMean (tfjs-core 4.22 has none; one tf already has is left
 * alone), and, on the given backends, the SparseSegmentSumGrad and SparseSegmentMeanGrad kernels
 * they call and the RaggedGather kernel (tf.raggedGather; new on 'wasm'), none of them in the list.
 */
export function registerKernels(tf: TfjsCoreNamespace, opts?: RegisterOptions): Promise<KernelEntry[]>;

/**
 * Restores the kernels that were registered before, removes the gradients registerKernels
 * registered, frees the cached tables; returns the kernels it undid (from require(), [] until its
 * registerKernels() has loaded the adapter).
 */
export function unregisterKernels(tf: TfjsCoreNamespace): KernelEntry[];

export interface KernelStats {
  /** Calls served by wasm-gather, by 'backend/kernel' ('cpu/GatherV2', 'wasm/SparseSegmentMean', 'wasm/SparseSegmentMeanGrad', 'wasm/RaggedGather', ...). */
  calls: Record<string, number>;
  /** Calls handed to the kernel registered before (other dtypes). */
  fallbacks: Record<string, number>;
  /** Calls that ran in TensorFlow.js's wasm memory (opts.inPlace), nothing copied. */
  inPlace: number;
  /** Tables copied into wasm-gather's memory (a tensor's data on its second use; 'cpu', and 'wasm' not in place). */
  uploads: number;
  /** Tables held now; each is freed when tfjs disposes its data. */
  cached: number;
}

/** The counters (from require(), all zero until its registerKernels() has loaded the adapter). */
export function kernelStats(): KernelStats;
