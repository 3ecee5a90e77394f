// slow_clients.mjs: what slow and idle clients do to a user's requests, for
// roomkey-helper and for the generated nginx front (scripts/nginx-front.sh)
// in the same run: from 127.0.0.2 (another peer), 200 connections that send
// a TLS record header and then a byte every 200 ms, and 500 that send
// nothing, each reopened when the server closes it; meanwhile a user on
// 127.0.0.1 sends GET / on a new TLS connection every 50 ms. Prints, per
// front, the median and p99 of that GET without and with the slow clients,
// and how many failed (no answer within 15 s).
//
//   node bench/slow_clients.mjs [--helper build/native/bin/roomkey-helper] [--requests 200]
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, writeFileSync, rmSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../tests/support/free_port.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
if (args.includes('--help')) {
  console.log(readFileSync(new URL(import.meta.url), 'utf8').split('\n').filter((l) => l.startsWith('//'))
    .map((l) => l.slice(3)).join('\n'));
  process.exit(0);
}
const helper = option('--helper', 'build/native/bin/roomkey-helper');
const requests = Number(option('--requests', '200'));
const work = mkdtempSync(join(tmpdir(), 'roomkey-slow-'));
writeFileSync(join(work, 'index.html'), '<!doctype html>\n');
chmodSync(work, 0o755);  // nginx's workers (nobody, when run as root) read the web root
const children = [];
let warned = 0;

function start(command, argv, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      if (/roomkey: app at/.test(out)) resolve(child);
    });
    child.on('exit', (code) => reject(new Error(`${command} ended (${code}) before its ready line`)));
  });
}

function get(port, ca) {
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    const req = request({ host: '127.0.0.1', port, path: '/', ca, servername: 'localhost', agent: false,
      headers: { Host: `127.0.0.1:${port}` }, timeout: 15000 }, (res) => {
      res.resume();
      res.on('end', () => {
        if (res.statusCode !== 200 && !warned++) console.error(`GET / on ${port}: ${res.statusCode}`);
        resolve(res.statusCode === 200 ? Number(process.hrtime.bigint() - started) / 1e6 : null);
      });
    });
    // 15 s from the start, whatever happened by then (an idle-socket timeout
    // alone left a request to a server that never answered pending for good).
    const deadline = setTimeout(() => { req.destroy(); resolve(null); }, 15000);
    req.on('close', () => clearTimeout(deadline));
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(null));
    req.end();
  });
}

function slowClients(port, idle, drip) {
  let stopped = false;
  const sockets = new Set();
  const open = (dripping) => {
    if (stopped) return;
    const s = connect({ host: '127.0.0.1', port, localAddress: '127.0.0.2' });
    sockets.add(s);
    let timer;
    s.on('connect', () => {
      if (!dripping) return;
      s.write(Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00]));
      timer = setInterval(() => s.write(Buffer.from([0])), 200);
    });
    s.on('data', () => {});
    s.on('error', () => {});
    s.on('close', () => {
      clearInterval(timer);
      sockets.delete(s);
      setTimeout(() => open(dripping), 50);
    });
  };
  for (let i = 0; i < idle; i++) open(false);
  for (let i = 0; i < drip; i++) open(true);
  return () => { stopped = true; for (const s of sockets) s.destroy(); };
}

async function measure(port, ca) {
  const times = [];
  let failed = 0;
  for (let i = 0; i < requests; i++) {
    const ms = await get(port, ca);
    if (ms === null) failed++; else times.push(ms);
    await new Promise((r) => setTimeout(r, 50));
  }
  times.sort((a, b) => a - b);
  const at = (q) => (times.length ? times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(1) : '-');
  return { median: at(0.5), p99: at(0.99), failed };
}

try {
  const state = join(work, 'state');
  const base = ['--state-dir', state, '--web-root', work];
  const ports = { helper: await freePort(), nginx: await freePort() };
  await start(helper, ['serve', '--port', String(ports.helper), ...base]);
  await start('scripts/nginx-front.sh', ['--port', String(ports.nginx), ...base], { ROOMKEY_HELPER: helper });
  const ca = readFileSync(join(state, 'ca-cert.pem'));
  console.log(`GET / (ms), ${requests} requests each, one every 50 ms on a new TLS connection; helper: ${helper}`);
  console.log('front    alone: median  p99    | with 200 slow-drip + 500 idle: median  p99      failed');
  for (const front of ['helper', 'nginx']) {
    const alone = await measure(ports[front], ca);
    const stop = slowClients(ports[front], 500, 200);
    await new Promise((r) => setTimeout(r, 2000));  // the slow clients in place
    const beside = await measure(ports[front], ca);
    stop();
    console.log(`${front.padEnd(8)} ${alone.median.padStart(13)} ${alone.p99.padStart(6)} | ` +
      `${beside.median.padStart(37)} ${beside.p99.padStart(8)} ${String(beside.failed).padStart(8)}`);
  }
} finally {
  for (const c of children) c.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 500));
  rmSync(work, { recursive: true, force: true });
}
