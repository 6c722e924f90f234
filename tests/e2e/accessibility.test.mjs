// Accessibility audit with axe-core (Deque's rules for WCAG 2.x A and AA): every scenario, in
// light and dark, at 390 and 1440 px, thirty minutes into its run; then the help dialog, a
// relation opened from its metric, the policy comparison with the Monte Carlo debrief, and the
// embed documentation page with its frame. No serious or critical violation may remain.
//
// axe runs in the page through the DevTools protocol (page.evaluate), which the page's
// Content-Security-Policy does not cover; the console itself is not changed for the audit.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { openBrowser, openPage } from './browser.mjs';
import { DIST, load } from './helpers.mjs';
import { serveStatic } from './static-server.mjs';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const SCENARIOS = ['free-play', 'bad-deploy', 'viral-surge', 'cache-flush', 'slow-instance', 'hot-key', 'regional-outage'];

/** The serious and critical violations axe finds in `page` (or in `selector` of it). */
async function audit(page, selector = null) {
  await page.evaluate(AXE);
  const found = await page.evaluate(async (context) => {
    const result = await globalThis.axe.run(context ?? document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
      resultTypes: ['violations'],
    });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
  }, selector);
  return found;
}

describe('accessibility (axe-core)', () => {
  let site;
  before(async () => {
    site = await serveStatic(DIST);
  });
  after(() => site.close());

  for (const [width, height] of [[1440, 900], [390, 844]]) {
    for (const colorScheme of ['light', 'dark']) {
      test(`every scenario at ${width} px, ${colorScheme}`, async () => {
        const browser = await openBrowser({ width, height, colorScheme });
        try {
          const { page } = await openPage(browser);
          const problems = [];
          for (const scenario of SCENARIOS) {
            await load(page, site.url, `?scenario=${scenario}&seed=7&t=30`);
            for (const v of await audit(page)) problems.push(`${scenario}: ${v}`);
          }
          assert.deepEqual(problems, []);
        } finally {
          await browser.close();
        }
      });
    }
  }

  /** On a phone, opens the tab that shows `selector` (a no-op where it shows already). */
  async function showing(page, selector) {
    if (await page.locator(selector).isVisible()) return;
    const tabs = page.locator('.phone-tabs button[data-tab]');
    for (let i = 0; i < (await tabs.count()); i++) {
      await tabs.nth(i).click();
      if (await page.locator(selector).isVisible()) return;
    }
  }

  test('the help dialog, a relation, the comparison with the Monte Carlo debrief, the embed page', async () => {
    const problems = [];
    for (const [width, height] of [[1440, 900], [390, 844]]) {
      for (const colorScheme of ['light', 'dark']) {
        const browser = await openBrowser({ width, height, colorScheme });
        try {
          const { page } = await openPage(browser);
          const where = `${width} px ${colorScheme}`;
          await load(page, site.url, '?scenario=bad-deploy&seed=7&actions=26:rollback&t=120');
          // The help dialog.
          await page.keyboard.press('?');
          const dialog = page.locator('dialog[open]');
          await dialog.waitFor({ timeout: 10_000 });
          for (const v of await audit(page)) problems.push(`${where}, help: ${v}`);
          await page.keyboard.press('Escape');
          await dialog.waitFor({ state: 'detached', timeout: 10_000 }).catch(() => {});
          // A relation opened from its metric's name (on a phone, in the metrics' tab).
          await showing(page, '[data-opens="utilization"]');
          await page.locator('[data-opens="utilization"]').click();
          await page.locator('dialog.relation-dialog [data-field="live"]').waitFor({ timeout: 30_000 });
          for (const v of await audit(page)) problems.push(`${where}, relation: ${v}`);
          await page.keyboard.press('Escape');
          await page.waitForFunction(() => !document.querySelector('dialog.relation-dialog').open);
          // The comparison and the Monte Carlo debrief, after a replay of 100 seeds.
          const open = page.locator('[data-action="open-compare"]');
          await showing(page, '[data-action="open-compare"]');
          await open.click();
          await page.locator('[data-monte-carlo]').waitFor({ timeout: 30_000 });
          await page.locator('[data-action="compare"]').click();
          await page.locator('[data-field="compare-table"]').waitFor({ timeout: 60_000 });
          await page.locator('[data-field="monte-carlo-seeds"]').selectOption('100');
          await page.locator('[data-action="run-monte-carlo"]').click();
          await page.locator('[data-field="monte-carlo-table"]').waitFor({ timeout: 120_000 });
          for (const v of await audit(page)) problems.push(`${where}, comparison: ${v}`);
          // The embed documentation page with the console in its frame.
          await page.goto(`${site.url}embed.html`);
          await page.frameLocator('iframe').first().locator('tr[data-metric="requests_per_s"] .value')
            .filter({ hasText: /\d/ }).waitFor({ state: 'attached', timeout: 30_000 });
          for (const v of await audit(page)) problems.push(`${where}, embed page: ${v}`);
        } finally {
          await browser.close();
        }
      }
    }
    assert.deepEqual(problems, []);
  });
});
