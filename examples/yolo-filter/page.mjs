// The example in the browser (index.html): the same head and the same two ways as run.mjs, the
// kept boxes drawn on a canvas, the times beside it. Recomputed when the seed, the number of
// objects or the threshold changes.
//
// For tests: <body data-status="loading"|"pending"|"done"|"error">, and window.__yoloFilter =
// { info, seed, objects, conf, n, boxes, plainBoxes, same, found, times }.
import * as api from 'wasm-gather';
import { ANCHORS, NAMES, SIZE, anchorOf, makeHead } from './data.mjs';
import { boxesOf, detect, filterOurs, filterPlain, iou, nms, sameBits, scoresOver, timeOf } from './filter.mjs';

const $ = (id) => document.getElementById(id);
const hue = (cls) => (cls * 137.508) % 360; // golden-angle hues: neighbouring classes differ
const asBox = (o) => ({ x1: o.cx - o.w / 2, y1: o.cy - o.h / 2, x2: o.cx + o.w / 2, y2: o.cy + o.h / 2 });
const ms = (t) => (t >= 1 ? `${t.toFixed(2)} ms` : `${(t * 1000).toFixed(0)} µs`);

function draw(ctx, boxes, truth, showTruth) {
  ctx.clearRect(0, 0, SIZE, SIZE);
  ctx.fillStyle = '#f4f6f8';
  ctx.fillRect(0, 0, SIZE, SIZE);
  ctx.strokeStyle = '#e3e7eb'; // the stride-32 cells
  ctx.lineWidth = 1;
  for (let v = 32; v < SIZE; v += 32) {
    ctx.beginPath(); ctx.moveTo(v + 0.5, 0); ctx.lineTo(v + 0.5, SIZE); ctx.stroke();
    ctx.beginPath(); ctx.moveTo(0, v + 0.5); ctx.lineTo(SIZE, v + 0.5); ctx.stroke();
  }
  if (showTruth) {
    ctx.setLineDash([4, 4]);
    ctx.strokeStyle = '#8a949e';
    for (const o of truth) { const b = asBox(o); ctx.strokeRect(b.x1, b.y1, b.x2 - b.x1, b.y2 - b.y1); }
    ctx.setLineDash([]);
  }
  ctx.font = '12px system-ui, sans-serif';
  ctx.textBaseline = 'top';
  for (const b of boxes) {
    const colour = `hsl(${hue(b.cls)} 70% 40%)`;
    ctx.strokeStyle = colour;
    ctx.lineWidth = 2;
    ctx.strokeRect(b.x1, b.y1, b.x2 - b.x1, b.y2 - b.y1);
    const label = `${NAMES[b.cls]} ${b.score.toFixed(2)}`;
    const w = ctx.measureText(label).width + 6;
    const x = Math.min(Math.max(b.x1, 0), SIZE - w), y = Math.max(b.y1 - 16, 0);
    ctx.fillStyle = colour;
    ctx.fillRect(x, y, w, 16);
    ctx.fillStyle = '#fff';
    ctx.fillText(label, x + 3, y + 2);
  }
}

function run(ctx, info) {
  const seed = Number($('seed').value) | 0, objects = Math.max(0, Number($('objects').value) | 0), conf = Number($('conf').value);
  $('conf-value').textContent = conf.toFixed(2);
  const { head, objects: truth } = makeHead({ seed, objects });
  const ours = detect(head, (h, keep) => filterOurs(api, h, keep), { conf });
  const plain = detect(head, filterPlain, { conf });
  const same = ours.n === plain.n && sameBits(ours.kept, plain.kept) && ours.anchors.every((a, k) => a === plain.anchors[k]) &&
    JSON.stringify(ours.boxes) === JSON.stringify(plain.boxes);
  const { keep } = scoresOver(head, conf);
  const times = {
    scores: timeOf(() => scoresOver(head, conf)),
    plain: timeOf(() => filterPlain(head, keep)),
    ours: timeOf(() => filterOurs(api, head, keep)),
    nms: timeOf(() => nms(boxesOf(plain))),
  };
  const found = truth.filter((o) => ours.boxes.some((b) => b.cls === o.cls && iou(b, asBox(o)) > 0.5)).length;
  draw(ctx, ours.boxes, truth, $('truth').checked);

  $('counts').textContent = `${ours.n} of ${ANCHORS} anchors over ${conf.toFixed(2)}; ${ours.boxes.length} boxes after NMS; ` +
    `${found} of the ${truth.length} objects found`;
  for (const [k, t] of Object.entries(times)) $(`t-${k}`).textContent = ms(t);
  $('t-ours').parentElement.dataset.ms = times.ours;
  $('t-plain').parentElement.dataset.ms = times.plain;
  $('same').textContent = same ? '✓ the kept boxes are the plain loop\'s, bit for bit' : '✗ the kept boxes differ from the plain loop\'s';
  $('same').className = same ? 'good' : 'bad';
  $('boxes').replaceChildren(...ours.boxes.map((b) => {
    const { stride, gx, gy } = anchorOf(b.anchor);
    const tr = document.createElement('tr');
    for (const v of [NAMES[b.cls], b.score.toFixed(3), ...[b.x1, b.y1, b.x2, b.y2].map((x) => x.toFixed(1)), `${b.anchor} (${stride}: ${gx}, ${gy})`]) {
      tr.append(Object.assign(document.createElement('td'), { textContent: v }));
    }
    tr.firstChild.style.color = `hsl(${hue(b.cls)} 70% 35%)`;
    return tr;
  }));
  window.__yoloFilter = { info, seed, objects, conf, n: ours.n, boxes: ours.boxes, plainBoxes: plain.boxes, same, found, times };
}

async function main() {
  const info = await api.init();
  $('runtime').textContent = `wasm-gather ${info.variant}, ${info.threads} thread${info.threads > 1 ? 's' : ''}` +
    (globalThis.crossOriginIsolated ? ' (cross-origin isolated page)' : ' (page not cross-origin isolated: one thread)');
  const ctx = $('canvas').getContext('2d');
  const again = () => {
    try {
      run(ctx, info);
      document.body.dataset.status = 'done';
    } catch (e) {
      fail(e);
    }
  };
  // A run takes a moment (the times are medians of many calls): one run once the input settles,
  // not one for every step of a dragged slider.
  let timer = 0;
  const schedule = () => {
    $('conf-value').textContent = Number($('conf').value).toFixed(2);
    document.body.dataset.status = 'pending';
    clearTimeout(timer);
    timer = setTimeout(again, 50);
  };
  for (const id of ['seed', 'objects', 'conf', 'truth']) $(id).addEventListener('input', schedule);
  again();
}

function fail(e) {
  document.body.dataset.status = 'error';
  $('error').hidden = false;
  $('error').textContent = `Error: ${e?.stack || e}`;
  console.error(e);
}

main().catch(fail);
