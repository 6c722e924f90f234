// End-to-end test of a graded course in a lesson page (docs/course.html, built into
// dist/course.html): the frame runs a two-exercise course with reveal=after-pass; a run that
// does nothing fails and the answer stays hidden; a rollback when paged passes and shows it;
// the debrief message carries the score, the pass and the attempt, `progress` and `complete`
// follow, the page turns them into xAPI statements, and the lesson page's history never grows.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';

import { openPage } from './browser.mjs';
import { lessonSuite } from './suite.mjs';
import { PLAY_TIMEOUT_MS } from './helpers.mjs';

const FRAME = 'course';

/** The lesson page's log entries of `type`, parsed. */
async function logged(page, type) {
  const texts = await page.$$eval(`#log li[data-frame="${FRAME}"][data-type="${type}"]`, (items) =>
    items.map((li) => li.textContent),
  );
  return texts.map((t) => JSON.parse(t.slice(t.indexOf('{'))));
}

async function waitForLogged(page, type, count) {
  await page.waitForFunction(
    ([t, n]) => document.querySelectorAll(`#log li[data-type="${t}"]`).length >= n,
    [type, count],
    { timeout: PLAY_TIMEOUT_MS * 2 },
  );
}

async function command(page, name, action) {
  const selector = action
    ? `.commands [data-command="${name}"][data-action="${action}"]`
    : `.commands [data-command="${name}"]`;
  await page.locator(selector).click();
}

/** Plays the exercise to its end; when the page fires (the frame pauses), `respond` first. */
async function playThrough(page, respond) {
  const pages = (await logged(page, 'page')).length;
  const debriefs = (await logged(page, 'debrief')).length;
  await command(page, 'play');
  await waitForLogged(page, 'page', pages + 1);
  if (respond) await command(page, 'act', respond);
  await command(page, 'play');
  await waitForLogged(page, 'debrief', debriefs + 1);
  return (await logged(page, 'debrief')).at(-1);
}

describe('a graded course in a lesson page', () => {
  const served = lessonSuite();

  test('the answer shows only after a pass; debrief, progress and complete reach the page; its history does not grow', async () => {
    const { page, errors } = await openPage(served.browser);
    await page.goto(`${served.lesson.url}course.html?app=${encodeURIComponent(served.app.url)}`);
    await waitForLogged(page, 'ready', 1);
    const historyLength = await page.evaluate(() => history.length);
    const frame = page.frameLocator(`#${FRAME}`);
    // The course's two exercises and the briefing, in the compact layout.
    assert.deepEqual(
      await frame.locator('.course li[data-exercise]').evaluateAll((items) => items.map((li) => li.dataset.exercise)),
      ['bad-deploy', 'viral-surge'],
    );
    assert.equal(await frame.locator('[data-field="briefing"]').isVisible(), true);
    assert.equal(await frame.locator('#scenario-select').isVisible(), false);

    // Doing nothing fails: the answer stays hidden.
    const first = await playThrough(page, null);
    assert.equal(first.exercise, 'bad-deploy');
    assert.equal(first.passed, false);
    assert.equal(first.attempt, 1);
    assert.ok(first.score < 60, `score ${first.score}`);
    assert.equal(first.verdict, 'same_as_nothing');
    assert.ok(first.par.textbook.actions.length > 0, JSON.stringify(first.par));
    await frame.locator('[data-field="grade"][data-passed="false"]').waitFor();
    assert.equal(await frame.locator('tr[data-par="textbook"]').isVisible(), false);
    assert.equal(await frame.locator('tr[data-par="best_single_action"]').isVisible(), false);
    assert.equal(await frame.locator('.debrief .lesson').isVisible(), false);
    assert.equal(await frame.locator('[data-field="answer-note"]').isVisible(), true);
    const progress = (await logged(page, 'progress')).at(-1);
    assert.deepEqual(progress.progress, { best: first.score, attempts: 1, passed: false });
    assert.equal((await logged(page, 'complete')).length, 0);

    // Start over and roll back when paged: passed on the second attempt, the answer shown.
    await command(page, 'reset');
    await waitForLogged(page, 'ready', 2);
    const second = await playThrough(page, 'rollback');
    assert.equal(second.passed, true);
    assert.equal(second.attempt, 2);
    assert.ok(second.score >= 60, `score ${second.score}`);
    await frame.locator('[data-field="grade"][data-passed="true"]').waitFor();
    assert.equal(await frame.locator('tr[data-par="textbook"]').isVisible(), true);
    assert.equal(await frame.locator('.debrief .lesson').isVisible(), true);
    await waitForLogged(page, 'complete', 1);
    const [complete] = await logged(page, 'complete');
    assert.equal(complete.exercise, 'bad-deploy');
    assert.equal(complete.course, 'bad-deploy,viral-surge');
    assert.equal(complete.score, second.score);
    // The course's list says so, and the next exercise is offered.
    assert.match(await frame.locator('li[data-exercise="bad-deploy"] [data-field="exercise-progress"]').textContent(), /passed/);
    assert.equal(await frame.locator('[data-action="next-exercise"]').isVisible(), true);

    // The page's xAPI statements: failed, progressed, passed, progressed, completed.
    const verbs = await page.$$eval('#statements li', (items) => items.map((li) => li.dataset.verb));
    assert.deepEqual(verbs, ['failed', 'progressed', 'passed', 'progressed', 'completed']);
    const passed = JSON.parse(await page.locator('#statements li[data-verb="passed"]').textContent());
    assert.equal(passed.result.score.scaled, second.score / 100);
    assert.equal(passed.result.success, true);

    assert.equal(await page.evaluate(() => history.length), historyLength, 'the frame added history entries');
    assert.deepEqual(errors, []);
    await page.close();
  });
});
