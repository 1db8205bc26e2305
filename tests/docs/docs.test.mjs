// The documentation: README.md stays short and user-first, every relative link in README.md and
// docs/*.md reaches a file (and, for a Markdown file, a heading) that exists, no text names a
// tracker number instead of saying what it means, docs/api.md's table of each op's options is
// what the ops' descriptors (js/ops/) take, and docs/benchmarks.md is exactly what the
// benchmark's report writer makes of the committed bench/results*.json (npm run bench writes it;
// nobody edits it by hand). Fast: no build, no wasm.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeReport } from '../../bench/lib/report.mjs';
import { OPS } from '../../js/ops/index.mjs';
import { COMMON_OPTIONS, OOB_MODES } from '../../js/tensor.mjs';
import { isAbsolute, linkTargets } from '../lib/markdown-links.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const docs = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
const read = (f) => readFileSync(join(root, f), 'utf8');


// GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, -1, -2 for repeats.
function anchors(md) {
  const seen = new Map();
  const out = new Set();
  for (const [, text] of md.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    const slug = text.toLowerCase().replace(/[^\p{L}\p{N}\- _]/gu, '').replace(/ /g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n ? `${slug}-${n}` : slug);
  }
  return out;
}

test('README.md is at most 20 KB', () => {
  const bytes = statSync(join(root, 'README.md')).size;
  assert.ok(bytes <= 20 * 1024, `README.md is ${bytes} bytes: move the details into docs/`);
});

test('every relative link in README.md and docs/*.md resolves', () => {
  const broken = [];
  for (const file of docs) {
    for (const target of linkTargets(read(file))) {
      if (isAbsolute(target)) continue; // https:, mailto:
      const [path, hash] = target.split('#');
      const resolved = path ? relative(root, join(root, dirname(file), decodeURIComponent(path))) : file;
      if (!existsSync(join(root, resolved))) {
        broken.push(`${file}: ${target} (no ${resolved})`);
      } else if (hash !== undefined && resolved.endsWith('.md') && !anchors(read(resolved)).has(hash)) {
        broken.push(`${file}: ${target} (no heading #${hash} in ${resolved})`);
      }
    }
  }
  assert.deepEqual(broken, []);
});

test('README.md and docs/ name no tracker numbers (the word issue and a number): they say what the thing is', () => {
  const hits = [];
  for (const file of docs) {
    read(file).split('\n').forEach((line, i) => {
      if (/\bissues? #?\d+/i.test(line)) hits.push(`${file}:${i + 1}: ${line.trim()}`);
    });
  }
  assert.deepEqual(hits, []);
});

// The one list of which op takes which option: docs/api.md's table under "Options of the ops", one
// row per op (its name the first code span of the row): its own options (the descriptor's
// `options`), the common ones (its `common`, else all of COMMON_OPTIONS) and the values of
// outOfRange where it takes that (its `modes`, else the gathers'). README.md and docs/scatters.md
// link to it rather than list them again.
test("docs/api.md's table of each op's options is what the ops' descriptors take", () => {
  const section = read('docs/api.md').split(/^## /m).find((s) => s.startsWith('Options of the ops\n'));
  assert.ok(section, 'docs/api.md has a section "Options of the ops"');
  const codes = (cell) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1].replace(/^'(.*)'$/, '$1')).sort();
  const documented = {};
  for (const row of section.split('\n').filter((line) => line.startsWith('| `'))) {
    const [op, own, common, modes] = row.split('|').slice(1, -1);
    const name = op.match(/`([^`]+)`/)[1];
    assert.equal(documented[name], undefined, `docs/api.md: two rows for ${name}`);
    documented[name] = { own: codes(own), common: codes(common), outOfRange: codes(modes) };
  }
  const taken = Object.fromEntries(OPS.map((d) => {
    const common = d.common ?? COMMON_OPTIONS;
    return [d.name, { own: [...d.options].sort(), common: [...common].sort(),
      outOfRange: common.includes('outOfRange') ? [...(d.modes ?? OOB_MODES)].sort() : [] }];
  }));
  assert.deepEqual(documented, taken);
});

test('docs/benchmarks.md and docs/ratios.svg are what the report writer makes of the committed results', () => {
  // bench/run.mjs writes the report there (and --report-only rewrites it from the JSON)...
  const run = read('bench/run.mjs');
  assert.match(run, /here\('\.\.\/docs\/benchmarks\.md'\)/, 'bench/run.mjs writes docs/benchmarks.md');
  assert.match(run, /here\('\.\.\/docs\/ratios\.svg'\)/, 'bench/run.mjs writes docs/ratios.svg');
  assert.ok(!existsSync(join(root, 'bench/RESULTS.md')), 'bench/RESULTS.md is gone: docs/benchmarks.md replaces it');
  // ...and the committed file is exactly its output from the committed JSON (as --report-only makes it).
  const report = JSON.parse(read('bench/results.json'));
  if (existsSync(join(root, 'bench/results-browser.json'))) report.browser = JSON.parse(read('bench/results-browser.json'));
  const dir = mkdtempSync(join(tmpdir(), 'wg-docs-'));
  try {
    writeReport(report, join(dir, 'benchmarks.md'), join(dir, 'ratios.svg'));
    assert.ok(readFileSync(join(dir, 'benchmarks.md'), 'utf8') === read('docs/benchmarks.md'),
      'docs/benchmarks.md differs from the report of bench/results.json: run `node bench/run.mjs --report-only`');
    assert.ok(readFileSync(join(dir, 'ratios.svg'), 'utf8') === read('docs/ratios.svg'),
      'docs/ratios.svg differs from the chart of bench/results.json: run `node bench/run.mjs --report-only`');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
