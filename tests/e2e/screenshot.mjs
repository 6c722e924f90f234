// Takes the README's screenshots: the console at 1440 px in the light theme, mid-incident
// (the bad deploy at 09:30, paging, a rollback under way), written to docs/screenshot.png;
// the sample lesson page with its first frame, written to docs/embed.png; and the debrief of
// a bad deploy rolled back late, written to docs/debrief.png; and the utilization relation
// opened from its metrics row at a saturated minute of a viral surge, docs/relation.png.
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

  // The debrief, once the par lines are known.
  await page.setViewportSize({ width: 1024, height: 900 });
  await load(page, site.url, '?scenario=bad-deploy&seed=7&actions=29:rollback,31:min_instances=12&t=120');
  await page.locator('.par tr[data-par="best_single_action"]').waitFor({ timeout: 30_000 });
  // The sticky status strip would cover the debrief's top in an element's screenshot.
  await page.evaluate(() => {
    document.querySelector('.status-strip').style.position = 'static';
  });
  const debrief = join(dirname(output), 'debrief.png');
  await page.locator('#debrief').screenshot({ path: debrief });
  console.log(`wrote ${debrief}`);

  // A relation with the minute's values, opened from its row.
  await load(page, site.url, '?scenario=viral-surge&seed=11&t=43');
  await page.locator('details.relation').first().waitFor();
  await page.locator('[data-opens="utilization"]').click();
  await page.locator('dialog.relation-dialog [data-field="live"]').waitFor();
  const relationShot = join(dirname(output), 'relation.png');
  await page.locator('dialog.relation-dialog').screenshot({ path: relationShot });
  console.log(`wrote ${relationShot}`);

  // The lesson page, served from a second origin as a training site would be.
  const lessonSite = await serveStatic(DIST);
  try {
    await page.setViewportSize({ width: 1000, height: 900 });
    await page.goto(`${lessonSite.url}embed.html?app=${encodeURIComponent(site.url)}`);
    await page.waitForSelector('#log li[data-type="ready"]');
    // Thirty minutes into the deploy lesson, by the host page's commands.
    await page.evaluate((origin) => {
      const frame = document.getElementById('deploy').contentWindow;
      for (let i = 0; i < 30; i += 1) frame.postMessage({ type: 'step' }, origin);
    }, new URL(site.url).origin);
    await page.waitForFunction(
      () => document.querySelectorAll('#log li[data-type="minute"]').length >= 30,
    );
    await page.waitForTimeout(300);
    const lesson = join(dirname(output), 'embed.png');
    await page.screenshot({ path: lesson, clip: { x: 0, y: 0, width: 1000, height: 900 } });
    console.log(`wrote ${lesson}`);
  } finally {
    await lessonSite.close();
  }
} finally {
  await browser.close();
  await site.close();
}
