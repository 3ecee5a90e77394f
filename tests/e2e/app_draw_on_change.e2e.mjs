// app_draw_on_change.e2e.mjs: the app draws only when something changed
// (issue 12 item 1), and typing still shows each key. Each key is checked on
// the screen itself: the message field's pixels change after every key
// before the next is typed (a screenshot causes no app frame), and the text
// that reaches the API is exactly what was typed. Then, with nothing
// happening, the field's pixels stay as they are.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp, act, waitForState, demoUsers, withStackAndBrowser, widgetRect } from './support.mjs';

let stack; let browser;
withStackAndBrowser((s, b) => { stack = s; browser = b; });

async function fieldPixels(page, r) {
  return page.screenshot({ clip: { x: r.x, y: r.y, width: r.width, height: r.height } });
}

test('each typed key is drawn, and an idle page keeps its picture', async () => {
  const page = await browser.context.newPage();
  const posted = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && /\/api\/rooms\/\d+\/messages$/.test(new URL(r.url()).pathname)) posted.push(r.postData());
  });
  await openApp(page, stack.url);
  await act(page, { type: 'use_api_token', token: demoUsers.bob.apiToken });
  await waitForState(page, (s) => s.account && !s.loading && s.selected_room, 'the dashboard');

  const field = await widgetRect(page, 'message');
  await page.mouse.click(field.x + field.width / 2, field.y + field.height / 2);
  const text = 'draw each key';
  let before = await fieldPixels(page, field);
  for (const key of text) {
    await page.keyboard.type(key);
    const deadline = Date.now() + 5000;
    let after = await fieldPixels(page, field);
    while (after.equals(before) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
      after = await fieldPixels(page, field);
    }
    assert.ok(!after.equals(before), `the field shows the key ${JSON.stringify(key)}`);
    before = after;
  }

  // Nothing happens: after the input tail, the field is no longer redrawn
  // and stays exactly as the last key left it.
  await new Promise((r) => setTimeout(r, 1000));
  const settled = await fieldPixels(page, field);
  await new Promise((r) => setTimeout(r, 500));
  assert.ok(settled.equals(await fieldPixels(page, field)), 'an idle field keeps its picture');

  const queue = await widgetRect(page, 'queue_message');
  await page.mouse.click(queue.x + queue.width / 2, queue.y + queue.height / 2);
  await waitForState(page, (s) => s.queue.delivered === 1, 'the delivered message');
  assert.equal(posted.length, 1);
  assert.equal(new URLSearchParams(posted[0]).get('body'), text, 'every key reached the message');
  await page.close();
});
