// app_ui.e2e.mjs: the real ImGui controls driven with the mouse and keyboard:
// click Sign in, pass the sandbox's forms, type into the message field and
// paste with Ctrl+V (20 rounds: the paste must be deterministic), click
// Queue message, sign out. The page API only says
// where the controls were drawn (window.roomkey.widget).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp, act, waitForState, passConsent, demoUsers, withStackAndBrowser, clickWidget } from './support.mjs';

let stack; let browser;
withStackAndBrowser((s, b) => { stack = s; browser = b; });

test('sign in, type, paste and post with the real controls', async () => {
  await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.origin });
  const page = await browser.context.newPage();
  const posted = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && /\/api\/rooms\/\d+\/messages$/.test(new URL(r.url()).pathname)) posted.push(r.postData());
  });
  await openApp(page, stack.url);
  await clickWidget(page, 'sign_in');
  await passConsent(page, stack, demoUsers.bob, 'allow');
  const state = await waitForState(page, (s) => s.session === 'signed in' && s.account && !s.loading && s.selected_room,
    'the dashboard');
  assert.equal(state.account.account_id, demoUsers.bob.accountId);
  // The posting panel's controls are in the developer view.
  await act(page, { type: 'show_view', view: 'developer' });
  await waitForState(page, (s) => s.view === 'developer', 'the developer view');

  // The paste must land every time, never the previous clipboard
  // or nothing: 20 rounds in a row, each with a different clipboard text.
  const ROUNDS = 20;
  for (let i = 1; i <= ROUNDS; i++) {
    await clickWidget(page, 'message');
    // As a user waits for the caret: the field is being edited, and its
    // accessible input (shell/a11y.js) has the focus, before keys are sent.
    // Keys sent while the focus moves to it can be cleared by the blur.
    await page.waitForFunction(() => {
      const el = document.activeElement;
      return el && el.tagName === 'INPUT' && el.closest('#a11y') !== null;
    }, null, { timeout: 30000 });
    await page.keyboard.press('Control+A');  // the field keeps the last text: start empty
    await page.keyboard.press('Backspace');
    await page.keyboard.type(`typed ${i}, `);
    await page.evaluate((text) => navigator.clipboard.writeText(text), `and pasted ${i}`);
    await page.keyboard.press('Control+V');
    await clickWidget(page, 'queue_message');
    const deadline = Date.now() + 60000;
    while (posted.length < i && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await waitForState(page, (s) => s.queue.waiting + s.queue.sending === 0 && s.queue.delivered >= 1,
      `the delivered message ${i}`, 60000);
    assert.equal(posted.length, i, `round ${i}: one post per click`);
    assert.equal(new URLSearchParams(posted[i - 1]).get('body'), `typed ${i}, and pasted ${i}`,
      `round ${i}: keyboard input and the pasted text reached the API (spec 4.6)`);
  }

  await clickWidget(page, 'sign_out');
  await waitForState(page, (s) => s.session === 'signed out' && !s.account, 'sign-out');
  await page.close();
});
