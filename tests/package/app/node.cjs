const { init, take } = require('wasm-gather');

init().then((info) => {
  const table = { data: new Float32Array([1, 2, 3, 4, 5, 6]), shape: [3, 2] };
  const rows = take(table, { data: [2, 0], shape: [2] }); // [5, 6, 1, 2]
  console.log(JSON.stringify({ ...info, rows: Array.from(rows.data) }));
});
