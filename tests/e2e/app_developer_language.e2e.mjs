// app_developer_language.e2e.mjs: the developer view in the browser's
// language. With Chromium in Japanese (locale ja-JP), signed in through the
// sandbox: the HTTP log, the API console, the sign-in flow's steps, the
// console's refusal and the service's insufficient_scope answer, and the
// "Copied as ..." notice read in Japanese (the accessibility tree, the page
// state's words and the text mirror), with the wire values beside them as
// they are (paths, scope names, error identifiers, statuses), at 1366x800
// and 390x844, with screenshots in the build tree. With en-US the same
// screens read as they always did.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openApp, act, waitForState, passConsent, demoUsers, artifacts, withStackAndLanguageBrowsers }
  from './support.mjs';

let stack; let ja; let en;
withStackAndLanguageBrowsers((s, j, e) => { stack = s; ja = j; en = e; });

// No contacts scope: the console's GET /contacts is refused for it.
const SCOPE = 'users.all:read rooms.all:read_write';
const SIZES = [[1366, 800], [390, 844]];
const ENTRY = /^(GET|POST|PUT|DELETE) \/\S* -> /;

// The names of the accessibility tree's elements: a control (a button, a
// heading's button, a checkbox) reads as its text, a field, an image or a
// group as its label.
const NAMED = '#a11y button, #a11y [role="checkbox"], #a11y [aria-label]';
const treeNames = (page) => page.evaluate((sel) =>
  [...document.querySelectorAll(sel)].map((el) => el.getAttribute('aria-label') || el.textContent), NAMED);
async function treeHas(page, name) {
  await page.waitForFunction(([n, sel]) => [...document.querySelectorAll(sel)]
    .some((el) => (el.getAttribute('aria-label') || el.textContent) === n), [name, NAMED], { timeout: 30000 })
    .catch(async () => { throw new Error(`"${name}" is not in the tree: ${JSON.stringify(await treeNames(page))}`); });
}
const press = (page, role, name) => page.locator('#a11y').getByRole(role, { name, exact: true }).dispatchEvent('click');
const shot = (page, name) => page.screenshot({ path: join(artifacts, `developer-${name}.png`) });

// Screenshots at both sizes, each scrolled to the HTTP log (`log`, its
// heading) so the picture shows it: the wheel over the pane until the
// heading is in the window.
async function shots(page, log, lang) {
  for (const [width, height] of SIZES) {
    await page.setViewportSize({ width, height });
    await treeHas(page, log);
    const heading = page.locator('#a11y').getByRole('button', { name: log, exact: true });
    for (let i = 0; i < 20; i++) {
      const box = await heading.boundingBox();
      if (box && box.y >= 0 && box.y + box.height <= height / 2) break;
      await page.mouse.move(width / 2, height / 2);
      await page.mouse.wheel(0, 200);
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    }
    await shot(page, `${lang}-${width}x${height}`);
  }
}

async function signedIn(browser) {
  const page = await browser.context.newPage();
  await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.origin });
  await page.setViewportSize({ width: 1366, height: 800 });
  await openApp(page, stack.url);
  await act(page, { type: 'sign_in', scope: SCOPE });
  await passConsent(page, stack, demoUsers.alice, 'allow');
  await waitForState(page, (s) => s.session === 'signed in' && s.account && s.status && !s.loading, 'signed in');
  await act(page, { type: 'show_view', view: 'developer' });
  return page;
}

// The console: GET /contacts without its scope (refused by the console),
// then sent anyway (the service's own 403 insufficient_scope).
async function consoleRefusals(page) {
  await act(page, { type: 'api_call', method: 'GET', path: '/contacts', params: {} });
  const refused = await waitForState(page, (s) => s.console.last && s.console.missing_scope, 'the console refusal');
  await act(page, { type: 'api_call', method: 'GET', path: '/contacts', params: {}, anyway: true });
  const answered = await waitForState(page, (s) => s.console.last && s.console.last.status === 403, "the service's 403");
  return { refused: refused.console.last.error, answered: answered.console.last.error, log: answered.log };
}

test('ja-JP: the developer view, the flow, the console and its errors are Japanese, wire values beside', async () => {
  const page = await signedIn(ja);
  let state = await waitForState(page, (s) => s.lang === 'ja', 'Japanese');
  assert.equal(state.session, 'signed in', 'the page API keeps its English values');
  for (const words of ['HTTP ログ', '秘密情報を画面に表示', 'クリア', 'HAR を書き出す', '新しい順', 'ワークスペース (F2)']) {
    await treeHas(page, words);
  }
  const names = await treeNames(page);
  for (const english of ['HTTP log', 'Reveal secrets on screen', 'Clear', 'API console', 'Developer (F2)']) {
    assert.ok(!names.includes(english), `"${english}" is not on screen`);
  }
  // The sign-in flow's steps, their words Japanese, the request beside them as sent.
  state = await waitForState(page, (s) => s.log.some((e) => /^GET \/\S* -> ステップ {2}コールバック\(仕様 4\.2\)$/.test(e.title)),
    'the callback step');
  assert.ok(state.log.some((e) => /^GET \/\S* -> ステップ {2}認可リクエスト\(仕様 4\.2\)$/.test(e.title)),
    state.log.map((e) => e.title).join('\n'));
  // On screen: the log filtered to what had no answer (the steps are navigations).
  await act(page, { type: 'set_log_filter', text: '', method: '', status: 'none' });
  await page.waitForFunction(([source, sel]) => [...document.querySelectorAll(sel)]
    .some((el) => new RegExp(source).test(el.textContent) && /ステップ {2}コールバック/.test(el.textContent)),
  [ENTRY.source, '#a11y button'], { timeout: 30000 })
    .catch(async () => { throw new Error(`no step on screen: ${JSON.stringify(await treeNames(page))}`); });
  await act(page, { type: 'set_log_filter', text: '', method: '', status: '' });

  // The console, opened: its words, then its refusal and the service's answer.
  await press(page, 'button', 'API コンソール');
  await treeHas(page, '送信');
  const { refused, answered, log } = await consoleRefusals(page);
  assert.equal(refused, '送信していません: GET /contacts にはスコープ contacts.all:read が必要ですが、このログインでは許可されていません。' +
    'contacts.all:read を追加してログインし直してください。');
  assert.match(answered, /^HTTP 403: insufficient_scope: この呼び出しにはスコープ contacts\.all:read が必要です。/);
  await treeHas(page, 'contacts.all:read を追加してログインし直す');
  await treeHas(page, 'このまま送信');
  const sent = log.find((e) => /^GET \/api\/contacts -> 403 .*API コンソール\(コンソールのチェックに反して送信\): GET \/contacts$/.test(e.title));
  assert.ok(sent, log.map((e) => e.title).join('\n'));
  await waitForState(page, (s) => /^コンソール: GET \/contacts の応答 403。 HTTP 403: insufficient_scope/.test(s.announce.console),
    'the spoken answer');

  // The console's own check of the parameters: its words are Japanese, the
  // parameter and the values as they are; the page API's problems keep their English.
  await act(page, { type: 'api_call', method: 'POST', path: '/rooms/{room_id}/messages',
    params: { room_id: '2100', self_unread: '2' } });
  const checked = await waitForState(page, (s) => s.console.last && s.console.last.path === '/rooms/{room_id}/messages' &&
    s.console.problems.length > 0, 'the console check');
  assert.equal(checked.console.last.error,
    '送信していません: body は必須です。self_unread は次のいずれかにしてください: 0, 1。');
  assert.deepEqual(checked.console.problems.map((p) => [p.param, p.kind, p.message]),
    [['body', 'required', 'body is required.'], ['self_unread', 'not_choice', 'self_unread must be one of: 0, 1.']]);

  // "Copy as": the notice in Japanese, the format's name translated, the snippet as the service takes it.
  await page.bringToFront();
  await act(page, { type: 'copy_as', entry: sent.id, format: 'curl_service' });
  await waitForState(page, (s) => s.notice === 'curl(サービスへ直接) としてコピーしました(秘密情報はマスク済み)。', 'the copy notice');
  await treeHas(page, 'curl(サービスへ直接)');
  // The text mirror speaks Japanese too (the session, the view's error).
  await page.waitForFunction(() => /セッション: ログイン済み。/.test(window.roomkey.mirrorText()), null, { timeout: 30000 });

  await shots(page, 'HTTP ログ', 'ja');
  await page.close();
});

test('en-US: the developer view reads as before', async () => {
  const page = await signedIn(en);
  const state = await waitForState(page, (s) => s.lang === 'en', 'English');
  for (const words of ['HTTP log', 'Reveal secrets on screen', 'Clear', 'Export HAR', 'Newest first', 'API console']) {
    await treeHas(page, words);
  }
  assert.ok(state.log.some((e) => /^GET \/\S* -> step {2}callback \(spec 4\.2\)$/.test(e.title)),
    state.log.map((e) => e.title).join('\n'));
  await press(page, 'button', 'API console');
  await treeHas(page, 'Send');
  const { refused, answered, log } = await consoleRefusals(page);
  assert.equal(refused, 'Not sent: GET /contacts needs the scope contacts.all:read, which this sign-in did not grant. ' +
    'Sign in again adding contacts.all:read.');
  assert.match(answered, /^HTTP 403: insufficient_scope: this call needs the scope contacts\.all:read\. Sign in again adding /);
  await treeHas(page, 'Sign in again adding contacts.all:read');
  const sent = log.find((e) => /^GET \/api\/contacts -> 403 .*API console, sent anyway against its own check: GET \/contacts$/.test(e.title));
  assert.ok(sent, log.map((e) => e.title).join('\n'));
  await page.bringToFront();
  await act(page, { type: 'copy_as', entry: sent.id, format: 'curl_service' });
  await waitForState(page, (s) => s.notice === 'Copied as curl (service) (secrets masked).', 'the copy notice');
  await shots(page, 'HTTP log', 'en');
  await page.close();
});
