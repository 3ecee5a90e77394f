// app_text_glyphs.e2e.mjs: text drawn as a reader expects, in Chromium at
// 1366x800:
// - what is written after a To's name ("さん") stays on the name's line: the
//   message is as tall as the same To without it;
// - emoji sequences are drawn as one glyph in colour: a flag (🇯🇵, two regional indicators), a ZWJ family
// (👨‍👩‍👧), a character with VS16 (⚠️), a keycap (1️⃣) and a skin tone (👍🏽),
// each starting a message, are no wider than one glyph cell (at most 1.5
// times the ink of 😀, a single-codepoint emoji) and, but for the family
// (Noto Color Emoji draws it in neutral grey), in colour. As separate
// codepoints the flag is two letters in boxes, the family three faces, the
// skin tone a face and a swatch, ⚠ and the keycap monochrome;
// - the same in the room list: a room's name starting with a flag or a
//   family shows it as one glyph cell;
// - the same in the composer, while what it holds and sends is exactly what
//   was typed;
// - a single emoji of emoji presentation (😀), which DejaVu Sans, early in
//   the font stack, holds in black and white, is drawn in colour: alone as
//   a message, at the start of a room's name in the list, and in the
//   composer;
// - a glyph that comes into the atlas at a later rebuild (鰻, then 鮪) is
//   drawn exactly as when both come in one rebuild, and the text already
//   drawn does not change across the rebuilds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openRoomPage, demoUsers, sandboxApi, sandboxApiJson, decodePng, withStackAndBrowser, widgetRect, clickWidget,
  waitForState, act, sandboxHasMessage } from './support.mjs';

const ROOM = '2101';
let stack; let browser;
withStackAndBrowser((s, b) => { stack = s; browser = b; });

// Alice has read the room, so it opens at its newest, where the messages
// just posted are (a room with unread messages opens at its first unread).
async function openRoomWith(bodies) {
  const read = await sandboxApi(stack, demoUsers.alice, 'PUT', `/rooms/${ROOM}/messages/read`);
  assert.ok([200, 400].includes(read.status), `read: ${read.status}`);  // 400: nothing was unread (docs/sandbox.md)
  const { page, state } = await openRoomPage(browser.context, stack.url, ROOM, { viewport: { width: 1366, height: 800 },
    until: (s) => bodies.every((b) => s.room.messages.some((m) => m.body === b)), what: 'the messages' });
  return { page, state };
}

// Where the message is drawn (its accessibility article lies over it), once
// whole in the conversation's log and held still for three animation frames:
// a room opened at its newest follows the end for a few frames while its
// rows are measured (a message first placed under the log's bottom edge).
async function messageRect(page, text) {
  const log = await widgetRect(page, 'conversation');
  return page.waitForFunction(({ t, log }) => {
    const p = [...document.querySelectorAll('#a11y [role=article] .a11y-text')].find((e) => e.textContent.endsWith(t));
    const b = p && p.getBoundingClientRect();
    const inLog = b && b.height > 1 && b.top >= log.y - 1 && b.bottom <= log.y + log.height + 1;
    const now = inLog ? JSON.stringify([b.left, b.top, b.width, b.height]) : '';
    const held = window.__heldRect && window.__heldRect.now === now ? window.__heldRect.frames + 1 : 0;
    window.__heldRect = { now, frames: held };
    return inLog && held >= 3 ? { x: b.left, y: b.top, width: b.width, height: b.height } : null;
  }, { t: text, log }, { timeout: 30000 }).then((h) => h.jsonValue());
}

test('what is written after a To\'s name stays on the name\'s line', async () => {
  const bare = '[To:1001]Alice Example';
  const honorific = '[To:1001]Alice Example さん';
  for (const body of [bare, honorific]) {
    assert.equal((await sandboxApi(stack, demoUsers.bob, 'POST', `/rooms/${ROOM}/messages`, { body })).status, 200);
  }
  const { page, state } = await openRoomWith([bare, honorific]);
  const text = (body) => state.room.messages.filter((m) => m.body === body).at(-1).text;
  assert.ok(text(honorific).endsWith('さん'), text(honorific));
  const without = await messageRect(page, text(bare));
  const withIt = await messageRect(page, text(honorific));
  assert.equal(withIt.height, without.height, 'さん is drawn on the line of the name, not alone on the next');
  await page.close();
});

// The first glyph drawn on a line (the message's body starts with the
// emoji): the columns from the left up to the first gap of `gap` blank columns
// (background: the crop's rightmost column), and how many of its pixels
// have a colour of their own (the theme's text is grey).
function firstGlyph(png, gap = 3) {
  const at = (x, y) => { const i = (y * png.width + x) * png.channels; return [png.pixels[i], png.pixels[i + 1], png.pixels[i + 2]]; };
  const ink = (x) => {
    for (let y = 0; y < png.height; y++) {
      const p = at(x, y); const b = at(png.width - 1, y);
      if (Math.abs(p[0] - b[0]) + Math.abs(p[1] - b[1]) + Math.abs(p[2] - b[2]) > 60) return true;
    }
    return false;
  };
  let left = 0;
  while (left < png.width && !ink(left)) left++;
  let right = left; let blank = 0;
  for (let x = left; x < png.width && blank < gap; x++) {
    if (ink(x)) { right = x; blank = 0; } else blank++;
  }
  let colour = 0;
  for (let y = 0; y < png.height; y++) {
    for (let x = left; x <= right; x++) {
      const p = at(x, y);
      if (Math.max(...p) - Math.min(...p) > 60) colour++;
    }
  }
  return { width: left < png.width ? right - left + 1 : 0, colour };
}

test('flags, ZWJ sequences, VS16, keycaps and skin tones: one glyph cell each, in colour', async () => {
  const reference = '\u{1F600}';
  const sequences = {
    flag: '\u{1F1EF}\u{1F1F5}',
    family: '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}',
    warning: '\u26A0\uFE0F',
    keycap: '1\uFE0F\u20E3',
    skin_tone: '\u{1F44D}\u{1F3FD}',
  };
  // Each message's body starts with its emoji: "<emoji> <name>".
  const bodies = { reference: `${reference} reference` };
  for (const [name, text] of Object.entries(sequences)) bodies[name] = `${text} ${name}`;
  for (const body of Object.values(bodies)) {
    assert.equal((await sandboxApi(stack, demoUsers.bob, 'POST', `/rooms/${ROOM}/messages`, { body })).status, 200);
  }

  const { page } = await openRoomWith(Object.values(bodies));

  const ink = {};
  for (const [name, body] of Object.entries(bodies)) {
    // The message's last line, where its body is drawn: its article lies over it.
    const r = await messageRect(page, body);
    const line = 20;
    const shot = await page.screenshot({ clip: { x: r.x, y: r.y + r.height - line, width: Math.min(r.width, 200), height: line } });
    ink[name] = firstGlyph(decodePng(shot));
  }
  assert.ok(ink.reference.colour > 20 && ink.reference.width > 6, `the reference emoji is drawn in colour: ${JSON.stringify(ink.reference)}`);
  for (const name of Object.keys(sequences)) {
    // Noto Color Emoji draws the family in neutral grey: only its width tells it.
    if (name !== 'family') assert.ok(ink[name].colour > 20, `${name} is drawn in colour: ${JSON.stringify(ink[name])}`);
    assert.ok(ink[name].width > 6 && ink[name].width <= ink.reference.width * 1.5,
      `${name} is one glyph cell: ${ink[name].width} px of ink against ${ink.reference.width} px for one emoji`);
  }
  await page.close();
});

test('in the room list, a name\'s flag and family are one glyph cell each', async () => {
  const names = { reference: '\u{1F600} reference room', flag: '\u{1F1EF}\u{1F1F5} flag room',
    family: '\u{1F468}\u200D\u{1F469}\u200D\u{1F467} family room' };
  for (const name of Object.values(names)) {
    await sandboxApiJson(stack, demoUsers.alice, 'POST', '/rooms', { name, members_admin_ids: demoUsers.alice.accountId });
  }
  const { page } = await openRoomWith([]);
  const ink = {};
  for (const [key, name] of Object.entries(names)) {
    // The row's button in the accessibility tree lies over the drawn row.
    const r = await page.waitForFunction((n) => {
      const b = [...document.querySelectorAll('#a11y li button')].find((e) => e.textContent.startsWith(n));
      const box = b && b.getBoundingClientRect();
      return box && box.height > 1 && box.top >= 0 && box.bottom <= window.innerHeight
        ? { x: box.left, y: box.top, width: box.width, height: box.height } : null;
    }, name, { timeout: 30000 }).then((h) => h.jsonValue());
    const shot = await page.screenshot({ clip: { x: r.x, y: r.y, width: Math.min(r.width, 120), height: r.height } });
    ink[key] = firstGlyph(decodePng(shot));
  }
  assert.ok(ink.reference.width > 6, `the reference emoji is drawn: ${JSON.stringify(ink.reference)}`);
  assert.ok(ink.flag.colour > 20, `the flag is drawn in colour: ${JSON.stringify(ink.flag)}`);
  for (const key of ['flag', 'family']) {
    assert.ok(ink[key].width > 6 && ink[key].width <= ink.reference.width * 1.5,
      `${key} is one glyph cell: ${ink[key].width} px of ink against ${ink.reference.width} px for one emoji`);
  }
  await page.close();
});

test('in the composer, a flag and a family are one glyph cell each; what is sent is exactly what was typed', async () => {
  const { page } = await openRoomWith([]);
  await act(page, { type: 'set_setting', name: 'send_key', value: 'enter' });
  await waitForState(page, (s) => s.settings.send_key === 'enter', 'Enter sends');
  await clickWidget(page, 'message');
  await page.waitForFunction(() => document.activeElement && document.activeElement.closest('#a11y') !== null, null,
    { timeout: 30000 });
  const typed = { reference: '\u{1F600}', flag: '\u{1F1EF}\u{1F1F5}', family: '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}' };
  const ink = {};
  for (const [key, text] of Object.entries(typed)) {
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');
    await waitForState(page, (s) => s.composer.text === '', 'the composer emptied');
    await page.keyboard.type(text);
    await waitForState(page, (s) => s.composer.text === text, `${key} in the composer, as typed`);
    const r = await widgetRect(page, 'message');
    const shot = await page.screenshot({ clip: { x: r.x + 2, y: r.y + 2, width: Math.min(r.width - 4, 120), height: 20 } });
    // All the ink of the line (the emoji alone, and the caret beside it): as separate codepoints
    // the flag is two letters in boxes and the family three faces.
    ink[key] = firstGlyph(decodePng(shot), 12);
  }
  // A single emoji stays as written in the composer, as in names (its width is the reference's).
  assert.ok(ink.reference.width > 6, `the reference emoji is drawn: ${JSON.stringify(ink.reference)}`);
  assert.ok(ink.flag.colour > 20, `the flag is drawn in colour: ${JSON.stringify(ink.flag)}`);
  for (const key of ['flag', 'family']) {
    assert.ok(ink[key].width > 6 && ink[key].width <= ink.reference.width * 1.5,
      `${key} is one glyph cell: ${ink[key].width} px of ink against ${ink.reference.width} px for one emoji`);
  }
  const body = `${typed.flag} and ${typed.family} at ten ${Date.now()}`;
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Backspace');
  await page.keyboard.type(body);
  await waitForState(page, (s) => s.composer.text === body, 'the text as typed');
  // The field holds the sequences folded to draw them; what a screen reader
  // reads (the page's input) is as typed.
  await page.waitForFunction((b) => document.activeElement && document.activeElement.value === b, body,
    { timeout: 10000 }).catch(async () => assert.fail(
      `the composer's input reads ${JSON.stringify(await page.evaluate(() => document.activeElement.value))}`));
  await page.keyboard.press('Enter');
  await sandboxHasMessage(stack, demoUsers.alice, ROOM, body);
  await page.close();
});

test('a single emoji (😀), which DejaVu Sans holds too, is drawn in colour: a message, a room\'s name, the composer', async () => {
  const lone = '\u{1F600}';  // the whole message
  const room = `\u{1F600} grin room ${Date.now()}`;
  assert.equal((await sandboxApi(stack, demoUsers.bob, 'POST', `/rooms/${ROOM}/messages`, { body: lone })).status, 200);
  await sandboxApiJson(stack, demoUsers.alice, 'POST', '/rooms', { name: room, members_admin_ids: demoUsers.alice.accountId });
  const { page } = await openRoomWith([lone]);
  const ink = {};
  const r = await messageRect(page, lone);
  ink.message = firstGlyph(decodePng(await page.screenshot(
    { clip: { x: r.x, y: r.y + r.height - 20, width: Math.min(r.width, 200), height: 20 } })));
  const row = await page.waitForFunction((n) => {
    const b = [...document.querySelectorAll('#a11y li button')].find((e) => e.textContent.startsWith(n));
    const box = b && b.getBoundingClientRect();
    return box && box.height > 1 && box.top >= 0 && box.bottom <= window.innerHeight
      ? { x: box.left, y: box.top, width: box.width, height: box.height } : null;
  }, room, { timeout: 30000 }).then((h) => h.jsonValue());
  ink.room = firstGlyph(decodePng(await page.screenshot(
    { clip: { x: row.x, y: row.y, width: Math.min(row.width, 120), height: row.height } })));
  await clickWidget(page, 'message');
  await page.waitForFunction(() => document.activeElement && document.activeElement.closest('#a11y') !== null, null,
    { timeout: 30000 });
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Backspace');
  await waitForState(page, (s) => s.composer.text === '', 'the composer emptied');
  await page.keyboard.type(lone);
  await waitForState(page, (s) => s.composer.text === lone, 'the emoji in the composer');
  const field = await widgetRect(page, 'message');
  ink.composer = firstGlyph(decodePng(await page.screenshot(
    { clip: { x: field.x + 2, y: field.y + 2, width: Math.min(field.width - 4, 120), height: 20 } })), 12);
  for (const [where, glyph] of Object.entries(ink)) {
    assert.ok(glyph.width > 6 && glyph.colour > 20, `the emoji is drawn in colour in the ${where}: ${JSON.stringify(glyph)}`);
  }
  await page.close();
});

// The atlas keeps the glyphs it has drawn (web/src/browser_font.cpp): a
// rebuild draws only the glyphs new to it and copies the others into their
// new places. A glyph that came in at a later rebuild must look as it does
// when drawn in one go, and the text already on screen must not change.
test('a glyph first seen after a rebuild is drawn as in one rebuild; the glyphs already drawn stay the same', async () => {
  const { room_id: id } = await sandboxApiJson(stack, demoUsers.alice, 'POST', '/rooms',
    { name: `Glyphs ${Date.now()}`, members_admin_ids: demoUsers.alice.accountId });
  const room = String(id);
  const plain = 'Plain text drawn before any rebuild';
  assert.equal((await sandboxApi(stack, demoUsers.alice, 'POST', `/rooms/${room}/messages`, { body: plain })).status, 200);
  const open = async (bodies) => {
    const { page } = await openRoomPage(browser.context, stack.url, room, { viewport: { width: 1366, height: 800 },
      until: (s) => bodies.every((b) => s.room.messages.some((m) => m.body === b)), what: 'the messages' });
    await page.waitForFunction(() => window.roomkey.fontStats().missing === 0 && window.roomkey.frameStats().settled,
      null, { timeout: 30000 });
    return page;
  };
  const shot = async (page, text) => {
    const r = await messageRect(page, text);
    return decodePng(await page.screenshot({ clip: { x: r.x, y: r.y, width: Math.min(r.width, 400), height: r.height } }));
  };
  // The same drawing: every channel of every pixel within 2 (of 255) of
  // the other's. Not byte-equal: the
  // texture's size changes with a rebuild, and with it the sampling of a
  // glyph placed at a fraction of a pixel (seen: 2 pixels of 16,800 off by
  // 1 in red, once the earlier tests had filled the atlas). A glyph copied
  // 1 px off changes hundreds of pixels by far more.
  const same = (a, b) => a.width === b.width && a.height === b.height &&
    a.pixels.every((v, i) => Math.abs(v - b.pixels[i]) <= 2);
  // Posted from the composer: the message drawn brings its glyph into the atlas with one more rebuild.
  const post = async (page, text) => {
    const rebuilds = await page.evaluate(() => window.roomkey.fontStats().rebuilds);
    await page.keyboard.type(text);
    await waitForState(page, (s) => s.composer.text === text, `${text} in the composer`);
    await page.keyboard.press('Enter');
    await waitForState(page, (s) => s.room.messages.some((m) => m.body === text), `${text} in the conversation`);
    await page.waitForFunction((r) => {
      const f = window.roomkey.fontStats();
      return f.missing === 0 && f.rebuilds > r && window.roomkey.frameStats().settled;
    }, rebuilds, { timeout: 30000 }).catch(async (e) => assert.fail(`${text}: ${e.message}; fontStats ` +
      `${JSON.stringify(await page.evaluate(() => window.roomkey.fontStats()))}, ${rebuilds} rebuilds before`));
  };
  // One page: 鰻 comes in with one rebuild, 鮪 with the next (鰻 copied from the first).
  const page = await open([plain]);
  const before = await shot(page, plain);
  await act(page, { type: 'set_setting', name: 'send_key', value: 'enter' });
  await waitForState(page, (s) => s.settings.send_key === 'enter', 'Enter sends');
  await clickWidget(page, 'message');
  await page.waitForFunction(() => document.activeElement && document.activeElement.closest('#a11y') !== null, null,
    { timeout: 30000 });
  await post(page, '鰻');
  await post(page, '鮪');
  assert.ok(same(before, await shot(page, plain)), 'the text drawn before is drawn the same after two rebuilds');
  const twoSteps = { first: await shot(page, '鰻'), second: await shot(page, '鮪') };
  await page.close();
  // Another page: both come in with the same rebuild.
  const other = await open([plain, '鰻', '鮪']);
  assert.ok(same(twoSteps.first, await shot(other, '鰻')), '鰻, copied into a later atlas, is drawn as when drawn in it');
  assert.ok(same(twoSteps.second, await shot(other, '鮪')), '鮪, new to the second rebuild, is drawn as in one rebuild');
  assert.ok(!same(twoSteps.first, twoSteps.second), '鰻 and 鮪 are drawn, each its own glyph');
  await other.close();
});
