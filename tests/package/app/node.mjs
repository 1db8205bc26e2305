import { init, take } from 'wasm-gather';

const info = await init(); // threads where the host has them (Node, Bun), else one (Deno)
const table = { data: new Float32Array([1, 2, 3, 4, 5, 6]), shape: [3, 2] };
const rows = take(table, { data: [2, 0], shape: [2] }); // rows 2 and 0: [5, 6, 1, 2]
console.log(JSON.stringify({ ...info, rows: Array.from(rows.data) }));
