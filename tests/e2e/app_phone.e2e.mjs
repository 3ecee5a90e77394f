// app_phone.e2e.mjs: a phone is a phone (a touch screen, 390x844 CSS px):
// the header is one line, its controls in a menu; the composer's controls
// are at least 44 CSS px tall; no keyboard hints are shown; the room's
// name reads whole (Mark as read in the room's menu). Screenshot:
// phone_390x844.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openRoomPage, widgetRect, tapWidget, artifacts, withStackAndBrowser, appState }
  from './support.mjs';

const ROOM = '2100';
let stack; let browser;
withStackAndBrowser((s, b) => { stack = s; browser = b; }, {}, { phone: true });

test('on a phone: one header line with a menu, finger-sized controls, no keyboard hints', async () => {
  const { page } = await openRoomPage(browser.context, stack.url, ROOM);
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
  assert.equal(await page.evaluate(() => window.roomkey.widget('send_key')), null,
    'no send-key control on touch (the choice is in the menu\'s settings)');
  assert.equal(await page.getByRole('button', { name: 'Developer', exact: true }).count(), 1,
    'the view switch names no key (a phone has no F2)');
  await page.screenshot({ path: join(artifacts, 'phone_390x844.png') });
  // The room's name reads whole, on the line of its buttons: Mark as read
  // gives it the room, in the room's "⋯" menu.
  const name = (await appState(page)).room.name;
  await page.locator('#a11y').getByRole('img', { name, exact: true }).waitFor({ state: 'attached', timeout: 30000 });
  const back = await widgetRect(page, 'back');
  const details = await widgetRect(page, 'details_toggle');
  assert.ok(Math.abs(details.y - back.y) < 2 && details.x + details.width <= 390,
    `one line: back ${JSON.stringify(back)}, details ${JSON.stringify(details)}`);
  await tapWidget(page, 'room_menu');
  const markRead = await widgetRect(page, 'mark_read');
  assert.ok(markRead.height >= 44 && markRead.x + markRead.width <= 390, `Mark as read in the menu: ${JSON.stringify(markRead)}`);
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => window.roomkey.widget('mark_read') === null, null, { timeout: 30000 });
  await tapWidget(page, 'menu');
  const signOut = await widgetRect(page, 'sign_out');
  assert.ok(signOut.height >= 44 && signOut.x + signOut.width <= 390, JSON.stringify(signOut));
  await page.close();
});
