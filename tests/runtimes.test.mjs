// The library in the other runtimes it targets, with their real binaries from npm (.ci/run
// installs them with npm install --no-save; see there for the versions):
// Bun (threads through the Node glue), Deno (the web glue, no threads) and Cloudflare's workerd
// (the web glue, a precompiled module, no threads, no compiling). Each runs
// tests/fixtures/runtime-smoke.mjs: every seed example with documented data, 300 seeded random
// cases against the reference, one error, and dispose; Bun and Deno must also exit by themselves.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name) => `${root}node_modules/.bin/${name}`;
// Without the binary (npm ci not run) a runtime is skipped locally, and fails under CI.
const skip = (name) => (existsSync(bin(name)) || process.env.CI ? false : `${name} not installed (see .ci/run)`);

function checkSmoke(out, variant) {
  assert.equal(out.info.variant, variant);
  assert.equal(out.info.simd, true);
  if (variant === 'simd-threaded') assert.ok(out.info.threads > 1, `threads ${out.info.threads}`);
  assert.deepEqual(out.seeds.failures, []);
  assert.ok(out.seeds.total >= 20 && out.seeds.passed === out.seeds.total, JSON.stringify(out.seeds));
  assert.deepEqual(out.random.failures, []);
  assert.equal(out.random.passed, 300);
  assert.match(out.error, /^RangeError: take: indices\[0\] = 3 is out of range for dimension 0 of params, which has size 3/);
}

function runScript(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: root, encoding: 'utf8', timeout: 60000 });
  assert.equal(r.error, undefined, `${cmd} did not exit by itself: ${r.error}`);
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout.trim().split('\n').at(-1));
}

test('Bun: threaded, through the Node glue', { skip: skip('bun') }, () => {
  checkSmoke(runScript(bin('bun'), ['tests/fixtures/runtime-main.mjs']), 'simd-threaded');
});

test('Deno: the web glue, single-threaded', { skip: skip('deno') }, () => {
  checkSmoke(runScript(bin('deno'), ['run', '--allow-read', 'tests/fixtures/runtime-main.mjs']), 'simd');
});

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    }).on('error', reject);
  });
}

// The modules the worker may load, as named in its config (relative imports resolve by name).
const WORKERD_MODULES = [
  ['worker.mjs', 'tests/fixtures/workerd-worker.mjs'],
  ...readdirSync(`${root}js`).filter((f) => f.endsWith('.mjs')).map((f) => [`js/${f}`, `js/${f}`]),
  ...['fixtures/runtime-smoke', 'seed-examples', 'random-cases', 'reference', 'rng'].map((f) => [`tests/${f}.mjs`, `tests/${f}.mjs`]),
  ['dist/wasm-gather-simd.web.mjs', 'dist/wasm-gather-simd.web.mjs'],
];

test('workerd: a precompiled module through the web glue', { skip: skip('workerd'), timeout: 60000 }, async () => {
  const port = await freePort();
  const dir = `${root}build/workerd`;
  mkdirSync(dir, { recursive: true });
  // embed paths are relative to the config file, which lives in build/workerd/
  const modules = WORKERD_MODULES.map(([name, file]) => `    (name = "${name}", esModule = embed "../../${file}"),`);
  modules.push('    (name = "dist/wasm-gather-simd.wasm", wasm = embed "../../dist/wasm-gather-simd.wasm"),');
  writeFileSync(`${dir}/config.capnp`, `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .w) ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);
const w :Workerd.Worker = (
  modules = [
${modules.join('\n')}
  ],
  compatibilityDate = "2025-01-01",
);
`);
  const child = spawn(bin('workerd'), ['serve', `${dir}/config.capnp`], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  try {
    let res;
    for (let i = 0; i < 100 && !res; i++) {
      if (child.exitCode !== null) assert.fail(`workerd exited (${child.exitCode}): ${stderr}`);
      res = await fetch(`http://127.0.0.1:${port}/`).catch(() => new Promise((r) => setTimeout(r, 200)));
    }
    assert.ok(res, `workerd did not answer: ${stderr}`);
    const body = await res.text();
    assert.equal(res.status, 200, body);
    checkSmoke(JSON.parse(body), 'simd');
  } finally {
    child.kill();
  }
});
