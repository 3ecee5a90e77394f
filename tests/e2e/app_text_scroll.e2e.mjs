// app_text_scroll.e2e.mjs: the conversation's text in the page (the text
// layer, shell/text_layer*.js) costs a scroll only its places, in Chromium
// at 1366x800: a scroll moves the lines a message already holds without the
// app sending their text again (counted by the layer: window.roomkey.
// _textStats()), they stay over their drawing and selectable; a message
// edited has its new text in the layer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { act, openRoomPage, waitForState, demoUsers, sandboxApi, sandboxApiJson, widgetRect,
  withStackAndBrowser } from './support.mjs';

let stack; let browser;
withStackAndBrowser((s, b) => { stack = s; browser = b; });

// The lines of message `id` in the layer: their texts and their tops (client px).
const linesOf = (page, id) => page.evaluate((mid) =>
  [...document.querySelectorAll(`#textlayer .tl-msg[data-id="${mid}"] .tl-run`)]
    .map((el) => ({ text: el.textContent, top: el.getBoundingClientRect().top })), id);

test('a scroll moves the lines the page holds, sending no line text again; an edit sends the new text', async () => {
  const { room_id: id } = await sandboxApiJson(stack, demoUsers.alice, 'POST', '/rooms',
    { name: `Scroll check ${Date.now()}`, members_admin_ids: demoUsers.alice.accountId,
      members_member_ids: demoUsers.bob.accountId });
  const roomId = String(id);
  const bodies = [];
  // A few posts (the sandbox limits a burst of them), each of many lines: the conversation scrolls.
  for (let i = 0; i < 5; i++) {
    const body = Array.from({ length: 12 }, (_, k) => `Line check ${i}.${k}: alpha bravo charlie delta echo ` +
      `いろはにほへとちりぬるを ${k}`).join('\n');
    bodies.push(body);
    assert.equal((await sandboxApi(stack, demoUsers.bob, 'POST', `/rooms/${roomId}/messages`, { body })).status, 200);
  }
  await sandboxApi(stack, demoUsers.alice, 'PUT', `/rooms/${roomId}/messages/read`);  // the room opens at its newest
  const { page, state } = await openRoomPage(browser.context, stack.url, roomId,
    { until: (s) => s.room.messages.length >= bodies.length, what: 'the room\'s messages' });
  const settle = () => page.waitForFunction(() => window.roomkey.widget('conversation').frame >=
    window.roomkey.state().frame, null, { timeout: 10000 });
  const view = await widgetRect(page, 'conversation');
  // A message drawn in the middle of the view: it stays drawn after a small scroll.
  const inMiddle = async () => {
    for (const m of state.room.messages) {
      const lines = await linesOf(page, m.message_id);
      if (lines.length && lines[0].top > view.y + view.height * 0.3 && lines[0].top < view.y + view.height * 0.6) {
        return { id: m.message_id, lines };
      }
    }
    return null;
  };
  let held = null;
  for (let i = 0; i < 100 && !held; i++) {
    await settle();
    held = await inMiddle();
    if (!held) await page.evaluate(() => new Promise((r) => requestAnimationFrame(r)));
  }
  assert.ok(held, 'a message is drawn in the middle of the conversation');
  const before = await page.evaluate(() => window.roomkey._textStats());

  // Scrolled up a little: the message moves down with its lines, no line text sent.
  await page.mouse.move(view.x + view.width / 2, view.y + view.height / 2);
  await page.mouse.wheel(0, -120);
  let moved = null;
  for (let i = 0; i < 100; i++) {
    await settle();
    const now = await linesOf(page, held.id);
    if (now.length && now[0].top > held.lines[0].top + 10) { moved = now; break; }
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(r)));
  }
  assert.ok(moved, `the message's lines moved down with the scroll: ${JSON.stringify(await linesOf(page, held.id))}`);
  assert.deepEqual(moved.map((l) => l.text), held.lines.map((l) => l.text), 'the same lines, in order');
  const shift = moved[0].top - held.lines[0].top;
  for (let i = 0; i < moved.length; i++) {
    assert.ok(Math.abs(moved[i].top - held.lines[i].top - shift) < 0.5, `every line moved alike: ${JSON.stringify({ held, moved })}`);
  }
  const after = await page.evaluate(() => window.roomkey._textStats());
  // Lines of messages that came into view may arrive; those held never come again.
  assert.equal(after.again, before.again, `no line the page held was sent again: ${JSON.stringify({ before, after })}`);

  // The moved lines are still the page's text: selecting one reads as the message.
  await page.evaluate((mid) => window.getSelection().selectAllChildren(
    document.querySelector(`#textlayer .tl-msg[data-id="${mid}"]`)), held.id);
  const message = state.room.messages.find((m) => m.message_id === held.id);
  await waitForState(page, (s) => s.selection && s.selection.text === message.text, 'the moved message selected', 10000);

  // Edited: the layer holds the new text (the app sent its lines again).
  const edited = `Edited ${Date.now()}: zulu yankee xray`;
  assert.equal((await sandboxApi(stack, demoUsers.bob, 'PUT', `/rooms/${roomId}/messages/${held.id}`, { body: edited })).status, 200);
  await act(page, { type: 'load_messages', room_id: roomId });  // read again (a poll asks only for what is new)
  await waitForState(page, (s) => s.room.messages.some((m) => m.body === edited), 'the edit read', 60000);
  await page.waitForFunction(({ mid, text }) =>
    [...document.querySelectorAll(`#textlayer .tl-msg[data-id="${mid}"] .tl-run`)].some((el) => el.textContent === text),
  { mid: held.id, text: edited }, { timeout: 30000 }).catch(async () =>
    assert.fail(`the edited text in the layer: ${JSON.stringify(await linesOf(page, held.id))}`));
  await page.close();
});
