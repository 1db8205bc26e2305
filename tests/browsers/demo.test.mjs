// The interactive web demo (web-demo/) in every engine of tests/browsers/engines.mjs (Chromium,
// Firefox ESR, WebKitGTK with and without shared memory), served by scripts/serve.mjs:
//   - no page errors, console errors or failed requests, isolated and not;
//   - the build and threads the engine runs on that page (engines.mjs), and the page saying so;
//   - every example in the picker renders the right output: seed examples against the values
//     transcribed from the documents (and, for all the gathers, against common/reference.mjs, or
//     common/reference-quantized.mjs for gatherBlockQuantized), the scatters' against the outputs
//     worked out by hand in web-demo/lib/scatter-examples.mjs, both the output the page computed
//     and the numbers drawn in the output grid; the fused gather-reduce's (embeddingBag,
//     segmentReduce) against the outputs worked out by hand in web-demo/lib/bag-examples.mjs and
//     against common/reference-bag.mjs;
//   - the self-check passes: every seed, every gatherBlockQuantized example bit for bit, every
//     scatter example, and every embeddingBag and segmentReduce example;
//   - hovering an output cell marks its source and index cells, hovering a data cell its outputs;
//     for gatherBlockQuantized also the code's scale, zero point and dequantized value, and
//     hovering a scale marks its block;
//   - the scatters: the updates that meet at one position carry their order (1, 2, 3; the last
//     marked as winning with reduce 'none'), hovering a destination marks the updates that hit it
//     and hovering an update its destination; dropped updates are drawn as such;
//   - embeddingBag and segmentReduce: the list of bags shows each output row's table rows, weights
//     and padding (struck out); hovering an output element lights its bag's table rows, numbered
//     in the order they were reduced, padding marked skipped, the weights it used, and for max
//     the element that won; editing the mode, the padding and the form of the bags recomputes;
//   - embeddingBag's backward: picking an output row (the picker, or a click on the row) draws its
//     gradient for the table, the library's embeddingBagBackward with ones in that row, equal to
//     the one worked out by hand, the table rows it reaches outlined and listed with their scale;
//     the self-check compares every output row's gradient of every embeddingBag example with
//     common/reference-bag-backward.mjs;
//   - the masks section (nonZero, booleanMask, compress, maskedScatter): every example renders
//     the output its document prints (or the one worked out by hand in
//     web-demo/lib/mask-examples.mjs) and common/reference-mask.mjs's, both the output the page
//     computed and the numbers drawn; the self-check passes for each; the mask is drawn over x (the
//     elements it keeps outlined, the rest grey); hovering an output element lights the element of
//     x it came from and the mask element that kept it (nonZero: the element its coordinates name,
//     and the coordinates' other components; maskedScatter: the source value it took), hovering a
//     source value the element it went to, unused source values drawn as such; a click pins the
//     highlight; a library error (a mask of the wrong shape, a short source) is shown inline and
//     goes away when fixed; changing the op and the axis recomputes;
//   - examples/yolo-filter/index.html: the kept boxes of the synthetic YOLOv8 head are the plain
//     loop's, bit for bit, and the ones computed here in Node with no wasm; drawn on the canvas;
//     a new threshold recomputes;
//   - a library error is shown inline, and goes away when the input is fixed;
//   - the benchmark panel runs a small workload and shows numbers;
//   - a screenshot per engine is written to build/demo-screenshot-<engine>.png, one of a scatter
//     to build/demo-scatter-screenshot-<engine>.png, one of an embeddingBag to
//     build/demo-bag-screenshot-<engine>.png and one of its backward to
//     build/demo-bag-backward-screenshot-<engine>.png, one of the masks section to
//     build/demo-masks-screenshot-<engine>.png and one of the YOLO example to
//     build/yolo-filter-screenshot-<engine>.png.
//
//   node --test tests/browsers/demo.test.mjs           (BROWSERS=webkit to run some engines)
//
// Needs the engines (engines.mjs names the apt packages) and a built dist/ (node scripts/build.mjs).
// A missing engine's tests are skipped, except under CI (env CI set), where they fail.

import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { seedExamples } from '../../common/seed-examples.mjs';
import { SCATTER_EXAMPLES } from '../../web-demo/lib/scatter-examples.mjs';
import { BAG_EXAMPLES } from '../../web-demo/lib/bag-examples.mjs';
import { MASK_EXAMPLES } from '../../web-demo/lib/mask-examples.mjs';
import { makeHead } from '../../examples/yolo-filter/data.mjs';
import { detect, filterPlain } from '../../examples/yolo-filter/filter.mjs';
import { ENGINES, TIMEOUT_MS, launchEngine, openPage, pageLog, skipReason } from './engines.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const screenshotOf = (engine, what = 'demo') => path.join(ROOT, 'build', `${what}-screenshot-${engine.name}.png`);

// One line for the closing note: what the demo ran on, and its self-check.
const demoSummary = (engine, isolated, state) => `${engine.name}, ${isolated ? 'isolated' : 'not isolated'}, demo: ` +
  `${state.info.variant}, ${state.info.threads} thread(s); self-check ${state.passed}/${state.total} ` +
  `(${seedExamples.length} seed examples, ${state.quantizedTotal} gatherBlockQuantized, ${state.scatterTotal} scatters, ` +
  `${state.bagTotal} embeddingBag / segmentReduce, ${state.gradTotal} embeddingBag backward, ${state.maskTotal} masks)`;

// Numbers as the grid draws them (web-demo/lib/dom.mjs fmtNum, for the integer-valued seeds).
const drawn = (v) => (Object.is(v, -0) ? '-0' : String(v));
// NaN as the page's values come back: WebKit's WebDriver sends JSON, where a NaN is null.
const nans = (t) => t && { ...t, data: t.data.map((v) => (v === null || Number.isNaN(v) ? 'NaN' : v)) };

for (const engine of ENGINES) {
  const skip = skipReason(engine);
  // Skipped test by test, so that the run's summary counts them.
  describe(`web demo in ${engine.title}`, () => {
    let browser;

    before(async () => { if (!skip) browser = await launchEngine(engine); });

    after(() => browser?.close());

    // Small DOM reads through the page API.
    const text = (page, sel) => page.evaluate((s) => document.querySelector(s).textContent, sel);
    const count = (page, sel) => page.evaluate((s) => document.querySelectorAll(s).length, sel);
    const playgroundIs = (page, state) => page.waitFor((st) => document.querySelector('#playground').dataset.state === st, state, TIMEOUT_MS);

    /** Opens the demo from a fresh server; resolves once the page has checked the seeds. */
    async function open(isolation) {
      const { page, server } = await openPage(browser, {
        isolation, urlPath: '/web-demo/', until: () => ['done', 'error'].includes(document.body.dataset.status),
      });
      const state = await page.evaluate(() => ({
        status: document.body.dataset.status,
        error: document.querySelector('#error').hidden ? null : document.querySelector('#error').textContent,
        isolated: globalThis.crossOriginIsolated === true,
        info: window.__wasmGatherDemo.info,
        passed: window.__wasmGatherDemo.passed,
        total: window.__wasmGatherDemo.total,
        quantizedTotal: window.__wasmGatherDemo.quantizedTotal,
        scatterTotal: window.__wasmGatherDemo.scatterTotal,
        bagTotal: window.__wasmGatherDemo.bagTotal,
        gradTotal: window.__wasmGatherDemo.gradTotal,
        maskTotal: window.__wasmGatherDemo.maskTotal,
        maskPresets: window.__wasmGatherDemo.masks.presets,
        failures: window.__wasmGatherDemo.results.filter((r) => !r.pass).map((r) => `${r.title}: ${r.problem}`),
        presets: window.__wasmGatherDemo.playground.presets,
      }));
      assert.equal(state.status, 'done', state.error);
      assert.equal(state.isolated, isolation);
      assert.deepEqual(state.failures, []);
      // Every seed, and every gatherBlockQuantized example against common/reference-quantized.mjs.
      assert.equal(state.quantizedTotal, state.presets.filter((id) => id.startsWith('quantized-')).length);
      assert.ok(state.quantizedTotal >= 3, `gatherBlockQuantized examples checked: ${state.quantizedTotal}`);
      // Every scatter example against the output worked out by hand.
      assert.equal(state.scatterTotal, SCATTER_EXAMPLES.length);
      assert.deepEqual(state.presets.filter((id) => id.startsWith('scatter-')), SCATTER_EXAMPLES.map((_, i) => `scatter-${i}`));
      // Every embeddingBag and segmentReduce example against its worked output and common/reference-bag.mjs.
      assert.equal(state.bagTotal, BAG_EXAMPLES.length);
      assert.deepEqual(state.presets.filter((id) => id.startsWith('bag-')), BAG_EXAMPLES.map((_, i) => `bag-${i}`));
      // Every embeddingBag example's backward (each output row) against common/reference-bag-backward.mjs.
      assert.equal(state.gradTotal, BAG_EXAMPLES.filter((ex) => ex.op === 'embeddingBag').length);
      // Every mask example against its document (or worked output) and common/reference-mask.mjs.
      assert.equal(state.maskTotal, MASK_EXAMPLES.length);
      assert.deepEqual(state.maskPresets, MASK_EXAMPLES.map((_, i) => `mask-${i}`));
      assert.equal(state.total, seedExamples.length + state.quantizedTotal + state.scatterTotal + state.bagTotal + state.gradTotal +
        state.maskTotal);
      assert.equal(state.passed, state.total);
      // The build and threads this engine runs on this page (init() with no options: threads by
      // default where they run, on as many cores as there are, up to 4), and the page says so.
      const threaded = engine.threads(isolation);
      assert.equal(state.info.variant, threaded ? 'simd-threaded' : 'simd');
      if (threaded) assert.ok(state.info.threads > 1, `threads = ${state.info.threads}`);
      else assert.equal(state.info.threads, 1);
      assert.match(await text(page, '#bench-runtime'), new RegExp(`^wasm-gather ${state.info.variant} with ` +
        `${threaded ? '\\d+ threads' : '1 thread'} · page ${isolation ? 'cross-origin isolated' : 'not cross-origin isolated'}` +
        `${threaded ? '' : isolation ? ' \\(this engine does not share memory with workers' : ' \\(no SharedArrayBuffer'}`));
      return { page, server, state };
    }

    /**
     * Picks preset `id` in the Example select; returns the page's output, its reference (none for
     * the scatters: their examples hold their outputs; common/reference-bag.mjs's for the fused
     * gather-reduce), the grid and (gatherBlockQuantized, whose float16 / bfloat16 output is bits,
     * and the fused gather-reduce, whose outputs have fractions) the text each output cell must show.
     */
    async function pick(page, id) {
      await page.select('#example', id);
      return page.evaluate(async () => {
        const { refOps } = await import('/common/reference.mjs');
        const { caller } = await import('/common/op-caller.mjs');
        const { isScatter } = await import('/web-demo/lib/scatter-ops.mjs');
        const { callBag, isBag } = await import('/web-demo/lib/bag-ops.mjs');
        const hook = window.__wasmGatherDemo.playground;
        const { op, data, indices, attrs, scales, zeroPoints } = hook.call();
        let r = null;
        let shown = null;
        if (isScatter(op)) {
          // compared with lib/scatter-examples.mjs by the test
        } else if (isBag(op)) {
          const { refBagOps } = await import('/common/reference-bag.mjs');
          const { fmtNum } = await import('/web-demo/lib/dom.mjs');
          r = callBag(refBagOps, hook.call());
          if (r.maxIndices) r.maxIndices = { data: Array.from(r.maxIndices.data, Number), shape: r.maxIndices.shape };
          shown = Array.from(hook.state().output.data, fmtNum);
        } else if (op === 'gatherBlockQuantized') {
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
          reference: r && { data: Array.from(r.data, Number), shape: Array.from(r.shape), ...(r.maxIndices ? { maxIndices: r.maxIndices } : {}) },
          shown,
          cells,
          playgroundState: document.querySelector('#playground').dataset.state,
        };
      });
    }

    const masksAre = (page, st) => page.waitFor((x) => document.querySelector('#masks').dataset.state === x, st, TIMEOUT_MS);

    /**
     * Picks mask example `id` in the masks section's Example select; returns the section's output,
     * common/reference-mask.mjs's for the same call (computed in the page), the output cells drawn
     * and the text each must show, and the x and mask cells the mask marks true and false.
     */
    async function maskPick(page, id) {
      await page.select('#mask-example', id);
      return page.evaluate(async () => {
        const { refMaskOps } = await import('/common/reference-mask.mjs');
        const { callMask } = await import('/web-demo/lib/mask-ops.mjs');
        const { fmtNum } = await import('/web-demo/lib/dom.mjs');
        const hook = window.__wasmGatherDemo.masks;
        const r = callMask(refMaskOps, hook.call());
        const cells = (sel) => [...document.querySelectorAll(`#mask-picture ${sel}`)].map((c) => Number(c.dataset.flat));
        return {
          ...hook.state(),
          reference: { data: Array.from(r.data, Number), shape: Array.from(r.shape), type: r.data.constructor.name },
          cells: [...document.querySelectorAll('#mask-picture .cell[data-role=out]')].map((c) => [Number(c.dataset.flat), c.textContent]),
          shown: Array.from(hook.state().output.data, fmtNum),
          xTrue: cells('.cell.mask-true[data-role=x]'), xFalse: cells('.cell.mask-false[data-role=x]'),
          maskTrue: cells('.cell.mask-true[data-role=mask]'),
          sectionState: document.querySelector('#masks').dataset.state,
          note: document.querySelector('#mask-example-note').textContent,
          call: document.querySelector('#mask-call').textContent,
        };
      });
    }
    /** Hovers (or clicks) cell (role, flat) of the masks picture; returns what it lit and says. */
    async function maskHover(page, role, flat, how = 'hover') {
      await page[how](`#mask-picture .cell[data-role=${role}][data-flat="${flat}"]`);
      return page.evaluate(() => {
        const lit = (r) => [...document.querySelectorAll(`#mask-picture .cell.hl[data-role=${r}]`)].map((c) => Number(c.dataset.flat));
        return { ...document.querySelector('#mask-picture').dataset, info: document.querySelector('#mask-info').textContent,
          x: lit('x'), mask: lit('mask'), source: lit('source'), out: lit('out') };
      });
    }

    test('isolated: the masks section: examples, the mask over x, output to source, errors, screenshot', { skip, timeout: 2 * TIMEOUT_MS }, async () => {
      const { page, server } = await open(true);
      try {
        // Every example: the document's output (or the one worked out by hand), the reference's, drawn.
        for (const [i, ex] of MASK_EXAMPLES.entries()) {
          const id = `mask-${i}`;
          const what = `${id} (${ex.title})`;
          const r = await maskPick(page, id);
          assert.equal(r.error, null, `${what}: ${r.error}`);
          assert.equal(r.sectionState, 'ok', what);
          assert.equal(r.presetId, id);
          assert.equal(r.op, ex.op, what);
          assert.deepEqual(nans(r.output), nans(ex.expected), `${what}: vs ${ex.byHand ? 'the output worked out by hand' : 'the document'}`);
          assert.deepEqual(r.output, { data: r.reference.data, shape: r.reference.shape }, `${what}: vs common/reference-mask.mjs`);
          assert.match(r.note, /✓ matches the (documented output|output worked out by hand)$/, what);
          assert.equal(r.cells.length, r.output.data.length, `${what}: cells drawn`);
          for (const [flat, text] of r.cells) assert.equal(text, r.shown[flat], `${what}: output cell ${flat}`);
          // The mask over x: every element of x is marked, as kept (or, nonZero, non-zero) or not.
          const xCount = ex.x.data.length;
          assert.equal(r.xTrue.length + r.xFalse.length, xCount, `${what}: x's cells marked`);
        }

        // torch.masked_select's example: the mask x ≥ 0.5 over x, and output[1] = 0.5002 from x[1, 2].
        let r = await maskPick(page, 'mask-7');
        assert.equal(r.call, 'booleanMask(x, mask)');
        assert.deepEqual([r.xTrue, r.maskTrue], [[5, 6, 7, 11], [5, 6, 7, 11]]);
        let h = await maskHover(page, 'out', 1);
        assert.deepEqual([h.hlX, h.hlMask, h.hlOut, h.hlSource], ['1', '1', '1', '0'], JSON.stringify(h));
        assert.deepEqual([h.x, h.mask], [[6], [6]]);
        assert.equal(h.info, 'output[1] = 0.5002 ← x[1, 2] = 0.5002, kept by mask[1, 2] = 1 (true element 2 of 4)');
        h = await maskHover(page, 'x', 0); // not kept
        assert.equal(h.info, 'x[0, 0] = 0.3552: left out (mask[0, 0] = 0 is false)');
        assert.equal(h.hlOut, '0');
        // A click pins output[3]: the pointer leaving the picture keeps it lit; a second click
        // unpins it. (The leaving is dispatched: WebKitGTK's WebDriver moves send no pointerleave.)
        const leave = () => page.evaluate(() => {
          document.querySelector('#mask-picture').dispatchEvent(new PointerEvent('pointerleave'));
          return { ...document.querySelector('#mask-picture').dataset, info: document.querySelector('#mask-info').textContent,
            pinned: [...document.querySelectorAll('#mask-picture .cell.pinned')].map((c) => `${c.dataset.role}:${c.dataset.flat}`),
            lit: document.querySelectorAll('#mask-picture .cell.hl').length };
        });
        await maskHover(page, 'out', 3, 'click');
        h = await leave();
        assert.deepEqual([h.hlX, h.hlOut, h.pinned], ['1', '1', ['out:3']], JSON.stringify(h));
        assert.equal(h.info, 'output[3] = 2.0139 ← x[2, 3] = 2.0139, kept by mask[2, 3] = 1 (true element 4 of 4)');
        await maskHover(page, 'out', 3, 'click');
        h = await leave();
        assert.deepEqual([h.pinned, h.lit, h.hlOut], [[], 0, '0'], JSON.stringify(h));

        // ONNX NonZero: output[1, 2] is a coordinate of x[1, 1]: the element and the column light up.
        r = await maskPick(page, 'mask-0');
        assert.equal(r.call, "nonZero(x, { indexType: 'int64' })");
        assert.equal(r.type, 'int64');
        assert.deepEqual([r.xTrue, r.xFalse], [[0, 2, 3], [1]]);
        h = await maskHover(page, 'out', 5);
        assert.deepEqual([h.x, h.out], [[3], [2, 5]], JSON.stringify(h));
        assert.equal(h.info, 'output[1, 2] = 1: a coordinate of x[1, 1] = 1, non-zero element 3 of 3; its coordinates (1, 1) are output[:, 2]');
        h = await maskHover(page, 'x', 2);
        assert.deepEqual(h.out, [1, 4]);
        // The torch layout: a row an element.
        await page.select('#mask-layout', 'torch');
        await masksAre(page, 'ok');
        assert.deepEqual((await page.evaluate(() => window.__wasmGatherDemo.masks.state())).output, { data: [0, 0, 1, 0, 1, 1], shape: [3, 2] });
        h = await maskHover(page, 'out', 4);
        assert.deepEqual([h.x, h.out], [[3], [4, 5]]);
        assert.match(h.info, /its coordinates \(1, 1\) are output\[2, :\]$/);

        // ONNX Compress along axis 1: output[2, 0] = 6 is input[2, 1], kept by condition[1].
        await maskPick(page, 'mask-11');
        h = await maskHover(page, 'out', 2);
        assert.deepEqual([h.x, h.mask], [[5], [1]]);
        assert.equal(h.info, 'output[2, 0] = 6 ← input[2, 1] = 6, kept by condition[1] = 1 (true element 1 of 1)');
        h = await maskHover(page, 'mask', 1); // the condition's true element keeps column 1
        assert.deepEqual([h.x, h.out], [[1, 3, 5], [0, 1, 2]]);
        // No axis: the input flattened; the condition [0, 1, 0, 0, 1] shorter than its 6 elements.
        await maskPick(page, 'mask-12');
        h = await maskHover(page, 'x', 5);
        assert.equal(h.info, 'input[2, 1] = 6: left out, past the 5 elements of condition');

        // masked_scatter: output[1, 0] = 2 took source[0, 2]; a source value lights where it went.
        r = await maskPick(page, 'mask-15');
        assert.deepEqual(r.xTrue, [3, 4, 5, 6, 8, 9]);
        assert.equal(await page.evaluate(() => document.querySelectorAll('#mask-picture .cell.replaced[data-role=x]').length), 6);
        h = await maskHover(page, 'out', 5);
        assert.deepEqual([h.hlSource, h.hlX, h.hlMask], ['1', '1', '1'], JSON.stringify(h));
        assert.deepEqual([h.source, h.x, h.mask], [[2], [5], [5]]);
        assert.equal(h.info, "output[1, 0] = 2 ← source[0, 2] = 2: mask[1, 0] = 1 is true element 3 of 6, so it takes source's value 3 (x[1, 0] = 0 replaced)");
        h = await maskHover(page, 'source', 4);
        assert.deepEqual(h.out, [8]);
        h = await maskHover(page, 'source', 7); // the mask has 6 true elements: source[1, 1..4] unused
        assert.equal(h.info, "source[1, 2] = 7: not used (mask has 6 true elements, one for each of source's first values)");
        assert.deepEqual(await page.evaluate(() => [...document.querySelectorAll('#mask-picture .cell.unused')].map((c) => Number(c.dataset.flat))), [6, 7, 8, 9]);
        h = await maskHover(page, 'out', 0);
        assert.equal(h.info, 'output[0, 0] = 0: mask[0, 0] = 0 is false, so x[0, 0] = 0 is kept');
        fs.mkdirSync(path.dirname(screenshotOf(engine)), { recursive: true });
        await page.evaluate(() => document.querySelector('#masks').scrollIntoView());
        await maskHover(page, 'out', 5);
        await page.screenshot(screenshotOf(engine, 'demo-masks'));

        // Errors inline: a short source, then fixed; a mask of the wrong shape, then fixed.
        await maskPick(page, 'mask-17');
        await page.fill('#mask-s-values', '9');
        await page.fill('#mask-s-shape', '1');
        await masksAre(page, 'error');
        assert.match(await page.evaluate(() => document.querySelector('#mask-error').textContent),
          /^RangeError maskedScatter: source has 1 elements? but mask has 2 true elements/);
        await page.fill('#mask-s-values', '9, 8');
        await page.fill('#mask-s-shape', '2');
        await masksAre(page, 'ok');
        assert.deepEqual((await page.evaluate(() => window.__wasmGatherDemo.masks.state())).output.data, [1, 9, 3, 8, 5]);
        await maskPick(page, 'mask-6'); // tf.boolean_mask: x [3, 2], mask [3]
        await page.fill('#mask-m-values', 'true, false');
        await page.fill('#mask-m-shape', '2');
        await masksAre(page, 'error');
        assert.match(await page.evaluate(() => document.querySelector('#mask-error').textContent),
          /^RangeError booleanMask: mask\.shape\[0\] is 2 but must be 3/);
        await page.fill('#mask-m-values', 'false, true, true');
        await page.fill('#mask-m-shape', '3');
        await masksAre(page, 'ok');
        assert.deepEqual((await page.evaluate(() => window.__wasmGatherDemo.masks.state())).output, { data: [3, 4, 5, 6], shape: [2, 2] });
        assert.match(await page.evaluate(() => document.querySelector('#mask-example-note').textContent), /, edited\.$/);
        // The same tensors through compress with no axis: x flattened, elements 1 and 2.
        await page.select('#mask-op', 'compress');
        await masksAre(page, 'ok');
        assert.equal(await page.evaluate(() => document.querySelector('#mask-call').textContent), 'compress(input, condition)');
        assert.deepEqual((await page.evaluate(() => window.__wasmGatherDemo.masks.state())).output, { data: [2, 3], shape: [2] });
        await page.fill('#mask-axis', '0');
        await masksAre(page, 'ok');
        assert.deepEqual((await page.evaluate(() => window.__wasmGatherDemo.masks.state())).output, { data: [3, 4, 5, 6], shape: [2, 2] });

        const log = await pageLog(page, server);
        assert.deepEqual(log.problems, [], 'page errors, console errors or failed requests');
        assert.deepEqual(log.warnings, []);
      } finally {
        await page.close().catch(() => {});
      }
    });

    test('isolated: examples/yolo-filter: the kept boxes, drawn, the plain loop\'s bit for bit', { skip, timeout: 2 * TIMEOUT_MS }, async () => {
      const { page, server } = await openPage(browser, {
        isolation: true, urlPath: '/examples/yolo-filter/', until: () => ['done', 'error'].includes(document.body.dataset.status),
      });
      try {
        const read = () => page.evaluate(() => {
          const canvas = document.querySelector('#canvas');
          const px = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
          let coloured = 0; // pixels of a box or a label: saturated, unlike the grey background and grid
          for (let i = 0; i < px.length; i += 4) if (Math.max(px[i], px[i + 1], px[i + 2]) - Math.min(px[i], px[i + 1], px[i + 2]) > 60) coloured++;
          return { status: document.body.dataset.status, error: document.querySelector('#error').hidden ? null : document.querySelector('#error').textContent,
            ...window.__yoloFilter, coloured, rows: document.querySelectorAll('#boxes tr').length, same: window.__yoloFilter?.same };
        });
        let r = await read();
        assert.equal(r.status, 'done', r.error);
        assert.equal(r.same, true, 'the page says the two ways agree');
        assert.deepEqual(r.boxes, r.plainBoxes);
        // The same boxes as here, in Node, with the plain loop (no wasm at all).
        const want = (conf) => JSON.parse(JSON.stringify(detect(makeHead({ seed: 1, objects: 36 }).head, filterPlain, { conf }).boxes));
        assert.deepEqual(r.boxes, want(0.25));
        assert.equal(r.boxes.length, 36);
        assert.equal(r.found, 36);
        assert.equal(r.rows, 36);
        assert.ok(r.coloured > 5000, `the boxes are drawn: ${r.coloured} coloured pixels`);
        assert.ok(r.times.ours > 0 && r.times.plain > 0, JSON.stringify(r.times));
        fs.mkdirSync(path.dirname(screenshotOf(engine)), { recursive: true });
        await page.screenshot(screenshotOf(engine, 'yolo-filter'));
        // A higher threshold: fewer anchors, the same agreement.
        await page.evaluate(() => {
          const conf = document.querySelector('#conf');
          conf.value = '0.6';
          conf.dispatchEvent(new Event('input', { bubbles: true }));
        });
        await page.waitFor(() => window.__yoloFilter.conf === 0.6 && document.body.dataset.status === 'done', undefined, TIMEOUT_MS);
        r = await read();
        assert.equal(r.same, true);
        assert.deepEqual(r.boxes, want(0.6));
        assert.ok(r.boxes.length > 0 && r.boxes.length < 36 && r.boxes.every((b) => b.score > 0.6), `${r.boxes.length} boxes over 0.6`);
        const log = await pageLog(page, server);
        assert.deepEqual(log.problems, [], 'page errors, console errors or failed requests');
        assert.deepEqual(log.warnings, []);
      } finally {
        await page.close().catch(() => {});
      }
    });

    test('isolated: examples, hover, errors, benchmark, screenshot', { skip, timeout: 3 * TIMEOUT_MS }, async (t) => {
      const { page, server, state } = await open(true);
      t.diagnostic(demoSummary(engine, true, state));
      try {

        // Every example in the picker: all the seeds, and the starters.
        const seedIds = seedExamples.map((_, i) => `seed-${i}`);
        assert.deepEqual(state.presets.filter((id) => id.startsWith('seed-')), seedIds);
        assert.ok(state.presets.length > seedIds.length, 'starter examples missing');
        for (const id of state.presets) {
          const r = await pick(page, id);
          const ex = id.startsWith('seed-') ? seedExamples[Number(id.slice(5))] : null;
          const sc = id.startsWith('scatter-') ? SCATTER_EXAMPLES[Number(id.slice(8))] : null;
          const bg = id.startsWith('bag-') ? BAG_EXAMPLES[Number(id.slice(4))] : null;
          const what = ex ? `${id} (${ex.title})` : sc ? `${id} (${sc.title})` : bg ? `${id} (${bg.title})` : id;
          assert.equal(r.error, null, `${what}: ${r.error}`);
          assert.equal(r.playgroundState, 'ok', what);
          assert.equal(r.presetId, id);
          if (sc) {
            assert.equal(r.op, sc.op, what);
            assert.deepEqual(r.output, sc.expected, `${what}: vs the output worked out by hand`);
          } else if (bg) {
            assert.equal(r.op, bg.op, what);
            assert.deepEqual(nans(r.output), nans(bg.expected), `${what}: vs the output worked out by hand`);
            assert.deepEqual(r.maxIndices, bg.expectedMaxIndices ?? null, `${what}: maxIndices vs the rows worked out by hand`);
            assert.deepEqual(nans(r.output), nans({ data: r.reference.data, shape: r.reference.shape }), `${what}: vs common/reference-bag.mjs`);
            if (r.reference.maxIndices) assert.deepEqual(r.maxIndices, r.reference.maxIndices, `${what}: maxIndices vs common/reference-bag.mjs`);
          } else {
            assert.deepEqual(r.output.shape, r.reference.shape, `${what}: shape vs reference`);
            assert.deepEqual(r.output.data, r.reference.data, `${what}: values vs common/reference.mjs`);
          }
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
        assert.match(await page.evaluate(() => document.querySelector('#picture .cell[data-role=data][data-flat="4"]').className), /\bhl\b/);
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
        await playgroundIs(page, 'error');
        assert.match(await text(page, '#op-error'), /^RangeError gatherBlockQuantized: opts\.blockSize 24 must be a power of 2, at least 16/);
        await page.fill('#attr-blocksize', '32'); // blocks of 32: scales [6, 1] now
        await playgroundIs(page, 'error');
        assert.match(await text(page, '#op-error'), /gatherBlockQuantized: .*scales/);
        await page.fill('#scales-values', '[0.5, 0.25, 1, 0.125, 2, 0.25]');
        await page.fill('#scales-shape', '6, 1');
        await playgroundIs(page, 'ok');
        q = await pick(page, 'quantized-0'); // back to the preset
        assert.equal(q.error, null);
        // The int4 example: float16 output (bits), drawn as values.
        q = await pick(page, 'quantized-1');
        assert.equal(q.error, null);
        assert.match(await text(page, '#out-text'), /^float16 \(a Uint16Array of its bits\) \[2, 2, 20\]/);
        // 2-bit along axis 1 with 'zero': index 25 is out of range, its output column zeroed.
        await pick(page, 'quantized-2');
        assert.equal(await count(page, '#picture .cell.zeroed[data-role=out]'), 3);

        // The scatters. scatterND, indices [[1], [4], [1], [1], [-1]], reduce 'none': updates 0, 2
        // and 3 all write position 1 and are numbered 1, 2, 3 in the updates and the index grids,
        // the last marked as winning; the output cell says three met there.
        const sc = await pick(page, 'scatter-5');
        assert.deepEqual(sc.output.data, [10, 4, 30, 40, 2, 5]);
        const badges = () => page.evaluate(() => {
          const list = (sel) => [...document.querySelectorAll(`#picture ${sel}`)];
          const order = (role) => list(`.cell[data-role=${role}][data-order]`)
            .map((c) => `${c.dataset.flat}:${c.dataset.order}${c.classList.contains('winner') ? ' wins' : ''}${c.classList.contains('overwritten') ? ' overwritten' : ''}`);
          return {
            updates: order('updates'), indices: order('indices'),
            counts: list('.cell[data-role=out][data-count]').map((c) => `${c.dataset.flat}:${c.dataset.count}`),
            // the badge as drawn (its ::before, whose content each engine serializes its own way):
            // placed on the cell, in the order badge's colour, the winner's in the pass colour
            drawn: list('.cell[data-role=updates][data-order]').map((c) => {
              const badge = getComputedStyle(c, '::before');
              return badge.content === 'none' || badge.position !== 'absolute' ? 'not drawn' : badge.backgroundColor;
            }),
          };
        });
        assert.deepEqual(await badges(), {
          updates: ['0:1 overwritten', '2:2 overwritten', '3:3 wins'], indices: ['0:1 overwritten', '2:2 overwritten', '3:3 wins'],
          counts: ['1:×3'], drawn: ['rgb(11, 110, 153)', 'rgb(11, 110, 153)', 'rgb(26, 127, 55)'],
        });
        // Hovering the destination marks the three updates that hit it and their indices, in order.
        h = await hover('out', 1);
        assert.deepEqual([h.hlUpdates, h.hlIndices, h.hlData, h.hlOut], ['3', '3', '1', '1'], JSON.stringify(h));
        assert.deepEqual(await page.evaluate(() => [...document.querySelectorAll('#picture .cell.hl[data-role=updates]')].map((c) => c.dataset.flat)), ['0', '2', '3']);
        assert.equal(h.info, 'output[1] = 4 ← 1. updates[0] = 1 (indices[0, :] = (1)), 2. updates[2] = 3 (indices[2, :] = (1)), ' +
          '3. updates[3] = 4 (indices[3, :] = (1)): written in this order, the last one wins');
        h = await hover('updates', 2); // an update marks its destination
        assert.deepEqual([h.hlUpdates, h.hlIndices, h.hlOut, h.hlData], ['1', '1', '1', '1'], JSON.stringify(h));
        assert.equal(h.info, 'updates[2] = 3 (indices[2, :] = (1)) → output[1], update 2 of 3 there: overwritten by a later one');
        h = await hover('out', 2); // not written
        assert.equal(h.hlUpdates, '0');
        assert.equal(h.info, 'output[2] = 30: no update lands here (data[2] = 30 kept)');
        // reduce 'mean' is not scatterND's: the library's RangeError, inline; 'add' sums in order.
        await page.select('#attr-reduce', 'mean');
        await playgroundIs(page, 'error');
        assert.match(await text(page, '#op-error'), /^RangeError scatterND: opts\.reduce must be one of 'none', 'add', .*got "mean"$/);
        await page.select('#attr-reduce', 'add');
        await playgroundIs(page, 'ok');
        // 20 + 1 + 3 + 4, 50 + 2, 60 + 5: the same order badges, none winning
        assert.deepEqual((await page.evaluate(() => window.__wasmGatherDemo.playground.state())).output.data, [10, 28, 30, 40, 52, 65]);
        assert.deepEqual((await badges()).updates, ['0:1', '2:2', '3:3']);
        // An index out of range is an error, unless dropped: that update is drawn as dropped.
        await page.fill('#indices-values', '[[1], [4], [9], [1], [-1]]');
        await playgroundIs(page, 'error');
        assert.match(await text(page, '#op-error'), /^RangeError scatterND: indices\[2, 0\] = 9 is out of range for dimension 0 of data/);
        await page.select('#attr-oor', 'drop');
        await playgroundIs(page, 'ok');
        assert.deepEqual((await page.evaluate(() => window.__wasmGatherDemo.playground.state())).output.data, [10, 25, 30, 40, 52, 65]);
        assert.deepEqual(await page.evaluate(() => [...document.querySelectorAll('#picture .cell.zeroed')].map((c) => `${c.dataset.role}:${c.dataset.flat}`)),
          ['indices:2', 'updates:2']);
        h = await hover('updates', 2);
        assert.equal(h.info, 'updates[2] = 3: out of range, dropped');

        // The histogram (scatter with src a value, reduce 'add'): the badges are on the index,
        // and hovering bin 2 marks the three index elements that counted it.
        await pick(page, 'scatter-0');
        assert.deepEqual(await badges(), { updates: [], indices: ['0:1', '1:1', '2:2', '4:3', '6:2'], counts: ['0:×2', '2:×3'], drawn: [] });
        assert.equal(await text(page, '#call'), "scatter(input, 0, index, 1, { reduce: 'add' })");
        h = await hover('out', 2);
        assert.deepEqual([h.hlIndices, h.hlUpdates, h.hlOut], ['3', '1', '1'], JSON.stringify(h));
        assert.equal(h.info, "output[2] = 3 ← input[2] = 0, then 1. src = 1 (index[1] = 2), 2. src = 1 (index[2] = 2), " +
          "3. src = 1 (index[4] = 2): reduce 'add' in this order");
        // The segment sum (indexReduce): rows 0 and 2 of the source meet in segment 0.
        await pick(page, 'scatter-9');
        h = await hover('out', 1);
        assert.deepEqual([h.hlUpdates, h.hlIndices], ['2', '2'], JSON.stringify(h));
        assert.match(h.info, /^output\[0, 1\] = 5 ← input\[0, 1\] = 0, then 1\. source\[0, 1\] = 2 \(index\[0\] = 0\), 2\. source\[2, 1\] = 3/);
        // The KV-cache write in 'circular' mode: batch 0's second new row wraps to position 0.
        await pick(page, 'scatter-14');
        h = await hover('out', 0);
        assert.deepEqual([h.hlUpdates, h.hlIndices], ['1', '1'], JSON.stringify(h));
        assert.equal(h.info, 'output[0, 0, 0] = 103 ← update[0, 1, 0] = 103 (writeIndices[0] = 3, position 3 + 1 = 4, wrapped to 0)');
        // Its writeIndices left out: every batch row from position 0. (A space, not '': puppeteer's
        // fill of '' in Firefox empties the field without an input event.)
        await page.fill('#indices-values', ' ');
        await page.fill('#indices-shape', ' ');
        await playgroundIs(page, 'ok');
        assert.equal(await text(page, '#call'), "tensorScatter(cache, update, null, { mode: 'circular' })");
        assert.deepEqual((await page.evaluate(() => window.__wasmGatherDemo.playground.state())).output.data,
          [101, 102, 103, 104, 5, 6, 7, 8, 105, 106, 107, 108, 13, 14, 15, 16]);
        await pick(page, 'scatter-5');
        await page.hover('#picture .cell[data-role=out][data-flat="1"]');
        fs.mkdirSync(path.dirname(screenshotOf(engine)), { recursive: true });
        await page.screenshot(screenshotOf(engine, 'demo-scatter'));

        // The fused gather-reduce: embeddingBag, torch's padding example (table arange(1, 31) as
        // [10, 3], indices [2, 2, 2, 2, 4, 3, 2, 9], offsets [0, 4], paddingIdx 2, 'sum'). The list
        // of bags shows each output row's table rows, the 2s struck out as padding.
        const bagsShown = () => page.evaluate(() => [...document.querySelectorAll('#picture .bag-row')].map((row) =>
          [...row.querySelectorAll('.cell')].map((c) => `${c.textContent}${c.classList.contains('skipped') ? ' skipped' : ''}`)
            .concat([...row.querySelectorAll('.bag-note')].map((n) => n.textContent))));
        // The cells a hover numbered, in page order: role:flat:order, ✗ for padding, ✓ for max's winner.
        const numbered = () => page.evaluate(() => [...document.querySelectorAll('#picture .cell[data-order], #picture .cell.won')]
          .map((c) => `${c.dataset.role}:${c.dataset.flat}:${c.dataset.order ?? ''}${c.classList.contains('skip-mark') ? '✗' : ''}${c.classList.contains('won') ? '✓' : ''}`));
        const lit = (role, cls) => page.evaluate(([r, k]) => [...document.querySelectorAll(`#picture .cell.${k}[data-role=${r}]`)]
          .map((c) => Number(c.dataset.flat)), [role, cls]);
        let bag = await pick(page, 'bag-1');
        assert.deepEqual(bag.output, { data: [0, 0, 0, 51, 54, 57], shape: [2, 3] });
        assert.equal(await text(page, '#call'), "embeddingBag(weight, indices, { mode: 'sum', offsets: [0, 4], paddingIdx: 2 })");
        assert.match(await text(page, '#example-note'), /From PyTorch torch\.nn\.functional\.embedding_bag: ✓ matches the output worked out by hand/);
        assert.deepEqual(await bagsShown(), [
          ['2 skipped', '2 skipped', '2 skipped', '2 skipped', 'only padding: zeros'],
          ['4', '3', '2 skipped', '9'],
        ]);
        assert.equal(await count(page, '#picture .cell.zeroed[data-role=out]'), 3); // bag 0: zeros
        // Hovering output[1, 0] lights rows 4, 3, 2 and 9 of the table, in that order, the 2 skipped.
        h = await hover('out', 3);
        assert.deepEqual([h.hlData, h.hlIndices, h.hlBags, h.hlSegments, h.hlOut], ['4', '4', '4', '1', '1'], JSON.stringify(h));
        assert.deepEqual(await numbered(), ['data:6:3✗', 'data:9:2', 'data:12:1', 'data:27:4', 'indices:4:1', 'indices:5:2',
          'indices:6:3✗', 'indices:7:4', 'bags:4:1', 'bags:5:2', 'bags:6:3✗', 'bags:7:4']);
        assert.deepEqual(await lit('data', 'unit'), [6, 7, 8, 9, 10, 11, 12, 13, 14, 27, 28, 29]); // the rows, whole
        assert.equal(h.info, 'output[1, 0] = 51 ← bag 1 (offsets[1] = 4: indices[4..8)): 1. weight[4, 0] = 13 (indices[4] = 4), ' +
          '2. weight[3, 0] = 10 (indices[5] = 3), 3. indices[6] = 2: padding, skipped, 4. weight[9, 0] = 28 (indices[7] = 9): sum');
        h = await hover('data', 12); // weight[4, 0]: in bag 1 only
        assert.equal(h.info, 'weight[4, 0] = 13 → output[1, 0] (entry 1 of bag 1)');
        assert.deepEqual(await lit('out', 'hl'), [3]);
        h = await hover('indices', 6);
        assert.equal(h.info, 'indices[6] = 2: entry 3 of bag 1, padding (paddingIdx 2), skipped');
        // Editing: mode 'mean' leaves the padding out of the count; a paddingIdx out of range is the
        // library's RangeError; -8 counts from the end (row 2 again); the same bags as segment ids.
        await page.select('#bag-mode', 'mean');
        await playgroundIs(page, 'ok');
        assert.deepEqual((await page.evaluate(() => window.__wasmGatherDemo.playground.state())).output.data, [0, 0, 0, 17, 18, 19]);
        await page.fill('#bag-padding', '12');
        await playgroundIs(page, 'error');
        assert.match(await text(page, '#op-error'), /^RangeError embeddingBag: opts\.paddingIdx 12 is out of range for the weight's 10 rows/);
        await page.fill('#bag-padding', '-8');
        await playgroundIs(page, 'ok');
        await page.select('#bag-form', 'ids');
        await page.fill('#bag-segments', '0, 0, 0, 0, 1, 1, 1, 1');
        await playgroundIs(page, 'ok');
        assert.equal(await text(page, '#call'), "embeddingBag(weight, indices, { mode: 'mean', segmentIds: [0, 0, 0, 0, 1, 1, 1, 1], paddingIdx: -8 })");
        assert.deepEqual((await page.evaluate(() => window.__wasmGatherDemo.playground.state())).output.data, [0, 0, 0, 17, 18, 19]);
        h = await hover('out', 4);
        assert.deepEqual(await numbered(), ['data:7:3✗', 'data:10:2', 'data:13:1', 'data:28:4', 'indices:4:1', 'indices:5:2',
          'indices:6:3✗', 'indices:7:4', 'bags:4:1', 'bags:5:2', 'bags:6:3✗', 'bags:7:4']);
        assert.match(h.info, /: sum \/ 3$/);
        // Per-sample weights (and includeLastOffset, and padding): each entry shows its weight.
        bag = await pick(page, 'bag-8');
        assert.deepEqual(await bagsShown(), [['0×0.5', '2×2', '3×4 skipped'], ['1×1', '2×-1']]);
        h = await hover('out', 0);
        assert.deepEqual([h.hlWeights, h.hlSegments], ['3', '2'], JSON.stringify(h));
        assert.deepEqual((await numbered()).filter((m) => m.startsWith('weights')), ['weights:0:1', 'weights:1:2', 'weights:2:3✗']);
        assert.equal(h.info, 'output[0, 0] = 10.5 ← bag 0 (offsets[0] = 0: indices[0..3)): 1. 0.5 × weight[0, 0] = 1 (indices[0] = 0), ' +
          '2. 2 × weight[2, 0] = 5 (indices[1] = 2), 3. indices[2] = 3: padding, skipped: weighted sum');
        // max with returnIndices: the maxIndices grid, and the element that won ringed.
        bag = await pick(page, 'bag-7');
        assert.equal(await count(page, '#picture .cell[data-role=maxidx]'), 6);
        h = await hover('out', 1); // max(9, 2, 8) = 9, from row 0 (entry 1)
        assert.deepEqual(await lit('data', 'won'), [1]);
        assert.match(h.info, /^output\[0, 1\] = 9 ← bag 0 \(indices\[0, :\]\): .*: max, from entry 1$/);
        assert.equal(h.hlMaxidx, '1');
        // segmentReduce: torch's max over lengths [2, 1]; output[0, 1] = max(2, 6).
        await pick(page, 'bag-10');
        h = await hover('out', 1);
        assert.deepEqual(await numbered(), ['data:1:1', 'data:5:2✓', 'bags:0:1', 'bags:1:2']);
        assert.equal(h.info, 'output[0, 1] = 6 ← segment 0 (lengths[0] = 2): 1. data[0, 1] = 2, 2. data[1, 1] = 6: max, from entry 2');
        // Along axis 1 from initial 0.5, with an empty segment that keeps it.
        await pick(page, 'bag-15');
        assert.deepEqual(await bagsShown(), [['0', '1', 'from initial 0.5'], ['empty: initial 0.5'], ['2', '3', '4', 'from initial 0.5']]);
        h = await hover('out', 5);
        assert.deepEqual(await numbered(), ['data:7:1', 'data:8:2', 'data:9:3', 'bags:2:1', 'bags:3:2', 'bags:4:3']);
        assert.equal(h.info, 'output[1, 2] = 27.5 ← segment 2 (offsets[2] = 2, offsets[3] = 5): initial 0.5, then ' +
          '1. data[1, 2] = 8, 2. data[1, 3] = 9, 3. data[1, 4] = 10: sum');
        h = await hover('out', 1);
        assert.equal(h.info, 'output[0, 1] = 0.5 ← segment 1 is empty (offsets[1] = 2, offsets[2] = 2): initial 0.5');
        // The backward: output row 1 of torch's mean example (rows 4, 3, 2, 9 over 4) reaches those
        // rows, a quarter each; a click on row 0 picks row 0 (rows 1, 2, 4, 5), again none; max's
        // row reaches each element's winner only; a new example starts with none.
        const gradient = () => page.evaluate(() => window.__wasmGatherDemo.playground.state().gradient);
        await pick(page, 'bag-0');
        assert.equal(await gradient(), null);
        assert.equal(await text(page, '#grad-info'), 'Pick an output row (or click one) to see which table rows its gradient reaches.');
        await page.select('#bag-grad-row', '1');
        await playgroundIs(page, 'ok');
        assert.deepEqual(await gradient(), BAG_EXAMPLES[0].expectedGrad, 'vs the gradient worked out by hand');
        assert.equal(await text(page, '#grad-call'),
          "embeddingBagBackward(gradOutput, indices, { mode: 'mean', offsets: [0, 4], numWeights: 10 }) with gradOutput ones in row 1");
        assert.equal(await text(page, '#grad-info'), 'The gradient of output row 1 reaches weight rows 2 (×0.25), 3 (×0.25), 4 (×0.25), 9 (×0.25).');
        assert.deepEqual(await lit('data', 'grad-reached'), [6, 7, 8, 9, 10, 11, 12, 13, 14, 27, 28, 29]);
        assert.deepEqual(await lit('out', 'grad-row'), [3, 4, 5]);
        assert.equal(await count(page, '#picture .cell.painted[data-role=grad]'), 12);
        h = await hover('grad', 12); // gradient[4, 0]: entry 1 of bag 1
        assert.equal(h.info, "gradient[4, 0] = 0.25 ← output[1, 0]'s gradient 1 × 1 / 4 (entry 1: indices[4] = 4); 'mean' divides by the count");
        assert.deepEqual(await lit('indices', 'hl'), [4]);
        h = await hover('grad', 0);
        assert.equal(h.info, 'gradient[0, 0] = 0: bag 1 does not read weight row 0');
        await page.click('#picture .cell[data-role=out][data-flat="1"]');
        await playgroundIs(page, 'ok');
        assert.equal((await gradient()).row, 0);
        assert.equal(await text(page, '#grad-info'), 'The gradient of output row 0 reaches weight rows 1 (×0.25), 2 (×0.25), 4 (×0.25), 5 (×0.25).');
        await page.click('#picture .cell[data-role=out][data-flat="2"]');
        await playgroundIs(page, 'ok');
        assert.equal(await gradient(), null);
        await pick(page, 'bag-7');
        await page.select('#bag-grad-row', '1');
        await playgroundIs(page, 'ok');
        assert.deepEqual(await gradient(), BAG_EXAMPLES[7].expectedGrad);
        assert.equal(await text(page, '#grad-info'), 'The gradient of output row 1 reaches weight rows 1 (×[1, 0, 0]), 3 (×[0, 1, 0]), 4 (×[0, 0, 1]).');
        await pick(page, 'bag-6'); // tf.nn.embedding_lookup_sparse's weighted mean: weights 2 and 0.5 over 2.5
        await page.select('#bag-grad-row', '0');
        await playgroundIs(page, 'ok');
        assert.deepEqual(await gradient(), BAG_EXAMPLES[6].expectedGrad);
        h = await hover('grad', 2);
        assert.equal(h.info, "gradient[1, 0] = 0.8 ← output[0, 0]'s gradient 1 × 2 / 2.5 (entry 1: indices[0] = 1); " +
          "'mean' divides by the sum of the weights");
        await pick(page, 'bag-1');
        assert.equal(await gradient(), null);
        await page.hover('#picture .cell[data-role=out][data-flat="3"]');
        fs.mkdirSync(path.dirname(screenshotOf(engine)), { recursive: true });
        await page.screenshot(screenshotOf(engine, 'demo-bag'));
        await page.select('#bag-grad-row', '1');
        await page.hover('#picture .cell[data-role=grad][data-flat="12"]');
        await page.screenshot(screenshotOf(engine, 'demo-bag-backward'));

        // 'zero' starter: the out-of-range tuple's output row is drawn as zeroed.
        const zeroId = 'starter-4';
        await pick(page, zeroId);
        assert.equal(await count(page, '#picture .cell.zeroed[data-role=out]'), 2);

        // Editing: an out-of-range index is the library's RangeError, inline; 'clamp' fixes it.
        await pick(page, 'seed-0');
        await page.fill('#indices-values', '[[0, 0], [1, 5]]');
        await playgroundIs(page, 'error');
        const err = await text(page, '#op-error');
        assert.match(err, /^RangeError gatherND: indices\[1, 1\] = 5 is out of range/);
        await page.select('#attr-oor', 'clamp');
        await playgroundIs(page, 'ok');
        assert.equal(await page.evaluate(() => document.querySelector('#op-error').hidden), true);
        assert.deepEqual((await page.evaluate(() => window.__wasmGatherDemo.playground.state())).output, { data: [1, 4], shape: [2] });
        await page.fill('#indices-values', '[[0, 0], [1, x]]');
        await playgroundIs(page, 'error');
        assert.match(await text(page, '#op-error'), /ParseError indices: 'x' is not a number/);

        // Benchmark: W5 (small) only.
        await page.evaluate(() => document.querySelectorAll('#bench-workloads input:not([value=W5])').forEach((x) => { x.checked = false; }));
        await page.click('#bench-form button');
        await page.waitFor(() => ['done', 'error'].includes(document.querySelector('#bench').dataset.status), undefined, TIMEOUT_MS);
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
        fs.mkdirSync(path.dirname(screenshotOf(engine)), { recursive: true });
        await page.screenshot(screenshotOf(engine));
        const log = await pageLog(page, server);
        assert.deepEqual(log.problems, [], 'page errors, console errors or failed requests');
        assert.deepEqual(log.warnings, []);
      } finally {
        await page.close().catch(() => {});
      }
    });

    test('not isolated: seeds pass, an example renders, no errors', { skip, timeout: 2 * TIMEOUT_MS }, async (t) => {
      const { page, server, state } = await open(false);
      t.diagnostic(demoSummary(engine, false, state));
      try {
        const r = await pick(page, 'seed-10'); // tf batched params and indices, batch_dims = 1 (#1)
        assert.deepEqual(r.output, { data: seedExamples[10].expected.data, shape: seedExamples[10].expected.shape });
        const q = await pick(page, 'quantized-1'); // int4, zero points, float16 scales
        assert.equal(q.error, null);
        assert.deepEqual(q.output, q.reference);
        const sc = await pick(page, 'scatter-14'); // the circular KV-cache write
        assert.equal(sc.error, null);
        assert.deepEqual(sc.output, SCATTER_EXAMPLES[14].expected);
        const bag = await pick(page, 'bag-6'); // tf.nn.embedding_lookup_sparse's weighted mean
        assert.equal(bag.error, null);
        assert.deepEqual(bag.output, BAG_EXAMPLES[6].expected);
        const mask = await maskPick(page, 'mask-16'); // bert_padding's pad_input as a maskedScatter
        assert.equal(mask.error, null);
        assert.deepEqual(mask.output, MASK_EXAMPLES[16].expected);
        const log = await pageLog(page, server);
        assert.deepEqual(log.problems, [], 'page errors, console errors or failed requests');
        assert.deepEqual(log.warnings, []);
      } finally {
        await page.close().catch(() => {});
      }
    });
  });

  if (skip && process.env.CI) {
    test(`${engine.title} is installed (required under CI)`, () => assert.fail(skip));
  }
}
