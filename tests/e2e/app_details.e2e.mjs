// app_details.e2e.mjs: the room's details (issue 35, "a phone is a phone";
// "Details reachable at every width"), in Chromium:
// - every control of the Tasks, Members and Files tabs is whole (its label
//   not cut) and inside the details, with a mouse at 1366x800 and 1000x700
//   and with a finger (a touch screen: controls a finger tall) at 390x844
//   and 360x740. The task form's member chooser read "choose a memb ▼" on a
//   phone: its arrow is a finger wide, and 10 em left its words too little;
// - at 1000x700 and 830x700 (the narrowest window with panes side by side: an
//   800-px window's workspace is 776 px, one pane at a time with Back, as on a
//   phone) the room list gives way to the details (the
//   conversation keeps its width): "< Rooms" in the conversation is one
//   step to the room list, and a room clicked there opens; nothing
//   overlaps at any step;
// - the selected tab keeps its colour under the mouse (the theme's hover
//   grey made it look unselected).
// Screenshots: details_<tab>_<w>x<h>.png, details_rooms_<w>x<h>.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { withStackDeskAndPhone, openRoomPage, widgetRect, clickWidget, tapWidget, waitForState,
  decodePng, artifacts } from './support.mjs';
import { assertWorkspaceRegions } from './workspace_regions.mjs';

const ROOM = '2100';
let stack; let desk; let phone;
withStackDeskAndPhone((s, d, p) => { stack = s; desk = d; phone = p; });

const drawn = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
const widget = (page, name) => page.evaluate((n) => window.roomkey.widget(n), name);

// `text`'s width in the app's font (shell/text_layer.js's), at its size.
function textWidth(page, text) {
  return page.evaluate((t) => {
    const ctx = document.createElement('canvas').getContext('2d');
    ctx.font = window.roomkey._font.font;
    return ctx.measureText(t).width;
  }, text);
}

// The control `name` lies inside the details and is at least `needs` px wide.
async function assertWhole(page, name, details, needs, where) {
  const r = await widgetRect(page, name, { timeoutMs: 10000 });
  assert.ok(r.x >= details.x - 1 && r.x + r.width <= details.x + details.width + 1,
    `${where}: ${name} ${JSON.stringify(r)} inside the details ${JSON.stringify(details)}`);
  assert.ok(r.width >= needs - 1, `${where}: ${name} ${JSON.stringify(r)} holds its ${needs.toFixed(1)} px`);
  return r;
}

for (const [width, height, finger] of [[1366, 800, false], [1000, 700, false], [390, 844, false], [390, 844, true], [360, 740, true]]) {
  test(`every control of the Tasks, Members and Files tabs is whole at ${width}x${height}${finger ? ' (touch)' : ''}`,
    async () => {
      const press = finger ? tapWidget : clickWidget;
      const { page, state } = await openRoomPage((finger ? phone : desk).context, stack.url, ROOM,
        { viewport: { width, height }, until: (s) => s.room.members.length > 0 && s.room.tasks.length > 0 });
      await widgetRect(page, 'conversation');
      await press(page, 'details_toggle');
      const details = await widgetRect(page, 'details');
      const where = `${width}x${height}`;
      // Tasks (open first): the new task's text, its member chooser, Add.
      await assertWhole(page, 'task_body', details, 0, where);
      const chooser = await assertWhole(page, 'assignee', details, 0, where);
      // The chooser's words beside its arrow (a square as tall as the control) and its padding.
      const words = await textWidth(page, 'choose a member');
      assert.ok(chooser.width - chooser.height - 8 >= words,
        `${where}: "choose a member" (${words.toFixed(1)} px) whole beside the arrow: ${JSON.stringify(chooser)}`);
      await assertWhole(page, 'add_task', details, await textWidth(page, 'Add task'), where);
      await page.screenshot({ path: join(artifacts, `details_tasks_${width}x${height}.png`) });
      // Members: To, the name and the role in words, on the pane.
      await press(page, 'members_tab');
      await assertWhole(page, 'member_to', details, await textWidth(page, 'To'), where);
      const first = state.room.members[0];
      await assertWhole(page, 'member_name', details, await textWidth(page, first.name), where);
      const role = { admin: 'Admin', member: 'Member', readonly: 'Read only' }[first.role];
      assert.ok(role, `the first member's role ${first.role}`);
      await assertWhole(page, 'member_role', details, await textWidth(page, role), where);
      await page.screenshot({ path: join(artifacts, `details_members_${width}x${height}.png`) });
      // Files: the message for an upload and the upload control.
      await press(page, 'files_tab');
      await assertWhole(page, 'upload_message', details, 0, where);
      await assertWhole(page, 'upload_file', details, await textWidth(page, 'Upload a file...'), where);
      await page.screenshot({ path: join(artifacts, `details_files_${width}x${height}.png`) });
      await page.close();
    });
}

// The panes drawn now, for assertWorkspaceRegions.
async function regions(page) {
  const out = { conversation: await widgetRect(page, 'conversation'), composer: await widgetRect(page, 'composer') };
  for (const name of ['room_list', 'details']) {
    const r = await widget(page, name);
    if (r) out[name] = r;
  }
  return out;
}

for (const [width, height] of [[1000, 700], [830, 700]]) {
  test(`at ${width}x${height} with the details open, the rooms are one step away and a room opens from there`, async () => {
    const { page, state } = await openRoomPage(desk.context, stack.url, ROOM, { viewport: { width, height } });
    await widgetRect(page, 'room_list');
    await clickWidget(page, 'details_toggle');
    await widgetRect(page, 'details');
    let now = await regions(page);
    assert.ok(!now.room_list, 'the room list gave way to the details');
    assert.ok(now.conversation.width >= 480, `the conversation stays readable: ${JSON.stringify(now.conversation)}`);
    assertWorkspaceRegions(now, width, height);
    // One control to the rooms, in the conversation's own line.
    const back = await widgetRect(page, 'back', { timeoutMs: 10000 });
    assert.ok(back.x >= now.conversation.x && back.x + back.width <= now.conversation.x + now.conversation.width,
      `"< Rooms" ${JSON.stringify(back)} in the conversation ${JSON.stringify(now.conversation)}`);
    await page.screenshot({ path: join(artifacts, `details_open_${width}x${height}.png`) });
    await clickWidget(page, 'back');
    await widgetRect(page, 'room_list');
    now = await regions(page);
    assertWorkspaceRegions(now, width, height);
    assert.equal(await widget(page, 'back'), null, 'the list is shown: no control to it');
    await page.screenshot({ path: join(artifacts, `details_rooms_${width}x${height}.png`) });
    // Another room, clicked in the list as a user would.
    const other = state.rooms.find((r) => r.room_id !== ROOM);
    const item = page.getByRole('list', { name: 'Rooms' }).getByRole('listitem').filter({ hasText: other.name });
    const box = await item.locator('button').first().boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await drawn(page);
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await waitForState(page, (s) => s.room && s.room.room_id === other.room_id, `room ${other.room_id} opened`);
    assertWorkspaceRegions(await regions(page), width, height);
    await page.close();
  });
}

// The colour at a point of the page (CSS px), as drawn.
async function colourAt(page, x, y) {
  const png = decodePng(await page.screenshot({ clip: { x: Math.round(x), y: Math.round(y), width: 1, height: 1 } }));
  return [...png.pixels.subarray(0, 3)];
}
const distance = (a, b) => Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]) + Math.abs(a[2] - b[2]);

test('the selected tab keeps its colour under the mouse', async () => {
  const { page } = await openRoomPage(desk.context, stack.url, ROOM,
    { viewport: { width: 1366, height: 800 }, until: (s) => s.room.tasks.length > 0 });
  await clickWidget(page, 'details_toggle');
  const details = await widgetRect(page, 'details');
  const conversation = await widgetRect(page, 'conversation');
  // The mouse away from the tabs: the selected tab (Tasks) and another.
  await page.mouse.move(conversation.x + conversation.width / 2, conversation.y + conversation.height / 2);
  await drawn(page);
  const tasks = await widgetRect(page, 'tasks_tab');
  const members = await widgetRect(page, 'members_tab');
  // Left of the label, inside the button's padding, at mid height (no rounded corner).
  const spot = (r) => [r.x + 2, r.y + r.height / 2];
  const selected = await colourAt(page, ...spot(tasks));
  const other = await colourAt(page, ...spot(members));
  assert.ok(distance(selected, other) > 60, `the selected tab stands out: ${selected} against ${other}`);
  await page.mouse.move(tasks.x + tasks.width / 2, tasks.y + tasks.height / 2);
  await drawn(page);
  await drawn(page);
  const hovered = await colourAt(page, ...spot(tasks));
  assert.ok(distance(hovered, selected) < 30,
    `under the mouse the selected tab keeps its colour: ${hovered}, not hovered ${selected}, another tab ${other}`);
  assert.ok(details.width > 0);
  await page.close();
});
