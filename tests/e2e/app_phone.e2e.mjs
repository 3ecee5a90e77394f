// app_phone.e2e.mjs: a phone is a phone (a touch screen, 390x844 CSS px):
// the header is one line, its controls in a menu; the composer's controls
// are at least 44 CSS px tall; no keyboard hints are shown. Screenshot:
// phone_390x844.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openApp, act, waitForState, widgetRect, tapWidget, demoUsers, artifacts, withStackAndBrowser }
  from './support.mjs';

const ROOM = '2100';
let stack; let browser;
withStackAndBrowser((s, b) => { stack = s; browser = b; }, {}, { phone: true });

test('on a phone: one header line with a menu, finger-sized controls, no keyboard hints', async () => {
  const page = await browser.context.newPage();
  await openApp(page, stack.url);
  await act(page, { type: 'use_api_token', token: demoUsers.alice.apiToken });
  await waitForState(page, (s) => s.account && s.rooms.length > 0 && !s.loading, 'the rooms');
  await act(page, { type: 'open_room', room_id: ROOM });
  await waitForState(page, (s) => s.room && s.room.room_id === ROOM && !s.room.loading, 'room 2100 open');
  const menu = await widgetRect(page, 'menu');
  const conversation = await widgetRect(page, 'conversation');
  assert.ok(menu.height >= 44, `the menu is finger-sized: ${JSON.stringify(menu)}`);
  assert.ok(menu.y + menu.height < 70 && conversation.y < 844 / 4,
    `one header line; the conversation in the top quarter: menu ${JSON.stringify(menu)}, ` +
    `conversation ${JSON.stringify(conversation)}`);
  assert.equal(await page.evaluate(() => window.roomkey.widget('sign_out')), null, 'Sign out is in the menu');
  for (const name of ['queue_message', 'attach']) {
    const r = await widgetRect(page, name);
    assert.ok(r.height >= 44, `${name} is at least 44 CSS px tall: ${JSON.stringify(r)}`);
  }
  assert.equal(await page.evaluate(() => window.roomkey.widget('queue_hint')), null, 'no keyboard hint on touch');
  await page.screenshot({ path: join(artifacts, 'phone_390x844.png') });
  await tapWidget(page, 'menu');
  const signOut = await widgetRect(page, 'sign_out');
  assert.ok(signOut.height >= 44 && signOut.x + signOut.width <= 390, JSON.stringify(signOut));
  await page.close();
});
