// app_api_token.e2e.mjs: API-token mode (spec 5.1) in Chromium: the token is
// sent only in the API-token header through the helper, never in a URL, is
// not kept in storage or exposed by the page API, and "copy as curl" masks it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, startStack, stopStack, openApp, act, waitForState, demoUsers } from './support.mjs';

let stack; let browser;

before(async () => {
  stack = await startStack();
  browser = await launchBrowser();
});

after(async () => {
  if (browser) await browser.close();
  await stopStack(stack);
});

test('API-token mode: header only, never in a URL or storage, masked when copied', async () => {
  const page = await browser.context.newPage();
  const apiRequests = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname.startsWith('/api/')) apiRequests.push({ url: r.url(), headers: r.headers() });
  });
  const secret = demoUsers.bob.apiToken;
  await openApp(page, stack.url);
  await act(page, { type: 'use_api_token', token: secret });
  const state = await waitForState(page, (s) => s.account && s.status && !s.loading, 'the account');

  assert.equal(state.session, 'api token');
  assert.equal(state.account.account_id, demoUsers.bob.accountId, 'GET /me with the API token');
  assert.ok(apiRequests.length >= 3);
  for (const r of apiRequests) {
    assert.equal(r.headers['x-servicetoken'], secret, 'spec 5.1.1: the API-token header');
    assert.equal(r.headers.authorization, undefined, 'no Bearer in API-token mode');
    assert.ok(!r.url.includes(secret), 'spec 5.1.2: never in the URL');
  }
  const storage = await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }));
  assert.ok(!storage.includes(secret), 'not in storage');
  assert.ok(!JSON.stringify(state).includes(secret), 'not in the page API');
  assert.ok(!(await page.locator('#mirror').textContent()).includes(secret), 'not in the text mirror');

  // Copy as curl, masked unless revealed.
  await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.origin });
  const entry = state.log.find((e) => e.title.startsWith('GET /api/me'));
  assert.ok(entry, 'GET /api/me is in the HTTP log');
  await page.bringToFront();
  await act(page, { type: 'copy_curl', entry: entry.id });
  await waitForState(page, (s) => /Copied as curl/.test(s.notice), 'the copy');
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert.match(copied, /^curl -X GET 'https:\/\/127\.0\.0\.1:\d+\/api\/me'/);
  assert.match(copied, /x-servicetoken: \*{8}/i, 'masked in the copied command');
  assert.ok(!copied.includes(secret));

  await act(page, { type: 'sign_out' });
  const out = await waitForState(page, (s) => s.session === 'signed out', 'sign-out');
  assert.equal(out.account, null, 'sign out forgets everything');
  await page.close();
});

test('a wrong API token is reported plainly', async () => {
  const page = await browser.context.newPage();
  await openApp(page, stack.url);
  await act(page, { type: 'use_api_token', token: 'sandbox-api-token-wrong-0000' });
  const state = await waitForState(page, (s) => s.last_error, 'the error');
  assert.equal(state.last_error.code, 'HTTP 401');
  assert.match(state.last_error.title, /API token was refused/);
  await page.close();
});
