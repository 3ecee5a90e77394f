// app_reply_keys.e2e.mjs: the keys typed right behind a press of Reply or
// Edit, before the field they go to has the focus, all land there, in their
// order: characters, Backspace and the arrows alike. The page's frames are
// held from the press to the last key (as a busy or slow device holds them):
// every key then reaches the app within the press's own frame, which is
// where Backspace and the arrows were lost (web/src/input_queue.cpp,
// keys_for_field). Nothing here waits for the field's focus before typing.
// And typed text is never overtaken nor lost: a click through the
// accessibility layer right behind it (a Space typed in a field made the
// layer take the next click for the browser's own click after a key, and
// drop it: shell/a11y.js), and text whose field closed first is said in the
// header (web/src/input_queue.cpp, lost_text_notice).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { act, waitForState, demoUsers, withStackAndBrowser, postDelivered, sandboxHasMessage, openRoomPage } from './support.mjs';

const ROOM = '2100';
let stack; let browser;
withStackAndBrowser((s, b) => { stack = s; browser = b; });

// Alice signed in with her API token, room ROOM open in the workspace.
const openRoom = () => openRoomPage(browser.context, stack.url, ROOM,
  { viewport: { width: 1000, height: 700 }, until: (s) => s.view === 'workspace' });

const twoFrames = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

// Points the mouse at the button `name` of the message that reads `body`
// (the accessibility tree lays it over its drawing), once it holds still,
// and lets a frame see the pointer there: where a user's press starts.
async function pointAt(page, body, name) {
  const button = page.getByRole('article').filter({ hasText: body }).getByRole('button', { name, exact: true });
  await button.waitFor({ state: 'attached', timeout: 30000 });
  let last = null;
  for (let same = 0; same < 3;) {
    await twoFrames(page);
    const box = await button.boundingBox();
    same = box && last && box.x === last.x && box.y === last.y ? same + 1 : 0;
    last = box;
  }
  await page.mouse.move(last.x + last.width / 2, last.y + last.height / 2);
  await twoFrames(page);
}

// Clicks where the mouse is and types `keys` (Playwright key names, or
// text to type) while the page draws no frame: the press and every key
// reach the app before the frame that takes the press.
async function pressAndTypeAtOnce(page, keys) {
  await page.evaluate(() => new Promise((resolve) => {
    const real = window.requestAnimationFrame.bind(window);
    const held = [];
    window.requestAnimationFrame = (f) => held.push(f);  // an id, never 0
    window.__releaseFrames = () => { window.requestAnimationFrame = real; for (const f of held) real(f); };
    real(() => real(resolve));  // a frame asked for before has run
  }));
  try {
    await page.mouse.down();
    await page.mouse.up();
    for (const k of keys) {
      if (k.length > 1 && /^[A-Z]/.test(k)) await page.keyboard.press(k); else await page.keyboard.type(k);
    }
  } finally {
    await page.evaluate(() => window.__releaseFrames());
  }
}

test('keys typed within the press of Reply, Backspace and arrows among them, land in the composer in order', async () => {
  const { page } = await openRoom();
  const body = `Who takes the release notes? ${Date.now()}`;
  const message = await postDelivered(page, ROOM, body);
  await pointAt(page, body, 'Reply');
  // "on itx", Backspace, two steps left, "-": "on -it".
  await pressAndTypeAtOnce(page, ['on itx', 'Backspace', 'ArrowLeft', 'ArrowLeft', '-']);
  const replied = await waitForState(page, (s) => /\non -it$/.test(s.composer.text), 'every key in the composer');
  assert.match(replied.composer.text, new RegExp(`^\\[rp aid=${demoUsers.alice.accountId} to=${ROOM}-` +
    `${message.message_id}\\][^\\n]*\\non -it$`), `the reply's head, then the keys: ${JSON.stringify(replied.composer.text)}`);
  await page.close();
});

test('keys typed within the press of Edit, Backspace among them, and Home, land in the edited message in order', async () => {
  const { page } = await openRoom();
  const body = `The review moves to Monday ${Date.now()}`;
  await postDelivered(page, ROOM, body);
  await pointAt(page, body, 'Edit');
  // " at nine!", Backspace, Home, ">": ">… at nine".
  await pressAndTypeAtOnce(page, [' at nine!', 'Backspace', 'Home', '>']);
  const save = page.getByRole('button', { name: 'Save', exact: true });
  await save.waitFor({ state: 'attached', timeout: 30000 });
  await save.dispatchEvent('click');
  await sandboxHasMessage(stack, demoUsers.alice, ROOM, `>${body} at nine`);
  await page.close();
});

// Holds the page's frames while `during` runs: everything it does reaches
// the app before the next frame (as on a busy or slow device).
async function withFramesHeld(page, during) {
  await page.evaluate(() => new Promise((resolve) => {
    const real = window.requestAnimationFrame.bind(window);
    const held = [];
    window.requestAnimationFrame = (f) => held.push(f);
    window.__releaseFrames = () => { window.requestAnimationFrame = real; for (const f of held) real(f); };
    real(() => real(resolve));
  }));
  try {
    await during();
  } finally {
    await page.evaluate(() => window.__releaseFrames());
  }
}

// Edit pressed on the message `body` with the mouse: once the edit field has
// the browser's focus, the edit's button `name` (Save or Cancel).
async function startEditing(page, body, name) {
  await pointAt(page, body, 'Edit');
  await page.mouse.down();
  await page.mouse.up();
  const button = page.getByRole('button', { name, exact: true });
  await button.waitFor({ state: 'attached', timeout: 30000 });
  await page.waitForFunction(() => document.activeElement && document.activeElement.closest('#a11y') !== null &&
    /^(INPUT|TEXTAREA)$/.test(document.activeElement.tagName), null, { timeout: 30000 });
  return button;
}

test('text typed into the edited message, then Save clicked through the accessibility layer at once: the save has the text', async () => {
  const { page } = await openRoom();
  const body = `The standup moves to Thursday ${Date.now()}`;
  await postDelivered(page, ROOM, body);
  const save = await startEditing(page, body, 'Save');
  await withFramesHeld(page, async () => {
    await page.keyboard.type(' at ten');
    await save.dispatchEvent('click');
  });
  await sandboxHasMessage(stack, demoUsers.alice, ROOM, `${body} at ten`);
  await page.close();
});

test('text typed for a field that closed before it arrived is not lost silently: the header says what to type again', async () => {
  const { page } = await openRoom();
  const body = `The retro is cancelled ${Date.now()}`;
  await postDelivered(page, ROOM, body);
  const cancel = await startEditing(page, body, 'Cancel');
  const before = await page.evaluate(() => window.roomkey.state());
  // Cancel, then three characters for the edit field it closes, within one task (no frame between):
  // as assistive technology or a text expander types them into the field's input.
  await page.evaluate(() => {
    const field = document.activeElement;
    const button = [...document.querySelectorAll('#a11y button')].find((b) => b.textContent === 'Cancel');
    button.click();
    field.dispatchEvent(new InputEvent('beforeinput', { inputType: 'insertText', data: 'xyz', cancelable: true, bubbles: true }));
  });
  // The header's warning (web/src/input_queue.cpp, lost_text_notice), where a user looks.
  await page.waitForFunction(() => window.roomkey.widget('text_lost') !== null, null, { timeout: 30000 });
  const after = await page.evaluate(() => window.roomkey.state());
  assert.equal(after.composer.text, before.composer.text, 'nothing went to the composer instead');
  assert.ok(after.room.messages.some((m) => m.body === body), 'the message as it was');
  await page.close();
});
