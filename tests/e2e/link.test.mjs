// End-to-end tests of the console's link: sharing a run and replaying it in a fresh browser,
// and what happens with malformed or hostile parameters.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

import { serveStatic } from './static-server.mjs';
import { openBrowser, openPage } from './browser.mjs';
import {
  DIST,
  chartDigests,
  control,
  linkParams,
  load,
  readLog,
  readMetrics,
  shownMinute,
  step,
  waitForCharts,
  waitForMinute,
} from './helpers.mjs';

/** Everything a run shows that must be identical in a replay. */
async function runState(page) {
  return {
    minute: await shownMinute(page),
    clock: (await page.locator('[data-field="clock"]').textContent()).trim(),
    metrics: await readMetrics(page),
    log: await readLog(page),
    charts: await chartDigests(page),
    statuses: await page.$$eval('[data-status]', (s) => s.map((e) => e.textContent)),
    sliders: await page.$$eval('.control input', (s) => s.map((e) => `${e.id}=${e.value}/${e.checked}`)),
    pending: (await page.locator('.pending-note').textContent()).trim(),
  };
}

async function noticesOf(page) {
  return page.$$eval('.notice p', (ps) => ps.map((p) => p.textContent));
}

describe('links', () => {
  let site;
  let browser;

  before(async () => {
    assert.ok(existsSync(join(DIST, 'index.html')), 'dist/index.html is missing: run trunk build');
    site = await serveStatic(DIST);
    browser = await openBrowser({
      width: 1280,
      height: 900,
      permissions: ['clipboard-read', 'clipboard-write'],
    });
  });

  after(async () => {
    await browser?.close();
    await site?.close();
    assert.deepEqual(browser?.offHost ?? [], [], 'the page tried to reach another host');
    assert.deepEqual(browser?.violations ?? [], [], 'the Content-Security-Policy blocked something');
  });

  test('a shared link replays the same run in a fresh browser', async () => {
    const { page, errors } = await openPage(browser);
    await load(page, site.url, '?scenario=bad-deploy&seed=11&autoscaler=hpa&timeout_s=3');
    await step(page, 14);
    await control(page, 'min_instances').locator('input').fill('16');
    await step(page, 1);
    await control(page, 'rollback').locator('button').click();
    await step(page, 3);
    await control(page, 'shed_low_priority').locator('input').fill('0.25');
    await control(page, 'autoscaling').locator('input').uncheck();
    await step(page, 8);
    await control(page, 'cache_ttl_s').locator('input').fill('8');
    // Left waiting for the next minute when the link is made.
    await control(page, 'warm_cache').locator('button').click();
    const original = await runState(page);

    await page.locator('[data-action="share"]').click();
    await page.locator('.share-copied').waitFor();
    const shared = await page.evaluate(() => navigator.clipboard.readText());
    assert.equal(shared, page.url());
    const params = new URL(shared).searchParams;
    assert.equal(params.get('t'), String(original.minute));
    assert.equal(params.get('autoscaler'), 'hpa');
    assert.equal(params.get('timeout_s'), '3');
    assert.equal(
      params.get('actions'),
      '15:min_instances=16,16:rollback,19:shed_low_priority=0.25,19:autoscaling=off,27:cache_ttl_s=120,27:warm_cache',
    );
    assert.deepEqual(errors, []);

    const fresh = await openBrowser({ width: 1280, height: 900 });
    try {
      const { page: replay, errors: replayErrors } = await openPage(fresh);
      await load(replay, '', shared);
      await waitForMinute(replay, original.minute);
      await waitForCharts(replay, original.minute);
      assert.deepEqual(await runState(replay), original);
      assert.equal((await replay.locator('[data-time="play"]').textContent()).trim(), 'Play');
      // Both go on identically.
      await step(page, 3);
      await step(replay, 3);
      assert.deepEqual(await runState(replay), await runState(page));
      assert.deepEqual(replayErrors, []);
      assert.deepEqual(fresh.offHost, []);
    } finally {
      await fresh.close();
    }
  });

  test('without clipboard access the link is shown for copying', async () => {
    const { page, errors } = await openPage(browser);
    await page.addInitScript(() => {
      Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined });
    });
    await load(page, site.url, '?seed=2');
    await page.locator('[data-action="share"]').click();
    const input = page.locator('.share-manual input');
    await input.waitFor();
    assert.equal(await input.inputValue(), page.url());
    assert.deepEqual(errors, []);
  });

  test('?seed=abc is reported, named, and replaced by a random seed', async () => {
    const { page, errors } = await openPage(browser);
    await load(page, site.url, '?seed=abc&scenario=viral-surge');
    const notices = await noticesOf(page);
    assert.equal(notices.length, 1);
    assert.match(notices[0], /“seed”/);
    assert.match(notices[0], /“abc”/);
    assert.match(notices[0], /0 to 4294967295/);
    const seed = await page.locator('#seed-input').inputValue();
    assert.match(seed, /^\d+$/);
    const params = linkParams(page);
    assert.equal(params.seed, seed);
    assert.equal(params.scenario, 'viral-surge', 'the valid parameter is kept');
    assert.equal(await page.locator('#scenario-select').inputValue(), 'viral-surge');
    assert.deepEqual(errors, []);
  });

  test('?scenario=nope falls back to free play and keeps the seed', async () => {
    const { page, errors } = await openPage(browser);
    await load(page, site.url, '?scenario=nope&seed=5');
    const notices = await noticesOf(page);
    assert.equal(notices.length, 1);
    assert.match(notices[0], /“scenario”/);
    assert.match(notices[0], /free-play, bad-deploy, viral-surge, cache-flush/);
    assert.equal(await page.locator('#scenario-select').inputValue(), 'free-play');
    assert.equal(await page.locator('#seed-input').inputValue(), '5');
    assert.equal(linkParams(page).scenario, 'free-play');
    // A notice can be dismissed.
    await page.locator('.notice .dismiss').click();
    assert.equal(await page.locator('.notice').count(), 0);
    assert.deepEqual(errors, []);
  });

  test('an out-of-range setting is reported and falls back to its default', async () => {
    const { page, errors } = await openPage(browser);
    await load(page, site.url, '?scenario=bad-deploy&seed=5&timeout_s=999&workers_per_instance=8&t=12');
    const notices = await noticesOf(page);
    assert.equal(notices.length, 1);
    assert.match(notices[0], /“timeout_s”/);
    assert.match(notices[0], /0\.05 to 60 s/);
    assert.match(notices[0], /default, 2 s/);
    await waitForMinute(page, 12);
    const params = linkParams(page);
    assert.equal(params.timeout_s, undefined);
    assert.equal(params.workers_per_instance, '8', 'the valid setting is kept');
    assert.equal(params.scenario, 'bad-deploy');
    assert.equal(params.seed, '5');
    assert.deepEqual(errors, []);
  });

  test('a corrupted action log keeps its valid actions', async () => {
    const { page, errors } = await openPage(browser);
    await load(page, site.url, '?seed=5&t=10&actions=3:rollback,zz,5:min_instances=500,x:warm_cache,6:warm_cache');
    const notices = await noticesOf(page);
    assert.equal(notices.length, 3, notices.join('\n'));
    assert.match(notices[0], /“zz”/);
    assert.match(notices[1], /min_instances=500/);
    assert.match(notices[1], /0 to 40/);
    assert.match(notices[2], /x:warm_cache/);
    assert.ok(notices.every((n) => /other actions are kept/.test(n)));
    await waitForMinute(page, 10);
    assert.equal(linkParams(page).actions, '3:rollback,6:warm_cache');
    const log = await readLog(page);
    // Kept, and refused when it comes: free play has no earlier build to return to.
    assert.ok(
      log.some((l) => /12:03 action Not applied, roll back: nothing to roll back to; build 1/.test(l)),
      log.join('\n'),
    );
    assert.ok(log.some((l) => /12:06 action You: warm the cache\./.test(l)), log.join('\n'));
    assert.deepEqual(errors, []);
  });

  test('t, the minute and the time of day agree', async () => {
    const { page, errors } = await openPage(browser);
    const clock = async () => (await page.locator('[data-field="clock"]').textContent()).trim();
    // Free play starts at 12:00: thirty minutes played read minute 30 at 12:30.
    await load(page, site.url, '?seed=3&t=30');
    await waitForMinute(page, 30);
    await waitForCharts(page, 30);
    assert.equal(await clock(), '12:30');
    assert.equal(linkParams(page).t, '30');
    // One step: minute 31, 12:31, t=31.
    await step(page, 1);
    assert.equal(await shownMinute(page), 31);
    assert.equal(await clock(), '12:31');
    await page.waitForFunction(() => new URL(location.href).searchParams.get('t') === '31');
    // The opening: one minute played.
    await load(page, site.url, '?seed=3');
    await waitForMinute(page, 1);
    assert.equal(await clock(), '12:01');
    assert.equal(linkParams(page).t, '1');
    assert.deepEqual(errors, []);
  });

  test('every malformed parameter at once, and t past the end of the exercise', async () => {
    const { page, errors } = await openPage(browser);
    await load(
      page,
      site.url,
      '?scenario=cache-flush&seed=%2B1&autoscaler=magic&slo=2&t=999&actions=1:teleport&kept=yes',
    );
    const notices = await noticesOf(page);
    for (const name of ['seed', 'autoscaler', 'slo', 'actions', 't']) {
      assert.ok(notices.some((n) => n.includes(`“${name}”`)), `${name}: ${notices.join('\n')}`);
    }
    assert.ok(notices.some((n) => /past the end of this exercise.*180/.test(n)), notices.join('\n'));
    await waitForMinute(page, 180);
    await page.locator('#debrief').waitFor();
    const params = linkParams(page);
    assert.equal(params.scenario, 'cache-flush');
    assert.equal(params.t, '180');
    assert.equal(params.kept, 'yes', 'parameters the console does not own stay in the link');
    assert.deepEqual(errors, []);
  });

  test('markup in a parameter is shown as text', async () => {
    const { page, errors } = await openPage(browser);
    const hostile = encodeURIComponent('<img src=x onerror="window.__pwned=1"><b>bold</b>');
    await load(page, site.url, `?scenario=${hostile}&seed=${hostile}&actions=${hostile}`);
    const notices = await noticesOf(page);
    assert.equal(notices.length, 3);
    assert.ok(notices.every((n) => n.includes('<img src=x onerror="window.__pwned=1"><b>')), notices.join('\n'));
    assert.equal(await page.locator('.notices img, .notices b').count(), 0);
    assert.equal(await page.evaluate(() => window.__pwned), undefined);
    assert.deepEqual(errors, []);
  });
});
