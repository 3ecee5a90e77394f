#!/usr/bin/env node
// conformance.mjs: writes docs/conformance.md, the table "spec rule -> tests",
// from the tests themselves, so it cannot drift from them.
//
//   node scripts/conformance.mjs           rewrite docs/conformance.md
//   node scripts/conformance.mjs --check   exit 1 if docs/conformance.md is not current
//                                          (a ctest runs this)
//
// A test cites a rule in its name (`..._spec8_2_7_3`, `Spec414...`) or in a
// comment above it or inside its body (`// spec 4.3`, `spec 2.3 / 5.4.2`).
// Columns: unit tests of shared/ and of the app logic (native and under Node),
// integration tests of roomkey-helper and of roomkey-sandbox on real sockets,
// and the browser tests in Chromium.
import { readFileSync, writeFileSync, readdirSync, existsSync } from 'node:fs';
import { join, dirname, basename } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const docPath = join(root, 'docs/conformance.md');
const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  console.log(readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n').slice(1, 13)
    .map((l) => l.replace(/^\/\/ ?/, '')).join('\n'));
  process.exit(0);
}

// The numbered rules of spec sections 2, 4, 5, 7 and 8, in one line each.
const rules = [
  ['2.1', 'OAuth client registration: 1 to 5 redirect URIs; `https://` for confidential, not `http://` for public; at least 1 scope; `offline_access` only for confidential clients'],
  ['2.2', 'Authorization code: query parameter `code` on the redirect; valid for 1 minute'],
  ['2.3', 'Token set: access_token (30 min, Bearer), refresh_token (14 days; none with offline_access), token_type `Bearer`, expires_in, scope; `cache-control: no-store`, `pragma: no-cache`'],
  ['2.4', 'Token error body: error, error_description, error_uri (always null)'],
  ['2.5', 'GET /my/status record: six integer counters'],
  ['2.6', 'GET /me record: account_id (integer); other records\' fields not shown'],
  ['2.7', 'API error body: `errors` array of strings'],
  ['4.1.1', 'HTTPS only; plain HTTP ends in a connection error'],
  ['4.1.2', 'Every REST request carries an API token or an OAuth access token'],
  ['4.1.3', 'POST/PUT bodies are `application/x-www-form-urlencoded`'],
  ['4.1.4', 'Responses are JSON; success or failure is decided by the HTTP status'],
  ['4.1.5', 'Endpoint address = {base_url} + path'],
  ['4.2', 'Consent request: response_type=code, client_id, redirect_uri (registered; required with several), scope, state (compared on return), code_challenge (S256, 43-128 chars; required for public clients); allow -> code + state, deny -> error=access_denied + state'],
  ['4.3', 'Token endpoint: form body; Basic for confidential / client_id for public; authorization_code with code, redirect_uri (if sent before), code_verifier (if PKCE); refresh_token with refresh_token and scope; 200 JSON token set or error body'],
  ['4.4', 'GET /me'],
  ['4.5', 'GET /my/status'],
  ['4.6', 'POST /rooms/{room_id}/messages (per-room limit)'],
  ['4.7', 'POST /rooms/{room_id}/tasks (per-room limit)'],
  ['4.8', 'Other endpoints implied by the scope list (room list, ...)'],
  ['5.1.1', 'API token in the `x-servicetoken` header'],
  ['5.1.2', 'API token never in the URL query'],
  ['5.1.3', 'API token has no expiry, full access; never disclosed'],
  ['5.1.4', 'Wrong API token: 401 with an `errors` invalid-token message'],
  ['5.2.1', 'Access token as `Authorization: Bearer <token>` (replaces the API token header)'],
  ['5.2.2', 'Expired/invalid access token: 401 with `WWW-Authenticate: Bearer error="invalid_token", error_description=...`'],
  ['5.2.3', 'Access token lifetime 30 minutes; renewed with the refresh token'],
  ['5.3', 'Client authentication at the token endpoint (see 4.3)'],
  ['5.4.1', 'PKCE S256 allowed for all clients, mandatory for public clients'],
  ['5.4.2', 'Without offline_access the refresh token stops working after 14 days'],
  ['5.4.3', 'offline_access (confidential only): refresh token without expiry'],
  ['5.4.4', 'offline_access alone gives no API access'],
  ['5.5', 'Scope catalog and aggregate scopes'],
  ['7.1', 'Consent-screen error codes 1001 ... 20000'],
  ['7.2', 'Token endpoint errors: error (e.g. invalid_grant), error_description, error_uri null'],
  ['7.3', 'REST errors: 401 wrong API token, 401 WWW-Authenticate, 429 overall (headers, remaining 0), 429 per-room message; wait ~10 s after the per-room error'],
  ['8.1', '300 requests / 5 minutes; x-ratelimit-limit / -remaining / -reset on every response; 429 when exceeded'],
  ['8.2', 'Per room: at most 10 POST messages + POST tasks per 10 seconds, counted together; 429 when exceeded'],
  ['8.3', 'OAuth constants: code 1 min, access 30 min, refresh 14 days, 1-5 redirect URIs, >= 1 scope, PKCE 43-128'],
];
const known = new Set(rules.map(([id]) => id));
// Sections that have numbered rules: citing the section counts for the section.
const sections = new Set(['4.1', '5.1', '5.2', '5.4']);

// "4_2_7_1_3001" / "414" -> rule ids. Underscore-separated numbers are read
// greedily (three parts when that is a rule, else two); a run of digits
// without separators is one rule ("414" -> 4.1.4, "73" -> 7.3). Four-digit and
// longer numbers are error codes, not rules.
function rulesFromDigits(text) {
  const out = [];
  if (!text.includes('_')) {
    if (text.length === 3 && known.has(text.split('').join('.'))) out.push(text.split('').join('.'));
    else if (text.length >= 2 && text.length <= 3) out.push(`${text[0]}.${text[1]}`);
    return out;
  }
  const parts = text.split('_').filter(Boolean);
  for (let i = 0; i < parts.length;) {
    if (parts[i].length > 2) { i += 1; continue; }
    const three = parts.slice(i, i + 3).join('.');
    const two = parts.slice(i, i + 2).join('.');
    if (i + 2 < parts.length && known.has(three)) { out.push(three); i += 3; } else if (i + 1 < parts.length) { out.push(two); i += 2; } else { i += 1; }
  }
  return out;
}

// Every rule id cited in a piece of text (comments and names).
function citations(text, name) {
  const found = new Set();
  for (const m of text.matchAll(/\bspec\s+((?:\d+(?:\.\d+)+(?:\s*(?:,|\/|and|\+)\s*)?)+)/gi)) {
    for (const id of m[1].match(/\d+(?:\.\d+)+/g)) found.add(id);
  }
  for (const m of name.matchAll(/_spec((?:_?\d+)+)/gi)) rulesFromDigits(m[1]).forEach((id) => found.add(id));
  for (const m of name.matchAll(/Spec(\d{2,3})(?!\d)/g)) rulesFromDigits(m[1]).forEach((id) => found.add(id));
  return found;
}

function listFiles(dir, suffix) {
  const full = join(root, dir);
  if (!existsSync(full)) return [];
  return readdirSync(full).filter((f) => f.endsWith(suffix)).sort().map((f) => join(full, f));
}

// GoogleTest files: each TEST/TEST_F/TEST_P with its leading comment and body.
function gtestCases(file) {
  const lines = readFileSync(file, 'utf8').split('\n');
  const starts = [];
  lines.forEach((line, i) => {
    const m = line.match(/^\s*TEST(?:_F|_P)?\(\s*(\w+)\s*,\s*(\w+)\s*\)/);
    if (m) starts.push({ i, name: `${m[1]}.${m[2]}` });
  });
  return starts.map((s, k) => {
    let c = s.i - 1;
    while (c >= 0 && /^\s*\/\//.test(lines[c])) c -= 1;
    const end = k + 1 < starts.length ? starts[k + 1].i : lines.length;
    // Comments after the body (section banners, the next test's comment)
    // are not this test's.
    let bodyEnd = end - 1;
    while (bodyEnd > s.i && /^\s*(\/\/.*)?$/.test(lines[bodyEnd])) bodyEnd -= 1;
    const text = lines.slice(c + 1, bodyEnd + 1).join('\n');
    return { name: s.name, cited: citations(text, s.name) };
  });
}

// node:test files: each test('title', ...) with its body, also inside a
// describe() and as appOnlyTest (tests/e2e/support.mjs).
function nodeTestCases(file) {
  const text = readFileSync(file, 'utf8');
  const marks = [...text.matchAll(/^\s*(?:test|appOnlyTest)\((['"`])(.*?)\1/gm)];
  const label = basename(file).replace(/\.e2e\.mjs$/, '');
  return marks.map((m, k) => {
    const end = k + 1 < marks.length ? marks[k + 1].index : text.length;
    return { name: `${label}: ${m[2]}`, cited: citations(text.slice(m.index, end), '') };
  });
}

const columns = [
  { title: 'Unit tests (native + Node)', cases: [...listFiles('tests/unit', '_test.cpp'), ...listFiles('tests/unit/native', '_test.cpp')].flatMap(gtestCases) },
  { title: 'Helper integration', cases: listFiles('tests/integration', '_test.cpp').filter((f) => basename(f).startsWith('helper_')).flatMap(gtestCases) },
  { title: 'Sandbox integration', cases: listFiles('tests/integration', '_test.cpp').filter((f) => basename(f).startsWith('sandbox_')).flatMap(gtestCases) },
  { title: 'Browser (Chromium)', cases: listFiles('tests/e2e', '.e2e.mjs').flatMap(nodeTestCases) },
];

const cell = (names) => (names.length ? names.map((n) => `\`${n.replace(/`/g, "'")}\``).join('<br>') : '-');
const citing = (column, id) => column.cases.filter((c) => c.cited.has(id)).map((c) => c.name).sort();

const out = [];
out.push('# Conformance: spec rule -> tests', '');
out.push('Which tests check each numbered rule of sections 2, 4, 5, 7 and 8 of the service');
out.push('spec (`shared/seeds/000_27931bdbb95f9e6c.txt` in the parent folder). A test counts');
out.push('for a rule when it cites it: in its name (`..._spec8_2_7_3`, `Spec414...`) or in a');
out.push('comment above it or in its body (`// spec 4.3`). **Generated** by');
out.push('`node scripts/conformance.mjs` from the test sources; the ctest');
out.push('`docs.conformance_is_current` fails when this page is out of date.', '');
out.push('Columns: unit tests of `shared/` and of the app logic (one suite, run natively and');
out.push('compiled to wasm under Node); integration tests of roomkey-helper and of');
out.push('roomkey-sandbox on real sockets (the Sandbox column is the sandbox enforcing the');
out.push('rule against a client that breaks it); end-to-end tests in headless Chromium.', '');
out.push(`| Rule | What the spec says | ${columns.map((c) => c.title).join(' | ')} |`);
out.push(`|---|---|${columns.map(() => '---').join('|')}|`);
const uncited = [];
for (const [id, text] of rules) {
  const cells = columns.map((c) => citing(c, id));
  if (cells.every((names) => names.length === 0)) uncited.push(id);
  out.push(`| ${id} | ${text} | ${cells.map(cell).join(' | ')} |`);
}
out.push('', 'Tests that cite a whole section rather than one of its numbered rules:', '');
out.push(`| Section | ${columns.map((c) => c.title).join(' | ')} |`);
out.push(`|---|${columns.map(() => '---').join('|')}|`);
for (const id of [...sections].sort()) {
  out.push(`| ${id} (whole section) | ${columns.map((c) => cell(citing(c, id))).join(' | ')} |`);
}
out.push('', `Rules no test cites yet: ${uncited.length ? uncited.join(', ') : 'none'}.`);
const other = new Set();
for (const c of columns) for (const t of c.cases) for (const id of t.cited) if (!known.has(id) && !sections.has(id)) other.add(id);
out.push('', `Citations of other sections (outside 2, 4, 5, 7, 8 or not numbered in the spec): ${[...other].sort().join(', ') || 'none'}.`, '');
const doc = out.join('\n');

if (args.includes('--check')) {
  const current = existsSync(docPath) ? readFileSync(docPath, 'utf8') : '';
  if (current !== doc) {
    console.error('docs/conformance.md is out of date with the tests. Regenerate it: node scripts/conformance.mjs');
    process.exit(1);
  }
  console.log(`docs/conformance.md is current (${rules.length} rules, ${uncited.length} not cited).`);
} else {
  writeFileSync(docPath, doc);
  console.log(`wrote docs/conformance.md (${rules.length} rules; not cited: ${uncited.join(', ') || 'none'})`);
}
