// app_layout.e2e.mjs: the app fills the window, draws at the display's
// resolution on HiDPI screens (device-pixel ratio 2), follows resizes, and
// shows the signed-out start screen without console errors; a control
// scrolled out of its panel's view has no position in the page API.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openApp, act, waitForState, widgetRect, demoUsers, decodePng, distinctColours, artifacts, withStackAndBrowser, waitForBackingStore } from './support.mjs';

let stack; let browser;
withStackAndBrowser((s, b) => { stack = s; browser = b; });

async function canvasSize(page) {
  return page.evaluate(() => {
    const c = document.getElementById('canvas');
    const r = c.getBoundingClientRect();
    return { width: c.width, height: c.height, cssWidth: r.width, cssHeight: r.height, ratio: window.devicePixelRatio };
  });
}

// Device metrics over CDP: a persistent context cannot change its scale factor.
async function emulate(page, width, height, deviceScaleFactor) {
  const cdp = await browser.context.newCDPSession(page);
  await cdp.send('Emulation.setDeviceMetricsOverride', { width, height, deviceScaleFactor, mobile: false });
}

test('HiDPI: the canvas is drawn at device pixels and follows a resize', async () => {
  const page = await browser.context.newPage();
  await emulate(page, 900, 640, 2);
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await openApp(page, stack.url);
  await waitForBackingStore(page);
  let size = await canvasSize(page);
  assert.equal(size.ratio, 2);
  assert.equal(size.width, Math.round(size.cssWidth * 2), 'backing store = CSS width x device-pixel ratio');
  const shot = await page.screenshot({ path: join(artifacts, 'hidpi.png') });
  assert.ok(distinctColours(decodePng(shot)) > 50, 'the start screen is drawn');

  await emulate(page, 1400, 900, 2);
  await waitForBackingStore(page);
  size = await canvasSize(page);
  assert.equal(size.cssWidth, 1400, 'the canvas fills the resized window');
  assert.equal(size.width, 2800);
  assert.deepEqual(errors, [], 'no console errors');
  await page.close();
});

// The scope picker's explanations are not only in a hover tooltip: the page
// describes every scope for assistive technology (and the canvas points at it).
test('scope explanations are in the page for assistive technology', async () => {
  const page = await browser.context.newPage();
  await openApp(page, stack.url);
  await page.waitForFunction(() => window.roomkey.scopeHelp().length > 0, null, { timeout: 30000 });
  const help = await page.evaluate(() => window.roomkey.scopeHelp());
  const offline = help.find((s) => s.name === 'offline_access');
  assert.equal(offline.available, false, 'greyed out for a public client (spec 5.4.3)');
  assert.match(offline.explanation, /confidential clients/);
  const text = await page.locator('#scope-help').textContent();
  assert.match(text, /rooms\.all:read_write: .*Includes: rooms\.all:read rooms\.all:write\./);
  assert.match(text, /offline_access \(not available to this app\)/);
  assert.equal(await page.locator('#canvas').getAttribute('aria-describedby'), 'scope-help');
  assert.equal(await page.locator('#scope-help').getAttribute('aria-live'), null, 'not a live region');
  await page.close();
});

// widget(name) says where a script or assistive technology can click the
// control. In a window too low for the whole dashboard the message field
// sits below the fold of its scrolling panel: it has no position until the
// panel is scrolled to it, and then its position is inside the page. The
// mouse wheel scrolls the panel under the pointer the way the wheel turns:
// one notch down (Chromium: 100 px) moves its content up by a few lines.
test('the wheel scrolls a panel down a few lines a notch; a control out of view has no position', async () => {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 1024, height: 640 });
  await openApp(page, stack.url);
  await act(page, { type: 'use_api_token', token: demoUsers.alice.apiToken });
  await act(page, { type: 'show_view', view: 'developer' });  // the instrument panels are in the developer view
  await waitForState(page, (s) => s.account && !s.loading && s.selected_room && s.view === 'developer', 'the dashboard');
  const widget = (name) => page.evaluate((n) => window.roomkey.widget(n), name);
  // The dashboard's layout has settled: its right column is drawn and the
  // left panel's controls hold still.
  await widgetRect(page, 'rate_plot');
  const before = await widgetRect(page, 'sign_in');  // in the message field's panel
  assert.equal(await widget('message'), null, 'below the fold: no position (it was a place below the page)');

  await page.mouse.move(before.x + before.width / 2, before.y + before.height / 2);
  await page.mouse.wheel(0, 100);
  await page.waitForFunction((y) => { const r = window.roomkey.widget('sign_in'); return !r || r.y !== y; }, before.y,
    { timeout: 30000 });
  const after = await widgetRect(page, 'sign_in');
  const moved = before.y - after.y;
  // ImGui scrolls 5 lines of text a notch: about 80 px at this size.
  assert.ok(moved > 20 && moved < 200, `one notch down moved the panel's content up a few lines: ${moved} px`);

  // Notch by notch, each drawn before the next (the app draws a frame for
  // input at the next animation frame): a loaded machine must not apply
  // several at once and carry the field past the panel's view between reads.
  const drawn = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  let seen = null;
  for (let notch = 0; notch < 30 && !seen; notch++) {
    await page.mouse.wheel(0, 100);
    await drawn();
    seen = await widget('message');
  }
  assert.ok(seen, 'the message field came into view by scrolling its panel');
  assert.ok(seen.x >= 0 && seen.y >= 0 && seen.x + seen.width <= 1024 && seen.y + seen.height <= 640,
    `on the page: ${JSON.stringify(seen)}`);
  await page.close();
});

// The "Ctrl+Enter" hint beside "Queue message" once wrapped into a
// column, one letter a line, at 1280 px. At any width it is one line, beside
// the button or under it, or (narrower than the hint) not drawn at all: the
// shortcut is on the button for assistive technology either way.
test('the Ctrl+Enter hint never wraps into a column, at any width', async () => {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 1280, height: 2400 });
  await openApp(page, stack.url);
  await act(page, { type: 'use_api_token', token: demoUsers.alice.apiToken });
  await act(page, { type: 'show_view', view: 'developer' });  // the instrument panels are in the developer view
  await waitForState(page, (s) => s.account && !s.loading && s.selected_room && s.view === 'developer', 'the dashboard');
  assert.equal(await page.getByRole('button', { name: 'Queue message' }).getAttribute('aria-keyshortcuts'), 'Control+Enter');
  for (const width of [1280, 1200, 1100, 1024, 900, 800, 700, 600, 480, 360, 320]) {
    await page.setViewportSize({ width, height: 2400 });
    await waitForBackingStore(page);
    const button = await widgetRect(page, 'queue_message');
    const hint = await page.evaluate(() => window.roomkey.widget('queue_hint'));
    if (width >= 1024) assert.ok(hint, `the hint is drawn at ${width} px`);
    if (!hint) continue;
    assert.ok(hint.height < button.height, `one line at ${width} px: ${JSON.stringify(hint)} beside the button ${JSON.stringify(button)}`);
    assert.ok(hint.width > 3 * hint.height, `a word, not a column, at ${width} px: ${JSON.stringify(hint)}`);
    assert.ok(hint.x + hint.width <= width, `on the page at ${width} px`);
  }
  await page.screenshot({ path: join(artifacts, 'queue_hint_320.png') });
  await page.close();
});
