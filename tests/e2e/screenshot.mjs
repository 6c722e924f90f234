// Takes the README's screenshot: the console at 1440 px in the light theme, mid-incident
// (the bad deploy at 09:30, paging, a rollback under way), written to docs/screenshot.png.
//
// Usage: node tests/e2e/screenshot.mjs [output.png]   (after `trunk build --release`)

import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { serveStatic } from './static-server.mjs';
import { openBrowser, openPage } from './browser.mjs';
import { DIST, load, waitForCharts } from './helpers.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const output = process.argv[2] ?? join(here, '..', '..', 'docs', 'screenshot.png');
const RUN = '?scenario=bad-deploy&seed=7&actions=24:min_instances=14,28:rollback&t=31';

const site = await serveStatic(DIST);
const browser = await openBrowser({ width: 1440, height: 960, colorScheme: 'light' });
try {
  const { page, errors } = await openPage(browser);
  await load(page, site.url, RUN);
  await waitForCharts(page, 31);
  if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);
  await mkdir(dirname(output), { recursive: true });
  await page.screenshot({ path: output });
  console.log(`wrote ${output}`);
} finally {
  await browser.close();
  await site.close();
}
