#!/usr/bin/env node
// engines.mjs: roomkey in three engines side by side (issue 28), each
// driven as tests/engines drives it (tests/engines/driver.mjs): Chromium
// headless through playwright-core (as users run it: without the tests'
// page-open flags), Firefox ESR with a window through puppeteer-core,
// WebKitGTK's MiniBrowser through selenium-webdriver. Figures per engine:
//   - browser start: launch until a page can be driven (ms);
//   - first frame: window.roomkey.firstFrameAt(), ms from the navigation's
//     start to the first drawn frame; the first load (nothing cached) and
//     the median of the next --loads;
//   - idle CPU after sign-in: the dashboard loaded (API token), 1 s for the
//     first frames' tail, then the CPU time of every process the engine
//     started (/proc, utime + stime of the process tree) over --seconds,
//     in % of one core; and the X server's (Xvfb) over the same window,
//     since a browser with a window has it paint too (headless Chromium
//     uses none).
// Needs an X server for Firefox and WebKit: without DISPLAY it runs itself
// again under xvfb-run (the same screen as the tests).
//
//   cmake --preset wasm && cmake --build --preset wasm --target roomkey_web_dist
//   cmake --preset native && cmake --build --preset native --target roomkey-helper roomkey-sandbox
//   node bench/engines.mjs [--engines chromium,firefox,webkit] [--loads 5] [--seconds 5] [--json]
import { commandLine } from './cli.mjs';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';

const { option, flag } = commandLine(import.meta.url);
const engines = option('--engines', 'chromium,firefox,webkit').split(',');
const loads = Number(option('--loads', '5'));
const seconds = Number(option('--seconds', '5'));
const asJson = flag('--json');
const wasmDir = resolve(option('--wasm-build', 'build/wasm'));
const binDir = resolve(option('--native-build', 'build/native'), 'bin');

if (!process.env.DISPLAY && engines.some((e) => e !== 'chromium')) {
  const again = spawnSync('xvfb-run', ['-a', '-s', '-screen 0 1600x1000x24', process.execPath,
    fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(again.status ?? 1);
}
for (const file of [join(wasmDir, 'web/dist/index.html'), join(binDir, 'roomkey-helper'), join(binDir, 'roomkey-sandbox')]) {
  if (!existsSync(file)) {
    console.error(`engines.mjs: ${file} is missing. Build it first (see --help).`);
    process.exit(2);
  }
}
const artifacts = mkdtempSync(join(tmpdir(), 'roomkey-engines-'));
Object.assign(process.env, { ROOMKEY_BIN_DIR: binDir, ROOMKEY_WEB_DIST: join(wasmDir, 'web/dist'),
  ROOMKEY_ARTIFACTS: artifacts });
const { startStack, stopStack, demoUsers } = await import('../tests/e2e/support.mjs');
const { launchEngine } = await import('../tests/engines/driver.mjs');
const { openApp, act, waitForState } = await import('../tests/engines/app.mjs');

const clockTicks = 100;  // USER_HZ, 100 on every Linux this runs on
function processTable() {
  const table = new Map();
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      table.set(Number(pid), { name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')), parent: Number(fields[1]),
        cpu: (Number(fields[11]) + Number(fields[12])) / clockTicks });
    } catch { /* exited while listed */ }
  }
  return table;
}
// CPU seconds so far of `roots` and every process below them.
function treeCpuSeconds(roots) {
  const table = processTable();
  const inTree = (pid) => { for (let p = pid; p > 1; p = table.get(p)?.parent ?? 0) if (roots.includes(p)) return true; return false; };
  let total = 0; let count = 0;
  for (const [pid, p] of table) if (inTree(pid)) { total += p.cpu; count += 1; }
  return { seconds: total, processes: count };
}
// The Xvfb serving DISPLAY, if any.
function xServerPid() {
  const display = (process.env.DISPLAY || '').replace(/\.\d+$/, '');
  if (!display) return null;
  for (const [pid, p] of processTable()) {
    if (p.name !== 'Xvfb') continue;
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    if (args.includes(display)) return pid;
  }
  return null;
}
const median = (values) => { const s = [...values].sort((a, b) => a - b); return s.length ? s[Math.floor((s.length - 1) / 2)] : NaN; };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const rows = [];
const stack = await startStack();
const xvfb = xServerPid();
try {
  for (const name of engines) {
    const t0 = performance.now();
    const driver = await launchEngine(name, { testFlags: false });
    const start = performance.now() - t0;
    try {
      const frames = [];
      for (let i = 0; i <= loads; i++) {
        await openApp(driver, stack.url);
        frames.push(await driver.evaluate(() => window.roomkey.firstFrameAt()));
      }
      await act(driver, { type: 'use_api_token', token: demoUsers.bob.apiToken });
      await waitForState(driver, (s) => s.account && s.status && s.rooms && !s.loading, 'the dashboard');
      await sleep(1000);  // past the first frames' tail, as bench/idle.mjs
      const roots = driver.pids();
      const c0 = treeCpuSeconds(roots); const x0 = xvfb ? treeCpuSeconds([xvfb]).seconds : NaN; const w0 = performance.now();
      await sleep(seconds * 1000);
      const c1 = treeCpuSeconds(roots); const x1 = xvfb ? treeCpuSeconds([xvfb]).seconds : NaN; const w1 = performance.now();
      const wall = (w1 - w0) / 1000;
      rows.push({ engine: name, version: driver.version, start_ms: start, first_frame_cold_ms: frames[0],
        first_frame_warm_median_ms: median(frames.slice(1)), idle_cpu_percent: (100 * (c1.seconds - c0.seconds)) / wall,
        processes: c1.processes, x_server_cpu_percent: name === 'chromium' ? NaN : (100 * (x1 - x0)) / wall });
    } finally {
      await driver.close();
    }
  }
} finally {
  await stopStack(stack);
  rmSync(artifacts, { recursive: true, force: true });
}

if (asJson) {
  console.log(JSON.stringify({ loads, seconds, rows }, null, 2));
} else {
  const ms = (v) => (Number.isFinite(v) ? `${Math.round(v)} ms` : 'n/a');
  const pc = (v) => (Number.isFinite(v) ? `${v.toFixed(2)} %` : '-');
  console.log(`First frame (1 cold load, median of ${loads} more) and idle CPU signed in over ${seconds} s ` +
    '(% of one core: every process the engine started; the X server apart)');
  console.log(`| figure | ${rows.map((r) => `${r.engine} (${r.version})`).join(' | ')} |`);
  console.log(`|---|${rows.map(() => '---').join('|')}|`);
  const line = (label, f) => console.log(`| ${label} | ${rows.map(f).join(' | ')} |`);
  line('browser start', (r) => ms(r.start_ms));
  line('first frame, cold', (r) => ms(r.first_frame_cold_ms));
  line(`first frame, median of ${loads}`, (r) => ms(r.first_frame_warm_median_ms));
  line('idle CPU signed in, browser', (r) => `${pc(r.idle_cpu_percent)} (${r.processes} processes)`);
  line('idle CPU signed in, X server', (r) => pc(r.x_server_cpu_percent));
}
