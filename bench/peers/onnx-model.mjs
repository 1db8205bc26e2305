// A one-node ONNX model (ModelProto bytes) for Gather, GatherElements or GatherND, written with a
// tiny protobuf encoder so no schema file is needed. Field numbers are those of onnx.proto.
// A message is built as a list of byte chunks and concatenated once at the end, so a large
// initializer is copied only once.

const WIRE_VARINT = 0;
const WIRE_BYTES = 2;
const ELEM_TYPE = { float32: 1, int32: 6, int64: 7 }; // TensorProto.DataType FLOAT, INT32, INT64
const ATTR_INT = 2; // AttributeProto.AttributeType INT

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
function valueInfo(name, dtype, shape) {
  const dims = shape.flatMap((d) => bytes(1, int(1, d)));
  const tensorType = [...int(1, ELEM_TYPE[dtype]), ...bytes(2, dims)];
  return [...str(1, name), ...bytes(2, bytes(1, tensorType))];
}

// TensorProto: dims = 1 (repeated int64), data_type = 2, name = 8, raw_data = 9 (little-endian,
// which every TypedArray is on the platforms Node runs on).
function tensor(name, array, shape) {
  const raw = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
  return [...shape.flatMap((d) => int(1, d)), ...int(2, ELEM_TYPE.float32), ...str(8, name), ...bytes(9, [raw])];
}

// AttributeProto: name = 1, i = 3, type = 20.
const intAttr = (name, v) => [...str(1, name), ...int(3, v), ...int(20, ATTR_INT)];

/**
 * Model bytes for `out = opType(data, indices, attrs)`, float32 data.
 * spec: { opType: 'Gather' | 'GatherElements' | 'GatherND', attrs: {axis: 0} etc.,
 *   dataShape, indicesShape, indicesType: 'int32' | 'int64', outShape,
 *   initializer?: Float32Array } — with an initializer, `data` is baked into the model and the
 * only graph input is `indices`.
 */
export function gatherModel({ opType, attrs = {}, dataShape, indicesShape, indicesType, outShape, initializer }) {
  // NodeProto: input = 1, output = 2, op_type = 4, attribute = 5.
  const node = [
    ...str(1, 'data'), ...str(1, 'indices'), ...str(2, 'out'), ...str(4, opType),
    ...Object.entries(attrs).flatMap(([k, v]) => bytes(5, intAttr(k, v))),
  ];
  const inputs = [['indices', indicesType, indicesShape]];
  if (!initializer) inputs.unshift(['data', 'float32', dataShape]);
  // GraphProto: node = 1, name = 2, initializer = 5, input = 11, output = 12.
  const graph = [
    ...bytes(1, node),
    ...str(2, opType.toLowerCase()),
    ...(initializer ? bytes(5, tensor('data', initializer, dataShape)) : []),
    ...inputs.flatMap((i) => bytes(11, valueInfo(...i))),
    ...bytes(12, valueInfo('out', 'float32', outShape)),
  ];
  // ModelProto: ir_version = 1, producer_name = 2, graph = 7, opset_import = 8.
  // OperatorSetIdProto: version = 2 (domain = 1 left empty: the default ai.onnx domain).
  // IR 8 with opset 13: Gather-13, GatherElements-13, GatherND-13 (batch_dims since 12).
  const model = [...int(1, 8), ...str(2, 'wasm-gather bench'), ...bytes(7, graph), ...bytes(8, int(2, 13))];
  const out = new Uint8Array(bytesOf(model));
  let at = 0;
  for (const c of model) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
