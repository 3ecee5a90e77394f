// skeleton.e2e.mjs: the walking skeleton in a real browser: roomkey-helper
// serves the wasm build over HTTPS, Chromium loads it, the page API reports
// ready, and the canvas shows a drawn frame (not a blank fill).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { startHelper, stopProgram, freshStateDir, launchBrowser, decodePng, distinctColours, artifacts, appOnlyTest } from './support.mjs';

let helper; let browser; let stateDir;

before(async () => {
  stateDir = freshStateDir();
  helper = await startHelper(stateDir);
  browser = await launchBrowser();
});

after(async () => {
  if (browser) await browser.close();
  await stopProgram(helper);
  if (stateDir) rmSync(stateDir, { recursive: true, force: true });
});

test('the app loads through the helper, reports ready and draws a frame', async () => {
  const page = await browser.context.newPage();
  const consoleErrors = [];
  page.on('console', (msg) => { if (msg.type() === 'error') consoleErrors.push(msg.text()); });

  const response = await page.goto(helper.url);
  assert.equal(response.status(), 200, 'the page is served');

  await page.waitForFunction(() => window.roomkey && window.roomkey.ready(), null, { timeout: 60000 });
  assert.equal(await page.evaluate(() => window.roomkey.error()), null, 'no load error');
  const state = await page.evaluate(() => window.roomkey.state());
  assert.equal(state.session, 'signed out', 'a fresh page is signed out');

  const mirror = await page.locator('#mirror').textContent();
  assert.match(mirror, /roomkey is ready\. Session: signed out\./, 'the aria-live mirror tells the state');
  assert.equal(await page.locator('#mirror').getAttribute('aria-live'), 'polite');

  const shot = await page.locator('#canvas').screenshot({ path: join(artifacts, 'skeleton.png') });
  const png = decodePng(shot);
  assert.ok(png.width > 100 && png.height > 100, `canvas has a size (${png.width}x${png.height})`);
  assert.ok(distinctColours(png) > 10, 'the canvas shows a drawn frame (text and widgets), not a blank fill');
  assert.deepEqual(consoleErrors, [], 'no console errors');
});

test('the wasm the page loads is application/wasm, brotli-compressed and immutable by its hashed name', async () => {
  const page = await browser.context.newPage();
  const loaded = [];
  page.on('response', (response) => loaded.push(response));
  await page.goto(helper.url);
  await page.waitForFunction(() => window.roomkey && window.roomkey.ready(), null, { timeout: 60000 });

  const wasm = loaded.find((r) => new URL(r.url()).pathname.endsWith('.wasm'));
  assert.ok(wasm, `the page fetched a .wasm (saw: ${loaded.map((r) => r.url()).join(', ')})`);
  assert.match(new URL(wasm.url()).pathname, /^\/roomkey\.[0-9a-f]{16}\.wasm$/, 'a content-hashed name');
  const headers = await wasm.allHeaders();
  assert.equal(headers['content-type'], 'application/wasm', 'streaming compilation needs application/wasm');
  assert.equal(headers['content-encoding'], 'br', 'Chromium accepts br, so the precompressed sibling is sent');
  assert.match(headers['cache-control'], /immutable/, 'a hashed asset never changes');

  const js = loaded.find((r) => /^\/roomkey\.[0-9a-f]{16}\.js$/.test(new URL(r.url()).pathname));
  assert.ok(js, 'the loader script is the hashed one too');
  const pageJs = loaded.find((r) => new URL(r.url()).pathname === '/page.js');
  assert.ok(pageJs, 'page.js is loaded');
  assert.match((await pageJs.allHeaders())['cache-control'], /no-cache/, 'page.js names the current files, so it revalidates');

  // The plain name, as a user would type it with curl, is served as well.
  const plain = await page.request.get(new URL('roomkey.wasm', helper.url).href);
  assert.equal(plain.status(), 200);
  assert.equal(plain.headers()['content-type'], 'application/wasm');
});

test('the page asks for the wasm at once, beside roomkey.js, and fetches each app file once', async () => {
  const page = await browser.context.newPage();
  const requested = [];
  page.on('request', (request) => requested.push(new URL(request.url()).pathname));
  // Which files the page had fetched when boot() set up Module, just before
  // it adds roomkey.js (what roomkey.js fetches itself comes after).
  await page.addInitScript(() => {
    window.__fetchedBeforeBoot = [];
    const fetchOriginal = window.fetch;
    window.fetch = function (input, ...rest) {
      if (!window.Module) window.__fetchedBeforeBoot.push(new URL(String(input), location.href).pathname);
      return fetchOriginal.call(this, input, ...rest);
    };
  });
  await page.goto(helper.url);
  await page.waitForFunction(() => window.roomkey && window.roomkey.ready(), null, { timeout: 60000 });
  const isWasm = (path) => /^\/roomkey\.[0-9a-f]{16}\.wasm$/.test(path);
  const isJs = (path) => /^\/roomkey\.[0-9a-f]{16}\.js$/.test(path);
  assert.equal(requested.filter(isWasm).length, 1, `the wasm is fetched once (requests: ${requested.join(', ')})`);
  assert.equal(requested.filter(isJs).length, 1, `roomkey.js is fetched once (requests: ${requested.join(', ')})`);
  // The wasm is on its way before roomkey.js runs (page.js step 3), not
  // asked for by roomkey.js once it has loaded.
  const beforeBoot = await page.evaluate(() => window.__fetchedBeforeBoot);
  assert.ok(beforeBoot.some(isWasm), `the wasm was fetched before boot() (then: ${beforeBoot.join(', ') || 'nothing'})`);
  await page.close();
});

appOnlyTest('a wasm that cannot be loaded gives a readable error, not a page that loads forever', async () => {
  const page = await browser.context.newPage();
  await page.route((u) => /\/roomkey(\.[0-9a-f]+)?\.wasm$/.test(u.pathname), (route) => route.fulfill({ status: 404, body: '' }));
  await page.goto(helper.url);
  await page.waitForFunction(() => window.roomkey && window.roomkey.error() !== null, null, { timeout: 30000 });
  assert.match(await page.evaluate(() => window.roomkey.error()), /roomkey\.wasm could not be loaded or started \(.*404/);
  assert.match(await page.locator('#overlay-text').textContent(), /roomkey\.wasm could not be loaded/);
  assert.match(await page.locator('#mirror').textContent(), /failed to start/);
  await page.close();
});

appOnlyTest('a browser that gives no WebGL 2 context gets a readable error, not a blank page', async () => {
  // WebGL 2 exists but no context comes (hardware acceleration off, a
  // blocklisted GPU): the app finds out and says so through the page.
  const page = await browser.context.newPage();
  await page.addInitScript(() => {
    const original = HTMLCanvasElement.prototype.getContext;
    HTMLCanvasElement.prototype.getContext = function (kind, ...rest) {
      return kind === 'webgl2' ? null : original.call(this, kind, ...rest);
    };
  });
  await page.goto(helper.url);
  await page.waitForFunction(() => window.roomkey && window.roomkey.error() !== null, null, { timeout: 30000 });
  const overlay = await page.locator('#overlay-text').textContent();
  assert.match(overlay, /WebGL 2 is not available/);
  assert.match(await page.locator('#mirror').textContent(), /failed to start/);
  await page.close();
});

appOnlyTest('a browser without WebGL 2 at all is told so before the app loads', async () => {
  const page = await browser.context.newPage();
  await page.addInitScript(() => { delete window.WebGL2RenderingContext; });
  await page.goto(helper.url);
  await page.waitForFunction(() => window.roomkey && window.roomkey.error() !== null, null, { timeout: 30000 });
  assert.match(await page.evaluate(() => window.roomkey.error()), /WebGL 2 is not available/);
  assert.equal(await page.evaluate(() => typeof window.Module), 'undefined', 'the app is not started for nothing');
  await page.close();
});
