// Browser tests: serve the repo with scripts/serve.mjs (its headers checked here), and in every
// engine of tests/browsers/engines.mjs (Chromium, Firefox ESR, WebKitGTK with and without
// shared memory), cross-origin isolated and not: the seeded random cases against the reference,
// then the packed package on a page with an import map, in dedicated Web Workers, and bundled by
// Vite and by webpack 5. What each engine runs (variant, threads) and warns is asserted from the
// engine's expectations. (The demo page has its own test: tests/browsers/demo.test.mjs.)
//
//   node --test tests/browsers/library.test.mjs          (BROWSERS=firefox,webkit to run some engines)
//
// Needs the engines from Debian (see engines.mjs: apt-get install chromium firefox-esr
// webkit2gtk-driver xvfb xauth) and a built library in dist/ (`node scripts/build.mjs`). A missing
// engine's tests are skipped, naming the apt line, except under CI (env CI set), where they fail.

import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { startServer } from '../../scripts/serve.mjs';
import { packAndInstall } from '../package/install.mjs';
import { buildWithWebpack } from '../package/webpack-build.mjs';
import { checkSmokeCounts, smokeSummary } from '../package/smoke-result.mjs';
import { ENGINES, TIMEOUT_MS, expectedInit, launchEngine, openPage, pageLog, skipReason } from './engines.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const RANDOM_CASES = 500;

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

// The packed package (npm pack, installed into a scratch app) and the app bundled by Vite and by
// webpack: made once, for all the engines.
let apps;
function packedApps() {
  apps ??= (async () => {
    const pkg = packAndInstall('browser');
    const { build } = await import('vite');
    const vite = `${pkg.dir}/vite-dist`;
    await build({
      root: `${pkg.app}/vite`, configFile: false, logLevel: 'error',
      build: { outDir: vite, emptyOutDir: true, target: 'es2022',
        rollupOptions: { input: ['index.html', 'smoke.html'].map((f) => `${pkg.app}/vite/${f}`) } },
    });
    const webpack = `${pkg.dir}/webpack-dist`;
    await buildWithWebpack(pkg.app, webpack);
    return { app: pkg.app, vite, webpack };
  })();
  return apps;
}

function checkExample(out, expected) {
  assert.deepEqual(out, { ...expected.info, rows: [5, 6, 1, 2] });
}
function checkSmoke(out, expected) {
  assert.deepEqual(out.info, expected.info);
  checkSmokeCounts(out);
}
// init({ threads: 2 }) where threads run: no warning at all (scripts/build.mjs removes the 3.1.6
// glue's main-thread blocking one). Where they do not: one warning per realm, saying why.
function checkWarnings(warnings, expected, realms = 1) {
  if (!expected.warning) return assert.deepEqual(warnings, []);
  assert.equal(warnings.length, realms, warnings.join('\n'));
  for (const w of warnings) assert.match(w, /^wasm-gather: running on one thread \(variant 'simd'\)/);
  for (const w of warnings) assert.match(w, expected.warning);
}

for (const engine of ENGINES) {
  const skip = skipReason(engine);
  // Skipped test by test, so that the run's summary counts them.
  describe(engine.title, () => {
    let browser;
    before(async () => { if (!skip) browser = await launchEngine(engine); });
    after(() => browser?.close());

    // Opens the page, waits for until(), returns read()'s result with the page's log.
    async function open({ isolation, root, urlPath, until, read }) {
      const { page, server } = await openPage(browser, { isolation, root, urlPath, until });
      try {
        const isolated = await page.evaluate(() => globalThis.crossOriginIsolated === true);
        assert.equal(isolated, isolation, `${urlPath}: crossOriginIsolated`);
        return { ...(await page.evaluate(read)), ...(await pageLog(page, server)) };
      } finally {
        await page.close().catch(() => {});
      }
    }
    const result = (root, urlPath, isolation) => open({
      isolation, root, urlPath,
      until: () => !!document.body?.dataset.result,
      read: () => ({ result: JSON.parse(document.body.dataset.result) }),
    });

    for (const isolation of [true, false]) {
      const expected = expectedInit(engine, isolation);
      const threaded = expected.info.threads > 1;
      const where = `${engine.name}, ${isolation ? 'isolated' : 'not isolated'}`;
      const label = `${isolation ? 'isolated' : 'not isolated'}: ${expected.info.variant}, ` +
        `${expected.info.threads} thread${threaded ? 's' : ''}${expected.warning ? ', a warning' : ''}`;

      // An app's README example (index.html) and smoke suite (smoke.html) under `dir`: the build,
      // threads and warnings this engine gives, no problems; returns the smoke suite's summary.
      async function checkPages(root, dir, what) {
        const example = await result(root, `${dir}index.html`, isolation);
        checkExample(example.result, expected);
        checkWarnings(example.warnings, expected);
        assert.deepEqual(example.problems, []);
        const smoke = await result(root, `${dir}smoke.html`, isolation);
        checkSmoke(smoke.result, expected);
        checkWarnings(smoke.warnings, expected);
        assert.deepEqual(smoke.problems, []);
        return smokeSummary(`${where}, ${what}`, smoke.result);
      }

      // The seeded random cases of tests/lib/random-suite.mjs against the same reference: simd, and
      // where threads run the threaded build with 2 threads (pool forced on too).
      test(`random cases vs reference, ${label}`, { skip, timeout: 4 * TIMEOUT_MS }, async (t) => {
        const state = await open({
          isolation, urlPath: `/tests/browsers/random.html?cases=${RANDOM_CASES}&threaded=${threaded ? 1 : 0}`,
          until: () => ['done', 'error'].includes(document.body.dataset.status),
          read: () => ({ status: document.body.dataset.status, ...window.__randomResults }),
        });
        assert.equal(state.status, 'done', state.error);
        assert.deepEqual(state.configs, threaded
          ? ['simd threads=1', 'simd-threaded threads=2', 'simd-threaded threads=2 parallelThreshold=0']
          : ['simd threads=1']);
        assert.deepEqual(state.failures, [], `${state.failures.length} cases failed`);
        assert.equal(state.passed, state.configs.length * 3 * RANDOM_CASES);
        t.diagnostic(`${where}, random page: ${state.passed} cases passed (${state.configs.join('; ')})`);
        assert.deepEqual(state.warnings, []);
        assert.deepEqual(state.problems, [], 'page errors, console errors or failed requests');
      });

      // The packed package: each page runs its README example and the smoke suite
      // (tests/package/smoke.mjs: seed examples, 300 random cases against the reference,
      // and gatherBlockQuantized's cases).
      test(`the packed package on a page with an import map, ${label}`, { skip, timeout: 2 * TIMEOUT_MS }, async (t) => {
        const { app } = await packedApps();
        t.diagnostic(await checkPages(app, '/browser/', 'import-map page'));
      });

      test(`the packed package in dedicated Web Workers, ${label}`, { skip, timeout: 3 * TIMEOUT_MS }, async (t) => {
        const { app } = await packedApps();
        // Firefox's own `new Worker()` inside a dedicated worker sometimes never returns
        // (docs/toolchain.md): where the page says it stopped there, and only there, it is opened once more.
        const page = () => result(app, '/browser/worker.html', isolation);
        const { result: r, warnings, problems } = await page().catch((e) => {
          if (engine.name !== 'firefox' || !/at its step: inside new Worker\(\)/.test(e.message)) throw e;
          t.diagnostic(`opened again: ${e.message}`);
          return page();
        });
        checkExample(r.example, expected);
        checkSmoke(r.smoke, expected);
        assert.equal(r.workersMade, expected.info.threads - 1, 'the smoke worker made its pool\'s workers and no other');
        // Each worker is its own realm with its own module: one warning each.
        checkWarnings(warnings, expected, 2);
        assert.deepEqual(problems, []);
        t.diagnostic(smokeSummary(`${where}, dedicated worker`, r.smoke));
      });

      for (const bundler of ['vite', 'webpack']) {
        test(`an app bundled by ${bundler === 'vite' ? 'Vite' : 'webpack 5'}, ${label}`, { skip, timeout: 2 * TIMEOUT_MS }, async (t) => {
          t.diagnostic(await checkPages((await packedApps())[bundler], '/', `${bundler} app`));
        });
      }
    }
  });

  if (skip && process.env.CI) {
    test(`${engine.title} is installed (required under CI)`, () => assert.fail(skip));
  }
}
