// app_conversation_bff.e2e.mjs: where you were, in roomkey-helper's BFF mode
// (the session survives a reload): the address says where you are
// (#/rooms/2100, #/developer); a link to #/rooms/2100 opened in a new tab,
// signed in, shows that room; a reload keeps it; Back and Forward move
// between the places. #/rooms/2100/tasks (the room's Tasks tab) is a place
// of its own: a link and a reload open it, closing the details leaves it,
// Back and Forward move between the two. An image in a message is drawn in
// the BFF mode, through roomkey-helper and (the nginx twin) behind nginx,
// which hands /file-preview to the session's BFF helper (docs/file_previews.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openApp, act, waitForState, passConsent, demoUsers, clickWidget, widgetRect, artifacts, decodePng, sandboxApi,
  front } from './support.mjs';
import { withBffStackAndBrowser, BFF_SCOPE } from './bff_support.mjs';
import { LEFT, RIGHT, twoColourPng, uploadTo, pixelsOf } from './image_support.mjs';

let stack; let browser;
withBffStackAndBrowser((s, b) => { stack = s; browser = b; });
const ROOM = '2100';
const signedIn = (s) => s.session === 'signed in' && s.mode === 'bff' && s.account && s.room_count > 0 && !s.loading;
const inRoom = (room) => (s) => signedIn(s) && s.room && s.room.room_id === room && s.location === `#/rooms/${room}`;

// Alice signed in through roomkey-helper's BFF (its cookie serves every tab of the context).
async function signedInThroughHelper() {
  const page = await browser.context.newPage();
  await openApp(page, stack.url);
  await act(page, { type: 'sign_in', scope: BFF_SCOPE });
  await passConsent(page, stack, demoUsers.alice, 'allow');
  await waitForState(page, signedIn, 'signed in through roomkey-helper');
  return page;
}

test('#/rooms/2100 opened directly shows that room, a reload keeps it, Back and Forward move between places', async () => {
  const page = await signedInThroughHelper();

  // A pasted link, in a new tab of the same browser (the helper's cookie).
  const linked = await browser.context.newPage();
  await openApp(linked, `${stack.url}#/rooms/${ROOM}`);
  let state = await waitForState(linked, inRoom(ROOM), 'the linked room open');
  assert.equal(state.view, 'workspace');
  assert.equal(new URL(linked.url()).hash, `#/rooms/${ROOM}`);

  await linked.reload();
  state = await waitForState(linked, inRoom(ROOM), 'the same room after a reload', 60000);
  assert.equal(state.room.name, 'Roomkey project');

  // Another place, then Back and Forward.
  await act(linked, { type: 'show_view', view: 'developer' });
  await waitForState(linked, (s) => s.location === '#/developer', 'the developer view');
  await linked.waitForFunction(() => window.location.hash === '#/developer');
  await linked.goBack();
  state = await waitForState(linked, (s) => s.view === 'workspace' && s.location === `#/rooms/${ROOM}`, 'Back: the room');
  await linked.goForward();
  await waitForState(linked, (s) => s.view === 'developer' && s.location === '#/developer', 'Forward: the developer view');
  await linked.close();
  await page.close();
});

test('#/rooms/2100/tasks is the room\'s Tasks tab: a link and a reload open it, Back and Forward move', async () => {
  const TASKS = `#/rooms/${ROOM}/tasks`;
  const atTasks = (s) => signedIn(s) && s.room && s.room.room_id === ROOM && s.location === TASKS;
  // The Tasks tab of the details is drawn: its form to add a task is there.
  const tasksShown = (page) => page.getByRole('button', { name: /^Add task/ }).waitFor({ state: 'attached',
    timeout: 30000 });
  const page = await signedInThroughHelper();

  const linked = await browser.context.newPage();
  await linked.setViewportSize({ width: 1366, height: 800 });
  await openApp(linked, `${stack.url}${TASKS}`);
  await waitForState(linked, atTasks, 'the linked Tasks tab');
  await tasksShown(linked);
  assert.equal(new URL(linked.url()).hash, TASKS);

  await linked.reload();
  await waitForState(linked, atTasks, 'the Tasks tab after a reload', 60000);
  await tasksShown(linked);

  // The user closes the details: the room alone, a new place.
  await clickWidget(linked, 'details_toggle');
  await waitForState(linked, inRoom(ROOM), 'the room without its details');
  await linked.waitForFunction((room) => window.location.hash === `#/rooms/${room}`, ROOM);
  await linked.waitForFunction(() => window.roomkey.widget('details') === null, null, { timeout: 10000 });
  await linked.goBack();
  await waitForState(linked, atTasks, 'Back: the Tasks tab');
  await tasksShown(linked);
  await widgetRect(linked, 'details');
  await linked.goForward();
  await waitForState(linked, inRoom(ROOM), 'Forward: the room alone');

  // Opened by the user, the details' Tasks tab is the place too.
  await clickWidget(linked, 'details_toggle');
  await waitForState(linked, atTasks, 'Details opened on its Tasks tab');
  await linked.waitForFunction((place) => window.location.hash === place, TASKS);
  await linked.close();
  await page.close();
});

test('an image in a message is drawn in the BFF mode, its preview through the session\'s helper', async () => {
  const image = await uploadTo(stack, ROOM, 'bff preview.png', twoColourPng(200, 100));
  await sandboxApi(stack, demoUsers.alice, 'PUT', `/rooms/${ROOM}/messages/read`);  // the room opens at its newest
  const page = await signedInThroughHelper();
  await page.setViewportSize({ width: 1366, height: 800 });
  const previews = [];
  page.on('request', (r) => { if (new URL(r.url()).pathname === '/file-preview') previews.push(r.method()); });
  assert.equal(await page.evaluate(() => fetch('/config.json').then((r) => r.json()).then((c) => c.file_previews)), undefined,
    `the ${front} front in the BFF mode does not say previews are off`);
  await act(page, { type: 'open_room', room_id: ROOM });
  const shown = await waitForState(page, (s) => s.previews && s.previews[image] &&
    ['shown', 'failed', 'unavailable'].includes(s.previews[image].state), 'the image previewed', 60000);
  assert.equal(shown.previews[image].state, 'shown', JSON.stringify(shown.previews[image]));
  assert.deepEqual([shown.previews[image].width, shown.previews[image].height], [200, 100]);
  assert.ok(previews.length >= 1 && previews.every((m) => m === 'POST'), `fetched through POST /file-preview: ${previews}`);
  await widgetRect(page, 'conversation');
  const png = decodePng(await page.screenshot({ path: join(artifacts, `image_preview_bff_${front}_1366x800.png`) }));
  assert.ok(pixelsOf(png, LEFT) >= 100 * 100 * 0.9, `the image's left half is drawn: ${pixelsOf(png, LEFT)}`);
  assert.ok(pixelsOf(png, RIGHT) >= 100 * 100 * 0.9, `the image's right half is drawn: ${pixelsOf(png, RIGHT)}`);
  await page.close();
});
