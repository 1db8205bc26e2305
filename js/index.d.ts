// Types for wasm-gather. Tensors are plain objects: dense, row-major data plus a shape.

/** Any TypedArray the ops accept as data; the output has the same type. */
export type DataArray =
  | Float32Array | Float64Array
  | Int8Array | Int16Array | Int32Array
  | Uint8Array | Uint16Array | Uint32Array | Uint8ClampedArray
  | BigInt64Array | BigUint64Array;

/** Index data: integer TypedArrays (narrow ones are widened to int32) or a plain array. */
export type IndexArray =
  | Int32Array | Uint32Array | BigInt64Array | BigUint64Array
  | Int8Array | Int16Array | Uint8Array | Uint16Array
  | ReadonlyArray<number | bigint>;

/** `dims` (ONNX Runtime's name) is accepted as an alias for `shape`. */
export type Tensor<T> =
  | { data: T; shape: readonly number[] }
  | { data: T; dims: readonly number[] };

/** Constructors of the data types, for ResidentTensor.arrayType. */
export type DataArrayConstructor =
  | Float32ArrayConstructor | Float64ArrayConstructor
  | Int8ArrayConstructor | Int16ArrayConstructor | Int32ArrayConstructor
  | Uint8ArrayConstructor | Uint16ArrayConstructor | Uint32ArrayConstructor | Uint8ClampedArrayConstructor
  | BigInt64ArrayConstructor | BigUint64ArrayConstructor;

/**
 * A tensor that lives in wasm memory (from upload() or an op's { resident: true }): accepted
 * wherever a tensor is, without being copied again. Free it with dispose(); a forgotten one is
 * freed when it is garbage collected, and all are freed by the module's dispose().
 */
export class ResidentTensor<T extends DataArray = DataArray> {
  private constructor();
  readonly shape: readonly number[];
  readonly arrayType: DataArrayConstructor;
  readonly length: number;
  readonly byteLength: number;
  /** True after dispose(), or once the module it lives in was disposed. */
  readonly disposed: boolean;
  /** Copies the data out into `out` (same type and length) or a new array. */
  read(out?: T): T;
  dispose(): void;
}

/** Data or indices: a plain tensor or a resident one. */
export type TensorLike<T> = Tensor<T> | (T extends DataArray ? ResidentTensor<T> : never);

/** What an op returns: a ResidentTensor for { resident: true } or a resident opts.out, else a Result. */
export type OpResult<T extends DataArray, O> =
  O extends { resident: true } ? ResidentTensor<T> :
  O extends { out: ResidentTensor } ? ResidentTensor<T> : Result<T>;

export interface Result<T extends DataArray> {
  data: T;
  shape: number[];
}

/**
 * What an index outside [-s, s) does: 'error' throws a RangeError (default), 'zero' makes its
 * element or slice zeros, 'clamp' wraps negatives and clamps into [0, s-1].
 */
export type OutOfRange = 'error' | 'zero' | 'clamp';

export interface CommonOptions<T extends DataArray> {
  outOfRange?: OutOfRange;
  /**
   * A preallocated output, written in place: a TypedArray or { data, shape } (returned as the
   * result's data), or a ResidentTensor (returned itself; it must not be one of the inputs).
   */
  out?: T | { data: T; shape?: readonly number[] } | ResidentTensor<T>;
  /** Keep the result in wasm memory: the op returns a new ResidentTensor. */
  resident?: boolean;
}

export interface GatherNDOptions<T extends DataArray> extends CommonOptions<T> {
  /** Leading dims shared by params and indices (default 0). */
  batchDims?: number;
}

export interface TakeOptions<T extends DataArray> extends CommonOptions<T> {
  /** The params axis to gather along; negative counts from the end (default 0). */
  axis?: number;
  /** Leading dims shared by params and indices; negative counts from the end (default 0). */
  batchDims?: number;
}

export type Variant = 'simd-threaded' | 'simd';

export interface InitOptions {
  /**
   * Default: 'simd-threaded' where threads can run (Node, Bun, cross-origin isolated pages and
   * their workers), else 'simd'. Asking for threads where they can't run gives 'simd' on one
   * thread and one console warning saying why.
   */
  variant?: Variant;
  /** Threads in all, the caller included. Default: the machine's cores, at most 4. */
  threads?: number;
  /**
   * A precompiled module (required in edge runtimes that forbid compiling; instantiated
   * synchronously), bytes, or a URL (rejects, naming it, if what it serves is not wasm). Either
   * build: it runs on its own build at any thread count; a `variant` naming the other rejects.
   */
  wasm?: WebAssembly.Module | BufferSource | URL | string;
  /** Advanced: ops moving fewer bytes than this run on the calling thread alone (default 32768). */
  parallelThreshold?: number;
}

export interface InitInfo {
  variant: Variant;
  /** The threads it really has (one console warning if the host started fewer than asked). */
  threads: number;
  simd: boolean;
}

/**
 * Loads the module. Calling it again with the same options, also while the first call is
 * loading, returns the same module; other options reject until dispose().
 */
export function init(opts?: InitOptions): Promise<InitInfo>;

/** Frees the module and its worker threads; init() may be called again afterwards. */
export function dispose(): void;

/** torch.gather: output has index's shape; out[i][j] = input[i][index[i][j]] for dim 1. */
export function gather<T extends DataArray, O extends CommonOptions<T> = CommonOptions<T>>(
  input: TensorLike<T>, dim: number, index: TensorLike<IndexArray>, opts?: O): OpResult<T, O>;

/** ONNX's name for gather (GatherElements); the same function. */
export const gatherElements: typeof gather;

/** tf.gather_nd: output shape indices.shape[:-1] + params.shape[batchDims + K:]. */
export function gatherND<T extends DataArray, O extends GatherNDOptions<T> = GatherNDOptions<T>>(
  params: TensorLike<T>, indices: TensorLike<IndexArray>, opts?: O): OpResult<T, O>;

/** tf.gather: output shape params.shape[:axis] + indices.shape[batchDims:] + params.shape[axis+1:]. */
export function take<T extends DataArray, O extends TakeOptions<T> = TakeOptions<T>>(
  params: TensorLike<T>, indices: TensorLike<IndexArray>, opts?: O): OpResult<T, O>;

/** Copies a tensor into wasm memory once; use the handle as data or indices of any op. */
export function upload<T extends DataArray>(tensor: Tensor<T>): ResidentTensor<T>;

/**
 * Bytes of wasm heap in use, the current size of wasm memory, and what the last op allocated
 * while it ran (inputs and output, each rounded up to 16 bytes: there are no other copies).
 */
export function heapStats(): { heapInUse: number; memoryBytes: number; lastCallBytes: number };
