// tls_audit_table.mjs: the compact table bench/tls_audit.sh prints from
// testssl.sh's JSON findings (--jsonfile: a flat list of {id, severity,
// finding}), one column per file DIR/<column>.json.
//
//   node bench/tls_audit_table.mjs DIR COLUMN...
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const [dir, ...columns] = process.argv.slice(2);
const findings = columns.map((c) => {
  const byId = new Map();
  for (const f of JSON.parse(readFileSync(join(dir, `${c}.json`), 'utf8'))) byId.set(f.id, f);
  return byId;
});

const rows = [];
const section = (title) => rows.push([`-- ${title}`]);
const row = (label, cell) => rows.push([label, ...findings.map((f) => cell(f) ?? '-')]);

section('protocols');
for (const [id, label] of [['SSLv2', 'SSLv2'], ['SSLv3', 'SSLv3'], ['TLS1', 'TLS 1.0'], ['TLS1_1', 'TLS 1.1'],
  ['TLS1_2', 'TLS 1.2'], ['TLS1_3', 'TLS 1.3']]) {
  row(label, (f) => f.get(id) && (/not offered/.test(f.get(id).finding) ? 'no' : 'offered'));
}
section('suites offered (testssl -E)');
const suites = new Map();  // "TLS 1.2 NAME" in the order first seen
for (const f of findings) {
  for (const [id, v] of f) {
    if (!id.startsWith('cipher-tls1_') && !id.startsWith('cipher-ssl')) continue;
    const words = v.finding.trim().split(/\s+/);  // "TLS 1.2 xc02c NAME ..."
    suites.set(`${words[0]} ${words[1]} ${words[3]}`, id);
  }
}
for (const [name, id] of suites) row(name, (f) => (f.has(id) ? 'yes' : undefined));
row('suites in all', (f) => String([...f.keys()].filter((k) => /^cipher-(tls|ssl)/.test(k)).length));
section('server order');
row('has server cipher order', (f) => f.get('cipher_order')?.finding);
row('negotiated', (f) => f.get('cipher_negotiated')?.finding.split(',')[0]);
section('vulnerabilities (testssl -U; "ok" = not vulnerable)');
for (const id of ['heartbleed', 'CCS', 'ticketbleed', 'ROBOT', 'secure_renego', 'secure_client_renego', 'CRIME_TLS',
  'BREACH', 'POODLE_SSL', 'fallback_SCSV', 'SWEET32', 'FREAK', 'DROWN', 'LOGJAM', 'BEAST', 'LUCKY13', 'RC4']) {
  row(id, (f) => {
    const v = f.get(id);
    if (!v) return undefined;
    if (v.severity === 'OK' || v.severity === 'INFO') return 'ok';
    return `${v.severity}: ${v.finding.replace(/ - only supplied.*|potentially |VULNERABLE, |vulnerable, /gi, '').slice(0, 30)}`;
  });
}
section('headers (testssl -h, GET /)');
row('HTTP status', (f) => f.get('HTTP_status_code')?.finding.replace(/ \(.*/, ''));
for (const id of ['HSTS', 'X-Frame-Options', 'X-Content-Type-Options', 'Content-Security-Policy', 'Referrer-Policy',
  'Cache-Control', 'banner_server']) {
  row(id, (f) => {
    const v = f.get(id);
    if (!v) return undefined;
    return v.finding.length > 24 ? `${v.finding.slice(0, 21)}...` : v.finding;
  });
}

const cells = rows.filter((r) => r.length > 1);
const width = [Math.max(...cells.map((r) => r[0].length)), ...columns.map((c, i) =>
  Math.max(c.length, ...cells.map((r) => (r[i + 1] ?? '').length)))];
const line = (cells) => cells.map((c, i) => (c ?? '').padEnd(width[i])).join('  ').trimEnd();
console.log(line(['testssl.sh', ...columns]));
for (const r of rows) console.log(r.length === 1 ? r[0] : line(r));
