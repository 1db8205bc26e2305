// Adding an op touches only the op's own files (docs/architecture.md, "Adding an op"): this
// lists the runtime files (src/, js/) that name each op and fails when one is outside the
// allowed places: its C op file, its kernels (if it has its own), its line of src/ops.def, its
// public C declarations (src/wasm_gather.h), its JS descriptor (js/ops/<op>.mjs) and its line in
// the JS list of ops (js/ops/index.mjs), its types (js/index.d.cts) and the entry points' export
// lines (js/index.mjs, js/index.cjs). It also checks that no op file drives the pool or rescans
// the indices: only the runner does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OPS } from '../../js/ops/index.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const MAX_FILES = 9;

/** The runtime files under dir of root (src/, js/; not the Emscripten glue fragments). */
export function runtimeFiles(base = root) {
  const files = [];
  for (const dir of ['src', 'js']) {
    for (const f of readdirSync(join(base, dir), { recursive: true })) {
      const path = join(dir, f);
      if (statSync(join(base, path)).isFile() && !path.startsWith(join('js', 'glue'))) files.push(path);
    }
  }
  return files.sort();
}

const kebab = (name) => name.replace(/[A-Z]+/g, (m) => `-${m.toLowerCase()}`);
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A RegExp that finds op `desc` named in a file: its public names (aliases too) and its C name as
 * words (a '-', '_' or letter next to it makes another word: wasm-gather, gather_nd, gatherND;
 * after a '.' or a '/' it is another library's: tf.gather, .../python/tf/gather),
 * and its C name inside the identifiers C derives from it (wg_<c>_shape, WG_OP_<c>, op_<c>.c).
 */
export function nameMatcher(desc, aliases = []) {
  const words = [desc.name, ...aliases, desc.c, kebab(desc.name)].map(escape);
  const c = escape(desc.c);
  return new RegExp(`(?<![\\w$./-])(?:${words.join('|')})(?![\\w$-])|\\b(?:wg|WG_OP|op)_${c}(?:_(?:shape|ex|run))?\\b|WG_OP\\(${c},`);
}

/** The allowed places of op desc, as path patterns. */
function allowed(desc) {
  return [
    `src/op_${desc.c}.c`, 'src/ops.def', 'src/wasm_gather.h',
    `js/ops/${kebab(desc.name)}.mjs`, 'js/ops/index.mjs', 'js/index.d.cts', 'js/index.mjs', 'js/index.cjs',
  ];
}

// The aliases an op's file exports besides its name (gatherElements).
const aliasesOf = (desc) => [...readFileSync(join(root, 'js/ops', `${kebab(desc.name)}.mjs`), 'utf8')
  .matchAll(/^export const (\w+) = (\w+);/gm)].filter((m) => m[2] === desc.name).map((m) => m[1]);

/** For each op, the runtime files under base that name it. */
export function filesNamingOps(base = root) {
  const texts = runtimeFiles(base).map((f) => [f, readFileSync(join(base, f), 'utf8')]);
  return Object.fromEntries(OPS.map((d) => {
    const re = nameMatcher(d, aliasesOf(d));
    return [d.name, texts.filter(([, text]) => re.test(text)).map(([f]) => f)];
  }));
}

test(`an op is named in at most ${MAX_FILES} runtime files, each one of its own places`, (t) => {
  const found = filesNamingOps();
  const outside = {};
  for (const d of OPS) {
    const files = found[d.name];
    t.diagnostic(`${d.name}: ${files.length} files: ${files.join(', ')}`);
    const extra = files.filter((f) => !allowed(d).includes(f.split('\\').join('/')));
    if (extra.length) outside[d.name] = extra;
    assert.ok(files.length <= MAX_FILES, `${d.name}: ${files.length} files`);
    assert.ok(files.includes(`src/op_${d.c}.c`) && files.includes(`js/ops/${kebab(d.name)}.mjs`), `${d.name}: its own files found`);
  }
  assert.deepEqual(outside, {}, 'ops named outside their own places');
});

test('the matcher tells the ops apart', () => {
  const [take, gatherND, gather] = ['take', 'gatherND', 'gather'].map((n) => OPS.find((d) => d.name === n));
  assert.match('gather(t, 1, i)', nameMatcher(gather));
  assert.match('wg_gather_ex(', nameMatcher(gather));
  assert.match('#include "op_gather.c"', nameMatcher(gather));
  assert.doesNotMatch('wasm-gather gatherND gather_nd gather-nd wg_gather_nd_ex tf.gather', nameMatcher(gather));
  assert.match('gather_nd', nameMatcher(gatherND));
  assert.match("WG_OP(take, WG_T(data)", nameMatcher(take));
});

test('only the runner drives the pool and rescans the indices', () => {
  for (const f of runtimeFiles().filter((p) => p.startsWith('src') && p.endsWith('.c'))) {
    const text = readFileSync(join(root, f), 'utf8');
    const calls = ['wg_parallelize_1d', 'wg_find_bad_index'].filter((fn) => new RegExp(`\\b${fn}\\(`).test(text));
    const own = { 'src/runner.c': 2, 'src/parallel.c': 1, 'src/index_resolve.c': 1 }[f.split('\\').join('/')] ?? 0;
    assert.ok(calls.length <= own, `${relative(root, join(root, f))} calls ${calls.join(', ')}`);
  }
});
