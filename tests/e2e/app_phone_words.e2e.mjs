// app_phone_words.e2e.mjs: the words a phone's user reads (390x844, a touch
// screen). The first screen names no key and no spec (the developer view
// can); the API token's status line says what happened in words; the room's
// details on a phone have one way back ("< Conversation", no Close beside
// it); the Files tab's message field takes the whole line, so its hint is
// not cut. Screenshots: words_first_390x844.png, words_details_390x844.png,
// words_files_390x844.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openApp, act, waitForState, widgetRect, tapWidget, demoUsers, artifacts, withStackAndBrowser }
  from './support.mjs';

const ROOM = '2100';  // "Roomkey project": the demo file record (docs/sandbox.md)
let stack; let browser;
withStackAndBrowser((s, b) => { stack = s; browser = b; }, {}, { phone: true });

// The names of every control of the accessibility tree.
const controlNames = (page) => page.evaluate(() => [...document.querySelectorAll('#a11y *')]
  .filter((el) => el.children.length === 0 || el.getAttribute('aria-label'))
  .map((el) => el.getAttribute('aria-label') || el.textContent || '').filter((t) => t.trim() !== ''));

test('on a phone: a first screen in words, a status line in words, one way back, a whole hint', async () => {
  const page = await browser.context.newPage();
  await openApp(page, stack.url);
  await widgetRect(page, 'sign_in');
  await page.getByRole('button', { name: 'Use an API token instead', exact: true }).waitFor({ state: 'attached' });
  const first = await controlNames(page);
  for (const name of first) {
    assert.ok(!/\bF2\b|\bspec\b/i.test(name), `the first screen names no key and no spec: ${JSON.stringify(name)}`);
  }
  await page.screenshot({ path: join(artifacts, 'words_first_390x844.png') });

  await act(page, { type: 'use_api_token', token: demoUsers.alice.apiToken });
  const signed = await waitForState(page, (s) => s.account && s.rooms.length > 0 && !s.loading, 'the rooms');
  assert.ok(signed.notice && !/spec|header|5\.1/i.test(signed.notice),
    `the API token's status line is in a user's words: ${JSON.stringify(signed.notice)}`);

  await act(page, { type: 'open_room', room_id: ROOM });
  await waitForState(page, (s) => s.room && s.room.room_id === ROOM && !s.room.loading && s.room.files.length > 0,
    'the room and its files');
  await tapWidget(page, 'details_toggle');
  const details = await widgetRect(page, 'details');
  await widgetRect(page, 'back');
  assert.equal(await page.getByRole('button', { name: 'Close', exact: true }).count(), 0,
    'one way back from the details on a phone: no Close beside "< Conversation"');
  await page.screenshot({ path: join(artifacts, 'words_details_390x844.png') });

  await tapWidget(page, 'files_tab');
  await widgetRect(page, 'upload_file', { timeoutMs: 10000 });
  const box = await widgetRect(page, 'upload_message');
  assert.ok(box.x + box.width >= details.x + details.width - 40,
    `the message field takes the line, its hint whole: field ${JSON.stringify(box)}, details ${JSON.stringify(details)}`);
  await page.screenshot({ path: join(artifacts, 'words_files_390x844.png') });
  await page.close();
});
