// Minifies wasm-bindgen's JavaScript glue after each Trunk build (a post_build hook in
// Trunk.toml, on its staging folder), or by hand on a built folder:
//
//   node scripts/minify-glue.mjs dist
//
// Trunk's own minifier cannot read the glue's module syntax, so Trunk leaves it as written
// (52 KB, 9.3 KB gzipped); terser reads ES modules and halves it (7 KB gzipped). The exported
// names stay as they are (the start-up script imports them), and the integrity hashes Trunk
// wrote for the first page's module preloads are written anew for the minified files.

import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { minify } from 'terser';

/** The glue modules wasm-bindgen wrote: the console's, the extended build's, the lazy ones. */
function glueFiles(folder) {
  const found = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory() && entry.name !== 'snippets') walk(path);
      // Trunk's hash is a 64-bit number in hex without its leading zeros: up to 16 digits.
      else if (entry.isFile() && /^oncall-sim-[a-z-]+(-[0-9a-f]{1,16})?\.js$/.test(entry.name)) found.push(path);
    }
  };
  walk(folder);
  return found;
}

const sri = (text) => `sha384-${createHash('sha384').update(text).digest('base64')}`;

async function main() {
  const folder = process.env.TRUNK_STAGING_DIR ?? process.argv[2];
  if (!folder) {
    console.error('usage: node scripts/minify-glue.mjs FOLDER (or run as a Trunk hook)');
    process.exit(2);
  }
  const index = join(folder, 'index.html');
  let html = existsSync(index) ? readFileSync(index, 'utf8') : null;
  for (const path of glueFiles(folder)) {
    const source = readFileSync(path, 'utf8');
    const { code } = await minify(source, {
      module: true,
      compress: { passes: 2 },
      mangle: true,
      format: { comments: false },
    });
    writeFileSync(path, code);
    if (html !== null) {
      // The preload of this file carries the hash of what Trunk wrote: the new file's.
      const href = `./${relative(folder, path)}`;
      html = html.replace(
        new RegExp(`(href="${href.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"[^>]*integrity=")[^"]*(")`),
        (_, before, after) => `${before}${sri(code)}${after}`,
      );
    }
  }
  if (html !== null) writeFileSync(index, html);
}

main().catch((error) => {
  console.error(`minify-glue: ${error.message}`);
  process.exit(1);
});
