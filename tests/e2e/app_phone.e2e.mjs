// app_phone.e2e.mjs: a phone is a phone (a touch screen, 390x844 CSS px):
// the header is one line, its controls in a menu; the composer's controls
// are at least 44 CSS px tall; no keyboard hints are shown. Screenshot:
// phone_390x844.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openRoomPage, widgetRect, tapWidget, artifacts, withStackAndBrowser }
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
  assert.equal(await page.getByRole('button', { name: 'Developer', exact: true }).count(), 1,
    'the view switch names no key (a phone has no F2)');
  await page.screenshot({ path: join(artifacts, 'phone_390x844.png') });
  await tapWidget(page, 'menu');
  const signOut = await widgetRect(page, 'sign_out');
  assert.ok(signOut.height >= 44 && signOut.x + signOut.width <= 390, JSON.stringify(signOut));
  await page.close();
});
