// Runs a Node script in a child process and collects what it prints, for the sanitized wasm
// build's tests: Emscripten's AddressSanitizer writes its report to stderr, then ends the process
// (or, after a report from a pool worker, leaves it waiting forever), so the text is what counts,
// not the exit status.
import { spawn } from 'node:child_process';

// Any sanitizer's report, whatever the exit status.
const SANITIZER = /(Address|Leak|UndefinedBehavior)Sanitizer/;

// The report: from the ==== line before the first sanitizer line to ASan's closing ABORTING
// line (or 80 lines on), or null when there is none.
export function sanitizerReport(output) {
  const lines = output.split('\n');
  let first = lines.findIndex((l) => SANITIZER.test(l));
  if (first < 0) return null;
  if (first > 0 && /^=+$/.test(lines[first - 1].trim())) first--;
  let last = lines.findIndex((l, i) => i > first && /==ABORTING/.test(l));
  if (last < 0) last = Math.min(lines.length - 1, first + 80);
  return lines.slice(first, last + 1).join('\n');
}

// Resolves to { status, signal, output, report, seconds }: output is stdout and stderr as they
// came. A report from a pool worker can leave the main thread waiting for that worker forever,
// so the child is killed `grace` ms after a report starts, and after `timeout` ms in any case.
export function runNode(args, { cwd, env = {}, timeout = 600000, grace = 3000 } = {}) {
  const t0 = Date.now();
  // Not inherited: NODE_TEST_CONTEXT, which node --test sets for the files it runs, would make
  // a test file run here report in the runner's binary protocol instead of TAP.
  const { NODE_TEST_CONTEXT, ...inherited } = process.env; // eslint-disable-line no-unused-vars
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd, env: { ...inherited, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let killer = null;
    const kill = () => child.kill('SIGKILL');
    const timer = setTimeout(kill, timeout);
    const collect = (d) => {
      output += d;
      if (!killer && SANITIZER.test(output)) killer = setTimeout(kill, grace);
    };
    for (const stream of [child.stdout, child.stderr]) stream.setEncoding('utf8').on('data', collect);
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      clearTimeout(killer);
      resolve({ status, signal, output, report: sanitizerReport(output), seconds: (Date.now() - t0) / 1000 });
    });
  });
}
