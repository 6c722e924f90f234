// Regions in the console (the build with the extended models): one line per region on the
// traffic and instances charts, read through the charts' text alternatives, legends and
// crosshair; the health checks' transitions in an event family of their own, in a colour that
// reads in both themes; and the debrief's regional comparison of a regional outage played to
// its end, computed in the background.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

import { openPage } from './browser.mjs';
import { servedSuite } from './suite.mjs';
import { DIST, LOAD_TIMEOUT_MS, leadingNumber, load, waitForCharts, waitForMinute } from './helpers.mjs';

if (!existsSync(join(DIST, 'index.html'))) {
  throw new Error('dist/index.html is missing: run `trunk build --release` first');
}

/** The text alternative of chart `id`. */
const chartAlt = (page, id) => page.locator(`canvas[data-chart="${id}"]`).getAttribute('aria-label');

/** WCAG's contrast ratio of two CSS colours written rgb(r, g, b). */
function contrast(a, b) {
  const luminance = (css) => {
    const [r, g, bl] = css.match(/\d+/g).slice(0, 3).map((v) => {
      const c = Number(v) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

describe('regions', () => {
  const suite = servedSuite();

  test('two regions draw a line each on the traffic and instances charts, named in their legends, text alternatives and crosshair', async () => {
    const { page, errors } = await openPage(suite.browser);
    await load(page, suite.site.url, '?scenario=regional-outage&seed=1&t=45');
    await waitForMinute(page, 45);
    await waitForCharts(page, 45);
    for (const id of ['traffic', 'instances']) {
      const legend = await page.locator(`figure[data-chart="${id}"] .legend li`).allTextContents();
      assert.deepEqual(legend.slice(-2).map((l) => l.trim()), ['Region A', 'Region B'], id);
    }
    // Other charts keep their own series only.
    assert.doesNotMatch(await chartAlt(page, 'latency'), /Region/);
    const traffic = await chartAlt(page, 'traffic');
    const served = traffic.match(/Requests\/s ([\d,]+) req\/s, Capacity\/s [\d,]+ req\/s, Region A ([\d,]+) req\/s, Region B ([\d,]+) req\/s/);
    assert.ok(served, traffic);
    const [total, a, b] = served.slice(1).map(leadingNumber);
    // What the regions serve adds up to the total (each is rounded to a request).
    assert.ok(Math.abs(a + b - total) <= 1, traffic);
    // Region a has failed over: region b serves most of the requests.
    assert.ok(b > a, traffic);
    const instances = await chartAlt(page, 'instances');
    const counts = instances.match(/Region A (\d+), Region B (\d+)/);
    assert.ok(counts, instances);
    // The same counts as the regions panel's serving instances.
    for (const [region, shown] of [['a', counts[1]], ['b', counts[2]]]) {
      const cell = await page.locator(`[data-panel="regions"] tr[data-region="${region}"] [data-field="serving"]`).textContent();
      assert.equal(leadingNumber(cell), Number(shown), `${region}: ${cell}`);
    }
    // The crosshair reads each region's value at its minute, and shows it with its swatch.
    const canvas = page.locator('canvas[data-chart="traffic"]');
    await canvas.focus();
    await page.keyboard.press('Home');
    await page.waitForFunction(() =>
      /^11:30: .*Region A [\d,]+ req\/s, Region B [\d,]+ req\/s$/.test(
        document.querySelector('[data-field="chart-crosshair"]').textContent,
      ),
    );
    const tip = page.locator('figure[data-chart="traffic"] [data-field="chart-tip"] li');
    assert.equal(await tip.count(), 4);
    assert.match(await tip.nth(2).locator('.swatch').getAttribute('style'), /--swatch: var\(--region-a\)/);
    assert.match(await tip.nth(3).textContent(), /^Region B [\d,]+ req\/s$/);
    assert.deepEqual(errors, []);
  });

  test('one region keeps the charts as they were', async () => {
    const { page, errors } = await openPage(suite.browser);
    await load(page, suite.site.url, '?scenario=free-play&seed=3&engine=requests&t=3');
    await waitForMinute(page, 3);
    await waitForCharts(page, 3);
    const legend = await page.locator('figure[data-chart="traffic"] .legend li').allTextContents();
    assert.deepEqual(legend.map((l) => l.trim()), ['Requests/s', 'Capacity/s']);
    assert.doesNotMatch(await chartAlt(page, 'traffic'), /Region/);
    assert.doesNotMatch(await chartAlt(page, 'instances'), /Region/);
    assert.deepEqual(errors, []);
  });

  for (const theme of ['light', 'dark']) {
    test(`health transitions are a family of their own in the event log (${theme} theme)`, async () => {
      const { page, errors } = await openPage(suite.browser);
      await load(page, suite.site.url, `?scenario=regional-outage&seed=1&t=45&theme=${theme}`);
      await waitForMinute(page, 45);
      const lines = await page.$$eval('.event-log li', (items) =>
        items.map((li) => ({
          kind: li.dataset.kind,
          label: li.querySelector('.kind').textContent,
          text: li.querySelector('.text').textContent,
        })),
      );
      const health = lines.filter((l) => l.kind === 'health');
      assert.ok(health.some((l) => /Composite health HEALTHY → UNHEALTHY/.test(l.text)), JSON.stringify(lines.slice(0, 12)));
      assert.ok(health.every((l) => l.label === 'health' && / → /.test(l.text)), JSON.stringify(health));
      // Every health event names its region; no line shows a raw NAME=VALUE or an unrounded
      // number, and the failure the seed drew stays hidden until the debrief.
      assert.ok(health.every((l) => /^Region [AB]: /.test(l.text)), JSON.stringify(health));
      assert.deepEqual(lines.filter((l) => /[a-z_]+=\S|\d\.\d{4,}/.test(l.text)), []);
      assert.deepEqual(lines.filter((l) => /The scenario:|zone outage|database of region A fails/.test(l.text)), []);
      // No transition is left in another family; failover is traffic moving.
      assert.deepEqual(lines.filter((l) => l.kind !== 'health' && /HEALTHY →|UNKNOWN →/.test(l.text)), []);
      assert.ok(lines.some((l) => l.kind === 'traffic' && /users of region A now go to region B/.test(l.text)));
      // Its colour is its own, and reads on the panel at the size of the label.
      const [color, background, fleet] = await page.evaluate(() => {
        const label = document.querySelector('.event-log li[data-kind="health"] .kind');
        const panel = document.querySelector('.log-panel');
        const other = document.querySelector('.event-log li[data-kind="fleet"] .kind');
        return [getComputedStyle(label).color, getComputedStyle(panel).backgroundColor, other && getComputedStyle(other).color];
      });
      assert.notEqual(color, fleet);
      assert.ok(contrast(color, background) >= 4.5, `${color} on ${background}: ${contrast(color, background).toFixed(2)}`);
      assert.deepEqual(errors, []);
    });
  }

  test('the debrief of a regional outage compares the budget spent with failover off and with outlier detection only', async () => {
    const { page, errors } = await openPage(suite.browser);
    // A link to the last minute plays the exercise to its end.
    await load(page, suite.site.url, '?scenario=regional-outage&seed=1&t=150');
    await waitForMinute(page, 150);
    await page.locator('#debrief').waitFor({ timeout: LOAD_TIMEOUT_MS });
    const table = page.locator('#debrief [data-field="regional-comparison"]');
    await table.locator('tr[data-comparison="outlier_detection_only"]').waitFor({ timeout: 60_000 });
    const rows = await table.locator('tbody tr').evaluateAll((trs) =>
      trs.map((tr) => [tr.dataset.comparison, [...tr.querySelectorAll('td')].map((td) => td.textContent)]),
    );
    assert.deepEqual(rows.map(([key]) => key), ['as_played', 'failover_off', 'outlier_detection_only']);
    const spent = Object.fromEntries(rows.map(([key, cells]) => [key, leadingNumber(cells[0])]));
    // The same as the debrief's own figure for the run as played.
    const own = await page.locator('#debrief [data-summary="budget_spent"] dd').textContent();
    assert.equal(spent.as_played, leadingNumber(own));
    // Without failover region a's users stay on its broken fleet: more budget spent than
    // as played, where failover moved them (seed 1's zone outage).
    assert.ok(spent.failover_off > spent.as_played, JSON.stringify(spent));
    assert.ok(Number.isFinite(spent.outlier_detection_only), JSON.stringify(spent));
    assert.equal(await page.locator('#debrief [data-field="regional-status"]').textContent(), '');
    // The debrief reveals the failure the seed drew, in words, and the log now shows it.
    const twists = await page.locator('#debrief [data-field="twist"]').allTextContents();
    assert.ok(/^At \d\d:\d\d: zone outage in region A: \d+ % of its instances down\./.test(twists[0] ?? ''), JSON.stringify(twists));
    const log = await page.$$eval('.event-log li .text', (items) => items.map((li) => li.textContent));
    assert.ok(log.some((l) => /^The scenario: zone outage in region A: \d+ %/.test(l)), JSON.stringify(log.slice(-12)));
    // Par still comes first, found the same way.
    await page.locator('.par tr[data-par="best_single_action"]').waitFor({ timeout: 60_000 });
    assert.deepEqual(errors, []);
  });
});
