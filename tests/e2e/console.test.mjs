// End-to-end tests of the built console (dist/, from `trunk build --release`) in headless
// Chromium: loading, controls, time, keyboard, themes and layout. Deterministic: the run is
// paused and advanced with Step (or the link's `t`); where a test watches the clock play, it
// waits for a condition with a generous timeout instead of sleeping.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';

import { serveStatic } from './static-server.mjs';
import { openBrowser, openPage } from './browser.mjs';
import {
  ARTIFACTS,
  DIST,
  LOAD_TIMEOUT_MS,
  PLAY_TIMEOUT_MS,
  chartDigests,
  control,
  leadingNumber,
  linkParams,
  load,
  metricValue,
  readLevels,
  readLog,
  readMetrics,
  shownMinute,
  step,
  timeButton,
  waitForCharts,
  waitForLinkParam,
  waitForMinute,
} from './helpers.mjs';

describe('web console', () => {
  let site;
  let browser;

  before(async () => {
    assert.ok(existsSync(join(DIST, 'index.html')), 'dist/index.html is missing: run trunk build');
    site = await serveStatic(DIST);
    browser = await openBrowser();
    await mkdir(ARTIFACTS, { recursive: true });
  });

  after(async () => {
    await browser?.close();
    await site?.close();
    assert.deepEqual(browser?.offHost ?? [], [], 'the page tried to reach another host');
    assert.deepEqual(browser?.violations ?? [], [], 'the Content-Security-Policy blocked something');
  });

  test('loads paused at the opening minute with no console errors', async () => {
    const { page, errors } = await openPage(browser);
    await load(page, site.url, '?seed=42');
    await waitForCharts(page, 1);

    assert.equal(await page.locator('#seed-input').inputValue(), '42');
    assert.equal(await shownMinute(page), 1);
    assert.equal((await timeButton(page, 'play').textContent()).trim(), 'Play');
    const params = linkParams(page);
    assert.equal(params.seed, '42');
    assert.equal(params.scenario, 'free-play');
    assert.equal(params.t, '1');

    // The opening of free play reads like the source's table.
    const m = await readMetrics(page);
    assert.equal(m.serving, '10');
    assert.equal(m.booting, '0');
    assert.equal(m.fleet_cost_per_hour, '4.00 $/h');
    assert.equal(m.shed_share, '0 %');
    const requests = leadingNumber(m.requests_per_s);
    assert.ok(requests > 300 && requests < 3000, `requests: ${requests}`);
    assert.ok(Object.values(await readLevels(page)).every((l) => l === 'normal'));

    // Every chart is drawn and described in text; the sources panel lists the formulas.
    const alts = await page.$$eval('canvas[data-chart]', (cs) => cs.map((c) => c.getAttribute('aria-label')));
    assert.equal(alts.length, 8);
    for (const alt of alts) assert.match(alt, /12:00.*\d/);
    // The formulas come with the reference sheet, fetched once the page has started.
    await page.locator('details.relation').first().waitFor({ timeout: LOAD_TIMEOUT_MS });
    assert.ok((await page.locator('details.relation').count()) >= 30);
    const erlangC = page.locator('details.relation[data-relation="erlang_c"]');
    await erlangC.locator('summary').click();
    assert.match(await erlangC.locator('.formula').textContent(), /^C\(a, N\) = /);
    assert.ok((await erlangC.locator('.citations a').count()) >= 1);
    assert.equal(await page.locator('.sources-status').count(), 0);
    assert.equal(await page.locator('.notice').count(), 0, 'no notice for a valid link');
    assert.deepEqual(errors, []);
  });

  test('a slider, the warm-up and the rollback change the table, the log and the charts', async () => {
    // The same run twice: one operated, one left alone, compared minute for minute.
    const query = '?scenario=bad-deploy&seed=7&t=20';
    const { page, errors } = await openPage(browser);
    const { page: untouched } = await openPage(browser);
    await load(page, site.url, query);
    await load(untouched, site.url, query);
    await waitForCharts(page, 20);
    await waitForCharts(untouched, 20);
    // The dashboard shows the build and its rollout, not whether it is bad.
    assert.equal(await metricValue(page, 'build').textContent(), '2');
    assert.equal(await metricValue(page, 'build_share').textContent(), '100 %');
    assert.equal(await page.locator('[data-status="rollback"]').textContent(), 'Ready: back to build 1');

    // A slider: shed half the low-priority traffic.
    await control(page, 'shed_low_priority').locator('input').fill('0.5');
    assert.match(await control(page, 'shed_low_priority').locator('output').textContent(), /50 %/);
    assert.match(await page.locator('.pending-note').textContent(), /minute 20 \(09:20\)/);
    await waitForLinkParam(page, 'actions', '20:shed_low_priority=0.5');

    // The warm-up job and the rollback: queued for the next minute.
    await control(page, 'warm_cache').locator('button').click();
    await control(page, 'rollback').locator('button').click();
    assert.equal(await page.locator('[data-status="warm_cache"]').textContent(), 'Queued for 09:20');
    assert.equal(await page.locator('[data-status="rollback"]').textContent(), 'Queued for 09:20');

    await step(page, 1);
    await step(untouched, 1);

    const [after, before] = [await readMetrics(page), await readMetrics(untouched)];
    assert.equal(after.shed_share, '15 %');
    assert.equal(before.shed_share, '0 %');
    assert.ok(
      leadingNumber(after.db_utilization) > leadingNumber(before.db_utilization),
      `warm-up adds database load: ${after.db_utilization} vs ${before.db_utilization}`,
    );
    assert.ok(leadingNumber(after.booting) >= 10, `rollback fleet booting: ${after.booting}`);
    assert.equal(await page.locator('[data-status="warm_cache"]').textContent(), 'Running: 6 min left');
    assert.equal(await page.locator('[data-status="rollback"]').textContent(), 'Preparing: 5 min left');

    const log = await readLog(page);
    for (const line of [
      /09:20 action You: shed low priority → 50 %\./,
      /09:20 action You: warm the cache\./,
      /09:20 action You: roll back\./,
      /09:20 cache Warm-up job started \(6 min\)\./,
      /09:20 rollback Rollback started: \d+ instances of build 1 preparing, traffic switches at 09:25\./,
    ]) {
      assert.ok(log.some((l) => line.test(l)), `${line} not in the log:\n${log.join('\n')}`);
    }
    assert.equal((await readLog(untouched)).filter((l) => / action /.test(l)).length, 0);

    const [chartsAfter, chartsBefore] = [await chartDigests(page), await chartDigests(untouched)];
    for (const id of ['traffic', 'cache', 'instances', 'cost']) {
      assert.notEqual(chartsAfter[id], chartsBefore[id], `the ${id} chart shows the actions`);
    }

    // Five minutes later traffic is on the good build again and the progress is gone.
    await step(page, 5);
    assert.equal(await metricValue(page, 'build').textContent(), '1');
    assert.equal(await metricValue(page, 'build_share').textContent(), '100 %');
    assert.equal(await page.locator('[data-status="rollback"]').textContent(), 'Nothing to roll back to');
    assert.ok((await readLog(page)).some((l) => /Rollback finished: traffic is on build 1\./.test(l)));
    await untouched.close();
    assert.deepEqual(errors, []);
  });

  test('without the reference sheet the run goes on, the panel says why and tries again', async () => {
    const { page } = await openPage(browser);
    let refuse = true;
    await page.route('**/reference-en.json', (route) => (refuse ? route.abort() : route.continue()));
    await load(page, site.url, '?scenario=bad-deploy&seed=7&t=3');
    await waitForCharts(page, 3);
    const status = page.locator('.sources-panel .sources-status[role="alert"]');
    await status.waitFor({ timeout: LOAD_TIMEOUT_MS });
    assert.match(await status.textContent(), /could not be loaded.*not affected/);
    assert.equal(await page.locator('details.relation').count(), 0);
    assert.equal(await metricValue(page, 'build').textContent(), '1');
    refuse = false;
    await status.locator('button').click();
    await page.locator('details.relation').first().waitFor({ timeout: LOAD_TIMEOUT_MS });
    assert.ok((await page.locator('details.relation').count()) >= 30);
    assert.equal(await page.locator('.sources-status').count(), 0);
  });

  test('before the first deploy there is nothing to roll back to', async () => {
    const { page, errors } = await openPage(browser);
    await load(page, site.url, '?scenario=bad-deploy&seed=7&t=3');
    await waitForCharts(page, 3);
    assert.equal(await metricValue(page, 'build').textContent(), '1');
    assert.equal(
      await page.locator('[data-status="rollback"]').textContent(),
      'Nothing to roll back to',
    );
    assert.ok(await control(page, 'rollback').locator('button').isDisabled());
    // After the deploy the way back exists.
    await load(page, site.url, '?scenario=bad-deploy&seed=7&t=60');
    await waitForCharts(page, 60);
    assert.equal(await metricValue(page, 'build').textContent(), '2');
    assert.equal(
      await page.locator('[data-status="rollback"]').textContent(),
      'Ready: back to build 1',
    );
    assert.ok(await control(page, 'rollback').locator('button').isEnabled());
    assert.deepEqual(errors, []);
  });

  test('toggles and the minimum take effect at the next minute', async () => {
    const { page, errors } = await openPage(browser);
    await load(page, site.url, '?seed=3');
    await control(page, 'min_instances').locator('input').fill('20');
    await control(page, 'heavy_feature').locator('input').uncheck();
    assert.equal(await control(page, 'heavy_feature').locator('input').isChecked(), false);
    assert.equal(await metricValue(page, 'booting').textContent(), '0');
    await step(page, 1);
    assert.equal(await metricValue(page, 'booting').textContent(), '10');
    assert.equal(await metricValue(page, 'feature_available').textContent(), '0 %');
    assert.equal(
      await metricValue(page, 'feature_available').locator('..').locator('.cue').textContent(),
      'watch',
    );
    const log = await readLog(page);
    assert.ok(log.some((l) => /You: minimum instances → 20\./.test(l)));
    assert.ok(log.some((l) => /10 instances started \(minimum instances\)\./.test(l)));
    assert.ok(log.some((l) => /You: heavy feature off\./.test(l)));
    assert.equal(linkParams(page).actions, '1:min_instances=20,1:heavy_feature=off');
    assert.deepEqual(errors, []);
  });

  test('play, pause, step and speed', async () => {
    const { page, errors } = await openPage(browser);
    await load(page, site.url, '?seed=5');
    const play = timeButton(page, 'play');

    await play.click();
    assert.equal((await play.textContent()).trim(), 'Pause');
    // One simulated minute per second: wait for two of them.
    await page.waitForFunction(
      () => Number(document.querySelector('[data-field="minute"]').textContent) >= 2,
      null,
      { timeout: PLAY_TIMEOUT_MS },
    );

    // The fastest speed: a day in two seconds.
    await timeButton(page, 'speed').selectOption({ label: '720 min/s' });
    await page.waitForFunction(
      () => Number(document.querySelector('[data-field="minute"]').textContent) >= 300,
      null,
      { timeout: PLAY_TIMEOUT_MS },
    );

    await play.click();
    assert.equal((await play.textContent()).trim(), 'Play');
    const paused = await shownMinute(page);
    // Paused: Step advances exactly one minute, and the link says how many minutes ran.
    await step(page, 1);
    assert.equal(await shownMinute(page), paused + 1);
    await step(page, 1);
    assert.equal(await shownMinute(page), paused + 2);
    assert.equal(linkParams(page).t, String(paused + 2));

    // Step while playing pauses first.
    await play.click();
    await page.waitForFunction(
      (m) => Number(document.querySelector('[data-field="minute"]').textContent) > m,
      paused + 2,
      { timeout: PLAY_TIMEOUT_MS },
    );
    await timeButton(page, 'step').click();
    assert.equal((await play.textContent()).trim(), 'Play');
    const stopped = await shownMinute(page);
    await step(page, 1);
    assert.equal(await shownMinute(page), stopped + 1);
    assert.deepEqual(errors, []);
  });

  test('on a slider the arrows move it and Space still plays and pauses', async () => {
    const { page, errors } = await openPage(browser);
    await load(page, site.url, '?seed=8');
    await waitForCharts(page, 1);
    const slider = page.locator('#ctl-min_instances');
    const before = Number(await slider.inputValue());
    const minute = await shownMinute(page);
    await slider.focus();

    // The arrow moves the slider (and queues the change); it does not step the clock.
    await page.keyboard.press('ArrowRight');
    assert.equal(Number(await slider.inputValue()), before + 1);
    assert.equal(await shownMinute(page), minute);

    // Space, with the slider still focused, plays; again, pauses.
    await page.keyboard.press(' ');
    assert.equal((await timeButton(page, 'play').textContent()).trim(), 'Pause');
    await page.waitForFunction(
      (m) => Number(document.querySelector('[data-field="minute"]').textContent) > m,
      minute,
      { timeout: PLAY_TIMEOUT_MS },
    );
    await page.keyboard.press(' ');
    assert.equal((await timeButton(page, 'play').textContent()).trim(), 'Play');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'ctl-min_instances');
    assert.equal(Number(await slider.inputValue()), before + 1);
    assert.deepEqual(errors, []);
  });

  test('the charts\' text alternatives count the marks drawn', async () => {
    const { page, errors } = await openPage(browser);
    const alts = () => page.$$eval('canvas[data-chart]', (cs) => cs.map((c) => c.getAttribute('aria-label')));
    // A replayed link: the deploy, the page and the rollback are drawn and counted.
    await load(page, site.url, '?scenario=bad-deploy&seed=7&t=40&actions=29:rollback');
    await waitForMinute(page, 40);
    await waitForCharts(page, 40);
    let texts = await alts();
    assert.equal(texts.length, 8);
    for (const alt of texts) assert.match(alt, /Marked: 1 deploy, [1-9]\d* pages?, 1 of your actions\./);
    // Live: an action taken now is counted once its minute is played.
    await load(page, site.url, '?seed=4');
    await waitForCharts(page, 1);
    for (const alt of await alts()) assert.match(alt, /Marked: 0 deploys, 0 pages, 0 of your actions\./);
    await control(page, 'warm_cache').locator('button').click();
    await step(page, 1);
    await page.waitForFunction(() =>
      [...document.querySelectorAll('canvas[data-chart]')].every((c) =>
        /, 1 of your actions\./.test(c.getAttribute('aria-label')),
      ),
    );
    assert.deepEqual(errors, []);
  });

  test('reset starts the scenario over without the actions', async () => {
    const { page, errors } = await openPage(browser);
    await load(page, site.url, '?scenario=cache-flush&seed=9&t=5');
    await control(page, 'warm_cache').locator('button').click();
    await step(page, 2);
    await timeButton(page, 'reset').click();
    await waitForMinute(page, 1);
    const params = linkParams(page);
    assert.equal(params.scenario, 'cache-flush');
    assert.equal(params.seed, '9');
    assert.equal(params.t, '1');
    assert.equal(params.actions, undefined);
    assert.equal(await page.locator('[data-status="warm_cache"]').textContent(), 'Ready');
    assert.deepEqual(errors, []);
  });

  test('keyboard shortcuts, but not while typing', async () => {
    const { page, errors } = await openPage(browser);
    await load(page, site.url, '?seed=8');
    await page.locator('h1').click();

    await page.keyboard.press('s');
    await waitForMinute(page, 2);
    await page.keyboard.press('ArrowRight');
    await waitForMinute(page, 3);

    await page.keyboard.press('+');
    await page.keyboard.press('+');
    assert.equal(await timeButton(page, 'speed').inputValue(), '2');
    await page.keyboard.press('-');
    assert.equal(await timeButton(page, 'speed').inputValue(), '1');

    await page.keyboard.press(' ');
    assert.equal((await timeButton(page, 'play').textContent()).trim(), 'Pause');
    await page.waitForFunction(
      () => Number(document.querySelector('[data-field="minute"]').textContent) >= 4,
      null,
      { timeout: PLAY_TIMEOUT_MS },
    );
    await page.keyboard.press(' ');
    assert.equal((await timeButton(page, 'play').textContent()).trim(), 'Play');

    await page.keyboard.press('r');
    await waitForMinute(page, 1);

    // Typing in the seed field: the keys are text, not shortcuts.
    const seed = page.locator('#seed-input');
    await seed.fill('');
    await seed.type('12 rs?+');
    assert.equal(await seed.inputValue(), '12 rs?+');
    assert.equal(await shownMinute(page), 1);
    assert.equal((await timeButton(page, 'play').textContent()).trim(), 'Play');
    assert.equal(await page.locator('dialog.help-dialog[open]').count(), 0);
    assert.equal(await timeButton(page, 'speed').inputValue(), '1');
    // What is typed stays while the clock plays.
    await timeButton(page, 'play').click();
    await seed.fill('');
    await seed.type('4321');
    await page.waitForFunction(
      () => Number(document.querySelector('[data-field="minute"]').textContent) >= 2,
      null,
      { timeout: PLAY_TIMEOUT_MS },
    );
    assert.equal(await seed.inputValue(), '4321');
    await timeButton(page, 'play').click();
    await timeButton(page, 'reset').click();
    await seed.fill('12 rs?+');
    // A seed that is not a number is refused with a message; the run is unchanged.
    await seed.press('Enter');
    assert.match(await page.locator('#seed-error').textContent(), /not a seed/);
    assert.equal(linkParams(page).seed, '8');
    await seed.fill('77');
    await seed.press('Enter');
    await page.waitForFunction(() => new URL(location.href).searchParams.get('seed') === '77');

    // Help: ? opens it, Escape closes it.
    await page.locator('h1').click();
    await page.keyboard.press('?');
    await page.locator('dialog.help-dialog[open]').waitFor();
    assert.match(await page.locator('dialog.help-dialog').textContent(), /Play or pause/);
    await page.keyboard.press('Escape');
    await page.locator('dialog.help-dialog[open]').waitFor({ state: 'detached' });
    assert.deepEqual(errors, []);
  });

  test('a finished exercise shows the debrief with the actions on its timeline', async () => {
    const { page, errors } = await openPage(browser);
    await load(page, site.url, '?scenario=bad-deploy&seed=7&actions=29:rollback,31:min_instances=12&t=119');
    await waitForMinute(page, 119);
    assert.equal(await page.locator('#debrief').count(), 0);
    await step(page, 1);
    await page.locator('#debrief').waitFor();
    const summary = await page.$$eval('#debrief [data-summary]', (items) =>
      Object.fromEntries(items.map((d) => [d.dataset.summary, d.querySelector('dd').textContent])),
    );
    for (const field of ['budget_spent', 'cost', 'worst_p99_ms', 'minutes_paging', 'mean_staleness_s']) {
      assert.ok(summary[field] && /\d/.test(summary[field]), `${field}: ${summary[field]}`);
    }
    const actions = await page.$$eval('.debrief-actions li', (li) => li.map((l) => l.textContent.trim()));
    assert.deepEqual(actions, ['09:29 roll back', '09:31 minimum instances → 12']);
    assert.equal(await page.locator('.timeline .tl-action').count(), 2);
    assert.ok((await page.locator('.timeline .tl-page').count()) >= 1);
    // Par: the same seed replayed in the background, then a verdict.
    await page.locator('.par tr[data-par="best_single_action"]').waitFor({ timeout: 20000 });
    const par = await page.$$eval('.par tbody tr', (rows) =>
      Object.fromEntries(rows.map((r) => [r.dataset.par, r.textContent])),
    );
    assert.deepEqual(Object.keys(par), ['you', 'nothing_done', 'textbook', 'best_single_action']);
    assert.match(par.textbook, /roll back at 09:\d\d/);
    assert.match(par.best_single_action, /at 09:\d\d/);
    // Each line's fleet cost beside its budget.
    for (const row of Object.values(par)) assert.match(row, /\d+\.\d\d \$/);
    assert.doesNotMatch(await page.locator('.verdict').textContent(), /Replaying/);
    // The verdict places the run among the par lines, with the figures.
    assert.match(await page.locator('[data-field="verdict"]').textContent(), /you spent \d+\.\d % of the budget/);
    // The worst minute with its time and cause; the scenario's lesson.
    assert.match(
      await page.locator('[data-field="worst-minute"]').textContent(),
      /^Worst minute: minute \d+ \(09:\d\d\), \d+\.\d % of requests failed, p99 \d+ ms; a bad build served/,
    );
    assert.match(await page.locator('[data-field="lesson"]').textContent(), /roll back first/);
    // The exercise is over: the clock and the controls stop.
    assert.equal(await timeButton(page, 'step').isDisabled(), true);
    assert.equal(await control(page, 'rollback').locator('button').isDisabled(), true);
    await page.screenshot({ path: join(ARTIFACTS, 'debrief-1280.png'), fullPage: true });
    assert.deepEqual(errors, []);
  });

  test('charts are crisp on HiDPI screens and follow the dark theme', async () => {
    const hidpi = await openBrowser({ width: 1280, height: 800, deviceScaleFactor: 2, colorScheme: 'dark' });
    try {
      const { page, errors } = await openPage(hidpi);
      await load(page, site.url, '?seed=4');
      await waitForCharts(page, 1);
      const sizes = await page.$$eval('canvas[data-chart]', (cs) =>
        cs.map((c) => [c.width, c.height, c.clientWidth, c.clientHeight]),
      );
      for (const [w, h, cw, ch] of sizes) {
        assert.equal(w, cw * 2);
        assert.equal(h, ch * 2);
      }
      const corner = await page.$eval('canvas[data-chart="traffic"]', (c) =>
        [...c.getContext('2d').getImageData(1, 1, 1, 1).data].slice(0, 3),
      );
      assert.deepEqual(corner, [24, 27, 33], 'the dark theme background');
      assert.deepEqual(errors, []);
    } finally {
      await hidpi.close();
    }
  });

  test('charts, legends and the event log share one palette in both themes', async () => {
    for (const colorScheme of ['light', 'dark']) {
      const themed = await openBrowser({ width: 1280, height: 800, colorScheme });
      try {
        const { page, errors } = await openPage(themed);
        await load(page, site.url, '?scenario=bad-deploy&seed=7&t=35');
        await waitForCharts(page, 35);
        const seen = await page.evaluate(() => {
          const rgb = (css) => {
            const probe = document.createElement('span');
            probe.style.color = css;
            document.body.append(probe);
            const value = getComputedStyle(probe).color;
            probe.remove();
            return value;
          };
          const token = (name) => rgb(getComputedStyle(document.documentElement).getPropertyValue(name));
          const canvas = document.querySelector('canvas[data-chart="traffic"]');
          const [r, g, b] = canvas.getContext('2d').getImageData(1, 1, 1, 1).data;
          const swatch = document.querySelector('.legend .swatch');
          return {
            background: `rgb(${r}, ${g}, ${b})`,
            panel: token('--panel'),
            swatch: rgb(getComputedStyle(swatch).getPropertyValue('--swatch')),
            blue: token('--chart-blue'),
          };
        });
        assert.equal(seen.background, seen.panel, `${colorScheme}: the chart sits on the panel colour`);
        assert.equal(seen.swatch, seen.blue, `${colorScheme}: the first series is the tokens' blue`);
        assert.deepEqual(errors, []);
      } finally {
        await themed.close();
      }
    }
  });

  test('reduced motion stops the paging animation', async () => {
    const { page, errors } = await openPage(browser);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await load(page, site.url, '?scenario=bad-deploy&seed=7&t=35');
    await waitForMinute(page, 35);
    assert.equal(await page.locator('.fact.page').getAttribute('data-level'), 'critical');
    const animation = await page.$eval('.fact.page .dot', (d) => getComputedStyle(d).animationName);
    assert.equal(animation, 'none');
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    const moving = await page.$eval('.fact.page .dot', (d) => getComputedStyle(d).animationName);
    assert.equal(moving, 'pulse');
    assert.deepEqual(errors, []);
  });

  test('on a 390 × 844 phone the sticky strip takes at most a fifth of the height', async () => {
    const { page, errors } = await openPage(browser);
    await page.setViewportSize({ width: 390, height: 844 });
    for (const query of [
      '?scenario=bad-deploy&seed=7&t=35',
      '?scenario=viral-surge&seed=4&t=60&budget_accounting=requests',
    ]) {
      await load(page, site.url, query);
      await waitForMinute(page, Number(new URLSearchParams(query).get('t')));
      await page.evaluate(() => window.scrollTo(0, 1200));
      const strip = await page.locator('.status-strip').evaluate((e) => {
        const r = e.getBoundingClientRect();
        return { top: r.top, height: r.height };
      });
      assert.equal(Math.round(strip.top), 0, 'the strip sticks to the top');
      assert.ok(strip.height <= 844 / 5, `${query}: the strip is ${strip.height} px tall`);
    }
    assert.deepEqual(errors, []);
  });

  /** A phone-sized page of the bad deploy (seed 7) at minute `t`. */
  async function phoneAt(t) {
    const { page, errors } = await openPage(browser);
    await page.setViewportSize({ width: 390, height: 844 });
    await load(page, site.url, `?scenario=bad-deploy&seed=7&t=${t}`);
    await waitForMinute(page, t);
    return { page, errors };
  }

  /** Waits for the focus to be on the Roll back control. */
  async function rollBackFocused(page) {
    await page.waitForFunction(
      () => document.activeElement?.closest('[data-control]')?.dataset.control === 'rollback',
      null,
      { timeout: 5_000 },
    );
  }

  test('on a phone, Respond in the strip brings Roll back into view with the focus, one tap from acting', async () => {
    const { page, errors } = await phoneAt(5);
    const respond = page.locator('[data-action="respond"]');
    assert.equal(await respond.isVisible(), false, 'no page, no Respond');
    await load(page, site.url, '?scenario=bad-deploy&seed=7&t=35');
    await waitForMinute(page, 35);
    // Away from the controls: the charts' tab, scrolled down.
    await page.locator('.phone-tabs [data-tab="charts"]').click();
    await page.evaluate(() => window.scrollTo(0, 900));
    await respond.click();
    await rollBackFocused(page);
    assert.equal(await page.locator('.layout').getAttribute('data-tab'), 'controls');
    const seen = await page.evaluate(() => {
      const strip = document.querySelector('.status-strip').getBoundingClientRect();
      const button = document.activeElement.getBoundingClientRect();
      return { stripBottom: strip.bottom, top: button.top, bottom: button.bottom };
    });
    assert.ok(seen.top >= seen.stripBottom && seen.bottom <= 844, JSON.stringify(seen));
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => /:rollback/.test(new URL(location.href).searchParams.get('actions') ?? ''));
    assert.deepEqual(errors, []);
  });

  test('on a phone showing the charts, the page firing puts the focus on Respond, on screen', async () => {
    const { page, errors } = await phoneAt(20);
    await page.locator('.phone-tabs [data-tab="charts"]').click();
    // The fastest speed, then play: the clock stops when the page fires.
    for (let i = 0; i < 3; i++) await page.keyboard.press('+');
    await page.keyboard.press(' ');
    await page.waitForFunction(
      () => document.activeElement?.dataset.action === 'respond',
      null,
      { timeout: PLAY_TIMEOUT_MS },
    );
    assert.equal(await page.locator('.layout').getAttribute('data-tab'), 'charts', 'the tab stays');
    assert.equal(await page.locator('[data-action="respond"]').isVisible(), true);
    // Enter on it: the controls' tab, Roll back focused.
    await page.keyboard.press('Enter');
    await rollBackFocused(page);
    assert.deepEqual(errors, []);
  });

  for (const width of [390, 1440]) {
    for (const colorScheme of ['light', 'dark']) {
      test(`renders at ${width} px in ${colorScheme} without horizontal overflow`, async () => {
        const { page, errors } = await openPage(browser);
        await page.setViewportSize({ width, height: 900 });
        await page.emulateMedia({ colorScheme });
        await load(page, site.url, '?scenario=bad-deploy&seed=7&t=30&actions=25:min_instances=14,28:rollback');
        await waitForCharts(page, 30);
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        assert.ok(overflow <= 0, `page is ${overflow} px wider than the viewport`);
        // Every control has an accessible name.
        const unnamed = await page.$$eval('input, select, button', (els) =>
          els.filter((e) => !(e.labels?.length || e.getAttribute('aria-label') || e.textContent.trim())).length,
        );
        assert.equal(unnamed, 0, 'controls without a label');
        await page.screenshot({
          path: join(ARTIFACTS, `console-${width}-${colorScheme}.png`),
          fullPage: true,
        });
        assert.deepEqual(errors, []);
      });
    }
  }
});
