#!/usr/bin/env node
// Trains a two-tower retrieval model in Node with wasm-gather's embeddingBag and
// embeddingBagBackward on resident tables, then serves the top 10 items for users it never saw.
// From the repository's root, after `npm ci`:
//
//   node examples/two-tower/train.mjs [--epochs 3] [--dim 32] [--batch 128] [--json]
//
// Exits with 1 if the loss does not fall or the model's recall@10 is not well above popularity's.
import { parseArgs } from 'node:util';
import { init } from 'wasm-gather';
import { GENRES, HISTORY, ITEMS, makeData, rng } from './data.mjs';
import { best, makeModel, topK } from './model.mjs';

const OPTIONS = {
  epochs: { default: '3', help: 'passes over the training pairs' },
  batch: { default: '128', help: '(user, item) pairs a step: each user has the batch\'s other items as negatives' },
  dim: { default: '32', help: 'width of the vectors' },
  lr: { default: '0.05', help: "Adagrad's learning rate" },
  users: { default: '4000', help: 'training users' },
  seed: { default: '1', help: 'seed of the data, the initial weights and the batches' },
  threads: { default: '', help: "wasm-gather's threads (default: init()'s)" },
};
const K = 10;

const usage = (message) => {
  console.error(`train.mjs: ${message} (--help lists the options)`);
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
  console.log('node examples/two-tower/train.mjs [options]\n');
  for (const [k, o] of Object.entries(OPTIONS)) console.log(`  --${k.padEnd(9)} ${o.help}${o.default ? ` (${o.default})` : ''}`);
  console.log('  --json      print the results as one JSON object after the text');
  process.exit(0);
}
const config = Object.fromEntries(['epochs', 'batch', 'dim', 'lr', 'users', 'seed'].map((k) => [k, Number(args[k])]));
for (const [k, v] of Object.entries(config)) {
  if (!(v > 0) || (k !== 'lr' && !Number.isInteger(v))) usage(`--${k} must be a positive ${k === 'lr' ? 'number' : 'integer'}`);
}
const threads = args.threads === '' ? undefined : Number(args.threads);
if (threads !== undefined && !(Number.isInteger(threads) && threads > 0)) usage('--threads must be a positive integer');

const info = await init(threads === undefined ? {} : { threads });
const start = performance.now();
const { items, train, heldOut } = makeData({ trainUsers: config.users, seed: config.seed });

// The training pairs: each training user with each of their positives. logQ: how often each item
// is a positive (smoothed), for the sampled softmax's correction.
const pairs = train.flatMap((user) => Array.from(user.positives, (item) => ({ user, item })));
const counts = new Float64Array(ITEMS).fill(1);
for (const { item } of pairs) counts[item]++;
const total = counts.reduce((a, b) => a + b, 0);
const logQ = Float64Array.from(counts, (c) => Math.log(c / total));

const model = makeModel(items, { dim: config.dim, lr: config.lr, seed: config.seed, logQ });
console.log(`Two-tower retrieval: ${ITEMS} items, ${train.length} training users (${pairs.length} pairs), ` +
  `${heldOut.length} held-out users; dim ${config.dim}, batch ${config.batch}, Adagrad (lr ${config.lr}), seed ${config.seed}`);
console.log(`wasm-gather ${info.variant}, ${info.threads} thread${info.threads > 1 ? 's' : ''}\n`);

// ---- Training: shuffled pairs, `batch` a step; the loss of each step before its update.
const next = rng(config.seed ^ 0xba7c4);
const losses = [];
const epochLoss = [];
const trainStart = performance.now();
console.log(`  epoch  mean loss (a softmax over the batch's ${config.batch} items)`);
for (let epoch = 0; epoch < config.epochs; epoch++) {
  for (let i = pairs.length - 1; i > 0; i--) { // Fisher-Yates
    const j = Math.floor(next() * (i + 1));
    [pairs[i], pairs[j]] = [pairs[j], pairs[i]];
  }
  const first = losses.length;
  for (let s = 0; s + config.batch <= pairs.length; s += config.batch) {
    const batch = pairs.slice(s, s + config.batch);
    losses.push(model.step(batch.map((p) => p.user), batch.map((p) => p.item)));
  }
  const part = losses.slice(first);
  epochLoss.push(part.reduce((a, b) => a + b, 0) / part.length);
  console.log(`  ${String(epoch + 1).padStart(5)}  ${epochLoss[epoch].toFixed(4).padStart(9)}${epoch === 0 ? `  (first step ${losses[0].toFixed(4)})` : ''}`);
}
const trainMs = performance.now() - trainStart;
const ms = (t) => `${(t / losses.length).toFixed(1)} ms`;
console.log(`  ${losses.length} steps in ${(trainMs / 1000).toFixed(1)} s, ${ms(trainMs)} a step: wasm-gather's 4 calls ` +
  `${ms(model.time.calls)}, Adagrad ${ms(model.time.update)}, the rest the loss and its gradient in JS`);

// ---- Serving: every item's vector once, then each held-out user's top 10 (their history left out).
const V = model.itemVectors(Array.from({ length: ITEMS }, (_, i) => i)).data;
const U = model.userVectors(heldOut).data;
const recommended = topK(U, V, config.dim, K, (u) => heldOut[u].history);
// The baseline: the items the training users consumed most (their histories and positives).
const popular = new Float64Array(ITEMS);
for (const user of train) for (const item of [...user.history, ...user.positives]) popular[item]++;
const byPopularity = (u) => { const s = Float64Array.from(popular); for (const j of heldOut[u].history) s[j] = -Infinity; return best(s, K); };
const recall = (lists) => heldOut.reduce((sum, user, u) => sum + lists[u].filter((j) => user.positives.includes(j)).length / user.positives.length, 0) / heldOut.length;
const modelRecall = recall(recommended);
const popularRecall = recall(heldOut.map((_, u) => byPopularity(u)));
const randomRecall = K / (ITEMS - HISTORY); // expected: K of the items not in the history
const positives = heldOut[0].positives.length;
console.log(`\nTop ${K} of ${ITEMS} items for ${heldOut.length} held-out users (never trained on; their ${HISTORY} history items ` +
  `left out), recall@${K} of their ${positives} held-out items:`);
console.log(`  two-tower model  ${modelRecall.toFixed(3)}`);
console.log(`  most popular     ${popularRecall.toFixed(3)}`);
console.log(`  random           ${randomRecall.toFixed(3)} (expected)`);

// One held-out user: the genres of their history, of their held-out items and of their top 10;
// the first whose history has two genres 3 times or more (two tastes to find).
const genreCounts = (list) => { const n = new Array(GENRES).fill(0); for (const j of list) n[items.genre[j]]++; return n; };
const genres = (list) => genreCounts(list).map((c, g) => [g, c]).filter(([, c]) => c > 0)
  .sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([g, c]) => `${g}×${c}`).join(' ');
const who = Math.max(0, heldOut.findIndex((u) => genreCounts(u.history).filter((c) => c >= 3).length >= 2));
const shown = heldOut[who];
console.log(`\nHeld-out user ${who}, the genres (of ${GENRES}) of their items, ×count:`);
console.log(`  history    ${genres(shown.history)}`);
console.log(`  held out   ${genres(shown.positives)}  items ${Array.from(shown.positives).join(', ')}`);
console.log(`  top ${K}     ${genres(recommended[who])}  items ${recommended[who].map((j) => `${j}${shown.positives.includes(j) ? '*' : ''}`).join(', ')}` +
  '  (* held out)');
const seconds = (performance.now() - start) / 1000;
console.log(`\n${seconds.toFixed(1)} s in all`);
model.dispose();

const tenth = Math.max(1, Math.floor(losses.length / 10));
const tail = losses.slice(-tenth).reduce((a, b) => a + b, 0) / tenth;
const fell = tail < 0.9 * losses[0];
const beats = modelRecall > 2 * popularRecall;
if (args.json) {
  console.log(JSON.stringify({ config, info, losses, epochLoss, modelRecall, popularRecall, randomRecall,
    shown: { history: Array.from(shown.history), positives: Array.from(shown.positives), top: recommended[who], index: who }, fell, beats, trainMs }));
}
process.exitCode = fell && beats ? 0 : 1;
