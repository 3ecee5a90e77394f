// wasm_origins.mjs: where a wasm file's bytes go. Reads the code section
// (one body per defined function) and the "name" custom section that a
// --profiling-funcs link keeps, and sums function body bytes by origin,
// judged from each function's (demangled) name:
//   Dear ImGui      ImGui::, Im*, stb_*/stbtt_*/stbrp_*/stbsp_* (its bundled stb), ImGui_Impl*
//   nlohmann_json   nlohmann::, and std:: code instantiated for its types
//   web/app         roomkey::app::
//   web/src         roomkey::web::, main and the top-level file-local helpers
//                   (frame(), publish()) of web/src; in the bare build, its main file
//   shared/         roomkey:: (anything else in the project's namespace)
//   libc++/libc     std::, __cxa*/__cxx*/abi, and the C library and runtime
//   (glue)          emscripten's own JS-import wrappers and dyncall stubs
// Other templates instantiated for a project type are charged to the
// namespace the function lives in (std::vector<roomkey::X>::push_back is
// libc++).
import { readFileSync } from 'node:fs';

function reader(bytes) {
  let at = 0;
  return {
    get at() { return at; },
    set at(v) { at = v; },
    u8() { return bytes[at++]; },
    u32() {
      let result = 0; let shift = 0; let byte;
      do { byte = bytes[at++]; result |= (byte & 0x7f) << shift; shift += 7; } while (byte & 0x80);
      return result >>> 0;
    },
    name() {
      const length = this.u32();
      const text = Buffer.from(bytes.subarray(at, at + length)).toString('utf8');
      at += length;
      return text;
    },
  };
}

// [{index, name, size}] for every function with a body.
export function functionBodies(file) {
  const bytes = readFileSync(file);
  if (bytes.readUInt32LE(0) !== 0x6d736100) throw new Error(`${file} is not a wasm module`);
  const r = reader(bytes);
  r.at = 8;
  let importedFunctions = 0; const bodies = []; const names = new Map();
  while (r.at < bytes.length) {
    const id = r.u8(); const size = r.u32(); const end = r.at + size;
    if (id === 2) {  // imports: function imports come first in the index space
      for (let n = r.u32(); n > 0; n--) {
        r.name(); r.name();
        const kind = r.u8();
        if (kind === 0) { r.u32(); importedFunctions++; }
        else if (kind === 1) { r.u8(); const flags = r.u32(); r.u32(); if (flags & 1) r.u32(); }
        else if (kind === 2) { const flags = r.u32(); r.u32(); if (flags & 1) r.u32(); }
        else if (kind === 3) { r.u8(); r.u8(); }
        else if (kind === 4) { r.u8(); r.u32(); }
        else throw new Error(`unknown import kind ${kind}`);
      }
    } else if (id === 10) {  // code
      for (let n = r.u32(), i = 0; i < n; i++) {
        const bodySize = r.u32();
        bodies.push({ index: importedFunctions + i, size: bodySize });
        r.at += bodySize;
      }
    } else if (id === 0 && r.name() === 'name') {
      while (r.at < end) {
        const sub = r.u8(); const subSize = r.u32(); const subEnd = r.at + subSize;
        if (sub === 1) for (let n = r.u32(); n > 0; n--) { const index = r.u32(); names.set(index, r.name()); }
        r.at = subEnd;
      }
    }
    r.at = end;
  }
  if (names.size === 0) throw new Error(`${file} has no function names: link it with --profiling-funcs`);
  return bodies.map((b) => ({ ...b, name: names.get(b.index) || `function${b.index}` }));
}

export const origins = ['Dear ImGui', 'nlohmann_json', 'libc++/libc', 'shared/', 'web/app', 'web/src', '(glue)'];

// The qualified name of a demangled signature, without its return type and
// parameters: "T ns::f<A, B>(int) const" -> "ns::f<A, B>".
export function qualifiedName(signature) {
  let depth = 0; let start = 0;
  for (let i = 0; i < signature.length; i++) {
    const c = signature[i];
    if (signature.startsWith('operator', i) && depth === 0) {
      // operator(), operator<, operator<< ...: the name ends after the operator's own symbol.
      const rest = signature.slice(i).match(/^operator\s*(?:\(\)|<<=?|>>=?|<=>?|[^\s(]+|\s[\w:<>*&\s]+?(?=\())/);
      if (rest) return signature.slice(start, i + rest[0].length);
    }
    if (c === '<' || c === '(' || c === '[') {
      if (c === '(' && depth === 0 && !signature.startsWith('(anonymous namespace)', i)) return signature.slice(start, i);
      if (signature.startsWith('(anonymous namespace)', i)) { i += '(anonymous namespace)'.length - 1; continue; }
      depth++;
    } else if (c === '>' || c === ')' || c === ']') depth--;
    else if (c === ' ' && depth === 0) start = i + 1;  // what came before was a return type or qualifier
  }
  return signature.slice(start);
}

// The origin of one function, from its name (see the table at the top).
export function originOf(signature) {
  const name = signature.replace(/^byn\$mgfn-shared\$/, '');  // functions wasm-opt merged: the first one's name
  const scope = qualifiedName(name);
  // Whatever the JSON library brings, in its namespace or as std:: containers
  // of its values, is there because of it.
  if (/\bnlohmann::/.test(name)) return 'nlohmann_json';
  if (/^roomkey::app::/.test(scope)) return 'web/app';
  if (/^roomkey::web::/.test(scope)) return 'web/src';
  if (/^roomkey::/.test(scope)) return 'shared/';
  if (/^(?:ImGui|Im[A-Z]\w*|stb\w*)(?:::|$)/.test(scope) || /^ImGui_Impl/.test(scope)) return 'Dear ImGui';
  if (/^(?:std::|__cxa|__cxx|__cxxabiv1|abi::|operator (?:new|delete))/.test(scope)) return 'libc++/libc';
  // The program's own file-local functions and main (web/src; in the bare
  // build, its one source file).
  if (/^(?:__original_main|__main_argc_argv|main|\(anonymous namespace\)::)/.test(scope)) return 'web/src';
  if (/^(?:dynCall_|legalstub\$|legalfunc\$|byn\$|emscripten_|stackSave|stackRestore|stackAlloc)/.test(name)) return '(glue)';
  return 'libc++/libc';  // C library and compiler runtime: memcpy, malloc, printf, __lshrti3, ...
}

// {origin: bytes} plus the largest functions per origin.
export function attribute(file, { top = 0 } = {}) {
  const byOrigin = Object.fromEntries(origins.map((o) => [o, { bytes: 0, functions: 0, largest: [] }]));
  for (const body of functionBodies(file)) {
    const entry = byOrigin[originOf(body.name)];
    entry.bytes += body.size; entry.functions++;
    if (top) entry.largest.push(body);
  }
  for (const entry of Object.values(byOrigin)) {
    entry.largest = entry.largest.sort((a, b) => b.size - a.size).slice(0, top).map((b) => ({ name: b.name, bytes: b.size }));
  }
  return byOrigin;
}

// Section sizes of any wasm file: {code, data, other} in bytes (payloads).
export function sections(file) {
  const bytes = readFileSync(file);
  const r = reader(bytes);
  r.at = 8;
  const out = { code: 0, data: 0, other: 0, names: 0 };
  while (r.at < bytes.length) {
    const id = r.u8(); const size = r.u32(); const end = r.at + size;
    if (id === 10) out.code += size;
    else if (id === 11) out.data += size;
    else if (id === 0 && r.name() === 'name') out.names += size;
    else out.other += size;
    r.at = end;
  }
  return out;
}
