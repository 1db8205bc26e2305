// Run in a fresh process: how long from nothing loaded until the first op has run, for one
// variant, and the process's resident memory then (its workers' included: each is a thread of
// this process). Prints { variant, threads, ms, rssBytes }.
// Usage: node bench/lib/init-time.mjs simd|simd-threaded [threads]
const t0 = performance.now();
const { init, take, dispose } = await import('../../js/index.mjs');
const variant = process.argv[2];
const info = await init({ variant, threads: process.argv[3] ? Number(process.argv[3]) : undefined });
take({ data: new Float32Array(4), shape: [4] }, { data: new Int32Array([3]), shape: [1] });
const ms = performance.now() - t0;
const rssBytes = process.memoryUsage().rss;
dispose();
console.log(JSON.stringify({ variant: info.variant, threads: info.threads, ms, rssBytes }));
