// The post-processing of a YOLOv8 head [1, 84, 8400], shared by run.mjs (Node) and page.mjs (the
// browser), as Ultralytics does it (ultralytics/utils/ops.py, non_max_suppression): each anchor's
// best class score; the anchors whose best score is over the threshold kept; NMS among their
// boxes, class by class. The keeping is the part done two ways: by wasm-gather (`compress`, and
// `nonZero` for the anchors' numbers) and by a plain JS loop, with the same result to the bit.
//
// Why the head is compressed along axis 2 as it is, and not transposed to [8400, 84] rows first:
// it is channel-major (each channel's 8400 values contiguous), so an anchor's 84 values are 8400
// apart. Transposing it would copy all of its 705,600 values (2.8 MB) to keep a few hundred
// anchors; compress along the anchors' axis copies only the kept ones, each channel's in a row
// ([1, 84, n]: channel c of kept anchor k at c * n + k), which is also the layout the scores are
// read in below, a class's row at a time.
import { ANCHORS, CHANNELS, CLASSES } from './data.mjs';

// Ultralytics' defaults for prediction, conf 0.25 and iou 0.7
// (https://docs.ultralytics.com/modes/predict/#inference-arguments), and its cap of 300 boxes.
export const CONF = 0.25;
export const IOU = 0.7;
export const MAX_DET = 300;

/**
 * Each anchor's best class score (a running maximum over the 80 class rows, each read in order),
 * and the mask of those over `threshold`: { best: Float32Array(8400), keep: Uint8Array(8400) }.
 */
export function scoresOver(head, threshold = CONF) {
  const d = head.data;
  const best = new Float32Array(ANCHORS);
  for (let c = 4; c < CHANNELS; c++) {
    for (let a = 0, at = c * ANCHORS; a < ANCHORS; a++, at++) if (d[at] > best[a]) best[a] = d[at];
  }
  const keep = new Uint8Array(ANCHORS);
  for (let a = 0; a < ANCHORS; a++) keep[a] = best[a] > threshold ? 1 : 0;
  return { best, keep };
}

/**
 * The kept anchors by wasm-gather, two calls: `compress` keeps the head's slices along the anchors'
 * axis where the mask is true ([1, 84, n]), `nonZero` gives those anchors' numbers ([1, n]).
 * { kept: Float32Array(84 * n), n, anchors: Int32Array(n) }.
 */
export function filterOurs(api, head, keep) {
  const mask = { data: keep, shape: [ANCHORS] };
  const kept = api.compress(head, mask, { axis: 2 });
  const anchors = api.nonZero(mask);
  return { kept: kept.data, n: kept.shape[2], anchors: anchors.data };
}

/** The same in a plain JS loop: count, then each kept anchor's 84 values into its column. */
export function filterPlain(head, keep) {
  const d = head.data;
  let n = 0;
  for (let a = 0; a < ANCHORS; a++) n += keep[a];
  const kept = new Float32Array(CHANNELS * n);
  const anchors = new Int32Array(n);
  for (let a = 0, k = 0; a < ANCHORS; a++) {
    if (!keep[a]) continue;
    anchors[k] = a;
    for (let c = 0; c < CHANNELS; c++) kept[c * n + k] = d[c * ANCHORS + a];
    k++;
  }
  return { kept, n, anchors };
}

/**
 * The kept anchors as boxes: [{ anchor, cls, score, x1, y1, x2, y2 }], the class the first of the
 * highest scores (argmax), the corners from (cx, cy, w, h).
 */
export function boxesOf({ kept, n, anchors }) {
  const boxes = [];
  for (let k = 0; k < n; k++) {
    let cls = 0;
    for (let c = 1; c < CLASSES; c++) if (kept[(4 + c) * n + k] > kept[(4 + cls) * n + k]) cls = c;
    const [cx, cy, w, h] = [0, 1, 2, 3].map((c) => kept[c * n + k]);
    boxes.push({ anchor: anchors[k], cls, score: kept[(4 + cls) * n + k], x1: cx - w / 2, y1: cy - h / 2, x2: cx + w / 2, y2: cy + h / 2 });
  }
  return boxes;
}

/** Intersection over union of two boxes. */
export function iou(p, q) {
  const w = Math.min(p.x2, q.x2) - Math.max(p.x1, q.x1);
  const h = Math.min(p.y2, q.y2) - Math.max(p.y1, q.y1);
  if (w <= 0 || h <= 0) return 0;
  const inter = w * h;
  return inter / ((p.x2 - p.x1) * (p.y2 - p.y1) + (q.x2 - q.x1) * (q.y2 - q.y1) - inter);
}

/**
 * Greedy NMS, class by class (torchvision's batched_nms, as Ultralytics calls it): the boxes by
 * score, highest first (equal scores: the lower anchor first, so the order is one), each kept
 * unless a kept box of its class overlaps it by more than `threshold`; at most MAX_DET.
 */
export function nms(boxes, threshold = IOU) {
  const order = boxes.slice().sort((p, q) => q.score - p.score || p.anchor - q.anchor);
  const kept = [];
  for (const b of order) {
    if (kept.length === MAX_DET) break;
    if (!kept.some((k) => k.cls === b.cls && iou(k, b) > threshold)) kept.push(b);
  }
  return kept;
}

/** The whole post-processing, with `filter` one of the two ways: the kept boxes and what they came from. */
export function detect(head, filter, { conf = CONF, iou: threshold = IOU } = {}) {
  const { keep } = scoresOver(head, conf);
  const filtered = filter(head, keep);
  return { ...filtered, boxes: nms(boxesOf(filtered), threshold) };
}

/**
 * The median time of one call of fn, in ms: `batches` batches of `reps` calls each timed
 * together (a browser's clock may tick in 0.1 ms), after a first batch to warm up.
 */
export function timeOf(fn, { reps = 10, batches = 11 } = {}) {
  const times = [];
  for (let b = -1; b < batches; b++) {
    const t = performance.now();
    for (let r = 0; r < reps; r++) fn();
    if (b >= 0) times.push((performance.now() - t) / reps);
  }
  times.sort((x, y) => x - y);
  return times[times.length >> 1];
}

/** Whether two float arrays hold the same bits. */
export function sameBits(x, y) {
  if (x.length !== y.length) return false;
  const a = new Uint32Array(x.buffer, x.byteOffset, x.length), b = new Uint32Array(y.buffer, y.byteOffset, y.length);
  return a.every((v, i) => v === b[i]);
}
