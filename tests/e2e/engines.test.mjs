// The request-level engine and the regions in the console: request mode from a link, each
// load-balancing policy selectable, the request-level panel with its text alternatives,
// hedging's rule as a notice naming both timeouts; the regional outage from a link with its
// regions panel, the health transitions in the event log and a health-policy change with its
// notice.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

import { openPage } from './browser.mjs';
import { servedSuite } from './suite.mjs';
import { DIST, LOAD_TIMEOUT_MS, linkParams, load, readLog, step, waitForMinute } from './helpers.mjs';

if (!existsSync(join(DIST, 'index.html'))) {
  throw new Error('dist/index.html is missing: run `trunk build --release` first');
}

describe('request mode and regions', () => {
  const suite = servedSuite();

  test('request mode from a link draws the request-level panel with its text alternatives', async () => {
    const { page, errors } = await openPage(suite.browser);
    await load(page, suite.site.url, '?scenario=free-play&seed=3&engine=requests&lb=round-robin&t=5');
    await waitForMinute(page, 5);
    const panel = page.locator('[data-panel="requests"]');
    await panel.waitFor({ timeout: LOAD_TIMEOUT_MS });
    assert.equal(await page.locator('[data-field="engine"]').inputValue(), 'requests');
    assert.equal(await page.locator('[data-field="lb"]').inputValue(), 'round-robin');
    // About 1,100 requests a second: tens of thousands a minute, every one served.
    const summary = (await panel.locator('.panel-head p').textContent()).replace(/,/g, '');
    const [arrived, served] = summary.match(/\d+/g).map(Number);
    assert.ok(arrived > 40000 && arrived < 100000, summary);
    assert.ok(served <= arrived, summary);
    // One bar per instance, as many as serve (and those starting or stopping).
    const serving = Number(await page.locator('tr[data-metric="serving"] .value').textContent());
    const bars = await panel.locator('.instance-bar').count();
    assert.ok(bars >= serving && serving > 0, `${bars} bars, ${serving} serving`);
    // Each bar carries its value (its utilization, in percent, as its title says) and its
    // number, beside an axis from 0 to 100 %.
    assert.deepEqual(
      (await panel.locator('.instances-axis .axis-tick').allTextContents()).map((s) => s.trim()),
      ['100 %', '50 %', '0 %'],
    );
    const labelled = await panel.locator('.instance-bar').evaluateAll((list) => list.map((bar) => ({
      value: bar.querySelector('.value').textContent,
      number: bar.querySelector('.number').textContent,
      title: bar.title,
      shown: getComputedStyle(bar.querySelector('.value')).display !== 'none',
    })));
    labelled.forEach((bar, i) => {
      assert.equal(bar.number, String(i + 1));
      assert.ok(bar.title.includes(`${bar.value} %`), `${bar.value} in ${bar.title}`);
      assert.equal(bar.shown, labelled.length <= 16);
    });
    // The histogram's axis labels stay inside its width.
    const overflow = await panel.locator('.histogram').evaluate((h) => {
      const box = h.getBoundingClientRect();
      return [...h.querySelectorAll('.tick')].filter((t) => {
        const r = t.getBoundingClientRect();
        return r.left < box.left - 0.5 || r.right > box.right + 0.5;
      }).map((t) => t.textContent);
    });
    assert.deepEqual(overflow, []);
    const instancesAlt = await panel.locator('.instances').getAttribute('aria-label');
    assert.match(instancesAlt, /^\d+ instances serving, from \d+ % to \d+ % busy; instance \d+ served the most$/);
    const histogramAlt = await panel.locator('.histogram').getAttribute('aria-label');
    assert.match(histogramAlt, /p50 \d+ ms, p99 \d+ ms; the formula's p99 \d+ ms$/);
    // The formulas beside the requests: utilization within a few points of each other.
    const row = panel.locator('[data-field="formula-vs-requests"] tbody tr').first();
    const [formula, measured] = (await row.locator('td').allTextContents()).map(parseFloat);
    assert.ok(Math.abs(formula - measured) < 3, `${formula} vs ${measured}`);
    // No fault in free play: the formula column is the formula, with nothing to explain.
    assert.equal(await panel.locator('[data-field="formula-gap"]').count(), 0);
    assert.deepEqual(errors, []);
  });

  test('while the hot key is in force the formula column is labelled the healthy baseline', async () => {
    const { page, errors } = await openPage(suite.browser);
    // Seed 1's worst minute is 12:15 (minute 36), the hot key on one instance under Maglev.
    await load(page, suite.site.url, '?scenario=hot-key&seed=1&t=36');
    await waitForMinute(page, 36);
    const panel = page.locator('[data-panel="requests"]');
    await panel.waitFor({ timeout: LOAD_TIMEOUT_MS });
    const head = await panel.locator('[data-field="formula-vs-requests"] thead th').nth(1).textContent();
    assert.equal(head.trim(), 'Formula (healthy fleet)');
    assert.match(
      await panel.locator('[data-field="formula-gap"]').textContent(),
      /^The formula is the healthy baseline, .* the hot key's \d+ % of the requests, all sent to one instance, is not in it/,
    );
    assert.deepEqual(errors, []);
  });

  test('each load-balancing policy can be chosen, and the link carries it', async () => {
    const { page, errors } = await openPage(suite.browser);
    await load(page, suite.site.url, '?scenario=free-play&seed=4&engine=requests&t=3');
    await waitForMinute(page, 3);
    for (const policy of ['round-robin', 'random', 'ring-hash', 'maglev', 'least-request']) {
      await page.locator('[data-field="lb"]').selectOption(policy);
      await page.waitForFunction((p) => new URL(location.href).searchParams.get('lb') === p, policy, {
        timeout: LOAD_TIMEOUT_MS,
      });
      // The run is replayed under the policy to the same minute.
      await waitForMinute(page, 3);
      assert.equal(await page.locator('[data-field="lb"]').inputValue(), policy);
      await page.locator('[data-panel="requests"]').waitFor();
    }
    assert.equal(linkParams(page).engine, 'requests');
    // Back to the formulas: the panel goes, the run stays.
    await page.locator('[data-field="engine"]').selectOption('formulas');
    await page.locator('[data-panel="requests"]').waitFor({ state: 'detached', timeout: LOAD_TIMEOUT_MS });
    await waitForMinute(page, 3);
    assert.deepEqual(errors, []);
  });

  test('a hedge delay past the timeouts is a notice naming both, from a link and from the field', async () => {
    const { page, errors } = await openPage(suite.browser);
    await load(page, suite.site.url, '?scenario=free-play&seed=5&engine=requests&hedge=on&hedge_delay_ms=5000&t=2');
    const notice = page.locator('.notices [role="alert"]').filter({ hasText: 'hedge_delay_ms' });
    await notice.waitFor({ timeout: LOAD_TIMEOUT_MS });
    const text = await notice.textContent();
    assert.match(text, /timeout_s: 2 s/);
    assert.match(text, /total_timeout_s: 600 s/);
    // The valid parameters stay: request mode, and the delay back at its default.
    assert.equal(await page.locator('[data-field="engine"]').inputValue(), 'requests');
    assert.equal(await page.locator('[data-param="hedge_delay_ms"]').inputValue(), '1000');
    // The field refuses the same, with the same words, and the run is left as it was.
    await page.locator('[data-field="hedge"]').check();
    await page.waitForFunction(() => new URL(location.href).searchParams.get('hedge') === 'on', null, {
      timeout: LOAD_TIMEOUT_MS,
    });
    const before = page.url();
    await page.locator('[data-param="hedge_delay_ms"]').fill('2500');
    await page.locator('[data-param="hedge_delay_ms"]').press('Enter');
    await page.locator('[data-param="hedge_delay_ms"]').blur();
    const error = page.locator('[data-field="engine-error"]');
    await page.waitForFunction(() => /timeout_s: 2 s/.test(document.querySelector('[data-field="engine-error"]').textContent));
    assert.match(await error.textContent(), /total_timeout_s: 600 s/);
    assert.equal(page.url(), before);
    assert.deepEqual(errors, []);
  });

  test("the engine's parameters from a link round-trip, a bad one is a notice naming it, and the elastic file's lb_policy sets lb", async () => {
    const { page, errors } = await openPage(suite.browser);
    // The lognormal service time and its shape from a link: shown in the bar, kept in the link.
    await load(page, suite.site.url, '?scenario=free-play&seed=6&engine=requests&service_shape=lognormal&service_sigma=1.5&t=2');
    await waitForMinute(page, 2);
    assert.equal(await page.locator('[data-field="service_shape"]').inputValue(), 'lognormal');
    assert.equal(await page.locator('[data-param="service_sigma"]').inputValue(), '1.5');
    let params = linkParams(page);
    assert.equal(params.service_shape, 'lognormal');
    assert.equal(params.service_sigma, '1.5');
    // The shape chosen in the bar goes into the link, and σ is hidden with the exponential.
    await page.locator('[data-field="service_shape"]').selectOption('exponential');
    await page.waitForFunction(() => !new URL(location.href).searchParams.has('service_shape'), null, {
      timeout: LOAD_TIMEOUT_MS,
    });
    assert.equal(await page.locator('[data-param="service_sigma"]').isVisible(), false);
    assert.equal(linkParams(page).service_sigma, '1.5');

    // Values the parameters do not allow: a notice each, naming it and what is allowed.
    await load(page, suite.site.url, '?scenario=free-play&seed=6&engine=requests&service_shape=pareto&service_sigma=9&t=1');
    const shape = page.locator('.notices [role="alert"]').filter({ hasText: 'service_shape' });
    await shape.waitFor({ timeout: LOAD_TIMEOUT_MS });
    assert.match(await shape.textContent(), /exponential, lognormal/);
    const sigma = page.locator('.notices [role="alert"]').filter({ hasText: 'service_sigma' });
    assert.match(await sigma.textContent(), /0 to 4/);
    assert.equal(await page.locator('[data-field="service_shape"]').inputValue(), 'exponential');
    params = linkParams(page);
    assert.equal(params.service_shape, undefined);
    assert.equal(params.engine, 'requests');

    // The elastic scaler's file: an unknown lb_policy is refused naming the field, a known one
    // becomes the run's lb, which the link carries.
    await load(page, suite.site.url, '?scenario=free-play&seed=6&autoscaler=elastic&t=1');
    await page.locator('[data-action="open-policy"]').click();
    await page.locator('[data-panel="policy"]').waitFor({ timeout: LOAD_TIMEOUT_MS });
    const text = page.locator('#config-text');
    const apply = page.locator('[data-action="config-apply"]');
    const inUse = await text.inputValue();
    assert.match(inUse, /"lb_policy": "LEAST_REQUEST"/);
    await text.fill(inUse.replace('LEAST_REQUEST', 'FASTEST'));
    await apply.click();
    const status = page.locator('.config-status');
    assert.equal(await status.getAttribute('data-status'), 'error');
    const refused = await status.textContent();
    assert.match(refused, /lb_policy/);
    assert.match(refused, /ROUND_ROBIN/);
    assert.match(refused, /MAGLEV/);
    assert.equal(linkParams(page).lb, undefined);
    await text.fill(inUse.replace('LEAST_REQUEST', 'MAGLEV'));
    await apply.click();
    // Maglev needs the extended build: the first download hands the run on to it.
    await page.waitForURL((url) => url.searchParams.get('lb') === 'maglev', { timeout: LOAD_TIMEOUT_MS });
    await waitForMinute(page, 1);
    assert.equal(linkParams(page).autoscaler, 'elastic');
    assert.deepEqual(errors, []);
  });

  test('the regional outage from a link: the regions panel, the failover in the log, a health-policy change and its notice', async () => {
    const { page, errors } = await openPage(suite.browser);
    await load(page, suite.site.url, '?scenario=regional-outage&seed=1&t=45');
    await waitForMinute(page, 45);
    const panel = page.locator('[data-panel="regions"]');
    await panel.waitFor({ timeout: LOAD_TIMEOUT_MS });
    const a = panel.locator('tr[data-region="a"]');
    const b = panel.locator('tr[data-region="b"]');
    // Seed 1 loses most of region a's instances at its peak: a fails over to b.
    assert.equal(await a.locator('[data-field="composite"]').textContent(), 'UNHEALTHY');
    assert.match(await a.locator('[data-field="consumer"]').textContent(), /^UNHEALTHY/);
    assert.match(await a.locator('[data-field="routed"]').textContent(), /region B/);
    assert.equal(await b.locator('[data-field="composite"]').textContent(), 'HEALTHY');
    assert.match(await a.locator('[data-field="app"]').textContent(), /^UNHEALTHY\s*\d+ of \d+ healthy \(needs 60 % and 1\)$/);
    const log = await readLog(page);
    assert.ok(log.some((l) => /Region A: Composite health HEALTHY → UNHEALTHY/.test(l)), log.slice(0, 10).join('\n'));
    assert.ok(log.some((l) => /users of region A now go to region B/.test(l)), log.slice(0, 10).join('\n'));
    // The health policy, changed live: the notice says it applies at once.
    assert.match(await panel.locator('[data-field="no-test-mode"]').textContent(), /no test mode/);
    await panel.locator('[data-region-control="healthy_percent"]').fill('30');
    await panel.locator('[data-region-control="healthy_percent"] + button').click();
    await step(page);
    const after = await readLog(page);
    assert.ok(after.some((l) => /healthy share needed → 30 %/.test(l)), after.slice(0, 10).join('\n'));
    assert.match(linkParams(page).actions, /45:healthy_percent=30/);
    // At 30 % the 2 of 6 instances left are enough: region a is healthy again and its users
    // come back, at once (there is no test mode).
    await page.waitForFunction(() =>
      /needs 30 %/.test(document.querySelector('tr[data-region="a"] [data-field="app"]').textContent),
    );
    assert.equal(await a.locator('[data-field="composite"]').textContent(), 'HEALTHY');
    assert.match(await a.locator('[data-field="routed"]').textContent(), /their own region/);
    const back = await readLog(page);
    assert.ok(back.some((l) => /users of region A now go to region A/.test(l)), back.slice(0, 10).join('\n'));
    assert.deepEqual(errors, []);
  });
  test('host selection around health from a link: the slow instance ejected by outlier detection, shown in the request panel', async () => {
    const { page, errors } = await openPage(suite.browser);
    await load(page, suite.site.url, '?scenario=slow-instance&seed=1&t=20&outlier_detection=on&slow_start_window_s=60');
    await waitForMinute(page, 20);
    const line = page.locator('[data-panel="requests"] [data-field="host-selection"]');
    await line.waitFor({ timeout: LOAD_TIMEOUT_MS });
    assert.match(await line.textContent(), /^Outlier detection: 1 instance ejected now, 1 ejected this minute\. Slow start: no instance in its window\.$/);
    // Without the parameters the panel says both are off.
    await load(page, suite.site.url, '?scenario=slow-instance&seed=1&t=20');
    await waitForMinute(page, 20);
    assert.equal(await line.textContent(), 'Outlier detection and slow start are off.');
    assert.deepEqual(errors, []);
  });
});
