// The README's quick start, as a new user runs it: a fresh `npm init -y` project (CommonJS), the
// packed tarball installed, the README's code saved as the file it names and run with the
// command it shows; the output must be the output the README shows (the first line, init()'s
// answer, may name another variant and thread count on another machine).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pack, root } from './install.mjs';

const readme = readFileSync(join(root, 'README.md'), 'utf8');
const section = readme.slice(readme.indexOf('## Quick start'), readme.indexOf('\n## ', readme.indexOf('## Quick start') + 1));
const blocks = [...section.matchAll(/```(\w*)\n([\s\S]*?)\n```/g)].map((m) => ({ lang: m[1], text: m[2] }));

test('README quick start: pasted into a fresh npm init -y project, it prints what the README shows', () => {
  const code = blocks.find((b) => b.lang === 'js');
  const command = blocks.find((b) => b.lang === 'sh');
  const shown = blocks.find((b) => b.lang === '' && b !== code);
  assert.ok(code && command && shown, 'the section has the code, the command and the output');
  const file = /Save this as `([^`]+)`/.exec(section)?.[1];
  assert.equal(command.text, `node ${file}`, 'the command runs the file the README names');

  const { dir, tarball } = pack('quickstart');
  const app = join(dir, 'fresh');
  mkdirSync(app);
  const npm = (args) => execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd: app, encoding: 'utf8' });
  npm(['init', '-y']);
  assert.equal(JSON.parse(readFileSync(join(app, 'package.json'), 'utf8')).type ?? 'commonjs', 'commonjs', 'npm init -y makes a CommonJS project');
  npm(['install', '--offline', tarball]);
  writeFileSync(join(app, file), `${code.text}\n`);
  const out = execFileSync(process.execPath, [file], { cwd: app, encoding: 'utf8', timeout: 60000 }).trimEnd().split('\n');
  const want = shown.text.split('\n');
  assert.match(out[0], /^\{ variant: 'simd(-threaded)?', threads: \d+, simd: true \}$/);
  assert.deepEqual(out.slice(1), want.slice(1));
  assert.equal(out.length, want.length);
});
