#!/usr/bin/env node
// web_size.mjs: what the browser app costs to download and to start, next to
// a bare Dear ImGui + fetch build (no roomkey code, same size flags) measured
// in the same run:
//   - .wasm + .js sizes: raw, gzip -9, brotli q11
//   - time to first frame in headless Chromium (navigation start -> first
//     drawn frame), median of N cold loads each, interleaved so both builds
//     see the same machine load; the ratio is the figure to quote.
//
//   cmake --preset wasm && cmake --build --preset wasm --target roomkey_web roomkey_web_bare
//   node bench/web_size.mjs [--build build/wasm] [--runs 7] [--json]
//
// The pages are served by a plain loopback HTTP server in this script, the
// same way for both builds (no helper, no upstream: roomkey draws its signed-out
// first frame).
import { createServer } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { join, extname, resolve } from 'node:path';
import { gzipSync, brotliCompressSync, constants as zlib } from 'node:zlib';
import { chromium } from 'playwright-core';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 && args[at + 1] ? args[at + 1] : fallback;
};
if (args.includes('--help') || args.includes('-h')) {
  console.log(readFileSync(new URL(import.meta.url), 'utf8').split('\n').slice(1, 14).map((l) => l.replace(/^\/\/ ?/, '')).join('\n'));
  process.exit(0);
}
const buildDir = resolve(option('--build', 'build/wasm'));
const runs = Number(option('--runs', '7'));
const asJson = args.includes('--json');
const builds = {
  roomkey: { dir: join(buildDir, 'web/dist'), page: 'index.html', files: ['roomkey.wasm', 'roomkey.js'] },
  bare: { dir: join(buildDir, 'web/bare'), page: 'bare.html', files: ['bare.wasm', 'bare.js'] },
};
for (const [name, build] of Object.entries(builds)) {
  for (const file of [build.page, ...build.files]) {
    if (!existsSync(join(build.dir, file))) {
      console.error(`web_size: ${name} build is missing ${join(build.dir, file)}.\n` +
        `Build it first: cmake --preset wasm && cmake --build --preset wasm --target roomkey_web roomkey_web_bare`);
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
  const sorted = [...list].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

const server = await serve();
const origin = `http://127.0.0.1:${server.address().port}`;
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium', headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--use-gl=swiftshader', '--enable-unsafe-swiftshader', '--disable-quic',
    '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const times = { roomkey: [], bare: [] };
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

const result = {};
for (const name of Object.keys(builds)) {
  result[name] = { ...sizes(builds[name]), first_frame_ms: median(times[name]), runs: times[name] };
}
const ratio = (key) => result.roomkey[key] / result.bare[key];
if (asJson) {
  console.log(JSON.stringify({ ...result, ratio: { raw: ratio('raw'), gzip: ratio('gzip'), brotli: ratio('brotli'),
    first_frame: ratio('first_frame_ms') } }, null, 2));
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
}
