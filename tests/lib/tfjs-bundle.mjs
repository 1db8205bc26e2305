// One copy of TensorFlow.js for a test, with what tfjs-core's own test setup registers beside
// its ops: the gradients and the chained ops (x.gather(...)), and the cpu and wasm backends.
//
// Why a bundle: in Node, `import * as tf from '@tensorflow/tfjs-core'` loads its CommonJS build
// (dist/tf-core.node.js), which registers no gradient (tf.grad of a gather throws), and the ES
// module files that register them (dist/register_all_gradients.js, and the ops they import)
// cannot be imported as they are: their imports are extensionless, written for a bundler.
// Importing them through a resolver hook would load a second copy of tfjs-core beside the first.
// So they are bundled here with esbuild, with tfjs-core, both backends and any spec files sharing
// the one copy of tfjs-core in the bundle.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
const require = createRequire(import.meta.url);
export const coreDist = `${dirname(require.resolve('@tensorflow/tfjs-core/package.json'))}/dist`;
const wasmDir = `${dirname(require.resolve('@tensorflow/tfjs-backend-wasm'))}/`;

/**
 * Bundles and loads tfjs-core with its gradients and chained ops, tfjs-backend-cpu and
 * tfjs-backend-wasm (its .wasm files found in node_modules), and resolves to the tf namespace.
 * prelude: source run first in the bundle (a spec run's test environments); imports: further
 * module paths, imported after the backends (spec files). A spec run defines jasmine's globals
 * before calling this: the spec files call describe() as they load.
 */
export async function loadTfjs({ prelude = '', imports = [] } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'wg-tfjs-'));
  try {
    writeFileSync(join(dir, 'prelude.js'), prelude);
    writeFileSync(join(dir, 'entry.js'), [
      "import './prelude.js';",
      `import ${JSON.stringify(`${coreDist}/register_all_gradients.js`)};`,
      `import ${JSON.stringify(`${coreDist}/public/chained_ops/register_all_chained_ops.js`)};`,
      "import '@tensorflow/tfjs-backend-cpu';",
      "export { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';",
      ...imports.map((p) => `import ${JSON.stringify(p)};`),
      "export * as tf from '@tensorflow/tfjs-core';",
    ].join('\n'));
    await build({
      entryPoints: [join(dir, 'entry.js')], bundle: true, platform: 'node', format: 'cjs',
      mainFields: ['module', 'main'], outfile: join(dir, 'bundle.cjs'), logLevel: 'error',
      ignoreAnnotations: true, // tfjs-core says sideEffects: false, which would drop the registering files
      nodePaths: [join(root, 'node_modules')],
    });
    const { tf, setWasmPaths } = createRequire(join(dir, 'bundle.cjs'))(join(dir, 'bundle.cjs'));
    tf.enableProdMode(); // silences the "install tfjs-node" advice only
    setWasmPaths(wasmDir);
    return tf;
  } finally {
    rmSync(dir, { recursive: true, force: true }); // loaded: the bundle is not read again
  }
}
