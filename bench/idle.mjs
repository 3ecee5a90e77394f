#!/usr/bin/env node
// idle.mjs: what an idle page costs (issue 12 item 1, draw on change), in
// headless Chromium started as the e2e tests start it (SwiftShader, no GPU)
// but without the tests' page-open flags, two figures:
//   - main thread busy % = growth of CDP Performance.getMetrics TaskDuration
//     over a quiet window / the window's wall time (the goal's measure);
//   - browser CPU % = CPU time of every Chromium process (GPU process,
//     renderer, browser; from /proc) over the same window / its wall time,
//     in % of one core: what the page costs the machine, painting included.
// Cases, each beside its goal:
//   - roomkey signed out (the first screen);
//   - roomkey signed in with an API token (through helper + sandbox, the
//     dashboard loaded, the rate-limit "resets in" countdown visible);
//   - roomkey signed in through the authorization code (the sandbox's
//     consent form): the access token's bar and the refresh countdowns too;
//   - roomkey signed in, in a hidden tab (its window minimized);
//   - the bare Dear ImGui + fetch build (web/bench/bare_main.cpp), which draws
//     every animation frame: the reference for "always drawing".
//
//   cmake --preset wasm && cmake --build --preset wasm --target roomkey_web_dist roomkey_web_bare
//   cmake --preset native && cmake --build --preset native --target roomkey-helper roomkey-sandbox
//   node bench/idle.mjs [--seconds 10] [--json]
import { commandLine } from './cli.mjs';
import { createServer } from 'node:http';
import { existsSync, readFileSync, readdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join, extname, resolve } from 'node:path';
import { tmpdir } from 'node:os';

const { option, flag } = commandLine(import.meta.url);
const seconds = Number(option('--seconds', '10'));
const asJson = flag('--json');
const wasmDir = resolve(option('--wasm-build', 'build/wasm'));
const binDir = resolve(option('--native-build', 'build/native'), 'bin');
const bareDir = join(wasmDir, 'web/bare');
for (const file of [join(wasmDir, 'web/dist/index.html'), join(bareDir, 'bare.html'), join(binDir, 'roomkey-helper'),
  join(binDir, 'roomkey-sandbox')]) {
  if (!existsSync(file)) {
    console.error(`idle.mjs: ${file} is missing. Build it first (see --help).`);
    process.exit(2);
  }
}
// The e2e helpers (tests/e2e/support.mjs) start the stack and Chromium the way the tests do.
const artifacts = mkdtempSync(join(tmpdir(), 'roomkey-idle-'));
Object.assign(process.env, { ROOMKEY_BIN_DIR: binDir, ROOMKEY_WEB_DIST: join(wasmDir, 'web/dist'),
  ROOMKEY_ARTIFACTS: artifacts });
const { launchBrowser, startStack, stopStack, openApp, act, waitForState, demoUsers, clickWidget, passConsent } =
  await import('../tests/e2e/support.mjs');

const types = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm' };
function serveBare() {
  return new Promise((done) => {
    const server = createServer((req, res) => {
      const name = new URL(req.url, 'http://127.0.0.1').pathname.slice(1) || 'bare.html';
      const file = join(bareDir, name);
      if (!file.startsWith(bareDir) || !existsSync(file)) { res.writeHead(404).end(); return; }
      res.writeHead(200, { 'content-type': types[extname(file)] || 'application/octet-stream' });
      res.end(readFileSync(file));
    });
    server.listen(0, '127.0.0.1', () => done(server));
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// CPU seconds used so far by every Chromium process this script started
// (descendants of this process whose name starts with "chrom"): Linux /proc.
const clockTicks = 100;  // USER_HZ, 100 on every Linux this runs on
function chromiumCpuSeconds() {
  const parent = new Map(); const name = new Map(); const cpu = new Map();
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      name.set(pid, stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')));
      parent.set(pid, fields[1]);
      cpu.set(pid, (Number(fields[11]) + Number(fields[12])) / clockTicks);
    } catch { /* exited while listed */ }
  }
  const ours = (pid) => { for (let p = pid; p && p !== '0'; p = parent.get(p)) if (p === String(process.pid)) return true; return false; };
  let total = 0;
  for (const [pid, seconds] of cpu) if (name.get(pid).startsWith('chrom') && ours(pid)) total += seconds;
  return total;
}

// Over the next `seconds`: busy % of `page`'s main thread, and the CPU % of
// one core that all of Chromium used.
async function busy(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const task = async () => (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'TaskDuration').value;
  const t0 = await task(); const c0 = chromiumCpuSeconds(); const w0 = performance.now();
  await sleep(seconds * 1000);
  const t1 = await task(); const c1 = chromiumCpuSeconds(); const w1 = performance.now();
  await cdp.detach();
  const wall = (w1 - w0) / 1000;
  return { busy: (100 * (t1 - t0)) / wall, cpu: (100 * (c1 - c0)) / wall };
}

const rows = [];
const stack = await startStack();
const bare = await serveBare();
const browser = await launchBrowser({ testFlags: false });  // Chromium as users run it
try {
  const page = await browser.context.newPage();
  await openApp(page, stack.url);
  await sleep(1000);  // past the first frames' tail
  rows.push({ case: 'roomkey signed out', ...await busy(page), goal: null });

  await act(page, { type: 'use_api_token', token: demoUsers.bob.apiToken });
  await waitForState(page, (s) => s.account && s.status && s.rooms && !s.loading, 'the dashboard');
  await sleep(1000);
  rows.push({ case: 'roomkey signed in, API token (countdown visible)', ...await busy(page), goal: 5 });
  await act(page, { type: 'sign_out' });
  await waitForState(page, (s) => s.session === 'signed out', 'sign-out');

  await clickWidget(page, 'sign_in');
  await passConsent(page, stack, demoUsers.bob, 'allow');
  await waitForState(page, (s) => s.session === 'signed in' && s.account && s.status && s.rooms && !s.loading,
    'the dashboard after the consent form');
  await sleep(1000);
  rows.push({ case: 'roomkey signed in, authorization code (token bar, refresh countdowns)', ...await busy(page), goal: 5 });

  // Headless Chromium keeps a tab behind another one "visible"; a minimized
  // window is hidden (requestAnimationFrame stops, visibilitychange fires).
  const cdp = await page.context().newCDPSession(page);
  const { windowId } = await cdp.send('Browser.getWindowForTarget');
  await cdp.send('Browser.setWindowBounds', { windowId, bounds: { windowState: 'minimized' } });
  const visibility = await page.evaluate(() => document.visibilityState);
  if (visibility === 'hidden') {
    await sleep(1000);
    rows.push({ case: 'roomkey signed in, hidden tab', ...await busy(page), goal: 1 });
  } else {
    // Not faked (a frozen page would read 0 % for the wrong reason): said plainly.
    rows.push({ case: `roomkey signed in, hidden tab: not measurable, this Chromium keeps a minimized headless page ${visibility}`,
      busy: NaN, cpu: NaN, goal: 1 });
  }
  await cdp.send('Browser.setWindowBounds', { windowId, bounds: { windowState: 'normal' } });
  await cdp.detach();
  await page.close();

  const barePage = await browser.context.newPage();
  await barePage.goto(`http://127.0.0.1:${bare.address().port}/`);
  await barePage.waitForFunction(() => window.bareFirstFrameAt, null, { timeout: 60000 });
  await sleep(1000);
  rows.push({ case: 'bare ImGui build (draws every frame)', ...await busy(barePage), goal: null });
} finally {
  await browser.close();
  bare.close();
  await stopStack(stack);
  rmSync(artifacts, { recursive: true, force: true });
}

if (asJson) {
  console.log(JSON.stringify({ seconds, rows }, null, 2));
} else {
  console.log(`Idle for ${seconds} s, headless Chromium, SwiftShader: main-thread busy (CDP TaskDuration / wall)`);
  console.log('and the CPU of all Chromium processes (/proc, % of one core; the GPU process paints)');
  console.log('| case | main thread busy | browser CPU | goal (main thread) | met |');
  console.log('|---|---|---|---|---|');
  const percent = (value) => (Number.isNaN(value) ? 'n/a' : `${value.toFixed(2)} %`);
  for (const r of rows) {
    const goal = r.goal === null ? '-' : `<= ${r.goal} %`;
    const met = r.goal === null || Number.isNaN(r.busy) ? '-' : r.busy <= r.goal ? 'yes' : 'NO';
    console.log(`| ${r.case} | ${percent(r.busy)} | ${percent(r.cpu)} | ${goal} | ${met} |`);
  }
}
