// Bundles the scratch app's README example and smoke suite (the Vite app's entries, <app>/vite/)
// with webpack 5's Node API, as a webpack user would, for the pages of <app>/webpack/. Webpack's
// defaults do the rest: the glues' `new Worker(new URL(..., import.meta.url))` becomes a worker
// chunk, the loader's `new URL('../dist/*.wasm', import.meta.url)` become hashed assets.
import { copyFileSync } from 'node:fs';
import webpack from 'webpack';

/** Builds <app>/vite/{main,smoke}.mjs into outDir as main.js and smoke.js, with the pages; rejects on errors or warnings. */
export async function buildWithWebpack(app, outDir) {
  const compiler = webpack({
    mode: 'production', target: 'web', context: app,
    entry: { main: './vite/main.mjs', smoke: './vite/smoke.mjs' },
    output: { path: outDir, clean: true },
    // Warnings that say nothing about this app (anything else fails the build):
    ignoreWarnings: [
      // "Critical dependency: the request of a dependency is an expression": the pthread worker
      // glue's import(e.data.urlOrBlob), only taken when Module.mainScriptUrlOrBlob is set, which
      // js/loader.mjs never does (the worker imports the glue by its static name).
      { module: /wasm-gather[\\/]dist[\\/]wasm-gather-simd-threaded\.web\.worker\.js$/,
        message: /^Critical dependency: the request of a dependency is an expression/ },
      // The threaded glue's chunk starts its worker (an entry with its own runtime) and the worker
      // imports the glue's chunk: a cycle between runtimes, which only matters to [contenthash]
      // chunk names, which this build does not use.
      { message: /^Circular dependency between chunks with runtime/ },
    ],
  });
  const stats = await new Promise((resolve, reject) => {
    compiler.run((err, s) => compiler.close(() => (err ? reject(err) : resolve(s))));
  });
  if (stats.hasErrors() || stats.hasWarnings()) {
    throw new Error(`webpack: ${stats.toString({ all: false, errors: true, warnings: true })}`);
  }
  for (const page of ['index.html', 'smoke.html']) copyFileSync(`${app}/webpack/${page}`, `${outDir}/${page}`);
  return stats;
}
