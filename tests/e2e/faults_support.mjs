// faults_support.mjs: what the fault files (app_faults, app_outages) share:
// faults injected through the sandbox's test controls, the sandbox and the
// helper restarted on their own ports, the room's messages as the sandbox has
// them, and the real controls driven to show the app still draws and posts.
// The two files were one (58 s alone); each runs on its own stack, so they
// run at the same time.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openApp, act, appState, waitForState, demoUsers, startProgram, binDir, clickWidget,
  sandboxRequest, restartHelper as restartStackHelper } from './support.mjs';

export const ROOM = '2100';  // "Roomkey project" (docs/sandbox.md demo data); Alice and Bob are members

// The helpers for the stack `stackOf()` returns (a file's stack is started in
// its before() hook, after the file has made its helpers).
export function faultKit(stackOf) {
  async function injectFault(fault) {
    const answer = await sandboxRequest(stackOf(), 'POST', '/_sandbox/faults', { body: JSON.stringify(fault),
      headers: { 'X-Roomkey-Sandbox-Control': '1', 'Content-Type': 'application/json' } });
    assert.equal(answer.status, 200, `fault ${JSON.stringify(fault)} refused: ${answer.text}`);
  }

  async function clearFaults() {
    await sandboxRequest(stackOf(), 'DELETE', '/_sandbox/faults', { headers: { 'X-Roomkey-Sandbox-Control': '1' } });
  }

  // The room's messages as the sandbox has them (straight to the sandbox, not
  // through the app), to count how often each body arrived.
  async function roomBodies() {
    const answer = await sandboxRequest(stackOf(), 'GET', `/v2/rooms/${ROOM}/messages?force=1`,
      { headers: { 'x-servicetoken': demoUsers.alice.apiToken } });
    if (answer.status === 204) return [];
    assert.equal(answer.status, 200, answer.text);
    return JSON.parse(answer.text).map((m) => m.body);
  }

  // The sandbox again on the same port (its state is in memory: the demo API
  // tokens are the same after a restart, OAuth grants are not).
  async function restartSandbox() {
    const stack = stackOf();
    const port = new URL(stack.sandbox.origin).port;
    const webPort = new URL(stack.origin).port;
    const started = await startProgram(join(binDir, 'roomkey-sandbox'),
      ['--port', port, '--state-dir', stack.stateDir, '--web-port', webPort, '--enable-test-controls', '--quiet',
        '--ephemeral'],
      /^roomkey-sandbox: ready base_url=(\S+)/);
    stack.sandbox = { ...stack.sandbox, ...started };
  }

  async function restartHelper() {
    await restartStackHelper(stackOf());
  }

  async function signInWithApiToken(page) {
    await openApp(page, stackOf().url);
    await act(page, { type: 'use_api_token', token: demoUsers.alice.apiToken });
    return waitForState(page, (s) => s.account && !s.loading && s.selected_room, 'the dashboard');
  }

  // The app still draws frames and takes input: type into the real message
  // field, press the real Queue button, and see the post delivered.
  // Types `body` into the posting panel's message field (the developer
  // view), ready to be sent; returns how often the room held it before.
  async function typeWithTheControls(page, body) {
    await act(page, { type: 'select_room', room_id: ROOM });  // the controls post to the selected room
    await act(page, { type: 'show_view', view: 'developer' });  // the posting panel is in the developer view
    await waitForState(page, (s) => s.selected_room === ROOM, 'the room selected');
    const before = countOf(await roomBodies(), body);
    await clickWidget(page, 'message');
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');
    await page.keyboard.type(body);
    return before;
  }

  // Sends what typeWithTheControls typed and waits until the room holds it.
  async function sendWithTheControls(page, body, before) {
    await clickWidget(page, 'queue_message');
    await waitForState(page, (s) => s.queue.delivered > 0 && s.posts.every((p) => p.body !== body),
      `"${body}" delivered through the real controls`);
    const deadline = Date.now() + 10000;
    while (countOf(await roomBodies(), body) === before) {
      assert.ok(Date.now() < deadline, `"${body}" typed and queued with the real controls reached the room`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  async function postWithTheControls(page, body) {
    await sendWithTheControls(page, body, await typeWithTheControls(page, body));
  }

  // Waits for every listed post to be delivered; a post the app holds as
  // "unknown" is checked against the room first (it must not be there), and
  // only then retried, as a user would after reading why.
  async function deliverAll(page, bodies, what) {
    const deadline = Date.now() + 90000;
    for (;;) {
      const s = await appState(page);
      const open = s.posts.filter((p) => bodies.includes(p.body));
      if (open.length === 0) break;
      for (const p of open.filter((x) => x.stage === 'unknown')) {
        assert.ok(p.note, 'an unknown post says why the user must decide');
        assert.equal(countOf(await roomBodies(), p.body), 0, `"${p.body}" is held as unknown only if not delivered`);
        await act(page, { type: 'retry_post', id: p.id });
      }
      assert.ok(Date.now() < deadline, `timed out delivering ${what}: ${JSON.stringify(open)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  return { injectFault, clearFaults, roomBodies, restartSandbox, restartHelper, signInWithApiToken,
    typeWithTheControls, sendWithTheControls,
    postWithTheControls, deliverAll };
}

export function countOf(list, body) { return list.filter((b) => b === body).length; }

// The aria-live mirror's text, as assistive technology reads it.
export const mirror = (page) => page.evaluate(() => window.roomkey.mirrorText());
