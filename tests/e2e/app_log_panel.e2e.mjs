// app_log_panel.e2e.mjs: the developer view's HTTP log in Chromium against
// the sandbox, as a developer works with it: the filter (method, status
// class, path text) leaves only what it names on screen; the newest entry is
// at the end, like a terminal, and the setting turns the list around; while
// the pointer rests on the list nothing moves under it (new entries wait
// behind "N new", which shows them); and the times are the user's: the
// browser runs in Tokyo, the machine need not, and an entry's time and the
// rate-limit reset read as Tokyo clock times (the reset with a countdown),
// never as an epoch. What is on screen is read from the accessibility tree,
// whose elements sit over the widgets they stand for. The nginx twin runs
// only the times (the reset comes from the service's header, through the
// front); the filter and the hold are the app's alone.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openApp, act, waitForState, passConsent, demoUsers, startStack, stopStack, launchBrowser, clickWidget,
  appOnlyTest } from './support.mjs';

const ZONE = 'Asia/Tokyo';
let stack; let browser;
before(async () => {
  stack = await startStack();
  // Only the browser is in Tokyo (its zone comes from TZ when it starts).
  const saved = process.env.TZ;
  process.env.TZ = ZONE;
  try {
    browser = await launchBrowser({ locale: 'en-US' });
  } finally {
    if (saved === undefined) delete process.env.TZ; else process.env.TZ = saved;
  }
});
after(async () => {
  if (browser) await browser.close();
  await stopStack(stack);
});

const SCOPE = 'users.all:read rooms.all:read_write';
const ROOM = '2100';
const ENTRY = /^(GET|POST|PUT|DELETE) \/\S* -> /;

// The log entries on screen, top to bottom: [{name, top, x, y}] (x, y: the middle).
const shownEntries = (page) => page.evaluate((source) => {
  const entry = new RegExp(source);
  return [...document.querySelectorAll('#a11y button')]
    .map((el) => {
      const r = el.getBoundingClientRect();
      return { name: el.textContent, top: r.top, x: r.left + r.width / 2, y: r.top + r.height / 2 };
    })
    .filter((e) => entry.test(e.name))
    .sort((a, b) => a.top - b.top);
}, ENTRY.source);

// Waits until the entries on screen satisfy `check` (the app draws the
// frame after the state a script sees).
async function waitForShown(page, check, what) {
  const deadline = Date.now() + 30000;
  let last = [];
  while (Date.now() < deadline) {
    last = await shownEntries(page);
    if (last.length && check(last)) return last;
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve())));
  }
  throw new Error(`${what}: on screen were ${JSON.stringify(last.map((e) => e.name))}`);
}

const named = (page, role, name) => page.locator('#a11y').getByRole(role, { name, exact: true });
const imageText = (page, pattern) => page.waitForFunction((source) => {
  const found = [...document.querySelectorAll('#a11y [role="img"]')].map((el) => el.getAttribute('aria-label'))
    .find((label) => new RegExp(source).test(label || ''));
  return found || null;
}, pattern.source, { timeout: 30000 }).then((handle) => handle.jsonValue());

// A clock time as the app writes it in this browser (web/src/user_time.cpp:
// Intl, the browser's locale, hour numeric and minute 2-digit).
function clock(ms, timeZone) {
  return new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', timeZone })
    .format(new Date(ms)).replace(/[\u00a0\u2009\u202f]/g, ' ');
}

async function signedInDeveloper(page) {
  await page.setViewportSize({ width: 1366, height: 900 });
  await openApp(page, stack.url);
  await act(page, { type: 'sign_in', scope: SCOPE });
  await passConsent(page, stack, demoUsers.alice, 'allow');
  await waitForState(page, (s) => s.session === 'signed in' && s.account && s.status && !s.loading, 'signed in');
  await act(page, { type: 'show_view', view: 'developer' });
  // Two posts: one the sandbox takes (200), one without body sent anyway (400).
  await act(page, { type: 'post_message', room_id: ROOM, body: 'log panel' });
  await act(page, { type: 'api_call', method: 'POST', path: '/rooms/{room_id}/messages', params: { room_id: ROOM }, anyway: true });
  await waitForState(page, (s) => s.log.some((e) => /^POST \/api\/rooms\/2100\/messages -> 200/.test(e.title)) &&
    s.log.some((e) => /^POST \/api\/rooms\/2100\/messages -> 400/.test(e.title)), 'both posts answered');
}

appOnlyTest('the filter leaves only the method, status class and path it names on screen', async () => {
  const page = await browser.context.newPage();
  await signedInDeveloper(page);

  await act(page, { type: 'set_log_filter', text: 'MESSAGES', method: '', status: '' });
  let state = await waitForState(page, (s) => s.log_filter.text === 'MESSAGES', 'the path filter');
  // Both posts (the path text matches whatever its case), and nothing else.
  let shown = await waitForShown(page, (list) => list.every((e) => /^\S+ \/\S*messages/.test(e.name)) &&
    list.some((e) => /^POST \S+ -> 200/.test(e.name)) && list.some((e) => /^POST \S+ -> 400/.test(e.name)), 'path text');
  assert.ok(shown.length >= 2);
  assert.ok(state.log.some((e) => /^GET \/api\/me /.test(e.title)), 'GET /api/me is logged, and not shown');

  await act(page, { type: 'set_log_filter', text: '', method: 'GET', status: '' });
  // (From the list above, which held both posts: only GETs once it applies.)
  await waitForShown(page, (list) => list.every((e) => e.name.startsWith('GET ')), 'GET only');

  await act(page, { type: 'set_log_filter', text: 'rooms', method: 'POST', status: '4xx' });
  shown = await waitForShown(page, (list) => list.every((e) => /^POST \/api\/rooms\S* -> 4\d\d/.test(e.name)) &&
    list.some((e) => / -> 400 .*sent anyway against its own check/.test(e.name)), 'POST 4xx: the 400 sent anyway');

  // A value the filter does not take: it says why, and stays as it was.
  await act(page, { type: 'set_log_filter', text: '', method: 'FETCH', status: '' });
  state = await waitForState(page, (s) => /Log filter not changed: the method must be GET, POST, PUT, DELETE/.test(s.notice || ''),
    'the refusal');
  assert.deepEqual(state.log_filter, { text: 'rooms', method: 'POST', status: '4xx' });

  await act(page, { type: 'set_log_filter', text: '', method: '', status: '' });
  await waitForShown(page, (list) => list.some((e) => e.name.startsWith('GET ')) && list.some((e) => e.name.startsWith('POST ')),
    'everything again');
  await page.close();
});

appOnlyTest('newest at the end, the setting turns it around; the list holds still under the pointer', async () => {
  const page = await browser.context.newPage();
  await signedInDeveloper(page);
  await act(page, { type: 'set_log_filter', text: 'api/rooms/2100/messages', method: 'POST', status: '' });
  // Newest at the end: the 400 (sent last) is below the 200.
  let shown = await waitForShown(page, (list) => list.length === 2, 'the two posts');
  assert.match(shown[1].name, / -> 400/, 'the newest is at the end');
  assert.match(shown[0].name, / -> 200/);
  await named(page, 'checkbox', 'Newest first').dispatchEvent('click');
  shown = await waitForShown(page, (list) => list.length === 2 && / -> 400/.test(list[0].name), 'newest first');
  await named(page, 'checkbox', 'Newest first').dispatchEvent('click');
  shown = await waitForShown(page, (list) => list.length === 2 && / -> 400/.test(list[1].name), 'newest at the end again');

  // The pointer rests on the older entry; a new one arrives.
  const older = shown[0];
  await page.mouse.move(older.x, older.y);
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  const before = (await waitForState(page, (s) => s.log.length > 0, 'the log')).log.length;
  await act(page, { type: 'post_message', room_id: ROOM, body: 'arrives under the pointer' });
  await waitForState(page, (s) => s.log.filter((e) => /^POST \/api\/rooms\/2100\/messages -> 200/.test(e.title)).length >= 2,
    'the new post answered');
  await named(page, 'button', '1 new').waitFor({ timeout: 30000 });
  shown = await shownEntries(page);
  assert.equal(shown.length, 2, 'the new entry waits behind "1 new"');
  assert.equal(shown[0].name, older.name);
  assert.equal(shown[0].top, older.top, 'nothing moved under the pointer');
  // widget('log_latest') is the newest entry shown, so a click on it, with the
  // pointer resting on the list, still opens an entry.
  const latest = await page.evaluate(() => window.roomkey.widget('log_latest'));
  assert.ok(latest, 'log_latest is drawn while the newest of all waits behind "1 new"');
  assert.ok(Math.abs(latest.y + latest.height / 2 - shown[1].y) < latest.height,
    `log_latest is the newest entry shown (${JSON.stringify(latest)} vs ${JSON.stringify(shown[1])})`);
  assert.ok((await waitForState(page, (s) => s.log.length > before, 'logged')).log.length > before);

  // "1 new" shows it, at the end.
  await clickWidget(page, 'log_new');
  shown = await waitForShown(page, (list) => list.length === 3, 'the new entry shown');
  assert.match(shown[2].name, / -> 200/);
  assert.equal(await named(page, 'button', '1 new').count(), 0);
  await page.mouse.move(2, 2);
  await page.close();
});

test("times are the user's: an entry's time and the rate-limit reset in the browser's zone, with a countdown", async () => {
  const page = await browser.context.newPage();
  await signedInDeveloper(page);
  assert.equal(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone), ZONE, 'the browser is in Tokyo');

  // An entry's time: the clock time in Tokyo, the raw instant (Unix ms) beside it.
  await act(page, { type: 'set_log_filter', text: 'api/me', method: 'GET', status: '' });
  // Every entry shown passes the filter: the frame before it took effect is not read.
  const [entry] = await waitForShown(page, (list) => list.length >= 1 && list.every((e) => e.name.startsWith('GET /api/me')),
    'GET /api/me');
  await named(page, 'button', entry.name).dispatchEvent('click');
  const sent = await imageText(page, /^sent .* \(\d{13}\)$/);
  const raw = Number(sent.match(/\((\d{13})\)$/)[1]);
  assert.ok(sent.includes(clock(raw, ZONE)), `${sent}: the Tokyo time ${clock(raw, ZONE)}`);
  assert.ok(!sent.includes(clock(raw, 'UTC')), `${sent}: not the UTC time`);

  // The console's answer: x-ratelimit-reset is an epoch on the wire; the
  // screen says when, in Tokyo, and how long until then.
  await named(page, 'button', 'API console').dispatchEvent('click');
  await act(page, { type: 'api_call', method: 'GET', path: '/me', params: {} });
  const state = await waitForState(page, (s) => s.console.last && s.console.last.status === 200 && s.console.last.rate,
    'the console answer');
  const epoch = Number(state.console.last.rate.match(/reset (\d+)/)[1]);
  const reset = await imageText(page, /^resets at /);
  assert.ok(reset.includes(clock(epoch * 1000, ZONE)), `${reset}: the Tokyo time ${clock(epoch * 1000, ZONE)}`);
  assert.ok(!reset.includes(clock(epoch * 1000, 'UTC')), `${reset}: not the UTC time`);
  assert.match(reset, /\(in \d/, 'a countdown to the reset');
  assert.ok(!reset.includes(String(epoch)), `${reset}: not the epoch`);
  await page.close();
});
