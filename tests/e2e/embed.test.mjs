// End-to-end tests of embedding: the sample lesson page (docs/embed.html, built into
// dist/embed.html) frames the console twice from another origin, the frames report to it and
// obey its commands, commands from an origin the link does not list are ignored, and the
// link's options (locked, controls, autoplay, speed, theme) shape the page. Also: in the full
// layout the controls and two charts are above the fold at common laptop sizes.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';

import { serveStatic } from './static-server.mjs';
import { openBrowser, openPage } from './browser.mjs';
import { lessonSuite } from './suite.mjs';
import { DIST, LOAD_TIMEOUT_MS, PLAY_TIMEOUT_MS, load, shownMinute } from './helpers.mjs';

/** Whether box `inner` lies inside box `outer` (page coordinates, 1 px of slack). */
function inside(inner, outer) {
  return (
    inner.x >= outer.x - 1 &&
    inner.y >= outer.y - 1 &&
    inner.x + inner.width <= outer.x + outer.width + 1 &&
    inner.y + inner.height <= outer.y + outer.height + 1
  );
}

/** The lesson page's log entries of `type` from frame `frame`. */
async function logged(page, frame, type) {
  return page.$$eval(
    `#log li[data-frame="${frame}"][data-type="${type}"]`,
    (items) => items.map((li) => li.textContent),
  );
}

async function waitForLogged(page, frame, type, count = 1) {
  await page.waitForFunction(
    ([f, t, n]) => document.querySelectorAll(`#log li[data-frame="${f}"][data-type="${t}"]`).length >= n,
    [frame, type, count],
    { timeout: LOAD_TIMEOUT_MS },
  );
}

/** The minute a frame's status strip shows. */
async function frameMinute(frame) {
  return Number((await frame.locator('[data-field="minute"]').textContent()).trim());
}

async function waitForFrameMinute(frame, minute) {
  await frame.locator('[data-field="minute"]', { hasText: new RegExp(`^\\s*${minute}\\s*$`) }).waitFor({
    timeout: LOAD_TIMEOUT_MS,
  });
}

describe('embedding in a lesson page', () => {
  // Two servers of the same build: two origins, as a lesson site and the simulator's site.
  const served = lessonSuite();

  async function openLesson() {
    const opened = await openPage(served.browser);
    await opened.page.goto(`${served.lesson.url}embed.html?app=${encodeURIComponent(served.app.url)}`);
    await waitForLogged(opened.page, 'deploy', 'ready');
    await waitForLogged(opened.page, 'flush', 'ready');
    return opened;
  }

  test('each 820×620 frame shows the status, the controls and two charts without scrolling', async () => {
    const { page, errors } = await openLesson();
    for (const id of ['deploy', 'flush']) {
      const box = await page.locator(`#${id}`).boundingBox();
      assert.equal(Math.round(box.width), 820);
      assert.equal(Math.round(box.height), 620);
      const frame = page.frameLocator(`#${id}`);
      const boxes = async (selector) =>
        Promise.all((await frame.locator(selector).all()).map((l) => l.boundingBox()));
      const charts = (await boxes('canvas[data-chart]')).filter((b) => b && inside(b, box));
      assert.ok(charts.length >= 2, `${id}: ${charts.length} charts inside the frame`);
      for (const selector of ['.status-strip', '[data-time="play"]', '[data-time="step"]']) {
        const [b] = await boxes(selector);
        assert.ok(b && inside(b, box), `${id}: ${selector} is outside the frame`);
      }
      const controls = (await boxes('.controls-panel [data-control]')).filter(Boolean);
      assert.ok(controls.length >= 2, `${id}: ${controls.length} controls shown`);
      for (const b of controls) assert.ok(inside(b, box), `${id}: a control is below the frame's edge`);
      // The run's set-up is the lesson's: not in the frame.
      assert.equal(await frame.locator('.area-setup').isVisible(), false);
      // The full simulator, one click away, with the run and without the embedding.
      const full = frame.locator('[data-action="full-simulator"]');
      assert.ok(inside(await full.boundingBox(), box));
    }
    // The deploy lesson shows only the controls it names.
    const deploy = page.frameLocator('#deploy');
    assert.equal(await deploy.locator('[data-control="rollback"]').isVisible(), true);
    assert.equal(await deploy.locator('[data-control="warm_cache"]').isVisible(), false);
    // Locked: scenario and autoscaler cannot be changed (the seed form is gone with the set-up).
    assert.equal(await deploy.locator('#scenario-select').isDisabled(), true);
    assert.equal(await deploy.locator('#policy-select').isDisabled(), true);
    // The second frame is dark, as its link asks.
    const theme = await page
      .frameLocator('#flush')
      .locator('html')
      .getAttribute('data-theme');
    assert.equal(theme, 'dark');
    assert.deepEqual(errors, []);
  });

  test("a reset in a frame adds no entry to the lesson page's history", async () => {
    const { page, errors } = await openLesson();
    const before = await page.evaluate(() => history.length);
    const frame = page.frameLocator('#deploy');
    await frame.locator('[data-time="step"]').click();
    await waitForFrameMinute(frame, 2);
    await frame.locator('[data-time="reset"]').click();
    await waitForFrameMinute(frame, 1);
    // The frame still offers the run it left.
    await frame.locator('.undo-offer, [data-action="undo"]').first().waitFor({ timeout: LOAD_TIMEOUT_MS });
    assert.equal(await page.evaluate(() => history.length), before, 'the reset added a history entry');
    assert.deepEqual(errors, []);
  });

  test('ready and minute messages arrive; step, pause and act work from the host page', async () => {
    const { page, errors } = await openLesson();
    const ready = JSON.parse((await logged(page, 'deploy', 'ready'))[0].replace(/^deploy: ready /, ''));
    assert.equal(ready.scenario, 'bad-deploy');
    assert.equal(ready.seed, 7);
    assert.equal(ready.minute, 1);
    const frame = page.frameLocator('#deploy');

    const commands = page.locator('.commands[data-frame="deploy"]');
    for (let i = 0; i < 3; i += 1) await commands.locator('[data-command="step"]').click();
    await waitForFrameMinute(frame, 4);
    await waitForLogged(page, 'deploy', 'minute', 3);
    const minutes = await logged(page, 'deploy', 'minute');
    // Minutes count as the status strip and the link's t do: minutes played.
    assert.match(minutes[0], /"minute":2,"clock":"09:02"/);
    assert.match(minutes[2], /"minute":4,"clock":"09:04"/);
    assert.match(minutes[2], /"error_rate":/);

    // Play, then pause: the clock stops and stays stopped.
    await commands.locator('[data-command="play"]').click();
    await page.waitForFunction(
      () => document.querySelectorAll('#log li[data-frame="deploy"][data-type="minute"]').length >= 6,
      null,
      { timeout: PLAY_TIMEOUT_MS },
    );
    await commands.locator('[data-command="pause"]').click();
    await frame.locator('[data-time="play"]', { hasText: 'Play' }).waitFor({ timeout: LOAD_TIMEOUT_MS });
    const paused = await frameMinute(frame);
    await page.waitForTimeout(600);
    assert.equal(await frameMinute(frame), paused, 'the clock went on after pause');

    // Step past the deploy, then roll back from the host page: the action waits for the next
    // minute, takes effect there and is reported.
    const toStep = Math.max(0, 16 - paused);
    for (let i = 0; i < toStep; i += 1) await commands.locator('[data-command="step"]').click();
    await waitForFrameMinute(frame, Math.max(16, paused));
    await commands.locator('[data-command="act"][data-action="rollback"]').click();
    await frame.locator('[data-status="rollback"]', { hasText: /^Queued for / }).waitFor({
      timeout: LOAD_TIMEOUT_MS,
    });
    await commands.locator('[data-command="step"]').click();
    await waitForLogged(page, 'deploy', 'action');
    const [action] = await logged(page, 'deploy', 'action');
    assert.match(action, /"action":"rollback"/);
    assert.deepEqual(errors, []);
  });

  test('commands from an origin the link does not list are ignored', async () => {
    const { page, errors } = await openPage(served.browser);
    // A frame whose link lists another origin than the lesson page's.
    await page.goto(`${served.lesson.url}embed.html?app=${encodeURIComponent(served.app.url)}`);
    await waitForLogged(page, 'deploy', 'ready');
    await page.evaluate((src) => {
      const frame = document.createElement('iframe');
      frame.id = 'stranger';
      frame.src = src;
      frame.width = 820;
      frame.height = 620;
      document.body.append(frame);
    }, `${served.app.url}?scenario=bad-deploy&seed=7&embed=1&origins=https://lessons.example.org`);
    const stranger = page.frameLocator('#stranger');
    await stranger.locator('tr[data-metric="requests_per_s"] .value').filter({ hasText: /\d/ }).waitFor({
      timeout: LOAD_TIMEOUT_MS,
    });
    // From the lesson page's origin: ignored.
    await page.evaluate((origin) => {
      const w = document.getElementById('stranger').contentWindow;
      w.postMessage({ type: 'step' }, origin);
      w.postMessage({ type: 'step' }, origin);
    }, new URL(served.app.url).origin);
    // From the frame's own origin: obeyed. Messages are handled in order, so when this step
    // shows, the two before it have been handled, and they changed nothing.
    const inner = page.frames().find((f) => f.url().includes('origins=https'));
    await inner.evaluate(() => window.postMessage({ type: 'step' }, location.origin));
    await waitForFrameMinute(stranger, 2);
    await page.waitForTimeout(300);
    assert.equal(await frameMinute(stranger), 2);
    assert.deepEqual(errors, []);
  });

  test('a command the console does not know is answered with an error naming the known ones', async () => {
    const { page, errors } = await openLesson();
    await page.evaluate((origin) => {
      const w = document.getElementById('deploy').contentWindow;
      w.postMessage({ type: 'teleport' }, origin);
      w.postMessage({ type: 'act', action: 'cache_ttl_s=99999' }, origin);
    }, new URL(served.app.url).origin);
    await waitForLogged(page, 'deploy', 'error', 2);
    const [unknown, bad] = await logged(page, 'deploy', 'error');
    assert.match(unknown, /teleport/);
    assert.match(unknown, /play, pause, step, reset, speed, act/);
    assert.match(bad, /cache_ttl_s=99999/);
    assert.deepEqual(errors, []);
  });

  test('autoplay and speed start the clock; a wrong option is named and the others kept', async () => {
    const { page, errors } = await openPage(served.browser);
    await load(page, served.app.url, '?scenario=viral-surge&seed=3&autoplay=1&speed=60&theme=blue&embed=1');
    await page.waitForFunction(
      () => Number(document.querySelector('[data-field="minute"]')?.textContent) > 5,
      null,
      { timeout: PLAY_TIMEOUT_MS },
    );
    assert.equal(await page.locator('[data-time="speed"]').inputValue(), '3');
    const notices = await page.locator('.notices').textContent();
    assert.match(notices, /“theme”: “blue”/);
    assert.match(notices, /light, dark, projector/);
    assert.equal(await page.locator('html').getAttribute('data-layout'), 'embed');
    assert.equal(await page.locator('html').getAttribute('data-theme'), null);
    assert.deepEqual(errors, []);
  });

  test('the Embed button gives the frame code of the run', async () => {
    const browser2 = await openBrowser({
      width: 1280,
      height: 800,
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    try {
      const { page, errors } = await openPage(browser2);
      await load(page, served.app.url, '?scenario=bad-deploy&seed=7');
      await page.locator('[data-action="embed"]').click();
      await page.locator('.share-copied').waitFor();
      const code = await page.evaluate(() => navigator.clipboard.readText());
      assert.match(code, /^<iframe src="http:\/\/127\.0\.0\.1:\d+\/\?scenario=bad-deploy&amp;seed=7&amp;/);
      assert.match(code, /&amp;embed=1" width="820" height="620" title="On-call simulator"/);
      // The code frames the same run in the compact layout.
      const src = code.match(/src="([^"]+)"/)[1].replaceAll('&amp;', '&');
      const { page: framed } = await openPage(browser2);
      await load(framed, '', src);
      assert.equal(await framed.locator('html').getAttribute('data-layout'), 'embed');
      assert.equal(new URL(framed.url()).searchParams.get('seed'), '7');
      assert.deepEqual(errors, []);
    } finally {
      await browser2.close();
    }
  });
});

describe('the full layout above the fold', () => {
  let site;

  before(async () => {
    site = await serveStatic(DIST);
  });

  after(async () => {
    await site?.close();
  });

  for (const [width, height] of [
    [1024, 768],
    [1280, 800],
  ]) {
    test(`at ${width}×${height} the controls and two charts are in view`, async () => {
      const browser = await openBrowser({ width, height });
      try {
        const { page, errors } = await openPage(browser);
        await load(page, site.url, '?scenario=bad-deploy&seed=7');
        const fold = { x: 0, y: 0, width, height };
        const charts = [];
        for (const l of await page.locator('canvas[data-chart]').all()) {
          const b = await l.boundingBox();
          if (b && inside(b, fold)) charts.push(b);
        }
        assert.ok(charts.length >= 2, `${charts.length} charts above the fold`);
        // The controls' heading and their first control (the mitigations come first).
        for (const selector of ['[data-time="play"]', '#controls h2', '#controls [data-control]']) {
          const b = await page.locator(selector).first().boundingBox();
          assert.ok(b && inside(b, fold), `${selector} is below the fold`);
        }
        assert.equal(await shownMinute(page), 1);
        assert.deepEqual(errors, []);
      } finally {
        await browser.close();
      }
    });
  }
});
