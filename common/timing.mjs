// Timing of one implementation on one workload: medians of repeated calls, with several calls
// per sample when one call is too short for the clock, awaiting calls that return promises.
// Used by bench/run.mjs in Node and by the web demo's benchmark panel in a page.

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/**
 * Times run() for about budgetMs (at least minSamples samples, at most maxSamples), with enough
 * calls per sample to last minSampleMs: raise it where the clock is coarse (a page that is not
 * cross-origin isolated rounds performance.now() to 0.1 ms).
 * warmUpMs: calls before any sample is taken, for at least this long (a fresh wasm instance's code
 * and the JS around it tier up over the first tens of milliseconds of calls: without it, calls of
 * a few µs measured up to 4x slow).
 * Returns { medianMs, minMs, samples, callsPerSample } per call.
 */
export async function measure(run, { budgetMs = 300, minSamples = 5, maxSamples = 500, minSampleMs = 0.2, warmUpMs = 0 } = {}) {
  const probe = run();
  const isAsync = typeof probe?.then === 'function';
  if (isAsync) await probe; // (onnxruntime-web refuses a run while one is under way)
  const once = isAsync ? async (k) => { for (let i = 0; i < k; i++) await run(); } : (k) => { for (let i = 0; i < k; i++) run(); };
  // Warm up, and find how many calls make a sample of at least minSampleMs.
  let k = 1;
  const warmStart = performance.now();
  for (;;) {
    const t0 = performance.now();
    await once(k);
    const dt = performance.now() - t0;
    if (dt >= minSampleMs || k >= 1 << 16) break;
    k *= 4;
  }
  while (performance.now() - warmStart < warmUpMs) await once(k);
  const samples = [];
  const start = performance.now();
  while (samples.length < maxSamples && (samples.length < minSamples || performance.now() - start < budgetMs)) {
    const t0 = performance.now();
    await once(k);
    samples.push((performance.now() - t0) / k);
  }
  return { medianMs: median(samples), minMs: Math.min(...samples), samples: samples.length, callsPerSample: k };
}

export { median };
