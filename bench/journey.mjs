#!/usr/bin/env node
// journey.mjs: what a user waits for, through each front (roomkey-helper and
// the generated nginx front), each beside one bare API round trip measured
// in the same page (issue 29 item 5):
//   - Allow -> workspace on screen: from the consent's Allow (the /callback
//     page's time origin: the navigation the consent form started) to the
//     workspace with the account, the status and the room list drawn;
//   - open a room -> its messages on screen: from a mouse click on the room
//     in the room list (the button's release) to the room's messages drawn;
//     goal <= 1.5x one API round trip;
//   - Bob's post -> on Alice's screen: Bob posts to the room with his API
//     token straight to the sandbox; Alice's app sees it with its next poll
//     of the open room, so this is bounded by the poll interval in force
//     (printed beside it) plus one read and a frame. Bob posts at a random
//     moment of the poll's period, so the median is about half of it.
//
//   cmake --preset wasm && cmake --build --preset wasm --target roomkey_web_dist
//   cmake --preset native-release && cmake --build --preset native-release --target roomkey-helper roomkey-sandbox
//   node bench/journey.mjs [--runs 5] [--room 2100] [--json] [--bin DIR] [--web DIR]
//
// "On screen" is the frame, not the state: the app numbers its frames, and
// state().frame is the frame that draws that state (web/src/main.cpp
// publish). A hook on the page API (wrapped before the page loads) notes the
// first published state that shows the step, then the end of the animation
// frame numbered state().frame or later (the picture handed to the browser:
// "drawn"), then the start of the browser's next animation frame ("on
// screen"): by then the browser has taken the drawn picture (with software
// WebGL here that includes reading the canvas back), and a display shows it
// at that frame. The figures quoted are "on screen".
//
// The reference, one bare API round trip: a plain fetch() of GET /api/me
// (and of the room's messages, the read opening a room makes) from the same
// page through the same front, three times each (the median is kept), once
// the page has drawn nothing for 300 ms.
//
// Each run signs Alice in with OAuth in a fresh page of one headless
// Chromium (with Chromium's own defaults, as users run it), once through
// each front, the two taking turns (each goes first in every other run);
// each front has its own sandbox (the redirect URI names the front's port),
// with the rate limit raised so that no 429 is measured. One warm-up run per
// front first (the login page, the app's files in the HTTP cache). Where
// the time went in the last run is printed after the table: the requests
// and the frames between the click on the room and its messages on screen.
import { commandLine } from './cli.mjs';
import { addPageApiHooks } from './page_api_hook.mjs';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

const { option, flag } = commandLine(import.meta.url);
const runs = Number(option('--runs', '5'));
const room = option('--room', '2100');
const asJson = flag('--json');
if (!Number.isInteger(runs) || runs < 1) {
  console.error(`journey.mjs: --runs takes a whole number above 0, not '${option('--runs')}' (try --help)`);
  process.exit(2);
}
if (!/^\d+$/.test(room)) {
  console.error(`journey.mjs: --room takes a room id (digits), not '${room}' (try --help)`);
  process.exit(2);
}
process.env.ROOMKEY_BIN_DIR ||= resolve(option('--bin', 'build/native-release/bin'));
process.env.ROOMKEY_WEB_DIST ||= resolve(option('--web', 'build/wasm/web/dist'));
process.env.ROOMKEY_ARTIFACTS ||= resolve('build/bench-artifacts');
for (const [what, path, build] of [
  ['roomkey-helper', join(process.env.ROOMKEY_BIN_DIR, 'roomkey-helper'),
    'cmake --preset native-release && cmake --build --preset native-release --target roomkey-helper roomkey-sandbox'],
  ['roomkey-sandbox', join(process.env.ROOMKEY_BIN_DIR, 'roomkey-sandbox'), 'the same'],
  ['the web build', join(process.env.ROOMKEY_WEB_DIST, 'index.html'),
    'cmake --preset wasm && cmake --build --preset wasm --target roomkey_web_dist'],
]) {
  if (!existsSync(path)) {
    console.error(`journey.mjs: ${what} is missing (${path}): build it (${build}), or name another with --bin/--web`);
    process.exit(2);
  }
}
const { launchBrowser, startStack, stopStack, openApp, act, waitForState, passConsent, sandboxApi, demoUsers } =
  await import('../tests/e2e/support.mjs');

const FRONTS = ['helper', 'nginx'];
const SCOPE = 'users.all:read rooms.all:read_write';

const median = (list) => {
  const sorted = [...list].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const progress = (text) => { if (!asJson || process.stderr.isTTY) process.stderr.write(`journey: ${text}\n`); };

// Runs in every document before its scripts (page.addInitScript, after
// addPageApiHooks): wraps the page API's _publish and _publishFrame as soon
// as shell/page.js defines them, and requestAnimationFrame, to note when the step the bench waits for
// (window.__journey.want) is published, drawn and on screen.
function journeyHooks() {
  const predicates = {
    workspace: (s) => s.session === 'signed in' && s.view === 'workspace' && s.account && s.status &&
      s.room_count > 0 && !s.loading,
    room: (s, w) => s.room && s.room.room_id === w.room_id && !s.room.loading && s.room.messages.length > 0,
    post: (s, w) => s.room && s.room.messages.some((m) => m.body === w.body),
  };
  const j = window.__journey = {
    want: { kind: 'workspace' }, metAt: 0, metFrame: 0, drawnAt: 0, shownAt: 0, pollIn: null,
    lastFrame: 0, lastFrameEnd: 0, frames: [], clickAt: 0,
    // The bench names the next step; its marks start afresh.
    expect(want) { Object.assign(j, { want, metAt: 0, metFrame: 0, drawnAt: 0, shownAt: 0, frames: [], clickAt: 0 }); },
  };
  // A click is done when the button comes up: the user waits from there.
  window.addEventListener('mouseup', (event) => { j.clickAt = event.timeStamp; }, true);
  const drawn = () => {
    j.drawnAt = performance.now();
    requestAnimationFrame(() => { j.shownAt = performance.now(); });
  };
  let frameStart = 0;
  const raf = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (callback) => raf((time) => { frameStart = performance.now(); callback(time); });
  window.__roomkeyApiHooks.push((value) => {
    const publish = value._publish;
    const state = {};
    value._publish = function (json) {
      publish(json);
      let s;
      try { s = window.__roomkeyMergeParts(state, json); } catch (e) { return; }
      if (!j.want || j.metAt) return;
      if (!predicates[j.want.kind](s, j.want)) return;
      j.metAt = performance.now();
      j.metFrame = s.frame;
      j.pollIn = s.room ? s.room.poll_in_ms : null;  // at the answer that met it: the whole interval
      if (j.lastFrame >= s.frame) drawn();  // published by the frame that drew it (after _publishFrame)
    };
    const publishFrame = value._publishFrame;
    value._publishFrame = function (frame) {
      publishFrame(frame);
      j.lastFrame = frame;
      j.lastFrameEnd = performance.now();
      if (j.frames.length < 200) j.frames.push([frameStart, j.lastFrameEnd]);
      if (j.metAt && !j.drawnAt && frame >= j.metFrame) drawn();
    };
  });
}

// Waits in the page until the step is on screen (or `timeoutMs`), then until
// it has drawn nothing for `quietMs`; answers the marks.
async function onScreen(page, what, timeoutMs = 30000, quietMs = 300) {
  return page.evaluate(async ({ what, timeoutMs, quietMs }) => {
    const j = window.__journey;
    const start = Date.now();
    while (!j.shownAt || performance.now() - j.lastFrameEnd < quietMs) {
      if (Date.now() - start > timeoutMs) {
        throw new Error(j.shownAt ? `the page never stopped drawing for ${quietMs} ms after ${what}`
          : `${what} was not on screen within ${timeoutMs} ms (published: ${j.metAt > 0}, drawn: ${j.drawnAt > 0})`);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return { metAt: j.metAt, drawnAt: j.drawnAt, shownAt: j.shownAt, frames: j.frames, pollIn: j.pollIn };
  }, { what, timeoutMs, quietMs });
}

// One bare API round trip from the page: the median of three fetches of each path.
function roundTrips(page, paths) {
  return page.evaluate(async ({ paths, token }) => {
    const out = {};
    for (const path of paths) {
      const times = [];
      for (let i = 0; i < 3; i++) {
        const start = performance.now();
        const response = await fetch(path, { headers: { 'x-servicetoken': token, 'X-Roomkey-Request': '1' },
          cache: 'no-store' });
        await response.text();
        if (!response.ok) throw new Error(`${path}: ${response.status}`);
        times.push(performance.now() - start);
      }
      out[path] = times.sort((a, b) => a - b)[1];
    }
    return out;
  }, { paths, token: demoUsers.alice.apiToken });
}

// The app's API requests (one XMLHttpRequest each, web/src/fetch_transport.cpp;
// the bench's own are fetch()es) that ended after `from` (performance.now()), in ms from `from`.
function appRequestsSince(page, from) {
  return page.evaluate((from) => performance.getEntriesByType('resource')
    .filter((e) => e.responseEnd >= from && e.initiatorType === 'xmlhttprequest' &&
      new URL(e.name).pathname.startsWith('/api/'))
    .map((e) => ({ path: new URL(e.name).pathname, start: e.startTime - from, end: e.responseEnd - from,
      first_byte_wait: e.responseStart - e.requestStart, new_connection: e.connectEnd > e.connectStart })), from);
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// One run through `stack`'s front: sign in, open the room, Bob's post.
async function run(browser, stack) {
  const page = await browser.context.newPage();
  await addPageApiHooks(page);
  await page.addInitScript(journeyHooks);
  try {
    await openApp(page, stack.url);
    await act(page, { type: 'sign_in', scope: SCOPE });
    await passConsent(page, stack, demoUsers.alice, 'allow');
    // Allow -> workspace: this document's time origin is the consent form's navigation.
    const workspace = await onScreen(page, 'the workspace');
    const allowTrip = await roundTrips(page, ['/api/me']);

    // A click on the room in the room list, where the accessibility tree
    // (which sits over the canvas and lets clicks through) says it is drawn.
    const { rooms } = await page.evaluate(() => window.roomkey.state());
    const entry = rooms.find((r) => r.room_id === room);
    if (!entry) throw new Error(`Alice is not a member of room ${room} (her rooms: ${rooms.map((r) => r.room_id)})`);
    const box = await page.getByRole('list', { name: 'Rooms' }).getByRole('button', { name: entry.name }).boundingBox();
    // The pointer is there first (its hover drawn), as a user's is before the click.
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.waitForFunction(() => performance.now() - window.__journey.lastFrameEnd >= 300, null,
      { timeout: 30000, polling: 50 });
    await page.evaluate((room) => window.__journey.expect({ kind: 'room', room_id: room }), room);
    await page.mouse.down();
    await page.mouse.up();
    const opened = await page.evaluate(() => window.__journey.clickAt);
    const roomShown = await onScreen(page, `room ${room}'s messages`);
    const roomRequests = (await appRequestsSince(page, opened)).filter((r) => r.start <= roomShown.shownAt - opened);
    const messagesPath = `/api/rooms/${room}/messages`;
    const roomTrips = await roundTrips(page, ['/api/me', `${messagesPath}?force=1`]);

    // Bob posts at a random moment of the poll's period.
    const interval = roomShown.pollIn;
    if (typeof interval !== 'number') throw new Error('the open room has no poll scheduled (state().room.poll_in_ms)');
    await pause(Math.random() * interval);
    const body = `journey ${stack.via} ${Date.now()}`;
    const postAt = await page.evaluate((body) => {
      window.__journey.expect({ kind: 'post', body });
      return performance.now();
    }, body);
    const posted = await sandboxApi(stack, demoUsers.bob, 'POST', `/rooms/${room}/messages`, { body });
    if (posted.status !== 200) throw new Error(`Bob's post: ${posted.status} ${posted.text}`);
    const postShown = await onScreen(page, 'Bob\'s post', interval + 30000);
    // The read that brought it: the last of the room's messages answered
    // before the state that shows the post was published.
    const reads = (await appRequestsSince(page, postAt)).filter((r) => r.path === messagesPath);
    const poll = reads.filter((r) => r.end <= postShown.metAt - postAt).pop();
    await act(page, { type: 'sign_out' });
    return {
      allow: { shown: workspace.shownAt, drawn: workspace.drawnAt, published: workspace.metAt },
      allow_round_trip: allowTrip['/api/me'],
      room: { shown: roomShown.shownAt - opened, drawn: roomShown.drawnAt - opened,
        published: roomShown.metAt - opened, requests: roomRequests,
        frames: roomShown.frames.map(([start, end]) => [start - opened, end - opened]) },
      round_trip: roomTrips['/api/me'],
      round_trip_messages: roomTrips[`${messagesPath}?force=1`],
      post: { shown: postShown.shownAt - postAt, interval,
        poll_wait: poll ? poll.start : null, poll_round_trip: poll ? poll.end - poll.start : null,
        after_poll: poll ? postShown.shownAt - postAt - poll.end : null },
    };
  } finally {
    await page.close();
  }
}

const stacks = {};
const results = Object.fromEntries(FRONTS.map((f) => [f, []]));
let browser;
try {
  for (const via of FRONTS) {
    progress(`starting the sandbox and the ${via} front`);
    stacks[via] = await startStack({ sandboxArgs: ['--rate-limit', '100000'], via });
  }
  browser = await launchBrowser({ testFlags: false });  // Chromium as users run it
  for (const via of FRONTS) {
    progress(`warm-up through the ${via} front`);
    await run(browser, stacks[via]);
  }
  for (let i = 0; i < runs; i++) {
    // Each front goes first in every other run.
    for (const via of i % 2 ? [...FRONTS].reverse() : FRONTS) {
      const r = await run(browser, stacks[via]);
      results[via].push(r);
      progress(`run ${i + 1}/${runs} ${via.padEnd(6)}: Allow -> workspace ${r.allow.shown.toFixed(0)} ms, ` +
        `open room -> messages ${r.room.shown.toFixed(0)} ms (round trip ${r.round_trip.toFixed(1)} ms), ` +
        `Bob's post -> screen ${r.post.shown.toFixed(0)} ms (poll every ${(r.post.interval / 1000).toFixed(1)} s)`);
    }
  }
} finally {
  if (browser) await browser.close();
  for (const stack of Object.values(stacks)) await stopStack(stack);
}

// Medians over the runs; the ratios are medians of each run's own ratio.
function summarise(list) {
  const m = (pick) => {
    const values = list.map(pick).filter((v) => typeof v === 'number');
    return values.length ? median(values) : null;
  };
  return {
    allow_to_workspace_ms: m((r) => r.allow.shown),
    allow_to_workspace_drawn_ms: m((r) => r.allow.drawn),
    allow_to_workspace_published_ms: m((r) => r.allow.published),
    allow_round_trip_ms: m((r) => r.allow_round_trip),
    allow_ratio: m((r) => r.allow.shown / r.allow_round_trip),
    open_room_ms: m((r) => r.room.shown),
    open_room_drawn_ms: m((r) => r.room.drawn),
    open_room_published_ms: m((r) => r.room.published),
    round_trip_ms: m((r) => r.round_trip),
    round_trip_messages_ms: m((r) => r.round_trip_messages),
    open_room_frames: m((r) => r.room.frames.filter(([start]) => start >= 0 && start < r.room.shown).length),
    open_room_ratio: m((r) => r.room.shown / r.round_trip),
    open_room_ratio_to_messages_read: m((r) => r.room.shown / r.round_trip_messages),
    post_ms: m((r) => r.post.shown),
    post_max_ms: Math.max(...list.map((r) => r.post.shown)),
    poll_interval_ms: m((r) => r.post.interval),
    post_poll_wait_ms: m((r) => r.post.poll_wait),
    post_poll_round_trip_ms: m((r) => r.post.poll_round_trip),
    post_after_poll_ms: m((r) => r.post.after_poll),
  };
}

const GOAL = 1.5;
const summary = { runs, room, goal_open_room_ratio: GOAL,
  ...Object.fromEntries(FRONTS.map((f) => [f, summarise(results[f])])),
  last_run_open_room: Object.fromEntries(FRONTS.map((f) => [f, results[f].at(-1).room])) };

if (asJson) {
  console.log(JSON.stringify(summary, null, 2));
} else {
  const cell = (v, unit = ' ms', digits = 0) => (v === null ? '-' : v.toFixed(digits) + unit).padStart(12);
  const row = (label, pick, unit, digits) => console.log(`  ${label.padEnd(52)}` +
    FRONTS.map((f) => cell(pick(summary[f]), unit, digits)).join(''));
  console.log(`medians of ${runs} runs through each front, the fronts taking turns (room ${room}):`);
  console.log(`  ${''.padEnd(52)}${FRONTS.map((f) => f.padStart(12)).join('')}`);
  row('Allow -> workspace on screen', (s) => s.allow_to_workspace_ms);
  row('  state published', (s) => s.allow_to_workspace_published_ms);
  row('  frame drawn', (s) => s.allow_to_workspace_drawn_ms);
  row('  one API round trip (GET /api/me), same page', (s) => s.allow_round_trip_ms, ' ms', 1);
  row('  Allow -> workspace / round trip', (s) => s.allow_ratio, 'x', 1);
  row('open room -> messages on screen', (s) => s.open_room_ms);
  row('  state published', (s) => s.open_room_published_ms);
  row('  frame drawn', (s) => s.open_room_drawn_ms);
  row('  one API round trip (GET /api/me), same page', (s) => s.round_trip_ms, ' ms', 1);
  row(`  GET ${`/api/rooms/${room}/messages?force=1`}, same page`, (s) => s.round_trip_messages_ms, ' ms', 1);
  row('  frames drawn from the click to the one that shows them', (s) => s.open_room_frames, '', 0);
  row(`  open room / round trip (goal <= ${GOAL}x)`, (s) => s.open_room_ratio, 'x', 2);
  console.log(`  ${'    goal met'.padEnd(52)}${FRONTS.map((f) => (summary[f].open_room_ratio <= GOAL ? 'yes' : 'no')
    .padStart(12)).join('')}`);
  row('  open room / the messages read', (s) => s.open_room_ratio_to_messages_read, 'x', 2);
  row('Bob\'s post -> on Alice\'s screen', (s) => s.post_ms);
  row('  the slowest run', (s) => s.post_max_ms);
  row('  poll interval in force (the bound, plus a read)', (s) => s.poll_interval_ms);
  row('  waiting for the next poll', (s) => s.post_poll_wait_ms);
  row('  the poll\'s round trip', (s) => s.post_poll_round_trip_ms, ' ms', 1);
  row('  poll answered -> on screen', (s) => s.post_after_poll_ms);
  for (const f of FRONTS) {
    const r = summary.last_run_open_room[f];
    console.log(`last run through ${f}, opening the room (ms from the click; on screen at ${r.shown.toFixed(1)}):`);
    for (const q of r.requests) {
      console.log(`  ${q.start.toFixed(1).padStart(7)} -> ${q.end.toFixed(1).padStart(7)}  ${q.path} ` +
        `(${q.new_connection ? 'new' : 'kept-alive'} connection, first byte after ${q.first_byte_wait.toFixed(1)} ms)`);
    }
    console.log(`  frames (start -> end): ${r.frames.map(([a, b]) => `${a.toFixed(1)}->${b.toFixed(1)}`).join(', ')}`);
  }
}
