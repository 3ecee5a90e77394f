// app.mjs: the app and the sandbox's pages as a user meets them, over any
// engine's driver (driver.mjs): open the app, wait for its state, click a
// widget, pass the sandbox's login and consent forms with the mouse or the
// keyboard, go Back. The scenarios (scenarios.mjs) and bench/engines.mjs
// use these. Waits are on the page's state, its address or its DOM, asked
// again every POLL_MS; a deadline ends a wait with what was last seen.
export const POLL_MS = 50;
const pause = (ms) => new Promise((r) => setTimeout(r, ms));

// Waits until the page function fn(arg) answers something truthy, and
// answers it. A call that fails (a navigation in between, no document yet)
// counts as "not yet".
export async function waitFor(driver, fn, arg, what, timeoutMs = 30000) {
  const deadline = Date.now() + timeoutMs;
  let last; let lastError = null;
  while (Date.now() < deadline) {
    try {
      last = await driver.evaluate(fn, arg);
      lastError = null;
      if (last) return last;
    } catch (error) { lastError = error; }
    await pause(POLL_MS);
  }
  throw new Error(`${driver.name}: timed out waiting for ${what}; last answer: ${JSON.stringify(last)}` +
    (lastError ? `; last error: ${lastError.message.split('\n')[0]}` : ''));
}

// Waits until the top document's address satisfies predicate(URL).
export async function waitForUrl(driver, predicate, what, timeoutMs = 30000) {
  const deadline = Date.now() + timeoutMs;
  let url = '';
  while (Date.now() < deadline) {
    url = await driver.url().catch(() => url);
    try { if (url && predicate(new URL(url))) return new URL(url); } catch { /* about:blank and the like */ }
    await pause(POLL_MS);
  }
  throw new Error(`${driver.name}: timed out waiting for ${what}; the address is ${url}`);
}

// Waits until the document on screen is one of `origin`'s and has loaded:
// the driver's address can change when a navigation starts, before the
// document that was there is gone (puppeteer's Firefox), and a script run
// then runs in the old one.
export function waitForPage(driver, origin, what, timeoutMs = 30000) {
  return waitFor(driver, (o) => window.location.origin === o && document.readyState === 'complete', origin,
    what, timeoutMs);
}

// Opens the app and waits until it has drawn a frame and read its config.
export async function openApp(driver, url) {
  await driver.goto(url);
  await waitUntilReady(driver);
}

export function waitUntilReady(driver) {
  return waitFor(driver, () => window.roomkey && window.roomkey.ready() && window.roomkey.state().config &&
    window.roomkey.state().config.loaded, null, 'the app ready with its config', 60000);
}

export const appState = (driver) => driver.evaluate(() => window.roomkey.state());
export const act = (driver, action) => driver.evaluate((a) => { window.roomkey.act(a); return true; }, action);

// Waits until predicate(state) holds. One call to the page answers with the
// state once it differs from `seen`, waiting for the app's 'roomkey:state'
// event (shell/page.js) up to a second when it does not: a change is seen
// when it happens, and the page is not asked over and over meanwhile.
export async function waitForState(driver, predicate, what, timeoutMs = 30000) {
  const deadline = Date.now() + timeoutMs;
  let text = null; let state;
  while (Date.now() < deadline) {
    const waitMs = Math.max(0, Math.min(1000, deadline - Date.now()));
    let answer;
    try {
      answer = await driver.evaluate(({ seen, waitMs: ms }) => new Promise((resolve) => {
        if (!window.roomkey || !window.roomkey.ready()) { resolve(null); return; }
        const now = () => JSON.stringify(window.roomkey.state());
        if (now() !== seen) { resolve(now()); return; }
        let timer = 0;
        const settle = () => { window.removeEventListener('roomkey:state', settle); clearTimeout(timer); resolve(now()); };
        window.addEventListener('roomkey:state', settle);
        timer = setTimeout(settle, ms);
      }), { seen: text, waitMs });
    } catch { answer = null; }
    if (answer === null) { await pause(POLL_MS); continue; }  // between documents
    text = answer;
    state = JSON.parse(text);
    if (predicate(state)) return state;
  }
  throw new Error(`${driver.name}: timed out waiting for ${what}; last state: ${text}`);
}

// Where the app drew the widget `name` (CSS px), read alike twice from
// frames after which none was due (widget().settled): the picture is final,
// with no scroll, measuring window or input left to apply. Holding still
// for a while was no such sign: under load WebKit drew no frame for 200 ms
// while the HTTP log's newest entry still waited for its scroll into view,
// and a click at its 6 px sliver landed under the list once it scrolled.
// Under heavy load (about 20 on 2 cores) WebKit was seen drawing no frame
// for the rest of a 30 s wait after one that was not final: the app now
// draws a frame the browser withholds from its timer (web/src/main.cpp
// kFrameFallback); a wait that still times out says whether a frame was
// asked for and withheld (frameStats()).
export async function widgetRect(driver, name, { timeoutMs = 30000 } = {}) {
  const deadline = Date.now() + timeoutMs;
  let last = null; let settled = null;
  while (Date.now() < deadline) {
    const r = await driver.evaluate((n) => window.roomkey && window.roomkey.widget(n), name).catch(() => null);
    if (r && r.settled && settled && ['x', 'y', 'width', 'height'].every((k) => r[k] === settled[k])) return r;
    last = r;
    settled = r && r.settled ? r : null;
    await pause(25);
  }
  const frames = await driver.evaluate(() => window.roomkey && window.roomkey.frameStats()).catch(() => null);
  throw new Error(`${driver.name}: the widget "${name}" was not drawn, or not in a settled frame (last: ` +
    `${JSON.stringify(last)}; frames: ${JSON.stringify(frames)})`);
}

export async function clickWidget(driver, name) {
  const r = await widgetRect(driver, name);
  await driver.click(r.x + r.width / 2, r.y + r.height / 2);
}

// The accessibility tree's element for a control (shell/a11y.js), as a
// screen reader finds it, once the app has published it: {name, disabled}.
export const a11yControl = (driver, name) => waitFor(driver, (n) => {
  const el = [...document.querySelectorAll('#a11y button, #a11y input')]
    .find((e) => (e.getAttribute('aria-label') || e.textContent).trim() === n);
  return el ? { name: n, disabled: el.getAttribute('aria-disabled') === 'true' || el.disabled } : null;
}, name, `the control "${name}" in the accessibility tree`, 10000);

// "Sign in to <service>" (the first screen's main action; "Sign in" in the
// developer view's connection panel) stays greyed out until the app has read the helper's
// configuration; a user waits for it, and so does a scenario, with the mouse
// or the keyboard (an Enter on the greyed-out button starts nothing).
export async function waitForSignInEnabled(driver) {
  await waitFor(driver, () => {
    const el = [...document.querySelectorAll('#a11y button')]
      .find((e) => /^Sign in( to \S+)?$/.test((e.getAttribute('aria-label') || e.textContent).trim()));
    return el && el.getAttribute('aria-disabled') !== 'true' && !el.disabled;
  }, null, '"Sign in" enabled', 30000);
}

// Clicks "Sign in" with the mouse once it is enabled (as a user waits for
// a greyed-out button), and waits until the app has taken the click and
// left for the sandbox's sign-in page. A failure says where the button was
// and what the app showed.
export async function clickSignIn(driver, origin) {
  await waitForSignInEnabled(driver);
  const r = await widgetRect(driver, 'sign_in');
  await driver.click(r.x + r.width / 2, r.y + r.height / 2);
  try {
    await waitForPage(driver, origin, 'the sandbox\'s sign-in page');
  } catch (error) {
    const state = await appState(driver).catch(() => null);
    throw new Error(`${error.message}; clicked "Sign in" at ${JSON.stringify(r)}; the app: session ` +
      `${state?.session}, notice ${JSON.stringify(state?.notice)}, last_error ${JSON.stringify(state?.last_error)}, ` +
      `widget now ${JSON.stringify(await driver.evaluate(() => window.roomkey.widget('sign_in')).catch(() => null))}`);
  }
}

// The element with the focus: {tag, id, name, inTree, value}.
export const focused = (driver) => driver.evaluate(() => {
  const el = document.activeElement;
  return el ? { tag: el.tagName, id: el.id, name: el.getAttribute('aria-label') || el.textContent.trim(),
    inTree: !!el.closest('#a11y'), value: 'value' in el ? el.value : null } : null;
});

// Which of the sandbox's forms is shown: 'login', 'consent' or null.
export const sandboxForm = (driver) => waitFor(driver, () => (document.querySelector('#allow') ? 'consent'
  : document.querySelector('#login') && document.querySelector('#password') ? 'login' : null), null,
'the sandbox\'s login or consent form');

// The sandbox's forms with the mouse: click each field and type into it,
// click "Log in", then "Allow". Ends back on the app.
export async function passFormsWithMouse(driver, stack, user) {
  await waitForPage(driver, stack.sandbox.origin, 'the sandbox\'s sign-in page');
  if (await sandboxForm(driver) === 'login') {
    await driver.fill('#login', user.login);
    await driver.fill('#password', user.password);
    await driver.clickElement('button[value="login"]');
    await waitFor(driver, () => !!document.querySelector('#allow') && document.readyState === 'complete', null,
      'the consent form');
  }
  await driver.clickElement('#allow');
  await waitForUrl(driver, (u) => u.origin === stack.origin, 'the way back to the app');
}

// Tab until the element `id` has the focus, at most `limit` times.
export async function tabTo(driver, id, limit = 12) {
  for (let i = 0; i <= limit; i++) {
    if ((await focused(driver).catch(() => null))?.id === id) return i;
    await driver.press('Tab');
  }
  throw new Error(`${driver.name}: ${limit} Tabs did not reach #${id} (focus on ${JSON.stringify(await focused(driver))})`);
}

// The same forms with the keyboard alone: the login field (autofocus, or
// Tab to it), type, Tab, type, Enter; Tab to Allow, Enter. Enter on the
// focused Allow must click it (in Firefox only once its window has the
// focus: x_focus.mjs).
export async function passFormsWithKeys(driver, stack, user) {
  await waitForPage(driver, stack.sandbox.origin, 'the sandbox\'s sign-in page');
  if (await sandboxForm(driver) === 'login') {
    await tabTo(driver, 'login');
    await driver.type(user.login);
    await driver.press('Tab');
    await driver.type(user.password);
    await driver.press('Enter');
    await waitFor(driver, () => !!document.querySelector('#allow') && document.readyState === 'complete', null,
      'the consent form');
  }
  await tabTo(driver, 'allow');
  await driver.evaluate(() => {
    window.__allowClicked = false;
    document.getElementById('allow').addEventListener('click', () => { window.__allowClicked = true; });
    return true;
  });
  await driver.press('Enter');
  // Enter on a focused button clicks it: the click event, or the form gone.
  await waitFor(driver, () => window.__allowClicked === true || !document.getElementById('allow'), null,
    'Enter on the focused Allow to click it', 10000);
  await waitForUrl(driver, (u) => u.origin === stack.origin, 'the way back to the app');
}

// Back, as the history's Back does, from a task of the page (not the
// driver's own Back: after a back/forward-cache restore puppeteer's Firefox
// never sees the navigation end, and WebKitWebDriver's can hang), then
// waits until the address is `origin`'s.
export async function goBack(driver, origin) {
  await driver.evaluate(() => { setTimeout(() => history.back(), 0); return true; });
  await waitForUrl(driver, (u) => u.origin === origin, 'Back to the app');
  return waitForPage(driver, origin, 'the page shown again after Back');
}

// What the system clipboard holds, read as a user reads it: Ctrl+V into a
// text field (added to the page for this, over everything, and removed
// after). Answers the pasted text ('' for an empty clipboard), or null when
// the engine fired no paste event within `timeoutMs`.
export async function pasteClipboard(driver, timeoutMs = 5000) {
  await driver.evaluate(() => {
    const box = document.createElement('textarea');
    box.id = 'roomkey-test-paste';
    box.style.cssText = 'position:fixed;left:0;top:0;width:120px;height:40px;z-index:2147483647';
    window.__pasted = null;
    // Its own listener, before the page's: the text is read here and the
    // app's document-level paste listener never sees it.
    box.addEventListener('paste', (event) => {
      window.__pasted = event.clipboardData ? event.clipboardData.getData('text/plain') : '';
      event.preventDefault();
      event.stopPropagation();
    });
    document.body.appendChild(box);
    return true;
  });
  try {
    await driver.clickElement('#roomkey-test-paste');
    await waitFor(driver, () => document.activeElement && document.activeElement.id === 'roomkey-test-paste', null,
      'the paste field focused', 10000);
    await driver.press('Control+v');
    try {
      return (await waitFor(driver, () => (window.__pasted === null ? null : { text: window.__pasted }), null,
        'the paste event', timeoutMs)).text;
    } catch { return null; }
  } finally {
    await driver.evaluate(() => { document.getElementById('roomkey-test-paste')?.remove(); return true; });
  }
}
