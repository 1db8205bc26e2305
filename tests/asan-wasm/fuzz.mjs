// Runs the fuzz harness (tests/fuzz/fuzz_ops.c) as built for wasm with AddressSanitizer
// (scripts/build-asan.mjs: build/asan/fuzz/): first every entry of the seed corpus
// (tests/fuzz/corpus/<op>/*, each in an allocation of its own size, as libFuzzer passes it), then
// mutated corpus entries (tests/asan-wasm/mutate.mjs) for a given time, seeded. An ASan report or
// a harness failure (a mismatch with its reference, a changed guard byte) prints its text on
// stderr and ends the process; the input being run is always in build/asan/fuzz/<variant>.last
// as "<op> <hex>" (after a report from a pool worker the process hangs and must be killed, so it
// cannot say which input it was). On success that file is removed and the last line of stdout
// is a JSON summary. Run by tests/asan-wasm/asan-wasm.test.mjs.
//
//   node tests/asan-wasm/fuzz.mjs [--variant simd|simd-threaded] [--seconds N] [--seed N]
//   node tests/asan-wasm/fuzz.mjs --variant simd --replay $(cat build/asan/fuzz/simd.last)
import { closeSync, ftruncateSync, openSync, readFileSync, readdirSync, unlinkSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Rng } from '../lib/rng.mjs';
import { mutate } from './mutate.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const OPS = readdirSync(join(root, 'tests', 'fuzz', 'corpus')).sort(); // the fuzz targets, as CMakeLists.txt builds them
const { values: opt, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    variant: { type: 'string', default: 'simd' },
    seconds: { type: 'string', default: '20' },
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
  const line = `${op} ${Buffer.from(input).toString('hex')}\n`;
  writeSync(last, line, 0);
  ftruncateSync(last, line.length);
  running = what;
  try {
    run(op, input);
  } catch (e) {
    console.error(`fuzz (${opt.variant}): ${e?.message ?? e}`);
    process.exit(1);
  }
  running = null;
}

const run = await loadHarness(opt.variant);
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
closeSync(last);
unlinkSync(lastInputFile(opt.variant));
console.log(JSON.stringify({ variant: opt.variant, seed: Number(opt.seed), corpus: entries.length,
  executions, perOp, seconds: (Date.now() - start) / 1000 }));
