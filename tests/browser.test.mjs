// Browser test: serve the repo with scripts/serve.mjs, open the web demo in
// Debian's Chromium through playwright-core and check that every seed example
// passes, once cross-origin isolated (threaded build) and once not (simd build).
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

describe('Chromium: the demo and the random cases', { skip: skipReason }, () => {
  let context, userDataDir;
  const servers = [];

  before(async () => {
    const distDir = path.join(ROOT, 'dist');
    assert.ok(
      fs.existsSync(distDir) && fs.readdirSync(distDir).some((f) => f.endsWith('.wasm')),
      'dist/*.wasm missing: run `node scripts/build.mjs` first',
    );
    assert.ok(fs.existsSync(path.join(ROOT, 'tests', 'seed-examples.mjs')), 'tests/seed-examples.mjs missing');
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
  async function openPage({ isolation, urlPath = '/web-demo/', read }) {
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

  /** Open the demo, wait until it finishes, return its state. */
  function runDemo({ isolation }) {
    return openPage({
      isolation,
      read: () => ({
        status: document.body.dataset.status,
        error: document.querySelector('#error')?.hidden ? null : document.querySelector('#error')?.textContent,
        passed: Number(document.body.dataset.passed),
        total: Number(document.body.dataset.total),
        summary: document.querySelector('#summary')?.textContent,
        isolated: globalThis.crossOriginIsolated === true,
        info: window.__wasmGatherDemo?.info ?? null,
        failures: (window.__wasmGatherDemo?.results ?? [])
          .filter((r) => !r.pass)
          .map((r) => `${r.title} [${r.op}]: ${r.problem}`),
      }),
    });
  }

  function assertAllPass(state) {
    assert.equal(state.status, 'done', `demo ended with status ${state.status}: ${state.error}`);
    assert.ok(state.total > 0, 'the demo ran no examples');
    assert.deepEqual(state.failures, [], `failing examples (${state.summary})`);
    assert.equal(state.passed, state.total, state.summary);
    assert.deepEqual(state.problems, [], 'page errors, console errors or failed requests');
  }

  test('cross-origin isolated: simd-threaded build, all examples pass', { timeout: 2 * PAGE_TIMEOUT_MS }, async () => {
    const state = await runDemo({ isolation: true });
    assert.equal(state.isolated, true, 'page should be crossOriginIsolated');
    assertAllPass(state);
    assert.equal(state.info.variant, 'simd-threaded');
    assert.ok(state.info.threads > 1, `threads = ${state.info.threads}, expected > 1`);
    assert.equal(state.info.simd, true);
  });

  test('not isolated: simd build, all examples pass', { timeout: 2 * PAGE_TIMEOUT_MS }, async () => {
    const state = await runDemo({ isolation: false });
    assert.equal(state.isolated, false, 'page should not be crossOriginIsolated');
    assertAllPass(state);
    assert.equal(state.info.variant, 'simd');
    assert.equal(state.info.simd, true);
  });
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

if (!haveChromium && process.env.CI) {
  test('Chromium is installed (required under CI)', () => {
    assert.fail(skipReason);
  });
}
