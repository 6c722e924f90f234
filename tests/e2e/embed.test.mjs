// End-to-end tests of embedding: the sample lesson page (docs/embed.html, built into
// dist/embed.html) frames the console twice from another origin, each frame shows its status,
// controls and two charts without scrolling, and the link's options (locked, controls,
// autoplay, speed, theme) shape the page; the Embed button gives the frame's code. Also: in the
// full layout the controls and two charts are above the fold at common laptop sizes.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

import { serveStatic } from './static-server.mjs';
import { openBrowser, openPage } from './browser.mjs';
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

describe('embedding in a lesson page', () => {
  let app;
  let lesson;
  let browser;

  before(async () => {
    assert.ok(existsSync(join(DIST, 'embed.html')), 'dist/embed.html is missing: run trunk build');
    // Two servers of the same build: two origins, as a lesson site and the simulator's site.
    app = await serveStatic(DIST);
    lesson = await serveStatic(DIST);
    browser = await openBrowser({ width: 1280, height: 900 });
  });

  after(async () => {
    await browser?.close();
    await app?.close();
    await lesson?.close();
    assert.deepEqual(browser?.offHost ?? [], [], 'the page tried to reach another host');
  });

  async function openLesson() {
    const opened = await openPage(browser);
    await opened.page.goto(`${lesson.url}embed.html?app=${encodeURIComponent(app.url)}`);
    for (const id of ['deploy', 'flush']) {
      await opened.page
        .frameLocator(`#${id}`)
        .locator('tr[data-metric="requests_per_s"] .value')
        .filter({ hasText: /\d/ })
        .waitFor({ timeout: LOAD_TIMEOUT_MS });
    }
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

  test('autoplay and speed start the clock; a wrong option is named and the others kept', async () => {
    const { page, errors } = await openPage(browser);
    await load(page, app.url, '?scenario=viral-surge&seed=3&autoplay=1&speed=60&theme=blue&embed=1');
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
      await load(page, app.url, '?scenario=bad-deploy&seed=7');
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
        for (const selector of ['[data-time="play"]', '#controls h2', '[data-control="min_instances"]']) {
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
