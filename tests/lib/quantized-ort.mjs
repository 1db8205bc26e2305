// The onnxruntime-web side of the GatherBlockQuantized tests: a case of tests/lib/quantized-cases.mjs
// as a one-node model (the bench's ONNX writer) run by onnxruntime-web's default wasm build.
// (Not named *.test.mjs: node --test tests/ would run it as a test file.)
import * as ort from 'onnxruntime-web';
import { gatherBlockQuantizedModel } from '../../bench/peers/onnx-model.mjs';

export { ort };

/**
 * An onnxruntime session holding the case's table, scales and zero points as initializers (wasm
 * EP, one thread: no worker threads, so the process exits when the tests end).
 */
export function session(c) {
  ort.env.wasm.numThreads = 1;
  const packed = c.quantType === 'uint8';
  const attrs = { gather_axis: c.gatherAxis, quantize_axis: c.quantizeAxis, block_size: c.blockSize, bits: c.bits };
  const model = gatherBlockQuantizedModel({
    dataType: c.quantType, data: c.data.data, dataShape: c.data.shape,
    scaleType: c.scaleType, scales: c.scales.data, scalesShape: c.scales.shape,
    zeroPoints: c.zeroPoints?.data, zeroPointsShape: c.zeroPoints?.shape,
    indicesType: c.indicesType, attrs: packed ? attrs : { ...attrs, bits: c.bits ?? 4 },
  });
  return ort.InferenceSession.create(model, { executionProviders: ['wasm'] });
}

/** Runs the session on one index tensor: { data, shape }. */
export async function runOrt(s, c, indices) {
  const { out } = await s.run({ indices: new ort.Tensor(c.indicesType, indices.data, indices.shape) });
  const result = { data: out.data, shape: out.dims.slice() };
  out.dispose();
  return result;
}

