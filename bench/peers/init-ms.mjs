// initMs of a peer: measured in fresh Node processes, so that nothing (the library, a shared
// dependency, a backend another runner started) is loaded yet. The script times itself from its
// first import of the peer to the end of a first tiny op, and prints `INIT_MS <ms>`. The median
// of three processes, as one start on this noisy machine varies by 2x.
// It runs as a CommonJS --eval body wrapped in an async function (so: `await import(...)`), not
// with --input-type=module: ORT's pthread workers inherit execArgv, and that flag breaks them.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));

/** Runs `body` in a child Node started in bench/peers/ and returns the INIT_MS it prints. */
function initMsOnce(body) {
  const source = `(async () => {${body}})().catch((e) => { console.error(e); process.exit(1); });`;
  const out = execFileSync(process.execPath, ['-e', source], { cwd: here, encoding: 'utf8' });
  const m = /^INIT_MS (\S+)$/m.exec(out);
  if (!m) throw new Error(`init script printed no INIT_MS:\n${out}`);
  return Number(m[1]);
}

/** The median INIT_MS of three fresh processes running `body`. */
export function freshInitMs(body) {
  return [0, 1, 2].map(() => initMsOnce(body)).sort((a, b) => a - b)[1];
}
