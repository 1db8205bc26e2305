// Bundles an app entry for an edge runtime the way its own tooling does: wrangler (Cloudflare)
// and Next.js (Vercel) bundle with the runtime's export conditions and turn a `.wasm` import
// into a WebAssembly.Module binding instead of bundling it.
import { build } from 'esbuild';

/**
 * Bundles `entry` (in `app`) to `outfile`; each .wasm import is resolved through the package's
 * exports and left to the runtime: onWasm(path) says what the import becomes ({ path } of an
 * external module, or { contents } of a stand-in module). Resolves to the .wasm files seen.
 */
export async function bundle({ app, entry, outfile, conditions, format = 'esm', globalName, onWasm }) {
  const wasmFiles = [];
  const wasmPlugin = {
    name: 'wasm-modules',
    setup(b) {
      b.onResolve({ filter: /\.wasm(\?module)?$/ }, async (args) => {
        if (args.pluginData?.inner) return undefined;
        const r = await b.resolve(args.path.replace(/\?module$/, ''), {
          kind: args.kind, resolveDir: args.resolveDir, pluginData: { inner: true },
        });
        if (r.errors.length) return { errors: r.errors };
        wasmFiles.push(r.path);
        const to = onWasm(r.path);
        return to.path ? { path: to.path, external: true } : { path: r.path, namespace: 'wasm-binding' };
      });
      b.onLoad({ filter: /.*/, namespace: 'wasm-binding' }, (args) => ({ contents: onWasm(args.path).contents, loader: 'js' }));
    },
  };
  await build({
    absWorkingDir: app, entryPoints: [entry], outfile, bundle: true, format, globalName,
    conditions, platform: 'browser', target: 'es2022', logLevel: 'silent', plugins: [wasmPlugin],
  });
  return wasmFiles;
}
