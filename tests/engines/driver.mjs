// driver.mjs: one small interface over three browser engines, so a scenario
// is written once (tests/engines/scenarios.mjs) and runs in each:
//   chromium  Debian's Chromium through playwright-core, headless, launched
//             as the e2e tests launch it (tests/e2e/support.mjs);
//   firefox   Debian's Firefox ESR through puppeteer-core (WebDriver BiDi),
//             with a window: headless Firefox gets no WebGL2 here, so it
//             needs an X server (run it under xvfb-run);
//   webkit    WebKitGTK's MiniBrowser through selenium-webdriver and
//             Debian's WebKitWebDriver (it has no headless mode: xvfb-run).
// launchEngine(name) answers a driver:
//   goto(url)            navigate; resolves once the new document has loaded
//   url()                the top document's address (Firefox: the
//                        document's own, puppeteer's lags after Back)
//   evaluate(fn, arg)    fn(arg) in the page (a promise is awaited); its JSON
//   click(x, y)          a mouse click at CSS px of the viewport
//   dblclick(x, y)       a double click there
//   drag(x1, y1, x2, y2) the left button pressed at one point, moved to the
//                        other in steps, released there
//   clickElement(css)    a mouse click on an element of an HTML page
//   fill(css, text)      a form field emptied, then typed into with keys
//   type(text)           keys typed into whatever has the focus
//   press(chord)         one key or a chord: 'Tab', 'Enter', 'Control+Enter'
//   tap(x, y)            a finger's tap at CSS px of the viewport (touch
//                        events, no mouse before it)
//   compose(steps, text) an IME composition: each of `steps` shown as the
//                        text being composed, then `text` committed.
//                        Chromium's IME is driven through CDP; Firefox's and
//                        WebKit's drivers have none, so there the page's
//                        input gets the events an IME fires (composition
//                        start, update, end), dispatched in the page
//   pids()               the processes the engine started (for CPU figures)
//   close()
// Coordinates and names are those of window.roomkey.widget (CSS px of the
// viewport). Nothing here waits on time: callers wait on the page's state.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { focusFirefoxWindow } from './x_focus.mjs';

export const ENGINES = ['chromium', 'firefox', 'webkit'];
export const FIREFOX = '/usr/bin/firefox-esr';
export const WEBKIT_DRIVER = '/usr/bin/WebKitWebDriver';
export const MINIBROWSER = '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
// 900 px high: the HTTP log's "Copy as curl" is on screen below the room
// list (at 800 it is below the fold); Firefox's window with its toolbars
// still fits the tests' 1600x1000 X screen.
export const VIEWPORT = { width: 1280, height: 900 };

// `testFlags`: Chromium's page-open flags (support.mjs); false for bench/.
// `trustedOnly` (WebKit): no certificate the engine's own trust refuses is
// accepted (webkit_trust.mjs); the scenarios accept the local CA's.
export async function launchEngine(name, { testFlags = true, trustedOnly = false } = {}) {
  if (!ENGINES.includes(name)) throw new Error(`unknown engine "${name}" (one of ${ENGINES.join(', ')})`);
  if (name !== 'chromium' && !process.env.DISPLAY) {
    throw new Error(`${name} needs an X server (no DISPLAY): run under xvfb-run -a -s "-screen 0 1600x1000x24"`);
  }
  const driver = name === 'chromium' ? await launchChromium(testFlags)
    : name === 'firefox' ? await launchFirefox() : await launchWebKit(trustedOnly);
  // The last page's frames, in the log: how many the app drew from its
  // timer because the engine withheld an animation frame (page.js frameStats).
  const close = driver.close;
  driver.close = async () => {
    const frames = await Promise.race([
      driver.evaluate(() => window.roomkey && window.roomkey.frameStats()).catch(() => null),
      new Promise((r) => setTimeout(() => r(null), 5000).unref())]);
    if (frames) console.log(`# ${name}: the last page's frames: ${JSON.stringify(frames)}`);
    await close();
  };
  return driver;
}

// A page function as one expression every driver evaluates the same way:
// fn(arg), its result awaited and handed back as JSON text (the drivers
// differ in which values they carry back; text they all carry).
export function pageCall(fn, arg) {
  return `(async () => JSON.stringify((await (${fn})(${JSON.stringify(arg)})) ?? null))()`;
}

// ---------------------------------------------------------------------------
// Chromium: playwright-core, as the e2e tests (support.mjs launchBrowser).
// ---------------------------------------------------------------------------
async function launchChromium(testFlags) {
  const { launchBrowser } = await import('../e2e/support.mjs');
  const browser = await launchBrowser({ testFlags, backForwardCache: true });
  const page = browser.context.pages()[0] || await browser.context.newPage();
  await page.setViewportSize(VIEWPORT);
  // A persistent context does not name its process: Chromium is the child
  // of this process that Playwright started, named chrom*.
  const chromePids = () => childrenNamed(process.pid, /^chrom/);
  return {
    name: 'chromium',
    version: await page.evaluate(() => navigator.userAgent.match(/Chrom(e|ium)\/[\d.]+/)?.[0] ?? 'unknown'),
    goto: (url) => page.goto(url, { waitUntil: 'load' }),
    url: async () => page.url(),
    evaluate: async (fn, arg = null) => JSON.parse(await page.evaluate(pageCall(fn, arg))),
    click: (x, y) => page.mouse.click(x, y),
    dblclick: (x, y) => page.mouse.dblclick(x, y),
    drag: async (x1, y1, x2, y2) => {
      await page.mouse.move(x1, y1);
      await page.mouse.down();
      await page.mouse.move(x2, y2, { steps: 6 });
      await page.mouse.up();
    },
    clickElement: (css) => page.click(css),
    fill: async (css, text) => { await page.click(css); await page.fill(css, ''); await page.keyboard.type(text); },
    type: (text) => page.keyboard.type(text),
    press: (chord) => page.keyboard.press(chord),
    tap: async (x, y) => {
      // The context has no hasTouch (Playwright's tap refuses): CDP's touch events, as app_touch.e2e.mjs drags.
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y }] });
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
      await cdp.detach();
    },
    compose: async (steps, text) => {
      const cdp = await page.context().newCDPSession(page);
      for (const step of steps) {
        await cdp.send('Input.imeSetComposition', { text: step, selectionStart: step.length, selectionEnd: step.length });
      }
      await cdp.send('Input.insertText', { text });
      await cdp.detach();
    },
    pids: chromePids,
    close: () => browser.close(),
  };
}

// ---------------------------------------------------------------------------
// Firefox ESR: puppeteer-core over WebDriver BiDi, with a window.
// ---------------------------------------------------------------------------
async function launchFirefox() {
  const { default: puppeteer } = await import('puppeteer-core');
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX,
    headless: false,
    acceptInsecureCerts: true,
    defaultViewport: VIEWPORT,
    // No updates, studies or first-run pages: nothing of Firefox's own
    // competes with the page for the CPU or the network.
    extraPrefsFirefox: { 'app.update.enabled': false, 'browser.startup.homepage_override.mstone': 'ignore',
      'datareporting.policy.dataSubmissionEnabled': false, 'app.normandy.enabled': false },
  });
  const pages = await browser.pages();
  const page = pages[0] || await browser.newPage();
  await page.setViewport(VIEWPORT);
  // Its window focused as a user's click does (no window manager under
  // xvfb-run does it): key presses then act as a user's, Enter on a
  // focused button clicks it. One page for the whole run, so once.
  await focusFirefoxWindow(page, browser.process().pid);
  return {
    name: 'firefox',
    version: await browser.version(),
    goto: (url) => page.goto(url, { waitUntil: 'load', timeout: 60000 }),
    // The document's own address: puppeteer's page.url() stays on the page
    // left behind when Back restores one from the back/forward cache.
    url: () => page.evaluate(() => window.location.href).catch(() => page.url()),
    evaluate: async (fn, arg = null) => JSON.parse(await page.evaluate(pageCall(fn, arg))),
    click: (x, y) => page.mouse.click(x, y),
    dblclick: (x, y) => page.mouse.click(x, y, { count: 2 }),
    drag: async (x1, y1, x2, y2) => {
      await page.mouse.move(x1, y1);
      await page.mouse.down();
      await page.mouse.move(x2, y2, { steps: 6 });
      await page.mouse.up();
    },
    clickElement: (css) => page.click(css),
    fill: async (css, text) => {
      await page.click(css);
      await page.$eval(css, (el) => { el.value = ''; });
      await page.keyboard.type(text);
    },
    type: (text) => page.keyboard.type(text),
    press: async (chord) => {
      const keys = chord.split('+');
      const last = keys.pop();
      for (const k of keys) await page.keyboard.down(k);
      await page.keyboard.press(last);
      for (const k of keys.reverse()) await page.keyboard.up(k);
    },
    tap: (x, y) => page.touchscreen.tap(x, y),
    compose: (steps, text) => page.evaluate(dispatchComposition, steps, text),
    pids: () => (browser.process() ? [browser.process().pid] : []),
    close: () => browser.close(),
  };
}

// ---------------------------------------------------------------------------
// WebKitGTK: selenium-webdriver against WebKitWebDriver, MiniBrowser with a
// window (under xvfb-run).
// ---------------------------------------------------------------------------
async function launchWebKit(trustedOnly) {
  const { Builder, Key, Origin } = await import('selenium-webdriver');
  const { freePort } = await import('../support/free_port.mjs');
  // One WebKitWebDriver and its MiniBrowser session; started again (once)
  // when the first navigation hangs (goto below).
  let server; let serverOut; let exited; let driver; let capabilitiesSeen;
  const startSession = async () => {
    const port = await freePort();
    server = spawn(WEBKIT_DRIVER, [`--port=${port}`], { stdio: ['ignore', 'pipe', 'pipe'] });
    serverOut = '';
    server.stdout.setEncoding('utf8').on('data', (d) => { serverOut += d; });
    server.stderr.setEncoding('utf8').on('data', (d) => { serverOut += d; });
    exited = new Promise((resolve) => server.once('exit', resolve));
    // The driver listens once it answers /status: asked until it does (each
    // try is an answer or a refusal, not a sleep), for 20 s at most.
    const deadline = Date.now() + 20000;
    for (;;) {
      const up = await fetch(`http://127.0.0.1:${port}/status`).then((r) => r.ok, () => false);
      if (up) break;
      if (server.exitCode !== null || Date.now() > deadline) {
        server.kill('SIGKILL');
        throw new Error(`WebKitWebDriver did not start on port ${port}: ${serverOut}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    const capabilities = {
      browserName: 'MiniBrowser',
      acceptInsecureCerts: !trustedOnly,
      // Commands do not wait for a navigation to end: after history.back()
      // WebKitWebDriver never sees the reloaded page's load end and every
      // command waits out the page-load timeout. The callers wait for the
      // document themselves (app.mjs waitForPage, waitUntilReady).
      // With trustedOnly (no Back there) a navigation is waited for: a load
      // WebKit refuses for its certificate ends at once, with no error and
      // the old document still there, which is how goto tells a refusal
      // from a slow load (with 'none' it could only wait for its deadline).
      pageLoadStrategy: trustedOnly ? 'normal' : 'none',
      'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation'] },
    };
    try {
      driver = await new Builder().usingServer(`http://127.0.0.1:${port}`).withCapabilities(capabilities).build();
    } catch (error) {
      server.kill('SIGTERM');
      throw new Error(`MiniBrowser did not start through WebKitWebDriver: ${error.message}\n${serverOut}`);
    }
    await driver.manage().setTimeouts({ script: 60000, pageLoad: 60000 });
    // The window so the viewport is VIEWPORT (its frame's size measured).
    await driver.manage().window().setRect({ x: 0, y: 0, width: VIEWPORT.width, height: VIEWPORT.height });
    const inner = await driver.executeScript('return [window.innerWidth, window.innerHeight]');
    await driver.manage().window().setRect({ x: 0, y: 0, width: 2 * VIEWPORT.width - inner[0],
      height: 2 * VIEWPORT.height - inner[1] });
    capabilitiesSeen = await driver.getCapabilities();
  };
  const endSession = async () => {
    const ending = driver;
    // A hung driver may never answer quit: it is not waited for beyond 5 s.
    await Promise.race([ending.quit().catch(() => {}), new Promise((r) => setTimeout(r, 5000))]);
    server.kill('SIGTERM');
    const killed = setTimeout(() => server.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(killed);
  };
  await startSession();
  // With pageLoadStrategy none, get() returns before the old document is
  // gone: the old one is marked, and the new one waited for (loaded, and
  // of the address's origin: a load refused can leave a new blank
  // document in the old one's place).
  const navigate = async (url) => {
    await driver.executeScript('window.__roomkeyLeaving = true;').catch(() => {});
    await driver.get(url);
    const origin = new URL(url).origin;
    if (trustedOnly) {
      const at = await driver.executeScript('return location.href;');
      if (new URL(at).origin !== origin) throw new Error(`webkit: ${url} refused: its load ended at ${at}`);
    }
    const deadline = Date.now() + 60000;
    for (;;) {
      const loaded = await driver.executeScript(`return !window.__roomkeyLeaving && location.origin === ${
        JSON.stringify(origin)} && document.readyState === "complete";`).catch(() => false);
      if (loaded) return;
      if (Date.now() > deadline) throw new Error(`webkit: ${url} did not load in 60 s`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  // Rarely WebKitWebDriver answers no command of a new session's first
  // navigation (get or the script after it) at all, a hang no timeout of
  // its own ends. That navigation is given 60 s (a first load takes a few
  // here); past that the session is ended, a new one started, and the
  // navigation tried once more, with a line in the log saying so.
  let navigated = false;
  const FIRST_NAVIGATION_MS = 60000;
  const goto = async (url) => {
    if (navigated) return navigate(url);
    navigated = true;
    let timer;
    const hung = new Promise((resolve) => { timer = setTimeout(() => resolve('hung'), FIRST_NAVIGATION_MS); });
    const first = navigate(url).then(() => 'loaded');
    first.catch(() => {});  // a hung one's commands fail once its session ends
    const outcome = await Promise.race([first, hung]).finally(() => clearTimeout(timer));
    if (outcome === 'loaded') return;
    console.log(`# webkit: the first navigation (${url}) had no answer from WebKitWebDriver in ` +
      `${FIRST_NAVIGATION_MS / 1000} s; ending that session and trying once more in a new one. Its output: ${serverOut}`);
    await endSession();
    await startSession();
    await navigate(url);
  };
  const KEYS = { Enter: Key.ENTER, Tab: Key.TAB, Backspace: Key.BACK_SPACE, Delete: Key.DELETE, Escape: Key.ESCAPE,
    Control: Key.CONTROL, Shift: Key.SHIFT, Alt: Key.ALT, Meta: Key.META, Space: ' ' };
  const key = (name) => KEYS[name] ?? name;
  const run = async (fn, arg) => JSON.parse(await driver.executeScript(`return ${pageCall(fn, arg)};`));
  return {
    name: 'webkit',
    version: `${capabilitiesSeen.get('browserName')} ${capabilitiesSeen.get('browserVersion')}`,
    goto,
    url: () => driver.getCurrentUrl(),
    evaluate: (fn, arg = null) => run(fn, arg),
    click: (x, y) => driver.actions().move({ x: Math.round(x), y: Math.round(y), origin: Origin.VIEWPORT })
      .press().release().perform(),
    dblclick: (x, y) => driver.actions().move({ x: Math.round(x), y: Math.round(y), origin: Origin.VIEWPORT })
      .doubleClick().perform(),
    drag: (x1, y1, x2, y2) => driver.actions()
      .move({ x: Math.round(x1), y: Math.round(y1), origin: Origin.VIEWPORT }).press()
      .move({ x: Math.round((x1 + x2) / 2), y: Math.round((y1 + y2) / 2), origin: Origin.VIEWPORT })
      .move({ x: Math.round(x2), y: Math.round(y2), origin: Origin.VIEWPORT }).release().perform(),
    clickElement: async (css) => {
      const { By } = await import('selenium-webdriver');
      await (await driver.findElement(By.css(css))).click();
    },
    fill: async (css, text) => {
      const { By } = await import('selenium-webdriver');
      const el = await driver.findElement(By.css(css));
      await el.clear();
      await el.sendKeys(text);
    },
    type: (text) => driver.actions().sendKeys(text).perform(),
    press: async (chord) => {
      const keys = chord.split('+').map(key);
      const last = keys.pop();
      let actions = driver.actions();
      for (const k of keys) actions = actions.keyDown(k);
      actions = actions.sendKeys(last);
      for (const k of [...keys].reverse()) actions = actions.keyUp(k);
      await actions.perform();
    },
    tap: async (x, y) => {
      const input = await import('selenium-webdriver/lib/input.js');
      const { Pointer } = input.Pointer ? input : input.default;
      const finger = new Pointer('finger', Pointer.Type.TOUCH);
      await driver.actions().insert(finger, finger.move({ x: Math.round(x), y: Math.round(y), origin: Origin.VIEWPORT }),
        finger.press(), finger.release()).perform();
    },
    compose: (steps, text) => driver.executeScript(`(${dispatchComposition})(arguments[0], arguments[1]);`, steps, text),
    pids: () => [server.pid],
    close: async () => {
      await driver.quit().catch(() => {});
      server.kill('SIGTERM');
      await exited;
    },
  };
}

// In the page: the events an IME fires on the focused field while it
// composes `steps` and commits `text` (UI Events' composition events).
function dispatchComposition(steps, text) {
  const el = document.activeElement;
  el.dispatchEvent(new CompositionEvent('compositionstart', { bubbles: true, data: '' }));
  for (const step of steps) el.dispatchEvent(new CompositionEvent('compositionupdate', { bubbles: true, data: step }));
  el.dispatchEvent(new CompositionEvent('compositionend', { bubbles: true, data: text }));
}

// The pids of `parent`'s children whose process name matches `pattern`
// (Linux /proc).
export function childrenNamed(parent, pattern) {
  const found = [];
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === parent && pattern.test(name)) found.push(Number(pid));
    } catch { /* exited while listed */ }
  }
  return found;
}
