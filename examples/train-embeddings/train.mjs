#!/usr/bin/env node
// Trains a bag-of-embeddings classifier over a 20000-word vocabulary on TensorFlow.js's wasm and
// cpu backends with wasm-gather/tfjs's kernels, after showing what stock TensorFlow.js does with
// the same step. From the repository's root, after `npm ci`:
//
//   node examples/train-embeddings/train.mjs [--steps 200] [--vocab 20000] [--json]
//
// Exits with 1 if the loss does not fall or the two backends' losses disagree.

// The union package, not only @tensorflow/tfjs-core: tfjs-core's Node entry registers no
// gradients, the union package does (and it re-exports tfjs-core, one copy of it for all).
import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm'; // registers the 'wasm' backend
import { parseArgs } from 'node:util';
import { kernelStats, registerKernels } from 'wasm-gather/tfjs';
import { train } from './model.mjs';
import { stockCpuStep, stockWasmError } from './stock.mjs';

const OPTIONS = {
  steps: { default: '200', help: 'training steps on each backend' },
  vocab: { default: '20000', help: 'words in the vocabulary: rows of the embedding' },
  dim: { default: '32', help: 'embedding width' },
  classes: { default: '8', help: 'classes of sentences' },
  batch: { default: '64', help: 'sentences a step' },
  length: { default: '16', help: 'words a sentence' },
  lr: { default: '0.01', help: "Adam's learning rate" },
  seed: { default: '1', help: 'seed of the data and the initial weights' },
  'stock-vocabs': { default: '100,200,400', help: 'vocabularies at which stock cpu is timed' },
};
const TOLERANCE = 1e-4; // largest |loss on wasm - loss on cpu| accepted: float32 rounding, grown by training

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
  console.log('node examples/train-embeddings/train.mjs [options]\n');
  for (const [k, o] of Object.entries(OPTIONS)) console.log(`  --${k.padEnd(13)} ${o.help} (${o.default})`);
  console.log(`  --json          print the results as one JSON object after the text`);
  process.exit(0);
}
const config = Object.fromEntries(['steps', 'vocab', 'dim', 'classes', 'batch', 'length', 'lr', 'seed'].map((k) => [k, Number(args[k])]));
const stockVocabs = args['stock-vocabs'].split(',').map(Number);
for (const [k, v] of Object.entries(config)) {
  if (!(v > 0) || (k !== 'lr' && !Number.isInteger(v))) usage(`--${k} must be a positive ${k === 'lr' ? 'number' : 'integer'}`);
}
if (stockVocabs.length < 2 || !stockVocabs.every((v) => Number.isInteger(v) && v > 0)) {
  usage('--stock-vocabs must be two or more positive integers, comma-separated: a line is fitted through them');
}

tf.enableProdMode(); // only silences the "install tfjs-node" advice
const s = (ms) => `${(ms / 1000).toFixed(ms < 10000 ? 2 : 0)} s`;
const duration = (ms) => (ms < 120e3 ? s(ms) : ms < 7200e3 ? `${Math.round(ms / 60e3)} min` : `${(ms / 3600e3).toFixed(1)} h`);
console.log(`Bag-of-embeddings classifier: ${config.vocab} words x ${config.dim} dims, ${config.classes} classes, ` +
  `${config.batch} sentences of ${config.length} words a step, Adam (lr ${config.lr}), seed ${config.seed}`);
console.log(`TensorFlow.js ${tf.version.tfjs}\n\nStock TensorFlow.js (no adapter), one training step:`);

// 1. Stock: no kernel on wasm, a loop over the vocabulary on cpu.
const wasmError = await stockWasmError(tf, config);
console.log(`  wasm: ${wasmError ? `fails: ${wasmError.message}` : 'runs (this tfjs has the kernel)'}`);
const cpu = await stockCpuStep(tf, config, stockVocabs);
console.log(`  cpu:  at a vocabulary of ${cpu.points.map((p) => `${p.vocab}: ${s(p.ms)}`).join(', ')}`);
console.log(`        fitted ${cpu.msPerWord.toFixed(2)} ms a word: at ${config.vocab} words one step ≈ ${s(cpu.estimateMs)}, ` +
  `${config.steps} steps ≈ ${duration(cpu.estimateMs * config.steps)}`);

// 2. With wasm-gather/tfjs: the same steps on both backends, from the same weights and batches.
const registered = await registerKernels(tf, { backends: ['cpu', 'wasm'] });
console.log(`\nWith wasm-gather/tfjs (registerKernels: ${registered.length} kernels), ${config.steps} steps:`);
const runs = {};
for (const backend of ['wasm', 'cpu']) {
  await tf.setBackend(backend);
  const before = tf.memory().numTensors;
  const r = runs[backend] = await train(tf, config);
  r.leaked = tf.memory().numTensors - before;
  console.log(`  ${backend.padEnd(4)}: ${s(r.firstStepMs + r.stepMs * (config.steps - 1))}, ${r.stepMs.toFixed(1)} ms a step ` +
    `(the first ${r.firstStepMs.toFixed(0)} ms), held-out accuracy ${(r.accuracy * 100).toFixed(1)}%`);
}
const kernels = kernelStats();
const { calls } = kernels;
console.log(`  UnsortedSegmentSum (tf.gather's gradient) served by wasm-gather: wasm ${calls['wasm/UnsortedSegmentSum'] ?? 0}, ` +
  `cpu ${calls['cpu/UnsortedSegmentSum'] ?? 0} calls`);

// 3. The loss falls, and the backends agree.
console.log('\n  step  loss on wasm  loss on cpu');
// Step 1 and every sixth of the run (0-based indices).
const shown = [...new Set([0, ...Array.from({ length: 6 }, (_, i) => Math.max(0, Math.round(config.steps * (i + 1) / 6) - 1))])];
for (const i of shown) console.log(`  ${String(i + 1).padStart(4)}  ${runs.wasm.losses[i].toFixed(6).padStart(12)}  ${runs.cpu.losses[i].toFixed(6).padStart(11)}`);
const maxDiff = Math.max(...runs.wasm.losses.map((l, i) => Math.abs(l - runs.cpu.losses[i])));
// "Fell": the mean loss of the last tenth of the steps (one batch's loss is noisy) under 3/4 of the first.
const tenth = Math.max(1, Math.floor(config.steps / 10));
const tail = (losses) => losses.slice(-tenth).reduce((a, b) => a + b, 0) / tenth;
const fell = ['wasm', 'cpu'].every((b) => tail(runs[b].losses) < 0.75 * runs[b].losses[0]);
const agree = maxDiff <= TOLERANCE;
console.log(`\n  loss ${fell ? 'fell' : 'did NOT fall'}: ${runs.wasm.losses[0].toFixed(4)} -> ${tail(runs.wasm.losses).toFixed(4)} ` +
  `(mean of the last tenth of the steps) on wasm, ${runs.cpu.losses[0].toFixed(4)} -> ${tail(runs.cpu.losses).toFixed(4)} on cpu`);
console.log(`  backends ${agree ? 'agree' : 'DISAGREE'}: largest |loss on wasm - loss on cpu| ${maxDiff.toExponential(2)} (tolerance ${TOLERANCE})`);
console.log(`  speed-up of one cpu step over stock cpu: ${Math.round(cpu.estimateMs / runs.cpu.stepMs)}x`);

if (args.json) {
  console.log(JSON.stringify({ config, stock: { wasmError: wasmError?.message ?? null, cpu }, runs, kernels, maxDiff, tolerance: TOLERANCE, fell, agree }));
}
process.exitCode = fell && agree ? 0 : 1;
