// app_theme.e2e.mjs: the small things a user notices, in Chromium:
// - the theme follows prefers-color-scheme, live: the canvas background is
//   dark for 'dark' and light for 'light', and turns when the preference
//   changes without a reload; the focus ring stands out on the light theme;
// - the text size control lasts for the session (a reload keeps it, a new
//   tab starts at the default);
// - "refresh with fewer scopes" (spec 4.3): the new token grants exactly the
//   subset asked for;
// - the rate plot has its axes' labels (the accessibility tree describes it
//   with the labels drawn) and keeps its size at 200 % zoom;
// - the rooms are a list of list items in the accessibility tree, with room
//   names in Japanese, Cyrillic and emoji.
// Screenshots: e2e-artifacts/room_list_three_scripts.png,
// focus_ring_light.png, rate_plot_100.png, rate_plot_200.png,
// theme_dark.png, theme_light.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { launchBrowser, startStack, stopStack, openApp, widgetRect, act, waitForState, demoUsers, decodePng, artifacts,
  passConsent, sandboxApiJson,
  signInLabel } from './support.mjs';

const ROOMS = ['開発チーム', 'Привет, команда', '🚀 Запуск 🎉'];
let stack; let browser;

before(async () => {
  stack = await startStack();
  browser = await launchBrowser();
  for (const name of ROOMS) await sandboxApiJson(stack, demoUsers.alice, 'POST', '/rooms', { name, members_admin_ids: demoUsers.alice.accountId });
});

after(async () => {
  if (browser) await browser.close();
  await stopStack(stack);
});

const widget = widgetRect;  // drawn and settled (support.mjs)

// The median luminance (0-255) of a patch of the page: the background,
// whatever small text may cross it.
async function luminance(page, clip) {
  const png = decodePng(await page.screenshot({ clip }));
  const values = [];
  for (let i = 0; i < png.pixels.length; i += png.channels) {
    values.push(0.2126 * png.pixels[i] + 0.7152 * png.pixels[i + 1] + 0.0722 * png.pixels[i + 2]);
  }
  values.sort((a, b) => a - b);
  return values[Math.floor(values.length / 2)];
}

// Polls until the patch's luminance satisfies `ok` (a frame follows the
// change; the screenshot may come before it).
async function waitForLuminance(page, clip, ok, what) {
  const deadline = Date.now() + 10000;
  let value;
  while (Date.now() < deadline) {
    value = await luminance(page, clip);
    if (ok(value)) return value;
    await page.waitForTimeout(100);
  }
  throw new Error(`${what}: the background's luminance stayed ${value}`);
}

test('the theme follows prefers-color-scheme, live, and the focus ring stands out on light', async () => {
  const page = await browser.context.newPage();
  await page.emulateMedia({ colorScheme: 'dark' });
  await openApp(page, stack.url);
  // Below the sign-in button: the window's own background.
  const signIn = await widget(page, 'sign_in');
  assert.ok(signIn, 'the Sign in button is drawn');
  const patch = { x: 1180, y: 740, width: 80, height: 40 };
  const dark = await waitForLuminance(page, patch, (v) => v < 60, 'dark scheme');
  await page.screenshot({ path: join(artifacts, 'theme_dark.png') });
  // The preference changes while the app runs: no reload.
  await page.emulateMedia({ colorScheme: 'light' });
  const light = await waitForLuminance(page, patch, (v) => v > 200, 'light scheme, live');
  await page.screenshot({ path: join(artifacts, 'theme_light.png') });
  assert.ok(light - dark > 150, `light ${light} against dark ${dark}`);

  // The keyboard focus ring on "Sign in", in the light theme's ring colour
  // (deep orange: web/src/ui.cpp apply_theme).
  await page.locator('#canvas').focus();
  await page.keyboard.press('Tab');
  await page.waitForFunction(() => document.activeElement && document.activeElement.closest('#a11y'), null,
    { timeout: 5000 });
  const ring = await page.getByRole('button', { name: signInLabel(stack), exact: true }).boundingBox();
  await page.waitForTimeout(200);
  const shot = decodePng(await page.screenshot({ path: join(artifacts, 'focus_ring_light.png'),
    clip: { x: Math.max(0, ring.x - 6), y: Math.max(0, ring.y - 6), width: ring.width + 12, height: ring.height + 12 } }));
  let orange = 0;
  for (let i = 0; i < shot.pixels.length; i += shot.channels) {
    const [r, g, b] = [shot.pixels[i], shot.pixels[i + 1], shot.pixels[i + 2]];
    if (r > 150 && g > 50 && g < 140 && b < 60) orange += 1;
  }
  assert.ok(orange > 20, `a focus ring is drawn around "Sign in" on the light theme (${orange} ring pixels)`);

  await page.emulateMedia({ colorScheme: 'dark' });
  await waitForLuminance(page, patch, (v) => v < 60, 'back to dark, live');
  await page.close();
});

test('the text size lasts for the session: a reload keeps it, a new tab starts at the default', async () => {
  // Tall pages: widget() gives the part of "Sign in" on screen, and the
  // larger text must not push it past its panel's view.
  const tall = { width: 1280, height: 1400 };
  const page = await browser.context.newPage();
  await page.setViewportSize(tall);
  await openApp(page, stack.url);
  const before = (await widget(page, 'sign_in')).height;
  await page.getByRole('button', { name: 'A+', exact: true }).dispatchEvent('click');
  await page.waitForFunction((h) => { const w = window.roomkey.widget('sign_in'); return w && w.height > h; }, before,
    { timeout: 10000 });
  const larger = (await widget(page, 'sign_in')).height;
  await page.reload();
  await openApp(page, stack.url);
  await page.waitForFunction((h) => { const w = window.roomkey.widget('sign_in'); return w && w.height === h; }, larger,
    { timeout: 10000 }).catch(() => {});
  assert.equal((await widget(page, 'sign_in')).height, larger, `the larger text survived the reload (default ${before})`);
  const other = await browser.context.newPage();
  await other.setViewportSize(tall);
  await openApp(other, stack.url);
  assert.equal((await widget(other, 'sign_in')).height, before, 'a new tab (a new session) starts at the default size');
  await other.close();
  // Back to the default, so nothing of this test leaks into the next.
  await page.getByRole('button', { name: 'A-', exact: true }).dispatchEvent('click');
  await page.waitForFunction((h) => window.roomkey.widget('sign_in').height === h, before, { timeout: 10000 });
  await page.close();
});

test('refresh with fewer scopes: the new token grants the subset; the rate plot has its labels at 100 % and 200 %', async () => {
  const page = await browser.context.newPage();
  await openApp(page, stack.url);
  await act(page, { type: 'sign_in', scope: 'users.all:read rooms.all:read_write' });
  await passConsent(page, stack, demoUsers.alice);
  let state = await waitForState(page, (s) => s.session === 'signed in' && s.room_count > 0 && !s.loading,
    'signed in with the rooms');
  assert.equal(state.scopes.granted, 'users.all:read rooms.all:read_write');

  await act(page, { type: 'refresh_scopes', scope: 'users.all:read' });
  state = await waitForState(page, (s) => s.scope_refresh && s.scope_refresh.granted !== null, 'the narrower refresh');
  assert.equal(state.scope_refresh.requested, 'users.all:read');
  assert.equal(state.scope_refresh.granted, 'users.all:read', 'the service granted exactly the subset');
  assert.equal(state.scope_refresh.granted_before, 'users.all:read rooms.all:read_write');
  assert.equal(state.scopes.granted, 'users.all:read', 'the session now holds the narrower token');
  assert.equal(state.scopes.differ, false, 'no "granted differs from requested" warning for what was asked');
  assert.equal(state.errors.scope_refresh, '');
  assert.match(await page.evaluate(() => window.roomkey.mirrorText()), /Refreshed with fewer scopes: granted users\.all:read\./);
  // Asking for more than the grant now is refused before anything is sent.
  const refreshes = state.counters.token_refreshes;
  await act(page, { type: 'refresh_scopes', scope: 'users.all:read rooms.all:read' });
  state = await waitForState(page, (s) => s.errors.scope_refresh !== '', 'the refusal');
  assert.match(state.errors.scope_refresh, /only narrow the grant/);
  assert.equal(state.counters.token_refreshes, refreshes, 'no refresh was sent');
  assert.equal(state.session, 'signed in');

  // The rate plot: described to assistive technology with the labels it draws
  // (in the developer view).
  await act(page, { type: 'show_view', view: 'developer' });
  const plot = page.getByRole('img', { name: /^Remaining calls over time/ });
  await plot.waitFor({ state: 'attached', timeout: 10000 });
  const name = await plot.getAttribute('aria-label');
  assert.match(name, /limit 300 per 5 min/, name);
  assert.match(name, /calls axis \d+( \d+)+;/, `value ticks: ${name}`);
  assert.match(name, /time axis( -\S+( s| min)?)* now$/, `time ticks ending at now: ${name}`);
  const at100 = await widget(page, 'rate_plot');
  await page.screenshot({ path: join(artifacts, 'rate_plot_100.png'),
    clip: { x: at100.x, y: Math.max(0, at100.y - 30), width: at100.width, height: at100.height + 30 } });
  // 200 % zoom (devicePixelRatio 2): the plot keeps its size in CSS pixels,
  // so its labels grow with the pixels, and says the same.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setDeviceMetricsOverride', { width: 1280, height: 800, deviceScaleFactor: 2, mobile: false });
  await page.waitForFunction(() => window.devicePixelRatio === 2);
  await page.waitForFunction((w) => { const r = window.roomkey.widget('rate_plot'); return r && Math.abs(r.height - w) <= w * 0.06; },
    at100.height, { timeout: 10000 }).catch(() => {});
  const at200 = await widget(page, 'rate_plot');
  // (Within a few per cent: text is rasterized at whole device pixels.)
  assert.ok(Math.abs(at200.width - at100.width) <= 2 && Math.abs(at200.height - at100.height) <= at100.height * 0.06,
    `the plot keeps its CSS size at 200 %: ${JSON.stringify(at100)} -> ${JSON.stringify(at200)}`);
  await page.waitForTimeout(200);
  await page.screenshot({ path: join(artifacts, 'rate_plot_200.png'),
    clip: { x: at200.x, y: Math.max(0, at200.y - 30), width: at200.width, height: at200.height + 30 } });
  assert.match(await plot.getAttribute('aria-label'), /limit 300 per 5 min/);
  await cdp.send('Emulation.clearDeviceMetricsOverride');
  await page.close();
});

test('the rooms are a list of list items, named in Japanese, Cyrillic and emoji', async () => {
  const page = await browser.context.newPage();
  await page.emulateMedia({ colorScheme: 'dark' });
  await openApp(page, stack.url);
  await act(page, { type: 'use_api_token', token: demoUsers.alice.apiToken });
  await act(page, { type: 'show_view', view: 'developer' });  // the Rooms panel is in the developer view
  const state = await waitForState(page, (s) => s.account && s.room_count >= ROOMS.length && !s.loading &&
    s.view === 'developer', 'the rooms');
  assert.equal(await page.getByRole('heading', { name: 'Rooms' }).count(), 1, 'the Rooms section is a heading');
  const list = page.getByRole('list', { name: 'Rooms' });
  await list.waitFor({ state: 'attached', timeout: 10000 });
  const items = list.getByRole('listitem');
  assert.equal(await items.count(), state.room_count, 'one list item per room');
  for (const name of ROOMS) {
    assert.equal(await list.getByRole('button', { name }).count(), 1, `"${name}" is a room of the list`);
  }
  // Every glyph of the three scripts is in the atlas before the picture is taken.
  await page.waitForFunction(() => { const f = window.roomkey.fontStats(); return f && f.missing === 0; }, null,
    { timeout: 20000 });
  await page.waitForTimeout(200);
  // The whole list with its section heading, as a user sees it.
  const rows = list.getByRole('button');
  const top = await rows.first().boundingBox();
  const bottom = await rows.last().boundingBox();
  const heading = await page.getByRole('heading', { name: 'Rooms' }).boundingBox();
  const y = Math.max(0, Math.min(heading.y, top.y) - 8);
  const x = Math.max(0, Math.min(heading.x, top.x) - 8);
  await page.screenshot({ path: join(artifacts, 'room_list_three_scripts.png'),
    clip: { x, y, width: top.x + top.width + 16 - x, height: bottom.y + bottom.height + 16 - y } });
  await page.close();
});
