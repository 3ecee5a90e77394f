// app_touch.e2e.mjs: the workspace on a phone, used with a finger (Chromium
// with a touch screen, 390x844): one tap each opens the room's details,
// selects a tab there and goes back to the conversation. A tap's press
// arrives with its position and no pointer moved there first; Dear ImGui
// 1.90 takes a press on an item others may overlap (every tab) only when
// the frame before had the pointer over it: before web/src/input_queue made
// such a press wait a frame, a tab tapped once stayed unselected. And a tap
// presses where the finger is, nowhere else (Emscripten's GLFW pressed at
// the pointer's last position first). A finger dragged over the
// conversation scrolls it, the content following the finger. A tap on a
// text field focuses its input within the tap, so the keyboard opens.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openRoomPage, widgetRect, tapWidget, demoUsers, sandboxApiJson, withStackAndBrowser } from './support.mjs';

const ROOM = '2100';  // "Roomkey project" in the sandbox's demo data (docs/sandbox.md)
let stack; let browser;
withStackAndBrowser((s, b) => { stack = s; browser = b; }, {}, { phone: true });

test('on a phone, one tap each: the room\'s details, its Files tab, and back to the conversation', async () => {
  const { page } = await openRoomPage(browser.context, stack.url, ROOM, { until: (s) => s.room.tasks.length > 0 });
  assert.ok(await page.evaluate(() => matchMedia('(pointer: coarse)').matches), 'a touch screen is the pointer');
  await widgetRect(page, 'conversation');

  await tapWidget(page, 'details_toggle');
  await widgetRect(page, 'details');
  assert.equal(await page.evaluate(() => window.roomkey.widget('conversation')), null, 'one pane: the details');
  // The Tasks tab is the one open at first; the Files tab's upload button
  // is drawn only once that tab is selected.
  assert.equal(await page.evaluate(() => window.roomkey.widget('upload_file')), null, 'Files is not open yet');
  await tapWidget(page, 'files_tab');
  await widgetRect(page, 'upload_file', { timeoutMs: 10000 });

  await tapWidget(page, 'back');
  const conversation = await widgetRect(page, 'conversation');
  // A tap presses only where the finger is. Emscripten's GLFW pressed at the
  // pointer's last position first: here the back control's place, which on
  // the conversation is the way back to the room list.
  await page.touchscreen.tap(conversation.x + conversation.width / 2, conversation.y + conversation.height / 2);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await widgetRect(page, 'conversation');
  assert.equal(await page.evaluate(() => window.roomkey.widget('room_list')), null, 'still the conversation');
  await page.close();
});

// Where the conversation's messages are drawn: the text of each of the
// accessibility log's articles lies over its message (shell/a11y.js).
function articleTops(page) {
  return page.$$eval('#a11y [role=log] [role=article] .a11y-text',
    (els) => els.map((el) => el.getBoundingClientRect().top));
}

test('on a phone, a finger dragged down the conversation scrolls it back, the messages following the finger', async () => {
  // Bob's long posts: more than a phone's screen of conversation.
  for (let i = 1; i <= 6; ++i) {
    await sandboxApiJson(stack, demoUsers.bob, 'POST', `/rooms/${ROOM}/messages`,
      { body: `Scroll test ${i}\n` + 'a line of a long message\n'.repeat(8) });
  }
  // Read at the service: a room with unread messages opens at the first of
  // them, one without at its newest, where this test starts.
  await sandboxApiJson(stack, demoUsers.alice, 'PUT', `/rooms/${ROOM}/messages/read`);
  const { page, state } = await openRoomPage(browser.context, stack.url, ROOM, {
    until: (s) => s.room.messages.some((m) => m.body.startsWith('Scroll test 6')), what: 'room 2100 with Bob\'s posts' });
  const conversation = await widgetRect(page, 'conversation');
  await page.waitForFunction((n) => document.querySelectorAll('#a11y [role=log] [role=article]').length === n,
    state.room.messages.length, { timeout: 10000 });
  const before = await articleTops(page);
  const last = before.length - 1;

  const x = conversation.x + conversation.width / 2;
  const y = conversation.y + conversation.height / 3;
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y }] });
  for (let step = 1; step <= 10; ++step) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y: y + step * 20 }] });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });

  // The finger went 200 px down: the newest message follows it down (about
  // as far; ImGui scrolls in whole steps of a few lines).
  let after = before;
  for (const deadline = Date.now() + 10000; Date.now() < deadline;) {
    after = await articleTops(page);
    if (after[last] - before[last] >= 100) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.ok(after[last] - before[last] >= 100 && after[last] - before[last] <= 300,
    `the newest message moved ${after[last] - before[last]} px down with the finger's 200`);
  assert.equal(await page.evaluate(() => window.scrollY), 0, 'the page itself did not scroll');
  await page.close();
});

test('on a phone, a tap on the composer focuses its field within the tap (the on-screen keyboard opens), and typing reaches it', async () => {
  const { page } = await openRoomPage(browser.context, stack.url, ROOM);
  await widgetRect(page, 'composer');
  const field = page.getByRole('textbox', { name: 'Message', exact: true });
  const box = await field.boundingBox();
  // A phone opens its keyboard only for a focus() inside the tap's own
  // event (iOS Safari): the field must be focused by the time the touchend
  // is dispatched to the page's later listeners.
  await page.evaluate(() => {
    window.focusedInTap = null;
    window.addEventListener('touchend', () => {
      window.focusedInTap = document.activeElement && document.activeElement.getAttribute('aria-label');
    });
  });
  await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
  assert.equal(await page.evaluate(() => window.focusedInTap), 'Message', 'focused within the tap');
  await page.keyboard.insertText('typed on a phone');
  await page.waitForFunction(() => {
    const el = document.querySelector('#a11y textarea[aria-label="Message"], #a11y input[aria-label="Message"]');
    return el && el.value === 'typed on a phone';
  }, null, { timeout: 10000 });
  await page.close();
});
