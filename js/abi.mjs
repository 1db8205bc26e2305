// The numbers the binding shares with C, read from the module once at init (src/wasm_exports.c
// lists them by name): statuses, argument and index-type codes, out-of-range modes, negative-index policies, op numbers,
// the layout of the call record, WG_MAX_RANK. None of them is written in JS, so a change in C
// cannot silently disagree with JS; a name JS needs that the module lacks fails init.

const NEEDED = [
  'WG_MAX_RANK', 'sizeof(size_t)', 'sizeof(wg_call)', 'WG_OK',
  'WG_INDEX_I32', 'WG_INDEX_U32', 'WG_INDEX_I64', 'WG_INDEX_U64',
  'WG_OOB_ERROR', 'WG_OOB_ZERO', 'WG_OOB_CLAMP', 'WG_NEGATIVE_WRAP', 'WG_NEGATIVE_ERROR', 'WG_ARG_OUT', 'WG_ARG_QUANTIZE_AXIS',
  'WG_QUANT_UINT8', 'WG_QUANT_UINT4', 'WG_QUANT_INT4', 'WG_SCALE_F32', 'WG_SCALE_F16', 'WG_SCALE_BF16',
  ...['op', 'args.data_rank', 'args.index_rank', 'args.axis', 'args.batch_dims', 'args.elem_size',
    'args.data', 'args.indices', 'args.index_type', 'args.mode', 'args.negative_indices', 'args.out', 'data_shape',
    'index_shape', 'out_shape', 'out_rank', 'err.arg', 'err.dim', 'err.value', 'err.limit',
    'err.position', 'args.quant.quant_type', 'args.quant.scale_type', 'args.quant.bits',
    'args.quant.block_size', 'args.quant.quantize_axis', 'args.quant.has_zero_points',
    'args.quant.scale_rank', 'args.quant.zp_rank', 'args.scales', 'args.zero_points', 'scale_shape',
    'zp_shape', 'args.offsets', 'out_blocks'].map((f) => `wg_call.${f}`),
];

function cString(bytes, ptr) {
  let end = ptr;
  while (bytes[end] !== 0) end++;
  return new TextDecoder().decode(bytes.slice(ptr, end));
}

/**
 * Reads the module's table into { value(name), nameOf(prefix, value), ops, maxRank, call }.
 * ops maps an op's name in src/ops.def (take, gather_nd, ...) to its number; call holds the call
 * record's size and field offsets.
 */
export function readAbi(m, memory) {
  const table = new Map();
  const bytes = new Uint8Array(memory.buffer);
  for (let i = 0, n = m._wg_abi_count() >>> 0; i < n; i++) {
    table.set(cString(bytes, m._wg_abi_name(i) >>> 0), m._wg_abi_value(i));
  }
  return abiFromTable(table);
}

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
  const ops = {};
  const call = { size: value('sizeof(wg_call)') };
  for (const [k, v] of table) {
    if (k.startsWith('WG_OP_')) ops[k.slice(6)] = v;
    if (k.startsWith('wg_call.')) call[k.slice(8)] = v;
  }
  const nameOf = (prefix, v) => {
    for (const [k, x] of table) if (x === v && k.startsWith(prefix)) return k;
    return undefined;
  };
  return { value, nameOf, ops, call, maxRank: value('WG_MAX_RANK') };
}
