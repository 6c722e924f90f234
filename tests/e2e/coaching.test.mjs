// End-to-end tests of what coaches the trainee while playing: the clock stops when the page
// fires (unless the link turns it off), at the minute the page fired, and says why.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

import { serveStatic } from './static-server.mjs';
import { openBrowser, openPage } from './browser.mjs';
import { DIST, PLAY_TIMEOUT_MS, load, shownMinute, timeButton, waitForMinute } from './helpers.mjs';

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
});
