// webkit_trust.mjs: WebKitGTK (MiniBrowser, through WebKitWebDriver) loads
// the helper's app with no certificate override after `roomkey-helper
// trust`, and refuses it before. WebKitGTK reads no NSS database: GnuTLS
// loads the system trust, /etc/ssl/certs/ca-certificates.crt, which
// update-ca-certificates builds from /usr/local/share/ca-certificates, where
// `trust` puts the CA when it may write there.
//
// The machine's own store is never touched: this file runs in a mount
// namespace of its own (ctest: `unshare -m`), where the store's two
// directories are a copy and an empty tmpfs, and it refuses to mount
// anything in the machine's namespace. The hooks update-ca-certificates
// runs after the bundle (/etc/ca-certificates/update.d) see an empty
// tmpfs too: ca-certificates-java's ran `dpkg --triggers-only` on the
// machine's own package database and a JVM, 6-11 s of each run under load,
// for a Java store this test does not read.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchEngine } from './driver.mjs';
import { binDir, freshStateDir, startHelper, stopProgram } from '../e2e/support.mjs';

// The wrapper (CMakeLists.txt) names the namespace it was started in; this
// process must be in another one.
const outer = process.env.ROOMKEY_OUTER_MNT_NS;
const own = !!outer && readlinkSync('/proc/self/ns/mnt') !== outer;
const skip = !own && 'needs a mount namespace of its own (run it under `unshare -m`, as ctest does)';
const HOOKS = '/etc/ca-certificates/update.d';
const scratch = mkdtempSync(join(tmpdir(), 'roomkey-webkit-trust-'));
let helper;
after(async () => {
  await stopProgram(helper);
  rmSync(scratch, { recursive: true, force: true });
});

function run(command, args, env = process.env) {
  const r = spawnSync(command, args, { env, encoding: 'utf8', timeout: 60000 });
  assert.equal(r.status, 0, `${command} ${args.join(' ')} failed:\n${r.stdout}${r.stderr}`);
  return r;
}

// What a fresh WebKit shows at `url` once a document has loaded: the app
// (its page API, window.roomkey) or WebKit's own error page.
async function openIn(url) {
  const webkit = await launchEngine('webkit', { trustedOnly: true });
  try {
    await webkit.goto(url);
    return await webkit.evaluate(() => `${typeof window.roomkey} "${document.title}" at ${location.href}`);
  } catch (error) {
    return `not loaded: ${error.message.split('\n')[0]}`;
  } finally {
    await webkit.close();
  }
}

test('WebKit loads the app with no certificate override after `roomkey-helper trust`, and not before', { skip },
  async () => {
    // This namespace's system store: a copy of the machine's bundle, and an
    // empty directory for added CAs.
    const certs = join(scratch, 'certs');
    cpSync('/etc/ssl/certs', certs, { recursive: true, verbatimSymlinks: true });
    run('mount', ['--bind', certs, '/etc/ssl/certs']);
    run('mount', ['-t', 'tmpfs', 'tmpfs', '/usr/local/share/ca-certificates']);
    if (existsSync(HOOKS)) run('mount', ['-t', 'tmpfs', 'tmpfs', HOOKS]);

    const stateDir = freshStateDir();
    helper = await startHelper(stateDir);
    const before = await openIn(helper.url);
    assert.doesNotMatch(before, /^object /, `WebKit loaded the app before trust: ${before}`);
    assert.match(before, /refused/, `WebKit's load ended, refused, not by a deadline: ${before}`);

    const home = join(scratch, 'home');
    const trusted = run(join(binDir, 'roomkey-helper'), ['trust', '--state-dir', stateDir],
      { ...process.env, HOME: home, XDG_CONFIG_HOME: '', ROOMKEY_SYSTEM_CA_DIR: '' });
    assert.match(trusted.stderr, /trusted .* in the system store/, trusted.stderr);
    assert.match(trusted.stderr, /browsers covered: .*WebKit browsers and curl \(the system store\)/, trusted.stderr);

    const afterTrust = await openIn(helper.url);
    console.log(`WebKit before trust: ${before}\nWebKit after trust: ${afterTrust}`);
    assert.match(afterTrust, /^object /, `WebKit refused the certificate of the CA \`trust\` added: ${afterTrust}`);
  });
