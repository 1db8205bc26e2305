// Runs the fuzz harness (tests/fuzz/fuzz_ops.c) as built for wasm with AddressSanitizer
// (scripts/build-asan.mjs: build/asan/fuzz/): first every entry of the seed corpus
// (tests/fuzz/corpus/<op>/*, each in an allocation of its own size, as libFuzzer passes it), then
// mutated corpus entries (tests/asan-wasm/mutate.mjs) for a given time, seeded. An ASan report or
// a harness failure (a mismatch with its reference, a changed guard byte) prints its text on
// stderr and ends the process; the input being run is always in build/asan/fuzz/<variant>.last
// as "<op> <hex>" (after a report from a pool worker the process hangs and must be killed, so it
// cannot say which input it was). On success that file is removed and the last line of stdout
// is a JSON summary. Then, for --js-seconds, random hostile calls of the library's scatters, fused
// gather-reduce and masks' ops from JS against the sanitized library (build/asan/js/index.mjs,
// tests/asan-wasm/scatter-calls.mjs, bag-calls.mjs and mask-calls.mjs, every third call each: the
// binding's paths, in place, resident and opts.out included), on a pool of 3 threads in the
// threaded variant, every call split over it; the .last file then says "js <seed>:<call>".
// Run by tests/asan-wasm/asan-wasm.test.mjs.
//
//   node tests/asan-wasm/fuzz.mjs [--variant simd|simd-threaded] [--seconds N] [--js-seconds N] [--seed N]
//   node tests/asan-wasm/fuzz.mjs --variant simd --replay $(cat build/asan/fuzz/simd.last)
import { closeSync, ftruncateSync, openSync, readFileSync, readdirSync, unlinkSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { Rng } from '../lib/rng.mjs';
import { mutate } from './mutate.mjs';
import { callOnce as bagCall } from './bag-calls.mjs';
import { callOnce as maskCall } from './mask-calls.mjs';
import { callOnce as scatterCall } from './scatter-calls.mjs';

// Call k of the JS phase: a scatter's, a bag's or a mask op's, in turn.
const callOnce = (api, seed, k) => [scatterCall, bagCall, maskCall][k % 3](api, seed, k);

const root = fileURLToPath(new URL('../..', import.meta.url));
const OPS = readdirSync(join(root, 'tests', 'fuzz', 'corpus')).sort(); // the fuzz targets, as CMakeLists.txt builds them
const { values: opt, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    variant: { type: 'string', default: 'simd' },
    seconds: { type: 'string', default: '20' },
    'js-seconds': { type: 'string', default: '5' },
    seed: { type: 'string', default: '1' },
    replay: { type: 'boolean', default: false },
  },
});

// The harness program: its entry points and a call that copies an input into its own malloc.
async function loadHarness(variant) {
  const base = join(root, 'build', 'asan', 'fuzz', `wasm-gather-fuzz-${variant}`);
  const bytes = readFileSync(`${base}.wasm`);
  let memory;
  const m = await createRequire(import.meta.url)(`${base}.cjs`)({
    wgWorkers: OPS.length, // the threaded program: one pool of 2 threads per op, so one worker each
    // Instantiated here (the 3.1.6 glue cannot load its .wasm from a path in Node), keeping the
    // Memory: exported by the serial build, imported (shared) by the threaded one.
    instantiateWasm(imports, receive) {
      WebAssembly.instantiate(bytes, imports).then(({ instance, module }) => {
        const candidates = [...Object.values(instance.exports), ...Object.values(imports).flatMap(Object.values)];
        memory = candidates.find((v) => v instanceof WebAssembly.Memory);
        receive(instance, module);
      });
      return {};
    },
  });
  return (op, input) => {
    const p = m._malloc(Math.max(input.length, 1));
    new Uint8Array(memory.buffer, p, input.length).set(input);
    m[`_wg_fuzz_${op}`](p, input.length);
    m._free(p);
  };
}

function corpus() {
  return OPS.flatMap((op) => {
    const dir = join(root, 'tests', 'fuzz', 'corpus', op);
    return readdirSync(dir).sort().map((name) => ({ op, name, bytes: new Uint8Array(readFileSync(join(dir, name))) }));
  });
}

const lastInputFile = (variant) => join(root, 'build', 'asan', 'fuzz', `${variant}.last`);
const last = openSync(lastInputFile(opt.variant), 'w');
let running = null;
process.on('exit', () => {
  if (running) console.error(`fuzz (${opt.variant}): failed on ${running}; the input: ${lastInputFile(opt.variant)}`);
});

// Runs one input, first writing it to the .last file; a failure that JS sees (a harness abort)
// ends the process too.
function runOrDie(run, op, input, what) {
  runLogged(`${op} ${Buffer.from(input).toString('hex')}`, what, () => run(op, input));
}

// Runs fn with `line` in the .last file and `what` named if the process ends on the way.
function runLogged(line, what, fn) {
  writeSync(last, `${line}\n`, 0);
  ftruncateSync(last, line.length + 1);
  running = what;
  let result;
  try {
    result = fn();
  } catch (e) {
    console.error(`fuzz (${opt.variant}): ${e?.message ?? e}`);
    process.exit(1);
  }
  running = null;
  return result;
}

// The sanitized library, for the calls from JS.
async function loadLibrary(variant) {
  const api = await import(pathToFileURL(join(root, 'build', 'asan', 'js', 'index.mjs')).href);
  await api.init({ variant, ...(variant === 'simd-threaded' ? { threads: 3 } : {}), parallelThreshold: 0 });
  return api;
}

const run = await loadHarness(opt.variant);
if (opt.replay && positionals[0] === 'js') { // one call from JS: --replay js <seed>:<call>
  const [seed, k] = (positionals[1] ?? '').split(':').map(Number);
  const api = await loadLibrary(opt.variant);
  const outcome = runLogged(`js ${seed}:${k}`, `the call ${seed}:${k} from JS`, () => callOnce(api, seed, k));
  console.log(`replayed the call ${seed}:${k} from JS: ${outcome}, no failure`);
  process.exit(0);
}
if (opt.replay) {
  const [op, hex] = positionals;
  if (!OPS.includes(op) || !/^([0-9a-f]{2})*$/.test(hex ?? '-')) throw new Error(`--replay needs an op (${OPS.join(', ')}) and the input in hex`);
  runOrDie(run, op, Uint8Array.from(Buffer.from(hex, 'hex')), 'the replayed input');
  console.log(`replayed ${hex.length / 2} bytes through wg_fuzz_${op}: no failure`);
  process.exit(0);
}

const entries = corpus();
for (const e of entries) runOrDie(run, e.op, e.bytes, `corpus entry ${e.op}/${e.name}`);

const rng = new Rng(Number(opt.seed));
const all = entries.map((e) => e.bytes);
const byOp = Object.fromEntries(OPS.map((op) => [op, entries.filter((e) => e.op === op).map((e) => e.bytes)]));
const perOp = Object.fromEntries(OPS.map((op) => [op, 0]));
const start = Date.now(), end = start + Number(opt.seconds) * 1000;
let executions = 0;
while (Date.now() < end) {
  for (let k = 0; k < 64; k++) { // the clock is read once per 64 inputs
    const op = rng.pick(OPS);
    const base = rng.pick(rng.chance(0.75) ? byOp[op] : all); // mostly its own op's seeds
    const input = mutate(rng, base, all);
    runOrDie(run, op, input, `mutated input ${executions} (seed ${opt.seed})`);
    perOp[op]++;
    executions++;
  }
}
const seconds = (Date.now() - start) / 1000;

// The scatters, bags and masks called from JS, each call seeded by (seed, its number).
const api = await loadLibrary(opt.variant);
const jsOutcomes = {};
const jsStart = Date.now(), jsEnd = jsStart + Number(opt['js-seconds']) * 1000;
let jsCalls = 0;
while (Date.now() < jsEnd) {
  const k = jsCalls++;
  const outcome = runLogged(`js ${opt.seed}:${k}`, `the call ${opt.seed}:${k} from JS`, () => callOnce(api, Number(opt.seed), k));
  jsOutcomes[outcome] = (jsOutcomes[outcome] ?? 0) + 1;
}
api.dispose();
closeSync(last);
unlinkSync(lastInputFile(opt.variant));
console.log(JSON.stringify({ variant: opt.variant, seed: Number(opt.seed), corpus: entries.length,
  executions, perOp, seconds, jsCalls, jsOutcomes, jsSeconds: (Date.now() - jsStart) / 1000 }));
