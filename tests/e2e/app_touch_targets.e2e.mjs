// app_touch_targets.e2e.mjs: controls a finger can hit. On a touch screen
// (390x844, a coarse pointer) the room list's rows, a message's Reply,
// Quote, Edit and Delete and the room's "Mark as read" and "Details" are at
// least 44 CSS px tall, the size the platforms' guidelines give a finger
// (Apple's HIG: 44 pt; WCAG 2.5.5). With a mouse at 1366x800 they keep the
// desktop's density. Each box is read from the accessibility tree, which
// lays each control over its drawing (shell/a11y.js).
// Screenshots: touch_targets_390x844.png, touch_targets_rooms_390x844.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openRoomPage, widgetRect, tapWidget, demoUsers, sandboxApiJson, artifacts, launchBrowser,
  withStackAndBrowser } from './support.mjs';

const ROOM = '2100';  // "Roomkey project" in the sandbox's demo data (docs/sandbox.md)
const MINE = 'A message of mine, to reply to, quote, edit or delete';
let stack; let browser;
withStackAndBrowser((s, b) => { stack = s; browser = b; }, {}, { phone: true });

// The box of the control `role` named `name` inside `within` (a locator or
// the page), once it has held still for a few frames: a user aims at a
// control that holds still.
async function box(page, within, role, name) {
  const control = within.getByRole(role, { name, exact: typeof name === 'string' }).first();
  await control.waitFor({ state: 'attached', timeout: 30000 });
  let last = null;
  for (let same = 0; same < 3;) {
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const b = await control.boundingBox();
    same = b && last && b.y === last.y && b.height === last.height ? same + 1 : 0;
    last = b;
  }
  return last;
}

// The room opens at its first unread message, so my message (the newest)
// may be below the fold, and a row out of view is not drawn: its controls
// are not in the accessibility tree. Scrolled to, as a user would.
async function scrollToMine(page, mine) {
  const pane = await widgetRect(page, 'conversation');
  for (let turn = 0; turn < 40 && await mine.count() === 0; ++turn) {
    await page.mouse.move(pane.x + pane.width / 2, pane.y + pane.height / 2);
    await page.mouse.wheel(0, 300);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  }
}

// Every control this file is about, with its box: { label: box }.
async function boxes(page) {
  const mine = page.getByRole('article').filter({ hasText: MINE });
  await scrollToMine(page, mine);
  const out = {};
  for (const name of ['Reply', 'Quote', 'Edit', 'Delete']) out[`message ${name}`] = await box(page, mine, 'button', name);
  for (const name of ['Mark as read', 'Details']) out[name] = await box(page, page, 'button', name);
  return out;
}

// My message in the room, posted once for both tests.
let posted = null;
function postMine() {
  posted = posted || sandboxApiJson(stack, demoUsers.alice, 'POST', `/rooms/${ROOM}/messages`, { body: MINE });
  return posted;
}

async function roomRow(page) {
  return { 'room row': await box(page, page, 'button', /Roomkey project/) };
}

test('on a touch screen every room row, message action and room header button is at least 44 CSS px tall', async () => {
  await postMine();
  const { page } = await openRoomPage(browser.context, stack.url, ROOM,
    { until: (s) => s.room.messages.some((m) => m.body === MINE) });
  assert.ok(await page.evaluate(() => matchMedia('(pointer: coarse)').matches), 'a touch screen is the pointer');
  await widgetRect(page, 'conversation');
  const found = await boxes(page);
  await page.screenshot({ path: join(artifacts, 'touch_targets_390x844.png') });
  await tapWidget(page, 'back');  // the phone's one pane: back to the room list
  await widgetRect(page, 'room_list');
  Object.assign(found, await roomRow(page));
  await page.screenshot({ path: join(artifacts, 'touch_targets_rooms_390x844.png') });
  for (const [what, b] of Object.entries(found)) {
    assert.ok(b.height >= 44, `${what} is at least 44 CSS px tall on a touch screen: ${JSON.stringify(b)}`);
    assert.ok(b.x >= 0 && b.x + b.width <= 390, `${what} is on the phone's screen: ${JSON.stringify(b)}`);
  }
  await page.close();
});

test('with a mouse at 1366x800 the same controls keep the desktop density', async () => {
  await postMine();
  const desktop = await launchBrowser();
  try {
    const { page } = await openRoomPage(desktop.context, stack.url, ROOM,
      { viewport: { width: 1366, height: 800 }, until: (s) => s.room.messages.some((m) => m.body === MINE) });
    assert.ok(!await page.evaluate(() => matchMedia('(pointer: coarse)').matches), 'a mouse is the pointer');
    await widgetRect(page, 'conversation');
    const found = { ...await boxes(page), ...await roomRow(page) };
    for (const [what, b] of Object.entries(found)) {
      assert.ok(b.height < 44, `${what} keeps the desktop's density with a mouse: ${JSON.stringify(b)}`);
    }
  } finally {
    await desktop.close();
  }
});
