// Browser test: serve the repo with scripts/serve.mjs (its headers checked here), and in
// Debian's Chromium through playwright-core run the seeded random cases, once cross-origin
// isolated (threaded build) and once not (simd build); then the packed package on pages, in
// Web Workers and bundled by Vite. (The demo page has its own test: tests/demo.test.mjs.)
//
//   node --test tests/browser.test.mjs
//
// Needs /usr/bin/chromium (apt package `chromium`; override with CHROMIUM_PATH)
// and a built library in dist/ (`node scripts/build.mjs`). Without Chromium the
// browser tests are skipped, except under CI (env CI set), where they fail.

import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { startServer } from '../scripts/serve.mjs';
import { packAndInstall } from './package/install.mjs';
import { QUANTIZED_CASES } from './fixtures/runtime-smoke.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const PAGE_TIMEOUT_MS = 60_000;
const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

const haveChromium = fs.existsSync(CHROMIUM);
const skipReason = haveChromium
  ? false
  : `Chromium not found at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`;

/** Raw GET with an unnormalised path (fetch would normalise "..") */
function rawGet(port, urlPath) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: urlPath, method: 'GET' }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('scripts/serve.mjs', () => {
  let iso, plain;
  before(async () => {
    iso = await startServer({ port: 0 });
    plain = await startServer({ port: 0, isolation: false });
  });
  after(async () => {
    await iso?.close();
    await plain?.close();
  });

  test('headers, MIME types, redirect', async () => {
    const port = new URL(iso.url).port;
    assert.match(iso.url, /^http:\/\/localhost:\d+\/web-demo\/$/);

    const page = await rawGet(port, '/web-demo/');
    assert.equal(page.status, 200);
    assert.match(page.headers['content-type'], /^text\/html/);
    assert.equal(page.headers['cross-origin-opener-policy'], 'same-origin');
    assert.equal(page.headers['cross-origin-embedder-policy'], 'require-corp');
    assert.equal(page.headers['cross-origin-resource-policy'], 'same-origin');

    const mjs = await rawGet(port, '/web-demo/demo.mjs');
    assert.equal(mjs.status, 200);
    assert.match(mjs.headers['content-type'], /^text\/javascript/);
    assert.match((await rawGet(port, '/web-demo/style.css')).headers['content-type'], /^text\/css/);
    assert.match((await rawGet(port, '/package.json')).headers['content-type'], /^application\/json/);

    const wasm = fs.existsSync(path.join(ROOT, 'dist'))
      ? fs.readdirSync(path.join(ROOT, 'dist')).find((f) => f.endsWith('.wasm'))
      : undefined;
    if (wasm) {
      const w = await rawGet(port, `/dist/${wasm}`);
      assert.equal(w.status, 200);
      assert.equal(w.headers['content-type'], 'application/wasm');
    }

    const root = await rawGet(port, '/');
    assert.equal(root.status, 302);
    assert.equal(root.headers.location, '/web-demo/');
    assert.equal((await rawGet(port, '/web-demo')).status, 301);
    assert.equal((await rawGet(port, '/no/such/file.js')).status, 404);

    const p2 = new URL(plain.url).port;
    const np = await rawGet(p2, '/web-demo/');
    assert.equal(np.status, 200);
    assert.equal(np.headers['cross-origin-opener-policy'], undefined);
    assert.equal(np.headers['cross-origin-embedder-policy'], undefined);
  });

  test('no path traversal outside the repo root', async () => {
    const port = new URL(iso.url).port;
    for (const p of [
      '/../../../../etc/passwd',
      '/web-demo/../../../../etc/passwd',
      '/%2e%2e/%2e%2e/%2e%2e/etc/passwd',
      '/..%2f..%2f..%2f..%2fetc%2fpasswd',
      '/web-demo/..%5c..%5c..%5cetc%5cpasswd',
      '/%00',
    ]) {
      const r = await rawGet(port, p);
      assert.ok(r.status >= 400, `${p} -> ${r.status}`);
      assert.ok(!r.body.toString().includes('root:'), `${p} leaked /etc/passwd`);
    }
  });
});

describe('Chromium: the random cases', { skip: skipReason }, () => {
  let context, userDataDir;
  const servers = [];

  before(async () => {
    const distDir = path.join(ROOT, 'dist');
    assert.ok(
      fs.existsSync(distDir) && fs.readdirSync(distDir).some((f) => f.endsWith('.wasm')),
      'dist/*.wasm missing: run `node scripts/build.mjs` first',
    );
    assert.ok(fs.existsSync(path.join(ROOT, 'common', 'reference.mjs')), 'common/reference.mjs missing');
    const { chromium } = await import('playwright-core');
    userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wasm-gather-chromium-'));
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      timeout: PAGE_TIMEOUT_MS,
    });
  });

  after(async () => {
    await context?.close().catch(() => {});
    for (const s of servers) await s.close();
    if (userDataDir) fs.rmSync(userDataDir, { recursive: true, force: true });
  });

  /**
   * Opens `urlPath` from a fresh server, waits until the page sets body[data-status] to 'done'
   * or 'error', and returns read(page)'s result with the page's problems (errors, failed
   * requests) added.
   */
  async function openPage({ isolation, urlPath, read }) {
    const server = await startServer({ port: 0, isolation });
    servers.push(server);
    const page = await context.newPage();
    const problems = [];
    page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
    page.on('console', (msg) => {
      if (msg.type() === 'error') problems.push(`console.error: ${msg.text()}`);
    });
    page.on('requestfailed', (req) => problems.push(`request failed: ${req.url()} (${req.failure()?.errorText})`));
    page.on('response', (res) => {
      if (res.status() >= 400) problems.push(`HTTP ${res.status()}: ${res.url()}`);
    });
    try {
      await page.goto(new URL(urlPath, server.url).href, { timeout: PAGE_TIMEOUT_MS });
      await page.waitForFunction(
        () => ['done', 'error'].includes(document.body.dataset.status),
        null,
        { timeout: PAGE_TIMEOUT_MS },
      );
      return { ...(await page.evaluate(read)), problems };
    } finally {
      await page.close().catch(() => {});
    }
  }

  // The same seeded random cases as tests/random.test.mjs, against the same reference, in the
  // browser: simd, and when isolated the threaded build with 2 threads (pool forced on too).
  for (const isolation of [true, false]) {
    test(`random cases vs reference in Chromium (${isolation ? 'isolated: simd + simd-threaded' : 'not isolated: simd'})`,
      { timeout: 4 * PAGE_TIMEOUT_MS }, async () => {
        const cases = 500;
        const state = await openPage({
          isolation,
          urlPath: `/tests/browser/random.html?cases=${cases}`,
          read: () => ({ status: document.body.dataset.status, isolated: globalThis.crossOriginIsolated === true, ...window.__randomResults }),
        });
        assert.equal(state.status, 'done', state.error);
        assert.equal(state.isolated, isolation);
        assert.deepEqual(state.configs, isolation
          ? ['simd threads=1', 'simd-threaded threads=2', 'simd-threaded threads=2 parallelThreshold=0']
          : ['simd threads=1']);
        assert.deepEqual(state.failures, [], `${state.failures.length} cases failed`);
        assert.equal(state.passed, state.configs.length * 3 * cases);
        assert.deepEqual(state.problems, [], 'page errors, console errors or failed requests');
      });
  }

});

// The packed package (npm pack, installed into a scratch app) in Chromium: a page importing it
// through an import map, isolated (threads) and not (one thread, one warning), inside dedicated
// workers, and an app bundled by Vite. Each runs its README example and the smoke suite
// (tests/fixtures/runtime-smoke.mjs: seed examples, 300 random cases against the reference, and
// gatherBlockQuantized's cases).
describe('Chromium: the packed package', { skip: skipReason }, () => {
  let browser, pkg, viteDist;
  const servers = [];

  before(async () => {
    pkg = packAndInstall('browser');
    const { build } = await import('vite');
    viteDist = `${pkg.dir}/vite-dist`;
    await build({
      root: `${pkg.app}/vite`, configFile: false, logLevel: 'error',
      build: { outDir: viteDist, emptyOutDir: true, target: 'es2022',
        rollupOptions: { input: ['index.html', 'smoke.html'].map((f) => `${pkg.app}/vite/${f}`) } },
    });
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, timeout: PAGE_TIMEOUT_MS });
  });

  after(async () => {
    await browser?.close().catch(() => {});
    for (const s of servers) await s.close();
  });

  // Opens root/urlPath, waits for body[data-result]; returns it with the page's warnings and problems.
  async function open(root, urlPath, isolation) {
    const server = await startServer({ port: 0, isolation, root });
    servers.push(server);
    const page = await browser.newPage();
    const warnings = [];
    const problems = [];
    page.on('console', (msg) => {
      if (msg.type() === 'warning') warnings.push(msg.text());
      if (msg.type() === 'error') problems.push(`console.error: ${msg.text()}`);
    });
    page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
    page.on('response', (res) => { if (res.status() >= 400) problems.push(`HTTP ${res.status()}: ${res.url()}`); });
    try {
      await page.goto(new URL(urlPath, server.url).href, { timeout: PAGE_TIMEOUT_MS });
      await page.waitForFunction(() => document.body?.dataset.result, null, { timeout: PAGE_TIMEOUT_MS })
        .catch((e) => { throw new Error(`${urlPath}: no result (${problems.join('; ') || e.message})`); });
      return {
        result: JSON.parse(await page.evaluate(() => document.body.dataset.result)),
        isolated: await page.evaluate(() => globalThis.crossOriginIsolated === true),
        warnings, problems,
      };
    } finally {
      await page.close().catch(() => {});
    }
  }

  const threadsFor = (isolation) => (isolation ? { variant: 'simd-threaded', threads: 2, simd: true } : { variant: 'simd', threads: 1, simd: true });
  function checkExample(out, isolation) {
    assert.deepEqual(out, { ...threadsFor(isolation), rows: [5, 6, 1, 2] });
  }
  function checkSmoke(out, isolation) {
    assert.deepEqual(out.info, threadsFor(isolation));
    assert.deepEqual(out.seeds.failures, []);
    assert.ok(out.seeds.total >= 20 && out.seeds.passed === out.seeds.total, JSON.stringify(out.seeds));
    assert.deepEqual(out.random.failures, []);
    assert.equal(out.random.passed, 300);
    assert.deepEqual(out.quantized.failures, []);
    assert.equal(out.quantized.passed, 2 * QUANTIZED_CASES);
    assert.match(out.error, /^RangeError: take: indices\[0\] = 3 is out of range/);
  }
  // Asking for 2 threads on a page that is not isolated warns once, saying why; an isolated page
  // gets no warning at all (scripts/build.mjs removes the 3.1.6 glue's main-thread blocking one).
  function checkWarnings(warnings, isolation) {
    if (isolation) assert.deepEqual(warnings, []);
    else {
      assert.equal(warnings.length, 1, warnings.join('\n'));
      assert.match(warnings[0], /^wasm-gather: running on one thread \(variant 'simd'\): the page is not cross-origin isolated/);
    }
  }

  for (const isolation of [true, false]) {
    const label = isolation ? 'cross-origin isolated: simd-threaded, 2 threads' : 'not isolated: simd, 1 thread, one warning';
    test(`a page with an import map, ${label}`, { timeout: 2 * PAGE_TIMEOUT_MS }, async () => {
      const example = await open(pkg.app, '/browser/index.html', isolation);
      assert.equal(example.isolated, isolation);
      checkExample(example.result, isolation);
      checkWarnings(example.warnings, isolation);
      assert.deepEqual(example.problems, []);
      const smoke = await open(pkg.app, '/browser/smoke.html', isolation);
      checkSmoke(smoke.result, isolation);
      checkWarnings(smoke.warnings, isolation);
      assert.deepEqual(smoke.problems, []);
    });

    test(`dedicated Web Workers, ${label}`, { timeout: 2 * PAGE_TIMEOUT_MS }, async () => {
      const { result, warnings, problems } = await open(pkg.app, '/browser/worker.html', isolation);
      checkExample(result.example, isolation);
      checkSmoke(result.smoke, isolation);
      // Each worker is its own realm with its own module: one warning each when not isolated.
      const ours = warnings.filter((w) => w.startsWith('wasm-gather:'));
      assert.equal(ours.length, isolation ? 0 : 2, ours.join('\n'));
      assert.deepEqual(problems, []);
    });

    test(`an app bundled by Vite, ${label}`, { timeout: 2 * PAGE_TIMEOUT_MS }, async () => {
      const example = await open(viteDist, '/index.html', isolation);
      checkExample(example.result, isolation);
      checkWarnings(example.warnings, isolation);
      assert.deepEqual(example.problems, []);
      const smoke = await open(viteDist, '/smoke.html', isolation);
      checkSmoke(smoke.result, isolation);
      checkWarnings(smoke.warnings, isolation);
      assert.deepEqual(smoke.problems, []);
    });
  }
});

if (!haveChromium && process.env.CI) {
  test('Chromium is installed (required under CI)', () => {
    assert.fail(skipReason);
  });
}
