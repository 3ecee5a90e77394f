// app_touch_targets.e2e.mjs: controls a finger can hit. On a touch screen
// (390x844, a coarse pointer) the room list's rows, a message's Reply,
// Quote, Edit and Delete and the room's "Mark as read" and "Details" are at
// least 44 CSS px tall, the size the platforms' guidelines give a finger
// (Apple's HIG: 44 pt; WCAG 2.5.5); so are a reply's "Re" label (a click
// shows the message it answers), the "My tasks and contacts" list's Done,
// Accept and Decline, and every control of the developer view. With a mouse
// at 1366x800 they keep the desktop's density. Each box is read from the
// accessibility tree, which lays each control over its drawing (shell/a11y.js).
// Screenshots: touch_targets_390x844.png, touch_targets_rooms_390x844.png,
// touch_targets_developer_390x844.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openRoomPage, widgetRect, tapWidget, demoUsers, sandboxApiJson, artifacts, launchBrowser, act,
  waitForState, withStackAndBrowser } from './support.mjs';

const ROOM = '2100';  // "Roomkey project" in the sandbox's demo data (docs/sandbox.md)
const MINE = 'A message of mine, to reply to, quote, edit or delete';
const REPLY = 'A reply to my message, its label a control';
let stack; let browser;
withStackAndBrowser((s, b) => { stack = s; browser = b; }, {}, { phone: true });

// The box of the control `role` named `name` inside `within` (a locator or
// the page), once it has held still for a few frames: a user aims at a
// control that holds still.
async function box(page, within, role, name, lastOne = false) {
  const all = within.getByRole(role, { name, exact: typeof name === 'string' });
  const control = lastOne ? all.last() : all.first();
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
async function scrollToMine(page, mine, pane = null) {
  pane = pane || await widgetRect(page, 'conversation');
  for (let turn = 0; turn < 40 && await mine.count() === 0; ++turn) {
    await page.mouse.move(pane.x + pane.width / 2, pane.y + pane.height / 2);
    await page.mouse.wheel(0, 300);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  }
}

// Until the message's first controls (Reply) and its last (Delete) are both
// in view, and stay there for a few frames (the room may still be settling
// where it opens): down while its end is below, up while its start is above.
async function scrollToWhole(page, article) {
  const pane = await widgetRect(page, 'conversation');
  const has = (name) => article.getByRole('button', { name, exact: true }).count();
  const frames = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  for (let turn = 0, held = 0; turn < 80; ++turn) {
    const first = await has('Reply'); const last = await has('Delete');
    if (first && last) {
      if (++held >= 4) return;
      await frames();
      continue;
    }
    held = 0;
    // Its text drawn at the pane's top with Reply out of view: its start is above.
    const top = await article.locator('.a11y-text').evaluate((e) => {
      const r = e.getBoundingClientRect();
      return r.height > 1 ? r.top : null;
    }).catch(() => null);
    const up = !first && (last || (top !== null && top < pane.y + pane.height / 2));
    await page.mouse.move(pane.x + pane.width / 2, pane.y + pane.height / 2);
    await page.mouse.wheel(0, up ? -60 : 100);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  }
}

// Every control this file is about, with its box: { label: box }.
async function boxes(page) {
  const mine = page.getByRole('article').filter({ hasText: MINE });
  await scrollToWhole(page, mine);
  const out = {};
  for (const name of ['Reply', 'Quote', 'Edit', 'Delete']) out[`message ${name}`] = await box(page, mine, 'button', name);
  out.Details = await box(page, page, 'button', 'Details');
  // Where the room's name needs the line (a phone), Mark as read is in the
  // room's "⋯" menu: the menu's button and the item in it are the targets.
  if (await page.evaluate(() => window.roomkey.widget('room_menu') !== null)) {
    out['room menu'] = await box(page, page, 'button', 'Room actions');
    await tapWidget(page, 'room_menu');
    out['Mark as read'] = await widgetRect(page, 'mark_read');
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => window.roomkey.widget('mark_read') === null, null, { timeout: 30000 });
  } else {
    out['Mark as read'] = await box(page, page, 'button', 'Mark as read');
  }
  const reply = page.getByRole('article').filter({ hasText: REPLY });
  await scrollToMine(page, reply.getByRole('button', { name: /^Re / }));
  out['reply\'s "Re" label'] = await box(page, reply, 'button', /^Re /);
  return out;
}

// My message in the room, posted once for both tests.
let posted = null;
// Then my reply to it (the service's reply notation: [rp aid=.. to=room-message]).
function postMine() {
  posted = posted || sandboxApiJson(stack, demoUsers.alice, 'POST', `/rooms/${ROOM}/messages`, { body: MINE })
    .then((m) => sandboxApiJson(stack, demoUsers.alice, 'POST', `/rooms/${ROOM}/messages`,
      { body: `[rp aid=${demoUsers.alice.accountId} to=${ROOM}-${m.message_id}]Alice\n${REPLY}` }));
  return posted;
}
const replied = (s) => s.room.messages.some((m) => m.text && m.text.includes(REPLY));

// The developer view's controls, with "My tasks and contacts" open and
// loaded (Alice's open task in 2100 and Dave's contact request, docs/sandbox.md):
// { label: box } of Done, Accept and Decline, and every control the tree
// holds in the window, scrolled through with the wheel.
async function developerBoxes(page, height) {
  await act(page, { type: 'show_view', view: 'developer' });
  await act(page, { type: 'load_my_tasks' });
  await act(page, { type: 'load_contacts' });
  await waitForState(page, (s) => !s.views_loading.my_tasks && !s.views_loading.contacts &&
    s.incoming_requests.length > 0, 'my tasks and contacts loaded');
  const tree = page.locator('#a11y');
  const heading = tree.getByRole('button', { name: 'My tasks and contacts', exact: true });
  const found = {};
  const seen = async () => {
    const list = await page.evaluate((h) => [...document.querySelectorAll(
      '#a11y button, #a11y input, #a11y textarea, #a11y [role=checkbox]')]
      .filter((el) => el !== document.activeElement)  // a focused field's input sits at its caret
      .map((el) => { const r = el.getBoundingClientRect(); return [el.textContent || el.getAttribute('aria-label'), r]; })
      .filter(([, r]) => r.bottom > 0 && r.top < h && r.width > 1)
      .map(([name, r]) => [name, { x: r.x, y: r.y, width: r.width, height: r.height }]), height);
    for (const [name, b] of list) found[`developer view's "${name}"`] = b;
  };
  // The wheel over the panels' text, clear of the lists that scroll on their own.
  const pane = { x: 0, y: 0, width: page.viewportSize().width, height: height * 0.3 };
  await seen();
  await scrollToMine(page, heading, pane);
  if (await heading.getAttribute('aria-expanded') !== 'true') await heading.dispatchEvent('click');
  const decline = tree.getByRole('button', { name: 'Decline', exact: true });
  for (let turn = 0; turn < 40 && await decline.count() === 0; ++turn) {
    await seen();
    await scrollToMine(page, decline, pane);
  }
  await seen();
  // The list's own (the room's task list has a Done too, before it).
  for (const name of ['Done', 'Accept', 'Decline']) {
    found[`"My tasks and contacts" ${name}`] = await box(page, tree, 'button', name, true);
  }
  return found;
}

async function roomRow(page) {
  return { 'room row': await box(page, page, 'button', /Roomkey project/) };
}

test('on a touch screen every room row, message action and room header button is at least 44 CSS px tall', async () => {
  await postMine();
  const { page } = await openRoomPage(browser.context, stack.url, ROOM, { until: replied });
  assert.ok(await page.evaluate(() => matchMedia('(pointer: coarse)').matches), 'a touch screen is the pointer');
  await widgetRect(page, 'conversation');
  const found = await boxes(page);
  await page.screenshot({ path: join(artifacts, 'touch_targets_390x844.png') });
  await tapWidget(page, 'back');  // the phone's one pane: back to the room list
  await widgetRect(page, 'room_list');
  Object.assign(found, await roomRow(page));
  await page.screenshot({ path: join(artifacts, 'touch_targets_rooms_390x844.png') });
  Object.assign(found, await developerBoxes(page, 844));
  await page.screenshot({ path: join(artifacts, 'touch_targets_developer_390x844.png') });
  for (const [what, b] of Object.entries(found)) {
    assert.ok(b.height >= 44, `${what} is at least 44 CSS px tall on a touch screen: ${JSON.stringify(b)}`);
    if (!what.startsWith('developer view')) {
      assert.ok(b.x >= 0 && b.x + b.width <= 390, `${what} is on the phone's screen: ${JSON.stringify(b)}`);
    }
  }
  await page.close();
});

test('with a mouse at 1366x800 the same controls keep the desktop density', async () => {
  await postMine();
  const desktop = await launchBrowser();
  try {
    const { page } = await openRoomPage(desktop.context, stack.url, ROOM,
      { viewport: { width: 1366, height: 800 }, until: replied });
    assert.ok(!await page.evaluate(() => matchMedia('(pointer: coarse)').matches), 'a mouse is the pointer');
    await widgetRect(page, 'conversation');
    const found = { ...await boxes(page), ...await roomRow(page) };
    const developer = await developerBoxes(page, 800);
    for (const name of ['Done', 'Accept', 'Decline']) found[`"My tasks and contacts" ${name}`] = developer[`"My tasks and contacts" ${name}`];
    for (const [what, b] of Object.entries(found)) {
      assert.ok(b.height < 44, `${what} keeps the desktop's density with a mouse: ${JSON.stringify(b)}`);
    }
  } finally {
    await desktop.close();
  }
});
