import { init, take } from 'wasm-gather';

const info = await init({ threads: 2 }); // the bundler emits the .wasm and glue files
const rows = take({ data: new Float32Array([1, 2, 3, 4, 5, 6]), shape: [3, 2] }, { data: [2, 0], shape: [2] });
document.body.dataset.result = JSON.stringify({ ...info, rows: Array.from(rows.data) });
