// app_a11y_resize.e2e.mjs: the accessibility tree follows a resize within
// a frame. Each of its controls lies over the control drawn in the canvas
// (shell/a11y.js), where touch exploration, a screen magnifier and a
// screen reader's "click" find it; after the window is resized, the first
// frame drawn at the new size puts every node at its new place, so none is
// left where the control used to be (a header button once stayed at x 1138
// in a window 911 px wide for seconds).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openRoomPage, widgetRect, withStackAndBrowser } from './support.mjs';

const ROOM = '2100';  // "Roomkey project" in the sandbox's demo data (docs/sandbox.md)
let stack; let browser;
withStackAndBrowser((s, b) => { stack = s; browser = b; });

// The first frame drawn at `width` x `height` (widget().frame beyond
// `after`), read in the same task as the accessibility tree: where the
// canvas drew the header's `widget` control and where the tree's button
// named `name` is. A short bound: one frame is all it may take.
async function firstFrameAt(page, width, height, after, widget, name) {
  const handle = await page.waitForFunction(([w, h, f, n, label]) => {
    const drawn = window.roomkey.widget(n);
    if (innerWidth !== w || innerHeight !== h || !drawn || !(drawn.frame > f)) return null;
    const button = [...document.querySelectorAll('#a11y button')].find((b) => b.textContent === label);
    const r = button && button.getBoundingClientRect();
    return { drawn, node: r ? { x: r.x, y: r.y, width: r.width, height: r.height } : null, frame: drawn.frame };
  }, [width, height, after, widget, name], { timeout: 2000, polling: 'raf' });
  return handle.jsonValue();
}

test('after a resize the first frame places the accessibility tree\'s header buttons over the drawn ones', async () => {
  const { page } = await openRoomPage(browser.context, stack.url, ROOM, { viewport: { width: 1366, height: 800 } });
  const start = await widgetRect(page, 'sign_out');
  let frame = start.frame;
  // Narrower, then wider again, then a phone-like height: each first frame.
  for (const [width, height] of [[1100, 800], [1000, 700], [1366, 800], [1180, 640]]) {
    await page.setViewportSize({ width, height });
    const at = await firstFrameAt(page, width, height, frame, 'sign_out', 'Sign out');
    frame = at.frame;
    assert.ok(at.node, `"Sign out" is in the accessibility tree at ${width}x${height}`);
    const { drawn, node } = at;
    assert.ok(node.x >= 0 && node.x + node.width <= width && node.y >= 0 && node.y + node.height <= height,
      `"Sign out" lies inside the ${width}x${height} window: ${JSON.stringify(node)}`);
    // The widget's rectangle and the node's are both in CSS px, rounded.
    for (const k of ['x', 'y', 'width', 'height']) {
      assert.ok(Math.abs(node[k] - drawn[k]) <= 2,
        `"Sign out" in the tree lies at the drawn button at ${width}x${height} (${k}): ` +
        `${JSON.stringify(node)} vs ${JSON.stringify(drawn)}`);
    }
  }
  await page.close();
});
