// Trunk's post-build step (a hook in Trunk.toml), in order: wasm-bindgen's glue minified,
// the pages' Content-Security-Policy, then the service worker's list of the files those two
// wrote. One hook running the three in turn, because Trunk runs the hooks of a stage at the
// same time.

import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
for (const step of ['minify-glue.mjs', 'content-policy.mjs', 'precache.mjs']) {
  execFileSync(process.execPath, [join(here, step), ...process.argv.slice(2)], {
    stdio: 'inherit',
  });
}
