// app_message_menu_touch.e2e.mjs: a message's menu with a finger (Chromium
// with a touch screen, 390x844): its "⋯" control is as big as a finger
// (44 CSS px each way), and a long press on a word of a message selects the
// word and opens the message's menu there; lifting the finger chooses
// nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openRoomPage, widgetRect, waitForState, demoUsers, sandboxApi, withStackAndBrowser } from './support.mjs';

const ROOM = '2101';
let stack; let browser;
withStackAndBrowser((s, b) => { stack = s; browser = b; }, {}, { phone: true });

test('on a phone: a finger-sized ⋯, and a long press opens the message\'s menu', async () => {
  const text = 'Long press check: hold me';
  assert.equal((await sandboxApi(stack, demoUsers.bob, 'POST', `/rooms/${ROOM}/messages`, { body: text })).status, 200);
  const { page } = await openRoomPage(browser.context, stack.url, ROOM,
    { until: (s) => s.room.messages.some((m) => m.text === text), what: 'the message' });
  await widgetRect(page, 'conversation');
  const more = await widgetRect(page, 'message_more');
  assert.ok(more.width >= 44 && more.height >= 44, `the ⋯ control is ${more.width}x${more.height} CSS px`);

  // A finger held on the word "hold" of the message until its menu opens.
  const at = await page.waitForFunction((t) => {
    const span = [...document.querySelectorAll('#textlayer .tl-run')].find((e) => e.textContent === t);
    if (!span) return null;
    const range = document.createRange();
    const i = t.indexOf('hold');
    range.setStart(span.firstChild, i);
    range.setEnd(span.firstChild, i + 4);
    const r = range.getBoundingClientRect();
    return r.height > 1 && r.top >= 0 && r.bottom <= window.innerHeight ? { x: (r.left + r.right) / 2, y: (r.top + r.bottom) / 2 } : null;
  }, text, { timeout: 30000 }).then((h) => h.jsonValue());
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: at.x, y: at.y }] });
  const menu = await widgetRect(page, 'message_menu');
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  assert.ok(Math.abs(menu.x - at.x) < 60 && Math.abs(menu.y - at.y) < 60, 'the menu opens where the finger was');
  const selected = await waitForState(page, (s) => s.selection, 'the word under the finger selected');
  assert.equal(selected.selection.text, 'hold', 'the word under the finger');
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  assert.ok(await page.evaluate(() => window.roomkey.widget('message_menu')), 'lifting the finger chose nothing');
  const composer = (await page.evaluate(() => window.roomkey.state())).composer.text;
  assert.equal(composer, '', 'no reply or quote');
  await page.close();
});
