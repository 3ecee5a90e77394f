// app_conversation.e2e.mjs: what the user wrote stays in the conversation
// until the service has it, and reading marks read, against the real
// sandbox and helper in Chromium:
// - the sandbox stopped: a post stands at the bottom of the conversation as
//   waiting ("Not sent: ... Retrying at ..."), then is sent when the sandbox
//   is back, exactly once;
// - the session ends while a post waits (the restarted sandbox forgot the
//   grant, so the refresh is refused): another account signed in is not
//   offered it and does not send it; the same account, signed in again (a
//   new page load at the callback), is offered it and sends it once;
// - "Try again" after a denied consent starts a new sign-in;
// - a room with unread messages opens at the first unread under "New
//   messages" with "Jump to latest", and is marked read at the sandbox once
//   it is seen to its newest message;
// - a task Bob adds at the sandbox is in Alice's Tasks tab after the room
//   poll that brings its message (the poll reads the tasks again).
// Screenshots at 1366x800, 1000x700 and 390x844 go to ROOMKEY_ARTIFACTS.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import { act, appState, artifacts, clickWidget, demoUsers, passConsent, sandboxApi, sandboxApiJson, stopProgram,
  waitForState, widgetRect, withStackAndBrowser } from './support.mjs';
import { faultKit, countOf, ROOM } from './faults_support.mjs';

let stack; let browser;
withStackAndBrowser((s, b) => { stack = s; browser = b; });
const { roomBodies, restartSandbox, signInWithApiToken } = faultKit(() => stack);
const SCOPE = 'users.all:read rooms.all:read_write';

async function shot(page, name, width, height) {
  mkdirSync(artifacts, { recursive: true });
  await page.setViewportSize({ width, height });
  // Drawn at this size: a widget placed by a frame at least as new as the state.
  await widgetRect(page, 'conversation');
  await page.screenshot({ path: join(artifacts, `conversation_${name}_${width}x${height}.png`) });
}

const pendingOf = (s, body) => s.room && s.room.messages.find((m) => m.body === body && m.pending);

test('the sandbox stopped: a post stands in the conversation as waiting, then is sent exactly once', async () => {
  const page = await browser.context.newPage();
  await signInWithApiToken(page);
  await act(page, { type: 'open_room', room_id: ROOM });
  await waitForState(page, (s) => s.room && s.room.room_id === ROOM && !s.room.loading, 'the room open');
  await stopProgram(stack.sandbox);
  const body = `written during the outage ${Date.now()}`;
  await act(page, { type: 'post_message', room_id: ROOM, body });
  const waiting = await waitForState(page, (s) => pendingOf(s, body) && pendingOf(s, body).pending === 'waiting',
    'the post waiting where it stands');
  const post = pendingOf(waiting, body);
  assert.ok(post.local_id, 'a local_id to act on');
  assert.equal(waiting.room.messages.at(-1).local_id, post.local_id, 'at the bottom of the conversation');
  assert.match(post.note, /^Not sent: the service can't be reached\. Retrying at \d\d:\d\d:\d\d$/, post.note);
  for (const [width, height] of [[390, 844], [1000, 700], [1366, 800]]) await shot(page, 'waiting', width, height);

  await restartSandbox();
  await act(page, { type: 'retry_post', local_id: post.local_id });  // Retry now
  const sent = await waitForState(page, (s) => s.room.messages.some((m) => m.body === body && !m.pending &&
    m.message_id), 'the service\'s message in its place', 60000);
  assert.equal(sent.room.messages.filter((m) => m.body === body).length, 1, 'shown once');
  assert.equal(countOf(await roomBodies(), body), 1, 'delivered exactly once');
  await page.close();
});

test('the session ends while a post waits: another account does not send it, the same account is offered it and sends it once', async () => {
  const page = await browser.context.newPage();
  await page.goto(stack.url);
  await waitForState(page, (s) => s.config && s.config.loaded, 'the app');
  await act(page, { type: 'sign_in', scope: SCOPE });
  await passConsent(page, stack, demoUsers.alice, 'allow');
  await waitForState(page, (s) => s.session === 'signed in' && s.account && !s.loading && s.selected_room,
    'signed in as Alice');
  await act(page, { type: 'open_room', room_id: ROOM });
  await waitForState(page, (s) => s.room && s.room.room_id === ROOM && !s.room.loading, 'the room open');

  await stopProgram(stack.sandbox);
  const body = `kept across the session's end ${Date.now()}`;
  await act(page, { type: 'post_message', room_id: ROOM, body });
  await waitForState(page, (s) => pendingOf(s, body) && pendingOf(s, body).pending === 'waiting', 'the post waiting');
  // The sandbox back without the grant: the refresh is refused, the session ends.
  await restartSandbox();
  const ended = await waitForState(page, (s) => s.session !== 'signed in' && !s.account, 'the session ended', 90000);
  assert.equal(ended.waiting_posts.length, 0, 'offered to nobody while nobody is signed in');
  const stored = await page.evaluate(() => window.sessionStorage.getItem('roomkey.waiting_posts'));
  assert.ok(stored.includes(body) && stored.includes(demoUsers.alice.accountId), 'kept in the tab with its account');
  assert.ok(!/token|Bearer/i.test(stored), 'never with a token');

  // Bob in the same tab: not offered, not sent.
  await act(page, { type: 'use_api_token', token: demoUsers.bob.apiToken });
  const bob = await waitForState(page, (s) => s.account && s.account.account_id === demoUsers.bob.accountId &&
    !s.loading, 'Bob signed in');
  assert.deepEqual(bob.waiting_posts, [], 'never offered to another account');
  assert.equal(countOf(await roomBodies(), body), 0, 'never sent as another account');

  // Alice again: a new page load at the callback reads the tab's storage.
  await act(page, { type: 'sign_in', scope: SCOPE });
  await passConsent(page, stack, demoUsers.alice, 'allow');
  const offered = await waitForState(page, (s) => s.account && s.account.account_id === demoUsers.alice.accountId &&
    s.waiting_posts && s.waiting_posts.length === 1, 'the waiting post offered to Alice', 60000);
  assert.equal(offered.waiting_posts[0].body, body);
  assert.equal(offered.waiting_posts[0].room_id, ROOM);
  assert.equal(offered.waiting_posts[0].account_id, demoUsers.alice.accountId);
  await act(page, { type: 'open_room', room_id: ROOM });
  await waitForState(page, (s) => s.room && s.room.room_id === ROOM && !s.room.loading, 'the room open');
  await shot(page, 'offered', 1000, 700);
  await clickWidget(page, 'waiting_send');
  await waitForState(page, (s) => s.waiting_posts.length === 0 && !s.posts.some((p) => p.body === body),
    'sent', 60000);
  const messages = await sandboxApiJson(stack, demoUsers.alice, 'GET', `/rooms/${ROOM}/messages?force=1`);
  const found = messages.filter((m) => m.body === body);
  assert.equal(found.length, 1, 'sent exactly once');
  assert.equal(String(found[0].account.account_id), demoUsers.alice.accountId, 'as the account that wrote it');
  await page.close();
});

test('a room with unread messages opens at the first unread and is marked read when seen to its newest', async () => {
  // Alice has read the room; Bob then writes nine long messages.
  await sandboxApi(stack, demoUsers.alice, 'PUT', `/rooms/${ROOM}/messages/read`);
  const ids = [];
  for (let i = 1; i <= 9; ++i) {
    const lines = Array.from({ length: 8 }, (_, n) => `unread ${i}, line ${n + 1}`).join('\n');
    const posted = await sandboxApiJson(stack, demoUsers.bob, 'POST', `/rooms/${ROOM}/messages`, { body: lines });
    ids.push(posted.message_id);
  }
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 1366, height: 800 });
  await signInWithApiToken(page);
  let state = await appState(page);
  assert.equal(state.room_unread[ROOM], 9, 'nine unread at the service');
  await act(page, { type: 'open_room', room_id: ROOM });
  state = await waitForState(page, (s) => s.room && s.room.room_id === ROOM && s.room.first_unread_id,
    'the room opened at its first unread');
  assert.equal(state.room.first_unread_id, ids[0]);
  await widgetRect(page, 'jump_latest');  // the newest is below: not seen yet
  // The first unread starts at the top of the log, under the "New messages"
  // line (drawn above it): the reader starts where the unread begins.
  const log = await widgetRect(page, 'conversation');
  const first = await page.$$eval('#a11y [role=log] [role=article] .a11y-text', (els) => els
    .filter((e) => e.textContent.includes('unread 1, line 1'))
    .map((e) => { const r = e.getBoundingClientRect(); return { y: r.y, height: r.height }; }));
  assert.equal(first.length, 1, 'the first unread message is in the log');
  assert.ok(first[0].height > 1 && first[0].y >= log.y + 10 && first[0].y < log.y + log.height / 3,
    `the first unread is at the top of the log, below its "New messages" line (its text at y ${first[0].y}, the log ${log.y}..${log.y + log.height})`);
  state = await appState(page);
  assert.equal(state.room_unread[ROOM], 9, 'not marked read before the newest is seen');
  await shot(page, 'first_unread', 1366, 800);

  await clickWidget(page, 'jump_latest');
  await waitForState(page, (s) => s.room_unread[ROOM] === 0, 'marked read once seen to the newest');
  const room = await sandboxApiJson(stack, demoUsers.alice, 'GET', `/rooms/${ROOM}`);
  assert.equal(room.unread_num, 0, 'read at the sandbox');
  state = await appState(page);
  assert.equal(state.room.first_unread_id, ids[0], 'the "New messages" line stays while the room is open');
  for (const [width, height] of [[390, 844], [1000, 700], [1366, 800]]) await shot(page, 'read', width, height);
  await page.close();
});

test('a task added from another account is in the Tasks tab after the room poll that brings its message', async () => {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 1366, height: 800 });
  await signInWithApiToken(page);
  await act(page, { type: 'open_room', room_id: ROOM });
  await waitForState(page, (s) => s.room && s.room.room_id === ROOM && !s.room.loading && s.room.tasks.length > 0,
    'the room and its tasks');
  await act(page, { type: 'show_details', tab: 'tasks' });
  await widgetRect(page, 'details');
  // The room's reads in the order their answers came, from the moment the
  // sandbox has the task: the tasks are read again after the poll that
  // brings its message (one poll may already be under way as it is added).
  const body = `a task from Bob ${Date.now()}`;
  const reads = [];
  let armed = false;
  page.on('response', (r) => {
    const url = new URL(r.url());
    if (!armed || r.request().method() !== 'GET') return;
    if (url.pathname.endsWith(`/rooms/${ROOM}/messages`)) reads.push('poll');
    else if (url.pathname.endsWith(`/rooms/${ROOM}/tasks`)) reads.push('tasks');
  });
  // The room's post window (10 in 10 s, spec 8.2) may still be full from the test before: until it takes it.
  let added = null;
  for (let turn = 0; turn < 30 && !(added && added.status === 200); ++turn) {
    if (added) await new Promise((r) => setTimeout(r, 1000));
    added = await sandboxApi(stack, demoUsers.bob, 'POST', `/rooms/${ROOM}/tasks`, { body, to_ids: demoUsers.alice.accountId });
    assert.ok([200, 429].includes(added.status), added.text);
  }
  assert.equal(added.status, 200, added.text);
  armed = true;
  const listed = await waitForState(page, (s) => s.room.tasks.some((t) => t.body === body),
    'the task in the room\'s task list', 90000);
  assert.equal(listed.room.tasks.find((t) => t.body === body).status, 'open');
  const polls = reads.indexOf('tasks');
  assert.ok(polls >= 1 && polls <= 2, `the tasks read after the first poll or two: ${JSON.stringify(reads)}`);
  await widgetRect(page, 'details');  // the Tasks tab drawn with it
  await page.close();
});

test('"Try again" after a denied consent starts a new sign-in', async () => {
  const page = await browser.context.newPage();
  await page.goto(stack.url);
  await waitForState(page, (s) => s.config && s.config.loaded, 'the app');
  await act(page, { type: 'sign_in', scope: SCOPE });
  await passConsent(page, stack, demoUsers.alice, 'deny');
  await waitForState(page, (s) => s.last_error && s.last_error.try_again, 'the denial, with Try again');
  await Promise.all([page.waitForURL((u) => u.origin === stack.sandbox.origin, { timeout: 30000 }),
    clickWidget(page, 'try_again')]);
  await page.close();
});
