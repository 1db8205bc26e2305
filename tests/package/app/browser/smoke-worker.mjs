// Test harness: the smoke suite inside a dedicated worker. It posts { step } as each part starts,
// then { result }, or { error } if the suite threw (a module worker's rejection reaches no handler
// on the page).
import * as api from '../node_modules/wasm-gather/js/index.mjs';
import { smoke } from '../tests/package/smoke.mjs';

try {
  postMessage({ result: await smoke(api, { threads: 2 }, undefined, (step) => postMessage({ step })) });
} catch (e) {
  postMessage({ error: String(e?.stack ?? e) });
}
