// Attributes the console's transfer size to the parts of the code: the simulation core, the
// Leptos family (leptos, tachys, reactive_graph…), plotters, serde, the standard library, the
// page's own code, and wasm-bindgen's JavaScript glue.
//
// Usage: node tests/e2e/size-report.mjs <module.wasm> <glue.js> [--json]
//
// The module must keep its function names (a wasm-opt -Oz -g copy of the release build; see
// scripts/size-report.sh, which makes one and calls this). Each function body is given to the
// first crate its name mentions other than core/alloc/std, so a standard-library generic
// instantiated for a Leptos type counts as Leptos: the question is which dependency causes the
// bytes. Gzipped figures per part are estimates: each part's bytes are compressed on their
// own and the results scaled so that they add up to the module's real gzipped size.

import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const PARTS = [
  ['app', 'the page (oncall_sim_web)', /^oncall_sim_web$/],
  ['core', 'simulation core (oncall_sim)', /^oncall_sim$/],
  ['leptos', 'leptos / tachys / reactive_graph', /^(leptos|leptos_\w+|tachys|reactive_graph|reactive_stores|any_spawner|throw_error|or_poisoned|either_of|next_tuple|send_wrapper|oco_ref|slotmap|guardian|hydration_context|server_fn|futures\w*|pin_project\w*|indexmap|rustc_hash|paste|typed_builder\w*|const_str_slice_concat|drain_filter_polyfill|html_escape|erased|wasm_bindgen_futures)$/],
  ['plotters', 'plotters, plotters-canvas', /^(plotters\w*)$/],
  ['serde', 'serde, serde_json', /^(serde\w*|itoa|ryu|memchr|zmij)$/],
  ['bindgen', 'wasm-bindgen, js-sys, web-sys', /^(wasm_bindgen\w*|js_sys|web_sys|console_error_panic_hook)$/],
  ['std', 'std / alloc / core (fmt, panics, collections…)', /^(core|alloc|std|compiler_builtins|dlmalloc|hashbrown|libm|rand_core|getrandom|once_cell)$/],
];
const STD = new Set(['core', 'alloc', 'std']);

function reader(buf) {
  let pos = 0;
  const r = {
    get pos() { return pos; },
    set pos(p) { pos = p; },
    byte() { return buf[pos++]; },
    u32() {
      let result = 0, shift = 0, b;
      do { b = buf[pos++]; result += (b & 0x7f) * 2 ** shift; shift += 7; } while (b & 0x80);
      return result;
    },
    bytes(n) { const s = buf.subarray(pos, pos + n); pos += n; return s; },
    name() { return r.bytes(r.u32()).toString('utf8'); },
  };
  return r;
}

function limits(r) {
  const flags = r.byte();
  r.u32();
  if (flags & 1) r.u32();
}

/** Function bodies (with names), data segments and other sections of a module. */
function parseModule(buf) {
  const r = reader(buf);
  r.pos = 8;
  let importedFunctions = 0;
  const bodies = [];
  const names = new Map();
  const other = new Map();
  const structure = [];
  const kept = [buf.subarray(0, 8)];
  let dataBytes = Buffer.alloc(0);
  while (r.pos < buf.length) {
    const sectionStart = r.pos;
    const id = r.byte();
    const size = r.u32();
    const start = r.pos;
    const end = start + size;
    const whole = buf.subarray(sectionStart, end);
    if (id === 2) {
      for (let n = r.u32(); n > 0; n--) {
        r.name(); r.name();
        const kind = r.byte();
        if (kind === 0) { r.u32(); importedFunctions++; }
        else if (kind === 1) { r.byte(); limits(r); }
        else if (kind === 2) limits(r);
        else if (kind === 3) { r.byte(); r.byte(); }
        else if (kind === 4) { r.byte(); r.u32(); }
      }
    } else if (id === 10) {
      const count = r.u32();
      for (let i = 0; i < count; i++) {
        const len = r.u32();
        bodies.push({ index: importedFunctions + i, bytes: r.bytes(len) });
      }
    } else if (id === 11) {
      dataBytes = buf.subarray(start, end);
    } else if (id === 0) {
      const name = r.name();
      if (name !== 'name') kept.push(whole);
      if (name === 'name') {
        while (r.pos < end) {
          const sub = r.byte();
          const subSize = r.u32();
          const subEnd = r.pos + subSize;
          if (sub === 1) {
            for (let n = r.u32(); n > 0; n--) {
              const index = r.u32();
              names.set(index, r.name());
            }
          }
          r.pos = subEnd;
        }
      } else {
        other.set(`custom section "${name}"`, size);
        structure.push(whole);
      }
    } else {
      const label = { 1: 'types', 3: 'function index', 4: 'tables', 5: 'memory', 6: 'globals', 7: 'exports', 9: 'element (indirect calls)', 12: 'data count' }[id] ?? `section ${id}`;
      other.set(label, (other.get(label) ?? 0) + size);
      structure.push(whole);
    }
    if (id !== 0) kept.push(whole);
    r.pos = end;
  }
  // The module as shipped: without the names section.
  return { bodies, names, other, dataBytes, structure: Buffer.concat(structure), shipped: Buffer.concat(kept) };
}

/** Crate names a Rust symbol mentions, in order (demangled, legacy `_ZN` or v0 `_R`). */
function cratesOf(symbol) {
  if (symbol.startsWith('_R')) {
    // v0 mangling: crate roots are `C`, an optional disambiguator `s…_`, then `<len><name>`.
    const crates = [];
    const re = /C(?:s[0-9A-Za-z]*_)?(\d+)/g;
    for (let m; (m = re.exec(symbol)); ) {
      const len = Number(m[1]);
      crates.push(symbol.slice(re.lastIndex, re.lastIndex + len));
    }
    return crates.filter((c) => /^[a-z_][a-z0-9_]*$/.test(c));
  }
  // wasm-bindgen writes v0 names demangled, with the crate's hash: `core[c593…]::fmt::write`.
  return [...demangle(symbol).matchAll(/(?:^|[^A-Za-z0-9_])([a-z_][a-z0-9_]*)(?:\[[0-9a-f]+\])?::/g)].map((m) => m[1]);
}

/** A legacy-mangled Rust symbol (`_ZN…E`) as a readable path; other names unchanged. */
function demangle(symbol) {
  if (!symbol.startsWith('_ZN')) return symbol;
  const parts = [];
  let i = 3;
  while (i < symbol.length && symbol[i] !== 'E') {
    const digits = symbol.slice(i).match(/^\d+/);
    if (!digits) break;
    i += digits[0].length;
    parts.push(symbol.slice(i, i + Number(digits[0])));
    i += Number(digits[0]);
  }
  const escapes = { LT: '<', GT: '>', RF: '&', BP: '*', LP: '(', RP: ')', C: ',', SP: '@' };
  return parts
    .filter((p) => !/^h[0-9a-f]{16}$/.test(p))
    .join('::')
    .replace(/\$u([0-9a-f]+)\$/g, (_, hex) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/\$([A-Z]+)\$/g, (m, k) => escapes[k] ?? m)
    .replace(/\.\./g, '::')
    .replace(/^_</, '<');
}

function partOf(symbol) {
  if (!symbol) return 'other';
  if (/^(__wbg|__wbindgen|__externref|wasm_bindgen)/.test(symbol)) return 'bindgen';
  // Path segments that name a known crate; module names (`slice`, `ptr`…) are skipped.
  const crates = cratesOf(symbol).filter((c) => PARTS.some(([, , re]) => re.test(c)));
  const cause = crates.find((c) => !STD.has(c)) ?? crates[0];
  // Inherent methods of primitive types (`<char>::escape_debug_ext`, `<f64>::…`) are core's.
  if (!cause && /^<\[?(char|str|bool|[iuf](8|16|32|64|128|size))\b/.test(symbol)) return 'std';
  if (!cause) return /^(memcpy|memset|memmove|memcmp|__rust|__rdl|__rg|rust_|dlmalloc|__multi|__udiv|__div|__ashl|__lshr|__floatun|__fix|bcmp)/.test(symbol) ? 'std' : 'other';
  const part = PARTS.find(([, , re]) => re.test(cause));
  return part ? part[0] : 'other';
}

const [wasmPath, jsPath] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
if (!wasmPath || !jsPath) {
  console.error('usage: node tests/e2e/size-report.mjs <module.wasm> <glue.js> [--json]');
  process.exit(2);
}
const wasm = readFileSync(wasmPath);
const js = readFileSync(jsPath);
const { bodies, names, other, dataBytes, structure, shipped } = parseModule(wasm);

const groups = new Map();
const add = (part, bytes) => {
  const g = groups.get(part) ?? { chunks: [], raw: 0 };
  g.chunks.push(bytes);
  g.raw += bytes.length;
  groups.set(part, g);
};
const largest = [];
for (const { index, bytes } of bodies) {
  const symbol = names.get(index);
  add(partOf(symbol), bytes);
  const readable = symbol ? demangle(symbol).replace(/::h[0-9a-f]{16}$/, '') : `function ${index}`;
  largest.push({ symbol: readable, size: bytes.length, part: partOf(symbol) });
}
add('data', dataBytes);
add('structure', structure);
const wasmGzip = gzipSync(shipped).length;
const estimates = new Map([...groups].map(([part, g]) => [part, gzipSync(Buffer.concat(g.chunks)).length]));
const estimatedSum = [...estimates.values()].reduce((a, b) => a + b, 0);
const scale = wasmGzip / estimatedSum;

const labels = new Map([
  ...PARTS.map(([key, label]) => [key, label]),
  ['data', 'data segments (strings, tables, constants)'],
  ['other', 'unattributed functions'],
  ['structure', `module structure (${[...other.keys()].join(', ')})`],
]);
const order = [...PARTS.map(([key]) => key), 'other', 'data', 'structure'];
const rows = order
  .filter((k) => groups.has(k))
  .map((k) => ({ part: labels.get(k), raw: groups.get(k).raw, gzip: estimates.get(k) * scale }));
const jsGzip = gzipSync(js).length;
rows.push({ part: 'wasm-bindgen JS glue', raw: js.length, gzip: jsGzip });

const kb = (b) => (b / 1024).toFixed(1);
if (process.argv.includes('--json')) {
  console.log(JSON.stringify({ rows, wasmGzip, jsGzip, total: wasmGzip + jsGzip }, null, 2));
} else {
  console.log(`| part | raw KB | gzip KB (est.) | share |`);
  console.log(`|---|---:|---:|---:|`);
  const total = wasmGzip + jsGzip;
  for (const r of rows) {
    console.log(`| ${r.part} | ${kb(r.raw)} | ${kb(r.gzip)} | ${((100 * r.gzip) / total).toFixed(1)} % |`);
  }
  console.log(`| **wasm + JS** | ${kb(shipped.length + js.length)} | **${kb(total)}** | |`);
  console.log();
  // SIZE_PART=<key> lists one part's functions only (keys: ${order.join(', ')}).
  const only = process.env.SIZE_PART;
  console.log(only ? `Largest functions of ${labels.get(only) ?? only}:` : 'Largest functions:');
  largest.sort((a, b) => b.size - a.size);
  const shown = only ? largest.filter((f) => f.part === only) : largest;
  for (const f of shown.slice(0, Number(process.env.SIZE_TOP ?? 25))) {
    console.log(`  ${String(f.size).padStart(7)}  ${f.symbol.slice(0, 150)}`);
  }
}
