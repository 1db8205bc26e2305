// Test harness: the smoke suite inside a dedicated worker.
import * as api from '../node_modules/wasm-gather/js/index.mjs';
import { smoke } from '../tests/package/smoke.mjs';

postMessage(await smoke(api, { threads: 2 }));
