// app_signin.e2e.mjs: the browser app's sign-in in real Chromium, through
// roomkey-helper and roomkey-sandbox: the authorization-code + PKCE flow with
// the sandbox's login and consent forms (spec 4.2, 4.3), deny, a tampered
// state, an expired code (spec 2.2), the refresh after the sandbox clock
// moved past the access token's 30 minutes (spec 5.2.2), a screenshot of
// the signed-in dashboard, and the shell's own part of the callback: code and
// state leave the address bar, and the pending record leaves sessionStorage,
// before any other resource loads, even when the app never starts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openApp, act, waitForState, passConsent, sandboxControl, demoUsers, decodePng, distinctColours,
  artifacts, trackNetwork, withStackAndBrowser, launchBrowser, appOnlyTest,
  signInLabel } from './support.mjs';

const SCOPE = 'users.all:read rooms.all:read_write';
let stack; let browser;
withStackAndBrowser((s, b) => { stack = s; browser = b; });

// Records what the page sends to the helper's token route, and its answers.
function watchTokenRoute(page) {
  const seen = { requests: 0, bodies: [] };
  page.on('request', (request) => { if (new URL(request.url()).pathname === '/oauth/token') seen.requests += 1; });
  page.on('response', async (response) => {
    if (new URL(response.url()).pathname === '/oauth/token') seen.bodies.push(await response.text().catch(() => ''));
  });
  return seen;
}

// Intercepts, counts and aborts every request whose path ends in /token, to
// the helper's /oauth/token or straight to the service's {auth_url}/token.
async function blockTokenRequests(page) {
  const blocked = [];
  await page.route((u) => u.pathname.endsWith('/token'), (route) => {
    blocked.push(`${route.request().method()} ${route.request().url()}`);
    return route.abort();
  });
  return blocked;
}

// Lets `change(location)` rewrite the consent screen's redirect to /callback.
async function onConsentRedirect(page, change) {
  await page.route((u) => u.origin === stack.sandbox.origin && u.pathname === '/consent', async (route) => {
    if (route.request().method() !== 'POST') return route.continue();
    // Connection: close: Playwright's request context pools keep-alive
    // sockets with no idle limit, and the sandbox closes them after 5 s,
    // so a pooled socket could be reused just as it closes (ECONNRESET,
    // seen once in this file's expired-code test).
    const response = await route.fetch({ maxRedirects: 0,
      headers: { ...route.request().headers(), connection: 'close' } });
    const location = response.headers().location;
    if (response.status() < 300 || response.status() > 399 || !location || !location.includes('/callback?')) return route.fulfill({ response });
    return route.fulfill({ status: response.status(), headers: { location: await change(location) } });
  });
}

async function signIn(page, user = demoUsers.alice) {
  await openApp(page, stack.url);
  await act(page, { type: 'sign_in', scope: SCOPE });
  await passConsent(page, stack, user, 'allow');
  return waitForState(page, (s) => s.session === 'signed in' && s.account && s.status && !s.loading,
    'the signed-in dashboard');
}

test('full sign-in: consent forms, /me and /my/status shown, tokens only in memory', async () => {
  const page = await browser.context.newPage();
  const token = watchTokenRoute(page);
  const state = await signIn(page);

  assert.equal(state.account.account_id, demoUsers.alice.accountId, 'GET /me read (spec 4.4)');
  for (const name of ['unread_num', 'mention_num', 'mytask_num', 'unread_room_num', 'mention_room_num', 'mytask_room_num']) {
    assert.equal(typeof state.status[name], 'number', `GET /my/status field ${name} shown (spec 2.5)`);
  }
  assert.ok(state.room_count > 0, 'GET /rooms listed the rooms');
  assert.equal(state.last_error, null);
  assert.equal(token.requests, 1, 'exactly one code exchange');
  // The mirror names the account; its id is the developer view's (below).
  const said = await page.locator('#mirror').textContent();
  assert.match(said, /Signed in as Alice Example\. /, said);
  assert.doesNotMatch(said, /account 1001/, said);

  const tokens = JSON.parse(token.bodies[0]);
  assert.ok(tokens.access_token && tokens.refresh_token, 'the token set came back (spec 2.3)');
  const storage = await page.evaluate(() => JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage } }));
  const cookies = JSON.stringify(await browser.context.cookies());
  const url = page.url();
  const pageState = JSON.stringify(await page.evaluate(() => window.roomkey.state()));
  for (const secret of [tokens.access_token, tokens.refresh_token]) {
    assert.ok(!storage.includes(secret), 'no token in localStorage or sessionStorage');
    assert.ok(!cookies.includes(secret), 'no token in cookies');
    assert.ok(!url.includes(secret), 'no token in the URL');
    assert.ok(!pageState.includes(secret), 'no token in the page API');
  }
  assert.equal(await page.evaluate(() => sessionStorage.length), 0, 'the pending authorization was used up');
  // The developer view keeps the account's id (after the check above: the view's place is kept in the tab's storage).
  await act(page, { type: 'show_view', view: 'developer' });
  await page.waitForFunction(() => /Signed in as Alice Example \(account 1001\)/.test(window.roomkey.mirrorText()),
    null, { timeout: 10000 });
  await act(page, { type: 'show_view', view: 'workspace' });
  // Every step of the flow in the HTTP log, so a failed sign-in can be read there: the
  // authorization request (told again from the record the callback used),
  // the callback, then the code exchange, in that order.
  const titles = state.log.map((e) => e.title);
  const at = (re) => titles.findIndex((t) => re.test(t));
  const request = at(/authorization request/); const callback = at(/callback \(spec 4\.2\)/);
  const exchange = at(/POST \/oauth\/token/);
  assert.ok(request >= 0 && callback > request && exchange > callback,
    `the log shows request, callback, exchange in order: ${titles.join(' | ')}`);
  assert.ok(!/[?&](code|state)=/.test(url), `code and state were removed from the address bar (${url})`);
  assert.equal(new URL(url).pathname, '/', 'after the callback the address is /');

  await page.waitForTimeout(300);  // a frame with everything loaded
  const shot = await page.screenshot({ path: join(artifacts, 'dashboard.png') });
  const png = decodePng(shot);
  assert.ok(distinctColours(png) > 50, 'the dashboard screenshot shows a drawn UI');

  // Tokens live in memory only: a reload asks to sign in again.
  await page.reload();
  await page.waitForFunction(() => window.roomkey && window.roomkey.ready(), null, { timeout: 60000 });
  const reloaded = await page.evaluate(() => window.roomkey.state());
  assert.equal(reloaded.session, 'signed out', 'after a reload the user signs in again');
  assert.equal(reloaded.account, null);
  await page.close();
});

test('deny at the consent screen: a clear 3001 error, a try-again action, no token request', async () => {
  const page = await browser.context.newPage();
  const token = watchTokenRoute(page);
  await openApp(page, stack.url);
  await act(page, { type: 'sign_in', scope: SCOPE });
  await passConsent(page, stack, demoUsers.alice, 'deny');
  const state = await waitForState(page, (s) => s.ready && s.last_error, 'the error');
  assert.equal(state.last_error.code, '3001 access_denied', 'spec 4.2 / 7.1');
  assert.equal(state.last_error.try_again, true);
  assert.equal(token.requests, 0, 'no token request after a denial');
  // The mirror says what the error box says: the code is the developer view's (and state()'s).
  const mirror = await page.locator('#mirror').textContent();
  assert.match(mirror, /Last error: Sign-in denied\. /);
  assert.ok(!mirror.includes('access_denied'), mirror);
  await act(page, { type: 'show_view', view: 'developer' });
  await page.waitForFunction(() => document.getElementById('mirror').textContent
    .includes('Last error: Sign-in denied (3001 access_denied)'), null, { timeout: 10000 });
  await act(page, { type: 'show_view', view: 'workspace' });
  await act(page, { type: 'try_again' });
  await waitForState(page, (s) => s.session === 'signed out' && !s.last_error, 'a fresh start');
  await page.close();
});

test('a tampered state is refused and no token request is made', async () => {
  const page = await browser.context.newPage();
  const network = trackNetwork(page);
  const blocked = await blockTokenRequests(page);
  let tampered = false;
  // Redirects are not routed one by one: take the consent form's 302 and
  // answer with the same redirect carrying a forged state.
  await onConsentRedirect(page, (location) => {
    const url = new URL(location);
    url.searchParams.set('state', 'forged' + url.searchParams.get('state').slice(6));
    tampered = true;
    return url.href;
  });
  await openApp(page, stack.url);
  await act(page, { type: 'sign_in', scope: SCOPE });
  await passConsent(page, stack, demoUsers.alice, 'allow');
  const state = await waitForState(page, (s) => s.ready && s.last_error, 'the error');
  assert.ok(tampered, 'the redirect was tampered with');
  assert.match(state.last_error.title, /state does not match/);
  assert.equal(state.session, 'failed');
  // Whatever the app might still send after showing the error: wait until
  // the network has been quiet, then count.
  await network.idle();
  assert.deepEqual(blocked, [], 'no token request after a state mismatch, to any origin');
  assert.equal(await page.evaluate(() => sessionStorage.length), 0, 'the pending authorization was used up');
  const url = new URL(page.url());
  assert.equal(url.searchParams.get('code'), null, `no code in the address bar (${url})`);
  assert.equal(url.searchParams.get('state'), null, `no state in the address bar (${url})`);
  await page.close();
});

test('an expired authorization code ends in invalid_grant and a try-again action', async () => {
  const page = await browser.context.newPage();
  const token = watchTokenRoute(page);
  let held = false;
  await onConsentRedirect(page, async (location) => {
    // The code lives 1 minute (spec 2.2): move the sandbox past it first.
    await sandboxControl(stack, '/_sandbox/clock/advance', { seconds: 61 });
    held = true;
    return location;
  });
  await openApp(page, stack.url);
  await act(page, { type: 'sign_in', scope: SCOPE });
  await passConsent(page, stack, demoUsers.alice, 'allow');
  const state = await waitForState(page, (s) => s.ready && s.last_error, 'the error');
  assert.ok(held);
  assert.equal(token.requests, 1, 'the exchange was tried once and not retried');
  assert.equal(state.last_error.code, 'invalid_grant');
  assert.equal(state.last_error.try_again, true);
  assert.equal(state.account, null);
  await page.close();
});

test('after the sandbox clock passes 30 minutes the app refreshes once and the call succeeds', async () => {
  const page = await browser.context.newPage();
  const token = watchTokenRoute(page);
  const unauthorized = [];
  page.on('response', (r) => { if (r.status() === 401) unauthorized.push(new URL(r.url()).pathname); });
  await signIn(page);
  await sandboxControl(stack, '/_sandbox/clock/advance', { seconds: 31 * 60 });
  await act(page, { type: 'reload_account' });
  const state = await waitForState(page, (s) => s.counters.token_refreshes >= 1 && !s.loading,
    'the refresh and the retried calls');
  assert.equal(state.session, 'signed in');
  assert.equal(state.last_error, null, 'the retried call succeeded');
  assert.equal(state.account.account_id, demoUsers.alice.accountId);
  assert.ok(unauthorized.length >= 1, 'the expired token was refused with 401 (spec 5.2.2)');
  assert.equal(token.requests, 2, 'one code exchange, one refresh shared by both calls');
  assert.ok(state.counters.retries_after_401 >= 1);
  await page.close();
});

test('the shell strips code and state before any other resource, and drops the pending record if the app never starts', async () => {
  // The page: a blocking page.js is its first resource (it adds the
  // stylesheet itself, after the strip: see the request order below).
  const html = await (await browser.context.request.get(stack.url)).text();
  const script = html.search(/<script\b[^>]*\bsrc="page\.js"/);
  const firstResource = html.search(/<link\b[^>]*\brel="stylesheet"|<script\b|<img\b|<link\b[^>]*\bhref="(?!data:)/);
  assert.ok(script > 0 && script === firstResource, 'page.js is the first resource in the page');
  assert.doesNotMatch(html.match(/<script\b[^>]*>/)[0], /\b(defer|async)\b/, 'page.js blocks the parser');

  const page = await browser.context.newPage();
  await openApp(page, stack.url);
  await page.evaluate(() => sessionStorage.setItem('roomkey.pending_authorization', '{"state":"left-behind"}'));
  // The app never starts: its script does not load. page.js asks for its
  // files early (step 3): where the address bar was then.
  const urlsAtAppFiles = [];
  await page.route((u) => /\/roomkey(\.[0-9a-f]+)?\.(js|wasm)$/.test(u.pathname), async (route) => {
    urlsAtAppFiles.push(await page.evaluate(() => window.location.href));
    return route.abort();
  });
  // Where the address bar was when the stylesheet was asked for.
  let urlAtStylesheet = null;
  await page.route((u) => u.pathname.endsWith('/style.css'), async (route) => {
    urlAtStylesheet = await page.evaluate(() => window.location.href);
    return route.continue();
  });
  await page.goto(new URL('callback?code=c0de-never-used&state=st4te-never-used', stack.url).href);
  await page.waitForFunction(() => window.roomkey && window.roomkey.error(), null, { timeout: 30000 });
  assert.match(await page.evaluate(() => window.roomkey.error()), /could not be loaded/, 'the app did not start');
  assert.ok(urlAtStylesheet, 'the stylesheet was requested');
  assert.doesNotMatch(urlAtStylesheet, /code=|state=/, `stripped before the stylesheet was requested (${urlAtStylesheet})`);
  assert.ok(urlsAtAppFiles.length >= 2, 'roomkey.js and roomkey.wasm were requested');
  for (const url of urlsAtAppFiles) assert.doesNotMatch(url, /code=|state=/, `stripped before the app's files were requested (${url})`);
  assert.doesNotMatch(page.url(), /code=|state=/, 'not in the address bar');
  assert.equal(await page.evaluate(() => history.length > 0 && location.search), '', 'nor in the history entry');
  assert.equal(await page.evaluate(() => sessionStorage.length), 0, 'the pending record is gone (single use)');
  await page.close();
});

// The rows of tests/unit/launch_url_test.cpp (kRows): the address shell/page.js
// leaves for each, which must be read_launch_url's clean address, and
// whether the app read something to show (an answer with no pending record,
// or a #bff_error) or nothing.
const LAUNCH_ROWS = [
  ['/', 'nothing', '/'],
  ['/?lang=de#room=7', 'nothing', '/?lang=de#room=7'],
  ['/callback?code=c0de&state=st4te', 'authorization_answer', '/'],
  ['/callback?error=access_denied&error_description=no&state=st4te&error_code=3001', 'authorization_answer', '/'],
  ['/callback?code=c0de&state=st4te&iss=https%3A%2F%2Fauth.example&lang=de#room=7', 'authorization_answer', '/?lang=de#room=7'],
  ['/#bff_error=access_denied&bff_error_description=The%20user%20denied', 'bff_error', '/'],
  ['/callback', 'nothing', '/'],
  ['/?codes=x&xcode=y', 'nothing', '/?codes=x&xcode=y'],
  ['/callback?code=%zz&state=st4te', 'authorization_answer', '/'],
  ['/?co%64e=x', 'authorization_answer', '/'],
  ['/index.html?state=st4te', 'authorization_answer', '/index.html'],
  ['/?iss=https%3A%2F%2Fauth.example', 'nothing', '/'],
];

test('every shape of launch URL: the page strips it to read_launch_url\'s clean address, and the app reads what it holds', async () => {
  const page = await browser.context.newPage();
  for (const [target, holds, clean] of LAUNCH_ROWS) {
    await openApp(page, new URL(target, stack.url).href);
    const url = new URL(page.url());
    assert.equal(url.pathname + url.search + url.hash, clean, `the address left for ${target}`);
    if (holds === 'nothing') {
      const state = await page.evaluate(() => window.roomkey.state());
      assert.equal(state.last_error, null, `${target} holds nothing to show`);
    } else {
      await waitForState(page, (s) => s.last_error, `${target} holds ${holds}: the app says what became of it`);
    }
  }
  await page.close();
});

// Back from the consent screen. Browsers keep the page in their
// back/forward cache and show it again as it was, "signing in" with Sign
// in greyed out, and only a reload got out of it. The page must come back
// usable, and the abandoned authorization must stay unusable: a callback
// carrying its state (Forward to the consent screen, then Allow) is refused.
// Playwright turns Chromium's back/forward cache off; this test's own
// Chromium has it, and the test fails if the page was not restored from it
// (a page loaded afresh would pass without the fix).
appOnlyTest('Back from the consent screen: the page restored from the back/forward cache works, and its authorization is not usable', async () => {
  const cached = await launchBrowser({ backForwardCache: true });
  try {
    const page = await cached.context.newPage();
    const token = watchTokenRoute(page);
    const cdp = await page.context().newCDPSession(page);
    const notCached = [];
    cdp.on('Page.backForwardCacheNotUsed', (event) => notCached.push(JSON.stringify(event.notRestoredExplanations)));
    await cdp.send('Page.enable');
    await openApp(page, stack.url);
    // A mark only this document carries, and every pageshow it sees.
    await page.evaluate(() => {
      window.__thisDocument = true;
      window.__pageshows = [];
      window.addEventListener('pageshow', (event) => window.__pageshows.push(event.persisted));
    });
    await act(page, { type: 'sign_in', scope: SCOPE });
    await page.waitForURL((u) => u.origin === stack.sandbox.origin, { timeout: 30000 });
    const consentPage = page.url();

    // A page restored from the cache fires no load event: wait for the commit.
    await page.goBack({ waitUntil: 'commit' });
    await page.waitForURL((u) => u.origin === stack.origin, { timeout: 30000, waitUntil: 'commit' });
    const restored = await page.evaluate(() => ({ same: window.__thisDocument === true, shows: window.__pageshows }));
    assert.ok(restored.same && restored.shows.includes(true),
      `the page came back from the back/forward cache (pageshow persisted: ${JSON.stringify(restored.shows)}; ` +
      `not restored because: ${notCached.join('; ') || 'the same document was not shown'})`);

    const state = await waitForState(page, (s) => s.session === 'signed out', 'a usable page after Back');
    assert.match(state.notice, /came back from the consent screen/);
    assert.equal(state.last_error, null);
    assert.equal(await page.getByRole('button', { name: signInLabel(stack), exact: true }).getAttribute('aria-disabled'),
      null, 'Sign in is not greyed out');
    assert.equal(await page.evaluate(() => sessionStorage.length), 0, 'the abandoned authorization left storage');

    // Back at the consent screen (its address again: Playwright's
    // goForward waits for a load a restored page never fires) and Allow:
    // the callback carries the abandoned state, and nothing in this tab
    // can accept it any more.
    await page.goto(consentPage);
    await passConsent(page, stack, demoUsers.alice, 'allow');
    const refused = await waitForState(page, (s) => s.ready && s.last_error, 'the refused callback');
    assert.notEqual(refused.session, 'signed in');
    assert.equal(token.requests, 0, 'the abandoned authorization\'s code is never exchanged');

    // And a new sign-in from here works.
    await act(page, { type: 'try_again' });
    await act(page, { type: 'sign_in', scope: SCOPE });
    await passConsent(page, stack, demoUsers.alice, 'allow');
    await waitForState(page, (s) => s.session === 'signed in' && s.account, 'signed in after all');
    assert.equal(token.requests, 1);
    await page.close();
  } finally {
    await cached.close();
  }
});
