// bff_support.mjs: what the BFF e2e tests need beyond support.mjs
// (docs/bff.md): the stack with a confidential client registered in the
// sandbox and the front (roomkey-helper or nginx before it) in BFF mode, the
// sandbox's record of every token it issued (GET /_sandbox/tokens), a record
// of every response header and body the page received (Chromium's own
// network events, redirects and Set-Cookie included), and requests sent
// from outside the page (a foreign Origin, no X-Roomkey-Request).
import { before, after } from 'node:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { request as httpsRequest } from 'node:https';
import { freshStateDir, freePort, startSandbox, startHelper, startProgram, stopProgram, stopStack, launchBrowser,
  sandboxControl, front, binDir, webDist } from './support.mjs';

// How many BFF helpers stand behind nginx (docs/deploy.md step 7: one key,
// the session's requests hashed to one of them).
const NGINX_BFF_HELPERS = 2;

export const BFF_CLIENT_ID = 'roomkey-bff';
export const BFF_SCOPE = 'users.all:read rooms.all:read_write';

// Sandbox (a confidential client whose redirect URI is the front's
// /callback, its secret in a 0600 file) + the front in BFF mode: the helper
// itself, or nginx before NGINX_BFF_HELPERS helpers that share the state
// directory (and so the session key), each told nginx's origin.
export async function startBffStack({ stateDir = freshStateDir() } = {}) {
  const port = await freePort();
  const secretFile = join(stateDir, 'bff-client-secret');
  const secret = 'bff-e2e-client-secret-' + Math.random().toString(36).slice(2);
  writeFileSync(secretFile, secret + '\n', { mode: 0o600 });
  const clientsFile = join(stateDir, 'bff-clients.json');
  writeFileSync(clientsFile, JSON.stringify({ clients: [{
    client_id: BFF_CLIENT_ID, name: 'roomkey BFF e2e', type: 'confidential',
    redirect_uris: [`https://127.0.0.1:${port}/callback`],
    scope: 'offline_access users.all:read rooms.all:read_write', client_secret: secret }] }), { mode: 0o600 });
  const sandbox = await startSandbox(stateDir, port, ['--clients', clientsFile]);
  const serveArgs = ['--base-url', sandbox.baseUrl, '--auth-url', sandbox.authUrl, '--consent-url', sandbox.consentUrl,
    '--client-id', BFF_CLIENT_ID, '--client-type', 'confidential', '--client-secret-file', secretFile, '--session', 'bff'];
  const bffHelpers = [];
  let helper;
  try {
    if (front === 'nginx') {
      // One after the other: the first makes the key and the local CA the others read.
      for (let i = 0; i < NGINX_BFF_HELPERS; ++i) {
        bffHelpers.push(await startProgram(join(binDir, 'roomkey-helper'),
          ['serve', '--port', String(await freePort()), '--state-dir', stateDir, '--web-root', webDist, ...serveArgs,
            '--front-origin', `https://127.0.0.1:${port}`], /^roomkey: app at (https:\/\/\S+)$/));
      }
      const ports = bffHelpers.map((h) => ['--bff-helper', new URL(h.match[1]).port]).flat();
      helper = await startHelper(stateDir, [...serveArgs, ...ports], port);
    } else {
      helper = await startHelper(stateDir, serveArgs, port);
    }
  } catch (error) {
    for (const started of [...bffHelpers, sandbox]) await stopProgram(started);
    throw error;
  }
  return { stateDir, sandbox, helper, bffHelpers, secret, url: helper.url, origin: new URL(helper.url).origin };
}

export async function stopBffStack(stack) {
  if (!stack) return;
  for (const started of stack.bffHelpers) await stopProgram(started);
  await stopStack(stack);
}

// One BFF stack and one Chromium for a test file (as withStackAndBrowser).
export function withBffStackAndBrowser(use) {
  let stack = null;
  let browser = null;
  before(async () => {
    stack = await startBffStack();
    browser = await launchBrowser();
    use(stack, browser);
  });
  after(async () => {
    if (browser) await browser.close();
    await stopBffStack(stack);
  });
}

// Every access and refresh token the sandbox issued so far (docs/bff.md's
// test control).
export async function issuedTokens(stack) {
  const answer = await sandboxControl(stack, '/_sandbox/tokens', {}, 'GET');
  return [...(answer.access_tokens || []), ...(answer.refresh_tokens || [])].filter((t) => t && t.length >= 8);
}

// Records everything the page's browser received from now on: each
// response's status line, headers (the raw ones, Set-Cookie included, and
// the redirects' own) and body, from Chromium's network events. `text()`
// gives it all as one string to search.
export async function recordReceived(context, page) {
  const cdp = await context.newCDPSession(page);
  const parts = [];
  const bodies = [];
  cdp.on('Network.responseReceived', (e) => {
    parts.push(`${e.response.status} ${e.response.url}\n${JSON.stringify(e.response.headers)}`);
  });
  cdp.on('Network.responseReceivedExtraInfo', (e) => {
    parts.push(JSON.stringify(e.headers) + (e.headersText || ''));
  });
  cdp.on('Network.requestWillBeSent', (e) => {
    if (e.redirectResponse) parts.push(`${e.redirectResponse.status} ${e.redirectResponse.url}\n${JSON.stringify(e.redirectResponse.headers)}`);
  });
  cdp.on('Network.loadingFinished', (e) => {
    bodies.push(cdp.send('Network.getResponseBody', { requestId: e.requestId })
      .then((b) => { parts.push(b.base64Encoded ? Buffer.from(b.body, 'base64').toString('latin1') : b.body); })
      .catch(() => {}));  // a body Chromium no longer holds (a navigation away) was not the page's
  });
  await cdp.send('Network.enable', { maxTotalBufferSize: 64 * 1024 * 1024, maxResourceBufferSize: 16 * 1024 * 1024 });
  return {
    async text() { await Promise.all(bodies); return parts.join('\n'); },
    count: () => parts.length,
  };
}

// A request from outside the page to the front: `headers` as given (a
// foreign Origin, a missing X-Roomkey-Request), with the browser's cookies.
export function frontRequest(stack, method, path, { headers = {}, body = '' } = {}) {
  const url = new URL(path, stack.url);
  return new Promise((resolve, reject) => {
    const req = httpsRequest(url, { method, agent: false, rejectUnauthorized: false,
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (c) => { text += c; });
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

export async function cookieHeader(context, stack) {
  const cookies = await context.cookies(stack.url);
  return cookies.map((c) => `${c.name}=${c.value}`).join('; ');
}
