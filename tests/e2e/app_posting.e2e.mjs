// app_posting.e2e.mjs: 30 messages queued to one room are paced by shared/'s
// scheduler (spec 8.2: 10 posts per 10 s per room): all delivered, zero 429
// answers, never faster than the limit (its pace is printed); the
// aria-live mirror announces the burst in steps of 10, not per post. Paced
// posts keep going when frames stop (a background tab). A 429 that still
// happens (another client filled the room's window) is waited out as spec
// 7.3 says, and a task with assignees and a due date is added (4.7).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp, act, waitForState, demoUsers, recordMirror, mirrorLog, withStackAndBrowser, sandboxApi, appOnlyTest } from './support.mjs';

const ROOM = '2100';  // "Roomkey project" in the sandbox's demo data (docs/sandbox.md)
let stack; let browser;
withStackAndBrowser((s, b) => { stack = s; browser = b; });

// Spec 8.2: 10 posts per 10 seconds per room. For 30 posts the limit allows
// the first 10 at t = 0, the next 10 at 10 s, the last 10 at 20 s.
const ROOM_WINDOW_MS = 10000;
const LIMIT_MS = 2 * ROOM_WINDOW_MS;

// Each test posts to a room of its own, so they run at the same time: most
// of their time is spent waiting out a room's 10-second window (the file took
// 44 s one after another, about 25 s this way). Together they stay far below
// the overall limit (spec 8.1: 300 requests per 5 minutes).
const DIRECT = '2200';  // Alice and Bob's direct chat (the task is assigned to Bob)
describe('posting', { concurrency: true }, () => {
  test('a burst of 30 posts to one room: all delivered, no 429, at the speed the limit allows', async () => {
    const page = await browser.context.newPage();
    // Times come from the browser's network stack (request.timing()), not
    // from when Node heard of each event: under load the first 'request'
    // event reached Node late and a burst that kept the limit measured
    // 19908 ms (CI, stop 32).
    const posts = [];
    const isPost = (r) => r.method() === 'POST' && new URL(r.url()).pathname === `/api/rooms/${ROOM}/messages`;
    page.on('requestfinished', async (r) => {
      if (!isPost(r)) return;
      const response = await r.response();
      const timing = r.timing();
      posts.push({ status: response.status(), sent: timing.startTime, answered: timing.startTime + timing.responseEnd });
    });
    await openApp(page, stack.url);
    await act(page, { type: 'use_api_token', token: demoUsers.alice.apiToken });
    await waitForState(page, (s) => s.account && !s.loading, 'the account');
    await recordMirror(page);
    await act(page, { type: 'post_message', room_id: ROOM, body: 'paced burst', count: 30 });
    const state = await waitForState(page, (s) => s.queue.delivered + s.queue.failed >= 30, 'the 30 posts', 90000);
    // The app counts a post delivered when its answer arrives; the browser's
    // 'requestfinished' for that post may reach Node a moment later.
    for (const deadline = Date.now() + 10000; posts.length < 30 && Date.now() < deadline;) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }

    assert.equal(state.queue.delivered, 30, 'all 30 delivered');
    assert.equal(state.queue.failed, 0);
    assert.equal(posts.filter((p) => p.status === 429).length, 0, 'zero 429 answers (spec 8.2)');
    assert.equal(state.counters.responses_429, 0);
    assert.equal(posts.length, 30, 'each post sent once');
    // Spec 8.2, as the service counts it: no 11 posts within any 10 seconds.
    const sent = posts.map((p) => p.sent).sort((a, b) => a - b);
    for (let i = 10; i < sent.length; ++i) {
      assert.ok(sent[i] - sent[i - 10] >= ROOM_WINDOW_MS,
        `posts ${i - 9} and ${i + 1} went ${(sent[i] - sent[i - 10]).toFixed(0)} ms apart: 11 posts within 10 s`);
    }
    const took = Math.max(...posts.map((p) => p.answered)) - sent[0];
    const rtts = posts.map((p) => p.answered - p.sent).sort((a, b) => a - b);
    // How close to the limit's pace the burst went is a speed figure, printed
    // here, not asserted: a wall-clock bound fails on a loaded machine (the
    // team's rule: speed is measured in bench/, tests assert behaviour).
    console.log(`burst of 30: ${took.toFixed(0)} ms (the limit allows ${LIMIT_MS} ms plus one round trip); ` +
                `median round trip ${rtts[15].toFixed(1)} ms, max ${rtts[29].toFixed(1)} ms`);
    const mirror = await page.locator('#mirror').textContent();
    assert.match(mirror, /Posts: 30 of 30 delivered\./);
    // A screen reader hears the start, every 10 and the end, not 30 updates.
    const posting = [...new Set((await mirrorLog(page)).map((t) => (t.match(/Post(?:s|ing)[^.]*\./) || [''])[0])
      .filter(Boolean))];
    assert.deepEqual(posting, ['Posting 30 posts.', 'Posting: 10 of 30 delivered so far.',
      'Posting: 20 of 30 delivered so far.', 'Posts: 30 of 30 delivered.'], 'burst announcements');
    await page.close();
  });

  test('a task with assignees and a due date is added (spec 4.7)', async () => {
    const page = await browser.context.newPage();
    let posted = null;
    page.on('request', (r) => { if (new URL(r.url()).pathname === `/api/rooms/${DIRECT}/tasks`) posted = r.postData(); });
    await openApp(page, stack.url);
    await act(page, { type: 'use_api_token', token: demoUsers.alice.apiToken });
    await waitForState(page, (s) => s.account && !s.loading, 'the account');
    const due = Math.floor(Date.now() / 1000) + 86400;
    await act(page, { type: 'post_task', room_id: DIRECT, body: 'Review the release notes', to_ids: ['1002'], limit: due,
      limit_type: 'date' });
    const state = await waitForState(page, (s) => s.queue.delivered + s.queue.failed >= 1, 'the task');
    assert.equal(state.queue.delivered, 1, JSON.stringify(state.last_error));
    const form = new URLSearchParams(posted);
    assert.equal(form.get('to_ids'), '1002');
    assert.equal(form.get('limit'), String(due));
    assert.equal(form.get('limit_type'), 'date');
    await page.close();
  });

  // A background tab gets no animation frames: the app's own timer
  // (emscripten_set_timeout at the next send time) keeps the paced posts going.
  appOnlyTest('paced posts keep going with no animation frames (a background tab)', async () => {
    const page = await browser.context.newPage();
    const OWN_ROOM = '2001';  // Alice's own room: no other test posts there
    await openApp(page, stack.url);
    await act(page, { type: 'use_api_token', token: demoUsers.alice.apiToken });
    await waitForState(page, (s) => s.account && !s.loading, 'the account');
    await act(page, { type: 'post_message', room_id: OWN_ROOM, body: 'in the background', count: 15 });
    await waitForState(page, (s) => s.queue.total === 15 && s.queue.delivered >= 1, 'the first posts');
    // From now on no frame is drawn, as in a hidden tab (Emscripten asks the
    // global requestAnimationFrame for every frame).
    await page.evaluate(() => {
      window.__raf = window.requestAnimationFrame;
      window.requestAnimationFrame = () => 0;
    });
    const state = await waitForState(page, (s) => s.queue.delivered + s.queue.failed >= 15,
      'the 15 posts without frames', 40000);
    assert.equal(state.queue.delivered, 15);
    assert.equal(state.counters.responses_429, 0);
    await page.evaluate(() => { window.requestAnimationFrame = window.__raf; });
    await page.close();
  });

  test('a per-room 429 (another client filled the window) is waited out, about 10 s, and shown', async () => {
    const page = await browser.context.newPage();
    const statuses = [];
    page.on('response', (r) => { if (/\/api\/rooms\/2101\/messages$/.test(new URL(r.url()).pathname)) statuses.push(r.status()); });
    await openApp(page, stack.url);
    await act(page, { type: 'use_api_token', token: demoUsers.alice.apiToken });
    await waitForState(page, (s) => s.account && !s.loading, 'the account');
    for (let i = 0; i < 10; i++) {
      assert.equal((await sandboxApi(stack, demoUsers.bob, 'POST', '/rooms/2101/messages', { body: `bob ${i}` })).status, 200);
    }
    const started = Date.now();
    await act(page, { type: 'post_message', room_id: '2101', body: 'after the wait' });
    const waiting = await waitForState(page, (s) => s.counters.responses_429 === 1, 'the 429');
    assert.equal(waiting.queue.waiting, 1, 'the post waits instead of failing');
    const done = await waitForState(page, (s) => s.queue.delivered === 1, 'the delivery after the wait', 30000);
    const waited = Date.now() - started;
    assert.ok(waited >= 8000 && waited <= 16000, `waited about 10 s (spec 7.3): ${waited} ms`);
    assert.deepEqual(statuses, [429, 200], 'one 429, then one successful retry');
    assert.equal(done.queue.failed, 0);
    await page.close();
  });
});
