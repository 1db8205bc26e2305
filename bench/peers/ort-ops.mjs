// The ONNX node that computes each benchmark workload in onnxruntime-web, and the conversion of
// its indices: Node's runners (ort.mjs) and the browser benchmark's page (bench/browser/bench.mjs)
// share it. No Node imports.

/** The ONNX node for a workload, and the per-call conversion of its int32 indices, if any. */
export function onnxOp(w) {
  const { op, opts } = w;
  if (op === 'take') {
    if (opts.batchDims) throw new Error('ONNX Gather has no batch_dims');
    return { opType: 'Gather', attrs: { axis: opts.axis ?? 0 }, indicesType: 'int32' };
  }
  if (op === 'gather') return { opType: 'GatherElements', attrs: { axis: opts.dim }, indicesType: 'int32' };
  return {
    opType: 'GatherND', attrs: { batch_dims: opts.batchDims ?? 0 }, indicesType: 'int64', convert: toInt64,
    note: 'GatherND takes int64 indices only: int32 widened to BigInt64Array in run()',
  };
}

/** int32 -> int64 by sign extension, writing both halves through an Int32Array view (little-endian). */
export function toInt64(a) {
  const out = new BigInt64Array(a.length);
  const halves = new Int32Array(out.buffer);
  for (let i = 0; i < a.length; i++) {
    halves[2 * i] = a[i];
    halves[2 * i + 1] = a[i] >> 31;
  }
  return out;
}
