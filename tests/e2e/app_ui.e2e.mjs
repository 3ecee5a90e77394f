// app_ui.e2e.mjs: the real ImGui controls driven with the mouse and keyboard:
// click Sign in, pass the sandbox's forms, type into the message field and
// paste with Ctrl+V, click Queue message, sign out. The page API only says
// where the controls were drawn (window.roomkey.widget).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, startStack, stopStack, openApp, waitForState, passConsent, demoUsers } from './support.mjs';

let stack; let browser;

before(async () => {
  stack = await startStack();
  browser = await launchBrowser();
});

after(async () => {
  if (browser) await browser.close();
  await stopStack(stack);
});

async function click(page, name) {
  const handle = await page.waitForFunction((n) => window.roomkey.widget(n), name, { timeout: 30000 });
  const r = await handle.jsonValue();
  await page.mouse.click(r.x + r.width / 2, r.y + r.height / 2);
}

test('sign in, type, paste and post with the real controls', async () => {
  await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.origin });
  const page = await browser.context.newPage();
  const posted = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && /\/api\/rooms\/\d+\/messages$/.test(new URL(r.url()).pathname)) posted.push(r.postData());
  });
  await openApp(page, stack.url);
  await click(page, 'sign_in');
  await passConsent(page, stack, demoUsers.bob, 'allow');
  const state = await waitForState(page, (s) => s.session === 'signed in' && s.account && !s.loading && s.selected_room,
    'the dashboard');
  assert.equal(state.account.account_id, demoUsers.bob.accountId);

  await click(page, 'message');
  await page.keyboard.type('typed, ');
  await page.evaluate(() => navigator.clipboard.writeText('and pasted'));
  await page.keyboard.press('Control+V');
  await click(page, 'queue_message');
  await waitForState(page, (s) => s.queue.delivered === 1, 'the delivered message');
  assert.equal(posted.length, 1);
  assert.equal(new URLSearchParams(posted[0]).get('body'), 'typed, and pasted',
    'keyboard input and the pasted text reached the API (spec 4.6)');

  await click(page, 'sign_out');
  await waitForState(page, (s) => s.session === 'signed out' && !s.account, 'sign-out');
  await page.close();
});
