// The seeded random cases of tests/lib/random-suite.mjs, run in a browser against the same reference:
// the simd build always, and with ?threaded=1 the threaded build too (the test knows whether the
// engine shares memory with workers on this page; init must then give what it is asked for).
// ?cases=N sets the cases per op. Results go to window.__randomResults and body[data-status].
import * as api from '../../js/index.mjs';
import { OPS, runCase } from '../lib/random-cases.mjs';

const params = new URLSearchParams(location.search);
const cases = Number(params.get('cases') ?? 300);
const configs = [{ variant: 'simd', threads: 1 }];
if (params.get('threaded') === '1') {
  configs.push({ variant: 'simd-threaded', threads: 2 }, { variant: 'simd-threaded', threads: 2, parallelThreshold: 0 });
}
const results = { configs: [], passed: 0, failures: [] };
const log = document.getElementById('log');
try {
  for (const cfg of configs) {
    const info = await api.init(cfg);
    if (info.variant !== cfg.variant || info.threads !== cfg.threads) {
      throw new Error(`init(${JSON.stringify(cfg)}) gave ${JSON.stringify(info)}`);
    }
    const name = `${cfg.variant} threads=${cfg.threads}${cfg.parallelThreshold === 0 ? ' parallelThreshold=0' : ''}`;
    results.configs.push(name);
    for (const op of OPS) {
      for (let n = 0; n < cases; n++) {
        try {
          runCase(api, op, n, name);
          results.passed++;
        } catch (e) {
          results.failures.push(e.message);
        }
      }
    }
    api.dispose();
  }
  document.body.dataset.status = 'done';
} catch (e) {
  results.error = `${e.name}: ${e.message}`;
  document.body.dataset.status = 'error';
}
window.__randomResults = results;
log.textContent = `${results.passed} passed, ${results.failures.length} failed (${results.configs.join('; ')})\n` +
  results.failures.slice(0, 20).join('\n') + (results.error ? `\n${results.error}` : '');
