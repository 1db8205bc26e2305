// Test harness: the smoke suite, bundled by Vite with the package.
import * as api from 'wasm-gather';
import { smoke } from '../tests/package/smoke.mjs';

document.body.dataset.result = JSON.stringify(await smoke(api, { threads: 2 }));
