// workspace_regions.mjs: the workspace's layout rule for an open room, checked
// the same way by the Chromium e2e test at three sizes
// (app_workspace.e2e.mjs) and by every engine's scenario
// (tests/engines/scenarios.mjs): the regions drawn (window.roomkey.widget
// rects: conversation, composer, and room_list or details when shown) are
// on screen, the composer is beneath the conversation, the conversation is
// the largest, and no two overlap.
import assert from 'node:assert/strict';

export const area = (r) => r.width * r.height;

export function overlap(a, b) {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

export function assertWorkspaceRegions(regions, width, height) {
  const { conversation, composer } = regions;
  assert.ok(conversation && composer, `the conversation and the composer are drawn: ${JSON.stringify(regions)}`);
  for (const [name, r] of Object.entries(regions)) {
    assert.ok(r.x >= 0 && r.y >= 0 && r.x + r.width <= width + 1 && r.y + r.height <= height + 1,
      `${name} on screen (${width}x${height}): ${JSON.stringify(r)}`);
    if (name !== 'conversation') assert.ok(area(conversation) > area(r), `the conversation is larger than ${name}`);
  }
  assert.ok(composer.y >= conversation.y + conversation.height - 1, 'the composer is beneath the conversation');
  const names = Object.keys(regions);
  for (let i = 0; i < names.length; i++) {
    for (let j = i + 1; j < names.length; j++) {
      assert.ok(!overlap(regions[names[i]], regions[names[j]]),
        `${names[i]} ${JSON.stringify(regions[names[i]])} and ${names[j]} ${JSON.stringify(regions[names[j]])} do not overlap`);
    }
  }
}

// The header's session words (widget `session`) are whole at `width`: inside
// the window and under no control of the header's line (the layout rule of
// web/src/ui_header.cpp; a long language puts the controls on a line of their own).
export async function assertSessionWordsWhole(page, width, where) {
  const rect = (name) => page.evaluate((n) => window.roomkey.widget(n), name);
  const session = await rect('session');
  assert.ok(session && session.width > 0, `${where}: the session's words are drawn`);
  assert.ok(session.x >= 0 && session.x + session.width <= width + 1,
    `${where}: the session's words lie within ${width} px: ${JSON.stringify(session)}`);
  for (const name of ['developer', 'menu']) {
    const control = await rect(name);
    if (control) {
      assert.ok(!overlap(session, control),
        `${where}: ${name} ${JSON.stringify(control)} is drawn over the session's words ${JSON.stringify(session)}`);
    }
  }
}
