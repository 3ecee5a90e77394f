#!/usr/bin/env node
// i18n.mjs: the language catalog's build step and its check (docs/i18n.md).
//
//   node scripts/i18n.mjs --generate <out.cpp> [--prefix p.] [--skip p.]
//        writes the C++ tables web/app/i18n.cpp reads, from web/i18n/*.json
//        (the build runs it; the output lives in the build tree only)
//   node scripts/i18n.mjs --check
//        exit 1 when the Japanese catalog lacks a key of the English one,
//        when a catalog entry is malformed, when code names a key that is not
//        in the English catalog, or when a file of web/src or web/app that is
//        not on the "not converted yet" list holds a user-visible string
//        literal (a ctest runs this: i18n.catalog_is_complete)
//
// A catalog is one JSON object per language: "key": "text", or for a count
// "key": {"one": "...", "other": "..."} (the categories of Intl.PluralRules).
// Placeholders are {name}. English (en.json) is the reference: every key is
// there; another language may lack a key only when the check allows it
// (it never does for ja).
import { readFileSync, writeFileSync, readdirSync, mkdirSync } from 'node:fs';
import { join, dirname, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const catalogDir = join(root, 'web/i18n');
// The languages compiled in, in the order of i18n::Lang (web/app/i18n.hpp).
const LANGS = ['en', 'ja'];
const PLURAL_CATEGORIES = ['zero', 'one', 'two', 'few', 'many', 'other'];
const KEY = /^[a-z0-9_]+(\.[a-z0-9_]+)+$/;

// Files whose user-visible strings are not in the catalog yet. The check
// prints this list; a file leaves it when it is converted, and a file not on
// it fails the check for any literal user string.
const NOT_CONVERTED = [
  'web/app/api_console.cpp',
  'web/app/app_detail.hpp',
  'web/app/app_helper.cpp',
  'web/app/app_http.cpp',
  'web/app/app_intents.cpp',
  'web/app/app_rest.cpp',
  'web/app/app_session.cpp',
  'web/app/bff_flow_steps.cpp',
  'web/app/bff_panel.cpp',
  'web/app/bff_session.cpp',
  'web/app/builtin_font.cpp',
  'web/app/canvas_readback.cpp',
  'web/app/console.cpp',
  'web/app/feature.hpp',
  'web/app/flow_steps.cpp',
  'web/app/helper_watch.cpp',
  'web/app/http_log.cpp',
  'web/app/open_room.cpp',
  'web/app/post_outcome.cpp',
  'web/app/posting.cpp',
  'web/app/room_view.cpp',
  'web/app/scope_help.cpp',
  'web/app/scope_refresh.cpp',
  'web/app/session_shown.cpp',
  'web/app/sign_in.cpp',
  'web/app/time_text.cpp',
  'web/app/trace.cpp',
  'web/app/view_answer.cpp',
  'web/app/workspace.cpp',
  'web/src/a11y.cpp',
  'web/src/browser_font.cpp',
  'web/src/canvas_painter.cpp',
  'web/src/main.cpp',
  'web/src/ui_composer.cpp',
  'web/src/ui_console.cpp',
  'web/src/ui_conversation.cpp',
  'web/src/ui_details.cpp',
  'web/src/ui_http_log.cpp',
  'web/src/ui_message_body.cpp',
  'web/src/ui_posting.cpp',
  'web/src/ui_room.cpp',
  'web/src/ui_sign_in.cpp',
  'web/src/ui_widgets.cpp',
  'web/src/ui_workspace.cpp',
];

function readCatalog(lang) {
  const path = join(catalogDir, `${lang}.json`);
  let data;
  try {
    data = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new Error(`${relative(root, path)}: not valid JSON (${e.message})`);
  }
  const problems = [];
  const flat = new Map();  // "key" or "key#category" -> text
  for (const [key, value] of Object.entries(data)) {
    if (!KEY.test(key)) {
      problems.push(`${lang}.json: key "${key}" must be dotted lower-case words, e.g. "composer.send"`);
      continue;
    }
    if (typeof value === 'string') {
      flat.set(key, value);
    } else if (value && typeof value === 'object' && !Array.isArray(value)) {
      if (typeof value.other !== 'string') problems.push(`${lang}.json: "${key}" is a count and needs an "other" form`);
      for (const [category, text] of Object.entries(value)) {
        if (!PLURAL_CATEGORIES.includes(category) || typeof text !== 'string') {
          problems.push(`${lang}.json: "${key}": "${category}" is not a plural category (${PLURAL_CATEGORIES.join(', ')}) with a text`);
        } else {
          flat.set(`${key}#${category}`, text);
        }
      }
    } else {
      problems.push(`${lang}.json: "${key}" must be a text or an object of plural forms`);
    }
  }
  return { data, flat, problems };
}

function placeholders(text) {
  return [...text.matchAll(/\{([a-z_][a-z0-9_]*)\}/g)].map((m) => m[1]).sort();
}

function cString(text) {
  let out = '"';
  for (const byte of Buffer.from(text, 'utf8')) {
    if (byte === 0x22) out += '\\"';
    else if (byte === 0x5c) out += '\\\\';
    else if (byte >= 0x20 && byte < 0x7f && byte !== 0x3f) out += String.fromCharCode(byte);  // '?' : no trigraphs
    else out += '\\' + byte.toString(8).padStart(3, '0');
  }
  return out + '"';
}

function generate(out, prefix, skip) {
  const catalogs = LANGS.map((lang) => readCatalog(lang));
  const problems = catalogs.flatMap((c) => c.problems);
  if (problems.length) throw new Error(problems.join('\n'));
  const keep = (key) => (!prefix || key.startsWith(prefix)) && !(skip && key.startsWith(skip));
  // Sorted by bytes: i18n.cpp finds a key by binary search with strcmp order.
  const keys = [...catalogs[0].flat.keys()].filter(keep).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const lines = [
    '// Generated by scripts/i18n.mjs from web/i18n/*.json: do not edit, do not commit.',
    '#include <cstddef>',
    'namespace roomkey::app::i18n::detail {',
    `extern const std::size_t kEntryCount = ${keys.length};`,
    `extern const char* const kKeys[] = {${keys.length ? '' : 'nullptr'}`,
    ...keys.map((k) => `    ${cString(k)},`),
    '};',
    `extern const char* const kTexts[][${LANGS.length}] = {${keys.length ? '' : '{}'}`,
    ...keys.map((k) => `    {${catalogs.map((c) => (c.flat.has(k) ? cString(c.flat.get(k)) : 'nullptr')).join(', ')}},`),
    '};',
    '}  // namespace roomkey::app::i18n::detail',
    '',
  ];
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, lines.join('\n'));
}

// ---- the check ----

function walk(dir) {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory()) return walk(path);
    return /\.(cpp|hpp)$/.test(e.name) ? [path] : [];
  });
}

// Files that hold no user-visible text by their nature: the page API (its
// names, values and its English answers to scripts stay English), the
// catalog's own code, and platform glue whose literals are JavaScript.
const NOT_UI = new Set([
  'web/app/intents.cpp', 'web/app/intents.hpp', 'web/app/page_state.cpp', 'web/app/views_state.cpp',
  'web/app/i18n.cpp', 'web/app/i18n.hpp',
]);

// Strips comments, keeps string literals with their line numbers.
function literals(source) {
  const out = [];
  let line = 1;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\n') { line++; continue; }
    if (c === '/' && source[i + 1] === '/') { while (i < source.length && source[i] !== '\n') i++; i--; continue; }
    if (c === '/' && source[i + 1] === '*') {
      const end = source.indexOf('*/', i + 2);
      for (const ch of source.slice(i, end)) if (ch === '\n') line++;
      i = end + 1;
      continue;
    }
    if (c === '\'') { i++; while (source[i] !== '\'') { if (source[i] === '\\') i++; i++; } continue; }
    if (c === 'R' && source[i + 1] === '"') {
      const open = source.indexOf('(', i);
      const delim = ')' + source.slice(i + 2, open) + '"';
      const end = source.indexOf(delim, open);
      const text = source.slice(open + 1, end);
      out.push({ line, text, at: i });
      for (const ch of text) if (ch === '\n') line++;
      i = end + delim.length - 1;
      continue;
    }
    if (c === '"') {
      let j = i + 1;
      let text = '';
      while (source[j] !== '"') {
        if (source[j] === '\\') {
          const esc = source[j + 1];
          j += 2;
          if (esc === 'x') { while (/[0-9A-Fa-f]/.test(source[j])) j++; text += '\u0001'; }
          else if (/[0-7]/.test(esc)) { while (/[0-7]/.test(source[j])) j++; text += '\u0001'; }
          else text += esc === 'n' || esc === 't' ? ' ' : esc;
          continue;
        }
        text += source[j++];
      }
      out.push({ line, text, at: i });
      i = j;
    }
  }
  return out;
}

// A literal a user reads: words (a letter run with a space or a capital and
// lower-case letters), not an ImGui id ("##x"), a format ("%s"), a JSON name,
// an HTTP header or a path. Wire words and identifiers have no capitals and
// no spaces, so they pass.
function userVisible(text) {
  const label = text.split('##')[0].trim();
  if (!/[A-Za-z]{2}/.test(label)) return false;
  if (/^((GET|POST|PUT|DELETE|PATCH) \/\S*(, )?)+$/.test(label)) return false;  // calls, as the spec names them
  if (/^[a-z0-9_.:\/\-+=&?#%{}\[\], *]*$/.test(label) && !/[a-z]{2,} [a-z]{2,}/.test(label)) return false;
  if (/^[A-Z][A-Za-z0-9]*(-[A-Z][A-Za-z0-9]*)+$/.test(label)) return false;  // HTTP header names
  if (/^[A-Z0-9_]+$/.test(label)) return false;  // GET, HTTP methods, constants
  if (/^https?:\/\//.test(label) || /^\//.test(label)) return false;  // addresses and paths
  return true;
}

// The line is exempt: an #include, a key given to tr(), EM_JS's JavaScript,
// a static_assert, or a line that says `// i18n: not shown` (with its why).
function exempt(source, lit) {
  const start = source.lastIndexOf('\n', lit.at) + 1;
  let end = source.indexOf('\n', lit.at);
  if (end < 0) end = source.length;
  const lineText = source.slice(start, end);
  if (/^\s*#\s*(include|error|pragma)/.test(lineText)) return true;
  if (/i18n: not shown/.test(lineText)) return true;
  if (/static_assert/.test(lineText)) return true;
  const before = source.slice(Math.max(0, lit.at - 12), lit.at);
  if (/\btr(_n)?\(\s*$/.test(before)) return true;
  return false;
}

function emJsRanges(source) {
  const ranges = [];
  for (const m of source.matchAll(/EM_(JS|ASM[A-Z_]*)\s*\(/g)) {
    let depth = 0;
    let i = m.index + m[0].length - 1;
    for (; i < source.length; i++) {
      if (source[i] === '(') depth++;
      else if (source[i] === ')' && --depth === 0) break;
    }
    ranges.push([m.index, i]);
  }
  return ranges;
}

function check() {
  const failures = [];
  const [en, ja] = LANGS.map((lang) => readCatalog(lang));
  failures.push(...en.problems, ...ja.problems);
  for (const key of Object.keys(en.data)) {
    if (!(key in ja.data)) failures.push(`ja.json lacks "${key}" (English: ${JSON.stringify(en.data[key])})`);
  }
  for (const key of Object.keys(ja.data)) {
    if (!(key in en.data)) failures.push(`ja.json has "${key}", which en.json does not: add it there or remove it`);
  }
  // A placeholder the Japanese text names must be one the English text fills.
  for (const [key, text] of ja.flat) {
    const base = key.split('#')[0];
    const enForms = [...en.flat].filter(([k]) => k === base || k.startsWith(base + '#')).map(([, t]) => t);
    const known = new Set(enForms.flatMap(placeholders));
    for (const name of placeholders(text)) {
      if (!known.has(name)) failures.push(`ja.json "${key}": {${name}} is filled by no English form of it`);
    }
  }
  const files = [...walk('web/src'), ...walk('web/app')].sort();
  for (const file of NOT_CONVERTED) {
    if (!files.includes(file)) failures.push(`NOT_CONVERTED lists ${file}, which does not exist: take it off`);
  }
  let literalCount = 0;
  for (const file of files) {
    const source = readFileSync(join(root, file), 'utf8');
    // Every key code names is in the English catalog (a literal key, not a
    // prefix the code completes at run time, as in tr("auth_error." + id)).
    for (const lit of literals(source)) {
      const call = /\btr(_n)?\(\s*$/.exec(source.slice(Math.max(0, lit.at - 12), lit.at));
      if (!call) continue;
      const after = source.slice(lit.at + 1 + lit.text.length).match(/^"\s*(.)/);
      if (after && after[1] === '+') continue;
      const key = lit.text;
      const plural = !!call[1];
      const known = Object.hasOwn(en.data, key) && (typeof en.data[key] === 'object') === plural;
      if (!known) {
        failures.push(`${file}:${lit.line}: ${call[0]}"${key}"): "${key}" is not ${plural ? 'a count' : 'a text'} in web/i18n/en.json`);
      }
    }
    if (NOT_UI.has(file) || NOT_CONVERTED.includes(file)) continue;
    const js = emJsRanges(source);
    for (const lit of literals(source)) {
      if (js.some(([a, b]) => lit.at > a && lit.at < b)) continue;
      if (!userVisible(lit.text) || exempt(source, lit)) continue;
      literalCount++;
      failures.push(`${file}:${lit.line}: "${lit.text}" is shown to the user: put it in web/i18n/en.json and ja.json ` +
                    'and write tr("key") (docs/i18n.md), or mark the line `// i18n: not shown (why)`');
    }
  }
  console.log(`i18n: ${Object.keys(en.data).length} entries in en.json, ${Object.keys(ja.data).length} in ja.json`);
  console.log(`i18n: ${files.length - NOT_CONVERTED.length} of ${files.length} files in web/src and web/app checked` +
              ` for literal user strings (${literalCount} found)`);
  if (NOT_CONVERTED.length) {
    console.log(`i18n: not converted yet (${NOT_CONVERTED.length}), not checked for literals:`);
    for (const file of NOT_CONVERTED) console.log(`  ${file}`);
  }
  if (failures.length) {
    console.log(failures.join('\n'));
    process.exitCode = 1;  // not exit(): it would cut a long report short on a pipe
    return;
  }
  console.log('i18n: ok');
}

const args = process.argv.slice(2);
const option = (name) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined; };
try {
  if (args.includes('--generate')) generate(option('--generate'), option('--prefix'), option('--skip'));
  else if (args.includes('--check')) check();
  else { console.error('usage: node scripts/i18n.mjs --generate <out.cpp> [--prefix p.] [--skip p.] | --check'); process.exit(2); }
} catch (e) {
  console.error(`i18n: ${e.message}`);
  process.exit(1);
}
