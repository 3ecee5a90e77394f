// app_language.e2e.mjs: the app speaks the browser's language. With the
// browser in Japanese (locale ja-JP) the words on screen, read from the
// accessibility tree and the text mirror, are Japanese signed out and
// signed in, in the workspace and the developer view, for an error, and
// on the sandbox's login and consent screens, at 1366x800 and 390x844
// (screenshots in the build tree); the switch in the header changes the
// language and is kept; with en-US the words are English as before.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openApp, act, waitForState, passConsent, demoUsers, artifacts, startStack, stopStack, launchBrowser,
  clickWidget } from './support.mjs';
import { before, after } from 'node:test';

let stack; let ja; let en;
before(async () => {
  stack = await startStack();
  ja = await launchBrowser({ locale: 'ja-JP' });
  en = await launchBrowser({ locale: 'en-US' });
});
after(async () => {
  if (ja) await ja.close();
  if (en) await en.close();
  await stopStack(stack);
});

const SCOPE = 'users.all:read rooms.all:read_write contacts.all:read';
const SIZES = [[1366, 800], [390, 844]];
const mirror = (page) => page.evaluate(() => window.roomkey.mirrorText());
const button = (page, name) => page.locator('#a11y').getByRole('button', { name, exact: true });
// A control of the header: at a phone's width the header is one line and
// its controls are in its menu (`menu`, named in the page's language).
async function headerButton(page, name, menu) {
  const wanted = button(page, name);
  await wanted.or(button(page, menu)).first().waitFor({ timeout: 30000 });
  if (!(await wanted.count())) await button(page, menu).dispatchEvent('click');
  await wanted.waitFor({ timeout: 30000 });
}
// The names of the accessibility tree's controls, all of them.
const treeNames = (page) => page.evaluate(() =>
  [...document.querySelectorAll('#a11y [aria-label]')].map((el) => el.getAttribute('aria-label')));

// Waits until a node of the accessibility tree is named or reads `text`.
async function treeHas(page, text) {
  await page.waitForFunction((t) => [...document.querySelectorAll('#a11y *')].some((el) =>
    el.getAttribute('aria-label') === t || el.textContent === t), text, { timeout: 30000 });
}

async function waitForMirror(page, pattern, what) {
  await page.waitForFunction((source) => new RegExp(source).test(window.roomkey.mirrorText()), pattern.source,
    { timeout: 30000 }).catch(async () => { throw new Error(`${what}: mirror was ${await mirror(page)}`); });
}

async function shot(page, name) {
  await page.screenshot({ path: join(artifacts, `language-${name}.png`) });
}

test('ja-JP, signed out: the header, the session and the mirror are Japanese at both sizes', async () => {
  const page = await ja.context.newPage();
  for (const [width, height] of SIZES) {
    await page.setViewportSize({ width, height });
    await openApp(page, stack.url);
    const state = await waitForState(page, (s) => s.lang === 'ja', 'the Japanese app');
    assert.equal(state.session, 'signed out', 'the page API keeps its English values');
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'ja');
    await waitForMirror(page, /roomkey の準備ができました。 セッション: 未ログイン。/, 'the mirror in Japanese');
    await button(page, '開発者 (F2)').waitFor({ timeout: 30000 });
    await headerButton(page, 'English', 'メニュー');  // the switch names the other language
    assert.ok(!(await treeNames(page)).includes('Developer (F2)'));
    await shot(page, `ja-signed-out-${width}x${height}`);
  }
  await page.close();
});

test('ja-JP, signed in: the sandbox consent, the workspace, the developer view and an error are Japanese', async () => {
  const page = await ja.context.newPage();
  await page.setViewportSize({ width: 1366, height: 800 });
  await openApp(page, stack.url);
  await waitForState(page, (s) => s.lang === 'ja', 'the Japanese app');
  // An error: Deny at the consent screen, which the sandbox shows in Japanese.
  await act(page, { type: 'sign_in', scope: SCOPE });
  await page.waitForURL((u) => u.origin === stack.sandbox.origin, { timeout: 30000 });
  assert.ok((await page.content()).includes('ログイン'), 'the sandbox login screen is Japanese');
  await passConsent(page, stack, demoUsers.alice, 'deny');
  await waitForState(page, (s) => s.last_error, 'the error');
  await waitForMirror(page, /直近のエラー: ログインが拒否されました \(3001 access_denied\)/, 'the error in Japanese');
  await shot(page, 'ja-error-1366x800');
  // Signed in.
  await act(page, { type: 'try_again' });
  await act(page, { type: 'sign_in', scope: SCOPE });
  await page.waitForURL((u) => u.origin === stack.sandbox.origin, { timeout: 30000 });
  await page.waitForSelector('#allow', { timeout: 30000 }).catch(() => {});
  await passConsent(page, stack, demoUsers.alice, 'allow');
  const state = await waitForState(page, (s) => s.session === 'signed in' && s.account && s.status, 'signed in');
  assert.equal(state.lang, 'ja', 'the choice outlasts the round trip to the consent screen');
  await waitForMirror(page, /セッション: ログイン済み。 .*としてログインしています。 .*未読 \d+ 件/, 'signed in, in Japanese');
  for (const [width, height] of SIZES) {
    await page.setViewportSize({ width, height });
    await headerButton(page, 'ログアウト', 'メニュー');
    await headerButton(page, '通知オフ', 'メニュー');
    await shot(page, `ja-workspace-${width}x${height}`);
  }
  await page.setViewportSize({ width: 1366, height: 800 });
  await act(page, { type: 'show_view', view: 'developer' });
  await button(page, 'ワークスペース (F2)').waitFor({ timeout: 30000 });
  await treeHas(page, 'リクエスト数の上限(仕様 8)');
  await shot(page, 'ja-developer-1366x800');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'ja-developer-390x844');
  await act(page, { type: 'show_view', view: 'workspace' });
  await act(page, { type: 'sign_out', discard_posts: true });
  await waitForState(page, (s) => s.session === 'signed out', 'signed out');
  await page.close();
});

test('the switch in the header changes the language, and the choice is kept in this browser', async () => {
  const page = await ja.context.newPage();
  await page.setViewportSize({ width: 1366, height: 800 });
  await openApp(page, stack.url);
  await waitForState(page, (s) => s.lang === 'ja', 'Japanese from the browser');
  await clickWidget(page, 'language');
  await waitForState(page, (s) => s.lang === 'en', 'English after the switch');
  await waitForMirror(page, /^roomkey is ready\. Session: signed out\./, 'the mirror in English');
  await openApp(page, stack.url);
  await waitForState(page, (s) => s.lang === 'en', 'English kept across a reload');
  await act(page, { type: 'set_language', lang: 'ja' });
  await waitForState(page, (s) => s.lang === 'ja', 'Japanese through the page API');
  await page.goto(new URL('?lang=en', stack.url).href);
  await waitForState(page, (s) => s.lang === 'en', '?lang=en');
  await act(page, { type: 'set_language', lang: 'ja' });  // leaves this browser as it was
  await waitForState(page, (s) => s.lang === 'ja', 'back to Japanese');
  await page.close();
});

test('en-US: the words are English, as before', async () => {
  const page = await en.context.newPage();
  for (const [width, height] of SIZES) {
    await page.setViewportSize({ width, height });
    await openApp(page, stack.url);
    const state = await waitForState(page, (s) => s.lang === 'en', 'the English app');
    assert.equal(state.session, 'signed out');
    await waitForMirror(page, /^roomkey is ready\. Session: signed out\./, 'the mirror in English');
    await button(page, 'Developer (F2)').waitFor({ timeout: 30000 });
    await headerButton(page, '日本語', 'Menu');
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
    await shot(page, `en-signed-out-${width}x${height}`);
  }
  await page.close();
});
