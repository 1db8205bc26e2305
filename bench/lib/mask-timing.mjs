// The M suite's measuring loop (bench/mask-suite.mjs): every implementation of a workload timed in
// rounds, interleaved, rather than one after another as bench/run.mjs's runGroup does: on shared
// cores the machine's speed drifts over seconds, and a row measured all at once would carry
// whatever drift fell on it. Each round takes one sample of every row, in an order shuffled each
// round (seeded), so that no row always follows the same one (a sample pays for what the sample
// before it left to collect); a row's time is the median of its samples, per call. Samples of
// several phases (the thread phases: a module initialized at 1 thread, then at 2, ...) go into
// the same lists, so a row's median spans them all.
import { xorshift32 } from '../../common/workloads.mjs';

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

let sink; // each sample's last result, so that nothing is dead code

/**
 * Times rows [{ key, run, enter?, firstMs?, isAsync? }] interleaved, adding each sample's time per
 * call (ms) to samples.get(key). run() may return a promise (awaited); firstMs and isAsync: of a
 * first call the caller made (else one is made here). enter(), where a row has one, is awaited
 * before each of its samples, untimed (the tfjs rows set their backend there).
 * Options: rounds; sampleMs (the least a sample lasts: calls per sample from the warm-up's
 * times); warmUpMs (each row called for about this long first: a fresh wasm instance and the JS
 * around it tier up); seed (of the order); slowMs and slowSamples: a row whose first call takes
 * longer than slowMs (a peer's call of seconds) is not warmed up further and takes slowSamples
 * samples of one call, in rounds spread over the run, not one every round.
 */
export async function interleave(rows, samples, { rounds, sampleMs = 2, warmUpMs = 100, seed = 1, slowMs = 600, slowSamples = 3 }) {
  const calls = new Map(), stride = new Map();
  for (const r of rows) {
    // the first call: the one the caller made (r.firstMs, r.isAsync: its check), or one here
    let { firstMs: first, isAsync } = r;
    if (first === undefined) {
      await r.enter?.();
      const p0 = performance.now();
      const probe = r.run();
      isAsync = typeof probe?.then === 'function';
      if (isAsync) await probe;
      first = performance.now() - p0;
    }
    r.batch = isAsync
      ? async (k) => { let x; for (let i = 0; i < k; i++) x = await r.run(); return x; }
      : (k) => { let x; for (let i = 0; i < k; i++) x = r.run(); return x; };
    if (!samples.has(r.key)) samples.set(r.key, []);
    if (first > slowMs) {
      calls.set(r, 1);
      stride.set(r, Math.max(1, Math.floor(rounds / slowSamples)));
      continue;
    }
    // warm up, and find the calls that make a sample of sampleMs
    let n = 0;
    const t0 = performance.now();
    do {
      await r.batch(1);
      n++;
    } while (performance.now() - t0 < warmUpMs);
    const perCall = (performance.now() - t0) / n;
    calls.set(r, Math.max(1, Math.ceil(sampleMs / perCall)));
    stride.set(r, 1);
  }
  const next = xorshift32(seed);
  const order = rows.map((_, i) => i);
  for (let round = 0; round < rounds; round++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = next() % (i + 1);
      [order[i], order[j]] = [order[j], order[i]];
    }
    for (const i of order) {
      const r = rows[i], k = calls.get(r), every = stride.get(r);
      // a slow row: in rounds every/2, every/2 + every, ... (slowSamples of them)
      if (every > 1 && (round % every !== every >> 1 || round >= every * slowSamples)) continue;
      await r.enter?.();
      const t0 = performance.now();
      sink = await r.batch(k);
      samples.get(r.key).push((performance.now() - t0) / k);
    }
  }
  return calls;
}

/** { medianMs, minMs, samples } of a row's samples. */
export const summarize = (xs) => ({ medianMs: median(xs), minMs: Math.min(...xs), samples: xs.length });
