// app_touch_select.e2e.mjs: selecting a message's text with a finger, the
// way a phone selects a page's text (Chromium with a touch screen, 390x844).
// A long press on a word of a message selects that word in the page's own
// selection (window.getSelection()) and in state().selection. While the
// finger is down, and while the word it chose stays selected, the text
// layer's line is what lies under it (shell/text_layer.js): where an
// engine's own long press selects a page's word with its handles and where
// dragging a handle hit-tests the text. (Headless Chromium's injected
// touches that start on the canvas make no long-press gesture of the
// engine's, so its own selection and its handles cannot be seen here: what
// is tested is that they would meet the text. One that starts on a line
// does: a trusted selectstart and contextmenu on the line, seen only as the
// touch ends; the lines take the finger from its first touch on, too late
// for that touch's hit test.) A swipe over the text still scrolls the conversation, with or
// without a word selected.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openRoomPage, widgetRect, waitForState, demoUsers, sandboxApi, withStackAndBrowser } from './support.mjs';

const ROOM = '2101';  // "Random" in the sandbox's demo data (docs/sandbox.md)
const TEXT = 'Touch select check: a finger holds this word';
let stack; let browser;
withStackAndBrowser((s, b) => { stack = s; browser = b; }, {}, { phone: true });

// The middle of `word` in a drawn line `text` of a message, once one is in
// the conversation's view (client px).
function wordAt(page, text, word) {
  return page.waitForFunction(([t, w]) => {
    const view = document.getElementById('textlayer').getBoundingClientRect();
    for (const span of document.querySelectorAll('#textlayer .tl-run')) {
      if (span.textContent !== t) continue;
      const range = document.createRange();
      const i = t.indexOf(w);
      range.setStart(span.firstChild, i);
      range.setEnd(span.firstChild, i + w.length);
      const r = range.getBoundingClientRect();
      if (r.height > 1 && r.top >= view.top && r.bottom <= view.bottom) return { x: (r.left + r.right) / 2, y: (r.top + r.bottom) / 2 };
    }
    return null;
  }, [text, word], { timeout: 30000 }).then((h) => h.jsonValue());
}

test('on a phone a long press selects the word under the finger, as the browser selects a page\'s text', async () => {
  assert.equal((await sandboxApi(stack, demoUsers.bob, 'POST', `/rooms/${ROOM}/messages`, { body: TEXT })).status, 200);
  const { page } = await openRoomPage(browser.context, stack.url, ROOM,
    { until: (s) => s.room.messages.some((m) => m.text === TEXT), what: 'the message' });
  await widgetRect(page, 'conversation');
  const at = await wordAt(page, TEXT, 'holds');
  const under = () => page.evaluate(([x, y]) => document.elementFromPoint(x, y).className || document.elementFromPoint(x, y).id,
    [at.x, at.y]);
  assert.equal(await under(), 'canvas', 'before a finger comes, the canvas is under the text');
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: at.x, y: at.y }] });
  assert.match(await under(), /tl-run/, "with a finger down the text's line is under it, where the engine's long press hit-tests");
  const selected = await waitForState(page, (s) => s.selection, 'the word under the finger selected');
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  assert.equal(selected.selection.text, 'holds', 'state().selection: the word under the finger');
  assert.equal(await page.evaluate(() => window.getSelection().toString()), 'holds', "the page's own selection");
  assert.match(await under(), /tl-run/, 'the word stays selected, its line under the finger for the handles');
  await page.close();
});

// Where the message under the point y is: the index of its article in the
// accessibility log (each article's text lies over its message) and its top.
const messageAt = (page, y) => page.$$eval('#a11y [role=log] [role=article] .a11y-text', (els, at) => {
  const i = els.findIndex((el) => { const r = el.getBoundingClientRect(); return r.top <= at && at < r.bottom; });
  return { i, top: i < 0 ? null : els[i].getBoundingClientRect().top };
}, y);

test('on a phone a finger swiped over a message\'s text scrolls the conversation, a word selected or not', async () => {
  for (let i = 1; i <= 5; ++i) {
    await sandboxApi(stack, demoUsers.bob, 'POST', `/rooms/${ROOM}/messages`,
      { body: `Swipe test ${i}\n` + 'words to swipe over\n'.repeat(8) });
  }
  await sandboxApi(stack, demoUsers.alice, 'PUT', `/rooms/${ROOM}/messages/read`);  // opens at its newest
  const { page } = await openRoomPage(browser.context, stack.url, ROOM,
    { until: (s) => s.room.messages.some((m) => m.text.startsWith('Swipe test 5')), what: 'the swipe messages' });
  await widgetRect(page, 'conversation');
  const cdp = await page.context().newCDPSession(page);
  // The finger goes 200 px down from a word of the text; the message it
  // started on follows it at least `least` px (the app draws it about
  // 180 px down either way).
  const swipe = async (what, least) => {
    const at = await wordAt(page, 'words to swipe over', 'swipe');
    const before = await messageAt(page, at.y);
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: at.x, y: at.y }] });
    for (let step = 1; step <= 10; ++step) {
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: at.x, y: at.y + step * 20 }] });
    }
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await page.waitForFunction((b) => {
      const el = document.querySelectorAll('#a11y [role=log] [role=article] .a11y-text')[b.i];
      return el && el.getBoundingClientRect().top > b.top + b.least;
    }, { ...before, least }, { timeout: 10000 }).catch(() => assert.fail(`a swipe over the text scrolls the conversation ${what}`));
  };
  await swipe('with nothing selected', 150);
  assert.equal(await page.evaluate(() => window.roomkey.state().selection), null, 'a swipe selects nothing');

  // A word held, then a swipe over the text while the word stays selected
  // (the lines take the finger then, for the browser's handles).
  const at = await wordAt(page, 'words to swipe over', 'swipe');
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: at.x, y: at.y }] });
  const selected = await waitForState(page, (s) => s.selection, 'the word held');
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  assert.equal(selected.selection.text, 'swipe');
  // Its menu (a long press opens it) closed first, as a user would: once it
  // is open (it can open a frame after the word is selected; an Escape
  // before that closes nothing).
  await page.waitForFunction(() => !!window.roomkey.widget('message_menu'), null, { timeout: 10000 })
    .catch(() => assert.fail('a long press opens the message menu'));
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => !window.roomkey.widget('message_menu'), null, { timeout: 10000 });
  assert.match(await page.evaluate(([x, y]) => document.elementFromPoint(x, y).className, [at.x, at.y]), /tl-run/,
    'the word is still selected: the lines take the finger');
  // The touch reaches the canvas through the line it landed on (text_layer.js
  // forward()) and scrolls as far as with nothing selected. Its moves are
  // the page's copies of the line's, which the browser does not wait on:
  // the last of them can be drawn a frame or two after the finger lifts
  // (read at once, on a loaded machine, the distance once looked like 70 px).
  await swipe('while a word is selected', 150);
  await page.close();
});
