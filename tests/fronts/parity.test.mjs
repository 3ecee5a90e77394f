// parity.test.mjs: roomkey-helper and nginx (configured by `roomkey-helper
// nginx-config`, started as ./scripts/run.sh --front nginx does) in front of
// the same sandbox answer every route class with the same status and the
// same security headers (a user may run either).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { request as httpsRequest } from 'node:https';
import { binDir, webDist, freePort, freshStateDir, startProgram, startSandbox, stopProgram, nginxFrontScript }
  from '../e2e/support.mjs';

const aliceToken = 'sandbox-api-token-alice-1001';  // docs/sandbox.md
const securityHeaders = ['content-security-policy', 'x-content-type-options', 'referrer-policy', 'x-frame-options',
  'cross-origin-opener-policy', 'cross-origin-resource-policy', 'permissions-policy', 'cache-control'];

let stateDir; let sandbox; const fronts = {};

before(async () => {
  stateDir = freshStateDir();
  const helperPort = await freePort();
  const nginxPort = await freePort();
  sandbox = await startSandbox(stateDir, helperPort);
  const upstream = ['--state-dir', stateDir, '--web-root', webDist, '--base-url', sandbox.baseUrl,
    '--auth-url', sandbox.authUrl, '--consent-url', sandbox.consentUrl, '--client-id', 'roomkey-web'];
  const ready = /^roomkey: app at (https:\/\/127\.0\.0\.1:(\d+)\/)$/;
  const helper = join(binDir, 'roomkey-helper');
  fronts.helper = await startProgram(helper, ['serve', '--port', String(helperPort), ...upstream], ready);
  fronts.nginx = await startProgram(nginxFrontScript, ['--port', String(nginxPort), ...upstream], ready,
    { env: { ...process.env, ROOMKEY_HELPER: helper } });
});

after(async () => {
  await stopProgram(fronts.nginx);
  await stopProgram(fronts.helper);
  await stopProgram(sandbox);
  if (stateDir) rmSync(stateDir, { recursive: true, force: true });
});

// One raw request (exact target, any Host); with `declaredLength` only the
// header section is sent, announcing that body length, as a client about to
// upload would: both fronts must refuse before reading it.
function send(frontName, { method = 'GET', path = '/', headers = {}, body, declaredLength }) {
  const port = Number(fronts[frontName].match[2]);
  const ca = readFileSync(join(stateDir, 'ca-cert.pem'));
  return new Promise((resolve, reject) => {
    const all = { Host: `127.0.0.1:${port}`, ...headers };
    if (body !== undefined) all['Content-Length'] = Buffer.byteLength(body);
    if (declaredLength !== undefined) all['Content-Length'] = declaredLength;
    const req = httpsRequest({ host: '127.0.0.1', port, method, path, headers: all, ca, servername: 'localhost',
      agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (c) => { text += c; });
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: text }));
      if (declaredLength !== undefined) res.on('end', () => req.destroy());
    });
    req.on('error', reject);
    if (body !== undefined) req.end(body);
    else if (declaredLength !== undefined) req.flushHeaders();
    else req.end();
  });
}

const app = { 'X-Roomkey-Request': '1' };
const hashedWasm = readdirSync(webDist).find((name) => /^roomkey\.[0-9a-f]{16}\.wasm$/.test(name));

const cases = [
  { name: 'page', path: '/', expect: 200 },
  { name: 'redirect URI page', path: '/callback?code=abc&state=def', expect: 200 },
  { name: 'hashed asset', path: `/${hashedWasm}`, headers: { 'Accept-Encoding': 'br' }, expect: 200 },
  { name: 'page.js (unhashed)', path: '/page.js', expect: 200 },
  { name: 'missing file', path: '/nothing-here.js', expect: 404 },
  { name: '/config.json', path: '/config.json', expect: 200 },
  { name: 'token', method: 'POST', path: '/oauth/token', headers: { ...app, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=authorization_code&code=nope&redirect_uri=x&client_id=roomkey-web&code_verifier=' + 'a'.repeat(64),
    expect: 400 },
  { name: 'token, accepting compression', method: 'POST', path: '/oauth/token',
    headers: { ...app, 'Content-Type': 'application/x-www-form-urlencoded', 'Accept-Encoding': 'gzip, br' },
    body: 'grant_type=refresh_token&refresh_token=nope&client_id=roomkey-web', expect: 400, uncompressed: true },
  { name: 'token, GET', path: '/oauth/token', headers: app, expect: 404 },
  { name: 'allowed API path', path: '/api/me', headers: { ...app, 'x-servicetoken': aliceToken }, expect: 200 },
  { name: 'allowed API path, method not in the table', method: 'DELETE', path: '/api/me', headers: app, expect: 404 },
  { name: 'refused API path', path: '/api/not/in/the/table', headers: app, expect: 404 },
  { name: 'refused id (leading zero)', path: '/api/rooms/01', headers: app, expect: 404 },
  { name: 'foreign Origin', path: '/api/me', headers: { Origin: 'https://evil.example' }, expect: 403 },
  { name: 'no Origin and no X-Roomkey-Request', path: '/api/me', expect: 403 },
  { name: 'cross-site fetch', path: '/api/me', headers: { ...app, 'Sec-Fetch-Site': 'cross-site' }, expect: 403 },
  { name: 'own Origin', path: '/api/me', headers: { 'x-servicetoken': aliceToken }, ownOrigin: true, expect: 200 },
  // Fetch Metadata's four values, case-sensitive; anything else is cross-site.
  { name: 'unknown Sec-Fetch-Site', path: '/api/me', headers: { ...app, 'Sec-Fetch-Site': 'CROSS-SITE' }, expect: 403 },
  { name: 'Sec-Fetch-Site none', path: '/api/me', headers: { ...app, 'x-servicetoken': aliceToken, 'Sec-Fetch-Site': 'none' },
    expect: 200 },
  // The CSRF headers at most once each (nginx 1.22 judges the first line
  // only, so these put the refused value first; the helper refuses any pair:
  // helper_request_rules_test.cpp).
  { name: 'Origin twice', path: '/api/me', headers: { 'x-servicetoken': aliceToken }, ownOriginSecond: true, expect: 403 },
  { name: 'X-Roomkey-Request twice', path: '/api/me', headers: { 'X-Roomkey-Request': ['0', '1'] }, expect: 403 },
  { name: 'Sec-Fetch-Site twice', path: '/api/me', headers: { ...app, 'Sec-Fetch-Site': ['cross-site', 'same-origin'] },
    expect: 403 },
  { name: 'foreign Host', path: '/', headers: { Host: 'evil.example' }, expect: 403 },
  { name: 'foreign Host with our port', path: '/', foreignHostPort: true, expect: 403 },
  // Body limits (shared/include/roomkey/upload_limits.hpp): 1 MiB, and the
  // file upload's 5 MiB + 300 KiB envelope (5,550,080 bytes) on its route only.
  { name: 'oversized body', method: 'POST', path: '/api/rooms/1/messages', headers: app, declaredLength: (1 << 20) + 1,
    expect: 413 },
  { name: 'oversized upload', method: 'POST', path: '/api/rooms/1/files',
    headers: { ...app, 'Content-Type': 'multipart/form-data; boundary=x' }, declaredLength: 5550080 + 1, expect: 413 },
  { name: 'multipart body to a route other than the upload', method: 'POST', path: '/api/rooms/1/messages',
    headers: { ...app, 'Content-Type': 'multipart/form-data; boundary=x' }, body: '--x--\r\n', expect: 415 },
  { name: 'upload without a boundary', method: 'POST', path: '/api/rooms/1/files',
    headers: { ...app, 'Content-Type': 'multipart/form-data' }, body: '--x--\r\n', expect: 415 },
  // The helper's framing guard (loopback_server.cpp, shared with the
  // sandbox) answers before its policy and sets no Cache-Control; nginx's
  // says no-store: not compared.
  { name: 'GET with a body', path: '/api/rooms/1/files', headers: app, body: 'x', expect: 400,
    notCompared: ['cache-control'] },
  { name: 'over-long target', path: '/?' + 'q'.repeat(4095), expect: 414 },
  { name: 'longest target accepted', path: '/?' + 'q'.repeat(4094), expect: 200 },
  { name: 'percent-encoded API path', path: '/%61pi/me', headers: app, expect: 400 },
  { name: 'dot segment', path: '/api/../api/me', headers: app, expect: 400 },
  { name: 'credential in the API query', path: '/api/me?access_token=x', headers: app, expect: 400 },
  { name: 'method the helper routes nowhere', method: 'PATCH', path: '/api/me', headers: app, expect: 405 },
  { name: 'POST to the page', method: 'POST', path: '/', body: '', expect: 405 },
];

for (const c of cases) {
  test(`${c.name}: same status and security headers through both fronts`, async () => {
    const answers = {};
    for (const name of ['helper', 'nginx']) {
      const port = fronts[name].match[2];
      const headers = { ...(c.headers || {}) };
      if (c.ownOrigin) headers.Origin = `https://127.0.0.1:${port}`;
      if (c.foreignHostPort) headers.Host = `evil.example:${port}`;
      if (c.ownOriginSecond) headers.Origin = ['https://evil.example', `https://127.0.0.1:${port}`];
      answers[name] = await send(name, { ...c, headers });
    }
    const { helper, nginx } = answers;
    assert.equal(helper.status, c.expect, `helper: ${helper.status} ${helper.body.slice(0, 200)}`);
    assert.equal(nginx.status, c.expect, `nginx: ${nginx.status} ${nginx.body.slice(0, 200)}`);
    for (const h of securityHeaders.filter((name) => !(c.notCompared || []).includes(name))) {
      assert.equal(nginx.headers[h], helper.headers[h], `${h} (helper: ${helper.headers[h]}, nginx: ${nginx.headers[h]})`);
    }
    for (const a of [helper, nginx]) {
      assert.equal(a.headers['access-control-allow-origin'], undefined, 'no CORS');
      assert.equal(a.headers['set-cookie'], undefined, 'no cookies');
    }
    if (c.expect === 200) assert.equal(nginx.headers['content-type'], helper.headers['content-type'], 'content type');
    if (c.uncompressed) {
      for (const a of [helper, nginx]) assert.equal(a.headers['content-encoding'], undefined, 'token answers: never compressed');
    }
    if (c.name === 'hashed asset') {
      assert.equal(helper.headers['content-encoding'], 'br');
      assert.equal(nginx.headers['content-encoding'], 'br', 'brotli_static serves the .br sibling');
    }
  });
}

test('/config.json has the same content through both fronts (each names its own origin)', async () => {
  const bodies = {};
  for (const name of ['helper', 'nginx']) {
    const port = fronts[name].match[2];
    bodies[name] = JSON.parse((await send(name, { path: '/config.json' })).body);
    assert.equal(bodies[name].redirect_uri, `https://127.0.0.1:${port}/callback`);
    bodies[name].redirect_uri = '(origin)/callback';
  }
  // The one intended difference: nginx alone never saw the download links
  // the service issued, so it cannot fetch previews safely and says so
  // (docs/file_previews.md); the helper's document leaves the default (shown).
  assert.equal(bodies.nginx.file_previews, false, 'nginx without a helper says previews are not served');
  assert.equal(bodies.helper.file_previews, undefined, "the helper's document is unchanged");
  delete bodies.nginx.file_previews;
  assert.deepEqual(bodies.nginx, bodies.helper);
});

test("nginx's access log has no query string and no credential", async () => {
  await send('nginx', { path: '/callback?code=secret-code-123&state=secret-state-456' });
  await send('nginx', { path: '/api/me', headers: { ...app, 'x-servicetoken': aliceToken } });
  const log = readFileSync(join(stateDir, 'nginx', 'access.log'), 'utf8');
  assert.match(log, /"GET \/callback\?\[redacted\]" 200/);
  assert.match(log, /"GET \/api\/me" 200/);
  for (const secret of ['secret-code-123', 'secret-state-456', aliceToken]) assert.ok(!log.includes(secret), secret);
});
