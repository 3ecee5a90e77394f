// Firefox's window given the focus on a bare X server (xvfb-run).
//
// No window manager runs under xvfb-run, so nothing ever focuses Firefox's
// window: document.hasFocus() stays false and Enter on a focused button
// makes no click. WebDriver BiDi cannot help: its input actions are
// synthesized inside Firefox and move no focus, and neither the pref
// focusmanager.testmode nor browsingContext.activate changes hasFocus().
// XSetInputFocus alone (xdotool windowfocus) does not either: Firefox's own
// focus stays off the page. One real X click in the page does it (as a
// user's first click): xdotool sets the X input focus on the window, clicks
// the page's top-left corner while it is still about:blank (nothing there
// to hit), and moves the pointer off the window so it hovers nothing. The
// focus stays with the page across its navigations.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

async function xdotool(args) {
  try {
    return (await run('xdotool', args, { encoding: 'utf8', timeout: 20000 })).stdout.trim();
  } catch (error) {
    if (error.code === 'ENOENT') throw new Error('xdotool is missing: ./scripts/setup.sh installs it (package xdotool)');
    throw new Error(`xdotool ${args.join(' ')} failed: ${error.stderr || error.message}`);
  }
}

// `page`: puppeteer's page on about:blank; `pid`: Firefox's main process.
// Answers once document.hasFocus() is true, or throws saying it is not.
export async function focusFirefoxWindow(page, pid) {
  const where = await page.evaluate(() => ({ href: location.href, x: window.mozInnerScreenX, y: window.mozInnerScreenY,
    right: window.screenX + window.outerWidth, bottom: window.screenY + window.outerHeight }));
  if (where.href !== 'about:blank') throw new Error(`focusFirefoxWindow clicks an empty page, not ${where.href}`);
  const window = (await xdotool(['search', '--sync', '--onlyvisible', '--pid', String(pid)])).split('\n')[0];
  await xdotool(['windowfocus', '--sync', window]);
  // Off the window: below and right of it (the tests' X screen is larger
  // than the window, xvfb-run -s "-screen 0 1600x1000x24").
  await xdotool(['mousemove', '--sync', String(Math.round(where.x) + 4), String(Math.round(where.y) + 4), 'click', '1',
    'mousemove', String(Math.round(where.right) + 8), String(Math.round(where.bottom) + 8)]);
  // The click's focus change is the page's state, asked until it shows.
  const deadline = Date.now() + 10000;
  while (!(await page.evaluate(() => document.hasFocus()))) {
    if (Date.now() > deadline) throw new Error('Firefox: document.hasFocus() still false after an X click in the page');
    await new Promise((r) => setTimeout(r, 50));
  }
}
