// The numbers the binding shares with C, read from the module once at init (src/wasm_exports.c
// lists them by name): statuses, argument codes, element types, out-of-range modes,
// negative-index policies, the ops with the tensors and attributes each takes, and the layout of
// the call record (src/call.def: every tensor slot's address, type, rank and shape, every
// attribute). None of them is written in JS, so a change in C cannot silently disagree with JS;
// a name JS needs that the module lacks fails init.

// The constants the binding uses by name (the record's fields and the ops come from the table).
const NEEDED = ['WG_MAX_RANK', 'sizeof(size_t)', 'sizeof(wg_call)', 'WG_OK', 'WG_DTYPE_NONE', 'WG_ARG_OUT',
  'WG_OOB_ERROR', 'WG_OOB_ZERO', 'WG_OOB_CLAMP', 'WG_NEGATIVE_WRAP', 'WG_NEGATIVE_ERROR', 'WG_PLANNED_TENSORS',
  'WG_INDEX_POLICY', 'wg_call.op'];

function cString(bytes, ptr) {
  let end = ptr;
  while (bytes[end] !== 0) end++;
  return new TextDecoder().decode(bytes.slice(ptr, end));
}

/**
 * Reads the module's table into { value(name), nameOf(prefix, value), ops, tensors, attrs,
 * dtypes, call, maxRank }: ops maps an op's name in src/ops.def (its C name) to
 * { number, tensors: Set of roles, attrs: Set of names, inputs: the roles whose shape the caller
 * gives (not the plan), in slot order, own: its attributes but the policies }; tensors and attrs are the record's
 * slots in order (src/call.def); dtypes maps a dtype's name (F32, I32, ...) to its number; call
 * holds the record's size and the byte offset of each field by name ('op', 'err.arg',
 * 'data.shape', 'attrs.axis', ...).
 */
export function readAbi(m, memory) {
  const table = new Map();
  const bytes = new Uint8Array(memory.buffer);
  for (let i = 0, n = m._wg_abi_count() >>> 0; i < n; i++) {
    table.set(cString(bytes, m._wg_abi_name(i) >>> 0), m._wg_abi_value(i));
  }
  return abiFromTable(table);
}

// name -> value of the entries whose name starts with prefix (the prefix cut off)
function withPrefix(table, prefix) {
  const out = new Map();
  for (const [k, v] of table) if (k.startsWith(prefix) && !k.includes('.', prefix.length)) out.set(k.slice(prefix.length), v);
  return out;
}

// The names of the bits set in mask, from a Map name -> bit number.
const bitsOf = (mask, bits) => new Set([...bits].filter(([, bit]) => (mask >>> bit) & 1).map(([name]) => name));

/** The same from a Map of name -> value (exported for the test of the check itself). */
export function abiFromTable(table) {
  const missing = NEEDED.filter((k) => !table.has(k));
  if (missing.length) {
    throw new Error(`init: the wasm module does not define ${missing.join(', ')}: ` +
      'its .wasm and the JS files come from different builds of wasm-gather');
  }
  if (table.get('sizeof(size_t)') !== 4) {
    throw new Error(`init: expected a wasm32 module (size_t of 4 bytes), got ${table.get('sizeof(size_t)')}`);
  }
  const value = (name) => table.get(name);
  const byNumber = (m) => [...m].sort((a, b) => a[1] - b[1]).map(([k]) => k);
  const roles = withPrefix(table, 'WG_TENSOR_');
  const attrBits = withPrefix(table, 'WG_ATTR_');
  const ops = {};
  const planned = bitsOf(value('WG_PLANNED_TENSORS'), roles), policies = bitsOf(value('WG_INDEX_POLICY'), attrBits);
  for (const [name, number] of withPrefix(table, 'WG_OP_')) {
    const tensors = bitsOf(table.get(`WG_OP_${name}.tensors`), roles), attrs = bitsOf(table.get(`WG_OP_${name}.attrs`), attrBits);
    ops[name] = { number, tensors, attrs, inputs: byNumber(roles).filter((r) => tensors.has(r) && !planned.has(r)),
      own: [...attrs].filter((a) => !policies.has(a)) };
  }
  const call = { size: value('sizeof(wg_call)') };
  for (const [k, v] of table) if (k.startsWith('wg_call.')) call[k.slice(8)] = v;
  const nameOf = (prefix, v) => {
    for (const [k, x] of table) if (x === v && k.startsWith(prefix) && !k.includes('.')) return k;
    return undefined;
  };
  return { value, nameOf, ops, call, tensors: byNumber(roles), attrs: byNumber(attrBits),
    dtypes: Object.fromEntries(withPrefix(table, 'WG_DTYPE_')), maxRank: value('WG_MAX_RANK') };
}
