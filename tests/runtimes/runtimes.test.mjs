// The packed package (npm pack, installed into a scratch app as a user would) in every
// non-browser runtime it targets, with their real binaries from npm (.ci/run installs deno, bun
// and workerd with npm install --no-save; see there for the versions): Node through import and
// require, Bun (threads through the Node glue), Deno (the web glue, one thread), Cloudflare's
// workerd and Vercel's edge-runtime (a precompiled module, no compiling), and tsc on a consumer.
// Each runs the README example for it (tests/package/app/) and the smoke suite
// (tests/package/smoke.mjs: every seed example with documented data, 300 seeded random
// cases against the reference, one error, dispose); processes must exit by themselves.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { createServer as createHttpServer } from 'node:http';
import { basename, relative } from 'node:path';
import { packAndInstall, root } from '../package/install.mjs';
import { bundle } from '../package/bundle.mjs';
import { checkSmokeCounts } from '../package/smoke-result.mjs';

const bin = (name) => `${root}node_modules/.bin/${name}`;
// Without the binary (npm ci not run) a runtime is skipped locally, and fails under CI.
// The runtimes are not devDependencies (.ci/run says why); a skipped test names the command that
// installs them, as .ci/run runs it.
const INSTALL_RUNTIMES = readFileSync(new URL('../../.ci/run', import.meta.url), 'utf8').match(/^npm install --no-save .*$/m)?.[0];
const skip = (name) => (existsSync(bin(name)) || process.env.CI ? false : `${name} not installed: run \`${INSTALL_RUNTIMES}\` to enable`);

let pkg; // { app, dir, tarball, packed }
before(() => { pkg = packAndInstall('runtimes'); });

const EXAMPLE_ROWS = [5, 6, 1, 2];
function checkExample(out, variant) {
  assert.equal(out.variant, variant);
  assert.equal(out.simd, true);
  if (variant === 'simd-threaded') assert.ok(out.threads > 1, `threads ${out.threads}`);
  else assert.equal(out.threads, 1);
  assert.deepEqual(out.rows, EXAMPLE_ROWS);
}

function checkSmoke(out, variant) {
  assert.equal(out.info.variant, variant);
  assert.equal(out.info.simd, true);
  if (variant === 'simd-threaded') assert.ok(out.info.threads > 1, `threads ${out.info.threads}`);
  else assert.equal(out.info.threads, 1);
  checkSmokeCounts(out);
}

// Runs a script in the app; it must exit by itself and print JSON on its last line, nothing on stderr.
function run(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: pkg.app, encoding: 'utf8', timeout: 60000, env: { ...process.env, NO_COLOR: '1' } });
  assert.equal(r.error, undefined, `${cmd} ${args.join(' ')} did not exit by itself: ${r.error}`);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr.replace(/^(npm warn|Warning).*\n/gm, ''), '', 'stderr (warnings) should be empty');
  return JSON.parse(r.stdout.trim().split('\n').at(-1));
}

test('the tarball: built .wasm files and glues, no sources, no eval or new Function', () => {
  const files = pkg.packed.files.map((f) => f.path).sort();
  for (const v of ['simd', 'simd-threaded']) {
    assert.ok(files.includes(`dist/wasm-gather-${v}.wasm`), `dist/wasm-gather-${v}.wasm missing`);
    assert.ok(files.includes(`dist/wasm-gather-${v}.web.mjs`) && files.includes(`dist/wasm-gather-${v}.node.cjs`));
  }
  assert.deepEqual(files.filter((f) => /^(src|tests|bench|web-demo|scripts|build)\/|\.build-stamp|glue\//.test(f)), []);
  assert.ok(files.includes('LICENSE') && files.includes('README.md'), 'LICENSE and README.md ship');
  const installed = `${pkg.app}/node_modules/wasm-gather/`;
  for (const f of files.filter((f) => /\.(mjs|cjs|js)$/.test(f))) {
    const text = readFileSync(installed + f, 'utf8');
    assert.doesNotMatch(text, /\beval\s*\(|new\s+Function\b/, `${f} uses eval or new Function`);
  }
  console.log(`tarball ${pkg.packed.filename}: ${pkg.packed.size} bytes packed, ${pkg.packed.unpackedSize} unpacked, ${files.length} files`);
});

test('init: a precompiled Module is instantiated synchronously; bytes that are not wasm are named', async () => {
  const api = await import(`${pkg.app}/node_modules/wasm-gather/js/index.mjs`);
  const wasmFile = `${pkg.app}/node_modules/wasm-gather/dist/wasm-gather-simd.wasm`;
  const module = await WebAssembly.compile(readFileSync(wasmFile));
  const { instantiate, compile } = WebAssembly;
  // Nothing async may be used with a Module: as in workerd, where compiling is refused.
  WebAssembly.instantiate = WebAssembly.compile = () => { throw new Error('compiled or instantiated asynchronously'); };
  try {
    // No variant given: the Module's imports say which build it is (simd here, even in Node).
    assert.deepEqual(await api.init({ wasm: module }), { variant: 'simd', threads: 1, simd: true });
  } finally {
    Object.assign(WebAssembly, { instantiate, compile });
    api.dispose();
  }
  // A misconfigured server that answers every path with its HTML page.
  const server = createHttpServer((req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>app</title>'));
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${server.address().port}/assets/wasm-gather-simd.wasm`;
  try {
    await assert.rejects(api.init({ variant: 'simd', wasm: url }), (e) => {
      assert.equal(e.message, `init: ${url} is not a WebAssembly module (content-type text/html, it starts with ` +
        '"<!doctype html><title>app</title>"); the server must serve the package\'s .wasm file at that URL');
      return true;
    });
  } finally {
    server.close();
  }
  assert.deepEqual(await api.init({ variant: 'simd' }), { variant: 'simd', threads: 1, simd: true }, 'init works after the error');
  api.dispose();
});

test('docs/environments.md: each example is, verbatim, a file these tests run', () => {
  const doc = readFileSync(`${root}docs/environments.md`, 'utf8');
  const blocks = [...doc.matchAll(/```(?:js|html)\n([\s\S]*?)\n```/g)].map((m) => m[1]);
  const files = ['node.mjs', 'node.cjs', 'browser/index.html', 'browser/worker.mjs', 'vite/main.mjs', 'worker.mjs', 'edge/api.mjs'];
  assert.deepEqual(blocks, files.map((f) => readFileSync(`${root}tests/package/app/${f}`, 'utf8').trimEnd()));
});

test('Node, import: threaded', () => {
  checkExample(run(process.execPath, ['node.mjs']), 'simd-threaded');
  checkSmoke(run(process.execPath, ['smoke.mjs']), 'simd-threaded');
});

test('Node, require: threaded', () => {
  checkExample(run(process.execPath, ['node.cjs']), 'simd-threaded');
  checkSmoke(run(process.execPath, ['smoke.cjs']), 'simd-threaded');
  // wasm-gather/tfjs (js/tfjs.cjs): its three functions, the counters at zero before registerKernels,
  // and registerKernels loading the ES module from the installed package.
  const zero = { calls: {}, fallbacks: {}, inPlace: 0, uploads: 0, cached: 0 };
  assert.deepEqual(run(process.execPath, ['tfjs.cjs']), {
    functions: ['kernelStats', 'registerKernels', 'unregisterKernels'], stats: zero, undone: [], done: [], statsAfter: zero,
  });
});

test('Bun: threaded, through the Node glue', { skip: skip('bun') }, () => {
  checkExample(run(bin('bun'), ['node.mjs']), 'simd-threaded');
  checkSmoke(run(bin('bun'), ['smoke.mjs']), 'simd-threaded');
});

test('Deno: the web glue, single-threaded', { skip: skip('deno') }, () => {
  checkExample(run(bin('deno'), ['run', '--allow-read', 'node.mjs']), 'simd');
  checkSmoke(run(bin('deno'), ['run', '--allow-read', 'smoke.mjs']), 'simd');
});

test('TypeScript: tsc --noEmit on a consumer of every export, and on a CommonJS one (require: js/index.d.cts)', () => {
  // nodenext: both consumers; node16: the CommonJS one, where require() of an ES module's types is refused
  for (const config of ['tsconfig.json', 'tsconfig.node16.json']) {
    const r = spawnSync(bin('tsc'), ['--noEmit', '-p', config], { cwd: pkg.app, encoding: 'utf8', timeout: 60000 });
    assert.equal(r.status, 0, `${config}:\n${r.stdout}${r.stderr}`);
  }
});

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    }).on('error', reject);
  });
}

test('Cloudflare workerd: bundled as wrangler does, the .wasm imported as a module, over HTTP', { skip: skip('workerd'), timeout: 90000 }, async () => {
  const out = `${pkg.dir}/workerd`;
  mkdirSync(out, { recursive: true });
  // wrangler: esbuild with the workerd conditions; a .wasm import stays a module of the worker.
  const services = [];
  for (const name of ['worker', 'worker-smoke']) {
    const wasm = await bundle({
      app: pkg.app, entry: `./${name}.mjs`, outfile: `${out}/${name}.mjs`, conditions: ['workerd', 'worker'],
      onWasm: (path) => ({ path: `./${basename(path)}` }),
    });
    services.push({ name, port: await freePort(), wasm: [...new Set(wasm)] });
  }
  writeFileSync(`${out}/config.capnp`, `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ ${services.map((s) => `(name = "${s.name}", worker = .${s.name.replace('-', '')})`).join(', ')} ],
  sockets = [ ${services.map((s) => `(name = "${s.name}", address = "127.0.0.1:${s.port}", http = (), service = "${s.name}")`).join(', ')} ],
);
${services.map((s) => `const ${s.name.replace('-', '')} :Workerd.Worker = (
  modules = [
    (name = "${s.name}.mjs", esModule = embed "${s.name}.mjs"),
${s.wasm.map((w) => `    (name = "${basename(w)}", wasm = embed "${relative(out, w)}"),`).join('\n')}
  ],
  compatibilityDate = "2025-01-01",
);`).join('\n')}
`);
  const child = spawn(bin('workerd'), ['serve', `${out}/config.capnp`], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  try {
    const get = async (port) => {
      for (let i = 0; i < 100; i++) {
        if (child.exitCode !== null) assert.fail(`workerd exited (${child.exitCode}): ${stderr}`);
        const res = await fetch(`http://127.0.0.1:${port}/`).catch(() => null);
        if (res) {
          const body = await res.text();
          assert.equal(res.status, 200, body);
          return JSON.parse(body);
        }
        await new Promise((r) => setTimeout(r, 200));
      }
      assert.fail(`workerd did not answer: ${stderr}`);
    };
    checkExample(await get(services[0].port), 'simd');
    checkSmoke(await get(services[1].port), 'simd');
  } finally {
    child.kill();
  }
});

test('Vercel edge-runtime: bundled with edge-light, the .wasm as a WebAssembly.Module binding', { timeout: 90000 }, async () => {
  const out = `${pkg.dir}/edge`;
  mkdirSync(out, { recursive: true });
  for (const [name, check] of [['api', checkExample], ['smoke', checkSmoke]]) {
    // Next.js: a ?module .wasm import becomes a global binding holding the compiled module.
    const wasm = await bundle({
      app: pkg.app, entry: `./edge/${name}.mjs`, outfile: `${out}/${name}.js`, conditions: ['edge-light', 'worker'],
      format: 'iife', globalName: '__edgeFunction', onWasm: () => ({ contents: 'export default globalThis.wasm_gather_simd;' }),
    });
    assert.equal(basename(wasm[0]), 'wasm-gather-simd.wasm');
    const r = run(process.execPath, [`${root}tests/package/edge-run.mjs`, `${out}/${name}.js`, 'wasm_gather_simd', wasm[0]]);
    assert.equal(r.status, 200, r.body);
    check(JSON.parse(r.body), 'simd');
  }
});
