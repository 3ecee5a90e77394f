// app_instruments.e2e.mjs: the developer's instruments in Chromium against
// the sandbox: a HAR export of a signed-in session with a post is a file
// download, valid HAR 1.2 with every logged entry and no secret of the
// session in it; "Copy as curl (service)" names the sandbox itself, masked;
// Send anyway of a POST without `body` shows the sandbox's own 400 and its
// message, and the log says it was sent against the console's check.
// The HAR is checked as its readers take it: against the HAR 1.2 schema
// (har_schema.mjs), and imported by Chromium's own DevTools HAR importer
// (the code of the Network panel's "Import HAR file", run in a DevTools page).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { openApp, act, waitForState, passConsent, demoUsers, sandboxApi, withStackAndBrowser } from './support.mjs';
import { validate } from './har_schema.mjs';

let stack; let browser;
withStackAndBrowser((s, b) => { stack = s; browser = b; });

const SCOPE = 'users.all:read rooms.all:read_write';
const ROOM = '2100';

// The secrets a session's traffic carried: the code, the verifier, every token.
function watchSecrets(page) {
  const secrets = new Set();
  page.on('request', (r) => {
    const auth = r.headers().authorization;
    if (auth && auth.startsWith('Bearer ')) secrets.add(auth.slice(7));
    if (r.url().endsWith('/oauth/token')) {
      for (const [name, value] of new URLSearchParams(r.postData() || '')) {
        if (['code', 'code_verifier', 'refresh_token'].includes(name)) secrets.add(value);
      }
    }
  });
  page.on('response', async (r) => {
    if (!r.url().endsWith('/oauth/token')) return;
    const body = await r.json().catch(() => ({}));
    for (const name of ['access_token', 'refresh_token']) if (body[name]) secrets.add(body[name]);
  });
  return secrets;
}

async function signIn(page) {
  await openApp(page, stack.url);
  await act(page, { type: 'sign_in', scope: SCOPE });
  await passConsent(page, stack, demoUsers.alice, 'allow');
  return waitForState(page, (s) => s.session === 'signed in' && s.account && s.status && !s.loading, 'signed in');
}

// The HAR 1.2 schema's required members, by object.
const REQUIRED = {
  log: ['version', 'creator', 'entries'],
  entry: ['startedDateTime', 'time', 'request', 'response', 'cache', 'timings'],
  request: ['method', 'url', 'httpVersion', 'cookies', 'headers', 'queryString', 'headersSize', 'bodySize'],
  response: ['status', 'statusText', 'httpVersion', 'cookies', 'headers', 'content', 'redirectURL', 'headersSize', 'bodySize'],
  content: ['size', 'mimeType'],
  timings: ['send', 'wait', 'receive'],
};
function assertHas(object, kind) {
  for (const name of REQUIRED[kind]) assert.ok(object && name in object, `${kind} lacks ${name}`);
}

// What Chromium's DevTools make of a HAR: its Network panel imports a file
// with HARFormat.HARRoot (which refuses a malformed one) and
// Importer.requestsFromHARLog; the requests as the panel would list them.
async function importInDevTools(context, text) {
  const devtools = await context.newPage();
  try {
    await devtools.goto('devtools://devtools/bundled/devtools_app.html', { timeout: 30000 });
    return await devtools.evaluate(async (source) => {
      const { HARFormat, Importer } = await import('devtools://devtools/bundled/models/har/har.js');
      try {
        const root = new HARFormat.HARRoot(JSON.parse(source));
        return Importer.Importer.requestsFromHARLog(root.log).map((r) => ({
          method: r.requestMethod, url: r.url(), status: r.statusCode,
        }));
      } catch (e) {
        return { error: String(e && e.message) };
      }
    }, text);
  } finally {
    await devtools.close();
  }
}

test('HAR export: a download of valid HAR 1.2 with every entry and no unmasked secret', async () => {
  const page = await browser.context.newPage();
  const secrets = watchSecrets(page);
  await signIn(page);
  await act(page, { type: 'post_message', room_id: ROOM, body: 'HAR 🎉 "quoted"' });
  await waitForState(page, (s) => s.log.some((e) => /^POST \/api\/rooms\/2100\/messages -> 200/.test(e.title)), 'the post');
  assert.ok(secrets.size >= 3, `the session's secrets were seen (${secrets.size})`);

  const [download] = await Promise.all([page.waitForEvent('download'), act(page, { type: 'export_har' })]);
  const state = await waitForState(page, (s) => s.last_export, 'last_export');
  const text = readFileSync(await download.path(), 'utf8');
  assert.equal(download.suggestedFilename(), state.last_export.name);
  assert.match(state.last_export.name, /^roomkey-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.har$/);
  assert.equal(Buffer.byteLength(text), state.last_export.bytes, 'last_export.bytes is the file');

  const har = JSON.parse(text);
  assertHas(har.log, 'log');
  assert.equal(har.log.version, '1.2');
  for (const entry of har.log.entries) {
    assertHas(entry, 'entry');
    assertHas(entry.request, 'request');
    assertHas(entry.response, 'response');
    assertHas(entry.response.content, 'content');
    assertHas(entry.timings, 'timings');
    assert.ok(!Number.isNaN(Date.parse(entry.startedDateTime)), entry.startedDateTime);
    assert.ok(new URL(entry.request.url).protocol === 'https:', entry.request.url);
  }
  // Every entry the log holds (the page API lists the newest titles), in order.
  assert.ok(har.log.entries.length >= state.log.length);
  const tail = har.log.entries.slice(-state.log.length);
  state.log.forEach((e, i) => {
    const [method, path] = e.title.split(' ');
    assert.equal(tail[i].request.method, method, e.title);
    assert.equal(new URL(tail[i].request.url).pathname, path, e.title);
  });
  assert.ok(har.log.entries.some((e) => /consent/.test(e.comment || '')), 'the flow steps are entries with comments');
  const post = har.log.entries.find((e) => e.request.method === 'POST' && e.request.url.endsWith('/api/rooms/2100/messages'));
  assert.equal(post.response.status, 200);
  assert.deepEqual(post.request.postData.params.find((p) => p.name === 'body'), { name: 'body', value: 'HAR 🎉 "quoted"' });
  for (const secret of secrets) assert.ok(!text.includes(secret), 'no secret of the session in the HAR');
  assert.ok(text.includes('Bearer ********'), 'the credential is there, masked');

  // The HAR 1.2 schema, every member of every entry (the validator itself refuses a broken HAR).
  assert.deepEqual(validate(har), [], 'valid HAR 1.2');
  assert.ok(validate({ log: { version: 1.2, entries: [{ time: -5 }] } }).length >= 4, 'the schema check can fail');
  // Chromium's DevTools import it: every entry, with its method, address and status.
  const imported = await importInDevTools(browser.context, text);
  assert.ok(Array.isArray(imported), `DevTools refused the HAR: ${JSON.stringify(imported)}`);
  assert.equal(imported.length, har.log.entries.length, 'DevTools read every entry');
  // (DevTools lists them by start time: compared as one set of requests.)
  const line = (method, url, status) => `${method} ${url} ${status > 0 ? status : '-'}`;
  assert.deepEqual(imported.map((r) => line(r.method, r.url, r.status)).sort(),
    har.log.entries.map((e) => line(e.request.method, e.request.url, e.response.status)).sort());
  const broken = await importInDevTools(browser.context, JSON.stringify({ log: { ...har.log, entries: [{ ...har.log.entries[0], startedDateTime: 'yesterday' }] } }));
  assert.ok(broken.error, 'the importer refuses a malformed HAR');
  await page.close();
});

test('Copy as curl (service) and Send anyway: the sandbox itself, its own 400 and message', async () => {
  const page = await browser.context.newPage();
  await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.origin });
  await signIn(page);

  // The sandbox answers a POST without body with its own 400 and message.
  const direct = await sandboxApi(stack, demoUsers.alice, 'POST', `/rooms/${ROOM}/messages`, {});
  assert.equal(direct.status, 400);
  await act(page, { type: 'api_call', method: 'POST', path: '/rooms/{room_id}/messages', params: { room_id: ROOM } });
  let state = await waitForState(page, (s) => s.console.last && s.console.problems.length > 0, 'the console check');
  assert.equal(state.console.last.sent, false, 'the console checks first');
  assert.match(state.console.problems.map((p) => p.message).join(' '), /body is required/);
  await act(page, { type: 'api_call', method: 'POST', path: '/rooms/{room_id}/messages', params: { room_id: ROOM }, anyway: true });
  state = await waitForState(page, (s) => s.console.last && s.console.last.status === 400, "the sandbox's 400");
  assert.equal(state.console.last.anyway, true);
  assert.match(state.console.last.check, /body is required/);
  for (const message of JSON.parse(direct.text).errors) assert.ok(state.console.last.json.includes(message), message);
  const logged = state.log.find((e) => /sent anyway against its own check/.test(e.title));
  assert.ok(logged && / -> 400/.test(logged.title), 'the log marks it');

  await page.bringToFront();
  await act(page, { type: 'copy_as', entry: logged.id, format: 'curl_service' });
  await waitForState(page, (s) => /Copied as curl \(service\)/.test(s.notice), 'the copy');
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert.ok(copied.startsWith(`curl -X POST '${stack.sandbox.baseUrl}/rooms/${ROOM}/messages'`), copied);
  assert.match(copied, /'authorization: Bearer \*{8}'/);
  assert.ok(!/X-Roomkey-Request/i.test(copied), "not the helper's header");
  await page.close();
});
