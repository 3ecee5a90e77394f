// app_composer.e2e.mjs: the composer as people use it, in Chromium at
// 1000x700: long text wraps (the box grows, the text sent has no line
// breaks it did not have); "@bo" offers Bob and Enter writes [To:1002]Bob Example;
// Enter sends when that is chosen, Ctrl+Enter when that is; a draft
// survives a room switch and a reload (signed in again as the same
// account). Files: the attach control beside the composer is whole on
// screen at 1366x800, 1000x700 and 390x844 and sends the typed message
// with the file; the file card in the message downloads the same bytes.
// The delete question is a dialog in words: no method, no path, no id.
// Reply, Quote and Edit put the keyboard focus and the caret at the end of
// the text they bring, so the keys typed next land there (typed here once
// the field has the browser's focus; keys typed within the press's own
// frame: app_reply_keys); a send keeps them in the composer; Ctrl+Enter
// sends when Enter sends.
// Screenshots: composer_wrapped_1000x700.png, composer_<w>x<h>.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openApp, act, waitForState, widgetRect, clickWidget, demoUsers, artifacts,
  withStackAndBrowser, postDelivered, sandboxHasMessage, resizeTo } from './support.mjs';

const ROOM = '2100';
let stack; let browser;
withStackAndBrowser((s, b) => { stack = s; browser = b; });

async function signIn(page) {
  await act(page, { type: 'use_api_token', token: demoUsers.alice.apiToken });
  return waitForState(page, (s) => s.account && s.rooms.length > 1 && !s.loading, 'the rooms');
}

async function openRoom(page, room) {
  await act(page, { type: 'open_room', room_id: room });
  return waitForState(page, (s) => s.view === 'workspace' && s.room && s.room.room_id === room && !s.room.loading &&
    s.room.members.length > 0, `room ${room} open`);
}

// The tests of this file share the browser's storage: each starts without drafts.
async function start(page) {
  await page.setViewportSize({ width: 1000, height: 700 });
  await openApp(page, stack.url);
  await page.evaluate(() => localStorage.clear());
  const state = await signIn(page);
  await openRoom(page, ROOM);
  return state;
}

// The keyboard in the composer: the click puts the caret there (the DOM
// layer beside the canvas takes the keys: a11y.js).
async function focusComposer(page) {
  await clickWidget(page, 'message');
  await page.waitForFunction(() => {
    const el = document.activeElement;
    return el && el.closest('#a11y') !== null;
  }, null, { timeout: 30000 });
}

// Presses the button `name` of the message that reads `body` with the mouse,
// where it is drawn: the accessibility tree places each control over its
// drawing and lets the pointer through to the canvas. A user aims at a
// control that holds still; so does this.
async function pressOnMessage(page, body, name) {
  const button = page.getByRole('article').filter({ hasText: body }).getByRole('button', { name, exact: true });
  await button.waitFor({ state: 'attached', timeout: 30000 });
  let last = null;
  for (let same = 0; same < 3;) {
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const box = await button.boundingBox();
    same = box && last && box.x === last.x && box.y === last.y ? same + 1 : 0;
    last = box;
  }
  const x = last.x + last.width / 2; const y = last.y + last.height / 2;
  await page.mouse.move(x, y);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.mouse.click(x, y);
}

// Waits until the browser's focus is in a text field of the accessibility
// layer (the DOM input that follows the app's field being edited), named
// `name` when given: the app put it there, nothing clicked the field.
async function fieldFocused(page, name = null) {
  await page.waitForFunction((n) => {
    const el = document.activeElement;
    return el && el.closest('#a11y') !== null && /^(INPUT|TEXTAREA)$/.test(el.tagName) &&
      (n === null || el.getAttribute('aria-label') === n);
  }, name, { timeout: 30000 });
}

test('long text wraps: the box grows, and what is sent is what was typed', async () => {
  const page = await browser.context.newPage();
  await start(page);
  await act(page, { type: 'set_setting', name: 'send_key', value: 'enter' });
  await waitForState(page, (s) => s.settings.send_key === 'enter', 'Enter sends');
  const before = await widgetRect(page, 'message');
  await focusComposer(page);
  const text = 'The sandbox is up again after the maintenance window; every room reads and posts as before, ' +
    'and the files uploaded this morning are all there. Tell me if anything looks off in your rooms.';
  await page.keyboard.type(text);
  await waitForState(page, (s) => s.composer.text === text && s.composer.room_id === ROOM, 'the text typed');
  const grown = await widgetRect(page, 'message');
  assert.ok(grown.height > before.height, `the box grows with the text (${before.height} -> ${grown.height})`);
  assert.ok(grown.width <= before.width + 1 && grown.x >= before.x - 1, 'not sideways');
  await page.screenshot({ path: join(artifacts, 'composer_wrapped_1000x700.png') });
  await page.keyboard.press('Enter');
  await waitForState(page, (s) => s.composer.text === '', 'the composer emptied once the post is queued');
  await sandboxHasMessage(stack, demoUsers.alice, ROOM, text);  // exactly: no line breaks added
  await page.close();
});

test('"@bo" offers Bob and Enter writes [To:1002]Bob', async () => {
  const page = await browser.context.newPage();
  await start(page);
  await act(page, { type: 'set_setting', name: 'send_key', value: 'ctrl_enter' });
  await focusComposer(page);
  await page.keyboard.type('Thanks @bo');
  await widgetRect(page, 'mention_option');
  for (const [width, height] of [[1366, 800], [390, 844], [1000, 700]]) {
    await resizeTo(page, width, height);
    await widgetRect(page, 'mention_option');  // the names offered, drawn at this size
    await page.screenshot({ path: join(artifacts, `composer_mention_${width}x${height}.png`) });
  }
  await page.keyboard.press('Enter');
  await waitForState(page, (s) => s.composer.text.startsWith(`Thanks [To:${demoUsers.bob.accountId}]Bob`),
    'the To tag in place of @bo');
  await page.keyboard.type('see you');
  // The sandbox's Bob is "Bob Example": the tag carries the name the room's members list gives.
  await waitForState(page, (s) => s.composer.text === `Thanks [To:${demoUsers.bob.accountId}]Bob Example see you`,
    'the caret after the name');
  await waitForState(page, (s) => s.settings.send_key === 'ctrl_enter', 'Ctrl+Enter sends');
  await page.keyboard.press('Control+End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('bye');
  await waitForState(page, (s) => s.composer.text.endsWith('see you\nbye'), 'Enter is a new line now');
  await page.keyboard.press('Control+Enter');
  await waitForState(page, (s) => s.composer.text === '', 'Ctrl+Enter sent it');
  const want = `Thanks [To:${demoUsers.bob.accountId}]Bob Example see you\nbye`;
  await sandboxHasMessage(stack, demoUsers.alice, ROOM, want);
  await page.close();
});

// The send key is one control that says what Enter does now, a choice of
// the two (the service's client offers both); the hint beside it names the
// key for a new line. (It was a blank "Enter sends" check box beside a dim
// "Ctrl+Enter sends".)
test('the send key is one control saying what Enter does, a choice of two, with a hint that matches', async () => {
  const page = await browser.context.newPage();
  await start(page);
  const tree = page.locator('#a11y');
  await act(page, { type: 'set_setting', name: 'send_key', value: 'ctrl_enter' });
  await waitForState(page, (s) => s.settings.send_key === 'ctrl_enter', 'Ctrl+Enter sends');
  await tree.getByRole('button', { name: 'Ctrl+Enter to send', exact: true }).waitFor({ state: 'attached', timeout: 30000 });
  assert.equal(await tree.getByRole('checkbox', { name: /sends/ }).count(), 0, 'no "Enter sends" check box');
  await widgetRect(page, 'queue_hint');
  await clickWidget(page, 'send_key');
  const enter = tree.getByRole('checkbox', { name: 'Enter to send', exact: true });
  const ctrlEnter = tree.getByRole('checkbox', { name: 'Ctrl+Enter to send', exact: true });
  await enter.waitFor({ state: 'attached', timeout: 30000 });
  assert.equal(await enter.getAttribute('aria-checked'), 'false');
  assert.equal(await ctrlEnter.getAttribute('aria-checked'), 'true', 'the choice in use is checked');
  const item = await enter.boundingBox();  // the tree lets the pointer through to the item drawn beneath
  await page.mouse.click(item.x + item.width / 2, item.y + item.height / 2);
  await waitForState(page, (s) => s.settings.send_key === 'enter', 'Enter sends, as chosen');
  await tree.getByRole('button', { name: 'Enter to send', exact: true }).waitFor({ state: 'attached', timeout: 30000 });
  await widgetRect(page, 'queue_hint');
  for (const [width, height] of [[390, 844], [1000, 700]]) {
    await resizeTo(page, width, height);  // else the widget read may be the last size's, settled
    await tree.getByRole('button', { name: 'Enter to send', exact: true }).waitFor({ state: 'attached', timeout: 30000 });
    const control = await widgetRect(page, 'send_key');
    assert.ok(control.x >= 0 && control.x + control.width <= width && control.y + control.height <= height,
      `the control is whole on screen at ${width}x${height}: ${JSON.stringify(control)}`);
    await page.screenshot({ path: join(artifacts, `composer_send_key_${width}x${height}.png`) });
  }
  await page.close();
});

test('a draft survives a room switch and a reload', async () => {
  const page = await browser.context.newPage();
  const state = await start(page);
  const other = state.rooms.find((r) => r.room_id !== ROOM).room_id;
  await focusComposer(page);
  await page.keyboard.type('half a thought for 2100');
  await waitForState(page, (s) => s.composer.text === 'half a thought for 2100', 'typed');
  await openRoom(page, other);
  await waitForState(page, (s) => s.composer.room_id === other && s.composer.text === '', 'the other room: its own');
  await openRoom(page, ROOM);
  await waitForState(page, (s) => s.composer.text === 'half a thought for 2100', 'back: the draft');
  await page.reload();
  await page.waitForFunction(() => window.roomkey && window.roomkey.ready(), null, { timeout: 60000 });
  await openApp(page, stack.url);
  await signIn(page);
  await openRoom(page, ROOM);
  await waitForState(page, (s) => s.composer.text === 'half a thought for 2100', 'after a reload: the draft');
  const stored = await page.evaluate(() => Object.keys(localStorage).map((k) => k + '=' + localStorage.getItem(k)));
  assert.ok(stored.every((kv) => !kv.includes(demoUsers.alice.apiToken)), 'no token in storage');
  await page.close();
});

for (const [width, height] of [[1366, 800], [1000, 700], [390, 844]]) {
  test(`the attach control is whole on screen at ${width}x${height}`, async () => {
    const page = await browser.context.newPage();
    await page.setViewportSize({ width, height });
    await openApp(page, stack.url);
    await signIn(page);
    await openRoom(page, ROOM);
    const attach = await widgetRect(page, 'attach');
    assert.ok(attach.x >= 0 && attach.y >= 0 && attach.x + attach.width <= width && attach.y + attach.height <= height,
      `on screen: ${JSON.stringify(attach)}`);
    const send = await widgetRect(page, 'queue_message');
    assert.ok(attach.height >= 14 && Math.abs(attach.y + attach.height / 2 - (send.y + send.height / 2)) < send.height,
      `a whole control beside Send, not a sliver: ${JSON.stringify(attach)}, Send ${JSON.stringify(send)}`);
    await page.screenshot({ path: join(artifacts, `composer_${width}x${height}.png`) });
    await page.close();
  });
}

test('attach sends the typed message with the file; its card downloads the same bytes', async () => {
  const page = await browser.context.newPage();
  await start(page);
  await focusComposer(page);
  await page.keyboard.type('The notes from today');
  await waitForState(page, (s) => s.composer.text === 'The notes from today', 'typed');
  const bytes = Buffer.from('notes: the sandbox is up; rooms read and post as before.\n');
  const [chooser] = await Promise.all([page.waitForEvent('filechooser', { timeout: 30000 }),
    clickWidget(page, 'attach')]);
  await chooser.setFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: bytes });
  const done = await waitForState(page, (s) => s.room.upload && s.room.upload.name === 'notes.txt' &&
    s.room.upload.status !== 'sending', 'the upload ended', 60000);
  assert.equal(done.room.upload.status, 'done', JSON.stringify(done.room.upload));
  const id = done.room.upload.file_id;
  const state = await waitForState(page, (s) => s.room.messages.some((m) => m.body.includes(`[download:${id}]`)),
    'the file in the conversation');
  const message = state.room.messages.find((m) => m.body.includes(`[download:${id}]`));
  assert.ok(message.body.startsWith('The notes from today\n'), message.body);
  assert.equal(state.composer.text, '', 'the message went with the file: no draft left');
  assert.doesNotMatch(state.notice ?? '', /\d{4,}/, `the status line names the file, not its id: ${state.notice}`);
  // The card in the message, as a user finds it (the accessibility tree mirrors the drawn button).
  // Scrolled to, if the conversation did not follow to its end.
  const card = page.getByRole('button', { name: /^File: notes\.txt/ });
  const log = await widgetRect(page, 'conversation');
  await page.mouse.move(log.x + log.width / 2, log.y + log.height / 2);
  for (let i = 0; i < 20 && await card.count() === 0; ++i) {
    await page.mouse.wheel(0, 400);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  }
  await card.waitFor({ state: 'attached', timeout: 10000 });
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 30000 }),
    card.dispatchEvent('click')]);
  assert.ok(readFileSync(await download.path()).equals(bytes), 'the same bytes back');
  await page.close();
});

test('the delete question is a dialog in words: no method, path or id', async () => {
  const page = await browser.context.newPage();
  await start(page);
  const body = 'Alice, the sandbox is up again and every room reads as before';
  await act(page, { type: 'post_message', room_id: ROOM, body });
  // The service's message, not the post still standing in the conversation as "Sending...".
  const delivered = (m) => m.body === body && m.account_id === demoUsers.alice.accountId && !m.pending && m.message_id;
  const state = await waitForState(page, (s) => s.room.messages.some(delivered), 'the message in the conversation', 60000);
  const mine = state.room.messages.find(delivered);
  await act(page, { type: 'delete_message', room_id: ROOM, message_id: mine.message_id });
  const asked = await waitForState(page, (s) => s.dialog !== null, 'the question');
  const words = `${asked.dialog.title} ${asked.dialog.quote} ${asked.dialog.detail} ${asked.dialog.yes}`;
  assert.equal(asked.dialog.title, 'Delete this message?');
  assert.ok(asked.dialog.quote.startsWith("'Alice, the sandbox is"), asked.dialog.quote);
  assert.doesNotMatch(words, /DELETE|\/rooms|\d{4,}/, words);
  const dialog = await widgetRect(page, 'dialog');
  assert.ok(dialog.width > 0 && dialog.y >= 0, JSON.stringify(dialog));
  await clickWidget(page, 'dialog_yes');
  await waitForState(page, (s) => s.dialog === null && !s.room.messages.some((m) => m.message_id === mine.message_id),
    'deleted, the dialog gone');
  // The frame that answers the dialog still drew it; the next one no longer does.
  await page.waitForFunction(() => window.roomkey.widget('dialog') === null, null, { timeout: 10000 });
  assert.equal(await page.evaluate(() => window.roomkey.widget('dialog')), null);
  await page.close();
});

test('Reply and Quote put the caret in the composer: the keys typed next land there; a send keeps them', async () => {
  const page = await browser.context.newPage();
  await start(page);
  await act(page, { type: 'set_setting', name: 'send_key', value: 'enter' });
  await waitForState(page, (s) => s.settings.send_key === 'enter', 'Enter sends');
  const body = `Can someone look at the build? ${Date.now()}`;
  const message = await postDelivered(page, ROOM, body);

  await pressOnMessage(page, body, 'Reply');
  await fieldFocused(page, 'Message');
  await page.keyboard.type('on it');
  const replied = await waitForState(page, (s) => s.composer.text.endsWith('on it'), 'the keys in the composer');
  assert.match(replied.composer.text, new RegExp(`^\\[rp aid=${demoUsers.alice.accountId} to=${ROOM}-` +
    `${message.message_id}\\][^\\n]*\\non it$`), `after the reply's head: ${JSON.stringify(replied.composer.text)}`);
  const sent = replied.composer.text;
  // Ctrl+Enter sends too when Enter sends, as the service's client does.
  await page.keyboard.press('Control+Enter');
  await waitForState(page, (s) => s.composer.text === '', 'sent');
  await sandboxHasMessage(stack, demoUsers.alice, ROOM, sent);
  await fieldFocused(page, 'Message');
  await page.keyboard.type('and one more');
  await waitForState(page, (s) => s.composer.text === 'and one more', 'the composer kept the keys after the send');
  await page.keyboard.press('Enter');
  await waitForState(page, (s) => s.composer.text === '', 'Enter sent it');
  await sandboxHasMessage(stack, demoUsers.alice, ROOM, 'and one more');

  await pressOnMessage(page, body, 'Quote');
  await fieldFocused(page, 'Message');
  await page.keyboard.type('agreed');
  const quoted = await waitForState(page, (s) => s.composer.text.endsWith('agreed'), 'the keys after the quote');
  assert.ok(quoted.composer.text.startsWith('[qt]') && quoted.composer.text.includes(body),
    `the quote, then the keys: ${JSON.stringify(quoted.composer.text)}`);
  await page.close();
});

test('Edit puts the caret at the end of the message: the keys typed next extend it', async () => {
  const page = await browser.context.newPage();
  await start(page);
  const body = `The meeting moves to Friday ${Date.now()}`;
  await postDelivered(page, ROOM, body);
  await pressOnMessage(page, body, 'Edit');
  await fieldFocused(page);
  await page.keyboard.type(' at ten');
  // Saved once the field shows what was typed, as a user sees it before Save
  // (the accessibility layer's input holds the field's text).
  await page.waitForFunction((end) => document.activeElement && document.activeElement.closest('#a11y') !== null &&
    typeof document.activeElement.value === 'string' && document.activeElement.value.endsWith(end), ' at ten',
  { timeout: 30000 });
  const save = page.getByRole('button', { name: 'Save', exact: true });
  await save.waitFor({ state: 'attached', timeout: 30000 });
  await save.dispatchEvent('click');
  await sandboxHasMessage(stack, demoUsers.alice, ROOM, `${body} at ten`);
  await page.close();
});
