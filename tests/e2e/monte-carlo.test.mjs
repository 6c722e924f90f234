// The Monte Carlo debrief: the bad deploy rolled back at the page, replayed over 100 seeds in
// Web Workers. Its summary is the one `oncall-sim sweep --summary` prints, byte for byte, and
// the same with 1, 2 and 4 workers; its table has a row per strategy and its CSV the header
// the core writes. The figures for 1,000 seeds and the time they take: measure-monte-carlo.mjs.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openBrowser, openPage } from './browser.mjs';
import { DIST, load } from './helpers.mjs';
import { serveStatic } from './static-server.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
if (!existsSync(join(DIST, 'sweep-worker.js'))) {
  throw new Error('dist/sweep-worker.js is missing: run `trunk build --release` first');
}

const QUERY = '?scenario=bad-deploy&seed=7&actions=26:rollback&t=120';

/** The command line's summary of the same sweep. */
function cliSummary(seeds) {
  return execFileSync(
    'cargo',
    ['run', '-q', '-p', 'oncall-sim', '--', 'sweep', '--scenario', 'bad-deploy', '--seed', '7',
      '--seeds', String(seeds), '--action', '26:rollback', '--summary'],
    { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 24 },
  );
}

/** The text of a download link's `data:` URL. */
async function linkText(page, action) {
  const href = await page.locator(`[data-action="${action}"]`).getAttribute('href');
  return decodeURIComponent(href.slice(href.indexOf(',') + 1));
}

/**
 * Opens the bad deploy after its rollback with the machine reporting `cores` processors,
 * replays it over `seeds` seeds and returns the page with its results.
 */
async function replay(site, cores, seeds) {
  const browser = await openBrowser({ width: 1440, height: 900 });
  await browser.context.addInitScript((n) => {
    Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', { get: () => n });
    // Counts the sweep's workers the page starts.
    const Started = window.Worker;
    window.sweepWorkersStarted = 0;
    window.Worker = class extends Started {
      constructor(url, options) {
        super(url, options);
        if (String(url).includes('sweep-worker')) window.sweepWorkersStarted += 1;
      }
    };
  }, cores);
  const { page, errors } = await openPage(browser);
  await load(page, site.url, QUERY);
  await page.locator('[data-action="open-compare"]').click();
  const panel = page.locator('[data-monte-carlo]');
  await panel.waitFor({ timeout: 30_000 });
  await page.locator('[data-field="monte-carlo-seeds"]').selectOption(String(seeds));
  await page.locator('[data-action="run-monte-carlo"]').click();
  await page.locator('[data-field="monte-carlo-table"]').waitFor({ timeout: 120_000 });
  return { browser, page, errors };
}

describe('the Monte Carlo debrief', () => {
  let site;
  let cli;
  before(async () => {
    site = await serveStatic(DIST);
    cli = cliSummary(100);
  });
  after(() => site.close());

  test('gives the command line\'s summary, with 1, 2 and 4 workers alike', async () => {
    const summaries = {};
    for (const cores of [1, 2, 4]) {
      const { browser, page, errors } = await replay(site, cores, 100);
      try {
        const status = await page.locator('[data-field="monte-carlo-status"]').textContent();
        assert.match(status, new RegExp(`on ${cores} workers`), status);
        summaries[cores] = await linkText(page, 'download-monte-carlo-json');
        if (cores === 2) {
          // A row per strategy: the actions, doing nothing, the textbook, five policies.
          const rows = await page.locator('[data-field="monte-carlo-table"] tbody tr').evaluateAll(
            (trs) => trs.map((tr) => tr.dataset.strategy),
          );
          assert.deepEqual(rows, ['actions', 'nothing_done', 'textbook', 'policy-target-tracking',
            'policy-cloud-run', 'policy-elastic', 'policy-hpa', 'policy-kpa']);
          // Rolling back at the page beats doing nothing on every seed of the bad deploy.
          const verdict = await page.locator('[data-field="monte-carlo-verdict"]').textContent();
          assert.match(verdict, /on 100 of 100 seeds/, verdict);
          const chart = page.locator('[data-field="monte-carlo-chart"]');
          assert.match(await chart.getAttribute('aria-label'), /100 seeds/);
          assert.equal(await chart.locator('li').count(), 8);
          const csv = (await linkText(page, 'download-monte-carlo-csv')).split('\n');
          assert.ok(csv[0].startsWith('strategy,policy,seeds,first_seed,budget_spent_mean,'), csv[0]);
          assert.equal(csv.filter(Boolean).length, 9);
          assert.ok(csv[1].startsWith('actions,target-tracking,100,7,'), csv[1]);
        }
        assert.deepEqual(errors, []);
        assert.deepEqual(browser.offHost, []);
        assert.deepEqual(browser.violations, []);
      } finally {
        await browser.close();
      }
    }
    assert.equal(summaries[1], cli);
    assert.equal(summaries[2], cli);
    assert.equal(summaries[4], cli);
  });

  test('a second replay takes the workers of the first, and gives the same summary', async () => {
    const { browser, page, errors } = await replay(site, 2, 100);
    try {
      const first = await linkText(page, 'download-monte-carlo-json');
      assert.equal(await page.evaluate(() => window.sweepWorkersStarted), 2);
      // The first replay's table is marked: the second's is a new one.
      await page.locator('[data-field="monte-carlo-table"]').evaluate((t) => { t.dataset.first = ''; });
      await page.locator('[data-action="run-monte-carlo"]').click();
      await page.locator('[data-field="monte-carlo-table"]:not([data-first])').waitFor({ timeout: 120_000 });
      const status = await page.locator('[data-field="monte-carlo-status"]').textContent();
      assert.match(status, /on 2 workers/, status);
      assert.equal(await page.evaluate(() => window.sweepWorkersStarted), 2);
      assert.equal(await linkText(page, 'download-monte-carlo-json'), first);
      assert.equal(first, cli);
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  });

  test('a replay can be cancelled, and run again', async () => {
    const browser = await openBrowser({ width: 1440, height: 900 });
    try {
      const { page, errors } = await openPage(browser);
      await load(page, site.url, QUERY);
      await page.locator('[data-action="open-compare"]').click();
      await page.locator('[data-monte-carlo]').waitFor({ timeout: 30_000 });
      await page.locator('[data-field="monte-carlo-seeds"]').selectOption('10000');
      await page.locator('[data-action="run-monte-carlo"]').click();
      await page.locator('[data-field="monte-carlo-status"] progress').waitFor();
      await page.locator('[data-action="cancel-monte-carlo"]').click();
      await page.locator('[data-field="monte-carlo-status"]').filter({ hasText: /Cancelled/ }).waitFor();
      assert.equal(await page.locator('[data-field="monte-carlo-table"]').count(), 0);
      assert.ok(await page.locator('[data-action="run-monte-carlo"]').isEnabled());
      await page.locator('[data-field="monte-carlo-seeds"]').selectOption('100');
      await page.locator('[data-action="run-monte-carlo"]').click();
      await page.locator('[data-field="monte-carlo-table"]').waitFor({ timeout: 120_000 });
      assert.equal(await linkText(page, 'download-monte-carlo-json'), cli);
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  });
});
