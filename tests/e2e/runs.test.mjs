// End-to-end tests of keeping runs: a new autoscaler or policy parameter replays the actions
// under it, a reset can be undone, and each new run has its own history entry so Back returns
// to the run before it. Deterministic: runs advance with Step.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

import { serveStatic } from './static-server.mjs';
import { openBrowser, openPage } from './browser.mjs';
import {
  DIST,
  LOAD_TIMEOUT_MS,
  control,
  linkParams,
  load,
  readLog,
  readMetrics,
  shownMinute,
  step,
  timeButton,
  waitForCharts,
  waitForLinkParam,
  waitForMinute,
} from './helpers.mjs';

/** The log's lines about the user's actions, newest first, with their times. */
async function actionLines(page) {
  return page.$$eval('.event-log li[data-kind="action"]', (items) =>
    items.map((li) => li.textContent.replace(/\s+/g, ' ').trim()),
  );
}

/** What identifies a run on screen and in its link. */
async function runState(page) {
  const params = linkParams(page);
  return {
    minute: await shownMinute(page),
    t: params.t,
    actions: params.actions,
    scenario: params.scenario,
    seed: params.seed,
    autoscaler: params.autoscaler,
    metrics: await readMetrics(page),
    log: await readLog(page),
  };
}

/** Plays a bad deploy with three actions (one still waiting) and returns its state. */
async function playWithActions(page, site) {
  await load(page, site.url, '?scenario=bad-deploy&seed=7');
  await step(page, 14);
  await control(page, 'rollback').locator('button').click();
  await step(page, 1);
  await control(page, 'min_instances').locator('input').fill('14');
  await step(page, 4);
  // Left waiting for the next minute.
  await control(page, 'warm_cache').locator('button').click();
  await waitForLinkParam(page, 'actions', '15:rollback,16:min_instances=14,20:warm_cache');
  return runState(page);
}

/** Waits until the page shows the run `state` describes. */
async function waitForRun(page, state) {
  await waitForMinute(page, state.minute);
  await waitForCharts(page, state.minute);
  await page.waitForFunction(
    (t) => new URL(location.href).searchParams.get('t') === t,
    state.t,
    { timeout: LOAD_TIMEOUT_MS },
  );
}

describe('no lost runs', () => {
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

  test('changing the autoscaler keeps the actions', async () => {
    const { page, errors } = await openPage(browser);
    const original = await playWithActions(page, site);
    const actions = await actionLines(page);
    assert.equal(actions.length, 2, JSON.stringify(actions));

    await page.locator('#policy-select').selectOption('hpa');
    await waitForLinkParam(page, 'autoscaler', 'hpa');
    await waitForRun(page, original);
    const params = linkParams(page);
    assert.equal(params.actions, original.actions, 'the link lost the actions');
    assert.equal(params.seed, '7');
    assert.equal(params.scenario, 'bad-deploy');
    assert.deepEqual(await actionLines(page), actions, 'the log lost the actions');
    // The waiting action still waits, for the same minute.
    assert.match(await page.locator('[data-status="warm_cache"]').textContent(), /^Queued for /);
    assert.equal(await page.locator('#policy-select').inputValue(), 'hpa');

    // A policy parameter keeps them too (the policy panel is opened first: its module is
    // downloaded then).
    await page.locator('[data-action="open-policy"]').click();
    const tolerance = page.locator('[data-param="hpa.tolerance"] input');
    await tolerance.fill('0.3');
    await tolerance.press('Enter');
    await waitForLinkParam(page, 'hpa.tolerance', '0.3');
    await waitForRun(page, original);
    assert.equal(linkParams(page).actions, original.actions);
    assert.deepEqual(await actionLines(page), actions);

    // Back returns to the run before each change, the first one included.
    await page.goBack();
    await waitForLinkParam(page, 'hpa.tolerance', null);
    await waitForRun(page, original);
    assert.equal(linkParams(page).autoscaler, 'hpa');
    await page.goBack();
    await waitForLinkParam(page, 'autoscaler', null);
    await waitForRun(page, original);
    assert.deepEqual(await runState(page), original);
    assert.equal(await page.locator('#policy-select').inputValue(), 'target-tracking');
    assert.deepEqual(errors, []);
  });

  test('Back after a reset restores the run; Forward goes to the reset one', async () => {
    const { page, errors } = await openPage(browser);
    const original = await playWithActions(page, site);

    await timeButton(page, 'reset').click();
    await waitForMinute(page, 1);
    await waitForLinkParam(page, 'actions', null);
    assert.equal(linkParams(page).t, '1');

    await page.goBack();
    await waitForRun(page, original);
    assert.deepEqual(await runState(page), original);
    // The run goes on from where it was, its waiting action first.
    await step(page, 1);
    assert.match(linkParams(page).actions, /20:warm_cache$/);
    assert.match(await page.locator('[data-status="warm_cache"]').textContent(), /^Running: /);

    // Forward: the reset run (Step above rewrote this entry's link in place, no new entry).
    await page.goForward();
    await waitForMinute(page, 1);
    await waitForLinkParam(page, 'actions', null);
    assert.equal(linkParams(page).scenario, 'bad-deploy');
    assert.deepEqual(errors, []);
  });

  test('a reset can be undone', async () => {
    const { page, errors } = await openPage(browser);
    const original = await playWithActions(page, site);
    const undo = page.locator('[data-action="undo"]');
    assert.equal(await undo.count(), 0, 'nothing to undo yet');

    // R resets, as the button does.
    await page.locator('h1').click();
    await page.keyboard.press('r');
    await waitForMinute(page, 1);
    await waitForLinkParam(page, 'actions', null);
    const note = (await page.locator('.undo-offer p').textContent()).trim();
    assert.match(note, /minute 20 with 3 actions/, note);
    assert.equal((await undo.textContent()).trim(), 'Undo reset');

    await undo.click();
    await waitForRun(page, original);
    assert.deepEqual(await runState(page), original);
    assert.equal(await undo.count(), 0, 'the offer goes once used');

    // A reset of an untouched run has nothing to undo; a dismissed offer is gone.
    await page.keyboard.press('r');
    await page.locator('.undo-offer').waitFor();
    await page.locator('.undo-offer .dismiss').click();
    assert.equal(await page.locator('.undo-offer').count(), 0);
    await page.keyboard.press('r');
    assert.equal(await page.locator('.undo-offer').count(), 0);
    // Back still has the run.
    await page.goBack();
    await waitForRun(page, original);
    assert.equal(linkParams(page).actions, original.actions);
    assert.deepEqual(errors, []);
  });
});
