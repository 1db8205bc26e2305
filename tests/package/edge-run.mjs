// Runs a bundled Vercel Edge function in Vercel's edge-runtime package, as `next dev` does:
// the .wasm binding is a WebAssembly.Module compiled by the host and put on the function's
// global, compiling wasm (and eval) is switched off inside, and one request is dispatched.
// Usage: node edge-run.mjs <bundle.js> <binding name> <file.wasm>; prints the response body.
import { readFileSync } from 'node:fs';
import { EdgeRuntime } from 'edge-runtime';

const [bundleFile, binding, wasmFile] = process.argv.slice(2);
const wasm = await WebAssembly.compile(readFileSync(wasmFile));
const runtime = new EdgeRuntime({
  codeGeneration: { strings: false, wasm: false },
  extend: (context) => Object.assign(context, { [binding]: wasm }),
});
// edge-runtime swaps the context's Uint8Array for a Proxy (so that host arrays pass instanceof);
// arrays made by slice() then have the real constructor, which the smoke suite's exact type
// check (constructor === Uint8Array) would count as a failure. Vercel's deployed runtime has
// no such Proxy: put the real constructor back.
runtime.evaluate('globalThis.Uint8Array = new Uint8Array(0).constructor;');
runtime.evaluate(`${readFileSync(bundleFile, 'utf8')}
addEventListener('fetch', (event) => event.respondWith(__edgeFunction.default(event.request)));`);
const res = await runtime.dispatchFetch('http://localhost/api');
console.log(JSON.stringify({ status: res.status, body: await res.text() }));
