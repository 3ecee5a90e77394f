// app_draw_on_change.e2e.mjs: the app draws only when something changed
// (an idle page costs no CPU), and typing still shows each key. Each key is checked on
// the screen itself: the message field's pixels change after every key
// before the next is typed (a screenshot causes no app frame), and the text
// that reaches the API is exactly what was typed. Then, with nothing
// happening, the field's pixels stay as they are.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp, act, waitForState, demoUsers, withStackAndBrowser, widgetRect, clickWidget, passConsent, appOnlyTest,
  sandboxApi } from './support.mjs';

let stack; let browser;
withStackAndBrowser((s, b) => { stack = s; browser = b; });

async function fieldPixels(page, r) {
  return page.screenshot({ clip: { x: r.x, y: r.y, width: r.width, height: r.height } });
}

test('each typed key is drawn, and an idle page keeps its picture', async () => {
  const page = await browser.context.newPage();
  const posted = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && /\/api\/rooms\/\d+\/messages$/.test(new URL(r.url()).pathname)) posted.push(r.postData());
  });
  await openApp(page, stack.url);
  await act(page, { type: 'use_api_token', token: demoUsers.bob.apiToken });
  await waitForState(page, (s) => s.account && !s.loading && s.selected_room, 'the dashboard');
  await act(page, { type: 'show_view', view: 'developer' });  // the posting panel is in the developer view
  await waitForState(page, (s) => s.view === 'developer', 'the developer view');

  const field = await widgetRect(page, 'message');
  await page.mouse.click(field.x + field.width / 2, field.y + field.height / 2);
  const text = 'draw each key';
  let before = await fieldPixels(page, field);
  for (const key of text) {
    await page.keyboard.type(key);
    const deadline = Date.now() + 5000;
    let after = await fieldPixels(page, field);
    while (after.equals(before) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
      after = await fieldPixels(page, field);
    }
    assert.ok(!after.equals(before), `the field shows the key ${JSON.stringify(key)}`);
    before = after;
  }

  // Nothing happens: after the input tail, the field is no longer redrawn
  // and stays exactly as the last key left it.
  await new Promise((r) => setTimeout(r, 1000));
  const settled = await fieldPixels(page, field);
  await new Promise((r) => setTimeout(r, 500));
  assert.ok(settled.equals(await fieldPixels(page, field)), 'an idle field keeps its picture');

  const queue = await widgetRect(page, 'queue_message');
  await page.mouse.click(queue.x + queue.width / 2, queue.y + queue.height / 2);
  await waitForState(page, (s) => s.queue.delivered === 1, 'the delivered message');
  assert.equal(posted.length, 1);
  assert.equal(new URLSearchParams(posted[0]).get('body'), text, 'every key reached the message');
  await page.close();
});

// A browser may run no animation frame for a shown page: WebKit under heavy
// load ran none for 30 s after a frame that was not final. The app then
// draws what is due from its timer (web/src/main.cpp kFrameFallback), and
// still draws nothing once the picture is final.
test('a page whose browser runs no animation frame is still drawn, and idle once final', async () => {
  const page = await browser.context.newPage();
  await page.addInitScript(() => {
    let id = 0;
    window.requestAnimationFrame = () => ++id;  // asked for, never run
    window.cancelAnimationFrame = () => {};
  });
  await page.goto(stack.url);
  // ready(): the first frame was drawn. Polled on a timer: Playwright's own
  // default wait polls on animation frames, which this page never runs.
  await page.waitForFunction(() => window.roomkey && window.roomkey.ready() && window.roomkey.state().config &&
    window.roomkey.state().config.loaded, null, { timeout: 60000, polling: 50 });
  const signIn = await widgetRect(page, 'sign_in');  // in a final frame
  const stats = await page.evaluate(() => window.roomkey.frameStats());
  assert.ok(stats.late > 0, `the frames came from the timer (${JSON.stringify(stats)})`);
  assert.equal(stats.asked_ms, null, `once final, no frame is asked for (${JSON.stringify(stats)})`);
  await new Promise((r) => setTimeout(r, 1000));  // the first screen, idle: nothing is drawn
  const idle = await page.evaluate(() => window.roomkey.frameStats());
  assert.equal(idle.frame, signIn.frame, `an idle page draws nothing (${JSON.stringify(idle)})`);

  // A change is drawn too, to its final frame.
  await act(page, { type: 'use_api_token', token: demoUsers.bob.apiToken });
  const state = await waitForState(page, (s) => s.account && !s.loading && s.selected_room, 'the dashboard');
  const signOut = await widgetRect(page, 'sign_out');  // drawn for that state (support.mjs), in a final frame
  assert.ok(signOut.frame >= state.frame, 'the dashboard was drawn');
  await page.close();
});

// Every WebGL clear the page makes, with the scissor box it was limited to
// (null: the whole canvas). The app clears exactly what it paints again.
function recordClears(page) {
  return page.addInitScript(() => {
    const gl = WebGL2RenderingContext.prototype;
    const { scissor, clear } = gl;
    let box = null;
    window.roomkeyTestClears = [];
    gl.scissor = function (x, y, width, height) {
      box = [x, y, width, height];
      return scissor.call(this, x, y, width, height);
    };
    gl.clear = function (mask) {
      window.roomkeyTestClears.push({ box: this.isEnabled(this.SCISSOR_TEST) ? box : null,
        canvas: [this.drawingBufferWidth, this.drawingBufferHeight] });
      return clear.call(this, mask);
    };
  });
}

// The page's picture once it has held still for 500 ms.
async function settledPicture(page) {
  let last = await page.screenshot();
  const deadline = Date.now() + 15000;
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 500));
    const now = await page.screenshot();
    if (now.equals(last)) return now;
    last = now;
  }
  throw new Error('the picture kept changing for 15 s');
}

test('painting only what changed leaves the picture a full repaint draws', async () => {
  const page = await browser.context.newPage();
  await recordClears(page);
  await openApp(page, stack.url);
  const signIn = await widgetRect(page, 'sign_in');
  const firstClears = await page.evaluate(() => window.roomkeyTestClears.length);

  // Small changes over the sign-in screen, through the mouse and the
  // accessibility tree: a hover, a scope ticked on and off (the scope line
  // below it changes, then changes back), the API-token section opened
  // (everything under it moves down) and closed again.
  await page.mouse.move(signIn.x + signIn.width / 2, signIn.y + signIn.height / 2);
  // The scopes are in the connection's settings, one click from the first screen.
  await page.getByRole('button', { name: 'Connection settings', exact: true }).dispatchEvent('click');
  await settledPicture(page);
  const contacts = page.getByRole('checkbox', { name: 'contacts.all:read_write', exact: true });
  const tokenSection = page.getByRole('button', { name: 'Use an API token instead', exact: true });
  for (const control of [contacts, contacts, tokenSection, tokenSection]) {
    await control.dispatchEvent('click');
    await settledPicture(page);
  }
  const painted = await settledPicture(page);

  const clears = (await page.evaluate(() => window.roomkeyTestClears)).slice(firstClears);
  const partial = clears.filter((c) => c.box && c.box[2] * c.box[3] < 0.5 * c.canvas[0] * c.canvas[1]);
  assert.ok(partial.length > 0,
    `the changes repainted part of the canvas, not all of it (clears: ${JSON.stringify(clears.map((c) => c.box))})`);

  // A resize blanks the canvas; back at the same size, everything is
  // painted afresh. The same picture, to the pixel.
  const size = page.viewportSize();
  await page.setViewportSize({ width: size.width - 60, height: size.height });
  await settledPicture(page);
  await page.setViewportSize(size);
  const repainted = await settledPicture(page);
  const clearsAfter = (await page.evaluate(() => window.roomkeyTestClears)).slice(firstClears + clears.length);
  assert.ok(clearsAfter.some((c) => !c.box || c.box[2] * c.box[3] === c.canvas[0] * c.canvas[1]),
    'the resized canvas was painted whole');
  assert.ok(repainted.equals(painted), 'the partly repainted picture is the one a whole repaint draws');
  await page.close();
});

// Signed in through the authorization code, the dashboard shows countdowns
// (the access token's bar, the refresh token, the next refresh, the rate
// limit's reset). Idle, it draws when one of them ticks, about once a
// second each, and not in between: a bar drawn from the exact milliseconds
// kept the page drawing every animation frame.
test('signed in with a token that expires, an idle dashboard draws only when a countdown ticks', async () => {
  const page = await browser.context.newPage();
  await page.addInitScript(() => {
    window.roomkeyTestFrames = 0;
    const request = window.requestAnimationFrame.bind(window);
    window.requestAnimationFrame = (callback) => request((t) => { window.roomkeyTestFrames++; callback(t); });
  });
  await openApp(page, stack.url);
  await clickWidget(page, 'sign_in');
  await passConsent(page, stack, demoUsers.bob, 'allow');
  const state = await waitForState(page, (s) => s.session === 'signed in' && s.account && !s.loading && s.selected_room,
    'the dashboard');
  assert.ok(state.access_expires_in > 0, 'an access token that expires, and its countdown on the screen');
  await new Promise((r) => setTimeout(r, 1500));  // past the sign-in's own frames

  const seconds = 3;
  const before = await page.evaluate(() => window.roomkeyTestFrames);
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const frames = await page.evaluate(() => window.roomkeyTestFrames) - before;
  // At most four countdowns, each ticking once a second: a frame for the
  // tick and one that finds the picture settled.
  assert.ok(frames <= 8 * seconds,
    `${frames} animation frames in ${seconds} s of an idle dashboard (drawing every frame would be about ${60 * seconds})`);
  await page.close();
});

// An open room's conversation follows its newest message. Asking ImGui to
// scroll to the bottom at every frame (while the view was there) kept the
// picture "settling" and drew the open room 60 times a second forever; the
// view must still follow a new message, and be idle in between.
appOnlyTest('an open room, idle, draws nothing and still follows a new message', async () => {
  const ROOM = '2100';
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 1000, height: 420 });  // the conversation overflows its pane
  await page.addInitScript(() => {
    window.roomkeyTestFrames = 0;
    const request = window.requestAnimationFrame.bind(window);
    window.requestAnimationFrame = (callback) => request((t) => { window.roomkeyTestFrames++; callback(t); });
  });
  // Read at the service: a room with unread messages opens at the first of them, one without at its newest.
  await sandboxApi(stack, demoUsers.alice, 'PUT', `/rooms/${ROOM}/messages/read`);
  await openApp(page, stack.url);
  await act(page, { type: 'use_api_token', token: demoUsers.alice.apiToken });  // no countdowns to tick
  await waitForState(page, (s) => s.account && s.rooms.length > 0 && !s.loading, 'the rooms');
  await act(page, { type: 'open_room', room_id: ROOM });
  await waitForState(page, (s) => s.room && s.room.room_id === ROOM && !s.room.loading && s.room.messages.length >= 3,
    'the room\'s messages');
  const items = page.getByRole('log', { name: 'Conversation' }).getByRole('article');  // one per message (a11y.hpp)
  // The newest message in the conversation's view, the first one scrolled out of it.
  const inView = async (item) => {
    const view = await widgetRect(page, 'conversation');
    const box = await item.locator('.a11y-text').boundingBox();  // an article's text sits over the message as drawn
    return box && box.y >= view.y - 1 && box.y + box.height <= view.y + view.height + 1;
  };
  const followed = async (what) => {
    const deadline = Date.now() + 15000;
    while (!(await inView(items.last()))) {
      assert.ok(Date.now() < deadline, `${what} is scrolled into the conversation's view`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  await followed('the newest message');
  assert.ok(!(await inView(items.first())), 'the oldest message is scrolled out: the view followed the newest');

  await new Promise((r) => setTimeout(r, 1000));  // past the opening's own frames
  const seconds = 2;
  const before = await page.evaluate(() => window.roomkeyTestFrames);
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const frames = await page.evaluate(() => window.roomkeyTestFrames) - before;
  assert.ok(frames <= 4, `${frames} animation frames in ${seconds} s of an idle open room (drawing every frame ` +
    `would be about ${60 * seconds})`);

  // Bob's message comes with the room's next poll, and the view follows it.
  const body = `Followed to the bottom ${Date.now()}`;
  assert.equal((await sandboxApi(stack, demoUsers.bob, 'POST', `/rooms/${ROOM}/messages`, { body })).status, 200);
  await waitForState(page, (s) => s.room.messages.some((m) => m.body === body), 'Bob\'s message', 20000);
  await items.filter({ hasText: body }).waitFor({ state: 'attached', timeout: 10000 });
  await followed('Bob\'s new message');
  assert.match(await items.last().locator('.a11y-text').textContent(), new RegExp(body), 'his message is the newest');
  await page.close();
});
