// trust.e2e.mjs: a first run as a new user makes it: a fresh,
// empty HOME in which no browser has ever started, `roomkey-helper trust`,
// then a Chromium with no certificate overrides loads the app. The same
// Chromium in a HOME that was not trusted refuses the certificate, which is
// what makes the first half mean something. Firefox ESR 153's profile
// folder (~/.config/mozilla/firefox) is covered as well.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { binDir, freshStateDir, launchBrowser, startStack, stopStack, openApp } from './support.mjs';

const homes = [];
let stack;

function freshHome() {
  const home = mkdtempSync(join(tmpdir(), 'roomkey-home-'));
  homes.push(home);
  return home;
}

after(async () => {
  await stopStack(stack);
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});

test('after `roomkey-helper trust` in a fresh HOME, Chromium loads the app with no certificate override', async () => {
  const stateDir = freshStateDir();
  const home = freshHome();
  // A Firefox ESR 153 profile that has started once: its NSS
  // database under ~/.config/mozilla/firefox, where ESR 153 keeps profiles.
  // That Firefox loads the app is for the cross-engine harness; here, that
  // trust wrote the CA where that Firefox reads it.
  const esr153 = join(home, '.config/mozilla/firefox/k3m9x2aa.default-esr');
  mkdirSync(esr153, { recursive: true });
  const made = spawnSync('certutil', ['-d', `sql:${esr153}`, '-N', '--empty-password'], { encoding: 'utf8' });
  assert.equal(made.status, 0, `certutil -N failed:\n${made.stderr}`);
  const trust = spawnSync(join(binDir, 'roomkey-helper'), ['trust', '--state-dir', stateDir],
    { env: { ...process.env, HOME: home, XDG_CONFIG_HOME: '' }, encoding: 'utf8', timeout: 60000 });
  assert.equal(trust.status, 0, `trust failed:\n${trust.stderr}`);
  assert.match(trust.stderr, /browsers covered: Chromium/, 'trust says which browsers it covered');
  assert.match(trust.stderr, /browsers covered: .*Firefox ESR 153\+ profile k3m9x2aa\.default-esr/,
    'trust names the Firefox ESR 153 profile it covered');
  const listing = spawnSync('certutil', ['-d', `sql:${esr153}`, '-L'], { encoding: 'utf8' });
  assert.match(listing.stdout, /roomkey local CA/, 'the CA is in the ESR 153 profile');

  stack = await startStack({ stateDir });

  const untrusted = await launchBrowser({ home: freshHome(), trustedOnly: true });
  try {
    const page = await untrusted.context.newPage();
    await assert.rejects(page.goto(stack.url), /ERR_CERT_AUTHORITY_INVALID/,
      'without trust the local CA is unknown to Chromium');
  } finally {
    await untrusted.close();
  }

  const trusted = await launchBrowser({ home, trustedOnly: true });
  try {
    const page = await trusted.context.newPage();
    const response = await page.goto(stack.url);
    assert.equal(response.status(), 200);
    await openApp(page, stack.url);
    assert.equal(await page.evaluate(() => window.roomkey.state().session), 'signed out');
  } finally {
    await trusted.close();
  }
});
