// End-to-end tests of the autoscaling policies in the built console (dist/) in headless
// Chromium: the policy picker and its parameters, the elastic scaler's configuration file and
// the comparison of two policies. Deterministic: runs advance with Step or the link's `t`.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { serveStatic } from './static-server.mjs';
import { openBrowser, openPage } from './browser.mjs';
import {
  ARTIFACTS,
  DIST,
  LOAD_TIMEOUT_MS,
  linkParams,
  load,
  shownMinute,
  step,
  waitForMinute,
} from './helpers.mjs';

const EXAMPLE_CONFIG = join(DIST, '..', 'sim', 'tests', 'data', 'elastic-config.jsonc');

// Cloud Run's drivers, as its scaling decisions name them.
const CLOUD_RUN_DRIVERS = /^(cpu|concurrency|act|on-demand|maximum)$/;

const picker = (page) => page.locator('#policy-panel-select');
const param = (page, name) => page.locator(`[data-param="${name}"] input`);
const paramError = (page, name) => page.locator(`[data-param="${name}"] .field-error`);
const activeDriver = async (page) =>
  (await page.locator('[data-field="active-driver"]').textContent()).trim();

/** Waits until the link's parameter `name` is `value` (`null`: absent). */
async function waitForParam(page, name, value) {
  await page.waitForFunction(
    ([n, v]) => new URL(location.href).searchParams.get(n) === v,
    [name, value],
    { timeout: LOAD_TIMEOUT_MS },
  );
}

/** The scaling lines of the event log: { time, text }. */
async function scalingLines(page) {
  return page.$$eval('.event-log li[data-kind="scaling"]', (items) =>
    items.map((li) => ({
      time: li.querySelector('time')?.textContent.trim(),
      text: li.querySelector('.text')?.textContent.trim(),
    })),
  );
}

/**
 * Opens the policy panel: its module is downloaded then, not with the console; it replaces
 * the placeholder's button with the panel.
 */
async function openPolicy(page) {
  await page.locator('[data-action="open-policy"]').click();
  await page.locator('[data-panel="policy"]').waitFor({ timeout: LOAD_TIMEOUT_MS });
}

/**
 * Opens the comparison: its module is downloaded then, not with the console; it replaces the
 * placeholder's button with the comparison's controls.
 */
async function openComparison(page) {
  await page.locator('[data-action="open-compare"]').click();
  await page.locator('[data-action="compare"]').waitFor({ timeout: LOAD_TIMEOUT_MS });
}

/** The comparison table: row key → { a, b }. */
async function comparisonTable(page) {
  return page.$$eval('[data-field="compare-table"] tbody tr', (rows) =>
    Object.fromEntries(
      rows.map((r) => [
        r.dataset.row,
        {
          a: r.querySelector('td[data-run="a"] .value').textContent.trim(),
          b: r.querySelector('td[data-run="b"] .value').textContent.trim(),
          best: [...r.querySelectorAll('td.best')].map((td) => td.dataset.run),
          better: [...r.querySelectorAll('td .visually-hidden')].map((s) => s.textContent.trim()),
        },
      ]),
    ),
  );
}

describe('autoscaling policies', () => {
  let site;
  let browser;

  before(async () => {
    assert.ok(existsSync(join(DIST, 'index.html')), 'dist/index.html is missing: run trunk build');
    site = await serveStatic(DIST);
    browser = await openBrowser({ width: 1440, height: 900 });
    await mkdir(ARTIFACTS, { recursive: true });
  });

  after(async () => {
    await browser?.close();
    await site?.close();
    assert.deepEqual(browser?.offHost ?? [], [], 'the page tried to reach another host');
    assert.deepEqual(browser?.violations ?? [], [], 'the Content-Security-Policy blocked something');
  });

  test('picking a policy changes the link and the run; the log names policy and driver', async () => {
    const { page, errors } = await openPage(browser);
    await load(page, site.url, '?scenario=viral-surge&seed=42');
    await openPolicy(page);
    await step(page, 3);
    assert.equal(linkParams(page).autoscaler, undefined, 'target tracking is the default');
    assert.match(await activeDriver(page), /^Active driver: /);

    await picker(page).selectOption('cloud-run');
    await waitForParam(page, 'autoscaler', 'cloud-run');
    // The same run replayed under Cloud Run: the same minute, scenario and seed.
    await waitForMinute(page, 4);
    // The first download runs target tracking alone: the run went on to the extended build's
    // page, where the panel in which the policy was picked is open again.
    assert.match(new URL(page.url()).pathname, /\/full\.html$/);
    await page.locator('[data-panel="policy"]').waitFor({ timeout: LOAD_TIMEOUT_MS });
    assert.equal(linkParams(page).t, '4');
    const params = linkParams(page);
    assert.equal(params.scenario, 'viral-surge');
    assert.equal(params.seed, '42');
    assert.equal(await page.locator('#policy-select').inputValue(), 'cloud-run');
    assert.match(
      await page.locator('[data-field="policy-summary"]').textContent(),
      /CPU, concurrency and ACT/,
    );
    assert.match(
      await page.locator('.policy-params legend').textContent(),
      /Parameters of Cloud Run/,
    );
    await step(page, 2);
    assert.equal(await shownMinute(page), 6);

    // The viral surge of seed 42 starts before 09:30; replay the link to 09:45.
    const query = new URL(page.url()).search.replace(/([?&])t=\d+/, '$1t=76');
    await load(page, site.url, query);
    await waitForMinute(page, 76);
    await openPolicy(page);
    const lines = await scalingLines(page);
    assert.ok(lines.length > 0, 'no scaling decision in the log');
    for (const { text } of lines) {
      const match = text.match(/^Cloud Run, ([a-z-]+): \d+ → \d+ instances?\. (.+)$/);
      assert.ok(match, `scaling line without policy, driver and detail: ${text}`);
      assert.match(match[1], CLOUD_RUN_DRIVERS, text);
    }
    assert.ok(
      lines.some(({ text }) => /^Cloud Run, concurrency: .* concurrency max\(/.test(text)),
      JSON.stringify(lines.slice(0, 5)),
    );
    // Decisions inside a minute carry their second.
    assert.ok(lines.some(({ time }) => /^\d\d:\d\d:\d\d$/.test(time)), JSON.stringify(lines));
    const driver = (await activeDriver(page)).replace('Active driver: ', '');
    assert.match(driver, CLOUD_RUN_DRIVERS);
    assert.deepEqual(errors, []);
  });

  test('an out-of-range parameter is named with its range and changes nothing', async () => {
    const { page, errors } = await openPage(browser);
    await load(page, site.url, '?scenario=viral-surge&seed=42&autoscaler=hpa');
    await openPolicy(page);
    await step(page, 3);
    const before = page.url();
    const tolerance = param(page, 'hpa.tolerance');
    assert.equal(await tolerance.inputValue(), '0.1');
    // The parameter's doc comes with the reference sheet; its range is there at once.
    const help = page.locator('[data-param="hpa.tolerance"] .param-help');
    assert.match(await help.textContent(), /0 to 1; default 0\.1/);
    await page.waitForFunction(
      () => /is within this/.test(document.querySelector('[data-param="hpa.tolerance"] .param-help').textContent),
      null,
      { timeout: LOAD_TIMEOUT_MS },
    );

    for (const typed of ['7', 'abc', '-0.5']) {
      await tolerance.fill(typed);
      await tolerance.press('Tab');
      const error = (await paramError(page, 'hpa.tolerance').textContent()).trim();
      assert.match(error, /^hpa\.tolerance: .*0 to 1.*Nothing was changed\.$/, error);
      assert.equal(await tolerance.getAttribute('aria-invalid'), 'true');
      assert.equal(page.url(), before, `the link changed after ${typed}`);
      assert.equal(await shownMinute(page), 4, `the run restarted after ${typed}`);
    }
    // A rule between fields is checked too (the HPA's, or here the elastic scaler's
    // min_nodes ≤ max_nodes is tested natively); the run goes on as it was.
    await step(page, 1);
    assert.equal(await shownMinute(page), 5);

    // A valid value, typed with the keyboard, replays the run under it to the same minute.
    await tolerance.focus();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('0.25');
    await page.keyboard.press('Enter');
    await waitForParam(page, 'hpa.tolerance', '0.25');
    await waitForMinute(page, 5);
    assert.equal(linkParams(page).t, '5');
    assert.equal((await paramError(page, 'hpa.tolerance').textContent()).trim(), '');
    assert.equal(await tolerance.getAttribute('aria-invalid'), 'false');

    await page.locator('.policy-reset').click();
    await waitForParam(page, 'hpa.tolerance', null);
    assert.equal(await tolerance.inputValue(), '0.1');
    assert.ok(await page.locator('.policy-reset').isDisabled());
    assert.deepEqual(errors, []);
  });

  test("the source's elastic config is accepted, a broken one rejected naming the field", async () => {
    const { page, errors } = await openPage(browser);
    await load(page, site.url, '?scenario=viral-surge&seed=42&autoscaler=elastic');
    await openPolicy(page);
    const example = await readFile(EXAMPLE_CONFIG, 'utf8');
    const text = page.locator('#config-text');
    const status = page.locator('.config-status');
    const apply = page.locator('[data-action="config-apply"]');

    // The source's file as it is: valid, with the scaler's defaults, and notes about the
    // cloud-specific fields it ignores.
    await text.fill(example);
    await apply.click();
    assert.equal(await status.getAttribute('data-status'), 'ok');
    const notes = await page.$$eval('.config-notes li', (items) => items.map((li) => li.dataset.note));
    for (const field of ['openapi_base_url', 'token', 'scale_up_request', 'dashboard']) {
      assert.ok(notes.includes(field), `no note about ${field}: ${notes}`);
    }

    // The same file with other limits is applied: the run starts again with them.
    await step(page, 2);
    const changed = example
      .replace('"max_nodes": 20', '"max_nodes": 16')
      .replace('"min_nodes": 2,', '"min_nodes": 3,');
    await text.fill(changed);
    await apply.click();
    await waitForParam(page, 'elastic.max_nodes', '16');
    assert.equal(linkParams(page)['elastic.min_nodes'], '3');
    // The run is replayed under the new limits to the minute it had reached.
    await waitForMinute(page, 3);
    assert.match(await status.textContent(), /^Applied/);
    assert.equal(await param(page, 'elastic.max_nodes').inputValue(), '16');

    // Broken variants: rejected, the field named, nothing changed.
    await step(page, 1);
    const before = page.url();
    const broken = [
      [changed.replace('"max_nodes": 16', '"max_nodes": 999'), /^Rejected.*max_nodes: .*1 to 200/],
      [changed.replace('"lb_policy":"LEAST_REQUEST"', '"lb_policy":"FASTEST"'), /lb_policy: .*ROUND_ROBIN/],
      [changed.replace('"delay_time": 2,', '"delay_time": "2s",'), /delay_prediction\.delay_time/],
      [changed.replace('"acq_frequency":10,', '"acq_frequncy":10,'), /acq_frequncy: unknown field/],
      [changed.slice(0, 200), /^Rejected.*json: /],
    ];
    for (const [variant, expected] of broken) {
      await text.fill(variant);
      await apply.click();
      assert.equal(await status.getAttribute('data-status'), 'error');
      assert.match(await status.textContent(), expected);
      assert.equal(page.url(), before);
      assert.equal(await shownMinute(page), 4);
      assert.equal(await param(page, 'elastic.max_nodes').inputValue(), '16');
    }

    // Uploading a file goes through the same check.
    const upload = page.locator('[data-field="config-file"]');
    await upload.setInputFiles({
      name: 'broken.jsonc',
      mimeType: 'application/json',
      buffer: Buffer.from(example.replace('"max_requests":1000', '"max_requests":0')),
    });
    await page.waitForFunction(() => /max_requests/.test(document.querySelector('.config-status')?.textContent ?? ''));
    assert.equal(await status.getAttribute('data-status'), 'error');
    assert.equal(page.url(), before);
    await upload.setInputFiles({
      name: 'elastic-config.jsonc',
      mimeType: 'application/json',
      buffer: Buffer.from(example.replace('"max_nodes": 20', '"max_nodes": 12')),
    });
    await waitForParam(page, 'elastic.max_nodes', '12');
    assert.equal(await status.getAttribute('data-status'), 'ok');

    // The export gives the configuration in use back, ignored fields included.
    await page.locator('[data-action="config-in-use"]').click();
    const parsed = JSON.parse(await text.inputValue());
    assert.equal(parsed.max_nodes, 12);
    assert.equal(parsed.scale_up_request.task_name, 'test');
    const href = await page.locator('[data-action="config-download"]').getAttribute('href');
    assert.ok(href.startsWith('data:application/json'), href);
    assert.equal(JSON.parse(decodeURIComponent(href.split(',')[1])).max_nodes, 12);
    assert.deepEqual(errors, []);
  });

  test('the comparison view runs two policies whose summaries differ', async () => {
    const { page, errors } = await openPage(browser);
    await load(page, site.url, '?scenario=viral-surge&seed=42&t=30');
    await waitForMinute(page, 30);
    await openComparison(page);
    await page.locator('#compare-a').selectOption('target-tracking');
    await page.locator('#compare-b').selectOption('elastic');
    await page.locator('[data-action="compare"]').click();
    await page.locator('[data-field="compare-table"]').waitFor({ timeout: LOAD_TIMEOUT_MS });

    const heads = await page.$$eval('[data-field="compare-table"] thead th[data-run]', (ths) =>
      ths.map((th) => th.textContent.trim()),
    );
    assert.deepEqual(heads, ['Target tracking', 'Elastic multi-strategy (Envoy)']);
    assert.match(
      await page.locator('[data-field="compare-table"] caption').textContent(),
      /240 minutes of Viral surge, seed 42/,
    );
    const table = await comparisonTable(page);
    for (const key of [
      'budget_spent',
      'cost',
      'worst_p99_ms',
      'minutes_paging',
      'minutes_over_budget_rate',
      'instance_minutes',
      'scaling_decisions',
    ]) {
      assert.ok(table[key], `no row ${key}`);
    }
    const differing = Object.keys(table).filter((k) => table[k].a !== table[k].b);
    assert.ok(differing.includes('instance_minutes'), JSON.stringify(table));
    assert.ok(differing.includes('cost') && differing.includes('budget_spent'), JSON.stringify(table));
    // Figures come with their units, large totals grouped; the better value of a row is
    // marked (a class, and a word for screen readers), only where less is better.
    assert.match(table.failed_requests.a, /^[\d,]+ requests$/);
    assert.match(table.instance_minutes.a, /^\d{1,3}(,\d{3})* instance-min$/);
    assert.match(table.peak_instances.a, /^\d+ instances?$/);
    assert.match(table.scaling_decisions.a, /^\d+ decisions?$/);
    for (const [key, row] of Object.entries(table)) {
      assert.doesNotMatch(`${row.a} ${row.b}`, /\d{5}/, `${key}: ungrouped total`);
      if (['scaling_decisions', 'peak_instances'].includes(key) || row.a === row.b) {
        assert.deepEqual(row.best, [], key);
      } else {
        assert.equal(row.best.length, 1, key);
        assert.deepEqual(row.better, ['(better)'], key);
      }
    }
    const lower = (text) => Number(text.replace(/[^\d.]/g, ''));
    const cheaper = lower(table.cost.a) < lower(table.cost.b) ? 'a' : 'b';
    assert.deepEqual(table.cost.best, [cheaper]);

    // Four overlaid charts, drawn, each with a text alternative naming both policies.
    const canvases = page.locator('[data-panel="compare"] canvas');
    assert.equal(await canvases.count(), 4);
    await page.waitForFunction(() =>
      [...document.querySelectorAll('[data-panel="compare"] canvas')].every(
        (c) => c.dataset.drawn === 'true' && !c.dataset.error,
      ),
    );
    for (const label of await canvases.evaluateAll((cs) => cs.map((c) => c.getAttribute('aria-label')))) {
      assert.match(label, /Target tracking \(solid\) and Elastic multi-strategy \(Envoy\) \(dashed\)/);
    }

    // "So far" compares the minutes played: the same table, over 30 minutes.
    await page.locator('#compare-span').selectOption('so-far');
    await page.locator('[data-action="compare"]').click();
    await page.waitForFunction(() =>
      /over 30 minutes/.test(document.querySelector('[data-field="compare-table"] caption')?.textContent ?? ''),
    );
    // The run itself was not touched.
    assert.equal(await shownMinute(page), 30);
    assert.equal(linkParams(page).autoscaler, undefined);
    assert.deepEqual(errors, []);
  });

  test('the policy panel and the comparison fit 390 px and 1440 px, light and dark', async () => {
    for (const [width, scheme] of [
      [390, 'light'],
      [1440, 'dark'],
      [390, 'dark'],
      [1440, 'light'],
    ]) {
      const { page, errors } = await openPage(browser);
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme });
      await load(page, site.url, '?scenario=viral-surge&seed=42&autoscaler=elastic&t=90');
      await waitForMinute(page, 90);
      await openPolicy(page);
      await openComparison(page);
      await page.locator('[data-action="compare"]').click();
      await page.locator('[data-field="compare-table"]').waitFor({ timeout: LOAD_TIMEOUT_MS });
      await page.waitForFunction(() =>
        [...document.querySelectorAll('[data-panel="compare"] canvas')].every((c) => c.dataset.drawn === 'true'),
      );
      const overflowing = await page.$$eval('[data-panel="policy"], [data-panel="compare"]', (panels) =>
        panels
          .filter((p) => p.scrollWidth > p.clientWidth + 1 || p.getBoundingClientRect().right > window.innerWidth)
          .map((p) => `${p.dataset.panel}: ${p.scrollWidth} > ${p.clientWidth}`),
      );
      assert.deepEqual(overflowing, [], `${width} px ${scheme}`);
      // Every input of the panel has a label.
      const unlabelled = await page.$$eval('[data-panel="policy"] input, [data-panel="policy"] select, [data-panel="policy"] textarea, [data-panel="compare"] select', (els) =>
        els.filter((e) => e.labels === null || e.labels.length === 0).map((e) => e.id || e.outerHTML.slice(0, 60)),
      );
      assert.deepEqual(unlabelled, []);
      await page.locator('[data-panel="policy"]').screenshot({
        path: join(ARTIFACTS, `policy-${width}-${scheme}.png`),
      });
      await page.locator('[data-panel="compare"]').screenshot({
        path: join(ARTIFACTS, `compare-${width}-${scheme}.png`),
      });
      assert.deepEqual(errors, []);
      await page.close();
    }
  });
});
