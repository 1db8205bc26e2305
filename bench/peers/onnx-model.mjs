// A one-node ONNX model (ModelProto bytes) for Gather, GatherElements or GatherND, for
// com.microsoft.GatherBlockQuantized (gatherBlockQuantizedModel), for ScatterElements,
// ScatterND or TensorScatter (scatterModel), or any op of any types (oneNodeModel, the tests'
// peer models: tests/lib/scatter-peers.mjs), or a graph of several nodes (graphModel), written with a
// tiny protobuf encoder so no schema file is needed. Field numbers are those of onnx.proto.
// A message is built as a list of byte chunks and concatenated once at the end, so a large
// initializer is copied only once.

const WIRE_VARINT = 0;
const WIRE_BYTES = 2;
// TensorProto.DataType.
const ELEM_TYPE = {
  float32: 1, uint8: 2, int8: 3, uint16: 4, int16: 5, int32: 6, int64: 7, float16: 10, float64: 11,
  uint32: 12, uint64: 13, bfloat16: 16, uint4: 21, int4: 22,
};
const ATTR_INT = 2; // AttributeProto.AttributeType INT
const ATTR_STRING = 3; // AttributeProto.AttributeType STRING

// Base-128 varint; negatives are encoded as 64-bit two's complement, as protobuf int64 is.
function varint(v) {
  let x = BigInt.asUintN(64, BigInt(v));
  const out = [];
  do {
    const b = Number(x & 0x7fn);
    x >>= 7n;
    out.push(x ? b | 0x80 : b);
  } while (x);
  return new Uint8Array(out);
}

const bytesOf = (chunks) => chunks.reduce((n, c) => n + c.length, 0);
const tag = (field, wire) => varint((field << 3) | wire);
const int = (field, v) => [tag(field, WIRE_VARINT), varint(v)];
/** A length-delimited field: a string, raw bytes or a nested message (given as chunks). */
const bytes = (field, chunks) => [tag(field, WIRE_BYTES), varint(bytesOf(chunks)), ...chunks];
const str = (field, s) => bytes(field, [new TextEncoder().encode(s)]);

// ValueInfoProto: name = 1, type = 2. TypeProto: tensor_type = 1. TypeProto.Tensor:
// elem_type = 1, shape = 2. TensorShapeProto: dim = 1. Dimension: dim_value = 1.
// Without a shape the rank is left unknown: any shape may be fed.
function valueInfo(name, dtype, shape) {
  const dims = shape?.flatMap((d) => bytes(1, int(1, d)));
  const tensorType = [...int(1, ELEM_TYPE[dtype]), ...(dims ? bytes(2, dims) : [])];
  return [...str(1, name), ...bytes(2, bytes(1, tensorType))];
}

// TensorProto: dims = 1 (repeated int64), data_type = 2, name = 8, raw_data = 9 (little-endian,
// which every TypedArray is on the platforms Node runs on; int4/uint4 two per byte, low nibble first).
function tensor(name, array, shape, dtype = 'float32') {
  const raw = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
  return [...shape.flatMap((d) => int(1, d)), ...int(2, ELEM_TYPE[dtype]), ...str(8, name), ...bytes(9, [raw])];
}

// AttributeProto: name = 1, i = 3, s = 4, type = 20.
const intAttr = (name, v) => [...str(1, name), ...int(3, v), ...int(20, ATTR_INT)];
const strAttr = (name, v) => [...str(1, name), ...str(4, v), ...int(20, ATTR_STRING)];
const attr = (name, v) => (typeof v === 'string' ? strAttr(name, v) : intAttr(name, v));

/**
 * Model bytes for `out = opType(data, indices, attrs)`, float32 data.
 * spec: { opType: 'Gather' | 'GatherElements' | 'GatherND', attrs: {axis: 0} etc.,
 *   dataShape, indicesShape, indicesType: 'int32' | 'int64', outShape,
 *   initializer?: Float32Array } — with an initializer, `data` is baked into the model and the
 * only graph input is `indices`.
 */
export function gatherModel({ opType, attrs = {}, dataShape, indicesShape, indicesType, outShape, initializer }) {
  const graph = dataFirstGraph({ opType, attrs, dataShape, outShape, initializer,
    inputs: [['indices', indicesType, indicesShape]] });
  // IR 8 with opset 13: Gather-13, GatherElements-13, GatherND-13 (batch_dims since 12).
  return modelBytes(8, graph, [['', 13]]);
}

// The graph of `out = opType(data, ...inputs, attrs)` of float32 data: inputs are [name, dtype,
// shape] after data; with an initializer, data is baked into the model and not a graph input.
function dataFirstGraph({ opType, attrs, dataShape, outShape, initializer, inputs }) {
  // NodeProto: input = 1, output = 2, op_type = 4, attribute = 5.
  const node = [
    ...str(1, 'data'), ...inputs.flatMap(([n]) => str(1, n)), ...str(2, 'out'), ...str(4, opType),
    ...Object.entries(attrs).flatMap(([k, v]) => bytes(5, attr(k, v))),
  ];
  const graphInputs = initializer ? inputs : [['data', 'float32', dataShape], ...inputs];
  // GraphProto: node = 1, name = 2, initializer = 5, input = 11, output = 12.
  return [
    ...bytes(1, node),
    ...str(2, opType.toLowerCase()),
    ...(initializer ? bytes(5, tensor('data', initializer, dataShape)) : []),
    ...graphInputs.flatMap((i) => bytes(11, valueInfo(...i))),
    ...bytes(12, valueInfo('out', 'float32', outShape)),
  ];
}

// ModelProto: ir_version = 1, producer_name = 2, graph = 7, opset_import = 8.
// OperatorSetIdProto: domain = 1 (empty: the default ai.onnx domain), version = 2.
function modelBytes(irVersion, graph, opsets) {
  const imports = opsets.flatMap(([domain, v]) => bytes(8, [...(domain ? str(1, domain) : []), ...int(2, v)]));
  const model = [...int(1, irVersion), ...str(2, 'wasm-gather bench'), ...bytes(7, graph), ...imports];
  const out = new Uint8Array(bytesOf(model));
  let at = 0;
  for (const c of model) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/**
 * Model bytes for `out = com.microsoft.GatherBlockQuantized(data, indices, scales[, zero_points])`
 * with data, scales and zero points as initializers; the only graph input is `indices`, of any
 * shape (so one session serves every index tensor).
 * spec: { dataType: 'uint8' | 'uint4' | 'int4', data: Uint8Array (packed bytes), dataShape (as the
 *   ONNX tensor has it: stored for uint8, logical for int4/uint4), scaleType: 'float32' |
 *   'float16' | 'bfloat16', scales (Float32Array or Uint16Array of bits), scalesShape,
 *   zeroPoints?: Uint8Array (packed, of dataType), zeroPointsShape?, indicesType: 'int32' |
 *   'int64', attrs: { gather_axis, quantize_axis, block_size, bits } (those given are written) }.
 * Schema: onnxruntime/core/graph/contrib_ops/contrib_defs.cc (GatherBlockQuantized, com.microsoft 1).
 */
export function gatherBlockQuantizedModel(spec) {
  const { dataType, scaleType, indicesType, attrs = {}, zeroPoints } = spec;
  const inputs = ['data', 'indices', 'scales', ...(zeroPoints ? ['zero_points'] : [])];
  // NodeProto: input = 1, output = 2, op_type = 4, attribute = 5, domain = 7.
  const node = [
    ...inputs.flatMap((n) => str(1, n)), ...str(2, 'out'), ...str(4, 'GatherBlockQuantized'),
    ...Object.entries(attrs).flatMap(([k, v]) => bytes(5, intAttr(k, v))), ...str(7, 'com.microsoft'),
  ];
  const graph = [
    ...bytes(1, node),
    ...str(2, 'gather_block_quantized'),
    ...bytes(5, tensor('data', spec.data, spec.dataShape, dataType)),
    ...bytes(5, tensor('scales', spec.scales, spec.scalesShape, scaleType)),
    ...(zeroPoints ? bytes(5, tensor('zero_points', zeroPoints, spec.zeroPointsShape, dataType)) : []),
    ...bytes(11, valueInfo('indices', indicesType)),
    ...bytes(12, valueInfo('out', scaleType)),
  ];
  // IR 10 (int4/uint4 tensors), ai.onnx 21 and com.microsoft 1.
  return modelBytes(10, graph, [['', 21], ['com.microsoft', 1]]);
}

/**
 * Model bytes for `out = opType(data, indices, updates, attrs)` of float32 data, the scatters:
 * the tensor written to first (TensorScatter's past_cache), then the indices and the updates
 * (ScatterElements, ScatterND), or the update and the write indices (TensorScatter: `order:
 * ['updates', 'indices']`).
 * spec: { opType, attrs ({ axis: 1, reduction: 'add', mode: 'circular' }: strings are STRING
 *   attributes), dataShape, indicesShape, indicesType, updatesShape, order?, opset,
 *   initializer?: Float32Array (data baked into the model: its graph inputs are then the others) }.
 * Opsets: ScatterElements and ScatterND take reduction 'add' from 16, TensorScatter is 24.
 * https://onnx.ai/onnx/operators/onnx__ScatterND.html, onnx__TensorScatter.html
 */
export function scatterModel({ opType, attrs = {}, dataShape, indicesShape, indicesType, updatesShape, order = ['indices', 'updates'], opset, initializer }) {
  const info = { indices: ['indices', indicesType, indicesShape], updates: ['updates', 'float32', updatesShape] };
  const graph = dataFirstGraph({ opType, attrs, dataShape, outShape: dataShape, initializer, inputs: order.map((n) => info[n]) });
  // IR 10 reads every opset up to 24 in onnxruntime 1.30 (it checks the IR version, not its opsets).
  return modelBytes(10, graph, [['', opset]]);
}

/**
 * Model bytes for `out = opType(...inputs)` in the default domain at `opset`, of any types and
 * no shapes (one session serves every case of its types). inputs: [name, dtype] in the node's
 * order (a name of '' leaves an optional input out); attrs: { name: int | string }.
 */
export function oneNodeModel({ opType, opset, inputs, outType, attrs = {} }) {
  const node = [
    ...inputs.flatMap(([n]) => str(1, n)), ...str(2, 'out'), ...str(4, opType),
    ...Object.entries(attrs).flatMap(([k, v]) => bytes(5, attr(k, v))),
  ];
  const graph = [
    ...bytes(1, node), ...str(2, opType.toLowerCase()),
    ...inputs.filter(([n]) => n).flatMap(([n, dtype]) => bytes(11, valueInfo(n, dtype))),
    ...bytes(12, valueInfo('out', outType)),
  ];
  // IR 10 reads opset 18 and 24 alike in onnxruntime 1.30.
  return modelBytes(10, graph, [['', opset]]);
}

/**
 * Model bytes of a graph of several nodes (the E suite's Gather then ReduceSum and the like).
 * spec: { nodes: [{ opType, inputs: names, outputs: names, attrs?, domain? }], initializers:
 *   [{ name, data (TypedArray), shape, dtype }], inputs: [name, dtype, shape?], outputs: [name,
 *   dtype], opsets: [[domain, version]] } (IR 10: int4/uint4 and every opset up to 24 in
 *   onnxruntime 1.30).
 */
export function graphModel({ nodes, initializers = [], inputs, outputs, opsets }) {
  const node = ({ opType, inputs: ins, outputs: outs, attrs = {}, domain }) => bytes(1, [
    ...ins.flatMap((n) => str(1, n)), ...outs.flatMap((n) => str(2, n)), ...str(4, opType),
    ...Object.entries(attrs).flatMap(([k, v]) => bytes(5, attr(k, v))), ...(domain ? str(7, domain) : []),
  ]);
  const graph = [
    ...nodes.flatMap(node), ...str(2, 'graph'),
    ...initializers.flatMap((i) => bytes(5, tensor(i.name, i.data, i.shape, i.dtype))),
    ...inputs.flatMap((i) => bytes(11, valueInfo(...i))),
    ...outputs.flatMap((o) => bytes(12, valueInfo(...o))),
  ];
  return modelBytes(10, graph, opsets);
}
