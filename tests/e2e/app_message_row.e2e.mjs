// app_message_row.e2e.mjs: a message reads like one in a chat app. On a
// phone (390x844, a finger) its actions (Reply, Quote, Edit and Delete on
// my own, the menu) are ONE row under its text, each still a finger tall;
// with a mouse (1000x700, 1366x800) they stay one row beside its name, and
// on a narrower window those that do not fit are left to the "⋯" menu, which
// stays on that row. "Jump to latest" (shown when scrolled up) stands under
// the conversation, where it covers no message's controls, and not after a
// post. A width change (Details, a resize) keeps the reader's place. Each
// box is read from the accessibility tree, which lays each control over its
// drawing (shell/a11y.js). Screenshots: message_row_390x844.png,
// message_row_jump_390x844.png, message_row_1000x700.png, message_row_1366x800.png,
// message_row_760x700.png, message_row_510x700.png, message_row_posted_{1366x800,390x844}.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openRoomPage, widgetRect, tapWidget, clickWidget, demoUsers, sandboxApi, sandboxApiJson, artifacts, launchBrowser,
  withStackAndBrowser, act, waitForState } from './support.mjs';

const ROOM = '2100';  // "Roomkey project" in the sandbox's demo data (docs/sandbox.md)
const MINE = 'A message of mine, its actions in one row';
const ACTIONS = ['Reply', 'Quote', 'Edit', 'Delete', 'Message actions'];
let stack; let browser;
withStackAndBrowser((s, b) => { stack = s; browser = b; }, {}, { phone: true });

let posted = null;
const postMine = () => {
  posted = posted || sandboxApiJson(stack, demoUsers.alice, 'POST', `/rooms/${ROOM}/messages`, { body: MINE });
  return posted;
};
const mineLoaded = (s) => s.room.messages.some((m) => m.text && m.text.includes(MINE));
const frames = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

// Scrolls the conversation until every action of `article` is in the tree
// and they held still for a few frames.
async function wholeInView(page, article) {
  const pane = await widgetRect(page, 'conversation');
  let last = '';
  for (let turn = 0, held = 0; turn < 80; ++turn) {
    const boxes = await actionBoxes(article);
    if (boxes.every((b) => b)) {
      const now = JSON.stringify(boxes);
      held = now === last ? held + 1 : 0;
      last = now;
      if (held >= 3) return boxes;
      await frames(page);
      continue;
    }
    // Towards the message: up when it starts above the log, else down (the
    // row under the text of a message cut at the log's bottom is below).
    const spoken = article.locator('.a11y-text');
    const text = await spoken.count() ? await spoken.first().boundingBox() : null;
    const up = !!text && text.height > 1 && text.y < pane.y;
    await page.mouse.move(pane.x + pane.width / 2, pane.y + pane.height / 2);
    await page.mouse.wheel(0, up ? -60 : 100);
    await frames(page);
  }
  assert.fail(`the actions of "${MINE}" never all came into view`);
}

async function actionBoxes(article) {
  const out = [];
  for (const name of ACTIONS) {
    const b = article.getByRole('button', { name, exact: true });
    out.push(await b.count() ? await b.first().boundingBox() : null);
  }
  return out;
}

// Every action on one row: the same top, left to right, none overlapping.
function assertOneRow(boxes, where) {
  const tops = boxes.map((b) => Math.round(b.y));
  assert.ok(tops.every((t) => Math.abs(t - tops[0]) <= 1), `${where}: the actions are one row: ${JSON.stringify(boxes)}`);
  for (let i = 1; i < boxes.length; ++i) {
    assert.ok(boxes[i].x >= boxes[i - 1].x + boxes[i - 1].width - 1, `${where}: ${ACTIONS[i]} follows ${ACTIONS[i - 1]}`);
  }
}

test('on a phone a message\'s actions are one row under its text, each a finger tall', async () => {
  await postMine();
  const { page } = await openRoomPage(browser.context, stack.url, ROOM, { until: mineLoaded });
  const mine = page.getByRole('article').filter({ hasText: MINE }).last();
  const boxes = await wholeInView(page, mine);
  await page.screenshot({ path: join(artifacts, 'message_row_390x844.png') });
  assertOneRow(boxes, 'phone');
  for (const [i, b] of boxes.entries()) {
    assert.ok(b.height >= 44, `${ACTIONS[i]} is a finger tall: ${JSON.stringify(b)}`);
    assert.ok(b.x >= 0 && b.x + b.width <= 390, `${ACTIONS[i]} is on the screen: ${JSON.stringify(b)}`);
  }
  // Under the text: the message's own lines (the page's text layer) end above the row.
  const article = await mine.boundingBox();
  assert.ok(boxes[0].y > article.y + 20, `the row is under the name and the text: ${JSON.stringify([article, boxes[0]])}`);
  const text = await page.locator('.tl-run', { hasText: MINE }).last().boundingBox();
  assert.ok(text && text.y + text.height <= boxes[0].y + 1, `the text is above the actions: ${JSON.stringify([text, boxes[0]])}`);
  // The message is its name line, its text and one row: not two rows of buttons.
  assert.ok(article.height < 2 * 44 + 2 * text.height,
    `a one-line message of mine is at most a row of buttons and two lines tall: ${article.height}`);
  await page.close();
});

test('"Jump to latest" stands under the conversation and covers no message\'s controls', async () => {
  await postMine();
  const { page } = await openRoomPage(browser.context, stack.url, ROOM, { until: mineLoaded });
  const mine = page.getByRole('article').filter({ hasText: MINE }).last();
  await wholeInView(page, mine);
  const pane = await widgetRect(page, 'conversation');
  // Scrolled up a little: the newest is partly below.
  for (let turn = 0; turn < 20 && !await page.evaluate(() => !!window.roomkey.widget('jump_latest')); ++turn) {
    await page.mouse.move(pane.x + pane.width / 2, pane.y + pane.height / 2);
    await page.mouse.wheel(0, -40);
    await frames(page);
  }
  const jump = await widgetRect(page, 'jump_latest');
  const log = await widgetRect(page, 'conversation');
  await page.screenshot({ path: join(artifacts, 'message_row_jump_390x844.png') });
  assert.ok(jump.y >= log.y + log.height - 1, `under the log, not over it: ${JSON.stringify({ jump, log })}`);
  const controls = await page.getByRole('log').getByRole('button').evaluateAll((els) => els
    .map((e) => e.getBoundingClientRect()).filter((r) => r.width > 1 && r.height > 1)
    .map((r) => ({ x: r.x, y: r.y, width: r.width, height: r.height })));
  assert.ok(controls.length > 0, 'the log\'s controls are in the tree');
  for (const whole of controls) {
    // What the log shows of it (a control at its edge is cut by the log, not covered).
    const top = Math.max(whole.y, log.y); const bottom = Math.min(whole.y + whole.height, log.y + log.height);
    if (bottom <= top) continue;
    const c = { ...whole, y: top, height: bottom - top };
    const apart = c.x + c.width <= jump.x || jump.x + jump.width <= c.x || c.y + c.height <= jump.y || jump.y + jump.height <= c.y;
    assert.ok(apart, `"Jump to latest" covers no control: ${JSON.stringify({ c, jump })}`);
  }
  await tapWidget(page, 'jump_latest');
  await page.waitForFunction(() => !window.roomkey.widget('jump_latest'), null, { timeout: 30000 });
  await page.close();
});

test('with a mouse at 1000x700 and 1366x800 the actions stay one row beside the name', async () => {
  await postMine();
  const desktop = await launchBrowser();
  try {
    for (const [width, height] of [[1000, 700], [1366, 800]]) {
      const { page } = await openRoomPage(desktop.context, stack.url, ROOM, { viewport: { width, height }, until: mineLoaded });
      const mine = page.getByRole('article').filter({ hasText: MINE }).last();
      const boxes = await wholeInView(page, mine);
      await page.screenshot({ path: join(artifacts, `message_row_${width}x${height}.png`) });
      assertOneRow(boxes, `${width}x${height}`);
      const text = await page.locator('.tl-run', { hasText: MINE }).last().boundingBox();
      assert.ok(text && boxes[0].y + boxes[0].height <= text.y + 1, `beside the name, above the text: ${JSON.stringify([boxes[0], text])}`);
      await page.close();
    }
  } finally {
    await desktop.close();
  }
});


// The messages the conversation shows whole, top to bottom, as the
// accessibility tree lays each one's text over its drawing: [{text, y, bottom}].
async function wholeInLog(page) {
  const log = await widgetRect(page, 'conversation');
  const rows = await page.$$eval('#a11y [role=log] [role=article] .a11y-text', (els) => els
    .map((e) => ({ text: e.textContent, r: e.getBoundingClientRect() })).filter((a) => a.r.height > 1)
    .map((a) => ({ text: a.text, y: a.r.y, bottom: a.r.y + a.r.height })));
  return rows.filter((a) => a.y >= log.y - 1 && a.bottom <= log.y + log.height + 1).sort((a, b) => a.y - b.y);
}

// A width change (Details opened or closed, the window resized) measures
// every row again: the message at the top of the view stays there, and a
// view at the newest stays at the newest.
test('at 1366x800 opening and closing Details, or resizing the window, keeps the reader\'s place: the message at the top, or the newest', async () => {
  const tag = `place ${Date.now()} #`;
  // Nine tall messages, their text wrapped differently at each width (the sandbox takes ten posts in ten seconds in a room: spec 8.2).
  for (let i = 1; i <= 9; ++i) {
    await sandboxApiJson(stack, demoUsers.alice, 'POST', `/rooms/${ROOM}/messages`,
      { body: `${tag}${i}\n` + `words of message ${i} that wrap at a narrower width, `.repeat(12) });
  }
  await sandboxApi(stack, demoUsers.alice, 'PUT', `/rooms/${ROOM}/messages/read`);  // it opens at the newest
  const numberOf = (a) => { const m = a && a.text.match(new RegExp(`${tag}(\\d+)`)); return m ? Number(m[1]) : null; };
  const desktop = await launchBrowser();
  try {
    const { page } = await openRoomPage(desktop.context, stack.url, ROOM, { viewport: { width: 1366, height: 800 },
      until: (s) => s.room.messages.filter((m) => m.text && m.text.includes(tag)).length === 9 });
    const opened = async (open) => {
      await clickWidget(page, 'details_toggle');
      await page.waitForFunction((o) => !!window.roomkey.widget('details') === o, open, { timeout: 30000 });
      await widgetRect(page, 'conversation');
    };
    // At the newest: Details opened and closed, the newest stays in view.
    await page.waitForFunction(() => !window.roomkey.widget('jump_latest'), null, { timeout: 30000 });
    for (const open of [true, false]) {
      await opened(open);
      const rows = await wholeInLog(page);
      assert.equal(numberOf(rows.at(-1)), 9, `the newest is in view with Details ${open ? 'open' : 'closed'}: ${JSON.stringify(rows)}`);
      assert.equal(await page.evaluate(() => !!window.roomkey.widget('jump_latest')), false, 'still at the newest');
    }
    // Scrolled up to a message in the middle, #2 or #3, with a screenful of
    // messages below it (at #5, the view is almost at the end, and a view
    // clamped there shows #5 at the top too): it stays at the top.
    const pane = await widgetRect(page, 'conversation');
    let top = null;
    const behind = () => page.evaluate(() => !!window.roomkey.widget('jump_latest'));
    for (let turn = 0; turn < 80; ++turn) {
      const rows = await wholeInLog(page);
      top = numberOf(rows[0]);
      if (top !== null && top >= 2 && top <= 3 && await behind()) break;
      await page.mouse.move(pane.x + pane.width / 2, pane.y + pane.height / 2);
      await page.mouse.wheel(0, top === null || top < 2 ? 50 : -50);  // above the nine: back down
      await frames(page);
    }
    assert.ok(top !== null && top >= 2 && top <= 3 && await behind(), `scrolled up to the middle: ${top}`);
    await widgetRect(page, 'conversation');
    top = numberOf((await wholeInLog(page))[0]);
    const closedWidth = (await widgetRect(page, 'conversation')).width;
    let detailsWidth = 0;
    for (const open of [true, false]) {
      await opened(open);
      const rows = await wholeInLog(page);
      const shown = rows.map(numberOf);
      if (open) detailsWidth = closedWidth - (await widgetRect(page, 'conversation')).width;
      // At the top, or (rows above it measured at the new width a frame late) one below it.
      assert.ok(shown.indexOf(top) === 0 || shown.indexOf(top) === 1,
        `#${top} is still at the top of the view with Details ${open ? 'open' : 'closed'}: ${JSON.stringify(shown)}`);
    }
    // The window made narrower by as much as Details takes, then wide again.
    for (const width of [1366 - detailsWidth, 1366]) {
      await page.setViewportSize({ width, height: 800 });
      await page.waitForFunction((w) => window.innerWidth === w, width);
      await widgetRect(page, 'conversation');
      const shown = (await wholeInLog(page)).map(numberOf);
      assert.ok(shown.indexOf(top) === 0 || shown.indexOf(top) === 1,
        `#${top} is still at the top of the view at ${width}x800: ${JSON.stringify(shown)}`);
    }
    await page.close();
  } finally {
    await desktop.close();
  }
});

// After a post the conversation shows it at the bottom, and "Jump to latest"
// (only for a reader scrolled up away from the newest) is not there: not
// while it is sending, not when the service's message takes its place.
// At the newest, and scrolled up (the post brings the view down to it).
async function postShown(page, body, where) {
  // Each frame drawn once the post is in the state (sending, then sent);
  // the frame drawn before the state had it is not one of them.
  await page.evaluate((b) => {
    window.jumpSeen = [];
    let before = null;
    const watch = () => {
      const s = window.roomkey.state();
      const jump = window.roomkey.widget('jump_latest');
      const posted = s.room && s.room.messages.some((m) => m.body === b);
      if (posted && before === null) before = jump ? jump.frame : -1;
      if (posted && jump && jump.frame > before) window.jumpSeen.push(jump.frame);
      window.jumpWatch = requestAnimationFrame(watch);
    };
    watch();
  }, body);
  await act(page, { type: 'post_message', room_id: ROOM, body });
  await waitForState(page, (s) => s.room.messages.some((m) => m.body === body && !m.pending && m.message_id),
    `${where}: the service's message in the conversation`, 60000);
  await widgetRect(page, 'conversation');
  const rows = await wholeInLog(page);
  assert.ok(rows.length > 0 && rows.at(-1).text.includes(body), `${where}: the post is the last message shown, whole: ${JSON.stringify(rows.map((r) => r.text.slice(0, 40)))}`);
  const seen = await page.evaluate(() => { cancelAnimationFrame(window.jumpWatch); return window.jumpSeen; });
  assert.deepEqual(seen, [], `${where}: "Jump to latest" never showed after the post (frames it did)`);
  assert.equal(await page.evaluate(() => !!window.roomkey.widget('jump_latest')), false, `${where}: no "Jump to latest"`);
}

test('after a post the conversation shows it and no "Jump to latest", at 1366x800 and on a phone', async () => {
  const desktop = await launchBrowser();
  try {
    for (const [context, width, height] of [[desktop.context, 1366, 800], [browser.context, 390, 844]]) {
      const { page, state } = await openRoomPage(context, stack.url, ROOM, { viewport: { width, height } });
      // More than a screenful, to scroll up in (the sandbox takes ten posts in ten seconds in a room: spec 8.2).
      for (let i = state.room.messages.length; i < 12; ++i) {
        await sandboxApiJson(stack, demoUsers.bob, 'POST', `/rooms/${ROOM}/messages`, { body: `filler ${i}\n` + 'a line\n'.repeat(5) });
      }
      await page.waitForFunction(() => window.roomkey.state().room.messages.length >= 12, null, { timeout: 60000 });
      // The room opens at its first unread: to the newest first.
      await widgetRect(page, 'conversation');
      if (await page.evaluate(() => !!window.roomkey.widget('jump_latest'))) {
        await (width < 500 ? tapWidget : clickWidget)(page, 'jump_latest');
      }
      await page.waitForFunction(() => !window.roomkey.widget('jump_latest'), null, { timeout: 30000 });
      await widgetRect(page, 'conversation');
      await postShown(page, `posted at the newest ${width} ${Date.now()}`, `${width}x${height} at the newest`);
      // Scrolled up: the post brings the view to it.
      const pane = await widgetRect(page, 'conversation');
      for (let turn = 0; turn < 20 && !await page.evaluate(() => !!window.roomkey.widget('jump_latest')); ++turn) {
        await page.mouse.move(pane.x + pane.width / 2, pane.y + pane.height / 2);
        await page.mouse.wheel(0, -200);
        await frames(page);
      }
      await widgetRect(page, 'jump_latest');
      await postShown(page, `posted scrolled up ${width} ${Date.now()}`, `${width}x${height} scrolled up`);
      await page.screenshot({ path: join(artifacts, `message_row_posted_${width}x${height}.png`) });
      await page.close();
    }
  } finally {
    await desktop.close();
  }
});

// A narrow window with a mouse: the actions stay on the name's line, those
// that do not fit folded into the menu (it lists them all); never a lone
// "⋯" on a line of its own. From 760 px down to where the name's line can
// hold only a few of them, the newest message (mine) at the bottom.
test('with a mouse at 760x700 and narrower a message\'s actions stay on its name\'s line, the menu among them', async () => {
  const body = `narrow row ${Date.now()}`;
  await sandboxApiJson(stack, demoUsers.alice, 'POST', `/rooms/${ROOM}/messages`, { body });
  const desktop = await launchBrowser();
  try {
    const { page } = await openRoomPage(desktop.context, stack.url, ROOM, { viewport: { width: 760, height: 700 },
      until: (s) => s.room.messages.some((m) => m.body === body) });
    const mine = page.getByRole('article').filter({ hasText: body }).last();
    for (const width of [760, 640, 560, 530, 510, 490]) {
      await page.setViewportSize({ width, height: 700 });
      await page.waitForFunction((w) => window.innerWidth === w, width);
      await widgetRect(page, 'conversation');
      if (width === 760 || width === 510) await page.screenshot({ path: join(artifacts, `message_row_${width}x700.png`) });
      const shown = (await actionBoxes(mine)).map((b, i) => b && { ...b, name: ACTIONS[i] }).filter((b) => b);
      const more = shown.find((b) => b.name === 'Message actions');
      assert.ok(more, `${width}x700: the menu is there: ${JSON.stringify(shown)}`);
      assertSameRow(shown, `${width}x700`);
      const run = page.locator('.tl-run', { hasText: body });
      const text = await run.count() ? await run.last().boundingBox() : null;
      assert.ok(text && more.y + more.height <= text.y + 1, `${width}x700: the menu is on the name's line, above the text: ${JSON.stringify([more, text])}`);
      // The message as the tree lays it over its drawing: its top is the name's line.
      const top = (await wholeInLog(page)).find((a) => a.text.includes(body));
      assert.ok(top && more.y < top.y + more.height, `${width}x700: on the message's first line: ${JSON.stringify([top, more])}`);
    }
    await page.close();
  } finally {
    await desktop.close();
  }
});

// The boxes on one row, left to right, none overlapping.
function assertSameRow(boxes, where) {
  const middles = boxes.map((b) => Math.round(b.y + b.height / 2));
  assert.ok(middles.every((t) => Math.abs(t - middles[0]) <= 1), `${where}: the actions are one row: ${JSON.stringify(boxes)}`);
  for (let i = 1; i < boxes.length; ++i) {
    assert.ok(boxes[i].x >= boxes[i - 1].x + boxes[i - 1].width - 1, `${where}: ${boxes[i].name} follows ${boxes[i - 1].name}`);
  }
}
