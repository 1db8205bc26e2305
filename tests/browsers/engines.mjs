// One driver layer for the browser tests: the three engines, each launched from Debian's
// packages (never downloaded), behind the same small page API, so a test is written once.
//   chromium    Chromium (V8) through playwright-core
//   firefox     Firefox ESR (SpiderMonkey) through puppeteer-core over WebDriver BiDi
//   webkit      WebKitGTK's MiniBrowser (JavaScriptCore) through WebKitWebDriver, under xvfb-run;
//               JavaScriptCore's useSharedArrayBuffer is off, so no threads even when isolated
//   webkit-sab  the same with JSC_useSharedArrayBuffer=1: shared memory as Safari has it
// BROWSERS=chromium,firefox limits a run to some of them. A missing engine skips its tests with
// the apt line that installs it, except under CI (env CI set), where its tests fail.
//
// Page API: goto(url), evaluate(fn, arg), waitFor(fn, arg, ms), click/fill/select/hover(selector),
// screenshot(file), close(). Consoles and errors of a page and its workers are read from the
// page itself (page-log.mjs); failed requests from the test server.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { startServer } from '../../scripts/serve.mjs';
import { injectPageLog } from './page-log.mjs';
import { WebDriverSession, waitForDriver } from './webdriver.mjs';

export const TIMEOUT_MS = 60_000;
const VIEWPORT = { width: 1400, height: 900 };
const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];
const MINIBROWSER = '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';

const NOT_ISOLATED = /: the page is not cross-origin isolated \(serve it with Cross-Origin-Opener-Policy/;
const NO_SHARING = /: the page is cross-origin isolated, but this engine cannot share memory with workers \(posting shared memory to a worker throws DataCloneError\)$/;

const webkit = (name, env, title) => ({
  name, title, env,
  files: { MiniBrowser: process.env.MINIBROWSER_PATH || MINIBROWSER, WebKitWebDriver: '/usr/bin/WebKitWebDriver', 'xvfb-run': '/usr/bin/xvfb-run' },
  apt: 'webkit2gtk-driver xvfb xauth',
  launch: launchWebKit,
});

/**
 * The engines, with what each must do: threads(isolated) says whether the threaded build runs
 * there, oneThreadWarning(isolated) the warning init({ threads: 2 }) gives where it does not.
 */
export const ENGINES = [
  { name: 'chromium', title: 'Chromium', files: { chromium: process.env.CHROMIUM_PATH || '/usr/bin/chromium' }, apt: 'chromium',
    launch: launchChromium, threads: (isolated) => isolated, oneThreadWarning: () => NOT_ISOLATED },
  { name: 'firefox', title: 'Firefox ESR', files: { 'firefox-esr': process.env.FIREFOX_PATH || '/usr/bin/firefox-esr' }, apt: 'firefox-esr',
    launch: launchFirefox, threads: (isolated) => isolated, oneThreadWarning: () => NOT_ISOLATED },
  { ...webkit('webkit', {}, 'WebKitGTK'),
    threads: () => false, oneThreadWarning: (isolated) => (isolated ? NO_SHARING : NOT_ISOLATED) },
  // With the option on, JavaScriptCore shares memory with workers whether or not the page is
  // isolated (Safari itself only offers SharedArrayBuffer on isolated pages).
  { ...webkit('webkit-sab', { JSC_useSharedArrayBuffer: '1' }, 'WebKitGTK, JSC_useSharedArrayBuffer=1'),
    threads: () => true, oneThreadWarning: () => null },
].filter((e) => !process.env.BROWSERS || process.env.BROWSERS.split(',').includes(e.name));

/** What init({ threads: 2 }) gives in `engine`: { info, warning } (warning: a RegExp or null). */
export function expectedInit(engine, isolated) {
  return engine.threads(isolated)
    ? { info: { variant: 'simd-threaded', threads: 2, simd: true }, warning: null }
    : { info: { variant: 'simd', threads: 1, simd: true }, warning: engine.oneThreadWarning(isolated) };
}

/** false, or why the engine's tests are skipped (naming the install command). */
export function skipReason(engine) {
  const missing = Object.entries(engine.files).filter(([, f]) => !fs.existsSync(f));
  if (missing.length === 0) return false;
  return `${engine.title}: ${missing.map(([what, f]) => `${what} not found at ${f}`).join(', ')} ` +
    `(apt-get install ${engine.apt}, as .ci/run does)`;
}

/** A server for a test page: serve.mjs with the page log put in, recording failed requests. */
async function startTestServer({ isolation, root }) {
  const server = await startServer({ port: 0, isolation, root, rewrite: injectPageLog });
  server.failed = [];
  server.server.on('request', (req, res) => res.on('finish', () => {
    if (res.statusCode >= 400) server.failed.push(`HTTP ${res.statusCode}: ${req.url}`);
  }));
  return server;
}

/** Reads the page's log: { warnings, problems } (problems include the server's failed requests). */
export async function pageLog(page, server) {
  const log = (await page.evaluate(() => globalThis.__pageLog)) ?? { warnings: [], problems: ['no page log'] };
  return { warnings: log.warnings, problems: [...log.problems, ...server.failed] };
}

/**
 * Opens `urlPath` of a fresh test server in a new page and waits until until() is true in it.
 * Returns { page, server }; the caller closes the page (servers close with the engine).
 */
export async function openPage(browser, { isolation, root, urlPath, until }) {
  const server = await startTestServer({ isolation, root });
  browser.servers.push(server);
  const page = await browser.newPage();
  try {
    await page.goto(new URL(urlPath, `http://localhost:${server.port}/`).href);
    await page.waitFor(until, undefined, TIMEOUT_MS).catch(async (e) => {
      const log = await pageLog(page, server).catch(() => ({}));
      // where the page got to, if it says (data-step on its body)
      const step = await page.evaluate(() => document.body?.dataset.step ?? null).catch(() => null);
      throw new Error(`${urlPath}: ${e.message}${step ? `, at: ${step}` : ''} (${JSON.stringify(log)})`);
    });
    return { page, server };
  } catch (e) {
    await page.close().catch(() => {});
    throw e;
  }
}

/** Launches the engine; resolves to { newPage(), servers, close() }. */
export async function launchEngine(engine) {
  // Every page the tests open loads the library's build.
  const dist = new URL('../../dist/', import.meta.url);
  if (!fs.existsSync(dist) || !fs.readdirSync(dist).some((f) => f.endsWith('.wasm'))) {
    throw new Error('dist/*.wasm missing: run `node scripts/build.mjs` first');
  }
  const browser = await engine.launch(engine);
  const servers = [];
  return {
    servers,
    newPage: () => browser.newPage(),
    async close() {
      await browser.close().catch(() => {});
      for (const s of servers) await s.close();
    },
  };
}

// -- Chromium: playwright-core ---------------------------------------------------------------

async function launchChromium(engine) {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: engine.files.chromium,
    headless: true, args: CHROMIUM_ARGS, timeout: TIMEOUT_MS });
  return {
    close: () => browser.close(),
    async newPage() {
      const page = await browser.newPage({ viewport: VIEWPORT });
      return {
        goto: (url) => page.goto(url, { timeout: TIMEOUT_MS }),
        evaluate: (fn, arg) => page.evaluate(fn, arg),
        waitFor: (fn, arg, ms) => page.waitForFunction(fn, arg, { timeout: ms }),
        click: (sel) => page.click(sel),
        fill: (sel, text) => page.fill(sel, text),
        select: (sel, value) => page.selectOption(sel, value),
        hover: (sel) => page.hover(sel),
        screenshot: (file) => page.screenshot({ path: file, fullPage: true }),
        close: () => page.close(),
      };
    },
  };
}

// -- Firefox: puppeteer-core over WebDriver BiDi ---------------------------------------------

async function launchFirefox(engine) {
  const { default: puppeteer } = await import('puppeteer-core');
  const browser = await puppeteer.launch({ browser: 'firefox', executablePath: engine.files['firefox-esr'],
    headless: true, timeout: TIMEOUT_MS, protocolTimeout: 2 * TIMEOUT_MS });
  return {
    close: () => browser.close(),
    async newPage() {
      const page = await browser.newPage();
      await page.setViewport(VIEWPORT);
      return {
        goto: (url) => page.goto(url, { timeout: TIMEOUT_MS }),
        evaluate: (fn, arg) => page.evaluate(fn, arg),
        waitFor: (fn, arg, ms) => page.waitForFunction(fn, { timeout: ms, polling: 100 }, arg),
        click: (sel) => page.click(sel),
        fill: (sel, text) => page.locator(sel).fill(text),
        select: (sel, value) => page.select(sel, value),
        hover: (sel) => page.hover(sel),
        screenshot: (file) => page.screenshot({ path: file, fullPage: true }),
        close: () => page.close(),
      };
    },
  };
}

// -- WebKitGTK: WebKitWebDriver (W3C WebDriver) under xvfb-run --------------------------------

function setValue([selector, value]) {
  const el = document.querySelector(selector);
  if (!el) throw new Error(`no element ${selector}`);
  el.value = value;
  if (el.value !== value) throw new Error(`${selector} has no option ${value}`);
  for (const type of ['input', 'change']) el.dispatchEvent(new Event(type, { bubbles: true }));
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

// Starts WebKitWebDriver and one MiniBrowser session. With a session per page, a session start
// now and then never answered (twice in some hundreds of starts here, under a full test run; none
// in 40 starts in a row on an idle machine): pages share the one session instead, one at a time,
// each leaving it on about:blank, and a start that fails is tried once more.
async function launchWebKit(engine) {
  try {
    return await startWebKit(engine);
  } catch {
    return startWebKit(engine);
  }
}

async function startWebKit({ env, files }) {
  const port = await freePort();
  // xvfb-run: MiniBrowser needs a display. Loopback only. Its own process group, to end it all.
  const driver = spawn('/usr/bin/xvfb-run', ['-a', '/usr/bin/WebKitWebDriver', `--port=${port}`, '--host=127.0.0.1'], {
    env: { ...process.env, ...env }, detached: true, stdio: 'ignore',
  });
  const base = `http://127.0.0.1:${port}`;
  const stop = () => { try { process.kill(-driver.pid, 'SIGTERM'); } catch { /* already gone */ } };
  let s;
  try {
    await waitForDriver(base, TIMEOUT_MS);
    s = await WebDriverSession.create(base, {
      browserName: 'MiniBrowser',
      'webkitgtk:browserOptions': { binary: files.MiniBrowser, args: ['--automation'] },
    });
    await s.setWindowSize(VIEWPORT.width, VIEWPORT.height);
  } catch (e) {
    stop();
    throw e;
  }
  const evaluate = (fn, arg) => s.execute(`return (${fn}).apply(null, arguments);`, arg === undefined ? [] : [arg]);
  let open = false;
  return {
    async close() {
      await s.close().catch(() => {});
      stop();
    },
    async newPage() {
      if (open) throw new Error('WebKit: one page at a time (the pages share one MiniBrowser session)');
      open = true;
      return {
        goto: (url) => s.goto(url),
        evaluate,
        async waitFor(fn, arg, ms) {
          const end = Date.now() + ms;
          while (!(await evaluate(fn, arg))) {
            if (Date.now() > end) throw new Error(`waitFor timed out after ${ms} ms: ${fn}`);
            await new Promise((r) => setTimeout(r, 100));
          }
        },
        click: (sel) => s.click(sel),
        // As playwright's fill and selectOption do: set the value, then input and change events.
        fill: (sel, text) => evaluate(setValue, [sel, text]),
        select: (sel, value) => evaluate(setValue, [sel, value]),
        hover: (sel) => s.hover(sel),
        screenshot: async (file) => fs.writeFileSync(file, await s.screenshot()),
        async close() {
          open = false;
          await s.goto('about:blank'); // ends the page and its workers
        },
      };
    },
  };
}
