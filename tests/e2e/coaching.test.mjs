// End-to-end tests of what coaches the trainee: the bare link opens the exercises as cards
// (a run link does not), the clock stops when the page fires (unless the link turns it off),
// at the minute the page fired, and says why; on a phone the console is a set of tabs, so that
// a control and its effect are one tap apart.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

import { serveStatic } from './static-server.mjs';
import { openBrowser, openPage } from './browser.mjs';
import {
  DIST,
  LOAD_TIMEOUT_MS,
  PLAY_TIMEOUT_MS,
  control,
  load,
  metricValue,
  shownMinute,
  step,
  timeButton,
  waitForCharts,
  waitForMinute,
} from './helpers.mjs';

describe('coaching while playing', () => {
  let site;
  let browser;

  before(async () => {
    assert.ok(existsSync(join(DIST, 'index.html')), 'dist/index.html is missing: run trunk build');
    site = await serveStatic(DIST);
    browser = await openBrowser({ width: 1280, height: 900 });
  });

  after(async () => {
    await browser?.close();
    await site?.close();
    assert.deepEqual(browser?.offHost ?? [], [], 'the page tried to reach another host');
    assert.deepEqual(browser?.violations ?? [], [], 'the Content-Security-Policy blocked something');
  });

  test('the bare link opens the start view; a run link does not', async () => {
    const { page, errors } = await openPage(browser);
    await page.goto(site.url);
    await page.locator('.start-view').waitFor({ timeout: LOAD_TIMEOUT_MS });
    const cards = await page.$$eval('.start-card', (els) =>
      els.map((el) => ({ scenario: el.dataset.scenario, first: el.classList.contains('first') })),
    );
    assert.deepEqual(cards.map((c) => c.scenario), [
      'bad-deploy',
      'viral-surge',
      'cache-flush',
      'slow-instance',
      'hot-key',
      'regional-outage',
    ]);
    assert.deepEqual(cards.filter((c) => c.first).map((c) => c.scenario), ['bad-deploy']);
    assert.equal(await page.locator('.status-strip').isVisible(), false);
    // The marked card starts its exercise: the console shows it, and the link names it.
    await page.locator('.start-card.first [data-action="start"]').click();
    await page.locator('.start-view').waitFor({ state: 'detached', timeout: LOAD_TIMEOUT_MS });
    await page.waitForFunction(() => new URL(location.href).searchParams.get('scenario') === 'bad-deploy', null, {
      timeout: LOAD_TIMEOUT_MS,
    });
    assert.equal(await page.locator('#scenario-select').inputValue(), 'bad-deploy');
    assert.equal(await page.locator('.status-strip').isVisible(), true);
    assert.equal(await shownMinute(page), 1);

    // Free play is one click away.
    const { page: other, errors: e2 } = await openPage(browser);
    await other.goto(site.url);
    await other.locator('[data-action="free-play"]').click();
    await other.locator('.start-view').waitFor({ state: 'detached', timeout: LOAD_TIMEOUT_MS });
    assert.equal(await other.locator('#scenario-select').inputValue(), 'free-play');

    // A run link opens the run.
    const { page: run, errors: e3 } = await openPage(browser);
    await load(run, site.url, '?scenario=viral-surge&seed=3');
    assert.equal(await run.locator('.start-view').count(), 0);
    assert.deepEqual([...errors, ...e2, ...e3], []);
  });

  test('pause when paged stops the clock at the minute the page fires', async () => {
    const { page, errors } = await openPage(browser);
    await load(page, site.url, '?scenario=bad-deploy&seed=7&speed=60');
    assert.equal(await page.locator('[data-time="pause-on-page"]').isChecked(), true);
    await timeButton(page, 'play').click();
    await page.locator('[data-field="paging"]', { hasText: 'Paging' }).waitFor({ timeout: PLAY_TIMEOUT_MS });
    await timeButton(page, 'play').filter({ hasText: 'Play' }).waitFor({ timeout: PLAY_TIMEOUT_MS });
    const stopped = await shownMinute(page);
    await page.waitForTimeout(500);
    assert.equal(await shownMinute(page), stopped, 'the clock went on after the page');
    assert.match(await page.locator('.status-hint').textContent(), /The page fired at \d\d:\d\d/);

    // The page fired in exactly that minute: one minute earlier it was quiet.
    const { page: before1, errors: e2 } = await openPage(browser);
    await load(before1, site.url, `?scenario=bad-deploy&seed=7&t=${stopped - 1}`);
    await waitForMinute(before1, stopped - 1);
    assert.match(await before1.locator('[data-field="paging"]').textContent(), /No page/);

    // Play goes on from there and the hint goes away.
    await timeButton(page, 'play').click();
    await page.waitForFunction((m) => Number(document.querySelector('[data-field="minute"]').textContent) > m, stopped, {
      timeout: PLAY_TIMEOUT_MS,
    });
    assert.deepEqual([...errors, ...e2], []);
  });

  test('a rollback before the deploy leaves the deploy to happen', async () => {
    const { page, errors } = await openPage(browser);
    await load(page, site.url, '?scenario=bad-deploy&seed=7');
    // Nothing to roll back to before the deploy: the control says so and is off.
    assert.equal(await page.locator('[data-status="rollback"]').textContent(), 'Nothing to roll back to');
    assert.equal(await control(page, 'rollback').locator('button').isDisabled(), true);
    // A link that asks for one anyway: refused, and the new build still goes out.
    await load(page, site.url, '?scenario=bad-deploy&seed=7&actions=3:rollback&t=30');
    await waitForMinute(page, 30);
    assert.equal(await metricValue(page, 'build').textContent(), '2');
    const log = await page.$$eval('.event-log li', (items) => items.map((li) => li.textContent));
    assert.ok(
      log.some((l) => /^09:03 action Not applied, roll back: nothing to roll back to/.test(l)),
      log.slice(-6).join('\n'),
    );
    assert.ok(log.some((l) => /deploy Deploy: build 2 is rolling out/.test(l)), 'no deploy of build 2 in the log');
    assert.deepEqual(errors, []);
  });

  test('a metric row opens its relation in a dialog, with values that equal the row\'s, one at a time', async () => {
    const { page, errors } = await openPage(browser);
    await load(page, site.url, '?scenario=viral-surge&seed=11&t=43');
    await waitForMinute(page, 43);
    await page.locator('details.relation').first().waitFor({ timeout: LOAD_TIMEOUT_MS });
    const opener = page.locator('tr[data-metric="utilization"] [data-opens="utilization"]');
    await opener.focus();
    await page.keyboard.press('Enter');
    const dialog = page.locator('dialog.relation-dialog');
    await dialog.waitFor();
    assert.equal(await dialog.getAttribute('data-relation'), 'utilization');
    assert.equal(await page.evaluate(() => document.querySelector('dialog.relation-dialog').matches(':modal')), true);
    assert.match(await dialog.locator('h2').textContent(), /utilization/i);
    const live = (await dialog.locator('[data-field="live"]').textContent()).replace(/(\d)[,\u00a0](\d)/g, '$1$2');
    const match = live.match(/= ([\d.]+) req\/s × ([\d.]+) s \/ (\d+) workers = ([\d.]+); busy workers min\(ρ, 1\) = ([\d.]+) %$/);
    assert.ok(match, live);
    const [, lambda, service, workers, rho, busy] = match.map(Number);
    const row = Number((await metricValue(page, 'utilization').textContent()).replace(/[^\d.]/g, ''));
    assert.equal(Math.round(busy), Math.round(row), `${live} against the row's ${row} %`);
    assert.equal(workers, 16 * Number(await metricValue(page, 'serving').textContent()));
    assert.ok(Math.abs((lambda * service) / workers - rho) < 0.002, live);
    // Over the page, clear of the sticky strip, on screen whole; the page's keys wait.
    const placed = await page.evaluate(() => {
      const box = document.querySelector('dialog.relation-dialog').getBoundingClientRect();
      const whole = box.top >= 0 && box.bottom <= innerHeight && box.left >= 0 && box.right <= innerWidth;
      return { whole, top: box.top, bottom: box.bottom, left: box.left, right: box.right };
    });
    assert.ok(placed.whole, JSON.stringify(placed));
    const minute = await page.locator('[data-field="minute"]').textContent();
    await page.keyboard.press('s');
    assert.equal(await page.locator('[data-field="minute"]').textContent(), minute, 'a step while the dialog is open');
    // Escape closes it and gives the focus back to the metric's name.
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => !document.querySelector('dialog.relation-dialog').open);
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.opens), 'utilization');
    // Another metric opens its own relation, in the same one dialog.
    const other = await page.locator('tr[data-metric] [data-opens]').evaluateAll(
      (buttons) => buttons.map((b) => b.dataset.opens).find((key) => key !== 'utilization'),
    );
    await page.locator(`tr[data-metric] [data-opens="${other}"]`).first().click();
    await page.waitForFunction(() => document.querySelector('dialog.relation-dialog').open);
    assert.equal(await dialog.getAttribute('data-relation'), other);
    assert.equal(await page.locator('dialog[open]').count(), 1);
    // From the dialog, the same relation among all the sources: open there, in view below
    // the strip, with the focus.
    await dialog.getByRole('button', { name: 'Show among all the sources' }).click();
    await page.waitForFunction(() => !document.querySelector('dialog.relation-dialog').open);
    const inPanel = page.locator(`details.relation[data-relation="${other}"]`);
    assert.equal(await inPanel.getAttribute('open'), '');
    assert.equal(await page.locator('details.relation[open]').count(), 1);
    const clear = await page.evaluate((key) => {
      const strip = document.querySelector('.status-strip').getBoundingClientRect();
      const title = document.querySelector(`details.relation[data-relation="${key}"] summary`);
      const box = title.getBoundingClientRect();
      return box.top >= strip.bottom && box.bottom <= innerHeight && document.activeElement === title;
    }, other);
    assert.ok(clear, 'the relation\'s title is under the strip, on screen, with the focus');
    assert.deepEqual(errors, []);
  });

  test('the latency and cache rows open their relations with the row\'s value', async () => {
    const { page, errors } = await openPage(browser);
    await load(page, site.url, '?scenario=cache-flush&seed=7&t=30');
    await waitForMinute(page, 30);
    await page.locator('details.relation').first().waitFor({ timeout: LOAD_TIMEOUT_MS });
    const number = (text) => Number(text.replace(/(\d)[,\u00a0](\d)/g, '$1$2').replace(/[^\d.]/g, ''));
    const dialog = page.locator('dialog.relation-dialog');
    for (const [field, relation, result] of [
      ['p99_ms', 'sojourn_p99_exact', /time in the system is ([\d,.]+) ms$/],
      ['cache_hit', 'ttl_hit', /hit = warm × rT \/ \(1 \+ rT\) = ([\d.]+) %$/],
      ['db_utilization', 'db_load', /queries per s = ([\d.]+) %$/],
    ]) {
      await page.locator(`tr[data-metric="${field}"] [data-opens="${relation}"]`).click();
      await page.waitForFunction(() => document.querySelector('dialog.relation-dialog').open);
      assert.equal(await dialog.getAttribute('data-relation'), relation);
      const live = await dialog.locator('[data-field="live"]').textContent();
      const match = live.match(result);
      assert.ok(match, live);
      const row = number(await metricValue(page, field).textContent());
      assert.equal(Math.round(number(match[1])), Math.round(row), `${live} against the row's ${row}`);
      await dialog.getByRole('button', { name: 'Close' }).click();
      await page.waitForFunction(() => !document.querySelector('dialog.relation-dialog').open);
    }
    assert.deepEqual(errors, []);
  });

  test('the charts share a crosshair with the minute\'s values, by pointer and by keyboard', async () => {
    const { page, errors } = await openPage(browser);
    await load(page, site.url, '?scenario=bad-deploy&seed=7&t=60');
    await waitForMinute(page, 60);
    await waitForCharts(page, 60);
    const errorsChart = page.locator('canvas[data-chart="errors"]');
    await errorsChart.scrollIntoViewIfNeeded();
    const box = await errorsChart.boundingBox();
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2);
    const tips = page.locator('[data-field="chart-tip"]');
    await tips.first().waitFor();
    // Every chart shows the same minute.
    assert.equal(await tips.count(), 8);
    const clocks = new Set(await tips.locator('time').allTextContents());
    assert.equal(clocks.size, 1, [...clocks].join());
    const [clock] = clocks;
    assert.match(clock, /^09:\d\d$/);
    const errorsTip = await page.locator('figure[data-chart="errors"] [data-field="chart-tip"]').innerText();
    assert.match(errorsTip, /Error rate\s+[\d.]+ %/);
    await page.mouse.move(1, 1);
    await tips.first().waitFor({ state: 'detached' });
    // The keyboard: End goes to the last minute, an arrow back one, Shift+arrow ten.
    await page.locator('canvas[data-chart="latency"]').focus();
    await page.keyboard.press('End');
    const said = page.locator('[data-field="chart-crosshair"]');
    await page.waitForFunction(() => /^09:59: Latency p99 /.test(document.querySelector('[data-field="chart-crosshair"]').textContent));
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Shift+ArrowLeft');
    await page.waitForFunction(() => /^09:48: /.test(document.querySelector('[data-field="chart-crosshair"]').textContent));
    assert.equal(await tips.count(), 8);
    // The arrows moved the crosshair, not the clock.
    assert.equal(await page.locator('[data-field="minute"]').textContent(), '60');
    await page.keyboard.press('Escape');
    await tips.first().waitFor({ state: 'detached' });
    assert.equal((await said.textContent()).trim(), '');
    assert.deepEqual(errors, []);
  });

  test('pause_on_page=0 lets the clock run through the page', async () => {
    const { page, errors } = await openPage(browser);
    await load(page, site.url, '?scenario=bad-deploy&seed=7&speed=240&pause_on_page=0');
    assert.equal(await page.locator('[data-time="pause-on-page"]').isChecked(), false);
    await timeButton(page, 'play').click();
    // Past the page (it fires within the first 30 minutes) without stopping.
    await page.waitForFunction(() => Number(document.querySelector('[data-field="minute"]').textContent) >= 60, null, {
      timeout: PLAY_TIMEOUT_MS,
    });
    await timeButton(page, 'play').click();
    assert.deepEqual(errors, []);
  });

  test('on a phone a control and its effect are one tap apart, with touch-sized targets', async () => {
    const phone = await openBrowser({ width: 390, height: 844 });
    try {
      const { page, errors } = await openPage(phone);
      await load(page, site.url, '?scenario=bad-deploy&seed=7');
      const tabs = page.locator('.phone-tabs button');
      assert.deepEqual(await tabs.allTextContents(), ['Controls', 'Metrics', 'Charts', 'Log']);
      for (const b of await tabs.all()) assert.ok((await b.boundingBox()).height >= 44);
      // Controls first; the other areas wait behind their tabs.
      assert.equal(await control(page, 'min_instances').isVisible(), true);
      assert.equal(await page.locator('.area-metrics').isVisible(), false);
      assert.equal(await page.locator('.area-charts').isVisible(), false);
      for (const selector of ['[data-time="play"]', '[data-time="step"]', '[data-time="speed"]']) {
        assert.ok((await page.locator(selector).boundingBox()).height >= 44, selector);
      }
      assert.ok((await control(page, 'min_instances').locator('input').boundingBox()).height >= 44);

      // Act, step, and one tap shows the effect.
      await control(page, 'min_instances').locator('input').fill('14');
      await step(page, 1);
      await page.locator('.phone-tabs [data-tab="metrics"]').click();
      assert.equal(await page.locator('.area-metrics').isVisible(), true);
      assert.equal(await control(page, 'min_instances').isVisible(), false);
      // The raised floor starts instances at once: booting now, 14 in all.
      const booting = Number(await metricValue(page, 'booting').textContent());
      const serving = Number(await metricValue(page, 'serving').textContent());
      assert.ok(booting >= 1 && serving + booting >= 14, `${serving} serving, ${booting} booting`);
      await page.locator('.phone-tabs [data-tab="charts"]').click();
      await page.locator('canvas[data-chart="instances"]').waitFor();
      await page.waitForFunction(() => document.querySelector('canvas[data-chart="instances"]').width > 0);
      await page.locator('.phone-tabs [data-tab="log"]').click();
      assert.equal(await page.locator('.area-log').isVisible(), true);
      assert.equal(await page.locator('.status-strip').isVisible(), true);
      assert.deepEqual(errors, []);
    } finally {
      await phone.close();
    }
  });

  test('the tabs are a phone\'s: a wide screen shows every area at once', async () => {
    const { page, errors } = await openPage(browser);
    await load(page, site.url, '?scenario=bad-deploy&seed=7');
    assert.equal(await page.locator('.phone-tabs').isVisible(), false);
    for (const area of ['.area-side', '.area-metrics', '.area-charts', '.area-log']) {
      assert.equal(await page.locator(area).isVisible(), true, area);
    }
    assert.deepEqual(errors, []);
  });
});
