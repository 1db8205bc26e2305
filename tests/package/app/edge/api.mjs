import { init, take } from 'wasm-gather';
import wasm from 'wasm-gather/simd.wasm?module'; // Vercel's bundler makes this a WebAssembly.Module

export const config = { runtime: 'edge' };

export default async function handler() {
  const info = await init({ wasm });
  const rows = take({ data: new Float32Array([1, 2, 3, 4, 5, 6]), shape: [3, 2] }, { data: [2, 0], shape: [2] });
  return Response.json({ ...info, rows: Array.from(rows.data) });
}
