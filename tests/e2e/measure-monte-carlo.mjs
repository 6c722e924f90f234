// Times the Monte Carlo debrief of the bad deploy, rolled back at the page, over 1,000 seeds
// (the person's actions, doing nothing, the textbook response and five policies, 120 minutes
// each) in headless Chromium: from the click on the replay to its table, the Web Workers as
// many as the machine reports (at most 8), the extended build already in the browser's cache
// (the comparison's module and a first replay of 100 seeds load it). Median of 3 runs; the
// workers of a finished replay take the next one, so these runs find them started. Then the
// first replay of a new page, whose workers start with it (the extended build cached). The
// figures depend on the machine and its load, so they are reported, not enforced.
//
// Usage: node tests/e2e/measure-monte-carlo.mjs. Everything talks to 127.0.0.1 only.

import os from 'node:os';
import { serveStatic } from './static-server.mjs';
import { openBrowser, openPage } from './browser.mjs';
import { DIST, load } from './helpers.mjs';
import { median } from './stats.mjs';

const RUNS = 3;
const TARGET_MS = 3000;

const site = await serveStatic(DIST, { host: true });
const browser = await openBrowser({ width: 1440, height: 900, guard: 'network' });
/** A page of the bad deploy rolled back at the page, its Monte Carlo panel open; `run(n)`
 * replays over n seeds and returns the milliseconds from the click to the table. */
async function monteCarloPage() {
  const { page } = await openPage(browser);
  await load(page, site.url, '?scenario=bad-deploy&seed=7&actions=26:rollback&t=120');
  await page.locator('[data-action="open-compare"]').click();
  await page.locator('[data-monte-carlo]').waitFor({ timeout: 30_000 });
  const seeds = page.locator('[data-field="monte-carlo-seeds"]');
  const table = page.locator('[data-field="monte-carlo-table"]');
  const run = async (n) => {
    await seeds.selectOption(String(n));
    const started = Date.now();
    await page.locator('[data-action="run-monte-carlo"]').click();
    // The replay under way shows its progress (and takes the last table away), then the table.
    await page.locator('[data-field="monte-carlo-status"] progress').waitFor({ state: 'attached', timeout: 30_000 });
    await table.waitFor({ state: 'attached', timeout: 300_000 });
    return Date.now() - started;
  };
  return { page, run };
}

try {
  const { page, run } = await monteCarloPage();
  await run(100);
  const times = [];
  for (let i = 0; i < RUNS; i++) times.push(await run(1000));
  const status = (await page.locator('[data-field="monte-carlo-status"]').textContent()).trim();
  const workers = await page.evaluate(() => navigator.hardwareConcurrency);
  await page.close();
  const fresh = await monteCarloPage();
  const first = await fresh.run(1000);
  console.log(`Monte Carlo debrief, bad deploy, 1,000 seeds (load ${os.loadavg()[0].toFixed(1)}, ${workers} logical processors):`);
  console.log(`  runs: ${times.join(', ')} ms`);
  console.log(`  median: ${median(times)} ms (target ≤ ${TARGET_MS} ms): ${median(times) <= TARGET_MS ? 'ok' : 'over target'}`);
  console.log(`  the page says: ${status}`);
  console.log(`  first replay of a new page (its workers start): ${first} ms: ${first <= TARGET_MS ? 'ok' : 'over target'}`);
} finally {
  await browser.close();
  await site.close();
}
