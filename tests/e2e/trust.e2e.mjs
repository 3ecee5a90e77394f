// trust.e2e.mjs: a first run as a new user makes it: a fresh,
// empty HOME in which no browser has ever started, `roomkey-helper trust`,
// then a Chromium with no certificate overrides loads the app. The same
// Chromium in a HOME that was not trusted refuses the certificate, which is
// what makes the first half mean something. Firefox ESR 153's profile
// folder (~/.config/mozilla/firefox) is covered as well.
// Then the other side of trusting it: the CA's key cannot vouch for the
// world. A certificate for example.com signed with ca-key.pem (minted with
// the openssl CLI, as whoever copied the key would) is refused by that same
// trusting Chromium, and by Firefox ESR reading the profile `trust` wrote;
// one for a loopback name, minted the same way, is taken by both.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { binDir, freshStateDir, launchBrowser, startStack, stopStack, openApp, front } from './support.mjs';

const homes = [];
let stack;
let trustedHome;
let trustedStateDir;
let firefoxProfile;

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
  trustedHome = home;
  trustedStateDir = stateDir;
  // A Firefox ESR 153 profile that has started once: its NSS
  // database under ~/.config/mozilla/firefox, where ESR 153 keeps profiles.
  // That Firefox loads the app is for the cross-engine harness; here, that
  // trust wrote the CA where that Firefox reads it.
  const esr153 = join(home, '.config/mozilla/firefox/k3m9x2aa.default-esr');
  firefoxProfile = esr153;
  mkdirSync(esr153, { recursive: true });
  const made = spawnSync('certutil', ['-d', `sql:${esr153}`, '-N', '--empty-password'], { encoding: 'utf8' });
  assert.equal(made.status, 0, `certutil -N failed:\n${made.stderr}`);
  const trust = spawnSync(join(binDir, 'roomkey-helper'), ['trust', '--state-dir', stateDir],
    { env: { ...process.env, HOME: home, XDG_CONFIG_HOME: '', ROOMKEY_SYSTEM_CA_DIR: 'none' }, encoding: 'utf8',
      timeout: 60000 });
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

// A server certificate for `san` (subjectAltName syntax) signed with the
// local CA's key by the openssl CLI; {key, cert} as PEM text.
function mintWithCaKey(stateDir, san) {
  const dir = mkdtempSync(join(tmpdir(), 'roomkey-mint-'));
  try {
    const run = (args) => {
      const r = spawnSync('openssl', args, { cwd: dir, encoding: 'utf8' });
      assert.equal(r.status, 0, `openssl ${args.join(' ')}:\n${r.stderr}`);
    };
    writeFileSync(join(dir, 'ext.cnf'),
      `basicConstraints=critical,CA:FALSE\nextendedKeyUsage=serverAuth\nsubjectAltName=${san}\n`);
    run(['req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', 'key.pem',
      '-subj', '/CN=minted', '-out', 'csr.pem']);
    run(['x509', '-req', '-in', 'csr.pem', '-CA', join(stateDir, 'ca-cert.pem'), '-CAkey', join(stateDir, 'ca-key.pem'),
      '-set_serial', `0x${randomBytes(8).toString('hex')}`, '-days', '30', '-extfile', 'ext.cnf', '-out', 'cert.pem']);
    return { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// The minted certificates are served by a server of the test's own, not
// through the front: the nginx twin of this file has nothing to add there.
const notTheFront = { skip: front === 'nginx' && 'about the CA, not the front: run by the file\'s own e2e test' };

// An HTTPS server on 127.0.0.1 with `tls`, answering 200 "minted".
async function serve(tls) {
  const server = createServer(tls, (req, res) => { res.writeHead(200, { 'Content-Type': 'text/plain' }); res.end('minted'); });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: server.address().port, close: () => new Promise((resolve) => server.close(resolve)) };
}

test('a certificate for another site signed with the trusted CA key is refused by Chromium; a loopback one is taken', notTheFront, async () => {
  assert.ok(trustedHome, 'the first test trusted the CA in a fresh HOME');
  const outside = await serve(mintWithCaKey(trustedStateDir, 'DNS:example.com'));
  const inside = await serve(mintWithCaKey(trustedStateDir, 'DNS:localhost,IP:127.0.0.1'));
  // The loopback names plus one outside: visited at 127.0.0.1, which it
  // names, only the name constraints can make it fail.
  const mixed = await serve(mintWithCaKey(trustedStateDir, 'DNS:localhost,IP:127.0.0.1,DNS:example.com'));
  // example.com resolves to the test's server, as a hostile network would make it.
  const browser = await launchBrowser({ home: trustedHome, trustedOnly: true,
    args: ['--host-resolver-rules=MAP example.com 127.0.0.1'] });
  // Chromium 156's verifier reports a name-constraint violation as
  // ERR_CERT_INVALID (older ones: ERR_CERT_NAME_CONSTRAINT_VIOLATION).
  const refusedByConstraints = /ERR_CERT_INVALID|ERR_CERT_NAME_CONSTRAINT_VIOLATION/;
  try {
    // A page each: a refused load goes on to Chromium's error page, which
    // would interrupt the next load in the same page.
    const visit = async (url) => (await browser.context.newPage()).goto(url);
    await assert.rejects(visit(`https://example.com:${outside.port}/`), refusedByConstraints,
      'the local CA vouches for loopback names only');
    await assert.rejects(visit(`https://127.0.0.1:${mixed.port}/`), refusedByConstraints,
      'one name outside the constraints spoils the certificate, though it names 127.0.0.1 too');
    const page = await browser.context.newPage();
    const taken = await page.goto(`https://127.0.0.1:${inside.port}/`);
    assert.equal(taken.status(), 200, 'a certificate minted the same way for loopback names only is accepted');
    assert.equal(await page.textContent('body'), 'minted');
  } finally {
    await browser.close();
    await outside.close();
    await inside.close();
    await mixed.close();
  }
});

test('Firefox ESR, in the profile `trust` wrote, refuses the same out-of-scope certificate and takes a loopback one', notTheFront, async () => {
  assert.ok(firefoxProfile, 'the first test trusted the CA in a Firefox ESR 153 profile');
  const { default: puppeteer } = await import('puppeteer-core');
  const outside = await serve(mintWithCaKey(trustedStateDir, 'DNS:example.com'));
  const inside = await serve(mintWithCaKey(trustedStateDir, 'DNS:localhost,IP:127.0.0.1'));
  // A plain text page needs no WebGL: headless is enough here.
  const browser = await puppeteer.launch({ browser: 'firefox', executablePath: '/usr/bin/firefox-esr', headless: true,
    userDataDir: firefoxProfile, acceptInsecureCerts: false,
    // example.com resolves to 127.0.0.1, as a hostile network would make it.
    extraPrefsFirefox: { 'network.dns.localDomains': 'example.com', 'app.update.enabled': false,
      'app.normandy.enabled': false, 'datareporting.policy.dataSubmissionEnabled': false } });
  try {
    const page = await browser.newPage();
    await assert.rejects(page.goto(`https://example.com:${outside.port}/`), /SEC_ERROR_CERT_NOT_IN_NAME_SPACE/,
      'NSS refuses a name outside the CA\'s constraints');
    const taken = await page.goto(`https://127.0.0.1:${inside.port}/`);
    assert.equal(taken.status(), 200, 'a loopback certificate minted the same way is accepted: the CA is trusted');
    assert.equal(await page.evaluate(() => document.body.textContent), 'minted');
  } finally {
    await browser.close();
    await outside.close();
    await inside.close();
  }
});
