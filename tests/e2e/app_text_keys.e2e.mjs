// app_text_keys.e2e.mjs: keys keep what they said, in Chromium at 1366x800:
// - a burst of typed text (a text expander, auto-type, dictation) followed
//   at once by Ctrl+Enter sends exactly that text, and the caret stays in
//   the composer, its DOM input still focused, for the next message;
// - Ctrl+A then Backspace right behind a burst empties the composer;
// - a click in the field being edited leaves the browser's focus in its
//   input (an IME keeps reaching it);
// - an IME composition (CDP Input.imeSetComposition) is drawn at the caret,
//   on the caret's own line, not on the line below;
// - part of the composer's text selected with Shift+arrows is copied with
//   Ctrl+C exactly, and with Ctrl+C or Ctrl+X pressed right behind the
//   arrows, the copy holds what every arrow selected and the cut removes it.
// The same burst runs in Firefox and WebKit (tests/engines/scenarios.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { act, waitForState, widgetRect, clickWidget, demoUsers, sandboxApiJson, decodePng,
  withStackAndBrowser, openRoomPage } from './support.mjs';

const ROOM = '2101';
let stack; let browser;
withStackAndBrowser((s, b) => { stack = s; browser = b; });

// Alice signed in with her API token, room ROOM open in the workspace.
const openRoom = () => openRoomPage(browser.context, stack.url, ROOM,
  { viewport: { width: 1366, height: 800 }, until: (s) => s.view === 'workspace' });

// The composer's DOM input (the accessibility tree's), once it has the focus.
const composerFocused = () => {
  const el = document.activeElement;
  return !!el && el.getAttribute('aria-label') === 'Message' && !!el.closest('#a11y');
};

async function focusComposer(page) {
  await clickWidget(page, 'message');
  await page.waitForFunction(composerFocused, null, { timeout: 30000 });
}

// What the composer holds, as the app publishes it to its DOM input.
const composerValue = (page) => page.evaluate(() => {
  const el = [...document.querySelectorAll('#a11y input, #a11y textarea')]
    .find((e) => e.getAttribute('aria-label') === 'Message');
  return el ? el.value : null;
});

test('a burst of 28 characters then Ctrl+Enter at once sends exactly that text; the caret stays in the composer', async () => {
  const { page } = await openRoom();
  await focusComposer(page);
  const text = 'burst of twenty-eight chars!';
  assert.equal(text.length, 28);
  await page.keyboard.type(text);
  await page.keyboard.press('Control+Enter');
  const deadline = Date.now() + 30000;
  let held = [];
  while (Date.now() < deadline && !held.some((m) => m.body === text)) {
    held = await sandboxApiJson(stack, demoUsers.bob, 'GET', `/rooms/${ROOM}/messages?force=1`);
    if (!held.some((m) => m.body === text)) await new Promise((r) => setTimeout(r, 250));
  }
  assert.ok(held.some((m) => m.body === text), `sent exactly: ${JSON.stringify(held.slice(-3).map((m) => m.body))}`);
  // The caret stays: the field is being edited again, empty, and its input has the focus.
  await page.waitForFunction(composerFocused, null, { timeout: 10000 });
  await page.waitForFunction(() => document.activeElement.value === '', null, { timeout: 10000 }).catch(() => {});
  assert.equal(await composerValue(page), '', 'the composer is empty once sent');
  await page.keyboard.type('next');
  await page.waitForFunction(() => {
    const el = document.activeElement;
    return el && el.value === 'next';
  }, null, { timeout: 10000 });
  await page.close();
});

test('Ctrl+A then Backspace right behind a burst empties the composer', async () => {
  const { page } = await openRoom();
  await focusComposer(page);
  await page.keyboard.type('a burst the select-all takes');
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Backspace');
  await page.keyboard.type('end');
  await page.waitForFunction(() => document.activeElement && document.activeElement.value === 'end', null,
    { timeout: 20000 }).catch(() => {});
  assert.equal(await composerValue(page), 'end', 'everything typed before Ctrl+A went with the Backspace');
  // A click in the field being edited keeps the browser's focus in its input.
  await clickWidget(page, 'message');
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  assert.ok(await page.evaluate(composerFocused), 'the composer\'s input kept the focus after a click in it');
  await page.close();
});

// Pixels that differ between two screenshots of the same clip.
function changed(a, b) {
  let n = 0;
  for (let i = 0; i < a.pixels.length; i += a.channels) {
    if (Math.abs(a.pixels[i] - b.pixels[i]) + Math.abs(a.pixels[i + 1] - b.pixels[i + 1]) +
        Math.abs(a.pixels[i + 2] - b.pixels[i + 2]) > 60) n += 1;
  }
  return n;
}

test('an IME composition is drawn at the caret, on its line, inside the field', async () => {
  const { page } = await openRoom();
  await focusComposer(page);
  const field = await widgetRect(page, 'message');
  // The empty field's caret is on its first line; the DOM input (where the
  // IME opens its window) sits at the caret, one line high.
  const caret = await page.evaluate(() => {
    const r = document.activeElement.getBoundingClientRect();
    return { x: r.left, y: r.top, height: r.height };
  });
  const lineHeight = Math.max(8, Math.round(caret.height));
  assert.ok(caret.y >= field.y && caret.y < field.y + lineHeight,
    `the DOM input ${JSON.stringify(caret)} is on the first line of the field ${JSON.stringify(field)}`);
  const line = { x: Math.round(field.x) + 2, y: Math.round(field.y) + 2, width: 120, height: lineHeight };
  const below = { ...line, y: Math.round(field.y) + lineHeight + 6 };
  const shot = async (clip) => decodePng(await page.screenshot({ clip }));
  const lineBefore = await shot(line);
  const belowBefore = await shot(below);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.imeSetComposition', { text: 'にほんご', selectionStart: 4, selectionEnd: 4 });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const onLine = changed(lineBefore, await shot(line));
  const onBelow = changed(belowBefore, await shot(below));
  assert.ok(onLine > 100, `the composition is drawn on the caret's line (${onLine} pixels changed)`);
  assert.ok(onBelow < 20, `nothing is drawn on the line below the caret (${onBelow} pixels changed)`);
  await page.close();
});

// A room open with `text` typed into an emptied composer, the clipboard ours to read.
async function composerHolding(text) {
  await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.origin });
  const { page } = await openRoom();
  await focusComposer(page);
  await page.keyboard.press('Control+A');  // an earlier test's draft goes first
  await page.keyboard.press('Backspace');
  await waitForState(page, (s) => s.composer && s.composer.text === '', 'an empty composer');
  await page.keyboard.type(text);
  await waitForState(page, (s) => s.composer && s.composer.text === text, 'the typed text in the draft');
  return page;
}

// Part of the composer's text selected with Shift and the arrows, Shift
// pressed with each arrow and Shift held over a burst of arrows sent at
// once, then Ctrl+C once the app has drawn the selection (as a user sees it
// before copying): the clipboard holds exactly that part, a flag as typed
// (the field holds it as one character).
test('Shift+arrows select part of the composer\'s text and Ctrl+C copies exactly that part', async () => {
  const text = 'keep this 🇯🇵 and this';
  const page = await composerHolding(text);
  const clipboard = () => page.evaluate(() => navigator.clipboard.readText());
  // The frame the composer was last drawn in; then, after keys, a later
  // frame drawn with no frame due after it: every key has been handled.
  const drawn = () => page.evaluate(() => window.roomkey.widget('message').frame);
  const handled = (before) => page.waitForFunction((f) => {
    const w = window.roomkey.widget('message');
    return w && w.frame > f && w.settled;
  }, before, { timeout: 20000 });
  const copy = async (want, what) => {
    await page.evaluate(() => navigator.clipboard.writeText('before'));
    await page.keyboard.press('Control+c');
    await page.waitForFunction(() => navigator.clipboard.readText().then((c) => c !== 'before'), null, { timeout: 10000 })
      .catch(() => assert.fail(`${what}: Ctrl+C wrote nothing`));
    assert.equal(await clipboard(), want, what);
  };

  // Shift pressed with each arrow: from the end, 10 characters back.
  let before = await drawn();
  for (let i = 0; i < 10; ++i) await page.keyboard.press('Shift+ArrowLeft');
  await handled(before);
  await copy('🇯🇵 and this', 'Shift+Left ten times from the end');

  // Shift held over a burst of arrows.
  before = await drawn();
  await page.keyboard.press('Home');
  await page.keyboard.down('Shift');
  for (let i = 0; i < 9; ++i) await page.keyboard.press('ArrowRight');
  await page.keyboard.up('Shift');
  await handled(before);
  await copy('keep this', 'Shift held over nine Right arrows from the start');
  assert.equal((await page.evaluate(() => window.roomkey.state())).composer.text, text, 'a copy leaves the text');
  await page.close();
});

// The same copy, and a cut, pressed right behind the burst of arrows with
// no wait: keys of a burst still wait in the app's input queue when the
// page's copy and cut events fire (one key reaches Dear ImGui per frame), and
// the copy took the selection the app had drawn two keys earlier ("and
// this"). A copy takes what every key before it selected; a cut removes
// exactly what it put on the clipboard.
test('Ctrl+C and Ctrl+X right behind a burst of Shift+arrows take exactly what the arrows selected', async () => {
  const text = 'keep this 🇯🇵 and this';
  const page = await composerHolding(text);
  const clipboard = () => page.evaluate(() => navigator.clipboard.readText());
  const afterKeys = async (key, want, what) => {
    await page.keyboard.press(key);
    await page.waitForFunction(() => navigator.clipboard.readText().then((c) => c !== 'before'), null, { timeout: 10000 })
      .catch(() => assert.fail(`${what}: ${key} wrote nothing`));
    assert.equal(await clipboard(), want, what);
  };

  await page.evaluate(() => navigator.clipboard.writeText('before'));
  for (let i = 0; i < 10; ++i) await page.keyboard.press('Shift+ArrowLeft');
  await afterKeys('Control+c', '🇯🇵 and this', 'Ctrl+C at once behind Shift+Left ten times from the end');

  await page.evaluate(() => navigator.clipboard.writeText('before'));
  await page.keyboard.press('Home');
  await page.keyboard.down('Shift');
  for (let i = 0; i < 9; ++i) await page.keyboard.press('ArrowRight');
  await page.keyboard.up('Shift');
  await afterKeys('Control+x', 'keep this', 'Ctrl+X at once behind Shift held over nine Right arrows from the start');
  const rest = ' 🇯🇵 and this';
  await waitForState(page, (s) => s.composer && s.composer.text === rest, 'the cut text gone from the composer')
    .catch(async () => assert.fail(`the cut removed other text: ${JSON.stringify((await page.evaluate(() =>
      window.roomkey.state())).composer.text)}`));
  assert.equal(await composerValue(page), rest, 'the field holds what the cut left');
  await page.close();
});
