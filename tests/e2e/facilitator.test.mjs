// End-to-end test of the facilitator's console: the facilitator's window and the trainee's
// in one browser, talking over the session's BroadcastChannel. The facilitator sees the plan
// and the trainee's minutes; an inject reaches the trainee's run at its next minute and is in
// its log; a hint shows in the trainee's window; the trainee's window shows nothing of the
// plan; and the session's link replays the same run in a fresh browser.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';

import { openBrowser, openPage } from './browser.mjs';
import { load, playedState, readLog, step, waitForMinute } from './helpers.mjs';
import { servedSuite } from './suite.mjs';

const RUN = 'scenario=bad-deploy&seed=7';
const SESSION = 'wheel-7';


describe("the facilitator's console", () => {
  const served = servedSuite();

  test('an inject from the facilitator reaches the trainee at the next minute; the trainee sees no plan; the link replays the session', async () => {
    const { page: facilitator, errors: facilitatorErrors } = await openPage(served.browser);
    await facilitator.goto(`${served.site.url}full.html?${RUN}&facilitate=1&session=${SESSION}`);
    const panel = facilitator.locator('[data-panel="facilitator"]');
    await panel.waitFor();
    // The plan: the bad deploy the seed drew, with its minute (hidden from the trainee).
    const plan = await panel.locator('[data-field="plan"]').textContent();
    assert.match(plan, /\(minute \d+\): bad_deploy rollout_minutes=\d+ severity=/);
    await panel.locator('[data-field="waiting"]').waitFor();

    // The trainee's window, from the facilitator's link.
    const traineeLink = await panel.locator('[data-field="trainee-link"]').getAttribute('href');
    assert.ok(!traineeLink.includes('facilitate'), traineeLink);
    assert.ok(traineeLink.includes(`session=${SESSION}`), traineeLink);
    const { page: trainee, errors: traineeErrors } = await openPage(served.browser);
    await load(trainee, '', traineeLink);
    assert.equal(await trainee.locator('[data-panel="facilitator"]').count(), 0);
    const traineeText = await trainee.locator('body').textContent();
    assert.ok(!/rollout_minutes|severity=/.test(traineeText), 'the trainee sees the plan');

    // The facilitator follows the trainee's minutes.
    await step(trainee, 4);
    await facilitator.waitForFunction(
      () => document.querySelector('[data-field="trainee-state"]')?.dataset.minute === '5',
    );

    // An inject: queued for the trainee's next minute, in its log once that minute is played.
    await panel.locator('[data-field="inject-kind"]').selectOption('cache_flush');
    await panel.locator('[data-field="inject-share"]').fill('1');
    await panel.locator('[data-action="inject"]').click();
    await trainee.locator('.pending-note:not(.hidden)').waitFor();
    await step(trainee, 1);
    const log = await readLog(trainee);
    assert.ok(log.some((line) => /injected fault cache_flush\/share=1/.test(line)), JSON.stringify(log));
    await facilitator.waitForFunction(() =>
      document.querySelector('[data-field="trainee-actions"]')?.textContent.includes('5:inject=cache_flush/share=1'),
    );

    // A hint reaches the trainee's window.
    await panel.locator('[data-field="session-hint"]').fill('Look at the cache hit rate.');
    await panel.locator('[data-action="session-hint"]').click();
    await trainee.locator('.hint', { hasText: 'Look at the cache hit rate.' }).waitFor();

    // The session's link, as the facilitator has it, replays the same run elsewhere.
    await step(trainee, 2);
    await facilitator.waitForFunction(
      () => document.querySelector('[data-field="trainee-state"]')?.dataset.minute === '8',
    );
    const here = await playedState(trainee);
    const link = await panel.locator('[data-field="session-link"]').inputValue();
    assert.match(link, /actions=.*inject/);
    const fresh = await openBrowser({ width: 1280, height: 900 });
    try {
      const { page: other, errors: otherErrors } = await openPage(fresh);
      await load(other, '', link);
      await waitForMinute(other, here.minute);
      assert.deepEqual(await playedState(other), here);
      assert.deepEqual(otherErrors, []);
    } finally {
      await fresh.close();
    }
    assert.deepEqual(facilitatorErrors, []);
    assert.deepEqual(traineeErrors, []);
  });

  test("the plan lists a surge the seed drew", async () => {
    const { page, errors } = await openPage(served.browser);
    await page.goto(`${served.site.url}full.html?scenario=viral-surge&seed=42&facilitate=1&session=surge-1`);
    const plan = page.locator('[data-panel="facilitator"] [data-field="plan"]');
    await plan.waitFor();
    assert.match(await plan.textContent(), /\(minute \d+\): traffic_surge peak=\d/);
    assert.deepEqual(errors, []);
  });
});
