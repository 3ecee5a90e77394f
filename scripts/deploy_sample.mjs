#!/usr/bin/env node
// deploy_sample.mjs: the sample roomkey.conf in docs/deploy.md ("A generated
// configuration") is the generator's own output, so it cannot drift from it.
//
//   node scripts/deploy_sample.mjs [--helper BIN]           rewrite the sample in docs/deploy.md
//   node scripts/deploy_sample.mjs [--helper BIN] --check   exit 1 if the sample is not what
//                                                           `roomkey-helper nginx-config` writes
//                                                           (a ctest runs this)
//
// The sample: a public client against the sandbox on 127.0.0.1:8444, nginx
// on 127.0.0.1:8443, the brotli module on. The paths of this machine's
// temporary folders are written as a user's (/home/you/..., /srv/roomkey/web),
// and the API locations are cut after the first three (one per path
// template in shared/'s table) at a marker line.
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const docPath = join(root, 'docs/deploy.md');
const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  console.log(readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n').slice(1, 14)
    .map((l) => l.replace(/^\/\/ ?/, '')).join('\n'));
  process.exit(0);
}
const check = args.includes('--check');
const at = args.indexOf('--helper');
const helper = at >= 0 ? args[at + 1] : join(root, 'build/native/bin/roomkey-helper');
const KEPT_API_LOCATIONS = 3;
const CUT = '        # ... one location per remaining path template of the endpoint table ...';

function generate() {
  const tmp = mkdtempSync(join(tmpdir(), 'roomkey-deploy-sample-'));
  try {
    const web = join(tmp, 'web');
    mkdirSync(web);
    writeFileSync(join(web, 'index.html'), '<!doctype html>\n');
    const sandbox = 'https://127.0.0.1:8444';
    const run = spawnSync(helper, ['nginx-config', '--port', '8443', '--state-dir', join(tmp, 'state'),
      '--out', join(tmp, 'out'), '--web-root', web, '--access-log', join(tmp, 'out/access.log'), '--brotli', 'on',
      '--base-url', `${sandbox}/v2`, '--auth-url', `${sandbox}/oauth`, '--consent-url', `${sandbox}/consent`,
      '--client-id', 'roomkey-web', '--client-type', 'public'],
    { encoding: 'utf8', env: { ...process.env, HOME: tmp } });
    if (run.status !== 0) throw new Error(`${helper} nginx-config failed (${run.status}):\n${run.stderr}${run.error || ''}`);
    const text = readFileSync(join(tmp, 'out/roomkey.conf'), 'utf8')
      .split(`${tmp}/state`).join('/home/you/.local/state/roomkey/state')
      .split(`${tmp}/out`).join('/home/you/.local/state/roomkey/out')
      .split(web).join('/srv/roomkey/web');
    if (text.includes(tmp)) throw new Error(`a temporary path is left in the sample: ${tmp}`);
    return cut(text);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

// Keeps the first KEPT_API_LOCATIONS API locations: each starts with
// `location ~ "^/api(` and ends at the line `        }` at its depth.
function cut(text) {
  const lines = text.replace(/\n$/, '').split('\n');
  const starts = lines.map((l, i) => (/^ {8}location ~ "\^\/api\(/.test(l) ? i : -1)).filter((i) => i >= 0);
  if (starts.length <= KEPT_API_LOCATIONS) return lines.join('\n');
  const from = starts[KEPT_API_LOCATIONS];
  let to = from;
  for (let i = starts[starts.length - 1]; i < lines.length; i++) {
    if (lines[i] === '        }') { to = i; break; }
  }
  return [...lines.slice(0, from), CUT, ...lines.slice(to + 1)].join('\n');
}

const doc = readFileSync(docPath, 'utf8');
const heading = doc.indexOf('## A generated configuration');
const open = doc.indexOf('```nginx\n', heading);
const close = doc.indexOf('\n```', open + 9);
if (heading < 0 || open < 0 || close < 0) {
  console.error('deploy_sample: docs/deploy.md has no ```nginx block under "## A generated configuration"');
  process.exit(2);
}
const sample = generate();
const current = doc.slice(open + 9, close);
if (check) {
  if (current === sample) process.exit(0);
  const a = current.split('\n'); const b = sample.split('\n');
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  console.error(`deploy_sample: docs/deploy.md's sample differs from nginx-config's output at its line ${i + 1}:\n` +
    `  docs:      ${a[i] ?? '(end)'}\n  generator: ${b[i] ?? '(end)'}\n` +
    'regenerate it: node scripts/deploy_sample.mjs (after building roomkey-helper)');
  process.exit(1);
}
writeFileSync(docPath, doc.slice(0, open + 9) + sample + doc.slice(close));
console.log(current === sample ? 'docs/deploy.md: the sample was current' : 'docs/deploy.md: sample regenerated');
