// app_unicode_a11y.e2e.mjs: every script, every keyboard, every user (issue
// 13), in Chromium with the CJK and emoji fonts scripts/setup.sh installs:
// - a room named in Japanese, emoji and Cyrillic is drawn with real glyphs
//   (the atlas grows on demand: no glyph the text needs is missing, and the
//   emoji glyph is in colour);
// - the accessibility tree beside the canvas: Playwright's role queries find
//   "Sign in" and the message field, and acting on them signs in and posts;
// - the whole sign-in through posting with the keyboard alone, a visible
//   focus ring, the first Tab on "Sign in";
// - Japanese typed through IME composition (CDP Input.imeSetComposition and
//   Input.insertText) is posted exactly as composed;
// - after sign-in the address is `/`;
// - an emoji typed as two UTF-16 halves (Firefox's WebDriver
//   BiDi) arrives whole; a canvas whose read-back is noise
//   (privacy.resistFingerprinting) is met with the built-in font and a notice.
// Screenshots: e2e-artifacts/room_list_scripts.png, focus_ring.png, builtin_font.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { launchBrowser, startStack, stopStack, openApp, act, waitForState, demoUsers, decodePng, artifacts,
  sandboxApiJson,
  signInLabel } from './support.mjs';

const ROOM_NAME = '開発チーム 🚀 Привет';
const COMPOSED = '日本語の入力';
let stack; let browser; let roomId;

before(async () => {
  stack = await startStack();
  browser = await launchBrowser();
  ({ room_id: roomId } = await sandboxApiJson(stack, demoUsers.alice, 'POST', '/rooms', { name: ROOM_NAME, members_admin_ids: demoUsers.alice.accountId }));
  roomId = String(roomId);
});

after(async () => {
  if (browser) await browser.close();
  await stopStack(stack);
});

const fontStats = (page) => page.evaluate(() => window.roomkey.fontStats());

// The DOM element that has focus, as the accessibility tree names it.
const focused = (page) => page.evaluate(() => {
  const el = document.activeElement;
  return el ? { tag: el.tagName, name: el.getAttribute('aria-label') || el.textContent, inTree: !!el.closest('#a11y') } : null;
});

test('a room named in Japanese, emoji and Cyrillic is drawn with real glyphs', async () => {
  const page = await browser.context.newPage();
  await openApp(page, stack.url);
  await act(page, { type: 'use_api_token', token: demoUsers.alice.apiToken });
  await waitForState(page, (s) => s.account && s.room_count > 0 && !s.loading, 'the room list');
  // The atlas catches up between frames: nothing the screen draws is missing.
  await page.waitForFunction(() => { const f = window.roomkey.fontStats(); return f && f.missing === 0 && f.rebuilds > 1; },
    null, { timeout: 20000 });
  const stats = await fontStats(page);
  assert.equal(stats.missing, 0, 'no glyph the text needs is missing from the atlas');
  assert.ok(stats.colored >= 1, `the emoji is a colour glyph (${JSON.stringify(stats)})`);
  // The room's name reaches assistive technology whole.
  const room = page.getByRole('button', { name: ROOM_NAME });
  assert.equal(await room.count(), 1, 'the room is a control in the accessibility tree, named in its three scripts');
  const box = await room.boundingBox();
  await page.waitForTimeout(200);
  const shot = await page.screenshot({ path: join(artifacts, 'room_list_scripts.png'),
    clip: { x: 0, y: Math.max(0, box.y - 80), width: 900, height: 200 } });
  // Colour emoji: some pixel of the row is strongly saturated (text is grey/white on dark).
  const png = decodePng(await page.screenshot({ clip: { x: box.x, y: box.y, width: Math.max(1, box.width), height: Math.max(1, box.height) } }));
  let saturated = 0;
  for (let i = 0; i < png.pixels.length; i += png.channels) {
    const [r, g, b] = [png.pixels[i], png.pixels[i + 1], png.pixels[i + 2]];
    if (Math.max(r, g, b) - Math.min(r, g, b) > 80) saturated += 1;
  }
  assert.ok(saturated > 10, 'the rocket emoji is drawn in colour in the room row');
  assert.ok(shot.length > 0);
  await page.close();
});

test('keyboard alone and role queries: sign in, choose the room, compose Japanese with an IME, post', async () => {
  const page = await browser.context.newPage();
  // The ring's colour checked below is the dark theme's (app_theme checks the light one).
  await page.emulateMedia({ colorScheme: 'dark' });
  await openApp(page, stack.url);
  // The first Tab lands on the main action, with a visible focus ring.
  await page.locator('#canvas').focus();
  await page.keyboard.press('Tab');
  await page.waitForFunction(() => document.activeElement && document.activeElement.closest('#a11y'), null, { timeout: 5000 });
  assert.deepEqual(await focused(page), { tag: 'BUTTON', name: signInLabel(stack), inTree: true },
    'the first Tab is on "Sign in to <service>"');
  const signIn = page.getByRole('button', { name: signInLabel(stack), exact: true });
  const ring = await signIn.boundingBox();
  await page.waitForTimeout(200);
  const ringShot = decodePng(await page.screenshot({ path: join(artifacts, 'focus_ring.png'),
    clip: { x: Math.max(0, ring.x - 6), y: Math.max(0, ring.y - 6), width: ring.width + 12, height: ring.height + 12 } }));
  let amber = 0;  // the focus ring's colour (web/src/ui.cpp apply_theme: NavHighlight)
  for (let i = 0; i < ringShot.pixels.length; i += ringShot.channels) {
    if (ringShot.pixels[i] > 200 && ringShot.pixels[i + 1] > 150 && ringShot.pixels[i + 2] < 110) amber += 1;
  }
  assert.ok(amber > 20, `a focus ring is drawn around "Sign in" (${amber} ring pixels)`);

  // Enter on the focused button signs in (the consent screen is the
  // sandbox's HTML form, used with the keyboard too).
  await page.keyboard.press('Enter');
  await page.waitForURL((u) => u.origin === stack.sandbox.origin, { timeout: 30000 });
  await page.locator('#login').focus();
  await page.keyboard.type(demoUsers.alice.login);
  await page.keyboard.press('Tab');
  await page.keyboard.type(demoUsers.alice.password);
  await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
  await page.locator('#allow').focus();
  await Promise.all([page.waitForURL((u) => u.origin === stack.origin, { timeout: 30000 }), page.keyboard.press('Enter')]);
  await waitForState(page, (s) => s.session === 'signed in' && s.room_count > 0, 'signed in with the rooms');
  assert.equal(new URL(page.url()).pathname, '/', 'after the callback the address is /');

  // The room, found by its name in the tree, chosen with Enter.
  const room = page.getByRole('button', { name: ROOM_NAME });
  await room.focus();
  await page.keyboard.press('Enter');
  const field = page.getByRole('textbox', { name: 'Message' });
  await field.waitFor({ timeout: 10000 });
  await field.focus();
  await page.waitForFunction(() => document.activeElement && document.activeElement.getAttribute('aria-label') === 'Message');

  // IME: composition in progress, then the commit.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.imeSetComposition', { text: 'にほんご', selectionStart: 4, selectionEnd: 4 });
  await cdp.send('Input.imeSetComposition', { text: 'にほんごの', selectionStart: 5, selectionEnd: 5 });
  await cdp.send('Input.insertText', { text: COMPOSED });
  await page.waitForFunction((text) => document.activeElement && document.activeElement.value === text, COMPOSED,
    { timeout: 10000 });
  // Ctrl+Enter queues the message (the shortcut is published on the button).
  assert.equal(await page.getByRole('button', { name: 'Send', exact: true }).getAttribute('aria-keyshortcuts'), 'Control+Enter');
  await page.keyboard.press('Control+Enter');
  const state = await waitForState(page, (s) => s.queue && s.queue.delivered >= 1, 'the post');
  assert.equal(state.queue.failed, 0);
  const messages = await sandboxApiJson(stack, demoUsers.alice, 'GET', `/rooms/${roomId}/messages?force=1`);
  assert.ok(messages.some((m) => m.body === COMPOSED), `the composed text was posted exactly: ${JSON.stringify(messages.map((m) => m.body))}`);
  await page.close();
});

test('role queries act like clicks: the Sign in button signs in, the message field posts', async () => {
  const page = await browser.context.newPage();
  await openApp(page, stack.url);
  // The scopes are in the connection's settings, one click from the first screen.
  const settings = page.getByRole('button', { name: 'Connection settings', exact: true });
  await settings.waitFor({ timeout: 30000 });
  await settings.dispatchEvent('click');
  // A scope's expander draws no text: it is named for what it shows, with
  // the scope written as the service writes it.
  const expander = page.getByRole('button', { name: 'What rooms.all:read_write includes', exact: true });
  await expander.waitFor({ timeout: 30000 });
  assert.equal(await expander.getAttribute('aria-expanded'), 'false');
  const signIn = page.getByRole('button', { name: signInLabel(stack), exact: true });
  await Promise.all([page.waitForURL((u) => u.origin === stack.sandbox.origin, { timeout: 30000 }),
    signIn.dispatchEvent('click')]);
  await page.goBack();  // back to the app; the pending sign-in is abandoned
  await openApp(page, stack.url);
  await act(page, { type: 'use_api_token', token: demoUsers.alice.apiToken });
  await waitForState(page, (s) => s.account && s.room_count > 0, 'the rooms');
  await page.getByRole('button', { name: ROOM_NAME }).dispatchEvent('click');
  const field = page.getByRole('textbox', { name: 'Message' });
  await field.fill('Привет 🚀 from the tree');
  await page.waitForFunction(() => document.activeElement && document.activeElement.value === 'Привет 🚀 from the tree');
  await page.getByRole('button', { name: 'Send', exact: true }).dispatchEvent('click');
  await waitForState(page, (s) => s.queue && s.queue.delivered >= 1, 'the post');
  const messages = await sandboxApiJson(stack, demoUsers.alice, 'GET', `/rooms/${roomId}/messages?force=1`);
  assert.ok(messages.some((m) => m.body === 'Привет 🚀 from the tree'), 'the text filled into the DOM field was posted');
  await page.close();
});

// A mobile keyboard (Android's Gboard, iOS) sends no Backspace key: keydown
// says "Unidentified" (keyCode 229), and the deletion comes only as a
// beforeinput event. This is what such a keyboard dispatches.
const mobileDelete = (page, inputType) => page.evaluate((type) => {
  const el = document.activeElement;
  el.dispatchEvent(new KeyboardEvent('keydown', { key: 'Unidentified', keyCode: 229, bubbles: true, cancelable: true }));
  el.dispatchEvent(new InputEvent('beforeinput', { inputType: type, bubbles: true, cancelable: true }));
  el.dispatchEvent(new KeyboardEvent('keyup', { key: 'Unidentified', keyCode: 229, bubbles: true, cancelable: true }));
}, inputType);
const fieldValue = (page, text) => page.waitForFunction((t) => document.activeElement && document.activeElement.value === t,
  text, { timeout: 10000 });

test("a mobile keyboard's deletions (beforeinput, no key) edit the field, and the edited text is posted", async () => {
  const page = await browser.context.newPage();
  await openApp(page, stack.url);
  await act(page, { type: 'use_api_token', token: demoUsers.alice.apiToken });
  await waitForState(page, (s) => s.account && s.room_count > 0, 'the rooms');
  await page.getByRole('button', { name: ROOM_NAME }).dispatchEvent('click');
  const field = page.getByRole('textbox', { name: 'Message' });
  await field.fill('Привет mobile words');
  await fieldValue(page, 'Привет mobile words');
  await mobileDelete(page, 'deleteContentBackward');
  await mobileDelete(page, 'deleteContentBackward');
  await fieldValue(page, 'Привет mobile wor');
  await mobileDelete(page, 'deleteWordBackward');
  await fieldValue(page, 'Привет mobile ');
  await mobileDelete(page, 'deleteContentBackward');
  await page.keyboard.type('!');
  await fieldValue(page, 'Привет mobile!');
  await page.getByRole('button', { name: 'Send', exact: true }).dispatchEvent('click');
  await waitForState(page, (s) => s.queue && s.queue.delivered >= 1, 'the post');
  const messages = await sandboxApiJson(stack, demoUsers.alice, 'GET', `/rooms/${roomId}/messages?force=1`);
  assert.ok(messages.some((m) => m.body === 'Привет mobile!'), `the edited text was posted: ${JSON.stringify(messages.map((m) => m.body))}`);
  await page.close();
});

// Firefox's WebDriver BiDi types a character beyond U+FFFF as two input
// events, one UTF-16 half each. Each array is one beforeinput
// event's data, as code units (a lone half cannot cross Playwright's
// protocol as text); each event is dispatched in its own turn, as a
// driver's actions arrive.
const typeUnits = async (page, events) => {
  for (const units of events) {
    await page.evaluate((codes) => {
      const data = String.fromCharCode(...codes);
      document.activeElement.dispatchEvent(new InputEvent('beforeinput',
        { inputType: 'insertText', data, bubbles: true, cancelable: true }));
    }, units);
  }
};

test('an emoji typed as two UTF-16 halves arrives whole; a half left alone becomes U+FFFD', async () => {
  const page = await browser.context.newPage();
  await openApp(page, stack.url);
  await act(page, { type: 'use_api_token', token: demoUsers.alice.apiToken });
  await waitForState(page, (s) => s.account && s.room_count > 0, 'the rooms');
  await page.getByRole('button', { name: ROOM_NAME }).dispatchEvent('click');
  const field = page.getByRole('textbox', { name: 'Message' });
  await field.waitFor({ timeout: 10000 });
  await field.focus();
  await page.waitForFunction(() => document.activeElement && document.activeElement.getAttribute('aria-label') === 'Message');
  // 🚀 is U+1F680: D83D DE80.
  await typeUnits(page, [[0x41], [0xD83D], [0xDE80], [0x42]]);
  await fieldValue(page, 'A🚀B');
  // A high half followed by other text: the half was a character lost on
  // the way, shown as the replacement character, and the text after it stays.
  await typeUnits(page, [[0xD83D], [0x43]]);
  await fieldValue(page, 'A🚀B\uFFFDC');
  await page.keyboard.press('Control+Enter');
  await waitForState(page, (s) => s.queue && s.queue.delivered >= 1, 'the post');
  const messages = await sandboxApiJson(stack, demoUsers.alice, 'GET', `/rooms/${roomId}/messages?force=1`);
  assert.ok(messages.some((m) => m.body === 'A🚀B\uFFFDC'), `the text was posted exactly: ${JSON.stringify(messages.map((m) => m.body))}`);
  await page.close();
});

// privacy.resistFingerprinting (Firefox; LibreWolf, Tor Browser and Mullvad
// Browser turn it on) answers a canvas read-back with noise, and every
// glyph of the atlas became a striped block. Chromium does the
// same here through an init script that adds noise to every getImageData.
// The app must notice at start-up, draw with its built-in font and say
// which scripts it cannot show and why.
// Text of one colour on one background, antialiased, has every pixel on
// the line between the two colours; a glyph of noise has pixels anywhere.
// Returns how far the farthest pixel of `rect` is from that line, and how
// far the text's colour is from the background's (ink at all).
async function offTheTextLine(page, rect) {
  const png = decodePng(await page.screenshot({ clip: rect }));
  const colours = [];
  const counts = new Map();
  for (let i = 0; i < png.pixels.length; i += png.channels) {
    const c = [png.pixels[i], png.pixels[i + 1], png.pixels[i + 2]];
    colours.push(c);
    const key = c.join();
    counts.set(key, (counts.get(key) || 0) + 1);
  }
  const bg = [...counts.entries()].sort((a, b) => b[1] - a[1])[0][0].split(',').map(Number);
  const dist = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
  const fg = colours.reduce((far, c) => (dist(c, bg) > dist(far, bg) ? c : far), bg);
  const span = dist(fg, bg);
  let worst = 0;
  for (const c of colours) {
    // Distance from c to the segment bg..fg.
    const t = span === 0 ? 0 : Math.max(0, Math.min(1,
      ((c[0] - bg[0]) * (fg[0] - bg[0]) + (c[1] - bg[1]) * (fg[1] - bg[1]) + (c[2] - bg[2]) * (fg[2] - bg[2])) / (span * span)));
    const p = [bg[0] + t * (fg[0] - bg[0]), bg[1] + t * (fg[1] - bg[1]), bg[2] + t * (fg[2] - bg[2])];
    worst = Math.max(worst, dist(c, p));
  }
  return { worst, ink: span };
}

test('a canvas whose read-back is noise: the built-in font draws, and the app says which scripts are missing and why', async () => {
  const page = await browser.context.newPage();
  await page.addInitScript(() => {
    const read = CanvasRenderingContext2D.prototype.getImageData;
    CanvasRenderingContext2D.prototype.getImageData = function (...args) {
      const image = read.apply(this, args);
      for (let i = 0; i < image.data.length; i++) image.data[i] = (image.data[i] + Math.floor(Math.random() * 256)) & 255;
      return image;
    };
  });
  await openApp(page, stack.url);
  await act(page, { type: 'use_api_token', token: demoUsers.alice.apiToken });
  await waitForState(page, (s) => s.account && s.room_count > 0 && !s.loading, 'the room list');
  // The room named in Japanese, emoji and Cyrillic is drawn: its scripts
  // are named as missing once it has been.
  const stats = await page.waitForFunction(() => {
    const f = window.roomkey.fontStats();
    return f && ['Japanese', 'emoji', 'Cyrillic'].every((n) => f.missing_scripts.includes(n)) && f;
  }, null, { timeout: 20000 }).then((handle) => handle.jsonValue());
  assert.equal(stats.builtin, true, 'the built-in font draws');
  assert.match(stats.notice, /built-in font, which has Latin letters only/);
  assert.match(stats.notice, /a blank canvas read back as noise/);
  assert.match(stats.notice, /Not shown: .*Japanese/);
  await page.waitForFunction((n) => window.roomkey.mirrorText().includes(n), stats.notice, { timeout: 10000 });

  // Text still renders: a button's label is drawn in its own colour (a
  // noisy atlas drew blocks of random colours). The Reload buttons are the
  // developer view's.
  await act(page, { type: 'show_view', view: 'developer' });
  const reload = await page.getByRole('button', { name: 'Reload', exact: true }).first().boundingBox();
  assert.ok(reload, 'the Reload button is in the accessibility tree');
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const label = await offTheTextLine(page,
    { x: reload.x + 4, y: reload.y + 3, width: reload.width - 8, height: reload.height - 6 });
  assert.ok(label.ink > 80, `the label has ink (${JSON.stringify(label)})`);
  assert.ok(label.worst < 24, `the label is text of one colour, not noise (${JSON.stringify(label)})`);
  await page.screenshot({ path: join(artifacts, 'builtin_font.png'), clip: { x: 0, y: 0, width: 1280, height: 200 } });
  await page.close();
});
