// Import maps do not reach workers: without a bundler, import the package's file.
import { init, take } from '../node_modules/wasm-gather/js/index.mjs';

const info = await init({ threads: 2 }); // threads inside the worker too, if the page is isolated
const rows = take({ data: new Float32Array([1, 2, 3, 4, 5, 6]), shape: [3, 2] }, { data: [2, 0], shape: [2] });
postMessage({ ...info, rows: Array.from(rows.data) });
