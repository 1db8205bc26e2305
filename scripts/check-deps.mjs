#!/usr/bin/env node
// Run by `npm test` (pretest) before anything else: the tests need the devDependencies of
// package.json (onnxruntime-web, tfjs, esbuild, playwright-core, ...). On a fresh clone without
// `npm ci`, stop at once with the one command to run, instead of building the wasm and then
// failing half the suites on a missing module.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const { devDependencies = {} } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const missing = Object.keys(devDependencies).filter((name) => !existsSync(join(root, 'node_modules', name, 'package.json')));
if (missing.length) {
  console.error(`wasm-gather: the test dependencies are not installed (${missing.join(', ')}): run \`npm ci\` first, then \`npm test\`.`);
  process.exit(1);
}
