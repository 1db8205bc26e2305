// docs/masks.md's code, as a user pastes it: every ```js block saved as an .mjs file and run with
// node, its output (stdout) exactly the plain ``` block that follows it in the document. The files
// are written under build/ in this repository, where `wasm-gather` resolves to the package itself
// (its package.json "exports"), as it does to the installed package in a user's project.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const root = fileURLToPath(new URL('../..', import.meta.url));
const md = readFileSync(join(root, 'docs/masks.md'), 'utf8');
const blocks = [...md.matchAll(/^```(\w*)\n([\s\S]*?)\n```$/gm)].map((m) => ({ lang: m[1], text: m[2], at: m.index }));
const heading = (at) => [...md.slice(0, at).matchAll(/^#+ +(.+)$/gm)].at(-1)?.[1] ?? '(top)';
const cases = blocks.flatMap((b, i) => (b.lang === 'js' ? [{ code: b.text, shown: blocks[i + 1], where: heading(b.at) }] : []));

test('docs/masks.md has a worked example for each op, each followed by its output', () => {
  assert.ok(cases.length >= 7, `${cases.length} js blocks`);
  for (const op of ['nonZero', 'booleanMask', 'compress', 'maskedScatter']) {
    assert.ok(cases.some((c) => new RegExp(`\\b${op}\\(`).test(c.code)), `a block calls ${op}`);
  }
  for (const c of cases) assert.equal(c.shown?.lang, '', `${c.where}: the js block is followed by its output`);
});

const dir = () => {
  mkdirSync(join(root, 'build'), { recursive: true });
  return mkdtempSync(join(root, 'build', 'docs-masks-'));
};

test('docs/masks.md: every js block runs as pasted and prints the output shown after it', async (t) => {
  const where = dir();
  try {
    // All at once: each process mostly waits for its module and workers to start.
    const outs = await Promise.all(cases.map((c, i) => {
      const file = join(where, `block-${i}.mjs`);
      writeFileSync(file, `${c.code}\n`);
      return promisify(execFile)(process.execPath, [file], { cwd: where, timeout: 60e3 });
    }));
    for (const [i, c] of cases.entries()) {
      const { stdout } = outs[i];
      t.diagnostic(`${c.where}: ${stdout.trimEnd().split('\n').length} lines`);
      assert.equal(stdout.trimEnd(), c.shown.text, `${c.where} (block ${i})`);
    }
  } finally {
    rmSync(where, { recursive: true, force: true });
  }
});
