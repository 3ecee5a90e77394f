#!/usr/bin/env node
// bff.mjs: the BFF mode (docs/bff.md) beside the browser mode, over real
// sockets, in one run: a sign-in (from the start of the authorization
// request to a usable session: the consent page, Allow, the callback, the
// code exchange) and an API round trip (GET /api/me), medians side by side
// and their ratio.
//
//   cmake --preset native && cmake --build --preset native --target roomkey-helper roomkey-sandbox
//   node bench/bff.mjs [--rounds 20] [--calls 200] [--bin build/native/bin] [--json]
//
// One sandbox and two helpers on free ports of 127.0.0.1: the browser mode
// (public client roomkey-web: this script does what the page does, PKCE, the
// consent, GET /callback for the page, POST /oauth/token through the
// helper, then Bearer calls) and the BFF mode (confidential client: GET
// /bff/login, the consent, GET /callback, which the helper answers with the
// session cookie after its own code exchange; then cookie calls, the helper
// attaching the token). The sandbox's login is done once beforehand, so each
// sign-in shows the consent page and Allow only, as for a returning user.
// Sign-ins take turns (each mode first in every other pair), and so do the
// API calls (alternating, one keep-alive connection per mode).
import { commandLine } from './cli.mjs';
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '../tests/support/free_port.mjs';

const { option, flag } = commandLine(import.meta.url);
const rounds = Number(option('--rounds', '20'));
const calls = Number(option('--calls', '200'));
const bin = resolve(option('--bin', 'build/native/bin'));
const asJson = flag('--json');

const median = (list) => {
  const s = [...list].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const b64url = (buf) => buf.toString('base64url');

// --- the servers ---------------------------------------------------------------
const stateDir = mkdtempSync(join(tmpdir(), 'roomkey-bench-bff-'));
const children = [];
function start(args, pattern) {
  return new Promise((resolveStart, reject) => {
    const child = spawn(args[0], args.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = out.match(pattern);
      if (m) resolveStart(m);
    });
    child.stderr.on('data', (d) => { err += d; });
    child.on('exit', (code) => reject(new Error(`${args[0]} ended (${code}): ${err}`)));
  });
}
function stopAll() {
  for (const c of children) c.kill('SIGTERM');
  rmSync(stateDir, { recursive: true, force: true });
}
process.on('exit', stopAll);

const [browserPort, bffPort, sandboxPort] = [await freePort(), await freePort(), await freePort()];
// The helpers serve a web root; the page itself plays no part here.
mkdirSync(join(stateDir, 'web'));
writeFileSync(join(stateDir, 'web', 'index.html'), '<!doctype html><title>bench</title>\n');
const secret = b64url(randomBytes(32));
writeFileSync(join(stateDir, 'secret'), secret + '\n', { mode: 0o600 });
writeFileSync(join(stateDir, 'clients.json'), JSON.stringify({
  clients: [{ client_id: 'roomkey-bff-bench', type: 'confidential', name: 'bench', client_secret: secret,
              redirect_uri: `https://127.0.0.1:${bffPort}/callback`, scopes: ['users.all:read', 'rooms.all:read_write'] }],
}), { mode: 0o600 });
const ready = await start([join(bin, 'roomkey-sandbox'), '--port', String(sandboxPort), '--state-dir', stateDir,
  '--web-port', String(browserPort), '--clients', join(stateDir, 'clients.json'), '--rate-limit', '1000000', '--ephemeral'],
/roomkey-sandbox: ready base_url=(\S+) auth_url=(\S+) consent_url=(\S+)/);
const [, baseUrl, authUrl, consentUrl] = ready;
const common = ['--state-dir', stateDir, '--web-root', join(stateDir, 'web'), '--base-url', baseUrl, '--auth-url', authUrl,
  '--consent-url', consentUrl, '--scope', 'users.all:read rooms.all:read_write'];
await start([join(bin, 'roomkey-helper'), 'serve', '--port', String(browserPort), ...common, '--client-id', 'roomkey-web'],
  /roomkey: app at/);
await start([join(bin, 'roomkey-helper'), 'serve', '--port', String(bffPort), ...common, '--client-id', 'roomkey-bff-bench',
  '--client-type', 'confidential', '--client-secret-file', join(stateDir, 'secret'), '--session', 'bff'], /roomkey: app at/);

// --- HTTPS with keep-alive, trusting the local CA ------------------------------------
const ca = readFileSync(join(stateDir, 'ca-cert.pem'));
const agents = new Map();
function send(port, method, path, headers = {}, body = '') {
  if (!agents.has(port)) agents.set(port, new Agent({ keepAlive: true, maxSockets: 1, ca }));
  return new Promise((done, fail) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers: { ...headers, 'Content-Length': Buffer.byteLength(body) },
      agent: agents.get(port) }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => { text += d; });
      res.on('end', () => done({ status: res.statusCode, headers: res.headers, body: text }));
    });
    req.on('error', fail);
    req.end(body);
  });
}
const cookieOf = (res, name) => (res.headers['set-cookie'] || []).map((c) => c.split(';')[0])
  .find((c) => c.startsWith(name + '='));
const hidden = (html, name) => (html.match(new RegExp(`name="${name}" value="([^"]*)"`)) || [])[1] || '';
const form = (fields) => new URLSearchParams(fields).toString();
const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };

// The sandbox's login, once (its session cookie is the browser's).
let sandboxCookie = '';
{
  const login = await send(sandboxPort, 'POST', '/login', FORM,
    form({ login: 'alice@example.com', password: 'alice-demo', next: '/clients' }));
  sandboxCookie = (login.headers['set-cookie'] || [])[0].split(';')[0];
}
// The consent page for `url` (absolute), then Allow: the Location back to the app.
async function consent(url) {
  const u = new URL(url);
  const page = await send(sandboxPort, 'GET', u.pathname + u.search, { Cookie: sandboxCookie });
  if (page.status !== 200) throw new Error(`consent page: ${page.status}`);
  const allow = await send(sandboxPort, 'POST', '/consent', { ...FORM, Cookie: sandboxCookie },
    form({ request: hidden(page.body, 'request'), csrf: hidden(page.body, 'csrf'), decision: 'allow' }));
  return new URL(allow.headers.location);
}

// --- one sign-in of each mode ----------------------------------------------------------
const APP = { 'X-Roomkey-Request': '1' };
async function browserSignIn() {
  const t0 = performance.now();
  const verifier = b64url(randomBytes(32));
  const challenge = b64url(createHash('sha256').update(verifier).digest());
  const state = b64url(randomBytes(32));
  const redirect = `https://127.0.0.1:${browserPort}/callback`;
  const back = await consent(`${consentUrl}?${form({ response_type: 'code', client_id: 'roomkey-web', redirect_uri: redirect,
    scope: 'users.all:read rooms.all:read_write', state, code_challenge: challenge, code_challenge_method: 'S256' })}`);
  await send(browserPort, 'GET', back.pathname + back.search);  // the page at the redirect URI
  const token = await send(browserPort, 'POST', '/oauth/token', { ...APP, ...FORM }, form({ grant_type: 'authorization_code',
    code: back.searchParams.get('code'), redirect_uri: redirect, code_verifier: verifier, client_id: 'roomkey-web' }));
  if (token.status !== 200) throw new Error(`token: ${token.status} ${token.body}`);
  return { ms: performance.now() - t0, auth: { ...APP, Authorization: `Bearer ${JSON.parse(token.body).access_token}` } };
}
async function bffSignIn() {
  const t0 = performance.now();
  const nav = { 'Sec-Fetch-Site': 'same-origin', 'Sec-Fetch-Mode': 'navigate' };
  const login = await send(bffPort, 'GET', '/bff/login', nav);
  const loginCookie = cookieOf(login, '__Host-roomkey_login');
  const back = await consent(login.headers.location);
  const done = await send(bffPort, 'GET', back.pathname + back.search, { ...nav, Cookie: loginCookie });
  const session = cookieOf(done, '__Host-roomkey_session');
  if (done.status !== 303 || !session) throw new Error(`callback: ${done.status} ${done.headers.location}`);
  return { ms: performance.now() - t0, auth: { ...APP, Origin: `https://127.0.0.1:${bffPort}`, Cookie: session } };
}

const signIn = { browser: [], bff: [] };
let browserAuth;
let bffAuth;
for (let i = 0; i < rounds; i++) {
  const order = i % 2 ? ['bff', 'browser'] : ['browser', 'bff'];
  for (const mode of order) {
    const r = mode === 'browser' ? await browserSignIn() : await bffSignIn();
    signIn[mode].push(r.ms);
    if (mode === 'browser') browserAuth = r.auth; else bffAuth = r.auth;
  }
}

// --- API round trips ---------------------------------------------------------------------
const api = { browser: [], bff: [] };
for (let i = 0; i < calls; i++) {
  for (const [mode, port, auth] of [['browser', browserPort, browserAuth], ['bff', bffPort, bffAuth]]) {
    const t0 = performance.now();
    const res = await send(port, 'GET', '/api/me', auth);
    const ms = performance.now() - t0;
    if (res.status !== 200) throw new Error(`${mode} /api/me: ${res.status} ${res.body}`);
    if (i > 0) api[mode].push(ms);  // the first opens the connection
  }
}

const figures = {
  sign_in_ms: { browser: median(signIn.browser), bff: median(signIn.bff) },
  api_me_ms: { browser: median(api.browser), bff: median(api.bff) },
  rounds, calls,
};
if (asJson) {
  console.log(JSON.stringify(figures));
} else {
  const row = (name, f) => console.log(`${name.padEnd(28)} ${f.browser.toFixed(2).padStart(9)} ${f.bff.toFixed(2).padStart(9)}   ${(f.bff / f.browser).toFixed(2)}x`);
  console.log(`medians, ms                   browser       bff   bff/browser`);
  row(`sign-in (${rounds} each)`, figures.sign_in_ms);
  row(`GET /api/me (${calls - 1} each)`, figures.api_me_ms);
}
process.exit(0);
