// The README's relative links work where users read it outside the repository: in node_modules and
// on a CDN's view of the package. Every relative link of README.md, and of every other Markdown file
// the tarball ships (docs/, examples/), names a file that `npm pack` puts in the tarball. Fast: a
// dry run of npm pack, nothing built or installed (the links never point into dist/).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { isAbsolute, linkTargets } from '../lib/markdown-links.mjs';
import { root } from './install.mjs';

const packed = () => {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts', '--loglevel=error'],
    { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  return new Set(JSON.parse(out)[0].files.map((f) => f.path));
};

test('every relative link in README.md and the Markdown files it ships names a file in the tarball', () => {
  const files = packed();
  assert.ok(files.has('README.md'), 'README.md ships');
  const markdown = [...files].filter((f) => f.endsWith('.md'));
  assert.ok(markdown.includes('docs/api.md'), 'docs/ ships');
  const broken = [];
  for (const file of markdown) {
    for (const target of linkTargets(readFileSync(`${root}${file}`, 'utf8'))) {
      if (isAbsolute(target)) continue;
      const [path] = target.split('#');
      if (!path) continue; // a heading of the same file
      const resolved = posix.normalize(posix.join(posix.dirname(file), decodeURIComponent(path)));
      if (!files.has(resolved)) broken.push(`${file}: ${target} (${resolved} is not in the tarball)`);
    }
  }
  assert.deepEqual(broken, []);
});
