// app_large_account.e2e.mjs: a real-sized account in Chromium through helper
// and sandbox (roomkey-sandbox generate, loaded with --fixture): Alice's 300
// rooms are all in state().rooms with the badges the service counts, the
// list draws them; the long room's 100 messages are all in the
// conversation's log, and the wheel scrolls it to the top and back, each
// message drawn with its controls when it comes on screen (only the rows on
// screen are drawn: web/app/message_layout.hpp); the room list draws only
// the rows on screen too.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { launchBrowser, startStack, stopStack, openApp, act, waitForState, demoUsers, binDir, freshStateDir,
  appOnlyTest, widgetRect, sandboxApiJson } from './support.mjs';

const ROOMS = 300;
let stack; let browser; let fixtureDir;

before(async () => {
  fixtureDir = freshStateDir();
  const fixture = join(fixtureDir, 'large.json');
  execFileSync(join(binDir, 'roomkey-sandbox'), ['generate', '--rooms', String(ROOMS), '--out', fixture]);
  stack = await startStack({ sandboxArgs: ['--fixture', fixture] });
  browser = await launchBrowser();
});

after(async () => {
  if (browser) await browser.close();
  await stopStack(stack);
  if (fixtureDir) rmSync(fixtureDir, { recursive: true, force: true });
});

test('300 rooms with their badges, and the long room scrolled to the top and back', async () => {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 1366, height: 800 });
  // The long room read at the service: a room with unread messages opens at
  // the first of them, one without at its newest, where this test starts.
  const listed = await sandboxApiJson(stack, demoUsers.alice, 'GET', '/rooms');
  const longRoom = listed.find((r) => r.name.includes('Long'));
  await sandboxApiJson(stack, demoUsers.alice, 'PUT', `/rooms/${longRoom.room_id}/messages/read`);
  await openApp(page, stack.url);
  await act(page, { type: 'use_api_token', token: demoUsers.alice.apiToken });
  const state = await waitForState(page, (s) => s.account && s.status && s.room_count === ROOMS &&
    s.rooms.length === ROOMS && !s.loading, `all ${ROOMS} rooms in state().rooms`, 60000);
  // The badges are the service's: as many rooms with unread messages and
  // with mentions as /my/status counts.
  assert.ok(state.status.unread_room_num > 0 && state.status.mention_room_num > 0, JSON.stringify(state.status));
  assert.equal(state.rooms.filter((r) => r.unread_num > 0).length, state.status.unread_room_num);
  assert.equal(state.rooms.filter((r) => r.mention_num > 0).length, state.status.mention_room_num);
  assert.equal(new Set(state.rooms.map((r) => r.room_id)).size, ROOMS, 'each room once');
  // The list draws them in that order, the first with its badge.
  const list = page.getByRole('list', { name: 'Rooms' });
  const first = state.rooms[0];
  await list.getByRole('listitem').first().waitFor({ state: 'attached', timeout: 10000 });
  const firstText = await list.getByRole('listitem').first().textContent();
  assert.ok(firstText.includes(first.name), `the first row is ${first.name}: ${firstText}`);
  if (first.mention_num > 0) assert.ok(firstText.includes(`@${first.mention_num}`), firstText);
  else if (first.unread_num > 0) assert.ok(firstText.includes(`${first.unread_num} unread`), firstText);

  // The long room: every message in the log, the newest on screen.
  const long = state.rooms.reduce((a, b) => (b.name.includes('Long') ? b : a), state.rooms[0]);
  assert.ok(long.name.includes('Long'), 'the fixture has its long room');
  await act(page, { type: 'open_room', room_id: long.room_id });
  const room = await waitForState(page, (s) => s.room && s.room.room_id === long.room_id && !s.room.loading &&
    s.room.messages.length >= 100, 'the long room\'s messages', 60000);
  const items = page.getByRole('log', { name: 'Conversation' }).getByRole('article');
  await page.waitForFunction((n) => document.querySelectorAll('#a11y [role=log] [role=article]').length === n,
    room.room.messages.length, { timeout: 10000 });
  const view = await widgetRect(page, 'conversation');
  const onScreen = async (item) => {
    const box = await item.locator('.a11y-text').boundingBox();
    return !!box && box.height > 0 && box.y >= view.y - 1 && box.y < view.y + view.height;
  };
  const until = async (what, done, step) => {
    for (let i = 0; i < 400; i++) {
      if (await done()) return;
      await step();
    }
    assert.fail(what);
  };
  const settle = () => page.waitForFunction(() => window.roomkey.widget('conversation').frame >=
    window.roomkey.state().frame, null, { timeout: 10000 });
  await until('the newest message comes on screen', () => onScreen(items.last()), settle);
  assert.ok(!(await onScreen(items.first())), 'the oldest is scrolled out');

  // The wheel to the top: the oldest message drawn, with its controls.
  await page.mouse.move(view.x + view.width / 2, view.y + view.height / 2);
  await until('the wheel reaches the oldest message', () => onScreen(items.first()), async () => {
    await page.mouse.wheel(0, -400);
    await settle();
  });
  assert.equal(await items.first().getByRole('button', { name: 'Reply' }).count(), 1,
    'a message drawn holds its controls');
  assert.ok(!(await onScreen(items.last())), 'the newest is scrolled out');
  // And back to the newest.
  await until('the wheel comes back to the newest message', () => onScreen(items.last()), async () => {
    await page.mouse.wheel(0, 400);
    await settle();
  });
  assert.equal(await items.last().getByRole('button', { name: 'Reply' }).count(), 1);
  assert.equal(await items.count(), room.room.messages.length, 'the log still holds every message');
  // After the scroll each item still reads as its message (a text that stayed is kept, not lost).
  const read = await items.evaluateAll((all) => all.map((a) => a.textContent));
  const { messages } = (await page.evaluate(() => window.roomkey.state())).room;
  for (let i = 0; i < messages.length; i++) {
    assert.ok(read[i].includes(messages[i].text.slice(0, 12)), `item ${i} reads as its message: ${read[i].slice(0, 80)}`);
  }
  await page.close();
});

// The room list draws only the rows on screen (web/src/ui_room_list.cpp's
// clipper): the accessibility tree lists the rows drawn, so their count is
// what a frame lays out. Of 300 rooms it holds a screen's worth, a
// contiguous run of state().rooms, and the wheel moves that run down.
appOnlyTest('the room list draws only the rows on screen', async () => {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 1366, height: 800 });
  await openApp(page, stack.url);
  await act(page, { type: 'use_api_token', token: demoUsers.alice.apiToken });
  const state = await waitForState(page, (s) => s.room_count === ROOMS && s.rooms.length === ROOMS && !s.loading,
    `all ${ROOMS} rooms in state().rooms`, 60000);
  const list = page.getByRole('list', { name: 'Rooms' });
  await list.getByRole('listitem').first().waitFor({ state: 'attached', timeout: 10000 });
  const drawn = () => list.getByRole('listitem').evaluateAll((items) => items.map((li) => {
    const box = li.querySelector('button').getBoundingClientRect();
    return { text: li.textContent, top: box.top, bottom: box.bottom };
  }));
  // A row reads as its room: the name (after "* " when sticky), then its badges.
  const isRow = (text, room) => {
    const name = (room.sticky ? '* ' : '') + room.name;
    return text === name || text.startsWith(`${name}  `);
  };
  // The rows drawn: as many as the window holds, each on screen, and the
  // rooms of state().rooms from `first` on, in order. Answers `first`.
  const check = (rows, what) => {
    assert.ok(rows.length > 0, `${what}: rows are drawn`);
    const rowHeight = rows[0].bottom - rows[0].top;
    assert.ok(rowHeight > 0, `${what}: a row has a height`);
    assert.ok(rows.length <= Math.ceil(800 / rowHeight) + 2,
      `${what}: ${rows.length} rows of ${rowHeight} px drawn in an 800 px window`);
    for (const row of rows) {
      assert.ok(row.bottom > 0 && row.top < 800, `${what}: row on screen: ${JSON.stringify(row)}`);
    }
    const first = state.rooms.findIndex((r) => isRow(rows[0].text, r));
    assert.ok(first >= 0, `${what}: the first row is a room: ${rows[0].text}`);
    rows.forEach((row, i) => assert.ok(first + i < ROOMS && isRow(row.text, state.rooms[first + i]),
      `${what}: row ${i} is room ${first + i} of state().rooms: ${row.text}`));
    return first;
  };
  const top = await drawn();
  assert.equal(check(top, 'at the top'), 0, 'the list starts at the first room');

  // The wheel over the list: later rooms come on screen, still a screen's worth.
  const box = await list.getByRole('listitem').nth(Math.floor(top.length / 2)).locator('button').boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  let rows = top;
  for (let i = 0; i < 100 && rows[0].text === top[0].text; i++) {
    await page.mouse.wheel(0, 600);
    await page.waitForFunction(() => window.roomkey.widget('room_filter').frame >= window.roomkey.state().frame,
      null, { timeout: 10000 });
    rows = await drawn();
  }
  assert.ok(check(rows, 'scrolled') > 0, 'the wheel scrolled the list: later rooms are drawn');
  await page.close();
});
