// app_outages.e2e.mjs: the real sandbox and helper stopped
// and restarted on the same ports while the page stays open with posts
// queued, and sign-out with posts still queued. Every post is delivered
// exactly once, none is dropped, the app says what happened in plain words
// (state() and the aria-live mirror) and recovers without a reload. Faults in
// the service's answers are in app_faults.e2e.mjs; faults_support.mjs holds
// what both use.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { act, waitForState, stopProgram, withStackAndBrowser, widgetRect, clickWidget, artifacts } from './support.mjs';
import { faultKit, countOf, mirror, ROOM } from './faults_support.mjs';

let stack; let browser;
withStackAndBrowser((s, b) => { stack = s; browser = b; });
const { injectFault, clearFaults, roomBodies, restartSandbox, restartHelper, signInWithApiToken, postWithTheControls,
  deliverAll } = faultKit(() => stack);

// ---------------------------------------------------------------------------
// The outages
// ---------------------------------------------------------------------------

test('the sandbox stopped and restarted on the same port while posts are queued: all delivered once', async () => {
  const page = await browser.context.newPage();
  await signInWithApiToken(page);
  await stopProgram(stack.sandbox);
  const bodies = ['outage 1', 'outage 2', 'outage 3'];
  for (const body of bodies) await act(page, { type: 'post_message', room_id: ROOM, body });
  const waiting = await waitForState(page, (s) => s.posts.filter((p) => bodies.includes(p.body))
    .every((p) => p.stage === 'retrying' || p.stage === 'waiting' || p.stage === 'unknown'), 'the posts held');
  assert.equal(waiting.posts.filter((p) => bodies.includes(p.body)).length, 3, 'no post dropped');
  await waitForState(page, (s) => s.posts.some((p) => p.stage === 'retrying' && /could not reach|not sent/i.test(p.note)),
    'the queue says the service could not be reached');
  // The mirror as it read while the state said so (the page updates both in
  // one call, shell/page.js _publish): a post goes again 1 s after it began
  // retrying, and then the mirror says only "Posting N posts", so a mirror
  // read in a later call may already tell that next step.
  const told = await page.evaluate(() => new Promise((resolve, reject) => {
    const check = () => {
      const s = window.roomkey.state();
      if (!s.posts.some((p) => p.stage === 'retrying' && /could not reach|not sent/i.test(p.note))) return;
      window.removeEventListener('roomkey:state', check);
      clearTimeout(timer);
      resolve(window.roomkey.mirrorText());
    };
    const timer = setTimeout(() => {
      window.removeEventListener('roomkey:state', check);
      reject(new Error(`no post retrying for 30 s; the mirror: ${window.roomkey.mirrorText()}`));
    }, 30000);
    window.addEventListener('roomkey:state', check);
    check();
  }));
  assert.match(told, /retry|waiting|could not reach/i, 'the mirror tells the user');

  await restartSandbox();
  await deliverAll(page, bodies, 'the outage posts');
  const room = await roomBodies();
  for (const body of bodies) assert.equal(countOf(room, body), 1, `"${body}" delivered exactly once`);
  await postWithTheControls(page, 'drawn after the sandbox restart');
  await page.close();
});

// The error box's words as drawn (ui_header.cpp describes the box in the
// accessibility tree): the first image whose name starts with `title`.
async function errorBoxWords(page, title) {
  const handle = await page.waitForFunction((t) => {
    const box = [...document.querySelectorAll('#a11y [role=img]')]
      .find((el) => (el.getAttribute('aria-label') || '').startsWith(t));
    return box ? box.getAttribute('aria-label') : null;
  }, title, { timeout: 30000 });
  return handle.jsonValue();
}

// What the screen says while the service is away: one place (the error
// box), in words: what failed, when the room is read again, what to do; no
// HTTP status and no error name (the page API and the developer view keep
// them). The box's words are in the accessibility tree as drawn.
test('the sandbox stopped: a room failure is said once, in words, with when it is tried again', async () => {
  const page = await browser.context.newPage();
  await signInWithApiToken(page);
  await act(page, { type: 'open_room', room_id: ROOM });
  await waitForState(page, (s) => s.room && s.room.room_id === ROOM && !s.room.loading, 'the room open');
  await stopProgram(stack.sandbox);
  try {
    await act(page, { type: 'load_messages', room_id: ROOM });
    const failed = await waitForState(page, (s) => s.errors.room && s.last_error && !s.room.loading, 'the room failing');
    assert.match(failed.errors.room, /^HTTP 502: .*connect_failed/, 'the page API keeps its values');
    assert.equal(failed.last_error.code, 'HTTP 502');
    for (const [width, height] of [[390, 844], [1000, 700]]) {
      await page.setViewportSize({ width, height });
      const words = await errorBoxWords(page, failed.last_error.title);
      assert.doesNotMatch(words, /HTTP|\b50\d\b|connect_failed|_/, `no wire words on the screen at ${width}: ${words}`);
      assert.match(words, /could not be reached/, `what happened, in words, at ${width}: ${words}`);
      assert.match(words, /checks the room again at \d\d:\d\d:\d\d/, `when it is tried again, at ${width}: ${words}`);
      assert.match(words, /try again in a moment/, `what to do, at ${width}: ${words}`);
      // Said once: no line of the room's own between its buttons and the conversation.
      const buttons = await widgetRect(page, 'details_toggle');
      const log = await widgetRect(page, 'conversation');
      assert.ok(log.y - (buttons.y + buttons.height) < buttons.height,
        `nothing drawn between the room's buttons and its messages at ${width}: ${JSON.stringify({ buttons, log })}`);
      await page.screenshot({ path: join(artifacts, `outage_words_${width}x${height}.png`) });
    }
  } finally {
    await restartSandbox();
  }
  await act(page, { type: 'load_messages', room_id: ROOM });
  await waitForState(page, (s) => !s.errors.room && !s.room.loading, 'the room read again');
  await page.close();
});

// A post that becomes failed (or waiting: the same row) comes into view
// whole, with what the user can do about it: Retry now, Edit and Discard lie
// inside the conversation's log, not under its bottom edge, even when the
// reader scrolled up while it was sending. A phone's width with a mouse:
// the log is shortest there. The post is held by the page's route (no
// answer yet), then its connection broken.
test('at 390x844 with a mouse, a post that becomes failed comes into view with Retry now, Edit and Discard', async () => {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 390, height: 844 });
  await signInWithApiToken(page);
  await act(page, { type: 'open_room', room_id: ROOM });
  await waitForState(page, (s) => s.room && s.room.room_id === ROOM && !s.room.loading, 'the room open');
  const pendingOf = (s, body) => s.room && s.room.messages.find((m) => m.body === body && m.pending);
  let held = null; let refuse = false;
  await page.route((u) => u.pathname.endsWith(`/rooms/${ROOM}/messages`), (route) => {
    if (route.request().method() !== 'POST') return route.continue();
    if (refuse) return route.abort('connectionrefused');
    held = route;
  });
  const body = `waiting in view ${Date.now()}`;
  await act(page, { type: 'post_message', room_id: ROOM, body });
  await waitForState(page, (s) => pendingOf(s, body) && pendingOf(s, body).pending === 'sending', 'the post sending');
  // The reader scrolls up to read while it is sending.
  const log = await widgetRect(page, 'conversation');
  await page.mouse.move(log.x + log.width / 2, log.y + log.height / 2);
  await page.mouse.wheel(0, -5000);
  await widgetRect(page, 'jump_latest');
  for (let i = 0; !held && i < 400; i++) await new Promise((r) => setTimeout(r, 25));
  assert.ok(held, 'the post reached the page\'s route');
  refuse = true;  // this and every try after it, until the row is checked
  await held.abort('connectionrefused');
  // Its answer lost: whether it was sent is not known, so it is failed where it stands (as a waiting post is drawn).
  await waitForState(page, (s) => pendingOf(s, body) && ['waiting', 'failed'].includes(pendingOf(s, body).pending),
    'the post failed');
  const full = (await widgetRect(page, 'details_toggle')).height;  // a whole small button
  for (const name of ['retry_post', 'discard_post']) {
    const r = await widgetRect(page, name, { timeoutMs: 10000 });
    assert.ok(r.height >= full - 0.5 && r.y >= log.y - 0.5 && r.y + r.height <= log.y + log.height + 0.5,
      `${name} ${JSON.stringify(r)} whole (${full} px tall) inside the log ${JSON.stringify(log)}`);
  }
  await page.screenshot({ path: join(artifacts, 'outage_retry_row_390x844.png') });
  await clickWidget(page, 'discard_post');  // reachable as drawn
  await waitForState(page, (s) => !pendingOf(s, body), 'the waiting post discarded');
  await page.close();
});

test('the helper restarted while the page is open: reads report it, posts wait, all recover without a reload', async () => {
  const page = await browser.context.newPage();
  await signInWithApiToken(page);
  let loads = 0;
  page.on('load', () => { loads += 1; });

  await stopProgram(stack.helper);
  await act(page, { type: 'reload_account' });
  const down = await waitForState(page, (s) => s.last_error && s.errors.account, 'the helper unreachable');
  assert.match(down.last_error.message, /roomkey-helper/, 'plain words: the helper did not answer');
  assert.match(await mirror(page), /Last error: .*roomkey-helper/);
  const bodies = ['while the helper was away 1', 'while the helper was away 2'];
  for (const body of bodies) await act(page, { type: 'post_message', room_id: ROOM, body });
  await waitForState(page, (s) => s.posts.filter((p) => bodies.includes(p.body)).length === 2, 'both posts queued');

  await restartHelper();
  await deliverAll(page, bodies, 'the posts queued while the helper was away');
  const room = await roomBodies();
  for (const body of bodies) assert.equal(countOf(room, body), 1, `"${body}" delivered exactly once`);
  await act(page, { type: 'reload_account' });
  await waitForState(page, (s) => !s.last_error && !s.errors.account && !s.loading, 'the error cleared');
  await postWithTheControls(page, 'drawn after the helper restart');
  assert.equal(loads, 0, 'no reload');
  await page.close();
});

// The page's one transport (web/src/fetch_transport.cpp) ends a request the
// helper never answers with XMLHttpRequest's own timeout event, at
// kFetchTimeoutMs (30 s), and says so: a timeout, not a connection failure.
test('a request the helper never answers ends at the transport timeout and is told as a timeout', async () => {
  const page = await browser.context.newPage();
  await page.route((u) => u.pathname === '/config.json', () => {});  // held: never answered
  const started = Date.now();
  await page.goto(stack.url);
  const state = await waitForState(page, (s) => s.errors && s.errors.config, 'the held request given up', 60000);
  const took = Date.now() - started;
  assert.match(state.errors.config, /did not answer in time/, `a timeout, not a network error: ${state.errors.config}`);
  assert.ok(took >= 29000, `not before the 30 s timeout (${took} ms)`);
  await page.close();
});

test('signing out with posts still queued asks first, and keeps them when the user stays', async () => {
  const page = await browser.context.newPage();
  await signInWithApiToken(page);
  await injectFault({ kind: 'status5xx', status: 503, count: 3, method: 'POST', path: `/v2/rooms/${ROOM}/messages` });
  await act(page, { type: 'post_message', room_id: ROOM, body: 'queued at sign-out' });
  await waitForState(page, (s) => s.posts.some((p) => p.stage === 'retrying'), 'a post retrying');
  await act(page, { type: 'sign_out' });
  const asked = await waitForState(page, (s) => s.sign_out_confirm, 'the sign-out question');
  assert.equal(asked.sign_out_confirm.posts, 1);
  assert.equal(asked.session, 'api token', 'still signed in until the user confirms');
  assert.match(await mirror(page), /sign out|discard/i);
  await act(page, { type: 'cancel_sign_out' });
  await waitForState(page, (s) => !s.sign_out_confirm && s.posts.length === 0, 'kept and delivered', 30000);
  await clearFaults();
  await act(page, { type: 'sign_out' });
  await waitForState(page, (s) => s.mode === 'none', 'signed out at once with nothing queued');
  await page.close();
});
