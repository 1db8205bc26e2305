// The example's detector output, made here from one seed (no model, nothing downloaded): what a
// YOLOv8 detector exported to ONNX by Ultralytics returns for a 640 x 640 image, shape
// [1, 84, 8400] (https://docs.ultralytics.com/integrations/onnx/):
//
//   - 8400 anchors: the cells of its three feature maps, 80 x 80 (stride 8), 40 x 40 (stride 16)
//     and 20 x 20 (stride 32), in that order, each map row by row;
//   - 84 channels an anchor: the box (cx, cy, w, h, in pixels of the 640 x 640 input), then the
//     80 COCO classes' scores (already through a sigmoid: in [0, 1]; no objectness score in v8);
//   - channel-major: channel c of anchor a at [0, c, a], flat c * 8400 + a, so each channel's
//     8400 values are contiguous.
//
// A few dozen objects, each seen, as by a real detector, by the anchors near its centre on the
// feature map that suits its size (a strong score that fades away from the centre, and a weaker
// one on the next map), each with its own slightly wrong box: several boxes an object, which NMS
// must reduce to one. Every other score is background noise, far under any threshold.

export const SIZE = 640;
export const STRIDES = [8, 16, 32];
export const CLASSES = 80;
export const CHANNELS = 4 + CLASSES;
export const ANCHORS = STRIDES.reduce((n, s) => n + (SIZE / s) ** 2, 0); // 6400 + 1600 + 400 = 8400

// The 80 COCO classes in YOLOv8's order (ultralytics/cfg/datasets/coco.yaml,
// https://github.com/ultralytics/ultralytics/blob/main/ultralytics/cfg/datasets/coco.yaml).
export const NAMES = ['person', 'bicycle', 'car', 'motorcycle', 'airplane', 'bus', 'train', 'truck', 'boat',
  'traffic light', 'fire hydrant', 'stop sign', 'parking meter', 'bench', 'bird', 'cat', 'dog', 'horse', 'sheep', 'cow',
  'elephant', 'bear', 'zebra', 'giraffe', 'backpack', 'umbrella', 'handbag', 'tie', 'suitcase', 'frisbee', 'skis',
  'snowboard', 'sports ball', 'kite', 'baseball bat', 'baseball glove', 'skateboard', 'surfboard', 'tennis racket',
  'bottle', 'wine glass', 'cup', 'fork', 'knife', 'spoon', 'bowl', 'banana', 'apple', 'sandwich', 'orange', 'broccoli',
  'carrot', 'hot dog', 'pizza', 'donut', 'cake', 'chair', 'couch', 'potted plant', 'bed', 'dining table', 'toilet', 'tv',
  'laptop', 'mouse', 'remote', 'keyboard', 'cell phone', 'microwave', 'oven', 'toaster', 'sink', 'refrigerator', 'book',
  'clock', 'vase', 'scissors', 'teddy bear', 'hair drier', 'toothbrush'];

/** mulberry32: uniform floats in [0, 1) from a 32-bit seed (https://gist.github.com/tommyettinger/46a874533244883189143505d203312c). */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Anchor a's feature map: { stride, gx, gy } (its cell), and its centre in pixels. */
export function anchorOf(a) {
  let first = 0;
  for (const stride of STRIDES) {
    const side = SIZE / stride;
    if (a < first + side * side) {
      const gx = (a - first) % side, gy = Math.floor((a - first) / side);
      return { stride, gx, gy, x: (gx + 0.5) * stride, y: (gy + 0.5) * stride };
    }
    first += side * side;
  }
  throw new RangeError(`anchor ${a} is not in [0, ${ANCHORS})`);
}

// The map that sees an object of this size best (YOLO's small / medium / large maps).
const levelOf = (w, h) => (Math.max(w, h) < 96 ? 0 : Math.max(w, h) < 224 ? 1 : 2);

/**
 * { head: { data: Float32Array, shape: [1, 84, 8400] }, objects: [{ cls, cx, cy, w, h }] }:
 * the detector's output for `objects` objects, from `seed`.
 */
export function makeHead({ seed = 1, objects: count = 36 } = {}) {
  const next = rng(seed);
  const data = new Float32Array(CHANNELS * ANCHORS);
  const at = (c, a) => c * ANCHORS + a;
  // Background: every anchor's own box, small and where it is, and every class's score noise
  // (mostly under 0.01, never over 0.05).
  for (let a = 0; a < ANCHORS; a++) {
    const { x, y, stride } = anchorOf(a);
    data[at(0, a)] = x + (next() - 0.5) * stride;
    data[at(1, a)] = y + (next() - 0.5) * stride;
    data[at(2, a)] = stride * (1 + 3 * next());
    data[at(3, a)] = stride * (1 + 3 * next());
    for (let c = 0; c < CLASSES; c++) data[at(4 + c, a)] = 0.05 * next() ** 4;
  }
  // An anchor predicts one box: the object it sees most surely keeps it (owner: its class + 1).
  const owner = new Int8Array(ANCHORS), ownerScore = new Float32Array(ANCHORS);
  const objects = [];
  for (let i = 0; i < count; i++) {
    const big = next() < 0.15; // mostly small and middling objects, a few large ones
    const w = 20 + next() * (big ? 300 : 110);
    const h = 20 + next() * (big ? 300 : 110);
    const o = { cls: Math.floor(next() * CLASSES), cx: w / 2 + next() * (SIZE - w), cy: h / 2 + next() * (SIZE - h), w, h };
    objects.push(o);
    const best = levelOf(w, h);
    const peak = 0.55 + 0.4 * next();
    for (const [level, strength] of [[best, 1], [best + 1, 0.45]]) {
      if (level >= STRIDES.length) continue;
      const stride = STRIDES[level], side = SIZE / stride;
      let first = 0;
      for (let l = 0; l < level; l++) first += (SIZE / STRIDES[l]) ** 2;
      const gx0 = Math.floor(o.cx / stride), gy0 = Math.floor(o.cy / stride);
      // The anchors within two cells of the centre's cell, inside the object.
      for (let gy = Math.max(0, gy0 - 2); gy <= Math.min(side - 1, gy0 + 2); gy++) {
        for (let gx = Math.max(0, gx0 - 2); gx <= Math.min(side - 1, gx0 + 2); gx++) {
          const ax = (gx + 0.5) * stride, ay = (gy + 0.5) * stride;
          const d = Math.hypot((ax - o.cx) / (w / 2), (ay - o.cy) / (h / 2)); // 1 at the object's edge
          if (d >= 1) continue;
          const score = peak * strength * Math.exp(-3 * d * d) * (0.9 + 0.1 * next());
          const a = first + gy * side + gx;
          if (score <= ownerScore[a]) continue; // another object's anchor already, more sure
          if (owner[a]) data[at(3 + owner[a], a)] = 0.05 * next() ** 4; // that object's score back to noise
          owner[a] = o.cls + 1;
          ownerScore[a] = score;
          data[at(4 + o.cls, a)] = score;
          // Its box: the object's, a few per cent off in each coordinate.
          const jitter = () => 1 + (next() - 0.5) * 0.08;
          data[at(0, a)] = o.cx + (next() - 0.5) * 0.04 * w;
          data[at(1, a)] = o.cy + (next() - 0.5) * 0.04 * h;
          data[at(2, a)] = w * jitter();
          data[at(3, a)] = h * jitter();
        }
      }
    }
  }
  return { head: { data, shape: [1, CHANNELS, ANCHORS] }, objects };
}
