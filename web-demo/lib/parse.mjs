// Text <-> tensors for the editor: values typed as nested brackets or a flat list, shapes as
// "2, 3" or "[2, 3]". Parse errors are ParseErrors (shown inline, like the library's errors);
// everything about shapes and indices beyond "is it a number" is left to the library to judge.

export class ParseError extends Error {
  constructor(message) { super(message); this.name = 'ParseError'; }
}

export const DATA_TYPES = {
  float32: Float32Array, float64: Float64Array, int8: Int8Array, int16: Int16Array, int32: Int32Array,
  int64: BigInt64Array, uint8: Uint8Array, uint16: Uint16Array, uint32: Uint32Array,
};
export const INDEX_TYPES = { int32: Int32Array, int64: BigInt64Array, uint32: Uint32Array, 'plain array': Array };

const NAMES = new Map([...Object.entries(DATA_TYPES), ...Object.entries(INDEX_TYPES)].map(([k, v]) => [v, k]));
/** 'float32' for a Float32Array, 'plain array' for an Array. */
export const dtypeName = (data) => NAMES.get(data.constructor) ?? data.constructor.name;

const tokens = (text) => text.replace(/[[\](),;]/g, ' ').split(/\s+/).filter(Boolean);

/** "2, 3", "[2, 3]", "" (a scalar) -> [2, 3]. */
export function parseShape(field, text) {
  return tokens(text).map((t) => {
    if (!/^[+-]?\d+$/.test(t)) throw new ParseError(`${field}: '${t}' is not an integer`);
    return Number(t);
  });
}

/** The values in `text` as a `Type` array (BigInt64Array for int64, Array for 'plain array'). */
export function parseValues(field, text, Type) {
  const ts = tokens(text);
  const bigint = Type === BigInt64Array || Type === BigUint64Array;
  const integer = Type !== Float32Array && Type !== Float64Array && Type !== Array;
  const values = ts.map((t) => {
    if (bigint) {
      if (!/^[+-]?\d+$/.test(t)) throw new ParseError(`${field}: '${t}' is not an integer (${dtypeName({ constructor: Type })})`);
      return BigInt(t);
    }
    const v = Number(t);
    if (t === '' || (Number.isNaN(v) && t !== 'NaN')) throw new ParseError(`${field}: '${t}' is not a number`);
    if (integer && !Number.isInteger(v)) throw new ParseError(`${field}: '${t}' is not an integer (${dtypeName({ constructor: Type })})`);
    return v;
  });
  return Type === Array ? values : Type.from(values);
}

const fmt = (v) => (typeof v === 'number' && Object.is(v, -0) ? '-0' : String(v));

/** Nested-bracket text of a flat row-major array, one innermost row per line. */
export function formatNested(data, shape) {
  if (shape.length === 0) return fmt(data[0]);
  const st = [];
  let k = 1;
  for (let d = shape.length - 1; d >= 0; d--) { st[d] = k; k *= shape[d]; }
  const rec = (off, d) => {
    const parts = [];
    for (let i = 0; i < shape[d]; i++) {
      parts.push(d === shape.length - 1 ? fmt(data[off + i]) : rec(off + i * st[d], d + 1));
    }
    // Rows on lines of their own; a blank line between the outermost blocks of rank 3+.
    const sep = d === shape.length - 1 ? ', ' : (d === 0 && shape.length > 2 ? ',\n\n' : ',\n') + ' '.repeat(d + 1);
    return '[' + parts.join(sep) + ']';
  };
  return rec(0, 0);
}
