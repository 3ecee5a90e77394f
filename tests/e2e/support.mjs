// support.mjs: what every e2e test needs: start roomkey-helper (and the
// sandbox) on free ports with a throwaway state directory, launch Debian's
// Chromium through playwright-core, and read pixels from a screenshot.
import { before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inflateSync } from 'node:zlib';
import { request as httpsRequest } from 'node:https';
import { chromium } from 'playwright-core';

export const binDir = required('ROOMKEY_BIN_DIR');
export const webDist = required('ROOMKEY_WEB_DIST');
export const artifacts = required('ROOMKEY_ARTIFACTS');
mkdirSync(artifacts, { recursive: true });

function required(name) {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the e2e tests through ctest (ctest --preset native -L e2e)`);
  return value;
}

// Starts `program args...` and resolves with {process, line} once a stdout
// line matches `ready`. Rejects with the program's output if it exits first.
export function startProgram(program, args, ready, { timeoutMs = 20000, env = process.env } = {}) {
  if (!existsSync(program)) throw new Error(`${program} is missing: build the native preset first`);
  return new Promise((resolve, reject) => {
    // Its own process group: a program that is a script (scripts/nginx-front.sh)
    // starts children of its own, and killing only the script left nginx
    // holding the output pipe, so the test hung until ctest's timeout
    // instead of failing with the output below.
    const child = spawn(program, args, { stdio: ['ignore', 'pipe', 'pipe'], env, detached: true });
    let out = '';
    const killAll = () => { try { process.kill(-child.pid, 'SIGKILL'); } catch { child.kill('SIGKILL'); } };
    const timer = setTimeout(() => { killAll(); reject(new Error(`${program} not ready after ${timeoutMs} ms:\n${out}`)); }, timeoutMs);
    const onData = (chunk) => {
      out += chunk;
      for (const line of out.split('\n')) {
        const match = line.match(ready);
        if (match) { clearTimeout(timer); child.stdout.off('data', onData); resolve({ process: child, match, output: () => out }); return; }
      }
    };
    child.stdout.setEncoding('utf8').on('data', onData);
    child.stderr.setEncoding('utf8').on('data', (chunk) => { out += chunk; });
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`${program} exited (${code}) before it was ready:\n${out}`)); });
  });
}

export async function stopProgram(started) {
  // Gone already: it exited, or a signal ended it (exitCode stays null then).
  if (!started || started.process.exitCode !== null || started.process.signalCode !== null) return;
  const exited = new Promise((resolve) => started.process.once('exit', resolve));
  started.process.kill('SIGTERM');
  await exited;
}

export function freshStateDir() {
  return mkdtempSync(join(tmpdir(), 'roomkey-e2e-'));
}

// The front the app is served through: roomkey-helper (default) or nginx
// configured by `roomkey-helper nginx-config` (scripts/nginx-front.sh, as
// ./scripts/run.sh --front nginx runs it). ctest registers each e2e file
// for both (e2e.<name> and e2e.<name>.nginx).
export const front = process.env.ROOMKEY_E2E_FRONT || 'helper';
if (front !== 'helper' && front !== 'nginx') throw new Error(`ROOMKEY_E2E_FRONT must be helper or nginx, not ${front}`);
// A test about the app itself (what it draws, how it takes input, what its
// page API gives out), not about what passes through the front. The nginx
// twin of its file skips it: the requests it sends are ones the file's other
// tests already send through nginx, and each such test cost the twin a page
// and seconds of CPU. What the front itself decides (routes, headers,
// refusals) is compared request by request in fronts.parity.
export function appOnlyTest(name, fn) {
  const skip = front === 'nginx' && 'about the app, not the front: run through the helper by the file\'s own e2e test';
  return test(name, { skip }, fn);
}
export const nginxFrontScript = fileURLToPath(new URL('../../scripts/nginx-front.sh', import.meta.url));

// The front alone, serving the web build (no upstream needed); serve's flags.
// Both print the same ready line. `via`: the front to start, `front` unless
// a caller compares both in one run (bench/journey.mjs).
export async function startHelper(stateDir, extraArgs = [], port = 0, via = front) {
  const helper = join(binDir, 'roomkey-helper');
  const args = ['--state-dir', stateDir, '--web-root', webDist, ...extraArgs];
  const ready = /^roomkey: app at (https:\/\/127\.0\.0\.1:\d+\/)$/;
  const started = via === 'nginx'
    ? await startProgram(nginxFrontScript, ['--port', String(port || await freePort()), ...args], ready,
      { env: { ...process.env, ROOMKEY_HELPER: helper } })
    : await startProgram(helper, ['serve', '--port', String(port), ...args], ready);
  return { ...started, url: started.match[1] };
}

// What opening the app costs is most of what these tests cost: a page
// lives seconds, and each of the ~95 pages the suite opens paid for a new
// renderer process and for compiling the wasm twice (Liftoff, then
// TurboFan for the functions that got hot). Sharing one renderer process
// lets V8 reuse the module compiled for the first page, and keeping to
// Liftoff skips a top tier that never pays off in a page this short. The
// app behaves the same; only its speed differs (bench/ measures speed with
// Chromium's defaults: launchBrowser({ testFlags: false })). Measured with
// 3 page opens in one browser: 2.7 s of CPU per open before, 1.3 s with
// both flags, 2.1-2.3 s with either alone.
const PAGE_OPEN_FLAGS = ['--renderer-process-limit=1', '--js-flags=--liftoff-only'];

// `home`: the HOME Chromium runs with, and `trustedOnly`: certificate errors
// are errors, as for a user (trust.e2e.mjs). By default the test's
// certificate is throwaway (fresh state dir), so it is not trusted, and
// Chromium is told to accept it.
// `testFlags`: false for bench/, which measures the app as users run it.
// `backForwardCache`: Playwright launches Chromium with
// --disable-back-forward-cache (so its goBack() waits for a load); users'
// browsers keep pages in it, and a test of what a restored page does asks
// for it back.
// `phone`: a touch screen 390x844 CSS px wide as a phone's (Playwright's
// hasTouch and isMobile), so page.touchscreen.tap() taps as a finger does.
// `locale`: the browser's language (navigator.languages, Accept-Language),
// e.g. 'ja-JP'; Playwright's default otherwise.
// `args`: more command-line switches (e.g. --host-resolver-rules).
export async function launchBrowser({ home = null, trustedOnly = false, testFlags = true, backForwardCache = false,
  phone = false, locale = undefined, args = [] } = {}) {
  const userDataDir = mkdtempSync(join(home || tmpdir(), 'roomkey-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    ...(backForwardCache ? { ignoreDefaultArgs: ['--disable-back-forward-cache'] } : {}),
    ignoreHTTPSErrors: !trustedOnly,
    env: home ? { ...process.env, HOME: home } : process.env,
    viewport: phone ? { width: 390, height: 844 } : { width: 1280, height: 800 },
    ...(phone ? { hasTouch: true, isMobile: true } : {}),
    ...(locale ? { locale } : {}),
    args: ['--no-sandbox', '--disable-gpu', '--use-gl=swiftshader', '--enable-unsafe-swiftshader',
      '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', ...(testFlags ? PAGE_OPEN_FLAGS : []), ...args],
  });
  const close = async () => { await context.close(); rmSync(userDataDir, { recursive: true, force: true }); };
  return { context, close };
}

// Decodes an 8-bit RGB/RGBA non-interlaced PNG (what Chromium screenshots are)
// into {width, height, channels, pixels}.
export function decodePng(buffer) {
  if (buffer.readUInt32BE(0) !== 0x89504e47) throw new Error('not a PNG');
  let offset = 8; let width = 0; let height = 0; let channels = 0; const idat = [];
  while (offset < buffer.length) {
    const length = buffer.readUInt32BE(offset);
    const type = buffer.toString('ascii', offset + 4, offset + 8);
    const data = buffer.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0); height = data.readUInt32BE(4);
      const bitDepth = data[8]; const colorType = data[9]; const interlace = data[12];
      if (bitDepth !== 8 || interlace !== 0 || (colorType !== 2 && colorType !== 6)) throw new Error('unsupported PNG format');
      channels = colorType === 6 ? 4 : 3;
    } else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') break;
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels; const pixels = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    for (let x = 0; x < stride; x++) {
      const rawByte = raw[y * (stride + 1) + 1 + x];
      const a = x >= channels ? pixels[y * stride + x - channels] : 0;
      const b = y > 0 ? pixels[(y - 1) * stride + x] : 0;
      const c = x >= channels && y > 0 ? pixels[(y - 1) * stride + x - channels] : 0;
      let value;
      switch (filter) {
        case 0: value = rawByte; break;
        case 1: value = rawByte + a; break;
        case 2: value = rawByte + b; break;
        case 3: value = rawByte + ((a + b) >> 1); break;
        case 4: { const p = a + b - c; const pa = Math.abs(p - a); const pb = Math.abs(p - b); const pc = Math.abs(p - c);
          value = rawByte + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c); break; }
        default: throw new Error(`bad PNG filter ${filter}`);
      }
      pixels[y * stride + x] = value & 0xff;
    }
  }
  return { width, height, channels, pixels };
}

// How many distinct RGB colours the image holds (a blank canvas has one).
export function distinctColours(png) {
  const seen = new Set();
  for (let i = 0; i < png.pixels.length; i += png.channels) {
    seen.add((png.pixels[i] << 16) | (png.pixels[i + 1] << 8) | png.pixels[i + 2]);
    if (seen.size > 1000) break;
  }
  return seen.size;
}

// ---------------------------------------------------------------------------
// The whole stack: roomkey-sandbox (test controls on) + roomkey-helper in
// front of it, as ./scripts/run.sh starts them, on free ports.
// ---------------------------------------------------------------------------

// freePort(): a port for a server that must be named before it starts
// (the sandbox registers https://127.0.0.1:PORT/callback before the helper
// listens), outside the ephemeral range: see free_port.mjs.
import { freePort } from '../support/free_port.mjs';

export { freePort };

export async function startSandbox(stateDir, webPort, extraArgs = []) {
  const started = await startProgram(join(binDir, 'roomkey-sandbox'),
    ['--port', '0', '--state-dir', stateDir, '--web-port', String(webPort), '--enable-test-controls', '--quiet',
      '--ephemeral', ...extraArgs],
    /^roomkey-sandbox: ready base_url=(\S+) auth_url=(\S+) consent_url=(\S+)/);
  const [, baseUrl, authUrl, consentUrl] = started.match;
  return { ...started, baseUrl, authUrl, consentUrl, origin: new URL(baseUrl).origin };
}

// The first screen's main action, as it reads: "Sign in to <service>", the
// service named by its API address (an IP address with its port, here).
export const signInLabel = (stack) => `Sign in to ${new URL(stack.sandbox.baseUrl).host}`;

// The helper's upstream arguments for `sandbox` (as startStack starts it).
function upstreamArgs(sandbox) {
  return ['--base-url', sandbox.baseUrl, '--auth-url', sandbox.authUrl, '--consent-url', sandbox.consentUrl,
    '--client-id', 'roomkey-web', '--client-type', 'public'];
}

// Sandbox + helper; `stack.url` is the app. Stop with stopStack.
// `stateDir`: one already made (its local CA trusted, say); stopStack
// removes it. `via`: as for startHelper.
export async function startStack({ sandboxArgs = [], helperArgs = [], stateDir = freshStateDir(), via = front } = {}) {
  const port = await freePort();
  const sandbox = await startSandbox(stateDir, port, sandboxArgs);
  let helper;
  try {
    helper = await startHelper(stateDir, [...upstreamArgs(sandbox), ...helperArgs], port, via);
  } catch (error) {
    await stopProgram(sandbox);
    throw error;
  }
  return { stateDir, sandbox, helper, url: helper.url, origin: new URL(helper.url).origin, via };
}

// Starts the stack's helper again on its port, with the sandbox's current
// addresses and `helperArgs` (stopping the running one first, if any).
export async function restartHelper(stack, helperArgs = []) {
  await stopProgram(stack.helper);
  const port = Number(new URL(stack.origin).port);
  stack.helper = await startHelper(stack.stateDir, [...upstreamArgs(stack.sandbox), ...helperArgs], port, stack.via);
}

export async function stopStack(stack) {
  if (!stack) return;
  await stopProgram(stack.helper);
  await stopProgram(stack.sandbox);
  rmSync(stack.stateDir, { recursive: true, force: true });
}

// One HTTPS request straight to the sandbox (not through the app): `path`
// on its origin, or a whole URL. Answers { status, text }. Each request has a connection of its own (agent: false):
// the sandbox closes a keep-alive connection after 5 s idle, and a client
// that pools sockets may send on one just as that close lands, which ends
// in ECONNRESET or "socket hang up" for a request the sandbox never read.
// The sandbox's certificate comes from this test's throwaway local CA.
export function sandboxRequest(stack, method, path, { body = '', headers = {} } = {}) {
  const url = new URL(path, stack.sandbox.origin);
  // The sandbox refuses chunked bodies (docs/sandbox.md "Request framing").
  const allHeaders = { ...headers, 'content-length': String(Buffer.byteLength(body)) };
  return new Promise((resolve, reject) => {
    const request = httpsRequest(url, { method, agent: false, rejectUnauthorized: false, headers: allHeaders },
      (response) => {
        let text = '';
        response.setEncoding('utf8').on('data', (chunk) => { text += chunk; });
        response.on('end', () => resolve({ status: response.statusCode, text }));
      });
    request.on('error', reject);
    request.end(body);
  });
}

// A call to the sandbox's REST API (stack.sandbox.baseUrl) as `user`, with
// its API token (x-servicetoken, docs/sandbox.md); `form` is sent
// form-encoded. Answers { status, text }.
export function sandboxApi(stack, user, method, path, form = null) {
  const headers = { 'x-servicetoken': user.apiToken };
  if (form) headers['content-type'] = 'application/x-www-form-urlencoded';
  return sandboxRequest(stack, method, stack.sandbox.baseUrl + path, { body: form ? new URLSearchParams(form).toString() : '', headers });
}

// The same, for a call that must succeed: its JSON answer, or an error
// that names the call and the sandbox's answer.
export async function sandboxApiJson(stack, user, method, path, form = null) {
  const answer = await sandboxApi(stack, user, method, path, form);
  if (answer.status >= 300) throw new Error(`${method} ${path} -> ${answer.status}: ${answer.text}`);
  return JSON.parse(answer.text);
}

// POSTs to one of the sandbox's /_sandbox/* test controls (docs/sandbox.md),
// e.g. sandboxControl(stack, '/_sandbox/clock/advance', { seconds: 1860 }).
export async function sandboxControl(stack, path, params = {}, method = 'POST') {
  const url = new URL(path, stack.sandbox.origin);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, String(value));
  const answer = await sandboxRequest(stack, method, url.href, { headers: { 'X-Roomkey-Sandbox-Control': '1' } });
  if (answer.status >= 300) throw new Error(`${method} ${path} -> ${answer.status}: ${answer.text}`);
  return answer.text ? JSON.parse(answer.text) : null;
}

// The sandbox's demo users (docs/sandbox.md).
export const demoUsers = {
  alice: { login: 'alice@example.com', password: 'alice-demo', accountId: '1001',
    apiToken: 'sandbox-api-token-alice-1001' },
  bob: { login: 'bob@example.com', password: 'bob-demo', accountId: '1002', apiToken: 'sandbox-api-token-bob-1002' },
};

// Opens the app and waits until it has drawn a frame and read its config.
export async function openApp(page, url) {
  await page.goto(url);
  await page.waitForFunction(() => window.roomkey && window.roomkey.ready() &&
    window.roomkey.state().config && window.roomkey.state().config.loaded, null, { timeout: 60000 });
}

// A new page of `context` signed in with `user`'s API token, `room` open and
// loaded, and `until(state)` true: { page, state }.
// Posts `body` to `room` through the page API and waits for the service's
// message (not a pending one) in the conversation; returns it.
export async function postDelivered(page, room, body) {
  await act(page, { type: 'post_message', room_id: room, body });
  const mine = (m) => m.body === body && !m.pending && m.message_id;
  const state = await waitForState(page, (s) => s.room && s.room.room_id === room && s.room.messages.some(mine),
    'the message in the conversation', 60000);
  return state.room.messages.find(mine);
}

// Waits until the sandbox itself holds a message of `room` with exactly
// `body`, read as `user` (force=1: the newest 100, whatever was read before).
export async function sandboxHasMessage(stack, user, room, body) {
  const deadline = Date.now() + 30000;
  let bodies = [];
  while (Date.now() < deadline) {
    const messages = await sandboxApiJson(stack, user, 'GET', `/rooms/${room}/messages?force=1`);
    bodies = (messages || []).map((m) => m.body);
    if (bodies.includes(body)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  assert.fail(`the sandbox has no message ${JSON.stringify(body)}: ${JSON.stringify(bodies.slice(-3))}`);
}

export async function openRoomPage(context, url, room, { user = demoUsers.alice, until = () => true,
  what = `room ${room} open`, viewport = null } = {}) {
  const page = await context.newPage();
  if (viewport) await page.setViewportSize(viewport);
  await openApp(page, url);
  await act(page, { type: 'use_api_token', token: user.apiToken });
  await waitForState(page, (s) => s.account && s.rooms.length > 0 && !s.loading, 'the rooms');
  await act(page, { type: 'open_room', room_id: room });
  const state = await waitForState(page, (s) => s.room && s.room.room_id === room && !s.room.loading && until(s), what);
  return { page, state };
}

// Sends one action through the page API (window.roomkey.act).
export function act(page, action) {
  return page.evaluate((a) => window.roomkey.act(a), action);
}

export function appState(page) {
  return page.evaluate(() => window.roomkey.state());
}

// Waits until predicate(state) is true; the message and last state on timeout.
// Predicates read the state only: they are tried again each time it changes.
let waitCalls = 0;
export async function waitForState(page, predicate, what, timeoutMs = 30000) {
  const deadline = Date.now() + timeoutMs;
  let state;
  // One call to the page answers with the state once it differs from the
  // last one it handed to this wait (window.__polled), waiting for the app's
  // 'roomkey:state' event (shell/page.js) when it does not, up to a second
  // so the deadline is kept. Polling ten times a second instead cost about
  // 3 ms of CPU a call, most of it while nothing changed, and found a change
  // 50 ms late on average. One wait per page at a time, as every caller
  // does: two at once would take each other's window.__polled.
  let call = ++waitCalls;
  while (Date.now() < deadline) {
    const text = await page.evaluate(({ id, waitMs }) => new Promise((resolve) => {
      const changed = () => {
        if (!window.roomkey) return null;
        const now = JSON.stringify(window.roomkey.state());
        if (window.__polled && window.__polled.id === id && window.__polled.text === now) return '';
        window.__polled = { id, text: now };
        return now;
      };
      const first = changed();
      if (first !== '') { resolve(first); return; }
      let timer = 0;
      const settle = () => {
        window.removeEventListener('roomkey:state', settle);
        clearTimeout(timer);
        resolve(changed());
      };
      window.addEventListener('roomkey:state', settle);
      timer = setTimeout(settle, waitMs);
    }), { id: call, waitMs: Math.max(0, Math.min(1000, deadline - Date.now())) }).catch(() => null);
    if (text === null) {  // no app (yet), a navigation in between, or a failed call:
      state = undefined;  // start afresh, so the next answer is the whole state
      call = ++waitCalls;
      await new Promise((r) => setTimeout(r, 100));
    } else if (text !== '') {
      state = JSON.parse(text);
    }
    if (state && predicate(state)) return state;
  }
  throw new Error(`timed out waiting for ${what}; last state: ${JSON.stringify(state)}`);
}

// Goes through the sandbox's login and consent forms as `user`, pressing
// Allow or Deny. The app must already have navigated to the consent screen.
export async function passConsent(page, stack, user, decision = 'allow') {
  await page.waitForURL((u) => u.origin === stack.sandbox.origin, { timeout: 30000 });
  if (new URL(page.url()).pathname === '/login') {
    await page.fill('#login', user.login);
    await page.fill('#password', user.password);
    await Promise.all([page.waitForNavigation(), page.click('button[value="login"]')]);
  }
  await page.waitForSelector(`#${decision}`, { timeout: 30000 });
  await Promise.all([page.waitForURL((u) => u.origin === stack.origin, { timeout: 30000 }),
    page.click(`#${decision}`)]);
}

// Follows every request the page makes, so a test can wait until the network
// has been quiet for a while (not just until the load event's idle moment).
// Call before the requests of interest start.
export function trackNetwork(page) {
  const inflight = new Set();
  let last = Date.now();
  page.on('request', (r) => { inflight.add(r); last = Date.now(); });
  const done = (r) => { inflight.delete(r); last = Date.now(); };
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  page.on('response', (r) => { if (r.status() >= 300 && r.status() < 400) done(r.request()); });  // a redirect hop ends here
  return {
    inflight: () => [...inflight].map((r) => r.url()),
    async idle(quietMs = 1500, timeoutMs = 30000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        if (inflight.size === 0 && Date.now() - last >= quietMs) return;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`the network did not go quiet; still in flight: ${[...inflight].map((r) => r.url()).join(', ')}`);
    },
  };
}

// Records every text the aria-live mirror takes from now on (what a screen
// reader would announce); read it back with mirrorLog(page).
export async function recordMirror(page) {
  await page.evaluate(() => {
    const el = document.getElementById('mirror');
    window.__mirrorLog = [el.textContent];
    new MutationObserver(() => window.__mirrorLog.push(el.textContent))
      .observe(el, { childList: true, characterData: true, subtree: true });
  });
}

export function mirrorLog(page) {
  return page.evaluate(() => window.__mirrorLog.slice());
}

// Records every desktop notification the page raises from now on, in
// window.__notes as {title, body, note} (note: the Notification, so a test
// can click it); the permission questions still go to the browser's own.
// Call before the page's scripts run (an init script).
export async function recordNotifications(page) {
  await page.addInitScript(() => {
    window.__notes = [];
    const Native = window.Notification;
    class Counted extends Native {
      constructor(title, options) {
        super(title, options);
        window.__notes.push({ title, body: options && options.body, note: this });
      }
    }
    Object.defineProperty(Counted, 'permission', { get: () => Native.permission });
    Counted.requestPermission = (...args) => Native.requestPermission(...args);
    window.Notification = Counted;
  });
}

// One stack (sandbox + front) and one Chromium for a whole test file,
// started in node:test's before() and stopped in after(); `use(stack,
// browser)` receives them once they run. `options` go to startStack.
export function withStackAndBrowser(use, options = {}, browserOptions = {}) {
  let stack = null;
  let browser = null;
  before(async () => {
    stack = await startStack(options);
    browser = await launchBrowser(browserOptions);
    use(stack, browser);
  });
  after(async () => {
    if (browser) await browser.close();
    await stopStack(stack);
  });
}

// The same with several browsers, one per launchBrowser options object:
// use(stack, ...browsers) in that order.
export function withStackAndBrowsers(use, browserOptions, options = {}) {
  let stack = null;
  let browsers = [];
  before(async () => {
    stack = await startStack(options);
    for (const o of browserOptions) browsers.push(await launchBrowser(o));
    use(stack, ...browsers);
  });
  after(async () => {
    for (const b of browsers) await b.close();
    browsers = [];
    await stopStack(stack);
  });
}

// A desktop's browser and a phone's (touch, 390x844): use(stack, desk, phone).
export function withStackDeskAndPhone(use, options = {}) {
  withStackAndBrowsers(use, [{}, { phone: true }], options);
}

// A browser in ja-JP and one in en-US, for the tests of the app's
// language: use(stack, ja, en).
export function withStackAndLanguageBrowsers(use, options = {}) {
  withStackAndBrowsers(use, [{ locale: 'ja-JP' }, { locale: 'en-US' }], options);
}

// After a resize: until the canvas's backing store follows its CSS size,
// the widgets the page holds are the last size's (a widgetRect read then
// is settled and stale). The deadline only guards against a hang (10 s ran
// out at load 35 with two Chromiums side by side).
export async function waitForBackingStore(page) {
  await page.waitForFunction(() => {
    const c = document.getElementById('canvas');
    const r = c.getBoundingClientRect();
    return Math.abs(c.width - Math.round(r.width * devicePixelRatio)) <= 1 &&
      Math.abs(c.height - Math.round(r.height * devicePixelRatio)) <= 1;
  }, null, { timeout: 30000 });
}

// The page resized as a window is, and drawn at the new size.
export async function resizeTo(page, width, height) {
  await page.setViewportSize({ width, height });
  await waitForBackingStore(page);
}

// Where the app drew the widget `name` (CSS px), read alike twice from
// frames after which none was due (widget().settled): the picture is final,
// with no glyph atlas rebuild, window sizing, scroll or input left to apply
// (tests/engines/app.mjs widgetRect says why holding still is no such sign).
// Only a place drawn for the state() a script sees (a frame at least as new
// as the state's) counts.
export async function widgetRect(page, name, { timeoutMs = 30000 } = {}) {
  const deadline = Date.now() + timeoutMs;
  let last = null; let settled = null;
  while (Date.now() < deadline) {
    const r = await page.evaluate((n) => {
      const w = window.roomkey.widget(n);
      const frame = window.roomkey.state().frame;
      return w && !(frame > w.frame) ? w : null;
    }, name);
    if (r && r.settled && settled && ['x', 'y', 'width', 'height'].every((k) => r[k] === settled[k])) return r;
    last = r;
    settled = r && r.settled ? r : null;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  // Whether a frame was asked for and the browser withheld it, or none was asked for.
  const frames = await page.evaluate(() => window.roomkey.frameStats()).catch(() => null);
  throw new Error(`the widget "${name}" was not drawn, or not in a settled frame, for ${timeoutMs} ms (last: ` +
    `${JSON.stringify(last)}; frames: ${JSON.stringify(frames)})`);
}

// The header's controls a narrow page keeps in its menu ('menu'), one click away.
const IN_HEADER_MENU = new Set(['notifications', 'sign_out', 'settings']);

// When `name` is one of them and the header shows its menu instead, opens
// the menu with `press` (a click or a tap), as a user would first.
async function openHeaderMenuFor(page, name, press) {
  if (!IN_HEADER_MENU.has(name)) return;
  const where = await page.waitForFunction((n) => {
    const api = window.roomkey;
    return api && (api.widget(n) ? 'drawn' : api.widget('menu') ? 'menu' : null);
  }, name, { timeout: 30000 });
  if (await where.jsonValue() === 'menu') await press('menu');
}

// Taps the middle of the widget `name` with a finger (a page of a `phone`
// browser): the press arrives with its position, no pointer moved there first.
export async function tapWidget(page, name) {
  await openHeaderMenuFor(page, name, (n) => tapWidget(page, n));
  const r = await widgetRect(page, name);
  await page.touchscreen.tap(r.x + r.width / 2, r.y + r.height / 2);
}

// Clicks the middle of the widget `name` with the mouse, as a user would.
// As a mouse user clicks: the pointer arrives, the app draws a frame with it
// there, then the button goes down and up. Dear ImGui 1.90 takes a press on
// an item others may overlap (a tab) only when the frame before already had
// the pointer over it.
export async function clickWidget(page, name) {
  await openHeaderMenuFor(page, name, (n) => clickWidget(page, n));
  const r = await widgetRect(page, name);
  const x = r.x + r.width / 2; const y = r.y + r.height / 2;
  await page.mouse.move(x, y);
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  await page.mouse.click(x, y);
}
