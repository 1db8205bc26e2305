#!/usr/bin/env node
// The one command (from the repository's root, after `npm ci`):
//
//   node examples/edge-classifier/run.mjs [--json]
//
// Trains the classifier in TensorFlow.js with wasm-gather/tfjs (train.mjs: the mean of each
// review's rows by tf.sparse.sparseSegmentMean; then once more the old way, tf.gather and a
// segment sum, to compare the times), bundles the edge function (worker.mjs) with the model as
// wrangler bundles a Worker (esbuild; the .wasm stays a module of its own), serves it with
// workerd, Cloudflare's Workers runtime, and asks it about a few reviews it has never seen.
// Checks that the edge answers exactly what the same model answers in Node; exits with 1 if not,
// or if the held-out accuracy is under 95%.
import { spawn } from 'node:child_process';
import { copyFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import * as api from 'wasm-gather';
import { classify, loadModel } from './classify.mjs';
import { train, trainAndSave } from './train.mjs';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const json = process.argv.includes('--json');
const say = (...a) => { if (!json) console.log(...a); };
const REVIEWS = ['The coffee was really delicious', 'the coffee was not delicious', 'I thought the plot was not boring',
  'our waiter was rude, i must say', 'We found the room not dirty', 'the music was superb and the staff friendly', ''];

// 1. Train, and write build/model.json; then train the old way, for its time (its model unused).
const trained = await trainAndSave();
const old = await train({ fused: false });
const kernels = (r) => Object.entries(r.served).filter(([k]) => k.startsWith('wasm/')).map(([k, n]) => `${k.slice(5)} ${n}`).join(', ');
const result = (r) => `${(r.ms / 1000).toFixed(1)} s, ${r.stepMs.toFixed(1)} ms a step (median): loss ${r.loss.toFixed(4)}, ` +
  `held-out accuracy ${(100 * r.accuracy).toFixed(1)}%`;
say('Trained in TensorFlow.js (wasm backend), 300 steps of 64 reviews:');
say(`  ${'tf.sparse.sparseSegmentMean:'.padEnd(38)} ${result(trained)}`);
say(`    kernels served by wasm-gather/tfjs: ${kernels(trained)}`);
say(`  ${'the old way, tf.gather + a segment sum:'.padEnd(38)} ${result(old)}`);
say(`    kernels served by wasm-gather/tfjs: ${kernels(old)}`);

// 2. Bundle the worker as wrangler does: the .wasm import left as a module of the worker.
let wasmFile;
await build({
  entryPoints: [here('./worker.mjs')], outfile: here('./build/worker.mjs'), bundle: true, format: 'esm',
  conditions: ['workerd', 'worker'], platform: 'browser', target: 'es2022', logLevel: 'silent',
  plugins: [{
    name: 'wasm-modules',
    setup(b) {
      b.onResolve({ filter: /\.wasm$/ }, async (args) => {
        if (args.pluginData?.inner) return undefined;
        wasmFile = (await b.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, pluginData: { inner: true } })).path;
        return { path: `./${basename(wasmFile)}`, external: true };
      });
    },
  }],
});
copyFileSync(wasmFile, here(`./build/${basename(wasmFile)}`));

// 3. Serve it with workerd.
const port = await new Promise((resolve) => {
  const s = createServer().listen(0, '127.0.0.1', () => {
    const free = s.address().port;
    s.close(() => resolve(free));
  });
});
writeFileSync(here('./build/config.capnp'), `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "classifier", worker = .classifier) ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "classifier") ],
);
const classifier :Workerd.Worker = (
  modules = [
    (name = "worker.mjs", esModule = embed "worker.mjs"),
    (name = "${basename(wasmFile)}", wasm = embed "${basename(wasmFile)}"),
  ],
  compatibilityDate = "2025-01-01",
);
`);
const workerd = spawn(fileURLToPath(new URL('../../node_modules/.bin/workerd', import.meta.url)), ['serve', here('./build/config.capnp')],
  { stdio: ['ignore', 'ignore', 'pipe'] });
let stderr = '';
workerd.stderr.on('data', (d) => { stderr += d; });
let answers;
try {
  for (let i = 0; i < 100 && !answers; i++) {
    if (workerd.exitCode !== null) throw new Error(`workerd exited (${workerd.exitCode}): ${stderr}`);
    const res = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: JSON.stringify(REVIEWS) }).catch(() => null);
    if (res) answers = res.ok ? await res.json() : Promise.reject(new Error(`${res.status}: ${await res.text()}`));
    else await new Promise((r) => setTimeout(r, 200));
  }
  if (!answers) throw new Error(`workerd did not answer: ${stderr}`);
} finally {
  workerd.kill();
}

// 4. The same model in Node, for comparison.
await api.init(); // the module wasm-gather/tfjs already loaded
const m = loadModel(api, trained.model);
const inNode = classify(api, m, REVIEWS);
m.table.dispose();
api.dispose();
const same = JSON.stringify(inNode) === JSON.stringify(answers);

say(`\nThe edge function in workerd (one embeddingBag of word and bigram ids, then a linear layer):`);
REVIEWS.forEach((text, i) => say(`  ${JSON.stringify(text).padEnd(48)} ${answers[i].label.padEnd(8)} ${answers[i].p.toFixed(4)}`));
say(same ? '\nIts answers are the same model in Node, exactly.' : '\nIts answers differ from the same model in Node!');
if (json) {
  const { model, ...oldRun } = old;
  console.log(JSON.stringify({ loss: trained.loss, accuracy: trained.accuracy, served: trained.served, ms: trained.ms,
    stepMs: trained.stepMs, old: oldRun, answers, inNode, same }));
}
if (!same || trained.accuracy < 0.95) process.exitCode = 1;
