// The few W3C WebDriver commands the browser tests need (https://www.w3.org/TR/webdriver2/),
// over fetch: WebKitGTK's WebKitWebDriver speaks only this protocol, and a client library
// would be a dependency for seven endpoints.

const ELEMENT = 'element-6066-11e4-a52e-4f735466cecf'; // the spec's web element identifier

export class WebDriverSession {
  constructor(base, id) {
    this.base = base;
    this.id = id;
  }

  /** Opens a session on the driver at `base` with `capabilities` (alwaysMatch). */
  static async create(base, capabilities) {
    const { sessionId } = await command(base, 'POST', '/session', { capabilities: { alwaysMatch: capabilities } });
    return new WebDriverSession(base, sessionId);
  }

  send(method, path, body) {
    return command(this.base, method, `/session/${this.id}${path}`, body);
  }

  goto(url) { return this.send('POST', '/url', { url }); }
  setWindowSize(width, height) { return this.send('POST', '/window/rect', { width, height }); }
  close() { return this.send('DELETE', ''); }

  /** Runs `source` (a function body) with `args`; a returned promise is awaited. */
  async execute(source, args = []) {
    const script = `const done = arguments[arguments.length - 1];
      Promise.resolve().then(() => (function () { ${source} }).apply(null, Array.from(arguments).slice(0, -1)))
        .then((value) => done({ value }), (e) => done({ error: String(e && e.stack || e) }));`;
    const r = await this.send('POST', '/execute/async', { script, args });
    if (r && 'error' in r) throw new Error(r.error);
    return r?.value;
  }

  async find(selector) {
    const el = await this.send('POST', '/element', { using: 'css selector', value: selector });
    if (!el?.[ELEMENT]) throw new Error(`WebDriver: no element ${selector}`);
    return el[ELEMENT];
  }

  async click(selector) { await this.send('POST', `/element/${await this.find(selector)}/click`, {}); }

  // Actions do not scroll (https://www.w3.org/TR/webdriver2/#dfn-dispatch-a-pointermove-action):
  // bring the element into view first, as a user and playwright's hover do.
  async hover(selector) {
    const origin = { [ELEMENT]: await this.find(selector) };
    await this.send('POST', '/execute/sync', { script: 'arguments[0].scrollIntoView({ block: "center" });', args: [origin] });
    await this.send('POST', '/actions', {
      actions: [{ type: 'pointer', id: 'mouse', parameters: { pointerType: 'mouse' },
        actions: [{ type: 'pointerMove', duration: 0, origin, x: 0, y: 0 }] }],
    });
  }

  async screenshot() { return Buffer.from(await this.send('GET', '/screenshot'), 'base64'); }
}

// A command that gets no answer (a page whose main thread never yields) fails instead of hanging.
const COMMAND_TIMEOUT_MS = 90_000;

async function command(base, method, path, body) {
  const res = await fetch(base + path, {
    method, headers: { 'content-type': 'application/json; charset=utf-8' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(COMMAND_TIMEOUT_MS),
  }).catch((e) => {
    throw new Error(`WebDriver ${method} ${path}: ${e.name === 'TimeoutError' ? `no answer in ${COMMAND_TIMEOUT_MS} ms` : e.message}`);
  });
  const { value } = await res.json();
  if (value && typeof value === 'object' && 'error' in value && res.status >= 400) {
    throw new Error(`WebDriver ${method} ${path}: ${value.error}: ${value.message}`);
  }
  return value;
}

/** Polls the driver's /status until it answers (it takes a moment to listen). */
export async function waitForDriver(base, timeoutMs) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await command(base, 'GET', '/status');
    } catch (e) {
      if (Date.now() > end) throw new Error(`WebDriver at ${base} did not answer in ${timeoutMs} ms: ${e.message}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
