// Values and types as error messages show them (no imports: js/resident.mjs uses these too).

/** The type of x for a message: 'null', 'Array', a class's name ('Float32Array', 'Object'), or typeof. */
export function typeName(x) {
  if (x === null) return 'null';
  if (Array.isArray(x)) return 'Array';
  if (typeof x === 'object') return x.constructor?.name ?? 'object';
  return typeof x;
}

/**
 * A value as a message shows it: numbers as they print, a string quoted and said to be one (so
 * that '1' is not taken for 1), a bigint with its n, an object by its type.
 */
export function describeValue(x) {
  switch (typeof x) {
    case 'number': return String(x);
    case 'string': return `${JSON.stringify(x)} (a string)`;
    case 'bigint': return `${x}n (a bigint)`;
    case 'boolean': return `${x} (a boolean)`;
    case 'symbol': return `${String(x)} (a symbol)`;
    case 'undefined': return 'undefined';
    case 'function': return 'a function';
    default: return typeName(x);
  }
}
