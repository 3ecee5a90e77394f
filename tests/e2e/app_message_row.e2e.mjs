// app_message_row.e2e.mjs: a message reads like one in a chat app. On a
// phone (390x844, a finger) its actions (Reply, Quote, Edit and Delete on
// my own, the menu) are ONE row under its text, each still a finger tall;
// with a mouse (1000x700, 1366x800) they stay one row beside its name.
// "Jump to latest" (shown when scrolled up) stands under the conversation,
// where it covers no message's controls. Each box is read from the
// accessibility tree, which lays each control over its drawing
// (shell/a11y.js). Screenshots: message_row_390x844.png,
// message_row_jump_390x844.png, message_row_1000x700.png, message_row_1366x800.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openRoomPage, widgetRect, tapWidget, clickWidget, demoUsers, sandboxApi, sandboxApiJson, artifacts, launchBrowser,
  withStackAndBrowser } from './support.mjs';

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
    const up = !boxes[0];
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

// Known defect, not fixed: a width change moves the view (on main the view at
// #5 of nine showed #6..#9 once Details opened). Keeping an anchor message
// (the first whole row, re-placed when heights above it change) held it
// alone but not under load: rows below measured late clamp the scroll.
test('at 1366x800 opening and closing Details keeps the reader\'s place: the message at the top, or the newest',
  { todo: 'the place is lost on a width change (known defect)' }, async () => {
  const tag = `place ${Date.now()} #`;
  // Nine tall messages (the sandbox takes ten posts in ten seconds in a room: spec 8.2).
  for (let i = 1; i <= 9; ++i) {
    await sandboxApiJson(stack, demoUsers.alice, 'POST', `/rooms/${ROOM}/messages`,
      { body: `${tag}${i}\n` + `line of message ${i}\n`.repeat(4) });
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
    // Scrolled up to a message in the middle: it stays at the top.
    const pane = await widgetRect(page, 'conversation');
    let top = null;
    const behind = () => page.evaluate(() => !!window.roomkey.widget('jump_latest'));
    for (let turn = 0; turn < 80; ++turn) {
      const rows = await wholeInLog(page);
      top = numberOf(rows[0]);
      if (top !== null && top >= 2 && top <= 5 && await behind()) break;
      await page.mouse.move(pane.x + pane.width / 2, pane.y + pane.height / 2);
      await page.mouse.wheel(0, top === null || top < 2 ? 50 : -50);  // above the nine: back down
      await frames(page);
    }
    assert.ok(top !== null && top >= 2 && top <= 5 && await behind(), `scrolled up to the middle: ${top}`);
    await widgetRect(page, 'conversation');
    top = numberOf((await wholeInLog(page))[0]);
    for (const open of [true, false]) {
      await opened(open);
      const rows = await wholeInLog(page);
      const shown = rows.map(numberOf);
      // At the top, or (rows above it measured at the new width a frame late) one below it.
      assert.ok(shown.indexOf(top) === 0 || shown.indexOf(top) === 1,
        `#${top} is still at the top of the view with Details ${open ? 'open' : 'closed'}: ${JSON.stringify(shown)}`);
    }
    await page.close();
  } finally {
    await desktop.close();
  }
});
