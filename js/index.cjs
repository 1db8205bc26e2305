'use strict';
// CommonJS entry. The library is an ES module; require() gets this shim, whose init() loads it.
// The ops stay synchronous once init() has resolved.
let api = null;

exports.init = async function init(opts) {
  if (!api) api = await import('./index.mjs');
  return api.init(opts);
};

// The functions of index.mjs besides init (tests/unit/lifecycle.test.mjs checks that the lists match).
const OPS = ['gather', 'gatherElements', 'gatherND', 'take', 'gatherBlockQuantized', 'scatter', 'scatterElements',
  'scatterND', 'indexReduce', 'tensorScatter', 'embeddingBag', 'embeddingBagBackward', 'segmentReduce', 'nonZero',
  'booleanMask', 'compress', 'maskedScatter'];
for (const name of [...OPS, 'prepare', 'upload', 'dispose', 'heapStats']) {
  exports[name] = function (...args) {
    if (!api) {
      if (name === 'dispose') return undefined;
      // As js/state.mjs's ready() throws it once loaded: the same message and code.
      const e = new Error(`${name}: wasm-gather is not initialized; call 'await init()' first`);
      e.code = 'ERR_WG_NOT_INITIALIZED';
      throw e;
    }
    // prepare(op, ...): this shim's op functions stand for the module's
    if (name === 'prepare' && typeof args[0] === 'function') {
      const op = OPS.find((n) => exports[n] === args[0]);
      if (op) args[0] = api[op];
    }
    return api[name](...args);
  };
}

// The class lives in the ES module, loaded by init(); instanceof works through it once loaded.
exports.ResidentTensor = class ResidentTensor {
  constructor() {
    throw new TypeError("ResidentTensor: made by upload() or an op's { resident: true }, not by new");
  }

  static [Symbol.hasInstance](x) {
    return api !== null && x instanceof api.ResidentTensor;
  }
};

exports.PreparedCall = class PreparedCall {
  constructor() {
    throw new TypeError('PreparedCall: made by prepare(), not by new');
  }

  static [Symbol.hasInstance](x) {
    return api !== null && x instanceof api.PreparedCall;
  }
};
