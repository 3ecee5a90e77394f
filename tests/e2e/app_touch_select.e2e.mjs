// app_touch_select.e2e.mjs: selecting a message's text with a finger, the
// way a phone selects a page's text (Chromium with a touch screen, 390x844).
// A long press on a word of a message selects that word in the page's own
// selection (window.getSelection()) and in state().selection. On a touch
// screen the text layer's lines lie under the finger from the start
// (shell/text_layer.js): the engine's own long press hit-tests them, selects
// the word with its handles (Chromium: a trusted selectstart on the line;
// under CDP's injected touches it comes as the touch ends, after the app's
// own long press chose the same word; the handles cannot be seen headless), and
// dragging a handle meets the text. A swipe over the text still scrolls the
// conversation, with or without a word selected, and a tap on a line is a
// tap on the canvas (tests/e2e/app_touch.e2e.mjs, app_message_menu_touch).
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
  assert.match(await under(), /tl-run/, "before a finger comes, on a touch screen, the text's line is under it");
  // A tap on the line is a tap on the canvas: its mouse events land there
  // (the app's own listeners are the canvas's), and it selects nothing.
  await page.evaluate(() => {
    window.__taps = [];
    for (const type of ['mousedown', 'click']) {
      window.addEventListener(type, (e) => { if (e.isTrusted) window.__taps.push(`${type}:${e.target.id || e.target.className}`); }, true);
    }
  });
  await page.touchscreen.tap(at.x, at.y);
  await page.waitForFunction(() => window.__taps.some((t) => t.startsWith('click')), null, { timeout: 10000 });
  assert.deepEqual(await page.evaluate(() => window.__taps), ['mousedown:canvas', 'click:canvas'], 'the tap\'s mouse events');
  assert.equal(await page.evaluate(() => window.roomkey.state().selection), null, 'a tap selects nothing');
  assert.match(await under(), /tl-run/, 'after the tap the line takes the finger again');
  // The engine's own (trusted) events of a long press, as they come.
  await page.evaluate(() => {
    window.__own = [];
    for (const type of ['selectstart', 'contextmenu']) {
      document.addEventListener(type, (e) => {
        const el = e.target.nodeType === 3 ? e.target.parentNode : e.target;
        if (e.isTrusted) window.__own.push({ type, line: !!el.closest('#textlayer .tl-run'), on: `${el.tagName}.${el.className}` });
      }, true);
    }
  });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: at.x, y: at.y }] });
  assert.match(await under(), /tl-run/, "with a finger down the text's line is under it, where the engine's long press hit-tests");
  const selected = await waitForState(page, (s) => s.selection, 'the word under the finger selected');
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  assert.equal(selected.selection.text, 'holds', 'state().selection: the word under the finger');
  assert.equal(await page.evaluate(() => window.getSelection().toString()), 'holds', "the page's own selection");
  assert.match(await under(), /tl-run/, 'the word stays selected, its line under the finger for the handles');
  await page.waitForFunction(() => window.__own.some((e) => e.type === 'selectstart' && e.line), null, { timeout: 10000 })
    .catch(async () => assert.fail(`the engine's own long press on the line: ${JSON.stringify(await page.evaluate(() => window.__own))}`));
  // selectstart comes before the selection it starts: read once the frames after it ran.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  assert.equal(await page.evaluate(() => window.getSelection().toString()), 'holds', "the engine's selection: the word");
  const after = await waitForState(page, (s) => s.selection, 'a selection after the engine\'s long press');
  assert.equal(after.selection.text, 'holds', 'state().selection matches it');
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
