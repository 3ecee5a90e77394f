// app_workspace.e2e.mjs: the chat-first workspace in Chromium at
// 1366x800, 1000x700, 760x700 and 390x844: after opening a room the conversation and
// the composer are on screen, the conversation is the largest region and no
// two regions overlap; the details stand beside the conversation (which
// narrows) or take the whole pane with Back, never over its text or the
// composer, and each of their tabs shows its whole label; the developer view is one click away and back; the
// demo room's messages read without tags and Bob's [To:1001] mentions
// Alice; a reply and a quote written in the composer reach the sandbox with
// their tags; an edit and a delete (asked first) reach it; a task
// done and reopened is open there; with notifications on, Bob's mention in
// another room raises the title's count and makes one notification with
// the mention's text, whose click opens the room (about 40 s: the room
// list's next read, at its quarter of the poll share).
// Screenshots: workspace_<w>x<h>.png, workspace_details_<w>x<h>.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openApp, act, waitForState, widgetRect, clickWidget, demoUsers, sandboxApi, sandboxApiJson, artifacts,
  withStackAndBrowser, recordNotifications, appState } from './support.mjs';
import { assertWorkspaceRegions } from './workspace_regions.mjs';

const ROOM = '2100';
let stack; let browser;
withStackAndBrowser((s, b) => { stack = s; browser = b; });

async function openRoom(page, width, height) {
  await page.setViewportSize({ width, height });
  await openApp(page, stack.url);
  await act(page, { type: 'use_api_token', token: demoUsers.alice.apiToken });
  await waitForState(page, (s) => s.account && s.rooms.length > 0 && !s.loading, 'the rooms');
  await act(page, { type: 'open_room', room_id: ROOM });
  return waitForState(page, (s) => s.view === 'workspace' && s.room && s.room.room_id === ROOM && !s.room.loading &&
    s.room.messages.length >= 3 && s.room.members.length > 0 && s.room.tasks.length > 0, 'room 2100 open');
}

// Two animation frames: the app has drawn what the last action changed.
function drawn(page) {
  return page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}


for (const [width, height] of [[1366, 800], [1000, 700], [760, 700], [390, 844]]) {
  test(`the workspace at ${width}x${height}: conversation and composer on screen, nothing overlaps`, async () => {
    const page = await browser.context.newPage();
    const state = await openRoom(page, width, height);
    const regions = { conversation: await widgetRect(page, 'conversation'), composer: await widgetRect(page, 'composer') };
    for (const name of ['room_list', 'details']) {
      const r = await page.evaluate((n) => window.roomkey.widget(n), name);
      if (r) regions[name] = r;
    }
    if (width >= 1200) assert.ok(regions.room_list, 'three panes: the room list beside the conversation');
    if (width < 800) assert.ok(!regions.room_list, 'one pane: the room list gives way to the conversation');
    assertWorkspaceRegions(regions, width, height);
    // The demo room reads without tags; Bob's [To:1001] mentions Alice.
    for (const m of state.room.messages) {
      assert.doesNotMatch(m.text, /\[(To:|rp |qt|info|title|task|dtext|toall)/, `no tags: ${m.text}`);
      assert.equal(typeof m.time_text, 'string');
      assert.equal(m.edited, false);
    }
    const bob = state.room.messages.find((m) => m.body.startsWith('[To:1001]'));
    assert.ok(bob && bob.mentions_me, 'Bob\'s [To:1001] mentions Alice');
    assert.equal(bob.reply_to, null);
    assert.ok(state.room.messages.filter((m) => m.mentions_me).length === 1, 'only that one');
    assert.ok(state.room.tasks.every((t) => 'limit_time' in t && 'limit_type' in t));
    assert.ok(state.rooms.every((r) => 'unread_num' in r && 'mention_num' in r && 'sticky' in r &&
      'last_update_time' in r));
    assert.equal(state.rooms[0].room_id, ROOM, 'the sticky room first');
    await page.screenshot({ path: join(artifacts, `workspace_${width}x${height}.png`) });
    // Assistive technology gets the same structure: the conversation is a
    // log (a live region) whose items read as the messages are drawn (sender,
    // time, text without tags), each holding its controls; the rooms are a
    // list; the composer is a labelled text field.
    const log = page.getByRole('log', { name: 'Conversation' });
    await log.waitFor({ state: 'attached', timeout: 10000 });
    await page.waitForFunction((n) => document.querySelectorAll('#a11y [role=log] [role=article]').length === n,
      state.room.messages.length, { timeout: 10000 });
    const items = await log.getByRole('article').evaluateAll((els) => els.map((el) => ({
      text: el.querySelector('.a11y-text').textContent,
      controls: [...el.querySelectorAll('button')].map((b) => b.textContent) })));
    assert.deepEqual(items.map((i) => i.text), state.room.messages.map((m) => {
      const who = m.name || 'Unknown member';
      return `${who}, ${m.time_text}: ${m.text}`;
    }), 'each item reads as the message is drawn, in order');
    assert.ok(items.every((i) => i.controls.includes('Reply') && i.controls.includes('Quote')),
      `each message holds its own controls: ${JSON.stringify(items.map((i) => i.controls))}`);
    assert.equal(items.filter((i) => /^Bob Example, .*: To Alice Example/.test(i.text)).length, 1,
      'Bob\'s mention reads without its tag');
    if (regions.room_list) {
      const rooms = page.getByRole('list', { name: 'Rooms' });
      assert.equal(await rooms.getByRole('listitem').count(), state.rooms.length, 'the rooms are a list');
      assert.ok((await rooms.getByRole('listitem').first().textContent()).includes(state.rooms[0].name),
        'in the order drawn');
    }
    assert.equal(await page.getByRole('textbox', { name: 'Message', exact: true }).count(), 1, 'the composer is a labelled field');

    // The details never lie over the conversation's text or the composer:
    // beside them (1366: a third pane; 1000: beside, the conversation
    // narrower), or the whole pane with a way back (390).
    await clickWidget(page, 'details_toggle');
    const details = await widgetRect(page, 'details');
    if (width >= 800) {
      const beside = { conversation: await widgetRect(page, 'conversation'), composer: await widgetRect(page, 'composer'),
        details };
      const list = await page.evaluate(() => window.roomkey.widget('room_list'));
      if (list) beside.room_list = list;
      assertWorkspaceRegions(beside, width, height);
      assert.ok(beside.conversation.width < regions.conversation.width, 'the conversation narrows beside the details');
    } else {
      assert.ok(details.x >= 0 && details.x + details.width <= width + 1 && details.y + details.height <= height + 1,
        `the details on screen: ${JSON.stringify(details)}`);
      assert.equal(await page.evaluate(() => window.roomkey.widget('conversation')), null, 'the details take the pane');
      await widgetRect(page, 'back');
    }
    await page.screenshot({ path: join(artifacts, `workspace_details_${width}x${height}.png`) });
    // Every tab's label whole, inside the details: each tab as wide as its
    // label measured in the app's font (shell/text_layer.js's), none cut short.
    const opened = await appState(page);
    for (const [name, label] of [['tasks_tab', `Tasks (${opened.room.tasks.length})`],
      ['members_tab', `Members (${opened.room.members.length})`], ['files_tab', `Files (${opened.room.files.length})`]]) {
      const box = await widgetRect(page, name, { timeoutMs: 10000 });
      const needs = await page.evaluate((text) => {
        const ctx = document.createElement('canvas').getContext('2d');
        ctx.font = `15px ${window.roomkey._font.font.replace(/^[\d.]+px /, '')}`;
        return ctx.measureText(text).width;
      }, label);
      assert.ok(box.width >= needs - 1, `"${label}": the tab ${JSON.stringify(box)} holds its ${needs} px label`);
      assert.ok(box.x >= details.x - 1 && box.x + box.width <= details.x + details.width + 1,
        `"${label}" inside the details ${JSON.stringify(details)}: ${JSON.stringify(box)}`);
    }
    await clickWidget(page, 'files_tab');
    await widgetRect(page, 'upload_file');
    await page.screenshot({ path: join(artifacts, `workspace_details_files_${width}x${height}.png`) });
    if (width < 800) {
      await clickWidget(page, 'back');
    } else {
      await clickWidget(page, 'details_toggle');
    }
    await widgetRect(page, 'conversation');

    // The developer view is one click away, and back.
    await clickWidget(page, 'developer');
    const developer = await waitForState(page, (s) => s.view === 'developer', 'the developer view');
    // state() and widget() describe the same frame: once the switch's own
    // frame is drawn (widget().frame >= state().frame), the workspace is gone.
    assert.equal(typeof developer.frame, 'number');
    await page.waitForFunction((f) => { const w = window.roomkey.widget('developer'); return w && w.frame >= f; },
      developer.frame, { timeout: 30000 });
    assert.equal(await page.evaluate(() => window.roomkey.widget('conversation')), null, 'the workspace gave way');
    await clickWidget(page, 'developer');
    await waitForState(page, (s) => s.view === 'workspace', 'the workspace again');
    await widgetRect(page, 'conversation');
    if (width < 800) {
      // One pane at a time: back goes to the room list.
      await clickWidget(page, 'back');
      await widgetRect(page, 'room_list');
      assert.equal(await page.evaluate(() => window.roomkey.widget('conversation')), null);
    }
    await page.close();
  });
}

// Times where the user is, in their zone and locale
// (Intl): here American English in Tokyo, so a message's time reads "7:13
// PM", not the digits "19:13" or UTC. time_text is the time as drawn.
test('times are written in the browser\'s time zone and locale', async () => {
  const page = await browser.context.newPage();
  const cdp = await browser.context.newCDPSession(page);
  await cdp.send('Emulation.setLocaleOverride', { locale: 'en-US' });
  await cdp.send('Emulation.setTimezoneOverride', { timezoneId: 'Asia/Tokyo' });
  const state = await openRoom(page, 1366, 800);
  const expected = await page.evaluate((messages) => {
    const today = new Date().toDateString();
    const clock = { hour: 'numeric', minute: '2-digit' };
    const dated = { year: 'numeric', month: '2-digit', day: '2-digit', ...clock };
    return {
      locale: Intl.DateTimeFormat().resolvedOptions().locale,
      zone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      times: messages.map((m) => {
        const at = new Date(m.send_time * 1000);
        return new Intl.DateTimeFormat(undefined, at.toDateString() === today ? clock : dated).format(at)
          .replace(/[\u00a0\u2009\u202f]/g, ' ');
      }),
    };
  }, state.room.messages);
  assert.equal(expected.locale, 'en-US');
  assert.equal(expected.zone, 'Asia/Tokyo');
  assert.deepEqual(state.room.messages.map((m) => m.time_text), expected.times);
  assert.ok(state.room.messages.every((m) => / (AM|PM)$/.test(m.time_text)), 'a 12-hour clock, as en-US writes it');
  await page.close();
});

// Types the composer's text after what a reply or quote put there, and sends.
async function sendFromComposer(page, extra) {
  await drawn(page);
  await clickWidget(page, 'message');
  await page.waitForFunction(() => {
    const el = document.activeElement;
    return el && el.closest('#a11y') !== null;
  }, null, { timeout: 30000 });
  await page.keyboard.press('Control+End');
  await page.keyboard.type(extra);
  await clickWidget(page, 'queue_message');
}

async function sandboxMessages() {
  return sandboxApiJson(stack, demoUsers.bob, 'GET', `/rooms/${ROOM}/messages?force=1`);
}

async function waitForSandbox(predicate, what) {
  const deadline = Date.now() + 30000;
  let last;
  while (Date.now() < deadline) {
    last = await sandboxMessages();
    const found = last.find(predicate);
    if (found) return found;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the sandbox never had ${what}: ${JSON.stringify(last.map((m) => m.body))}`);
}

test('reply and quote from the composer, edit and delete, a task reopened: all reach the sandbox', async () => {
  const page = await browser.context.newPage();
  const state = await openRoom(page, 1366, 800);
  const bob = state.room.messages.find((m) => m.body.startsWith('[To:1001]'));

  await act(page, { type: 'reply', room_id: ROOM, message_id: bob.message_id });
  await sendFromComposer(page, 'on it');
  const reply = await waitForSandbox((m) => m.body.endsWith('on it') && m.account.account_id === 1001,
    'the reply');
  assert.ok(reply.body.startsWith(`[rp aid=1002 to=${ROOM}-${bob.message_id}]`), reply.body);

  await act(page, { type: 'quote', room_id: ROOM, message_id: bob.message_id });
  await sendFromComposer(page, 'quoted');
  const quote = await waitForSandbox((m) => m.body.endsWith('quoted') && m.body.includes('[qt]'), 'the quote');
  assert.match(quote.body, new RegExp(`^\\[qt\\]\\[qtmeta aid=1002 time=${bob.send_time}\\]\\[To:1001\\]`));

  // The app reads the reply back: whom it answers, without tags.
  let s = await waitForState(page, (st) => st.room.messages.some((m) => m.message_id === String(reply.message_id)),
    'the reply in the conversation');
  const shown = s.room.messages.find((m) => m.message_id === String(reply.message_id));
  assert.deepEqual(shown.reply_to, { account_id: '1002', message_id: bob.message_id });
  assert.doesNotMatch(shown.text, /\[rp/);

  // Edit, then delete (asked first) Alice's own reply.
  await act(page, { type: 'edit_message', room_id: ROOM, message_id: shown.message_id, body: 'edited reply' });
  await waitForSandbox((m) => String(m.message_id) === shown.message_id && m.body === 'edited reply', 'the edit');
  s = await waitForState(page, (st) => st.room.messages.some((m) => m.message_id === shown.message_id && m.edited),
    'the edit shown');
  await act(page, { type: 'delete_message', room_id: ROOM, message_id: shown.message_id });
  await waitForState(page, (st) => st.console.confirm !== null, 'the question before the delete');
  assert.ok((await sandboxMessages()).some((m) => String(m.message_id) === shown.message_id), 'not deleted yet');
  await act(page, { type: 'confirm_api_call' });
  await waitForState(page, (st) => !st.room.messages.some((m) => m.message_id === shown.message_id),
    'the message gone from the conversation');
  const gone = await sandboxApi(stack, demoUsers.bob, 'GET', `/rooms/${ROOM}/messages/${shown.message_id}`);
  assert.ok(gone.status >= 400 || !JSON.parse(gone.text).body, `deleted at the sandbox: ${gone.status} ${gone.text}`);

  // A task done, then reopened, is open at the sandbox.
  const done = s.room.tasks.find((t) => t.status === 'open');
  assert.ok(done, 'the demo room has an open task');
  await act(page, { type: 'complete_task', room_id: ROOM, task_id: done.task_id });
  await waitForState(page, (st) => st.room.tasks.some((t) => t.task_id === done.task_id && t.status === 'done'),
    'the task done');
  assert.equal((await sandboxApiJson(stack, demoUsers.alice, 'GET', `/rooms/${ROOM}/tasks/${done.task_id}`)).status,
    'done');
  await act(page, { type: 'reopen_task', room_id: ROOM, task_id: done.task_id });
  await waitForState(page, (st) => st.room.tasks.some((t) => t.task_id === done.task_id && t.status === 'open'),
    'the task open again');
  const task = await sandboxApiJson(stack, demoUsers.alice, 'GET', `/rooms/${ROOM}/tasks/${done.task_id}`);
  assert.equal(task.status, 'open');
  await page.close();
});

// With notifications on and the permission granted, Bob's
// mention in a room that is not open raises the title's count at the room
// list's next read, and one desktop notification names the room and shows
// the mention's text; its click opens the room.
test('a mention in another room: the title counts it, one notification names the room, its click opens it', async () => {
  await browser.context.grantPermissions(['notifications'], { origin: stack.origin });
  const page = await browser.context.newPage();
  await recordNotifications(page);
  await openApp(page, stack.url);
  await act(page, { type: 'use_api_token', token: demoUsers.alice.apiToken });
  let state = await waitForState(page, (s) => s.account && s.rooms.length > 0 && !s.loading, 'the rooms');
  await act(page, { type: 'set_notifications', on: true });
  state = await waitForState(page, (s) => s.notifications.enabled && s.notifications.permission === 'granted',
    'notifications on');
  const before = state.rooms.reduce((n, r) => n + r.mention_num, 0);
  const random = state.rooms.find((r) => r.name === 'Random');
  const posted = await sandboxApi(stack, demoUsers.bob, 'POST', `/rooms/${random.room_id}/messages`,
    { body: '[To:1001]Alice Example lunch is ready' });
  assert.equal(posted.status, 200, posted.text);
  state = await waitForState(page, (s) => s.rooms.reduce((n, r) => n + r.mention_num, 0) > before,
    'the mention counted at the next read of the room list', 90000);
  const total = state.rooms.reduce((n, r) => n + r.mention_num, 0);
  assert.equal(state.title, `(${total}) roomkey`);
  await page.waitForFunction((t) => document.title === t, state.title, { timeout: 10000 });
  await page.waitForFunction(() => window.__notes.length > 0, null, { timeout: 10000 });
  const notes = await page.evaluate(() => window.__notes.map((n) => ({ title: n.title, body: n.body })));
  assert.equal(notes.length, 1, `one notification: ${JSON.stringify(notes)}`);
  assert.equal(notes[0].title, 'Random');
  // The mention's text as a reader sees it (the room read with force=1 for it), not a count.
  assert.equal(notes[0].body, 'Bob Example: To Alice Example lunch is ready');
  await page.evaluate(() => window.__notes[0].note.onclick());
  await waitForState(page, (s) => s.room && s.room.room_id === random.room_id && s.view === 'workspace',
    'the room opened by the click');
  await page.close();
});
