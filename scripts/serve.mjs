#!/usr/bin/env node
// Tiny static file server for the wasm-gather web demo (no dependencies).
//
// Serves the repository root so the demo at /web-demo/ can import ../js/ and
// ../common/ (the reference, seed examples and workloads it shares with the
// tests and the benchmark), and the library can fetch ../dist/. By default it
// sends the cross-origin isolation headers (COOP/COEP) that SharedArrayBuffer,
// and so the threaded build, needs.
//
//   node scripts/serve.mjs [--port N] [--no-isolation]
//   PORT=N node scripts/serve.mjs
//
// Programmatic use: `const { url, close } = await startServer({ port: 0 })`.

import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.cjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

function baseHeaders(isolation) {
  const h = {
    'Cross-Origin-Resource-Policy': 'same-origin',
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-store',
  };
  if (isolation) {
    h['Cross-Origin-Opener-Policy'] = 'same-origin';
    h['Cross-Origin-Embedder-Policy'] = 'require-corp';
  }
  return h;
}

function send(res, status, headers, body, method) {
  res.writeHead(status, headers);
  res.end(method === 'HEAD' ? undefined : body);
}

function handler(root, isolation, rewrite) {
  return (req, res) => {
    const headers = baseHeaders(isolation);
    const method = req.method || 'GET';
    if (method !== 'GET' && method !== 'HEAD') {
      send(res, 405, { ...headers, Allow: 'GET, HEAD', 'Content-Type': 'text/plain' }, 'Method Not Allowed\n', method);
      return;
    }

    let pathname;
    try {
      pathname = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
    } catch {
      send(res, 400, { ...headers, 'Content-Type': 'text/plain' }, 'Bad Request\n', method);
      return;
    }
    if (pathname.includes('\0')) {
      send(res, 400, { ...headers, 'Content-Type': 'text/plain' }, 'Bad Request\n', method);
      return;
    }
    if (pathname === '/') {
      send(res, 302, { ...headers, Location: '/web-demo/' }, '', method);
      return;
    }

    // Resolve inside the root; refuse anything that escapes it.
    const filePath = path.resolve(root, '.' + path.posix.normalize(pathname));
    if (filePath !== root && !filePath.startsWith(root + path.sep)) {
      send(res, 403, { ...headers, 'Content-Type': 'text/plain' }, 'Forbidden\n', method);
      return;
    }

    fs.stat(filePath, (err, st) => {
      if (!err && st.isDirectory()) {
        if (!pathname.endsWith('/')) {
          send(res, 301, { ...headers, Location: pathname + '/' }, '', method);
          return;
        }
        serveFile(path.join(filePath, 'index.html'));
        return;
      }
      serveFile(filePath);
    });

    function serveFile(file) {
      fs.stat(file, (err, st) => {
        if (err || !st.isFile()) {
          send(res, 404, { ...headers, 'Content-Type': 'text/plain' }, 'Not Found\n', method);
          return;
        }
        const type = MIME[path.extname(file).toLowerCase()] || 'application/octet-stream';
        if (rewrite && /^text\/(html|javascript)/.test(type)) {
          const body = Buffer.from(rewrite(fs.readFileSync(file, 'utf8'), { type, dest: req.headers['sec-fetch-dest'] }));
          send(res, 200, { ...headers, 'Content-Type': type, 'Content-Length': body.length }, body, method);
          return;
        }
        res.writeHead(200, { ...headers, 'Content-Type': type, 'Content-Length': st.size });
        if (method === 'HEAD') {
          res.end();
          return;
        }
        const stream = fs.createReadStream(file);
        stream.on('error', () => res.destroy());
        stream.pipe(res);
      });
    }
  };
}

/**
 * Start the demo server.
 * @param {{ port?: number, isolation?: boolean, host?: string, root?: string,
 *   rewrite?: (text: string, how: { type: string, dest?: string }) => string }} [opts]
 *   rewrite: for the tests, changes each HTML and JavaScript file as it is served (dest is the
 *   request's Sec-Fetch-Dest: 'document', 'script', 'worker', ...).
 * @returns {Promise<{ url: string, port: number, close: () => Promise<void> }>}
 *   url points at the demo page (…/web-demo/).
 */
export function startServer({ port = 8080, isolation = true, host = '127.0.0.1', root = ROOT, rewrite } = {}) {
  const absRoot = path.resolve(root);
  const server = http.createServer(handler(absRoot, isolation, rewrite));
  const sockets = new Set();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const actual = server.address().port;
      resolve({
        url: `http://localhost:${actual}/web-demo/`,
        port: actual,
        server,
        close: () =>
          new Promise((done) => {
            for (const s of sockets) s.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}

function parseArgs(argv) {
  const opts = { port: process.env.PORT ? Number(process.env.PORT) : 8080, isolation: true };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--port' || a === '-p') opts.port = Number(argv[++i]);
    else if (a.startsWith('--port=')) opts.port = Number(a.slice(7));
    else if (a === '--no-isolation') opts.isolation = false;
    else if (a === '--help' || a === '-h') {
      console.log('usage: node scripts/serve.mjs [--port N] [--no-isolation]');
      process.exit(0);
    } else {
      console.error(`serve.mjs: unknown argument ${a}`);
      process.exit(2);
    }
  }
  if (!Number.isInteger(opts.port) || opts.port < 0 || opts.port > 65535) {
    console.error('serve.mjs: --port must be an integer 0..65535');
    process.exit(2);
  }
  return opts;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const opts = parseArgs(process.argv.slice(2));
  if (!fs.existsSync(path.join(ROOT, 'dist'))) {
    console.warn('note: dist/ not found; run `node scripts/build.mjs` first (npm start does this).');
  }
  startServer(opts).then(
    ({ url }) => {
      console.log(`wasm-gather demo: ${url}`);
      if (!opts.isolation) console.log('(cross-origin isolation off: the single-threaded simd build will be used)');
    },
    (err) => {
      console.error(`serve.mjs: ${err.message}`);
      process.exit(1);
    },
  );
}
