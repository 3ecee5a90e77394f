// app_language.e2e.mjs: the app speaks the browser's language. With the
// browser in Japanese (locale ja-JP) the words on screen, read from the
// accessibility tree and the text mirror, are Japanese signed out and
// signed in, in the workspace and the developer view, for an error, a
// room's service message, the delete dialog, a notification and the status
// line, and on the sandbox's login and consent screens, at 1366x800 and 390x844
// (screenshots in the build tree); the dialog is a modal dialog of the
// browser's accessibility tree named by its title in either language; the
// header's session words are whole at both sizes; the switch in the header changes the
// language and is kept; with en-US the words are English as before. The
// page's own words, said before the app runs (loading, a failed start) and
// the canvas's and the scope section's accessible names, are the catalog's
// in the language the page chose (shell/page.js: ?lang=, the kept choice,
// navigator.languages), and follow the switch.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openApp, act, waitForState, passConsent, demoUsers, artifacts, withStackAndLanguageBrowsers,
  clickWidget, sandboxApi, widgetRect, recordNotifications, resizeTo } from './support.mjs';
import { assertSessionWordsWhole } from './workspace_regions.mjs';

let stack; let ja; let en;
withStackAndLanguageBrowsers((s, j, e) => { stack = s; ja = j; en = e; });

const SCOPE = 'users.all:read rooms.all:read_write contacts.all:read';
const ROOM = '2100';
const SIZES = [[1366, 800], [390, 844]];
const mirror = (page) => page.evaluate(() => window.roomkey.mirrorText());
const button = (page, name) => page.locator('#a11y').getByRole('button', { name, exact: true });
// A button of the dialog: not one of the conversation's own (each message
// has a Delete of its own, named the same).
const dialogButton = (page, name) => page.locator('#a11y').getByRole('button', { name, exact: true })
  .and(page.locator('xpath=//*[@id="a11y"]//button[not(ancestor::*[@role="log"])]'));
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

// Waits until a node of the accessibility tree holds `text` in its name or its words.
async function treeIncludes(page, text, what) {
  await page.waitForFunction((t) => [...document.querySelectorAll('#a11y *')].some((el) =>
    (el.getAttribute('aria-label') || el.textContent || '').includes(t)), text, { timeout: 30000 })
    .catch(async () => {
      const names = await page.evaluate(() => [...document.querySelectorAll('#a11y *')]
        .map((el) => el.getAttribute('aria-label') || '').filter((n) => n).join(' | '));
      throw new Error(`${what}: "${text}" is not in the accessibility tree: ${names.slice(0, 3000)}`);
    });
}

async function waitForMirror(page, pattern, what) {
  await page.waitForFunction((source) => new RegExp(source).test(window.roomkey.mirrorText()), pattern.source,
    { timeout: 30000 }).catch(async () => { throw new Error(`${what}: mirror was ${await mirror(page)}`); });
}

// The dialog named `title` as the browser's own accessibility tree has it
// (what a screen reader gets, read over CDP): its role, whether it is
// modal, and the names of the buttons inside it.
async function axDialog(page, title) {
  await page.locator('#a11y [role=dialog]').and(page.locator(`[aria-label="${title}"]`))
    .waitFor({ state: 'attached', timeout: 30000 });
  const cdp = await page.context().newCDPSession(page);
  try {
    const { nodes } = await cdp.send('Accessibility.getFullAXTree');
    const byId = new Map(nodes.map((n) => [n.nodeId, n]));
    const value = (v) => (v ? v.value : undefined);
    const dialogs = nodes.filter((n) => value(n.role) === 'dialog');
    const dialog = dialogs.find((n) => value(n.name) === title);
    assert.ok(dialog, `a dialog named "${title}" in the accessibility tree; dialogs: ${JSON.stringify(dialogs.map((n) => value(n.name)))}`);
    const buttons = [];
    const pending = [...(dialog.childIds || [])];
    while (pending.length) {
      const n = byId.get(pending.shift());
      if (!n) continue;
      if (value(n.role) === 'button') buttons.push(value(n.name));
      pending.push(...(n.childIds || []));
    }
    const modal = (dialog.properties || []).some((p) => p.name === 'modal' && value(p.value) === true);
    return { modal, buttons };
  } finally {
    await cdp.detach();
  }
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
  await waitForMirror(page, /直近のエラー: ログインが拒否されました\. /, 'the error in Japanese');
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
    await resizeTo(page, width, height);
    await widgetRect(page, 'session');  // drawn at this size
    await assertSessionWordsWhole(page, width, `the workspace at ${width} px`);
    await headerButton(page, 'ログアウト', 'メニュー');
    await headerButton(page, '通知オフ', 'メニュー');
    await shot(page, `ja-workspace-${width}x${height}`);
  }
  await page.setViewportSize({ width: 1366, height: 800 });
  await act(page, { type: 'show_view', view: 'developer' });
  await button(page, 'ワークスペース (F2)').waitFor({ timeout: 30000 });
  await treeHas(page, 'リクエスト数の上限(仕様 8)');
  await shot(page, 'ja-developer-1366x800');
  await resizeTo(page, 390, 844);
  await widgetRect(page, 'session');
  await assertSessionWordsWhole(page, 390, 'the developer view at 390 px');
  await shot(page, 'ja-developer-390x844');
  await act(page, { type: 'show_view', view: 'workspace' });
  await act(page, { type: 'sign_out', discard_posts: true });
  await waitForState(page, (s) => s.session === 'signed out', 'signed out');
  await page.close();
});

// A room in Japanese: the service's message about a task (its [dtext:...]
// title and the task's line), the delete dialog, a notification of a
// reply to Alice, the status line after signing out and the page title,
// read from the accessibility tree, the text mirror, the page API's
// dialog and the browser's Notification, at both sizes.
test('ja-JP: a task\'s message, the delete dialog, a notification and the status line are Japanese', async () => {
  await ja.context.grantPermissions(['notifications'], { origin: stack.origin });
  const page = await ja.context.newPage();
  await recordNotifications(page);
  await page.setViewportSize({ width: 1366, height: 800 });
  await openApp(page, stack.url);
  await waitForState(page, (s) => s.lang === 'ja', 'the Japanese app');
  await act(page, { type: 'use_api_token', token: demoUsers.alice.apiToken });
  let state = await waitForState(page, (s) => s.account && s.rooms.length > 1 && !s.loading, 'the rooms');
  await act(page, { type: 'set_notifications', on: true });
  await waitForState(page, (s) => s.notifications.enabled && s.notifications.permission === 'granted',
    'notifications on');
  await headerButton(page, '通知オン', 'メニュー');

  // The service's own message about a task, as the sandbox writes it
  // (helper/sandbox/service_messages.hpp): its words are the catalog's.
  await act(page, { type: 'open_room', room_id: ROOM });
  await waitForState(page, (s) => s.room && s.room.room_id === ROOM && !s.room.loading && s.room.members.length > 0,
    'the room open');
  // The members by their role as the service's client says it (Alice admin, Carol read only: docs/sandbox.md),
  // in the page's text too (each member's TO button is named with whom and their role: the accessibility
  // tree, and the browser's find); the page API keeps the service's word.
  await act(page, { type: 'show_details', tab: 'members' });
  await treeIncludes(page, '(管理者)', 'an admin\'s role');
  await treeIncludes(page, '(閲覧のみ)', 'a read-only member\'s role');
  assert.ok(await page.evaluate(() => { window.getSelection().removeAllRanges(); return window.find('閲覧のみ'); }),
    'find finds the role');
  const members = (await waitForState(page, (s) => s.room.members.length > 0, 'the members')).room.members;
  assert.deepEqual(members.map((m) => m.role).sort(), ['admin', 'member', 'readonly']);
  await act(page, { type: 'show_details', tab: 'none' });
  const task = `リリースノートを確認する ${Date.now()}`;
  await act(page, { type: 'post_task', room_id: ROOM, body: task, to_ids: [demoUsers.alice.accountId] });
  state = await waitForState(page, (s) => s.room.messages.some((m) => m.system && m.text.includes(task)),
    'the service\'s message about the task', 60000);
  const told = state.room.messages.find((m) => m.system && m.text.includes(task));
  assert.match(told.text, new RegExp(`^タスクを追加しました\\n.+さんのタスク: ${task}$`), told.text);
  await treeIncludes(page, 'タスクを追加しました\n', 'the task\'s message');

  // The delete dialog, in words.
  const body = `お昼は 12 時からです ${Date.now()}`;
  await act(page, { type: 'post_message', room_id: ROOM, body });
  const delivered = (m) => m.body === body && !m.pending && m.message_id;
  state = await waitForState(page, (s) => s.room.messages.some(delivered), 'the message delivered', 60000);
  const mine = state.room.messages.find(delivered);
  await act(page, { type: 'delete_message', room_id: ROOM, message_id: mine.message_id });
  const asked = await waitForState(page, (s) => s.dialog !== null, 'the question');
  assert.equal(asked.dialog.title, 'このメッセージを削除しますか？');
  assert.equal(asked.dialog.yes, '削除');
  await dialogButton(page, '削除').waitFor({ timeout: 30000 });
  await dialogButton(page, 'キャンセル').waitFor({ timeout: 30000 });
  assert.equal(asked.dialog.detail, 'この操作は取り消せません。');
  // The dialog itself, not only its buttons: role dialog, modal, named by its title.
  let ax = await axDialog(page, 'このメッセージを削除しますか？');
  assert.ok(ax.modal, 'the dialog is modal');
  assert.deepEqual(ax.buttons, ['削除', 'キャンセル']);
  for (const [width, height] of SIZES) {
    await page.setViewportSize({ width, height });
    await dialogButton(page, '削除').waitFor({ timeout: 30000 });
    await shot(page, `ja-dialog-${width}x${height}`);
  }
  await page.setViewportSize({ width: 1366, height: 800 });
  // In English, the same dialog is named by its English title.
  await act(page, { type: 'set_language', lang: 'en' });
  await waitForState(page, (s) => s.lang === 'en' && s.dialog && s.dialog.title === 'Delete this message?', 'English');
  ax = await axDialog(page, 'Delete this message?');
  assert.deepEqual(ax.buttons, ['Delete', 'Cancel']);
  await act(page, { type: 'set_language', lang: 'ja' });
  await waitForState(page, (s) => s.lang === 'ja' && s.dialog, 'back to Japanese');
  await clickWidget(page, 'dialog_yes');
  await waitForState(page, (s) => s.dialog === null && !s.room.messages.some((m) => m.message_id === mine.message_id),
    'deleted');

  // A notification: Bob replies to Alice in another room.
  const other = state.rooms.find((r) => r.room_id !== ROOM && r.name === 'Random');
  const before = state.rooms.reduce((n, r) => n + r.mention_num, 0);
  const posted = await sandboxApi(stack, demoUsers.bob, 'POST', `/rooms/${other.room_id}/messages`,
    { body: `[rp aid=${demoUsers.alice.accountId} to=${other.room_id}-1]Alice Example\nお昼の準備ができました` });
  assert.equal(posted.status, 200, posted.text);
  state = await waitForState(page, (s) => s.rooms.reduce((n, r) => n + r.mention_num, 0) > before,
    'the reply counted at the next read of the room list', 90000);
  await page.waitForFunction(() => window.__notes.length > 0, null, { timeout: 30000 });
  const notes = await page.evaluate(() => window.__notes.map((n) => ({ title: n.title, body: n.body })));
  assert.equal(notes[0].title, 'Random');
  assert.equal(notes[0].body, 'Bob Example: 返信 Alice Example お昼の準備ができました');
  assert.equal(await page.evaluate(() => document.title), state.title);

  // The status line after signing out.
  await act(page, { type: 'sign_out', discard_posts: true });
  state = await waitForState(page, (s) => s.session === 'signed out' && s.notice, 'signed out');
  assert.equal(state.notice, 'ログアウトしました: トークンはすべて破棄されました。');
  for (const [width, height] of SIZES) {
    await page.setViewportSize({ width, height });
    await waitForMirror(page, /ログアウトしました: トークンはすべて破棄されました。/, 'the status line in the mirror');
    await shot(page, `ja-signed-out-notice-${width}x${height}`);
  }
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

// The accessible name of the element `selector` as the browser's
// accessibility tree has it (read over CDP: what a screen reader gets).
async function axName(page, selector) {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { root } = await cdp.send('DOM.getDocument');
    const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector });
    const { nodes } = await cdp.send('Accessibility.getPartialAXTree', { nodeId, fetchRelatives: false });
    return nodes[0] && nodes[0].name ? nodes[0].name.value : null;
  } finally {
    await cdp.detach();
  }
}
const WASM = /roomkey\.[0-9a-f]+\.wasm$/;

test('ja-JP: before the app runs, the loading words and the page\'s own names are Japanese; they follow the switch', async () => {
  const page = await ja.context.newPage();
  await page.setViewportSize({ width: 1366, height: 800 });
  // The app's wasm held back: the page says it is loading, in Japanese.
  let release;
  const held = new Promise((resolve) => { release = resolve; });
  await page.route(WASM, async (route) => { await held; await route.continue(); });
  await page.goto(stack.url);
  await page.waitForFunction(() => document.getElementById('mirror').textContent !== '', null, { timeout: 30000 });
  assert.equal(await page.evaluate(() => window.roomkey.ready()), false, 'the app has not started');
  assert.equal(await mirror(page), 'roomkey を読み込んでいます。');
  assert.equal(await page.locator('#overlay-text').textContent(), 'roomkey を読み込んでいます…');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'ja');
  assert.equal(await axName(page, '#canvas'), 'roomkey アプリ');
  assert.equal(await axName(page, '#scope-help'), 'スコープの説明');
  release();
  await page.waitForFunction(() => window.roomkey.ready(), null, { timeout: 60000 });
  await waitForMirror(page, /^roomkey の準備ができました。/, 'ready, in Japanese');
  assert.equal(await axName(page, '#canvas'), 'roomkey アプリ');
  // The switch: the names follow the app's language.
  await act(page, { type: 'set_language', lang: 'en' });
  await waitForState(page, (s) => s.lang === 'en', 'English');
  await page.waitForFunction(() => document.getElementById('canvas').getAttribute('aria-label') === 'roomkey app',
    null, { timeout: 30000 });
  assert.equal(await axName(page, '#canvas'), 'roomkey app');
  assert.equal(await axName(page, '#scope-help'), 'Scope descriptions');
  await act(page, { type: 'set_language', lang: 'ja' });  // leaves this browser as it was
  await waitForState(page, (s) => s.lang === 'ja', 'back to Japanese');
  await page.unroute(WASM);
  // A start that fails says so in Japanese too.
  await page.route(WASM, (route) => route.fulfill({ status: 404, body: 'gone' }));
  await page.goto(stack.url);
  await page.waitForFunction(() => window.roomkey.error() !== null, null, { timeout: 30000 });
  assert.match(await mirror(page), /^roomkey を起動できませんでした: roomkey\.wasm を読み込めないか/);
  assert.match(await page.locator('#overlay-text').textContent(), /^roomkey\.wasm を読み込めないか/);
  await page.close();
});

test('the page chooses the language before the app runs: the first of navigator.languages it has, ?lang= over it', async () => {
  const page = await en.context.newPage();
  await page.addInitScript(() => {
    Object.defineProperty(Navigator.prototype, 'languages', { get: () => ['fr-FR', 'ja-JP', 'en'] });
  });
  await openApp(page, stack.url);
  await waitForState(page, (s) => s.lang === 'ja', 'ja-JP, the first of the browser\'s languages the app has');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'ja');
  assert.equal(await axName(page, '#canvas'), 'roomkey アプリ');
  // ?lang= over the browser's languages (and kept: this browser is English, as before).
  await openApp(page, new URL('?lang=en', stack.url).href);
  await waitForState(page, (s) => s.lang === 'en', 'English by name');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
  assert.equal(await axName(page, '#canvas'), 'roomkey app');
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
