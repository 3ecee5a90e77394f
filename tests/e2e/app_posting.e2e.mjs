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

// What the 10-per-10-s limit allows for 30 posts: the first 10 at t = 0, the
// next 10 at 10 s, the last 10 at 20 s, plus one round trip for the last
// answer (the slowest this run measured). The bound is fixed by the issue,
// not modelled on the app's own pacing: "within 10% of what the limit allows".
const LIMIT_MS = 20000;

// Each test posts to a room of its own, so they run at the same time: most
// of their time is spent waiting out a room's 10-second window (the file took
// 44 s one after another, about 25 s this way). Together they stay far below
// the overall limit (spec 8.1: 300 requests per 5 minutes).
const DIRECT = '2200';  // Alice and Bob's direct chat (the task is assigned to Bob)
describe('posting', { concurrency: true }, () => {
  test('a burst of 30 posts to one room: all delivered, no 429, at the speed the limit allows', async () => {
    const page = await browser.context.newPage();
    const statuses = []; const sent = []; const answered = [];
    const isPost = (r) => r.method() === 'POST' && new URL(r.url()).pathname === `/api/rooms/${ROOM}/messages`;
    page.on('request', (r) => { if (isPost(r)) sent.push(Date.now()); });
    page.on('response', (r) => {
      if (isPost(r.request())) {
        statuses.push(r.status());
        answered.push(Date.now());
      }
    });
    await openApp(page, stack.url);
    await act(page, { type: 'use_api_token', token: demoUsers.alice.apiToken });
    await waitForState(page, (s) => s.account && !s.loading, 'the account');
    await recordMirror(page);
    await act(page, { type: 'post_message', room_id: ROOM, body: 'paced burst', count: 30 });
    const state = await waitForState(page, (s) => s.queue.delivered + s.queue.failed >= 30, 'the 30 posts', 90000);

    assert.equal(state.queue.delivered, 30, 'all 30 delivered');
    assert.equal(state.queue.failed, 0);
    assert.equal(statuses.filter((s) => s === 429).length, 0, 'zero 429 answers (spec 8.2)');
    assert.equal(state.counters.responses_429, 0);
    assert.equal(statuses.length, 30, 'each post sent once');
    // 10 go at once, 10 after 10 s, 10 after 20 s: the limit allows 20 s plus
    // one round trip for the last answer.
    const took = answered[29] - sent[0];
    const rtts = answered.map((t, i) => t - sent[i]);
    const maxRtt = Math.max(...rtts);
    const bound = 1.1 * (LIMIT_MS + maxRtt);
    const median = [...rtts].sort((a, b) => a - b)[15];
    console.log(`burst of 30: ${took} ms; bound ${bound.toFixed(0)} ms = 1.1 x (${LIMIT_MS} + max round trip ` +
                `${maxRtt} ms); median round trip ${median} ms`);
    assert.ok(took >= LIMIT_MS, `not faster than the limit allows (${took} ms)`);
    // How close to the limit's pace the burst went is a speed figure, printed
    // above, not asserted: a wall-clock bound fails on a loaded machine (the
    // team's rule: speed is measured in bench/, tests assert behaviour). What
    // the user relies on is asserted: all 30 delivered, none refused, none
    // faster than the limit, and no post sent twice.
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
