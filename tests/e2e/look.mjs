// Screenshots of the built page for a person to look at: node tests/e2e/look.mjs OUT_DIR
// [query] [width]x[height] ... (after `trunk build --release`). Each size is taken once, of the
// viewport (what is above the fold), plus the lesson page of dist/embed.html at 1280 px.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';

import { serveStatic } from './static-server.mjs';
import { openBrowser, openPage } from './browser.mjs';
import { DIST, load } from './helpers.mjs';

const [out = 'shots', query = '?scenario=bad-deploy&seed=7&t=31', ...sizes] = process.argv.slice(2);
const site = await serveStatic(DIST);
const other = await serveStatic(DIST);
await mkdir(out, { recursive: true });
try {
  for (const size of sizes.length ? sizes : ['390x844', '1024x768', '1440x900']) {
    const [width, height] = size.split('x').map(Number);
    for (const colorScheme of ['light', 'dark']) {
      const browser = await openBrowser({ width, height, colorScheme });
      try {
        const { page, errors } = await openPage(browser);
        await load(page, site.url, query);
        await page.waitForTimeout(800);
        await page.screenshot({ path: join(out, `${size}-${colorScheme}.png`) });
        if (errors.length) console.log(`${size}: ${errors.join('; ')}`);
      } finally {
        await browser.close();
      }
    }
  }
  const browser = await openBrowser({ width: 1280, height: 1500 });
  try {
    const { page } = await openPage(browser);
    await page.goto(`${other.url}embed.html?app=${encodeURIComponent(site.url)}`);
    await page.waitForTimeout(2500);
    await page.screenshot({ path: join(out, 'lesson.png') });
  } finally {
    await browser.close();
  }
} finally {
  await site.close();
  await other.close();
}
console.log(`wrote ${out}`);
