// What a fresh output array costs beside a reused one (docs/api.md, `out`): the same bytes copied
// (TypedArray.set from a source array) into a new Float32Array each time, with the last `alive`
// outputs kept alive as an app keeps its results, and into one array made once (opts.out's way).
// The difference is the host's: the new array's zeroed pages, faulted in on first touch, and the
// collection of the old ones. Medians of `runs` calls for each size, in ms and ms a MiB.
// Usage: node bench/fresh-output.mjs [--alive 4] [--runs 15]
const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const alive = arg('--alive', 4), runs = arg('--runs', 15);

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

function time(fn) {
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    samples.push(performance.now() - t0);
  }
  return median(samples);
}

console.log(`| MiB | new array each call (${alive} kept alive), ms | into a reused array, ms | difference, ms a MiB |`);
console.log('| ---: | ---: | ---: | ---: |');
for (const mib of [2, 4, 8, 16]) {
  const n = (mib << 20) / 4;
  const source = new Float32Array(n).map((_, i) => i);
  const kept = [];
  const fresh = () => {
    const out = new Float32Array(n);
    out.set(source);
    kept.push(out);
    if (kept.length > alive) kept.shift();
  };
  const reused = new Float32Array(n);
  const into = () => reused.set(source);
  fresh();
  into();
  const a = time(fresh), b = time(into);
  console.log(`| ${mib} | ${a.toFixed(2)} | ${b.toFixed(2)} | ${((a - b) / mib).toFixed(2)} |`);
  kept.length = 0;
}
