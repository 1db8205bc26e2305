// Test harness (not a README example): the smoke suite through `require('wasm-gather')`.
const api = require('wasm-gather');

import('./tests/package/smoke.mjs')
  .then(({ smoke }) => smoke(api))
  .then((out) => console.log(JSON.stringify(out)));
