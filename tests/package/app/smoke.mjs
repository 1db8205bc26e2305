// Test harness (not a README example): the smoke suite through `import 'wasm-gather'`.
import * as api from 'wasm-gather';
import { smoke } from './tests/package/smoke.mjs';

console.log(JSON.stringify(await smoke(api)));
