// app_image_preview.e2e.mjs: an image file in a message shows a preview,
// against the real sandbox and helper in Chromium: a PNG of two known
// colours uploaded to the sandbox is drawn in the conversation (its pixels
// read back from the screen), its download link asked for once (the page's
// calls to GET .../files/{id}?create_download_url=1, which the helper
// forwards to the sandbox one for one), and an image far above the screen
// is never fetched. The details' Files tab shows an image's preview too
// (through the same budget), and an image that cannot be shown says so in
// words that the accessibility tree and the page's text hold as well. A
// preview whose fetch never answers ends in the same "failed" at the page's
// transport timeout (web/src/fetch_transport.hpp), instead of waiting forever.
// Screenshots at 1366x800, 1000x700 and 390x844 go to ROOMKEY_ARTIFACTS. Not twinned with nginx: the image comes through the
// helper's own POST /file-preview, which the nginx front does not serve
// (docs/file_previews.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import { act, artifacts, clickWidget, decodePng, demoUsers, openApp, sandboxApi, sandboxApiJson, waitForState,
  widgetRect, withStackAndBrowser, resizeTo } from './support.mjs';
import { LEFT, RIGHT, twoColourPng, uploadTo, pixelsOf } from './image_support.mjs';

const ROOM = '2100';
let stack; let browser;
withStackAndBrowser((s, b) => { stack = s; browser = b; });
const upload = (name, bytes) => uploadTo(stack, ROOM, name, bytes);

test('an image on screen is drawn from one download link; one far above the screen is never fetched', async () => {
  const far = await upload('far above.png', twoColourPng(200, 100));
  // Tall messages after it, so that it lies several screens above the newest.
  for (let i = 0; i < 4; i++) {
    const lines = Array.from({ length: 60 }, (_, n) => `line ${n + 1} of a long message ${i}`);
    await sandboxApiJson(stack, demoUsers.alice, 'POST', `/rooms/${ROOM}/messages`, { body: lines.join('\n') });
  }
  const near = await upload('near.png', twoColourPng(200, 100));
  await sandboxApi(stack, demoUsers.alice, 'PUT', `/rooms/${ROOM}/messages/read`);  // the room opens at its newest

  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 1366, height: 800 });
  const links = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.searchParams.get('create_download_url') === '1') links.push(url.pathname.split('/').at(-1));
  });
  await openApp(page, stack.url);
  await act(page, { type: 'use_api_token', token: demoUsers.alice.apiToken });
  await waitForState(page, (s) => s.account && s.rooms.length > 0 && !s.loading, 'the rooms');
  await act(page, { type: 'open_room', room_id: ROOM });
  const shown = await waitForState(page, (s) => s.previews && s.previews[near] &&
    ['shown', 'failed'].includes(s.previews[near].state), 'the newest image previewed', 60000);
  assert.equal(shown.previews[near].state, 'shown', JSON.stringify(shown.previews));
  assert.deepEqual([shown.previews[near].width, shown.previews[near].height], [200, 100], 'decoded at its size');
  assert.equal(shown.previews[near].room_id, ROOM);

  mkdirSync(artifacts, { recursive: true });
  const drawnAt = async (width, height) => {
    await widgetRect(page, 'conversation');  // drawn at this size
    const png = decodePng(await page.screenshot({ path: join(artifacts, `image_preview_${width}x${height}.png`) }));
    // Drawn at most 1:1 (100 x 100 per half here) and within the pane: on a phone it may be scaled down.
    const least = width < 600 ? 100 * 100 * 0.25 : 100 * 100 * 0.9;
    assert.ok(pixelsOf(png, LEFT) >= least, `the left half's colour at ${width}x${height}: ${pixelsOf(png, LEFT)}`);
    assert.ok(pixelsOf(png, RIGHT) >= least, `the right half's colour at ${width}x${height}: ${pixelsOf(png, RIGHT)}`);
  };
  for (const [width, height] of [[1366, 800], [1000, 700]]) {
    await page.setViewportSize({ width, height });
    await drawnAt(width, height);
  }
  const after = await waitForState(page, (s) => s.previews[near].state === 'shown', 'still shown');
  assert.deepEqual(links.filter((id) => id === near), [near], 'one download link for the image on screen');
  assert.equal(after.previews[near].asked, 1);
  assert.deepEqual(links.filter((id) => id === far), [], 'the image far above was never fetched');
  assert.ok(!after.previews[far] || after.previews[far].asked === 0, JSON.stringify(after.previews[far]));

  // A phone: the conversation laid out again may stand elsewhere; back at the newest, the image is drawn.
  await resizeTo(page, 390, 844);
  await widgetRect(page, 'conversation');
  if (await page.evaluate(() => !!window.roomkey.widget('jump_latest'))) await clickWidget(page, 'jump_latest');
  await waitForState(page, (s) => s.previews[near].state === 'shown', 'shown on the phone', 60000);
  await drawnAt(390, 844);
  await page.close();
});

test('the Files tab previews an image far from the conversation; one that cannot be shown says so to every reader', async () => {
  const listed = await upload('listed only.png', twoColourPng(120, 60));
  for (let i = 0; i < 4; i++) {
    const lines = Array.from({ length: 60 }, (_, n) => `line ${n + 1} of a filler message ${i}`);
    await sandboxApiJson(stack, demoUsers.alice, 'POST', `/rooms/${ROOM}/messages`, { body: lines.join('\n') });
  }
  const broken = await upload('broken.png', Buffer.from('these bytes are not an image'));
  await sandboxApi(stack, demoUsers.alice, 'PUT', `/rooms/${ROOM}/messages/read`);

  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 1366, height: 800 });
  await openApp(page, stack.url);
  await act(page, { type: 'use_api_token', token: demoUsers.alice.apiToken });
  await waitForState(page, (s) => s.account && s.rooms.length > 0 && !s.loading, 'the rooms');
  await act(page, { type: 'open_room', room_id: ROOM });
  const failed = await waitForState(page, (s) => s.previews && s.previews[broken] &&
    ['shown', 'failed'].includes(s.previews[broken].state), 'the broken image tried', 60000);
  assert.equal(failed.previews[broken].state, 'failed', JSON.stringify(failed.previews));
  const words = 'No preview: the image could not be loaded. Click the file to download it.';
  const img = page.getByRole('log').getByRole('img', { name: words });
  await img.first().waitFor({ state: 'attached', timeout: 30000 });
  const inText = await page.evaluate(() => [...document.querySelectorAll('.tl-run')].map((e) => e.textContent).join(' '));
  assert.ok(inText.includes('No preview: the image') && inText.includes('download it.'),
    `the words are in the page's text: ${inText.slice(0, 300)}`);
  assert.ok(!(failed.previews[listed] && failed.previews[listed].asked), 'the listed image is far from the conversation\'s view');

  await act(page, { type: 'show_details', tab: 'files' });
  const shown = await waitForState(page, (s) => s.previews[listed] && s.previews[listed].state === 'shown',
    'the Files tab\'s preview', 60000);
  assert.equal(shown.previews[listed].asked, 1);
  assert.deepEqual([shown.previews[listed].width, shown.previews[listed].height], [120, 60]);
  await widgetRect(page, 'details');
  const png = decodePng(await page.screenshot({ path: join(artifacts, 'image_preview_files_1366x800.png') }));
  assert.ok(pixelsOf(png, LEFT) >= 60 * 60 * 0.5, `the listed image is drawn in the Files tab: ${pixelsOf(png, LEFT)}`);
  await page.close();
});

test('a preview whose fetch never answers ends failed at the transport\'s timeout, not loading for ever', async () => {
  const hung = await upload('never answered.png', twoColourPng(80, 40));
  await sandboxApi(stack, demoUsers.alice, 'PUT', `/rooms/${ROOM}/messages/read`);
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 1366, height: 800 });
  // The helper's POST /file-preview is held by the browser and never answered.
  const held = [];
  await page.route('**/file-preview', (route) => { held.push(route.request().postData()); });
  await openApp(page, stack.url);
  await act(page, { type: 'use_api_token', token: demoUsers.alice.apiToken });
  await waitForState(page, (s) => s.account && s.rooms.length > 0 && !s.loading, 'the rooms');
  await act(page, { type: 'open_room', room_id: ROOM });
  await waitForState(page, (s) => s.previews && s.previews[hung] && s.previews[hung].state === 'loading',
    'the preview fetched', 60000);
  const ended = await waitForState(page, (s) => s.previews[hung].state !== 'loading',
    'the unanswered preview ended (the transport timeout is 30 s)', 90000);
  assert.equal(ended.previews[hung].state, 'failed', JSON.stringify(ended.previews[hung]));
  assert.ok(held.length >= 1 && held.every((body) => body.startsWith('url=')), `the fetch went and was held: ${held}`);
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  await page.close();
});
