// app_bff.e2e.mjs: the app in roomkey-helper's BFF mode in real Chromium
// (docs/bff.md), through the helper and through the nginx front:
// sign-in through /bff/login and the sandbox's consent forms, the dashboard
// and a post; a reload keeps the session; the tokens the sandbox issued
// appear in nothing the page received (every response header and body,
// redirects and Set-Cookie included), nor in its storage, cookies readable
// by script, URL or state(); a request without X-Roomkey-Request or from a
// foreign Origin is refused whatever cookie it carries; the log shows the
// authorization request and the callback as steps; a denial comes back as
// #bff_error and is shown; sign-out ends the session.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp, act, waitForState, passConsent, demoUsers, appOnlyTest } from './support.mjs';
import { withBffStackAndBrowser, issuedTokens, recordReceived, frontRequest, cookieHeader, BFF_SCOPE } from './bff_support.mjs';

let stack; let browser;
withBffStackAndBrowser((s, b) => { stack = s; browser = b; });

const signedIn = (s) => s.session === 'signed in' && s.mode === 'bff' && s.account && s.status && s.room_count > 0 && !s.loading;

async function signIn(page, user = demoUsers.alice) {
  await openApp(page, stack.url);
  const before = await waitForState(page, (s) => s.config && s.config.loaded, 'the configuration');
  assert.equal(before.config.session, 'bff', '/config.json says "session": "bff"');
  await act(page, { type: 'sign_in', scope: BFF_SCOPE });
  await passConsent(page, stack, user, 'allow');
  return waitForState(page, signedIn, 'the signed-in dashboard through roomkey-helper');
}

test('BFF sign-in: dashboard and a post, a reload keeps the session, no token anywhere the page can see', async () => {
  const page = await browser.context.newPage();
  const received = await recordReceived(browser.context, page);
  const navigations = [];
  // Every top-level navigation request, the redirect hops included (/bff/login answers 303).
  page.on('request', (r) => { if (r.isNavigationRequest() && r.frame() === page.mainFrame()) navigations.push(r.url()); });
  const apiHeaders = [];
  page.on('request', (r) => { if (new URL(r.url()).pathname.startsWith('/api/')) apiHeaders.push(r.headers()); });

  const state = await signIn(page);
  assert.equal(state.account.account_id, demoUsers.alice.accountId, 'GET /me through the helper');
  assert.equal(state.tokens_held_by, 'helper');
  assert.match(state.tokens_where, /held by roomkey-helper \(BFF\), never in this page/);
  assert.ok(state.access_expires_in > 0, 'the access token countdown from /bff/session');
  assert.ok(navigations.some((u) => new URL(u).pathname === '/bff/login'), `sign-in navigated to /bff/login: ${navigations.join(' ')}`);
  assert.ok(!page.url().includes('#') && new URL(page.url()).pathname === '/', `back at / with nothing in the URL (${page.url()})`);
  assert.match(await page.locator('#mirror').textContent(), /Tokens: held by roomkey-helper/);

  // The log tells every step: the navigation to /bff/login, the callback
  // the helper handled, its code exchange.
  const titles = state.log.map((e) => e.title);
  const at = (re) => titles.findIndex((t) => re.test(t));
  const login = at(/sign-in through roomkey-helper \(BFF\)/);
  const callback = at(/GET \/callback -> step {2}callback to roomkey-helper/);
  const exchange = at(/token request by roomkey-helper \(authorization_code\)/);
  assert.ok(login >= 0 && callback > login && exchange > callback, `login, callback, exchange in order: ${titles.join(' | ')}`);

  // A post.
  const room = state.rooms[0].room_id;
  await act(page, { type: 'post_message', room_id: room, body: 'hello through the BFF', count: 1 });
  const posted = await waitForState(page, (s) => s.queue.delivered >= 1, 'the post delivered');
  assert.equal(posted.queue.failed, 0);
  for (const headers of apiHeaders) {
    assert.equal(headers.authorization, undefined, 'the page sends no Authorization header in BFF mode');
    assert.equal(headers['x-roomkey-request'], '1');
  }

  // A reload keeps the session: no consent screen, signed in again at once.
  const before = navigations.length;
  await page.reload();
  const reloaded = await waitForState(page, signedIn, 'the session after a reload');
  assert.equal(reloaded.account.account_id, demoUsers.alice.accountId);
  assert.ok(!navigations.slice(before).some((u) => new URL(u).origin === stack.sandbox.origin), 'no new authorization round trip');

  // The hidden-from-the-page property: every token the sandbox issued is
  // absent from everything the page received, its storage, the cookies
  // (the session cookie is sealed), the URL and the page API.
  const tokens = await issuedTokens(stack);
  assert.ok(tokens.length >= 2, `the sandbox issued an access and a refresh token (${tokens.length})`);
  const everything = await received.text();
  assert.ok(received.count() > 20, 'the network record holds the page\'s responses');
  assert.ok(everything.includes(demoUsers.alice.accountId), 'the record does hold what the page got (GET /me)');
  const storage = await page.evaluate(() => JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage }, cookie: document.cookie }));
  const cookies = JSON.stringify(await browser.context.cookies());
  const pageState = JSON.stringify(await page.evaluate(() => window.roomkey.state()));
  const mirror = await page.locator('#mirror').textContent();
  for (const token of tokens) {
    assert.ok(!everything.includes(token), 'no token in any response header or body the page received');
    assert.ok(!storage.includes(token), 'no token in storage or document.cookie');
    assert.ok(!cookies.includes(token), 'no token in a cookie, even the sealed session cookie');
    assert.ok(!pageState.includes(token), 'no token in state()');
    assert.ok(!mirror.includes(token), 'no token in the text mirror');
    assert.ok(!page.url().includes(token), 'no token in the URL');
  }
  const session = (await browser.context.cookies(stack.url)).find((c) => c.name === '__Host-roomkey_session');
  assert.ok(session, 'the session is the __Host- cookie');
  assert.equal(session.httpOnly, true, 'HttpOnly: no script reads it');
  assert.equal(session.secure, true);
  assert.equal(session.sameSite, 'Strict');
  assert.ok(!storage.includes('__Host-roomkey_session'), 'document.cookie does not show it');
  await page.close();
});

test('requests without X-Roomkey-Request or from a foreign Origin are refused whatever cookie they carry', async () => {
  const page = await browser.context.newPage();
  await signIn(page, demoUsers.bob);
  const cookie = await cookieHeader(browser.context, stack);
  assert.match(cookie, /__Host-roomkey_session=/);
  const sameOrigin = { cookie, origin: stack.origin, 'sec-fetch-site': 'same-origin' };

  const ok = await frontRequest(stack, 'GET', '/bff/session', { headers: { ...sameOrigin, 'x-roomkey-request': '1' } });
  assert.equal(ok.status, 200, `the cookie with the checks passes: ${ok.text}`);
  assert.equal(JSON.parse(ok.text).signed_in, true);

  for (const [what, headers] of [
    ['no X-Roomkey-Request', { ...sameOrigin }],
    ['a foreign Origin', { ...sameOrigin, 'x-roomkey-request': '1', origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }],
  ]) {
    for (const [method, path] of [['GET', '/api/me'], ['GET', '/bff/session'], ['POST', '/bff/logout']]) {
      const answer = await frontRequest(stack, method, path, { headers });
      assert.equal(answer.status, 403, `${method} ${path} with ${what}: refused (${answer.status} ${answer.text})`);
    }
  }
  // In the page too: a script's fetch without the header is refused.
  const bare = await page.evaluate(() => fetch('/api/me').then((r) => r.status));
  assert.equal(bare, 403, 'fetch without X-Roomkey-Request from the page');
  // The session survived all of that (the logouts were refused).
  const still = await frontRequest(stack, 'GET', '/bff/session', { headers: { ...sameOrigin, 'x-roomkey-request': '1' } });
  assert.equal(JSON.parse(still.text).signed_in, true);
  await page.close();
});

test('sign-out ends the session at the helper and says the authorization stays granted', async () => {
  const page = await browser.context.newPage();
  await signIn(page);
  const cookie = await cookieHeader(browser.context, stack);
  await act(page, { type: 'sign_out' });
  const out = await waitForState(page, (s) => s.session === 'signed out' && /stays granted/.test(s.notice), 'the sign-out note');
  assert.equal(out.account, null);
  assert.equal(out.tokens_held_by, null);
  await openApp(page, stack.url);  // a new page load
  const reloaded = await waitForState(page, (s) => s.bff && s.log.some((e) => /\/bff\/session -> 200/.test(e.title)), 'the session asked');
  assert.equal(reloaded.session, 'signed out', 'a reload after sign-out stays signed out');
  const after = await frontRequest(stack, 'GET', '/bff/session', { headers: { cookie: await cookieHeader(browser.context, stack), origin: stack.origin, 'sec-fetch-site': 'same-origin', 'x-roomkey-request': '1' } });
  assert.equal(JSON.parse(after.text).signed_in, false);
  assert.notEqual(cookie, '', 'there was a session cookie before');
  await page.close();
});

appOnlyTest('a denial at the consent screen comes back as #bff_error: shown, logged, gone from the address bar', async () => {
  const page = await browser.context.newPage();
  await openApp(page, stack.url);
  await act(page, { type: 'sign_in', scope: BFF_SCOPE });
  await passConsent(page, stack, demoUsers.alice, 'deny');
  const state = await waitForState(page, (s) => s.ready && s.last_error, 'the error');
  assert.equal(state.last_error.title, 'Sign-in denied');
  assert.equal(state.last_error.code, 'access_denied');
  assert.equal(state.session, 'signed out');
  assert.ok(state.log.some((e) => /callback to roomkey-helper \(BFF\)/.test(e.title)), 'the refused callback is a step of the log');
  assert.ok(!page.url().includes('bff_error'), `the fragment left the address bar (${page.url()})`);
  await page.close();
});
