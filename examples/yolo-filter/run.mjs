#!/usr/bin/env node
// Filters a YOLOv8 head's detections in Node: the head [1, 84, 8400] made by data.mjs from a
// seed (no model), each anchor's best score over the threshold, the kept anchors by `compress`
// (and `nonZero`) and by a plain JS loop, NMS; prints the kept boxes and the times of both ways.
// From the repository's root, after `npm ci`:
//
//   node examples/yolo-filter/run.mjs [--seed 1] [--objects 36] [--conf 0.25] [--json]
//
// Exits with 1 if the two ways keep different boxes (they must be the same, bit for bit).
import { parseArgs } from 'node:util';
import * as api from 'wasm-gather';
import { ANCHORS, NAMES, anchorOf, makeHead } from './data.mjs';
import { CONF, IOU, boxesOf, detect, filterOurs, filterPlain, iou, nms, sameBits, scoresOver, timeOf } from './filter.mjs';

const OPTIONS = {
  seed: { default: '1', help: 'seed of the synthetic head' },
  objects: { default: '36', help: 'objects in the synthetic image' },
  conf: { default: String(CONF), help: 'score threshold (Ultralytics\' default)' },
  iou: { default: String(IOU), help: 'NMS IoU threshold (Ultralytics\' default)' },
  threads: { default: '', help: "wasm-gather's threads (default: init()'s)" },
};
const usage = (message) => {
  console.error(`run.mjs: ${message} (--help lists the options)`);
  process.exit(2);
};
let args;
try {
  ({ values: args } = parseArgs({
    options: { ...Object.fromEntries(Object.entries(OPTIONS).map(([k, o]) => [k, { type: 'string', default: o.default }])),
      json: { type: 'boolean', default: false }, help: { type: 'boolean', default: false } },
  }));
} catch (e) {
  usage(e.message);
}
if (args.help) {
  console.log('node examples/yolo-filter/run.mjs [options]\n');
  for (const [k, o] of Object.entries(OPTIONS)) console.log(`  --${k.padEnd(8)} ${o.help}${o.default ? ` (${o.default})` : ''}`);
  console.log('  --json     print the results as one JSON object after the text');
  process.exit(0);
}
const seed = Number(args.seed), objects = Number(args.objects), conf = Number(args.conf), iouThreshold = Number(args.iou);
if (!Number.isInteger(seed) || !Number.isInteger(objects) || objects < 0) usage('--seed and --objects must be integers');
if (!(conf >= 0 && conf < 1) || !(iouThreshold > 0 && iouThreshold <= 1)) usage('--conf must be in [0, 1), --iou in (0, 1]');
const threads = args.threads === '' ? undefined : Number(args.threads);
if (threads !== undefined && !(Number.isInteger(threads) && threads > 0)) usage('--threads must be a positive integer');

const info = await api.init(threads === undefined ? {} : { threads });
const { head, objects: truth } = makeHead({ seed, objects });

// Both ways, then the same boxes from each.
const ours = detect(head, (h, keep) => filterOurs(api, h, keep), { conf, iou: iouThreshold });
const plain = detect(head, filterPlain, { conf, iou: iouThreshold });
const same = ours.n === plain.n && sameBits(ours.kept, plain.kept) && ours.anchors.every((a, k) => a === plain.anchors[k]) &&
  JSON.stringify(ours.boxes) === JSON.stringify(plain.boxes);

// The times: the step both ways share (each anchor's best score), the keeping each way, NMS.
const { keep } = scoresOver(head, conf);
const times = {
  scores: timeOf(() => scoresOver(head, conf)),
  plain: timeOf(() => filterPlain(head, keep)),
  ours: timeOf(() => filterOurs(api, head, keep)),
  nms: timeOf(() => nms(boxesOf(plain), iouThreshold)),
};
api.dispose();

// How many of the image's objects a kept box of their class finds (IoU over 0.5).
const asBox = (o) => ({ x1: o.cx - o.w / 2, y1: o.cy - o.h / 2, x2: o.cx + o.w / 2, y2: o.cy + o.h / 2 });
const found = truth.filter((o) => ours.boxes.some((b) => b.cls === o.cls && iou(b, asBox(o)) > 0.5)).length;

const ms = (t) => `${t.toFixed(3)} ms`;
console.log(`YOLOv8 head [1, 84, 8400], synthetic (${objects} objects, seed ${seed}); score threshold ${conf}, NMS IoU ${iouThreshold}`);
console.log(`wasm-gather ${info.variant}, ${info.threads} thread${info.threads > 1 ? 's' : ''}\n`);
console.log(`Anchors whose best class score is over ${conf}: ${ours.n} of ${ANCHORS}; after NMS, ${ours.boxes.length} boxes:`);
console.log('  class           score     x1     y1     x2     y2  anchor (stride: cell)');
for (const b of ours.boxes) {
  const { stride, gx, gy } = anchorOf(b.anchor);
  console.log(`  ${NAMES[b.cls].padEnd(14)} ${b.score.toFixed(3)} ${[b.x1, b.y1, b.x2, b.y2].map((v) => v.toFixed(1).padStart(6)).join(' ')}` +
    `  ${String(b.anchor).padStart(6)} (${stride}: ${gx}, ${gy})`);
}
console.log(`\n${found} of the ${truth.length} objects found (a kept box of their class, IoU over 0.5).`);
console.log('\nMedian time of a call:');
console.log(`  each anchor's best score, JS (both ways)         ${ms(times.scores)}`);
console.log(`  keeping the anchors over it: a plain JS loop     ${ms(times.plain)}`);
console.log(`                               compress + nonZero  ${ms(times.ours)}`);
console.log(`  NMS, JS (both ways)                              ${ms(times.nms)}`);
console.log(same ? '\nThe kept boxes are the plain loop\'s, bit for bit.' : '\nThe kept boxes differ from the plain loop\'s!');
if (args.json) {
  const plainBoxes = (r) => r.boxes.map((b) => ({ ...b }));
  console.log(JSON.stringify({
    info, seed, objects, conf, iou: iouThreshold, n: ours.n, same, found, times, truth,
    ours: { anchors: Array.from(ours.anchors), kept: Array.from(ours.kept), boxes: plainBoxes(ours) },
    plain: { anchors: Array.from(plain.anchors), kept: Array.from(plain.kept), boxes: plainBoxes(plain) },
  }));
}
if (!same) process.exitCode = 1;
