// app_message_menu_keys.e2e.mjs: a message's menu from the keyboard and its
// "⋯" control, in Chromium at 1366x800 and at 390x844:
// - every message drawn has its "⋯" control, named "Message actions" for
//   assistive technology, also where Reply and Quote fill the line;
// - Shift+F10 on a message whose control was focused through the
//   accessibility DOM opens its menu on its first item; the arrow keys move
//   within it and Enter chooses (Copy text: the message's text on the
//   clipboard).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openRoomPage, waitForState, widgetRect, demoUsers, sandboxApi, withStackAndBrowser, resizeTo } from './support.mjs';

const ROOM = '2101';
let stack; let browser;
withStackAndBrowser((s, b) => { stack = s; browser = b; });

// The accessibility DOM's articles that hold controls (the messages drawn),
// each with the names of its buttons.
function drawnArticles(page) {
  return page.$$eval('#a11y [role=log] [role=article]', (els) => els
    .map((el) => ({ text: el.querySelector('.a11y-text').textContent,
      buttons: [...el.querySelectorAll('button')].map((b) => b.textContent) }))
    .filter((a) => a.buttons.length > 0));
}

async function everyMessageHasItsControl(page, what) {
  const articles = await page.waitForFunction(() => {
    const els = [...document.querySelectorAll('#a11y [role=log] [role=article]')].filter((el) => el.querySelector('button'));
    return els.length >= 2 ? els.length : null;
  }, null, { timeout: 30000 }).then(() => drawnArticles(page));
  for (const a of articles) {
    assert.ok(a.buttons.includes('Message actions'), `${what}: "${a.text}" has its ⋯ control, named (${a.buttons})`);
  }
}

test('the ⋯ control on every message, and the menu from the keyboard', async () => {
  const text = 'Keyboard menu check: copy these words';
  assert.equal((await sandboxApi(stack, demoUsers.bob, 'POST', `/rooms/${ROOM}/messages`, { body: text })).status, 200);
  await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.origin });
  const { page } = await openRoomPage(browser.context, stack.url, ROOM, { viewport: { width: 1366, height: 800 },
    until: (s) => s.room.messages.some((m) => m.text === text), what: 'the message' });
  await widgetRect(page, 'conversation');
  await everyMessageHasItsControl(page, 'at 1366 px');

  // Its Reply control focused through the accessibility DOM, then Shift+F10.
  await page.waitForFunction((t) => {
    const article = [...document.querySelectorAll('#a11y [role=article]')]
      .find((el) => el.querySelector('.a11y-text').textContent.endsWith(t) && el.querySelector('button'));
    const reply = article && [...article.querySelectorAll('button')].find((b) => b.textContent === 'Reply');
    if (!reply) return false;
    reply.focus();
    return document.activeElement === reply;
  }, text, { timeout: 30000 });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.keyboard.press('Shift+F10');
  await widgetRect(page, 'message_menu');
  // Reply, Quote, Copy text: two steps down, then Enter.
  await page.evaluate(() => navigator.clipboard.writeText('before'));
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await waitForState(page, (s) => /Copied the message's text/.test(s.notice), 'Copy text chosen by Enter');
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), text, 'the message\'s text');
  await page.waitForFunction(() => window.roomkey.widget('message_menu') === null, null, { timeout: 30000 });
  const composer = (await page.evaluate(() => window.roomkey.state())).composer.text;
  assert.ok(!composer.includes('[rp ') && !composer.includes('[qt]'), 'neither Reply nor Quote was chosen');

  // Narrow: Reply, Quote and the rest fill the line; the ⋯ control is still there.
  await resizeTo(page, 390, 844);
  await widgetRect(page, 'conversation');
  await everyMessageHasItsControl(page, 'at 390 px');
  await page.close();
});
