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
import { openRoomPage, widgetRect, tapWidget, demoUsers, sandboxApiJson, artifacts, launchBrowser,
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

