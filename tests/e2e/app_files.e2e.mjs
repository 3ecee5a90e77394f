// app_files.e2e.mjs: files both ways in Chromium through the helper and the
// sandbox: a 2 MB file chosen in the Files tab's file
// chooser (the real button, a real filechooser) and one sent through the
// page API with a message are uploaded with their progress, show as the
// service's own file_uploaded message in the room and in Files; opening one
// asks for a download link then and the browser downloads the same bytes; a
// file over 5 MB is refused before anything is sent; a file dropped on the
// canvas is uploaded to the open room.
// The nginx twin runs the same tests through the generated nginx front,
// whose upload route takes kMaxUploadRequestBytes (upload_limits.hpp).
// An image in a message: drawn through the helper; behind nginx alone,
// which cannot keep the preview's rule (docs/file_previews.md), no link is
// asked and the preview says why in words the accessibility tree and the
// page's text hold too.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { launchBrowser, startStack, stopStack, openApp, act, waitForState, demoUsers, clickWidget, sandboxApi, front,
  widgetRect, decodePng, artifacts } from './support.mjs';
import { LEFT, twoColourPng, uploadTo, pixelsOf } from './image_support.mjs';

const ROOM = '2100';
const MAX_FILE = 5 * 1024 * 1024;  // kMaxUploadFileBytes

let stack; let browser;

before(async () => {
  stack = await startStack();
  browser = await launchBrowser();
});

after(async () => {
  if (browser) await browser.close();
  if (stack) await stopStack(stack);
});

async function openRoom(page) {
  // Tall enough that the room's tabs are in view below the posting panel.
  await page.setViewportSize({ width: 1280, height: 1600 });
  await openApp(page, stack.url);
  await act(page, { type: 'use_api_token', token: demoUsers.alice.apiToken });
  await act(page, { type: 'open_room', room_id: ROOM });
  await act(page, { type: 'show_view', view: 'developer' });  // the room panel's Files tab is in the developer view
  return waitForState(page, (s) => s.room && s.room.room_id === ROOM && !s.room.loading &&
    s.room.messages.length > 0 && s.room.files.length > 0, 'room 2100 loaded');
}

// Waits for the upload of `name` to end, and for the room to show its file and
// the service's message; returns [state, file_id].
async function uploaded(page, name) {
  const done = await waitForState(page, (s) => s.room.upload && s.room.upload.name === name &&
    s.room.upload.status !== 'sending', `the upload of ${name} ended`, 60000);
  assert.equal(done.room.upload.status, 'done', JSON.stringify(done.room.upload));
  const id = done.room.upload.file_id;
  const state = await waitForState(page, (s) => s.room.files.some((f) => f.file_id === id) &&
    s.room.messages.some((m) => m.body.includes(`[download:${id}]`)), `file ${id} in Files and in the room`);
  return [state, id];
}

async function downloadBytes(page, fileId) {
  const [download] = await Promise.all([
    page.waitForEvent('download', { timeout: 30000 }),
    act(page, { type: 'open_file', room_id: ROOM, file_id: fileId }),
  ]);
  const path = await download.path();
  return { bytes: readFileSync(path), name: download.suggestedFilename(), url: download.url() };
}

test('a file from the Files tab\'s chooser: progress, the room, Files, and the same bytes back',
  async () => {
    const page = await browser.context.newPage();
    await openRoom(page);
    const bytes = randomBytes(2 * 1024 * 1024 + 4321);
    const posts = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname === `/api/rooms/${ROOM}/files`) posts.push(r);
    });

    await clickWidget(page, 'files_tab');
    const [chooser] = await Promise.all([page.waitForEvent('filechooser', { timeout: 30000 }),
      clickWidget(page, 'upload_file')]);
    await chooser.setFiles({ name: '報告 2.bin', mimeType: 'application/octet-stream', buffer: bytes });
    const [state, id] = await uploaded(page, '報告 2.bin');
    assert.equal(posts.length, 1, 'one POST');
    assert.match(posts[0].headers()['content-type'], /^multipart\/form-data; boundary=/);
    assert.ok(state.room.upload.total > bytes.length, 'the whole multipart body was counted');
    assert.equal(state.room.upload.sent, state.room.upload.total);
    const file = state.room.files.find((f) => f.file_id === id);
    assert.equal(file.filename, '報告 2.bin');
    assert.equal(file.filesize, bytes.length);
    assert.equal(file.account_id, demoUsers.alice.accountId);
    const message = state.room.messages.find((m) => m.body.includes(`[download:${id}]`));
    assert.equal(message.body, `[info][title][dtext:file_uploaded][/title][preview id=${id} ht=120]` +
      `[download:${id}]報告 2.bin (2 MB)[/download][/info]`);

    const got = await downloadBytes(page, id);
    assert.ok(got.bytes.equals(bytes), `the downloaded bytes are the uploaded ones (${got.bytes.length})`);
    assert.equal(got.name, '報告 2.bin');
    const after = await waitForState(page, (s) => s.room.download && s.room.download.file_id === id, 'room.download');
    assert.match(after.room.download.url, /^https:\/\/127\.0\.0\.1:\d+\/downloads\//);
    assert.ok(after.room.download.expires_at > Date.now(), 'the link is still valid');
    await page.close();
  });

test('a file from the page API with a message; over 5 MB is refused before sending; a drop uploads',
  async () => {
    const page = await browser.context.newPage();
    await openRoom(page);
    const posts = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname === `/api/rooms/${ROOM}/files`) posts.push(r);
    });

    const bytes = randomBytes(300 * 1024);
    await act(page, { type: 'upload_file', room_id: ROOM, name: 'notes.txt', mime: 'text/plain',
      data_base64: bytes.toString('base64'), message: 'Notes from today' });
    const [state, id] = await uploaded(page, 'notes.txt');
    const message = state.room.messages.find((m) => m.body.includes(`[download:${id}]`));
    assert.ok(message.body.startsWith('Notes from today\n[info][title][dtext:file_uploaded]'), message.body);
    assert.ok((await downloadBytes(page, id)).bytes.equals(bytes));

    // Over the limit: the chooser's file is not even read; nothing is sent.
    await clickWidget(page, 'files_tab');
    const [chooser] = await Promise.all([page.waitForEvent('filechooser', { timeout: 30000 }),
      clickWidget(page, 'upload_file')]);
    await chooser.setFiles({ name: 'big.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(MAX_FILE + 1) });
    const refused = await waitForState(page, (s) => s.room.upload && s.room.upload.name === 'big.bin',
      'the big file refused');
    assert.equal(refused.room.upload.status, 'failed');
    assert.match(refused.room.upload.error, /up to 5 MB/);
    assert.match(refused.room.upload.error, /Nothing was sent/);
    assert.equal(posts.length, 1, 'only the first upload was sent');

    // A file dropped on the canvas goes to the open room.
    await page.evaluate(() => {
      const transfer = new DataTransfer();
      transfer.items.add(new File(['dropped bytes'], 'dropped.txt', { type: 'text/plain' }));
      const canvas = document.getElementById('canvas');
      canvas.dispatchEvent(new DragEvent('dragover', { dataTransfer: transfer, bubbles: true, cancelable: true }));
      canvas.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    });
    const [, dropped] = await uploaded(page, 'dropped.txt');
    assert.equal((await downloadBytes(page, dropped)).bytes.toString(), 'dropped bytes');
    await page.close();
  });

test(`an image in a message through the ${front} front: drawn, or in words saying why not`, async () => {
  const image = await uploadTo(stack, ROOM, 'front preview.png', twoColourPng(200, 100));
  await sandboxApi(stack, demoUsers.alice, 'PUT', `/rooms/${ROOM}/messages/read`);  // the room opens at its newest
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 1366, height: 800 });
  const links = [];
  page.on('request', (r) => { if (new URL(r.url()).searchParams.get('create_download_url') === '1') links.push(r.url()); });
  await openApp(page, stack.url);
  await act(page, { type: 'use_api_token', token: demoUsers.alice.apiToken });
  await waitForState(page, (s) => s.account && s.rooms.length > 0 && !s.loading, 'the rooms');
  await act(page, { type: 'open_room', room_id: ROOM });
  const done = await waitForState(page, (s) => s.previews && s.previews[image] &&
    ['shown', 'failed', 'unavailable'].includes(s.previews[image].state), 'the image\'s preview settled', 60000);
  await widgetRect(page, 'conversation');
  const png = decodePng(await page.screenshot({ path: join(artifacts, `image_preview_front_${front}_1366x800.png`) }));
  if (front === 'helper') {
    assert.equal(done.previews[image].state, 'shown', JSON.stringify(done.previews[image]));
    assert.ok(pixelsOf(png, LEFT) >= 100 * 100 * 0.9, `the image is drawn: ${pixelsOf(png, LEFT)}`);
  } else {
    assert.equal(done.previews[image].state, 'unavailable', JSON.stringify(done.previews[image]));
    assert.deepEqual(links, [], 'no download link asked for a preview nginx cannot show');
    assert.equal(pixelsOf(png, LEFT), 0, 'no image drawn');
    const words = 'No preview: image previews need roomkey-helper in front of the service (this server does not serve them). ' +
      'Click the file to download it.';
    await page.getByRole('log').getByRole('img', { name: words }).first().waitFor({ state: 'attached', timeout: 30000 });
    const inText = await page.evaluate(() => [...document.querySelectorAll('.tl-run')].map((e) => e.textContent).join(' ').replace(/\s+/g, ' '));
    assert.ok(inText.includes('No preview: image previews need') && inText.includes('download it.'),
      `the words are in the page's text: ${inText.slice(-400)}`);
  }
  await page.close();
});
