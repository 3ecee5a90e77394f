// app_text_layout.e2e.mjs: text laid out as a reader expects, in Chromium at
// 1366x800: a room whose name is longer than the room list keeps its
// mention and unread badges on screen at the row's right end (the name
// gives way, ending in an ellipsis); at 390x844 a quote's heading (who and
// when) too long for the line wraps, drawn and in the page's text alike,
// never cut at the conversation's edge. Line breaking itself (UAX #14 with the
// Japanese rules) is unit-tested in tests/unit/line_break_test.cpp.
// Screenshot: e2e-artifacts/room_list_long_name.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openApp, openRoomPage, act, waitForState, demoUsers, decodePng, artifacts, sandboxApi, sandboxApiJson, widgetRect,
  withStackAndBrowser } from './support.mjs';

let stack; let browser;
withStackAndBrowser((s, b) => { stack = s; browser = b; });

test('a room name longer than the list keeps its badges on screen', async () => {
  const name = '開発チーム / Dev team 🚀 with a name far longer than the room list is wide, and then some';
  const { room_id: id } = await sandboxApiJson(stack, demoUsers.alice, 'POST', '/rooms',
    { name, members_admin_ids: demoUsers.alice.accountId, members_member_ids: demoUsers.bob.accountId });
  const roomId = String(id);
  for (const body of [`[To:${demoUsers.alice.accountId}]Alice Example look`, 'and this']) {
    assert.equal((await sandboxApi(stack, demoUsers.bob, 'POST', `/rooms/${roomId}/messages`, { body })).status, 200);
  }
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 1366, height: 800 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await openApp(page, stack.url);
  await act(page, { type: 'use_api_token', token: demoUsers.alice.apiToken });
  await act(page, { type: 'show_view', view: 'workspace' });
  await waitForState(page, (s) => s.account && !s.loading && s.rooms.some((r) => r.room_id === roomId &&
    r.unread_num > 0 && r.mention_num > 0), 'the long-named room with unread messages and a mention');
  const list = await widgetRect(page, 'room_list');
  const row = page.getByRole('button', { name: new RegExp('^開発チーム / Dev team') });
  await row.waitFor({ state: 'attached', timeout: 10000 });
  const box = await row.boundingBox();
  assert.ok(box, 'the room is a row of the list');
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.screenshot({ path: join(artifacts, 'room_list_long_name.png'),
    clip: { x: list.x, y: box.y - 4, width: list.width, height: box.height + 8 } });
  // The unread badge is a pill in the accent colour, inside the list, at the row's right end.
  const right = Math.min(box.x + box.width, list.x + list.width);
  const clip = { x: right - 70, y: box.y, width: 70, height: Math.max(1, box.height) };
  const png = decodePng(await page.screenshot({ clip }));
  let accent = 0;
  for (let i = 0; i < png.pixels.length; i += png.channels) {
    const [r, g, b] = [png.pixels[i], png.pixels[i + 1], png.pixels[i + 2]];
    if (Math.abs(r - 92) < 30 && Math.abs(g - 158) < 30 && Math.abs(b - 250) < 30) accent += 1;
  }
  assert.ok(accent > 30, `the unread badge is drawn at the row's right end, inside the list (${accent} accent pixels)`);
  await page.close();
});

test('at 390 px a quote\'s heading too long for the line wraps, drawn and in the page\'s text, never cut', async () => {
  // Quoting an account neither a member nor a contact: "Unknown member" (its id is the page API's, not the reader's).
  const aid = '123456789012345';
  const body = `[qt][qtmeta aid=${aid} time=1500000000]quoted words[/qt]heading check ${Date.now()}`;
  assert.equal((await sandboxApi(stack, demoUsers.bob, 'POST', '/rooms/2101/messages', { body })).status, 200);
  const { page, state } = await openRoomPage(browser.context, stack.url, '2101', { viewport: { width: 390, height: 844 },
    until: (s) => s.room.messages.some((m) => m.body === body), what: 'the quoting message' });
  const id = state.room.messages.find((m) => m.body === body).message_id;
  // The heading's lines in the page's text (labels: the message's text does not hold them), once drawn in view.
  const heading = await page.waitForFunction((mid) => {
    const view = document.getElementById('textlayer').getBoundingClientRect();
    const lines = [...document.querySelectorAll(`#textlayer .tl-msg[data-id="${mid}"] .tl-label`)]
      .map((el) => { const r = el.getBoundingClientRect(); return { text: el.textContent, left: r.left, right: r.right, top: r.top, height: r.height }; });
    return lines.length && lines.every((l) => l.top >= view.top && l.top + l.height <= view.bottom)
      ? { lines, right: view.right } : null;
  }, id, { timeout: 30000 }).then((h) => h.jsonValue());
  const words = heading.lines.map((l) => l.text).join(' ');
  assert.ok(words.includes('Unknown member') && !words.includes(aid) && /2017/.test(words),
    `the heading says who (in words, not the id) and when: ${JSON.stringify(heading)}`);
  assert.ok(heading.lines.length >= 2, `the heading takes two lines at this width: ${JSON.stringify(heading)}`);
  for (const line of heading.lines) {
    assert.ok(line.right <= heading.right + 0.5, `each line ends inside the conversation: ${JSON.stringify(heading)}`);
  }
  // The last line is drawn where the page's text has it: ink on the conversation's background.
  const last = heading.lines.at(-1);
  const png = decodePng(await page.screenshot({ clip: { x: last.left, y: last.top, width: last.right - last.left, height: last.height } }));
  const at = (i) => [png.pixels[i], png.pixels[i + 1], png.pixels[i + 2]];
  const back = at((png.width - 1) * png.channels);
  let ink = 0;
  for (let i = 0; i < png.pixels.length; i += png.channels) {
    const p = at(i);
    if (Math.abs(p[0] - back[0]) + Math.abs(p[1] - back[1]) + Math.abs(p[2] - back[2]) > 60) ink += 1;
  }
  assert.ok(ink > 20, `the heading's last line is drawn under its text (${ink} pixels of ink)`);
  // Copied as it reads: the wrapped heading is one line of the copy.
  await page.evaluate((mid) => {
    const el = document.querySelector(`#textlayer .tl-msg[data-id="${mid}"]`);
    window.getSelection().selectAllChildren(el);
  }, id);
  const selected = await waitForState(page, (s) => s.selection && s.selection.message_ids.length === 1, 'the message selected');
  assert.ok(selected.selection.text.includes(words), `the copy holds the heading as one line: ${JSON.stringify(selected.selection.text)}`);
  await page.close();
});

// A message's drawn lines in the page's text (the text layer), once each is
// drawn in the conversation's view: their texts, in order.
const drawnLines = (page, id) => page.waitForFunction((mid) => {
  const view = document.getElementById('textlayer').getBoundingClientRect();
  const runs = [...document.querySelectorAll(`#textlayer .tl-msg[data-id="${mid}"] .tl-run`)];
  return runs.length >= 2 && runs.every((el) => { const r = el.getBoundingClientRect(); return r.top >= view.top && r.bottom <= view.bottom; })
    ? runs.map((el) => el.textContent) : null;
}, id, { timeout: 30000 }).then((h) => h.jsonValue());

// Wrapped at 390 px, a message reads on as one text in the page: the
// browser's find matches the words on either side of a wrap, and a copy of
// the selection reads as the message's text, the wrap's space once (in
// English), no character added (in Japanese, which wraps between letters).
for (const [lang, body, join] of [
  ['English', `Wrap check ${Date.now()}: alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike ` +
    'november oscar papa quebec romeo sierra tango uniform victor whiskey', ' '],
  ['Japanese', `折り返し${Date.now()}いろはにほへとちりぬるをわかよたれそつねならむうゐのおくやまけふこえてあさきゆめみしゑひもせす`, ''],
]) {
  test(`at 390 px the browser's find matches ${lang} words across a wrap, and a copy reads as the message's text`, async () => {
    assert.equal((await sandboxApi(stack, demoUsers.bob, 'POST', '/rooms/2101/messages', { body })).status, 200);
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.origin });
    const { page, state } = await openRoomPage(browser.context, stack.url, '2101', { viewport: { width: 390, height: 844 },
      until: (s) => s.room.messages.some((m) => m.body === body), what: 'the long message' });
    const message = state.room.messages.find((m) => m.body === body);
    const lines = await drawnLines(page, message.message_id);
    assert.ok(lines.length >= 2, `the message wraps at 390 px: ${JSON.stringify(lines)}`);
    // The end of the first line and the start of the second, as the text joins them.
    const [first, second] = lines;
    assert.ok(message.text.includes(first + join + second), `the lines ${JSON.stringify(lines)} are the text's, joined by ${JSON.stringify(join)}`);
    const across = lang === 'English' ? `${first.split(' ').at(-1)} ${second.split(' ')[0]}` : first.slice(-2) + second.slice(0, 2);
    assert.equal(message.text.split(across).length, 2, `"${across}" is once in the text`);
    const found = await page.evaluate((q) => { window.getSelection().removeAllRanges(); return window.find(q); }, across);
    assert.ok(found, `window.find("${across}") matches across the wrap`);
    const selected = await waitForState(page, (s) => s.selection && s.selection.text === across, 'the match selected',
      10000).catch(async () => assert.fail(`the selection after find: ${JSON.stringify((await page.evaluate(() => window.roomkey.state())).selection)}`));
    assert.deepEqual(selected.selection.message_ids, [message.message_id]);
    assert.equal(await page.evaluate(() => window.getSelection().toString()), across, 'the page\'s own selection reads the same');

    // The whole message selected as a user would (a triple-click's paragraph
    // is the same text) and copied with Ctrl+C: exactly the message's text.
    await page.evaluate((mid) => window.getSelection().selectAllChildren(document.querySelector(`#textlayer .tl-msg[data-id="${mid}"]`)),
      message.message_id);
    await waitForState(page, (s) => s.selection && s.selection.text === message.text, 'the whole message selected', 10000)
      .catch(async () => assert.fail(`the selection: ${JSON.stringify((await page.evaluate(() => window.roomkey.state())).selection)}`));
    await page.evaluate(() => navigator.clipboard.writeText('before'));
    await page.keyboard.press('Control+c');
    await page.waitForFunction(() => navigator.clipboard.readText().then((c) => c !== 'before'), null, { timeout: 10000 })
      .catch(() => assert.fail('Ctrl+C wrote nothing'));
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), message.text, 'the copy reads as the message\'s text');
    await page.close();
  });
}
