// The one loaded module, if any: { m, memory, abi, pool, call, info, lastCallBytes, closed, ... },
// set by init() and cleared by dispose() (js/index.mjs), read by every op.
let current = null;

export const getState = () => current;
export function setState(s) { current = s; }

/** The loaded module, or an error that says to call init() first. */
export function ready(op) {
  if (!current) throw new Error(`${op}: wasm-gather is not initialized; call 'await init()' first`);
  return current;
}
