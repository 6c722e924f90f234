// Writes the console's service worker (sw.js) into a built site: assets/sw.js with the
// build's version and the list of every file of the build to precache. Run by
// scripts/post-build.mjs after each Trunk build (on its staging folder), or by hand:
//
//   node scripts/precache.mjs dist
//
// The version is a hash of every file's name and content, so a build that changes any byte
// gets a new sw.js, and the browser installs the new build whole.

import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const SOURCE = join(dirname(fileURLToPath(import.meta.url)), '..', 'assets', 'sw.js');

/** Every file under `folder`, as paths relative to it with `/`, sorted. */
export function builtFiles(folder) {
  const out = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else out.push(relative(folder, path).split(sep).join('/'));
    }
  };
  walk(folder);
  return out.filter((file) => file !== 'sw.js').sort();
}

/** Writes `folder`/sw.js; returns its version and the files it precaches. */
export function writeServiceWorker(folder) {
  const files = builtFiles(folder);
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(file);
    hash.update('\0');
    hash.update(createHash('sha256').update(readFileSync(join(folder, file))).digest());
  }
  const version = hash.digest('hex').slice(0, 16);
  const source = readFileSync(SOURCE, 'utf8');
  const worker = source
    .replace("const VERSION = 'development';", `const VERSION = '${version}';`)
    .replace('const FILES = [];', `const FILES = ${JSON.stringify(files)};`);
  if (worker === source) throw new Error('assets/sw.js has lost its VERSION or FILES line');
  writeFileSync(join(folder, 'sw.js'), worker);
  return { version, files };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const folder = process.env.TRUNK_STAGING_DIR ?? process.argv[2];
  if (!folder) {
    console.error('usage: node scripts/precache.mjs BUILT_FOLDER');
    process.exit(2);
  }
  const { version, files } = writeServiceWorker(folder);
  console.log(`precache.mjs: sw.js ${version}, ${files.length} files`);
}
