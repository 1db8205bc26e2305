// Test harness: the smoke suite inside a dedicated worker. It posts { step } as each part starts,
// then { result, workersMade }, or { error } if the suite threw (a module worker's rejection reaches no handler
// on the page).
import * as api from '../node_modules/wasm-gather/js/index.mjs';
import { smoke } from '../tests/package/smoke.mjs';

// The workers made in here, counted: the library's pool only (its thread probe posts through a
// MessagePort). Each construction is a step of its own: Firefox's `new Worker()` inside a dedicated
// worker sometimes never returns (docs/toolchain.md), and the page then says so.
let workersMade = 0;
const { Worker } = globalThis;
globalThis.Worker = class extends Worker {
  constructor(...args) {
    postMessage({ step: 'inside new Worker()' });
    super(...args);
    workersMade++;
    postMessage({ step: `new Worker() returned (${workersMade})` });
  }
};

try {
  const result = await smoke(api, { threads: 2 }, undefined, (step) => postMessage({ step }));
  postMessage({ result, workersMade });
} catch (e) {
  postMessage({ error: String(e?.stack ?? e) });
}
