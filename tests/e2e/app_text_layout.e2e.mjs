// app_text_layout.e2e.mjs: text laid out as a reader expects, in Chromium at
// 1366x800: a room whose name is longer than the room list keeps its
// mention and unread badges on screen at the row's right end (the name
// gives way, ending in an ellipsis). Line breaking itself (UAX #14 with the
// Japanese rules) is unit-tested in tests/unit/line_break_test.cpp.
// Screenshot: e2e-artifacts/room_list_long_name.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openApp, act, waitForState, demoUsers, decodePng, artifacts, sandboxApi, sandboxApiJson, widgetRect,
  withStackAndBrowser } from './support.mjs';

let stack; let browser;
withStackAndBrowser((s, b) => { stack = s; browser = b; });

test('a room name longer than the list keeps its badges on screen', async () => {
  const name = '開発チーム / Dev team 🚀 with a name far longer than the room list is wide, and then some';
  const { room_id: id } = await sandboxApiJson(stack, demoUsers.alice, 'POST', '/rooms',
    { name, members_admin_ids: demoUsers.alice.accountId, members_member_ids: demoUsers.bob.accountId });
  const roomId = String(id);
  for (const body of [`[To:${demoUsers.alice.accountId}]Alice Example look`, 'and this']) {
    assert.equal((await sandboxApi(stack, demoUsers.bob, 'POST', `/rooms/${roomId}/messages`, { body })).status, 200);
  }
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 1366, height: 800 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await openApp(page, stack.url);
  await act(page, { type: 'use_api_token', token: demoUsers.alice.apiToken });
  await act(page, { type: 'show_view', view: 'workspace' });
  await waitForState(page, (s) => s.account && !s.loading && s.rooms.some((r) => r.room_id === roomId &&
    r.unread_num > 0 && r.mention_num > 0), 'the long-named room with unread messages and a mention');
  const list = await widgetRect(page, 'room_list');
  const row = page.getByRole('button', { name: new RegExp('^開発チーム / Dev team') });
  await row.waitFor({ state: 'attached', timeout: 10000 });
  const box = await row.boundingBox();
  assert.ok(box, 'the room is a row of the list');
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.screenshot({ path: join(artifacts, 'room_list_long_name.png'),
    clip: { x: list.x, y: box.y - 4, width: list.width, height: box.height + 8 } });
  // The unread badge is a pill in the accent colour, inside the list, at the row's right end.
  const right = Math.min(box.x + box.width, list.x + list.width);
  const clip = { x: right - 70, y: box.y, width: 70, height: Math.max(1, box.height) };
  const png = decodePng(await page.screenshot({ clip }));
  let accent = 0;
  for (let i = 0; i < png.pixels.length; i += png.channels) {
    const [r, g, b] = [png.pixels[i], png.pixels[i + 1], png.pixels[i + 2]];
    if (Math.abs(r - 92) < 30 && Math.abs(g - 158) < 30 && Math.abs(b - 250) < 30) accent += 1;
  }
  assert.ok(accent > 30, `the unread badge is drawn at the row's right end, inside the list (${accent} accent pixels)`);
  await page.close();
});
