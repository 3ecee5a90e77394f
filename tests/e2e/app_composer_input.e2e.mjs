// app_composer_input.e2e.mjs: the composer takes input as people and their
// tools produce it (issue 35, "a composer for people"), in Chromium:
// - a burst (keyboard.type with no delay: a text expander, a password
//   manager, dictation) of a few hundred characters, Japanese among them,
//   with a new line by Shift+Enter in the middle, arrives whole and in
//   order, and Enter sends exactly that, once;
// - a burst followed at once (no wait for the app) by Ctrl+Enter under the
//   Ctrl+Enter send key sends exactly the whole text, once; a burst
//   followed at once by Ctrl+A and typing replaces the whole text;
// - held modifiers: Shift held across several keys types capitals, and
//   with the arrows selects what the next keys replace; with Ctrl+Enter to
//   send, Enter is a new line and Ctrl+Enter sends; with Enter to send,
//   Enter sends and Shift+Enter is a new line;
// - an IME composition (Japanese, as Chromium delivers one: CDP
//   Input.imeSetComposition, then the IME's Enter as a keydown "Process" /
//   keyCode 229 and the commit as Input.insertText, which fires
//   compositionend): the Enter that commits does not send; the committed
//   text is in the composer, and the next Enter sends it;
// - a finger at 390x844 (touch screen): a tap on the composer, the
//   on-screen keyboard's text, a tap on Send: sent once, the box emptied.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { withStackDeskAndPhone, openRoomPage, act, waitForState, widgetRect, clickWidget, tapWidget,
  demoUsers, sandboxApiJson, artifacts } from './support.mjs';

const ROOM = '2100';
let stack; let desk; let phone;
withStackDeskAndPhone((s, d, p) => { stack = s; desk = d; phone = p; });

const drawn = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

// Room ROOM open at 1366x800 with the send key chosen, the composer empty and its DOM input focused.
async function composerReady(sendKey) {
  const { page } = await openRoomPage(desk.context, stack.url, ROOM, { viewport: { width: 1366, height: 800 } });
  await act(page, { type: 'set_setting', name: 'send_key', value: sendKey });
  await waitForState(page, (s) => s.settings.send_key === sendKey && s.composer && s.composer.room_id === ROOM,
    `send key ${sendKey}`);
  await clickWidget(page, 'message');
  await page.waitForFunction(() => {
    const el = document.activeElement;
    return !!el && el.getAttribute('aria-label') === 'Message' && !!el.closest('#a11y');
  }, null, { timeout: 30000 });
  // A draft an earlier test left (drafts are kept per room in this profile) goes first.
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Backspace');
  await waitForState(page, (s) => s.composer.text === '', 'an empty composer');
  return page;
}

// The bodies of the room's messages at the sandbox (Bob reads them all).
async function sandboxBodies() {
  return (await sandboxApiJson(stack, demoUsers.bob, 'GET', `/rooms/${ROOM}/messages?force=1`)).map((m) => m.body);
}

// Waits until the app holds `body` as the service's message (sent, not
// pending), then says how many messages of the room at the sandbox read exactly `body`.
async function sentCount(page, body) {
  await waitForState(page, (s) => s.room && s.room.messages.some((m) => m.body === body && !m.pending),
    `"${body.slice(0, 40)}" sent`);
  return (await sandboxBodies()).filter((b) => b === body).length;
}

test('a burst of a few hundred characters, Japanese and a Shift+Enter new line among them, arrives whole and in order; Enter sends it once', async () => {
  const page = await composerReady('enter');
  const first = 'The quick brown fox jumps over the lazy dog 0123456789, ' +
    '今日は会議室で打ち合わせをします。資料は共有フォルダにあります。 ' +
    'then more words typed at once: alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu.';
  const second = '二行目：よろしくお願いします。 And the last words of a long burst, with punctuation ([{<>}]) & symbols #@!';
  await page.keyboard.type(first);
  await page.keyboard.press('Shift+Enter');
  await page.keyboard.type(second);
  const text = `${first}\n${second}`;
  assert.ok(text.length > 250, `a few hundred characters: ${text.length}`);
  const typed = await waitForState(page, (s) => s.composer.text.length >= text.length, 'the whole burst');
  assert.equal(typed.composer.text, text, 'every character, once, in order; Shift+Enter a new line');
  await page.keyboard.press('Enter');
  await waitForState(page, (s) => s.composer.text === '', 'Enter sent it');
  assert.equal(await sentCount(page, text), 1, 'sent exactly once, exactly as typed');
  await page.close();
});

// As a tool types: the keys that end a burst come with no pause after it.
test('a burst then at once Ctrl+Enter sends the whole text once; a burst then at once Ctrl+A and typing replaces it all', async () => {
  let page = await composerReady('ctrl_enter');
  const text = 'a burst sent at once by Ctrl+Enter: ' + 'alpha beta gamma delta '.repeat(8) + '最後の言葉';
  await page.keyboard.type(text);
  await page.keyboard.press('Control+Enter');
  assert.equal(await sentCount(page, text), 1, 'the whole text, sent once');
  const parts = (await sandboxBodies()).filter((b) => b !== text && b.startsWith('a burst sent at once'));
  assert.deepEqual(parts, [], 'no part of the burst was sent on its own');
  await waitForState(page, (s) => s.composer.text === '', 'the composer emptied by the send');
  await page.close();

  page = await composerReady('ctrl_enter');
  await page.keyboard.type('a burst that Ctrl+A then replaces: ' + 'one two three four five '.repeat(8));
  await page.keyboard.press('Control+A');
  await page.keyboard.type('replaced');
  // Keys are taken in order: once "replaced" is in, every key of the burst before it is too.
  const typed = await waitForState(page, (s) => s.composer.text.includes('replaced'), 'the text typed after Ctrl+A');
  assert.equal(typed.composer.text, 'replaced', 'Ctrl+A selected the whole burst, and the typing replaced it');
  await page.close();
});

test('held modifiers: Shift across keys types capitals and selects; Enter and Ctrl+Enter as the send key says', async () => {
  let page = await composerReady('ctrl_enter');
  await page.keyboard.type('shift held: ');
  // As a keyboard gives them with Shift down: key "A", shiftKey true (Playwright's
  // type('abc') under Shift gives key "a", text "a", which no real keyboard sends).
  await page.keyboard.down('Shift');
  await page.keyboard.type('ABC');
  await page.keyboard.up('Shift');
  await page.keyboard.type(' then selected: old');
  // Shift held over three Left arrows selects "old"; what is typed next replaces it.
  await page.keyboard.down('Shift');
  for (let i = 0; i < 3; ++i) await page.keyboard.press('ArrowLeft');
  await page.keyboard.up('Shift');
  await page.keyboard.type('new');
  // Ctrl+Enter sends; Enter is a new line.
  await page.keyboard.press('Enter');
  await page.keyboard.type('line two');
  const expected = 'shift held: ABC then selected: new\nline two';
  const typed = await waitForState(page, (s) => s.composer.text.endsWith('line two'), 'the keys typed');
  assert.equal(typed.composer.text, expected);
  await page.keyboard.press('Control+Enter');
  await waitForState(page, (s) => s.composer.text === '', 'Ctrl+Enter sent it');
  assert.equal(await sentCount(page, expected), 1);
  await page.close();

  // Enter to send: Shift+Enter is a new line, Enter sends.
  page = await composerReady('enter');
  await page.keyboard.type('first line');
  await page.keyboard.press('Shift+Enter');
  await page.keyboard.down('Shift');
  await page.keyboard.type('SECOND');
  await page.keyboard.up('Shift');
  const second = 'first line\nSECOND';
  await waitForState(page, (s) => s.composer.text === second, 'Shift+Enter a new line, Shift held capitals');
  await page.keyboard.press('Enter');
  await waitForState(page, (s) => s.composer.text === '', 'Enter sent it');
  assert.equal(await sentCount(page, second), 1);
  await page.close();
});

// The IME's Enter as Chromium delivers it while a composition is open: a
// keydown the IME took ("Process", keyCode 229; macOS: "Enter", keyCode 229), then
// the commit (compositionend with the text), then the key's release.
async function imeEnterCommits(cdp, committed, key) {
  await cdp.send('Input.dispatchKeyEvent', { type: 'rawKeyDown', key, code: 'Enter', windowsVirtualKeyCode: 229,
    nativeVirtualKeyCode: 229 });
  await cdp.send('Input.insertText', { text: committed });
  await cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', key: 'Enter', code: 'Enter', windowsVirtualKeyCode: 13,
    nativeVirtualKeyCode: 13 });
}

test('an IME composition: the Enter that commits it does not send; the committed text is what Enter then sends', async () => {
  const page = await composerReady('enter');
  const cdp = await page.context().newCDPSession(page);
  await page.keyboard.type('memo: ');
  // Typed in kana, converted, committed by Enter.
  for (const step of ['に', 'にほ', 'にほん', 'にほんご']) {
    await cdp.send('Input.imeSetComposition', { text: step, selectionStart: step.length, selectionEnd: step.length });
  }
  await cdp.send('Input.imeSetComposition', { text: '日本語', selectionStart: 3, selectionEnd: 3 });
  await drawn(page);
  let s = await waitForState(page, (st) => st.composer.text === 'memo: ', 'the composition is not yet text');
  await imeEnterCommits(cdp, '日本語', 'Process');
  s = await waitForState(page, (st) => st.composer.text === 'memo: 日本語', 'the committed text in the composer');
  // A second composition, committed by the Enter macOS reports ("Enter", keyCode 229).
  await cdp.send('Input.imeSetComposition', { text: 'です', selectionStart: 2, selectionEnd: 2 });
  await imeEnterCommits(cdp, 'です', 'Enter');
  const text = 'memo: 日本語です';
  s = await waitForState(page, (st) => st.composer.text === text, 'the second commit in the composer');
  await drawn(page);
  await drawn(page);
  s = await waitForState(page, () => true, 'the state');
  assert.equal(s.composer.text, text, 'the Enters that committed sent nothing');
  assert.ok(!s.room.messages.some((m) => m.body.startsWith('memo: ')), 'nothing was sent while composing');
  assert.ok(!(await sandboxBodies()).some((b) => b.startsWith('memo: ')), 'the sandbox has nothing of it');
  await page.screenshot({ path: join(artifacts, 'composer_ime_1366x800.png') });
  // Now Enter (no composition) sends exactly the committed text.
  await page.keyboard.press('Enter');
  await waitForState(page, (st) => st.composer.text === '', 'Enter sent it');
  assert.equal(await sentCount(page, text), 1);
  await page.close();
});

test('on a phone (390x844, touch): a tap on the composer, the keyboard\'s text, a tap on Send: sent once', async () => {
  const { page } = await openRoomPage(phone.context, stack.url, ROOM);
  assert.ok(await page.evaluate(() => matchMedia('(pointer: coarse)').matches), 'a touch screen is the pointer');
  await widgetRect(page, 'composer');
  const field = page.getByRole('textbox', { name: 'Message', exact: true });
  const box = await field.boundingBox();
  await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
  await page.waitForFunction(() => document.activeElement && document.activeElement.getAttribute('aria-label') === 'Message',
    null, { timeout: 10000 });
  const body = 'sent from a phone 電話から';
  await page.keyboard.insertText(body);
  await waitForState(page, (s) => s.composer.text === body, 'the text in the composer');
  const send = await widgetRect(page, 'queue_message');
  assert.ok(send.height >= 43, `Send is a finger tall: ${JSON.stringify(send)}`);
  await page.screenshot({ path: join(artifacts, 'composer_touch_390x844.png') });
  await tapWidget(page, 'queue_message');
  await waitForState(page, (s) => s.composer.text === '', 'Send emptied the box');
  assert.equal(await sentCount(page, body), 1);
  await page.close();
});
