// Types for wasm-gather, the one copy: what require() gives (js/index.cjs) and, re-exported by
// index.d.ts, what import gives (js/index.mjs). Tensors are plain objects: dense, row-major data plus a shape.

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

/**
 * A shape: non-negative integers, in a plain array or a TypedArray of numbers (an Int32Array, a
 * Uint32Array, ...), as ONNX Runtime and others hand them out. Results always have plain arrays.
 */
export type Shape = readonly number[] | ShapeArray;

/** The TypedArrays of numbers (not bigints) a Shape may be. */
export type ShapeArray =
  | Int8Array | Int16Array | Int32Array | Uint8Array | Uint16Array | Uint32Array | Uint8ClampedArray
  | Float32Array | Float64Array;

/** `dims` (ONNX Runtime's name) is accepted as an alias for `shape`. */
export type Tensor<T> =
  | { data: T; shape: Shape }
  | { data: T; dims: Shape };

/**
 * T over any buffer: Float32Array for a Float32Array<ArrayBuffer>, and so on. Since TypeScript 5.7
 * a TypedArray type is generic over its buffer; an array made with `new Float32Array(n)` is a
 * Float32Array<ArrayBuffer>, while the bare name `Float32Array` (as in TakeOptions<Float32Array>)
 * means any buffer, shared ones included. Options and views are typed with this, so both fit.
 * (Before 5.7 it is T itself.)
 */
export type Widened<T> =
  T extends Float32Array ? Float32Array : T extends Float64Array ? Float64Array :
  T extends Int8Array ? Int8Array : T extends Int16Array ? Int16Array : T extends Int32Array ? Int32Array :
  T extends Uint8ClampedArray ? Uint8ClampedArray : T extends Uint8Array ? Uint8Array :
  T extends Uint16Array ? Uint16Array : T extends Uint32Array ? Uint32Array :
  T extends BigInt64Array ? BigInt64Array : T extends BigUint64Array ? BigUint64Array : T;

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
  /** Elements of arrayType it holds (for a packed one: bytes, half its shape's elements rounded up). */
  readonly length: number;
  readonly byteLength: number;
  /** True for two 4-bit codes a byte (uploaded with { quantType: 'uint4' | 'int4' }). */
  readonly packed: boolean;
  /** True after dispose(), or once the module it lives in was disposed. */
  readonly disposed: boolean;
  /** Copies the data out into `out` (same type and length) or a new array. */
  read(out?: T): T;
  /**
   * The data without a copy: a view of the tensor's bytes in wasm memory (writes change the
   * tensor). Valid until dispose(); on the `simd` build also until wasm memory grows (a later
   * upload or op may grow it), after which the view has length 0: call view() again. On
   * `simd-threaded` its buffer is a SharedArrayBuffer (hence Widened<T>: any buffer).
   */
  view(): Widened<T>;
  dispose(): void;
}

/** Data or indices: a plain tensor or a resident one. */
export type TensorLike<T> = Tensor<T> | (T extends DataArray ? ResidentTensor<T> : never);

/**
 * What an op returns: a ResidentTensor for { resident: true } or a resident opts.out, a Result
 * for neither, and either (the union) where the type of the options does not tell: `resident`
 * a boolean (as in `const o = { resident: true }`, whose type is { resident: boolean }: write
 * `{ resident: true as const }` or pass it inline for a ResidentTensor), or `out` one of a
 * TypedArray and a ResidentTensor. An optional `resident?: boolean` (a variable typed
 * TakeOptions<...>) and an optional `out` count as not given.
 */
export type OpResult<T extends DataArray, O> =
  O extends { resident: infer R }
    ? [R] extends [true] ? ResidentTensor<T>
      : [R] extends [false | undefined | null] ? OutResult<T, O>
      : Result<T> | ResidentTensor<T>
    : OutResult<T, O>;

/** OpResult for what opts.out is: a ResidentTensor, a TypedArray or { data, shape }, or either. */
export type OutResult<T extends DataArray, O> =
  O extends { out: infer U }
    ? [U] extends [ResidentTensor<any>] ? ResidentTensor<T>
      : [U] extends [DataArray | { data: DataArray } | undefined | null] ? Result<T>
      : Result<T> | ResidentTensor<T>
    : Result<T>;

export interface Result<T extends DataArray> {
  data: T;
  shape: number[];
}

/**
 * What an index outside [-s, s) does: 'error' throws a RangeError (default), 'zero' makes its
 * element or slice zeros, 'clamp' wraps negatives and clamps into [0, s-1].
 */
export type OutOfRange = 'error' | 'zero' | 'clamp';

/**
 * What a negative index does: 'wrap' (default) counts it from the end, once (numpy, ONNX);
 * 'error' makes every negative index out of range (TensorFlow, PyTorch), so that outOfRange
 * decides: 'error' throws a RangeError saying it is negative, 'zero' gives zeros, 'clamp' clamps
 * it to 0.
 */
export type NegativeIndices = 'wrap' | 'error';

/**
 * What the RangeError of an index out of range carries besides its message, as `error.index`:
 * the first bad index (lowest flat position) as C found it.
 */
export interface IndexErrorInfo {
  /** Flat position of the index in the indices tensor. */
  position: number;
  /** Its value (a bigint for 64-bit index arrays). */
  value: number | bigint;
  /** The data dimension it indexes. */
  dim: number;
  /** That dimension's size. */
  size: number;
}

/**
 * The `code` of wasm-gather's errors that a caller may want to tell apart (Node's convention: a
 * string on error.code, the message being for people):
 * - 'ERR_WG_NOT_INITIALIZED': an op, upload() or heapStats() called before init() resolved (or
 *   after dispose()), from either entry (import or require);
 * - 'ERR_WG_DISPOSED': a ResidentTensor used after its dispose(), or after the module it lives
 *   in was disposed (upload it again).
 * Both are plain Errors. Other errors (bad arguments: TypeError, RangeError) carry no code.
 */
export type ErrorCode = 'ERR_WG_NOT_INITIALIZED' | 'ERR_WG_DISPOSED';

/** An Error with one of wasm-gather's codes: `if ((e as WasmGatherError).code === 'ERR_WG_DISPOSED')`. */
export interface WasmGatherError extends Error {
  code: ErrorCode;
}

/**
 * Options are checked by name: one that the op does not take (a misspelt `outofRange`, or
 * `axis` given to gatherND) throws a TypeError naming it and the valid ones, as init() and
 * upload() do for theirs.
 */
export interface CommonOptions<T extends DataArray> {
  outOfRange?: OutOfRange;
  negativeIndices?: NegativeIndices;
  /**
   * A preallocated output, written in place: a TypedArray or { data, shape } (returned as the
   * result's data), or a ResidentTensor (returned itself; it must not be one of the inputs).
   */
  out?: T | { data: T; shape?: Shape } | ResidentTensor<T>;
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
   * their workers), else 'simd'; `threads: 1` picks 'simd'. Asking for threads where they can't
   * run gives 'simd' on one thread and one console warning saying why.
   */
  variant?: Variant;
  /** Threads in all, the caller included (1-64). Default: the machine's cores, at most 16 in Node and Bun, 4 in a browser. */
  threads?: number;
  /**
   * A precompiled module (required in edge runtimes that forbid compiling; instantiated
   * synchronously), bytes, or a URL (rejects, naming it, if what it serves is not wasm). Either
   * build: it runs on its own build, the threaded one at any thread count, the simd one on one
   * thread (with `threads` above 1, one console warning saying so); a `variant` naming the other
   * rejects.
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
export function gather<T extends DataArray, O extends CommonOptions<Widened<T>> = {}>(
  input: TensorLike<T>, dim: number, index: TensorLike<IndexArray>, opts?: O): OpResult<T, O>;

/** ONNX's name for gather (GatherElements); the same function. */
export const gatherElements: typeof gather;

/** tf.gather_nd: output shape indices.shape[:-1] + params.shape[batchDims + K:]. */
export function gatherND<T extends DataArray, O extends GatherNDOptions<Widened<T>> = {}>(
  params: TensorLike<T>, indices: TensorLike<IndexArray>, opts?: O): OpResult<T, O>;

/** tf.gather: output shape params.shape[:axis] + indices.shape[batchDims:] + params.shape[axis+1:]. */
export function take<T extends DataArray, O extends TakeOptions<Widened<T>> = {}>(
  params: TensorLike<T>, indices: TensorLike<IndexArray>, opts?: O): OpResult<T, O>;

/**
 * How a scatter combines an update with the value in place: 'none' writes (the last update in
 * the index tensor's order wins), the others reduce, in that order; torch's names are accepted
 * too. 'mean' only for scatter and indexReduce.
 */
export type Reduce = 'none' | 'add' | 'sum' | 'mul' | 'prod' | 'max' | 'amax' | 'min' | 'amin' | 'mean';

/** What a scatter's index out of range does: 'error' throws and writes nothing (default), 'drop' skips that update, 'clamp' wraps a negative once and clamps (WebNN). */
export type ScatterOutOfRange = 'error' | 'drop' | 'clamp';

export interface ScatterOptions<T extends DataArray> extends Omit<CommonOptions<T>, 'outOfRange'> {
  reduce?: Reduce;
  /** Reduce into the value in place (default true); false: a position some update hits starts from the reduction's identity. */
  includeSelf?: boolean;
  outOfRange?: ScatterOutOfRange;
  /** Update the first argument, a ResidentTensor, where it lives, and return it. */
  inPlace?: boolean;
  /** Uint16Array data holding 16-bit float bits: computed in float32, rounded after each update. */
  dtype?: 'float16' | 'bfloat16';
}

/**
 * What a scatter returns: its first argument for { inPlace: true }, else as the gathers
 * (OpResult); either (the union) where the type of the options does not tell (`inPlace` a
 * boolean: write `{ inPlace: true as const }` or pass it inline).
 */
export type ScatterResult<T extends DataArray, O> =
  O extends { inPlace: infer P }
    ? [P] extends [true] ? ResidentTensor<T>
      : [P] extends [false | undefined | null] ? OpResult<T, O>
      : OpResult<T, O> | ResidentTensor<T>
    : OpResult<T, O>;

/** torch.scatter / scatter_reduce, ONNX ScatterElements: input with src (or a number) combined at index along dim. */
export function scatter<T extends DataArray, O extends ScatterOptions<Widened<T>> = {}>(
  input: TensorLike<T>, dim: number, index: TensorLike<IndexArray>, src: TensorLike<T> | number | bigint, opts?: O): ScatterResult<T, O>;

/** ONNX's name for scatter (ScatterElements); the same function. */
export const scatterElements: typeof scatter;

/** ONNX ScatterND, tf.tensor_scatter_nd_*: updates' shape indices.shape[:-1] + data.shape[K:]. No 'mean'. */
export function scatterND<T extends DataArray, O extends ScatterOptions<Widened<T>> = {}>(
  data: TensorLike<T>, indices: TensorLike<IndexArray>, updates: TensorLike<T>, opts?: O): ScatterResult<T, O>;

/** torch.index_add / index_copy / index_reduce, tf.math.unsorted_segment_*: source's shape input.shape[:axis] + index.shape + input.shape[axis+1:]. */
export function indexReduce<T extends DataArray, O extends ScatterOptions<Widened<T>> = {}>(
  input: TensorLike<T>, axis: number, index: TensorLike<IndexArray>, source: TensorLike<T>, opts?: O): ScatterResult<T, O>;

export interface TensorScatterOptions<T extends DataArray> {
  /** The sequence axis (default -2), in [1, rank-1] once normalized. */
  axis?: number;
  /** 'linear' (default): the write must fit; 'circular': positions wrap around the cache. */
  mode?: 'linear' | 'circular';
  inPlace?: boolean;
  dtype?: 'float16' | 'bfloat16';
  out?: T | { data: T; shape?: Shape } | ResidentTensor<T>;
  resident?: boolean;
}

/** ONNX TensorScatter, the KV-cache write: update written along opts.axis of each batch row from writeIndices[b] (0 when absent). */
export function tensorScatter<T extends DataArray, O extends TensorScatterOptions<Widened<T>> = {}>(
  cache: TensorLike<T>, update: TensorLike<T>, writeIndices?: TensorLike<IndexArray> | null, opts?: O): ScatterResult<T, O>;

/** A call bound once to its arguments by prepare(), run many times. */
export class PreparedCall<R = unknown> {
  private constructor();
  /** The op's name. */
  readonly op: string;
  /** True after dispose(), or once the module it lives in was disposed. */
  readonly disposed: boolean;
  /** Runs the op on the arrays it was prepared with, as they are now; returns what the op returns. */
  run(): R;
  /** Frees its call record and block in wasm memory; run() throws after. */
  dispose(): void;
}

/**
 * Binds op (one of the ops, or its name) to its arguments as the op takes them, for run() to run
 * many times with no validation, planning or allocation: the arrays given are read at each run
 * (fill them in place), resident tensors must still be alive, shapes and options are fixed.
 * opts.resident is refused (give opts.out a resident tensor); indices must be TypedArrays.
 */
export function prepare<F extends (...args: any[]) => any>(op: F, ...args: Parameters<F>): PreparedCall<ReturnType<F>>;
export function prepare(op: string, ...args: unknown[]): PreparedCall;

/** How gatherBlockQuantized's codes are stored (onnxruntime's GatherBlockQuantized T1). */
export type QuantType = 'uint8' | 'uint4' | 'int4';

/**
 * The type of the scales, which is the output's: float32 for a Float32Array; for a Uint16Array,
 * float16 bits (default) or bfloat16 bits; float16 for a Float16Array where the runtime has one.
 */
export type ScaleType = 'float32' | 'float16' | 'bfloat16';

/** Scales: Float32Array, Uint16Array (float16 or bfloat16 bits), or a Float16Array where it exists. */
export type ScaleArray = Float32Array | Uint16Array;

export interface GatherBlockQuantizedOptions<T extends ScaleArray> extends CommonOptions<T> {
  /** 'uint8' (default): data.shape is the stored shape, 8 / bits codes a byte along the last
   * axis; 'uint4' / 'int4': data.shape is the logical shape, two codes a byte, flat. */
  quantType?: QuantType;
  /** uint8: 2, 4 (default) or 8 bits a code; uint4/int4: 4. */
  bits?: number;
  /** For a Uint16Array of scales: 'float16' (default) or 'bfloat16'. */
  scaleType?: ScaleType;
  /** Packed as onnxruntime packs them; default 2^(bits-1) for uint8, 0 for uint4/int4. */
  zeroPoints?: TensorLike<Uint8Array>;
  /** The axis gathered along (default 0). */
  gatherAxis?: number;
  /** The axis the blocks run along (default the last; uint8 requires the last). */
  quantizeAxis?: number;
  /** Codes per scale along quantizeAxis: a power of 2, at least 16 (default 128). */
  blockSize?: number;
}

/**
 * onnxruntime's com.microsoft.GatherBlockQuantized: the rows of a block-quantized table,
 * dequantized, each value (q - zeroPoint) * scale computed in float32 and rounded to the scale
 * type. Output shape: the logical data shape with gatherAxis replaced by indices.shape.
 */
export function gatherBlockQuantized<T extends ScaleArray, O extends GatherBlockQuantizedOptions<Widened<T>> = {}>(
  data: TensorLike<Uint8Array>, indices: TensorLike<IndexArray>, scales: TensorLike<T>, opts?: O): OpResult<T, O>;

/** The 1-D index arrays the fused gather-reduce ops take as offsets, lengths or segment ids: bare, or as a tensor. */
export type SegmentsLike = IndexArray | TensorLike<Int32Array | Uint32Array | BigInt64Array | BigUint64Array> | Tensor<IndexArray>;

/** The float tables embeddingBag reduces: float32, float64, float16 or bfloat16 bits in a Uint16Array (opts.dtype). */
export type FloatArray = Float32Array | Float64Array | Uint16Array;

export interface EmbeddingBagOptions<T extends DataArray> extends CommonOptions<T> {
  /** 'sum', 'mean' (default, as torch), 'max', or 'sqrtn' (the sum over the root of the count: TensorFlow's combiner). */
  mode?: 'sum' | 'mean' | 'max' | 'sqrtn';
  /** With 1-D indices: the start of each bag (the first 0); torch's offsets. */
  offsets?: SegmentsLike;
  /** offsets also holds the end of the last bag (torch's include_last_offset). */
  includeLastOffset?: boolean;
  /** With 1-D indices: a sorted bag id for each index (TensorFlow's sparse segment ids). */
  segmentIds?: SegmentsLike;
  /** With segmentIds: the bags (default the last id + 1). */
  numSegments?: number;
  /** A weight for each index, of the output's type: with 'sum' as torch; with 'mean' and 'sqrtn' as TensorFlow's combiners. */
  perSampleWeights?: T | TensorLike<T>;
  /** A row skipped wherever it is selected, and not counted (from the end when negative). */
  paddingIdx?: number;
  /** With 'max': the result also has maxIndices, the row each maximum came from. */
  returnIndices?: boolean;
  /** A Uint16Array table holds float16 or bfloat16 bits. */
  dtype?: 'float16' | 'bfloat16';
  /** A block-quantized table: its scales (and the options below), as gatherBlockQuantized's. */
  scales?: TensorLike<ScaleArray>;
  quantType?: QuantType;
  bits?: number;
  scaleType?: ScaleType;
  zeroPoints?: TensorLike<Uint8Array>;
  quantizeAxis?: number;
  blockSize?: number;
}

/** embeddingBag's result with returnIndices: also the row each maximum came from (int32). */
export type WithMaxIndices<R> = R & { maxIndices: { data: Int32Array; shape: number[] } };

/**
 * torch.nn.functional.embedding_bag: the rows of weight that indices select, reduced per bag as
 * they are read (never gathered into memory). Bags from opts.offsets, 2-D indices (a bag a row)
 * or opts.segmentIds. Output [bags, ...weight.shape.slice(1)]; an empty bag is zeros.
 * docs/fused-gather-reduce.md.
 */
export function embeddingBag<T extends FloatArray, O extends EmbeddingBagOptions<Widened<T>> = {}>(
  weight: TensorLike<T>, indices: TensorLike<IndexArray>, opts?: O):
  O extends { returnIndices: true } ? WithMaxIndices<OpResult<T, O>> : OpResult<T, O>;
/** A block-quantized table (opts.scales given): the output has the scales' type. */
export function embeddingBag<S extends ScaleArray, O extends EmbeddingBagOptions<Widened<S>> & { scales: TensorLike<S> }>(
  weight: TensorLike<Uint8Array>, indices: TensorLike<IndexArray>, opts: O): OpResult<S, O>;

export interface EmbeddingBagBackwardOptions<T extends Float32Array | Float64Array> extends CommonOptions<T> {
  /** The forward's mode: 'sum', 'mean' (default, as torch), 'max' (needs maxIndices) or 'sqrtn'. */
  mode?: 'sum' | 'mean' | 'max' | 'sqrtn';
  /** The forward's bags: offsets (with includeLastOffset), 2-D indices, or sorted segmentIds (their bags: gradOutput's rows). */
  offsets?: SegmentsLike;
  includeLastOffset?: boolean;
  segmentIds?: SegmentsLike;
  /** With segmentIds: if given, gradOutput's rows. */
  numSegments?: number;
  /** The forward's per-sample weights. */
  perSampleWeights?: T | TensorLike<T>;
  /** The forward's padding row (from the end when negative): it gets no gradient. */
  paddingIdx?: number;
  /** With 'max': the forward's result.maxIndices (opts.returnIndices). */
  maxIndices?: TensorLike<Int32Array>;
  /** The table's rows (required without opts.out). */
  numWeights?: number;
  /** Add the gradient into opts.out (a ResidentTensor) where it lives, rather than write it. */
  inPlace?: boolean;
  /** With perSampleWeights and 'sum': the result also has weightsGrad (needs opts.weight). */
  returnWeightsGrad?: boolean;
  /** The forward's table, for returnWeightsGrad. */
  weight?: TensorLike<T>;
}

/** embeddingBagBackward's result with returnWeightsGrad: also the per-sample weights' gradient, the indices' shape. */
export type WithWeightsGrad<R, T> = R & { weightsGrad: { data: T; shape: number[] } };

/**
 * The gradient of embeddingBag for its table (torch's embedding_bag backward, dense): each bag's
 * gradient row, scaled for the mode and the entry's weight, added to the row each entry read, in
 * entry order. Output [numWeights, ...gradOutput.shape.slice(1)]; with opts.inPlace, added into
 * the resident opts.out. docs/fused-gather-reduce.md.
 */
export function embeddingBagBackward<T extends Float32Array | Float64Array, O extends EmbeddingBagBackwardOptions<Widened<T>> = {}>(
  gradOutput: TensorLike<T>, indices: TensorLike<IndexArray>, opts?: O):
  O extends { returnWeightsGrad: true } ? WithWeightsGrad<OpResult<T, O>, T> : OpResult<T, O>;

export interface SegmentReduceOptions<T extends DataArray> extends Omit<CommonOptions<T>, 'outOfRange' | 'negativeIndices'> {
  reduce: 'sum' | 'mean' | 'max' | 'min' | 'prod';
  /** torch's: the length of each segment, adding up to the axis. */
  lengths?: SegmentsLike;
  /** torch's: the start of each segment and then the end (the axis's length). */
  offsets?: SegmentsLike;
  /** TensorFlow's: a sorted segment id for each entry of the axis (an empty segment is 0). */
  segmentIds?: SegmentsLike;
  /** With segmentIds: the segments (default the last id + 1). */
  numSegments?: number;
  /** Every segment starts from it (torch). */
  initial?: number;
  /** The axis of the segments (default 0). */
  axis?: number;
}

/**
 * torch.segment_reduce / tf.math.segment_*: data's entries along opts.axis reduced per
 * contiguous segment, in order. Output: data's shape with the segments along the axis.
 */
export function segmentReduce<T extends Float32Array | Float64Array, O extends SegmentReduceOptions<Widened<T>>>(
  data: TensorLike<T>, opts: O): OpResult<T, O>;

/**
 * The options of the ops whose output is as long as a mask's true elements: opts.out (a
 * TypedArray or ResidentTensor of the output's type) need only hold at least the output, and the
 * result is then { data: opts.out, shape }, shape saying how much of it holds the output.
 */
export interface MaskOptions<T extends DataArray> {
  out?: T | ResidentTensor<T>;
  resident?: boolean;
}

/**
 * What the masks' ops return: a ResidentTensor for { resident: true }, { data: opts.out, shape }
 * for a resident opts.out, a Result for neither, and either (the union) where the type of the
 * options does not tell, as OpResult: `resident` a boolean (`const o = { resident: true }`), or
 * `out` one of a TypedArray and a ResidentTensor.
 */
export type MaskResult<T extends DataArray, O> =
  O extends { resident: infer R }
    ? [R] extends [true] ? ResidentTensor<T>
      : [R] extends [false | undefined | null] ? MaskOutResult<T, O>
      : MaskOutResult<T, O> | ResidentTensor<T>
    : MaskOutResult<T, O>;

/** MaskResult for what opts.out is: a ResidentTensor (the result's data), a TypedArray, or either. */
export type MaskOutResult<T extends DataArray, O> =
  O extends { out: infer U }
    ? [U] extends [ResidentTensor<any>] ? { data: ResidentTensor<T>; shape: number[] }
      : [U] extends [DataArray | undefined | null] ? Result<T>
      : Result<T> | { data: ResidentTensor<T>; shape: number[] }
    : Result<T>;

export interface NonZeroOptions extends MaskOptions<Int32Array | BigInt64Array> {
  /** 'onnx': [rank, count] (the default); 'torch': [count, rank], also tf.where's. */
  layout?: 'onnx' | 'torch';
  /** The coordinates' type: 'int32' (Int32Array, the default) or 'int64' (BigInt64Array). */
  indexType?: 'int32' | 'int64';
  /** x's bits in a Uint16Array are float16 or bfloat16 (their -0 is zero). */
  dtype?: 'float16' | 'bfloat16';
}

/**
 * ONNX NonZero, torch.nonzero, tf.where: the coordinates of x's non-zero elements in row-major
 * order (NaN is non-zero, -0 is zero). docs/masks.md.
 */
export function nonZero<O extends NonZeroOptions = {}>(x: TensorLike<DataArray>, opts?: O):
  MaskResult<O extends { indexType: 'int64' } ? BigInt64Array : Int32Array, O>;

export interface BooleanMaskOptions<T extends DataArray> extends MaskOptions<T> {
  /** The first of x's dims the mask covers (default 0; negative counts from the end). */
  axis?: number;
}

/**
 * tf.boolean_mask (torch.masked_select with a mask of x's shape): a mask of K dims over x's dims
 * [axis, axis + K) keeps the slices where it is true (non-zero). Output
 * [...x.shape.slice(0, axis), count, ...x.shape.slice(axis + K)]. docs/masks.md.
 */
export function booleanMask<T extends DataArray, O extends BooleanMaskOptions<Widened<T>> = {}>(
  x: TensorLike<T>, mask: TensorLike<DataArray>, opts?: O): MaskResult<Widened<T>, O>;

/**
 * ONNX Compress: the slices of x along opts.axis where the 1-D condition is true (a shorter
 * condition selects from its length only); with no axis, the elements of x flattened. docs/masks.md.
 */
export function compress<T extends DataArray, O extends BooleanMaskOptions<Widened<T>> = {}>(
  x: TensorLike<T>, condition: TensorLike<DataArray>, opts?: O): MaskResult<Widened<T>, O>;

export interface MaskedScatterOptions<T extends DataArray> extends Omit<CommonOptions<T>, 'outOfRange' | 'negativeIndices'> {
  /** Write into x itself, a ResidentTensor (returned). */
  inPlace?: boolean;
  /** x's and source's bits in Uint16Arrays are float16 or bfloat16. */
  dtype?: 'float16' | 'bfloat16';
}

/**
 * torch.Tensor.masked_scatter: x with the elements where mask (of x's shape) is true, in row-major
 * order, taking source's first values; source must hold at least that many. With { inPlace: true }
 * it returns x, the resident tensor it updated (as the scatters). docs/masks.md.
 */
export function maskedScatter<T extends DataArray, O extends MaskedScatterOptions<Widened<T>> = {}>(
  x: TensorLike<T>, mask: TensorLike<DataArray>, source: TensorLike<T>, opts?: O): ScatterResult<Widened<T>, O>;

export interface UploadOptions {
  /**
   * 'uint4' or 'int4': tensor.data holds two 4-bit codes a byte (ceil(n / 2) bytes for a shape of
   * n elements), as gatherBlockQuantized's data or zeroPoints of that quantType.
   */
  quantType?: 'uint4' | 'int4';
}

/** Copies a tensor into wasm memory once; use the handle as data or indices of any op. */
export function upload<T extends DataArray>(tensor: Tensor<T>, opts?: UploadOptions): ResidentTensor<T>;

/**
 * Bytes of wasm heap in use, the current size of wasm memory, and what the last op allocated
 * while it ran (inputs and output, each rounded up to 16 bytes: there are no other copies).
 */
export function heapStats(): { heapInUse: number; memoryBytes: number; lastCallBytes: number };
