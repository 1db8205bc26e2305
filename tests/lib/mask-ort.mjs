// onnxruntime-web's NonZero-13 and Compress-13 on the tensors of common/reference-mask.mjs
// ({ data, shape }; float16 a Uint16Array of bits with dtype 'float16'; booleans a Uint8Array
// with dtype 'bool'), for tests/ops/mask-reference.test.mjs. The models are written by the
// bench's ONNX writer (bench/peers/onnx-model.mjs, graphModel: it has no bool element type, so a
// bool input is fed as uint8 and turned to bool by a Cast node in the model, to = BOOL (9):
// Cast's rule is x != 0, https://onnx.ai/onnx/operators/onnx__Cast.html). wasm EP, one thread.
// Each runner resolves to { data, shape } (NonZero: a BigInt64Array [rank, nnz]; Compress: x's
// array type) or throws the peer's error.
// (Not named *.test.mjs: node --test tests/ would run it as a test file.)
import { graphModel } from '../../bench/peers/onnx-model.mjs';
import { ort, ortType } from './scatter-peers.mjs';

export { ort };

const BOOL = 9; // TensorProto.DataType BOOL

const sessions = new Map();
function session(key, model) {
  if (!sessions.has(key)) {
    ort.env.wasm.numThreads = 1; // no worker threads, so the process exits when the tests end
    sessions.set(key, ort.InferenceSession.create(model(), { executionProviders: ['wasm'], logSeverityLevel: 3 }));
  }
  return sessions.get(key);
}

async function run(s, feeds) {
  const { out } = await (await s).run(feeds, { logSeverityLevel: 3 });
  const result = { data: out.data.slice(), shape: out.dims.slice() };
  out.dispose();
  return result;
}

// The graph input for a tensor of `dtype` ('bool': fed as uint8, then Cast to bool by a node
// `${name}_cast` that the graph adds): [graph input type, the name the op reads, nodes].
function boolInput(name, dtype) {
  if (dtype !== 'bool') return [dtype, name, []];
  return ['uint8', `${name}_bool`, [{ opType: 'Cast', inputs: [name], outputs: [`${name}_bool`], attrs: { to: BOOL } }]];
}

const typeOf = (t, dtype) => (dtype === 'bool' ? 'bool' : ortType(t.data, dtype));

/**
 * ONNX NonZero-13: the coordinates of x's non-zero elements, [rank, nnz] int64.
 * opts.dtype: 'float16' over a Uint16Array of bits, 'bool' over a Uint8Array.
 * onnxruntime-web 1.30's CPU kernel holds bool, float32, float16, int32, int64 and uint8.
 */
export function ortNonZero(x, opts = {}) {
  const type = typeOf(x, opts.dtype);
  const [inType, reads, cast] = boolInput('x', type);
  const model = () => graphModel({
    nodes: [...cast, { opType: 'NonZero', inputs: [reads], outputs: ['out'] }],
    inputs: [['x', inType]], outputs: [['out', 'int64']], opsets: [['', 13]],
  });
  return run(session(`NonZero|${type}`, model), { x: new ort.Tensor(inType, x.data, x.shape) });
}

/**
 * ONNX Compress-13 (the axis attribute of Compress-11, negative from the end): opts.axis
 * (undefined: x flattened), opts.dtype for x ('float16'), opts.conditionDtype for the
 * condition: 'bool' (the default for a Uint8Array) or any type ONNX Runtime's Cast reads, cast
 * to bool in the model. ONNX Runtime holds every type of x but bfloat16 (Compress-11's schema).
 */
export function ortCompress(x, condition, opts = {}) {
  const type = typeOf(x, opts.dtype);
  if (type === 'bool') throw new TypeError('ortCompress: give a bool x as uint8 (the model writer has no bool output)');
  const condType = condition.data instanceof Uint8Array && opts.conditionDtype === undefined ? 'bool' : typeOf(condition, opts.conditionDtype);
  // the condition always goes through a Cast to bool (from uint8 for a bool one)
  const condIn = condType === 'bool' ? 'uint8' : condType;
  const attrs = opts.axis === undefined || opts.axis === null ? {} : { axis: opts.axis };
  const model = () => graphModel({
    nodes: [
      { opType: 'Cast', inputs: ['condition'], outputs: ['condition_bool'], attrs: { to: BOOL } },
      { opType: 'Compress', inputs: ['x', 'condition_bool'], outputs: ['out'], attrs },
    ],
    inputs: [['x', type], ['condition', condIn]], outputs: [['out', type]], opsets: [['', 13]],
  });
  return run(session(`Compress|${type}|${condIn}|${attrs.axis}`, model),
    { x: new ort.Tensor(type, x.data, x.shape), condition: new ort.Tensor(condIn, condition.data, condition.shape) });
}
