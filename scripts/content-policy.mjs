// Gives the built console pages (index.html and full.html) their Content-Security-Policy, as
// a <meta http-equiv> that works on any static host. Run by Trunk after each build (a
// post_build hook in Trunk.toml, on its staging folder), or by hand on a built folder:
//
//   node scripts/content-policy.mjs dist
//
// The policy allows no inline script: Trunk writes the module start-up of index.html as an
// inline <script type="module">, which this moves into a file of its own (named by its
// content's hash). The stylesheets Trunk inlines (one <style> per feature, so that no request
// waits before the first paint) are allowed by their SHA-256 hashes, and nothing else inline:
// the console sets its computed styles through the CSSOM (custom properties, positions), which
// a policy does not restrict. frame-ancestors cannot be set from a <meta>: whether other sites
// may frame the console is the host's HTTP header to set.
//
// The pages it writes are checked by the end-to-end tests, which listen for violations.

import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The pages this policy covers; the sample lesson page (embed.html) carries its own. */
const PAGES = ['index.html', 'full.html'];

/** The directives every page shares; `style-src` gets the page's own hashes. */
const DIRECTIVES = [
  "default-src 'self'",
  // 'wasm-unsafe-eval' lets the page compile its WebAssembly and nothing else.
  "script-src 'self' 'wasm-unsafe-eval'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
];

const digest = (text, encoding) => createHash('sha256').update(text, 'utf8').digest(encoding);

/** Moves the page's inline scripts into files; returns the page and the files written. */
export function moveInlineScripts(html) {
  const files = [];
  const page = html.replace(
    /<script\b([^>]*)>([\s\S]*?)<\/script>/g,
    (whole, attributes, body) => {
      if (/\bsrc\s*=/.test(attributes) || body.trim() === '') return whole;
      // Trunk's live-reload script is completed at serving time, in the page only: moved
      // into a file it would connect nowhere (scripts/serve.sh serves without it).
      if (body.includes('{{__TRUNK') || body.includes('{{__trunk')) {
        throw new Error("Trunk's live-reload script cannot run under the page's policy: serve with --no-autoreload");
      }
      const name = `start-${digest(body, 'hex').slice(0, 16)}.js`;
      files.push({ name, body });
      const kept = attributes.replace(/\s+$/, '');
      return `<script${kept} src="./${name}"></script>`;
    },
  );
  return { page, files };
}

/** The policy for a page whose inline style blocks are `styles`. */
export function policyFor(styles) {
  const hashes = styles.map((body) => `'sha256-${digest(body, 'base64')}'`);
  const styleSrc = ["style-src 'self'", ...hashes].join(' ');
  return [...DIRECTIVES, styleSrc].join('; ');
}

/** The page with its policy: inline scripts moved out, styles hashed, the meta written. */
export function withPolicy(html) {
  const { page, files } = moveInlineScripts(html);
  const styles = [...page.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/g)].map((m) => m[1]);
  if (/\son[a-z]+\s*=/i.test(page.replace(/<!--[\s\S]*?-->/g, ''))) {
    throw new Error('an inline event handler attribute: the policy would block it');
  }
  const meta = `<meta http-equiv="Content-Security-Policy" content="${policyFor(styles)}" />`;
  const withoutOld = page.replace(/\s*<meta http-equiv="Content-Security-Policy"[^>]*>/i, '');
  const charset = /<meta charset="[^"]*"\s*\/?>/i;
  if (!charset.test(withoutOld)) throw new Error('no <meta charset> to put the policy after');
  return { page: withoutOld.replace(charset, (m) => `${m}\n    ${meta}`), files };
}

function main() {
  const folder = process.env.TRUNK_STAGING_DIR ?? process.argv[2];
  if (!folder) {
    console.error('usage: node scripts/content-policy.mjs FOLDER (or run as a Trunk hook)');
    process.exit(2);
  }
  for (const name of PAGES) {
    const path = join(folder, name);
    if (!existsSync(path)) {
      console.error(`content-policy: ${path} is missing`);
      process.exit(1);
    }
    const { page, files } = withPolicy(readFileSync(path, 'utf8'));
    for (const file of files) writeFileSync(join(folder, file.name), file.body);
    writeFileSync(path, page);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) main();
