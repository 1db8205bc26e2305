// TensorFlow.js's gradients in Node. `import * as tf from '@tensorflow/tfjs-core'` loads its
// CommonJS build, which registers no gradient (tf.grad of a gather fails there); the
// @tensorflow/tfjs package registers them (a devDependency, as examples/train-embeddings uses
// it), into the one engine and the kernel and gradient registries that every user of the one copy
// of tfjs-core in node_modules shares, so the backends and kernels registered with the
// application's tf are the ones they use.
let loaded;

/** Registers tfjs-core's gradients with the engine the application's tf uses (once a process). */
export function registerGradients(tf) {
  return loaded ??= (async () => {
    await import('@tensorflow/tfjs');
    for (const k of ['GatherV2', 'Sum']) if (!tf.getGradient(k)) throw new Error(`tfjs-core's ${k} gradient did not register`);
  })();
}
