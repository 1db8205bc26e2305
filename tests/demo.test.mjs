// The interactive web demo (web-demo/) in headless Chromium: served by scripts/serve.mjs,
// driven through playwright-core with Debian's Chromium (never a downloaded browser).
//   - no page errors, console errors or failed requests, isolated and not;
//   - every example in the picker renders the right output: seed examples against the values
//     transcribed from the documents (and, for all of them, against common/reference.mjs, or
//     common/reference-quantized.mjs for gatherBlockQuantized), both the output the page computed
//     and the numbers drawn in the output grid;
//   - the self-check passes: every seed, and every gatherBlockQuantized example bit for bit;
//   - hovering an output cell marks its source and index cells, hovering a data cell its outputs;
//     for gatherBlockQuantized also the code's scale, zero point and dequantized value, and
//     hovering a scale marks its block;
//   - a library error is shown inline, and goes away when the input is fixed;
//   - the benchmark panel runs a small workload and shows numbers;
//   - a screenshot is written to build/demo-screenshot.png.
//
//   node --test tests/demo.test.mjs
//
// Needs /usr/bin/chromium (or CHROMIUM_PATH) and a built dist/ (node scripts/build.mjs). Without
// Chromium the tests are skipped, except under CI (env CI set), where they fail.

import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../scripts/serve.mjs';
import { seedExamples } from '../common/seed-examples.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const SCREENSHOT = path.join(ROOT, 'build', 'demo-screenshot.png');
const TIMEOUT_MS = 60_000;
const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

const haveChromium = fs.existsSync(CHROMIUM);
const skipReason = haveChromium ? false : `Chromium not found at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`;

// Numbers as the grid draws them (web-demo/lib/dom.mjs fmtNum, for the integer-valued seeds).
const drawn = (v) => (Object.is(v, -0) ? '-0' : String(v));

describe('web demo in Chromium', { skip: skipReason }, () => {
  let context;
  let userDataDir;
  const servers = [];

  before(async () => {
    const dist = path.join(ROOT, 'dist');
    assert.ok(fs.existsSync(dist) && fs.readdirSync(dist).some((f) => f.endsWith('.wasm')),
      'dist/*.wasm missing: run `node scripts/build.mjs` first');
    const { chromium } = await import('playwright-core');
    userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wasm-gather-demo-'));
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, timeout: TIMEOUT_MS,
      viewport: { width: 1400, height: 900 },
    });
  });

  after(async () => {
    await context?.close().catch(() => {});
    for (const s of servers) await s.close();
    if (userDataDir) fs.rmSync(userDataDir, { recursive: true, force: true });
  });

  /** Opens the demo from a fresh server; resolves once the page has checked the seeds. */
  async function open(isolation) {
    const server = await startServer({ port: 0, isolation });
    servers.push(server);
    const page = await context.newPage();
    const problems = [];
    page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
    page.on('console', (msg) => { if (msg.type() === 'error') problems.push(`console.error: ${msg.text()}`); });
    page.on('requestfailed', (req) => problems.push(`request failed: ${req.url()} (${req.failure()?.errorText})`));
    page.on('response', (res) => { if (res.status() >= 400) problems.push(`HTTP ${res.status()}: ${res.url()}`); });
    await page.goto(server.url, { timeout: TIMEOUT_MS });
    await page.waitForFunction(() => ['done', 'error'].includes(document.body.dataset.status), null, { timeout: TIMEOUT_MS });
    const state = await page.evaluate(() => ({
      status: document.body.dataset.status,
      error: document.querySelector('#error').hidden ? null : document.querySelector('#error').textContent,
      isolated: globalThis.crossOriginIsolated === true,
      info: window.__wasmGatherDemo.info,
      passed: window.__wasmGatherDemo.passed,
      total: window.__wasmGatherDemo.total,
      quantizedTotal: window.__wasmGatherDemo.quantizedTotal,
      failures: window.__wasmGatherDemo.results.filter((r) => !r.pass).map((r) => `${r.title}: ${r.problem}`),
      presets: window.__wasmGatherDemo.playground.presets,
    }));
    assert.equal(state.status, 'done', state.error);
    assert.deepEqual(state.failures, []);
    // Every seed, and every gatherBlockQuantized example against common/reference-quantized.mjs.
    assert.equal(state.quantizedTotal, state.presets.filter((id) => id.startsWith('quantized-')).length);
    assert.ok(state.quantizedTotal >= 3, `gatherBlockQuantized examples checked: ${state.quantizedTotal}`);
    assert.equal(state.total, seedExamples.length + state.quantizedTotal);
    assert.equal(state.passed, state.total);
    return { page, problems, state };
  }

  /**
   * Picks preset `id` in the Example select; returns the page's output, its reference, the grid
   * and (gatherBlockQuantized, whose float16 / bfloat16 output is bits) the text each output cell
   * must show.
   */
  async function pick(page, id) {
    await page.selectOption('#example', id);
    return page.evaluate(async () => {
      const { refOps } = await import('/common/reference.mjs');
      const { caller } = await import('/common/op-caller.mjs');
      const hook = window.__wasmGatherDemo.playground;
      const { op, data, indices, attrs, scales, zeroPoints } = hook.call();
      let r;
      let shown = null;
      if (op === 'gatherBlockQuantized') {
        const q = await import('/common/reference-quantized.mjs');
        const { quantOpts } = await import('/web-demo/lib/ops.mjs');
        const { fmtNum } = await import('/web-demo/lib/dom.mjs');
        r = q.refGatherBlockQuantized(data, indices, scales, quantOpts(attrs, zeroPoints));
        const decode = r.data instanceof Float32Array ? (v) => v : attrs.scaleType === 'bfloat16' ? q.bf16ToF32 : q.f16ToF32;
        shown = Array.from(r.data, (v) => fmtNum(decode(v)));
      } else {
        r = caller(refOps, { op, opts: attrs })(data, indices);
      }
      const cells = [...document.querySelectorAll('#picture .cell[data-role=out]')]
        .map((c) => [Number(c.dataset.flat), c.textContent]);
      return {
        ...hook.state(),
        op,
        reference: { data: Array.from(r.data, Number), shape: Array.from(r.shape) },
        shown,
        cells,
        playgroundState: document.querySelector('#playground').dataset.state,
      };
    });
  }

  test('isolated (simd-threaded): examples, hover, errors, benchmark, screenshot', { timeout: 2 * TIMEOUT_MS }, async () => {
    const { page, problems, state } = await open(true);
    try {
      assert.equal(state.isolated, true);
      assert.equal(state.info.variant, 'simd-threaded');
      assert.ok(state.info.threads > 1, `threads = ${state.info.threads}`);
      assert.match(await page.textContent('#bench-runtime'), /simd-threaded with \d+ threads .*cross-origin isolated/);

      // Every example in the picker: all the seeds, and the starters.
      const seedIds = seedExamples.map((_, i) => `seed-${i}`);
      assert.deepEqual(state.presets.filter((id) => id.startsWith('seed-')), seedIds);
      assert.ok(state.presets.length > seedIds.length, 'starter examples missing');
      for (const id of state.presets) {
        const r = await pick(page, id);
        const ex = id.startsWith('seed-') ? seedExamples[Number(id.slice(5))] : null;
        const what = ex ? `${id} (${ex.title})` : id;
        assert.equal(r.error, null, `${what}: ${r.error}`);
        assert.equal(r.playgroundState, 'ok', what);
        assert.equal(r.presetId, id);
        assert.deepEqual(r.output.shape, r.reference.shape, `${what}: shape vs reference`);
        assert.deepEqual(r.output.data, r.reference.data, `${what}: values vs common/reference.mjs`);
        if (ex) {
          assert.deepEqual(r.output.shape, ex.expected.shape, `${what}: shape vs the document`);
          if (ex.expected.data) assert.deepEqual(r.output.data, ex.expected.data, `${what}: values vs the document`);
        }
        // The grid draws what was computed (all of it for small outputs, the first cells of large ones).
        assert.ok(r.cells.length > 0 || r.output.data.length === 0, `${what}: no output cells drawn`);
        if (r.output.data.length <= 100) assert.equal(r.cells.length, r.output.data.length, `${what}: cells drawn`);
        for (const [flat, text] of r.cells) {
          assert.equal(text, r.shown ? r.shown[flat] : drawn(r.output.data[flat]), `${what}: output cell ${flat}`);
        }
      }

      // Hover: OpenVINO example 5 (gatherND slices, batch_dims 1); output[0, 0] = params[0, 1, 0].
      await pick(page, 'seed-17');
      const hover = async (role, flat) => {
        await page.hover(`#picture .cell[data-role=${role}][data-flat="${flat}"]`);
        return page.evaluate(() => ({ ...document.querySelector('#picture').dataset, info: document.querySelector('#hover-info').textContent }));
      };
      let h = await hover('out', 0);
      assert.deepEqual([h.hlData, h.hlIndices, h.hlOut], ['1', '1', '1'], JSON.stringify(h));
      assert.match(h.info, /output\[0, 0\] ← params\[0, 1, 0\], chosen by indices\[0, :\] = \(1\)/);
      assert.match(await page.getAttribute('#picture .cell[data-role=data][data-flat="4"]', 'class'), /\bhl\b/);
      h = await hover('data', 12); // params[1, 0, 0] = 13 -> output[1, 0]
      assert.deepEqual([h.hlData, h.hlIndices, h.hlOut], ['1', '1', '1'], JSON.stringify(h));
      assert.match(h.info, /params\[1, 0, 0\] = 13 → output \[1, 0\]/);
      h = await hover('indices', 1); // indices[1, 0] = 0 chose output row 1: 4 cells
      assert.equal(h.hlOut, '4', JSON.stringify(h));
      h = await hover('data', 0); // not gathered
      assert.equal(h.hlOut, '0');
      assert.match(h.info, /not gathered/);

      assert.ok(state.presets.some((id) => id.startsWith('quantized-')), 'no gatherBlockQuantized example');

      // gatherBlockQuantized, 4-bit table [6, 24] in blocks of 16, rows 4, -1, 1: the codes, the
      // scales and the dequantized table are drawn, the gathered rows coloured, blocks marked.
      let q = await pick(page, 'quantized-0');
      assert.deepEqual(q.output.shape, [3, 24]);
      const counts = await page.evaluate(() => {
        const n = (sel) => document.querySelectorAll(`#picture ${sel}`).length;
        return {
          codes: n('.cell[data-role=data]'), scales: n('.cell[data-role=scales]'), table: n('.cell[data-role=table]'),
          paintedCodes: n('.cell.painted[data-role=data]'), paintedTable: n('.cell.painted[data-role=table]'),
          paintedScales: n('.cell.painted[data-role=scales]'), blockStarts: n('.cell.block-start[data-role=data]'),
          call: document.querySelector('#call').textContent,
        };
      });
      assert.deepEqual(counts, {
        codes: 144, scales: 12, table: 144, paintedCodes: 72, paintedTable: 72, paintedScales: 6, blockStarts: 6,
        call: 'gatherBlockQuantized(data, indices, scales, { bits: 4, blockSize: 16 })',
      });
      h = await hover('out', 5); // output[0, 5] <- row 4, column 5: block [4, 0], scale 0.5
      assert.deepEqual([h.hlData, h.hlTable, h.hlScales, h.hlIndices, h.hlOut], ['1', '1', '1', '1', '1'], JSON.stringify(h));
      assert.match(h.info, /^output\[0, 5\] ← codes\[4, 5\], chosen by indices\[0\] = 4 \(axis 0\): \(q (\d+) − zero point 8 \(default\)\) × scale 0\.5 = (\S+) \(block \[4, 0\]\)$/);
      const [, qv, value] = /\(q (\d+) .* = (\S+) \(/.exec(h.info);
      assert.equal(Number(value), (Number(qv) - 8) * 0.5);
      assert.equal(Number(value), q.output.data[5]);
      h = await hover('scales', 8); // scales[4, 0]: the first 16 codes of row 4, gathered once
      assert.deepEqual([h.hlData, h.hlTable, h.hlOut, h.hlIndices], ['16', '16', '16', '1'], JSON.stringify(h));
      assert.match(h.info, /^scales\[4, 0\] = 0\.5 → output \[0, 0\], \[0, 1\]/);
      h = await hover('data', 0); // row 0 is not gathered
      assert.equal(h.hlOut, '0');
      assert.match(h.info, /codes\[0, 0\] = \d+: not gathered/);
      // A bad block size is the library's RangeError, inline; a good one fixes it.
      await page.fill('#attr-blocksize', '24');
      await page.waitForFunction(() => document.querySelector('#playground').dataset.state === 'error');
      assert.match(await page.textContent('#op-error'), /^RangeError gatherBlockQuantized: opts\.blockSize 24 must be a power of 2, at least 16/);
      await page.fill('#attr-blocksize', '32'); // blocks of 32: scales [6, 1] now
      await page.waitForFunction(() => document.querySelector('#playground').dataset.state === 'error');
      assert.match(await page.textContent('#op-error'), /gatherBlockQuantized: .*scales/);
      await page.fill('#scales-values', '[0.5, 0.25, 1, 0.125, 2, 0.25]');
      await page.fill('#scales-shape', '6, 1');
      await page.waitForFunction(() => document.querySelector('#playground').dataset.state === 'ok');
      q = await pick(page, 'quantized-0'); // back to the preset
      assert.equal(q.error, null);
      // The int4 example: float16 output (bits), drawn as values.
      q = await pick(page, 'quantized-1');
      assert.equal(q.error, null);
      assert.match(await page.textContent('#out-text'), /^float16 \(a Uint16Array of its bits\) \[2, 2, 20\]/);
      // 2-bit along axis 1 with 'zero': index 25 is out of range, its output column zeroed.
      await pick(page, 'quantized-2');
      assert.equal(await page.locator('#picture .cell.zeroed[data-role=out]').count(), 3);

      // 'zero' starter: the out-of-range tuple's output row is drawn as zeroed.
      const zeroId = 'starter-4';
      await pick(page, zeroId);
      assert.equal(await page.locator('#picture .cell.zeroed[data-role=out]').count(), 2);

      // Editing: an out-of-range index is the library's RangeError, inline; 'clamp' fixes it.
      await pick(page, 'seed-0');
      await page.fill('#indices-values', '[[0, 0], [1, 5]]');
      await page.waitForFunction(() => document.querySelector('#playground').dataset.state === 'error');
      const err = await page.textContent('#op-error');
      assert.match(err, /^RangeError gatherND: indices\[1, 1\] = 5 is out of range/);
      await page.selectOption('#attr-oor', 'clamp');
      await page.waitForFunction(() => document.querySelector('#playground').dataset.state === 'ok');
      assert.equal(await page.isHidden('#op-error'), true);
      assert.deepEqual((await page.evaluate(() => window.__wasmGatherDemo.playground.state())).output, { data: [1, 4], shape: [2] });
      await page.fill('#indices-values', '[[0, 0], [1, x]]');
      await page.waitForFunction(() => document.querySelector('#playground').dataset.state === 'error');
      assert.match(await page.textContent('#op-error'), /ParseError indices: 'x' is not a number/);

      // Benchmark: W5 (small) only.
      await page.locator('#bench-workloads input:not([value=W5])').evaluateAll((xs) => xs.forEach((x) => { x.checked = false; }));
      await page.click('#bench-form button');
      await page.waitForFunction(() => ['done', 'error'].includes(document.querySelector('#bench').dataset.status), null, { timeout: 30_000 });
      const bench = await page.evaluate(() => ({
        status: document.querySelector('#bench').dataset.status,
        text: document.querySelector('#bench-status').textContent,
        ms: [...document.querySelectorAll('#bench-results tr[data-workload=W5] td[data-ms]')].map((td) => Number(td.dataset.ms)),
        check: document.querySelector('#bench-results tr[data-workload=W5] td:last-child')?.textContent,
        bars: document.querySelectorAll('#bench-results svg rect.bar').length,
      }));
      assert.equal(bench.status, 'done', bench.text);
      assert.equal(bench.ms.length, 3);
      assert.ok(bench.ms.every((x) => x > 0 && Number.isFinite(x)), `times ${bench.ms}`);
      assert.equal(bench.check, '✓ identical');
      assert.equal(bench.bars, 3);

      // The screenshot for the closing note: an example with slices, hovered.
      await pick(page, 'seed-17');
      await page.hover('#picture .cell[data-role=out][data-flat="5"]');
      fs.mkdirSync(path.dirname(SCREENSHOT), { recursive: true });
      await page.screenshot({ path: SCREENSHOT, fullPage: true });
      assert.deepEqual(problems, [], 'page errors, console errors or failed requests');
    } finally {
      await page.close().catch(() => {});
    }
  });

  test('not isolated (simd): seeds pass, an example renders, no errors', { timeout: TIMEOUT_MS }, async () => {
    const { page, problems, state } = await open(false);
    try {
      assert.equal(state.isolated, false);
      assert.equal(state.info.variant, 'simd');
      assert.equal(state.info.threads, 1);
      assert.match(await page.textContent('#bench-runtime'), /simd with 1 thread .*not cross-origin isolated/);
      const r = await pick(page, 'seed-10'); // tf batched params and indices, batch_dims = 1 (#1)
      assert.deepEqual(r.output, { data: seedExamples[10].expected.data, shape: seedExamples[10].expected.shape });
      const q = await pick(page, 'quantized-1'); // int4, zero points, float16 scales
      assert.equal(q.error, null);
      assert.deepEqual(q.output, q.reference);
      assert.deepEqual(problems, [], 'page errors, console errors or failed requests');
    } finally {
      await page.close().catch(() => {});
    }
  });
});

if (!haveChromium && process.env.CI) {
  test('Chromium is installed (required under CI)', () => {
    assert.fail(skipReason);
  });
}
