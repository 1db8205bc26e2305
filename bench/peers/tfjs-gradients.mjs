// TensorFlow.js's gradients in Node. `import * as tf from '@tensorflow/tfjs-core'` loads its
// CommonJS build, which registers no gradient (tf.grad of a gather fails there); tfjs-core ships
// them as ES modules for a bundler (dist/register_all_gradients.js, extensionless imports), as
// its own test setup and the @tensorflow/tfjs package load them. So they are bundled here with
// esbuild and imported once. The bundle holds a second copy of the ops the gradients call; they
// run through the one engine and kernel and gradient registries that every copy of tfjs-core
// finds on globalThis (tfjs-core's src/global_util.ts:
// https://github.com/tensorflow/tfjs/blob/tfjs-v4.22.0/tfjs-core/src/global_util.ts), so the
// backends and kernels registered with the application's tf are the ones they use.
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { build } from 'esbuild';

let loaded;

/** Registers tfjs-core's gradients with the engine the application's tf uses (once a process). */
export function registerGradients(tf) {
  return loaded ??= (async () => {
    const coreDist = `${dirname(createRequire(import.meta.url).resolve('@tensorflow/tfjs-core/package.json'))}/dist`;
    const out = await build({ entryPoints: [`${coreDist}/register_all_gradients.js`], bundle: true, platform: 'node',
      format: 'esm', write: false, logLevel: 'error' });
    await import(`data:text/javascript;base64,${Buffer.from(out.outputFiles[0].text).toString('base64')}`);
    for (const k of ['GatherV2', 'Sum']) if (!tf.getGradient(k)) throw new Error(`tfjs-core's ${k} gradient did not register`);
  })();
}
