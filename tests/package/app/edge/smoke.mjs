// Test harness (not a README example): the smoke suite in Vercel's edge-runtime.
import * as api from 'wasm-gather';
import wasm from 'wasm-gather/simd.wasm?module';
import { smoke } from '../tests/package/smoke.mjs';

export default async function handler() {
  return Response.json(await smoke(api, { wasm }));
}
