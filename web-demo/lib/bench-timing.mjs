// Median time per call of a synchronous function: enough calls per sample to be well above
// the browser's clock resolution (coarse in pages that are not cross-origin isolated).

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** { medianMs, samples, callsPerSample } for run(), timed for about budgetMs. */
export function measure(run, { budgetMs = 250, minSamples = 5, maxSamples = 200 } = {}) {
  let k = 1;
  for (;;) { // warm up, and find the calls per sample
    const t0 = performance.now();
    for (let i = 0; i < k; i++) run();
    if (performance.now() - t0 >= 2 || k >= 1 << 16) break;
    k *= 4;
  }
  const samples = [];
  const start = performance.now();
  while (samples.length < maxSamples && (samples.length < minSamples || performance.now() - start < budgetMs)) {
    const t0 = performance.now();
    for (let i = 0; i < k; i++) run();
    samples.push((performance.now() - t0) / k);
  }
  return { medianMs: median(samples), samples: samples.length, callsPerSample: k };
}
