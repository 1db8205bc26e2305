// A build in which every number C and JS share differs from the real one: a copy of the sources
// whose src/wasm_gather.h renumbers every status (WG_OK stays 0), argument code, index type,
// out-of-range mode, negative-index policy, quant type and scale type, whose src/ops.def lists
// the ops in reverse, whose src/call.def lists the tensor slots and the attributes in reverse
// (so every field of the call record moves) and whose src/call.h lists the element types in
// reverse but NONE (0: a record zeroed by wg_call_init has no tensors), built (the Node glues of both
// variants) into a package-shaped folder with an unchanged copy of js/. tests/abi/abi.test.mjs runs
// the op suites (tests/ops/) and tests/unit/api-errors.test.mjs against it: they pass only if JS
// holds none of the numbers.
// Usage: node tests/abi/renumbered-build.mjs  (prints the folder; rebuilt when an input changed)
import { copyFileSync, cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { VARIANTS, artifacts, cmakeBuild, inputs, patchGlues, root, stamp, upToDate } from '../../scripts/wasm-build.mjs';

export const out = join(root, 'build', 'abi-renumbered');
const sources = join(out, 'source');
const buildDir = join(out, 'build');
const LIBRARY = artifacts({ web: false });

// New values per enum of the header: each maps an old value to a new one.
const RENUMBER = {
  wg_status: (v) => (v === 0 ? 0 : 100 - v),
  wg_arg: (v) => 40 + v,
  wg_index_type: (v) => 3 - v,
  wg_oob_mode: (v) => 2 - v,
  wg_negative_mode: (v) => 1 - v,
  wg_quant_type: (v) => 9 - v,
  wg_scale_type: (v) => 5 + v,
};

export function renumberHeader(text) {
  return text.replace(/typedef enum (\w+) \{([\s\S]*?)\} \1;/g, (whole, name, body) => {
    const f = RENUMBER[name];
    if (!f) return whole;
    return whole.replace(/^(\s*WG_[A-Z0-9_]+\s*=\s*)(\d+)/gm, (m, lhs, v) => `${lhs}${f(Number(v))}`);
  });
}

function build() {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(sources, { recursive: true });
  // what CMakeLists.txt reads (the ASan build's pre-js files are link dependencies of every glue)
  for (const entry of ['CMakeLists.txt', 'src', 'js', 'tests/asan-wasm']) cpSync(join(root, entry), join(sources, entry), { recursive: true });
  const header = join(sources, 'src', 'wasm_gather.h');
  writeFileSync(header, renumberHeader(readFileSync(header, 'utf8')));
  const ops = join(sources, 'src', 'ops.def');
  const lines = readFileSync(ops, 'utf8').split('\n');
  const opLines = lines.filter((l) => l.startsWith('WG_OP('));
  writeFileSync(ops, [...lines.filter((l) => !l.startsWith('WG_OP(')), ...opLines.reverse()].join('\n') + '\n');
  const call = join(sources, 'src', 'call.def');
  const callLines = readFileSync(call, 'utf8').split('\n');
  const listed = (kind) => callLines.filter((l) => l.startsWith(`WG_${kind}(`));
  writeFileSync(call, [...callLines.filter((l) => !/^WG_(TENSOR|ATTR)\(/.test(l)), ...listed('TENSOR').reverse(), ...listed('ATTR').reverse()].join('\n') + '\n');
  const callH = join(sources, 'src', 'call.h');
  writeFileSync(callH, readFileSync(callH, 'utf8').replace(/(#define WG_DTYPES\(X\)\s*\\\n)([\s\S]*?)\n\n/, (whole, head, list) => {
    const entries = list.match(/X\(\w+, \d+\)/g);
    return `${head}  ${[entries[0], ...entries.slice(1).reverse()].join(' ')}\n\n`;
  }));
  cmakeBuild(buildDir, { source: sources, targets: LIBRARY.filter(({ from }) => from.endsWith('.cjs')).map(({ from }) => from) });
  for (const dir of ['dist', 'js']) mkdirSync(join(out, dir), { recursive: true });
  for (const { from, to } of LIBRARY) copyFileSync(join(buildDir, from), join(out, 'dist', to));
  cpSync(join(root, 'js'), join(out, 'js'), { recursive: true });
  patchGlues(VARIANTS.filter((v) => v.threads).map((v) => join(out, 'dist', `wasm-gather-${v.name}.node.cjs`)), { web: false });
  writeFileSync(join(out, 'dist', 'package.json'), '{ "type": "commonjs" }\n'); // the worker glue is CommonJS
}

/** Builds when needed; returns the path of the renumbered library's js/index.mjs. */
export function renumberedBuild() {
  const stampFile = join(out, '.build-stamp');
  const s = stamp(inputs([relative(root, fileURLToPath(import.meta.url)), 'js']));
  if (!upToDate(stampFile, s, [...LIBRARY.map(({ to }) => join(out, 'dist', to)), join(out, 'js', 'index.mjs')])) {
    build();
    writeFileSync(stampFile, s);
  }
  return join(out, 'js', 'index.mjs');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(renumberedBuild());
