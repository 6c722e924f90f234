// The bad deploy played through with the keyboard alone, from the start view to the debrief,
// counting Tabs: to the exercise's Start button, and from the page firing to Roll back (at
// most 4; "Skip to the controls", the page's first stop, and then the mitigations, Roll back
// first). Space plays and pauses wherever the focus is but in a field that takes it, a button
// included (Enter presses it); when the run ends the focus, and the view, go to the debrief's
// heading, from which "Run it again" is a few Tabs away.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser, openPage } from './browser.mjs';
import { DIST, PLAY_TIMEOUT_MS } from './helpers.mjs';
import { serveStatic } from './static-server.mjs';

/** What has the focus: an attribute that names it. */
const focused = (page) => page.evaluate(() => {
  const e = document.activeElement;
  if (!e || e === document.body) return 'body';
  const name = e.closest('[data-control]')?.dataset.control;
  return e.dataset.action || (name && `control:${name}`) || e.id || e.className || e.tagName;
});

/** Presses Tab until `done(name)` holds for what has the focus; the Tabs pressed. */
async function tabUntil(page, done, { limit = 60, enterOn = () => false } = {}) {
  for (let tabs = 1; tabs <= limit; tabs++) {
    await page.keyboard.press('Tab');
    const now = await focused(page);
    if (done(now)) return tabs;
    if (enterOn(now)) await page.keyboard.press('Enter');
  }
  throw new Error(`not reached in ${limit} Tabs (focus on ${await focused(page)})`);
}

describe('the keyboard alone', () => {
  let site;
  let browser;
  before(async () => {
    site = await serveStatic(DIST);
    browser = await openBrowser({ width: 1440, height: 900 });
  });
  after(async () => {
    await browser.close();
    await site.close();
  });

  test('plays the bad deploy from the start view to the debrief', async () => {
    const { page, errors } = await openPage(browser);
    await page.goto(site.url);
    await page.locator('[data-action="start"]').first().waitFor();
    const toStart = await tabUntil(page, (f) => f === 'start');
    assert.equal(await page.evaluate(() => document.activeElement.closest('[data-scenario]')?.dataset.scenario), 'bad-deploy');
    await page.keyboard.press('Enter');
    await page.locator('[data-field="minute"]').filter({ hasText: /^\s*\d+\s*$/ }).waitFor();

    // The fastest speed, then Space: the clock stops when the page fires.
    for (let i = 0; i < 3; i++) await page.keyboard.press('+');
    await page.keyboard.press(' ');
    await page.waitForFunction(
      () => document.querySelector('[data-field="paging"]')?.closest('[data-level]')?.dataset.level === 'critical'
        && document.querySelector('[data-time="play"]')?.textContent.trim() === 'Play',
      null,
      { timeout: PLAY_TIMEOUT_MS },
    );
    const paged = Number(await page.locator('[data-field="minute"]').textContent());

    // From wherever the focus is, to Roll back: Enter on "Skip to the controls" on the way.
    const toRollback = await tabUntil(page, (f) => f === 'control:rollback', {
      enterOn: (f) => f === 'skip-link' || f === 'controls',
    });
    console.log(`Tabs to the bad deploy's Start: ${toStart}; from the page firing (minute ${paged}) to Roll back: ${toRollback}`);
    assert.ok(toRollback <= 4, `${toRollback} Tabs from the page to Roll back`);
    await page.keyboard.press('Enter');
    await page.locator('[data-control="rollback"]').filter({ hasText: /\d+ min/ }).waitFor({ timeout: 5_000 }).catch(() => {});

    // Space on the Roll back button plays (it does not press it again), and again pauses.
    assert.equal(await focused(page), 'control:rollback');
    await page.keyboard.press(' ');
    assert.equal((await page.locator('[data-time="play"]').textContent()).trim(), 'Pause');
    await page.keyboard.press(' ');
    assert.equal((await page.locator('[data-time="play"]').textContent()).trim(), 'Play');
    // To the end: the focus and the view go to the debrief's heading.
    await page.keyboard.press(' ');
    await page.waitForFunction(() => document.activeElement?.id === 'debrief-heading', null, { timeout: PLAY_TIMEOUT_MS });
    const inView = await page.evaluate(() => {
      const r = document.getElementById('debrief-heading').getBoundingClientRect();
      return r.top >= 0 && r.bottom <= innerHeight;
    });
    assert.ok(inView, 'the debrief heading is on screen');
    assert.match(await page.locator('#debrief').textContent(), /26:rollback|rollback/);
    const toAgain = await tabUntil(page, (f) => f === 'run-again');
    // Roll back was pressed once: Space on it played and paused instead.
    const actions = new URL(page.url()).searchParams.get('actions') ?? '';
    assert.equal(actions.split(',').filter((a) => a.endsWith(':rollback')).length, 1, actions);
    console.log(`Tabs from the debrief's heading to "Run it again": ${toAgain}`);
    assert.deepEqual(errors, []);
  });

  test('A (respond) takes the focus from anywhere to Roll back while the page fires', async () => {
    const { page, errors } = await openPage(browser);
    await page.goto(`${site.url}?scenario=bad-deploy&seed=7&t=35`);
    await page.locator('[data-field="minute"]').filter({ hasText: /^\s*35\s*$/ }).waitFor();
    assert.equal(await page.locator('.fact.page').getAttribute('data-level'), 'critical');
    await page.locator('[data-action="help"]').focus();
    await page.keyboard.press('a');
    await page.waitForFunction(
      () => document.activeElement?.closest('[data-control]')?.dataset.control === 'rollback',
      null,
      { timeout: 5_000 },
    );
    // The strip's button says so and does the same.
    assert.equal(await page.locator('[data-action="respond"]').getAttribute('aria-keyshortcuts'), 'A');
    // A in a text field is a letter.
    await page.locator('#seed-input').focus();
    await page.keyboard.press('a');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'seed-input');
    assert.deepEqual(errors, []);
  });

  test('live regions announce the page firing and resolving, not every minute', async () => {
    const { page, errors } = await openPage(browser);
    // Every text change in a live region (aria-live, or a role that is one), with the minute.
    await page.addInitScript(() => {
      window.__announced = [];
      const live = '[aria-live]:not([aria-live="off"]), [role="status"], [role="alert"], [role="log"]';
      new MutationObserver((records) => {
        const regions = new Set();
        for (const r of records) {
          const node = r.target.nodeType === 1 ? r.target : r.target.parentElement;
          const region = node?.closest(live);
          if (region) regions.add(region);
        }
        const minute = document.querySelector('[data-field="minute"]')?.textContent.trim();
        for (const region of regions) {
          const text = region.textContent.trim();
          if (text && region.__said !== text) {
            region.__said = text;
            window.__announced.push({ minute, field: region.dataset.field || region.className, text });
          }
        }
      }).observe(document, { subtree: true, childList: true, characterData: true });
    });
    await page.goto(`${site.url}?scenario=bad-deploy&seed=7`);
    await page.locator('[data-field="minute"]').filter({ hasText: /^\s*\d+\s*$/ }).waitFor();
    await page.locator('[data-time="pause-on-page"]').uncheck();
    await page.evaluate(() => { document.activeElement?.blur(); window.__announced = []; });
    for (let i = 0; i < 3; i++) await page.keyboard.press('+');
    await page.keyboard.press(' ');
    await page.waitForFunction(() => document.activeElement?.id === 'debrief-heading', null, { timeout: PLAY_TIMEOUT_MS });
    const announced = await page.evaluate(() => window.__announced);
    const paging = announced.filter((a) => a.field === 'paging');
    // The page fired and resolved: a handful of announcements over 120 minutes, each a change
    // of the paging state; nothing else spoke while the clock ran, until the run ended (the
    // debrief's verdict, and the strip's and the controls' word that the exercise is over).
    assert.ok(paging.length >= 1 && paging.length <= 6, JSON.stringify(paging));
    const others = announced.filter((a) => a.field !== 'paging' && a.minute !== '120');
    assert.deepEqual(others, [], JSON.stringify(others));
    console.log(`Announced while the bad deploy played: ${announced.map((a) => `${a.minute} ${a.text}`).join('; ')}`);
    assert.deepEqual(errors, []);
  });
});
