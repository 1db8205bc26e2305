// The code reads as floors: no file imports, through any chain, a file that imports it back. JS:
// each module of js/ and common/ and its relative imports. C: each unit of src/ (x.c and x.h are
// one unit, x) and the units of the headers it includes ("x.h"; the .def lists are data, not units).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

const filesUnder = (dir, ext) => readdirSync(join(root, dir), { recursive: true })
  .filter((f) => f.endsWith(ext) && !f.split(/[\\/]/).includes('glue')).map((f) => join(dir, f));

/** The strongly connected components of more than one node (or a node importing itself): the circles. */
export function circles(graph) {
  let next = 0;
  const index = new Map(), low = new Map(), stack = [], on = new Set(), found = [];
  const visit = (v) => {
    index.set(v, next); low.set(v, next); next++;
    stack.push(v); on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) { visit(w); low.set(v, Math.min(low.get(v), low.get(w))); }
      else if (on.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const part = [];
      let w;
      do { w = stack.pop(); on.delete(w); part.push(w); } while (w !== v);
      if (part.length > 1 || graph.get(v)?.has(v)) found.push(part.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

function jsGraph() {
  const graph = new Map();
  for (const f of [...filesUnder('js', '.mjs'), ...filesUnder('common', '.mjs')]) {
    const text = readFileSync(join(root, f), 'utf8');
    const to = new Set();
    for (const m of text.matchAll(/^\s*(?:import|export)\s[^;]*?from\s+'(\.{1,2}\/[^']+)'/gms)) to.add(relative(root, resolve(root, dirname(f), m[1])));
    graph.set(f, to);
  }
  return graph;
}

function cGraph() {
  const graph = new Map();
  const unit = (f) => f.replace(/\.[ch]$/, '');
  for (const f of [...filesUnder('src', '.c'), ...filesUnder('src', '.h')]) {
    const u = unit(f), to = graph.get(u) ?? new Set();
    for (const m of readFileSync(join(root, f), 'utf8').matchAll(/^#include "([\w/]+)\.h"/gm)) {
      const v = join('src', m[1]);
      if (v !== u) to.add(v);
    }
    graph.set(u, to);
  }
  return graph;
}

test('no circle among the JS modules (js/, common/)', () => {
  assert.deepEqual(circles(jsGraph()), []);
});

test('no circle among the C units (src/)', () => {
  assert.deepEqual(circles(cGraph()), []);
});

test('the circle finder finds a circle', () => {
  const g = new Map([['a', new Set(['b'])], ['b', new Set(['c'])], ['c', new Set(['a'])], ['d', new Set(['a'])]]);
  assert.deepEqual(circles(g), [['a', 'b', 'c']]);
  assert.deepEqual(circles(new Map([['a', new Set(['b'])], ['b', new Set()]])), []);
});
