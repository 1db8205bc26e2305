// The one loaded module, if any: { m, memory, abi, pool, call, info, lastCallBytes, closed, ... },
// set by init() and cleared by dispose() (js/index.mjs), read by every op.
let current = null;

export const getState = () => current;
export function setState(s) { current = s; }

/**
 * The loaded module, or an error that says to call init() first: an Error whose code is
 * 'ERR_WG_NOT_INITIALIZED' (js/index.d.cts: WasmGatherError; js/index.cjs throws the same).
 */
export function ready(op) {
  if (!current) throw notInitialized(op);
  return current;
}

/** The error of an op called before init() (or after dispose()). */
export function notInitialized(op) {
  const e = new Error(`${op}: wasm-gather is not initialized; call 'await init()' first`);
  e.code = 'ERR_WG_NOT_INITIALIZED';
  return e;
}
