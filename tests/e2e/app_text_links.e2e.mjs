// app_text_links.e2e.mjs: links in messages, in Chromium at 1366x800:
// - an http(s) URL in a message is a link (page API room.messages[].links)
//   and `javascript:` and `data:` text never is;
// - the pointer over the drawn link finds a real <a> of the page there
//   (target _blank, rel noopener noreferrer: the browser's own link menu,
//   middle- and Ctrl+click), and a click opens a new page at that URL,
//   with no opener and no referrer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openRoomPage, demoUsers, sandboxApi, withStackAndBrowser } from './support.mjs';

const ROOM = '2101';
let stack; let browser;
withStackAndBrowser((s, b) => { stack = s; browser = b; });

test('a URL in a message is a link that opens a new page; javascript: and data: never are', async () => {
  const url = `${stack.origin}/?from=link`;
  const body = `${url} is the page; javascript:alert(1) and data:text/html,hi are not links`;
  assert.equal((await sandboxApi(stack, demoUsers.bob, 'POST', `/rooms/${ROOM}/messages`, { body })).status, 200);

  const { page, state } = await openRoomPage(browser.context, stack.url, ROOM, { viewport: { width: 1366, height: 800 },
    until: (s) => s.room.messages.some((m) => m.text === body), what: 'the message with a URL' });
  const message = state.room.messages.find((m) => m.text === body);
  assert.deepEqual(message.links, [{ url, text: url }], 'the URL is the one link; javascript: and data: are text');

  // The message as drawn: the accessibility tree's article lies over it.
  const rect = await page.waitForFunction((text) => {
    const p = [...document.querySelectorAll('#a11y [role=article] .a11y-text')].find((e) => e.textContent.endsWith(text));
    if (!p) return null;
    const r = p.getBoundingClientRect();
    return r.height > 1 ? { x: r.left, y: r.top, width: r.width, height: r.height } : null;
  }, body, { timeout: 30000 }).then((h) => h.jsonValue());
  // The URL opens the message's body: the pointer goes down its left edge
  // until it is over the link, as a user's would.
  let over = null;
  for (let y = rect.y + 2; y < rect.y + rect.height && !over; y += 4) {
    await page.mouse.move(rect.x + 12, y);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    over = await page.evaluate(() => {
      const a = document.getElementById('link-over');
      if (!a || a.hidden) return null;
      const r = a.getBoundingClientRect();
      return { href: a.href, target: a.target, rel: a.rel, x: r.left, y: r.top, width: r.width, height: r.height };
    });
  }
  assert.ok(over, 'the pointer over the drawn URL finds a link');
  assert.equal(over.href, url);
  assert.equal(over.target, '_blank');
  assert.deepEqual(over.rel.split(' ').sort(), ['noopener', 'noreferrer']);
  assert.equal(await page.evaluate(() => getComputedStyle(document.getElementById('link-over')).cursor), 'pointer');

  const opened = browser.context.waitForEvent('page');
  await page.mouse.click(over.x + over.width / 2, over.y + over.height / 2);
  const tab = await opened;
  await tab.waitForURL(url, { timeout: 30000 });
  assert.equal(tab.url(), url, 'the click opened a new page at the URL');
  assert.equal(await tab.evaluate(() => window.opener), null, 'no opener');
  assert.equal(await tab.evaluate(() => document.referrer), '', 'no referrer');
  await tab.close();
  await page.close();
});
