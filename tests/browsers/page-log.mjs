// What a page and its workers print and throw, gathered in the page itself, so that every engine
// reports it the same way (W3C WebDriver, all that WebKitGTK speaks, has no console events).
// The test server (serve.mjs's rewrite) puts `capture` first in every HTML page and every
// worker script: pages keep globalThis.__pageLog; workers post each entry to their parent as
// { __pageLog: entry } before anything else they post, and the page's Worker takes those
// messages off before the page's own listeners see them. Workers inside workers forward upwards.

/** Runs first in each page and worker. Plain ES2017, valid as a classic or a module script. */
function capture() {
  if (globalThis.__pageLog) return;
  const inPage = typeof document === 'object';
  const log = (globalThis.__pageLog = { warnings: [], problems: [] });
  const post = inPage ? null : globalThis.postMessage.bind(globalThis);
  const record = (list, text) => (inPage ? log[list].push(text) : post({ __pageLog: { list, text } }));
  const words = (args) => args.map((a) => (typeof a === 'string' ? a : String(a && a.stack ? a.message : a))).join(' ');
  for (const [level, list, prefix] of [['warn', 'warnings', ''], ['error', 'problems', 'console.error: ']]) {
    const original = console[level];
    console[level] = function (...args) {
      record(list, prefix + words(args));
      return original.apply(this, args);
    };
  }
  globalThis.addEventListener('error', (e) => record('problems', `uncaught: ${e.message}`));
  globalThis.addEventListener('unhandledrejection', (e) => record('problems', `unhandled rejection: ${e.reason}`));
  if (typeof globalThis.Worker === 'function') {
    const Base = globalThis.Worker;
    globalThis.Worker = class extends Base {
      constructor(...args) {
        super(...args);
        this.addEventListener('message', (e) => {
          const entry = e.data && e.data.__pageLog;
          if (!entry) return;
          e.stopImmediatePropagation();
          record(entry.list, entry.text);
        });
      }
    };
  }
}

const SCRIPT = `(${capture})();\n`;

/** serve.mjs rewrite: the capture first in HTML pages (after the doctype) and worker scripts. */
export function injectPageLog(text, { type, dest }) {
  if (type.startsWith('text/html')) {
    return text.replace(/^(\s*<!doctype[^>]*>)?/i, (doctype) => `${doctype}<script>${SCRIPT}</script>`);
  }
  return dest === 'worker' ? SCRIPT + text : text;
}
