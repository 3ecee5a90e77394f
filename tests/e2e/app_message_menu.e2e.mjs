// app_message_menu.e2e.mjs: a message's menu in Chromium at 1366x800:
// - a right-click on a message opens its menu there (Edit and Delete only on
//   your own), and Copy text puts the message's text, as read, on the
//   clipboard;
// - a click on a message then Shift+F10, or the context-menu key, opens it
//   from the keyboard (Escape closes it); Copy link to message puts the
//   service's link to it on the clipboard;
// - its "⋯" control opens it too; Quote fills the composer with the quote
//   tag, its author and time;
// - through the page API (message_menu, message_menu_choose): Reply fills the
//   composer with the reply tag, Edit opens the edit field and a save
//   reaches the sandbox, Delete asks first, Add as task opens the details'
//   task form, and an item the menu does not offer is refused, named.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openRoomPage, act, waitForState, widgetRect, clickWidget, demoUsers, sandboxApi, sandboxApiJson,
  withStackAndBrowser } from './support.mjs';

const ROOM = '2101';
let stack; let browser;
withStackAndBrowser((s, b) => { stack = s; browser = b; });

// Two animation frames: the app has drawn what the last action changed.
function drawn(page) {
  return page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

// Where the message whose text ends with `text` is drawn (its accessibility article lies over it).
async function messageRect(page, text) {
  return page.waitForFunction((t) => {
    const p = [...document.querySelectorAll('#a11y [role=article] .a11y-text')].find((e) => e.textContent.endsWith(t));
    if (!p) return null;
    const r = p.getBoundingClientRect();
    return r.height > 1 ? { x: r.left, y: r.top, width: r.width, height: r.height } : null;
  }, text, { timeout: 30000 }).then((h) => h.jsonValue());
}

// A point on the message's body text (its last line), clear of its controls.
async function onBody(page, text) {
  const r = await messageRect(page, text);
  return { x: r.x + 24, y: r.y + r.height - 8 };
}

function widget(page, name) {
  return page.evaluate((n) => window.roomkey.widget(n), name);
}

async function menuClosed(page) {
  await page.waitForFunction(() => window.roomkey.widget('message_menu') === null, null, { timeout: 30000 });
}

function clipboard(page) {
  return page.evaluate(() => navigator.clipboard.readText());
}

test('a message menu by right-click, keyboard, its ⋯ control and the page API: each item does its thing', async () => {
  const theirs = 'Menu check from Bob: copy me, please';
  const mine = 'Menu check, my own words';
  assert.equal((await sandboxApi(stack, demoUsers.bob, 'POST', `/rooms/${ROOM}/messages`, { body: theirs })).status, 200);
  assert.equal((await sandboxApi(stack, demoUsers.alice, 'POST', `/rooms/${ROOM}/messages`, { body: mine })).status, 200);
  await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.origin });

  const { page, state } = await openRoomPage(browser.context, stack.url, ROOM, { viewport: { width: 1366, height: 800 },
    until: (s) => s.room.messages.some((m) => m.text === theirs) && s.room.messages.some((m) => m.text === mine), what: 'both messages' });
  const bob = state.room.messages.find((m) => m.text === theirs);
  const own = state.room.messages.find((m) => m.text === mine);

  // A right-click on Bob's message: his menu, without Edit and Delete.
  let at = await onBody(page, theirs);
  await page.mouse.move(at.x, at.y);
  await drawn(page);
  await page.mouse.click(at.x, at.y, { button: 'right' });
  await widgetRect(page, 'message_menu');
  assert.ok(await widget(page, 'menu_reply'), 'Reply is offered');
  assert.equal(await widget(page, 'menu_edit'), null, 'no Edit on another\'s message');
  assert.equal(await widget(page, 'menu_delete'), null, 'no Delete on another\'s message');
  await page.evaluate(() => navigator.clipboard.writeText('before'));
  await clickWidget(page, 'menu_copy_text');
  await waitForState(page, (s) => /Copied the message's text/.test(s.notice), 'the copy');
  assert.equal(await clipboard(page), bob.text, 'exactly the message\'s text, as read');
  await menuClosed(page);

  // The keyboard: a click on my own message, then Shift+F10; Escape closes it.
  at = await onBody(page, mine);
  await page.mouse.move(at.x, at.y);
  await drawn(page);
  await page.mouse.click(at.x, at.y);
  await drawn(page);
  await page.keyboard.press('Shift+F10');
  await widgetRect(page, 'message_menu');
  assert.ok(await widget(page, 'menu_edit'), 'Edit on my own message');
  assert.ok(await widget(page, 'menu_delete'), 'Delete on my own message');
  await page.keyboard.press('Escape');
  await menuClosed(page);
  // The context-menu key opens it again.
  await page.keyboard.press('ContextMenu');
  await widgetRect(page, 'message_menu');
  await clickWidget(page, 'menu_copy_link');
  await waitForState(page, (s) => /Copied the link to the message/.test(s.notice), 'the link copied');
  assert.equal(await clipboard(page), `https://www.chatwork.com/#!rid${ROOM}-${own.message_id}`,
    'the service\'s link to the message');
  await menuClosed(page);

  // Its ⋯ control (the newest message's: mine), then Quote.
  await clickWidget(page, 'message_more');
  await widgetRect(page, 'message_menu');
  await clickWidget(page, 'menu_quote');
  let s = await waitForState(page, (st) => st.composer.text.includes('[qt]'), 'the quote in the composer');
  assert.ok(s.composer.text.startsWith(`[qt][qtmeta aid=1001 time=${own.send_time}]${mine}[/qt]`), s.composer.text);
  await menuClosed(page);

  // The page API: Reply to Bob's message puts the reply tag first.
  await act(page, { type: 'message_menu', room_id: ROOM, message_id: bob.message_id });
  await widgetRect(page, 'message_menu');
  await act(page, { type: 'message_menu_choose', item: 'reply' });
  s = await waitForState(page, (st) => st.composer.text.startsWith('[rp '), 'the reply in the composer');
  assert.ok(s.composer.text.startsWith(`[rp aid=1002 to=${ROOM}-${bob.message_id}]`), s.composer.text);
  await menuClosed(page);

  // An item the open menu does not offer is refused, and says why.
  await act(page, { type: 'message_menu', room_id: ROOM, message_id: bob.message_id });
  await act(page, { type: 'message_menu_choose', item: 'delete' });
  await waitForState(page, (st) => /delete is not in the open message menu/.test(st.notice), 'the refusal');

  // Delete on my own message asks first.
  await act(page, { type: 'message_menu', room_id: ROOM, message_id: own.message_id });
  await act(page, { type: 'message_menu_choose', item: 'delete' });
  await waitForState(page, (st) => st.console.confirm !== null, 'the question before the delete');
  await act(page, { type: 'cancel_api_call' });

  // Edit opens the edit field with the message in it; a save reaches the sandbox.
  await act(page, { type: 'message_menu', room_id: ROOM, message_id: own.message_id });
  await act(page, { type: 'message_menu_choose', item: 'edit' });
  await widgetRect(page, 'edit_message');
  await page.waitForFunction((t) => document.activeElement && document.activeElement.value === t, mine,
    { timeout: 30000 });
  await page.keyboard.press('End');
  await page.keyboard.type(' (edited from the menu)');
  await clickWidget(page, 'edit_save');
  const deadline = Date.now() + 30000;
  let edited = null;
  while (!edited && Date.now() < deadline) {
    const m = await sandboxApiJson(stack, demoUsers.alice, 'GET', `/rooms/${ROOM}/messages/${own.message_id}`);
    if (m.body === `${mine} (edited from the menu)`) edited = m;
    else await new Promise((r) => setTimeout(r, 250));
  }
  assert.ok(edited, 'the edit reached the sandbox');

  // Add as task opens the details with the task form.
  await act(page, { type: 'message_menu', room_id: ROOM, message_id: bob.message_id });
  await act(page, { type: 'message_menu_choose', item: 'add_task' });
  await widgetRect(page, 'details');
  await page.close();
});

test('Quote from the menu takes the part of the message that is selected, with its author and time', async () => {
  const theirs = 'Quote check from Bob: only this part, not the rest';
  const part = 'only this part';
  assert.equal((await sandboxApi(stack, demoUsers.bob, 'POST', `/rooms/${ROOM}/messages`, { body: theirs })).status, 200);
  const { page, state } = await openRoomPage(browser.context, stack.url, ROOM, { viewport: { width: 1366, height: 800 },
    until: (s) => s.room.messages.some((m) => m.text === theirs), what: 'Bob\'s message' });
  const bob = state.room.messages.find((m) => m.text === theirs);
  const start = theirs.indexOf(part);
  await act(page, { type: 'select_text', room_id: ROOM, message_id: bob.message_id, start, end: start + part.length });
  await waitForState(page, (s) => s.selection && s.selection.text === part, 'the part selected');
  // A right-click keeps the selection (as on any page); the menu's Quote takes it.
  const at = await onBody(page, theirs);
  await page.mouse.move(at.x, at.y);
  await drawn(page);
  await page.mouse.click(at.x, at.y, { button: 'right' });
  await widgetRect(page, 'message_menu');
  await clickWidget(page, 'menu_quote');
  const quoted = `[qt][qtmeta aid=1002 time=${bob.send_time}]${part}[/qt]`;
  const s = await waitForState(page, (st) => st.composer.text.includes('[qtmeta aid=1002'), 'the quote in the composer');
  assert.ok(s.composer.text.includes(quoted), `the selected part quoted: ${s.composer.text}`);
  await menuClosed(page);
  await page.close();
});
