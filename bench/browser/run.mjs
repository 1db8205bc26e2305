// The browser benchmark: `npm run bench -- --browser`. Bundles the in-page peers
// (onnxruntime-web, tfjs-core with tfjs-backend-wasm) with esbuild into build/bench-browser/,
// serves the repository (scripts/serve.mjs), and runs bench/browser/bench.html in Debian's
// headless Chromium twice: on a cross-origin isolated page (wasm-gather simd-threaded and
// onnxruntime-web at 2 threads) and on a plain page (simd, 1 thread); then, on the isolated page
// (whose clock has 5 µs steps), the C suite's rows (runCallBench: simd, 1 thread). bench/run.mjs
// writes bench/results-browser.json; docs/benchmarks.md shows it as its B section and in its C
// section (bench/lib/report.mjs).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../../scripts/serve.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync'];

async function bundlePeers() {
  const esbuild = await import('esbuild');
  const dir = join(root, 'build', 'bench-browser');
  mkdirSync(dir, { recursive: true });
  const entry = join(dir, 'peers-entry.mjs');
  writeFileSync(entry, [
    "export * as tf from '@tensorflow/tfjs-core';",
    "export { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';",
    "export * as ort from 'onnxruntime-web';", ''].join('\n'));
  await esbuild.build({ entryPoints: [entry], bundle: true, format: 'esm', platform: 'browser', outfile: join(dir, 'peers.mjs'),
    logLevel: 'error', absWorkingDir: root, nodePaths: [join(root, 'node_modules')] });
  return '/build/bench-browser/peers.mjs';
}

// The C rows' timing in the page: as Node's (bench/call-suite.mjs), shorter when quick.
const C_TIMING = { rounds: 61, batchMs: 3, minCalls: 2000, maxCalls: 20000, warmUpMs: 500 };
const C_QUICK_TIMING = { rounds: 5, batchMs: 1, minCalls: 200, maxCalls: 2000, warmUpMs: 50 };

/**
 * Runs the page isolated and not (w: the W workloads), and the C rows on the isolated page (c);
 * resolves to [{ page, rows }] for W, then { suite: 'C', page, js, rows } for C.
 */
export async function runBrowserBench({ budgetMs = 200, log = console.error, quick = false, w = true, c = true } = {}) {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`);
  const peersPath = await bundlePeers();
  const { chromium } = await import('playwright-core');
  const userDataDir = mkdtempSync(join(os.tmpdir(), 'wasm-gather-bench-'));
  const results = [];
  try {
    for (const isolation of w ? [true, false] : c ? [true] : []) {
      const server = await startServer({ port: 0, isolation });
      const context = await chromium.launchPersistentContext(userDataDir, { executablePath: CHROMIUM, headless: true, args: ARGS });
      try {
        const page = await context.newPage();
        // (a missing resource is reported with its address by the response handler below)
        page.on('console', (m) => { if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) log(`page: ${m.text()}`); });
        page.on('response', (res) => { if (res.status() >= 400 && !res.url().endsWith('/favicon.ico')) log(`page: ${res.status()} ${res.url()}`); });
        await page.goto(new URL('/bench/browser/bench.html', server.url).href);
        await page.waitForFunction(() => window.benchReady === true, null, { timeout: 60000 });
        if (w) {
          const t0 = Date.now();
          const r = await page.evaluate(({ peersUrl, budgetMs }) => window.runBench({ peersUrl, budgetMs }),
            { peersUrl: new URL(peersPath, server.url).href, budgetMs });
          log(`${isolation ? 'isolated' : 'plain'} page: ${r.page.variant}, ${r.page.threads} thread(s), ${((Date.now() - t0) / 1000).toFixed(0)} s`);
          for (const row of r.rows) log(`  ${row.impl.padEnd(58)} ${row.workload.padEnd(4)} ${row.error ?? `${row.medianMs.toFixed(4)} ms`}`);
          results.push(r);
        }
        if (c && isolation) {
          if (w) { // a fresh page: nothing of the W run (its peers, its heap) in the realm
            await page.reload();
            await page.waitForFunction(() => window.benchReady === true, null, { timeout: 60000 });
          }
          const t0 = Date.now();
          const r = await page.evaluate((timing) => window.runCallBench(timing), quick ? C_QUICK_TIMING : C_TIMING);
          if (!r.page.crossOriginIsolated) log('C in the browser: the page is not cross-origin isolated (its clock steps are 100 µs)');
          log(`C, isolated page: ${r.page.variant}, ${r.page.threads} thread(s), ${((Date.now() - t0) / 1000).toFixed(0)} s`);
          log(`  ${'t_js'.padEnd(16)} ${(r.js.medianMs * 1000).toFixed(3)} µs`);
          for (const row of r.rows) log(`  ${`${row.id} ${row.form}`.padEnd(16)} ${(row.medianMs * 1000).toFixed(3)} µs  ${row.ratio.toFixed(3)} of t_js`);
          results.push(r);
        }
      } finally {
        await context.close();
        await server.close();
      }
    }
  } finally {
    rmSync(userDataDir, { recursive: true, force: true });
  }
  return results;
}
