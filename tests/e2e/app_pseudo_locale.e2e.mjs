// app_pseudo_locale.e2e.mjs: the layout holds for longer words. With the
// pseudo-locale (?lang=qps: every string 40 % longer, accented) at 360 px,
// signed out and in an open room (then the room in Japanese and English), no region of the workspace overlaps
// another and every control of the accessibility tree, its label drawn
// inside it, lies within the window (a label pushed past the edge is cut);
// the header's session words are whole, no control drawn over them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openApp, act, waitForState, widgetRect, demoUsers, artifacts, withStackAndBrowser } from './support.mjs';
import { assertWorkspaceRegions, assertSessionWordsWhole } from './workspace_regions.mjs';

const ROOM = '2100';
const WIDTH = 360; const HEIGHT = 740;
let stack; let browser;
withStackAndBrowser((s, b) => { stack = s; browser = b; });

// The controls of the accessibility tree and where they are (CSS px).
const controls = (page) => page.evaluate(() => [...document.querySelectorAll(
  '#a11y [role=button], #a11y [role=checkbox], #a11y [role=textbox], #a11y button, #a11y input, #a11y textarea')]
  .map((el) => {
    const r = el.getBoundingClientRect();
    return { name: el.getAttribute('aria-label') || el.textContent, x: r.x, width: r.width };
  }));

async function assertControlsInside(page, where, pseudo = true) {
  // Waits for the pseudo-locale's words to be drawn (each starts with "[").
  if (pseudo) {
    await page.waitForFunction(() => [...document.querySelectorAll('#a11y *')]
      .some((el) => (el.getAttribute('aria-label') || el.textContent || '').startsWith('[')), null, { timeout: 30000 });
  }
  const list = await controls(page);
  assert.ok(list.length > 0, `${where}: controls in the tree`);
  for (const c of list) {
    if (c.width <= 1) continue;  // not drawn this frame (scrolled out of its panel)
    assert.ok(c.x >= -1 && c.x + c.width <= WIDTH + 1,
      `${where}: "${c.name}" lies within ${WIDTH} px (x ${c.x}, width ${c.width})`);
  }
}

test('pseudo-locale at 360 px: controls within the window, signed out and in an open room; regions apart', async () => {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: WIDTH, height: HEIGHT });
  await openApp(page, new URL('?lang=qps', stack.url).href);
  const mirror = await page.evaluate(() => window.roomkey.mirrorText());
  assert.match(mirror, /^\[ŕöö/i, `the mirror in the pseudo-locale: ${mirror}`);
  await assertControlsInside(page, 'signed out');
  await widgetRect(page, 'session');
  await assertSessionWordsWhole(page, WIDTH, 'signed out');
  await page.screenshot({ path: join(artifacts, 'pseudo-locale-signed-out-360.png') });

  await act(page, { type: 'use_api_token', token: demoUsers.alice.apiToken });
  await waitForState(page, (s) => s.account && s.rooms.length > 0 && !s.loading, 'the rooms');
  await act(page, { type: 'open_room', room_id: ROOM });
  await waitForState(page, (s) => s.view === 'workspace' && s.room && s.room.room_id === ROOM && !s.room.loading &&
    s.room.messages.length >= 3, 'room 2100 open');
  // The open room's regions once they hold still (the composer sizes itself to its text).
  const regions = { conversation: await widgetRect(page, 'conversation'), composer: await widgetRect(page, 'composer') };
  for (const name of ['room_list', 'details']) {  // at a phone's width, one pane at a time
    const r = await page.evaluate((n) => window.roomkey.widget(n), name);
    if (r) regions[name] = r;
  }
  assertWorkspaceRegions(regions, WIDTH, HEIGHT);
  await assertControlsInside(page, 'an open room');
  await assertSessionWordsWhole(page, WIDTH, 'an open room');
  await page.screenshot({ path: join(artifacts, 'pseudo-locale-room-360.png') });

  // The same room in Japanese and in English: the same rule holds.
  for (const [lang, word] of [['ja', 'セッション:'], ['en', 'Session:']]) {
    await act(page, { type: 'set_language', lang });
    await waitForState(page, (s) => s.lang === lang, lang);
    await page.waitForFunction((w) => window.roomkey.mirrorText().includes(w), word, { timeout: 30000 });
    const drawn = { conversation: await widgetRect(page, 'conversation'), composer: await widgetRect(page, 'composer') };
    assertWorkspaceRegions(drawn, WIDTH, HEIGHT);
    await assertControlsInside(page, `an open room in ${lang}`, false);
    await widgetRect(page, 'session');
    await assertSessionWordsWhole(page, WIDTH, `an open room in ${lang}`);
    await page.screenshot({ path: join(artifacts, `layout-${lang}-room-360.png`) });
  }
  await page.close();
});
