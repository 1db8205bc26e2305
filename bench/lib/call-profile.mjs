// Where a plain call's time goes (the C suite's breakdown): run as a child process per case by
// bench/call-suite.mjs, `node bench/lib/call-profile.mjs <case id> [ms]`, it sets the case up as
// the suite does (bench/lib/call-cost.mjs, its output checked), calls it for a while, then again
// under V8's sampling CPU profiler (node:inspector's Profiler, a small sampling interval), and
// prints one line of JSON: each sample's self time put in a category by its function's name and
// file (categoryOf), the wasm samples also by the export JS called (its entry), and the functions
// with the most self time.
// A function that is not one of the library's (a builtin such as the wasm memory's buffer getter,
// or js/abi.mjs's lookups) takes the category of the nearest caller that has one.
import { readFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { fileURLToPath } from 'node:url';

/** The categories, in the report's order. */
export const CATEGORIES = {
  validation: 'validation (the tensors\' checks)',
  options: 'options',
  layout: 'layout and call-record writing',
  wasm: 'the wasm call(s)',
  copies: 'copies in and out',
  result: 'result objects and GC',
  other: 'other',
};

// The library's functions by file: name -> category ('*': any other function of the file).
const BY_FILE = {
  'js/tensor.mjs': { commonOptions: 'options', checkOptionNames: 'options', optionNames: 'options', loose: 'options',
    outputTarget: 'options', checkOut: 'options', sameShape: 'options', integerArg: 'options',
    writeIndices: 'copies', clampToInt64: 'copies', '*': 'validation' },
  'js/scatter-options.mjs': { reduceAttrs: 'options', '*': 'validation' },
  'js/resident.mjs': { live: 'validation', describe: 'validation', ResidentTensor: 'result', read: 'copies', view: 'copies', '*': null },
  // the ops' descriptors: read (their tensors' checks), attrs (their options)
  'js/ops/': { read: 'validation', attrs: 'options', '*': null },
  // desc.fn: the op's public function (its rest arguments), the entry of every call
  'js/call.mjs': { inPlaceTarget: 'options', copyIn: 'copies', copyOf: 'copies', deliver: 'result', deliverResult: 'result',
    'desc.fn': 'other', '(anonymous)': 'result', '*': 'layout' },
  'js/copy-plan.mjs': { executePlan: 'copies', executeScatterPlan: 'copies', addScatterPlan: 'copies', wordsOf: 'copies',
    wordWidth: 'copies', '*': 'layout' },
  'js/prepared.mjs': { '*': 'layout' },
  'js/state.mjs': { '*': 'other' },
  'js/abi.mjs': { '*': null },
};
// Builtins that copy bytes (no file): copies; other builtins take their caller's category.
const COPY_BUILTINS = new Set(['set', 'slice', 'copyWithin', 'fill', 'TypedArrayPrototypeSet']);

/** A profile node's category, or null: its caller's. */
export function categoryOf({ functionName: name, url }) {
  if (url.startsWith('wasm://')) return 'wasm';
  if (name === '(garbage collector)') return 'result';
  if (name === '(program)' || name === '(idle)' || name === '(root)') return 'other';
  if (url === '') return COPY_BUILTINS.has(name) ? 'copies' : null;
  if (/\/dist\/wasm-gather[^/]*$/.test(url)) return 'wasm'; // Emscripten's wrappers of the exports
  const m = url.match(/\/(js\/(?:ops\/)?)[^/]+$/);
  if (!m) return 'other'; // the harness
  const file = m[1] === 'js/ops/' ? 'js/ops/' : url.slice(url.lastIndexOf('/js/') + 1);
  const table = BY_FILE[file];
  if (!table) return 'other';
  const key = name || '(anonymous)';
  return Object.hasOwn(table, key) ? table[key] : table['*'] ?? null;
}

/**
 * The C names of the exports, from Emscripten's glue: the build minifies the wasm's export names
 * and the glue binds each C function to one (`var _wg_call_run=Module["_wg_call_run"]=function(){
 * return(_wg_call_run=...=Module["asm"]["e"])...`): Map minified -> C name.
 */
export function gluedNames(glue) {
  const out = new Map();
  for (const [, c, short] of glue.matchAll(/var _(\w+)=Module\["_\1"\]=function\(\)\{return\(_\1=Module\["_\1"\]=Module\["asm"\]\["(\w+)"\]\)/g)) out.set(short, c);
  return out;
}

/**
 * The names of a wasm binary's exported functions by function index (imports counted first),
 * through `rename` (gluedNames) where it has them.
 */
export function exportNames(bytes, rename = new Map()) {
  let at = 8;
  const u32 = () => {
    let v = 0, shift = 0, b;
    do { b = bytes[at++]; v |= (b & 0x7f) << shift; shift += 7; } while (b & 0x80);
    return v >>> 0;
  };
  const name = () => { const n = u32(); const s = new TextDecoder().decode(bytes.subarray(at, at + n)); at += n; return s; };
  const limits = () => { const f = u32(); u32(); if (f & 1) u32(); };
  let imported = 0;
  const out = new Map();
  while (at < bytes.length) {
    const id = bytes[at++], size = u32(), end = at + size;
    if (id === 2) {
      for (let n = u32(); n > 0; n--) {
        name(); name();
        const kind = bytes[at++];
        if (kind === 0) { u32(); imported++; } else if (kind === 1) { at++; limits(); } else if (kind === 2) limits();
        else if (kind === 3) at += 2; else if (kind === 4) { at++; u32(); }
      }
    } else if (id === 7) {
      for (let n = u32(); n > 0; n--) {
        const e = name(), kind = bytes[at++], index = u32();
        if (kind === 0) out.set(index, rename.get(e) ?? e);
      }
    }
    at = end;
  }
  return { imported, names: out };
}

// Lines that copy bytes, within any of the library's functions: a TypedArray set(); in deliver,
// also the line that makes the view of wasm memory the result is copied from.
const COPY_LINE = /\.set\(/;
const DELIVER_VIEW = /new \w+\(s\.memory\.buffer/;

// The source lines of a file: URL (cached), [] where it cannot be read.
const sources = new Map();
function linesOf(url) {
  if (!sources.has(url)) {
    let lines = [];
    try { lines = readFileSync(fileURLToPath(url), 'utf8').split('\n'); } catch { /* not a file */ }
    sources.set(url, lines);
  }
  return sources.get(url);
}

/**
 * A CPU profile's self time by category: { samples, categories: { name: share }, wasm: { entry:
 * share } (each wasm sample by the export JS called), top: [[function, share]] }, shares of all
 * samples. names: exportNames(...).names of the module profiled. Each function's samples go to
 * its category, but those on its lines that copy (COPY_LINE, by V8's line ticks) to copies.
 */
export function breakdown(profile, names) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const cache = new Map();
  const categoryAt = (id) => {
    if (cache.has(id)) return cache.get(id);
    const n = nodes.get(id);
    let c = categoryOf(n.callFrame);
    if (c === null) c = parent.has(id) ? categoryAt(parent.get(id)) : 'other';
    cache.set(id, c);
    return c;
  };
  // the wasm export a wasm sample's stack entered by
  const entryAt = (id) => {
    let top = nodes.get(id);
    for (let p = parent.get(id); p !== undefined && nodes.get(p).callFrame.url.startsWith('wasm://'); p = parent.get(p)) top = nodes.get(p);
    const index = Number(top.callFrame.functionName.match(/\[(\d+)\]/)?.[1]);
    return names.get(index) ?? top.callFrame.functionName;
  };
  // the samples of a node on lines that copy
  const copyTicks = (n) => {
    const { url, functionName } = n.callFrame;
    if (!/\/js\//.test(url) || !n.positionTicks) return 0;
    const lines = linesOf(url);
    return n.positionTicks.reduce((a, { line, ticks }) => {
      const text = lines[line - 1] ?? '';
      return a + (COPY_LINE.test(text) || (functionName === 'deliver' && DELIVER_VIEW.test(text)) ? ticks : 0);
    }, 0);
  };
  const categories = Object.fromEntries(Object.keys(CATEGORIES).map((k) => [k, 0]));
  const wasm = {}, fns = {};
  const total = profile.nodes.reduce((a, n) => a + (n.hitCount ?? 0), 0);
  for (const n of profile.nodes) {
    const hits = n.hitCount ?? 0;
    if (!hits) continue;
    const c = categoryAt(n.id), copied = c === 'copies' ? 0 : Math.min(hits, copyTicks(n));
    categories[c] += (hits - copied) / total;
    categories.copies += copied / total;
    const isWasm = n.callFrame.url.startsWith('wasm://');
    if (isWasm) {
      const e = entryAt(n.id);
      wasm[e] = (wasm[e] ?? 0) + hits / total;
    }
    const f = isWasm ? `wasm: ${entryAt(n.id)}`
      : `${n.callFrame.functionName || '(anonymous)'}${n.callFrame.url ? ` (${n.callFrame.url.replace(/^.*?\/((?:js|bench|dist)\/)/, '$1')})` : ''}`;
    fns[f] = (fns[f] ?? 0) + hits / total;
  }
  const top = Object.entries(fns).sort((a, b) => b[1] - a[1]).slice(0, 10);
  return { samples: total, categories, wasm, top };
}

// ---- the child process ----
async function main([id, msArg]) {
  const api = await import('../../js/index.mjs');
  const { C_INIT, setUpRows } = await import('./call-cost.mjs');
  const ms = Number(msArg ?? 2000);
  await api.init(C_INIT);
  const set = setUpRows(api, { ids: [id], forms: ['plain'] });
  const { batch } = set.rows[0];
  let t = performance.now();
  while (performance.now() - t < Math.min(500, ms / 2)) batch(500);
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 25 }); // µs (the sampler runs as often as it can)
  await session.post('Profiler.start');
  t = performance.now();
  let calls = 0;
  while (performance.now() - t < ms) { batch(500); calls += 500; }
  const elapsed = performance.now() - t;
  const { profile } = await session.post('Profiler.stop');
  session.disconnect();
  set.dispose();
  const dist = (ext) => readFileSync(fileURLToPath(new URL(`../../dist/wasm-gather-${C_INIT.variant}${ext}`, import.meta.url)));
  const { names } = exportNames(dist('.wasm'), gluedNames(dist('.node.cjs').toString()));
  process.stdout.write(JSON.stringify({ id, profiledUsPerCall: (elapsed * 1000) / calls, ...breakdown(profile, names) }) + '\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main(process.argv.slice(2));
