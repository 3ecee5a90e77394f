// app_bff_headers.e2e.mjs: the front's security headers as Chromium applies
// them, through the helper and through nginx (BFF mode, docs/bff.md):
// - Permissions-Policy: Chromium parses the page's policy without a warning,
//   denies the powerful features the app never uses, keeps clipboard-write
//   (copying), and the app signs in and works under it;
// - Clear-Site-Data on POST /bff/logout: after signing out, what the
//   origin kept in the browser (local and session storage, cookies readable
//   by script, the session cookie) is gone, though the page itself stays.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp, act, waitForState, passConsent, demoUsers } from './support.mjs';
import { withBffStackAndBrowser, cookieHeader, BFF_SCOPE } from './bff_support.mjs';

let stack; let browser;
withBffStackAndBrowser((s, b) => { stack = s; browser = b; });

const signedIn = (s) => s.session === 'signed in' && s.mode === 'bff' && s.account && s.room_count > 0 && !s.loading;

async function signIn(page) {
  await openApp(page, stack.url);
  await waitForState(page, (s) => s.config && s.config.loaded, 'the configuration');
  await act(page, { type: 'sign_in', scope: BFF_SCOPE });
  await passConsent(page, stack, demoUsers.alice, 'allow');
  return waitForState(page, signedIn, 'the signed-in dashboard');
}

test('the page works under its Permissions-Policy, which denies what the app does not use', async () => {
  const page = await browser.context.newPage();
  const warnings = [];
  page.on('console', (m) => { if (/permissions.policy|feature.policy/i.test(m.text())) warnings.push(m.text()); });
  const response = await page.goto(stack.url);
  const policy = response.headers()['permissions-policy'];
  assert.ok(policy, 'the page comes with a Permissions-Policy');
  const state = await signIn(page);
  assert.equal(state.account.account_id, demoUsers.alice.accountId, 'signed in and GET /me answered under the policy');
  const allowed = await page.evaluate(() => Object.fromEntries(
    ['camera', 'microphone', 'geolocation', 'usb', 'payment', 'clipboard-write']
      .map((f) => [f, document.featurePolicy.allowsFeature(f)])));
  assert.deepEqual(allowed, { camera: false, microphone: false, geolocation: false, usb: false, payment: false,
    'clipboard-write': true }, `Chromium's reading of "${policy}"`);
  assert.deepEqual(warnings, [], 'Chromium understood every feature the policy names');
  await page.close();
});

test('signing out clears the storage and cookies the origin kept (Clear-Site-Data)', async () => {
  const page = await browser.context.newPage();
  await signIn(page);
  // What a page session leaves behind: storage and a cookie script can read.
  await page.evaluate(() => {
    localStorage.setItem('e2e-left-behind', 'x');
    sessionStorage.setItem('e2e-left-behind', 'x');
    document.cookie = 'e2e_left_behind=x; Secure; SameSite=Strict; Path=/';
  });
  assert.notEqual(await cookieHeader(browser.context, stack), '', 'a session cookie before');
  const logout = page.waitForResponse((r) => new URL(r.url()).pathname === '/bff/logout');
  await act(page, { type: 'sign_out' });
  const answer = await logout;
  assert.equal(answer.status(), 200);
  assert.equal((await answer.allHeaders())['clear-site-data'], '"cookies", "storage"');
  await waitForState(page, (s) => s.session === 'signed out' && /stays granted/.test(s.notice), 'the sign-out note');
  const left = await page.evaluate(() => ({
    local: localStorage.getItem('e2e-left-behind'),
    session: sessionStorage.getItem('e2e-left-behind'),
    cookies: document.cookie,
  }));
  assert.equal(left.local, null, 'localStorage cleared');
  assert.equal(left.session, null, 'sessionStorage cleared');
  assert.doesNotMatch(left.cookies, /e2e_left_behind/, 'script-readable cookies cleared');
  const jar = await browser.context.cookies(stack.url);
  assert.deepEqual(jar.map((c) => c.name), [], 'no cookie of the origin is left, the session cookie included');
  await page.close();
});
