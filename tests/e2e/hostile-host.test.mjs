// End-to-end tests of what a page around the console (or a link) may throw at it: an origins
// list without a valid entry sends nothing to a foreign page, a 10 MB command gets a short
// error, a burst of 10,000 resets costs one rebuild and one `ready` a frame at most and leaves
// a working run, and a link that would replay for minutes can be stopped where it got to.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';

import { openPage } from './browser.mjs';
import { LOAD_TIMEOUT_MS, load, shownMinute, waitForMinute } from './helpers.mjs';
import { lessonSuite } from './suite.mjs';

describe('a hostile host page or link', () => {
  const served = lessonSuite();

  /**
   * A page of the lesson's origin framing the console at `query` (as `id`), recording every
   * message the frame sends it in `window.received[id]`.
   */
  async function frameOnLesson(page, id, query) {
    if (!page.url().startsWith(served.lesson.url)) {
      await page.goto(`${served.lesson.url}embed.html`);
      await page.evaluate(() => {
        window.received = {};
        window.addEventListener('message', (e) => {
          const from = [...document.querySelectorAll('iframe')].find((f) => f.contentWindow === e.source);
          if (!from) return;
          (window.received[from.id] ??= []).push({ origin: e.origin, data: e.data, json: JSON.stringify(e.data) });
        });
      });
    }
    await page.evaluate(
      ([frameId, src]) => {
        const frame = document.createElement('iframe');
        frame.id = frameId;
        frame.width = 820;
        frame.height = 620;
        frame.src = src;
        document.body.prepend(frame);
      },
      [id, `${served.app.url}?${query}`],
    );
    const frame = page.frameLocator(`#${id}`);
    await frame.locator('tr[data-metric="requests_per_s"] .value').filter({ hasText: /\d/ }).waitFor({
      state: 'attached',
      timeout: LOAD_TIMEOUT_MS,
    });
    return frame;
  }

  const received = (page, id) => page.evaluate((frameId) => window.received[frameId] ?? [], id);

  test('an origins list without a valid entry sends nothing to the page around it', async () => {
    const { page, errors } = await openPage(served.browser);
    // Beside it, a frame without origins: its messages reach the lesson page, so the
    // listening works.
    await frameOnLesson(page, 'open', 'scenario=bad-deploy&seed=7&embed=1');
    const closed = await frameOnLesson(
      page,
      'closed',
      'scenario=bad-deploy&seed=7&embed=1&origins=lessons.example.org,*',
    );
    await page.waitForFunction(() => (window.received.open ?? []).some((m) => m.data.type === 'ready'));
    // The closed frame plays on its own (a command from its own origin): minute messages follow.
    const inner = await (await page.$('#closed')).contentFrame();
    await inner.evaluate(() => {
      for (let i = 0; i < 3; i += 1) window.postMessage({ type: 'step' }, location.origin);
    });
    await closed.locator('[data-field="minute"]', { hasText: /^\s*4\s*$/ }).waitFor({ timeout: LOAD_TIMEOUT_MS });
    await page.waitForTimeout(300);
    assert.deepEqual(await received(page, 'closed'), [], 'a foreign page received the messages');
    const notice = await closed.locator('.notices .notice p').allTextContents();
    assert.ok(notice.some((n) => n.includes('lessons.example.org')), `no notice naming the entry: ${notice}`);
    assert.deepEqual(errors, []);
  });

  test('a 10 MB command is answered with an error under 1 KB', async () => {
    const { page, errors } = await openPage(served.browser);
    await frameOnLesson(page, 'big', `scenario=bad-deploy&seed=7&embed=1&origins=${encodeURIComponent(served.lesson.url.replace(/\/$/, ''))}`);
    await page.waitForFunction(() => (window.received.big ?? []).some((m) => m.data.type === 'ready'));
    await page.evaluate((origin) => {
      const w = document.getElementById('big').contentWindow;
      w.postMessage({ type: 'act', action: 'x'.repeat(1e7) }, origin);
      w.postMessage({ type: 'y'.repeat(1e7) }, origin);
    }, new URL(served.app.url).origin);
    await page.waitForFunction(
      () => (window.received.big ?? []).filter((m) => m.data.type === 'error').length >= 2,
      null,
      { timeout: LOAD_TIMEOUT_MS },
    );
    const problems = (await received(page, 'big')).filter((m) => m.data.type === 'error');
    for (const { json } of problems) {
      assert.ok(json.length < 1024, `an error of ${json.length} characters`);
      assert.match(json, /…/);
    }
    assert.deepEqual(errors, []);
  });

  test('a burst of 10,000 resets is one ready a frame at most and leaves a working run', async () => {
    const { page, errors } = await openPage(served.browser);
    const origin = encodeURIComponent(served.lesson.url.replace(/\/$/, ''));
    const frame = await frameOnLesson(page, 'burst', `scenario=bad-deploy&seed=7&embed=1&origins=${origin}`);
    await page.waitForFunction(() => (window.received.burst ?? []).some((m) => m.data.type === 'ready'));
    const inner = await (await page.$('#burst')).contentFrame();
    // Frames and long tasks, counted inside the console's frame.
    await inner.evaluate(() => {
      window.burst = { frames: 0, longest: 0 };
      const count = () => {
        window.burst.frames += 1;
        requestAnimationFrame(count);
      };
      requestAnimationFrame(count);
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) window.burst.longest = Math.max(window.burst.longest, e.duration);
      }).observe({ type: 'longtask' });
    });
    // Some minutes and an action first, which the resets throw away.
    const readyBefore = (await received(page, 'burst')).filter((m) => m.data.type === 'ready').length;
    const framesBefore = await inner.evaluate(() => window.burst.frames);
    await page.evaluate((target) => {
      const w = document.getElementById('burst').contentWindow;
      for (let i = 0; i < 5; i += 1) w.postMessage({ type: 'step' }, target);
      w.postMessage({ type: 'act', action: 'rollback' }, target);
      for (let i = 0; i < 10_000; i += 1) w.postMessage({ type: 'reset' }, target);
    }, new URL(served.app.url).origin);
    // Settled: the run is back at its opening minute and takes a step again.
    await page.waitForTimeout(500);
    await page.evaluate((target) => {
      document.getElementById('burst').contentWindow.postMessage({ type: 'step' }, target);
    }, new URL(served.app.url).origin);
    await frame.locator('[data-field="minute"]', { hasText: /^\s*2\s*$/ }).waitFor({ timeout: LOAD_TIMEOUT_MS });
    const { frames, longest } = await inner.evaluate(() => window.burst);
    const ready = (await received(page, 'burst')).filter((m) => m.data.type === 'ready').length - readyBefore;
    const elapsedFrames = frames - framesBefore;
    console.log(`10,000 resets: ${ready} ready messages over ${elapsedFrames} frames; longest task ${longest.toFixed(0)} ms`);
    assert.ok(ready >= 1, 'no ready after the resets');
    assert.ok(ready <= elapsedFrames + 1, `${ready} ready messages in ${elapsedFrames} frames`);
    assert.ok(ready < 100, `${ready} ready messages for one burst`);
    const minutes = (await received(page, 'burst')).filter((m) => m.data.type === 'minute');
    assert.equal(minutes.at(-1).data.minute, 2);
    const lastReady = (await received(page, 'burst')).filter((m) => m.data.type === 'ready').at(-1);
    assert.equal(lastReady.data.minute, 1);
    assert.deepEqual(errors, []);
  });

  test('a link that would replay for minutes shows its progress and stops where it got to', async () => {
    const { page, errors } = await openPage(served.browser);
    await load(page, served.app.url, 'full.html?scenario=free-play&seed=3&engine=requests&t=43200');
    const stop = page.locator('[data-action="stop-replay"]');
    await stop.waitFor({ timeout: LOAD_TIMEOUT_MS });
    await page.locator('.status-hint', { hasText: /43200/ }).waitFor({ timeout: LOAD_TIMEOUT_MS });
    await page.waitForFunction(() => Number(document.querySelector('[data-field="minute"]')?.textContent) >= 5, null, {
      timeout: LOAD_TIMEOUT_MS,
    });
    await stop.click();
    await stop.waitFor({ state: 'hidden', timeout: LOAD_TIMEOUT_MS });
    const stoppedAt = await shownMinute(page);
    assert.ok(stoppedAt >= 5 && stoppedAt < 43200, `stopped at ${stoppedAt}`);
    await page.waitForTimeout(500);
    assert.equal(await shownMinute(page), stoppedAt, 'the replay went on');
    await page.waitForFunction((m) => new URL(location.href).searchParams.get('t') === String(m), stoppedAt);
    // A live run: a step takes it one minute on.
    await page.locator('[data-time="step"]').click();
    await waitForMinute(page, stoppedAt + 1);
    assert.deepEqual(errors, []);
  });
});
