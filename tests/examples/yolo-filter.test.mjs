// examples/yolo-filter/ as a user runs it: a synthetic YOLOv8 head [1, 84, 8400], the anchors
// whose best class score is over the threshold kept by compress (and nonZero) and by a plain JS
// loop, then NMS. Asserts what the example shows: the two ways keep the same boxes, bit for bit;
// and, against the head itself read here in the plainest way (each anchor's 80 scores in turn,
// no code of the example's filter), the kept anchors are exactly those over the threshold and
// each kept column is that anchor's 84 values; every object the seed made is found by one box of
// its class and no box is found twice; the same on one thread of the simd build.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { makeHead } from '../../examples/yolo-filter/data.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const script = fileURLToPath(new URL('../../examples/yolo-filter/run.mjs', import.meta.url));
const A = 8400, C = 84;

const run = async (...extra) => {
  const { stdout } = await promisify(execFile)(process.execPath, [script, '--json', ...extra], { cwd: root, timeout: 60e3, maxBuffer: 64 << 20 });
  const lines = stdout.trimEnd().split('\n');
  return { lines, r: JSON.parse(lines.at(-1)) };
};
const bits = (values) => Array.from(new Uint32Array(Float32Array.from(values).buffer));
const iou = (p, q) => {
  const w = Math.min(p.x2, q.x2) - Math.max(p.x1, q.x1), h = Math.min(p.y2, q.y2) - Math.max(p.y1, q.y1);
  return w <= 0 || h <= 0 ? 0 : (w * h) / ((p.x2 - p.x1) * (p.y2 - p.y1) + (q.x2 - q.x1) * (q.y2 - q.y1) - w * h);
};

test('examples/yolo-filter: compress keeps what the plain loop keeps, bit for bit, and finds every object', async (t) => {
  const { lines, r } = await run();
  for (const line of lines.slice(0, -1)) if (/Anchors|found|time|JS|compress|bit/.test(line)) t.diagnostic(line);
  assert.equal(r.same, true, 'the example says the two ways agree');
  assert.deepEqual(r.ours.anchors, r.plain.anchors);
  assert.deepEqual(bits(r.ours.kept), bits(r.plain.kept), 'the kept [84, n] values, bit for bit');
  assert.deepEqual(r.ours.boxes, r.plain.boxes, 'the boxes after NMS');

  // The head, read here: anchor a is over the threshold when one of its 80 scores is.
  const { head } = makeHead({ seed: r.seed, objects: r.objects });
  const over = [];
  for (let a = 0; a < A; a++) {
    let best = 0;
    for (let c = 4; c < C; c++) best = Math.max(best, head.data[c * A + a]);
    if (best > r.conf) over.push(a);
  }
  assert.ok(over.length > 100, `${over.length} anchors over ${r.conf}`);
  assert.deepEqual(r.ours.anchors, over, 'the kept anchors: those whose best score is over the threshold');
  const n = over.length;
  assert.equal(r.ours.kept.length, C * n);
  const want = [];
  for (let c = 0; c < C; c++) for (const a of over) want.push(head.data[c * A + a]);
  assert.deepEqual(bits(r.ours.kept), bits(want), "each kept column is its anchor's 84 values");

  // Every object found by a box of its class, no object twice, no box that is no object.
  const truth = r.truth.map((o) => ({ ...o, x1: o.cx - o.w / 2, y1: o.cy - o.h / 2, x2: o.cx + o.w / 2, y2: o.cy + o.h / 2 }));
  const matches = r.ours.boxes.map((b) => truth.filter((o) => o.cls === b.cls && iou(b, o) > 0.5).length);
  assert.equal(r.found, r.objects, `${r.found} of ${r.objects} objects found`);
  assert.equal(r.ours.boxes.length, r.objects, 'one box an object: NMS removed the duplicates');
  assert.ok(matches.every((m) => m >= 1), 'every box is one of the objects');
  assert.ok(n > 3 * r.objects, `several anchors an object before NMS (${n} for ${r.objects})`);
  for (const k of ['scores', 'plain', 'ours', 'nms']) assert.ok(r.times[k] > 0 && Number.isFinite(r.times[k]), `time ${k}: ${r.times[k]}`);

  // One thread of the simd build: the same.
  const one = await run('--threads', '1');
  assert.equal(one.r.info.variant, 'simd');
  assert.deepEqual(one.r.ours.anchors, r.ours.anchors);
  assert.deepEqual(bits(one.r.ours.kept), bits(r.ours.kept));
  assert.deepEqual(one.r.ours.boxes, r.ours.boxes);
});

test('examples/yolo-filter: another seed and threshold, the two ways agree', async () => {
  const { r } = await run('--seed', '7', '--objects', '60', '--conf', '0.5');
  assert.equal(r.same, true);
  assert.deepEqual(bits(r.ours.kept), bits(r.plain.kept));
  assert.deepEqual(r.ours.boxes, r.plain.boxes);
  assert.ok(r.ours.boxes.every((b) => b.score > 0.5), 'every box over the threshold');
});
