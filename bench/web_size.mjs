#!/usr/bin/env node
// web_size.mjs: what the browser app costs to download and to start, next to
// a bare Dear ImGui + fetch build (no roomkey code, same size flags) measured
// in the same run:
//   - .wasm + .js sizes: raw, gzip -9, brotli q11
//   - time to first frame in headless Chromium (navigation start -> first
//     drawn frame), median of N cold loads each, interleaved so both builds
//     see the same machine load; the ratio is the figure to quote.
//   - where the wasm bytes go: function body bytes by origin (Dear ImGui,
//     nlohmann_json, libc++/libc, shared/, web/app, web/src), read from the
//     --profiling-funcs twins of both builds (web/profile/, same code).
//   --check: sizes only (no browser, no twins): fails when roomkey's brotli
//     size over the bare build's exceeds the budget in web_size_budget.json.
//     ./scripts/test.sh runs it.
//
//   cmake --preset wasm && cmake --build --preset wasm --target roomkey_web roomkey_web_bare \
//       roomkey_web_profile roomkey_web_bare_profile
//   node bench/web_size.mjs [--build build/wasm] [--runs 7] [--top 8] [--json] [--check]
//
// The pages are served by a plain loopback HTTP server in this script, the
// same way for both builds (no helper, no upstream: roomkey draws its signed-out
// first frame).
import { commandLine } from './cli.mjs';
import { createServer } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { join, extname, resolve } from 'node:path';
import { gzipSync, brotliCompressSync, constants as zlib } from 'node:zlib';
import { chromium } from 'playwright-core';
import { attribute, origins, sections } from './wasm_origins.mjs';

const { option, flag } = commandLine(import.meta.url);
const buildDir = resolve(option('--build', 'build/wasm'));
const runs = Number(option('--runs', '7'));
const top = Number(option('--top', '8'));
const asJson = flag('--json');
const checkOnly = flag('--check');
const builds = {
  roomkey: { dir: join(buildDir, 'web/dist'), page: 'index.html', files: ['roomkey.wasm', 'roomkey.js'],
    profile: join(buildDir, 'web/profile/roomkey.wasm') },
  bare: { dir: join(buildDir, 'web/bare'), page: 'bare.html', files: ['bare.wasm', 'bare.js'],
    profile: join(buildDir, 'web/profile/bare.wasm') },
};
const buildHint = 'cmake --preset wasm && cmake --build --preset wasm --target roomkey_web roomkey_web_bare' +
  (checkOnly ? '' : ' roomkey_web_profile roomkey_web_bare_profile');
for (const [name, build] of Object.entries(builds)) {
  const needed = [...build.files.map((f) => join(build.dir, f)), ...(checkOnly ? [] : [join(build.dir, build.page), build.profile])];
  for (const file of needed) {
    if (!existsSync(file)) {
      console.error(`web_size: ${name} build is missing ${file}.\nBuild it first: ${buildHint}`);
      process.exit(2);
    }
  }
}

// ---- sizes ----
function sizes(build) {
  const out = { raw: 0, gzip: 0, brotli: 0 };
  for (const file of build.files) {
    const bytes = readFileSync(join(build.dir, file));
    out.raw += bytes.length;
    out.gzip += gzipSync(bytes, { level: 9 }).length;
    out.brotli += brotliCompressSync(bytes, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }).length;
  }
  return out;
}

// ---- size budget (--check) ----
// The budget is a ratio to the bare build, so the app may grow with the
// features others add only as far as the budget says, whatever the toolchain.
const budgetFile = new URL('./web_size_budget.json', import.meta.url);
if (checkOnly) {
  const budget = JSON.parse(readFileSync(budgetFile, 'utf8'));
  const [app, bare] = [sizes(builds.roomkey), sizes(builds.bare)];
  const ratio = app.brotli / bare.brotli;
  const within = ratio <= budget.brotli_ratio_max;
  console.log(`web_size --check: roomkey ${(app.brotli / 1024).toFixed(1)} KB brotli = ${ratio.toFixed(3)}x the bare build ` +
    `(${(bare.brotli / 1024).toFixed(1)} KB); budget ${budget.brotli_ratio_max}x: ${within ? 'ok' : 'OVER BUDGET'}`);
  if (!within) {
    console.error('web_size: the wasm build grew past its size budget. See where the bytes go with ' +
      '`node bench/web_size.mjs` (attribution by origin) and cut, or raise bench/web_size_budget.json with the reason.');
  }
  process.exit(within ? 0 : 1);
}

// ---- where the wasm bytes go ----
// The twins must hold the very code that ships: compare the code sections.
const attribution = {};
for (const [name, build] of Object.entries(builds)) {
  const shipped = sections(join(build.dir, build.files[0]));
  const twin = sections(build.profile);
  if (shipped.code !== twin.code || shipped.data !== twin.data) {
    console.error(`web_size: ${build.profile} is not the same code as ${join(build.dir, build.files[0])} ` +
      `(code ${twin.code} vs ${shipped.code} bytes): rebuild both with: ${buildHint}`);
    process.exit(2);
  }
  attribution[name] = { ...attribute(build.profile, { top }), sections: shipped };
}

// ---- time to first frame ----
const types = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css',
  '.json': 'application/json' };
function serve() {
  return new Promise((resolveServer) => {
    const server = createServer((req, res) => {
      const url = new URL(req.url, 'http://127.0.0.1');
      const [, prefix, ...rest] = url.pathname.split('/');
      const build = builds[prefix];
      const file = build && join(build.dir, rest.join('/') || build.page);
      if (!build || !file.startsWith(build.dir) || !existsSync(file)) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': types[extname(file)] || 'application/octet-stream', 'cache-control': 'no-store' });
      res.end(readFileSync(file));
    });
    server.listen(0, '127.0.0.1', () => resolveServer(server));
  });
}

async function firstFrame(browser, url, probe) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForFunction(probe, null, { timeout: 60000 });
  const ms = await page.evaluate(probe);
  await context.close();
  return ms;
}

const median = (list) => {
  if (!list.length) return NaN;
  const sorted = [...list].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

const times = { roomkey: [], bare: [] };
if (runs > 0) {  // --runs 0: sizes and attribution only, no browser
  const server = await serve();
  const origin = `http://127.0.0.1:${server.address().port}`;
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium', headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--use-gl=swiftshader', '--enable-unsafe-swiftshader', '--disable-quic',
      '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    // One warm-up load each (Chromium's own start-up), then interleaved runs.
    await firstFrame(browser, `${origin}/bare/`, () => window.bareFirstFrameAt || null);
    await firstFrame(browser, `${origin}/roomkey/`, () => (window.roomkey && window.roomkey.firstFrameAt()) || null);
    for (let i = 0; i < runs; i++) {
      times.bare.push(await firstFrame(browser, `${origin}/bare/`, () => window.bareFirstFrameAt || null));
      times.roomkey.push(await firstFrame(browser, `${origin}/roomkey/`,
        () => (window.roomkey && window.roomkey.firstFrameAt()) || null));
    }
  } finally {
    await browser.close();
    server.close();
  }
}

const result = {};
for (const name of Object.keys(builds)) {
  result[name] = { ...sizes(builds[name]), first_frame_ms: median(times[name]), runs: times[name] };
}
const ratio = (key) => result.roomkey[key] / result.bare[key];
// The first frame's ratio load by load: each roomkey load over the bare load
// beside it in the same pair. Its quartiles show how far one run's ratio of
// medians can be trusted on a noisy machine.
const pairRatios = times.roomkey.map((ms, i) => ms / times.bare[i]).sort((a, b) => a - b);
const quantile = (q) => pairRatios[Math.min(pairRatios.length - 1, Math.floor(q * pairRatios.length))];
const spread = pairRatios.length ? { q1: quantile(0.25), median: median(pairRatios), q3: quantile(0.75) } : null;
const budget = JSON.parse(readFileSync(budgetFile, 'utf8'));
if (asJson) {
  console.log(JSON.stringify({ ...result, ratio: { raw: ratio('raw'), gzip: ratio('gzip'), brotli: ratio('brotli'),
    first_frame: ratio('first_frame_ms'), first_frame_per_pair: spread }, budget, attribution }, null, 2));
} else {
  const kb = (n) => (n / 1024).toFixed(1) + ' KB';
  console.log(`web build sizes (.wasm + .js) and time to first frame, headless Chromium, median of ${runs} cold loads`);
  console.log('| build | raw | gzip -9 | brotli q11 | first frame |');
  console.log('|---|---|---|---|---|');
  for (const name of Object.keys(builds)) {
    const r = result[name];
    console.log(`| ${name} | ${kb(r.raw)} | ${kb(r.gzip)} | ${kb(r.brotli)} | ${r.first_frame_ms.toFixed(0)} ms |`);
  }
  console.log(`| roomkey / bare | ${ratio('raw').toFixed(2)}x | ${ratio('gzip').toFixed(2)}x | ${ratio('brotli').toFixed(2)}x | ` +
    `${ratio('first_frame_ms').toFixed(2)}x |`);
  if (spread) {
    console.log(`first frame, roomkey / bare load by load (${pairRatios.length} interleaved pairs): ` +
      `median ${spread.median.toFixed(2)}x, quartiles ${spread.q1.toFixed(2)}x - ${spread.q3.toFixed(2)}x`);
  }
  // Issue 29's goals: brotli <= 2.5x the bare build, first frame <= 1.15x
  // as the median of the interleaved pairs (one load's ratio each).
  const firstFrame = spread ? spread.median : ratio('first_frame_ms');
  console.log(`goals (issue 29): brotli <= 2.5x (now ${ratio('brotli').toFixed(2)}x), first frame <= 1.15x, ` +
    `median of the interleaved pairs (now ${firstFrame.toFixed(2)}x); ` +
    `budget --check enforces: brotli <= ${budget.brotli_ratio_max}x`);

  console.log('\nwhere the wasm bytes go (raw bytes of function bodies by origin, from the --profiling-funcs twins)');
  console.log('| origin | roomkey | bare | roomkey - bare |');
  console.log('|---|---|---|---|');
  const row = (label, a, b) => console.log(`| ${label} | ${kb(a)} | ${kb(b)} | ${kb(a - b)} |`);
  for (const origin of origins) row(origin, attribution.roomkey[origin].bytes, attribution.bare[origin].bytes);
  row('all code (code section)', attribution.roomkey.sections.code, attribution.bare.sections.code);
  row('data section (fonts, strings, tables)', attribution.roomkey.sections.data, attribution.bare.sections.data);
  row('other sections', attribution.roomkey.sections.other, attribution.bare.sections.other);
  if (top > 0) {
    console.log(`\nlargest ${top} roomkey functions per origin`);
    for (const origin of origins) {
      const list = attribution.roomkey[origin].largest;
      if (!list.length) continue;
      console.log(`${origin} (${attribution.roomkey[origin].functions} functions):`);
      for (const f of list) console.log(`  ${String(f.bytes).padStart(7)}  ${f.name.length > 150 ? f.name.slice(0, 147) + '...' : f.name}`);
    }
  }
}
