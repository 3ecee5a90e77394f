#!/usr/bin/env node
// scale.mjs: the app with a real-sized account beside the demo account, in
// one run, interleaved (each account goes first in every other run), in
// headless Chromium at 1366x800; medians, the ratio large / demo, and the
// goals beside them:
//   - sign-in -> room list drawn: from the consent's Allow (the /callback
//     document's time origin) to the frame that shows the account, the
//     status and the room list, on screen (goal <= 1.2x);
//   - open the room -> messages drawn: from act({type:'open_room'}) to the
//     frame that shows its messages on screen (goal <= 1.2x); and to the
//     first frame whose text has every glyph in the font atlas (the one
//     before may draw a glyph new to the atlas as '?');
//   - scrolling the open room to the top and back with the wheel (both rooms
//     scroll: the demo account's room gets ordinary one-line messages
//     posted until it holds as many as the long room, so the reference is
//     a screen of plain text scrolled, not a room that fits), each until
//     the wheel no longer moves it (4 steps in a row with nothing painted),
//     so both go the whole way whatever their heights: the app's frame time
//     (its animation frame callback) p50/p95 over the frames that painted
//     (goal <= 1.2x; a wheel step at the top paints nothing and costs
//     little, and a room that reached its top early once halved the
//     reference's median with such frames), the interval between frames
//     p95/max, and the main thread's busy share (Chromium's TaskDuration
//     over the wall time);
//   - a key in the room filter -> the list drawn (goal <= 1.2x), against the
//     demo account with its list padded to as many read rooms, named alike
//     (a third sandbox; the demo's own few rows beside it);
//   - page state published: bytes per publish while scrolling (goal: what
//     changed, not the whole state) and per frame drawn;
//   - a poll of the open room with nothing new, bytes on the wire (goal < 1 KB);
//   - API bytes on the wire (headers and bodies as sent) in the first
//     --window seconds after the Allow (goal <= 3x).
// The large account: Alice in 300 rooms (216 unread, 52 with mentions of
// her), 101 tasks for her, and a room of 100 messages (about 57,000
// characters, heavy in [To], [rp], [qt], [info], [code] and Japanese), made
// through the sandbox's REST API before the runs (a few hundred requests,
// with the sandbox's rate limits raised for both accounts alike), or given
// with --fixture FILE (roomkey-sandbox --fixture; --large-room names its long room).
//
//   cmake --preset wasm && cmake --build build/wasm
//   cmake --build build/native --target roomkey-helper roomkey-sandbox
//   node bench/scale.mjs [--runs 3] [--window 60] [--fixture FILE --large-room ID] [--json] [--bin DIR] [--web DIR]
//       [--profile DIR] [--trace DIR] [--before DIR]
// --profile DIR: Chromium's CPU profile of each opening, scroll and filter key
// (DIR/<account>-<run>-<open|scroll|filter>.cpuprofile, for DevTools) and the
// functions that took the most time, printed; give it
// --web with a build whose .wasm keeps its names (web/profile) to read them.
// --trace DIR: Chromium's trace of each opening, scroll and filter key
// (DIR/<account>-<run>-<open|scroll|filter>.json, for DevTools' Performance panel)
// and where the renderer's main thread spent that time, printed: its
// events by self time (script, style, layout, paint, GC, ...), and the
// requests sent, from the action on.
// --before DIR: a second web build (another branch's web/dist) measured in
// the same run, interleaved with --web's: the table has each figure of the
// build before beside its peer of --web's ("after").
import { commandLine } from './cli.mjs';
import { addPageApiHooks } from './page_api_hook.mjs';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const { option, flag } = commandLine(import.meta.url);
const runs = Number(option('--runs', '3'));
const windowS = Number(option('--window', '60'));
const fixture = option('--fixture', null);
const profileDir = option('--profile', null);
const traceDir = option('--trace', null);
const beforeWeb = option('--before', null);
const asJson = flag('--json');
if (!Number.isInteger(runs) || runs < 1) {
  console.error(`scale.mjs: --runs takes a whole number above 0, not '${option('--runs')}' (try --help)`);
  process.exit(2);
}
if (!(windowS >= 10)) {
  console.error(`scale.mjs: --window takes seconds, at least 10, not '${option('--window')}' (try --help)`);
  process.exit(2);
}
if (fixture && !option('--large-room', null)) {
  console.error('scale.mjs: --fixture needs --large-room ID, the fixture\'s long room to open (try --help)');
  process.exit(2);
}
process.env.ROOMKEY_BIN_DIR ||= resolve(option('--bin', 'build/native/bin'));
process.env.ROOMKEY_WEB_DIST ||= resolve(option('--web', 'build/wasm/web/dist'));
process.env.ROOMKEY_ARTIFACTS ||= resolve('build/bench-artifacts');
for (const [what, path] of [['roomkey-helper', join(process.env.ROOMKEY_BIN_DIR, 'roomkey-helper')],
  ['roomkey-sandbox', join(process.env.ROOMKEY_BIN_DIR, 'roomkey-sandbox')],
  ['the web build', join(process.env.ROOMKEY_WEB_DIST, 'index.html')],
  ...(beforeWeb ? [['the web build before', join(resolve(beforeWeb), 'index.html')]] : [])]) {
  if (!existsSync(path)) {
    console.error(`scale.mjs: ${what} is missing (${path}): build it (see --help), or name another with --bin/--web`);
    process.exit(2);
  }
}
const { launchBrowser, startStack, stopStack, restartHelper, openApp, act, passConsent, sandboxApi, demoUsers } =
  await import('../tests/e2e/support.mjs');
const { traceMainThread } = await import('./main_thread_trace.mjs');

const ACCOUNTS = ['demo', 'large'];
// The demo room's 4 messages and these: as many as the long room's 100.
const DEMO_POSTED = 96;
// The rooms the large account's seeding adds before its long room (seedLarge), added read to the padded demo list.
const PADDED_ROOMS = 296;
const SCOPE = 'users.all:read rooms.all:read_write';
// Both sandboxes alike: no 429 measured, and the seeding is not paced.
const LIMITS = ['--rate-limit', '100000', '--room-post-limit', '100000'];
const progress = (text) => { if (!asJson || process.stderr.isTTY) process.stderr.write(`scale: ${text}\n`); };
const median = (list) => {
  if (!list.length) return null;
  const sorted = [...list].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const quantile = (list, q) => {
  if (!list.length) return null;
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};

// ---------------------------------------------------------------------------
// The large account, through the sandbox's REST API
// ---------------------------------------------------------------------------

// A deterministic stream of numbers in [0, 1).
function randomFrom(seed) {
  let x = seed >>> 0;
  return () => ((x = (Math.imul(x ^ (x >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0) / 2 ** 32);
}
const JA = ['了解しました。', '確認お願いします。', '明日の会議は十時からです。', '資料を共有します。',
  '対応ありがとうございます！', 'リリースは来週の予定です 🚀', '少し遅れます。', 'テストが通りました ✅'];
const EN = ['The build is green.', 'Can you review the consent screen?', 'Shipping this after lunch.',
  'I pushed a fix for the refresh race.', 'Numbers look good: 3.5 ms p50.', 'Notes from the call below.'];

// One message of the long room: `i` picks its notation, `sizes` its length.
function longRoomMessage(rnd, i, roomId, earlier) {
  const words = (n) => Array.from({ length: n }, () => (rnd() < 0.5 ? JA : EN)[Math.floor(rnd() * 6)]).join(' ');
  const target = i === 7 ? 3000 : Math.round(120 + rnd() * 440);  // median about 340, one of 3,000
  let body;
  switch (i % 6) {
    case 0: body = `[To:1001]Alice Example さん\n${words(3)}`; break;
    case 1: body = earlier ? `[rp aid=1001 to=${roomId}-${earlier}]Alice Example\n${words(2)}` : words(3); break;
    case 2: body = `[qt][qtmeta aid=1003 time=1700000000]${words(2)}[/qt]\n${words(2)}`; break;
    case 3: body = `[info][title]${words(1)}[/title]${words(3)}[/info]`; break;
    case 4: body = `[code]const answer = await fetch('/api/rooms');\nif (!answer.ok) throw new Error('x');[/code]\n${words(1)}`; break;
    default: body = words(4);
  }
  while (body.length < target) body += `\n${words(2)}`;
  return body.slice(0, Math.max(target, 60));
}

// The demo account's room, made as long as the long room with ordinary
// one-line messages (no notation), from Bob and Alice in turn (Carol only
// reads there): the scroll's reference is a room that scrolls. Returns what it holds.
async function seedDemoRoom(stack, roomId, count) {
  let characters = 0;
  for (let i = 0; i < count; i++) {
    const body = `${(i % 2 ? JA : EN)[i % 6]} (${i + 1})`;
    characters += [...body].length;
    const from = [demoUsers.bob, demoUsers.alice][i % 2];
    const answer = await sandboxApi(stack, from, 'POST', `/rooms/${roomId}/messages`, { body });
    if (answer.status !== 200) throw new Error(`seeding the demo room: ${answer.status} ${answer.text}`);
  }
  return { posted: count, characters };
}

// The filter key's reference: the demo account with as many rooms as the
// large account's list, named alike (so one key matches as many), read,
// with no tasks and no mentions: the demo's own list is a few rows, and a
// key that redraws a few rows is no reference for one that redraws a pane
// full of them. Returns how many rooms it added.
async function seedPaddedList(stack) {
  for (let at = 0; at < PADDED_ROOMS; at += 8) {
    await Promise.all(Array.from({ length: Math.min(8, PADDED_ROOMS - at) }, async (_, k) => {
      const i = at + k;
      const name = (i % 3 ? `Project ${i}` : `プロジェクト ${i} 連絡`) + (i % 17 ? '' : ' 🚀');
      const answer = await sandboxApi(stack, demoUsers.alice, 'POST', '/rooms', { name, members_admin_ids: '1001',
        members_member_ids: '1002,1003' });
      if (answer.status !== 200) throw new Error(`padding the demo list: ${answer.status} ${answer.text}`);
    }));
  }
  return PADDED_ROOMS;
}

async function seedLarge(stack) {
  const rnd = randomFrom(36);
  const call = async (user, method, path, form) => {
    const answer = await sandboxApi(stack, user, method, path, form);
    if (answer.status !== 200) throw new Error(`seeding: ${method} ${path}: ${answer.status} ${answer.text}`);
    return JSON.parse(answer.text);
  };
  const carol = { ...demoUsers.alice, apiToken: 'sandbox-api-token-carol-1003' };
  const inParallel = async (count, one) => {
    for (let at = 0; at < count; at += 8) {
      await Promise.all(Array.from({ length: Math.min(8, count - at) }, (_, k) => one(at + k)));
    }
  };
  // 299 rooms more (Alice has the demo's), then the long room, so it is the newest.
  const rooms = [];
  await inParallel(296, async (i) => {
    const name = (i % 3 ? `Project ${i}` : `プロジェクト ${i} 連絡`) + (i % 17 ? '' : ' 🚀');
    rooms[i] = (await call(demoUsers.alice, 'POST', '/rooms', { name, members_admin_ids: '1001',
      members_member_ids: '1002,1003' })).room_id;
  });
  const long = (await call(demoUsers.alice, 'POST', '/rooms', { name: '長い会話 The long room',
    members_admin_ids: '1001', members_member_ids: '1002,1003' })).room_id;
  // Unread in 216 rooms, 52 of them mentioning Alice.
  await inParallel(216, (i) => call(demoUsers.bob, 'POST', `/rooms/${rooms[i]}/messages`,
    { body: i < 52 ? `[To:1001]Alice Example ${JA[i % 8]}` : EN[i % 6] }));
  // 101 tasks for Alice, spread over the rooms.
  await inParallel(101, (i) => call(demoUsers.bob, 'POST', `/rooms/${rooms[(i * 7) % rooms.length]}/tasks`,
    { body: `${EN[i % 6]} (${i})`, to_ids: '1001', limit: String(1800000000 + i * 3600), limit_type: 'date' }));
  // The long room: 100 messages from Bob, Carol and Alice, in order.
  let earlier = null;
  let characters = 0;
  for (let i = 0; i < 100; i++) {
    const body = longRoomMessage(rnd, i, long, earlier);
    characters += [...body].length;
    const from = [demoUsers.bob, carol, demoUsers.alice][i % 3];
    earlier = (await call(from, 'POST', `/rooms/${long}/messages`, { body })).message_id;
  }
  return { room: String(long), characters };
}

// ---------------------------------------------------------------------------
// In the page
// ---------------------------------------------------------------------------

// Runs in every document before its scripts (after addPageApiHooks): the
// state as published (the parts merged, page_api_hook.mjs), when a wanted
// state is published, drawn and on screen, each animation frame's start and
// length, and the bytes of each publish.
function scaleHooks() {
  performance.setResourceTimingBufferSize(100000);
  const predicates = {
    workspace: (s) => s.session === 'signed in' && s.account && s.status && s.room_count > 0 && !s.loading &&
      Array.isArray(s.rooms) && s.rooms.length > 0,
    room: (s, w) => s.room && s.room.room_id === w.room_id && !s.room.loading && s.room.messages.length > 0,
    filter: (s, w) => s.room_filter === w.text,
  };
  const j = window.__scale = {
    state: {}, want: { kind: 'workspace' }, metAt: 0, metFrame: 0, shownAt: 0, lastFrame: 0, lastFrameEnd: 0,
    frames: [], publishes: [], recording: false,
    missing: 0, glyphsAt: 0,
    expect(want) { Object.assign(j, { want, metAt: 0, metFrame: 0, shownAt: 0, glyphsAt: 0, paintFrom: { ...j.paint } }); },
    record(on) { j.recording = on; if (on) { j.frames = []; j.publishes = []; } },
  };
  const shown = () => requestAnimationFrame(() => { j.shownAt = performance.now(); });
  // What each paint of the canvas asked the GPU for (web/src/canvas_painter.cpp): the area cleared
  // (the region repainted), the triangles sent and the bytes uploaded; a software-rendered canvas
  // costs the GPU process about that.
  j.paint = { paints: 0, area: 0, triangles: 0, bytes: 0 };
  const gl = window.WebGL2RenderingContext && WebGL2RenderingContext.prototype;
  if (gl) {
    let box = 0;
    const wrap = (name, count) => {
      const real = gl[name];
      gl[name] = function (...args) { count(args); return real.apply(this, args); };
    };
    wrap('scissor', (a) => { box = a[2] * a[3]; });
    wrap('clear', () => { j.paint.paints++; j.paint.area += box; });
    wrap('drawElements', (a) => { j.paint.triangles += a[1] / 3; });
    // Emscripten passes (target, heap, usage, offset, length).
    wrap('bufferData', (a) => { j.paint.bytes += a.length >= 5 ? a[4] : a[1] && a[1].byteLength ? a[1].byteLength : 0; });
  }
  const raf = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (callback) => raf((time) => {
    const start = performance.now();
    const paints = j.paint.paints;
    callback(time);
    if (j.recording) j.frames.push([start, performance.now(), j.paint.paints > paints]);
  });
  window.__roomkeyApiHooks.push((api) => {
    const publish = api._publish;
    api._publish = function (json) {
      publish(json);
      if (j.recording) j.publishes.push(json.length);
      const s = window.__roomkeyMergeParts(j.state, json);
      if (!j.want || j.metAt || !predicates[j.want.kind](s, j.want)) return;
      j.metAt = performance.now();
      j.metFrame = s.frame;
      if (j.lastFrame >= s.frame) shown();
    };
    // The atlas's glyphs missing from the text drawn (web/src/browser_font.cpp): published before its frame's.
    const publishFont = api._publishFont;
    api._publishFont = function (stats) {
      publishFont(stats);
      j.missing = stats.missing;
    };
    const publishFrame = api._publishFrame;
    api._publishFrame = function (frame) {
      publishFrame(frame);
      j.lastFrame = frame;
      j.lastFrameEnd = performance.now();
      if (j.metAt && !j.shownAt && frame >= j.metFrame) shown();
      if (j.metAt && !j.glyphsAt && frame >= j.metFrame && !j.missing) {
        requestAnimationFrame(() => { j.glyphsAt = performance.now(); });
      }
    };
  });
}

// Waits until the wanted state is on screen, then until nothing was drawn for 300 ms.
function onScreen(page, what, timeoutMs = 60000) {
  return page.evaluate(async ({ what, timeoutMs }) => {
    const j = window.__scale;
    const start = Date.now();
    while (!j.shownAt || performance.now() - j.lastFrameEnd < 300) {
      if (Date.now() - start > timeoutMs) throw new Error(`${what} was not on screen within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const paint = Object.fromEntries(Object.entries(j.paint).map(([k, v]) => [k, v - (j.paintFrom?.[k] ?? 0)]));
    return { metAt: j.metAt, shownAt: j.shownAt, glyphsAt: j.glyphsAt, paint };
  }, { what, timeoutMs });
}

// The app's API requests (XMLHttpRequest) that started before `until` (ms of the time origin).
function apiRequests(page, until) {
  return page.evaluate((until) => performance.getEntriesByType('resource')
    .filter((e) => e.initiatorType === 'xmlhttprequest' && new URL(e.name).pathname.startsWith('/api/') &&
      e.startTime < until)
    .map((e) => ({ url: e.name, bytes: e.transferSize, status: e.responseStatus ?? 0 })), until);
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// The functions with the most self time in a CPU profile (ms), top `count`.
function topFunctions(profile, count = 12) {
  const self = new Map();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const dt = profile.timeDeltas;
  for (let i = 0; i < profile.samples.length; i++) {
    const f = byId.get(profile.samples[i]).callFrame;
    const name = `${f.functionName || '(anonymous)'} ${f.url ? f.url.split('/').pop() : ''}`.trim();
    self.set(name, (self.get(name) ?? 0) + (dt[i] ?? 0) / 1000);
  }
  return [...self].sort((a, b) => b[1] - a[1]).slice(0, count);
}

// Where a trace's renderer main thread spent its time: self time by event
// name (the deepest event covering each moment), its busy total, the other
// busy threads, and the requests sent (ms from the trace's start).
function traceSummary(events) {
  const names = new Map();
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name') names.set(`${e.pid}:${e.tid}`, e.args.name);
  const timed = events.filter((e) => e.ph === 'X' && e.dur > 0);
  const perThread = new Map();
  for (const e of timed) {
    const key = `${e.pid}:${e.tid}`;
    if (!perThread.has(key)) perThread.set(key, []);
    perThread.get(key).push(e);
  }
  // A loop, not Math.min(...list): a scroll's trace has more events than the call stack takes arguments.
  const start = timed.reduce((least, e) => Math.min(least, e.ts), Infinity);
  const end = timed.reduce((most, e) => Math.max(most, e.ts + e.dur), -Infinity);
  // Self times of one thread's nested complete events; its busy time is the top level's.
  const selfTimes = (list) => {
    list.sort((a, b) => a.ts - b.ts || b.dur - a.dur);
    const self = new Map();
    const stack = [];
    let busy = 0;
    for (const e of list) {
      while (stack.length && stack[stack.length - 1].ts + stack[stack.length - 1].dur <= e.ts) stack.pop();
      const parent = stack[stack.length - 1];
      if (parent) self.set(parent.name, (self.get(parent.name) ?? 0) - e.dur);
      else busy += e.dur;
      self.set(e.name, (self.get(e.name) ?? 0) + e.dur);
      stack.push(e);
    }
    return { self, busy };
  };
  const mains = [...perThread.keys()].filter((k) => names.get(k) === 'CrRendererMain');
  const main = mains.sort((a, b) => perThread.get(b).length - perThread.get(a).length)[0];
  const lines = [];
  if (!main) return ['trace: no renderer main thread'];
  const { self, busy } = selfTimes(perThread.get(main));
  lines.push(`  renderer main thread busy ${(busy / 1000).toFixed(1)} ms of ${((end - start) / 1000).toFixed(1)} ms; ` +
    'self time by event:');
  for (const [name, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 14)) {
    lines.push(`    ${(us / 1000).toFixed(1).padStart(8)} ms  ${name}`);
  }
  const others = [...perThread.keys()].filter((k) => k !== main).map((k) => [names.get(k) || k, selfTimes(perThread.get(k)).busy])
    .filter(([, us]) => us >= 2000).sort((a, b) => b[1] - a[1]).slice(0, 6);
  // The work the DOM did, as counts (not times: they do not change with the machine's load).
  const mainEvents = perThread.get(main);
  const count = (name, read) => mainEvents.filter((e) => e.name === name).reduce((a, e) => a + (read(e) || 0), 0);
  const layouts = mainEvents.filter((e) => e.name === 'Layout').length;
  lines.push(`  DOM work: ${layouts} layouts, ${count('Layout', (e) => e.args?.beginData?.dirtyObjects)} objects ` +
    `laid out; ${mainEvents.filter((e) => e.name === 'UpdateLayoutTree').length} style recalcs, ` +
    `${count('UpdateLayoutTree', (e) => e.args?.elementCount)} elements styled`);
  lines.push(`  other threads busy: ${others.map(([n, us]) => `${n} ${(us / 1000).toFixed(1)} ms`).join(', ')}`);
  const requests = new Map();
  for (const e of events) {
    const data = e.args && e.args.data;
    if (!data || !data.requestId) continue;
    if (e.name === 'ResourceSendRequest' && data.url) requests.set(data.requestId, { url: data.url, send: e.ts, finish: null });
    else if (e.name === 'ResourceFinish' && requests.has(data.requestId)) requests.get(data.requestId).finish = e.ts;
  }
  const ms = (ts) => (ts === null ? '-' : ((ts - start) / 1000).toFixed(1));
  for (const r of requests.values()) {
    const url = new URL(r.url);
    lines.push(`  request ${url.pathname}${url.search}: sent ${ms(r.send)} ms, finished ${ms(r.finish)} ms`);
  }
  return lines;
}

async function run(browser, stack, roomId, warmUp = false, label = '') {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 1366, height: 800 });
  await addPageApiHooks(page);
  await page.addInitScript(scaleHooks);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const metrics = async () => Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics
    .map((m) => [m.name, m.value]));
  try {
    await openApp(page, stack.url);
    await act(page, { type: 'sign_in', scope: SCOPE });
    await passConsent(page, stack, demoUsers.alice, 'allow');
    // The /callback document's time origin is the Allow's navigation.
    const signIn = await onScreen(page, 'the room list');

    // --profile: each measured step's CPU profile (DIR/<account>-<run>-<step>.cpuprofile) and its top functions.
    const profiling = profileDir && !warmUp;
    const profileStart = async () => {
      if (!profiling) return;
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
    };
    const profileStop = async (step) => {
      if (!profiling) return;
      const { profile } = await cdp.send('Profiler.stop');
      mkdirSync(profileDir, { recursive: true });
      writeFileSync(join(profileDir, `${label}-${step}.cpuprofile`), JSON.stringify(profile));
      progress(`${label}: self time, ${step}, top functions:\n` +
        topFunctions(profile).map(([name, ms]) => `  ${ms.toFixed(1).padStart(8)} ms  ${name}`).join('\n'));
    };

    // A key in the room filter, then the filter emptied again.
    const filterKey = async () => {
      const filterBox = await page.evaluate(() => window.roomkey.widget('room_filter'));
      await page.mouse.click(filterBox.x + filterBox.width / 2, filterBox.y + filterBox.height / 2);
      await pause(300);
      const keyAt = await page.evaluate(() => { window.__scale.expect({ kind: 'filter', text: 'p' }); return performance.now(); });
      await profileStart();
      const shown = await traced('filter', async () => {
        await page.keyboard.press('p');
        return onScreen(page, 'the filtered room list');
      });
      await profileStop('filter');
      await page.keyboard.press('Backspace');
      return { ...shown, keyAt };
    };

    // --trace: a step's Chrome trace (DIR/<account>-<run>-<step>.json) and where its main thread's time went.
    const traced = async (step, during) => {
      if (!traceDir || warmUp) return during();
      let result;
      const events = await traceMainThread(browser.context, page, async () => { result = await during(); });
      mkdirSync(traceDir, { recursive: true });
      writeFileSync(join(traceDir, `${label}-${step}.json`), JSON.stringify({ traceEvents: events }));
      progress(`${label}: trace of ${step}:\n${traceSummary(events).join('\n')}`);
      return result;
    };

    await profileStart();
    const [opened, room] = await traced('open', async () => {
      const at = await page.evaluate((room) => {
        window.__scale.expect({ kind: 'room', room_id: room });
        window.roomkey.act({ type: 'open_room', room_id: room });
        return performance.now();
      }, roomId);
      return [at, await onScreen(page, `room ${roomId}'s messages`)];
    });
    await profileStop('open');
    // Of the opening, the messages' first read on the wire (Resource Timing: sent -> answer's last byte;
    // sent inside act() itself, so not after `opened`: the page's one opening).
    const messagesRead = await page.evaluate(() => {
      const read = performance.getEntriesByType('resource').filter((e) => /\/messages\?force=1/.test(e.name)).pop();
      return read ? read.responseEnd - read.startTime : null;
    });

    // Scrolling: the wheel over the conversation, to the top and back.
    const box = await page.evaluate(() => window.roomkey.widget('conversation'));
    if (!box) throw new Error('the conversation is not drawn (widget("conversation"))');
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await pause(300);
    await page.evaluate(() => window.__scale.record(true));
    await profileStart();
    const metricsFrom = await metrics();
    const wallFrom = Date.now();
    await traced('scroll', async () => {
      const paints = () => page.evaluate(() => window.__scale.paint.paints);
      for (const delta of [-240, 240]) {
        // To the end the wheel reaches: 4 steps in a row that painted nothing.
        for (let i = 0, still = 0; i < 1000 && still < 4; i++) {
          const before = await paints();
          await page.mouse.wheel(0, delta);
          await pause(16);
          still = (await paints()) === before ? still + 1 : 0;
        }
      }
      await pause(300);
    });
    const metricsTo = await metrics();
    const spent = (name) => (metricsTo[name] - metricsFrom[name]) * 1000;  // ms
    const busy = spent('TaskDuration') / (Date.now() - wallFrom);
    await profileStop('scroll');
    const scroll = await page.evaluate(() => {
      const j = window.__scale;
      j.record(false);
      return { frames: j.frames, publishes: j.publishes };
    });

    const filtered = await filterKey();

    // The API bytes of the first --window seconds after the Allow.
    const left = windowS * 1000 - (await page.evaluate(() => performance.now()));
    if (left > 0 && !warmUp) await pause(left);
    const requests = await apiRequests(page, windowS * 1000);
    await act(page, { type: 'sign_out' });
    const frameTimes = scroll.frames.filter((f) => f[2]).map(([a, b]) => b - a);
    const intervals = scroll.frames.slice(1).map(([a], i) => a - scroll.frames[i][0]);
    const emptyPolls = requests.filter((r) => /force=0/.test(r.url) && r.status === 204).map((r) => r.bytes);
    return {
      sign_in: signIn.shownAt,
      open_room: room.shownAt - opened, open_room_glyphs: room.glyphsAt ? room.glyphsAt - opened : null,
      open_messages_read: messagesRead,
      frame_p50: quantile(frameTimes, 0.5), frame_p95: quantile(frameTimes, 0.95),
      interval_p95: quantile(intervals, 0.95), interval_max: intervals.length ? Math.max(...intervals) : null,
      busy: busy * 100,
      // Where the main thread's time went while scrolling (Chromium's counters):
      // the page's script (the app included), and the DOM's style and layout.
      script_ms: spent('ScriptDuration'), layout_ms: spent('LayoutDuration') + spent('RecalcStyleDuration'),
      filter_key: filtered.shownAt - filtered.keyAt,
      open_paints: room.paint.paints, open_mpx: room.paint.area / 1e6, open_triangles: room.paint.triangles / 1000,
      filter_paints: filtered.paint.paints, filter_mpx: filtered.paint.area / 1e6,
      filter_triangles: filtered.paint.triangles / 1000,
      publish_bytes: median(scroll.publishes),
      publish_bytes_per_frame: scroll.frames.length ? scroll.publishes.reduce((a, b) => a + b, 0) / scroll.frames.length : 0,
      empty_poll_bytes: median(emptyPolls),
      api_kb: requests.reduce((a, r) => a + r.bytes, 0) / 1024,
      api_requests: requests.length,
    };
  } finally {
    await cdp.detach().catch(() => {});
    await page.close();
  }
}

// ---------------------------------------------------------------------------
// The runs
// ---------------------------------------------------------------------------

const stacks = {};
const rooms = { demo: '2100' };
// The builds measured: --web's alone, or --before's and --web's ("after") taking turns.
const BUILDS = beforeWeb ? [['before', resolve(beforeWeb)], ['after', process.env.ROOMKEY_WEB_DIST]] : [['', null]];
const results = Object.fromEntries(BUILDS.map(([build]) => [build, { demo: [], large: [], padded: [] }]));
let seeded = null;
let demoRoom = null;
let browser;
// The helper of `who`'s stack serves `web` (its last --web-root wins); started again only when it changes.
const serving = {};
const serve = async (who, web) => {
  if (!web || serving[who] === web) return;
  await restartHelper(stacks[who], ['--web-root', web]);
  serving[who] = web;
};
try {
  progress('starting the demo account\'s sandbox and helper');
  stacks.demo = await startStack({ sandboxArgs: LIMITS, via: 'helper' });
  progress('starting the large account\'s sandbox and helper');
  stacks.large = await startStack({ sandboxArgs: fixture ? [...LIMITS, '--fixture', resolve(fixture)] : LIMITS,
    via: 'helper' });
  progress('starting the padded demo list\'s sandbox and helper');
  stacks.padded = await startStack({ sandboxArgs: LIMITS, via: 'helper' });
  progress(`padding the demo account's list with ${PADDED_ROOMS} read rooms (the filter key's reference)`);
  await seedPaddedList(stacks.padded);
  progress(`posting ${DEMO_POSTED} ordinary messages into the demo account's room ${rooms.demo}`);
  demoRoom = await seedDemoRoom(stacks.demo, rooms.demo, DEMO_POSTED);
  if (fixture) {
    rooms.large = option('--large-room');
  } else {
    progress('making the large account through the sandbox\'s API');
    seeded = await seedLarge(stacks.large);
    rooms.large = seeded.room;
  }
  browser = await launchBrowser({ testFlags: false });
  for (const [build, web] of BUILDS) {
    for (const who of ACCOUNTS) {
      progress(`warm-up: the ${who} account${build ? `, ${build}` : ''}`);
      await serve(who, web);
      await run(browser, stacks[who], rooms[who], true);
    }
    await serve('padded', web);
    await run(browser, stacks.padded, rooms.demo, true);
  }
  for (let i = 0; i < runs; i++) {
    for (const [build, web] of i % 2 ? [...BUILDS].reverse() : BUILDS) {
      for (const who of i % 2 ? [...ACCOUNTS].reverse() : ACCOUNTS) {
        await serve(who, web);
        const name = `${who}${build ? `-${build}` : ''}`;
        const r = await run(browser, stacks[who], rooms[who], false, `${name}-${i + 1}`);
        results[build][who].push(r);
        progress(`run ${i + 1}/${runs} ${name.padEnd(12)}: sign-in ${r.sign_in.toFixed(0)} ms, open room ` +
          `${r.open_room.toFixed(0)} ms, frame p50/p95 ${r.frame_p50?.toFixed(1)}/${r.frame_p95?.toFixed(1)} ms, ` +
          `filter key ${r.filter_key.toFixed(0)} ms, API ${r.api_kb.toFixed(1)} KB`);
      }
      await serve('padded', web);
      const name = `padded${build ? `-${build}` : ''}`;
      // The same steps as the others (a key right after the sign-in was slower, the list still settling);
      // only its filter key is read.
      const r = await run(browser, stacks.padded, rooms.demo, false, `${name}-${i + 1}`);
      results[build].padded.push(r);
      progress(`run ${i + 1}/${runs} ${name.padEnd(12)}: filter key ${r.filter_key.toFixed(0)} ms`);
    }
  }
} finally {
  if (browser) await browser.close();
  for (const stack of Object.values(stacks)) await stopStack(stack);
}

const ROWS = [
  ['sign-in -> room list drawn', 'sign_in', ' ms', 0, 1.2],
  ['open the room -> messages drawn', 'open_room', ' ms', 0, 1.2],
  // The frame above may draw a glyph the atlas lacks as '?' (a rebuild brings it in for the next frame).
  ['  -> drawn with every glyph in the atlas', 'open_room_glyphs', ' ms', 0, null],
  ['app frame time while scrolling, p50', 'frame_p50', ' ms', 1, 1.2],
  ['app frame time while scrolling, p95', 'frame_p95', ' ms', 1, 1.2],
  ['frame interval while scrolling, p95', 'interval_p95', ' ms', 1, null],
  ['frame interval while scrolling, max', 'interval_max', ' ms', 1, null],
  ['main thread busy while scrolling', 'busy', ' %', 0, null],
  ['  of it script, while scrolling', 'script_ms', ' ms', 0, null],
  ['  of it DOM style and layout, while scrolling', 'layout_ms', ' ms', 0, null],
  ['  of it the messages\' read, on the wire', 'open_messages_read', ' ms', 0, null],
  ['  canvas paints, opening the room', 'open_paints', '', 0, null],
  ['  of them pixels cleared and drawn, opening', 'open_mpx', ' Mpx', 2, null],
  ['  of them triangles sent, opening', 'open_triangles', ' k', 1, null],
  // The filter key's demo figure is the padded list's (seedPaddedList); the demo's own few rows below it.
  ['a key in the room filter -> list drawn', 'filter_key', ' ms', 0, 1.2, 'padded'],
  ['  canvas paints, the filter key', 'filter_paints', '', 0, null, 'padded'],
  ['  of them pixels cleared and drawn, filter key', 'filter_mpx', ' Mpx', 2, null, 'padded'],
  ['  of them triangles sent, filter key', 'filter_triangles', ' k', 1, null, 'padded'],
  ['  the same key, demo list not padded', 'filter_key', ' ms', 0, null],
  ['page state per publish while scrolling', 'publish_bytes', ' B', 0, null],
  ['page state published per frame drawn', 'publish_bytes_per_frame', ' B', 0, null],
  ['a poll with nothing new, on the wire (< 1 KB)', 'empty_poll_bytes', ' B', 0, null],
  [`API bytes in the first ${windowS} s`, 'api_kb', ' KB', 1, 3],
  [`API requests in the first ${windowS} s`, 'api_requests', '', 0, null],
];
const summary = { runs, window_s: windowS, rooms, demo_room: demoRoom, large_account: fixture ? { fixture } : seeded,
  builds: Object.fromEntries(BUILDS.map(([build, web]) => [build || 'web', web || process.env.ROOMKEY_WEB_DIST])),
  rows: {} };
const rowOf = (build, key, goal, reference = 'demo') => {
  const demo = median(results[build][reference].map((r) => r[key]).filter((v) => typeof v === 'number'));
  const large = median(results[build].large.map((r) => r[key]).filter((v) => typeof v === 'number'));
  const ratio = demo && large !== null ? large / demo : null;
  return { demo, large, ratio, goal, met: goal && ratio !== null ? ratio <= goal : null };
};
for (const [label, key, , , goal, reference] of ROWS) {
  const id = reference ? `${key}_${reference}` : key;
  summary.rows[id] = beforeWeb ? { label, before: rowOf('before', key, goal, reference),
    after: rowOf('after', key, goal, reference) } : { label, ...rowOf('', key, goal, reference) };
}
if (asJson) {
  console.log(JSON.stringify(summary, null, 2));
} else {
  const cell = (v, unit, digits, width = 12) => (v === null || v === undefined ? '-' : v.toFixed(digits) + unit).padStart(width);
  const times = (r) => (r.ratio === null ? '-' : r.ratio.toFixed(1) + 'x');
  const goalText = (r, key) => (r.goal ? `<= ${r.goal}x ${r.met ? 'met' : 'not met'}` :
    key === 'empty_poll_bytes' ? (r.large !== null && r.large < 1024 ? '< 1 KB met' : '< 1 KB') : '');
  console.log(`medians of ${runs} runs, the accounts${beforeWeb ? ' and the builds' : ''} taking turns:`);
  console.log(`  demo:  room ${rooms.demo}, its 4 demo messages and ${demoRoom.posted} ordinary one-line messages ` +
    `(${demoRoom.characters} characters, no notation); the demo account's rooms`);
  console.log(`  large: room ${rooms.large}` + (seeded ? `, 100 messages (${seeded.characters} characters, ` +
    '[To] [rp] [qt] [info] [code], Japanese); 300 rooms, 216 unread, 101 tasks' : ` of ${fixture}`));
  console.log(`  filter key: its demo figure is the demo account with its list padded by ${PADDED_ROOMS} read rooms ` +
    'named as the large account\'s (no unread, tasks or mentions), beside the demo\'s own few rows');
  if (beforeWeb) {
    console.log(`  before: ${summary.builds.before}\n  after:  ${summary.builds.after}`);
    console.log(`  ${''.padEnd(46)}${'demo'.padStart(20)}${'large'.padStart(20)}${'ratio'.padStart(14)}   goal (after)`);
    console.log(`  ${''.padEnd(46)}${'before   after'.padStart(20)}${'before   after'.padStart(20)}` +
      `${'before after'.padStart(14)}`);
    for (const [label, key, unit, digits, , reference] of ROWS) {
      const { before: b, after: a } = summary.rows[reference ? `${key}_${reference}` : key];
      console.log(`  ${label.padEnd(46)}${cell(b.demo, unit, digits, 11)}${cell(a.demo, unit, digits, 9)}` +
        `${cell(b.large, unit, digits, 11)}${cell(a.large, unit, digits, 9)}${times(b).padStart(7)}${times(a).padStart(7)}` +
        `   ${goalText(a, key)}`);
    }
  } else {
    console.log(`  ${''.padEnd(48)}${'demo'.padStart(12)}${'large'.padStart(12)}${'ratio'.padStart(9)}   goal`);
    for (const [label, key, unit, digits, , reference] of ROWS) {
      const r = summary.rows[reference ? `${key}_${reference}` : key];
      console.log(`  ${label.padEnd(48)}${cell(r.demo, unit, digits)}${cell(r.large, unit, digits)}` +
        `${times(r).padStart(9)}   ${goalText(r, key)}`);
    }
  }
}
